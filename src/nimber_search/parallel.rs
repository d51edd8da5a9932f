//! The nimber search on several threads: the questions a node asks its options ("is G(option)
//! in S?") are independent, so a large node shares them among the threads of a rayon pool.
//!
//! - The threads share the search's [`Table`](super::Table)s (the subtrees of different options
//!   overlap heavily): what one learns, the others read at once. The table takes no lock to
//!   read, and never gives a wrong answer (see its notes).
//! - A node splits when its component has at least [`Split::min_cells`] cells and it lies at
//!   most [`Split::depth`] levels below the root. Its easiest option goes first, alone (it
//!   often settles the question: a winning move; its own options split meanwhile), then the
//!   threads take the others in turn, each asked for the values still wanted when it is taken.
//!   Answers are settled in whatever order they come: each rules out a value G(node) may have
//!   whatever the others say (see [`Search::search_options`]), and the values wanted only
//!   shrink, so an answer to a question asked earlier is still one to the question now. The
//!   value found never depends on the threads or their timing; the work may.
//! - A node settled before all its options are (a candidate ruled out, or no candidate left)
//!   halts the threads still searching under it: each looks at its chain of halt flags every
//!   few dozen nodes, and drops its work (what it stored stays right).
//! - The thread that asked waits without the pool, polling the caller's [`Control`] every
//!   20 ms with the nodes searched so far; when it fails, every thread halts and the search
//!   returns its error.
//!
//! ```
//! use grundy::board::Cram;
//! use grundy::control::NoControl;
//! use grundy::nimber_search::{Search, Split};
//! let cram = Cram::new(4, 5).unwrap();
//! let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
//! let mut search = Search::new(&cram, 16 << 20).unwrap();
//! let split = Split { min_cells: 12, ..Split::default() };
//! assert_eq!(search.value_threads(cram.empty(), &NoControl, Some(&pool), split).unwrap(), 2);
//! ```

use super::{low_bits, too_large, xor_set, Opened, Part, Search, Settled, Values};
use crate::board::Board;
use crate::control::Control;
use crate::control::Poller;
use crate::error::{Error, Result};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// Where a parallel search shares a node's options among threads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split {
    /// The deepest level split (0: the root's options only).
    pub depth: u32,
    /// The fewest cells of a component whose options are split; a smaller root is searched
    /// by one thread alone.
    pub min_cells: u32,
}

impl Default for Split {
    /// Measured on Cram 4 x 9 to 5 x 9 with 2 threads: no thread idles, and a deeper split
    /// changed nothing measurable. Since the search learnt the half turn (`Board::known`), 2
    /// threads search about 50% more nodes; on an idle 2-core machine they gave 5 x 8 (40
    /// cells) 1.12x, and nothing to 4 x 9 and 5 x 7 (0.29 s and 0.44 s either way), so a
    /// component under 40 cells is searched by one thread.
    fn default() -> Self {
        Split {
            depth: 2,
            min_cells: 40,
        }
    }
}

/// A halt flag, and those of the nodes above: a thread's work is dropped once any is set.
pub(super) struct Halt<'p> {
    flag: AtomicBool,
    parent: Option<&'p Halt<'p>>,
}

impl Halt<'_> {
    /// Whether this flag or one above is set.
    #[inline]
    pub(super) fn is_set(&self) -> bool {
        let mut h = Some(self);
        while let Some(x) = h {
            if x.flag.load(Ordering::Relaxed) {
                return true;
            }
            h = x.parent;
        }
        false
    }
}

/// What every thread of one parallel search shares.
struct Shared {
    /// Set when the caller's control failed: everything stops.
    stop: Halt<'static>,
    /// Nodes searched by the threads so far, for the progress (each adds its own as it goes).
    nodes: AtomicU64,
    /// Nodes searched by the threads done (the count the search keeps).
    finished: AtomicU64,
    /// The pool's threads.
    threads: usize,
    split: Split,
}

/// The control a thread polls: the stop flag, and the shared count of nodes.
struct Flag<'s> {
    shared: &'s Shared,
    /// Nodes of this thread's search already added to the count.
    told: AtomicU64,
}

