//! The two structures of a block that threads share through raw pointers, and why that is
//! sound: [`Shared`], the block's values (written in order by one thread, read below what was
//! written by the others), and [`Queue`], the provisional heaps handed from the thread that
//! computes them to the threads that confirm them. Everything `unsafe` about sharing a block
//! (the `Send`/`Sync` impls and their safety notes) lives here.

use super::Pending;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::thread::Thread;

/// Spin-loop hints a waiting thread spends (about 20-50 microseconds) before it yields the
/// processor (or, a confirmer, sleeps).
const SPINS_BEFORE_SLEEP: u32 = 1 << 11;

/// How a thread of a block waits for another: spin-loop hints, backing off, for a few tens of
/// microseconds (most waits are shorter: a task of a few sub-blocks), then it yields the
/// processor at each round. On a busy machine the thread waited for may be waiting for a
/// processor, perhaps this one: spinning on would hold it for the rest of the time slice (2
/// threads were slower than 1 at a load average of 5: Grundy's game to 2^24, 24.1 s against
/// 18.6 s).
pub(super) struct Backoff {
    spins: u32,
    step: u32,
}

impl Backoff {
    pub(super) fn new() -> Self {
        Backoff { spins: 0, step: 1 }
    }

    /// Whether the spinning is over (the next waits yield, or the caller may sleep).
    pub(super) fn is_long(&self) -> bool {
        self.spins >= SPINS_BEFORE_SLEEP
    }

    /// One round of waiting.
    pub(super) fn snooze(&mut self) {
        if self.is_long() {
            std::thread::yield_now();
            return;
        }
        for _ in 0..self.step {
            std::hint::spin_loop();
        }
        self.spins += self.step;
        self.step = (2 * self.step).min(256);
    }
}

/// A value alone on its cache lines (two: the adjacent-line prefetcher fetches them in pairs),
/// so that a thread writing it does not take from the others the lines of what they read next to
/// it (false sharing: the sequential part's loads of the block's context, on its stack beside
/// the counters the other threads add to, took 30% longer with two threads).
#[repr(align(128))]
pub(super) struct Padded<T>(pub(super) T);

impl<T> std::ops::Deref for Padded<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// The values of a block being computed, shared between the thread that writes them in order
/// and the confirmation tasks, which read only values written before they were spawned.
pub(super) struct Shared<T> {
    ptr: *mut T,
    len: usize,
}

// SAFETY: `Shared` hands out slices of values and writes single values; its users keep the
// slices and the writes disjoint (see `prefix` and `write`), and `T` is `Send + Sync`.
unsafe impl<T: Send + Sync> Send for Shared<T> {}
unsafe impl<T: Send + Sync> Sync for Shared<T> {}

impl<T> Shared<T> {
    pub(super) fn new(values: &mut [T]) -> Self {
        Shared {
            ptr: values.as_mut_ptr(),
            len: values.len(),
        }
    }

    /// The first `n` values.
    ///
    /// # Safety
    /// None of them may be written while the slice is alive, and the storage must outlive it.
    pub(super) unsafe fn prefix<'a>(&self, n: usize) -> &'a [T] {
        assert!(n <= self.len);
        std::slice::from_raw_parts(self.ptr, n)
    }

    /// Values `a .. b`, to write.
    ///
    /// # Safety
    /// No other slice covering any of them may be alive while this one is.
    #[allow(clippy::mut_from_ref)]
    pub(super) unsafe fn slice_mut<'a>(&self, a: usize, b: usize) -> &'a mut [T] {
        assert!(a <= b && b <= self.len);
        std::slice::from_raw_parts_mut(self.ptr.add(a), b - a)
    }

    /// Writes value `i`.
    ///
    /// # Safety
    /// No slice covering `i` may be alive.
    pub(super) unsafe fn write(&self, i: usize, v: T) {
        assert!(i < self.len);
        self.ptr.add(i).write(v)
    }
}

