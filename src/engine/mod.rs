//! Computing G(0..N): the driver shared by every rule, and the solvers for each kind of rule.
//!
//! A rule is turned into a [`Step`] (it computes G(n) from G(0..n) and keeps whatever incremental
//! state makes that fast); a [`Sequence`] owns the values, extends them on demand, widens their
//! storage from 16 to 32 bits when a value needs it, and polls a [`Control`] for interruption.
//!
//! ```
//! use grundy::engine::{Sequence, TakeAndBreakExact};
//! use grundy::control::NoControl;
//! use grundy::rules::TakeAndBreak;
//! let mut kayles = Sequence::new(TakeAndBreakExact::new(TakeAndBreak::parse("0.77").unwrap()));
//! kayles.extend(12, &NoControl).unwrap();
//! assert_eq!(kayles.values().to_vec(), vec![0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
//! ```

mod blocks;
pub mod callback;
mod finite;
pub mod naive;
mod period_search;
mod rule;
pub mod sparse;
mod speculate;
mod stages;
pub mod subtraction;
pub mod take_and_break;
#[cfg(test)]
pub(crate) mod testing;
mod watch;
pub mod window_mex;

pub use callback::{AllowedFn, OptionList, OptionsFn};
pub use finite::Kernel as FiniteKernel;
pub use period_search::Search;
pub use rule::{sequence, Solver};
pub use sparse::mask::{best_mask, find_mask, SparseMask};
pub use sparse::space::SparseSpace;
pub use sparse::{SparseOptions, SparseStats, TakeAndBreakSparse};
pub use stages::Stages;
pub use subtraction::SubtractionExact;
pub use take_and_break::TakeAndBreakExact;

use crate::control::{Control, NoControl, Poller};
use crate::error::{Error, Result};
use crate::memory;
use crate::periodicity::{self, Detection, Period, Theorem};
use rayon::prelude::*;
use std::time::Instant;

/// Storage type of Grundy values.
pub trait Val: Copy + Send + Sync + Default + 'static {
    /// The largest value the type holds.
    const MAX: u32;
    /// The value as a `u32`.
    fn get(self) -> u32;
    /// `v` in this type (`v` must be at most [`Val::MAX`]).
    fn new(v: u32) -> Self;
}

impl Val for u16 {
    const MAX: u32 = u16::MAX as u32;
    #[inline]
    fn get(self) -> u32 {
        self as u32
    }
    #[inline]
    fn new(v: u32) -> Self {
        v as u16
    }
}

impl Val for u32 {
    const MAX: u32 = u32::MAX;
    #[inline]
    fn get(self) -> u32 {
        self
    }
    #[inline]
    fn new(v: u32) -> Self {
        v
    }
}

/// Computed values: 2 bytes each while they fit, 4 bytes after.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Values {
    /// Two bytes per value, while every value is below 2^16.
    U16(Vec<u16>),
    /// Four bytes per value.
    U32(Vec<u32>),
}

impl Default for Values {
    fn default() -> Self {
        Values::U16(Vec::new())
    }
}

impl Values {
    /// Number of values.
    pub fn len(&self) -> usize {
        match self {
            Values::U16(v) => v.len(),
            Values::U32(v) => v.len(),
        }
    }

    /// Whether there are no values.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `G(i)`.
    ///
    /// # Panics
    /// When `i` is not below [`Values::len`].
    #[inline]
    pub fn get(&self, i: usize) -> u32 {
        match self {
            Values::U16(v) => v[i] as u32,
            Values::U32(v) => v[i],
        }
    }

    /// Largest value among the first `n`.
    pub fn max(&self, n: usize) -> u32 {
        match self {
            Values::U16(v) => v[..n].iter().copied().max().unwrap_or(0) as u32,
            Values::U32(v) => v[..n].iter().copied().max().unwrap_or(0),
        }
    }

    /// Every value as a `u32`, in a new vector.
    pub fn to_vec(&self) -> Vec<u32> {
        (0..self.len()).map(|i| self.get(i)).collect()
    }

    /// Bytes per stored value now.
    pub fn width(&self) -> u64 {
        match self {
            Values::U16(_) => 2,
            Values::U32(_) => 4,
        }
    }

    fn widen(&mut self) {
        if let Values::U16(v) = self {
            *self = Values::U32(v.iter().map(|&x| x as u32).collect());
        }
    }
}

