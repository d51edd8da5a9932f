//! Arc Kayles: a move picks an edge and deletes both its endpoints (with all their edges); the
//! player who cannot move (no edge is left) loses. On a grid graph it is Cram.
//!
//! A position is the set of vertices left. Its components are the connected components with at
//! least one edge (a lone vertex can never be used); keys as in
//! [`SimpleGraph::key`](super::SimpleGraph::key), and a component that a mirror of the graph
//! maps onto itself is worth 0 ([`SimpleGraph::mirrored`](super::SimpleGraph::mirrored)).
//!
//! ```
//! use grundy::board::{ArcKayles, SimpleGraph};
//! use grundy::control::NoControl;
//! use grundy::nimber_search::Search;
//! // The star K_{1,3}: every move takes the centre, one move in all: *1.
//! let game = ArcKayles::new(SimpleGraph::new(4, &[(0, 1), (0, 2), (0, 3)]).unwrap());
//! let mut search = Search::new(&game, 1 << 20).unwrap();
//! assert_eq!(search.value(game.start(), &NoControl).unwrap(), 1);
//! ```

use super::graph::SimpleGraph;
use super::{Board, Fact};

/// Arc Kayles on a simple graph of at most 128 vertices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArcKayles {
    graph: SimpleGraph,
}

impl ArcKayles {
    /// Arc Kayles on `graph`.
    pub fn new(graph: SimpleGraph) -> ArcKayles {
        ArcKayles { graph }
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

impl Board for ArcKayles {
    fn options(&self, pos: u128, out: &mut Vec<u128>) {
        let mut bits = pos;
        while bits != 0 {
            let u = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            // Each edge once: from its lower end `u` to the higher ends left in `bits`.
            let mut ends = self.graph.neighbours(u) & bits;
            while ends != 0 {
                let v = ends.trailing_zeros();
                ends &= ends - 1;
                out.push(pos & !(1u128 << u | 1u128 << v));
            }
        }
    }

    fn components(&self, pos: u128, out: &mut Vec<u128>) {
        self.graph.for_each_component(pos, |c| {
            if c & (c - 1) != 0 {
                out.push(c);
            }
        });
    }

    fn key(&self, component: u128) -> u128 {
        self.graph.key(component)
    }

    fn key_bits(&self) -> u32 {
        self.graph.key_bits()
    }

    /// 0 for a component that a mirror of the graph maps onto itself
    /// ([`SimpleGraph::mirrored`]): the second player answers each move by its image.
    fn known(&self, component: u128) -> Fact {
        if self.graph.mirrored(component) {
            Fact::Exact(0)
        } else {
            Fact::Unknown
        }
    }

    /// A component of two or three vertices (an edge, a path, a triangle): every move leaves
    /// no edge, *1.
    fn value_of_size(&self, size: u32) -> Option<u32> {
        (size <= 3).then_some(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{brute, Cram};
    use crate::control::NoControl;
    use crate::engine::testing::Rng;
    use crate::nimber_search::Search;

    fn plain_options(edges: &[(usize, usize)], pos: u128) -> Vec<u128> {
        let mut out: Vec<u128> = edges
            .iter()
            .filter(|&&(a, b)| pos >> a & 1 == 1 && pos >> b & 1 == 1)
            .map(|&(a, b)| pos & !(1u128 << a) & !(1u128 << b))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Random graphs (with repeated edges in the list), every reachable position.
    #[test]
    fn arc_kayles_matches_brute_force() {
        let mut rng = Rng(0x1234_5678_9abc_def1);
        let mut sized = 0;
        for _ in 0..30 {
            let n = 5 + rng.below(12) as usize;
            let mut edges = Vec::new();
            for u in 0..n {
                for v in u + 1..n {
                    if rng.below(3) == 0 {
                        edges.push((u, v));
                    }
                }
            }
            if let Some(&e) = edges.first() {
                edges.push((e.1, e.0));
            }
            let game = ArcKayles::new(SimpleGraph::new(n, &edges).unwrap());
            let all = brute::values(game.start(), |p| plain_options(&edges, p));
            sized += brute::check_value_of_size(&game, all.keys().copied(), |p| {
                plain_options(&edges, p)
            });
            let mut search = Search::new(&game, 1 << 12).unwrap();
            for (&pos, &v) in &all {
                assert_eq!(
                    search.value(pos, &NoControl).unwrap(),
                    v,
                    "{edges:?} {pos:#x}"
                );
            }
        }
        assert!(sized > 100, "{sized}");
    }

    /// On a grid, Arc Kayles is Cram: the two implementations agree on random positions.
    #[test]
    fn arc_kayles_on_grids_is_cram() {
        let mut rng = Rng(77);
        for &(rows, cols) in &[(3, 3), (4, 5), (5, 5), (3, 7)] {
            let arc = ArcKayles::new(SimpleGraph::grid(rows, cols).unwrap());
            let cram = Cram::new(rows, cols).unwrap();
            let mut a = Search::new(&arc, 1 << 18).unwrap();
            let mut c = Search::new(&cram, 1 << 18).unwrap();
            for _ in 0..10 {
                let mut pos = arc.start();
                for i in 0..rows * cols {
                    if rng.below(4) == 0 {
                        pos &= !(1u128 << i);
                    }
                }
                assert_eq!(
                    a.value(pos, &NoControl).unwrap(),
                    c.value(pos, &NoControl).unwrap()
                );
            }
        }
    }
}
