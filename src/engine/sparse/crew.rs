//! The other threads of a run of blocks, kept for the whole run ([`Crew`]): each block hands
//! them its work through a generation counter instead of spawning rayon tasks, which woke a
//! sleeping thread for every block (13 to 35 microseconds near idle, milliseconds on a busy
//! machine, where the woken thread waited for a processor: `SparseStats::start_ns`).
//!
//! Between blocks a helper spins briefly, then yields for up to `LINGER` (the bookkeeping
//! between two blocks takes tens of microseconds), then parks until the next block or the end
//! of the run.

use super::queue::Backoff;
use std::any::Any;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread::Thread;
use std::time::{Duration, Instant};

/// How long a helper waiting for the next block yields before it parks.
const LINGER: Duration = Duration::from_millis(1);

/// A job handed to the helpers: a reference whose lifetime `Crew::run` erases (it outlives
/// every use, see there).
#[derive(Clone, Copy)]
struct Job(*const (dyn Fn() + Sync + 'static));

// SAFETY: the job is `Sync` (called from several threads at once) and only called while the
// `Crew::run` that published it waits for it.
unsafe impl Send for Job {}

/// Bits of [`Crew::state`]: the job's generation above `GEN_SHIFT`, whether it is open to
/// helpers, and how many run it.
const GEN_SHIFT: u32 = 32;
const OPEN: u64 = 1 << 31;
const COUNT: u64 = OPEN - 1;

/// The helpers of a run of blocks: see the module notes.
pub(super) struct Crew {
    helpers: usize,
    /// The current job's generation, whether it is open, and how many helpers run it, in one
    /// word: a helper joins a job only while it is open (a compare-exchange), and `run` closes
    /// it and waits for those that joined. A helper that comes late (its thread busy with other
    /// work of the pool, or not started yet) is not waited for: the thread of the block does its
    /// part, as it did the rayon tasks nobody stole.
    state: AtomicU64,
    job: Mutex<Option<Job>>,
    closed: AtomicBool,
    /// Helpers that park until the next job.
    sleepers: AtomicUsize,
    parked: Mutex<Vec<Thread>>,
    /// The first panic of a helper in the current job (other than an [`echo`]), raised again
    /// on the thread of `run`.
    panic: Mutex<Option<Box<dyn Any + Send>>>,
}

/// The payload of [`echo`].
const ECHO: &str = "another thread of the block panicked";

/// Leaves a job because another thread of it panicked (see `queue::Broken`), without a message
/// of its own (no panic hook): [`Crew::run`] raises that thread's panic instead, so the caller
/// sees the panic that caused the others.
pub(super) fn echo() -> ! {
    resume_unwind(Box::new(ECHO))
}

fn is_echo(p: &(dyn Any + Send)) -> bool {
    p.downcast_ref::<&str>().is_some_and(|s| *s == ECHO)
}

fn lock<X>(m: &Mutex<X>) -> std::sync::MutexGuard<'_, X> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Crew {
    fn new(helpers: usize) -> Self {
        Crew {
            helpers,
            state: AtomicU64::new(0),
            job: Mutex::new(None),
            closed: AtomicBool::new(false),
            sleepers: AtomicUsize::new(0),
            parked: Mutex::new(Vec::new()),
            panic: Mutex::new(None),
        }
    }

    /// The helpers (threads besides the one running the blocks).
    pub(super) fn helpers(&self) -> usize {
        self.helpers
    }

    fn wake(&self) {
        if self.sleepers.load(Ordering::SeqCst) > 0 {
            let mut parked = lock(&self.parked);
            self.sleepers.store(0, Ordering::SeqCst);
            for t in parked.drain(..) {
                t.unpark();
            }
        }
    }

    fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        self.wake();
    }

    /// Joins the open job of a generation other than `seen`: its generation, and whether it
    /// was joined; `None` while there is none.
    fn join(&self, seen: u64) -> Option<(u64, bool)> {
        let mut s = self.state.load(Ordering::SeqCst);
        loop {
            let gen = s >> GEN_SHIFT;
            if gen == seen {
                return None;
            }
            if s & OPEN == 0 {
                return Some((gen, false));
            }
            match self
                .state
                .compare_exchange_weak(s, s + 1, Ordering::SeqCst, Ordering::SeqCst)
            {
                Ok(_) => return Some((gen, true)),
                Err(now) => s = now,
            }
        }
    }

    /// A helper's loop: every job it comes to while the job is open, until the crew is closed.
    fn serve(&self) {
        let mut seen = 0;
        loop {
            let mut backoff = Backoff::new();
            let mut since = None;
            let joined = loop {
                if self.closed.load(Ordering::SeqCst) {
                    return;
                }
                if let Some((gen, joined)) = self.join(seen) {
                    seen = gen;
                    break joined;
                }
                if !backoff.is_long() {
                    backoff.snooze();
                    continue;
                }
                let t0 = *since.get_or_insert_with(Instant::now);
                if t0.elapsed() < LINGER {
                    std::thread::yield_now();
                    continue;
                }
                // Register, check again (a job published between the check above and the
                // registration would otherwise be missed), then park.
                {
                    let mut parked = lock(&self.parked);
                    parked.push(std::thread::current());
                    self.sleepers.fetch_add(1, Ordering::SeqCst);
                }
                if self.state.load(Ordering::SeqCst) >> GEN_SHIFT == seen
                    && !self.closed.load(Ordering::SeqCst)
                {
                    std::thread::park();
                }
            };
            if !joined {
                continue;
            }
            // The job stays published until every helper that joined is done.
            let job = *lock(&self.job);
            if let Some(Job(f)) = job {
                // SAFETY: `run` published `f` before opening this generation and waits until
                // no helper runs it before `f`'s referent may go away.
                let r = catch_unwind(AssertUnwindSafe(|| unsafe { (*f)() }));
                if let Err(p) = r {
                    let mut first = lock(&self.panic);
                    if first.as_deref().is_none_or(is_echo) {
                        *first = Some(p);
                    }
                }
            }
            self.state.fetch_sub(1, Ordering::SeqCst);
        }
    }

    /// Runs `job` on the helpers that come to it while this thread runs `main`; returns once
    /// those are done. `job` must leave nothing undone that `main` needs: a helper may not
    /// come. A panic is raised again here once the helpers are done: `main`'s own, or else
    /// the first of a helper (also where `main` left by an [`echo`] of it).
    pub(super) fn run<R>(&self, job: &(dyn Fn() + Sync), main: impl FnOnce() -> R) -> R {
        /// Closes the job and waits for the helpers that joined it, also when `main` unwinds:
        /// they may still use `job`.
        struct Wait<'a>(&'a Crew);
        impl Drop for Wait<'_> {
            fn drop(&mut self) {
                self.0.state.fetch_and(!OPEN, Ordering::SeqCst);
                let mut backoff = Backoff::new();
                while self.0.state.load(Ordering::SeqCst) & COUNT > 0 {
                    backoff.snooze();
                }
                *lock(&self.0.job) = None;
            }
        }
        let f: *const (dyn Fn() + Sync + '_) = job;
        // SAFETY: only the lifetime changes; a helper calls `f` only after joining this
        // generation, and `Wait` keeps this frame (and `job`'s borrow) alive until no helper
        // runs it.
        let f: *const (dyn Fn() + Sync + 'static) = unsafe { std::mem::transmute(f) };
        *lock(&self.job) = Some(Job(f));
        let gen = (self.state.load(Ordering::SeqCst) >> GEN_SHIFT) + 1;
        let wait = Wait(self);
        self.state
            .store((gen << GEN_SHIFT) | OPEN, Ordering::SeqCst);
        self.wake();
        let r = catch_unwind(AssertUnwindSafe(main));
        drop(wait);
        match (r, lock(&self.panic).take()) {
            (Ok(r), None) => r,
            (Err(p), Some(first)) if is_echo(&*p) => resume_unwind(first),
            (Err(p), _) | (Ok(_), Some(p)) => resume_unwind(p),
        }
    }
}

