//! The exact engine for take-and-break codes: mex over every option of every heap.
//!
//! For each sum `s` the set of values of `k` non-empty heaps adding up to `s` (`S_k[s]`, with a
//! variant for pairwise unequal heaps) is computed once, when `s` is reached, as XOR pairs
//! `G(a) ^ G(s - a)`; heap `n` then unions `S_k[n - j]` over the digits `d_j`. A repeated group
//! `[...]` lets `j` grow without bound: per residue class of `s` modulo the group length, a running
//! union of the `S_k[s]` seen so far replaces the sum over `j`.
//!
//! ```
//! use grundy::engine::{Sequence, TakeAndBreakExact};
//! use grundy::control::NoControl;
//! use grundy::rules::TakeAndBreak;
//! let mut g = Sequence::new(TakeAndBreakExact::new(TakeAndBreak::parse("4!.0").unwrap()));
//! g.extend(9, &NoControl).unwrap();
//! assert_eq!(g.values().to_vec(), vec![0, 0, 0, 1, 0, 2, 1, 0, 2]);
//! ```

// Index loops over (heap count, `!` flag) read better than zipped iterators here.
#![allow(clippy::needless_range_loop)]

use super::{Step, Val, RESUME_CHECK};
use crate::bitset::{stride_for, MexSet, SetStore};
use crate::error::Result;
use crate::periodicity::Theorem;
use crate::rules::{Digit, TakeAndBreak};
use rayon::prelude::*;

/// Below this many pairs a sum is done on one thread (rayon's overhead would dominate).
const PAR_PAIRS: usize = 1 << 14;

/// Exact solver for one take-and-break code.
pub struct TakeAndBreakExact {
    rule: TakeAndBreak,
    /// Digits d_1..d_t before the repeated group.
    t: usize,
    /// First removal covered by the repeated group (t + 1), and the group's length (0: none).
    start: u64,
    l: usize,
    /// `sets[k - 2][u]`: S_k (k = 2, 3) with (u = 1) or without the `!` restriction.
    sets: [[Option<SetStore>; 2]; 2],
    /// `unions[k - 1][u]`: running unions of S_k[s] per residue of s modulo l (repeated groups).
    unions: [[Option<Unions>; 2]; 3],
    /// Words per value set (values seen so far stay below 64 * stride).
    stride: usize,
    max_seen: u32,
    seen: usize,
    /// S_k[s] is stored for s < prepared; unions hold s < folded.
    prepared: usize,
    folded: usize,
    mex: MexSet,
}

/// Running unions of value sets, one per residue class, with how many leading words are full and
/// where the non-zero words end (so Nim-like unions cost O(1) per heap, not O(values)).
struct Unions {
    sets: SetStore,
    full: Vec<usize>,
    hi: Vec<usize>,
}

impl Unions {
    fn new(stride: usize, l: usize) -> Self {
        Unions {
            sets: SetStore::fixed(stride, l),
            full: vec![0; l],
            hi: vec![0; l],
        }
    }

    fn or_words(&mut self, r: usize, src: &[u64]) {
        let Some(last) = src.iter().rposition(|&w| w != 0) else {
            return;
        };
        let dst = self.sets.get_mut(r);
        for (d, s) in dst[..=last].iter_mut().zip(src) {
            *d |= *s;
        }
        self.hi[r] = self.hi[r].max(last + 1);
        self.advance(r);
    }

    fn insert(&mut self, r: usize, v: u32) {
        let i = (v >> 6) as usize;
        self.sets.get_mut(r)[i] |= 1 << (v & 63);
        self.hi[r] = self.hi[r].max(i + 1);
        self.advance(r);
    }

    /// The words of residue class `r` that may be non-zero.
    fn words(&self, r: usize) -> &[u64] {
        &self.sets.get(r)[..self.hi[r]]
    }

    fn advance(&mut self, r: usize) {
        let dst = self.sets.get(r);
        let f = &mut self.full[r];
        // Word 0 counts as full without value 0, which the rule may supply by other moves.
        while *f < dst.len() && dst[*f] | (*f == 0) as u64 == u64::MAX {
            *f += 1;
        }
    }
}

