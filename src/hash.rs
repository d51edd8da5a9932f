//! One fast hasher for the crate's hash maps of small keys: FxHash's multiply-rotate step (a
//! `u128` is two steps). The keys are the crate's own integers and positions, not input an
//! adversary picks, and SipHash would cost more than the rest of a lookup.
//!
//! ```
//! use grundy::hash::FxMap;
//! let mut m: FxMap<u128, u32> = FxMap::default();
//! m.insert(1 << 100, 7);
//! assert_eq!(m[&(1 << 100)], 7);
//! ```

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// FxHash's hasher: each word is rotated in and multiplied.
#[derive(Default, Clone, Copy)]
pub struct Fx(u64);

impl Hasher for Fx {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    #[inline]
    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }
    #[inline]
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }
    #[inline]
    fn write_u128(&mut self, x: u128) {
        self.write_u64(x as u64);
        self.write_u64((x >> 64) as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// A hash map with [`Fx`] hashing.
pub type FxMap<K, V> = HashMap<K, V, BuildHasherDefault<Fx>>;
/// A hash set with [`Fx`] hashing.
pub type FxSet<K> = HashSet<K, BuildHasherDefault<Fx>>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, Hash};

    fn hash<T: Hash>(x: T) -> u64 {
        BuildHasherDefault::<Fx>::default().hash_one(x)
    }

    #[test]
    fn both_halves_of_a_wide_key_count() {
        assert_ne!(hash(1u128), hash(1u128 << 64));
        assert_ne!(hash(5u128), hash(5u128 | (1 << 100)));
        assert_eq!(hash(3u32), hash(3u32));
    }
}
