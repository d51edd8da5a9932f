//! The fast engine for finite octal games: sparse space and block parallelism.
//!
//! Handles finite codes whose moves leave at most two heaps (`d0` in {0, 4, 4!}, digits 0-7 with
//! or without `!`): Grundy's game `4!.0`, Kayles `0.77`, `0.16`, `0.137`, ... Other codes are
//! refused by [`TakeAndBreakSparse::new`]; the caller uses
//! [`TakeAndBreakExact`](super::TakeAndBreakExact) for them.
//!
//! **Sparse space.** With a mask `m` and a parity flag `e`, heap `x` has
//! `rho(x) = popcount(G(x) & m) ^ e * (x mod 2)` and is *rare* when `rho(x) = f`
//! (see [`sparse_mask`](super::sparse_mask)). For heap `n`, whose splits add up to `s = n - j`,
//! a split `a + b = s` has value class `popcount((G(a) ^ G(b)) & m) = rho(a) ^ rho(b) ^ e*(s mod 2)`,
//! so the values of class `1 ^ e*(s mod 2)` (the *common* values of heap `n`) come only from
//! splits with exactly one rare part, single heaps, and removing the heap. These are all
//! enumerated (O(#rare) per heap), giving the candidate `c`: the least common value that is not
//! an option. Every rare value below `c` that is not yet known to be an option is then looked for
//! among the other splits, stopping as soon as none is missing; if the splits run out, the
//! smallest missing one is the value. Both branches are exhaustive arguments, so every value is
//! exact whatever the mask; the mask only decides the speed.
//!
//! **One row per sum.** Heap `n`'s splits of digit `j` add up to `n - j`, which is also the sum
//! of the first digit's splits of heap `n - (j - j0)`. The rare-part splits are therefore
//! flagged for the first digit only (the equal split left out), into a row per heap, and a
//! heap's set joins its row with those of the heaps `j - j0` before it, plus value 0 for the
//! digits that allow the equal split when `n - j` is even. With three split digits (0.1777)
//! that is a third of the pairs.
//!
//! **Mask.** The first heaps are computed by full search; then the mask minimising the number of
//! rare heaps is chosen from the value histogram with a Walsh-Hadamard transform, and chosen
//! again (rebuilding the rare list) when values need a new bit, when the rare list doubles, and
//! when the number of heaps doubles. While rare heaps are not rare (more than one in
//! `sparse_ratio`), every heap is computed by full search.
//!
//! **Blocks.** Heaps `[N, N + B)` are done together, in three parts:
//! 1. in parallel (rayon), every rare-part split whose parts are both below `N`: for a rare
//!    heap `r`, the other parts of consecutive heaps are the contiguous slice `G[N - j - r ..]`,
//!    recorded as one byte per value and heap (plain stores);
//! 2. heap by heap, the splits that reach into the block (by sub-blocks of 32 heaps: those whose
//!    block part lies in an earlier sub-block are again contiguous slices), the candidate `c`,
//!    and the value when no rare value below `c` is left unconfirmed; otherwise `c` is taken
//!    provisionally. While the other threads have time to spare (`SparseOptions::ahead` and
//!    `ahead_auto`), the splits whose block part lies `ahead` heaps or more before the heap
//!    (rare parts far from 0: most of them in 0.354 or Grundy's game) are flagged for each
//!    sub-block by those threads, once those values are written and before the sub-block is
//!    reached, so that the one thread of this part does not do them all;
//! 3. on the other threads, while part 2 goes on, the searches that confirm the provisional
//!    values, taken from a queue to which part 2 publishes each sub-block's (they read only
//!    earlier values; one task per thread and block, which waits by spinning, so that no thread
//!    has to be woken per batch). One that fails (its heap's value is the smallest rare value
//!    not found: the heap is rare) ends the block there; the heaps after it are computed again
//!    in the next block, made smaller.
//!
//! **Window.** While every value is below 64, part 2 also ORs into each heap's row the values of
//! every split of its first-digit sum whose smaller part is at most `SparseOptions::window` (a
//! 64-bit word per heap; AVX2 widens and shifts sixteen pairs per step), and the rare parts in
//! that window are enumerated nowhere else. Where the rare heaps are few and small (0.1777: 16,
//! the last at 123) the window holds nearly every value a search would look for, and once it
//! covers every rare heap a block is a single loop on one thread (`Ctx::window_block`): no
//! part 1, no flags, no queue, hardly any searches; a heap that turns out rare (or a value of 64
//! or more) ends the block. A helper thread taking half of each window was tried and was slower
//! (`benchmarks/README.md`, seventh session).
//!
//! With more than one thread, parts 1 and 2 overlap: every thread takes part-1 tasks in order,
//! and part 2 starts on a sub-block as soon as the tasks covering it are done, taking unclaimed
//! tasks while it waits, so that no thread waits at the end of part 1.
//!
//! Blocks and tasks are sized from the previous block's work per heap. A search looks at the
//! smallest parts first, then at blocks spread over the next 2^15 splits in a golden-ratio order
//! (neighbouring splits give correlated values), then at the rest; 32 splits at a time with
//! AVX2 table lookups (`vpshufb`) where the processor has them, a scalar loop otherwise.
//!
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

use super::blocks::{simd_available, Reversed, Want};
use super::sparse_mask::{bits_for, Histogram, SparseMask, HIST_BITS};
use super::{Control, Step, StepResult, Stop, Val, POLL_INTERVAL};
use crate::error::{Error, Result};
use crate::rules::TakeAndBreak;
use crate::sparse_space::SparseSpace;
use block::Ctx;
use queue::{Ahead, Queue, Shared};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

mod block;
mod queue;
#[cfg(test)]
mod tests;

