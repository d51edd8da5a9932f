//! Explored state graphs whose options are disjunctive sums: the engine behind `StateGame`.
//!
//! Vertices `0..V` are (canonical) component states. Each vertex has a list of options, and each
//! option is a multiset of component vertices (the parts the option splits into; none for an
//! option that ends the game in that component). The value of an option is the XOR of its parts'
//! values, and G(u) is the mex of its options' values.
//!
//! The graph grows: an explorer appends vertices with [`StateGraph::push_option`] and
//! [`StateGraph::end_vertex`], then [`StateGraph::solve`] settles every vertex added since the last
//! solve, by topological layers (Kahn's algorithm from the sinks) in parallel with rayon, like
//! [`Graph::grundy_values`](crate::graph::Graph::grundy_values). Solved values stay: later
//! questions reuse them. A cycle gives [`Error::Cycle`] with the vertices of one cycle. A loopy
//! game (cycles allowed, every option one state) is solved instead by
//! [`StateGraph::solve_loopy`]: Smith's generalized values of the new vertices, by the engine of
//! [`crate::graph::loopy`], the vertices solved before standing in as small gadgets.
//!
//! ```
//! use grundy::control::NoControl;
//! use grundy::graph::state::StateGraph;
//! // Vertex 0: no options. 1: one option, {0}. 2: options {} and {1, 1} (a sum of two copies).
//! let mut g = StateGraph::new();
//! g.end_vertex();
//! g.push_option(&[0]);
//! g.end_vertex();
//! g.push_option(&[]);
//! g.push_option(&[1, 1]);
//! g.end_vertex();
//! g.solve(&NoControl).unwrap();
//! assert_eq!(g.values(), &[0, 1, 1]);
//! ```

use crate::control::Control;
use crate::control::Poller;
use crate::error::{Error, Result};
use crate::graph::loopy::{generalized_values_csr, INFINITE};
use crate::graph::{counting_sort, mex_of, settle_by_layers, zeroed};
use crate::memory;
use std::collections::hash_map::{Entry, HashMap};
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// A growing graph whose options are multisets of component vertices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateGraph {
    /// `V + 1` entries: the options of `u` are `opt_off[u]..opt_off[u + 1]`.
    opt_off: Vec<u64>,
    /// One entry per option plus one: option `j` is `parts[part_off[j]..part_off[j + 1]]`.
    part_off: Vec<u64>,
    parts: Vec<u32>,
    /// G(u) for `u < values.len()` (the solved vertices).
    values: Vec<u32>,
}

impl Default for StateGraph {
    fn default() -> Self {
        Self::new()
    }
}

impl StateGraph {
    /// An empty graph.
    pub fn new() -> Self {
        StateGraph {
            opt_off: vec![0],
            part_off: vec![0],
            parts: Vec::new(),
            values: Vec::new(),
        }
    }

    /// The number of vertices whose options are recorded.
    pub fn num_vertices(&self) -> usize {
        self.opt_off.len() - 1
    }

    /// The number of options over all vertices.
    pub fn num_options(&self) -> usize {
        self.part_off.len() - 1
    }

    /// The number of vertices solved so far (a prefix `0..num_solved()`).
    pub fn num_solved(&self) -> usize {
        self.values.len()
    }

    /// Adds an option with the given parts to the vertex being recorded (vertex
    /// `num_vertices()`).
    pub fn push_option(&mut self, parts: &[u32]) {
        self.parts.extend_from_slice(parts);
        self.part_off.push(self.parts.len() as u64);
    }

    /// Closes the vertex being recorded: the options pushed since the last call are its options.
    pub fn end_vertex(&mut self) {
        self.opt_off.push(self.num_options() as u64);
    }

    /// Forgets every vertex from `n` on (and any options pushed for an unfinished vertex), so
    /// that a failed exploration leaves the graph as it was. Solved vertices below `n` stay.
    pub fn truncate(&mut self, n: usize) {
        let n = n.min(self.num_vertices());
        self.opt_off.truncate(n + 1);
        let m = self.opt_off[n] as usize;
        self.part_off.truncate(m + 1);
        self.parts.truncate(self.part_off[m] as usize);
        self.values.truncate(n);
    }

