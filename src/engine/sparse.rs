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
//!    provisionally;
//! 3. on the other threads, while part 2 goes on, the searches that confirm the provisional
//!    values, taken from a queue to which part 2 publishes each sub-block's (they read only
//!    earlier values; one task per thread and block, which waits by spinning, so that no thread
//!    has to be woken per batch). One that fails (its heap's value is the smallest rare value
//!    not found: the heap is rare) ends the block there; the heaps after it are computed again
//!    in the next block, made smaller.
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

use super::blocks::{
    flags_to_set, fold_flags, fold_pairs, mex, scatter_flags, search, set_bit, simd_available,
    Blocks, Reversed, Want,
};
use super::sparse_mask::{bits_for, Histogram, SparseMask, HIST_BITS};
use super::{Control, Step, Val, POLL_INTERVAL};
use crate::error::{Error, Result};
use crate::rules::TakeAndBreak;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread::Thread;
use std::time::Instant;

/// A search first looks at the `FIRST_PAIRS` splits with the smallest parts, in order (in some
/// games, 0.354 for one, the rare values come only from those); then at the blocks of
/// `SPREAD_BLOCK` pairs of its next `SPREAD` pairs in a low-discrepancy order (neighbouring
/// pairs give correlated values: spread ones find the wanted values of Grundy's game in about
/// half as many pairs as an ascending scan; a window of 2^15 pairs needs 5% fewer than 2^16,
/// 2^14 15% more); then at the rest in order. `ROUND_BLOCKS` blocks of
/// each split digit per round.
const FIRST_PAIRS: usize = 128;
const SPREAD_BLOCK: usize = 64;
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
/// Spin-loop hints a waiting confirmer spends (about 20-50 microseconds) before it sleeps.
const SPINS_BEFORE_SLEEP: u32 = 1 << 11;

/// Tuning knobs of [`TakeAndBreakSparse`]; the defaults suit long runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SparseOptions {
    /// Largest block of heaps done at once. A block is also at most a sixteenth of the heaps
    /// already known, and sized so that it holds about `block_work` pairs of work (estimated
    /// from the previous block), enough for the threads to share.
    pub block: usize,
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
        }
    }
}

/// Work counters, for benchmarks and tests.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SparseStats {
    /// Heaps computed in sparse mode and by full search (those computed again after a refuted
    /// provisional value included).
    pub sparse_heaps: u64,
    pub dense_heaps: u64,
    /// Times the mask changed (the first choice included).
    pub mask_changes: u64,
    /// Rare-part pairs enumerated.
    pub rare_pairs: u64,
    /// Pairs whose values were all recorded: full searches (dense mode) and the prefixes.
    pub full_pairs: u64,
    /// Heaps whose rare values below the candidate had to be searched for, and the pairs those
    /// searches looked at.
    pub searches: u64,
    pub search_pairs: u64,
    /// Values those searches found.
    pub search_found: u64,
    /// Provisional values refuted (each ends its block early).
    pub refuted: u64,
    /// Wall time (nanoseconds) of the parallel parts of the blocks and of their sequential part
    /// (the only statistic that depends on the machine).
    pub parallel_ns: u64,
    pub sequential_ns: u64,
}

impl SparseStats {
    fn add(mut self, o: SparseStats) -> SparseStats {
        self.sparse_heaps += o.sparse_heaps;
        self.dense_heaps += o.dense_heaps;
        self.mask_changes += o.mask_changes;
        self.rare_pairs += o.rare_pairs;
        self.full_pairs += o.full_pairs;
        self.searches += o.searches;
        self.search_pairs += o.search_pairs;
        self.search_found += o.search_found;
        self.refuted += o.refuted;
        self.parallel_ns += o.parallel_ns;
        self.sequential_ns += o.sequential_ns;
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
    stats: SparseStats,
    rev: Reversed,
    buf: Buffers,
}

/// Per-block scratch: option sets and value flags of every heap of a block, provisional values.
#[derive(Default)]
struct Buffers {
    sets: Vec<u64>,
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

/// The values of a block being computed, shared between the thread that writes them in order
/// and the confirmation tasks, which read only values written before they were spawned.
struct Shared<T> {
    ptr: *mut T,
    len: usize,
}

// SAFETY: `Shared` hands out slices of values and writes single values; its users keep the
// slices and the writes disjoint (see `prefix` and `write`), and `T` is `Send + Sync`.
unsafe impl<T: Send + Sync> Send for Shared<T> {}
unsafe impl<T: Send + Sync> Sync for Shared<T> {}

impl<T> Shared<T> {
    fn new(values: &mut [T]) -> Self {
        Shared {
            ptr: values.as_mut_ptr(),
            len: values.len(),
        }
    }