impl TakeAndBreakExact {
    /// The solver for `rule`.
    pub fn new(rule: TakeAndBreak) -> Self {
        let t = rule.prefix.len();
        let l = rule.cycle.len();
        let stride = 1;
        // Entries needed at once: S_k[n - j] for 0 <= j <= t, and S_k[n - t - 1] to fold.
        let ring = t + 2;
        let mut sets: [[Option<SetStore>; 2]; 2] = Default::default();
        for k in 2..=3 {
            for u in 0..2 {
                if rule.uses(k, u == 1) {
                    sets[k as usize - 2][u] = Some(SetStore::ring(stride, ring));
                }
            }
        }
        // Three equal-allowed heaps are unions over c of (S_2[s - c] ^ G(c)): keep every S_2.
        if sets[1][0].is_some() {
            sets[0][0] = Some(SetStore::unbounded(stride));
        }
        let mut unions: [[Option<Unions>; 2]; 3] = Default::default();
        for k in 1..=3u32 {
            for u in 0..2 {
                if rule
                    .cycle
                    .iter()
                    .any(|d| d.allows(k) && d.unequal == (u == 1))
                {
                    unions[k as usize - 1][u] = Some(Unions::new(stride, l));
                }
            }
        }
        TakeAndBreakExact {
            rule,
            t,
            start: t as u64 + 1,
            l,
            sets,
            unions,
            stride,
            max_seen: 0,
            seen: 0,
            prepared: 0,
            folded: 0,
            mex: MexSet::new(),
        }
    }

    /// The code.
    pub fn rule(&self) -> &TakeAndBreak {
        &self.rule
    }

    fn widen(&mut self, stride: usize) {
        self.stride = stride;
        for s in self.sets.iter_mut().flatten().flatten() {
            s.widen(stride);
        }
        for u in self.unions.iter_mut().flatten().flatten() {
            u.sets.widen(stride);
        }
    }

    /// Computes and stores S_k[s] for s = g.len() (every part of a split of s is below s).
    fn prepare_sum<T: Val>(&mut self, g: &[T]) {
        let s = g.len();
        if self.prepared > s {
            return;
        }
        let stride = self.stride;
        for u in 0..2 {
            if let Some(store) = self.sets[0][u].as_mut() {
                let amax = if u == 1 {
                    s.saturating_sub(1) / 2
                } else {
                    s / 2
                };
                pair_set(g, s, amax, store.push());
            }
        }
        if self.sets[1][0].is_some() {
            let mut acc = MexSet::new();
            let pairs = self.sets[0][0].as_ref().unwrap();
            for c in 1..s.saturating_sub(1) {
                acc.or_xor_shifted(pairs.get(s - c), g[c].get());
            }
            copy_into(
                self.sets[1][0].as_mut().unwrap().push(),
                acc.words(),
                stride,
            );
        }
        if let Some(store) = self.sets[1][1].as_mut() {
            triple_unequal_set(g, s, store.push());
        }
        self.prepared = s + 1;
    }

    /// Adds S_k[s] for every s <= limit to the running unions of the repeated group.
    fn fold<T: Val>(&mut self, g: &[T], limit: usize) {
        while self.folded <= limit {
            let s = self.folded;
            let r = s % self.l;
            for u in 0..2 {
                if let Some(un) = self.unions[0][u].as_mut() {
                    if s >= 1 {
                        un.insert(r, g[s].get());
                    }
                }
                for k in 2..=3 {
                    if let Some(un) = self.unions[k - 1][u].as_mut() {
                        un.or_words(r, self.sets[k - 2][u].as_ref().unwrap().get(s));
                    }
                }
            }
            self.folded += 1;
        }
    }
}

