//! The fast engine for finite octal games: sparse space and block parallelism.
//!
//! Handles finite codes whose moves leave at most two heaps (`d0` in {0, 4, 4!}, digits 0-7 with
//! or without `!`): Grundy's game `4!.0`, Kayles `0.77`, `0.16`, `0.137`, ... Other codes are
//! refused by [`TakeAndBreakSparse::new`]; the caller uses [`TakeAndBreakExact`] for them.
//!
//! **Sparse space.** With a mask `m` and a parity flag `e`, heap `x` has
//! `rho(x) = popcount(G(x) & m) ^ e * (x mod 2)` and is *rare* when `rho(x) = f`
//! (see [`sparse_mask`](super::sparse_mask)). For heap `n`, whose splits add up to `s = n - j`,
//! a split `a + b = s` has value class `popcount((G(a) ^ G(b)) & m) = rho(a) ^ rho(b) ^ e*(s mod 2)`,
//! so the values of class `1 ^ e*(s mod 2)` (the *common* values of heap `n`) come only from
//! splits with exactly one rare part, single heaps, and removing the heap. These are all
//! enumerated (O(#rare) per heap), giving the candidate `c`: the least common value that is not
//! an option. Every rare value below `c` that is not yet known to be an option is then looked for
//! among the other splits, in growing rounds that stop as soon as none is missing; if the splits
//! run out, the smallest missing one is the value. Both branches are exhaustive arguments, so
//! every value is exact whatever the mask; the mask only decides the speed.
//!
//! **Mask.** The first heaps are computed by full search; then the mask minimising the number of
//! rare heaps is chosen from the value histogram with a Walsh-Hadamard transform, and chosen
//! again (rebuilding the rare list) when values need a new bit, when the rare list doubles, and
//! when the number of heaps doubles. While rare heaps are not rare (more than one in
//! `sparse_ratio`), every heap is computed by full search.
//!
//! **Blocks.** Heaps `[N, N + B)` are done together: every split whose parts are both below `N`
//! (rare part against the block: contiguous slices `G[N - j - r ..]`; the searches) is done in
//! parallel with rayon; then, heap by heap, the splits that reach into the block, and the mex.
//! The values do not depend on the number of threads.
//!
//! ```
//! use grundy::engine::{NoControl, Sequence, TakeAndBreakSparse};
//! use grundy::rules::TakeAndBreak;
//! let rule = TakeAndBreak::parse("4!.0").unwrap();
//! let mut g = Sequence::new(TakeAndBreakSparse::new(rule).unwrap());
//! g.extend(20_000, &NoControl).unwrap();
//! assert_eq!(g.values().to_vec()[..9], [0, 0, 0, 1, 0, 2, 1, 0, 2]);
//! assert_eq!(g.step().rare_positions()[..8], [0, 1, 2, 3, 4, 6, 7, 9]);
//! assert!(TakeAndBreakSparse::new(TakeAndBreak::parse("0.[3]").unwrap()).is_err());
//! ```

use super::blocks::{
    flags_to_set, fold_flags, fold_pairs, mex, scatter_flags, search, set_bit, simd_available,
    Blocks, Reversed, Want,
};
use super::sparse_mask::{bits_for, Histogram, SparseMask, HIST_BITS};
use super::{Control, Step, Val, POLL_INTERVAL};
use crate::error::{Error, Result};
use crate::rules::TakeAndBreak;
use rayon::prelude::*;
use std::time::Instant;

/// Heaps per parallel task.
const CHUNK: usize = 64;
/// A search first visits the blocks of this many pairs of its first `SPREAD` pairs in a
/// low-discrepancy order: neighbouring pairs give correlated values, spread ones find the wanted
/// values in about half as many pairs (Grundy's game) as an ascending scan.
const SPREAD_BLOCK: usize = 64;
const SPREAD: usize = 1 << 16;
/// The reversed copy of the first values, read by the searches, covers at most this many heaps.
const REV_MAX: usize = 1 << 17;

