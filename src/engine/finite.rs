//! Kernels for finite subtraction sets S (t = max S): many heaps per call, state rebuilt from the
//! stored values at every call (so a resumed, widened or seeded sequence needs nothing special).
//!
//! Every value is at most |S| (a heap has at most |S| options), so a heap's option values fit
//! |S| + 1 flags and the storage never needs widening unless |S| > 65535.
//!
//! Three kernels, all exact, chosen per chunk of heaps by a cost estimate (switching between them
//! never changes a value; the threads only change which one is chosen):
//! - **ring** (t <= 64 K, K in 1, 2, 4, 8): for every value v, a K-word ring of the last 64 K
//!   positions holding v; the member mask, rotated one bit per heap, says which positions are
//!   options of heap n, so v is an option iff `ring[v] & mask != 0`. Costs about K (G(n) + 1)
//!   word operations per heap, in runs of 8 values. Wider rings (t up to 4096) were measured
//!   slower than gather.
//! - **gather**: the option value G(n - s) of each member sets a flag byte (a plain store: no
//!   read-modify-write chain as with bits), then the first clear flag. About |S| operations per
//!   heap.
//! - **block** (parallel): for heaps [N, N + B), every option below N is known, so the option sets
//!   from members s > n - N are gathered in parallel across the block; then, in order, the few
//!   members s <= n - N (those below B) that reach inside the block are added and the mex taken.
//!   The tasks gather into flag bytes and pack them into bitsets (B (|S| + 1) / 8 bytes for the
//!   block, at most [`BLOCK_SCRATCH`]) so little memory moves between cores. Chosen only with
//!   more than one thread.

use super::{StepResult, Stop, Val};
use crate::bitset::mex;
use crate::control::{Control, Poller};
use rayon::prelude::*;

/// Scratch bytes the block kernel may use for its option sets.
const BLOCK_SCRATCH: usize = 1 << 19;
/// Heaps between clock reads in the sequential kernels.
const CHUNK: usize = 1 << 14;

/// Which kernel runs; [`Kernel::Auto`] chooses by cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kernel {
    /// The cheapest kernel for the set and the thread count, chunk by chunk.
    Auto,
    /// The ring kernel (sets with t <= 512).
    Ring,
    /// The gather kernel.
    Gather,
    /// The block-parallel kernel (used only with more than one thread).
    Block,
}

pub(super) struct Finite {
    /// The members, increasing.
    set: Vec<usize>,
    t: usize,
    /// Bytes of one set of value flags: |S| + 1 rounded up to a multiple of 8.
    width: usize,
    kernel: Kernel,
    /// Block length and, for each offset j in the block, how many members are <= j.
    block: usize,
    inner: Vec<usize>,
    /// Words of one bitset of values (with a last word always empty).
    words: usize,
    /// The block kernel's option sets, `words` per heap.
    rows: Vec<u64>,
}

/// Index of the first zero byte of `flags` (whose length is a multiple of 8 and which holds one).
#[inline]
fn first_clear(flags: &[u8]) -> u32 {
    for (i, c) in flags.chunks_exact(8).enumerate() {
        let w = u64::from_le_bytes(c.try_into().unwrap());
        // Flags are 0 or 1: a byte is zero iff its low bit is clear.
        let z = !w & 0x0101_0101_0101_0101;
        if z != 0 {
            return (i * 8) as u32 + z.trailing_zeros() / 8;
        }
    }
    unreachable!("no clear flag")
}

/// Flag bytes (0 or 1), 64 per word, into the bits of `row`.
#[inline]
fn pack(flags: &[u8], row: &mut [u64]) {
    for (w, f) in row.iter_mut().zip(flags.chunks_exact(64)) {
        let mut x = 0u64;
        for (k, c) in f.chunks_exact(8).enumerate() {
            let b = u64::from_le_bytes(c.try_into().unwrap());
            // Byte k of b (0 or 1) lands on bit 56 + k of the product, without carries.
            x |= (b.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * k);
        }
        *w = x;
    }
}

