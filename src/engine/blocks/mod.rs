//! Inner loops of the block-parallel solvers.
//!
//! Option sets are `words` u64 per heap (bit `v`: value `v` is an option), or while a block is
//! filled, one byte per value (`flags`: plain stores, no read-modify-write). Two shapes of work
//! recur: all the splits `a + (s - a)` of one sum over a range of `a` (a search, or the full
//! option set), and one fixed part `r` against a run of consecutive heaps, whose other parts
//! `G[start .. start + len]` are a contiguous slice (a rare position against a block of heaps).

use super::Val;
use std::any::TypeId;

/// Sets bit `x` of a word-array set.
#[inline(always)]
pub(crate) fn set_bit(set: &mut [u64], x: u32) {
    set[(x >> 6) as usize] |= 1u64 << (x & 63);
}

/// `g` as a `u16` slice when the values are stored in 16 bits.
#[inline]
pub(crate) fn as_u16<T: Val>(g: &[T]) -> Option<&[u16]> {
    if TypeId::of::<T>() == TypeId::of::<u16>() {
        // SAFETY: T is u16, so the slice is a slice of u16 (same pointer, length, layout).
        Some(unsafe { std::slice::from_raw_parts(g.as_ptr() as *const u16, g.len()) })
    } else {
        None
    }
}

/// ORs `G(a) ^ G(s - a)` for `a` in `a0..a1` into `set` (every index below `g.len()`).
///
/// A one-word set (values below 64) folds into a register, a loop the compiler vectorises; wider
/// sets alternate between two copies to halve the chains of stores to the same word.
pub(crate) fn fold_pairs<T: Val>(g: &[T], s: usize, a0: usize, a1: usize, set: &mut [u64]) {
    if a0 >= a1 {
        return;
    }
    if set.len() == 1 {
        set[0] |= fold_word(g, &Reversed::default(), false, s, a0, a1);
        return;
    }
    let lo = &g[a0..a1];
    let hi = &g[s + 1 - a1..s + 1 - a0];
    let words = set.len();
    let mut two = vec![0u64; 2 * words];
    let (s0, s1) = two.split_at_mut(words);
    let mut it = lo.iter().zip(hi.iter().rev());
    while let (Some((a, b)), Some((c, d))) = (it.next(), it.next()) {
        set_bit(s0, a.get() ^ b.get());
        set_bit(s1, c.get() ^ d.get());
    }
    if lo.len() % 2 == 1 {
        set_bit(s0, lo[lo.len() - 1].get() ^ hi[0].get());
    }
    for (w, (x, y)) in set.iter_mut().zip(s0.iter().zip(s1.iter())) {
        *w |= x | y;
    }
}

/// The values `G(a) ^ G(s - a)` for `a` in `a0..a1` as a one-word set (every value below 64;
/// every index below `g.len()`). With `simd` (AVX2 detected), 16-bit storage and `a1 <=
/// rev.len()`, sixteen pairs at a time (variable shifts); otherwise one by one.
///
/// The sequential part's window (see `SparseOptions::window`) calls it once per heap.
#[inline]
pub(crate) fn fold_word<T: Val>(
    g: &[T],
    rev: &Reversed,
    simd: bool,
    s: usize,
    a0: usize,
    a1: usize,
) -> u64 {
    if a0 >= a1 {
        return 0;
    }
    #[cfg(target_arch = "x86_64")]
    if simd && a1 <= rev.len() {
        if let Some(g16) = as_u16(g) {
            // SAFETY: `simd` is only true where AVX2 was detected.
            return unsafe { avx2::fold_word(&rev.rev, g16, s, a0, a1) };
        }
    }
    let _ = (rev, simd);
    let lo = &g[a0..a1];
    let hi = &g[s + 1 - a1..s + 1 - a0];
    lo.iter()
        .zip(hi.iter().rev())
        .fold(0u64, |m, (a, b)| m | 1u64 << ((a.get() ^ b.get()) & 63))
}