/// Tuning knobs of [`TakeAndBreakSparse`]; the defaults suit long runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SparseOptions {
    /// Largest block of heaps done at once (the block is also at most a sixteenth of the heaps
    /// already known).
    pub block: usize,
    /// Heaps computed by full search before the first mask is chosen.
    pub warmup: usize,
    /// Sparse mode while `rare_count * sparse_ratio <= heaps`; full search otherwise. 0: always
    /// sparse once a mask is chosen.
    pub sparse_ratio: usize,
    /// Whether the searches may use the AVX2 kernel where the processor has it (they do the
    /// same thing without it, slower).
    pub simd: bool,
    /// The parallel search of a heap looks for the rare values below its candidate and below
    /// this many further candidates, in case the splits that reach into the block raise it.
    pub lookahead: u32,
    /// Pairs of each heap's first split digit taken with the rare parts, before the candidate is
    /// known (all their values are recorded, at about the cost per pair of the rare parts).
    pub prefix: usize,
}

impl Default for SparseOptions {
    fn default() -> Self {
        SparseOptions {
            block: 512,
            warmup: 128,
            sparse_ratio: 8,
            simd: true,
            lookahead: 1,
            prefix: 0,
        }
    }
}

/// Work counters (pairs looked at), for benchmarks and tests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SparseStats {
    /// Heaps computed in sparse mode and by full search.
    pub sparse_heaps: u64,
    pub dense_heaps: u64,
    /// Times the mask changed (the first choice included).
    pub mask_changes: u64,
    /// Rare-part pairs enumerated.
    pub rare_pairs: u64,
    /// Pairs handed to searches (an upper bound: a search may stop early in a round) and full
    /// searches.
    pub search_pairs: u64,
    /// Heaps whose search had to go on in the sequential part of a block.
    pub late_searches: u64,
    /// Heaps of the sparse mode whose search looked at every split (their value is rare).
    pub exhausted_searches: u64,
}

impl SparseStats {
    fn add(mut self, o: SparseStats) -> SparseStats {
        self.sparse_heaps += o.sparse_heaps;
        self.dense_heaps += o.dense_heaps;
        self.mask_changes += o.mask_changes;
        self.rare_pairs += o.rare_pairs;
        self.search_pairs += o.search_pairs;
        self.late_searches += o.late_searches;
        self.exhausted_searches += o.exhausted_searches;
        self
    }
}

/// The sparse space of a computed sequence, as the Python layer reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SparseSpace {
    pub mask: SparseMask,
    /// Rare heap sizes, ascending.
    pub rare_positions: Vec<u64>,
    pub rare_count: u64,
    pub common_count: u64,
    /// Heaps classified (`G(0..checked_to)`).
    pub checked_to: u64,
}

impl SparseSpace {
    pub fn last_rare(&self) -> Option<u64> {
        self.rare_positions.last().copied()
    }

    /// Classifies `values` with `mask`.
    pub fn classify<T: Val>(values: &[T], mask: SparseMask) -> Self {
        let rare: Vec<u64> = (0..values.len() as u64)
            .filter(|&n| mask.is_rare(n, values[n as usize].get()))
            .collect();
        SparseSpace {
            mask,
            rare_count: rare.len() as u64,
            common_count: values.len() as u64 - rare.len() as u64,
            rare_positions: rare,
            checked_to: values.len() as u64,
        }
    }
}

/// The sparse space of any computed sequence: the best mask ([`super::best_mask`]) and the rare
/// heaps under it.
pub fn sparse_space<T: Val>(values: &[T]) -> SparseSpace {
    SparseSpace::classify(values, super::sparse_mask::best_mask(values).0)
}

/// A digit that allows splitting `n - j` tokens into two heaps.
#[derive(Debug, Clone, Copy)]
struct SplitDigit {
    j: usize,
    unequal: bool,
}

impl SplitDigit {
    /// For heap `n0 + i` of a block starting at `n0`: the least `a` whose split
    /// `a + (n0 + i - j - a)` has both parts below `n0`.
    #[inline]
    fn outer(self, i: usize) -> usize {
        (i + 1).saturating_sub(self.j).max(1)
    }

    /// Largest smaller part of a split of `s`.
    #[inline]
    fn amax(self, s: usize) -> usize {
        if self.unequal {
            s.saturating_sub(1) / 2
        } else {
            s / 2
        }
    }
}

/// Words per option set when every value is below `2^bits`: room for the mex (at most `2^bits`).
fn words_for(bits: u32) -> usize {
    if bits <= 5 {
        1
    } else {
        (1usize << bits >> 6) + 1
    }
}

/// Value classes of one mask, word by word: bit `b` of word `w` is set when `64 w + b` has class 1.
struct Classes {
    class1: Vec<u64>,
}