    /// The first `n` values.
    ///
    /// # Safety
    /// None of them may be written while the slice is alive, and the storage must outlive it.
    unsafe fn prefix<'a>(&self, n: usize) -> &'a [T] {
        assert!(n <= self.len);
        std::slice::from_raw_parts(self.ptr, n)
    }

    /// Writes value `i`.
    ///
    /// # Safety
    /// No slice covering `i` may be alive.
    unsafe fn write(&self, i: usize, v: T) {
        assert!(i < self.len);
        self.ptr.add(i).write(v)
    }
}

/// What the parts of a block read.
struct Ctx<'a> {
    eng: &'a TakeAndBreakSparse,
    n0: usize,
    bits: u32,
    words: usize,
    /// Bytes of value flags per heap.
    stride: usize,
    classes: &'a Classes,
}

/// The provisional heaps of a block, handed from the thread that computes them in order to the
/// threads that confirm them. Entries below `published` are complete and left alone by the
/// producer; each is taken by exactly one confirmer, through `claimed`.
struct Queue {
    ptr: *mut Pending,
    cap: usize,
    published: AtomicUsize,
    claimed: AtomicUsize,
    closed: AtomicBool,
    /// Confirmers that waited long and sleep until the producer publishes.
    sleepers: AtomicUsize,
    parked: Mutex<Vec<Thread>>,
}

// SAFETY: the entries are handed out disjointly (the producer uses only those at and above
// `published`; each published range goes to the single claimer whose compare-exchange
// succeeds), and `Pending` is `Send`.
unsafe impl Send for Queue {}
unsafe impl Sync for Queue {}

impl Queue {
    fn new(entries: &mut [Pending]) -> Self {
        Queue {
            ptr: entries.as_mut_ptr(),
            cap: entries.len(),
            published: AtomicUsize::new(0),
            claimed: AtomicUsize::new(0),
            closed: AtomicBool::new(false),
            sleepers: AtomicUsize::new(0),
            parked: Mutex::new(Vec::new()),
        }
    }

    /// Wakes the confirmers that sleep (after `published` or `closed` changed).
    fn wake(&self) {
        if self.sleepers.load(Ordering::SeqCst) > 0 {
            let mut parked = self.parked.lock().unwrap_or_else(|e| e.into_inner());
            self.sleepers.store(0, Ordering::SeqCst);
            for t in parked.drain(..) {
                t.unpark();
            }
        }
    }

    /// Entry `i`, for the producer to fill.
    ///
    /// # Safety
    /// Only the producer may call this, with `i` at or above what it published.
    #[allow(clippy::mut_from_ref)]
    unsafe fn entry(&self, i: usize) -> &mut Pending {
        assert!(i < self.cap);
        &mut *self.ptr.add(i)
    }

    /// Hands the entries below `n` to the confirmers.
    fn publish(&self, n: usize) {
        if self.published.swap(n, Ordering::SeqCst) != n {
            self.wake();
        }
    }

    /// No more entries.
    fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        self.wake();
    }

    fn published(&self) -> usize {
        self.published.load(Ordering::Acquire)
    }

