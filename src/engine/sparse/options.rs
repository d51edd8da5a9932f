//! The tuning knobs of the sparse engine.

/// Tuning knobs of [`TakeAndBreakSparse`](super::TakeAndBreakSparse); the defaults suit long runs.
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
