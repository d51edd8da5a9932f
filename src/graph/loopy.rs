//! Loopy games: the generalized Sprague-Grundy function (C. A. B. Smith, 1966; Fraenkel and Yesha,
//! 1986) of a game graph that may have cycles.
//!
//! A vertex `u` gets the finite value `m` when no option of `u` has value `m`, every value below
//! `m` occurs among its options, and every option with a larger or infinite value has itself an
//! option of value `m`, an answer that makes progress (Smith's counter function: answering cannot
//! go on forever); otherwise `u` gets the value infinity(K), K the set of finite values of its
//! options. Without the progress condition the local conditions can hold for several labellings
//! (`0 <- 1 <-> 2 -> 0` would admit 0, 1, 2); the labelling below gives Smith's, the unique one. A finite value 0 is a P-position, a finite non-zero value an N-position, infinity(K)
//! an N-position when 0 is in K and a draw otherwise. On an acyclic graph every value is finite
//! and equals the Grundy value.
//!
//! # Algorithm and cost
//! First, Kahn's algorithm from the sinks settles every vertex that cannot reach a cycle: there
//! the value is the mex of the options' values, as in an acyclic graph (`O(V + E)`).
//!
//! The rest, the *loopy core*, is labelled in stages `i = 0, 1, 2, ...` (Fraenkel and Yesha's
//! labelling). At stage `i` the candidates are the core vertices not yet labelled; a follower
//! counts as *open* when it is an unlabelled or infinite core vertex with no follower labelled `i`
//! yet (a settled vertex of value above `i` has an option of value `i`, so it is never open). A
//! candidate all of whose open followers are closed, and none labelled `i`, gets the label `i`.
//! This is a retrograde propagation, like a win/loss analysis: each candidate keeps a count of its
//! open options, and labelling a vertex `i` closes its predecessors, whose predecessors' counts
//! drop. At the end of the stage, a candidate with no follower labelled `i` can take no finite
//! value (it would need an option of value `i`) and gets infinity; the others go on to stage
//! `i + 1`.
//!
//! A candidate at stage `i` has options of every value below `i`, so there are at most `M + 2`
//! stages, `M` the largest finite value in the core (`M <` the largest out-degree). A stage costs
//! `O(V_c + E_c)` on the core (`V_c` vertices, `E_c` edges into them): every vertex is labelled
//! once, closed at most once per stage, and each label or closure walks its predecessors once;
//! the counts carry over from stage to stage. In all **`O(V + E + (M + 2) * (V_c + E_c))`** time,
//! within Fraenkel and Yesha's `O(V * E)` bound and linear on acyclic graphs, and `O(V + E)`
//! memory (the reverse graph and six 32-bit words per vertex). The outcomes and the input checks
//! run in parallel with rayon; the labelling itself is sequential (a chain of dependent updates,
//! as in any retrograde analysis) and polls the [`Control`] from the calling thread.
//!
//! ```
//! use grundy::control::NoControl;
//! use grundy::graph::Graph;
//! use grundy::graph::loopy::{generalized_values, outcomes, Outcome, INFINITE};
//! // u -> u, u -> t: u = infinity({0}), an N-position; t = 0.
//! let g = Graph::from_edges(2, &[0u32, 0], &[0u32, 1], &NoControl).unwrap();
//! let v = generalized_values(&g, &NoControl, None).unwrap();
//! assert_eq!(v, vec![INFINITE, 0]);
//! let (off, tgt) = g.csr();
//! assert_eq!(outcomes(off, tgt, &v, None).unwrap(), vec![Outcome::N, Outcome::P]);
//! ```

use crate::control::{build_pool, in_pool, Control, Poller};
use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::memory;
use rayon::prelude::*;

/// The value stored for a vertex whose generalized value is infinite (its K is the set of the
/// finite values of its options).
pub const INFINITE: u32 = u32::MAX;
/// A vertex not labelled yet (never returned).
const OPEN: u32 = u32::MAX - 1;

/// The outcome of a position of a loopy game under normal play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Outcome {
    /// The previous player (who just moved) wins.
    P = 0,
    /// The next player (to move) wins.
    N = 1,
    /// Neither can force a win: with best play the game goes on forever.
    D = 2,
}

/// Generalized Sprague-Grundy values of every vertex of `graph`: the finite value, or
/// [`INFINITE`]. See [`generalized_values_csr`].
pub fn generalized_values(
    graph: &Graph,
    ctl: &dyn Control,
    threads: Option<usize>,
) -> Result<Vec<u32>> {
    let (offsets, targets) = graph.csr();
    generalized_values_csr(offsets, targets, ctl, threads)
}