    /// Up to `max` published entries nobody has taken; `None` once the queue is closed and
    /// every entry taken, or (unless `wait`) when none is available now. Waits by spinning,
    /// backing off, for a few tens of microseconds (the producer publishes every few), then
    /// sleeps until woken, so that a waiting confirmer does not take the processor from the
    /// producer on a busy machine.
    #[allow(clippy::mut_from_ref)]
    fn claim(&self, max: usize, wait: bool) -> Option<&mut [Pending]> {
        let mut backoff = 1;
        let mut spins = 0u32;
        loop {
            let closed = self.closed.load(Ordering::SeqCst);
            let p = self.published.load(Ordering::SeqCst);
            let c = self.claimed.load(Ordering::Relaxed);
            if c < p {
                let e = p.min(c + max);
                if self
                    .claimed
                    .compare_exchange_weak(c, e, Ordering::AcqRel, Ordering::Relaxed)
                    .is_ok()
                {
                    // SAFETY: entries c..e are published (complete, left alone by the producer)
                    // and this thread alone won them.
                    return Some(unsafe { std::slice::from_raw_parts_mut(self.ptr.add(c), e - c) });
                }
                continue;
            }
            if closed || !wait {
                return None;
            }
            if spins < SPINS_BEFORE_SLEEP {
                for _ in 0..backoff {
                    std::hint::spin_loop();
                }
                spins += backoff;
                backoff = (2 * backoff).min(256);
                continue;
            }
            // Register, check again (a publication between the check above and the
            // registration would otherwise be missed), then sleep.
            {
                let mut parked = self.parked.lock().unwrap_or_else(|e| e.into_inner());
                parked.push(std::thread::current());
                self.sleepers.fetch_add(1, Ordering::SeqCst);
            }
            if self.published.load(Ordering::SeqCst) == p && !self.closed.load(Ordering::SeqCst) {
                std::thread::park();
            }
            spins = 0;
            backoff = 1;
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
            next_block: opts.block.max(1),
            work_per_heap: HEAP_COST,
            first_per_heap: HEAP_COST,
            per_search: HEAP_COST,
            use_prefix: false,
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
        self.next_block = self.opts.block.max(1);
        self.work_per_heap = HEAP_COST;
        self.first_per_heap = HEAP_COST;
        self.per_search = HEAP_COST;
        self.use_prefix = false;
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
        let by_work = (self.opts.block_work / self.work_per_heap.max(1)) as usize;
        let mut b = by_work.min(n0 / 16).min(self.next_block).max(1);
        if !self.dense {
            // The rare-part splits that reach into the block are done sequentially (while other
            // threads confirm); halve the block while they would be more than half the work (a
            // tenth left the blocks of 0.354 too small to share).
            while b > 128 && 2 * self.inner_pairs(b) > self.work_per_heap {
                b /= 2;
            }
        }
        (b as u64).min(left) as usize
    }

    /// Average number of rare-part splits per heap of a block of `b` heaps whose other part lies
    /// in the block.
    fn inner_pairs(&self, b: usize) -> u64 {
        let mut sum = 0;
        for sd in &self.splits {
            for &r in self.rare.iter().take_while(|&&r| r + sd.j < b) {
                sum += (b - sd.j - r) as u64;
            }
        }
        sum / b as u64
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
    fn run_block<T: Val>(&mut self, g: &mut Vec<T>, b: usize) -> Result<()> {
        let n0 = g.len();
        self.refresh_rev(&g[..]);
        let bits = bits_for(self.max_seen);
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
        let (sets_all, flags_all) = (&mut buf.sets[..b * words], &mut buf.flags[..b * stride]);

        // 1. In parallel: the options whose parts are all below n0.
        let cx = Ctx {
            eng: &*self,
            n0,
            bits,
            words,
            stride: flag_stride(bits),
            classes: &classes,
        };
        let gs = &g[..];
        let clock = Instant::now();
        // Enough work per task, and value flags that fit the first-level cache.
        let chunk = ((TASK_WORK / self.first_per_heap) as usize)
            .max(self.opts.chunk.max(1))
            .min((FLAGS_PER_TASK / stride).max(16));
        let mut stats = if b >= 2 * chunk {
            sets_all
                .par_chunks_mut(chunk * words)
                .zip(flags_all.par_chunks_mut(chunk * stride))
                .enumerate()
                .map(|(c, (s, fl))| cx.parallel(gs, c * chunk, s, fl))
                .reduce(SparseStats::default, SparseStats::add)
        } else {
            cx.parallel(gs, 0, sets_all, flags_all)
        };

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
        let sets = sets_all;
        let (cx, queue, shared) = (&cx, &queue, &shared);
        let confirm = move |ps: &mut [Pending]| {
            for p in ps {
                // SAFETY: a pending heap is published after every value below it was written.
                let gv = unsafe { shared.prefix(n0 + p.i) };
                p.refuted = cx.confirm(gv, p);
            }
        };
        // Small blocks are not worth the other threads' attention.
        let helpers = if (b as u64) * self.work_per_heap >= 4 * TASK_WORK {
            rayon::current_num_threads() - 1
        } else {
            0
        };
        rayon::scope(|sc| {
            for _ in 0..helpers {
                sc.spawn(move |_| {
                    while let Some(ps) = queue.claim(claim, true) {
                        confirm(ps);
                    }
                });
            }
            let (mut filled, mut published) = (0, 0);
            let mut k0 = 0;
            let mut stop = false;
            while k0 < b && !stop {
                let k1 = (k0 + self.opts.sub_block.max(1)).min(b);
                if !self.dense && k0 > 0 {
                    // SAFETY: the values below n0 + k0 are written and no longer change.
                    let gv = unsafe { shared.prefix(n0 + k0) };
                    let flags = &mut flags_all[..k1 * stride];
                    stats.rare_pairs += cx.inner_scatter(gv, k0, k1, &new_rare, flags);
                }
                for i in k0..k1 {
                    let set = &mut sets[i * words..(i + 1) * words];
                    let flags = &mut flags_all[i * stride..(i + 1) * stride];
                    // SAFETY: only this thread fills the queue, above what it published.
                    let p = unsafe { queue.entry(filled) };
                    // SAFETY: the values below n0 + i are written; heap n0 + i is written only
                    // after `gv`'s last use.
                    let gv = unsafe { shared.prefix(n0 + i) };
                    let (mut v, mut provisional) =
                        cx.sequential(gv, i, k0, &new_rare, set, flags, p, &mut stats);
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
                    if self.space.is_some_and(|m| m.is_rare((n0 + i) as u64, v)) {
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
                k0 = k1;
            }
            queue.publish(filled);
            queue.close();
            t2 = clock.elapsed();
            while let Some(ps) = queue.claim(claim, false) {
                confirm(ps);
            }
        });
        let npending = queue.published();
        g.truncate(len);
        let t3 = clock.elapsed();
        stats.parallel_ns += (t1 + t3 - t2).as_nanos() as u64;
        stats.sequential_ns += (t2 - t1).as_nanos() as u64;
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
        for (x, v) in g.iter().enumerate().skip(n0) {
            self.commit(x, v.get());
        }
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
            Err(Error::Overflow)
        } else {
            Ok(())
        }
    }
}

impl Ctx<'_> {
    /// The options of heaps `n0 + i0 ..` (as many as `sets` holds) whose parts are all below
    /// `n0`: single heaps, and the splits with a rare part (sparse mode) or all splits (dense).
    fn parallel<T: Val>(
        &self,
        g: &[T],
        i0: usize,
        sets: &mut [u64],
        flags: &mut [u8],
    ) -> SparseStats {
        let (eng, n0, words) = (self.eng, self.n0, self.words);
        debug_assert!(g.len() >= n0);
        let g = &g[..n0];
        let len = sets.len() / words;
        let i1 = i0 + len;
        let mut stats = SparseStats::default();
        sets.fill(0);
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
                    stats.full_pairs += end.saturating_sub(lo) as u64;
                }
            }
            stats.dense_heaps += len as u64;
            return stats;
        }
        // Rare part r < n0 against heaps whose other part n0 + i - j - r is below n0 too.
        let stride = self.stride;
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
                    let after = &mut b[stride..];
                    scatter_flags(g, gr, start + (eq - lo) + 1, hi - eq - 1, after, stride);
                } else {
                    scatter_flags(g, gr, start, hi - lo, run, stride);
                }
            }
        }
        for k in 0..len {
            let (i, n) = (i0 + k, n0 + i0 + k);
            let fl = &mut flags[k * stride..(k + 1) * stride];
            if let Some(sd) = eng.splits.first() {
                if n >= sd.j + 2 && eng.opts.prefix > 0 && eng.use_prefix {
                    // Runs of PREFIX_RUN pairs spread over the search window (neighbouring
                    // pairs give correlated values).
                    let (lo, end) = (sd.outer(i), sd.amax(n - sd.j) + 1);
                    let runs = eng.opts.prefix.div_ceil(PREFIX_RUN);
                    let gap = ((end.saturating_sub(lo)).min(SPREAD) / runs).max(PREFIX_RUN);
                    for q in 0..runs {
                        let a0 = (lo + q * gap).min(end);
                        let a1 = (a0 + PREFIX_RUN).min(end);
                        fold_flags(g, &eng.rev, n - sd.j, a0, a1, fl);
                        stats.full_pairs += (a1 - a0) as u64;
                    }
                }
            }
            flags_to_set(fl, &mut sets[k * words..(k + 1) * words]);
        }
        stats.sparse_heaps += len as u64;
        stats
    }

    /// For the heaps `k0 .. k1` of the block (`g` holds `G(0 .. n0 + k0)`; `flags`, a block's
    /// worth of value flags; `new_rare`, the rare heaps of the block so far): flags the values
    /// of the splits with a rare part and the other part in `n0 .. n0 + k0`, or a rare part in
    /// `n0 .. n0 + k0` and the other part below `n0`. Returns the number of pairs.
    fn inner_scatter<T: Val>(
        &self,
        g: &[T],
        k0: usize,
        k1: usize,
        new_rare: &[usize],
        flags: &mut [u8],
    ) -> u64 {
        let (eng, n0) = (self.eng, self.n0);
        let stride = self.stride;
        let mut pairs = 0;
        for sd in &eng.splits {
            let j = sd.j;
            // Rare r below n0, other part n0 + i - j - r in n0 .. n0 + k0: i in r + j .. r + j + k0.
            for &r in eng.rare.iter().take_while(|&&r| r + j < k1) {
                let (lo, hi) = (k0.max(r + j), k1.min(r + j + k0));
                if r == 0 || lo >= hi {
                    continue;
                }
                let run = &mut flags[lo * stride..hi * stride];
                scatter_flags(g, g[r].get(), n0 + lo - j - r, hi - lo, run, stride);
                pairs += (hi - lo) as u64;
            }
            // Rare r in n0 .. n0 + k0, other part n0 + i - j - r >= 1 (below n0).
            for &r in new_rare.iter().take_while(|&&r| r < n0 + k0) {
                let lo = k0.max((r + j + 1).saturating_sub(n0));
                if lo >= k1 {
                    continue;
                }
                let run = &mut flags[lo * stride..k1 * stride];
                scatter_flags(g, g[r].get(), n0 + lo - j - r, k1 - lo, run, stride);
                pairs += (k1 - lo) as u64;
            }
        }
        pairs
    }

    /// The options of heap `n0 + i` that reach into the block (`g` holds `G(0 .. n0 + i)`;
    /// `new_rare`: the rare heaps of the block so far; the splits reaching only into the
    /// sub-blocks before `k0` were flagged already), then its value: `(value, false)`, or
    /// `(candidate, true)` with `pending` to be confirmed by [`Ctx::confirm`].
    #[allow(clippy::too_many_arguments)]
    fn sequential<T: Val>(
        &self,
        g: &[T],
        i: usize,
        k0: usize,
        new_rare: &[usize],
        set: &mut [u64],
        flags: &mut [u8],
        pending: &mut Pending,
        stats: &mut SparseStats,
    ) -> (u32, bool) {
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
                stats.full_pairs += end.saturating_sub(1) as u64;
            }
            return (mex(set), false);
        }
        // Rare part against a heap of this sub-block (r <= s - n0 - k0), or a rare heap of this
        // sub-block (r >= n0 + k0); those reaching into earlier sub-blocks were flagged by
        // `inner_scatter`. Flagged (plain stores), then added to the set.
        let mut any = k0 > 0;
        let from = new_rare.partition_point(|&r| r < n0 + k0);
        for sd in &eng.splits {
            if n < sd.j + 2 {
                continue;
            }
            let s = n - sd.j;
            let old = eng.rare.iter().take_while(|&&r| r + n0 + k0 <= s);
            let new = new_rare[from..].iter().take_while(|&&r| r < s);
            // Counted in a local: through `stats` the count was stored on every pair.
            let mut pairs = 0u64;
            for &r in old.chain(new) {
                if r == 0 || (sd.unequal && 2 * r == s) {
                    continue;
                }
                flags[(g[r].get() ^ g[s - r].get()) as usize] = 1;
                pairs += 1;
            }
            any |= pairs > 0;
            stats.rare_pairs += pairs;
        }
        if any {
            flags_to_set(flags, set);
        }
        let class = eng.common_class(n);
        let c = self.classes.candidate(set, class);
        pending
            .want
            .fill(set, |w| self.classes.word(w, class ^ 1), c, c);
        pending.i = i;
        (c, pending.want.left != 0)
    }

    /// Looks for a pending heap's wanted values among all its splits (`g` holds at least
    /// `G(0 .. n0 + i)`). None when all are found (the provisional value stands); otherwise the
    /// heap's value, the smallest value missing.
    fn confirm<T: Val>(&self, g: &[T], p: &mut Pending) -> Option<u32> {
        let n = self.n0 + p.i;
        let mut scratch = [0u64; 0];
        if self.search(&g[..n], n, &mut scratch, &mut p.want) {
            None
        } else {
            p.want.first()
        }
    }

    /// Searches every split `a + (s - a)` of heap `n` for the wanted values: per split digit
    /// first the smallest parts in order, then blocks spread over the next `SPREAD` pairs, then
    /// the rest in order, going round-robin over the digits (one digit's splits may lack a value
    /// that another's have at once). True as soon as no required value is wanted; false when
    /// every split was looked at.
    fn search<T: Val>(&self, g: &[T], n: usize, set: &mut [u64], want: &mut Want) -> bool {
        let eng = self.eng;
        let (rev, simd, bits) = (&eng.rev, eng.simd, self.bits);
        let mut small = [Blocks::range(0, 0, 0); 4];
        let mut big = Vec::new();
        let spread: &mut [Blocks] = if eng.splits.len() <= small.len() {
            &mut small[..eng.splits.len()]
        } else {
            big.resize(eng.splits.len(), Blocks::range(0, 0, 0));
            &mut big[..]
        };
        for sd in &eng.splits {
            if n >= sd.j + 2 {
                let s = n - sd.j;
                let first = Blocks::range(s, 1, (sd.amax(s) + 1).min(1 + FIRST_PAIRS));
                if search(g, rev, simd, bits, first, want, set) {
                    return true;
                }
            }
        }
        let mut rounds = 0;
        for (sd, bl) in eng.splits.iter().zip(spread.iter_mut()) {
            if n < sd.j + 2 {
                continue;
            }
            let s = n - sd.j;
            let (a0, end) = (1 + FIRST_PAIRS, sd.amax(s) + 1);
            *bl = Blocks::spread(s, a0.min(end), end.min(a0 + SPREAD), SPREAD_BLOCK);
            rounds = rounds.max(bl.count().div_ceil(ROUND_BLOCKS));
        }
        for r in 0..rounds {
            for bl in spread.iter() {
                let part = bl.part(r * ROUND_BLOCKS, (r + 1) * ROUND_BLOCKS);
                if search(g, rev, simd, bits, part, want, set) {
                    return true;
                }
            }
        }
        const ROUND: usize = ROUND_BLOCKS * SPREAD_BLOCK;
        let mut at = 0;
        loop {
            let mut any = false;
            for (sd, bl) in eng.splits.iter().zip(spread.iter()) {
                if n < sd.j + 2 {
                    continue;
                }
                let (b, end) = (bl.a1 + at, sd.amax(bl.s) + 1);
                if b < end {
                    any = true;
                    let part = Blocks::range(bl.s, b, (b + ROUND).min(end));
                    if search(g, rev, simd, bits, part, want, set) {
                        return true;
                    }
                }
            }
            if !any {
                return false;
            }
            at += ROUND;
        }
    }
}

