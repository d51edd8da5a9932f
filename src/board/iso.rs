//! Keys of induced subgraphs up to isomorphism, for graphs that are not grids.
//!
//! A key of the part `m` is always a vertex set `r` of the same host graph whose induced
//! subgraph is isomorphic to `m`'s (`r = m` at worst). So two parts share a key only if they are
//! isomorphic (the same game, under Node or Arc Kayles alike), a key fits the host's vertex count
//! (the narrow tables still take graphs of up to 64 vertices), and whatever goes wrong below (a
//! full store, an isomorphism test given up) only costs merges, never a wrong value.
//!
//! The key of `m` is found so: colour refinement (1-dimensional Weisfeiler-Leman) splits `m`'s
//! vertices into an ordered partition, with a trace that isomorphic parts share (their
//! invariant). The store holds, for each invariant, the first parts met with it (their
//! representatives); `m`'s key is the first representative that an explicit isomorphism test
//! maps onto `m`: individualisation and refinement, each candidate map checked edge by edge, with
//! a budget of branches (refinement leaves ties where no vertex is distinguished, as in the
//! complete graph, the cycle or the hypercube; there, any first choice usually extends). When
//! none is found, `m` becomes a representative itself, while the store has room.
//!
//! On `K_n` every option of `K_k` is `K_{k-2}`: one key per size, where vertex sets gave
//! `C(n, k)`.
//!
//! The same search, from the whole graph onto itself with paired choices, finds a graph's
//! mirror ([`find_mirror`]): an automorphism that is its own inverse, with no vertex its own
//! image or next to it, such as the antipodal map of a cube. A part it maps onto itself is worth
//! 0 under Node and Arc Kayles (the second player answers each move by its image).
//!
//! ```text
//! K_6, parts {0, 1, 2, 3} and {2, 3, 4, 5}: the same K_4, one key.
//! ```

use crate::hash::FxMap;
use std::sync::{OnceLock, RwLock};

/// The most representatives a store keeps (about 64 bytes each with the map's own: 16 MiB);
/// parts met after that key by their vertex sets when no representative matches.
const MAX_REPS: usize = 1 << 18;
/// Branches an isomorphism test may try that do not extend, before it gives up (the part then
/// keeps its own key).
const BRANCH_BUDGET: u32 = 64;
/// The same for the search of a graph's mirror, made once per graph (two Petersen graphs take
/// a few hundred: no mirror maps a Petersen graph onto itself, and each choice within one copy
/// fails only deep down).
const MIRROR_BUDGET: u32 = 4096;

/// The representatives of the parts met so far, by invariant.
#[derive(Default)]
pub(crate) struct IsoKeys {
    reps: RwLock<Reps>,
    /// The whole graph's mirror ([`find_mirror`]), found when first asked for.
    mirror: OnceLock<Option<Box<[u8]>>>,
}

#[derive(Default)]
struct Reps {
    by_invariant: FxMap<u64, Vec<u128>>,
    count: usize,
}

impl std::fmt::Debug for IsoKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("IsoKeys")
    }
}

/// A copy starts empty: the store is a cache, not part of the game.
impl Clone for IsoKeys {
    fn clone(&self) -> Self {
        IsoKeys::default()
    }
}

/// Equal whatever they hold, for the same reason.
impl PartialEq for IsoKeys {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl Eq for IsoKeys {}

impl IsoKeys {
    /// Whether the graph `adj` (every vertex of `all`) has a mirror that maps `m` onto itself:
    /// then `m` is worth 0 ([`find_mirror`]).
    pub(crate) fn mirrored(&self, adj: &[u128], all: u128, m: u128) -> bool {
        match self.mirror.get_or_init(|| find_mirror(adj, all)) {
            Some(to) => vertices(m).fold(0u128, |s, v| s | 1 << to[v]) == m,
            None => false,
        }
    }

