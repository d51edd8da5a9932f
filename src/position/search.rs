//! The options of one heap, all of them or only those worth a given value, as [`Family`]s.
//!
//! A take-and-break move removes `j` tokens and leaves `k` non-empty heaps adding up to
//! `s = n - j`. The search visits `k = 0, 1, 2, 3` and, for each, the removals `j` the code
//! allows; for a wanted value `t` it finds the splits with `G(a) ^ G(b) (^ G(c)) = t`:
//!
//! * explicitly, split by split, when the heap is within the computed values;
//! * through a proven period `p` from `n0` otherwise: a part below `n0` is tried one by one (the
//!   rest then has its value read off the period), and when every part is at least `n0` only
//!   the parts' residues modulo `p` matter, so each matching residue gives a whole arithmetic
//!   progression of splits. That is O(n0 + p) candidates for two heaps and O(n0 (n0 + p) + p^2)
//!   for three, whatever the heap size;
//! * by XOR algebra when `G(h) = h`: `a + b = s` and `a ^ b = t` force `a & b = (s - t) / 2`.
//!
//! Work is counted in candidates examined; a search stops after a budget and returns a
//! [`Cursor`] to resume from, so callers can stream the options of a heap of 10^18 tokens.
//!
//! ```
//! use grundy::engine::{NoControl, Sequence, TakeAndBreakExact};
//! use grundy::position::{search, Cursor, HeapRule, HeapValues, Tail};
//! use grundy::rules::TakeAndBreak;
//! let code = TakeAndBreak::parse("0.77").unwrap();
//! let mut seq = Sequence::new(TakeAndBreakExact::new(code.clone()));
//! seq.extend(100, &NoControl).unwrap();
//! let vals = HeapValues::new(seq.values(), Tail::Periodic { preperiod: 71, period: 12 }).unwrap();
//! // Options of a Kayles row of 10^18 pins worth G = 0: they exist (and are many).
//! let rule = HeapRule::TakeAndBreak(code);
//! let found = search(&rule, &vals, 1_000_000_000_000_000_000, Some(0), Cursor::START, u64::MAX, true).unwrap();
//! assert!(!found.families.is_empty());
//! ```

use super::family::{first_at_least, Family, Parts};
use super::{HeapValues, Tail};
use crate::error::{Error, Result};
use crate::rules::{Subtraction, TakeAndBreak};

/// A heap rule whose options the core can list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeapRule {
    TakeAndBreak(TakeAndBreak),
    Subtraction(Subtraction),
}

impl HeapRule {
    /// Whether leaving the heaps `parts` (in any order) is a move from a heap of `n`.
    ///
    /// ```
    /// use grundy::position::HeapRule;
    /// let kayles = HeapRule::TakeAndBreak("0.77".parse().unwrap());
    /// assert!(kayles.is_option(7, &[2, 3]));
    /// assert!(!kayles.is_option(7, &[1, 2]));
    /// ```
    pub fn is_option(&self, n: u64, parts: &[u64]) -> bool {
        match self {
            HeapRule::TakeAndBreak(rule) => {
                if parts.len() > 3 || parts.contains(&0) {
                    return false;
                }
                let Some(sum) = parts.iter().try_fold(0u64, |a, &b| a.checked_add(b)) else {
                    return false;
                };
                if sum > n {
                    return false;
                }
                let d = rule.digit(n - sum);
                if !d.allows(parts.len() as u32) || (n == sum && parts.len() < 2) {
                    return false;
                }
                let mut p = parts.to_vec();
                p.sort_unstable();
                !(d.unequal && p.windows(2).any(|w| w[0] == w[1]))
            }
            HeapRule::Subtraction(rule) => match parts {
                &[h] if h < n => rule.allows(n, n - h),
                _ => false,
            },
        }
    }
}

/// Where a search resumes: the number of heaps left `k` and the next removal `j` (for
/// subtraction rules, the next candidate of the rule's own loop).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor {
    pub k: u8,
    pub j: u64,
}

impl Cursor {
    pub const START: Cursor = Cursor { k: 0, j: 0 };
}