impl Step for TakeAndBreakSparse {
    fn theorem(&self) -> crate::periodicity::Theorem {
        super::take_and_break::theorem(self.rule())
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
        };
        let mut stats = cx.parallel(g, 0, &mut set, &mut flags);
        let mut p = Pending::new(words);
        let (v, provisional) =
            cx.sequential(g, 0, 0, &[], &mut set, &mut flags, &mut p, &mut stats);
        Ok(if provisional {
            cx.confirm(g, &mut p).unwrap_or(v)
        } else {
            v
        })
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
    use crate::engine::testing::{exact, pool, StopAt};
    use crate::engine::{NoControl, Sequence};

    fn sparse_with(code: &str, n: u64, opts: SparseOptions) -> Sequence<TakeAndBreakSparse> {
        let rule = TakeAndBreak::parse(code).unwrap();
        let mut s = Sequence::new(TakeAndBreakSparse::with_options(rule, opts).unwrap());
        s.extend(n, &NoControl).unwrap();
        s
    }

    /// Options that use the sparse method as early and as much as possible, with small blocks
    /// (so that small tests still cross many block and sub-block boundaries).
    fn eager() -> SparseOptions {
        SparseOptions {
            block: 64,
            block_work: 1 << 21,
            chunk: 16,
            sub_block: 8,
            warmup: 16,
            sparse_ratio: 0,
            simd: true,
            prefix: 0,
        }
    }

