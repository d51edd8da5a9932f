//! Searching for a period while computing: both searches follow the one schedule of
//! [`periodicity::next_scan`], from [`FIRST_SCAN`].

use super::{Sequence, Step, Values};
use crate::control::Control;
use crate::error::Result;
use crate::memory;
use crate::periodicity::{next_scan, Detection, Theorem, FIRST_SCAN, GROWTH};
use std::time::Instant;

/// Scratch bytes per value of a period scan ([`crate::periodicity::scan`]) at most: long
/// sequences take none, but its fallback, the failure function, takes 4.
const SCAN_BYTES: u64 = 4;

/// Reports progress towards `total` rather than the stage being computed.
struct Towards<'a>(&'a dyn Control, u64);

impl Control for Towards<'_> {
    fn check(&self, done: u64, _total: u64) -> Result<()> {
        self.0.check(done, self.1)
    }
}

/// What [`Sequence::search_period`] found, and in how many values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Search {
    /// The last scan: its period found (proven, observed or none) and its candidate.
    pub detection: Detection,
    /// The values that scan examined, `G(0..examined)`.
    pub examined: u64,
}

/// Scans may add at most this share to the time of computing the values between them, when
/// they grow by less than [`GROWTH`] (see [`Sequence::next_stage`]).
const SCAN_SHARE: f64 = 0.1;
/// Scans grow by at least this much.
const MIN_GROWTH: f64 = 1.25;
/// Values before the costs of scanning and computing are known well enough to go by them.
const MEASURED_FROM: u64 = 1 << 20;
/// Stages this large or larger are watched (see [`Sequence::extend_watching`]), in pieces of a
/// `WATCH_PIECES`-th of the values computed (at least `WATCH_PIECE`; all smaller in tests, so
/// that small games are watched).
const WATCH_FROM: u64 = if cfg!(test) { 1 << 12 } else { 1 << 22 };
const WATCH_PIECES: u64 = 64;
const WATCH_PIECE: u64 = if cfg!(test) { 1 << 9 } else { 1 << 20 };

/// How a stage of a period search went with the watch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Watched {
    /// Not watched: a full scan follows.
    No,
    /// Watched to its end; nothing recurred.
    Quiet,
    /// Stopped early: the last values recur.
    Recurs,
}

/// The values a quiet stage's end is scanned over (see [`Sequence::scan_watched`]).
const TAIL: usize = if cfg!(test) { 1 << 12 } else { 1 << 15 };

impl<S: Step> Sequence<S> {
    /// Whether predicted stretches are verified on several threads ([`Sequence::speculate`]).
    fn speculating(&self) -> bool {
        self.speculation
            .unwrap_or(rayon::current_num_threads() >= 2)
    }

    /// [`Sequence::extend`] to `stage` for a period search. Where predicted stretches are
    /// verified in parallel and no candidate is known yet, the values come in pieces, after each
    /// of which a [`Watch`](super::watch::Watch) looks for a period that has just repeated:
    /// then it stops there, so that the search scans at once and the rest is verified in
    /// parallel. Returns the values reached and whether it stopped early.
    fn extend_watching(&mut self, stage: u64, ctl: &dyn Control) -> Result<(u64, Watched)> {
        let have = self.values.len() as u64;
        if !self.speculating() || self.hint.is_some() || stage < WATCH_FROM || have >= stage {
            self.extend(stage, ctl)?;
            return Ok((stage, Watched::No));
        }
        let per_heap = self.values.width() + self.step.bytes_per_heap();
        memory::check((stage - have).saturating_mul(per_heap))?;
        self.reserve(stage)?;
        let piece = (have / WATCH_PIECES).max(WATCH_PIECE);
        let mut n = have;
        while n < stage {
            n = (n + piece).min(stage);
            self.extend(n, ctl)?;
            let clock = Instant::now();
            let w = &mut self.watch;
            let seen = match &self.values {
                Values::U16(v) => {
                    w.update(v);
                    w.recurs(v)
                }
                Values::U32(v) => {
                    w.update(v);
                    w.recurs(v)
                }
            };
            self.stages.watch_ns += clock.elapsed().as_nanos() as u64;
            if seen && n < stage {
                self.stages.watched += 1;
                return Ok((n, Watched::Recurs));
            }
        }
        Ok((stage, Watched::Quiet))
    }