    /// The option ids of `u` (a range into [`Self::option_parts`]). Panics when `u` is not a
    /// recorded vertex.
    pub fn option_ids(&self, u: usize) -> std::ops::Range<usize> {
        self.opt_off[u] as usize..self.opt_off[u + 1] as usize
    }

    /// The parts of option `j`.
    pub fn option_parts(&self, j: usize) -> &[u32] {
        &self.parts[self.part_off[j] as usize..self.part_off[j + 1] as usize]
    }

    /// The values of the solved vertices `0..num_solved()`.
    pub fn values(&self) -> &[u32] {
        &self.values
    }

    /// The value of option `j` (the XOR of its parts' values), when all its parts are solved.
    pub fn option_value(&self, j: usize) -> Option<u32> {
        self.option_parts(j)
            .iter()
            .try_fold(0u32, |x, &p| self.values.get(p as usize).map(|v| x ^ v))
    }

    /// The CSR arrays `(opt_off, part_off, parts)`: what a solver for another kind of play (a
    /// loopy solver, say) needs.
    pub fn csr(&self) -> (&[u64], &[u64], &[u32]) {
        (&self.opt_off, &self.part_off, &self.parts)
    }

    /// Settles every vertex recorded since the last successful solve. Fails with
    /// [`Error::Invalid`] when an option names a vertex that is not recorded, with
    /// [`Error::Cycle`] (vertex ids) when the new vertices hold a cycle, and with the control's
    /// error when it asks to stop; on failure no new value is kept. Runs on the current rayon
    /// pool.
    pub fn solve(&mut self, ctl: &dyn Control) -> Result<()> {
        let lo = self.values.len();
        let n = self.num_vertices();
        if lo == n {
            return Ok(());
        }
        let k = n - lo;
        let first = self.part_off[self.opt_off[lo] as usize] as usize;
        let refs = &self.parts[first..];
        if let Some(&bad) = refs.iter().find(|&&p| p as usize >= n) {
            return Err(Error::Invalid(format!(
                "an option names vertex {bad}, but only {n} vertices are recorded"
            )));
        }
        let m = refs.iter().filter(|&&p| p as usize >= lo).count();
        memory::check((k as u64 + 1) * 8 + m as u64 * 4 + k as u64 * 16)?;
        ctl.check(0, k as u64)?;
        let mut poll = Poller::new(ctl, k as u64);
        let this = &*self;
        // Who depends on each new vertex, once per reference: the reverse graph.
        let deps = || {
            (lo..n).flat_map(move |u| {
                this.option_ids(u).flat_map(move |j| {
                    this.option_parts(j)
                        .iter()
                        .filter(move |&&p| p as usize >= lo)
                        .map(move |&p| (p - lo as u32, (u - lo) as u32))
                })
            })
        };
        let (roff, rsrc) = counting_sort(k, m, deps, &mut poll)?;
        let mut remaining = zeroed::<u32>(k)?;
        for &u in &rsrc {
            remaining[u as usize] += 1;
        }
        let remaining: Vec<AtomicU32> = remaining.into_iter().map(AtomicU32::new).collect();
        let new: Vec<AtomicU32> = (0..k).map(|_| AtomicU32::new(0)).collect();
        // A part is a vertex solved before (its value is kept) or a new one (settled in `new`).
        let get = |p: u32| match (p as usize).checked_sub(lo) {
            None => this.values[p as usize],
            Some(i) => new[i].load(Relaxed),
        };
        let settled = settle_by_layers(
            &roff,
            &rsrc,
            &remaining,
            &new,
            |v, scratch| {
                let ids = this.option_ids(v as usize + lo);
                let d = ids.len();
                let xor = |j: usize| this.option_parts(j).iter().fold(0, |x, &p| x ^ get(p));
                mex_of(d, ids.map(xor), scratch)
            },
            None,
            &mut poll,
        )?;
        if settled < k {
            return Err(Error::Cycle(self.find_cycle(lo, &remaining)));
        }
        self.values
            .extend(new.into_iter().map(AtomicU32::into_inner));
        Ok(())
    }