impl Finite {
    pub(super) fn new(set: &[u64], kernel: Kernel) -> Self {
        let set: Vec<usize> = set.iter().map(|&s| s as usize).collect();
        let t = set.last().copied().unwrap_or(0);
        let width = (set.len() + 1).next_multiple_of(8);
        // Enough work per block to hide the cost of starting its tasks, few members reaching
        // inside it, and bounded scratch.
        let block = ((1usize << 17) / set.len().max(1)).clamp(32, 1024);
        let words = (set.len() + 1).div_ceil(64) + 1;
        let block = block.min(BLOCK_SCRATCH / (8 * words)).max(16);
        let inner = (0..block)
            .map(|j| set.partition_point(|&s| s <= j))
            .collect();
        Finite {
            set,
            t,
            width,
            words,
            kernel,
            block,
            inner,
            rows: Vec::new(),
        }
    }

    /// Words per ring for this t, if the ring kernel can run.
    fn ring_words(&self) -> Option<usize> {
        [1, 2, 4, 8].into_iter().find(|&k| self.t <= 64 * k)
    }

    /// Estimated cost per heap of each kernel (in member operations), given the mean value of the
    /// last heaps, and the kernel to run next.
    fn choose<T: Val>(&self, g: &[T]) -> Kernel {
        if self.kernel != Kernel::Auto {
            return if self.kernel == Kernel::Ring && self.ring_words().is_none() {
                Kernel::Gather
            } else {
                self.kernel
            };
        }
        let m = self.set.len() as f64;
        let gather = m + self.width as f64 / 8.0;
        let threads = rayon::current_num_threads();
        let mut best = (gather, Kernel::Gather);
        if let Some(k) = self.ring_words() {
            let recent = &g[g.len().saturating_sub(1024)..];
            let mean = if recent.is_empty() {
                m / 2.0
            } else {
                recent.iter().map(|v| v.get() as f64).sum::<f64>() / recent.len() as f64
            };
            // Measured: a word of a ring tested costs about a sixth of a member gathered,
            // and each heap some 25 members (a mispredicted branch, the updates).
            let ring = 25.0 + (mean + 8.0) * k as f64 / 6.0;
            if ring < best.0 {
                best = (ring, Kernel::Ring);
            }
        }
        if threads > 1 && g.len() >= self.block {
            let seq = self.inner.iter().sum::<usize>() as f64 / self.block as f64;
            // Parallel part per thread, the in-order part, the mex scan, and the rows' traffic.
            let block = (m - seq) / threads as f64 + seq + self.width as f64 / 4.0 + 8.0;
            if block < best.0 {
                best = (block, Kernel::Block);
            }
        }
        best.1
    }

    /// Pushes G(n) for n from `g.len()` to `target`, polling `ctl`.
    pub(super) fn extend_to<T: Val>(
        &mut self,
        g: &mut Vec<T>,
        target: usize,
        ctl: &dyn Control,
    ) -> StepResult<()> {
        let mut poll = Poller::new(ctl, target as u64);
        while g.len() < target {
            let end = match self.choose(g) {
                Kernel::Block => {
                    // Many blocks per clock read, about a millisecond of work or more.
                    let end = target.min(g.len() + self.block * 16);
                    while g.len() < end {
                        let b = self.block.min(end - g.len());
                        self.run_block(g, b)?;
                    }
                    end
                }
                Kernel::Ring => {
                    let end = target.min(g.len() + CHUNK);
                    match self.ring_words() {
                        Some(1) => self.ring::<1, T>(g, end)?,
                        Some(2) => self.ring::<2, T>(g, end)?,
                        Some(4) => self.ring::<4, T>(g, end)?,
                        _ => self.ring::<8, T>(g, end)?,
                    }
                    end
                }
                _ => {
                    let end = target.min(g.len() + CHUNK);
                    self.gather(g, end)?;
                    end
                }
            };
            debug_assert_eq!(g.len(), end);
            poll.tick(g.len() as u64)?;
        }
        Ok(())
    }

    /// One value at a time: a flag byte per option value (plain stores, no read-modify-write
    /// chains), then the first clear flag.
    fn gather<T: Val>(&self, g: &mut Vec<T>, end: usize) -> StepResult<()> {
        let mut flags = vec![0u8; self.width];
        // Offsets back from n into the window g[n - t .. n], once n >= t.
        let back: Vec<usize> = self.set.iter().map(|&s| self.t - s).collect();
        while g.len() < end {
            let n = g.len();
            flags.fill(0);
            if n >= self.t {
                let w = &g[n - self.t..n];
                for &o in &back {
                    flags[w[o].get() as usize] = 1;
                }
            } else {
                for &s in self.set.iter().take_while(|&&s| s <= n) {
                    flags[g[n - s].get() as usize] = 1;
                }
            }
            let v = first_clear(&flags);
            if v > T::MAX {
                return Err(Stop::Overflow);
            }
            g.push(T::new(v));
        }
        Ok(())
    }