    /// Option sets that exercise different paths: defaults, eager, no vector kernel, a prefix,
    /// tiny blocks.
    fn variants() -> Vec<SparseOptions> {
        vec![
            SparseOptions::default(),
            eager(),
            SparseOptions {
                simd: false,
                prefix: 40,
                ..eager()
            },
            SparseOptions {
                block: 16,
                warmup: 40,
                ..eager()
            },
        ]
    }

    #[test]
    fn grundy_first_values() {
        let s = sparse_with("4!.0", 3000, SparseOptions::default());
        assert_eq!(s.values().to_vec(), exact("4!.0", 3000));
        assert_eq!(
            s.step().rare_positions()[..16],
            [0, 1, 2, 3, 4, 6, 7, 9, 10, 12, 15, 20, 23, 26, 28, 31]
        );
        assert_eq!(s.step().mask().unwrap().mask & 0xFF, 0xFE);
        let space = s.step().space().unwrap();
        assert_eq!(space.rare_count + space.common_count, 3000);
        assert_eq!(space, sparse_space(&s.values().to_vec()).clone());
    }

    #[test]
    fn refuses_what_it_does_not_handle() {
        for code in ["0.[3]", "0.4F", "8.0", "0.1[37]", "C!.0"] {
            let rule = TakeAndBreak::parse(code).unwrap();
            assert!(!TakeAndBreakSparse::supports(&rule));
            assert!(TakeAndBreakSparse::new(rule).is_err(), "{code}");
        }
    }

