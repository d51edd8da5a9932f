//! The options of a take-and-break heap: removing the whole heap, one heap left, and splits into
//! two or three heaps, explicitly, through a proven period, or by XOR algebra when `G(h) = h`
//! (see the [parent module](super)).

use super::{unsupported, Cursor, Found, Searcher, Strategy};
use crate::error::Result;
use crate::position::family::{first_at_least, Family};
use crate::position::Tail;
use crate::rules::TakeAndBreak;

impl Searcher<'_, '_> {
    pub(super) fn take_and_break(
        mut self,
        rule: &TakeAndBreak,
        n: u64,
        from: Cursor,
    ) -> Result<Found> {
        let finite = !rule.is_infinite();
        let last = rule.last_nonzero() as u64;
        let (mut k, mut j) = (from.k, from.j);
        loop {
            match k {
                0 => {
                    // Take the whole heap.
                    if n >= 1 && rule.digit(n).allows(0) && self.target.is_none_or(|t| t == 0) {
                        self.one(&[]);
                    }
                    self.work += 1;
                    (k, j) = (1, 1);
                }
                1 if !finite => {
                    self.singles_infinite(rule, n)?;
                    (k, j) = (2, 0);
                }
                1..=3 => {
                    if k == 1 {
                        j = j.max(1); // removing nothing and leaving the heap is no move
                    }
                    let kk = k as u64;
                    let end = n
                        .checked_sub(kk)
                        .map(|e| if finite { e.min(last) } else { e });
                    match end {
                        Some(end) if j <= end => {
                            if rule.digit(j).allows(k as u32) {
                                let s = n - j;
                                let unequal = rule.digit(j).unequal;
                                match k {
                                    1 => {
                                        self.work += 1;
                                        if self.target.is_none_or(|t| self.g(s) == t) {
                                            self.one(&[s]);
                                        }
                                    }
                                    2 => self.pairs(s, 1, unequal, self.target, 0),
                                    _ => self.triples(s, unequal)?,
                                }
                            } else {
                                self.work += 1;
                            }
                            j += 1;
                        }
                        _ => {
                            k += 1;
                            j = 0;
                            continue;
                        }
                    }
                }
                _ => return Ok(self.done(None)),
            }
            if self.stopped() {
                return Ok(self.done(Some(Cursor { k, j })));
            }
        }
    }

    /// One heap left, for a code with a repeated group (any number of tokens may be removed).
    fn singles_infinite(&mut self, rule: &TakeAndBreak, n: u64) -> Result<()> {
        if n < 2 {
            return Ok(());
        }
        match self.target {
            None => {
                let pre = rule.prefix.len() as u64;
                for j in 1..=pre.min(n - 1) {
                    if rule.digit(j).allows(1) {
                        self.one(&[n - j]);
                    }
                }
                let (start, l) = (pre + 1, rule.cycle.len() as u64);
                for (q, d) in rule.cycle.iter().enumerate() {
                    let j0 = start + q as u64;
                    if d.allows(1) && j0 < n {
                        let last = j0 + (n - 1 - j0) / l * l;
                        self.out.push(Family::Singles {
                            h0: n - last,
                            step: l,
                            count: (last - j0) / l + 1,
                        });
                    }
                }
                self.work += pre + l;
            }
            Some(t) if self.vals.tail() == Tail::Identity => {
                self.work += 1;
                if t >= 1 && t < n && rule.digit(n - t).allows(1) {
                    self.one(&[t]);
                }
            }
            Some(t) => {
                if n > self.vals.computed() {
                    return Err(unsupported(n, "one heap left by a repeated group"));
                }
                for h in 1..n {
                    if self.g(h) == t && rule.digit(n - h).allows(1) {
                        self.one(&[h]);
                    }
                }
                self.work += n;
            }
        }
        Ok(())
    }

    /// Splits `(a, s - a)` with `lo <= a <= s - a - u` (`u` = 1 when unequal), worth `target`,
    /// each after `prefix` (0: none).
    fn pairs(&mut self, s: u64, lo: u64, unequal: bool, target: Option<u64>, prefix: u64) {
        let u = unequal as u64;
        let hi = s.saturating_sub(u) / 2;
        self.work += 1;
        if lo > hi {
            return;
        }
        let Some(t) = target else {
            self.out.push(Family::Pairs {
                prefix,
                s,
                a0: lo,
                step: 1,
                count: hi - lo + 1,
            });
            return;
        };
        match self.vals.tail() {
            Tail::Identity if prefix == 0 && lo <= 1 => self.submask_pairs(s, t, unequal),
            Tail::Periodic { preperiod, period }
                if self.st == Strategy::Structured
                    || (self.st == Strategy::Auto
                        && hi - lo > 2 * (preperiod.saturating_add(period)) + 64) =>
            {
                self.periodic_pairs(s, lo, hi, t, prefix, preperiod, period)
            }
            _ => {
                for a in lo..=hi {
                    if self.g(a) ^ self.g(s - a) == t {
                        self.push_pair(prefix, a, s - a);
                    }
                }
                self.work += hi - lo + 1;
            }
        }
    }