/// For each heap `k` of a run (`flags` holds `stride` bytes per heap, `len` heaps), flags value
/// `gr ^ G[start + k]`: a fixed part of value `gr` against consecutive other parts. Every value
/// `gr ^ G[..]` must be below `stride`.
#[inline]
pub(crate) fn scatter_flags<T: Val>(
    g: &[T],
    gr: u32,
    start: usize,
    len: usize,
    flags: &mut [u8],
    stride: usize,
) {
    scatter_runs(g, &[(gr, start)], len, flags, stride);
}

/// Runs of [`scatter_flags`] over the same `len` heaps, one per `(gr, start)`. One call for many
/// rare parts: a call per run cost a fifth of the sequential part of 0.354 (runs of 32 heaps).
// Out of line: inlined into its callers, the loop is compiled without unrolling and runs slower.
#[inline(never)]
pub(crate) fn scatter_runs<T: Val>(
    g: &[T],
    runs: &[(u32, usize)],
    len: usize,
    flags: &mut [u8],
    stride: usize,
) {
    assert!(len * stride <= flags.len());
    if let Some(g16) = as_u16(g) {
        return scatter_runs16(g16, runs, len, flags, stride);
    }
    for &(gr, start) in runs {
        let src = &g[start..start + len];
        for (k, v) in src.iter().enumerate() {
            let x = (v.get() ^ gr) as usize;
            debug_assert!(x < stride);
            // SAFETY: k < len and x < stride (every value and XOR of values is below the stride
            // the caller sized from the largest value), so the index is below len * stride <=
            // flags.len().
            unsafe { *flags.get_unchecked_mut(k * stride + x) = 1 };
        }
    }
}

/// Four values `G[at .. at + 4]` in the lanes of a word (lane `h`: bits `16 h ..`).
#[inline(always)]
fn four(src: &[u16], at: usize) -> u64 {
    debug_assert!(at + 4 <= src.len());
    // SAFETY: the caller reads within `src` (at + 4 <= src.len()); unaligned reads are allowed.
    u64::from_le(unsafe { std::ptr::read_unaligned(src.as_ptr().add(at) as *const u64) })
}

/// Lane `h` of a word of four 16-bit values.
#[inline(always)]
fn lane(w: u64, h: usize) -> usize {
    (w >> (16 * h)) as u16 as usize
}

/// [`scatter_runs`] for 16-bit values. The values of a batch are loaded before any of its flags
/// is stored: a load placed after stores whose addresses are not known yet (they are computed
/// from loaded values) waits for them, and on the Zen 3 cores we measure on a load-XOR-store loop
/// ran at about two cycles per pair. Four runs by four heaps per batch (four 8-byte loads, 16
/// stores) ran at about 1.35 cycles (see `benchmarks/logs/engine.md`).
fn scatter_runs16(g: &[u16], runs: &[(u32, usize)], len: usize, flags: &mut [u8], stride: usize) {
    const SPLAT: u64 = 0x0001_0001_0001_0001;
    let base = flags.as_mut_ptr();
    let quad = len / 4 * 4;
    let mut quads = runs.chunks_exact(4);
    for q in &mut quads {
        // Written out, not `array::map`: LLVM stopped inlining that map here once the crate grew
        // (an outlined call per batch of runs, 3% of Grundy's game).
        let run = |t: usize| &g[q[t].1..q[t].1 + len];
        let src = [run(0), run(1), run(2), run(3)];
        let gx = [q[0], q[1], q[2], q[3]].map(|(gr, _)| u64::from(gr) * SPLAT);
        for k in (0..quad).step_by(4) {
            let v = [0, 1, 2, 3].map(|t| four(src[t], k) ^ gx[t]);
            for h in 0..4 {
                for w in v {
                    let x = lane(w, h);
                    debug_assert!(x < stride);
                    // SAFETY: k + h < len and x < stride (as in `scatter_runs`).
                    unsafe { *base.add((k + h) * stride + x) = 1 };
                }
            }
        }
        for k in quad..len {
            for (s, &(gr, _)) in src.iter().zip(q) {
                let x = (u32::from(s[k]) ^ gr) as usize;
                debug_assert!(x < stride);
                // SAFETY: as above.
                unsafe { *base.add(k * stride + x) = 1 };
            }
        }
    }
    for &(gr, start) in quads.remainder() {
        let src = &g[start..start + len];
        let gx = u64::from(gr) * SPLAT;
        for k in (0..quad).step_by(4) {
            let w = four(src, k) ^ gx;
            for h in 0..4 {
                let x = lane(w, h);
                debug_assert!(x < stride);
                // SAFETY: as above.
                unsafe { *base.add((k + h) * stride + x) = 1 };
            }
        }
        for (k, &v) in src.iter().enumerate().skip(quad) {
            let x = (u32::from(v) ^ gr) as usize;
            debug_assert!(x < stride);
            // SAFETY: as above.
            unsafe { *base.add(k * stride + x) = 1 };
        }
    }
}

