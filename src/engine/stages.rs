//! Where a [`Sequence`](super::Sequence)'s time goes, stage by stage: what runs in order sets
//! the bound on what more threads can give (`benchmarks/scaling.py`).

/// Wall time (nanoseconds) a sequence spent in each stage, and the speculation's outcome.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stages {
    /// Computing values in order (the step's own blocks: their parallel parts included, see
    /// [`SparseStats`](super::SparseStats) for the split).
    pub compute_ns: u64,
    /// Verifying predicted stretches, block by block on every thread (see
    /// [`Step::verify`](super::Step::verify)), with the preparation that runs in order
    /// (`speculate_serial_ns`) included.
    pub speculate_ns: u64,
    /// The part of `speculate_ns` that runs on one thread: writing the predicted values and
    /// bringing the step's state past the verified values.
    pub speculate_serial_ns: u64,
    /// Period scans (their rolling hash runs on every thread, the rest in order).
    pub scan_ns: u64,
    /// Filling values from a proven period (on every thread).
    pub fill_ns: u64,
    /// Watching for a period that has just repeated, between scans (see `Sequence::search_period`).
    pub watch_ns: u64,
    /// Scans that the watch called for.
    pub watched: u64,
    /// Period scans made.
    pub scans: u64,
    /// Values the scans read (one pass each).
    pub scanned: u64,
    /// Values computed in order (those of `compute_ns`).
    pub computed: u64,
    /// Values verified speculatively (those of a refuted stretch up to its first wrong value).
    pub speculated: u64,
    /// Predicted stretches that a value refuted.
    pub refuted: u64,
}
