//! Node Kayles: a move picks a vertex and deletes it with its neighbours; the player who cannot
//! move (the graph is empty) loses. On a path of `n` vertices it is Dawson's chess, the
//! octal game 0.137 at heap `n`.
//!
//! A position is the set of vertices left. Its components are the connected components of the
//! subgraph they induce (a lone vertex is one move: *1); a component's key is its shape under
//! the grid's symmetries when the graph is a grid, else its class up to isomorphism
//! ([`SimpleGraph::key`](super::SimpleGraph::key)). A component that a mirror of the graph maps
//! onto itself is worth 0 ([`SimpleGraph::mirrored`](super::SimpleGraph::mirrored)).
//!
//! ```
//! use grundy::board::{NodeKayles, SimpleGraph};
//! use grundy::control::NoControl;
//! use grundy::nimber_search::Search;
//! let game = NodeKayles::new(SimpleGraph::path(9).unwrap());
//! let mut search = Search::new(&game, 1 << 20).unwrap();
//! assert_eq!(search.value(game.start(), &NoControl).unwrap(), 3); // 0.137 at 9
//! ```

use super::graph::SimpleGraph;
use super::grid::Grid;
use super::{Board, Fact};

/// Node Kayles on a simple graph of at most 128 vertices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeKayles {
    graph: SimpleGraph,
    /// `closed[v]`: `v` and its neighbours, what a move at `v` deletes.
    closed: Vec<u128>,
}

impl NodeKayles {
    /// Node Kayles on `graph`.
    pub fn new(graph: SimpleGraph) -> NodeKayles {
        let closed = (0..graph.len())
            .map(|v| graph.neighbours(v) | 1u128 << v)
            .collect();
        NodeKayles { graph, closed }
    }

    /// The graph.
    pub fn graph(&self) -> &SimpleGraph {
        &self.graph
    }

    /// The starting position: every vertex.
    pub fn start(&self) -> u128 {
        self.graph.vertices()
    }
}

/// What the half turn about `component`'s own centre tells of its value, when the component is
/// its own image (a cell `x` goes to `2 * centre - x`, so `x` and its image lie an even number
/// of steps apart along each axis, unless the centre falls between two cells along one axis).
/// - Centre on a grid vertex, or on a cell, or between two cells, that is not in the component:
///   no cell is its own image or next to it, and the second player wins by answering each move
///   with its image (value 0).
/// - Centre on a cell of the component: the first player takes it (its neighbours are their own
///   images as a set) and then answers by images: not 0.
/// - Centre between two cells of the component, which are neighbours: nothing.
fn half_turn(grid: &Grid, component: u128) -> Fact {
    match grid.half_turn_centre(component) {
        Some((centre, _)) if component & centre == 0 => Fact::Exact(0),
        Some((_, 0)) => Fact::Not(1),
        _ => Fact::Unknown,
    }
}

impl Board for NodeKayles {
    fn options(&self, pos: u128, out: &mut Vec<u128>) {
        let mut bits = pos;
        while bits != 0 {
            let v = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            out.push(pos & !self.closed[v]);
        }
    }

    fn components(&self, pos: u128, out: &mut Vec<u128>) {
        self.graph.for_each_component(pos, |c| out.push(c));
    }

    fn key(&self, component: u128) -> u128 {
        self.graph.key(component)
    }

    fn key_bits(&self) -> u32 {
        self.graph.key_bits()
    }

    /// 0 for a component that a mirror of the graph maps onto itself
    /// ([`SimpleGraph::mirrored`]): the second player answers each move by its image. On a
    /// grid, also what the half turn about the component's own centre tells
    /// (`half_turn`).
    fn known(&self, component: u128) -> Fact {
        if self.graph.mirrored(component) {
            return Fact::Exact(0);
        }
        match self.graph.as_grid() {
            Some(grid) => half_turn(grid, component),
            None => Fact::Unknown,
        }
    }

    /// A lone vertex, or two joined: one move takes all, *1.
    fn value_of_size(&self, size: u32) -> Option<u32> {
        (size <= 2).then_some(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::brute;
    use crate::control::NoControl;
    use crate::engine::testing::{exact, Rng};
    use crate::nimber_search::Search;

    /// Node Kayles' options from an edge list, independent of the bitmask code above.
    fn plain_options(n: usize, edges: &[(usize, usize)], pos: u128) -> Vec<u128> {
        (0..n)
            .filter(|&v| pos >> v & 1 == 1)
            .map(|v| {
                let mut gone = 1u128 << v;
                for &(a, b) in edges {
                    if a == v {
                        gone |= 1 << b;
                    }
                    if b == v {
                        gone |= 1 << a;
                    }
                }
                pos & !gone
            })
            .collect()
    }

    fn grid_edges(rows: usize, cols: usize) -> Vec<(usize, usize)> {
        let mut e = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                if c + 1 < cols {
                    e.push((r * cols + c, r * cols + c + 1));
                }
                if r + 1 < rows {
                    e.push((r * cols + c, (r + 1) * cols + c));
                }
            }
        }
        e
    }