/// Collects full-length runs for [`scatter_runs`], a batch at a time (no allocation).
pub(crate) struct Runs {
    buf: [(u32, usize); 64],
    len: usize,
}

impl Runs {
    pub(crate) fn new() -> Self {
        Runs {
            buf: [(0, 0); 64],
            len: 0,
        }
    }

    /// Adds a run, flushing the batch into `flags` (runs of `heaps` heaps) when it is full.
    #[inline]
    pub(crate) fn push<T: Val>(
        &mut self,
        run: (u32, usize),
        g: &[T],
        heaps: usize,
        flags: &mut [u8],
        stride: usize,
    ) {
        self.buf[self.len] = run;
        self.len += 1;
        if self.len == self.buf.len() {
            self.flush(g, heaps, flags, stride);
        }
    }

    pub(crate) fn flush<T: Val>(&mut self, g: &[T], heaps: usize, flags: &mut [u8], stride: usize) {
        scatter_runs(g, &self.buf[..self.len], heaps, flags, stride);
        self.len = 0;
    }
}

/// Flags `G(a) ^ G(s - a)` for `a` in `a0..a1` in `flags` (one byte per value; every value must
/// be below `flags.len()`), reading `G(a)` from `rev` where it covers `a1`.
#[inline]
pub(crate) fn fold_flags<T: Val>(
    g: &[T],
    rev: &Reversed,
    s: usize,
    a0: usize,
    a1: usize,
    flags: &mut [u8],
) {
    if a0 >= a1 {
        return;
    }
    let hi = &g[s + 1 - a1..s + 1 - a0];
    let mut put = |x: u32| {
        let x = x as usize;
        debug_assert!(x < flags.len());
        // SAFETY: the caller sized `flags` above every value (and XOR of values) of `g`.
        unsafe { *flags.get_unchecked_mut(x) = 1 };
    };
    if a1 <= rev.len() {
        // Both ascending: rev[l - a1 + k] = G(a1 - 1 - k) pairs with G(s + 1 - a1 + k).
        let l = rev.len();
        let lo = &rev.rev[l - a1..l - a0];
        if let Some(hi) = as_u16(hi) {
            // Loads before stores (see `scatter_runs16`): sixteen pairs (a prefix run) per
            // batch, then four.
            let batch = lo.len() / 16 * 16;
            for k in (0..batch).step_by(16) {
                let w0 = four(lo, k) ^ four(hi, k);
                let w1 = four(lo, k + 4) ^ four(hi, k + 4);
                let w2 = four(lo, k + 8) ^ four(hi, k + 8);
                let w3 = four(lo, k + 12) ^ four(hi, k + 12);
                for w in [w0, w1, w2, w3] {
                    for h in 0..4 {
                        put(lane(w, h) as u32);
                    }
                }
            }
            let quad = lo.len() / 4 * 4;
            for k in (batch..quad).step_by(4) {
                let w = four(lo, k) ^ four(hi, k);
                for h in 0..4 {
                    put(lane(w, h) as u32);
                }
            }
            for (a, b) in lo[quad..].iter().zip(&hi[quad..]) {
                put(u32::from(*a ^ *b));
            }
            return;
        }
        for (a, b) in lo.iter().zip(hi) {
            put(*a as u32 ^ b.get());
        }
    } else {
        for (a, b) in g[a0..a1].iter().zip(hi.iter().rev()) {
            put(a.get() ^ b.get());
        }
    }
}