    /// Settles every vertex recorded since the last solve by Smith's generalized Sprague-Grundy
    /// function ([`crate::graph::loopy`]): cycles are allowed, and a vertex gets its finite value or
    /// [`INFINITE`] (its K is the set of finite values of its options). Every option must have
    /// exactly one part (a loopy sum of components is not a single-state option):
    /// [`Error::Invalid`] otherwise, and when an option names a vertex that is not recorded. On
    /// failure no new value is kept. Do not mix with [`Self::solve`] on one graph.
    ///
    /// Vertices solved before stay as they are (they reach only vertices recorded before them)
    /// and are not solved again: the new vertices are solved together with small stand-ins for the
    /// old vertices they name. An old vertex of finite value `v` stands as a Nim heap `H_v`
    /// (options `H_0..H_{v-1}`); an old vertex of value infinity(K) as a vertex with a move to
    /// itself and to `H_x` for each `x` in K, whose generalized value is again infinity(K). What a
    /// new vertex's labelling asks of an option (its value, and whether it has an option of value
    /// `i`) is the same for an old vertex and its stand-in, so the new values are those of the
    /// whole graph. The cost is that of [`generalized_values_csr`] on the new vertices, their
    /// options and the stand-ins (`M (M + 1) / 2` edges for the heaps, `M` the largest finite
    /// value they stand for).
    ///
    /// ```
    /// use grundy::control::NoControl;
    /// use grundy::graph::loopy::INFINITE;
    /// use grundy::graph::state::StateGraph;
    /// // 0: no move; 1 -> 0, 1 -> 2; 2 -> 1: 1 and 2 are a loop with an exit.
    /// let mut g = StateGraph::new();
    /// g.end_vertex();
    /// g.solve_loopy(&NoControl).unwrap();
    /// for opts in [&[0u32, 2][..], &[1][..]] {
    ///     for &o in opts {
    ///         g.push_option(&[o]);
    ///     }
    ///     g.end_vertex();
    /// }
    /// g.solve_loopy(&NoControl).unwrap();
    /// assert_eq!(g.values(), &[0, 1, 0]);
    /// // 3 -> 3, 3 -> 2: infinity({0}).
    /// g.push_option(&[3]);
    /// g.push_option(&[2]);
    /// g.end_vertex();
    /// g.solve_loopy(&NoControl).unwrap();
    /// assert_eq!(g.values()[3], INFINITE);
    /// ```
    pub fn solve_loopy(&mut self, ctl: &dyn Control) -> Result<()> {
        let lo = self.values.len();
        let n = self.num_vertices();
        if lo == n {
            return Ok(());
        }
        let k = n - lo;
        let (j0, j1) = (self.opt_off[lo] as usize, self.num_options());
        for j in j0..j1 {
            let parts = self.option_parts(j);
            if parts.len() != 1 {
                return Err(Error::Invalid(format!(
                    "a loopy game's options must each be one state, but an option has {} parts",
                    parts.len()
                )));
            }
            if parts[0] as usize >= n {
                return Err(Error::Invalid(format!(
                    "an option names vertex {}, but only {n} vertices are recorded",
                    parts[0]
                )));
            }
        }
        // The finite values of the options of old vertex `w` (its K when it is infinite).
        let finite_of = |w: usize| {
            self.option_ids(w)
                .filter_map(|j| self.option_value(j))
                .filter(|&x| x != INFINITE)
        };
        // Stand-ins for the old infinite vertices named, numbered after the heaps.
        let mut infinite: Vec<u32> = Vec::new();
        let mut slot: HashMap<u32, u32> = HashMap::new();
        let mut top: Option<u32> = None;
        for j in j0..j1 {
            let p = self.option_parts(j)[0];
            if p as usize >= lo {
                continue;
            }
            match self.values[p as usize] {
                INFINITE => {
                    if let Entry::Vacant(e) = slot.entry(p) {
                        e.insert(infinite.len() as u32);
                        infinite.push(p);
                        top = finite_of(p as usize).chain(top).max();
                    }
                }
                v => top = top.max(Some(v)),
            }
        }
        let heaps = top.map_or(0, |m| m as usize + 1);
        let heap_edges = (heaps * heaps.saturating_sub(1) / 2) as u64;
        let inf_edges: u64 = infinite
            .iter()
            .map(|&w| 1 + self.option_ids(w as usize).len() as u64)
            .sum();
        let total = k + heaps + infinite.len();
        let edges = (j1 - j0) as u64 + heap_edges + inf_edges;
        memory::check((total as u64 + 1) * 8 + edges * 4)?;
        if total as u64 >= INFINITE as u64 - 2 {
            return Err(Error::Invalid(format!(
                "a loopy game may have at most {} states",
                INFINITE - 3
            )));
        }
        let heap = |v: u32| (k + v as usize) as u32;
        let mut off: Vec<u64> = Vec::with_capacity(total + 1);
        let mut tgt: Vec<u32> = Vec::with_capacity(edges as usize);
        off.push(0);
        for u in lo..n {
            for j in self.option_ids(u) {
                let p = self.option_parts(j)[0];
                tgt.push(if p as usize >= lo {
                    p - lo as u32
                } else {
                    match self.values[p as usize] {
                        INFINITE => (k + heaps) as u32 + slot[&p],
                        v => heap(v),
                    }
                });
            }
            off.push(tgt.len() as u64);
        }
        for v in 0..heaps as u32 {
            tgt.extend((0..v).map(heap));
            off.push(tgt.len() as u64);
        }
        for (i, &w) in infinite.iter().enumerate() {
            tgt.push((k + heaps + i) as u32);
            tgt.extend(finite_of(w as usize).map(heap));
            off.push(tgt.len() as u64);
        }
        let values = generalized_values_csr(&off, &tgt, ctl, None)?;
        self.values.extend_from_slice(&values[..k]);
        Ok(())
    }

