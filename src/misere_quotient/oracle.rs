//! The memoised misère outcome search that answers the learner's and the proof's questions.

use super::*;

/// The memoised outcome search. Sums of heaps below `proven_limit` are evaluated through the
/// quotient proven for them, so the search only walks sums that contain a newer heap.
pub(super) struct Oracle<'a> {
    pub(super) opts: &'a [Vec<Vec<u32>>],
    pub(super) memo: FxMap<Box<[u32]>, bool>,
    pub(super) proven: Option<(u32, Monoid, Vec<u32>)>,
    /// A hypothesis whose proof failed first at a sum of total size `.0`: it classifies every
    /// smaller sum correctly, so those are evaluated through it.
    pub(super) below: Option<(u64, Monoid, Vec<u32>)>,
    pub(super) searched: u64,
    pub(super) ctl: &'a dyn Control,
    /// The heap being added and the last one, for polls.
    pub(super) at: (u64, u64),
    /// In guess mode, the monoid through which sums are put in canonical form: the proven
    /// quotient of the heaps below `.0` at first, then the last refuted hypothesis.
    pub(super) base: Option<(u32, Monoid, Vec<u32>)>,
    /// For each element of the base, a sum (sorted) of heaps that are not freed
    /// that maps to it: the least such sum by total size.
    pub(super) reps: Vec<Vec<u32>>,
    /// Heaps (below the proven limit) that guessing keeps as they are, up to a number of
    /// copies: `(index, period)` folds `c ≥ index + period` copies to `index + (c - index) mod
    /// period`. The classes that split with the new heap are found by freeing the heaps of the
    /// sums where a guess failed; the folding keeps the guessed outcomes a finite automaton.
    pub(super) freed: Vec<Option<(u32, u32)>>,
    /// Guess mode: the part of a sum made of heaps the base covers (and not freed) is replaced
    /// by the representative of its element, and the copies of freed heaps are folded. Exact
    /// while no class of the base splits; otherwise a guess (which the proof catches), at a
    /// tiny fraction of the cost: the search meets a few sums per element.
    pub(super) guess: bool,
    /// A buffer for canonical forms, reused across queries.
    pub(super) buf: Vec<u32>,
    /// In guess mode, the sums being searched: replacing parts by representatives can lead
    /// back to one of them, which ends the guess (`Error::Cycle`).
    pub(super) open: FxSet<Box<[u32]>>,
}

impl Oracle<'_> {
    /// The canonical form of a sum (sorted) in guess mode: the part the base covers and that is
    /// not freed becomes the representative of its element, the copies of freed heaps are
    /// folded. Idempotent.
    pub(super) fn canonical_into(&self, pos: &[u32], c: &mut Vec<u32>) {
        let (limit, q, phi) = self.base.as_ref().expect("a base to guess on");
        c.clear();
        let mut x = 0;
        let mut i = 0;
        while i < pos.len() {
            let h = pos[i];
            let run = pos[i..].iter().take_while(|&&g| g == h).count() as u32;
            i += run as usize;
            match self.freed.get(h as usize).copied().flatten() {
                Some((index, period)) => {
                    c.extend(std::iter::repeat_n(h, fold(run, index, period) as usize));
                }
                None if h < *limit => x = q.mul(x, q.pow(phi[h as usize], run as u64)),
                None => c.extend(std::iter::repeat_n(h, run as usize)),
            }
        }
        c.extend_from_slice(&self.reps[x as usize]);
        c.sort_unstable();
    }

    /// The guessed outcome of any sum: that of its canonical form.
    pub(super) fn guessed(&mut self, pos: &[u32]) -> Result<bool> {
        let mut c = Vec::new();
        self.canonical_into(pos, &mut c);
        self.is_p(&c)
    }

    pub(super) fn is_p(&mut self, pos: &[u32]) -> Result<bool> {
        let Some(&top) = pos.last() else {
            return Ok(false); // no move: the player to move wins misère play
        };
        if let Some((limit, q, phi)) = &self.proven {
            if top < *limit {
                let x = q.eval(phi, pos);
                return Ok(q.p[x as usize]);
            }
        }
        if let Some((size, q, phi)) = &self.below {
            if pos.iter().map(|&h| h as u64).sum::<u64>() < *size {
                let x = q.eval(phi, pos);
                return Ok(q.p[x as usize]);
            }
        }
        let mut canon = Vec::new();
        let pos = if self.guess && !self.reps.is_empty() {
            let mut c = std::mem::take(&mut self.buf);
            self.canonical_into(pos, &mut c);
            if c[..] == pos[..] {
                self.buf = c;
                pos
            } else {
                canon = c;
                &canon[..]
            }
        } else {
            pos
        };
        if let Some(&v) = self.memo.get(pos) {
            if canon.capacity() > 0 {
                self.buf = canon; // most queries end here: keep the buffer for the next
            }
            return Ok(v);
        }
        if self.guess && !self.open.insert(pos.into()) {
            return Err(Error::Cycle(Vec::new()));
        }
        let opts = self.opts;
        let mut p = true;
        let mut next = Vec::with_capacity(pos.len() + 4);
        // Largest heaps first: moves in the new heaps leave sums the proven quotient evaluates
        // at once, so a winning move is usually found before any deep search.
        'heaps: for i in (0..pos.len()).rev() {
            if i + 1 < pos.len() && pos[i] == pos[i + 1] {
                continue;
            }
            for o in &opts[pos[i] as usize] {
                next.clear();
                next.extend_from_slice(&pos[..i]);
                next.extend_from_slice(&pos[i + 1..]);
                next.extend_from_slice(o);
                next.sort_unstable();
                let child = std::mem::take(&mut next);
                let child_p = self.is_p(&child)?;
                next = child;
                if child_p {
                    p = false;
                    break 'heaps;
                }
            }
        }
        if self.memo.len() >= MAX_MEMO {
            return Err(Error::Memory {
                requested: (self.memo.len() as u64) * 64,
                available: (MAX_MEMO as u64) * 64,
            });
        }
        if self.memo.len() % MEMO_CHUNK == MEMO_CHUNK - 1 {
            // The cap alone can outgrow a small machine (guesses with many freed heaps fill it):
            // the next chunk must still fit, so that the search ends in Error::Memory rather
            // than in the operating system's out-of-memory killer.
            crate::memory::check((MEMO_CHUNK * 128) as u64)?;
        }
        if self.guess {
            self.open.remove(pos);
        }
        self.memo.insert(pos.into(), p);
        self.searched += 1;
        if self.searched % (1 << 16) == 0 {
            self.ctl.check(self.at.0, self.at.1)?;
        }
        Ok(p)
    }
}

pub(super) fn sorted(word: &[u32]) -> Vec<u32> {
    let mut v = word.to_vec();
    v.sort_unstable();
    v
}

/// `copies` folded at `index` and `period`: from `index + period` copies on, the count goes
/// round the period.
pub(super) fn fold(copies: u32, index: u32, period: u32) -> u32 {
    if copies >= index + period {
        index + (copies - index) % period
    } else {
        copies
    }
}
