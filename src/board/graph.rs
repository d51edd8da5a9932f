//! Simple undirected graphs of at most 128 vertices, as neighbour bitmasks, for the games played
//! on graphs (Node Kayles, Arc Kayles). A graph built from a grid remembers it, so that its
//! induced subgraphs get keys under the grid's symmetries; any other graph keys a subgraph up to
//! isomorphism (`board::iso`: on the complete graph, one key per size).
//!
//! ```
//! use grundy::board::SimpleGraph;
//! let g = SimpleGraph::new(4, &[(0, 1), (1, 2), (2, 3), (3, 0)]).unwrap(); // the 4-cycle
//! assert_eq!(g.neighbours(0), 0b1010);
//! let mut parts = Vec::new();
//! g.for_each_component(0b0101, |c| parts.push(c)); // vertices 0 and 2: not adjacent
//! assert_eq!(parts, vec![0b0001, 0b0100]);
//! ```

use super::grid::{low_bits, Grid, MAX_CELLS};
use super::iso::IsoKeys;
use crate::error::{Error, Result};

/// A simple undirected graph (no loops, no multiple edges) on vertices `0..n`, `n <= 128`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SimpleGraph {
    /// `adj[v]`: the neighbours of `v`.
    adj: Vec<u128>,
    /// The grid the graph is, when it was built as one (vertex `r * cols + c`).
    grid: Option<Grid>,
    /// The keys of a graph that is not a grid: up to isomorphism, with their store.
    iso: IsoKeys,
}

impl SimpleGraph {
    /// The graph on vertices `0..n` with the given edges (repeated edges count once).
    ///
    /// # Errors
    /// [`Error::Invalid`] when `n > 128`, an edge names a vertex `>= n`, or an edge is a loop.
    pub fn new(n: usize, edges: &[(usize, usize)]) -> Result<SimpleGraph> {
        if n > MAX_CELLS {
            return Err(Error::Invalid(format!(
                "a graph may have at most {MAX_CELLS} vertices, not {n}"
            )));
        }
        let mut adj = vec![0u128; n];
        for &(u, v) in edges {
            if u >= n || v >= n {
                return Err(Error::Invalid(format!(
                    "edge ({u}, {v}) names a vertex outside 0..{n}"
                )));
            }
            if u == v {
                return Err(Error::Invalid(format!("edge ({u}, {v}) is a loop")));
            }
            adj[u] |= 1 << v;
            adj[v] |= 1 << u;
        }
        Ok(SimpleGraph {
            adj,
            grid: None,
            iso: IsoKeys::default(),
        })
    }

    /// The `rows x cols` grid graph: vertex `r * cols + c` is cell `(r, c)`, joined to the cells
    /// above, below, left and right of it. Keys use the grid's symmetries.
    ///
    /// # Errors
    /// [`Error::Invalid`] when a side is 0 or the grid has more than 128 cells.
    pub fn grid(rows: usize, cols: usize) -> Result<SimpleGraph> {
        let grid = Grid::new(rows, cols)?;
        let adj = (0..rows * cols)
            .map(|v| grid.grow(1u128 << v) & !(1u128 << v))
            .collect();
        Ok(SimpleGraph {
            adj,
            grid: Some(grid),
            iso: IsoKeys::default(),
        })
    }

    /// The path on `n` vertices (a `1 x n` grid), `1 <= n <= 128`.
    ///
    /// # Errors
    /// [`Error::Invalid`] when `n` is 0 or over 128.
    pub fn path(n: usize) -> Result<SimpleGraph> {
        SimpleGraph::grid(1, n)
    }

    /// The cycle on `n` vertices, `3 <= n <= 128`.
    ///
    /// # Errors
    /// [`Error::Invalid`] when `n` is below 3 or over 128.
    pub fn cycle(n: usize) -> Result<SimpleGraph> {
        if n < 3 {
            return Err(Error::Invalid(format!(
                "a cycle needs at least 3 vertices, not {n}"
            )));
        }
        let edges: Vec<_> = (0..n).map(|v| (v, (v + 1) % n)).collect();
        SimpleGraph::new(n, &edges)
    }

    /// The number of vertices.
    pub fn len(&self) -> usize {
        self.adj.len()
    }