    #[test]
    fn all_two_digit_codes_match_exact() {
        let mut codes: Vec<String> = ["4.0", "4!.0", "0.4!", "0.04!", "4.7", "4!.6!2"]
            .map(String::from)
            .to_vec();
        for d1 in 0..8 {
            for d2 in 0..8 {
                codes.push(format!("0.{d1}{d2}"));
            }
        }
        // Every code with the defaults and eagerly sparse (slow in a debug build for games
        // without sparse space: fewer heaps), the other variants in turn.
        let variants = variants();
        for (k, code) in codes.iter().enumerate() {
            let want = exact(code, 2500);
            for (opts, n) in [
                (variants[0], 2500),
                (variants[1], 1500),
                (variants[2 + k % 2], 1000),
            ] {
                let got = sparse_with(code, n as u64, opts).values().to_vec();
                assert_eq!(got, want[..n], "{code} {opts:?}");
            }
        }
    }

    /// Pseudo-random longer codes, with `!` and every `d0`.
    #[test]
    fn random_codes_match_exact() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = move |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        for k in 0..40 {
            let d0 = ["0", "4", "4!"][rnd(3) as usize];
            let len = 1 + rnd(4);
            let digits: String = (0..len)
                .map(|_| {
                    let d = rnd(8);
                    let bang = if d >= 4 && rnd(3) == 0 { "!" } else { "" };
                    format!("{d}{bang}")
                })
                .collect();
            let code = format!("{d0}.{digits}");
            let want = exact(&code, 1200);
            let opts = variants()[1 + k % 3];
            let got = sparse_with(&code, 1200, opts).values().to_vec();
            assert_eq!(got, want, "{code} {opts:?}");
        }
    }

    #[test]
    fn identical_for_any_thread_count() {
        for code in ["4!.0", "0.354", "0.127"] {
            let want = exact(code, 6000);
            for k in 1..=4 {
                let got = pool(k).install(|| sparse_with(code, 6000, SparseOptions::default()));
                assert_eq!(got.values().to_vec(), want, "{code} with {k} threads");
            }
        }
    }

    /// 0.127 and 0.015 change mask once values grow; 0.127 and 0.104 need the parity of the heap.
    #[test]
    fn mask_changes_mid_run() {
        for code in ["0.127", "0.015", "0.104", "0.106"] {
            let s = sparse_with(code, 3000, eager());
            assert_eq!(s.values().to_vec(), exact(code, 3000), "{code}");
            assert!(s.step().stats().mask_changes >= 2, "{code}");
            assert!(!s.step().is_dense(), "{code}");
        }
        let s = sparse_with("0.127", 3000, eager());
        assert!(s.step().mask().unwrap().parity);
        // The rare list is the classification of the values under the final mask.
        let values = s.values().to_vec();
        let space = SparseSpace::classify(&values, s.step().mask().unwrap());
        let listed: Vec<u64> = s
            .step()
            .rare_positions()
            .iter()
            .map(|&r| r as u64)
            .collect();
        assert_eq!(space.rare_positions, listed);
    }

    /// Dawson's chess has no sparse space: every heap by full search, still exact.
    #[test]
    fn game_without_sparse_space() {
        let s = sparse_with("0.137", 3000, SparseOptions::default());
        assert_eq!(s.values().to_vec(), exact("0.137", 3000));
        assert!(s.step().is_dense());
        assert!(s.step().rare_count() > 300);
        // Forced sparse, it is slower but still exact.
        let s = sparse_with("0.137", 1500, eager());
        assert_eq!(s.values().to_vec(), exact("0.137", 1500));
    }

    #[test]
    fn resumes_in_pieces() {
        for code in ["4!.0", "0.77", "0.354"] {
            let want = exact(code, 5000);
            let rule = TakeAndBreak::parse(code).unwrap();
            let mut s = Sequence::new(TakeAndBreakSparse::with_options(rule, eager()).unwrap());
            for n in [1, 2, 3, 17, 100, 101, 999, 2500, 5000] {
                s.extend(n, &NoControl).unwrap();
                assert_eq!(s.values().len() as u64, n);
            }
            assert_eq!(s.values().to_vec(), want, "{code}");
        }
    }

    /// The one-value-at-a-time path (`compute`, as the default `extend_to` uses it).
    #[test]
    fn single_steps_match() {
        struct OneByOne(TakeAndBreakSparse);
        impl Step for OneByOne {
            fn compute<T: Val>(&mut self, g: &[T]) -> Result<u32> {
                self.0.compute(g)
            }
        }
        for code in ["4!.0", "0.354", "0.127", "0.77"] {
            let rule = TakeAndBreak::parse(code).unwrap();
            let mut s = Sequence::new(OneByOne(
                TakeAndBreakSparse::with_options(rule, eager()).unwrap(),
            ));
            s.extend(1500, &NoControl).unwrap();
            assert_eq!(s.values().to_vec(), exact(code, 1500), "{code}");
        }
    }

    /// Values too large for the storage: every smaller heap is pushed, then `Overflow`; the
    /// driver widens and the solver goes on from there.
    #[test]
    fn overflow_then_wider_storage() {
        #[derive(Clone, Copy, Default, Debug, PartialEq)]
        struct Tiny(u8);
        impl Val for Tiny {
            const MAX: u32 = 7;
            fn get(self) -> u32 {
                self.0 as u32
            }
            fn new(v: u32) -> Self {
                Tiny(v as u8)
            }
        }
        let want = exact("4!.0", 3000);
        let rule = TakeAndBreak::parse("4!.0").unwrap();
        let mut eng = TakeAndBreakSparse::with_options(rule, eager()).unwrap();
        let mut tiny: Vec<Tiny> = Vec::new();
        assert_eq!(
            eng.extend_to(&mut tiny, 3000, &NoControl),
            Err(Error::Overflow)
        );
        let first_big = want.iter().position(|&v| v > 7).unwrap();
        assert_eq!(tiny.len(), first_big);
        let mut wide: Vec<u32> = tiny.iter().map(|v| v.get()).collect();
        eng.extend_to(&mut wide, 3000, &NoControl).unwrap();
        assert_eq!(wide, want);
    }

    /// Interrupted by its control, the computation keeps what it proved and resumes.
    #[test]
    fn interrupted_and_resumed() {
        let want = exact("4!.0", 4000);
        let rule = TakeAndBreak::parse("4!.0").unwrap();
        let mut s = Sequence::new(TakeAndBreakSparse::with_options(rule, eager()).unwrap());
        assert_eq!(s.extend(4000, &StopAt(1000)), Err(Error::Interrupted));
        let got = s.values().to_vec();
        assert!(got.len() >= 1000);
        assert_eq!(got[..], want[..got.len()]);
        s.extend(4000, &NoControl).unwrap();
        assert_eq!(s.values().to_vec(), want);
    }

    /// Long runs against the exact engine and published periods. Minutes in a debug build:
    /// `cargo test --release -- --ignored`.
    #[test]
    #[ignore]
    fn long_runs_match_exact() {
        for code in ["0.16", "0.137", "0.354", "0.156", "4!.0", "0.77", "0.127"] {
            let want = exact(code, 200_000);
            for opts in [SparseOptions::default(), eager()] {
                let got = sparse_with(code, 200_000, opts).values().to_vec();
                assert_eq!(got, want, "{code} {opts:?}");
            }
        }
    }

    /// 0.16: preperiod 105351, period 149459, largest value 23 (Gangolli and Plambeck), checked
    /// over the range the octal periodicity theorem asks for (t = 2).
    #[test]
    #[ignore]
    fn published_period_of_0_16() {
        let (n0, p) = (105_351usize, 149_459usize);
        let n = 2 * n0 + p + 2;
        let g = sparse_with("0.16", n as u64, SparseOptions::default())
            .values()
            .to_vec();
        assert!((n0..n - p).all(|i| g[i] == g[i + p]));
        assert_ne!(g[n0 - 1], g[n0 - 1 + p]);
        assert_eq!(g.iter().max(), Some(&23));
    }
}