impl Classes {
    fn new(mask: u32, words: usize) -> Self {
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

    #[inline]
    fn word(&self, w: usize, class: u32) -> u64 {
        if class == 1 {
            self.class1[w]
        } else {
            !self.class1[w]
        }
    }

    /// The candidate: the least value of `class` not in `set`, or `64 * set.len()` if that is
    /// smaller (no option reaches it, every option being below `2^bits`).
    #[inline]
    fn candidate(&self, set: &[u64], class: u32) -> u32 {
        self.candidate_from(set, class, 0)
    }

    /// The least value `>= from` of `class` not in `set`, capped at `64 * set.len()`.
    #[inline]
    fn candidate_from(&self, set: &[u64], class: u32, from: u32) -> u32 {
        let first = (from >> 6) as usize;
        for (w, &s) in set.iter().enumerate().skip(first) {
            let mut cand = !s & self.word(w, class);
            if w == first {
                cand &= u64::MAX << (from & 63);
            }
            if cand != 0 {
                return (w as u32) * 64 + cand.trailing_zeros();
            }
        }
        set.len() as u32 * 64
    }
}

/// Sparse-space, block-parallel solver for finite octal codes (at most two heaps left per move).
pub struct TakeAndBreakSparse {
    rule: TakeAndBreak,
    opts: SparseOptions,
    /// `zeros[n]`: a heap of `n` tokens may be removed whole.
    zeros: Vec<bool>,
    /// Removals `j >= 1` that may leave one heap.
    singles: Vec<usize>,
    /// Removals `j >= 0` that may leave two heaps.
    splits: Vec<SplitDigit>,
    /// Every `j` of `splits` has the same parity (so the parity flag may be used), and it is odd.
    parity_allowed: bool,
    odd_offset: bool,
    simd: bool,
    /// The mask, once chosen (after `opts.warmup` heaps).
    space: Option<SparseMask>,
    /// Rare heaps below `done`, ascending.
    rare: Vec<usize>,
    hist: Histogram,
    max_seen: u32,
    /// Heaps whose values are accounted for in `rare`, `hist`, `max_seen`.
    done: usize,
    /// When the mask was last chosen: heaps, rare heaps, value bits.
    eval_n: usize,
    eval_rare: usize,
    eval_bits: u32,
    dense: bool,
    stats: SparseStats,
    rev: Reversed,
    buf: Buffers,
}

/// Per-block scratch: option sets, value flags and search outcomes of every heap of a block.
#[derive(Default)]
struct Buffers {
    sets: Vec<u64>,
    flags: Vec<u8>,
    /// Per heap: the parallel search looked for every rare value below `limit`, and `exhausted`
    /// its splits (those with both parts below the block) without finding all of them.
    searched: Vec<Searched>,
}

#[derive(Debug, Clone, Copy, Default)]
struct Searched {
    limit: u32,
    exhausted: bool,
}

/// A step close to `0.382 nb` and coprime with `nb`: `k * step mod nb` visits every block once,
/// well spread.
fn spread_step(nb: usize) -> usize {
    fn gcd(mut a: usize, mut b: usize) -> usize {
        while b != 0 {
            (a, b) = (b, a % b);
        }
        a
    }
    let mut p = ((nb as f64 * 0.381_966_011_250_105_1).round() as usize).max(1);
    while gcd(p, nb) != 1 {
        p += 1;
    }
    p
}

/// What the two parts of a block read.
struct Ctx<'a> {
    eng: &'a TakeAndBreakSparse,
    n0: usize,
    bits: u32,
    words: usize,
    classes: &'a Classes,
}

impl TakeAndBreakSparse {
    /// Whether this engine handles `rule`: a finite code leaving at most two heaps per move.
    pub fn supports(rule: &TakeAndBreak) -> bool {
        !rule.is_infinite() && rule.is_octal()
    }

    /// The solver for `rule`, or [`Error::Invalid`] for codes it does not handle (a repeated
    /// group, or digits that leave three heaps): use [`super::TakeAndBreakExact`] for those.
    pub fn new(rule: TakeAndBreak) -> Result<Self> {
        Self::with_options(rule, SparseOptions::default())
    }