/// Calls `f` with a crew of `threads - 1` helpers on the current rayon pool (none, and no
/// crew, for one thread), closing it when `f` returns or unwinds.
pub(super) fn with_crew<R>(threads: usize, f: impl FnOnce(Option<&Crew>) -> R) -> R {
    if threads <= 1 {
        return f(None);
    }
    struct Close<'a>(&'a Crew);
    impl Drop for Close<'_> {
        fn drop(&mut self) {
            self.0.close();
        }
    }
    let crew = Crew::new(threads - 1);
    let crew = &crew;
    rayon::in_place_scope(|sc| {
        for _ in 0..crew.helpers {
            sc.spawn(move |_| crew.serve());
        }
        let _close = Close(crew);
        f(Some(crew))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::testing::pool;
    use std::time::Instant;

    /// Waits (at most ten seconds) until `f` holds.
    fn until(f: impl Fn() -> bool) -> bool {
        let t = Instant::now();
        while !f() {
            if t.elapsed() > Duration::from_secs(10) {
                return false;
            }
            std::thread::yield_now();
        }
        true
    }

    /// Every helper comes to every job it is given time for, across many jobs (the same
    /// helpers: no task per job), parking between them; each job runs once per helper.
    #[test]
    fn helpers_stay_for_every_job() {
        for k in [2, 3] {
            pool(k).install(|| {
                with_crew(k, |crew| {
                    let crew = crew.expect("a crew for more than one thread");
                    assert_eq!(crew.helpers(), k - 1);
                    for round in 0..200 {
                        let calls = AtomicUsize::new(0);
                        let job = || {
                            calls.fetch_add(1, Ordering::SeqCst);
                        };
                        crew.run(&job, || {
                            assert!(until(|| calls.load(Ordering::SeqCst) == k - 1))
                        });
                        assert_eq!(calls.load(Ordering::SeqCst), k - 1);
                        if round % 50 == 0 {
                            // Longer than `LINGER`: the helpers park, and are woken.
                            std::thread::sleep(3 * LINGER);
                        }
                    }
                })
            });
        }
        assert!(with_crew(1, |crew| crew.is_none()));
    }

    /// A helper that does not come (its thread busy: here the pool's only thread runs the
    /// blocks) is not waited for.
    #[test]
    fn late_helpers_are_not_waited_for() {
        pool(1).install(|| {
            with_crew(2, |crew| {
                let crew = crew.unwrap();
                let calls = AtomicUsize::new(0);
                let job = || {
                    calls.fetch_add(1, Ordering::SeqCst);
                };
                for _ in 0..10 {
                    assert_eq!(crew.run(&job, || 7), 7);
                }
                assert_eq!(calls.load(Ordering::SeqCst), 0);
            })
        });
    }

    /// A helper's panic reaches the thread of the blocks once the job is over, with its own
    /// payload, and the crew goes on (and closes) after it.
    #[test]
    fn a_helpers_panic_is_raised_in_run() {
        pool(2).install(|| {
            with_crew(2, |crew| {
                let crew = crew.unwrap();
                let came = AtomicBool::new(false);
                let job = || {
                    came.store(true, Ordering::SeqCst);
                    panic!("helper");
                };
                let r = catch_unwind(AssertUnwindSafe(|| {
                    crew.run(&job, || assert!(until(|| came.load(Ordering::SeqCst))))
                }));
                assert_eq!(r.unwrap_err().downcast_ref::<&str>(), Some(&"helper"));
                // Where the thread of `run` left by an echo of it, the helper's panic still
                // reaches the caller; its own panic goes before a helper's.
                for (main_echoes, want) in [(true, "helper"), (false, "main")] {
                    came.store(false, Ordering::SeqCst);
                    let r = catch_unwind(AssertUnwindSafe(|| {
                        crew.run(&job, || {
                            assert!(until(|| came.load(Ordering::SeqCst)));
                            if main_echoes {
                                echo()
                            }
                            panic!("main")
                        })
                    }));
                    assert_eq!(r.unwrap_err().downcast_ref::<&str>(), Some(&want));
                }
                let calls = AtomicUsize::new(0);
                let job = || {
                    calls.fetch_add(1, Ordering::SeqCst);
                };
                crew.run(&job, || {
                    assert!(until(|| calls.load(Ordering::SeqCst) == 1))
                });
            })
        });
    }
}