/// Why a solver's [`Step::extend_to`] stopped short of its target: a public [`Error`], or the
/// engine's internal signal that a value does not fit the storage type. The [`Sequence`] driver
/// handles [`Stop::Overflow`] itself (it widens the storage and calls again) and passes the
/// error on, so the signal never leaves the engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stop {
    /// A real error (interruption, memory, ...), passed on as it is.
    Error(Error),
    /// A value is above `T::MAX`; every smaller heap's value was pushed.
    Overflow,
}

impl From<Error> for Stop {
    fn from(e: Error) -> Self {
        Stop::Error(e)
    }
}

/// The result of [`Step::extend_to`] and of the kernels behind it.
pub type StepResult<T> = std::result::Result<T, Stop>;

/// One rule's way of computing the next value.
pub trait Step: Send {
    /// Called before heaps up to `target` (exclusive) are computed: size any tables.
    ///
    /// # Errors
    /// When the tables do not fit ([`Error::Memory`]).
    fn prepare(&mut self, _target: u64) -> Result<()> {
        Ok(())
    }

    /// Extra bytes per heap this solver keeps beside the values (for the memory estimate).
    fn bytes_per_heap(&self) -> u64 {
        0
    }

    /// What can be proven about this rule's periodicity.
    fn theorem(&self) -> Theorem {
        Theorem::Unproven("no theorem here covers rules given as callables".into())
    }

    /// G(n) for n = `g.len()`, given `g` = G(0..n). May be called again for the same n (after the
    /// storage was widened), so any state it records for n must tolerate that.
    ///
    /// # Errors
    /// What stops the computation: a failed callback ([`Error::Interrupted`]), for instance.
    fn compute<T: Val>(&mut self, g: &[T]) -> Result<u32>;

    /// Pushes G(n) onto `g` for every n from `g.len()` up to `target` (exclusive), polling `ctl`
    /// about every [`POLL_INTERVAL`](crate::control::POLL_INTERVAL). A value above `T::MAX` ends the call with
    /// [`Stop::Overflow`] after every smaller heap's value was pushed; the driver then widens the
    /// storage and calls again, so the solver must resume from whatever `g` holds.
    ///
    /// The default computes one value at a time with [`Step::compute`]; a solver that works on
    /// many heaps at once (block parallelism) overrides it.
    ///
    /// # Errors
    /// [`Stop::Overflow`] as above; [`Stop::Error`] when `ctl` or the solver fails.
    fn extend_to<T: Val>(
        &mut self,
        g: &mut Vec<T>,
        target: u64,
        ctl: &dyn Control,
    ) -> StepResult<()>
    where
        Self: Sized,
    {
        default_extend_to(self, g, target, ctl)
    }

    /// Seeds a fresh step with known values `g` = G(0..g.len()) (read back from a file): brings
    /// its state to what it would be after computing G(0..k), for a `k <= g.len()` of its
    /// choosing, and returns `k`. The driver ([`Sequence::seed`]) then computes G(k..) with
    /// [`Step::compute`] and checks each against `g`: a mismatch means the data belong to another
    /// rule or are corrupted. [`Sequence::seed`] calls [`Step::prepare`] with `g.len()` first.
    ///
    /// The default returns 0: every value is recomputed and checked. A step that can rebuild its
    /// state cheaply returns `g.len() - RESUME_CHECK` so the last values are still spot-checked.
    /// Returns an error only before changing any state.
    ///
    /// # Errors
    /// When `g` cannot be values of this rule as far as the step can tell without recomputing.
    fn resume<T: Val>(&mut self, _g: &[T]) -> Result<usize> {
        Ok(0)
    }

    /// A copy of this step for speculative verification (see [`Step::verify`]), whose state
    /// [`Step::advance`] brings to any values; None (the default) where no cheap copy exists:
    /// the values of a predicted stretch are then computed in order as any others.
    fn fork(&self) -> Option<Self>
    where
        Self: Sized,
    {
        None
    }

    /// Called on a fork that replaces the step `old` after a speculation (the fork's state is
    /// the further along): keeps what `old` alone accounts for, statistics for instance.
    fn adopt(&mut self, _old: Self)
    where
        Self: Sized,
    {
    }

    /// Brings the state of a step from [`Step::fork`] (or one that verified values, whatever
    /// values its state covers) to the state after computing G(0..g.len()) = `g`, without
    /// computing them. Called only on steps whose `fork` gave a copy.
    fn advance<T: Val>(&mut self, _g: &[T]) {}

