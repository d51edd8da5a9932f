//! Work counters of the sparse engine, and the clock that times a block's parts.

/// A clock for comparing the parts' times within a block: the time-stamp counter where there is
/// one (a few cycles to read, where `Instant` costs tens of nanoseconds: it is read around every
/// batch of confirmations).
#[inline]
pub(super) fn ticks() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: RDTSC is available on every x86_64 processor.
        unsafe { std::arch::x86_64::_rdtsc() }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        use std::sync::OnceLock;
        use std::time::Instant;
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
    /// Time (nanoseconds) the sequential part waited for other threads: for the part-1 tasks
    /// covering its next sub-block, or for a task flagging ahead that another thread took (part
    /// of `sequential_ns`; 0 with one thread). What more threads lose to each other.
    pub wait_ns: u64,
    /// Time (nanoseconds, summed over the other threads) those threads waited for work while
    /// the sequential part ran: nothing to confirm or flag ahead yet.
    pub idle_ns: u64,
    /// Time (nanoseconds, summed over the other threads) from a block's start to each other
    /// thread's start on it: waking a thread that slept since the block before.
    pub start_ns: u64,
    /// Times the sequential part woke other threads that slept waiting for work (a system
    /// call each, on the sequential part's time).
    pub wakes: u64,
    /// Time (nanoseconds) the sequential part's thread waited at the end of each block for the
    /// other threads' last confirmations.
    pub join_ns: u64,
    /// Blocks after which the next ones ran on one thread: their threads had lost a quarter of
    /// the block waiting for each other (see `LONELY_BLOCKS`).
    pub lonely: u64,
    /// Blocks run (each ends with the threads joining: the synchronisation of the scheme).
    pub blocks: u64,
    /// Blocks whose first part overlapped their sequential part (with more than one thread:
    /// every thread takes part-1 tasks in order, the sequential part starts on a sub-block once
    /// the tasks covering it are done, and a task flagging ahead waits for those of its
    /// sub-block). Their part-1 time counts in `sequential_ns`.
    pub overlapped: u64,
}

impl SparseStats {
    pub(super) fn add(mut self, o: SparseStats) -> SparseStats {
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
        self.wait_ns += o.wait_ns;
        self.idle_ns += o.idle_ns;
        self.start_ns += o.start_ns;
        self.wakes += o.wakes;
        self.join_ns += o.join_ns;
        self.lonely += o.lonely;
        self.blocks += o.blocks;
        self.overlapped += o.overlapped;
        self
    }
}
