//! Computing G(0..N): the driver shared by every rule, and the solvers for each kind of rule.
//!
//! A rule is turned into a [`Step`] (it computes G(n) from G(0..n) and keeps whatever incremental
//! state makes that fast); a [`Sequence`] owns the values, extends them on demand, widens their
//! storage from 16 to 32 bits when a value needs it, and polls a [`Control`] for interruption.
//!
//! ```
//! use grundy::engine::{NoControl, Sequence, TakeAndBreakExact};
//! use grundy::rules::TakeAndBreak;
//! let mut kayles = Sequence::new(TakeAndBreakExact::new(TakeAndBreak::parse("0.77").unwrap()));
//! kayles.extend(12, &NoControl).unwrap();
//! assert_eq!(kayles.values().to_vec(), vec![0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
//! ```

mod blocks;
pub mod callback;
mod finite;
pub mod naive;
pub mod sparse;
pub mod sparse_mask;
pub mod subtraction;
pub mod take_and_break;
pub mod window_mex;

pub use callback::{AllowedFn, OptionList, OptionsFn};
pub use finite::Kernel as FiniteKernel;
pub use sparse::{sparse_space, SparseOptions, SparseSpace, SparseStats, TakeAndBreakSparse};
pub use sparse_mask::{best_mask, find_mask, SparseMask};
pub use subtraction::SubtractionExact;
pub use take_and_break::TakeAndBreakExact;

use crate::error::{Error, Result};
use crate::memory;
use crate::periodicity::Theorem;
use std::time::{Duration, Instant};

/// Storage type of Grundy values.
pub trait Val: Copy + Send + Sync + Default + 'static {
    const MAX: u32;
    fn get(self) -> u32;
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
    U16(Vec<u16>),
    U32(Vec<u32>),
}

impl Default for Values {
    fn default() -> Self {
        Values::U16(Vec::new())
    }
}