impl<'s> Flag<'s> {
    fn new(shared: &'s Shared) -> Self {
        Flag {
            shared,
            told: AtomicU64::new(0),
        }
    }
}

impl Control for Flag<'_> {
    fn check(&self, done: u64, _total: u64) -> Result<()> {
        let before = self.told.swap(done, Ordering::Relaxed);
        self.shared
            .nodes
            .fetch_add(done.saturating_sub(before), Ordering::Relaxed);
        if self.shared.stop.is_set() {
            return Err(Error::Interrupted);
        }
        Ok(())
    }
}

impl<'a, B: Board + ?Sized> Search<'a, B> {
    /// As [`Search::value`], on the threads of `pool` (rayon's global pool when `None`).
    ///
    /// A position whose largest component is smaller than `split.min_cells`, or a pool of one
    /// thread, takes the plain search. The value never depends on the threads; the nodes
    /// searched may (they count every thread's).
    ///
    /// # Errors
    /// As [`Search::value`]: `ctl`'s error (every thread stops within a few milliseconds).
    pub fn value_threads(
        &mut self,
        pos: u128,
        ctl: &dyn Control,
        pool: Option<&rayon::ThreadPool>,
        split: Split,
    ) -> Result<u32> {
        let Some((parts, known)) = self.split_parts(pos, pool, split) else {
            return self.value(pos, ctl);
        };
        self.on_pool(ctl, pool, split, |s, sh| {
            let flag = Flag::new(sh);
            let mut poll = Poller::new(&flag, 0);
            let mut v = known;
            for &c in &parts {
                v ^= split_exact(s, c, &mut poll, sh)?;
            }
            Ok(v)
        })
    }

    /// As [`Search::is_zero`], on the threads of `pool` (see [`Search::value_threads`]).
    ///
    /// # Errors
    /// As [`Search::value`].
    pub fn is_zero_threads(
        &mut self,
        pos: u128,
        ctl: &dyn Control,
        pool: Option<&rayon::ThreadPool>,
        split: Split,
    ) -> Result<bool> {
        let Some((parts, known)) = self.split_parts(pos, pool, split) else {
            return self.is_zero(pos, ctl);
        };
        self.on_pool(ctl, pool, split, |s, sh| {
            let flag = Flag::new(sh);
            let mut poll = Poller::new(&flag, 0);
            let halt = &sh.stop;
            let set = xor_set(1, known);
            Ok(split_sum_in_set(s, &parts, set, &mut poll, sh, halt, 0)? == Some(known))
        })
    }

    /// The components of `pos`, sorted by size, and the XOR of those left out
    /// ([`Search::parts_of`]),
    /// when a parallel search of it pays; None when the plain search takes it (see
    /// [`Search::value_threads`]).
    fn split_parts(
        &mut self,
        pos: u128,
        pool: Option<&rayon::ThreadPool>,
        split: Split,
    ) -> Option<(Vec<Part>, u32)> {
        let mut parts = Vec::new();
        let known = self.parts_of(pos, &mut Vec::new(), &mut parts);
        self.splits(&parts, pool, split).then_some((parts, known))
    }

    /// Whether a position of components `parts` (sorted by size) is worth splitting.
    fn splits(&self, parts: &[Part], pool: Option<&rayon::ThreadPool>, split: Split) -> bool {
        let threads = pool.map_or_else(rayon::current_num_threads, |p| p.current_num_threads());
        threads > 1 && parts.last().is_some_and(|c| c.size >= split.min_cells)
    }

