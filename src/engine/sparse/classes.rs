//! Split digits and value classes: the small tables every part of a block reads.

use super::mask::SparseMask;

/// A digit that allows splitting `n - j` tokens into two heaps.
#[derive(Debug, Clone, Copy)]
pub(super) struct SplitDigit {
    pub(super) j: usize,
    pub(super) unequal: bool,
}

impl SplitDigit {
    /// For heap `n0 + i` of a block starting at `n0`: the least `a` whose split
    /// `a + (n0 + i - j - a)` has both parts below `n0`.
    #[inline]
    pub(super) fn outer(self, i: usize) -> usize {
        (i + 1).saturating_sub(self.j).max(1)
    }

    /// Largest smaller part of a split of `s`.
    #[inline]
    pub(super) fn amax(self, s: usize) -> usize {
        if self.unequal {
            s.saturating_sub(1) / 2
        } else {
            s / 2
        }
    }
}

/// Words per option set when every value is below `2^bits`: room for the mex (at most `2^bits`).
pub(super) fn words_for(bits: u32) -> usize {
    if bits <= 5 {
        1
    } else {
        (1usize << bits >> 6) + 1
    }
}

/// Bytes per heap of value flags when every value is below `2^bits` (the flags only record
/// options, which are below `2^bits`; the set's last word is for the mex).
pub(super) fn flag_stride(bits: u32) -> usize {
    64 * (1usize << bits).div_ceil(64)
}

/// Value classes of one mask, word by word: bit `b` of word `w` is set when `64 w + b` has class 1.
pub(super) struct Classes {
    pub(super) class1: Vec<u64>,
}

impl Classes {
    pub(super) fn new(mask: u32, words: usize) -> Self {
        let mut p = 0u64;
        for b in 0..64u32 {
            if (b & mask).count_ones() & 1 == 1 {
                p |= 1 << b;
            }
        }
        let class1 = (0..words as u64)
            .map(|w| {
                if ((w << 6) & mask as u64).count_ones() & 1 == 1 {
                    !p
                } else {
                    p
                }
            })
            .collect();
        Classes { class1 }
    }

    /// `popcount(v & mask) mod 2`, read from the table where it reaches.
    #[inline]
    pub(super) fn class_of(&self, m: SparseMask, v: u32) -> u32 {
        match self.class1.get((v >> 6) as usize) {
            Some(w) => (w >> (v & 63)) as u32 & 1,
            None => m.class(v),
        }
    }

    #[inline]
    pub(super) fn word(&self, w: usize, class: u32) -> u64 {
        if class == 1 {
            self.class1[w]
        } else {
            !self.class1[w]
        }
    }

    /// The candidate: the least value of `class` not in `set`, or `64 * set.len()` if that is
    /// smaller (no option reaches it, every option being below `2^bits`).
    #[inline]
    pub(super) fn candidate(&self, set: &[u64], class: u32) -> u32 {
        for (w, &s) in set.iter().enumerate() {
            let cand = !s & self.word(w, class);
            if cand != 0 {
                return (w as u32) * 64 + cand.trailing_zeros();
            }
        }
        set.len() as u32 * 64
    }
}