    /// The key of the subgraph of `adj` induced by `m` (`m` not empty): a vertex set whose
    /// induced subgraph is isomorphic to `m`'s.
    pub(crate) fn key(&self, adj: &[u128], m: u128) -> u128 {
        if m & (m - 1) == 0 {
            return m;
        }
        let mut cells = vec![m];
        let invariant = refine(adj, &mut cells, 1, m.count_ones().into());
        let bucket = {
            let reps = self.reps.read().unwrap_or_else(|e| e.into_inner());
            reps.by_invariant.get(&invariant).cloned()
        };
        if let Some(bucket) = &bucket {
            for &r in bucket {
                if r == m {
                    return r;
                }
                let mut theirs = vec![r];
                if refine(adj, &mut theirs, 1, r.count_ones().into()) != invariant {
                    continue; // not possible for reps of this bucket, unless the hashes met
                }
                let mut budget = BRANCH_BUDGET;
                if isomorphic(adj, &cells, &theirs, &mut budget) {
                    return r;
                }
            }
        }
        let mut reps = self.reps.write().unwrap_or_else(|e| e.into_inner());
        if reps.count < MAX_REPS {
            reps.count += 1;
            reps.by_invariant.entry(invariant).or_default().push(m);
        }
        m
    }
}

/// Mixes `x` into the hash `h`.
#[inline]
fn mix(h: u64, x: u64) -> u64 {
    (h ^ x).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29)
}

/// The vertices of `m`, lowest first.
#[inline]
fn vertices(m: u128) -> impl Iterator<Item = usize> {
    let mut bits = m;
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let v = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            v
        })
    })
}

/// Refines the ordered partition `cells` until it is equitable (every vertex of a cell has as
/// many neighbours in each cell as the others of its cell), splitting by the cells of `queue`
/// (bit `i`: cell `i`) and by every piece made on the way. Each split cell keeps the piece with
/// the fewest neighbours in the splitter at its place, the others go to the end by count: a
/// process that depends only on the graph and the order of the cells, so isomorphic inputs give
/// the same trace. Returns the trace's hash, seeded with `h`.
fn refine(adj: &[u128], cells: &mut Vec<u128>, mut queue: u128, mut h: u64) -> u64 {
    let mut groups: Vec<(u32, u128)> = Vec::new();
    while queue != 0 {
        let s = queue.trailing_zeros() as usize;
        queue &= queue - 1;
        let splitter = cells[s];
        let mut near = 0;
        for v in vertices(splitter) {
            near |= adj[v];
        }
        for t in 0..cells.len() {
            let cell = cells[t];
            if cell & (cell - 1) == 0 || cell & near == 0 {
                continue;
            }
            groups.clear();
            for v in vertices(cell) {
                let c = (adj[v] & splitter).count_ones();
                match groups.iter_mut().find(|g| g.0 == c) {
                    Some(g) => g.1 |= 1 << v,
                    None => groups.push((c, 1 << v)),
                }
            }
            if groups.len() == 1 {
                continue;
            }
            groups.sort_unstable_by_key(|g| g.0);
            h = mix(h, (t as u64) << 8 | s as u64);
            cells[t] = groups[0].1;
            queue |= 1 << t;
            for &(c, piece) in &groups {
                h = mix(h, u64::from(c) << 8 | u64::from(piece.count_ones()));
            }
            for &(_, piece) in &groups[1..] {
                queue |= 1 << cells.len();
                cells.push(piece);
            }
        }
    }
    mix(h, cells.len() as u64)
}

/// Whether the ordered partitions have as many cells, of the same sizes.
fn same_shape(a: &[u128], b: &[u128]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(p, q)| p.count_ones() == q.count_ones())
}

/// Whether the map that takes the `i`-th vertex of each cell of `a` to the `i`-th of the same
/// cell of `b` is an isomorphism of the induced subgraphs ([`same_shape`] partitions): the map
/// (`to[x]`) when it is.
fn maps(adj: &[u128], a: &[u128], b: &[u128]) -> Option<[u8; 128]> {
    let (ma, mb) = (
        a.iter().fold(0, |x, c| x | c),
        b.iter().fold(0, |x, c| x | c),
    );
    let mut to = [0u8; 128];
    for (&ca, &cb) in a.iter().zip(b) {
        for (x, y) in vertices(ca).zip(vertices(cb)) {
            to[x] = y as u8;
        }
    }
    for (&ca, &cb) in a.iter().zip(b) {
        for (x, y) in vertices(ca).zip(vertices(cb)) {
            let (nx, ny) = (adj[x] & ma, adj[y] & mb);
            if nx.count_ones() != ny.count_ones() {
                return None;
            }
            // Cell by cell: all or none of a cell is quick; the rest goes vertex by vertex.
            for (&da, &db) in a.iter().zip(b) {
                let (sx, sy) = (nx & da, ny & db);
                if sx == 0 && sy == 0 || sx == da & !(1 << x) && sy == db & !(1 << y) {
                    continue;
                }
                if sx.count_ones() != sy.count_ones() {
                    return None;
                }
                let image = vertices(sx).fold(0u128, |s, v| s | 1 << to[v]);
                if image != sy {
                    return None;
                }
            }
        }
    }
    Some(to)
}

