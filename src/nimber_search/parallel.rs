//! The nimber search on several threads: ABDADA (Weill, 1996), every thread running the whole
//! search on the one table, each putting off the options that another is searching.
//!
//! - Every thread asks the root's questions itself, in the order one thread does, with the
//!   search's [`Table`](super::Table)s shared: what one learns, the others read at once (the
//!   table takes no lock to read, and never gives a wrong answer; see its notes). The first
//!   thread to answer the root stops the others.
//! - A thread marks each node of at least [`Split::mark_cells`] cells while it is in it (a
//!   small array of counters by the key's hash: a collision only changes an order). In a node
//!   it asks the eldest option (the easiest, the one most likely to settle the question) first,
//!   whatever the others do: so no thread starts an option's brothers before the eldest is
//!   settled, which in an "is G = 0?" question is most often the only one needed. Then it asks
//!   the options no other thread is in, and last those it put off, by then most often in the
//!   table. After each option that took a few dozen nodes or more it reads the table for the
//!   node again: another thread may have settled it. So the threads spread over the brothers of the nodes where every option must
//!   be asked, and meet where one option settles the node.
//! - Each thread settles its options in its own order: each answer rules out a value G(node)
//!   may have whatever the others say (see [`Search::search_options`]). The value found never
//!   depends on the threads or their timing; the nodes searched may.
//! - The small table is put to use whole before the threads start: its few MiB cost little,
//!   and the threads never stop to grow it.
//! - The thread that asked waits without the pool, polling the caller's [`Control`] every
//!   20 ms with the nodes searched so far; when it fails, every thread stops (each looks at the
//!   stop flag every few dozen nodes) and the search returns its error.
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

use super::{Part, Search};
use crate::board::Board;
use crate::control::Control;
use crate::error::{Error, Result};
use std::sync::atomic::{AtomicBool, AtomicU16, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// Where a parallel search uses its threads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split {
    /// The fewest cells of a position's largest component for the threads to search it; a
    /// smaller one is searched by one thread alone.
    pub min_cells: u32,
    /// The fewest cells of a node that a thread marks while it is in it (the others put it
    /// off); smaller nodes are searched by whichever thread meets them.
    pub mark_cells: u32,
}

impl Default for Split {
    /// Measured on Cram 5 x 8, 5 x 9 and 4 x 11 with 2 threads (see `benchmarks/board.md`).
    fn default() -> Self {
        Split {
            min_cells: 20,
            mark_cells: 12,
        }
    }
}

/// log2 of the counters of nodes threads are in.
const MARK_BITS: u32 = 16;

/// What the threads of one parallel search share.
pub(super) struct Team {
    /// Set when the root is answered or the caller's control failed: every thread stops.
    stop: AtomicBool,
    /// How many threads are in a node, by its key's hash.
    marks: Box<[AtomicU16]>,
    mark_cells: u32,
    /// Nodes searched by the threads so far, for the progress (each adds its own as it goes).
    nodes: AtomicU64,
    /// Nodes searched by the threads done (the count the search keeps).
    finished: AtomicU64,
    /// Threads still running.
    running: AtomicUsize,
}

/// The counter of key `key` among `2^MARK_BITS`.
#[inline]
fn mark_of(key: u128) -> usize {
    let h = (key as u64 ^ (key >> 64) as u64 ^ (key >> 64) as u64 >> 29)
        .wrapping_mul(0x9e37_79b9_7f4a_7c15);
    (h >> (64 - MARK_BITS)) as usize
}

impl Team {
    fn new(split: Split, threads: usize) -> Team {
        Team {
            stop: AtomicBool::new(false),
            marks: (0..1 << MARK_BITS).map(|_| AtomicU16::new(0)).collect(),
            mark_cells: split.mark_cells,
            nodes: AtomicU64::new(0),
            finished: AtomicU64::new(0),
            running: AtomicUsize::new(threads),
        }
    }

    /// The fewest cells of a node the threads mark (and read the table for again after a long
    /// option).
    #[inline]
    pub(super) fn mark_cells(&self) -> u32 {
        self.mark_cells
    }