    /// Runs `work` on the pool while this thread polls `ctl` (and halts the work when it
    /// fails); the work's nodes are added to this search's.
    fn on_pool<R: Send>(
        &mut self,
        ctl: &dyn Control,
        pool: Option<&rayon::ThreadPool>,
        split: Split,
        work: impl FnOnce(&mut Self, &Shared) -> Result<R> + Send,
    ) -> Result<R> {
        let shared = Shared {
            stop: Halt {
                flag: AtomicBool::new(false),
                parent: None,
            },
            nodes: AtomicU64::new(0),
            finished: AtomicU64::new(0),
            threads: pool.map_or_else(rayon::current_num_threads, |p| p.current_num_threads()),
            split,
        };
        let base = self.nodes;
        let done: Mutex<Option<Result<R>>> = Mutex::new(None);
        let finished = Condvar::new();
        let mut failed = None;
        let me = &mut *self;
        let (sh, done, finished) = (&shared, &done, &finished);
        let r = in_place_scope(pool, |sc| {
            sc.spawn(move |_| {
                let r = work(me, sh);
                *lock(done) = Some(r);
                finished.notify_all();
            });
            loop {
                let mut g = lock(done);
                if let Some(r) = g.take() {
                    return r;
                }
                g = finished
                    .wait_timeout(g, Duration::from_millis(20))
                    .unwrap_or_else(|p| p.into_inner())
                    .0;
                if let Some(r) = g.take() {
                    return r;
                }
                drop(g);
                if failed.is_none() {
                    let nodes = base + sh.nodes.load(Ordering::Relaxed);
                    if let Err(e) = ctl.check(nodes, 0) {
                        failed = Some(e);
                        sh.stop.flag.store(true, Ordering::Relaxed);
                    }
                }
            }
        });
        // The root's own nodes are counted in `self.nodes` already; the other threads' not.
        self.nodes += shared.finished.load(Ordering::Relaxed);
        match failed {
            Some(e) => Err(e),
            None => r,
        }
    }

    /// A search on the same board and tables for one thread of a parallel search, halted by
    /// `halt`.
    fn worker<'w>(&self, halt: &'w Halt<'w>) -> Search<'w, B>
    where
        'a: 'w,
    {
        Search {
            board: self.board,
            table: self.table.clone(),
            small: self.small.clone(),
            known: self.known,
            nodes: 0,
            pool: Vec::new(),
            keys: super::KeyCache::new(),
            halt: Some(halt),
        }
    }
}