/// What the periodicity theorems can prove about a code.
pub fn theorem(rule: &TakeAndBreak) -> Theorem {
    let digits = || {
        std::iter::once(rule.d0)
            .chain(rule.prefix.iter().copied())
            .chain(rule.cycle.iter().copied())
    };
    if rule.is_infinite() {
        if rule.d0.counts == 0 && digits().skip(1).all(|d| d.counts & 3 == 3) {
            return Theorem::Identity;
        }
        return Theorem::Unproven(
            "the code removes arbitrarily many tokens (a repeated group), which the periodicity theorem \
             does not cover"
                .into(),
        );
    }
    if rule.uses(2, true) || rule.uses(3, true) {
        return Theorem::Unproven(
            "the periodicity theorem does not cover the '!' rule (heaps must be unequal)".into(),
        );
    }
    Theorem::Finite {
        k: rule.max_heaps(),
        t: rule.last_nonzero() as u64,
    }
}

fn copy_into(dst: &mut [u64], src: &[u64], stride: usize) {
    let m = src.len().min(stride);
    dst[..m].copy_from_slice(&src[..m]);
}

/// Values G(a) ^ G(s - a) for 1 <= a <= amax, as a bit set.
fn pair_set<T: Val>(g: &[T], s: usize, amax: usize, out: &mut [u64]) {
    if amax == 0 {
        return;
    }
    let lo = &g[1..=amax];
    let hi = &g[s - amax..s];
    if out.len() == 1 {
        // Values below 64: one register, a loop the compiler vectorises.
        let one = |lo: &[T], hi: &[T]| {
            lo.iter()
                .zip(hi.iter().rev())
                .fold(0u64, |m, (a, b)| m | 1u64 << ((a.get() ^ b.get()) & 63))
        };
        out[0] = if amax >= PAR_PAIRS {
            let chunk = PAR_PAIRS / 2;
            lo.par_chunks(chunk)
                .enumerate()
                .map(|(i, c)| {
                    let end = amax - i * chunk;
                    one(c, &hi[end - c.len()..end])
                })
                .reduce(|| 0, |a, b| a | b)
        } else {
            one(lo, hi)
        };
    } else {
        let fill = |lo: &[T], hi: &[T], out: &mut [u64]| {
            for (a, b) in lo.iter().zip(hi.iter().rev()) {
                let v = a.get() ^ b.get();
                out[(v >> 6) as usize] |= 1 << (v & 63);
            }
        };
        if amax >= PAR_PAIRS {
            let chunk = PAR_PAIRS / 2;
            let stride = out.len();
            let acc = lo
                .par_chunks(chunk)
                .enumerate()
                .map(|(i, c)| {
                    let end = amax - i * chunk;
                    let mut w = vec![0u64; stride];
                    fill(c, &hi[end - c.len()..end], &mut w);
                    w
                })
                .reduce(
                    || vec![0u64; stride],
                    |mut a, b| {
                        a.iter_mut().zip(&b).for_each(|(x, y)| *x |= y);
                        a
                    },
                );
            out.copy_from_slice(&acc);
        } else {
            fill(lo, hi, out);
        }
    }
}

/// Values G(a) ^ G(b) ^ G(c) over a < b < c, a + b + c = s.
fn triple_unequal_set<T: Val>(g: &[T], s: usize, out: &mut [u64]) {
    for c in 3..s {
        let rest = s - c;
        // a < b < c and a + b = rest: a from max(1, rest - c + 1) while a < rest - a.
        let a_min = (rest + 1).saturating_sub(c).max(1);
        let mut a = a_min;
        while 2 * a < rest {
            let v = g[a].get() ^ g[rest - a].get() ^ g[c].get();
            out[(v >> 6) as usize] |= 1 << (v & 63);
            a += 1;
        }
    }
}

impl Step for TakeAndBreakExact {
    fn theorem(&self) -> Theorem {
        theorem(&self.rule)
    }

    fn bytes_per_heap(&self) -> u64 {
        // Every S_2 is kept when three heaps may be left.
        if self.sets[1][0].is_some() {
            8 * self.stride as u64
        } else {
            0
        }
    }