    /// Whether the graph has no vertices.
    pub fn is_empty(&self) -> bool {
        self.adj.is_empty()
    }

    /// Every vertex.
    pub fn vertices(&self) -> u128 {
        low_bits(self.adj.len())
    }

    /// The neighbours of `v` (`v < len`).
    #[inline]
    pub fn neighbours(&self, v: usize) -> u128 {
        self.adj[v]
    }

    /// The grid the graph was built as, if any.
    pub fn as_grid(&self) -> Option<&Grid> {
        self.grid.as_ref()
    }

    /// Checks that `vertices` is a set of this graph's vertices.
    ///
    /// # Errors
    /// [`Error::Invalid`] naming the vertices outside the graph.
    pub fn check(&self, vertices: u128) -> Result<u128> {
        let outside = vertices & !self.vertices();
        if outside != 0 {
            return Err(Error::Invalid(format!(
                "vertex {} is not a vertex of this graph of {} vertices",
                outside.trailing_zeros(),
                self.len()
            )));
        }
        Ok(vertices)
    }

    /// The vertices of `within` next to a vertex of `m`, and `m` itself, by the adjacency lists
    /// (a grid graph's parts go through the grid's own regions instead).
    #[inline]
    fn grow(&self, m: u128, within: u128) -> u128 {
        let mut out = m;
        let mut bits = m;
        while bits != 0 {
            let v = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            out |= self.adj[v];
        }
        out & within
    }

    /// Calls `f` with each connected component of the subgraph induced by `m`, lowest vertex
    /// first.
    pub fn for_each_component(&self, m: u128, mut f: impl FnMut(u128)) {
        if let Some(g) = &self.grid {
            // In the grid's own word and shifts (a u64 for a grid of at most 64 cells).
            return g.for_each_region(m, f);
        }
        let mut rest = m;
        while rest != 0 {
            let mut comp = rest & rest.wrapping_neg();
            let mut frontier = comp;
            while frontier != 0 {
                let next = self.grow(frontier, rest) & !comp;
                comp |= next;
                frontier = next;
            }
            f(comp);
            rest &= !comp;
        }
    }

    /// A bound on [`SimpleGraph::key`]: keys are below `2^key_bits` (the vertex count: a key is
    /// a set of vertices, or a grid layout of at most the grid's cells).
    pub fn key_bits(&self) -> u32 {
        self.len() as u32
    }

    /// Whether a mirror of the whole graph (an automorphism that is its own inverse, with no
    /// vertex its own image or next to it, found once by an isomorphism search) maps `m` onto
    /// itself: then the second player wins Node and Arc Kayles on `m` by answering each move by
    /// its image.
    pub fn mirrored(&self, m: u128) -> bool {
        m != 0 && self.iso.mirrored(&self.adj, self.vertices(), m)
    }

    /// The key of the induced subgraph on `m` (not empty): under the grid's symmetries for a
    /// grid graph, else up to isomorphism (a vertex set whose induced subgraph is isomorphic to
    /// `m`'s, the same for isomorphic parts as far as the store of representatives and its
    /// tests reach: see `board::iso`).
    #[inline]
    pub fn key(&self, m: u128) -> u128 {
        match &self.grid {
            Some(g) => g.canonical(m),
            None => self.iso.key(&self.adj, m),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn graph_constructors_and_errors() {
        let g = SimpleGraph::grid(2, 3).unwrap();
        assert_eq!(g.neighbours(1), 0b01_0101);
        assert_eq!(g.len(), 6);
        assert!(SimpleGraph::new(129, &[]).is_err());
        assert!(SimpleGraph::new(3, &[(0, 3)]).is_err());
        assert!(SimpleGraph::new(3, &[(1, 1)]).is_err());
        assert!(SimpleGraph::cycle(2).is_err());
        assert!(SimpleGraph::path(0).is_err());
        assert!(g.check(1 << 6).is_err());
        assert_eq!(SimpleGraph::cycle(5).unwrap().neighbours(0), 0b10010);
        // A general graph's components, by the adjacency lists.
        let h = SimpleGraph::new(5, &[(0, 3), (3, 4), (1, 2)]).unwrap();
        let mut parts = Vec::new();
        h.for_each_component(h.vertices(), |c| parts.push(c));
        assert_eq!(parts, vec![0b11001, 0b00110]);
    }
}