/// ORs the values flagged in `flags` (one 0/1 byte per value, 64 per word of `set`) into `set`.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn flags_to_set(flags: &[u8], set: &mut [u64]) {
    use std::arch::x86_64::*;
    // Words beyond the flags are left alone.
    for (w, block) in set.iter_mut().zip(flags.chunks_exact(64)) {
        let mut bits = 0u64;
        for q in 0..4 {
            // SAFETY: SSE2 is part of x86_64; the 16 bytes read lie within `block` (64 bytes).
            let m = unsafe {
                let v = _mm_loadu_si128(block.as_ptr().add(16 * q) as *const __m128i);
                _mm_movemask_epi8(_mm_sub_epi8(_mm_setzero_si128(), v)) as u32 as u64
            };
            bits |= m << (16 * q);
        }
        *w |= bits;
    }
}

/// [`flags_to_set`], with the AVX2 kernel where `simd` (AVX2 detected: see [`simd_available`]).
#[inline]
pub(crate) fn flags_to_set_simd(simd: bool, flags: &[u8], set: &mut [u64]) {
    #[cfg(target_arch = "x86_64")]
    if simd {
        // SAFETY: `simd` is only true where AVX2 was detected.
        return unsafe { avx2::flags_to_set(flags, set) };
    }
    let _ = simd;
    flags_to_set(flags, set)
}

/// ORs the values flagged in `flags` (one 0/1 byte per value, 64 per word of `set`) into `set`.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
pub(crate) fn flags_to_set(flags: &[u8], set: &mut [u64]) {
    // Eight 0/1 bytes to eight bits: the multiplier moves byte i to bit 56 + i (no carries).
    const GATHER: u64 = 0x0102_0408_1020_4080;
    for (w, block) in set.iter_mut().zip(flags.chunks_exact(64)) {
        let mut bits = 0u64;
        for (i, b8) in block.chunks_exact(8).enumerate() {
            let x = u64::from_le_bytes(b8.try_into().unwrap());
            bits |= (x.wrapping_mul(GATHER) >> 56) << (8 * i);
        }
        *w |= bits;
    }
}

/// The values a search looks for, as a bit set: the *required* ones (below `limit`), which it
/// must find or prove absent, and optional ones above, recorded when met but never waited for.
#[derive(Debug, Clone)]
pub(crate) struct Want {
    pub bits: Vec<u64>,
    /// Required values not found yet.
    pub left: u32,
    pub limit: u32,
    /// Pairs looked at by searches with this set, and values they found (statistics).
    pub examined: u64,
    pub found: u64,
    /// Words of `bits` that the last `fill` may have left non-zero (the searches only clear).
    used: usize,
}

impl Want {
    /// A set for values below `64 * words` (at least 1024, which the vector search reads).
    pub fn new(words: usize) -> Self {
        Want {
            bits: vec![0; words.max(16)],
            left: 0,
            limit: 0,
            examined: 0,
            found: 0,
            used: 0,
        }
    }

    /// Empties the set and fills it with the values of `class_words` (bit set per value) below
    /// `c` that are missing from `set`, the required ones being those below `required`.
    #[inline]
    pub fn fill(&mut self, set: &[u64], class_words: impl Fn(usize) -> u64, required: u32, c: u32) {
        if self.bits.len() < set.len() {
            self.bits.resize(set.len(), 0);
        }
        let last = (c >> 6) as usize;
        let fresh = set.len().min(last + 1);
        // Only the words the last fill used can be non-zero (one call of a few words, where
        // clearing all of them, 16 at least, cost a library call per heap).
        if self.used > fresh {
            self.bits[fresh..self.used].fill(0);
        }
        for (w, &s) in set.iter().enumerate().take(fresh) {
            let mut m = !s & class_words(w);
            if w == last {
                m &= (1u64 << (c & 63)) - 1;
            }
            self.bits[w] = m;
        }
        self.used = fresh;
        self.limit = required.min(c);
        self.left = self.count_below(self.limit);
    }