/// A search first looks at the `FIRST_PAIRS` splits with the smallest parts, in order (in some
/// games, 0.354 for one, the rare values come only from those); then at the blocks of
/// `SPREAD_BLOCK` pairs of its next `SPREAD` pairs in a low-discrepancy order (neighbouring
/// pairs give correlated values: spread ones find the wanted values of Grundy's game in about
/// half as many pairs as an ascending scan; a window of 2^15 pairs needs 5% fewer than 2^16,
/// 2^14 15% more); then at the rest in order. `ROUND_BLOCKS` blocks of
/// each split digit per round. Blocks of 256 pairs look at 11% more pairs than blocks of 64 on
/// Grundy's game, but each block's first reads miss the first-level cache: its searches took 14%
/// less time, 0.6's 8% less.
const FIRST_PAIRS: usize = 128;
const SPREAD_BLOCK: usize = 256;
const SPREAD: usize = 1 << 15;
const ROUND_BLOCKS: usize = 8;
/// Pairs per run of the prefix (runs spread over the search window).
const PREFIX_RUN: usize = 16;
/// The reversed copy of the first values, read by the searches, covers at most this many heaps.
const REV_MAX: usize = 1 << 17;
/// Smallest block after refutations.
const MIN_BLOCK: usize = 16;
/// Fixed cost of a heap in a block, in pairs (for the block size).
const HEAP_COST: u64 = 256;
/// Work per parallel task (pairs), so that a task is worth handing to another thread.
const TASK_WORK: u64 = 1 << 16;
/// Bytes of value flags per parallel task of the first part (a first-level cache's worth).
const FLAGS_PER_TASK: usize = 32 << 10;
/// Heaps between the one the sequential part writes and the last one it hands over to be
/// confirmed (whose confirmation reads the values just below it).
const PUBLISH_LAG: usize = 64;

/// Tuning knobs of [`TakeAndBreakSparse`]; the defaults suit long runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SparseOptions {
    /// Largest block of heaps done at once. A block is also at most a sixteenth of the heaps
    /// already known, and sized so that it holds about `block_work` pairs of work (estimated
    /// from the previous block), enough for the threads to share.
    pub block: usize,
    /// Pairs of work a block aims at (see `block`).
    pub block_work: u64,
    /// Least heaps per parallel task in the first part of a block (more when each heap has
    /// little work).
    pub chunk: usize,
    /// Heaps per sub-block of the sequential part of a block.
    pub sub_block: usize,
    /// Heaps computed by full search before the first mask is chosen.
    pub warmup: usize,
    /// Sparse mode while `rare_count * sparse_ratio <= heaps`; full search otherwise. 0: always
    /// sparse once a mask is chosen.
    pub sparse_ratio: usize,
    /// Whether the searches may use the AVX2 kernel where the processor has it (they do the
    /// same thing without it, slower).
    pub simd: bool,
    /// Splits of each heap's first split digit (both parts below the block, in runs spread over
    /// the search window) whose values are all recorded with the rare parts, in the parallel
    /// part, when the searches of the previous block looked at 768 pairs per heap or more: it
    /// removes most of the values the searches find one by one (Grundy's game), cheaper.
    pub prefix: usize,
    /// The rare-part splits that reach into a block are done by one thread (the sequential
    /// part, while the others confirm): blocks are halved (down to 128 heaps) while those splits
    /// are more than a `producer_share`-th of the block's work, so that the one thread does not
    /// hold the others back. 0: the number of threads (at least 2).
    pub producer_share: usize,
    /// The rare-part splits whose other part lies in the block at least `ahead` heaps before
    /// the heap are flagged ahead of the sequential part by the confirming threads (rounded up
    /// to whole sub-blocks, at most `ahead` heaps behind what the sequential part has written),
    /// so that the one thread does not do them all (256 by default, when `ahead_auto` allows).
    /// 0: the sequential part does them all.
    pub ahead: usize,
    /// With `ahead`, flag ahead only for the blocks after one whose confirmations kept the
    /// other threads busy for less than 60% of the sequential part's work (and until one keeps
    /// them busy for more than 80%): flagging ahead gains only where those threads have time
    /// for it (0.354), and costs where they have none (Grundy's game, 0.6). False: always, even
    /// with one thread, which then flags them itself, timed apart (`SparseStats::ahead_ns`: the
    /// scaling model's measure of what more threads would take off the sequential part).
    pub ahead_auto: bool,
    /// While every value is below 64, the sequential part records every split of each heap's
    /// first-digit sum whose smaller part is at most `window` (sixteen pairs per vector step
    /// with AVX2), and the rare parts up to `window` are enumerated nowhere else (their splits
    /// are among those). Where the rare heaps are few and small, the values the searches would
    /// look for are nearly all there too (0.1777: 16 rare heaps, the last at 123; searches for
    /// 88% of the heaps without it, 0.2% with a window of 128). 0: off.
    pub window: usize,
}

impl Default for SparseOptions {
    fn default() -> Self {
        SparseOptions {
            block: 8192,
            block_work: 1 << 25,
            chunk: 128,
            sub_block: 32,
            warmup: 128,
            sparse_ratio: 8,
            simd: true,
            prefix: 256,
            producer_share: 0,
            // On 2 cores, 0.354 to 2^21 gains about a quarter with it (the confirmations leave
            // the other thread idle); Grundy's game and 0.6 lose as much, hence `ahead_auto`.
            ahead: 256,
            ahead_auto: true,
            window: 128,
        }
    }
}

/// A clock for comparing the parts' times within a block: the time-stamp counter where there is
/// one (a few cycles to read, where `Instant` costs tens of nanoseconds: it is read around every
/// batch of confirmations).
#[inline]
fn ticks() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: RDTSC is available on every x86_64 processor.
        unsafe { std::arch::x86_64::_rdtsc() }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        use std::sync::OnceLock;
        static START: OnceLock<Instant> = OnceLock::new();
        START.get_or_init(Instant::now).elapsed().as_nanos() as u64
    }
}