/// Checks that `offsets`/`targets` are CSR arrays: `offsets` starts at 0, never decreases and
/// ends at `targets.len()`, and every target is a vertex.
fn check_csr(offsets: &[u64], targets: &[u32]) -> Result<()> {
    let Some((&first, _)) = offsets.split_first() else {
        return Err(Error::Invalid(
            "offsets must have num_vertices + 1 entries, not 0".into(),
        ));
    };
    let n = offsets.len() - 1;
    if n as u64 >= OPEN as u64 {
        return Err(Error::Invalid(format!(
            "a loopy game graph may have at most {} vertices, not {n}",
            OPEN - 1
        )));
    }
    if first != 0 || offsets[n] != targets.len() as u64 {
        return Err(Error::Invalid(format!(
            "offsets must start at 0 and end at the number of targets ({}), not {first} and {}",
            targets.len(),
            offsets[n]
        )));
    }
    if let Some(u) = (0..n).find(|&u| offsets[u] > offsets[u + 1]) {
        return Err(Error::Invalid(format!(
            "offsets must not decrease: offsets[{u}] = {} > offsets[{}] = {}",
            offsets[u],
            u + 1,
            offsets[u + 1]
        )));
    }
    if let Some(&t) = targets.par_iter().find_any(|&&t| t as usize >= n) {
        return Err(Error::Invalid(format!(
            "target {t} is not a vertex (there are {n})"
        )));
    }
    Ok(())
}

/// A zeroed vector, or [`Error::Memory`] instead of an abort.
fn filled<T: Clone>(len: usize, x: T) -> Result<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| Error::Memory {
        requested: (len as u64).saturating_mul(std::mem::size_of::<T>() as u64),
        available: memory::available().unwrap_or(0),
    })?;
    v.resize(len, x);
    Ok(v)
}

