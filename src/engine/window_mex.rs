//! Mex of the values at a window of positions `[lo, hi]` (plus a few extra values), in O(log V):
//! a segment tree over values holds the last position where each value occurred.
//!
//! Used where a heap's options are a contiguous run of smaller heaps (remove at most half, remove
//! anything but a finite set), which would otherwise cost O(n) per heap.
//!
//! ```
//! use grundy::engine::window_mex::WindowMex;
//! let mut w = WindowMex::new();
//! for (pos, v) in [0u32, 1, 0, 2, 1].into_iter().enumerate() { w.push(pos as u64, v); }
//! assert_eq!(w.first_absent(2, 0), 3);   // positions 2..=4 hold 0, 2, 1
//! assert_eq!(w.first_absent(3, 0), 0);   // positions 3..=4 hold 2, 1
//! ```

/// Last occurrence (+1; 0 = never) of each value, minimum over value ranges in a segment tree.
#[derive(Debug, Clone, Default)]
pub struct WindowMex {
    leaves: usize,
    tree: Vec<u64>,
    pushed: u64,
}

impl WindowMex {
    /// An empty window.
    pub fn new() -> Self {
        let mut w = WindowMex {
            leaves: 0,
            tree: Vec::new(),
            pushed: 0,
        };
        w.grow(64);
        w
    }

    /// Positions pushed so far (the window's right end is `pushed() - 1`).
    pub fn pushed(&self) -> u64 {
        self.pushed
    }

    fn grow(&mut self, min_leaves: usize) {
        let leaves = min_leaves.next_power_of_two();
        let mut tree = vec![0u64; 2 * leaves];
        for v in 0..self.leaves {
            tree[leaves + v] = self.tree[self.leaves + v];
        }
        for i in (1..leaves).rev() {
            tree[i] = tree[2 * i].min(tree[2 * i + 1]);
        }
        self.leaves = leaves;
        self.tree = tree;
    }

    /// Records that position `pos` (the next one) holds value `v`.
    pub fn push(&mut self, pos: u64, v: u32) {
        debug_assert_eq!(pos, self.pushed);
        let v = v as usize;
        if v >= self.leaves {
            self.grow(v + 1);
        }
        let mut i = self.leaves + v;
        self.tree[i] = pos + 1;
        while i > 1 {
            i /= 2;
            self.tree[i] = self.tree[2 * i].min(self.tree[2 * i + 1]);
        }
        self.pushed = pos + 1;
    }

    /// Least value `>= from` that does not occur at positions `lo..pushed()`.
    pub fn first_absent(&self, lo: u64, from: u32) -> u32 {
        let from = from as usize;
        if from >= self.leaves {
            return from as u32;
        }
        // Absent: last occurrence + 1 <= lo.
        self.find(1, 0, self.leaves, from, lo + 1)
            .map_or(self.leaves as u32, |v| v as u32)
    }

    fn find(&self, node: usize, l: usize, r: usize, from: usize, thr: u64) -> Option<usize> {
        if r <= from || self.tree[node] >= thr {
            return None;
        }
        if r - l == 1 {
            return Some(l);
        }
        let m = (l + r) / 2;
        self.find(2 * node, l, m, from, thr)
            .or_else(|| self.find(2 * node + 1, m, r, from, thr))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn against_brute_force() {
        let vals: Vec<u32> = (0..500u32).map(|i| (i * 7919 + i / 3) % 97).collect();
        let mut w = WindowMex::new();
        for (p, &v) in vals.iter().enumerate() {
            w.push(p as u64, v);
            for lo in [0, p / 2, p.saturating_sub(5), p] {
                for from in [0u32, 3, 50] {
                    let want = (from..).find(|x| !vals[lo..=p].contains(x)).unwrap();
                    assert_eq!(w.first_absent(lo as u64, from), want);
                }
            }
        }
    }
}