/// Work counters, for benchmarks and tests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SparseStats {
    /// Heaps computed in sparse mode (those computed again after a refuted provisional value
    /// included).
    pub sparse_heaps: u64,
    /// Heaps computed by full search (likewise).
    pub dense_heaps: u64,
    /// Times the mask changed (the first choice included).
    pub mask_changes: u64,
    /// Rare-part pairs enumerated.
    pub rare_pairs: u64,
    /// Rare-part pairs flagged ahead of the sequential part (part of `rare_pairs`; by whichever
    /// thread took each sub-block's task).
    pub ahead_pairs: u64,
    /// Pairs whose values were all recorded: full searches (dense mode) and the prefixes.
    pub full_pairs: u64,
    /// Pairs recorded by the sequential part's windows (see `SparseOptions::window`).
    pub window_pairs: u64,
    /// Heaps whose rare values below the candidate had to be searched for.
    pub searches: u64,
    /// Pairs those searches looked at.
    pub search_pairs: u64,
    /// Values those searches found.
    pub search_found: u64,
    /// Provisional values refuted (each ends its block early).
    pub refuted: u64,
    /// Wall time (nanoseconds) of the parallel parts of the blocks (this and the next are the
    /// only statistics that depend on the machine).
    pub parallel_ns: u64,
    /// Wall time (nanoseconds) of the sequential parts of the blocks.
    pub sequential_ns: u64,
    /// Wall time (nanoseconds) of the first parts of the blocks alone (part of `parallel_ns`;
    /// the rest is the confirmations left when the sequential part ends).
    pub first_ns: u64,
    /// Time (nanoseconds, summed over the threads) spent flagging ahead: with one thread
    /// (`ahead_auto: false`), the part of `sequential_ns` that more threads take off the
    /// sequential part (the scaling model's use).
    pub ahead_ns: u64,
    /// Blocks run (each ends with the threads joining: the synchronisation of the scheme).
    pub blocks: u64,
    /// Blocks whose first part overlapped their sequential part (with more than one thread:
    /// every thread takes part-1 tasks in order, the sequential part starts on a sub-block once
    /// the tasks covering it are done, and a task flagging ahead waits for those of its
    /// sub-block). Their part-1 time counts in `sequential_ns`.
    pub overlapped: u64,
}

