//! A small cache of one search thread, direct-mapped and kept in the processor's first
//! caches: components' keys by their cells. A key is a pure function of the cells, so the
//! cache only saves work, and a hit is checked against the whole cells: it never answers for
//! other cells.
//!
//! A search meets the same cells again and again: three parts in four that a Cram search
//! meets were met before as the same cells. (A like cache of options' parts, by the option's
//! cells, two options in five met before, saved 3% on Cram 3x6 and nothing on 4x9: dropped.)

use crate::board::Board;

/// Keys of components by their cells.
pub(super) struct KeyCache {
    /// `(cells, key)`; no component has no cells, so `(0, _)` is empty.
    slots: Box<[(u128, u128)]>,
}

/// The slot of `cells` among `2^bits`.
#[inline]
fn slot_of(cells: u128, bits: u32) -> usize {
    let h = (cells as u64 ^ (cells >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (h >> (64 - bits)) as usize
}

impl KeyCache {
    /// log2 of the entries: 32 KiB, eight pages. (128 KiB searched no faster, and cost the
    /// first touches of 32 pages: Cram 3x6 0.83 ms instead of 0.72.)
    const BITS: u32 = 10;

    pub(super) fn new() -> KeyCache {
        KeyCache {
            slots: vec![(0, 0); 1 << Self::BITS].into_boxed_slice(),
        }
    }

    /// The key of component `cells`.
    #[inline]
    pub(super) fn key<B: Board + ?Sized>(&mut self, board: &B, cells: u128) -> u128 {
        let slot = &mut self.slots[slot_of(cells, Self::BITS)];
        if slot.0 != cells {
            *slot = (cells, board.key(cells));
        }
        slot.1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Cram;
    use crate::engine::testing::Rng;

    /// The key cache gives each component its board's key, through collisions and
    /// replacements (far more components than slots, many met again).
    #[test]
    fn key_cache_gives_the_boards_keys() {
        let cram = Cram::new(5, 9).unwrap();
        let mut cache = KeyCache::new();
        let mut rng = Rng(9);
        let cells: Vec<u128> = (0..3000)
            .map(|_| (u128::from(rng.below(u64::MAX)) & cram.empty()) | 1)
            .collect();
        for _ in 0..20_000 {
            let c = cells[rng.below(cells.len() as u64) as usize];
            assert_eq!(cache.key(&cram, c), cram.key(c));
        }
    }
}