/// Generalized Sprague-Grundy values of the graph whose options of `u` are
/// `targets[offsets[u]..offsets[u + 1]]` (CSR form; repeated edges and self-loops allowed).
///
/// Returns one entry per vertex: its finite value, or [`INFINITE`]. Runs in
/// `O(V + E + (M + 2) * (V_c + E_c))` time, `M` the largest finite value of the loopy core
/// (see the module notes). `threads` caps the threads of the parallel parts (`None`: rayon's global pool). `ctl` is polled
/// about every [`POLL_INTERVAL`](crate::control::POLL_INTERVAL) from the calling thread with `(vertices labelled, V)`; its error
/// stops the computation. Malformed arrays give [`Error::Invalid`], a graph too big for memory
/// [`Error::Memory`].
pub fn generalized_values_csr(
    offsets: &[u64],
    targets: &[u32],
    ctl: &dyn Control,
    threads: Option<usize>,
) -> Result<Vec<u32>> {
    let pool = build_pool(threads)?;
    in_pool(pool.as_ref(), || check_csr(offsets, targets))?;
    let n = offsets.len() - 1;
    let m = targets.len();
    // Reverse CSR (8 bytes per vertex + 4 per edge); label, stamp, count, candidates, queue.
    memory::check((n as u64 + 1) * 8 + m as u64 * 4 + n as u64 * 20)?;
    let opts = |u: usize| &targets[offsets[u] as usize..offsets[u + 1] as usize];
    let mut poll = Poller::new(ctl, n as u64);
    ctl.check(0, n as u64)?;

    // Predecessors: who has v as an option (with repetitions).
    let mut roff = filled(n + 1, 0u64)?;
    for &v in targets {
        roff[v as usize + 1] += 1;
    }
    for k in 0..n {
        roff[k + 1] += roff[k];
    }
    let mut rsrc = filled(m, 0u32)?;
    {
        let mut next = roff.clone();
        for u in 0..n {
            for &v in opts(u) {
                let s = &mut next[v as usize];
                rsrc[*s as usize] = u as u32;
                *s += 1;
            }
        }
    }
    let preds = |v: usize| &rsrc[roff[v] as usize..roff[v + 1] as usize];
    let mut label = filled(n, OPEN)?;

    // 1. The part that cannot reach a cycle, by Kahn's algorithm from the sinks: there the value
    // is the mex of the options' values, as in an acyclic graph. `count` is first the number of
    // options not settled yet.
    let mut count: Vec<u32> = filled(n, 0u32)?;
    for (u, c) in count.iter_mut().enumerate() {
        *c = (offsets[u + 1] - offsets[u]) as u32;
    }
    let mut queue: Vec<u32> = (0..n as u32).filter(|&u| count[u as usize] == 0).collect();
    let mut seen: Vec<u32> = Vec::new(); // seen[v] == u + 1: value v occurs among u's options
    let mut head = 0;
    while head < queue.len() {
        let u = queue[head] as usize;
        head += 1;
        poll.step(head as u64)?;
        let o = opts(u);
        if seen.len() < o.len() + 1 {
            seen.resize(o.len() + 1, 0);
        }
        for &v in o {
            let x = label[v as usize] as usize;
            if x <= o.len() {
                seen[x] = u as u32 + 1;
            }
        }
        label[u] = (0..)
            .find(|&x| seen[x as usize] != u as u32 + 1)
            .unwrap_or(0);
        for &p in preds(u) {
            count[p as usize] -= 1;
            if count[p as usize] == 0 {
                queue.push(p);
            }
        }
    }
    drop(seen);
    let settled = queue.len();
    let mut done = settled as u64;
    // Settled vertices by value: at stage i those of value i close their predecessors.
    let fixed: Vec<u32> = {
        let mut f = std::mem::take(&mut queue);
        f.sort_unstable_by_key(|&u| label[u as usize]);
        f
    };
    let mut is_fixed = filled(n, false)?;
    for &u in &fixed {
        is_fixed[u as usize] = true;
    }

    // 2. The loopy core, in stages. `base[u]`: options of u not settled and not labelled finite
    // (the open ones at the start of a stage); `count[u]`: those not closed yet in this stage.
    let mut base = count;
    let mut count = filled(n, 0u32)?;
    // closed[v] == stage + 1: v has a follower labelled `stage` (so v cannot take that value).
    let mut closed = filled(n, 0u32)?;
    let mut cand: Vec<u32> = (0..n as u32).filter(|&u| !is_fixed[u as usize]).collect();
    let mut next_fixed = 0;
    let mut stage = 0u32;
    let mut newly: Vec<u32> = Vec::new();
    while !cand.is_empty() {
        if stage >= OPEN - 1 {
            return Err(Error::Invalid(
                "a generalized value does not fit 32 bits".into(),
            ));
        }
        let stamp = stage + 1;
        for &u in &cand {
            count[u as usize] = base[u as usize];
        }
        queue.clear();
        // Settled vertices of value `stage` close their (loopy) predecessors, all before any
        // vertex is labelled: a vertex with such an option can never take this value.
        newly.clear();
        while next_fixed < fixed.len() && label[fixed[next_fixed] as usize] == stage {
            for &p in preds(fixed[next_fixed] as usize) {
                let p = p as usize;
                if !is_fixed[p] && closed[p] != stamp {
                    closed[p] = stamp;
                    newly.push(p as u32);
                }
            }
            next_fixed += 1;
            poll.step(done)?;
        }
        // A closed vertex no longer counts as an open option of its predecessors.
        let close = |p: usize,
                     label: &mut [u32],
                     count: &mut [u32],
                     closed: &[u32],
                     queue: &mut Vec<u32>| {
            for &q in preds(p) {
                let q = q as usize;
                if label[q] != OPEN || closed[q] == stamp {
                    continue;
                }
                count[q] -= 1;
                if count[q] == 0 {
                    label[q] = stage;
                    queue.push(q as u32);
                }
            }
        };
        for &p in &newly {
            if label[p as usize] >= OPEN {
                close(p as usize, &mut label, &mut count, &closed, &mut queue);
            }
        }
        for &u in &cand {
            let u = u as usize;
            if label[u] == OPEN && count[u] == 0 && closed[u] != stamp {
                label[u] = stage;
                queue.push(u as u32);
            }
        }
        let mut head = 0;
        while head < queue.len() {
            let x = queue[head] as usize;
            head += 1;
            done += 1;
            poll.step(done)?;
            for &p in preds(x) {
                let p = p as usize;
                base[p] -= 1; // x is no longer open for p in later stages
                if label[p] < OPEN || closed[p] == stamp {
                    continue;
                }
                closed[p] = stamp;
                close(p, &mut label, &mut count, &closed, &mut queue);
            }
        }
        // Candidates with no follower labelled `stage` can take no finite value.
        let closed_ref = &closed;
        cand.retain(|&u| {
            let u = u as usize;
            if label[u] != OPEN {
                return false;
            }
            if closed_ref[u] != stamp {
                label[u] = INFINITE;
                done += 1;
                return false;
            }
            true
        });
        stage += 1;
    }
    Ok(label)
}

