//! The fast engine for finite octal games: sparse space and block parallelism.
//!
//! Handles finite codes whose moves leave at most two heaps (`d0` in {0, 4, 4!}, digits 0-7 with
//! or without `!`): Grundy's game `4!.0`, Kayles `0.77`, `0.16`, `0.137`, ... Other codes are
//! refused by [`TakeAndBreakSparse::new`]; the caller uses
//! [`TakeAndBreakExact`](super::TakeAndBreakExact) for them.
//!
//! **Sparse space.** With a mask `m` and a parity flag `e`, heap `x` has
//! `rho(x) = popcount(G(x) & m) ^ e * (x mod 2)` and is *rare* when `rho(x) = f`
//! (see [`mask`]). For heap `n`, whose splits add up to `s = n - j`,
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
//!    earlier values; one job per thread and block, which waits by spinning for a few tens of
//!    microseconds, then sleeps, so that no thread has to be woken per batch and none holds a
//!    processor another needs). One that fails (its heap's value is the smallest rare value
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
//! (`benchmarks/logs/engine.md`, seventh session).
//!
//! With more than one thread, parts 1 and 2 overlap: every thread takes part-1 tasks in order,
//! and part 2 starts on a sub-block as soon as the tasks covering it are done, taking unclaimed
//! tasks while it waits, so that no thread waits at the end of part 1.
//!
//! The other threads stay with a run of blocks (one `extend_to`) instead of being handed a rayon
//! task per block, which woke a sleeping thread for every block (`crew`): between blocks they
//! spin briefly, yield for up to a millisecond, then park until the next block or the run's end
//! (a stop included).
//!
//! Every wait of a block's threads for each other spins briefly, then yields (`queue::Backoff`).
//! A block whose threads lost a quarter of its time waiting for each other (one had no
//! processor: a busy machine) sends the next `LONELY_BLOCKS` blocks to one thread.
//!
//! Blocks and tasks are sized from the previous block's work per heap. A search looks at the
//! smallest parts first, then at blocks spread over the next 2^15 splits in a golden-ratio order
//! (neighbouring splits give correlated values), then at the rest; 32 splits at a time with
//! AVX2 table lookups (`vpshufb`) where the processor has them, a scalar loop otherwise.
//!
//! The values do not depend on the number of threads.
//!
//! ```
//! use grundy::engine::{Sequence, TakeAndBreakSparse};
//! use grundy::control::NoControl;
//! use grundy::rules::TakeAndBreak;
//! let rule = TakeAndBreak::parse("4!.0").unwrap();
//! let mut g = Sequence::new(TakeAndBreakSparse::new(rule).unwrap());
//! g.extend(20_000, &NoControl).unwrap();
//! assert_eq!(g.values().to_vec()[..9], [0, 0, 0, 1, 0, 2, 1, 0, 2]);
//! assert_eq!(g.step().rare_positions()[..8], [0, 1, 2, 3, 4, 6, 7, 9]);
//! assert!(TakeAndBreakSparse::new(TakeAndBreak::parse("0.[3]").unwrap()).is_err());
//! ```

use super::blocks::{simd_available, Reversed, Want};
use super::{Step, StepResult, Val};
use crate::control::{Control, Poller};
use crate::error::{Error, Result};
use crate::rules::TakeAndBreak;
use block::Ctx;
use classes::{flag_stride, words_for, Classes, SplitDigit};
use mask::{bits_for, Histogram, SparseMask};
use space::SparseSpace;

mod block;
mod bookkeeping;
mod classes;
mod crew;
pub mod mask;
mod options;
mod queue;
mod run;
mod sizing;
pub mod space;
mod stats;
#[cfg(test)]
mod tests;
mod verify;

pub use options::SparseOptions;
pub use stats::SparseStats;

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
/// Blocks run on one thread after one whose threads lost a quarter of its time waiting for each
/// other (a thread that had no processor: the machine busy with other work), before the
/// threads are tried again: a busy machine then costs a block in `LONELY_BLOCKS + 1` its
/// waits, not every block (2 threads were slower than 1 there).
const LONELY_BLOCKS: u32 = 16;
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
    /// Blocks left to run without the other threads (see `LONELY_BLOCKS`).
    lonely: u32,
    stats: SparseStats,
    rev: Reversed,
    buf: Buffers,
    /// A copy verifying a predicted stretch: its blocks run on one thread, and those outside
    /// the window on `own`, its private copy of the values (see `verify`).
    solo: bool,
    own: Option<Box<dyn std::any::Any + Send + Sync>>,
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
            lonely: 0,
            stats: SparseStats::default(),
            rev: Reversed::default(),
            buf: Buffers::default(),
            solo: false,
            own: None,
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

    fn fork(&self) -> Option<Self> {
        Some(self.fork_solo())
    }

    /// Accounts for the values after those the state covers (all of them again when it covers
    /// more than `g`).
    fn advance<T: Val>(&mut self, g: &[T]) {
        self.sync(g);
        self.solo = false;
        self.own = None;
    }

    /// Keeps the statistics of the engine computing in order (the speculation is timed in
    /// `Sequence::stages`).
    fn adopt(&mut self, old: Self) {
        self.stats = old.stats;
    }

    fn verify<T: Val>(
        &mut self,
        pred: &[T],
        from: usize,
        to: usize,
        ctl: &dyn Control,
    ) -> Result<Option<(usize, u32)>> {
        self.verify_stretch(pred, from, to, ctl)
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
        let mut poll = Poller::new(ctl, target);
        // The other threads stay with the blocks until the target (or a stop).
        crew::with_crew(self.threads(), |crew| {
            while (g.len() as u64) < target {
                self.reevaluate(g);
                let b = self.block_len(g.len(), target - g.len() as u64);
                self.run_block(g, b, crew)?;
                poll.tick(g.len() as u64)?;
            }
            Ok(())
        })
    }
}
