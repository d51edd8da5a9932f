//! Speculative verification of a predicted stretch.
//!
//! Once a scan has found a candidate period that the theorem could prove with more values, every
//! value up to the size the proof needs is predicted: G(n) = G(n - p). Those values are written
//! first, then blocks of the stretch are computed on every thread at once, each from the
//! predicted values below it ([`Step::verify`]), and checked against the prediction. The first
//! value that differs ends the speculation: the values before it were verified (every value
//! below it matched, so it was computed from exact values), it is written, and the run goes on
//! in order from there. Values are thus exactly those computed in order, whatever the threads.
//!
//! For 0.1777 (preperiod 160,949,018, period 60,620,715, proven with 443,139,470 values) the
//! stretch is the part of the run after the scan that sees the candidate.

use super::{Sequence, Step, Val, Values};
use crate::control::Control;
use crate::error::{Error, Result};
use crate::periodicity::Period;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Fewest values worth verifying speculatively (fewer in tests, so that small games speculate).
const MIN_STRETCH: u64 = if cfg!(test) { 1 << 8 } else { 1 << 16 };
/// Heaps per block of a stretch: at least `MIN_BLOCK` (each block brings its thread's state
/// past the blocks the other threads did), at most `MAX_BLOCK` (a wrong value wastes the blocks
/// after it: at most a block per thread), and about `BLOCKS_PER_THREAD` blocks per thread, so
/// that the threads finish close together.
const MIN_BLOCK: usize = if cfg!(test) { 1 << 6 } else { 1 << 14 };
const MAX_BLOCK: usize = 1 << 21;
const BLOCKS_PER_THREAD: usize = 16;

/// How a speculation ended.
struct Outcome<S> {
    /// The values are verified up to here (the wrong value, where there is one, included).
    len: usize,
    /// Whether a value differed from its prediction.
    refuted: bool,
    /// A fork whose state covers at most `len` values, to replace the step (None: keep it).
    step: Option<S>,
}

impl<S: Step> Sequence<S> {
    /// Verifies the values from those computed up to `target` (or the size that proves the last
    /// scan's candidate, if less) speculatively, on every thread, where the candidate still
    /// holds, the step can fork, and there are at least two threads (with one, the values are
    /// computed in order as before, unless [`Sequence::set_speculation`] says otherwise). A
    /// refuted candidate is dropped.
    ///
    /// # Errors
    /// As [`Step::verify`]; the values after those computed are then left out again.
    pub(super) fn speculate(&mut self, target: u64, ctl: &dyn Control) -> Result<()> {
        let threads = rayon::current_num_threads();
        let Some((c, n1)) = self.hint else {
            return Ok(());
        };
        let have = self.values.len();
        let need = self.step.theorem().needed(c.preperiod, c.period, c.saltus);
        let Some(end) = need.map(|need| need.min(target)) else {
            return Ok(());
        };
        if !self.speculation.unwrap_or(threads >= 2)
            || self.proven.is_some()
            || c.saltus != 0
            || n1 > have
            || end < have as u64 + MIN_STRETCH
            || (have as u64) < c.preperiod + c.period
        {
            return Ok(());
        }
        let clock = Instant::now();
        if !self.holds(c, n1, have) {
            self.hint = None;
            return Ok(());
        }
        let Some(first) = self.step.fork() else {
            return Ok(());
        };
        let end = end as usize;
        let r = match &mut self.values {
            Values::U16(v) => stretch(first, v, c, end, threads, ctl, &mut self.stages),
            Values::U32(v) => stretch(first, v, c, end, threads, ctl, &mut self.stages),
        };
        let out = match r {
            Ok(out) => out,
            Err(e) => {
                self.stages.speculate_ns += clock.elapsed().as_nanos() as u64;
                return Err(e);
            }
        };
        self.stages.speculated += (out.len - have) as u64;
        // The step's state, brought past the values verified: from the fork furthest along,
        // or from its own (at `have`).
        let serial = Instant::now();
        if let Some(s) = out.step {
            let old = std::mem::replace(&mut self.step, s);
            self.step.adopt(old);
            self.step.prepare(target)?;
        }
        match &self.values {
            Values::U16(v) => self.step.advance(&v[..]),
            Values::U32(v) => self.step.advance(&v[..]),
        }
        self.stages.speculate_serial_ns += serial.elapsed().as_nanos() as u64;
        self.stages.speculate_ns += clock.elapsed().as_nanos() as u64;
        if out.refuted {
            self.stages.refuted += 1;
            self.hint = None;
        } else {
            // Every value up to `len` is the candidate's (all up to the size it needs, unless a
            // fork had no room): a later scan need check only those after.
            self.hint = Some((c, out.len));
        }
        Ok(())
    }
}

