//! The bookkeeping between blocks: the values accounted for, the mask chosen (again) and
//! the mode of the next block.

use super::mask::{bits_for, HIST_BITS};
use super::{TakeAndBreakSparse, HEAP_COST};
use crate::engine::blocks::Reversed;
use crate::engine::Val;

impl TakeAndBreakSparse {
    /// Value class whose options need a rare part, for heap `n`.
    #[inline]
    pub(super) fn common_class(&self, n: usize) -> u32 {
        match self.space {
            Some(m) if m.parity => 1 ^ ((n as u32 & 1) ^ self.odd_offset as u32),
            _ => 1,
        }
    }

    pub(super) fn reset(&mut self) {
        self.space = None;
        self.rare.clear();
        self.hist.clear();
        self.max_seen = 0;
        self.done = 0;
        self.eval_n = 0;
        self.eval_rare = 0;
        self.eval_bits = 0;
        self.dense = true;
        self.next_block = self.opts.block.max(1);
        self.work_per_heap = HEAP_COST;
        self.first_per_heap = HEAP_COST;
        self.per_search = HEAP_COST;
        self.use_prefix = false;
        self.rev = Reversed::default();
    }

    /// Accounts for the values `g[self.done..]` (histogram, largest value, rare heaps), the
    /// running figures kept in registers (a call per value cost 3.7 ns of 0.1777's 33).
    pub(super) fn commit<T: Val>(&mut self, g: &[T]) {
        let from = self.done;
        self.hist.add_all(from, g[from..].iter().map(|v| v.get()));
        let mut max = self.max_seen;
        for (n, v) in g.iter().enumerate().skip(from) {
            let v = v.get();
            max = max.max(v);
            if self.space.is_some_and(|m| m.is_rare(n as u64, v)) {
                self.rare.push(n);
            }
        }
        self.max_seen = max;
        self.done = g.len();
    }

    /// Brings the bookkeeping in line with `g` (the values may have been widened, or be new).
    pub(super) fn sync<T: Val>(&mut self, g: &[T]) {
        if self.done > g.len() {
            self.reset();
        }
        self.commit(g);
    }

    /// Chooses the mask again when it is due, and the mode for the next block.
    pub(super) fn reevaluate<T: Val>(&mut self, g: &[T]) {
        let n = g.len();
        debug_assert_eq!(n, self.done);
        if n < self.opts.warmup.max(1) {
            self.dense = true;
            return;
        }
        let bits = bits_for(self.max_seen).min(HIST_BITS);
        let due = self.space.is_none()
            || bits > self.eval_bits
            || self.rare.len() >= 2 * self.eval_rare + 64
            || n >= 2 * self.eval_n;
        if due {
            let (best, count) = self
                .hist
                .best(self.parity_allowed, self.odd_offset, self.space);
            let current = self.rare.len() as u64;
            // Rebuilding the rare list costs a pass over the values: only for a clear gain.
            if self.space.is_none() || (Some(best) != self.space && count + count / 8 + 4 < current)
            {
                self.space = Some(best);
                self.rare = (0..n)
                    .filter(|&x| best.is_rare(x as u64, g[x].get()))
                    .collect();
                self.stats.mask_changes += 1;
            }
            self.eval_n = n;
            self.eval_rare = self.rare.len();
            self.eval_bits = bits;
        }
        self.dense = self.opts.sparse_ratio != 0
            && self.rare.len().saturating_mul(self.opts.sparse_ratio) > n;
    }
}