    /// Speculative verification, on a step from [`Step::fork`]: computes G(n) for `n` in
    /// `from..to` from `pred[..n]` (values predicted by a period not yet proven) and returns the
    /// first `n` whose value is not `pred[n]`, with its value (exact when `pred[..n]` is). Only
    /// reads `pred`, so that blocks of a predicted stretch can be verified on several threads at
    /// once. `ctl` is polled about every [`POLL_INTERVAL`](crate::control::POLL_INTERVAL).
    ///
    /// The default advances the state to `pred[..from]` and calls [`Step::compute`] for each heap.
    ///
    /// # Errors
    /// As [`Step::compute`], or when `ctl` stops the work.
    fn verify<T: Val>(
        &mut self,
        pred: &[T],
        from: usize,
        to: usize,
        ctl: &dyn Control,
    ) -> Result<Option<(usize, u32)>>
    where
        Self: Sized,
    {
        self.advance(&pred[..from]);
        let mut poll = Poller::new(ctl, to as u64);
        for n in from..to {
            let v = self.compute(&pred[..n])?;
            if v != pred[n].get() {
                return Ok(Some((n, v)));
            }
            if n % 64 == 0 {
                poll.tick(n as u64)?;
            }
        }
        Ok(None)
    }
}

/// The default [`Step::extend_to`]: one value at a time with [`Step::compute`], for an override
/// that keeps it for some rules.
///
/// # Errors
/// [`Stop::Overflow`] when a value does not fit `T`; [`Stop::Error`] when [`Step::compute`] or `ctl` fails.
pub fn default_extend_to<S: Step, T: Val>(
    step: &mut S,
    g: &mut Vec<T>,
    target: u64,
    ctl: &dyn Control,
) -> StepResult<()> {
    let mut poll = Poller::new(ctl, target);
    while (g.len() as u64) < target {
        let v = step.compute(g)?;
        if v > T::MAX {
            return Err(Stop::Overflow);
        }
        g.push(T::new(v));
        if g.len() % 64 == 0 {
            poll.tick(g.len() as u64)?;
        }
    }
    Ok(())
}

/// How many trailing values a [`Step::resume`] override leaves to be recomputed and checked.
pub const RESUME_CHECK: usize = 16;

/// A rule's values, computed on demand and cached. Once a period is proven
/// ([`Sequence::scan_period`]), further values are filled from it instead of computed.
pub struct Sequence<S> {
    step: S,
    values: Values,
    proven: Option<Period>,
    /// The candidate of the last full scan, and the values it covered.
    hint: Option<(Period, usize)>,
    /// Wall time by stage.
    stages: Stages,
    /// Whether predicted stretches are verified speculatively: None, with two threads or more.
    speculation: Option<bool>,
    /// Looks for a period that has just repeated between the scans of a period search.
    watch: watch::Watch,
}

impl<S: Step> Sequence<S> {
    /// A sequence with no values yet, computed by `step`.
    pub fn new(step: S) -> Self {
        Sequence {
            step,
            values: Values::default(),
            proven: None,
            hint: None,
            stages: Stages::default(),
            speculation: None,
            watch: watch::Watch::default(),
        }
    }

    /// The period proven by the last [`Sequence::scan_period`] that proved one.
    pub fn proven(&self) -> Option<Period> {
        self.proven
    }

    /// Looks for a period in G(0..n) (`n` at most the values computed) with the rule's theorem;
    /// a proven one is kept, and [`Sequence::extend`] then fills values from it.
    ///
    /// ```
    /// use grundy::engine::{Sequence, TakeAndBreakExact};
    /// use grundy::control::NoControl;
    /// use grundy::rules::TakeAndBreak;
    /// let mut kayles = Sequence::new(TakeAndBreakExact::new(TakeAndBreak::parse("0.77").unwrap()));
    /// kayles.extend(1024, &NoControl).unwrap();
    /// let p = kayles.scan_period(1024).found.unwrap();
    /// assert_eq!((p.preperiod, p.period, p.proven), (71, 12, true));
    /// kayles.extend(1 << 26, &NoControl).unwrap(); // filled from the period, in milliseconds
    /// let last = (1 << 26) - 1;
    /// assert_eq!(kayles.values().get(last), kayles.values().get(71 + (last - 71) % 12));
    /// ```
    ///
    /// When the last scan's candidate still holds over the values added since and they now
    /// prove it, the answer is read off those values alone (linear in the values added): a
    /// proven tail is the one a full scan finds (two proven periods would make the earlier
    /// tail's period a multiple of the later one's, and the later one's start not earliest).
    pub fn scan_period(&mut self, n: usize) -> Detection {
        let clock = Instant::now();
        let d = self.scan_period_untimed(n);
        self.stages.scan_ns += clock.elapsed().as_nanos() as u64;
        self.stages.scans += 1;
        self.stages.scanned += n.min(self.values.len()) as u64;
        d
    }

