//! The transposition table of the nimber search: a fixed array of buckets that never grows,
//! keyed by a component's canonical key (kept whole, so a hit is never a different
//! component), holding its exact value or the values it is known not to have.
//!
//! ```
//! use grundy::nimber_search::Table;
//! let mut t = Table::with_budget(1 << 10).unwrap(); // 1 KiB: 10 buckets of 4 entries
//! t.store_exact(42, 3, 5);
//! t.store_not(7, 0b1, 2); // 7 is not 0
//! assert_eq!(t.exact(42), Some(3));
//! assert!(t.known_not(7, 0) && !t.known_not(7, 1));
//! assert!(t.bytes() <= 1 << 10);
//! ```

use crate::error::{Error, Result};
use crate::memory;

/// Entries per bucket; a new entry replaces the bucket's least useful one.
const WAYS: usize = 4;
/// Values below this are remembered as "not this value"; larger ones only when exact.
const NOT_BITS: u32 = 32;
/// An entry is in use (an all-zero slot is free).
const USED: u64 = 1 << 63;

/// An entry: the key's low and high halves, and its information: bits 0..32, values the
/// component is known not to have; bits 32..48, its value + 1, or 0 when unknown; bits 48..56,
/// its size (cells); bit 63, [`USED`]. Plain integers, so that a new table is zeroed by the
/// allocator (pages the search never touches cost nothing).
type Slot = [u64; 3];
type Bucket = [Slot; WAYS];

/// Bytes of a bucket, the smallest table.
pub(crate) const BUCKET_BYTES: u64 = std::mem::size_of::<Bucket>() as u64;

#[inline]
fn used(s: &Slot) -> bool {
    s[2] & USED != 0
}

#[inline]
fn holds(s: &Slot, lo: u64, hi: u64) -> bool {
    used(s) && s[0] == lo && s[1] == hi
}

#[inline]
fn exact_of(s: &Slot) -> Option<u32> {
    let v = (s[2] >> 32) & 0xffff;
    (v != 0).then(|| v as u32 - 1)
}

/// How much keeping an entry is worth: large components cost more to search again, and an
/// exact value says more than a few excluded ones.
fn worth(s: &Slot) -> u64 {
    if !used(s) {
        return 0;
    }
    1 + 2 * ((s[2] >> 48) & 0xff) + u64::from(exact_of(s).is_some())
}