    /// [`Sequence::scan_period`] of `G(0..n)` after a stage that went as `w`; after a scan that
    /// the watch called for finds nothing, the watch keeps quiet for a quarter more values.
    ///
    /// After a quiet stage, when the rule has a theorem and the search goes on (`last` false),
    /// only the last [`TAIL`] values are scanned, and all only if they show a tail: any tail a
    /// full scan reports repeats the last `min(p, REPEAT)` differences of its period `p` (see
    /// [`crate::periodicity::REPEAT`]), at a lag of 1024 or more (the watch sees those) or less
    /// (those lie within the last 2048 values), and a tail with a plain period is reported there
    /// as a candidate at least. 0.1777 thus reads 2^28 values less.
    fn scan_watched(&mut self, n: u64, w: Watched, last: bool, th: &Theorem) -> Detection {
        let n = n as usize;
        if w == Watched::Quiet && !last && !matches!(th, Theorem::Unproven(_)) && n > TAIL {
            let clock = Instant::now();
            let tail = match &self.values {
                Values::U16(v) => crate::periodicity::scan(&v[n - TAIL..n], th),
                Values::U32(v) => crate::periodicity::scan(&v[n - TAIL..n], th),
            };
            self.stages.watch_ns += clock.elapsed().as_nanos() as u64;
            if tail.found.is_none() && tail.candidate.is_none() {
                return Detection::default();
            }
        }
        let d = self.scan_period(n);
        if w == Watched::Recurs && d.candidate.is_none() && d.found.is_none() {
            self.watch.quiet(n + n / 4);
        }
        d
    }

    /// The size to scan after a scan `d` of `G(0..n)`: [`next_scan`], except where that only
    /// grows the size and predicted stretches are verified on several threads
    /// ([`Sequence::speculate`]). A candidate is seen only once its period has repeated, and
    /// from the scan that sees it on, the values up to the size its proof needs are verified on
    /// every thread; so scans come more often where they cost little beside computing (0.354:
    /// a scan reads a value in a few nanoseconds, computing one takes 150): by a factor that
    /// keeps them within [`SCAN_SHARE`] of the time computing, down to [`MIN_GROWTH`].
    fn next_stage(&self, n: u64, d: &Detection, th: &Theorem) -> u64 {
        let next = next_scan(n, d, th);
        let st = &self.stages;
        if next != n.saturating_mul(GROWTH)
            || !self.speculating()
            || st.computed < MEASURED_FROM
            || st.scanned < MEASURED_FROM
        {
            return next;
        }
        let scan = st.scan_ns as f64 / st.scanned as f64;
        let compute = st.compute_ns as f64 / st.computed as f64;
        let growth = (1.0 + scan / (compute * SCAN_SHARE)).clamp(MIN_GROWTH, GROWTH as f64);
        ((n as f64 * growth) as u64).clamp(n + 1, next)
    }

    /// [`Sequence::extend`], proving a period on the way where the rule has a theorem: values
    /// are scanned at the sizes of [`next_scan`] from [`FIRST_SCAN`] (or from the values
    /// computed already); once a period is proven, the rest is filled from it. Kayles to 10^8
    /// thus takes 0.3 s.
    ///
    /// ```
    /// use grundy::engine::{Sequence, SubtractionExact};
    /// use grundy::control::NoControl;
    /// use grundy::rules::Subtraction;
    /// let rule = || SubtractionExact::new(Subtraction::finite(vec![2, 5, 7]).unwrap());
    /// let mut filled = Sequence::new(rule());
    /// filled.extend_proving(200_000, &NoControl).unwrap();
    /// assert!(filled.proven().is_some()); // found at 1024 values
    /// let mut computed = Sequence::new(rule());
    /// computed.extend(200_000, &NoControl).unwrap();
    /// assert_eq!(filled.values(), computed.values());
    /// ```
    ///
    /// # Errors
    /// As [`Sequence::extend`].
    pub fn extend_proving(&mut self, target: u64, ctl: &dyn Control) -> Result<()> {
        let th = self.step.theorem();
        if matches!(th, Theorem::Unproven(_)) {
            return self.extend(target, ctl);
        }
        let ctl = Towards(ctl, target);
        let mut stage = (self.values.len() as u64).max(FIRST_SCAN);
        while self.proven.is_none() && stage < target {
            let (n, w) = self.extend_watching(stage, &ctl)?;
            if memory::check(n.saturating_mul(SCAN_BYTES)).is_err() {
                break; // no room to scan: compute the rest
            }
            let d = self.scan_watched(n, w, n >= target, &th);
            stage = self.next_stage(n, &d, &th);
        }
        self.extend(target, &ctl)
    }