    pub fn with_options(rule: TakeAndBreak, opts: SparseOptions) -> Result<Self> {
        if rule.is_infinite() {
            return Err(Error::Invalid(format!(
                "the sparse engine handles finite codes only, not the repeated group of {rule}"
            )));
        }
        if !rule.is_octal() {
            return Err(Error::Invalid(format!(
                "the sparse engine handles codes that leave at most two heaps, not {rule}"
            )));
        }
        let t = rule.prefix.len();
        let zeros = (0..=t)
            .map(|n| n >= 1 && rule.digit(n as u64).allows(0))
            .collect();
        let singles = (1..=t)
            .filter(|&j| rule.digit(j as u64).allows(1))
            .collect();
        let splits: Vec<SplitDigit> = (0..=t)
            .filter(|&j| rule.digit(j as u64).allows(2))
            .map(|j| SplitDigit {
                j,
                unequal: rule.digit(j as u64).unequal,
            })
            .collect();
        let parity_allowed = splits.windows(2).all(|w| (w[0].j ^ w[1].j) & 1 == 0);
        let odd_offset = splits.first().is_some_and(|s| s.j & 1 == 1);
        Ok(TakeAndBreakSparse {
            rule,
            opts,
            zeros,
            singles,
            splits,
            parity_allowed,
            odd_offset,
            simd: opts.simd && simd_available(),
            space: None,
            rare: Vec::new(),
            hist: Histogram::default(),
            max_seen: 0,
            done: 0,
            eval_n: 0,
            eval_rare: 0,
            eval_bits: 0,
            dense: true,
            stats: SparseStats::default(),
            rev: Reversed::default(),
            buf: Buffers::default(),
        })
    }

    pub fn rule(&self) -> &TakeAndBreak {
        &self.rule
    }

    pub fn options(&self) -> SparseOptions {
        self.opts
    }

    /// The mask in use (`None` until `options().warmup` heaps are known).
    pub fn mask(&self) -> Option<SparseMask> {
        self.space
    }

    /// Rare heaps under the current mask, ascending, among the heaps computed so far.
    pub fn rare_positions(&self) -> &[usize] {
        &self.rare
    }

    pub fn rare_count(&self) -> usize {
        self.rare.len()
    }

    /// Heaps computed so far that are not rare.
    pub fn common_count(&self) -> usize {
        self.done - self.rare.len()
    }

    pub fn last_rare(&self) -> Option<usize> {
        self.rare.last().copied()
    }

    /// Heaps computed so far (the classification covers `0..checked_to`).
    pub fn checked_to(&self) -> usize {
        self.done
    }

    /// Whether the last block was done by full search (rare heaps too many for the sparse method).
    pub fn is_dense(&self) -> bool {
        self.dense
    }

    pub fn stats(&self) -> SparseStats {
        self.stats
    }

    /// The current sparse space (`None` before the mask is chosen).
    pub fn space(&self) -> Option<SparseSpace> {
        let mask = self.space?;
        Some(SparseSpace {
            mask,
            rare_positions: self.rare.iter().map(|&r| r as u64).collect(),
            rare_count: self.rare.len() as u64,
            common_count: self.common_count() as u64,
            checked_to: self.done as u64,
        })
    }

    /// Value class whose options need a rare part, for heap `n`.
    #[inline]
    fn common_class(&self, n: usize) -> u32 {
        match self.space {
            Some(m) if m.parity => 1 ^ ((n as u32 & 1) ^ self.odd_offset as u32),
            _ => 1,
        }
    }

    fn reset(&mut self) {
        self.space = None;
        self.rare.clear();
        self.hist.clear();
        self.max_seen = 0;
        self.done = 0;
        self.eval_n = 0;
        self.eval_rare = 0;
        self.eval_bits = 0;
        self.dense = true;
        self.rev = Reversed::default();
    }

    #[inline]
    fn commit(&mut self, n: usize, v: u32) {
        debug_assert_eq!(n, self.done);
        self.hist.add(n, v);
        self.max_seen = self.max_seen.max(v);
        if self.space.is_some_and(|m| m.is_rare(n as u64, v)) {
            self.rare.push(n);
        }
        self.done = n + 1;
    }

    /// Brings the bookkeeping in line with `g` (the values may have been widened, or be new).
    fn sync<T: Val>(&mut self, g: &[T]) {
        if self.done > g.len() {
            self.reset();
        }
        while self.done < g.len() {
            self.commit(self.done, g[self.done].get());
        }
    }