/// [`Sequence::speculate`] for one storage type: predicts `g` up to `end` by the period `c`,
/// verifies it in blocks on `threads` threads with forks of `first`, and leaves `g` with the
/// verified values (and the wrong one, when it fits `T`).
fn stretch<S: Step, T: Val>(
    first: S,
    g: &mut Vec<T>,
    c: Period,
    end: usize,
    threads: usize,
    ctl: &dyn Control,
    stages: &mut super::Stages,
) -> Result<Outcome<S>> {
    let clock = Instant::now();
    let (have, p) = (g.len(), c.period as usize);
    g.try_reserve_exact(end - have)
        .map_err(|_| crate::error::Error::Memory {
            requested: ((end - have) * std::mem::size_of::<T>()) as u64,
            available: crate::memory::available().unwrap_or(0),
        })?;
    // G(n) = G(n - p), written once in place on every thread (fresh memory is the cost).
    const CHUNK: usize = 1 << 16;
    while g.len() < end {
        let start = g.len();
        let stop = (start + p).min(end);
        let ptr = g.as_mut_ptr();
        // SAFETY: `start - p .. stop - p` holds values (stop - start <= p) and lies before
        // `start .. stop`, which is reserved capacity: two disjoint ranges of the allocation.
        let (src, out) = unsafe {
            (
                std::slice::from_raw_parts(ptr.add(start - p), stop - start),
                std::slice::from_raw_parts_mut(
                    ptr.add(start).cast::<std::mem::MaybeUninit<T>>(),
                    stop - start,
                ),
            )
        };
        out.par_chunks_mut(CHUNK)
            .zip(src.par_chunks(CHUNK))
            .for_each(|(out, src)| {
                for (x, &v) in out.iter_mut().zip(src) {
                    x.write(v);
                }
            });
        // SAFETY: the capacity was reserved above and every value of start..stop was written.
        unsafe { g.set_len(stop) };
    }
    let more: Vec<S> = (1..threads).map_while(|_| first.fork()).collect();
    let forks = std::iter::once(first).chain(more);
    stages.speculate_serial_ns += clock.elapsed().as_nanos() as u64;

    let block = ((end - have) / (threads * BLOCKS_PER_THREAD)).clamp(MIN_BLOCK, MAX_BLOCK);
    let blocks = (end - have).div_ceil(block);
    let (next, first_bad) = (AtomicUsize::new(0), AtomicUsize::new(usize::MAX));
    let stop = AtomicBool::new(false);
    // Per block that found a wrong value: (block, heap, value), or (block, usize::MAX, 0) where
    // a fork had no room to verify it; per fork: the end of the last
    // block it verified before any wrong value, and the fork; the first error.
    let wrong = Mutex::new(Vec::<(usize, usize, u32)>::new());
    let done = Mutex::new(Vec::<(usize, S)>::new());
    let error = Mutex::new(None);
    let pred = &g[..];
    rayon::scope(|sc| {
        for mut f in forks {
            let (next, first_bad, stop) = (&next, &first_bad, &stop);
            let (wrong, done, error) = (&wrong, &done, &error);
            sc.spawn(move |_| {
                let mut verified = None;
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= blocks
                        || k > first_bad.load(Ordering::Acquire)
                        || stop.load(Ordering::Relaxed)
                    {
                        break;
                    }
                    let (a, b) = (have + k * block, (have + (k + 1) * block).min(end));
                    match f.verify(pred, a, b, ctl) {
                        Ok(None) => verified = Some(b),
                        Ok(Some((n, v))) => {
                            first_bad.fetch_min(k, Ordering::AcqRel);
                            lock(wrong).push((k, n, v));
                            // Its state may cover values past the wrong one: not reused.
                            verified = None;
                            break;
                        }
                        // No room for a copy's scratch: the stretch ends before this block,
                        // and the rest is computed in order.
                        Err(Error::Memory { .. }) => {
                            first_bad.fetch_min(k, Ordering::AcqRel);
                            lock(wrong).push((k, usize::MAX, 0));
                            verified = None;
                            break;
                        }
                        Err(e) => {
                            stop.store(true, Ordering::Relaxed);
                            lock(error).get_or_insert(e);
                            return;
                        }
                    }
                }
                if let Some(b) = verified {
                    lock(done).push((b, f));
                }
            });
        }
    });
    if let Some(e) = error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        g.truncate(have);
        return Err(e);
    }
    let wrong = wrong.into_inner().unwrap_or_else(|e| e.into_inner());
    let (len, refuted) = match wrong.iter().min() {
        Some(&(k, usize::MAX, _)) => {
            g.truncate(have + k * block);
            (g.len(), false)
        }
        Some(&(_, n, v)) => {
            g.truncate(n);
            if v <= T::MAX {
                g.push(T::new(v));
            }
            (g.len(), true)
        }
        None => (end, false),
    };
    // The fork furthest along whose state covers no value past those kept.
    let step = done
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .filter(|&(b, _)| b <= len)
        .max_by_key(|&(b, _)| b)
        .map(|(_, s)| s);
    Ok(Outcome { len, refuted, step })
}

