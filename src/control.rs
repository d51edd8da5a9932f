//! How a long computation is watched and run: the [`Control`] it polls (Ctrl-C, memory, progress),
//! the [`Poller`] that keeps polling cheap, and the rayon pools it runs on. Every engine of the
//! crate uses these, so they live apart from any one of them.
//!
//! ```
//! use grundy::control::{Control, NoControl, Poller};
//! let mut poll = Poller::new(&NoControl, 1_000);
//! for done in 0..1_000 {
//!     poll.tick(done).unwrap(); // looks at the clock; calls the control at most every 50 ms
//! }
//! assert!(NoControl.check(1_000, 1_000).is_ok());
//! ```

use crate::error::{Error, Result};
use rayon::ThreadPool;
use std::time::{Duration, Instant};

/// How a long computation is watched: polled every few dozen milliseconds with the progress made.
/// Returning an error stops the computation and keeps every value computed so far.
pub trait Control: Sync {
    /// Called with the items done so far out of `total` (0 when the total is unknown).
    ///
    /// # Errors
    /// Any error stops the computation, which returns it (the values computed so far are kept).
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

/// Polls a [`Control`] at most every [`POLL_INTERVAL`]. Loops call [`tick`](Self::tick) every
/// few thousand items, or [`step`](Self::step) on every item (it looks at the clock once in
/// `2^14` steps), so that polling costs nothing measurable.
pub struct Poller<'a> {
    ctl: &'a dyn Control,
    last: Instant,
    steps: u32,
    total: u64,
}

/// Items between two looks at the clock in [`Poller::step`].
const STEPS_PER_LOOK: u32 = 1 << 14;

impl<'a> Poller<'a> {
    /// A poller of `ctl` for a computation of `total` items (0 when unknown).
    pub fn new(ctl: &'a dyn Control, total: u64) -> Self {
        Poller {
            ctl,
            last: Instant::now(),
            steps: 0,
            total,
        }
    }

    /// Calls the control with `done` when [`POLL_INTERVAL`] has passed since the last call.
    ///
    /// # Errors
    /// The control's error.
    #[inline]
    pub fn tick(&mut self, done: u64) -> Result<()> {
        if self.last.elapsed() >= POLL_INTERVAL {
            self.ctl.check(done, self.total)?;
            self.last = Instant::now();
        }
        Ok(())
    }

    /// Counts one item; every `2^14` items, [`tick`](Self::tick)s.
    ///
    /// # Errors
    /// The control's error.
    #[inline]
    pub fn step(&mut self, done: u64) -> Result<()> {
        self.steps += 1;
        if self.steps >= STEPS_PER_LOOK {
            self.steps = 0;
            self.tick(done)?;
        }
        Ok(())
    }
}

/// The number of threads a pool built for `requested` threads gets: at most the processors this
/// process may use ([`std::thread::available_parallelism`]). More threads would only share them
/// (and the sparse engine's confirmers would spin against its producer), and a huge request
/// would start threads until the machine runs out. Values never depend on the thread count.
///
/// ```
/// let cores = std::thread::available_parallelism().unwrap().get();
/// assert_eq!(grundy::control::pool_threads(1_000_000).unwrap(), cores);
/// assert_eq!(grundy::control::pool_threads(1).unwrap(), 1);
/// assert!(grundy::control::pool_threads(0).is_err());
/// ```
///
/// # Errors
/// [`Error::Invalid`] when `requested` is 0.
pub fn pool_threads(requested: usize) -> Result<usize> {
    if requested == 0 {
        return Err(Error::Invalid("threads must be at least 1".into()));
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    Ok(requested.min(cores))
}

/// A pool of `threads` threads, capped by [`pool_threads`]; `None` for `None` (rayon's global
/// pool is used then).
///
/// # Errors
/// [`Error::Invalid`] for 0 threads or when the threads cannot start.
pub fn build_pool(threads: Option<usize>) -> Result<Option<ThreadPool>> {
    match threads {
        None => Ok(None),
        Some(t) => rayon::ThreadPoolBuilder::new()
            .num_threads(pool_threads(t)?)
            .build()
            .map(Some)
            .map_err(|e| Error::Invalid(format!("cannot start {t} threads: {e}"))),
    }
}

/// Runs `f` in `pool` when one is given, else in rayon's global pool.
pub fn in_pool<R: Send>(pool: Option<&ThreadPool>, f: impl FnOnce() -> R + Send) -> R {
    match pool {
        Some(p) => p.install(f),
        None => f(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    struct Counting(AtomicU64);

    impl Control for Counting {
        fn check(&self, done: u64, total: u64) -> Result<()> {
            assert_eq!(total, 7);
            self.0.store(done, Ordering::Relaxed);
            if done >= 3 {
                return Err(Error::Interrupted);
            }
            Ok(())
        }
    }

    #[test]
    fn a_poller_calls_the_control_once_the_interval_passed() {
        let ctl = Counting(AtomicU64::new(0));
        let mut poll = Poller::new(&ctl, 7);
        poll.tick(1).unwrap(); // too soon: not called
        assert_eq!(ctl.0.load(Ordering::Relaxed), 0);
        std::thread::sleep(POLL_INTERVAL);
        poll.tick(2).unwrap();
        assert_eq!(ctl.0.load(Ordering::Relaxed), 2);
        std::thread::sleep(POLL_INTERVAL);
        assert!(matches!(poll.tick(3), Err(Error::Interrupted)));
    }

    #[test]
    fn steps_look_at_the_clock_once_in_a_while() {
        let ctl = Counting(AtomicU64::new(0));
        let mut poll = Poller::new(&ctl, 7);
        std::thread::sleep(POLL_INTERVAL);
        for _ in 0..STEPS_PER_LOOK - 1 {
            poll.step(1).unwrap();
        }
        assert_eq!(ctl.0.load(Ordering::Relaxed), 0);
        poll.step(1).unwrap();
        assert_eq!(ctl.0.load(Ordering::Relaxed), 1);
    }

    #[test]
    fn pools_are_capped_and_optional() {
        // 10^6 threads used to start 10^6 threads (minutes); 0 is refused.
        assert!(build_pool(None).unwrap().is_none());
        let p = build_pool(Some(1_000_000)).unwrap().unwrap();
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        assert_eq!(p.current_num_threads(), cores);
        assert_eq!(
            in_pool(Some(&p), rayon::current_num_threads),
            p.current_num_threads()
        );
        assert!(build_pool(Some(0)).is_err());
    }
}