    /// Wanted values below `v`.
    pub fn count_below(&self, v: u32) -> u32 {
        let (last, r) = ((v >> 6) as usize, v & 63);
        let full: u32 = self.bits[..last.min(self.bits.len())]
            .iter()
            .map(|w| w.count_ones())
            .sum();
        full + self
            .bits
            .get(last)
            .map_or(0, |w| (w & ((1u64 << r) - 1)).count_ones())
    }

    /// Smallest value still wanted.
    pub fn first(&self) -> Option<u32> {
        self.bits
            .iter()
            .position(|&w| w != 0)
            .map(|i| i as u32 * 64 + self.bits[i].trailing_zeros())
    }

    #[inline(always)]
    fn take(&mut self, x: u32, set: &mut [u64]) {
        let (w, b) = ((x >> 6) as usize, x & 63);
        if let Some(word) = self.bits.get_mut(w) {
            if *word >> b & 1 == 1 {
                *word &= !(1u64 << b);
                if let Some(s) = set.get_mut(w) {
                    *s |= 1u64 << b;
                }
                self.left -= (x < self.limit) as u32;
                self.found += 1;
            }
        }
    }
}

/// How a search reads `G(a)` for small `a`: a reversed copy of `G(0..len)`, so that the pairs
/// `(a, s - a)` of a range of `a` are two ascending slices.
#[derive(Debug, Clone, Default)]
pub(crate) struct Reversed {
    pub rev: Vec<u16>,
}

impl Reversed {
    pub fn len(&self) -> usize {
        self.rev.len()
    }

    /// Makes the copy cover `G(0..len)`.
    pub fn rebuild(&mut self, g: &[u16], len: usize) {
        self.rev.clear();
        self.rev.extend(g[..len].iter().rev());
    }
}

/// Whether the vector search may be used on this machine.
pub(crate) fn simd_available() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        // Every processor with AVX2 has POPCNT; the kernels count the values they take with it.
        std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The pairs `a + (s - a)` a search looks at: `a` from `a0` to `a1` (exclusive) cut into `nb`
/// blocks of `block` pairs, visited in the order `0, step, 2 step, ... (mod nb)` (`step` coprime
/// with `nb`, so that every block comes once; `step = 1`: in order); only the visits `t0..t1` of
/// that order.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Blocks {
    pub s: usize,
    pub a0: usize,
    pub a1: usize,
    block: usize,
    step: usize,
    t0: usize,
    t1: usize,
}

/// A step close to `0.382 nb` and coprime with `nb`: `k * step mod nb` visits every block once,
/// well spread (golden-ratio sampling).
pub(crate) fn spread_step(nb: usize) -> usize {
    fn gcd(mut a: usize, mut b: usize) -> usize {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    }
    let mut p = ((nb as f64 * 0.381_966_011_250_105_1).round() as usize).max(1);
    if nb.is_power_of_two() {
        // Any odd step is coprime with a power of two (no divisions: this is the common case).
        return p | 1;
    }
    while gcd(p, nb) != 1 {
        p += 1;
    }
    p
}

impl Blocks {
    /// `a0..a1` in order, as one block.
    pub fn range(s: usize, a0: usize, a1: usize) -> Self {
        Blocks {
            s,
            a0,
            a1: a1.max(a0),
            block: a1.saturating_sub(a0).max(1),
            step: 1,
            t0: 0,
            t1: 1,
        }
    }