    fn push_pair(&mut self, prefix: u64, a: u64, b: u64) {
        if prefix == 0 {
            self.one(&[a, b]);
        } else {
            self.one(&[prefix, a, b]);
        }
    }

    /// `G(h) = h`: `a + b = s` and `a ^ b = t` hold exactly when `a & b = c = (s - t) / 2`
    /// (so `c & t = 0`) and `a = c | x`, `b = c | (t ^ x)` for a submask `x` of `t`.
    fn submask_pairs(&mut self, s: u64, t: u64, unequal: bool) {
        if s < t || (s - t) % 2 == 1 {
            return;
        }
        let c = (s - t) / 2;
        if c & t != 0 {
            return;
        }
        if t == 0 {
            if !unequal && c >= 1 {
                self.one(&[c, c]);
            }
            return;
        }
        let free = t & !(1u64 << (63 - t.leading_zeros()));
        if c != 0 || free != 0 {
            self.out.push(Family::Submask { c, t, free });
        }
    }

    /// Pairs through a period `p` from `m`: parts below `m` one by one; beyond, by residue.
    #[allow(clippy::too_many_arguments)]
    fn periodic_pairs(&mut self, s: u64, lo: u64, hi: u64, t: u64, prefix: u64, m: u64, p: u64) {
        if m > lo {
            let top = hi.min(m - 1);
            for a in lo..=top {
                if self.g(a) ^ self.g(s - a) == t {
                    self.push_pair(prefix, a, s - a);
                }
            }
            self.work += top.saturating_sub(lo) + 1;
        }
        let start = lo.max(m);
        if start > hi {
            return;
        }
        // a >= m and s - a >= a >= m: both values depend only on a mod p.
        for x in 0..p {
            let Some(a0) = first_at_least(start, x, p) else {
                continue;
            };
            if a0 <= hi && self.g(a0) ^ self.g(s - a0) == t {
                self.out.push(Family::Pairs {
                    prefix,
                    s,
                    a0,
                    step: p,
                    count: (hi - a0) / p + 1,
                });
            }
        }
        self.work += p;
    }

    /// Splits into three heaps `a <= b <= c` (strictly when unequal) adding up to `s`.
    fn triples(&mut self, s: u64, unequal: bool) -> Result<()> {
        let u = unequal as u64;
        self.work += 1;
        if s < 3 + 3 * u {
            return Ok(());
        }
        let a_hi = (s - 3 * u) / 3;
        let Some(t) = self.target else {
            self.out.push(Family::Grid {
                s,
                a0: 1,
                b0: 0,
                lo: 1,
                step: 1,
                unequal,
            });
            return Ok(());
        };
        match self.vals.tail() {
            Tail::Identity if s >= self.vals.computed() => {
                Err(unsupported(s, "three heaps left when G(h) = h"))
            }
            Tail::Periodic { preperiod, period }
                if self.structured_triples(s, preperiod, period) =>
            {
                self.periodic_triples(s, a_hi, u, t, preperiod, period);
                Ok(())
            }
            _ => {
                for a in 1..=a_hi {
                    self.pairs(s - a, a + u, unequal, Some(t ^ self.g(a)), a);
                }
                Ok(())
            }
        }
    }

    fn structured_triples(&self, s: u64, m: u64, p: u64) -> bool {
        match self.st {
            Strategy::Explicit => false,
            Strategy::Structured => true,
            Strategy::Auto => {
                let (s, m, p) = (s as u128, m as u128, p as u128);
                s * s / 12 > 4 * (m * (m + 2 * p) + p * p) + 1000
            }
        }
    }

    fn periodic_triples(&mut self, s: u64, a_hi: u64, u: u64, t: u64, m: u64, p: u64) {
        let unequal = u == 1;
        // A smallest part below m: the other two by the pair search.
        for a in 1..=a_hi.min(m.saturating_sub(1)) {
            self.pairs(s - a, a + u, unequal, Some(t ^ self.g(a)), a);
        }
        // Every part at least m: only residues matter, and once the b-range of the first a of a
        // residue class is empty (b >= a + u, s - a - b >= b + u) it stays empty for larger a.
        let start = m.max(1);
        for x in 0..p {
            let Some(a0) = first_at_least(start, x, p) else {
                continue;
            };
            if a0 > a_hi {
                continue;
            }
            let bmax = (s - a0 - u) / 2;
            for y in 0..p {
                let Some(b) = first_at_least(a0 + u, y, p) else {
                    continue;
                };
                if b <= bmax && self.g(a0) ^ self.g(b) ^ self.g(s - a0 - b) == t {
                    self.out.push(Family::Grid {
                        s,
                        a0,
                        b0: y,
                        lo: m,
                        step: p,
                        unequal,
                    });
                }
            }
        }
        self.work += p * p;
    }
}