    /// Chooses the mask again when it is due, and the mode for the next block.
    fn reevaluate<T: Val>(&mut self, g: &[T]) {
        let n = g.len();
        debug_assert_eq!(n, self.done);
        if n < self.opts.warmup.max(1) {
            self.dense = true;
            return;
        }
        let bits = bits_for(self.max_seen).min(HIST_BITS);
        let due = self.space.is_none()
            || bits > self.eval_bits
            || self.rare.len() >= 2 * self.eval_rare + 64
            || n >= 2 * self.eval_n;
        if due {
            let (best, count) = self
                .hist
                .best(self.parity_allowed, self.odd_offset, self.space);
            let current = self.rare.len() as u64;
            // Rebuilding the rare list costs a pass over the values: only for a clear gain.
            if self.space.is_none() || (Some(best) != self.space && count + count / 8 + 4 < current)
            {
                self.space = Some(best);
                self.rare = (0..n)
                    .filter(|&x| best.is_rare(x as u64, g[x].get()))
                    .collect();
                self.stats.mask_changes += 1;
            }
            self.eval_n = n;
            self.eval_rare = self.rare.len();
            self.eval_bits = bits;
        }
        self.dense = self.opts.sparse_ratio != 0
            && self.rare.len().saturating_mul(self.opts.sparse_ratio) > n;
    }

    /// Heaps in the next block, starting at `n0`.
    fn block_len(&self, n0: usize, left: u64) -> usize {
        let b = if self.dense { n0 / 64 } else { n0 / 16 };
        (b.clamp(1, self.opts.block.max(1)) as u64).min(left) as usize
    }

    /// Keeps the reversed copy of the first values in step with `g`.
    fn refresh_rev<T: Val>(&mut self, g: &[T]) {
        let want = g.len().min(REV_MAX);
        let have = self.rev.len();
        if have < want && (g.len() >= 2 * have || want == REV_MAX) {
            if let Some(g16) = super::blocks::as_u16(g) {
                self.rev.rebuild(g16, want);
            }
        }
    }

    /// Computes heaps `n0 .. n0 + b` (fewer when a value needs more bits than the block's sets
    /// hold), pushing their values onto `g`.
    fn run_block<T: Val>(&mut self, g: &mut Vec<T>, b: usize) -> Result<()> {
        let n0 = g.len();
        self.refresh_rev(&g[..]);
        let bits = bits_for(self.max_seen);
        let words = words_for(bits);
        let classes = Classes::new(self.space.map_or(u32::MAX, |m| m.mask), words);
        let mut buf = std::mem::take(&mut self.buf);
        buf.sets.clear();
        buf.sets.resize(b * words, 0);
        buf.searched.clear();
        buf.searched.resize(b, Searched::default());
        // Dense blocks need no flags, but one byte per heap keeps the parallel chunks aligned.
        let stride = if self.dense { 1 } else { 64 * words };
        buf.flags.clear();
        buf.flags.resize(b * stride, 0);

        let cx = Ctx {
            eng: &*self,
            n0,
            bits,
            words,
            classes: &classes,
        };
        let gs = &g[..];
        let st = if b >= 2 * CHUNK {
            buf.sets
                .par_chunks_mut(CHUNK * words)
                .zip(buf.flags.par_chunks_mut(CHUNK * stride))
                .zip(buf.searched.par_chunks_mut(CHUNK))
                .enumerate()
                .map(|(c, ((s, fl), se))| cx.parallel(gs, c * CHUNK, s, fl, se))
                .reduce(SparseStats::default, SparseStats::add)
        } else {
            cx.parallel(gs, 0, &mut buf.sets, &mut buf.flags, &mut buf.searched)
        };
        let mut stats = self.stats.add(st);

        let mut result = Ok(());
        let mut want = Want::new(words);
        let old_rare = self.rare.len();
        for i in 0..b {
            let set = &mut buf.sets[i * words..(i + 1) * words];
            let flags = &mut buf.flags[i * stride..(i + 1) * stride];
            let cx = Ctx {
                eng: &*self,
                n0,
                bits,
                words,
                classes: &classes,
            };
            let v = cx.sequential(
                &g[..],
                i,
                old_rare,
                set,
                flags,
                buf.searched[i],
                &mut want,
                &mut stats,
            );
            if v > T::MAX {
                result = Err(Error::Overflow);
                break;
            }
            g.push(T::new(v));
            self.commit(n0 + i, v);
            if bits_for(v) > bits {
                // Later heaps may have options beyond the block's sets.
                break;
            }
        }
        self.stats = stats;
        self.buf = buf;
        result
    }
}