/// Whether the induced subgraphs on `a`'s and `b`'s vertices are isomorphic by a map that takes
/// each cell of `a` onto the same cell of `b` (equitable partitions with the same trace): `true`
/// only when such a map was found and checked; `false` when there is none, or the search ran
/// past `budget` branches that did not extend.
fn isomorphic(adj: &[u128], a: &[u128], b: &[u128], budget: &mut u32) -> bool {
    if !same_shape(a, b) {
        return false;
    }
    if maps(adj, a, b).is_some() {
        return true;
    }
    let Some(t) = a.iter().position(|c| c & (c - 1) != 0) else {
        return false;
    };
    let x = a[t].trailing_zeros() as usize;
    let mut a2 = a.to_vec();
    a2[t] &= !(1 << x);
    a2.push(1 << x);
    let last = 1 << (a2.len() - 1);
    let ha = refine(adj, &mut a2, last, 0);
    for y in vertices(b[t]) {
        if *budget == 0 {
            return false;
        }
        let mut b2 = b.to_vec();
        b2[t] &= !(1 << y);
        b2.push(1 << y);
        let hb = refine(adj, &mut b2, last, 0);
        if ha == hb && isomorphic(adj, &a2, &b2, budget) {
            return true;
        }
        *budget = budget.saturating_sub(1);
    }
    false
}

/// A mirror of the subgraph on `m`: an automorphism `s` with `s(s(v)) = v`, and no vertex its
/// own image or next to it (`s[v]` for `v` in `m`), if the search finds one within its budget.
/// A position that `s` maps onto itself is worth 0 under Node and Arc Kayles: the second player
/// answers each move by its image, which is still free (not the move itself, nor next to it)
/// and leaves a position that `s` maps onto itself again (the antipodal map of a cube).
///
/// The search is the isomorphism test's, from `m` onto itself, each branch fixing a pair: `x`
/// goes to `y` and `y` to `x`.
pub(crate) fn find_mirror(adj: &[u128], m: u128) -> Option<Box<[u8]>> {
    if m == 0 {
        return None;
    }
    let mut cells = vec![m];
    refine(adj, &mut cells, 1, 0);
    let mut budget = MIRROR_BUDGET;
    mirror_search(adj, m, &cells, &cells, &mut budget).map(|to| to[..].into())
}