fn lock<X>(m: &Mutex<X>) -> std::sync::MutexGuard<'_, X> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::NoControl;
    use crate::engine::testing::{pool, Deadline};
    use crate::engine::{Stages, TakeAndBreakExact, TakeAndBreakSparse};
    use crate::error::Error;
    use crate::periodicity::Theorem;
    use crate::rules::TakeAndBreak;
    use std::time::Duration;

    fn rule(code: &str) -> TakeAndBreak {
        TakeAndBreak::parse(code).unwrap()
    }

    /// The period search of `s` on `k` threads: the values examined, and its stages.
    fn searched<S: Step>(mut s: Sequence<S>, k: usize) -> (Vec<u32>, Stages, Option<Period>) {
        let f = pool(k).install(|| s.search_period(1 << 15, &NoControl).unwrap());
        (s.values().to_vec(), s.stages(), f.detection.found)
    }

    /// Codes whose period search meets a candidate that a later value breaks (0.0574 repeats
    /// a period early on and is proven with preperiod 1192, period 8; 0.1652, 4.7767 and 4.376
    /// likewise), and one whose second candidate holds (4.376, proven at 23,501 values): the
    /// values are those computed in order, by either engine, at every thread count.
    #[test]
    fn speculation_changes_no_value() {
        for (code, exact_too) in [
            ("0.0574", true),
            ("4.7767", true),
            ("0.1652", false),
            ("4.376", false),
        ] {
            let (one, _, found) = searched(
                Sequence::new(TakeAndBreakSparse::new(rule(code)).unwrap()),
                1,
            );
            // The values examined may differ with the threads (a watch stops a stage early),
            // the values never: those of the engine in order.
            let mut reference = Sequence::new(TakeAndBreakSparse::new(rule(code)).unwrap());
            reference.extend(2 * one.len() as u64, &NoControl).unwrap();
            let want = reference.values().to_vec();
            assert_eq!(one, want[..one.len()], "{code}, one thread");
            let mut refuted = 0;
            for k in 2..=4 {
                let sparse = Sequence::new(TakeAndBreakSparse::new(rule(code)).unwrap());
                let (got, st, f) = searched(sparse, k);
                assert_eq!(got, want[..got.len()], "{code}, sparse, {k} threads");
                assert_eq!(f, found, "{code}, sparse, {k} threads");
                assert!(st.speculated > 0, "{code}: {st:?}");
                refuted += st.refuted;
                if exact_too {
                    let exact = Sequence::new(TakeAndBreakExact::new(rule(code)));
                    let (got, st, f) = searched(exact, k);
                    assert_eq!(got, want[..got.len()], "{code}, exact, {k} threads");
                    assert_eq!(f, found, "{code}, exact, {k} threads");
                    assert!(st.speculated > 0 && st.refuted > 0, "{code}: {st:?}");
                }
            }
            assert!(refuted > 0, "{code}: no candidate broke");
        }
    }

    /// Pseudo-random codes, searched to 8192 values at 1 to 4 threads (watched from 4096 and
    /// speculating from 256 values in tests): the values of the exact engine in order.
    #[test]
    fn random_codes_search_alike_at_every_thread_count() {
        let mut rng = crate::engine::testing::Rng(0x5851_f42d_4c95_7f2d);
        for _ in 0..12 {
            let d0 = ["0", "4", "4!"][rng.below(3) as usize];
            let digits: String = (0..1 + rng.below(4))
                .map(|_| format!("{}", rng.below(8)))
                .collect();
            let code = format!("{d0}.{digits}");
            let mut exact = Sequence::new(TakeAndBreakExact::new(rule(&code)));
            exact.extend(1 << 14, &NoControl).unwrap();
            let want = exact.values().to_vec();
            let mut found = None;
            for k in 1..=4 {
                let mut s = Sequence::new(TakeAndBreakSparse::new(rule(&code)).unwrap());
                let f = pool(k).install(|| s.search_period(1 << 13, &NoControl).unwrap());
                let got = s.values().to_vec();
                assert_eq!(got, want[..got.len()], "{code}, {k} threads");
                let p = f.detection.found;
                assert_eq!(*found.get_or_insert(p), p, "{code}, {k} threads");
            }
        }
    }

    /// Plays back given values; forks, so that a candidate is verified speculatively. Each
    /// value takes `spin` of busy time.
    #[derive(Clone)]
    struct Replay(std::sync::Arc<Vec<u32>>, Duration);

    impl Step for Replay {
        fn theorem(&self) -> Theorem {
            Theorem::Finite { k: 2, t: 1 }
        }
        fn compute<T: Val>(&mut self, g: &[T]) -> Result<u32> {
            let t = Instant::now();
            while t.elapsed() < self.1 {
                std::hint::spin_loop();
            }
            Ok(self.0[g.len()])
        }
        fn fork(&self) -> Option<Self> {
            Some(self.clone())
        }
    }

    /// Period 100 from 10,000 up to `brk` (exclusive), where the value is `at_break`, then
    /// anything: with the theorem's k = 2 and t = 1, the candidate needs 2 n0 + 2 p + t =
    /// 20,201 values, and it shows at 10,300.
    fn broken(brk: usize, at_break: u32, len: usize) -> Vec<u32> {
        let noise = |n: usize| (n as u32).wrapping_mul(2_654_435_761) >> 22;
        (0..len)
            .map(|n| match n {
                n if n < 10_000 => 1000 + noise(n),
                n if n < brk => ((n - 10_000) % 100) as u32 * 7 % 101,
                n if n == brk => at_break,
                n => 1000 + noise(n),
            })
            .collect()
    }

    /// The stretch from 10,300 to 20,201 is verified in blocks on every thread; a wrong value
    /// anywhere in it (the first, inside a block, the last, beyond 16 bits) ends the
    /// speculation with every value exact, and the run goes on in order.
    #[test]
    fn a_wrong_value_ends_the_speculation() {
        let cases = [
            (10_300, 5),
            (10_300 + 64 * 7 + 5, 200),
            (20_200, 1),
            (15_000, 70_000),
            (40_000, 0),
        ];
        for (brk, at_break) in cases {
            let values = broken(brk, at_break, 30_000);
            for k in 1..=4 {
                let mut s = Sequence::new(Replay(values.clone().into(), Duration::ZERO));
                s.extend(10_300, &NoControl).unwrap();
                let (c, need) = s.scan_period(10_300).candidate.unwrap();
                assert_eq!((c.preperiod, c.period, need), (10_000, 100, 20_201));
                pool(k).install(|| s.extend(30_000, &NoControl)).unwrap();
                let st = s.stages();
                assert_eq!(s.values().to_vec(), values, "break at {brk}, {k} threads");
                let wrong = brk < 20_201;
                assert_eq!(st.speculated > 0, k > 1, "{st:?}");
                assert_eq!(st.refuted, u64::from(k > 1 && wrong), "{st:?}");
                if k > 1 && !wrong {
                    assert_eq!(st.speculated, 20_201 - 10_300);
                }
            }
        }
    }

    /// An interruption stops the speculation on every thread within a second, and leaves the
    /// values computed before it (no predicted value stays).
    #[test]
    fn interruption_stops_every_thread() {
        let values = broken(40_000, 0, 30_000);
        for k in 1..=4 {
            // 10,000 values of 200 µs each: 2 s on one thread, 0.5 s on four.
            let mut s = Sequence::new(Replay(values.clone().into(), Duration::ZERO));
            s.extend(10_300, &NoControl).unwrap();
            s.scan_period(10_300);
            s.step.1 = Duration::from_micros(400);
            let start = Instant::now();
            let stop = Deadline(start + Duration::from_millis(150));
            let r = pool(k).install(|| s.extend(30_000, &stop));
            let took = start.elapsed();
            assert_eq!(r, Err(Error::Interrupted), "{k} threads");
            assert!(took < Duration::from_millis(1150), "{k} threads: {took:?}");
            let n = s.values().len();
            assert_eq!(s.values().to_vec(), values[..n], "{k} threads");
            s.step.1 = Duration::ZERO;
            pool(k).install(|| s.extend(30_000, &NoControl)).unwrap();
            assert_eq!(s.values().to_vec(), values, "{k} threads, resumed");
        }
    }
}