    /// `a0..a1` in blocks of `block` pairs, in spread order.
    pub fn spread(s: usize, a0: usize, a1: usize, block: usize) -> Self {
        let nb = a1.saturating_sub(a0).div_ceil(block);
        Blocks {
            s,
            a0,
            a1: a1.max(a0),
            block,
            step: spread_step(nb.max(1)),
            t0: 0,
            t1: nb,
        }
    }

    /// Number of blocks.
    #[inline]
    pub fn count(&self) -> usize {
        if self.step == 1 && self.t1 == 1 {
            // A plain range is one block.
            return (self.a1 > self.a0) as usize;
        }
        (self.a1 - self.a0).div_ceil(self.block)
    }

    /// Only the visits `t0..t1` (clamped to those of `self`).
    pub fn part(&self, t0: usize, t1: usize) -> Self {
        let t1 = t1.min(self.t1);
        Blocks {
            t0: t0.clamp(self.t0, t1),
            t1,
            ..*self
        }
    }

    /// Calls `f(b, e)` for each block `b..e` in visiting order until it returns true.
    #[inline(always)]
    fn each(&self, mut f: impl FnMut(usize, usize) -> bool) -> bool {
        if self.t0 >= self.t1 || self.a0 >= self.a1 {
            return false;
        }
        let nb = self.count();
        let mut k = if self.t0 == 0 {
            0
        } else if nb.is_power_of_two() {
            (self.t0 * self.step) & (nb - 1)
        } else {
            self.t0 * self.step % nb
        };
        for _ in self.t0..self.t1.min(nb) {
            let b = self.a0 + k * self.block;
            if f(b, (b + self.block).min(self.a1)) {
                return true;
            }
            k += self.step;
            if k >= nb {
                k -= nb;
            }
        }
        false
    }
}

/// Looks for the wanted values among `G(a) ^ G(s - a)` over the pairs of `blocks`: each value
/// found moves from `want` to `set`. Returns true as soon as nothing is wanted any more (the rest
/// may then be unexamined), false when every pair was looked at.
///
/// `bits`: every value is below `2^bits`. The vector path needs 16-bit storage, `bits <= 10`,
/// AVX2 (`simd`) and `blocks.a1 <= rev.len()`.
#[inline]
pub(crate) fn search<T: Val>(
    g: &[T],
    rev: &Reversed,
    simd: bool,
    bits: u32,
    blocks: Blocks,
    want: &mut Want,
    set: &mut [u64],
) -> bool {
    if want.left == 0 {
        return true;
    }
    #[cfg(target_arch = "x86_64")]
    if simd && bits <= 10 && blocks.a1 <= rev.len() {
        if let Some(g16) = as_u16(g) {
            // SAFETY: `simd` is only true where AVX2 and POPCNT were detected; every XOR of two
            // values is below 2^bits <= 1024, within `want.bits` (at least 16 words).
            return unsafe { avx2::search(&rev.rev, g16, blocks, want, set, bits) };
        }
    }
    let _ = (simd, bits, rev);
    let s = blocks.s;
    blocks.each(|b, e| {
        let lo = &g[b..e];
        let hi = &g[s + 1 - e..s + 1 - b];
        for (k, (x, y)) in lo.iter().zip(hi.iter().rev()).enumerate() {
            want.take(x.get() ^ y.get(), set);
            if want.left == 0 {
                want.examined += k as u64 + 1;
                return true;
            }
        }
        want.examined += (e - b) as u64;
        false
    })
}