fn mirror_search(
    adj: &[u128],
    m: u128,
    a: &[u128],
    b: &[u128],
    budget: &mut u32,
) -> Option<[u8; 128]> {
    if !same_shape(a, b) {
        return None;
    }
    if let Some(to) = maps(adj, a, b) {
        let mirror = |v: usize| {
            let s = usize::from(to[v]);
            s != v && usize::from(to[s]) == v && adj[v] >> s & 1 == 0
        };
        if vertices(m).all(mirror) {
            return Some(to);
        }
    }
    let t = a.iter().position(|c| c & (c - 1) != 0)?;
    let x = a[t].trailing_zeros() as usize;
    for y in vertices(b[t]) {
        if y == x || adj[x] >> y & 1 == 1 {
            continue;
        }
        if *budget == 0 {
            return None;
        }
        *budget -= 1;
        let (mut a2, mut b2) = (a.to_vec(), b.to_vec());
        a2[t] &= !(1 << x);
        a2.push(1 << x);
        b2[t] &= !(1 << y);
        b2.push(1 << y);
        let mut fresh = 1u128 << t | 1 << (a2.len() - 1);
        // And y to x: y's cell on one side must be x's on the other.
        let (Some(u), Some(w)) = (
            a2.iter().position(|c| c >> y & 1 == 1),
            b2.iter().position(|c| c >> x & 1 == 1),
        ) else {
            continue;
        };
        if u != w || a2[u].count_ones() != b2[u].count_ones() {
            continue;
        }
        if a2[u] != 1 << y {
            a2[u] &= !(1 << y);
            a2.push(1 << y);
            b2[u] &= !(1 << x);
            b2.push(1 << x);
            fresh |= 1 << u | 1 << (a2.len() - 1);
        }
        let ha = refine(adj, &mut a2, fresh, 0);
        let hb = refine(adj, &mut b2, fresh, 0);
        if ha == hb {
            if let Some(to) = mirror_search(adj, m, &a2, &b2, budget) {
                return Some(to);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::brute;
    use crate::engine::testing::Rng;

    fn adjacency(n: usize, edges: &[(usize, usize)]) -> Vec<u128> {
        let mut adj = vec![0u128; n];
        for &(u, v) in edges {
            adj[u] |= 1 << v;
            adj[v] |= 1 << u;
        }
        adj
    }

    /// A plain isomorphism test: every bijection, for graphs of a few vertices.
    fn brute_isomorphic(adj: &[u128], a: u128, b: u128) -> bool {
        let (va, vb): (Vec<_>, Vec<_>) = (vertices(a).collect(), vertices(b).collect());
        if va.len() != vb.len() {
            return false;
        }
        let mut perm: Vec<usize> = (0..vb.len()).collect();
        loop {
            let ok = (0..va.len()).all(|i| {
                (0..va.len())
                    .all(|j| (adj[va[i]] >> va[j] & 1) == (adj[vb[perm[i]]] >> vb[perm[j]] & 1))
            });
            if ok {
                return true;
            }
            // Next permutation.
            let Some(i) = (0..perm.len().saturating_sub(1))
                .rev()
                .find(|&i| perm[i] < perm[i + 1])
            else {
                return false;
            };
            let j = (i + 1..perm.len())
                .rev()
                .find(|&j| perm[j] > perm[i])
                .unwrap();
            perm.swap(i, j);
            perm[i + 1..].reverse();
        }
    }

    /// On random graphs and regular ones, every key is a vertex set isomorphic to its part, and
    /// parts of up to 7 vertices share a key exactly when a brute force finds them isomorphic
    /// (where the test search gives up, more keys than classes would be allowed, but none
    /// happens on these).
    #[test]
    fn keys_are_isomorphism_classes() {
        let mut rng = Rng(0x51ed_270b);
        let mut graphs: Vec<(usize, Vec<(usize, usize)>)> = Vec::new();
        for _ in 0..12 {
            let n = 6 + rng.below(5) as usize;
            let mut e = Vec::new();
            for u in 0..n {
                for v in u + 1..n {
                    if rng.below(2) == 0 {
                        e.push((u, v));
                    }
                }
            }
            graphs.push((n, e));
        }
        graphs.push((8, (0..8).map(|v| (v, (v + 1) % 8)).collect())); // C_8
        let petersen: Vec<_> = (0..5)
            .flat_map(|i| [(i, (i + 1) % 5), (i, i + 5), (i + 5, (i + 2) % 5 + 5)])
            .collect();
        graphs.push((10, petersen));
        let cube: Vec<_> = (0..8)
            .flat_map(|v| (0..3).map(move |b| (v, v ^ 1 << b)))
            .filter(|&(u, v)| u < v)
            .collect();
        graphs.push((8, cube));
        graphs.push((
            8,
            (0..4).flat_map(|u| (4..8).map(move |v| (u, v))).collect(),
        )); // K_{4,4}
        for (n, edges) in graphs {
            let adj = adjacency(n, &edges);
            let keys = IsoKeys::default();
            let mut sets = Vec::new();
            for _ in 0..150 {
                let m = (rng.below(1 << n) as u128) & ((1 << n) - 1);
                if m.count_ones() >= 2 && m.count_ones() <= 7 {
                    sets.push(m);
                }
            }
            let got: Vec<u128> = sets.iter().map(|&m| keys.key(&adj, m)).collect();
            for (i, &m) in sets.iter().enumerate() {
                assert!(brute_isomorphic(&adj, m, got[i]), "{edges:?} {m:#b}");
                for (j, &w) in sets.iter().enumerate().take(i) {
                    let iso = brute_isomorphic(&adj, m, w);
                    assert_eq!(got[i] == got[j], iso, "{edges:?} {m:#b} {w:#b}");
                }
            }
        }
    }

    /// The cube and the Wagner graph (the Moebius ladder on 8 vertices): both cubic on 8
    /// vertices, alike to colour refinement, not isomorphic; two cubes are.
    #[test]
    fn refinement_twins_are_told_apart() {
        let mut edges: Vec<_> = (0..8)
            .flat_map(|v| (0..3).map(move |b| (v, v ^ 1 << b)))
            .filter(|&(u, v)| u < v)
            .collect();
        edges.extend((0..8).map(|v| (8 + v, 8 + (v + 1) % 8)));
        edges.extend((0..4).map(|v| (8 + v, 12 + v)));
        let cube2 = edges[..12].iter().map(|&(u, v)| (u + 16, v + 16));
        edges.extend(cube2.collect::<Vec<_>>());
        let adj = adjacency(24, &edges);
        let keys = IsoKeys::default();
        let (cube, wagner, cube2) = (0xffu128, 0xff00u128, 0xff_0000u128);
        assert!(!brute_isomorphic(&adj, cube, wagner));
        assert_eq!(keys.key(&adj, cube), cube);
        assert_eq!(keys.key(&adj, wagner), wagner);
        assert_eq!(keys.key(&adj, cube2), cube);
    }

    /// Mirrors found are mirrors (checked edge by edge); the cubes, even cycles and two copies of
    /// a graph have one; complete graphs (every vertex next to every other) have none.
    #[test]
    fn mirrors_are_involutions_without_neighbours() {
        let cube = |d: usize| -> Vec<(usize, usize)> {
            (0..1usize << d)
                .flat_map(|v| (0..d).map(move |b| (v, v ^ 1 << b)))
                .filter(|&(u, v)| u < v)
                .collect()
        };
        let cycle =
            |n: usize| -> Vec<(usize, usize)> { (0..n).map(|v| (v, (v + 1) % n)).collect() };
        let petersen: Vec<_> = (0..5)
            .flat_map(|i| [(i, (i + 1) % 5), (i, i + 5), (i + 5, (i + 2) % 5 + 5)])
            .collect();
        let mut two = petersen.clone();
        two.extend(petersen.iter().map(|&(u, v)| (u + 10, v + 10)));
        let complete: Vec<_> = (0..9)
            .flat_map(|u| (u + 1..9).map(move |v| (u, v)))
            .collect();
        type Case = (usize, Vec<(usize, usize)>, bool);
        let cases: Vec<Case> = vec![
            (128, cube(7), true),
            (16, cube(4), true),
            (12, cycle(12), true),
            (20, two, true),
            (9, complete, false),
            (6, vec![(0, 1), (1, 2), (2, 3), (3, 4), (1, 5)], false),
        ];
        for (n, edges, has) in cases {
            let adj = adjacency(n, &edges);
            let all = if n == 128 { u128::MAX } else { (1 << n) - 1 };
            let found = find_mirror(&adj, all);
            assert_eq!(found.is_some(), has, "{n} {edges:?}");
            if let Some(to) = found {
                for v in 0..n {
                    let s = usize::from(to[v]);
                    assert!(s < n && s != v && usize::from(to[s]) == v && adj[v] >> s & 1 == 0);
                }
                for &(u, v) in &edges {
                    assert_eq!(adj[usize::from(to[u])] >> to[v] & 1, 1, "edge ({u}, {v})");
                }
            }
        }
    }

    /// K_128: every part of k vertices gets one key.
    #[test]
    fn complete_graph_parts_share_keys() {
        let n = 128;
        let adj: Vec<u128> = (0..n).map(|v| !(1u128 << v)).collect();
        let keys = IsoKeys::default();
        let mut rng = Rng(5);
        let first = keys.key(&adj, u128::MAX >> 3);
        for _ in 0..50 {
            let mut m = u128::MAX;
            while m.count_ones() > 125 {
                m &= !(1 << rng.below(128));
            }
            assert_eq!(keys.key(&adj, m), first);
        }
    }

    /// The plain options of Node and Arc Kayles, from the edge list.
    fn plain_options(n: usize, edges: &[(usize, usize)], arc: bool, pos: u128) -> Vec<u128> {
        let has = |v: usize| pos >> v & 1 == 1;
        if arc {
            let live = edges.iter().filter(|&&(a, b)| has(a) && has(b));
            return live.map(|&(a, b)| pos & !(1 << a) & !(1 << b)).collect();
        }
        (0..n)
            .filter(|&v| has(v))
            .map(|v| {
                let near = edges.iter().fold(1u128 << v, |m, &(a, b)| {
                    m | if a == v { 1 << b } else { 0 } | if b == v { 1 << a } else { 0 }
                });
                pos & !near
            })
            .collect()
    }

    /// Graphs whose refinement leaves ties (cycles, the Petersen graph, cubes, complete and
    /// complete bipartite graphs, disjoint unions of isomorphic pieces): Node and Arc Kayles by
    /// the search with isomorphism keys equal the brute force on every reachable position.
    #[test]
    fn kayles_on_symmetric_graphs_match_brute_force() {
        use crate::board::{ArcKayles, NodeKayles, SimpleGraph};
        use crate::control::NoControl;
        use crate::nimber_search::Search;
        let cycle = |n: usize, at: usize| (0..n).map(move |v| (at + v, at + (v + 1) % n));
        let petersen: Vec<_> = (0..5)
            .flat_map(|i| [(i, (i + 1) % 5), (i, i + 5), (i + 5, (i + 2) % 5 + 5)])
            .collect();
        let cube = |d: usize| -> Vec<(usize, usize)> {
            (0..1usize << d)
                .flat_map(|v| (0..d).map(move |b| (v, v ^ 1 << b)))
                .filter(|&(u, v)| u < v)
                .collect()
        };
        let complete = |n: usize| -> Vec<(usize, usize)> {
            (0..n)
                .flat_map(|u| (u + 1..n).map(move |v| (u, v)))
                .collect()
        };
        let bipartite = |a: usize, b: usize| -> Vec<(usize, usize)> {
            (0..a)
                .flat_map(|u| (a..a + b).map(move |v| (u, v)))
                .collect()
        };
        let mut two_petersens = petersen.clone();
        two_petersens.extend(petersen.iter().map(|&(u, v)| (u + 10, v + 10)));
        let mut union: Vec<_> = cycle(5, 0).chain(cycle(5, 5)).chain(cycle(6, 10)).collect();
        union.push((15, 12)); // a chord: C_6 no longer vertex-transitive
        let graphs: Vec<(usize, Vec<(usize, usize)>)> = vec![
            (12, cycle(12, 0).collect()),
            (10, petersen.clone()),
            (16, cube(4)),
            (9, complete(9)),
            (8, bipartite(4, 4)),
            (9, bipartite(3, 6)),
            (16, union),
            (20, two_petersens),
            (16, cycle(8, 0).chain(cycle(8, 8)).collect()),
        ];
        for (n, edges) in &graphs {
            for arc in [false, true] {
                let graph = SimpleGraph::new(*n, edges).unwrap();
                let start = graph.vertices();
                let all = brute::values(start, |p| plain_options(*n, edges, arc, p));
                let check = |search: &mut dyn FnMut(u128) -> u32| {
                    for (&pos, &v) in &all {
                        assert_eq!(search(pos), v, "arc {arc} {edges:?} {pos:#x}");
                    }
                };
                if arc {
                    let game = ArcKayles::new(graph);
                    let mut s = Search::new(&game, 1 << 16).unwrap();
                    check(&mut |p| s.value(p, &NoControl).unwrap());
                } else {
                    let game = NodeKayles::new(graph);
                    let mut s = Search::new(&game, 1 << 16).unwrap();
                    check(&mut |p| s.value(p, &NoControl).unwrap());
                }
            }
        }
    }
}