impl SparseStats {
    fn add(mut self, o: SparseStats) -> SparseStats {
        self.sparse_heaps += o.sparse_heaps;
        self.dense_heaps += o.dense_heaps;
        self.mask_changes += o.mask_changes;
        self.rare_pairs += o.rare_pairs;
        self.ahead_pairs += o.ahead_pairs;
        self.full_pairs += o.full_pairs;
        self.window_pairs += o.window_pairs;
        self.searches += o.searches;
        self.search_pairs += o.search_pairs;
        self.search_found += o.search_found;
        self.refuted += o.refuted;
        self.parallel_ns += o.parallel_ns;
        self.sequential_ns += o.sequential_ns;
        self.first_ns += o.first_ns;
        self.ahead_ns += o.ahead_ns;
        self.blocks += o.blocks;
        self.overlapped += o.overlapped;
        self
    }
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

/// Bytes per heap of value flags when every value is below `2^bits` (the flags only record
/// options, which are below `2^bits`; the set's last word is for the mex).
fn flag_stride(bits: u32) -> usize {
    64 * (1usize << bits).div_ceil(64)
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

    /// `popcount(v & mask) mod 2`, read from the table where it reaches.
    #[inline]
    fn class_of(&self, m: SparseMask, v: u32) -> u32 {
        match self.class1.get((v >> 6) as usize) {
            Some(w) => (w >> (v & 63)) as u32 & 1,
            None => m.class(v),
        }
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
        for (w, &s) in set.iter().enumerate() {
            let cand = !s & self.word(w, class);
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
    /// The rare-part splits are found once per sum of parts, not once per digit: heap `n`'s
    /// splits of digit `j` add up to `n - j`, which is also the sum of the first digit's splits
    /// of heap `n - (j - j0)`. Each heap's flags and row of `Buffers::sums` hold the rare-part
    /// splits of its first digit (`sum_digit`: that digit with the equal split left out), and
    /// its option set joins that row with the rows `shifts` before it (`j - j0` for the other
    /// digits). 0.1777 does 16 rare pairs per heap this way instead of 45.
    sum_digit: Vec<SplitDigit>,
    shifts: Vec<usize>,
    /// The `j` of the split digits that allow the equal split (value 0 when `n - j` is even),
    /// and, by the parity of `n`, whether one of them has an even `n - j`.
    equal_js: Vec<usize>,
    equal_by_parity: [bool; 2],
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
    /// Largest next block: shrinks after a refuted provisional value, grows back after.
    next_block: usize,
    /// Pairs of work per heap in the last block, plus a fixed cost per heap; the same for its
    /// first part alone and per confirmation search; whether its searches were long enough for
    /// the prefix.
    work_per_heap: u64,
    first_per_heap: u64,
    per_search: u64,
    use_prefix: bool,
    /// Whether the next block flags ahead (see `SparseOptions::ahead_auto`).
    ahead_on: bool,
    stats: SparseStats,
    rev: Reversed,
    buf: Buffers,
}

/// Per-block scratch: option sets and value flags of every heap of a block, provisional values.
#[derive(Default)]
struct Buffers {
    sets: Vec<u64>,
    /// The rare-part options of each heap's first-digit sum (see `TakeAndBreakSparse::shifts`),
    /// after as many rows for the heaps before the block as the largest shift.
    sums: Vec<u64>,
    flags: Vec<u8>,
    pending: Vec<Pending>,
    /// The rare heaps of the block (their values may still be provisional).
    new_rare: Vec<usize>,
}

/// A heap whose candidate became its provisional value while some rare values below it were
/// still unconfirmed: those values.
#[derive(Debug, Clone)]
struct Pending {
    /// The heap, as an index in its block.
    i: usize,
    want: Want,
    /// Set by the confirmation when the provisional value is wrong: the heap's value.
    refuted: Option<u32>,
}

impl Pending {
    fn new(words: usize) -> Self {
        Pending {
            i: 0,
            want: Want::new(words),
            refuted: None,
        }
    }
}

impl TakeAndBreakSparse {
    /// Whether this engine handles `rule`: a finite code leaving at most two heaps per move.
    pub fn supports(rule: &TakeAndBreak) -> bool {
        !rule.is_infinite() && rule.is_octal()
    }

    /// The solver for `rule`, or [`Error::Invalid`] for codes it does not handle (a repeated
    /// group, or digits that leave three heaps): use [`super::TakeAndBreakExact`] for those.
    ///
    /// # Errors
    /// [`Error::Invalid`] as [`TakeAndBreakSparse::with_options`].
    pub fn new(rule: TakeAndBreak) -> Result<Self> {
        Self::with_options(rule, SparseOptions::default())
    }

    /// [`TakeAndBreakSparse::new`] with tuning knobs.
    ///
    /// # Errors
    /// [`Error::Invalid`] for a code with a repeated group or one that leaves three heaps.
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
        let sum_digit: Vec<SplitDigit> = splits
            .first()
            .map(|sd| SplitDigit {
                j: sd.j,
                unequal: true,
            })
            .into_iter()
            .collect();
        let shifts = splits.iter().skip(1).map(|sd| sd.j - splits[0].j).collect();
        let equal_js: Vec<usize> = splits
            .iter()
            .filter(|sd| !sd.unequal)
            .map(|sd| sd.j)
            .collect();
        let equal_by_parity = [0, 1].map(|p| equal_js.iter().any(|&j| j % 2 == p));
        let parity_allowed = splits.windows(2).all(|w| (w[0].j ^ w[1].j) & 1 == 0);
        let odd_offset = splits.first().is_some_and(|s| s.j & 1 == 1);
        Ok(TakeAndBreakSparse {
            rule,
            opts,
            zeros,
            singles,
            splits,
            sum_digit,
            shifts,
            equal_by_parity,
            equal_js,
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
            next_block: opts.block.max(1),
            work_per_heap: HEAP_COST,
            first_per_heap: HEAP_COST,
            per_search: HEAP_COST,
            use_prefix: false,
            ahead_on: false,
            stats: SparseStats::default(),
            rev: Reversed::default(),
            buf: Buffers::default(),
        })
    }

    /// The code.
    pub fn rule(&self) -> &TakeAndBreak {
        &self.rule
    }

    /// The tuning knobs.
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

    /// Number of rare heaps among those computed.
    pub fn rare_count(&self) -> usize {
        self.rare.len()
    }

    /// Heaps computed so far that are not rare.
    pub fn common_count(&self) -> usize {
        self.done - self.rare.len()
    }

    /// The largest rare heap computed, if any.
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

    /// Work counters since the engine was made.
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
            max_value: self.max_seen,
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
        self.next_block = self.opts.block.max(1);
        self.work_per_heap = HEAP_COST;
        self.first_per_heap = HEAP_COST;
        self.per_search = HEAP_COST;
        self.use_prefix = false;
        self.rev = Reversed::default();
    }

    /// Accounts for the values `g[self.done..]` (histogram, largest value, rare heaps), the
    /// running figures kept in registers (a call per value cost 3.7 ns of 0.1777's 33).
    fn commit<T: Val>(&mut self, g: &[T]) {
        let from = self.done;
        self.hist.add_all(from, g[from..].iter().map(|v| v.get()));
        let mut max = self.max_seen;
        for (n, v) in g.iter().enumerate().skip(from) {
            let v = v.get();
            max = max.max(v);
            if self.space.is_some_and(|m| m.is_rare(n as u64, v)) {
                self.rare.push(n);
            }
        }
        self.max_seen = max;
        self.done = g.len();
    }

    /// Brings the bookkeeping in line with `g` (the values may have been widened, or be new).
    fn sync<T: Val>(&mut self, g: &[T]) {
        if self.done > g.len() {
            self.reset();
        }
        self.commit(g);
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

    /// The window of a sparse block whose values are below `2^bits` (see
    /// `SparseOptions::window`): 0 when it is off.
    fn window_for(&self, bits: u32) -> usize {
        if !self.dense && bits <= 6 && !self.sum_digit.is_empty() {
            self.opts.window
        } else {
            0
        }
    }

    /// The largest of `shifts` (0 with one split digit): the rows kept for the heaps before a
    /// block.
    fn max_shift(&self) -> usize {
        self.shifts.last().copied().unwrap_or(0)
    }

    /// How far back (in heaps, whole sub-blocks) a split's other part must lie to be flagged
    /// ahead (see `SparseOptions::ahead`).
    fn lag(&self) -> usize {
        let sb = self.opts.sub_block.max(1);
        self.opts.ahead.div_ceil(sb) * sb
    }

    /// Whether the next block flags ahead (see `SparseOptions::ahead`), given whether it has
    /// other threads to do it.
    fn flags_ahead(&self, helpers: bool) -> bool {
        !self.dense && self.opts.ahead > 0 && (!self.opts.ahead_auto || (helpers && self.ahead_on))
    }

    /// Heaps in the next block, starting at `n0`.
    fn block_len(&self, n0: usize, left: u64) -> usize {
        let by_work = (self.opts.block_work / self.work_per_heap.max(1)) as usize;
        let mut b = by_work.min(n0 / 16).min(self.next_block).max(1);
        if !self.dense {
            // The rare-part splits that reach into the block are done sequentially (while other
            // threads confirm), except those flagged ahead; halve the block while they would be
            // more than a thread's share of the work (half with two threads: a tenth left the
            // blocks of 0.354 too small to share).
            let threads = rayon::current_num_threads();
            let share = match self.opts.producer_share {
                0 => threads.max(2),
                k => k,
            } as u64;
            let reach = if self.flags_ahead(threads > 1) {
                self.lag()
            } else {
                usize::MAX
            };
            while b > 128 && share * self.inner_pairs(b, reach) > self.work_per_heap {
                b /= 2;
            }
        }
        (b as u64).min(left) as usize
    }

    /// Average number of rare-part splits per heap (of its first digit: see `shifts`) of a block
    /// of `b` heaps whose other part lies in the block, less than `reach` heaps before the heap
    /// (the others are flagged ahead; those of the window's rare parts are in the window).
    fn inner_pairs(&self, b: usize, reach: usize) -> u64 {
        let mut sum = 0;
        let win = self.window_for(bits_for(self.max_seen));
        let from = self.rare.partition_point(|&r| r <= win);
        for sd in &self.sum_digit {
            for &r in self.rare[from..]
                .iter()
                .take_while(|&&r| r + sd.j < b.min(reach))
            {
                sum += (b - sd.j - r) as u64;
            }
        }
        sum / b as u64
    }

    /// The rare-part splits that the sequential part does heap by heap, those whose other part
    /// lies in the heap's own sub-block (of `sb` heaps): `(d, G(r))` for the first split digit
    /// `j` (see `shifts`) and rare `r >= 1` below the block with `d = j + r < sb`, ascending in
    /// `d`. Heap `n0 + i` of a sub-block starting at `n0 + k0` takes those with `d <= i - k0` (its
    /// other part `n - d` is then at or after the sub-block's start, so it is never the equal
    /// split). Rare parts up to `win` are left out (their splits are in the window).
    fn near_pairs<T: Val>(&self, g: &[T], sb: usize, win: usize) -> Vec<(usize, u32)> {
        let mut near: Vec<(usize, u32)> = self
            .sum_digit
            .iter()
            .flat_map(|sd| {
                self.rare
                    .iter()
                    .filter(move |&&r| r >= 1 && r > win && sd.j + r < sb)
                    .map(move |&r| (sd.j + r, g[r].get()))
            })
            .collect();
        near.sort_unstable();
        near
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
    /// hold, or a provisional value is refuted), pushing their values onto `g`.
    fn run_block<T: Val>(&mut self, g: &mut Vec<T>, b: usize) -> StepResult<()> {
        let n0 = g.len();
        self.refresh_rev(&g[..]);
        let bits = bits_for(self.max_seen);
        let win = self.window_for(bits);
        if win > 0 && self.rare.last().is_none_or(|&r| r <= win) {
            self.run_window_block(g, b, bits, win);
            return Ok(());
        }
        let words = words_for(bits);
        let classes = Classes::new(self.space.map_or(u32::MAX, |m| m.mask), words);
        let mut buf = std::mem::take(&mut self.buf);
        // Sized only: each parallel task clears its own part.
        if buf.sets.len() < b * words {
            buf.sets.resize(b * words, 0);
        }
        // Dense blocks need no flags, but one byte per heap keeps the parallel chunks aligned.
        let stride = if self.dense { 1 } else { flag_stride(bits) };
        if buf.flags.len() < b * stride {
            buf.flags.resize(b * stride, 0);
        }
        let dmax = self.max_shift();
        if buf.sums.len() < (dmax + b) * words {
            buf.sums.resize((dmax + b) * words, 0);
        }
        let (sets_all, flags_all) = (&mut buf.sets[..b * words], &mut buf.flags[..b * stride]);
        let sums_all = &mut buf.sums[..(dmax + b) * words];
        let (sums_before, sums_block) = sums_all.split_at_mut(dmax * words);

        // 1. In parallel: the options whose parts are all below n0.
        let win = self.window_for(bits);
        let near = self.near_pairs(&g[..n0], self.opts.sub_block.max(1), win);
        let cx = Ctx {
            eng: &*self,
            n0,
            bits,
            words,
            stride: flag_stride(bits),
            classes: &classes,
            near: &near,
            win,
        };
        let gs = &g[..];
        let clock = Instant::now();
        // Enough work per task, and value flags that fit the first-level cache.
        let chunk = ((TASK_WORK / self.first_per_heap) as usize)
            .max(self.opts.chunk.max(1))
            .min((FLAGS_PER_TASK / stride).max(16));
        // Small blocks are not worth the other threads' attention.
        let helpers = if (b as u64) * self.work_per_heap >= 4 * TASK_WORK {
            rayon::current_num_threads() - 1
        } else {
            0
        };
        // With other threads, part 1 is no phase of its own: every thread takes its tasks in
        // order, and the sequential part starts on a sub-block as soon as the tasks covering it
        // are done, helping with the rest while it waits (no barrier, no thread idle at its
        // end). A task flagging ahead waits for the part-1 tasks of its sub-block.
        let overlap = helpers > 0 && !self.dense && b >= 2 * chunk;
        let mut stats = if overlap {
            SparseStats::default()
        } else if b >= 2 * chunk {
            sets_all
                .par_chunks_mut(chunk * words)
                .zip(sums_block.par_chunks_mut(chunk * words))
                .zip(flags_all.par_chunks_mut(chunk * stride))
                .enumerate()
                .map(|(c, ((s, d), fl))| cx.parallel(gs, c * chunk, s, d, fl))
                .reduce(SparseStats::default, SparseStats::add)
        } else {
            cx.parallel(gs, 0, sets_all, sums_block, flags_all)
        };
        if !self.dense {
            // The rows of the heaps just before the block, which its first heaps' shifts read.
            stats.rare_pairs += cx.sums_before(gs, sums_before);
        }

        let t1 = clock.elapsed();
        // 2. Heap by heap: what reaches into the block, giving values or provisional values.
        //    The block goes by sub-blocks: the rare-part splits whose block part lies in an
        //    earlier sub-block are done for the whole sub-block at once (contiguous slices).
        // 3. Meanwhile, on the other threads, the searches that confirm the provisional values,
        //    taken from a queue to which each sub-block's are published at its end (one task per
        //    thread for the whole block: no spawning, hence no waking, per batch). They read
        //    only the values before their heaps. The thread of part 2 joins them at the end.
        let mut overflow = false;
        let mut new_rare = std::mem::take(&mut buf.new_rare);
        new_rare.clear();
        if buf.pending.len() < b {
            buf.pending.resize_with(b, || Pending::new(words));
        }
        g.resize(n0 + b, T::default());
        let shared = Shared::new(&mut g[..]);
        let queue = Queue::new(&mut buf.pending[..b]);
        let claim = ((TASK_WORK / 8 / self.per_search) as usize).clamp(1, 64);
        let mut len = n0;
        let mut t2 = t1;
        let mut seq_ticks = 0u64;
        let (sets_sh, sums_sh) = (Shared::new(sets_all), Shared::new(sums_all));
        let (sets_sh, sums_sh) = (&sets_sh, &sums_sh);
        let (cx, queue, shared) = (&cx, &queue, &shared);
        // Time spent confirming and flagging ahead, on every thread, in ticks (for `ahead_auto`).
        let seq_start = ticks();
        let (conf_t, ahead_t) = (AtomicU64::new(0), AtomicU64::new(0));
        let (conf_t, ahead_t) = (&conf_t, &ahead_t);
        let confirm = move |ps: &mut [Pending]| {
            let t = ticks();
            for p in ps {
                // SAFETY: a pending heap is published after every value below it was written.
                let gv = unsafe { shared.prefix(n0 + p.i) };
                p.refuted = cx.confirm(gv, p);
            }
            conf_t.fetch_add(ticks().wrapping_sub(t), Ordering::Relaxed);
        };
        // The splits reaching far back into the block, flagged ahead by the other threads
        // (task t: sub-block t, other parts at least `lag` heaps before it).
        let sb = self.opts.sub_block.max(1);
        let lag = self.lag();
        let first_ahead = lag / sb + 1;
        // Forced on (`ahead_auto: false`), a single thread takes every task itself: the same
        // pairs, timed apart (`SparseStats::ahead_ns`).
        let ahead = self
            .flags_ahead(helpers > 0)
            .then(|| Ahead::new(b.div_ceil(sb), first_ahead));
        let ahead_pairs = AtomicU64::new(0);
        let flags_sh = Shared::new(&mut flags_all[..]);
        let (ahead, ahead_pairs, flags_sh) = (ahead.as_ref(), &ahead_pairs, &flags_sh);
        // Part 1's tasks when it overlaps the sequential part: claimed in order, each marked
        // done when its rows are written.
        let tasks = if overlap { b.div_ceil(chunk) } else { 0 };
        let (next_task, main_part1) = (AtomicUsize::new(0), AtomicU64::new(0));
        let task_done: Vec<AtomicBool> = (0..tasks).map(|_| AtomicBool::new(false)).collect();
        let task_stats = Mutex::new(SparseStats::default());
        let (next_task, task_done, task_stats) = (&next_task, &task_done[..], &task_stats);
        let claim_part1 = move || {
            let t = next_task.fetch_add(1, Ordering::Relaxed);
            (t < tasks).then_some(t)
        };
        let run_part1 = move |t: usize| {
            let (i0, i1) = (t * chunk, ((t + 1) * chunk).min(b));
            // SAFETY: a task is claimed once, and its rows are no one else's until it is marked
            // done (the sequential part waits for that); the values below n0 no longer change.
            let (gv, set, row, fl) = unsafe {
                (
                    shared.prefix(n0),
                    sets_sh.slice_mut(i0 * words, i1 * words),
                    sums_sh.slice_mut((dmax + i0) * words, (dmax + i1) * words),
                    flags_sh.slice_mut(i0 * stride, i1 * stride),
                )
            };
            let st = cx.parallel(gv, i0, set, row, fl);
            let mut total = task_stats.lock().unwrap_or_else(|e| e.into_inner());
            *total = total.add(st);
            task_done[t].store(true, Ordering::Release);
        };
        let run_ahead = move |t: usize| {
            let start = ticks();
            let (k0, k1) = (t * sb, ((t + 1) * sb).min(b));
            // Part 1 writes the sub-block's rows first (when it overlaps: every part-1 task is
            // claimed before a thread takes a task ahead, so this only waits for running ones).
            for done in &task_done[..tasks.min(k1.div_ceil(chunk))] {
                while !done.load(Ordering::Acquire) {
                    std::hint::spin_loop();
                }
            }
            let s1 = k0 - lag;
            // SAFETY: the values below n0 + s1 are written (the task is available) and no
            // longer change; the flags of sub-block t are this task's alone until it is done
            // (the sequential part waits for it before it touches them).
            let (gv, fl) = unsafe {
                (
                    shared.prefix(n0 + s1),
                    flags_sh.slice_mut(k0 * stride, k1 * stride),
                )
            };
            let pairs = cx.scatter_ahead(gv, k0, k1, s1, fl);
            ahead_pairs.fetch_add(pairs, Ordering::Relaxed);
            ahead_t.fetch_add(ticks().wrapping_sub(start), Ordering::Relaxed);
        };
        let other_work = move || ahead.is_some_and(|a| a.ready());
        rayon::scope(|sc| {
            for _ in 0..helpers {
                sc.spawn(move |_| {
                    while let Some(t) = claim_part1() {
                        run_part1(t);
                    }
                    loop {
                        if let Some(t) = ahead.and_then(|a| a.claim()) {
                            run_ahead(t);
                            ahead.unwrap().finish(t);
                            continue;
                        }
                        match queue.claim_or(claim, true, other_work) {
                            Some(ps) => confirm(ps),
                            None if !queue.is_closed() && other_work() => {}
                            None => break,
                        }
                    }
                });
            }
            let (mut filled, mut published) = (0, 0);
            let mut k0 = 0;
            let mut stop = false;
            let mut waited = 0;
            while k0 < b && !stop {
                let k1 = (k0 + sb).min(b);
                // Part 1's rows of this sub-block, helping with the tasks still unclaimed.
                while waited < tasks && waited * chunk < k1 {
                    if task_done[waited].load(Ordering::Acquire) {
                        waited += 1;
                    } else if let Some(t) = claim_part1() {
                        let start = ticks();
                        run_part1(t);
                        main_part1.fetch_add(ticks().wrapping_sub(start), Ordering::Relaxed);
                    } else {
                        std::hint::spin_loop();
                    }
                }
                if !self.dense && k0 > 0 {
                    let t = k0 / sb;
                    let from = match ahead {
                        Some(a) if t >= first_ahead => {
                            if a.take_or_wait(t) {
                                run_ahead(t);
                            }
                            k0 - lag
                        }
                        _ => 0,
                    };
                    // SAFETY: the values below n0 + k0 are written and no longer change; the
                    // tasks ahead touch only the flags of sub-blocks after this one.
                    let (gv, flags) =
                        unsafe { (shared.prefix(n0 + k0), flags_sh.slice_mut(0, k1 * stride)) };
                    stats.rare_pairs += cx.inner_scatter(gv, k0, k1, from, &new_rare, flags);
                }
                for i in k0..k1 {
                    // SAFETY: as above, heap i's flags, set and rows (those up to its own) are no
                    // other task's: part 1 is done with them.
                    let (set, sums, flags) = unsafe {
                        (
                            sets_sh.slice_mut(i * words, (i + 1) * words),
                            sums_sh.slice_mut(0, (dmax + i + 1) * words),
                            flags_sh.slice_mut(i * stride, (i + 1) * stride),
                        )
                    };
                    // SAFETY: only this thread fills the queue, above what it published.
                    let p = unsafe { queue.entry(filled) };
                    // SAFETY: the values below n0 + i are written; heap n0 + i is written only
                    // after `gv`'s last use.
                    let gv = unsafe { shared.prefix(n0 + i) };
                    let (mut v, mut provisional) =
                        cx.sequential(gv, i, k0, &new_rare, set, sums, flags, p, &mut stats);
                    if v > T::MAX && provisional {
                        // Settle it before asking for wider storage: the value may be smaller.
                        v = cx.confirm(gv, p).unwrap_or(v);
                        provisional = false;
                        stats.searches += 1;
                        stats.search_pairs += std::mem::take(&mut p.want.examined);
                        stats.search_found += std::mem::take(&mut p.want.found);
                    }
                    if v > T::MAX {
                        overflow = true;
                        stop = true;
                        break;
                    }
                    // SAFETY: no slice covering n0 + i is alive: the confirmations read below
                    // the heaps published so far, all below n0 + k0 <= n0 + i.
                    unsafe { shared.write(n0 + i, T::new(v)) };
                    len = n0 + i + 1;
                    filled += provisional as usize;
                    if self.space.is_some_and(|m| cx.is_rare(m, n0 + i, v)) {
                        new_rare.push(n0 + i);
                    }
                    if bits_for(v) > bits {
                        // Later heaps may have options beyond the block's sets.
                        stop = true;
                        break;
                    }
                }
                // Only heaps well behind the one being written: a confirmation reads the values
                // just below its heap, and sharing the cache line being written would slow both.
                while published < filled && {
                    // SAFETY: entry `published` is at or above what was published.
                    let p = unsafe { queue.entry(published) };
                    p.i + PUBLISH_LAG <= k1
                } {
                    published += 1;
                }
                queue.publish(published);
                if let Some(a) = ahead {
                    if !stop && a.make_available((k1 + lag) / sb + 1) {
                        queue.notify();
                    }
                }
                k0 = k1;
            }
            queue.publish(filled);
            queue.close();
            t2 = clock.elapsed();
            seq_ticks = ticks().wrapping_sub(seq_start);
            while let Some(ps) = queue.claim(claim, false) {
                confirm(ps);
            }
        });
        let ahead_ticks = ahead_t.load(Ordering::Relaxed);
        if helpers > 0 && !self.dense && lag > 0 && self.opts.ahead_auto {
            // Flag ahead while the confirmations leave the other threads idle for a good part
            // of the sequential part's work (as it would be with nothing flagged ahead, and
            // without the part-1 tasks it took while waiting for its rows); stop when they
            // would not.
            let seq_work =
                seq_ticks.saturating_sub(main_part1.load(Ordering::Relaxed)) + ahead_ticks;
            let room = helpers as u64 * seq_work;
            let conf = conf_t.load(Ordering::Relaxed);
            if 10 * conf < 6 * room {
                self.ahead_on = true;
            } else if 10 * conf > 8 * room {
                self.ahead_on = false;
            }
        }
        if seq_ticks > 0 {
            // Ticks to nanoseconds at the rate of the sequential part, timed both ways.
            let rate = (t2 - t1).as_nanos() as f64 / seq_ticks as f64;
            stats.ahead_ns += (ahead_ticks as f64 * rate) as u64;
        }
        stats = stats.add(*task_stats.lock().unwrap_or_else(|e| e.into_inner()));
        stats.ahead_pairs += ahead_pairs.load(Ordering::Relaxed);
        stats.rare_pairs += stats.ahead_pairs;
        let npending = queue.published();
        g.truncate(len);
        let t3 = clock.elapsed();
        stats.parallel_ns += (t1 + t3 - t2).as_nanos() as u64;
        stats.sequential_ns += (t2 - t1).as_nanos() as u64;
        stats.first_ns += t1.as_nanos() as u64;
        stats.blocks += 1;
        stats.overlapped += u64::from(overlap);
        // Keep the block up to its first refuted provisional value.
        let pending = &mut buf.pending[..npending];
        stats.searches += npending as u64;
        let mut refuted = None;
        for p in pending.iter_mut() {
            stats.search_pairs += std::mem::take(&mut p.want.examined);
            stats.search_found += std::mem::take(&mut p.want.found);
            if let Some(v) = p.refuted.take() {
                refuted = refuted.or(Some((p.i, v)));
            }
        }
        match refuted {
            Some((i, v)) => {
                stats.refuted += 1;
                g.truncate(n0 + i);
                g.push(T::new(v));
                overflow = false;
                self.next_block = (2 * (i + 1)).clamp(MIN_BLOCK, self.opts.block.max(1));
            }
            None => self.next_block = (2 * self.next_block).min(self.opts.block.max(1)),
        }
        self.commit(&g[..]);
        let heaps = stats.sparse_heaps + stats.dense_heaps;
        let pairs = stats.rare_pairs + stats.full_pairs + stats.search_pairs;
        self.work_per_heap = pairs / heaps.max(1) + HEAP_COST;
        self.first_per_heap = (stats.rare_pairs + stats.full_pairs) / heaps.max(1) + HEAP_COST;
        self.per_search = stats.search_pairs / stats.searches.max(1) + HEAP_COST;
        self.use_prefix = stats.search_pairs >= 768 * heaps;
        self.stats = self.stats.add(stats);
        buf.new_rare = new_rare;
        self.buf = buf;
        if overflow {
            Err(Stop::Overflow)
        } else {
            Ok(())
        }
    }
}

impl TakeAndBreakSparse {
    /// [`TakeAndBreakSparse::run_block`] where the window covers every rare heap: see
    /// [`Ctx::window_block`]. One thread does it all: there is no part 1 left, and hardly any
    /// searches (0.1777: 0.2% of the heaps).
    fn run_window_block<T: Val>(&mut self, g: &mut Vec<T>, b: usize, bits: u32, win: usize) {
        let n0 = g.len();
        let clock = Instant::now();
        let classes = Classes::new(self.space.map_or(u32::MAX, |m| m.mask), 1);
        let mut buf = std::mem::take(&mut self.buf);
        let dmax = self.max_shift();
        if buf.sums.len() < dmax + b {
            buf.sums.resize(dmax + b, 0);
        }
        if buf.pending.is_empty() {
            buf.pending.push(Pending::new(1));
        }
        let cx = Ctx {
            eng: &*self,
            n0,
            bits,
            words: 1,
            stride: flag_stride(bits),
            classes: &classes,
            near: &[],
            win,
        };
        let mut stats = SparseStats::default();
        let (before, _) = buf.sums.split_at_mut(dmax);
        stats.rare_pairs += cx.sums_before(&g[..], before);
        let done = cx.window_block(g, b, &mut buf.sums, &mut buf.pending[0], &mut stats);
        debug_assert_eq!(g.len(), n0 + done);
        stats.sequential_ns += clock.elapsed().as_nanos() as u64;
        stats.blocks += 1;
        self.commit(&g[..]);
        let heaps = stats.sparse_heaps.max(1);
        self.work_per_heap = (stats.rare_pairs + stats.search_pairs) / heaps + HEAP_COST;
        self.first_per_heap = stats.rare_pairs / heaps + HEAP_COST;
        self.per_search = stats.search_pairs / stats.searches.max(1) + HEAP_COST;
        self.next_block = (2 * self.next_block).min(self.opts.block.max(1));
        self.stats = self.stats.add(stats);
        self.buf = buf;
    }
}

impl Step for TakeAndBreakSparse {
    fn theorem(&self) -> crate::periodicity::Theorem {
        super::take_and_break::theorem(self.rule())
    }

    /// Every piece of state (histogram, mask, rare heaps, reversed copy) is derived from the
    /// values by `sync` and `reevaluate` at the next call, so seeding costs a pass over them:
    /// only the last values are recomputed, as a check (replaying all was slower than a fresh run).
    fn resume<T: Val>(&mut self, g: &[T]) -> Result<usize> {
        self.reset();
        Ok(g.len().saturating_sub(super::RESUME_CHECK))
    }

    fn compute<T: Val>(&mut self, g: &[T]) -> Result<u32> {
        self.sync(g);
        self.reevaluate(g);
        self.refresh_rev(g);
        let bits = bits_for(self.max_seen);
        let words = words_for(bits);
        let classes = Classes::new(self.space.map_or(u32::MAX, |m| m.mask), words);
        let mut set = vec![0u64; words];
        let mut flags = vec![0u8; flag_stride(bits)];
        let cx = Ctx {
            eng: &*self,
            n0: g.len(),
            bits,
            words,
            stride: flag_stride(bits),
            classes: &classes,
            // Heap 0 of a block of one: no split reaches back into it.
            near: &[],
            win: self.window_for(bits),
        };
        let dmax = self.max_shift();
        let mut sums = vec![0u64; (dmax + 1) * words];
        let (before, row) = sums.split_at_mut(dmax * words);
        let mut stats = cx.parallel(g, 0, &mut set, row, &mut flags);
        if !self.dense {
            stats.rare_pairs += cx.sums_before(g, before);
        }
        let mut p = Pending::new(words);
        let (v, provisional) = cx.sequential(
            g,
            0,
            0,
            &[],
            &mut set,
            &mut sums,
            &mut flags,
            &mut p,
            &mut stats,
        );
        Ok(if provisional {
            cx.confirm(g, &mut p).unwrap_or(v)
        } else {
            v
        })
    }

    fn extend_to<T: Val>(
        &mut self,
        g: &mut Vec<T>,
        target: u64,
        ctl: &dyn Control,
    ) -> StepResult<()> {
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