/// The outcome of every vertex from its generalized value: 0 is P, a finite non-zero value N,
/// infinity(K) N when some option has value 0 and D otherwise.
///
/// `values` must be what [`generalized_values_csr`] returned for the same arrays
/// ([`Error::Invalid`] when its length differs).
pub fn outcomes(
    offsets: &[u64],
    targets: &[u32],
    values: &[u32],
    threads: Option<usize>,
) -> Result<Vec<Outcome>> {
    check_csr(offsets, targets)?;
    if values.len() + 1 != offsets.len() {
        return Err(Error::Invalid(format!(
            "{} values for a graph of {} vertices",
            values.len(),
            offsets.len() - 1
        )));
    }
    let pool = build_pool(threads)?;
    Ok(in_pool(pool.as_ref(), || {
        (0..values.len())
            .into_par_iter()
            .with_min_len(4096)
            .map(|u| match values[u] {
                0 => Outcome::P,
                INFINITE => {
                    let opts = &targets[offsets[u] as usize..offsets[u + 1] as usize];
                    if opts.iter().any(|&v| values[v as usize] == 0) {
                        Outcome::N
                    } else {
                        Outcome::D
                    }
                }
                _ => Outcome::N,
            })
            .collect()
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::NoControl;

    fn solve(n: usize, edges: &[(u32, u32)]) -> Vec<u32> {
        let (s, d): (Vec<u32>, Vec<u32>) = edges.iter().copied().unzip();
        let g = Graph::from_edges(n as u64, &s, &d, &NoControl).unwrap();
        generalized_values(&g, &NoControl, None).unwrap()
    }

    /// Win/loss/draw by retrograde analysis, independent of any value: a vertex is lost (P) when
    /// every option is won, won (N) when some option is lost, drawn otherwise.
    fn retrograde(n: usize, edges: &[(u32, u32)]) -> Vec<Outcome> {
        let mut out: Vec<Option<Outcome>> = vec![None; n];
        let mut changed = true;
        while changed {
            changed = false;
            for u in 0..n {
                if out[u].is_some() {
                    continue;
                }
                let opts: Vec<usize> = edges
                    .iter()
                    .filter(|e| e.0 as usize == u)
                    .map(|e| e.1 as usize)
                    .collect();
                if opts.iter().any(|&v| out[v] == Some(Outcome::P)) {
                    out[u] = Some(Outcome::N);
                    changed = true;
                } else if opts.iter().all(|&v| out[v] == Some(Outcome::N)) {
                    out[u] = Some(Outcome::P);
                    changed = true;
                }
            }
        }
        out.into_iter().map(|o| o.unwrap_or(Outcome::D)).collect()
    }

    /// Smith's conditions, checked directly for every vertex.
    fn satisfies_definition(n: usize, edges: &[(u32, u32)], g: &[u32]) -> bool {
        (0..n).all(|u| {
            let opts: Vec<usize> = edges
                .iter()
                .filter(|e| e.0 as usize == u)
                .map(|e| e.1 as usize)
                .collect();
            let has = |v: usize, x: u32| {
                edges
                    .iter()
                    .any(|e| e.0 as usize == v && g[e.1 as usize] == x)
            };
            match g[u] {
                INFINITE => true,
                m => {
                    (0..m).all(|j| opts.iter().any(|&v| g[v] == j))
                        && opts.iter().all(|&v| g[v] != m)
                        && opts.iter().all(|&v| g[v] < m || has(v, m))
                }
            }
        })
    }

    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (self.0 >> 33) % n
        }
    }

    #[test]
    fn hand_worked_examples() {
        // t with no moves: 0.
        assert_eq!(solve(1, &[]), vec![0]);
        // s -> s: infinity({}), a draw.
        assert_eq!(solve(1, &[(0, 0)]), vec![INFINITE]);
        // u -> u, u -> t: infinity({0}), N.
        assert_eq!(solve(2, &[(0, 0), (0, 1)]), vec![INFINITE, 0]);
        // a -> b, b -> a, b -> t: a = 0, b = 1.
        assert_eq!(solve(3, &[(0, 1), (1, 0), (1, 2)]), vec![0, 1, 0]);
    }

    #[test]
    fn random_graphs_match_retrograde_and_the_definition() {
        let mut rng = Rng(7);
        for trial in 0..3000 {
            let n = 1 + rng.below(9) as usize;
            let m = rng.below(3 * n as u64 + 1) as usize;
            let edges: Vec<(u32, u32)> = (0..m)
                .map(|_| (rng.below(n as u64) as u32, rng.below(n as u64) as u32))
                .collect();
            let g = solve(n, &edges);
            assert!(
                satisfies_definition(n, &edges, &g),
                "trial {trial}: {edges:?} {g:?}"
            );
            assert_eq!(g, staged_reference(n, &edges), "trial {trial}: {edges:?}");
            let (s, d): (Vec<u32>, Vec<u32>) = edges.iter().copied().unzip();
            let graph = Graph::from_edges(n as u64, &s, &d, &NoControl).unwrap();
            let (off, tgt) = graph.csr();
            assert_eq!(outcomes(off, tgt, &g, None).unwrap(), retrograde(n, &edges));
            // Without cycles, the plain Grundy values.
            if let Ok(plain) = graph.grundy_values(&NoControl, None) {
                assert_eq!(plain, g, "trial {trial}: {edges:?}");
            }
        }
    }

    /// Fraenkel and Yesha's algorithm read literally, with no bookkeeping: at stage i, label i
    /// (until nothing changes) every unlabelled vertex with no option labelled i whose unlabelled
    /// or infinite options all have an option labelled i; then the unlabelled vertices with no
    /// option labelled i become infinite.
    fn staged_reference(n: usize, edges: &[(u32, u32)]) -> Vec<u32> {
        let mut opts = vec![Vec::new(); n];
        for &(u, v) in edges {
            opts[u as usize].push(v as usize);
        }
        let mut label = vec![OPEN; n];
        let mut i = 0;
        while label.contains(&OPEN) {
            let mut changed = true;
            while changed {
                changed = false;
                for u in 0..n {
                    if label[u] == OPEN
                        && opts[u].iter().all(|&v| label[v] != i)
                        && opts[u]
                            .iter()
                            .all(|&v| label[v] < OPEN || opts[v].iter().any(|&w| label[w] == i))
                    {
                        label[u] = i;
                        changed = true;
                    }
                }
            }
            for u in 0..n {
                if label[u] == OPEN && opts[u].iter().all(|&v| label[v] != i) {
                    label[u] = INFINITE;
                }
            }
            i += 1;
        }
        label
    }

    #[test]
    fn mostly_acyclic_graphs_match_the_literal_algorithm() {
        // Edges mostly from a higher to a lower id (large finite values, a big acyclic part),
        // a few back edges and self-loops (a loopy core hanging off it).
        let mut rng = Rng(11);
        for trial in 0..300 {
            let n = 2 + rng.below(60) as usize;
            let m = rng.below(6 * n as u64) as usize;
            let back = 1 + rng.below(40);
            let edges: Vec<(u32, u32)> = (0..m)
                .map(|_| {
                    let (a, b) = (rng.below(n as u64) as u32, rng.below(n as u64) as u32);
                    if rng.below(back) == 0 {
                        (a.min(b), a.max(b))
                    } else {
                        (a.max(b), a.min(b))
                    }
                })
                .collect();
            assert_eq!(
                solve(n, &edges),
                staged_reference(n, &edges),
                "trial {trial}: {edges:?}"
            );
        }
    }

    #[test]
    fn large_graph_in_parallel() {
        let mut rng = Rng(3);
        let n = 100_000usize;
        let (s, d): (Vec<u32>, Vec<u32>) = (0..4 * n)
            .map(|_| (rng.below(n as u64) as u32, rng.below(n as u64) as u32))
            .unzip();
        let g = Graph::from_edges(n as u64, &s, &d, &NoControl).unwrap();
        let one = generalized_values(&g, &NoControl, Some(1)).unwrap();
        let two = generalized_values(&g, &NoControl, Some(2)).unwrap();
        assert_eq!(one, two);
        assert!(one.contains(&INFINITE) && one.contains(&1));
    }

    #[test]
    fn bad_csr() {
        let err =
            |o: &[u64], t: &[u32]| generalized_values_csr(o, t, &NoControl, None).unwrap_err();
        assert!(matches!(err(&[], &[]), Error::Invalid(_)));
        assert!(matches!(err(&[0, 2], &[0]), Error::Invalid(_)));
        assert!(matches!(err(&[0, 2, 1], &[0, 0]), Error::Invalid(_)));
        assert!(matches!(err(&[0, 1], &[1]), Error::Invalid(_)));
        assert!(matches!(
            generalized_values_csr(&[0, 1], &[0], &NoControl, Some(0)),
            Err(Error::Invalid(_))
        ));
        assert!(outcomes(&[0, 0], &[], &[], None).is_err());
    }

    #[test]
    fn control_stops_the_computation() {
        struct Stop;
        impl Control for Stop {
            fn check(&self, _: u64, _: u64) -> Result<()> {
                Err(Error::Interrupted)
            }
        }
        assert_eq!(
            generalized_values_csr(&[0, 1], &[0], &Stop, None),
            Err(Error::Interrupted)
        );
    }
}