impl Ctx<'_> {
    /// Everything about heaps `n0 + i0 ..` (as many as `sets` holds) that only needs heaps below
    /// `n0`: options from parts below `n0`, and the searches among them.
    fn parallel<T: Val>(
        &self,
        g: &[T],
        i0: usize,
        sets: &mut [u64],
        flags: &mut [u8],
        searched: &mut [Searched],
    ) -> SparseStats {
        let (eng, n0, words) = (self.eng, self.n0, self.words);
        debug_assert!(g.len() >= n0);
        let g = &g[..n0];
        let len = sets.len() / words;
        let i1 = i0 + len;
        let mut stats = SparseStats::default();
        for k in 0..len {
            let n = n0 + i0 + k;
            let set = &mut sets[k * words..(k + 1) * words];
            if eng.zeros.get(n) == Some(&true) {
                set_bit(set, 0);
            }
            for &j in &eng.singles {
                if j < n && n - j < n0 {
                    set_bit(set, g[n - j].get());
                }
            }
        }
        if eng.dense {
            for k in 0..len {
                let (i, n) = (i0 + k, n0 + i0 + k);
                let set = &mut sets[k * words..(k + 1) * words];
                for sd in &eng.splits {
                    if n < sd.j + 2 {
                        continue;
                    }
                    let (lo, end) = (sd.outer(i), sd.amax(n - sd.j) + 1);
                    fold_pairs(g, n - sd.j, lo, end, set);
                    stats.search_pairs += end.saturating_sub(lo) as u64;
                }
            }
            stats.dense_heaps += len as u64;
            return stats;
        }
        // Rare part r < n0 against heaps whose other part n0 + i - j - r is below n0 too.
        let stride = 64 * words;
        let flags = &mut flags[..len * stride];
        flags.fill(0);
        for sd in &eng.splits {
            let j = sd.j;
            let rmin = (i0 + 1).saturating_sub(j).max(1);
            let from = eng.rare.partition_point(|&r| r < rmin);
            for &r in &eng.rare[from..] {
                let lo = i0.max((r + j + 1).saturating_sub(n0));
                let hi = i1.min(r + j);
                if lo >= hi {
                    continue;
                }
                let gr = g[r].get();
                let start = n0 + lo - j - r;
                let run = &mut flags[(lo - i0) * stride..(hi - i0) * stride];
                stats.rare_pairs += (hi - lo) as u64;
                let eq = (2 * r + j).wrapping_sub(n0);
                if sd.unequal && 2 * r + j >= n0 && (lo..hi).contains(&eq) {
                    // The equal split r + r is not a move.
                    let (a, b) = run.split_at_mut((eq - lo) * stride);
                    scatter_flags(g, gr, start, eq - lo, a, stride);
                    scatter_flags(
                        g,
                        gr,
                        start + (eq - lo) + 1,
                        hi - eq - 1,
                        &mut b[stride..],
                        stride,
                    );
                } else {
                    scatter_flags(g, gr, start, hi - lo, run, stride);
                }
            }
        }
        let mut want = Want::new(words);
        for k in 0..len {
            let (i, n) = (i0 + k, n0 + i0 + k);
            let set = &mut sets[k * words..(k + 1) * words];
            let fl = &mut flags[k * stride..(k + 1) * stride];
            // The first pairs of the first digit go with the rare parts (see `prefix`).
            let mut prefix_end = 0;
            if let Some(sd) = eng.splits.first() {
                if n >= sd.j + 2 {
                    let lo = sd.outer(i);
                    prefix_end = (sd.amax(n - sd.j) + 1).min(lo + eng.opts.prefix).max(lo);
                    fold_flags(g, n - sd.j, lo, prefix_end, fl);
                    stats.search_pairs += (prefix_end - lo) as u64;
                }
            }
            flags_to_set(fl, set);
            let class = eng.common_class(n);
            let mut c = self.classes.candidate(set, class);
            for _ in 0..eng.opts.lookahead {
                c = self.classes.candidate_from(set, class, c + 1);
            }
            want.fill(set, |w| self.classes.word(w, class ^ 1), c);
            let from = |q: usize, sd: SplitDigit| {
                if q == 0 {
                    prefix_end.max(sd.outer(i))
                } else {
                    sd.outer(i)
                }
            };
            let found = self.search(g, n, &from, set, &mut want, &mut stats);
            searched[k] = Searched {
                limit: c,
                exhausted: !found,
            };
        }
        stats.sparse_heaps += len as u64;
        stats
    }

    /// Searches the splits `a + (s - a)` of heap `n`, `a` from `from(q, digit)` up, for the
    /// wanted values: for each digit the blocks of its first `SPREAD` pairs in spread order, then
    /// for each digit the rest in order. True as soon as nothing is wanted; false when every one
    /// of these splits was looked at.
    fn search<T: Val>(
        &self,
        g: &[T],
        n: usize,
        from: &dyn Fn(usize, SplitDigit) -> usize,
        set: &mut [u64],
        want: &mut Want,
        stats: &mut SparseStats,
    ) -> bool {
        if want.left == 0 {
            return true;
        }
        let eng = self.eng;
        let (rev, simd, bits) = (&eng.rev, eng.simd, self.bits);
        // Each digit's spread window, then the rest of each digit in order.
        for pass in 0..2 {
            for (q, sd) in eng.splits.iter().enumerate() {
                if n < sd.j + 2 {
                    continue;
                }
                let s = n - sd.j;
                let end = sd.amax(s) + 1;
                let a0 = from(q, *sd).min(end);
                let w1 = end.min(a0 + SPREAD);
                let blocks = if pass == 0 {
                    let nb = (w1 - a0).div_ceil(SPREAD_BLOCK);
                    Blocks {
                        s,
                        a0,
                        a1: w1,
                        block: SPREAD_BLOCK,
                        step: spread_step(nb.max(1)),
                    }
                } else {
                    Blocks::range(s, w1, end)
                };
                stats.search_pairs += (blocks.a1 - blocks.a0) as u64;
                if search(g, rev, simd, bits, blocks, want, set) {
                    return true;
                }
            }
        }
        false
    }

    /// The part of heap `n0 + i` that reaches into the block (`g` holds `G(0 .. n0 + i)`;
    /// `old_rare` rare heaps are below `n0`), then its value.
    #[allow(clippy::too_many_arguments)]
    fn sequential<T: Val>(
        &self,
        g: &[T],
        i: usize,
        old_rare: usize,
        set: &mut [u64],
        flags: &mut [u8],
        searched: Searched,
        want: &mut Want,
        stats: &mut SparseStats,
    ) -> u32 {
        let (eng, n0) = (self.eng, self.n0);
        let n = n0 + i;
        debug_assert_eq!(g.len(), n);
        for &j in &eng.singles {
            if j <= i && j < n {
                set_bit(set, g[n - j].get());
            }
        }
        if eng.dense {
            for sd in &eng.splits {
                if n < sd.j + 2 {
                    continue;
                }
                let end = sd.outer(i).min(sd.amax(n - sd.j) + 1);
                fold_pairs(g, n - sd.j, 1, end, set);
                stats.search_pairs += end.saturating_sub(1) as u64;
            }
            return mex(set);
        }
        // Rare part against a block heap (r <= s - n0), or a rare heap of the block (r >= n0),
        // flagged (plain stores), then added to the set.
        let mut any = false;
        for sd in &eng.splits {
            if n < sd.j + 2 {
                continue;
            }
            let s = n - sd.j;
            let old = eng.rare[..old_rare].iter().take_while(|&&r| r + n0 <= s);
            let new = eng.rare[old_rare..].iter().take_while(|&&r| r < s);
            for &r in old.chain(new) {
                if r == 0 || (sd.unequal && 2 * r == s) {
                    continue;
                }
                let x = (g[r].get() ^ g[s - r].get()) as usize;
                flags[x] = 1;
                any = true;
                stats.rare_pairs += 1;
            }
        }
        if any {
            flags_to_set(flags, set);
        }
        let class = eng.common_class(n);
        let c = self.classes.candidate(set, class);
        want.fill(set, |w| self.classes.word(w, class ^ 1), c);
        if want.left == 0 {
            return c;
        }
        // The splits with a part in the block, which the parallel search skipped; then the
        // others again unless the parallel search already looked at all of them for every value
        // wanted now.
        stats.late_searches += 1;
        for sd in &eng.splits {
            if n < sd.j + 2 {
                continue;
            }
            let s = n - sd.j;
            let end = sd.outer(i).min(sd.amax(s) + 1);
            stats.search_pairs += end.saturating_sub(1) as u64;
            let blocks = Blocks::range(s, 1, end);
            if search(g, &eng.rev, eng.simd, self.bits, blocks, want, set) {
                return c;
            }
        }
        if !(searched.exhausted && c <= searched.limit) {
            let from = |_: usize, sd: SplitDigit| sd.outer(i);
            if self.search(g, n, &from, set, want, stats) {
                return c;
            }
        }
        stats.exhausted_searches += 1;
        want.first().map_or(c, |v| v.min(c))
    }
}