    /// Paths are Dawson's chess: 0.137 by the crate's exact take-and-break engine.
    #[test]
    fn node_kayles_paths_are_dawsons_chess() {
        let dawson = exact("0.137", 129);
        for (n, &want) in dawson.iter().enumerate().skip(1) {
            let game = NodeKayles::new(SimpleGraph::path(n).unwrap());
            let mut search = Search::new(&game, 1 << 20).unwrap();
            assert_eq!(
                search.value(game.start(), &NoControl).unwrap(),
                want,
                "P_{n}"
            );
        }
    }

    /// What the half turn tells (`half_turn`), on every component of every position reachable
    /// in small grids, against the brute force: every fact right, and both kinds met often.
    #[test]
    fn node_kayles_half_turn_facts_match_brute_force() {
        let (mut zeros, mut not_zeros) = (0, 0);
        for (rows, cols) in [(3, 3), (3, 4), (4, 4), (3, 5), (4, 5), (2, 7)] {
            let n = rows * cols;
            let edges = grid_edges(rows, cols);
            let grid = Grid::new(rows, cols).unwrap();
            let game = NodeKayles::new(SimpleGraph::grid(rows, cols).unwrap());
            let all = brute::values(game.start(), |p| plain_options(n, &edges, p));
            let mut parts = Vec::new();
            for &pos in all.keys() {
                parts.clear();
                game.components(pos, &mut parts);
                for &c in &parts {
                    let value = || brute::values(c, |p| plain_options(n, &edges, p))[&c];
                    match half_turn(&grid, c) {
                        Fact::Exact(g) => {
                            assert_eq!(value(), g, "{rows}x{cols} {c:#x}");
                            zeros += 1;
                        }
                        Fact::Not(bits) => {
                            assert_eq!(bits >> value() & 1, 0, "{rows}x{cols} {c:#x}");
                            not_zeros += 1;
                        }
                        Fact::Unknown => {}
                    }
                }
            }
        }
        assert!(zeros > 50 && not_zeros > 50, "{zeros} {not_zeros}");
    }

    /// A path given as a plain edge list (no grid symmetry) gives the same values.
    #[test]
    fn node_kayles_plain_paths_and_cycles() {
        let dawson = exact("0.137", 40);
        for n in 3..=36 {
            let path: Vec<_> = (0..n - 1).map(|v| (v, v + 1)).collect();
            let game = NodeKayles::new(SimpleGraph::new(n, &path).unwrap());
            let mut search = Search::new(&game, 1 << 20).unwrap();
            assert_eq!(search.value(game.start(), &NoControl).unwrap(), dawson[n]);
            // C_n: every move leaves P_{n-3}, so G(C_n) = mex{G(P_{n-3})}.
            let cycle = NodeKayles::new(SimpleGraph::cycle(n).unwrap());
            let mut search = Search::new(&cycle, 1 << 20).unwrap();
            let want = u32::from(dawson[n - 3] == 0);
            assert_eq!(
                search.value(cycle.start(), &NoControl).unwrap(),
                want,
                "C_{n}"
            );
        }
    }

    /// Every grid up to 4 x 5 and every position reachable in it, and random graphs: search
    /// equals brute force.
    #[test]
    fn node_kayles_matches_brute_force() {
        for rows in 1..=4 {
            for cols in rows..=5 {
                let n = rows * cols;
                let edges = grid_edges(rows, cols);
                let game = NodeKayles::new(SimpleGraph::grid(rows, cols).unwrap());
                let all = brute::values(game.start(), |p| plain_options(n, &edges, p));
                let sized = brute::check_value_of_size(&game, all.keys().copied(), |p| {
                    plain_options(n, &edges, p)
                });
                assert!(sized > 0 || n < 3);
                let mut search = Search::new(&game, 1 << 14).unwrap();
                for (&pos, &v) in &all {
                    assert_eq!(
                        search.value(pos, &NoControl).unwrap(),
                        v,
                        "{rows}x{cols} {pos:#x}"
                    );
                }
            }
        }
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for _ in 0..30 {
            let n = 6 + rng.below(12) as usize;
            let mut edges = Vec::new();
            for u in 0..n {
                for v in u + 1..n {
                    if rng.below(4) == 0 {
                        edges.push((u, v));
                    }
                }
            }
            let game = NodeKayles::new(SimpleGraph::new(n, &edges).unwrap());
            let all = brute::values(game.start(), |p| plain_options(n, &edges, p));
            let mut search = Search::new(&game, 1 << 12).unwrap();
            for (&pos, &v) in &all {
                assert_eq!(search.value(pos, &NoControl).unwrap(), v);
            }
        }
    }
}