/// What one call of [`search`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub families: Vec<Family>,
    /// Where to resume, or `None` when every option was visited.
    pub next: Option<Cursor>,
    /// Candidates examined.
    pub work: u64,
}

/// How splits are searched; [`Strategy::Auto`] picks the cheaper exact method. The others exist
/// so that tests can check the methods against each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    Auto,
    /// Every split, one by one.
    Explicit,
    /// Through the period whenever the tail is periodic.
    Structured,
}

/// The options of a heap of `n` (those worth `target` when given) as families, from `from`
/// until the work exceeds `budget` (or, with `first_only`, until something is found).
///
/// With a target, every heap below `n` must have a known value (else [`Error::Invalid`]).
pub fn search(
    rule: &HeapRule,
    vals: &HeapValues,
    n: u64,
    target: Option<u64>,
    from: Cursor,
    budget: u64,
    first_only: bool,
) -> Result<Found> {
    search_with(
        rule,
        vals,
        n,
        target,
        from,
        budget,
        first_only,
        Strategy::Auto,
    )
}

/// [`search`] with a chosen [`Strategy`].
#[allow(clippy::too_many_arguments)]
pub fn search_with(
    rule: &HeapRule,
    vals: &HeapValues,
    n: u64,
    target: Option<u64>,
    from: Cursor,
    budget: u64,
    first_only: bool,
    st: Strategy,
) -> Result<Found> {
    let s = Searcher {
        vals,
        target,
        st,
        budget,
        first_only,
        out: Vec::new(),
        work: 0,
    };
    if let Some(t) = target {
        vals.check_below(n)?;
        // Every option of a heap of n is worth less than n when G(h) = h (a XOR is at most
        // the sum of its terms, which is below n).
        if vals.tail() == Tail::Identity && t >= n {
            return Ok(s.done(None));
        }
    }
    match rule {
        HeapRule::TakeAndBreak(rule) => s.take_and_break(rule, n, from),
        HeapRule::Subtraction(rule) => s.subtraction(rule, n, from),
    }
}

struct Searcher<'a, 'v> {
    vals: &'a HeapValues<'v>,
    target: Option<u64>,
    st: Strategy,
    budget: u64,
    first_only: bool,
    out: Vec<Family>,
    work: u64,
}

impl Searcher<'_, '_> {
    fn done(self, next: Option<Cursor>) -> Found {
        Found {
            families: self.out,
            next,
            work: self.work,
        }
    }

    /// Whether this call has done its share: found something (with `first_only`) or spent the
    /// budget.
    fn stopped(&self) -> bool {
        (self.first_only && !self.out.is_empty()) || self.work >= self.budget
    }

    #[inline]
    fn g(&self, h: u64) -> u64 {
        self.vals.get(h)
    }

    fn one(&mut self, parts: &[u64]) {
        self.out.push(Family::One(Parts::new(parts)));
    }

    // -- take-and-break -----------------------------------------------------------------------