/// `op` in a rayon scope of `pool` (the global pool when `None`), run on this thread.
fn in_place_scope<'s, R>(
    pool: Option<&rayon::ThreadPool>,
    op: impl FnOnce(&rayon::Scope<'s>) -> R,
) -> R {
    match pool {
        Some(p) => p.in_place_scope(op),
        None => rayon::in_place_scope(op),
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// G(c), by iterative deepening as [`Search::exact`], each question split when `c` is large.
fn split_exact<B: Board + ?Sized>(
    s: &mut Search<'_, B>,
    c: Part,
    poll: &mut Poller,
    sh: &Shared,
) -> Result<u32> {
    if c.size < sh.split.min_cells {
        return s.exact(c, poll);
    }
    for k in 0..128 {
        if let Some(v) = split_in_set(s, c, 1 << k, poll, sh, &sh.stop, 0)? {
            return Ok(v);
        }
    }
    Err(too_large())
}

/// As [`Search::sum_in_set`], the largest part split when it is large and not too deep.
fn split_sum_in_set<B: Board + ?Sized>(
    s: &mut Search<'_, B>,
    parts: &[Part],
    set: u128,
    poll: &mut Poller,
    sh: &Shared,
    halt: &Halt<'_>,
    depth: u32,
) -> Result<Option<u32>> {
    let Some((&last, rest)) = parts.split_last() else {
        return Ok(Some(0));
    };
    if !splits(parts, sh, depth) {
        return s.sum_in_set(parts, set, poll);
    }
    let mut x = 0;
    for &c in rest {
        x ^= s.exact(c, poll)?;
    }
    Ok(split_in_set(s, last, xor_set(set, x), poll, sh, halt, depth)?.map(|v| v ^ x))
}

/// Whether a sum of `parts` (sorted by size) at `depth` splits its largest part's options.
fn splits(parts: &[Part], sh: &Shared, depth: u32) -> bool {
    depth <= sh.split.depth && parts.last().is_some_and(|c| c.size >= sh.split.min_cells)
}

/// As [`Search::in_set`], the options shared among the threads.
#[allow(clippy::too_many_arguments)]
fn split_in_set<B: Board + ?Sized>(
    s: &mut Search<'_, B>,
    c: Part,
    set: u128,
    poll: &mut Poller,
    sh: &Shared,
    halt: &Halt<'_>,
    depth: u32,
) -> Result<Option<u32>> {
    s.node(c, set, poll, |s, set, covered, poll| {
        split_options(s, c.cells, set, covered, poll, sh, halt, depth)
    })
}

/// An option not settled by the tables: its parts to search (sorted by size) and the XOR of
/// the known ones.
struct Open {
    parts: Vec<Part>,
    known: u32,
}

/// What the threads of one split node share.
struct Taking {
    /// The values G may still have.
    p: Values,
    /// The next option to take.
    next: usize,
    /// The node's answer, once settled before every option is.
    settled: Option<Settled>,
    /// The first error of a thread (the node stops).
    failed: Option<Error>,
}

/// As [`Search::search_options`]: the options the tables settle at once, then the easiest
/// open one alone, then the others shared among the threads.
#[allow(clippy::too_many_arguments)]
fn split_options<B: Board + ?Sized>(
    s: &mut Search<'_, B>,
    c: u128,
    set: u128,
    covered: u32,
    poll: &mut Poller,
    sh: &Shared,
    halt: &Halt<'_>,
    depth: u32,
) -> Result<Settled> {
    // The first half of the node as one thread does it; its options left, each with its
    // parts (smallest first) of its own, to be shared among the threads.
    let mut nb = s.take();
    let opened = s.open_options(c, set, covered, &mut nb);
    let n = nb.opts.len();
    let open: Vec<Open> = nb
        .pending
        .iter()
        .map(|q| {
            let mut parts = nb.parts[q.parts.clone()].to_vec();
            parts.sort_unstable_by_key(|r| r.size);
            Open {
                parts,
                known: q.known,
            }
        })
        .collect();
    s.pool.push(nb);
    let mut p = match opened {
        Opened::Settled(done) => return Ok(done),
        Opened::Open(p) => p,
    };
    let set = set & low_bits(n + 1);
    // The easiest option alone, on this thread, when its own options split.
    let rest = match open.first() {
        Some(first) if splits(&first.parts, sh, depth + 1) => {
            let wanted = p.wanted();
            if wanted == 0 {
                p.settle(None);
            } else {
                let v = split_sum_in_set(
                    s,
                    &first.parts,
                    xor_set(wanted, first.known),
                    poll,
                    sh,
                    halt,
                    depth + 1,
                )?;
                p.settle(v.map(|v| v ^ first.known));
            }
            if !p.narrow(set) {
                return Ok(Settled::Within(p.excluded()));
            }
            &open[1..]
        }
        _ => &open[..],
    };
    if rest.is_empty() {
        return p.exact().map(Settled::Exact).ok_or_else(too_large);
    }
    // The others, taken in turn by the threads.
    let mine = Halt {
        flag: AtomicBool::new(false),
        parent: Some(halt),
    };
    let node = Mutex::new(Taking {
        p,
        next: 0,
        settled: None,
        failed: None,
    });
    let take = |s: &mut Search<'_, B>, poll: &mut Poller| loop {
        let (i, wanted) = {
            let mut g = lock(&node);
            if g.settled.is_some() || g.failed.is_some() || g.next >= rest.len() {
                return;
            }
            let i = g.next;
            g.next += 1;
            let wanted = g.p.wanted();
            if wanted == 0 {
                g.p.settle(None);
                if !g.p.narrow(set) {
                    g.settled = Some(Settled::Within(g.p.excluded()));
                    mine.flag.store(true, Ordering::Relaxed);
                }
                continue;
            }
            (i, wanted)
        };
        let q = &rest[i];
        let r = split_sum_in_set(
            s,
            &q.parts,
            xor_set(wanted, q.known),
            poll,
            sh,
            &mine,
            depth + 1,
        );
        let mut g = lock(&node);
        if g.settled.is_some() || g.failed.is_some() {
            return;
        }
        match r {
            Ok(v) => {
                g.p.settle(v.map(|v| v ^ q.known));
                if !g.p.narrow(set) {
                    g.settled = Some(Settled::Within(g.p.excluded()));
                    mine.flag.store(true, Ordering::Relaxed);
                }
            }
            Err(e) => {
                g.failed = Some(e);
                mine.flag.store(true, Ordering::Relaxed);
            }
        }
    };
    // A search per thread (this one's too: each counts its own nodes), halted by `mine`.
    let run = |mut w: Search<'_, B>| {
        let flag = Flag::new(sh);
        let mut poll = Poller::new(&flag, 0);
        take(&mut w, &mut poll);
        let _ = flag.check(w.nodes, 0);
        sh.finished.fetch_add(w.nodes, Ordering::Relaxed);
    };
    let mut workers: Vec<_> = (0..sh.threads.min(rest.len()))
        .map(|_| s.worker(&mine))
        .collect();
    let here = workers.pop();
    rayon::scope(|sc| {
        for w in workers {
            sc.spawn(move |_| run(w));
        }
        if let Some(w) = here {
            run(w);
        }
    });
    let g = node.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(e) = g.failed {
        return Err(e);
    }
    if let Some(r) = g.settled {
        return Ok(r);
    }
    g.p.exact().map(Settled::Exact).ok_or_else(too_large)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{brute, Chomp, Cram, NodeKayles, SimpleGraph};
    use crate::control::NoControl;
    use crate::engine::testing::{pool, Rng, StopAt};

    /// Splitting every node of a few cells: the values of random positions are those of the
    /// plain search and of brute force, on 1, 2 and 3 threads.
    #[test]
    fn parallel_values_match_brute_force_on_any_threads() {
        let every = Split {
            depth: 3,
            min_cells: 4,
        };
        let cram = Cram::new(4, 5).unwrap();
        let opts = |p: u128| {
            let mut out = Vec::new();
            cram.options(p, &mut out);
            out
        };
        let all = brute::values(cram.empty(), opts);
        let mut rng = Rng(7);
        let mut keys: Vec<u128> = all.keys().copied().collect();
        keys.sort_unstable();
        for threads in [1, 2, 3] {
            let pool = pool(threads);
            let mut search = Search::new(&cram, 1 << 16).unwrap();
            for _ in 0..150 {
                let pos = keys[rng.below(keys.len() as u64) as usize];
                let v = search
                    .value_threads(pos, &NoControl, Some(&pool), every)
                    .unwrap();
                assert_eq!(v, all[&pos], "{pos:#x} on {threads} threads");
                let z = search
                    .is_zero_threads(pos, &NoControl, Some(&pool), every)
                    .unwrap();
                assert_eq!(z, all[&pos] == 0);
            }
        }
        // Node Kayles and Chomp, fresh tables each time (no help from an earlier answer).
        let grid = NodeKayles::new(SimpleGraph::grid(4, 4).unwrap());
        let chomp = Chomp::new(4, 5).unwrap();
        let mut sequential = Search::new(&grid, 1 << 20).unwrap();
        let want = sequential.value(grid.start(), &NoControl).unwrap();
        let mut chomp_seq = Search::new(&chomp, 1 << 20).unwrap();
        let chomp_want = chomp_seq.value(chomp.start(), &NoControl).unwrap();
        for threads in [1, 2, 3] {
            let pool = pool(threads);
            let mut s = Search::new(&grid, 1 << 20).unwrap();
            let got = s.value_threads(grid.start(), &NoControl, Some(&pool), every);
            assert_eq!(got.unwrap(), want);
            let mut s = Search::new(&chomp, 1 << 20).unwrap();
            let got = s.value_threads(chomp.start(), &NoControl, Some(&pool), every);
            assert_eq!(got.unwrap(), chomp_want);
        }
    }

    /// A failing control stops every thread with its error; the search answers right after.
    #[test]
    fn parallel_interrupt_stops_every_thread() {
        let cram = Cram::new(5, 7).unwrap();
        let pool = pool(2);
        let split = Split {
            depth: 2,
            min_cells: 10,
        };
        let mut search = Search::new(&cram, 1 << 20).unwrap();
        assert_eq!(
            search.value_threads(cram.empty(), &StopAt(0), Some(&pool), split),
            Err(Error::Interrupted)
        );
        assert!(search.stats().nodes > 0);
        let small = Cram::new(4, 4).unwrap();
        let mut s = Search::new(&small, 1 << 20).unwrap();
        let got = s.value_threads(small.empty(), &StopAt(0), Some(&pool), split);
        assert_eq!(got, Ok(0));
    }
}