/// Set when a thread of a block unwinds (a panic: a bug), so that the others stop waiting for
/// work it will never finish: each wait of the block checks it and leaves in turn (`crew::echo`),
/// so every thread leaves the block (the crew raises the first panic, with its own message)
/// instead of one waiting forever.
pub(super) struct Broken(Padded<AtomicBool>);

impl Broken {
    pub(super) fn new() -> Self {
        Broken(Padded(AtomicBool::new(false)))
    }

    /// Panics when another thread of the block has.
    #[inline]
    pub(super) fn check(&self) {
        if self.0.load(Ordering::Relaxed) {
            super::crew::echo();
        }
    }

    /// A guard that sets the flag (and closes `queue`, whose confirmers wait for it) if its
    /// thread unwinds while it is alive.
    pub(super) fn guard<'a>(&'a self, queue: Option<&'a Queue>) -> BrokenGuard<'a> {
        BrokenGuard(self, queue)
    }
}

/// See [`Broken::guard`].
pub(super) struct BrokenGuard<'a>(&'a Broken, Option<&'a Queue>);

impl Drop for BrokenGuard<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0 .0.store(true, Ordering::Relaxed);
            if let Some(q) = self.1 {
                q.close();
            }
        }
    }
}

/// The sub-blocks whose splits reaching far back into the block (a rare part below the block,
/// the other part at least `SparseOptions::ahead` heaps behind the sub-block) the confirming
/// threads flag ahead of the sequential part, so that one thread does not do them all. Task `t` is
/// sub-block `t`; it can start once the values it reads are written (`avail` counts those
/// tasks), is taken once (`next`, in order: by a confirming thread, or by the sequential part
/// itself when it gets there first), and is waited for through `done`.
pub(super) struct Ahead {
    next: Padded<AtomicUsize>,
    avail: Padded<AtomicUsize>,
    done: Vec<AtomicBool>,
}

impl Ahead {
    pub(super) fn new(tasks: usize, first: usize) -> Self {
        Ahead {
            next: Padded(AtomicUsize::new(first)),
            avail: Padded(AtomicUsize::new(first)),
            done: (0..tasks).map(|_| AtomicBool::new(false)).collect(),
        }
    }

    /// Tasks below `n` may start (the producer wrote what they read).
    pub(super) fn make_available(&self, n: usize) -> bool {
        let n = n.min(self.done.len());
        self.avail.fetch_max(n, Ordering::SeqCst) < n
    }

    /// Whether a task may be taken now.
    pub(super) fn ready(&self) -> bool {
        self.next.load(Ordering::SeqCst) < self.avail.load(Ordering::SeqCst)
    }

    /// Takes the next available task.
    pub(super) fn claim(&self) -> Option<usize> {
        loop {
            let t = self.next.load(Ordering::Acquire);
            if t >= self.avail.load(Ordering::Acquire) {
                return None;
            }
            if self
                .next
                .compare_exchange_weak(t, t + 1, Ordering::AcqRel, Ordering::Acquire)
                .is_ok()
            {
                return Some(t);
            }
        }
    }