    fn scan_period_untimed(&mut self, n: usize) -> Detection {
        let th = self.step.theorem();
        let n = n.min(self.values.len());
        if let Some((c, n1)) = self.hint.filter(|&(_, n1)| n1 <= n) {
            let need = th.needed(c.preperiod, c.period, c.saltus);
            if need.is_some_and(|need| need <= n as u64) && self.holds(c, n1, n) {
                let p = Period { proven: true, ..c };
                self.proven = self.proven.or(Some(p));
                return Detection {
                    found: Some(p),
                    candidate: need.map(|need| (p, need)),
                };
            }
        }
        let d = match &self.values {
            Values::U16(v) => periodicity::scan(&v[..n], &th),
            Values::U32(v) => periodicity::scan(&v[..n], &th),
        };
        self.hint = d.candidate.map(|(c, _)| (c, n));
        if let Some(p) = d.found.filter(|p| p.proven) {
            if self.proven.is_none_or(|q| p.preperiod < q.preperiod) {
                self.proven = Some(p);
            }
        }
        d
    }

    /// Whether G(k + p) = G(k) + saltus for every k from `n1 - p` (or the preperiod) on, with
    /// k + p < n.
    fn holds(&self, c: Period, n1: usize, n: usize) -> bool {
        let (n0, p) = (c.preperiod as usize, c.period as usize);
        let from = n1.saturating_sub(p).max(n0);
        let to = n.saturating_sub(p);
        fn check<T: Val>(v: &[T], from: usize, to: usize, p: usize, s: i64) -> bool {
            (from..to).all(|k| v[k + p].get() as i64 - v[k].get() as i64 == s)
        }
        match &self.values {
            Values::U16(v) => check(v, from, to, p, c.saltus),
            Values::U32(v) => check(v, from, to, p, c.saltus),
        }
    }

    /// The values computed so far.
    pub fn values(&self) -> &Values {
        &self.values
    }

    /// The solver (for its statistics).
    pub fn step(&self) -> &S {
        &self.step
    }

    /// Whether predicted stretches of a period search are verified speculatively, on every
    /// thread ([`Step::verify`]): `None` (the default) where there are two threads or more,
    /// `Some(true)` even on one (the same work as computing them in order, timed apart in
    /// [`Sequence::stages`]: what more threads would share), `Some(false)` never. Values are
    /// the same either way.
    pub fn set_speculation(&mut self, on: Option<bool>) {
        self.speculation = on;
    }

    /// Wall time spent so far in each stage (computing in order, verifying a predicted stretch,
    /// scanning for a period, filling from one), for the scaling benchmark.
    pub fn stages(&self) -> Stages {
        self.stages
    }

    /// Makes G(0..target) available, computing only what is missing.
    ///
    /// # Errors
    /// [`Error::Memory`] when the values would not fit in memory; [`Error::Interrupted`] when `ctl`
    /// stops the computation (the values computed so far are kept); a value beyond what the
    /// storage holds with a proven period is [`Error::Invalid`].
    pub fn extend(&mut self, target: u64, ctl: &dyn Control) -> Result<()> {
        let have = self.values.len() as u64;
        if target <= have {
            return Ok(());
        }
        if let Some(p) = self.proven {
            let clock = Instant::now();
            let r = self.fill(p, target, ctl);
            self.stages.fill_ns += clock.elapsed().as_nanos() as u64;
            return r;
        }
        let per_heap = self.values.width() + self.step.bytes_per_heap();
        memory::check((target - have).saturating_mul(per_heap))?;
        self.step.prepare(target)?;
        self.speculate(target, ctl)?;
        let from = self.values.len() as u64;
        loop {
            let clock = Instant::now();
            let r = match &mut self.values {
                Values::U16(v) => run(&mut self.step, v, target, ctl),
                Values::U32(v) => run(&mut self.step, v, target, ctl),
            };
            self.stages.compute_ns += clock.elapsed().as_nanos() as u64;
            match r {
                Err(Stop::Overflow) => {
                    memory::check(target.saturating_mul(4))?;
                    self.values.widen();
                }
                Err(Stop::Error(e)) => {
                    self.stages.computed += self.values.len() as u64 - from;
                    return Err(e);
                }
                Ok(()) => {
                    self.stages.computed += self.values.len() as u64 - from;
                    return Ok(());
                }
            }
        }
    }