    /// One cycle among the new vertices left unsettled: each has an unsettled part in some
    /// option, so following those comes back to a vertex already seen.
    fn find_cycle(&self, lo: usize, remaining: &[AtomicU32]) -> Vec<u64> {
        let pending = |u: usize| u >= lo && remaining[u - lo].load(Relaxed) > 0;
        let Some(mut u) = (lo..self.num_vertices()).find(|&u| pending(u)) else {
            return Vec::new();
        };
        let mut seen_at = std::collections::HashMap::new();
        let mut path: Vec<u64> = Vec::new();
        loop {
            if let Some(&i) = seen_at.get(&u) {
                return path.split_off(i);
            }
            seen_at.insert(u, path.len());
            path.push(u as u64);
            let next = self
                .option_ids(u)
                .flat_map(|j| self.option_parts(j).iter())
                .find(|&&p| pending(p as usize));
            match next {
                Some(&p) => u = p as usize,
                None => return path, // cannot happen: u is pending because a part is
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::NoControl;

    /// Builds a graph from explicit option lists.
    fn build(opts: &[Vec<Vec<u32>>]) -> StateGraph {
        let mut g = StateGraph::new();
        for o in opts {
            for parts in o {
                g.push_option(parts);
            }
            g.end_vertex();
        }
        g
    }

    /// Reference by memoised recursion (ids must make a DAG).
    fn naive(opts: &[Vec<Vec<u32>>], u: usize, memo: &mut Vec<Option<u32>>) -> u32 {
        if let Some(v) = memo[u] {
            return v;
        }
        let set: std::collections::HashSet<u32> = opts[u]
            .iter()
            .map(|parts| {
                parts
                    .iter()
                    .fold(0, |x, &p| x ^ naive(opts, p as usize, memo))
            })
            .collect();
        let g = (0..).find(|x| !set.contains(x)).unwrap();
        memo[u] = Some(g);
        g
    }

    use crate::engine::testing::Rng;

    #[test]
    fn nim_heaps_and_sums() {
        // Vertex k is a nim heap of size k; vertex 40 + k is "two heaps of size k" (value 0).
        let mut opts: Vec<Vec<Vec<u32>>> = (0..40u32)
            .map(|k| (0..k).map(|j| vec![j]).collect())
            .collect();
        for k in 0..40u32 {
            opts.push((0..k).map(|j| vec![j, k]).collect());
        }
        let mut g = build(&opts);
        g.solve(&NoControl).unwrap();
        assert_eq!(&g.values()[..40], (0..40).collect::<Vec<u32>>().as_slice());
        assert!(g.values()[40..].iter().all(|&v| v == 0));
    }

    #[test]
    fn random_graphs_grown_in_steps_match_recursion() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for &(n, steps) in &[(5usize, 1usize), (300, 3), (20_000, 4)] {
            // Options of u name parts below u (a DAG); vertex ids are solved in several steps.
            let opts: Vec<Vec<Vec<u32>>> = (0..n)
                .map(|u| {
                    let d = if u == 0 {
                        0
                    } else {
                        rng.below(100) as usize % 70
                    };
                    (0..d)
                        .map(|_| {
                            let parts = rng.below(4) as usize;
                            (0..parts).map(|_| rng.below(u as u64) as u32).collect()
                        })
                        .collect()
                })
                .collect();
            let mut memo = vec![None; n];
            let want: Vec<u32> = (0..n).map(|u| naive(&opts, u, &mut memo)).collect();
            let mut g = StateGraph::new();
            for s in 0..steps {
                let hi = n * (s + 1) / steps;
                for o in &opts[g.num_vertices()..hi] {
                    for parts in o {
                        g.push_option(parts);
                    }
                    g.end_vertex();
                }
                g.solve(&NoControl).unwrap();
                assert_eq!(g.values(), &want[..hi]);
            }
            for j in g.option_ids(n - 1) {
                let x = g
                    .option_parts(j)
                    .iter()
                    .fold(0, |x, &p| x ^ want[p as usize]);
                assert_eq!(g.option_value(j), Some(x));
            }
        }
    }

    #[test]
    fn long_chain_and_wide_layers() {
        let n = 300_000u32;
        let opts: Vec<Vec<Vec<u32>>> = (0..n)
            .map(|u| if u == 0 { vec![] } else { vec![vec![u - 1]] })
            .collect();
        let mut g = build(&opts);
        g.solve(&NoControl).unwrap();
        assert!(g
            .values()
            .iter()
            .enumerate()
            .all(|(i, &x)| x == (i % 2) as u32));
        // 50,000 vertices over one sink: one wide parallel layer.
        let mut opts = vec![vec![]];
        opts.extend((0..50_000).map(|_| vec![vec![0u32], vec![]]));
        let mut g = build(&opts);
        g.solve(&NoControl).unwrap();
        assert!(g.values()[1..].iter().all(|&x| x == 1));
    }

    #[test]
    fn cycles_are_named_and_nothing_is_kept() {
        // 0 is a sink; 1 -> {0}; then 2 -> {3, 0} and 3 -> {2}: a cycle through parts.
        let mut g = build(&[vec![], vec![vec![0]]]);
        g.solve(&NoControl).unwrap();
        for o in [vec![vec![3, 0]], vec![vec![2]]] {
            for parts in &o {
                g.push_option(parts);
            }
            g.end_vertex();
        }
        match g.solve(&NoControl) {
            Err(Error::Cycle(mut c)) => {
                c.sort();
                assert_eq!(c, vec![2, 3]);
            }
            other => panic!("expected a cycle, got {other:?}"),
        }
        assert_eq!(g.num_solved(), 2);
        g.truncate(2);
        assert_eq!((g.num_vertices(), g.num_options()), (2, 1));
        let mut g = build(&[vec![vec![0]]]);
        assert_eq!(g.solve(&NoControl), Err(Error::Cycle(vec![0])));
    }

    /// Random loopy graphs recorded in steps (options of a vertex name vertices of its own step
    /// or earlier ones), solved step by step with stand-ins, against one solve of the whole.
    #[test]
    fn loopy_in_steps_matches_one_whole_solve() {
        let mut rng = Rng(0x2545_F491_4F6C_DD1D);
        for round in 0..300 {
            let steps = 1 + round % 4;
            let per = 1 + rng.below(12) as usize;
            let n = steps * per;
            let deg_cap = 1 + rng.below(5);
            let opts: Vec<Vec<u32>> = (0..n)
                .map(|u| {
                    let hi = (u / per + 1) * per;
                    let d = rng.below(deg_cap + 1);
                    (0..d).map(|_| rng.below(hi as u64) as u32).collect()
                })
                .collect();
            let mut off = vec![0u64];
            let mut tgt = Vec::new();
            for o in &opts {
                tgt.extend_from_slice(o);
                off.push(tgt.len() as u64);
            }
            let want = generalized_values_csr(&off, &tgt, &NoControl, None).unwrap();
            let mut g = StateGraph::new();
            for s in 0..steps {
                for o in &opts[s * per..(s + 1) * per] {
                    for &p in o {
                        g.push_option(&[p]);
                    }
                    g.end_vertex();
                }
                g.solve_loopy(&NoControl).unwrap();
                assert_eq!(
                    g.values(),
                    &want[..(s + 1) * per],
                    "round {round}, step {s}"
                );
            }
        }
    }

    #[test]
    fn loopy_refuses_sums_and_unrecorded_parts() {
        let mut g = build(&[vec![], vec![vec![0, 0]]]);
        assert!(matches!(g.solve_loopy(&NoControl), Err(Error::Invalid(_))));
        assert_eq!(g.num_solved(), 0);
        let mut g = build(&[vec![vec![3]]]);
        assert!(matches!(g.solve_loopy(&NoControl), Err(Error::Invalid(_))));
        // A self-loop alone: infinity({}), a draw; an exit to it keeps it infinite.
        let mut g = build(&[vec![vec![0]], vec![vec![1], vec![0]]]);
        g.solve_loopy(&NoControl).unwrap();
        assert_eq!(g.values(), &[INFINITE, INFINITE]);
    }

    /// The misère search over a state graph (vertex n: a Kayles row of n pins, each option the
    /// rows it leaves, empty rows left out) agrees with the same search over Kayles' heap rule.
    #[test]
    fn misere_search_over_states_matches_the_heap_rule() {
        use crate::position::{Misere, MisereGame};
        use crate::rules::Rule;
        let kayles = Rule::TakeAndBreak("0.77".parse().unwrap());
        let mut g = StateGraph::new();
        for n in 0..10u32 {
            for k in 1..=2.min(n) {
                for a in 0..=n - k {
                    let parts: Vec<u32> = [a, n - k - a].into_iter().filter(|&p| p > 0).collect();
                    g.push_option(&parts);
                }
            }
            g.end_vertex();
        }
        g.solve(&NoControl).unwrap();
        g.push_option(&[9]);
        g.end_vertex(); // vertex 10, recorded but not solved: not a component yet
        let games = [MisereGame::Rule(&kayles), MisereGame::State(&g)];
        let mut m = Misere::new(&games, 1 << 20, &NoControl);
        let mut p_count = 0;
        for a in 0..10u64 {
            for b in a..10 {
                for c in b..7 {
                    let want = m.is_p(&[(0, a), (0, b), (0, c)]).unwrap();
                    assert_eq!(m.is_p(&[(1, a), (1, b), (1, c)]).unwrap(), want);
                    assert_eq!(m.is_p(&[(1, c), (0, a), (1, b)]).unwrap(), want);
                    p_count += want as usize;
                }
            }
        }
        assert!(p_count > 10, "{p_count}");
        // Winning moves name the component moved in and the vertices left.
        let normal = |v: Vec<(usize, Vec<u64>)>| -> Vec<(usize, Vec<u64>)> {
            let mut v: Vec<_> = v
                .into_iter()
                .map(|(i, mut p)| {
                    p.retain(|&x| x > 0); // the heap rule leaves empty heaps, the graph none
                    p.sort_unstable();
                    (i, p)
                })
                .collect();
            v.sort();
            v.dedup();
            v
        };
        let mut with_moves = 0;
        for a in 0..8u64 {
            for b in 0..8 {
                let states = m.winning_moves(&[(1, a), (1, b)]).unwrap();
                with_moves += !states.is_empty() as usize;
                let heaps = m.winning_moves(&[(0, a), (0, b)]).unwrap();
                assert_eq!(normal(heaps), normal(states), "{a} + {b}");
            }
        }
        assert!(with_moves > 10, "{with_moves}");
        assert!(matches!(m.is_p(&[(1, 10)]), Err(Error::Invalid(_))));
        let mut tiny = Misere::new(&games[1..], 5, &NoControl);
        assert!(matches!(
            tiny.is_p(&[(0, 9), (0, 9), (0, 8)]),
            Err(Error::SearchLimit { limit: 5, .. })
        ));
    }

    #[test]
    fn unrecorded_parts_and_stops() {
        let mut g = build(&[vec![vec![1]]]);
        assert!(matches!(g.solve(&NoControl), Err(Error::Invalid(_))));
        struct Stop;
        impl Control for Stop {
            fn check(&self, _: u64, _: u64) -> Result<()> {
                Err(Error::Interrupted)
            }
        }
        let mut g = build(&[vec![]]);
        assert_eq!(g.solve(&Stop), Err(Error::Interrupted));
        assert_eq!(g.num_solved(), 0);
    }
}