#[cfg(target_arch = "x86_64")]
mod avx2;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batched_16_bit_scatter_and_fold_match_the_plain_loops() {
        // 16-bit values take the batched loops (four runs by four heaps, four pairs per load);
        // the same values as u32 take the plain ones. Every run count and length around the
        // batch sizes.
        let g16: Vec<u16> = (0..400u32)
            .map(|i| ((i * 97 + i / 7) % 120) as u16)
            .collect();
        let g32: Vec<u32> = g16.iter().map(|&v| u32::from(v)).collect();
        let stride = 128;
        for runs in 0..10usize {
            for len in 0..14usize {
                let list: Vec<(u32, usize)> = (0..runs)
                    .map(|r| ((r as u32 * 37) % 128, 13 * r + 5))
                    .collect();
                let mut a = vec![0u8; len * stride];
                let mut b = vec![0u8; len * stride];
                scatter_runs(&g16, &list, len, &mut a, stride);
                scatter_runs(&g32, &list, len, &mut b, stride);
                assert_eq!(a, b, "{runs} runs of {len} heaps");
            }
        }
        let mut rev = Reversed::default();
        rev.rebuild(&g16, 200);
        for (a0, a1) in [(1, 2), (1, 5), (3, 11), (5, 21), (1, 35), (2, 99), (7, 7)] {
            let mut a = vec![0u8; stride];
            let mut b = vec![0u8; stride];
            fold_flags(&g16, &rev, 300, a0, a1, &mut a);
            fold_flags(&g32, &rev, 300, a0, a1, &mut b);
            assert_eq!(a, b, "pairs {a0}..{a1}");
            assert_eq!(a.contains(&1), a0 < a1);
        }
    }

    #[test]
    fn flags_fold_into_sets_alike_with_and_without_avx2() {
        // Every word count up to 5, flags of every pattern density, words beyond the flags kept.
        for words in 1..=5usize {
            for density in [0u32, 1, 3, 7, 64] {
                let flags: Vec<u8> = (0..64 * words as u32)
                    .map(|i| u8::from(density > 0 && i.wrapping_mul(2_654_435_761) % 64 < density))
                    .collect();
                let mut want = vec![0u64; words + 1];
                want[words] = 0xdead;
                for (i, &f) in flags.iter().enumerate() {
                    want[i / 64] |= u64::from(f) << (i % 64);
                }
                for simd in [false, simd_available()] {
                    let mut set = vec![0u64; words + 1];
                    set[words] = 0xdead;
                    flags_to_set_simd(simd, &flags, &mut set);
                    assert_eq!(set, want, "{words} words, density {density}, simd {simd}");
                }
            }
        }
    }

    #[test]
    fn one_word_folds_match_the_definition() {
        // Every length around the sixteen pairs of a vector step, with and without AVX2.
        let g: Vec<u16> = (0..700u32)
            .map(|i| ((i * 41 + i / 3) % 64) as u16)
            .collect();
        let g32: Vec<u32> = g.iter().map(|&v| u32::from(v)).collect();
        let mut rev = Reversed::default();
        rev.rebuild(&g, 200);
        for s in [130, 399, 650] {
            for a0 in [1, 2, 17] {
                for a1 in a0..(a0 + 70).min(s / 2 + 1) {
                    let mut want = 0u64;
                    for a in a0..a1 {
                        want |= 1 << (g[a] ^ g[s - a]);
                    }
                    for simd in [false, simd_available()] {
                        assert_eq!(fold_word(&g, &rev, simd, s, a0, a1), want, "{s} {a0}..{a1}");
                    }
                    assert_eq!(fold_word(&g32, &rev, true, s, a0, a1), want);
                }
            }
        }
    }

    #[test]
    fn fold_scatter_and_flags_match_definitions() {
        let g: Vec<u16> = (0..300u16).map(|i| (i * 37 + i / 5) % 200).collect();
        for words in [1usize, 4] {
            let lim = if words == 1 { 31 } else { 255 };
            let g: Vec<u16> = g.iter().map(|&v| v & lim).collect();
            for (a0, a1) in [(3, 90), (3, 4), (7, 7), (1, 125)] {
                let mut set = vec![0u64; words];
                fold_pairs(&g, 250, a0, a1, &mut set);
                let mut want = vec![0u64; words];
                for a in a0..a1 {
                    set_bit(&mut want, (g[a] ^ g[250 - a]) as u32);
                }
                assert_eq!(set, want);
            }
            let mut rev = Reversed::default();
            rev.rebuild(&g, 100);
            for r in [Reversed::default(), rev] {
                let mut flags = vec![0u8; 64 * words];
                fold_flags(&g, &r, 250, 3, 90, &mut flags);
                let mut set = vec![0u64; words];
                flags_to_set(&flags, &mut set);
                let mut want = vec![0u64; words];
                fold_pairs(&g, 250, 3, 90, &mut want);
                assert_eq!(set, want);
            }
            let stride = 64 * words;
            let mut flags = vec![0u8; 10 * stride];
            scatter_flags(&g, 5, 100, 10, &mut flags, stride);
            // The same runs batched (three batches of 64 and a part), plus two more parts.
            let mut batched = vec![0u8; 10 * stride];
            let mut runs = Runs::new();
            for r in 0..200 {
                let gr = [5, 3, 0][r % 3];
                runs.push((gr, 100 + 7 * (r % 3)), &g, 10, &mut batched, stride);
            }
            runs.flush(&g, 10, &mut batched, stride);
            for k in 0..10 {
                let mut set = vec![0u64; words];
                flags_to_set(&flags[k * stride..(k + 1) * stride], &mut set);
                let mut want = vec![0u64; words];
                set_bit(&mut want, (g[100 + k] ^ 5) as u32);
                assert_eq!(set, want);
                flags_to_set(&batched[k * stride..(k + 1) * stride], &mut set);
                set_bit(&mut want, (g[107 + k] ^ 3) as u32);
                set_bit(&mut want, g[114 + k] as u32);
                assert_eq!(set, want);
            }
        }
    }

    /// The vector search finds exactly what the scalar one finds, for every table count.
    #[test]
    fn vector_search_matches_scalar() {
        let mut seed = 12345u64;
        let mut rnd = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        // 11 and 12 bits: beyond the vector kernel, which must then fall back to the scalar loop.
        for bits in [5u32, 6, 7, 8, 9, 10, 11, 12] {
            let g: Vec<u16> = (0..3000).map(|_| (rnd() % (1 << bits)) as u16).collect();
            let mut rev = Reversed::default();
            rev.rebuild(&g, 2000);
            for trial in 0..40 {
                let mut want = Want::new((1usize << bits) / 64);
                for w in 0..(1usize << bits).div_ceil(64) {
                    want.bits[w] = rnd() & rnd() & rnd();
                }
                if bits < 6 {
                    want.bits[0] &= (1 << (1 << bits)) - 1;
                }
                if trial % 5 == 2 {
                    // A few values wanted (the kernel that compares them one by one).
                    for w in want.bits.iter_mut() {
                        *w &= rnd() & rnd();
                    }
                }
                if trial % 4 == 1 {
                    // Only values below 255 wanted, whatever the values' width: the byte path.
                    want.bits[4..].fill(0);
                    want.bits[3] &= !(1 << 63);
                }
                want.limit = if trial % 3 == 0 {
                    1 << bits
                } else {
                    (rnd() % (1 << bits)) as u32
                };
                want.left = want.count_below(want.limit);
                let (a0, a1) = (1 + trial * 7, 1 + trial * 7 + 37 * trial + 5);
                let s = 2900 - trial;
                let (mut w1, mut w2) = (want.clone(), want);
                let words = (1usize << bits).div_ceil(64).max(16);
                let (mut s1, mut s2) = (vec![0u64; words], vec![0u64; words]);
                let blocks = if trial % 2 == 0 {
                    Blocks::range(s, a0, a1)
                } else {
                    Blocks::spread(s, a0, a1, 40).part(trial % 3, 1000)
                };
                let r1 = search(&g, &rev, false, bits, blocks, &mut w1, &mut s1);
                let r2 = search(&g, &rev, simd_available(), bits, blocks, &mut w2, &mut s2);
                assert_eq!(r1, r2, "bits {bits} trial {trial}");
                assert_eq!(w1.left, w2.left);
                if !r1 {
                    // Both looked at every pair: the same values were found.
                    assert_eq!(w1.bits, w2.bits, "bits {bits} trial {trial}");
                    assert_eq!(s1, s2);
                }
            }
        }
    }
}