    /// For a finite code whose stores are all rings, only the last `t + 2` sums' value sets are
    /// needed: they are recomputed from `g`. A repeated group (running unions over every sum)
    /// or three equal heaps (every S_2 kept) need all sums, so those replay from the start.
    fn resume<T: Val>(&mut self, g: &[T]) -> Result<usize> {
        if self.l > 0 || self.sets[1][0].is_some() || self.prepared > 0 {
            return Ok(0);
        }
        let k = g.len().saturating_sub(RESUME_CHECK);
        // The state after computing G(0..k): values seen, set width, and S_k[s] for the sums
        // s < k that heap k and the ones after it still read.
        self.max_seen = g[..k].iter().map(|v| v.get()).max().unwrap_or(0);
        self.seen = k;
        let need = stride_for(self.max_seen.saturating_add(1));
        if need > self.stride {
            self.widen(need);
        }
        let start = k.saturating_sub(self.t + 2);
        for store in self.sets.iter_mut().flatten().flatten() {
            store.restart_at(start);
        }
        self.prepared = start;
        for s in start..k {
            self.prepare_sum(&g[..s]);
        }
        Ok(k)
    }

    /// A fresh solver, where [`Step::resume`] rebuilds the state cheaply (ring stores only).
    fn fork(&self) -> Option<Self> {
        (self.l == 0 && self.sets[1][0].is_none()).then(|| Self::new(self.rule.clone()))
    }

    /// Starts afresh and resumes at `g`: the last few sums' sets, recomputed.
    fn advance<T: Val>(&mut self, g: &[T]) {
        *self = Self::new(self.rule.clone());
        let k = self.resume(g).unwrap_or(0);
        for n in k..g.len() {
            // Replays the state for heap n (its value is g[n]; compute never fails here).
            let _ = self.compute(&g[..n]);
        }
    }