    /// Room for G(0..target) in the values' storage, so that extending in pieces does not move
    /// them each time.
    ///
    /// # Errors
    /// [`Error::Memory`] when it cannot be had.
    fn reserve(&mut self, target: u64) -> Result<()> {
        let missing = (target as usize).saturating_sub(self.values.len());
        let r = match &mut self.values {
            Values::U16(v) => v.try_reserve_exact(missing),
            Values::U32(v) => v.try_reserve_exact(missing),
        };
        r.map_err(|_| Error::Memory {
            requested: target.saturating_mul(self.values.width()),
            available: memory::available().unwrap_or(0),
        })
    }

    /// Fills G(len..target) from the proven period `p`: G(n) = G(n - period) + saltus. In
    /// parallel, and in pieces between which `ctl` is polled.
    fn fill(&mut self, p: Period, target: u64, ctl: &dyn Control) -> Result<()> {
        let have = self.values.len() as u64;
        let (n0, per) = (p.preperiod, p.period);
        debug_assert!(have >= n0 + per && p.saltus >= 0);
        // The largest value filled: the base's largest plus the saltus times the last lap.
        let base: Vec<u64> = (n0..n0 + per)
            .map(|i| self.values.get(i as usize) as u64)
            .collect();
        let laps = (target - 1 - n0) / per;
        let top = base.iter().max().copied().unwrap_or(0) + p.saltus as u64 * laps;
        if top > u32::MAX as u64 {
            return Err(Error::Invalid(format!(
                "G({}) would be {top}, beyond the 32-bit values this library stores",
                target - 1
            )));
        }
        let width = if top > u16::MAX as u64 {
            4
        } else {
            self.values.width()
        };
        memory::check((target - have).saturating_mul(width))?;
        if width > self.values.width() {
            memory::check(target.saturating_mul(4))?;
            self.values.widen();
        }
        match &mut self.values {
            Values::U16(v) => fill_from(v, &base, n0, p.saltus as u64, target, ctl),
            Values::U32(v) => fill_from(v, &base, n0, p.saltus as u64, target, ctl),
        }
    }

    /// A sequence that starts with known values G(0..values.len()), for instance read back from a
    /// file: see [`Sequence::seed`].
    ///
    /// ```
    /// use grundy::engine::{Sequence, SubtractionExact};
    /// use grundy::control::NoControl;
    /// use grundy::rules::Subtraction;
    /// let rule = || SubtractionExact::new(Subtraction::finite(vec![1, 2]).unwrap());
    /// let mut s = Sequence::with_values(rule(), &[0, 1, 2, 0, 1, 2]).unwrap();
    /// s.extend(8, &NoControl).unwrap();
    /// assert_eq!(s.values().to_vec(), vec![0, 1, 2, 0, 1, 2, 0, 1]);
    /// assert!(Sequence::with_values(rule(), &[0, 1, 1]).is_err()); // G(2) = 2, not 1
    /// ```
    ///
    /// # Errors
    /// As [`Sequence::seed`].
    pub fn with_values(step: S, values: &[u32]) -> Result<Self> {
        let mut s = Sequence::new(step);
        s.seed(values, &NoControl)?;
        Ok(s)
    }

    /// Fills an empty sequence with known values G(0..values.len()) without computing them all:
    /// the step rebuilds its state with [`Step::resume`], and the values it leaves out are
    /// recomputed and checked. A value that disagrees with the rule is an [`Error::Invalid`];
    /// the sequence then holds the values before it and the rule's own value at that heap.
    /// `ctl` is polled while values are recomputed.
    ///
    /// # Errors
    /// [`Error::Invalid`] when the sequence is not empty or a value disagrees with the rule;
    /// [`Error::Memory`] and [`Error::Interrupted`] as in [`Sequence::extend`].
    pub fn seed(&mut self, values: &[u32], ctl: &dyn Control) -> Result<()> {
        if !self.values.is_empty() {
            return Err(Error::Invalid(format!(
                "only an empty sequence can be seeded (this one holds {} values)",
                self.values.len()
            )));
        }
        let n = values.len() as u64;
        let max = values.iter().copied().max().unwrap_or(0);
        let width = if max > u16::MAX as u32 { 4 } else { 2 };
        memory::check(n.saturating_mul(width + self.step.bytes_per_heap()))?;
        self.step.prepare(n)?;
        if width == 4 {
            self.values.widen();
        }
        match &mut self.values {
            Values::U16(v) => seed_into(&mut self.step, v, values, ctl),
            Values::U32(v) => seed_into(&mut self.step, v, values, ctl),
        }
    }
}