    /// The ring kernel with rings of `K` words (t <= 64 K).
    fn ring<const K: usize, T: Val>(&self, g: &mut Vec<T>, end: usize) -> StepResult<()> {
        const RUN: usize = 8;
        let l = 64 * K;
        // Runs of 8 values; the values past |S| never occur, their rings stay empty (and stop
        // the scan: the mex is at most |S|).
        let nv = (self.set.len() + 1).next_multiple_of(RUN);
        let mut ring = vec![[0u64; K]; nv];
        let start = g.len();
        for (p, v) in g.iter().enumerate().skip(start.saturating_sub(l)) {
            ring[v.get() as usize][(p % l) / 64] |= 1 << (p % 64);
        }
        // Bit (n - s) mod l for every member s, at n = start.
        let mut mask = [0u64; K];
        for &s in &self.set {
            let b = (start + l - s) % l;
            mask[b / 64] |= 1 << (b % 64);
        }
        for n in start..end {
            let mut base = 0;
            let v = loop {
                let run = &ring[base..base + RUN];
                let mut z = 0u32;
                for (i, r) in run.iter().enumerate() {
                    let mut any = 0;
                    for k in 0..K {
                        any |= r[k] & mask[k];
                    }
                    z |= ((any == 0) as u32) << i;
                }
                if z != 0 {
                    break base + z.trailing_zeros() as usize;
                }
                base += RUN;
            };
            if v as u32 > T::MAX {
                return Err(Stop::Overflow);
            }
            let (w, bit) = ((n % l) / 64, 1u64 << (n % 64));
            if n >= l {
                ring[g[n - l].get() as usize][w] &= !bit;
            }
            ring[v][w] |= bit;
            g.push(T::new(v as u32));
            // Rotate the mask left by one bit over l bits.
            let top = mask[K - 1] >> 63;
            for k in (1..K).rev() {
                mask[k] = (mask[k] << 1) | (mask[k - 1] >> 63);
            }
            mask[0] = (mask[0] << 1) | top;
        }
        Ok(())
    }

    /// Heaps [N, N + b) with N = g.len() and b <= the block length.
    fn run_block<T: Val>(&mut self, g: &mut Vec<T>, b: usize) -> StepResult<()> {
        let n0 = g.len();
        let Finite {
            set,
            t,
            words,
            inner,
            rows,
            ..
        } = self;
        let (t, words) = (*t, *words);
        rows.clear();
        rows.resize(b * words, 0);
        let threads = rayon::current_num_threads();
        let per_task = b.div_ceil(2 * threads).max(4);
        {
            let g: &[T] = g;
            rows.par_chunks_mut(per_task * words)
                .enumerate()
                .for_each(|(c, chunk)| {
                    // Flag bytes while gathering (no read-modify-write chains), packed into the
                    // row's bits (what the in-order part reads: 8 times less to move between
                    // cores).
                    let mut flags = vec![0u8; 64 * words];
                    for (i, row) in chunk.chunks_exact_mut(words).enumerate() {
                        let j = c * per_task + i;
                        let n = n0 + j;
                        // Members s with j < s <= n: their options lie below N.
                        let hi = if n >= t {
                            set.len()
                        } else {
                            set.partition_point(|&s| s <= n)
                        };
                        for &s in &set[inner[j]..hi] {
                            flags[g[n - s].get() as usize] = 1;
                        }
                        pack(&flags, row);
                        flags.fill(0);
                    }
                });
        }
        for (j, row) in rows.chunks_exact_mut(words).enumerate() {
            let n = n0 + j;
            for &s in &set[..inner[j]] {
                let v = g[n - s].get();
                row[(v >> 6) as usize] |= 1 << (v & 63);
            }
            let v = mex(row);
            if v > T::MAX {
                return Err(Stop::Overflow);
            }
            g.push(T::new(v));
        }
        Ok(())
    }
}