    fn compute<T: Val>(&mut self, g: &[T]) -> Result<u32> {
        let n = g.len();
        // Keep every stored set wide enough for the values seen so far.
        for v in &g[self.seen..] {
            self.max_seen = self.max_seen.max(v.get());
        }
        self.seen = n;
        let need = stride_for(self.max_seen.saturating_add(1));
        if need > self.stride {
            self.widen(need);
        }
        self.prepare_sum(g);

        self.mex.clear();
        // The repeated group: j = start + q + i*l for i >= 0, so s = n - j runs over the residue
        // class of n - start - q up to n - start - q.
        if self.l > 0 && n as u64 >= self.start {
            let top = n - self.start as usize;
            self.fold(g, top);
            let mut floor = 0;
            for (q, d) in self.rule.cycle.iter().enumerate() {
                if q > top {
                    break;
                }
                let r = (top - q) % self.l;
                for k in 1..=3 {
                    if d.allows(k as u32) {
                        let un = self.unions[k - 1][d.unequal as usize].as_ref().unwrap();
                        floor = floor.max(un.full[r]);
                    }
                }
            }
            self.mex.set_floor(floor);
            for (q, d) in self.rule.cycle.iter().enumerate() {
                if q > top {
                    break;
                }
                let r = (top - q) % self.l;
                for k in 1..=3 {
                    if d.allows(k as u32) {
                        let un = self.unions[k - 1][d.unequal as usize].as_ref().unwrap();
                        self.mex.or_words(un.words(r));
                    }
                }
            }
        }
        // Inserted after the floor is set, so a Nim-like prefix of values is never touched.
        if n >= 1 && self.rule.digit(n as u64).allows(0) {
            self.mex.insert(0);
        }
        // The finite digits d_0..d_t.
        for j in 0..=self.t.min(n) {
            let d: Digit = self.rule.digit(j as u64);
            let s = n - j;
            if d.allows(1) && j >= 1 && s >= 1 {
                self.mex.insert(g[s].get());
            }
            for k in 2..=3usize {
                if d.allows(k as u32) && s >= k {
                    let store = self.sets[k - 2][d.unequal as usize].as_ref().unwrap();
                    self.mex.or_words(store.get(s));
                }
            }
        }
        Ok(self.mex.mex())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::NoControl;
    use crate::engine::testing::exact;
    use crate::engine::{naive, Sequence};

    #[test]
    fn kayles_and_grundy() {
        let kayles = [
            0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8,
        ];
        assert_eq!(exact("0.77", 28), kayles);
        assert_eq!(exact("4!.0", 9), vec![0, 0, 0, 1, 0, 2, 1, 0, 2]);
        let nim: Vec<u32> = (0..300).collect();
        assert_eq!(exact("0.[3]", 300), nim);
    }

    #[test]
    fn matches_naive_engine() {
        for code in [
            "0.77", "0.137", "0.07", "0.7777", "0.45", "0.4F", "0.F", "0.8", "4.0", "8.0", "C.0",
            "4!.0", "0.4!", "0.8!", "0.C!7", "0.[3]", "0.[7]", "0.1[37]", "0.[F]", "0.[4]",
            "0.6[8!]", "4.[2]", "0.{1,3}", "0.B6", "0.[12]",
        ] {
            let rule = TakeAndBreak::parse(code).unwrap();
            assert_eq!(exact(code, 90), naive::take_and_break(&rule, 90), "{code}");
        }
    }

    #[test]
    fn extends_in_pieces() {
        let rule = TakeAndBreak::parse("0.1[37]").unwrap();
        let mut s = Sequence::new(TakeAndBreakExact::new(rule.clone()));
        for n in [1, 2, 5, 17, 40, 90] {
            s.extend(n, &NoControl).unwrap();
        }
        assert_eq!(s.values().to_vec(), naive::take_and_break(&rule, 90));
    }

    #[test]
    fn resumes_from_stored_values() {
        // Finite codes rebuild their rings; repeated groups and three equal heaps replay.
        for code in [
            "0.77", "0.137", "4!.0", "0.4F", "0.C!7", "0.FF", "0.[3]", "0.1[37]", "0.B6",
        ] {
            let rule = TakeAndBreak::parse(code).unwrap();
            let want = exact(code, 200);
            for m in [0, 3, 16, 17, 40, 120] {
                let mut s = Sequence::with_values(TakeAndBreakExact::new(rule.clone()), &want[..m])
                    .unwrap();
                assert_eq!(s.values().len(), m);
                s.extend(200, &NoControl).unwrap();
                assert_eq!(s.values().to_vec(), want, "{code} from {m}");
            }
            let mut bad = want[..150].to_vec();
            bad[149] ^= 1;
            let r = Sequence::with_values(TakeAndBreakExact::new(rule.clone()), &bad);
            assert!(matches!(r, Err(crate::Error::Invalid(_))), "{code}");
        }
        // Kayles' values of another code are refused.
        let other = exact("0.137", 100);
        let r = Sequence::with_values(
            TakeAndBreakExact::new(TakeAndBreak::parse("0.77").unwrap()),
            &other,
        );
        assert!(r.is_err());
    }

    #[test]
    fn resumes_past_the_parallel_threshold() {
        let n = PAR_PAIRS as u64 * 2 + 100;
        let want = exact("0.77", n);
        let mut s = Sequence::with_values(
            TakeAndBreakExact::new(TakeAndBreak::parse("0.77").unwrap()),
            &want[..want.len() - 50],
        )
        .unwrap();
        s.extend(n, &NoControl).unwrap();
        assert_eq!(s.values().to_vec(), want);
    }

    #[test]
    fn large_values_widen_sets() {
        // 0.[F] values grow quickly past 64, exercising multi-word sets and XOR shifts.
        let rule = TakeAndBreak::parse("0.FF").unwrap();
        assert_eq!(exact("0.FF", 150), naive::take_and_break(&rule, 150));
        let rule = TakeAndBreak::parse("0.[7]").unwrap();
        assert_eq!(exact("0.[7]", 200), naive::take_and_break(&rule, 200));
    }

    #[test]
    fn parallel_pairs_match_serial() {
        // Above PAR_PAIRS the pair sets are computed in parallel chunks.
        let v = exact("0.77", 2 * PAR_PAIRS as u64 + 50);
        // Kayles is periodic with period 12 from 71 on.
        for n in 71..v.len() - 12 {
            assert_eq!(v[n], v[n + 12], "n={n}");
        }
    }
}