    /// For the producer at sub-block `t` (tasks below `t` are all taken): true when it took
    /// task `t` itself (it is available: the producer wrote what it reads), false when another
    /// thread did, in which case this waits until that thread is done (or `broken`).
    pub(super) fn take_or_wait(&self, t: usize, broken: &Broken) -> bool {
        if self
            .next
            .compare_exchange(t, t + 1, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
        {
            return true;
        }
        let mut backoff = Backoff::new();
        while !self.done[t].load(Ordering::Acquire) {
            broken.check();
            backoff.snooze();
        }
        false
    }

    pub(super) fn finish(&self, t: usize) {
        self.done[t].store(true, Ordering::Release);
    }
}

/// The provisional heaps of a block, handed from the thread that computes them in order to the
/// threads that confirm them. Entries below `published` are complete and left alone by the
/// producer; each is taken by exactly one confirmer, through `claimed`.
pub(super) struct Queue {
    ptr: *mut Pending,
    cap: usize,
    published: Padded<AtomicUsize>,
    claimed: Padded<AtomicUsize>,
    closed: AtomicBool,
    /// Confirmers that waited long and sleep until the producer publishes.
    sleepers: AtomicUsize,
    parked: Mutex<Vec<Thread>>,
    /// Times the producer woke sleeping confirmers (a system call each).
    wakes: AtomicUsize,
}

// SAFETY: the entries are handed out disjointly (the producer uses only those at and above
// `published`; each published range goes to the single claimer whose compare-exchange
// succeeds), and `Pending` is `Send`.
unsafe impl Send for Queue {}
unsafe impl Sync for Queue {}

impl Queue {
    pub(super) fn new(entries: &mut [Pending]) -> Self {
        Queue {
            ptr: entries.as_mut_ptr(),
            cap: entries.len(),
            published: Padded(AtomicUsize::new(0)),
            claimed: Padded(AtomicUsize::new(0)),
            closed: AtomicBool::new(false),
            sleepers: AtomicUsize::new(0),
            parked: Mutex::new(Vec::new()),
            wakes: AtomicUsize::new(0),
        }
    }

    /// Wakes the confirmers that sleep (after `published` or `closed` changed).
    fn wake(&self) {
        if self.sleepers.load(Ordering::SeqCst) > 0 {
            let mut parked = self.parked.lock().unwrap_or_else(|e| e.into_inner());
            self.sleepers.store(0, Ordering::SeqCst);
            self.wakes.fetch_add(1, Ordering::Relaxed);
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
    pub(super) unsafe fn entry(&self, i: usize) -> &mut Pending {
        assert!(i < self.cap);
        &mut *self.ptr.add(i)
    }

    /// Hands the entries below `n` to the confirmers.
    pub(super) fn publish(&self, n: usize) {
        if self.published.swap(n, Ordering::SeqCst) != n {
            self.wake();
        }
    }

    /// Wakes the sleeping confirmers for other work ([`Queue::claim_or`]).
    pub(super) fn notify(&self) {
        self.wake();
    }

    /// No more entries.
    pub(super) fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        self.wake();
    }

    pub(super) fn is_closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }

    /// Times sleeping confirmers were woken.
    pub(super) fn wakes(&self) -> u64 {
        self.wakes.load(Ordering::Relaxed) as u64
    }

    pub(super) fn published(&self) -> usize {
        self.published.load(Ordering::Acquire)
    }

    /// Up to `max` published entries nobody has taken; `None` once the queue is closed and
    /// every entry taken, or (unless `wait`) when none is available now. Waits by spinning,
    /// backing off, for a few tens of microseconds (the producer publishes every few), then
    /// sleeps until woken, so that a waiting confirmer does not take the processor from the
    /// producer on a busy machine.
    #[allow(clippy::mut_from_ref)]
    pub(super) fn claim(&self, max: usize, wait: bool) -> Option<&mut [Pending]> {
        self.claim_or(max, wait, || false)
    }

    /// [`Queue::claim`], which also returns `None` while it waits as soon as `other()` says
    /// there is other work (the caller tells the two cases apart by calling `other` again).
    #[allow(clippy::mut_from_ref)]
    pub(super) fn claim_or(
        &self,
        max: usize,
        wait: bool,
        other: impl Fn() -> bool,
    ) -> Option<&mut [Pending]> {
        let mut backoff = Backoff::new();
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
            if closed || !wait || other() {
                return None;
            }
            if !backoff.is_long() {
                backoff.snooze();
                continue;
            }
            // Register, check again (a publication between the check above and the
            // registration would otherwise be missed), then sleep.
            {
                let mut parked = self.parked.lock().unwrap_or_else(|e| e.into_inner());
                parked.push(std::thread::current());
                self.sleepers.fetch_add(1, Ordering::SeqCst);
            }
            if self.published.load(Ordering::SeqCst) == p
                && !self.closed.load(Ordering::SeqCst)
                && !other()
            {
                std::thread::park();
            }
            backoff = Backoff::new();
        }
    }
}