/// [`Sequence::fill`] for one storage type: `g` grows to `target`, G(n) = base[(n - n0) % p] +
/// saltus * ((n - n0) / p) with p = base.len().
fn fill_from<T: Val>(
    g: &mut Vec<T>,
    base: &[u64],
    n0: u64,
    saltus: u64,
    target: u64,
    ctl: &dyn Control,
) -> Result<()> {
    const PIECE: usize = 1 << 24;
    const CHUNK: usize = 1 << 15;
    let target = target as usize;
    g.try_reserve_exact(target - g.len())
        .map_err(|_| Error::Memory {
            requested: (target * std::mem::size_of::<T>()) as u64,
            available: memory::available().unwrap_or(0),
        })?;
    let p = base.len() as u64;
    while g.len() < target {
        let start = g.len();
        let end = (start + PIECE).min(target);
        // Written once, in place (no zeroing first): fresh memory is the cost here.
        g.spare_capacity_mut()[..end - start]
            .par_chunks_mut(CHUNK)
            .enumerate()
            .for_each(|(c, out)| {
                let n = (start + c * CHUNK) as u64;
                let (mut lap, mut r) = ((n - n0) / p, ((n - n0) % p) as usize);
                for x in out {
                    x.write(T::new((base[r] + saltus * lap) as u32));
                    r += 1;
                    if r == base.len() {
                        r = 0;
                        lap += 1;
                    }
                }
            });
        // SAFETY: the capacity was reserved above and every value of start..end was written.
        unsafe { g.set_len(end) };
        ctl.check(g.len() as u64, target as u64)?;
    }
    Ok(())
}

/// [`Sequence::seed`] for one storage type: `g` is empty and every value fits `T`.
fn seed_into<S: Step, T: Val>(
    step: &mut S,
    g: &mut Vec<T>,
    values: &[u32],
    ctl: &dyn Control,
) -> Result<()> {
    g.try_reserve_exact(values.len())
        .map_err(|_| Error::Memory {
            requested: (values.len() * std::mem::size_of::<T>()) as u64,
            available: memory::available().unwrap_or(0),
        })?;
    g.extend(values.iter().map(|&v| T::new(v)));
    let k = step.resume(g)?.min(values.len());
    g.truncate(k);
    let mut poll = Poller::new(ctl, values.len() as u64);
    for (n, &want) in values.iter().enumerate().skip(k) {
        let v = step.compute(g)?;
        if v != want {
            if v <= T::MAX {
                g.push(T::new(v));
            }
            return Err(Error::Invalid(format!(
                "the stored value G({n}) = {want} disagrees with the rule, which gives {v}: \
                 the values belong to another rule or are corrupted"
            )));
        }
        g.push(T::new(v));
        if g.len() % 64 == 0 {
            poll.tick(g.len() as u64)?;
        }
    }
    Ok(())
}

fn run<S: Step, T: Val>(
    step: &mut S,
    g: &mut Vec<T>,
    target: u64,
    ctl: &dyn Control,
) -> StepResult<()> {
    let missing = usize::try_from(target).map_err(|_| Error::Memory {
        requested: target,
        available: 0,
    })? - g.len();
    g.try_reserve_exact(missing).map_err(|_| Error::Memory {
        requested: target.saturating_mul(std::mem::size_of::<T>() as u64),
        available: memory::available().unwrap_or(0),
    })?;
    step.extend_to(g, target, ctl)?;
    Ok(ctl.check(g.len() as u64, target)?)
}

