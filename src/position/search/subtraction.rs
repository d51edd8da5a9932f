//! The options of a heap of a subtraction rule: one heap left each. Rules whose options are
//! ranges (all but a finite set, at most half the heap) list them as ranges when no value is
//! wanted; the others, and searches by value, go candidate by candidate, resumably.

use super::{unsupported, Cursor, Found, Searcher};
use crate::error::Result;
use crate::position::family::Family;
use crate::position::Tail;
use crate::rules::Subtraction;

impl Searcher<'_, '_> {
    pub(super) fn subtraction(mut self, rule: &Subtraction, n: u64, from: Cursor) -> Result<Found> {
        let ok = |me: &Self, h: u64| me.target.is_none_or(|t| me.g(h) == t);
        // Rules whose options are ranges, listed at once when no value is wanted.
        match (rule, self.target) {
            (Subtraction::AllBut(ex), None) => {
                let mut lo = 0;
                let mut holes: Vec<u64> = ex.iter().filter(|&&k| k <= n).map(|&k| n - k).collect();
                holes.sort_unstable();
                holes.push(n); // k = 0 is no move
                for h in holes {
                    if h > lo {
                        self.out.push(Family::Singles {
                            h0: lo,
                            step: 1,
                            count: h - lo,
                        });
                    }
                    lo = h + 1;
                }
                self.work += ex.len() as u64 + 1;
                return Ok(self.done(None));
            }
            (Subtraction::AllBut(ex), Some(t)) if self.vals.tail() == Tail::Identity => {
                self.work += 1;
                if t < n && ex.binary_search(&(n - t)).is_err() {
                    self.one(&[t]);
                }
                return Ok(self.done(None));
            }
            (Subtraction::AtMostHalf, None) => {
                if n >= 2 {
                    self.out.push(Family::Singles {
                        h0: n - n / 2,
                        step: 1,
                        count: n / 2,
                    });
                }
                self.work += 1;
                return Ok(self.done(None));
            }
            _ => {}
        }
        // The rest loops over candidates i in [start, end), resumable.
        let (start, end) = match rule {
            Subtraction::Finite(set) => (0, set.len() as u64),
            Subtraction::AllBut(_) => (0, n),
            Subtraction::Squares | Subtraction::ProperDivisors => (1, n.isqrt() + 1),
            Subtraction::AtMostHalf => (n - n / 2, n),
        };
        if self.target.is_some()
            && matches!(rule, Subtraction::AllBut(_) | Subtraction::AtMostHalf)
            && n > self.vals.computed()
        {
            return Err(unsupported(n, "this subtraction rule"));
        }
        let mut i = from.j.max(start);
        while i < end {
            match rule {
                Subtraction::Finite(set) => {
                    let k = set[i as usize];
                    if k > n {
                        i = end;
                        break;
                    }
                    if ok(&self, n - k) {
                        self.one(&[n - k]);
                    }
                }
                Subtraction::AllBut(ex) => {
                    if ex.binary_search(&(n - i)).is_err() && ok(&self, i) {
                        self.one(&[i]);
                    }
                }
                Subtraction::Squares => {
                    if ok(&self, n - i * i) {
                        self.one(&[n - i * i]);
                    }
                }
                Subtraction::AtMostHalf => {
                    if ok(&self, i) {
                        self.one(&[i]);
                    }
                }
                Subtraction::ProperDivisors => {
                    if n % i == 0 {
                        let q = n / i;
                        if i < n && ok(&self, n - i) {
                            self.one(&[n - i]);
                        }
                        if q != i && q < n && ok(&self, n - q) {
                            self.one(&[n - q]);
                        }
                    }
                }
            }
            self.work += 1;
            i += 1;
            if self.stopped() {
                break;
            }
        }
        let next = (i < end).then_some(Cursor { k: 1, j: i });
        Ok(self.done(next))
    }
}