    fn take_and_break(mut self, rule: &TakeAndBreak, n: u64, from: Cursor) -> Result<Found> {
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

    // -- subtraction --------------------------------------------------------------------------

    fn subtraction(mut self, rule: &Subtraction, n: u64, from: Cursor) -> Result<Found> {
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

fn unsupported(n: u64, what: &str) -> Error {
    Error::Invalid(format!(
        "searching the options of a heap of {n} by value ({what}) needs G of every smaller heap, \
         and no period gives them: compute the values up to {n} first"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::naive::for_each_split;
    use crate::engine::{NoControl, Sequence, SubtractionExact, TakeAndBreakExact, Values};
    use crate::periodicity::{detect, Theorem};
    use std::collections::BTreeSet;

    fn values_of(code: &str, n: u64) -> Values {
        let mut s = Sequence::new(TakeAndBreakExact::new(TakeAndBreak::parse(code).unwrap()));
        s.extend(n, &NoControl).unwrap();
        s.values().clone()
    }

    fn proven_tail(code: &str, v: &Values) -> Tail {
        let rule = TakeAndBreak::parse(code).unwrap();
        let th = crate::engine::take_and_break::theorem(&rule);
        let p = detect(v.len(), |i| v.get(i), &th).unwrap();
        assert!(p.proven, "{code}: {p:?}");
        assert!(matches!(th, Theorem::Finite { .. }));
        Tail::Periodic {
            preperiod: p.preperiod,
            period: p.period,
        }
    }

    fn collect(
        rule: &HeapRule,
        vals: &HeapValues,
        n: u64,
        t: Option<u64>,
        st: Strategy,
        budget: u64,
    ) -> BTreeSet<Vec<u64>> {
        let mut out = BTreeSet::new();
        let mut cur = Some(Cursor::START);
        while let Some(c) = cur {
            let f = search_with(rule, vals, n, t, c, budget, false, st).unwrap();
            for fam in &f.families {
                fam.try_for_each(&mut |p| {
                    assert!(out.insert(p.to_vec()), "{n}: {p:?} twice");
                    Ok(())
                })
                .unwrap();
            }
            cur = f.next;
        }
        out
    }

    /// Every option of heap n, straight from the digits (the naive engine's enumeration).
    fn brute(rule: &TakeAndBreak, n: u64) -> BTreeSet<Vec<u64>> {
        let mut out = BTreeSet::new();
        for j in 0..=n {
            let d = rule.digit(j);
            for k in 0..=3u32 {
                if d.allows(k) && !(k == 0 && j == 0) {
                    for_each_split(n - j, k, d.unequal, &mut |p| {
                        out.insert(p.to_vec());
                    });
                }
            }
        }
        out.retain(|p| !(p.len() == 1 && p[0] == n));
        out
    }

    #[test]
    fn every_option_matches_the_naive_enumeration() {
        for code in [
            "0.77", "0.137", "4!.0", "0.4F", "0.[37]", "8.0", "0.F!7", "4.[3]",
        ] {
            let rule = TakeAndBreak::parse(code).unwrap();
            let v = values_of(code, 40);
            let vals = HeapValues::new(&v, Tail::None).unwrap();
            let hr = HeapRule::TakeAndBreak(rule.clone());
            for n in 0..40 {
                let want = brute(&rule, n);
                assert_eq!(
                    collect(&hr, &vals, n, None, Strategy::Auto, 3),
                    want,
                    "{code} {n}"
                );
                for p in &want {
                    assert!(hr.is_option(n, p), "{code} {n} {p:?}");
                }
                // Every target: the options of that value, found one by one.
                for t in 0..8 {
                    let by_value: BTreeSet<_> = want
                        .iter()
                        .filter(|p| p.iter().fold(0, |x, &h| x ^ v.get(h as usize) as u64) == t)
                        .cloned()
                        .collect();
                    for st in [Strategy::Explicit, Strategy::Auto] {
                        assert_eq!(
                            collect(&hr, &vals, n, Some(t), st, 5),
                            by_value,
                            "{code} {n} {t}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn structured_search_agrees_with_explicit() {
        // Kayles (period 12 from 71), Dawson's chess (34 from 52) and hexadecimal games that
        // leave up to three heaps (0.B7C: period 62 from 122; 0.F7D: 34 from 53).
        for code in ["0.77", "0.137", "0.B7C", "0.F7D"] {
            let v = values_of(code, 3000);
            let tail = proven_tail(code, &v);
            let vals = HeapValues::new(&v, tail).unwrap();
            let hr = HeapRule::TakeAndBreak(TakeAndBreak::parse(code).unwrap());
            let heaps: &[u64] = if code.len() == 5 {
                &[3, 90, 157, 400, 701, 1200]
            } else {
                &[5, 70, 71, 150, 401, 1000, 2999]
            };
            for &n in heaps {
                for t in 0..10 {
                    let a = collect(&hr, &vals, n, Some(t), Strategy::Explicit, u64::MAX);
                    let b = collect(&hr, &vals, n, Some(t), Strategy::Structured, u64::MAX);
                    assert_eq!(a, b, "{code} heap {n} value {t}");
                }
            }
        }
    }

    #[test]
    fn kayles_heap_of_10_18_has_a_winning_move() {
        let v = values_of("0.77", 200);
        let vals = HeapValues::new(&v, proven_tail("0.77", &v)).unwrap();
        let hr = HeapRule::TakeAndBreak(TakeAndBreak::parse("0.77").unwrap());
        let n = 1_000_000_000_000_000_000u64;
        let f = search(&hr, &vals, n, Some(0), Cursor::START, u64::MAX, false).unwrap();
        assert!(f.work < 1000, "{}", f.work);
        let mut checked = 0;
        for fam in &f.families {
            fam.try_for_each(&mut |p| {
                assert!(hr.is_option(n, p));
                assert_eq!(p.iter().fold(0, |x, &h| x ^ vals.get(h)), 0);
                checked += 1;
                if checked > 1000 {
                    Err(Error::Interrupted)
                } else {
                    Ok(())
                }
            })
            .ok();
        }
        assert!(checked > 1000);
    }

    #[test]
    fn identity_rules_by_algebra() {
        // 0.[7]: remove any number, leave up to two heaps; G(h) = h.
        let code = "0.[7]";
        let rule = TakeAndBreak::parse(code).unwrap();
        let v = values_of(code, 60);
        assert!((0..60).all(|i| v.get(i) == i as u32));
        let hr = HeapRule::TakeAndBreak(rule.clone());
        let small = HeapValues::new(&v, Tail::None).unwrap();
        let id = HeapValues::new(&v, Tail::Identity).unwrap();
        for n in 0..60 {
            for t in 0..64 {
                let a = collect(&hr, &small, n, Some(t), Strategy::Explicit, 7);
                let b = collect(&hr, &id, n, Some(t), Strategy::Auto, 7);
                assert_eq!(a, b, "{n} {t}");
            }
        }
        // Far beyond the table: the single heap of value t, found at once.
        let n = u64::MAX - 5;
        let f = search(&hr, &id, n, Some(12345), Cursor::START, u64::MAX, true).unwrap();
        assert_eq!(f.families, vec![Family::One(Parts::new(&[12345]))]);
        let f = search(&hr, &id, 10, Some(10), Cursor::START, u64::MAX, false).unwrap();
        assert!(f.families.is_empty() && f.next.is_none());
    }

    #[test]
    fn subtraction_rules() {
        let rules = [
            Subtraction::finite(vec![1, 3, 4]).unwrap(),
            Subtraction::all_but(vec![2, 3]).unwrap(),
            Subtraction::Squares,
            Subtraction::AtMostHalf,
            Subtraction::ProperDivisors,
        ];
        for r in rules {
            let mut s = Sequence::new(SubtractionExact::new(r.clone()));
            s.extend(80, &NoControl).unwrap();
            let v = s.values().clone();
            let vals = HeapValues::new(&v, Tail::None).unwrap();
            let hr = HeapRule::Subtraction(r.clone());
            for n in 0..80u64 {
                let want: BTreeSet<Vec<u64>> = (1..=n)
                    .filter(|&k| r.allows(n, k))
                    .map(|k| vec![n - k])
                    .collect();
                assert_eq!(
                    collect(&hr, &vals, n, None, Strategy::Auto, 2),
                    want,
                    "{r} {n}"
                );
                for t in 0..6 {
                    let w: BTreeSet<_> = want
                        .iter()
                        .filter(|p| v.get(p[0] as usize) as u64 == t)
                        .cloned()
                        .collect();
                    assert_eq!(collect(&hr, &vals, n, Some(t), Strategy::Auto, 2), w);
                }
            }
        }
    }

    #[test]
    fn unknown_values_are_an_error() {
        let v = values_of("4!.0", 50);
        let vals = HeapValues::new(&v, Tail::None).unwrap();
        let hr = HeapRule::TakeAndBreak(TakeAndBreak::parse("4!.0").unwrap());
        assert!(search(&hr, &vals, 51, Some(0), Cursor::START, 10, false).is_err());
        // Listing options needs no values.
        assert!(search(&hr, &vals, 1 << 60, None, Cursor::START, 10, false).is_ok());
    }
}