    /// Computes and scans `G(0..n)` at the sizes of [`next_scan`], from [`FIRST_SCAN`] (or the
    /// values computed already) up to `max_n`, until a period is proven, or, for a rule no
    /// theorem covers, until the same period was found at two sizes in a row. The proven period
    /// is kept ([`Sequence::proven`]).
    ///
    /// ```
    /// use grundy::engine::{Sequence, TakeAndBreakExact};
    /// use grundy::control::NoControl;
    /// use grundy::rules::TakeAndBreak;
    /// let mut s = Sequence::new(TakeAndBreakExact::new(TakeAndBreak::parse("0.156").unwrap()));
    /// let found = s.search_period(1 << 16, &NoControl).unwrap();
    /// let p = found.detection.found.unwrap();
    /// assert_eq!((p.preperiod, p.period, p.proven), (3479, 349, true));
    /// assert_eq!(found.examined, 8192); // 1024, 2048, 4096 (too few repeats to show), 8192
    /// ```
    ///
    /// # Errors
    /// As [`Sequence::extend`]; [`Error::Memory`](crate::error::Error::Memory) when a scan's
    /// scratch would not fit.
    pub fn search_period(&mut self, max_n: u64, ctl: &dyn Control) -> Result<Search> {
        let th = self.step.theorem();
        let unprovable = matches!(th, Theorem::Unproven(_));
        let mut n = (self.values.len() as u64).max(FIRST_SCAN).min(max_n);
        let mut last = None;
        loop {
            let (reached, w) = self.extend_watching(n, ctl)?;
            n = reached;
            memory::check(n.saturating_mul(SCAN_BYTES))?;
            let d = self.scan_watched(n, w, n >= max_n, &th);
            let key = d.found.map(|p| (p.preperiod, p.period, p.saltus));
            let settled = d
                .found
                .is_some_and(|p| p.proven || (unprovable && key == last));
            if settled || n >= max_n {
                return Ok(Search {
                    detection: d,
                    examined: n,
                });
            }
            last = key;
            n = self.next_stage(n, &d, &th).min(max_n);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::control::NoControl;
    use crate::engine::{AllowedFn, Sequence, SubtractionExact};
    use crate::periodicity::FIRST_SCAN;
    use crate::rules::Subtraction;

    /// A rule no theorem covers stops once the same period was found at two sizes in a row,
    /// and proves nothing; a search never examines more than `max_n` values.
    #[test]
    fn unprovable_rules_stop_at_a_repeat_and_searches_at_max_n() {
        let mut s = Sequence::new(AllowedFn::new(|_n, k| Ok(k <= 3)));
        let found = s.search_period(1 << 20, &NoControl).unwrap();
        let p = found.detection.found.unwrap();
        assert_eq!((p.preperiod, p.period, p.proven), (0, 4, false));
        assert_eq!(found.examined, 2 * FIRST_SCAN);
        assert_eq!(s.proven(), None);

        let rule = Subtraction::finite(vec![2, 5, 7]).unwrap();
        let mut s = Sequence::new(SubtractionExact::new(rule));
        let found = s.search_period(100, &NoControl).unwrap();
        assert_eq!((found.examined, s.values().len()), (100, 100));
    }
}