/// A sequence of any rule, for holders that must not be generic (the Python binding).
pub trait AnySequence: Send {
    /// [`Sequence::extend`].
    ///
    /// # Errors
    /// As [`Sequence::extend`].
    fn extend(&mut self, target: u64, ctl: &dyn Control) -> Result<()>;
    /// [`Sequence::extend_proving`].
    ///
    /// # Errors
    /// As [`Sequence::extend`].
    fn extend_proving(&mut self, target: u64, ctl: &dyn Control) -> Result<()>;
    /// [`Sequence::scan_period`].
    fn scan_period(&mut self, n: usize) -> Detection;
    /// [`Sequence::search_period`].
    ///
    /// # Errors
    /// As [`Sequence::search_period`].
    fn search_period(&mut self, max_n: u64, ctl: &dyn Control) -> Result<Search>;
    /// [`Sequence::proven`].
    fn proven(&self) -> Option<Period>;
    /// [`Sequence::seed`].
    ///
    /// # Errors
    /// As [`Sequence::seed`].
    fn seed(&mut self, values: &[u32], ctl: &dyn Control) -> Result<()>;
    /// [`Sequence::values`].
    fn values(&self) -> &Values;
    /// The rule's periodicity theorem ([`Step::theorem`]).
    fn theorem(&self) -> Theorem;
}