    /// Whether the threads must stop.
    #[inline]
    pub(super) fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Marks node `c` as searched by this thread, when it is large enough; the mark to
    /// [`Team::leave`].
    #[inline]
    pub(super) fn enter(&self, c: Part) -> Option<usize> {
        (c.size >= self.mark_cells).then(|| {
            let m = mark_of(c.key);
            self.marks[m].fetch_add(1, Ordering::Relaxed);
            m
        })
    }

    /// Takes back the mark of [`Team::enter`].
    #[inline]
    pub(super) fn leave(&self, mark: Option<usize>) {
        if let Some(m) = mark {
            self.marks[m].fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// Whether another thread is in the largest of an option's `parts` (the one searched).
    #[inline]
    pub(super) fn busy(&self, parts: &[Part]) -> bool {
        parts.iter().max_by_key(|p| p.size).is_some_and(|p| {
            p.size >= self.mark_cells && self.marks[mark_of(p.key)].load(Ordering::Relaxed) != 0
        })
    }
}

/// The control a thread polls: the stop flag, and the shared count of nodes.
struct Flag<'s> {
    team: &'s Team,
    /// Nodes of this thread's search already added to the count.
    told: AtomicU64,
}

impl Control for Flag<'_> {
    fn check(&self, done: u64, _total: u64) -> Result<()> {
        let before = self.told.swap(done, Ordering::Relaxed);
        self.team
            .nodes
            .fetch_add(done.saturating_sub(before), Ordering::Relaxed);
        if self.team.stopped() {
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
        match self.team_threads(pos, pool, split) {
            Some(threads) => self.on_pool(ctl, pool, threads, split, |w, c| w.value(pos, c)),
            None => self.value(pos, ctl),
        }
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
        match self.team_threads(pos, pool, split) {
            Some(threads) => self.on_pool(ctl, pool, threads, split, |w, c| w.is_zero(pos, c)),
            None => self.is_zero(pos, ctl),
        }
    }

    /// The threads of `pool` when they search `pos` together: more than one, and the largest
    /// component of `pos` of at least `split.min_cells` cells; else `None` (the plain search).
    fn team_threads(
        &mut self,
        pos: u128,
        pool: Option<&rayon::ThreadPool>,
        split: Split,
    ) -> Option<usize> {
        let threads = pool.map_or_else(rayon::current_num_threads, |p| p.current_num_threads());
        if threads < 2 {
            return None;
        }
        let mut parts = Vec::new();
        self.parts_of(pos, &mut Vec::new(), &mut parts);
        parts
            .last()
            .is_some_and(|c| c.size >= split.min_cells)
            .then_some(threads)
    }

    /// Runs `work` on `threads` searches of the pool sharing this one's tables, while this
    /// thread polls `ctl`: the first answer stops the others (and so does `ctl` failing, whose
    /// error is returned). Every thread's nodes are added to this search's.
    fn on_pool<R: Send>(
        &mut self,
        ctl: &dyn Control,
        pool: Option<&rayon::ThreadPool>,
        threads: usize,
        split: Split,
        work: impl Fn(&mut Search<'_, B>, &dyn Control) -> Result<R> + Sync,
    ) -> Result<R> {
        let team = Team::new(split, threads);
        // Every bucket of the small table (2 MiB at most) in use from the start. Before a full
        // bucket grew the table too (`e4b2de2`), growth waited for one thread's own count of
        // entries to reach a multiple of 64, and with the entries shared out none reached it
        // (Cram 5x8 on two threads: 256 entries all along, 15,000 components of 4 to 8 cells
        // searched again); now it only spares the threads the moves of growing.
        self.small.reserve(u64::MAX);
        let base = self.nodes;
        let done: Mutex<Option<Result<R>>> = Mutex::new(None);
        let finished = Condvar::new();
        let mut failed = None;
        let profiles = Mutex::new(super::Profile::default());
        let me = &*self;
        let (team, done, finished, work) = (&team, &done, &finished, &work);
        let profiles = &profiles;
        in_place_scope(pool, |sc| {
            for i in 0..threads {
                sc.spawn(move |_| {
                    // Counts this thread out even when its work panics (the scope passes the
                    // panic on once every thread is done).
                    let _out = Out(team, finished);
                    let mut w = me.worker(team, i == 0);
                    let flag = Flag {
                        team,
                        told: AtomicU64::new(0),
                    };
                    let r = work(&mut w, &flag);
                    let _ = flag.check(w.nodes, 0);
                    team.finished.fetch_add(w.nodes, Ordering::Relaxed);
                    if let Some(p) = w.profile.as_deref() {
                        lock(profiles).add(p);
                    }
                    let mut g = lock(done);
                    // A thread stopped by another's answer (or by the control) has none.
                    let stopped = matches!(r, Err(Error::Interrupted)) && team.stopped();
                    if g.is_none() && !stopped {
                        *g = Some(r);
                        team.stop.store(true, Ordering::Relaxed);
                    }
                });
            }
            let mut g = lock(done);
            loop {
                if g.is_some() || team.running.load(Ordering::Relaxed) == 0 {
                    break;
                }
                g = finished
                    .wait_timeout(g, Duration::from_millis(20))
                    .unwrap_or_else(|p| p.into_inner())
                    .0;
                if failed.is_none() && g.is_none() {
                    let nodes = base + team.nodes.load(Ordering::Relaxed);
                    if let Err(e) = ctl.check(nodes, 0) {
                        failed = Some(e);
                        team.stop.store(true, Ordering::Relaxed);
                    }
                }
            }
        });
        self.nodes += team.finished.load(Ordering::Relaxed);
        if let Some(p) = self.profile.as_deref_mut() {
            p.add(&lock(profiles));
        }
        let r = lock(done).take();
        match (failed, r) {
            (Some(e), _) => Err(e),
            (None, Some(r)) => r,
            (None, None) => Err(Error::Interrupted),
        }
    }

    /// A search on the same board and tables for one thread of a parallel search (the `first`
    /// reports the root's progress).
    fn worker<'w>(&self, team: &'w Team, first: bool) -> Search<'w, B>
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
            team: Some(team),
            profile: self.profile.as_ref().map(|_| Box::default()),
            // The caller's race (the tests race often), each thread's attempts on its own
            // nodes.
            limit: {
                let mut limit = super::race::Limit::default();
                limit.tuning = self.limit.tuning;
                limit
            },
            policy: self.policy,
            hook: self.hook.for_thread(first),
        }
    }
}

