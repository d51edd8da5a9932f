//! Speculative verification (see `crate::engine::Step::verify`): a copy of the engine computes
//! blocks of a predicted stretch on one thread, from the predicted values below them, while
//! other copies do other blocks.
//!
//! Where the window covers every rare heap (0.1777), a block reads only the values below it:
//! the window blocks read the predicted values in place and compare each value with its
//! prediction (`Check`). Other blocks write their values and read them back, so they run on a
//! private copy of the values, which each copy of the engine keeps and brings forward, block
//! after block, from the predicted values.

use super::block::Check;
use super::mask::bits_for;
use super::{Buffers, SparseStats, TakeAndBreakSparse};
use crate::control::{Control, Poller};
use crate::engine::{Stop, Val};
use crate::error::Result;
use std::any::Any;

impl TakeAndBreakSparse {
    /// A copy of the engine's state, verifying on one thread (`solo`).
    pub(super) fn fork_solo(&self) -> Self {
        TakeAndBreakSparse {
            rule: self.rule.clone(),
            zeros: self.zeros.clone(),
            singles: self.singles.clone(),
            splits: self.splits.clone(),
            sum_digit: self.sum_digit.clone(),
            shifts: self.shifts.clone(),
            equal_js: self.equal_js.clone(),
            rare: self.rare.clone(),
            hist: self.hist.clone(),
            rev: self.rev.clone(),
            buf: Buffers::default(),
            own: None,
            solo: true,
            stats: SparseStats::default(),
            ..*self
        }
    }

    /// The threads a block may use: one in a copy verifying a predicted stretch (the other
    /// threads verify other blocks).
    pub(super) fn threads(&self) -> usize {
        if self.solo {
            1
        } else {
            rayon::current_num_threads()
        }
    }

    /// `Step::verify`: see the module notes.
    pub(super) fn verify_stretch<T: Val>(
        &mut self,
        pred: &[T],
        from: usize,
        to: usize,
        ctl: &dyn Control,
    ) -> Result<Option<(usize, u32)>> {
        self.sync(&pred[..from]);
        let mut n = from;
        let mut poll = Poller::new(ctl, to as u64);
        while n < to {
            self.reevaluate(&pred[..n]);
            self.refresh_rev(&pred[..n]);
            let bits = bits_for(self.max_seen);
            let win = self.window_for(bits);
            let b = self.block_len(n, (to - n) as u64);
            if win > 0 && self.rare.last().is_none_or(|&r| r <= win) {
                let mut chk = Check {
                    pred,
                    len: n,
                    wrong: None,
                };
                self.run_window_block(&mut chk, b, bits, win);
                if chk.wrong.is_some() {
                    return Ok(chk.wrong);
                }
                n = chk.len;
            } else {
                let wrong = self.own_block(pred, n, b)?;
                if wrong.is_some() {
                    return Ok(wrong);
                }
                n = self.done;
            }
            poll.tick(n as u64)?;
        }
        Ok(None)
    }

    /// One block of at most `b` heaps from `n`, computed on the private copy of the values
    /// (brought up to `pred[..n]` first) and compared with `pred`: the first wrong value.
    ///
    /// # Errors
    /// [`crate::error::Error::Memory`] when the copy does not fit.
    fn own_block<T: Val>(
        &mut self,
        pred: &[T],
        n: usize,
        b: usize,
    ) -> Result<Option<(usize, u32)>> {
        let mut own: Box<dyn Any + Send + Sync> = match self.own.take() {
            Some(v) if v.is::<Vec<T>>() => v,
            _ => Box::new(Vec::<T>::new()),
        };
        let g = own
            .downcast_mut::<Vec<T>>()
            .expect("the private values' type");
        if g.len() > n {
            g.truncate(n);
        }
        if g.capacity() < n + b {
            let more = n + b - g.len();
            let bytes = (more * std::mem::size_of::<T>()) as u64;
            crate::memory::check(bytes)?;
            g.try_reserve(more)
                .map_err(|_| crate::error::Error::Memory {
                    requested: bytes,
                    available: crate::memory::available().unwrap_or(0),
                })?;
        }
        g.extend_from_slice(&pred[g.len()..n]);
        let r = self.run_block(g, b, None);
        let wrong = g[n..]
            .iter()
            .zip(&pred[n..])
            .position(|(a, b)| a.get() != b.get())
            .map(|i| (n + i, g[n + i].get()));
        // A value beyond `T` (the next heap's) is not the one predicted, which fits; `run_block`
        // stops on nothing else.
        let wrong = match r {
            Err(Stop::Overflow) => wrong.or(Some((g.len(), u32::MAX))),
            Err(Stop::Error(_)) | Ok(()) => wrong,
        };
        self.own = Some(own);
        Ok(wrong)
    }
}
