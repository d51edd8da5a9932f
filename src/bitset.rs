//! Bit sets of Grundy values: the option set of one heap (for mex) and stored per-sum value sets.
//!
//! ```
//! use grundy::bitset::MexSet;
//! let mut s = MexSet::new();
//! for v in [0, 1, 3, 4, 5] { s.insert(v); }
//! assert_eq!(s.mex(), 2);
//! ```

/// Words needed for values below `bound`, rounded up to a power of two so that XOR by any value
/// below the bound stays inside the set.
pub fn stride_for(bound: u32) -> usize {
    (bound.max(1) as usize).div_ceil(64).next_power_of_two()
}

/// The least value not in the set of word array `set` (value `x` is bit `x % 64` of word
/// `x / 64`); `64 * set.len()` when every bit is set.
///
/// ```
/// assert_eq!(grundy::bitset::mex(&[u64::MAX, 0b1011]), 66);
/// assert_eq!(grundy::bitset::mex(&[u64::MAX]), 64);
/// ```
#[inline]
pub fn mex(set: &[u64]) -> u32 {
    for (i, &w) in set.iter().enumerate() {
        if w != u64::MAX {
            return (i as u32) * 64 + (!w).trailing_zeros();
        }
    }
    set.len() as u32 * 64
}

/// Reusable option set of one position: insert values, OR in whole sets, take the mex.
///
/// Words below `floor` are known to be full except perhaps for value 0 (every value there but 0
/// is an option), which lets a rule whose options include a long prefix of values (Nim) skip
/// them; whether 0 is an option is then tracked on its own in `zero`.
#[derive(Debug, Default, Clone)]
pub struct MexSet {
    words: Vec<u64>,
    lo: usize,
    hi: usize,
    floor: usize,
    zero: bool,
}

impl MexSet {
    /// An empty set.
    pub fn new() -> Self {
        Self::default()
    }

    /// Empties the set (only the words touched since the last clear are written).
    #[inline]
    pub fn clear(&mut self) {
        if self.lo < self.hi {
            self.words[self.lo..self.hi].fill(0);
        }
        self.lo = usize::MAX;
        self.hi = 0;
        self.floor = 0;
        self.zero = false;
    }

    /// Declares every value in `1 .. 64 * words` an option.
    #[inline]
    pub fn set_floor(&mut self, words: usize) {
        self.floor = self.floor.max(words);
    }

    #[inline]
    fn touch(&mut self, i: usize) {
        if i >= self.words.len() {
            self.words.resize((i + 1).next_power_of_two(), 0);
        }
        self.lo = self.lo.min(i);
        self.hi = self.hi.max(i + 1);
    }

    /// Adds value `v`.
    #[inline]
    pub fn insert(&mut self, v: u32) {
        let i = (v >> 6) as usize;
        self.zero |= v == 0;
        if i < self.floor {
            return;
        }
        self.touch(i);
        self.words[i] |= 1 << (v & 63);
    }

    /// Whether `v` is in the set.
    pub fn contains(&self, v: u32) -> bool {
        let i = (v >> 6) as usize;
        if v == 0 && self.floor > 0 {
            return self.zero;
        }
        i < self.floor || self.words.get(i).is_some_and(|w| w >> (v & 63) & 1 == 1)
    }

    /// ORs a set given as words (word `i` of `src` is word `i` of this set).
    #[inline]
    pub fn or_words(&mut self, src: &[u64]) {
        self.zero |= src.first().is_some_and(|w| w & 1 == 1);
        let from = self.floor.min(src.len());
        let Some(last) = src[from..].iter().rposition(|&w| w != 0) else {
            return;
        };
        let end = from + last + 1;
        self.touch(end - 1);
        self.touch(from);
        for (d, s) in self.words[from..end].iter_mut().zip(&src[from..end]) {
            *d |= *s;
        }
    }

    /// ORs `{x ^ g : x in src}`; `src.len()` must be a power of two covering `g`.
    pub fn or_xor_shifted(&mut self, src: &[u64], g: u32) {
        let hi_bits = (g >> 6) as usize;
        debug_assert!(hi_bits < src.len().max(1));
        // x ^ g = 0 exactly for x = g.
        self.zero |= src.get(hi_bits).is_some_and(|w| w >> (g & 63) & 1 == 1);
        for (i, &w) in src.iter().enumerate() {
            if w != 0 {
                let j = i ^ hi_bits;
                if j >= self.floor {
                    self.touch(j);
                    self.words[j] |= permute_bits(w, g & 63);
                }
            }
        }
    }

    /// Least value not in the set.
    #[inline]
    pub fn mex(&self) -> u32 {
        if self.floor > 0 && !self.zero {
            return 0;
        }
        (self.floor * 64) as u32 + mex(&self.words[self.floor..])
    }

    /// The words of the set (values `64 * i ..`), for copying it into a store.
    pub fn words(&self) -> &[u64] {
        &self.words
    }
}

