//! Explicit finite game graphs: vertices `0..V`, an edge `u -> v` makes `v` an option of `u`.
//!
//! The graph is stored in CSR form (the options of `u` are `targets[offsets[u]..offsets[u + 1]]`),
//! built from edge arrays by a counting sort. Grundy values are computed by topological layers
//! (Kahn's algorithm from the sinks): a vertex is settled once all its options are, and every
//! vertex of a layer is settled at once, in parallel with rayon. A graph with a cycle has no
//! Grundy values; [`Error::Cycle`] then names the vertices of one cycle.
//!
//! ```
//! use grundy::control::NoControl;
//! use grundy::graph::Graph;
//! // 3 -> 2 -> 1 -> 0 and 3 -> 0, 2 -> 0: G(3) = mex{G(2), G(0)}.
//! let (src, dst) = ([1u32, 2, 3, 2, 3], [0u32, 1, 2, 0, 0]);
//! let g = Graph::from_edges(4, &src, &dst, &NoControl).unwrap();
//! assert_eq!(g.grundy_values(&NoControl, None).unwrap(), vec![0, 1, 2, 1]);
//! ```

pub mod explore;
pub mod loopy;
pub mod state;

use crate::control::{build_pool, in_pool, Control, Poller};
use crate::error::{Error, Result};
use crate::memory;
use rayon::prelude::*;
use rayon::ThreadPool;
use std::fmt::Display;
use std::sync::atomic::{AtomicU32, Ordering::Relaxed};

/// The most vertices a graph may have: ids are stored as `u32`.
pub const MAX_VERTICES: u64 = u32::MAX as u64;

/// Layers smaller than this are settled on the calling thread (rayon's overhead would dominate;
/// a long path has a million layers of one vertex).
const PAR_LAYER: usize = 4096;
/// Vertices per rayon task inside a layer.
const CHUNK: usize = 1024;
/// Vertices settled between two looks at the clock (for polling the [`Control`]).
const POLL_EVERY: usize = 1 << 16;

/// An integer type edge endpoints may be given in (the numpy dtypes the binding accepts).
pub trait VertexId: Copy + Send + Sync + Display {
    /// The id, or `None` when it is negative.
    fn to_u64(self) -> Option<u64>;
}

macro_rules! vertex_id {
    ($($t:ty),*) => {$(
        impl VertexId for $t {
            #[inline]
            fn to_u64(self) -> Option<u64> {
                u64::try_from(self).ok()
            }
        }
    )*};
}
vertex_id!(u32, u64, i32, i64);

/// A directed graph in CSR form. Multiple edges between two vertices are kept (they change no
/// value); a self-loop is a cycle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Graph {
    /// `V + 1` entries: the options of `u` are `targets[offsets[u]..offsets[u + 1]]`.
    offsets: Vec<u64>,
    targets: Vec<u32>,
}

/// A zeroed vector, or [`Error::Memory`] instead of an abort when the allocation fails.
pub(crate) fn zeroed<T: Clone + Default>(len: usize) -> Result<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| Error::Memory {
        requested: (len as u64).saturating_mul(std::mem::size_of::<T>() as u64),
        available: memory::available().unwrap_or(0),
    })?;
    v.resize(len, T::default());
    Ok(v)
}

