//! How the next block is laid out: its length, its window, what is flagged ahead, and the
//! splits that reach into its own sub-blocks.

use super::mask::bits_for;
use super::{TakeAndBreakSparse, REV_MAX};
use crate::engine::Val;

impl TakeAndBreakSparse {
    /// The window of a sparse block whose values are below `2^bits` (see
    /// `SparseOptions::window`): 0 when it is off.
    pub(super) fn window_for(&self, bits: u32) -> usize {
        if !self.dense && bits <= 6 && !self.sum_digit.is_empty() {
            self.opts.window
        } else {
            0
        }
    }

    /// The largest of `shifts` (0 with one split digit): the rows kept for the heaps before a
    /// block.
    pub(super) fn max_shift(&self) -> usize {
        self.shifts.last().copied().unwrap_or(0)
    }

    /// How far back (in heaps, whole sub-blocks) a split's other part must lie to be flagged
    /// ahead (see `SparseOptions::ahead`).
    pub(super) fn lag(&self) -> usize {
        let sb = self.opts.sub_block.max(1);
        self.opts.ahead.div_ceil(sb) * sb
    }

    /// Whether the next block flags ahead (see `SparseOptions::ahead`), given whether it has
    /// other threads to do it.
    pub(super) fn flags_ahead(&self, helpers: bool) -> bool {
        !self.dense && self.opts.ahead > 0 && (!self.opts.ahead_auto || (helpers && self.ahead_on))
    }

    /// Heaps in the next block, starting at `n0`.
    pub(super) fn block_len(&self, n0: usize, left: u64) -> usize {
        let by_work = (self.opts.block_work / self.work_per_heap.max(1)) as usize;
        let mut b = by_work.min(n0 / 16).min(self.next_block).max(1);
        if !self.dense {
            // The rare-part splits that reach into the block are done sequentially (while other
            // threads confirm), except those flagged ahead; halve the block while they would be
            // more than a thread's share of the work (half with two threads: a tenth left the
            // blocks of 0.354 too small to share).
            let threads = self.threads();
            let share = match self.opts.producer_share {
                0 => threads.max(2),
                k => k,
            } as u64;
            let reach = if self.flags_ahead(threads > 1) {
                self.lag()
            } else {
                usize::MAX
            };
            while b > 128 && share * self.inner_pairs(b, reach) > self.work_per_heap {
                b /= 2;
            }
        }
        (b as u64).min(left) as usize
    }

    /// Average number of rare-part splits per heap (of its first digit: see `shifts`) of a block
    /// of `b` heaps whose other part lies in the block, less than `reach` heaps before the heap
    /// (the others are flagged ahead; those of the window's rare parts are in the window).
    pub(super) fn inner_pairs(&self, b: usize, reach: usize) -> u64 {
        let mut sum = 0;
        let win = self.window_for(bits_for(self.max_seen));
        let from = self.rare.partition_point(|&r| r <= win);
        for sd in &self.sum_digit {
            for &r in self.rare[from..]
                .iter()
                .take_while(|&&r| r + sd.j < b.min(reach))
            {
                sum += (b - sd.j - r) as u64;
            }
        }
        sum / b as u64
    }

    /// The rare-part splits that the sequential part does heap by heap, those whose other part
    /// lies in the heap's own sub-block (of `sb` heaps): `(d, G(r))` for the first split digit
    /// `j` (see `shifts`) and rare `r >= 1` below the block with `d = j + r < sb`, ascending in
    /// `d`. Heap `n0 + i` of a sub-block starting at `n0 + k0` takes those with `d <= i - k0` (its
    /// other part `n - d` is then at or after the sub-block's start, so it is never the equal
    /// split). Rare parts up to `win` are left out (their splits are in the window).
    pub(super) fn near_pairs<T: Val>(&self, g: &[T], sb: usize, win: usize) -> Vec<(usize, u32)> {
        let mut near: Vec<(usize, u32)> = self
            .sum_digit
            .iter()
            .flat_map(|sd| {
                self.rare
                    .iter()
                    .filter(move |&&r| r >= 1 && r > win && sd.j + r < sb)
                    .map(move |&r| (sd.j + r, g[r].get()))
            })
            .collect();
        near.sort_unstable();
        near
    }

    /// Keeps the reversed copy of the first values in step with `g`.
    pub(super) fn refresh_rev<T: Val>(&mut self, g: &[T]) {
        let want = g.len().min(REV_MAX);
        let have = self.rev.len();
        if have < want && (g.len() >= 2 * have || want == REV_MAX) {
            if let Some(g16) = crate::engine::blocks::as_u16(g) {
                self.rev.rebuild(g16, want);
            }
        }
    }
}