impl Step for TakeAndBreakSparse {
    fn compute<T: Val>(&mut self, g: &[T]) -> Result<u32> {
        self.sync(g);
        self.reevaluate(g);
        self.refresh_rev(g);
        let bits = bits_for(self.max_seen);
        let words = words_for(bits);
        let classes = Classes::new(self.space.map_or(u32::MAX, |m| m.mask), words);
        let mut set = vec![0u64; words];
        let mut flags = vec![0u8; 64 * words];
        let cx = Ctx {
            eng: &*self,
            n0: g.len(),
            bits,
            words,
            classes: &classes,
        };
        let mut searched = [Searched::default()];
        let mut stats = cx.parallel(g, 0, &mut set, &mut flags, &mut searched);
        let mut want = Want::new(words);
        let old_rare = self.rare.len();
        Ok(cx.sequential(
            g,
            0,
            old_rare,
            &mut set,
            &mut flags,
            searched[0],
            &mut want,
            &mut stats,
        ))
    }

    fn extend_to<T: Val>(&mut self, g: &mut Vec<T>, target: u64, ctl: &dyn Control) -> Result<()> {
        self.sync(g);
        let mut last = Instant::now();
        while (g.len() as u64) < target {
            self.reevaluate(g);
            let b = self.block_len(g.len(), target - g.len() as u64);
            self.run_block(g, b)?;
            if last.elapsed() >= POLL_INTERVAL {
                ctl.check(g.len() as u64, target)?;
                last = Instant::now();
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{NoControl, Sequence, TakeAndBreakExact};

    fn exact(code: &str, n: u64) -> Vec<u32> {
        let mut s = Sequence::new(TakeAndBreakExact::new(TakeAndBreak::parse(code).unwrap()));
        s.extend(n, &NoControl).unwrap();
        s.values().to_vec()
    }

    fn sparse_with(code: &str, n: u64, opts: SparseOptions) -> Sequence<TakeAndBreakSparse> {
        let rule = TakeAndBreak::parse(code).unwrap();
        let mut s = Sequence::new(TakeAndBreakSparse::with_options(rule, opts).unwrap());
        s.extend(n, &NoControl).unwrap();
        s
    }

    /// Options that use the sparse method as early and as much as possible.
    fn eager() -> SparseOptions {
        SparseOptions {
            block: 64,
            warmup: 16,
            sparse_ratio: 0,
            simd: true,
            lookahead: 1,
            prefix: 0,
        }
    }

    #[test]
    fn grundy_first_values() {
        let s = sparse_with("4!.0", 3000, SparseOptions::default());
        let want = exact("4!.0", 3000);
        assert_eq!(s.values().to_vec(), want);
        assert_eq!(
            s.step().rare_positions()[..16],
            [0, 1, 2, 3, 4, 6, 7, 9, 10, 12, 15, 20, 23, 26, 28, 31]
        );
        assert_eq!(s.step().mask().unwrap().mask & 0xFF, 0xFE);
    }

    #[test]
    fn refuses_what_it_does_not_handle() {
        for code in ["0.[3]", "0.4F", "8.0", "0.1[37]"] {
            let rule = TakeAndBreak::parse(code).unwrap();
            assert!(!TakeAndBreakSparse::supports(&rule));
            assert!(TakeAndBreakSparse::new(rule).is_err(), "{code}");
        }
    }

    #[test]
    fn all_two_digit_codes_match_exact() {
        let mut codes: Vec<String> =
            vec!["4.0".into(), "4!.0".into(), "0.4!".into(), "0.04!".into()];
        for d1 in 0..8 {
            for d2 in 0..8 {
                codes.push(format!("0.{d1}{d2}"));
            }
        }
        codes.push("4.7".into());
        codes.push("4!.6!2".into());
        for code in &codes {
            let want = exact(code, 1500);
            for opts in [SparseOptions::default(), eager()] {
                let got = sparse_with(code, 1500, opts).values().to_vec();
                assert_eq!(got, want, "{code} {opts:?}");
            }
        }
    }
}