/// Counting sort of `m` pairs `(key, value)` with keys below `n` into CSR arrays. `pairs` is
/// called twice (once to count, once to place) and must give the same pairs both times.
pub(crate) fn counting_sort<F, It>(
    n: usize,
    m: usize,
    pairs: F,
    poll: &mut Poller,
) -> Result<(Vec<u64>, Vec<u32>)>
where
    F: Fn() -> It,
    It: Iterator<Item = (u32, u32)>,
{
    const TICK: usize = (1 << 20) - 1;
    // offsets[k + 1] counts key k; after the prefix sum offsets[k] is where key k starts.
    let mut offsets = zeroed::<u64>(n + 1)?;
    for (i, (k, _)) in pairs().enumerate() {
        offsets[k as usize + 1] += 1;
        if i & TICK == TICK {
            poll.tick(0)?;
        }
    }
    for k in 0..n {
        offsets[k + 1] += offsets[k];
    }
    // Place each value at offsets[k] and advance it: offsets[k] ends where key k + 1 starts...
    let mut values = zeroed::<u32>(m)?;
    for (i, (k, v)) in pairs().enumerate() {
        let slot = &mut offsets[k as usize];
        values[*slot as usize] = v;
        *slot += 1;
        if i & TICK == TICK {
            poll.tick(0)?;
        }
    }
    // ...so shifting by one restores the starts.
    offsets.copy_within(0..n, 1);
    offsets[0] = 0;
    Ok((offsets, values))
}

impl Graph {
    /// A graph with `num_vertices` vertices and an edge `src[i] -> dst[i]` for each `i`.
    ///
    /// Fails with [`Error::Invalid`] when the arrays differ in length or an id is negative or not
    /// below `num_vertices` (the message names the first such edge), and with [`Error::Memory`]
    /// when the graph would not fit in memory. `ctl` is polled about every [`POLL_INTERVAL`](crate::control::POLL_INTERVAL).
    ///
    /// # Errors
    /// As above; also the error of `ctl`, which stops the construction.
    pub fn from_edges<I: VertexId>(
        num_vertices: u64,
        src: &[I],
        dst: &[I],
        ctl: &dyn Control,
    ) -> Result<Self> {
        if src.len() != dst.len() {
            return Err(Error::Invalid(format!(
                "src has {} entries but dst has {}: give one source and one target per edge",
                src.len(),
                dst.len()
            )));
        }
        let m = src.len() as u64;
        // The offsets and targets kept, plus nothing else: the sort works in place.
        memory::check(
            num_vertices
                .saturating_add(1)
                .saturating_mul(8)
                .saturating_add(m.saturating_mul(4)),
        )?;
        if num_vertices > MAX_VERTICES {
            return Err(Error::Invalid(format!(
                "a game graph may have at most {MAX_VERTICES} vertices, not {num_vertices}"
            )));
        }
        check_edges(num_vertices, src, dst)?;
        let id = |x: I| x.to_u64().unwrap_or(0) as u32; // checked above
        let n = num_vertices as usize;
        let mut poll = Poller::new(ctl, 0);
        let (offsets, targets) = counting_sort(
            n,
            src.len(),
            || src.iter().zip(dst).map(|(&u, &v)| (id(u), id(v))),
            &mut poll,
        )?;
        let g = Graph { offsets, targets };
        if m > u32::MAX as u64 {
            if let Some(u) = (0..n).find(|&u| g.out_degree(u) > u32::MAX as usize) {
                return Err(Error::Invalid(format!(
                    "vertex {u} has {} options; at most {} are supported",
                    g.out_degree(u),
                    u32::MAX
                )));
            }
        }
        Ok(g)
    }