/// `{x ^ g : x in w}` for the 64 values of one word (`g < 64`): swap blocks of size 2^k for each
/// set bit k of g.
#[inline]
pub fn permute_bits(mut w: u64, g: u32) -> u64 {
    const M: [u64; 6] = [
        0x5555_5555_5555_5555,
        0x3333_3333_3333_3333,
        0x0F0F_0F0F_0F0F_0F0F,
        0x00FF_00FF_00FF_00FF,
        0x0000_FFFF_0000_FFFF,
        0x0000_0000_FFFF_FFFF,
    ];
    for (k, m) in M.iter().enumerate() {
        if g >> k & 1 == 1 {
            let sh = 1 << k;
            w = ((w & m) << sh) | ((w >> sh) & m);
        }
    }
    w
}

/// Value sets indexed by a number `s` (a heap sum or a residue), `stride` words each, stored flat.
/// With a ring capacity only the last `cap` entries are kept.
#[derive(Debug, Clone)]
pub struct SetStore {
    stride: usize,
    words: Vec<u64>,
    cap: Option<usize>,
    len: usize,
}

impl SetStore {
    /// A store that keeps every entry pushed.
    pub fn unbounded(stride: usize) -> Self {
        SetStore {
            stride,
            words: Vec::new(),
            cap: None,
            len: 0,
        }
    }

    /// A store that keeps the last `cap` entries.
    pub fn ring(stride: usize, cap: usize) -> Self {
        SetStore {
            stride,
            words: vec![0; stride * cap],
            cap: Some(cap),
            len: 0,
        }
    }

    /// A store of `n` fixed entries, all empty (indexed 0..n).
    pub fn fixed(stride: usize, n: usize) -> Self {
        SetStore {
            stride,
            words: vec![0; stride * n],
            cap: None,
            len: n,
        }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Words per entry.
    pub fn stride(&self) -> usize {
        self.stride
    }

    #[inline]
    fn slot(&self, s: usize) -> usize {
        debug_assert!(s < self.len);
        match self.cap {
            Some(c) => {
                debug_assert!(s + c >= self.len, "entry {s} left the ring");
                s % c
            }
            None => s,
        }
    }

    /// The words of entry `s`.
    ///
    /// # Panics
    /// When `s` is not below [`SetStore::len`] (or, in a ring, has left it).
    #[inline]
    pub fn get(&self, s: usize) -> &[u64] {
        let o = self.slot(s) * self.stride;
        &self.words[o..o + self.stride]
    }

    /// The words of entry `s`, to change.
    ///
    /// # Panics
    /// As [`SetStore::get`].
    #[inline]
    pub fn get_mut(&mut self, s: usize) -> &mut [u64] {
        let o = self.slot(s) * self.stride;
        &mut self.words[o..o + self.stride]
    }

    /// Appends an empty entry and returns it.
    pub fn push(&mut self) -> &mut [u64] {
        if self.cap.is_none() {
            self.words.resize(self.words.len() + self.stride, 0);
        }
        self.len += 1;
        let e = self.get_mut(self.len - 1);
        e.fill(0);
        e
    }

    /// Forgets every entry of a ring and numbers on from `len`: the next push is entry `len`.
    /// Used to rebuild the last entries of a ring from stored values.
    pub fn restart_at(&mut self, len: usize) {
        debug_assert!(self.cap.is_some(), "only a ring can skip entries");
        self.words.fill(0);
        self.len = len;
    }

    /// Re-lays the store out with more words per entry (values grew past the old bound).
    pub fn widen(&mut self, stride: usize) {
        if stride <= self.stride {
            return;
        }
        let slots = self.words.len() / self.stride.max(1);
        let mut words = vec![0u64; slots * stride];
        for i in 0..slots {
            words[i * stride..i * stride + self.stride]
                .copy_from_slice(&self.words[i * self.stride..(i + 1) * self.stride]);
        }
        self.words = words;
        self.stride = stride;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mex_examples() {
        let mut s = MexSet::new();
        for v in [0, 1, 3, 5] {
            s.insert(v);
        }
        assert_eq!(s.mex(), 2);
        s.clear();
        assert_eq!(s.mex(), 0);
        for v in 0..200 {
            s.insert(v);
        }
        assert_eq!(s.mex(), 200);
        s.clear();
        s.set_floor(2);
        s.insert(130);
        assert_eq!(s.mex(), 0);
        s.insert(0);
        assert_eq!(s.mex(), 128);
        assert!(s.contains(5) && s.contains(0) && !s.contains(129));
    }

    #[test]
    fn xor_shift_matches_definition() {
        for g in [0u32, 1, 5, 63, 64, 77, 200, 255] {
            let vals = [0u32, 3, 17, 64, 100, 255, 128];
            let mut src = vec![0u64; 4];
            for &v in &vals {
                src[(v >> 6) as usize] |= 1 << (v & 63);
            }
            let mut s = MexSet::new();
            s.or_xor_shifted(&src, g);
            for v in 0..256u32 {
                assert_eq!(s.contains(v), vals.contains(&(v ^ g)), "g={g} v={v}");
            }
        }
    }

    #[test]
    fn ring_and_widen() {
        let mut st = SetStore::ring(1, 3);
        for i in 0..5u64 {
            st.push()[0] = i;
        }
        assert_eq!(st.get(4)[0], 4);
        assert_eq!(st.get(2)[0], 2);
        st.widen(2);
        assert_eq!(st.get(3), &[3, 0]);
        st.restart_at(10);
        st.push()[1] = 7;
        assert_eq!(st.len(), 11);
        assert_eq!(st.get(10), &[0, 7]);
    }
}