impl Values {
    pub fn len(&self) -> usize {
        match self {
            Values::U16(v) => v.len(),
            Values::U32(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

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

/// How a long computation is watched: polled every few dozen milliseconds with the progress made.
/// Returning an error stops the computation and keeps every value computed so far.
pub trait Control: Sync {
    fn check(&self, done: u64, total: u64) -> Result<()>;
}

/// A control that never stops anything.
pub struct NoControl;

impl Control for NoControl {
    fn check(&self, _done: u64, _total: u64) -> Result<()> {
        Ok(())
    }
}

/// How often a [`Control`] is polled.
pub const POLL_INTERVAL: Duration = Duration::from_millis(50);

/// One rule's way of computing the next value.
pub trait Step: Send {
    /// Called before heaps up to `target` (exclusive) are computed: size any tables.
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
    fn compute<T: Val>(&mut self, g: &[T]) -> Result<u32>;

    /// Pushes G(n) onto `g` for every n from `g.len()` up to `target` (exclusive), polling `ctl`
    /// about every [`POLL_INTERVAL`]. A value above `T::MAX` ends the call with
    /// [`Error::Overflow`] after every smaller heap's value was pushed; the driver then widens the
    /// storage and calls again, so the solver must resume from whatever `g` holds.
    ///
    /// The default computes one value at a time with [`Step::compute`]; a solver that works on
    /// many heaps at once (block parallelism) overrides it.
    fn extend_to<T: Val>(&mut self, g: &mut Vec<T>, target: u64, ctl: &dyn Control) -> Result<()>
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
    fn resume<T: Val>(&mut self, _g: &[T]) -> Result<usize> {
        Ok(0)
    }
}

/// The default [`Step::extend_to`]: one value at a time with [`Step::compute`], for an override
/// that keeps it for some rules.
pub fn default_extend_to<S: Step, T: Val>(
    step: &mut S,
    g: &mut Vec<T>,
    target: u64,
    ctl: &dyn Control,
) -> Result<()> {
    let mut last = Instant::now();
    while (g.len() as u64) < target {
        let v = step.compute(g)?;
        if v > T::MAX {
            return Err(Error::Overflow);
        }
        g.push(T::new(v));
        if g.len() % 64 == 0 && last.elapsed() >= POLL_INTERVAL {
            ctl.check(g.len() as u64, target)?;
            last = Instant::now();
        }
    }
    Ok(())
}

/// How many trailing values a [`Step::resume`] override leaves to be recomputed and checked.
pub const RESUME_CHECK: usize = 16;

/// A rule's values, computed on demand and cached.
pub struct Sequence<S> {
    step: S,
    values: Values,
}

impl<S: Step> Sequence<S> {
    pub fn new(step: S) -> Self {
        Sequence {
            step,
            values: Values::default(),
        }
    }

    pub fn values(&self) -> &Values {
        &self.values
    }

    pub fn step(&self) -> &S {
        &self.step
    }

    /// Makes G(0..target) available, computing only what is missing.
    pub fn extend(&mut self, target: u64, ctl: &dyn Control) -> Result<()> {
        let have = self.values.len() as u64;
        if target <= have {
            return Ok(());
        }
        let per_heap = self.values.width() + self.step.bytes_per_heap();
        memory::check((target - have).saturating_mul(per_heap))?;
        self.step.prepare(target)?;
        loop {
            let r = match &mut self.values {
                Values::U16(v) => run(&mut self.step, v, target, ctl),
                Values::U32(v) => run(&mut self.step, v, target, ctl),
            };
            match r {
                Err(Error::Overflow) => {
                    memory::check(target.saturating_mul(4))?;
                    self.values.widen();
                }
                r => return r,
            }
        }
    }

    /// A sequence that starts with known values G(0..values.len()), for instance read back from a
    /// file: see [`Sequence::seed`].
    ///
    /// ```
    /// use grundy::engine::{NoControl, Sequence, SubtractionExact};
    /// use grundy::rules::Subtraction;
    /// let rule = || SubtractionExact::new(Subtraction::finite(vec![1, 2]).unwrap());
    /// let mut s = Sequence::with_values(rule(), &[0, 1, 2, 0, 1, 2]).unwrap();
    /// s.extend(8, &NoControl).unwrap();
    /// assert_eq!(s.values().to_vec(), vec![0, 1, 2, 0, 1, 2, 0, 1]);
    /// assert!(Sequence::with_values(rule(), &[0, 1, 1]).is_err()); // G(2) = 2, not 1
    /// ```
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
    let mut last = Instant::now();
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
        if g.len() % 64 == 0 && last.elapsed() >= POLL_INTERVAL {
            ctl.check(g.len() as u64, values.len() as u64)?;
            last = Instant::now();
        }
    }
    Ok(())
}

fn run<S: Step, T: Val>(
    step: &mut S,
    g: &mut Vec<T>,
    target: u64,
    ctl: &dyn Control,
) -> Result<()> {
    let missing = usize::try_from(target).map_err(|_| Error::Memory {
        requested: target,
        available: 0,
    })? - g.len();
    g.try_reserve_exact(missing).map_err(|_| Error::Memory {
        requested: target.saturating_mul(std::mem::size_of::<T>() as u64),
        available: memory::available().unwrap_or(0),
    })?;
    step.extend_to(g, target, ctl)?;
    ctl.check(g.len() as u64, target)
}

/// A sequence of any rule, for holders that must not be generic (the Python binding).
pub trait AnySequence: Send {
    fn extend(&mut self, target: u64, ctl: &dyn Control) -> Result<()>;
    fn seed(&mut self, values: &[u32], ctl: &dyn Control) -> Result<()>;
    fn values(&self) -> &Values;
    fn theorem(&self) -> Theorem;
}

impl<S: Step> AnySequence for Sequence<S> {
    fn extend(&mut self, target: u64, ctl: &dyn Control) -> Result<()> {
        Sequence::extend(self, target, ctl)
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
        struct StopAt(u64);
        impl Control for StopAt {
            fn check(&self, done: u64, _: u64) -> Result<()> {
                if done >= self.0 {
                    Err(Error::Interrupted)
                } else {
                    Ok(())
                }
            }
        }
        let mut s = Sequence::new(TakeAndBreakExact::new(
            crate::rules::TakeAndBreak::parse("0.77").unwrap(),
        ));
        assert_eq!(s.extend(100, &StopAt(10)), Err(Error::Interrupted));
        assert_eq!(s.values().len(), 100);
        s.extend(200, &NoControl).unwrap();
        assert_eq!(s.values().len(), 200);
    }
}