impl<S: Step> AnySequence for Sequence<S> {
    fn extend(&mut self, target: u64, ctl: &dyn Control) -> Result<()> {
        Sequence::extend(self, target, ctl)
    }
    fn extend_proving(&mut self, target: u64, ctl: &dyn Control) -> Result<()> {
        Sequence::extend_proving(self, target, ctl)
    }
    fn scan_period(&mut self, n: usize) -> Detection {
        Sequence::scan_period(self, n)
    }
    fn search_period(&mut self, max_n: u64, ctl: &dyn Control) -> Result<Search> {
        Sequence::search_period(self, max_n, ctl)
    }
    fn proven(&self) -> Option<Period> {
        self.proven
    }
    fn seed(&mut self, values: &[u32], ctl: &dyn Control) -> Result<()> {
        Sequence::seed(self, values, ctl)
    }
    fn values(&self) -> &Values {
        &self.values
    }
    fn theorem(&self) -> Theorem {
        self.step.theorem()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Nim heap values grow past 16 bits: the storage must widen without losing anything.
    #[test]
    fn widens_past_16_bits() {
        struct Identity;
        impl Step for Identity {
            fn compute<T: Val>(&mut self, g: &[T]) -> Result<u32> {
                Ok(g.len() as u32)
            }
        }
        let mut s = Sequence::new(Identity);
        s.extend(70_000, &NoControl).unwrap();
        assert_eq!(s.values().width(), 4);
        assert_eq!(s.values().get(69_999), 69_999);
        assert_eq!(s.values().get(65_535), 65_535);
    }

    /// The default `resume` replays: a wrong value anywhere is caught, and the sequence keeps the
    /// values before it and the rule's own value there.
    #[test]
    fn seeding_replays_and_checks_by_default() {
        struct Identity;
        impl Step for Identity {
            fn compute<T: Val>(&mut self, g: &[T]) -> Result<u32> {
                Ok(g.len() as u32)
            }
        }
        let good: Vec<u32> = (0..70_000).collect();
        let s = Sequence::with_values(Identity, &good).unwrap();
        assert_eq!(s.values().width(), 4);
        assert_eq!(s.values().to_vec(), good);
        let mut bad = good[..100].to_vec();
        bad[3] = 7;
        let mut s = Sequence::new(Identity);
        let e = s.seed(&bad, &NoControl).unwrap_err();
        assert!(e.to_string().contains("G(3) = 7"), "{e}");
        assert_eq!(s.values().to_vec(), vec![0, 1, 2, 3]);
        // Only an empty sequence is seeded.
        assert!(matches!(s.seed(&good, &NoControl), Err(Error::Invalid(_))));
    }

    fn kayles() -> Sequence<TakeAndBreakSparse> {
        let rule = crate::rules::TakeAndBreak::parse("0.77").unwrap();
        Sequence::new(TakeAndBreakSparse::new(rule).unwrap())
    }

    /// Values filled from a proven period are the values the engines compute.
    #[test]
    fn fills_from_a_proven_period() {
        let mut computed = kayles();
        computed.extend(300_000, &NoControl).unwrap();
        let mut filled = kayles();
        filled.extend(1000, &NoControl).unwrap();
        assert!(filled.scan_period(1000).found.unwrap().proven);
        filled.extend(300_000, &NoControl).unwrap();
        assert_eq!(filled.values(), computed.values());
        // So does the proving extension, in several calls.
        let mut proving = kayles();
        proving.extend_proving(200_000, &NoControl).unwrap();
        assert!(proving.proven().is_some());
        proving.extend_proving(300_000, &NoControl).unwrap();
        assert_eq!(proving.values(), computed.values());

        let rule = crate::rules::Subtraction::finite(vec![2, 5, 7]).unwrap();
        let mut computed = Sequence::new(SubtractionExact::new(rule.clone()));
        computed.extend(100_000, &NoControl).unwrap();
        let mut proving = Sequence::new(SubtractionExact::new(rule));
        proving.extend_proving(100_000, &NoControl).unwrap();
        assert!(proving.proven().is_some());
        assert_eq!(proving.values(), computed.values());
    }

    /// A candidate seen in one scan and proven by the values added before the next is what a
    /// full scan finds; a candidate that breaks is dropped.
    #[test]
    fn scans_prove_a_candidate_from_the_values_added() {
        let rule = crate::rules::TakeAndBreak::parse("0.156").unwrap();
        let mut s = Sequence::new(TakeAndBreakExact::new(rule));
        s.extend(7659, &NoControl).unwrap();
        let d = s.scan_period(5000); // preperiod 3479, period 349: showing, not yet proven
        assert_eq!(d.found, None);
        let (c, need) = d.candidate.unwrap();
        assert_eq!((c.preperiod, c.period, need), (3479, 349, 7659));
        let quick = s.scan_period(7659);
        let full = match s.values() {
            Values::U16(v) => periodicity::scan(&v[..], &s.step().theorem()),
            Values::U32(v) => periodicity::scan(&v[..], &s.step().theorem()),
        };
        assert_eq!(quick, full);
        assert!(quick.found.unwrap().proven);

        // Values that break the candidate: the next scan is a full one and finds nothing.
        let mut v: Vec<u32> = s.values().to_vec()[..5000].to_vec();
        v.extend((0..2659).map(|i| (i * 7919 % 31) as u32));
        struct Replay(Vec<u32>, crate::periodicity::Theorem);
        impl Step for Replay {
            fn theorem(&self) -> crate::periodicity::Theorem {
                self.1.clone()
            }
            fn compute<T: Val>(&mut self, g: &[T]) -> Result<u32> {
                Ok(self.0[g.len()])
            }
        }
        let th = s.step().theorem();
        let mut r = Sequence::new(Replay(v, th));
        r.extend(7659, &NoControl).unwrap();
        assert!(r.scan_period(5000).candidate.is_some());
        assert!(r.scan_period(7659).found.is_none_or(|p| !p.proven));
    }

    /// Nim is proven to be G(n) = n; filling widens the storage past 16 bits.
    #[test]
    fn fills_an_arithmetic_period_and_widens() {
        let nim = crate::rules::Subtraction::all_but(vec![]).unwrap();
        let mut s = Sequence::new(SubtractionExact::new(nim));
        s.extend(10, &NoControl).unwrap();
        let p = s.scan_period(10).found.unwrap();
        assert_eq!((p.preperiod, p.period, p.saltus, p.proven), (0, 1, 1, true));
        s.extend(100_000, &NoControl).unwrap();
        assert_eq!(s.values().width(), 4);
        assert_eq!(s.values().to_vec(), (0..100_000).collect::<Vec<u32>>());
    }

    /// Rules without a theorem are computed, not filled, even where their values look periodic.
    #[test]
    fn unproven_rules_are_never_filled() {
        let mut s = Sequence::new(SubtractionExact::new(crate::rules::Subtraction::AtMostHalf));
        s.extend_proving(1 << 17, &NoControl).unwrap();
        assert_eq!(s.proven(), None);
        assert!(s.scan_period(1 << 17).found.is_none_or(|p| !p.proven));
    }

    #[test]
    fn huge_request_is_a_memory_error() {
        let mut s = Sequence::new(TakeAndBreakExact::new(
            crate::rules::TakeAndBreak::parse("0.77").unwrap(),
        ));
        assert!(matches!(
            s.extend(1 << 50, &NoControl),
            Err(Error::Memory { .. })
        ));
    }

    #[test]
    fn control_stops_and_keeps_values() {
        use super::testing::StopAt;
        let mut s = Sequence::new(TakeAndBreakExact::new(
            crate::rules::TakeAndBreak::parse("0.77").unwrap(),
        ));
        assert_eq!(s.extend(100, &StopAt(10)), Err(Error::Interrupted));
        assert_eq!(s.values().len(), 100);
        s.extend(200, &NoControl).unwrap();
        assert_eq!(s.values().len(), 200);
    }
}