/// The bucket of `key` among `n`: the hash scaled to `0..n`.
#[inline]
fn bucket_of(key: u128, n: usize) -> usize {
    let (lo, hi) = (key as u64, (key >> 64) as u64);
    let mut h = lo ^ hi.rotate_left(29).wrapping_mul(0xff51_afd7_ed55_8ccd);
    h = (h ^ (h >> 32)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    h ^= h >> 29;
    ((u128::from(h) * n as u128) >> 64) as usize
}

/// A fixed-size transposition table: `u128` keys to exact values or excluded values.
///
/// The whole budget is allocated at once (zeroed pages that cost nothing until touched), but
/// only its first `used` buckets are in use, four times more each time they are half full:
/// a small search touches few pages (a page's first touch costs more than a probe).
#[derive(Debug)]
pub struct Table {
    buckets: Vec<Bucket>,
    used: usize,
    entries: u64,
}

/// Buckets in use at first.
const FIRST_BUCKETS: usize = 1 << 10;

impl Table {
    /// The most buckets that fit in `bytes` (at least one: 96 bytes).
    ///
    /// # Errors
    /// [`Error::Invalid`] when `bytes` is below one bucket; [`Error::Memory`] when the machine
    /// does not have that much memory available.
    pub fn with_budget(bytes: u64) -> Result<Table> {
        let per = std::mem::size_of::<Bucket>() as u64;
        if bytes < per {
            return Err(Error::Invalid(format!(
                "the memory budget must be at least {per} bytes, not {bytes}"
            )));
        }
        let n = bytes / per;
        memory::check(n * per)?;
        let n = usize::try_from(n).map_err(|_| Error::Memory {
            requested: bytes,
            available: memory::available().unwrap_or(0),
        })?;
        // `vec!` of zeros asks the allocator for zeroed pages: untouched ones cost nothing.
        Ok(Table {
            buckets: vec![[[0u64; 3]; WAYS]; n],
            used: n.min(FIRST_BUCKETS),
            entries: 0,
        })
    }

    /// Bytes the table takes (never more than its budget).
    pub fn bytes(&self) -> u64 {
        (self.buckets.len() * std::mem::size_of::<Bucket>()) as u64
    }

    /// Entries in use.
    pub fn entries(&self) -> u64 {
        self.entries
    }

    /// Entries it can hold.
    pub fn capacity(&self) -> u64 {
        (self.buckets.len() * WAYS) as u64
    }

    #[inline]
    fn bucket(&self, key: u128) -> usize {
        bucket_of(key, self.used)
    }

    /// Puts the table's buckets to use four times as many (at most all), in place: with the
    /// bucket a multiple of the hash, old bucket `b`'s entries go to new buckets from
    /// `b * new / old` on, never below `b`, so the old buckets are moved from the last down
    /// (where two old buckets share a new one, the least useful entries may go).
    fn grow(&mut self) {
        let old = self.used;
        let new = old.saturating_mul(4).min(self.buckets.len());
        self.used = new;
        for b in (0..old).rev() {
            let slots = std::mem::replace(&mut self.buckets[b], [[0u64; 3]; WAYS]);
            for s in slots.iter().filter(|s| used(s)) {
                self.entries -= 1;
                let key = u128::from(s[0]) | u128::from(s[1]) << 64;
                self.place(bucket_of(key, new), *s);
            }
        }
    }

    #[inline]
    fn find(&self, key: u128) -> Option<&Slot> {
        let (lo, hi) = (key as u64, (key >> 64) as u64);
        let b = &self.buckets[self.bucket(key)];
        b.iter().find(|s| holds(s, lo, hi))
    }

    /// The value stored for `key`, if exact.
    #[inline]
    pub fn exact(&self, key: u128) -> Option<u32> {
        self.find(key).and_then(exact_of)
    }

    /// Whether `key`'s value is known not to be `v`.
    #[inline]
    pub fn known_not(&self, key: u128, v: u32) -> bool {
        self.find(key).is_some_and(|s| match exact_of(s) {
            Some(x) => x != v,
            None => v < NOT_BITS && s[2] >> v & 1 == 1,
        })
    }

    /// What the table knows of `key`: its exact value, or the set of values below 32 it is known
    /// not to have (as bits).
    #[inline]
    pub fn probe(&self, key: u128) -> (Option<u32>, u32) {
        match self.find(key) {
            Some(s) => (exact_of(s), s[2] as u32),
            None => (None, 0),
        }
    }

    /// Records that `key` (a component of `size` cells) has value `v`.
    pub fn store_exact(&mut self, key: u128, v: u32, size: u32) {
        let not = if v < NOT_BITS { !(1u32 << v) } else { u32::MAX };
        // Values past 2^16 - 2 (which no board of 128 cells reaches) are not stored.
        if v < 0xfffe {
            self.store(key, u64::from(not) | u64::from(v + 1) << 32, size);
        }
    }

    /// Records that `key` (a component of `size` cells) has none of the values in `set` (bit
    /// `v` for value `v`; values from 32 on are not recorded).
    pub fn store_not(&mut self, key: u128, set: u32, size: u32) {
        if set != 0 {
            self.store(key, u64::from(set), size);
        }
    }

    fn store(&mut self, key: u128, bits: u64, size: u32) {
        let (lo, hi) = (key as u64, (key >> 64) as u64);
        let b = self.bucket(key);
        if let Some(s) = self.buckets[b].iter_mut().find(|s| holds(s, lo, hi)) {
            s[2] |= bits;
            return;
        }
        self.place(b, [lo, hi, USED | u64::from(size.min(0xff)) << 48 | bits]);
        if self.entries as usize * 2 > self.used * WAYS && self.used < self.buckets.len() {
            self.grow();
        }
    }

    /// Puts a new entry in bucket `b`, in place of the least useful one.
    fn place(&mut self, b: usize, new: Slot) {
        let slots = &mut self.buckets[b];
        let victim = (0..WAYS).min_by_key(|&i| worth(&slots[i])).unwrap_or(0);
        if !used(&slots[victim]) {
            self.entries += 1;
        }
        slots[victim] = new;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_keeps_to_its_budget_and_replaces() {
        assert!(Table::with_budget(10).is_err());
        let mut t = Table::with_budget(100).unwrap();
        assert_eq!(t.capacity(), 4);
        for k in 0..100u128 {
            t.store_exact(k << 70 | k, (k % 5) as u32, (k % 20) as u32);
        }
        assert!(t.entries() <= 4);
        assert!(t.bytes() <= 100);
        // Whatever is still there is right.
        for k in 0..100u128 {
            if let Some(v) = t.exact(k << 70 | k) {
                assert_eq!(v, (k % 5) as u32);
            }
        }
        // Excluded values accumulate, and an exact value answers them all.
        let mut t = Table::with_budget(1 << 12).unwrap();
        t.store_not(5, 0b1, 3);
        t.store_not(5, 0b100, 3);
        assert_eq!(t.probe(5), (None, 0b101));
        t.store_exact(5, 1, 3);
        assert_eq!(t.exact(5), Some(1));
        assert!(t.known_not(5, 0) && t.known_not(5, 40) && !t.known_not(5, 1));
    }

    /// A table that grows keeps what it holds (growth never loses an entry while the buckets
    /// are at most a quarter full), and stops at its budget.
    #[test]
    fn table_grows_in_place_within_its_budget() {
        let mut t = Table::with_budget(96 << 16).unwrap();
        assert_eq!(t.used, FIRST_BUCKETS);
        let n = 100_000u128;
        for k in 0..n {
            t.store_exact(
                k.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835),
                (k % 7) as u32,
                9,
            );
        }
        assert_eq!(t.used, 1 << 16);
        assert!(t.bytes() <= 96 << 16);
        let kept = (0..n)
            .filter(|&k| {
                t.exact(k.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835))
                    == Some((k % 7) as u32)
            })
            .count() as u64;
        assert_eq!(kept, t.entries());
        assert!(kept > 90_000, "{kept}");
        // Growing loses nothing: every key there just before the first growth is there after.
        let mut t = Table::with_budget(96 << 16).unwrap();
        let key = |k: u128| k.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835);
        let mut before = Vec::new();
        for k in 0..4096u128 {
            t.store_exact(key(k), 1, 9);
            if t.used > FIRST_BUCKETS {
                break;
            }
            if t.entries() as usize * 2 == FIRST_BUCKETS * WAYS {
                before = (0..=k).filter(|&j| t.exact(key(j)).is_some()).collect();
            }
        }
        assert_eq!(t.used, 4 * FIRST_BUCKETS);
        assert!(before.len() > 2000);
        assert!(before.iter().all(|&j| t.exact(key(j)) == Some(1)));
    }
}