    /// Number of vertices.
    pub fn num_vertices(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Number of edges (repeated edges counted each time).
    pub fn num_edges(&self) -> usize {
        self.targets.len()
    }

    /// The options of vertex `u` (with repetitions when edges are repeated). Panics when
    /// `u >= num_vertices()`.
    #[inline]
    pub fn options(&self, u: usize) -> &[u32] {
        &self.targets[self.offsets[u] as usize..self.offsets[u + 1] as usize]
    }

    /// Number of options of vertex `u` (repeated edges counted each time).
    ///
    /// # Panics
    /// When `u` is not a vertex.
    #[inline]
    pub fn out_degree(&self, u: usize) -> usize {
        (self.offsets[u + 1] - self.offsets[u]) as usize
    }

    /// The CSR arrays: `offsets` (`V + 1` entries) and `targets` (`E` entries).
    pub fn csr(&self) -> (&[u64], &[u32]) {
        (&self.offsets, &self.targets)
    }

    /// Grundy values of every vertex, by topological layers computed in parallel.
    ///
    /// `threads` caps the number of threads (`None`: rayon's global pool, which honours
    /// `RAYON_NUM_THREADS`), at one per processor
    /// ([`pool_threads`](crate::control::pool_threads)). `ctl` is polled about every
    /// [`POLL_INTERVAL`](crate::control::POLL_INTERVAL) from the calling thread.
    ///
    /// # Errors
    /// [`Error::Cycle`] for a cycle; [`Error::Invalid`] for 0 threads; [`Error::Memory`] when
    /// the work arrays do not fit; `ctl`'s error, which stops the computation.
    pub fn grundy_values(&self, ctl: &dyn Control, threads: Option<usize>) -> Result<Vec<u32>> {
        let pool = build_pool(threads)?;
        let pool = pool.as_ref();
        let n = self.num_vertices();
        let m = self.num_edges() as u64;
        // Reverse CSR (8 bytes per vertex + 4 per edge), then remaining counts, values and the
        // settled order (4 bytes per vertex each), the ready lists of one layer at most as much.
        memory::check((n as u64 + 1) * 8 + m * 4 + n as u64 * 16)?;
        ctl.check(0, n as u64)?;
        let mut poll = Poller::new(ctl, n as u64);

        // Who has v as an option: the reverse graph.
        let (roff, rsrc) = counting_sort(
            n,
            self.num_edges(),
            || (0..n).flat_map(|u| self.options(u).iter().map(move |&v| (v, u as u32))),
            &mut poll,
        )?;
        let remaining: Vec<AtomicU32> = in_pool(pool, || {
            (0..n)
                .into_par_iter()
                .map(|u| AtomicU32::new(self.out_degree(u) as u32))
                .collect()
        });
        let values: Vec<AtomicU32> = in_pool(pool, || {
            (0..n).into_par_iter().map(|_| AtomicU32::new(0)).collect()
        });
        let settled = settle_by_layers(
            &roff,
            &rsrc,
            &remaining,
            &values,
            |v, scratch| {
                let opts = self.options(v as usize);
                mex_of(
                    opts.len(),
                    opts.iter().map(|&o| values[o as usize].load(Relaxed)),
                    scratch,
                )
            },
            pool,
            &mut poll,
        )?;
        if settled < n {
            return Err(Error::Cycle(self.find_cycle(&remaining)));
        }
        drop((roff, rsrc, remaining));
        Ok(values.into_iter().map(AtomicU32::into_inner).collect())
    }

    /// One cycle among the vertices left unsettled (`remaining > 0`): each of them has an
    /// unsettled option, so following those must come back to a vertex already seen.
    fn find_cycle(&self, remaining: &[AtomicU32]) -> Vec<u64> {
        let pending = |u: usize| remaining[u].load(Relaxed) > 0;
        let Some(mut u) = (0..self.num_vertices()).find(|&u| pending(u)) else {
            return Vec::new();
        };
        let mut seen_at = vec![usize::MAX; self.num_vertices()];
        let mut path: Vec<u64> = Vec::new();
        loop {
            if seen_at[u] != usize::MAX {
                return path.split_off(seen_at[u]);
            }
            seen_at[u] = path.len();
            path.push(u as u64);
            match self.options(u).iter().find(|&&v| pending(v as usize)) {
                Some(&v) => u = v as usize,
                None => return path, // cannot happen: u is pending because an option is
            }
        }
    }
}

/// Fails on the first edge with an id that is negative or not below `n`.
fn check_edges<I: VertexId>(n: u64, src: &[I], dst: &[I]) -> Result<()> {
    let bad = |x: I| x.to_u64().is_none_or(|v| v >= n);
    let first = (0..src.len())
        .into_par_iter()
        .with_min_len(1 << 14)
        .find_first(|&i| bad(src[i]) || bad(dst[i]));
    let Some(i) = first else { return Ok(()) };
    let x = if bad(src[i]) { src[i] } else { dst[i] };
    let why = if x.to_u64().is_none() {
        "is negative".to_string()
    } else {
        format!("is not below num_vertices = {n}")
    };
    Err(Error::Invalid(format!(
        "edge {i} ({} -> {}): vertex id {x} {why}",
        src[i], dst[i]
    )))
}

/// Settles a graph by topological layers (Kahn's algorithm from the sinks), the one layer
/// solver of the crate: `remaining[v]` counts the unsettled options of `v` (a sink has none),
/// `roff`/`rsrc` list who has each vertex as an option (the reverse graph), and
/// `value(v, scratch)` computes `G(v)` once every option of `v` is settled: how an option's value
/// is read is the one thing the callers differ in ([`Graph`]: a vertex; a state graph: the XOR of
/// an option's parts). Every vertex of a layer is settled at once, big layers in parallel (on
/// `pool`, else the current pool) and in batches, so that `poll` is ticked inside a huge layer too.
///
/// Returns how many vertices were settled: fewer than `remaining.len()` means a cycle (each
/// vertex left keeps `remaining > 0`).
///
/// Values are atomics only so that rayon tasks may share them without `unsafe`; relaxed loads
/// and stores compile to plain moves. Each vertex is written once, by the task that settles it,
/// and read only in later layers (rayon's join orders the layers).
pub(crate) fn settle_by_layers<F>(
    roff: &[u64],
    rsrc: &[u32],
    remaining: &[AtomicU32],
    values: &[AtomicU32],
    value: F,
    pool: Option<&ThreadPool>,
    poll: &mut Poller,
) -> Result<usize>
where
    F: Fn(u32, &mut Vec<u64>) -> u32 + Sync,
{
    let n = remaining.len();
    // Settles `v` and pushes every vertex that thereby has all its options settled onto `ready`.
    let settle = |v: u32, scratch: &mut Vec<u64>, ready: &mut Vec<u32>| {
        values[v as usize].store(value(v, scratch), Relaxed);
        let (a, b) = (roff[v as usize], roff[v as usize + 1]);
        for &u in &rsrc[a as usize..b as usize] {
            if remaining[u as usize].fetch_sub(1, Relaxed) == 1 {
                ready.push(u);
            }
        }
    };
    // `order` holds the settled vertices, layer after layer; the first layer is the sinks.
    let mut order: Vec<u32> = Vec::new();
    order.try_reserve_exact(n).map_err(|_| Error::Memory {
        requested: n as u64 * 4,
        available: memory::available().unwrap_or(0),
    })?;
    order.extend((0..n as u32).filter(|&u| remaining[u as usize].load(Relaxed) == 0));
    // Looks at the clock every POLL_EVERY settled vertices.
    let mut since_poll = 0usize;
    let mut settled = |count: usize, order_len: usize| -> Result<()> {
        since_poll += count;
        if since_poll >= POLL_EVERY {
            since_poll = 0;
            poll.tick(order_len as u64)?;
        }
        Ok(())
    };
    let mut start = 0;
    let mut scratch = Vec::new();
    while start < order.len() {
        let end = order.len();
        if end - start < PAR_LAYER {
            for i in start..end {
                let v = order[i];
                settle(v, &mut scratch, &mut order);
            }
            settled(end - start, order.len())?;
        } else {
            // Big layers go in batches so that Ctrl-C is noticed inside one huge layer too.
            let batch = (POLL_EVERY * 4).max(CHUNK);
            for b in (start..end).step_by(batch) {
                let layer = &order[b..(b + batch).min(end)];
                let ready: Vec<Vec<u32>> = in_pool(pool, || {
                    layer
                        .par_chunks(CHUNK)
                        .map(|chunk| {
                            let mut ready = Vec::new();
                            let mut scratch = Vec::new();
                            for &v in chunk {
                                settle(v, &mut scratch, &mut ready);
                            }
                            ready
                        })
                        .collect()
                });
                let count = layer.len();
                for r in ready {
                    order.extend_from_slice(&r);
                }
                settled(count, order.len())?;
            }
        }
        start = end;
    }
    Ok(order.len())
}

/// The mex of `values`, the values of a vertex's `d` options. The mex is at most `d`, so only
/// values up to `d` matter: below 64 options one register holds them, above a reused scratch bit
/// set of `d + 1` bits (no allocation per vertex once the scratch has grown).
#[inline]
pub(crate) fn mex_of(d: usize, values: impl Iterator<Item = u32>, scratch: &mut Vec<u64>) -> u32 {
    if d < 64 {
        let mut w = 0u64;
        for x in values {
            if x < 64 {
                w |= 1 << x;
            }
        }
        return (!w).trailing_zeros();
    }
    scratch.clear();
    scratch.resize(d / 64 + 1, 0);
    for x in values {
        let x = x as usize;
        if x <= d {
            scratch[x >> 6] |= 1 << (x & 63);
        }
    }
    crate::bitset::mex(scratch)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::NoControl;

    fn values(n: u64, edges: &[(u32, u32)]) -> Result<Vec<u32>> {
        let (s, d): (Vec<u32>, Vec<u32>) = edges.iter().copied().unzip();
        Graph::from_edges(n, &s, &d, &NoControl)?.grundy_values(&NoControl, None)
    }

    /// Reference: vertices in increasing id order, valid when every edge goes to a smaller id.
    fn naive_downward(n: usize, edges: &[(u32, u32)]) -> Vec<u32> {
        let mut opts = vec![Vec::new(); n];
        for &(u, v) in edges {
            opts[u as usize].push(v as usize);
        }
        let mut g = vec![0u32; n];
        for u in 0..n {
            let set: std::collections::HashSet<u32> = opts[u].iter().map(|&v| g[v]).collect();
            g[u] = (0..).find(|x| !set.contains(x)).unwrap();
        }
        g
    }

    use crate::engine::testing::Rng;

    /// A random DAG with edges to smaller ids, relabelled by a random permutation.
    fn random_dag(rng: &mut Rng, n: usize, m: usize) -> (Vec<(u32, u32)>, Vec<u32>) {
        let mut perm: Vec<u32> = (0..n as u32).collect();
        for i in (1..n).rev() {
            perm.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let edges: Vec<(u32, u32)> = (0..m)
            .map(|_| {
                let u = 1 + rng.below(n as u64 - 1);
                (u as u32, rng.below(u) as u32)
            })
            .collect();
        (edges, perm)
    }

    #[test]
    fn small_graphs() {
        assert_eq!(values(0, &[]).unwrap(), Vec::<u32>::new());
        assert_eq!(values(3, &[]).unwrap(), vec![0, 0, 0]);
        assert_eq!(values(2, &[(1, 0), (1, 0)]).unwrap(), vec![0, 1]);
        // Nim heap k as a vertex with options 0..k: values k, including past 64 options.
        let nim: Vec<(u32, u32)> = (0..300u32)
            .flat_map(|k| (0..k).map(move |j| (k, j)))
            .collect();
        assert_eq!(values(300, &nim).unwrap(), (0..300).collect::<Vec<u32>>());
    }

    #[test]
    fn random_dags_match_the_naive_order() {
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        // Sizes that take the sequential path, the parallel path with several batches, and
        // vertices with more than 64 options.
        for &(n, m) in &[
            (2, 1),
            (10, 30),
            (1000, 5000),
            (200_000, 600_000),
            (300, 30_000),
        ] {
            let (edges, perm) = random_dag(&mut rng, n, m);
            let want = naive_downward(n, &edges);
            let relabelled: Vec<(u32, u32)> = edges
                .iter()
                .map(|&(u, v)| (perm[u as usize], perm[v as usize]))
                .collect();
            let got = values(n as u64, &relabelled).unwrap();
            for u in 0..n {
                assert_eq!(got[perm[u] as usize], want[u], "n={n} m={m} vertex {u}");
            }
            let (s, d): (Vec<u32>, Vec<u32>) = relabelled.iter().copied().unzip();
            let one = Graph::from_edges(n as u64, &s, &d, &NoControl)
                .unwrap()
                .grundy_values(&NoControl, Some(1))
                .unwrap();
            assert_eq!(one, got);
        }
    }

    #[test]
    fn long_path() {
        let n = 300_000u32;
        let edges: Vec<(u32, u32)> = (1..n).map(|u| (u, u - 1)).collect();
        let g = values(n as u64, &edges).unwrap();
        assert!(g.iter().enumerate().all(|(i, &x)| x == (i % 2) as u32));
    }

    #[test]
    fn csr_keeps_every_edge() {
        let g = Graph::from_edges(4, &[3i64, 0, 3, 1], &[1i64, 2, 0, 2], &NoControl).unwrap();
        assert_eq!(g.num_vertices(), 4);
        assert_eq!(g.num_edges(), 4);
        assert_eq!(g.options(3), &[1, 0]);
        assert_eq!(g.options(0), &[2]);
        assert_eq!(g.options(2), &[] as &[u32]);
        assert_eq!(g.csr().0, &[0, 1, 2, 2, 4]);
    }

    #[test]
    fn cycles_are_named() {
        assert_eq!(values(1, &[(0, 0)]), Err(Error::Cycle(vec![0])));
        // 4 -> 1 -> 2 -> 3 -> 1, with sinks and a tail around it.
        let e = [(4, 1), (1, 2), (2, 3), (3, 1), (2, 0), (5, 4), (3, 6)];
        match values(7, &e) {
            Err(Error::Cycle(c)) => {
                assert_eq!(c.len(), 3);
                let mut s = c.clone();
                s.sort();
                assert_eq!(s, vec![1, 2, 3]);
                for (i, &u) in c.iter().enumerate() {
                    let v = c[(i + 1) % c.len()];
                    assert!(e.contains(&(u as u32, v as u32)), "{c:?} is not a cycle");
                }
            }
            other => panic!("expected a cycle, got {other:?}"),
        }
    }

    #[test]
    fn bad_edges() {
        let e = Graph::from_edges(3, &[0i64, 1, -1], &[1i64, 2, 0], &NoControl).unwrap_err();
        assert!(e.to_string().contains("edge 2") && e.to_string().contains("negative"));
        let e = Graph::from_edges(3, &[0u64, 1], &[1u64, 3], &NoControl).unwrap_err();
        assert!(e.to_string().contains("edge 1") && e.to_string().contains("num_vertices = 3"));
        let e = Graph::from_edges(3, &[0u32], &[], &NoControl).unwrap_err();
        assert!(matches!(e, Error::Invalid(_)));
        assert!(matches!(
            Graph::from_edges::<u32>(1 << 50, &[], &[], &NoControl),
            Err(Error::Memory { .. })
        ));
        assert!(matches!(
            Graph::from_edges::<u32>(1 << 33, &[], &[], &NoControl),
            Err(Error::Invalid(_) | Error::Memory { .. })
        ));
    }

    #[test]
    fn control_stops_the_computation() {
        struct Stop;
        impl Control for Stop {
            fn check(&self, _: u64, _: u64) -> Result<()> {
                Err(Error::Interrupted)
            }
        }
        let g = Graph::from_edges(2, &[1u32], &[0u32], &NoControl).unwrap();
        assert_eq!(g.grundy_values(&Stop, None), Err(Error::Interrupted));
    }
}