/// A thread of [`Search::on_pool`] done: it stops the others (an answer, an error or a panic
/// ends the search) and wakes the thread that waits.
struct Out<'t>(&'t Team, &'t Condvar);

impl Drop for Out<'_> {
    fn drop(&mut self) {
        self.0.stop.store(true, Ordering::Relaxed);
        self.0.running.fetch_sub(1, Ordering::Relaxed);
        self.1.notify_all();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{brute, ArcKayles, Chomp, Cram, NodeKayles, SimpleGraph};
    use crate::control::NoControl;
    use crate::engine::testing::{pool, Deadline, Rng};
    use crate::nimber_search::race;
    use std::time::Instant;

    /// Every thread count this file tests.
    const THREADS: [usize; 4] = [1, 2, 3, 4];

    fn options<B: Board>(game: &B, pos: u128) -> Vec<u128> {
        let mut out = Vec::new();
        game.options(pos, &mut out);
        out
    }

    /// On 1 to 4 threads marking every node of 4 cells or more: the values and outcomes of
    /// `samples` random positions reachable from `start`, with at least two thirds of its cells
    /// (vertices, edges), are those of brute force.
    fn matches_brute_force<B: Board>(game: &B, start: u128, samples: usize, seed: u64) {
        let every = Split {
            min_cells: 4,
            mark_cells: 4,
        };
        let all = brute::values(start, |p| options(game, p));
        // The larger positions (the threads meet in their searches), in a fixed order.
        let cells = start.count_ones() * 2 / 3;
        let mut keys: Vec<u128> = all
            .keys()
            .filter(|p| p.count_ones() >= cells)
            .copied()
            .collect();
        keys.sort_unstable();
        for threads in THREADS {
            let pool = pool(threads);
            let mut rng = Rng(seed);
            // A small table: entries replaced while the threads read them.
            let mut search = Search::new(game, 1 << 14).unwrap();
            for _ in 0..samples {
                let pos = keys[rng.below(keys.len() as u64) as usize];
                let v = search.value_threads(pos, &NoControl, Some(&pool), every);
                assert_eq!(v, Ok(all[&pos]), "{pos:#x} on {threads} threads");
                let z = search.is_zero_threads(pos, &NoControl, Some(&pool), every);
                assert_eq!(z, Ok(all[&pos] == 0), "{pos:#x} on {threads} threads");
            }
        }
    }

    /// The race of `race.rs` on the threads of a parallel search: with a tuning that races at
    /// every gap and stops attempts after a node or two, every thread's attempts start and stop
    /// beside the others' on the shared tables, and the values of the larger positions of Cram
    /// 4 x 4 and Node Kayles on the 3 x 5 grid on 2 to 4 threads are still brute force's; the
    /// threads' profiles show that they raced and stopped attempts.
    #[test]
    fn parallel_race_keeps_every_value() {
        let cram = Cram::new(4, 4).unwrap();
        raced_matches_brute_force(&cram, cram.empty());
        let nk = NodeKayles::new(SimpleGraph::grid(3, 5).unwrap());
        raced_matches_brute_force(&nk, nk.start());
    }

    /// On 2 to 4 threads, each with one search raced at every gap: the values of the positions
    /// reachable from `start` with at least two thirds of its cells, the largest first, are
    /// brute force's, and the threads raced and stopped attempts.
    fn raced_matches_brute_force<B: Board>(game: &B, start: u128) {
        let tuning = race::Tuning {
            first: 1,
            growth: 2,
            deepen: 1,
            from: 1,
        };
        let every = Split {
            min_cells: 4,
            mark_cells: 4,
        };
        let all = brute::values(start, |p| options(game, p));
        let cells = start.count_ones() * 2 / 3;
        let mut keys: Vec<(u128, u32)> = all
            .iter()
            .filter(|(p, _)| p.count_ones() >= cells)
            .map(|(&p, &v)| (p, v))
            .collect();
        // The largest first, in a fixed order.
        keys.sort_unstable_by_key(|&(p, _)| (std::cmp::Reverse(p.count_ones()), p));
        for threads in [2, 3, 4] {
            let pool = pool(threads);
            let mut search = Search::new(game, 1 << 16)
                .unwrap()
                .with_tuning(tuning)
                .with_profile();
            for &(pos, v) in &keys {
                let got = search.value_threads(pos, &NoControl, Some(&pool), every);
                assert_eq!(got, Ok(v), "{pos:#x} on {threads} threads");
            }
            let p = search.profile().unwrap();
            assert!(
                p.races > 0 && p.race_spent > 0,
                "{threads} threads: {} races, {} nodes stopped",
                p.races,
                p.race_spent
            );
        }
    }

    #[test]
    fn parallel_values_match_brute_force_on_any_threads() {
        let cram = Cram::new(4, 5).unwrap();
        matches_brute_force(&cram, cram.empty(), 120, 7);
        let nk = NodeKayles::new(SimpleGraph::grid(5, 5).unwrap());
        matches_brute_force(&nk, nk.start(), 80, 8);
        let ak = ArcKayles::new(SimpleGraph::grid(3, 5).unwrap());
        matches_brute_force(&ak, ak.start(), 80, 9);
        let chomp = Chomp::new(5, 6).unwrap();
        matches_brute_force(&chomp, chomp.start(), 80, 10);
    }

    /// A position `moves` random moves into the game from `start` (fewer where it ends).
    fn played<B: Board>(game: &B, start: u128, moves: usize, rng: &mut Rng) -> u128 {
        let mut pos = start;
        for _ in 0..moves {
            let opts = options(game, pos);
            if opts.is_empty() {
                break;
            }
            pos = opts[rng.below(opts.len() as u64) as usize];
        }
        pos
    }

    /// Mid-game positions of boards too large for brute force: every thread count gives the
    /// value of one thread, each with a fresh table (no help from an earlier answer), with the
    /// default split and with every node of 6 cells or more marked.
    fn matches_one_thread<B: Board>(game: &B, start: u128, moves: usize, seed: u64) {
        let mut rng = Rng(seed);
        let fine = Split {
            min_cells: 6,
            mark_cells: 6,
        };
        let pools: Vec<_> = THREADS.iter().map(|&k| pool(k)).collect();
        for _ in 0..3 {
            let pos = played(game, start, moves, &mut rng);
            let want = Search::new(game, 1 << 20).unwrap().value(pos, &NoControl);
            for (pool, split) in pools
                .iter()
                .flat_map(|p| [(p, fine), (p, Split::default())])
            {
                let mut s = Search::new(game, 1 << 20).unwrap();
                let got = s.value_threads(pos, &NoControl, Some(pool), split);
                assert_eq!(got, want, "{pos:#x}, {split:?}");
                let mut s = Search::new(game, 1 << 20).unwrap();
                let zero = s.is_zero_threads(pos, &NoControl, Some(pool), split);
                assert_eq!(zero, want.clone().map(|v| v == 0), "{pos:#x}, {split:?}");
            }
        }
    }

    #[test]
    fn parallel_values_match_one_thread_mid_game() {
        let cram = Cram::new(5, 6).unwrap();
        matches_one_thread(&cram, cram.empty(), 2, 11);
        let nk = NodeKayles::new(SimpleGraph::grid(5, 6).unwrap());
        matches_one_thread(&nk, nk.start(), 2, 12);
        let ak = ArcKayles::new(SimpleGraph::grid(4, 5).unwrap());
        matches_one_thread(&ak, ak.start(), 4, 13);
        // Chomp 7 x 8 was once cut to 6 x 7 here: with this 1 MiB table it ran ten times
        // longer on 3 or 4 threads now and then. Timed again, both questions on every pool and
        // split, 40 seeds at `690a385` (where that was seen) and 150 on the search of
        // 28 Nov 2026: none took more than 60 ms.
        let chomp = Chomp::new(7, 8).unwrap();
        matches_one_thread(&chomp, chomp.start(), 2, 14);
    }

    /// A failing control stops the search with its error within a second, on every thread
    /// count: the call returns only once every thread it started has stopped (their scope
    /// ends), and the nodes they searched are counted. The search answers right after.
    #[test]
    fn parallel_interrupt_stops_every_thread_within_a_second() {
        // Minutes of search: Cram 6 x 7 (value 5), and for "is it 0?" (which one winning move
        // answers) two 6 x 7 regions side by side, which take the value of one.
        let cram = Cram::new(6, 7).unwrap();
        let wide = Cram::new(6, 15).unwrap();
        let twice = wide
            .position((0..6).map(|r| 1 << (15 * r + 7)).sum())
            .unwrap();
        let small = Cram::new(4, 4).unwrap();
        for threads in THREADS {
            let pool = pool(threads);
            for zero in [false, true] {
                let t = Instant::now();
                let stop = Deadline(t + Duration::from_millis(100));
                let (r, nodes) = if zero {
                    let mut search = Search::new(&wide, 1 << 20).unwrap();
                    let r = search.is_zero_threads(twice, &stop, Some(&pool), Split::default());
                    (r, search.stats().nodes)
                } else {
                    let mut search = Search::new(&cram, 1 << 20).unwrap();
                    let r =
                        search.value_threads(cram.empty(), &stop, Some(&pool), Split::default());
                    (r.map(|_| true), search.stats().nodes)
                };
                let took = t.elapsed();
                assert_eq!(r, Err(Error::Interrupted), "{threads} threads");
                assert!(
                    took < Duration::from_millis(1100),
                    "{threads} threads: {took:?}"
                );
                assert!(nodes > 0);
            }
            let mut s = Search::new(&small, 1 << 20).unwrap();
            let got = s.value_threads(small.empty(), &stop_never(), Some(&pool), Split::default());
            assert_eq!(got, Ok(0));
        }
    }

    fn stop_never() -> Deadline {
        Deadline(Instant::now() + Duration::from_secs(3600))
    }
}
