//! Finding where a sequence becomes (arithmetic-)periodic, and proving it.
//!
//! Detection is linear in the number of values: the first differences `D(n) = G(n + 1) - G(n)` are
//! read backwards and a prefix-function (failure-function) pass gives, for every tail length, the
//! least period of that tail. `G` is arithmetic-periodic from `n0` with period `p` and saltus `s`
//! (`G(n + p) = G(n) + s`) exactly when `D` is periodic from `n0` with period `p`; plain
//! periodicity is saltus 0.
//!
//! Long sequences take a faster road to the same answer ([`scan`]): a tail worth reporting
//! repeats its last `min(p, REPEAT)` differences at its least period `p`, so only the lags at which
//! the last [`REPEAT`] differences recur (found with a rolling hash, in parallel, then checked), and
//! the lags below [`REPEAT`], can be such periods; each one's tail is then extended by direct
//! comparison. No scratch per value; the failure-function pass stays as the fallback (when those
//! lags would cost more to extend than it does) and as the oracle of the tests.
//!
//! Proofs come from a [`Theorem`] that the rule supplies: for a finite code whose moves leave at
//! most `k` heaps and whose last non-zero digit is `d_t`, the Guy–Smith argument (Winning Ways ch. 4)
//! generalised to `k` heaps: if `G(n + p) = G(n)` for `n0 <= n < max(k*n0 + (k-1)*p + t, t + 1)`
//! then it holds for all `n >= n0` (the largest part of any split of `n + p` is then at least
//! `n0 + p`, so options of `n + p` and `n` correspond one to one with equal values).
//!
//! ```
//! use grundy::periodicity::{detect, Theorem};
//! let kayles_like = [0u32, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2];
//! let th = Theorem::Finite { k: 1, t: 2 };
//! let p = detect(kayles_like.len(), |i| kayles_like[i], &th).unwrap();
//! assert_eq!((p.preperiod, p.period, p.saltus, p.proven), (0, 3, 0, true));
//! ```

/// What a rule lets us prove about its periodicity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Theorem {
    /// A finite rule: moves leave at most `k` heaps, and remove at most `t` tokens (the last
    /// non-zero digit). Proves plain periods (saltus 0).
    Finite {
        /// Most heaps a move leaves.
        k: u32,
        /// Most tokens a move removes.
        t: u64,
    },
    /// Every smaller heap is an option and every option's value is below n, so G(n) = n.
    Identity,
    /// No theorem applies; the reason, for the certificate.
    Unproven(String),
}

impl Theorem {
    /// The number of values that must be examined to prove `G(n + p) = G(n) + s` from `n0`, if
    /// this theorem can prove it at all.
    pub fn needed(&self, n0: u64, p: u64, s: i64) -> Option<u64> {
        match self {
            Theorem::Finite { k, t } if s == 0 => {
                let k = *k as u64;
                let bound = (k * n0 + k.saturating_sub(1) * p + t).max(t + 1);
                Some(bound + p)
            }
            Theorem::Identity if n0 == 0 && p == 1 && s == 1 => Some(2),
            _ => None,
        }
    }

    /// A short text saying which argument proves a period, over which range.
    pub fn certificate(&self, found: &Period, examined: u64) -> String {
        let Period {
            preperiod: n0,
            period: p,
            saltus: s,
            proven,
        } = *found;
        let rel = if s == 0 {
            format!("G(n + {p}) = G(n)")
        } else {
            format!("G(n + {p}) = G(n) + {s}")
        };
        match self {
            Theorem::Finite { k, t } if proven => {
                let bound = (*k as u64 * n0 + (*k as u64).saturating_sub(1) * p + t).max(t + 1);
                format!(
                    "periodicity theorem for finite rules (Guy and Smith; moves leave at most {k} heap(s), \
                     remove at most t = {t} tokens): {rel} checked for {n0} <= n < {bound} = \
                     max({k}*{n0} + {}*{p} + {t}, {t} + 1), so it holds for all n >= {n0}",
                    k.saturating_sub(1)
                )
            }
            Theorem::Identity if proven => "every smaller heap is an option and every option is worth less than \
                 the heap (a XOR of parts adding up to less than n), so G(n) = n for all n"
                .to_string(),
            Theorem::Finite { .. } => format!(
                "observed only: {rel} for {n0} <= n < {}; the periodicity theorem proves only saltus 0",
                examined - p
            ),
            Theorem::Identity => format!("observed only: {rel} for {n0} <= n < {}", examined - p),
            Theorem::Unproven(why) => format!("observed only: {rel} for {n0} <= n < {}; {why}", examined - p),
        }
    }
}

/// A period found in the values examined.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Period {
    /// Where the periodic part starts: `G(n + period) = G(n) + saltus` for every `n >= preperiod`.
    pub preperiod: u64,
    /// The period.
    pub period: u64,
    /// What each period adds to the values (0 for a plain period).
    pub saltus: i64,
    /// Whether a theorem proves that the pattern goes on for ever (else it is only observed).
    pub proven: bool,
}

/// What one pass over `G(0..n)` finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Detection {
    /// The earliest credible (arithmetic-)periodic tail: proven by the theorem, or observed over
    /// at least three periods and half of the values examined.
    pub found: Option<Period>,
    /// The longest tail that repeats at least `min(p, 1024)` values of its least period `p` and
    /// that the theorem could prove, with the number of values the proof needs: a hint for how
    /// far a search should compute next (a period of 149,459 from 105,351 shows at 2^18 values,
    /// long before it counts as observed).
    pub candidate: Option<(Period, u64)>,
}

/// The period search's first size: the values a search examines first (unless more are
/// computed already). The small published periods (Kayles: 71 + 12, 0.137: 52 + 34) are proven
/// there, and report that they were.
pub const FIRST_SCAN: u64 = 1 << 10;

/// How much each size of the period search grows over the last when nothing nearer is aimed at.
/// A scan reads each value once (about 4 ns a value) while computing one takes hundreds of
/// nanoseconds to microseconds, so scanning at every doubling costs under 2 % of the values it
/// scans, and a period is never computed more than twice past the size that proves it.
pub const GROWTH: u64 = 2;

/// The one period-search schedule: the size to examine after a scan `d` of `G(0..n)` found no
/// proven period. Straight to the size that proves the period found (when the theorem can); else
/// to the size that would prove the longest tail seen repeating, when that is nearer than
/// [`GROWTH`] times `n` (0.354: 2.01e7 values, not 2^25); else `GROWTH` times `n`. Searches
/// start at [`FIRST_SCAN`]. Both the proving extension (`Sequence::extend_proving`) and the
/// search of a period (`Sequence::search_period`) follow it.
///
/// ```
/// use grundy::periodicity::{next_scan, Detection, Period, Theorem};
/// let th = Theorem::Finite { k: 2, t: 2 };
/// assert_eq!(next_scan(1024, &Detection::default(), &th), 2048);
/// let p = Period { preperiod: 900, period: 300, saltus: 0, proven: false };
/// let seen = Detection { found: Some(p), candidate: None };
/// assert_eq!(next_scan(1024, &seen, &th), th.needed(900, 300, 0).unwrap()); // 2402
/// let aim = Detection { found: None, candidate: Some((p, 1500)) };
/// assert_eq!(next_scan(1024, &aim, &th), 1500);
/// ```
pub fn next_scan(n: u64, d: &Detection, theorem: &Theorem) -> u64 {
    let need = d
        .found
        .and_then(|p| theorem.needed(p.preperiod, p.period, p.saltus));
    if let Some(need) = need.filter(|&need| need > n) {
        return need;
    }
    let grown = n.saturating_mul(GROWTH);
    match d.candidate {
        Some((_, aim)) if n < aim && aim <= grown => aim,
        _ => grown,
    }
}

/// Finds the earliest credible (arithmetic-)periodic tail of `G(0..n)` (given by `get`).
///
/// A tail from `n0` with least period `p` is accepted when `theorem` proves it from these values,
/// or when it was observed over at least three periods and half of the values examined.
/// Returns `None` when no tail qualifies.
pub fn detect(n: usize, get: impl Fn(usize) -> u32, theorem: &Theorem) -> Option<Period> {
    let g: Vec<u32> = (0..n).map(get).collect();
    scan(&g, theorem).found
}

/// The failure function of `x(0..m)`: `pi[i]` is the length of the longest proper prefix of
/// `x(0..=i)` that is also its suffix. `x` is read through a function, so that the sequence need
/// not be stored: the only scratch is `pi`, 4 bytes per element.
fn failure<X: Copy + Eq>(m: usize, x: impl Fn(usize) -> X) -> Vec<u32> {
    let mut pi = vec![0u32; m];
    for i in 1..m {
        let mut k = pi[i - 1] as usize;
        let xi = x(i);
        while k > 0 && x(k) != xi {
            k = pi[k - 1] as usize;
        }
        if x(k) == xi {
            k += 1;
        }
        pi[i] = k as u32;
    }
    pi
}

/// A tail is worth reporting (observed, proven or a candidate) only once it repeats at least
/// `min(p, REPEAT)` values of its least period `p` (or `p - 1` of them, for `p <= REPEAT`).
pub const REPEAT: usize = 1024;

/// Sequences shorter than this are scanned by the failure function alone.
const FAST_MIN: usize = 1 << 16;

/// [`detect`] over stored values, with the candidate a search may aim for next. Linear time;
/// no scratch per value on long sequences (the failure-function fallback takes 4 bytes per
/// value).
///
/// ```
/// use grundy::periodicity::{scan, Theorem};
/// // A period of 1500 from 10 that has repeated 1100 of its values: a candidate, not yet proven.
/// let g: Vec<u16> = (0..2610u32).map(|n| if n < 10 { 999 } else { ((n - 10) % 1500 * 7 % 1499) as u16 }).collect();
/// let th = Theorem::Finite { k: 2, t: 3 };
/// let d = scan(&g, &th);
/// assert_eq!(d.found, None);
/// let (p, need) = d.candidate.unwrap();
/// assert_eq!((p.preperiod, p.period, need), (10, 1500, 2 * 10 + 1500 + 3 + 1500));
/// ```
pub fn scan<T: Copy + Into<u32> + Sync>(g: &[T], theorem: &Theorem) -> Detection {
    if g.len() >= FAST_MIN && skippable(theorem) {
        if let Some(tails) = tails(g) {
            let mut out = Detection::default();
            for (len, p) in tails {
                judge(g, theorem, len, p, &mut out);
            }
            return out;
        }
    }
    scan_by_failure(g, theorem)
}

/// Whether tails that repeat too little of their period may be skipped (see [`REPEAT`]): not when
/// moves leave no heap, whose theorem proves a period from its first repeat.
fn skippable(theorem: &Theorem) -> bool {
    !matches!(theorem, Theorem::Finite { k: 0, .. })
}

/// Records the tail of the last `len` differences with least period `p` in `out` if it counts:
/// `found` when proven or observed, `candidate` when the theorem could prove it. Called in
/// increasing `len`, so the longest such tail is kept.
fn judge<T: Copy + Into<u32>>(
    g: &[T],
    theorem: &Theorem,
    len: usize,
    p: usize,
    out: &mut Detection,
) {
    let n = g.len();
    let m = n - 1;
    let get = |i: usize| -> i64 { g[i].into() as i64 };
    let n0 = (m - len) as u64;
    let s = get(n0 as usize + p) - get(n0 as usize);
    let needed = theorem.needed(n0, p as u64, s);
    let proven = needed.is_some_and(|need| need <= n as u64);
    let observed = len >= 3 * p && 2 * len >= n;
    let period = Period {
        preperiod: n0,
        period: p as u64,
        saltus: s,
        proven,
    };
    if proven || observed {
        out.found = Some(period);
    }
    if let Some(need) = needed {
        if len >= p + p.min(REPEAT) {
            out.candidate = Some((period, need));
        }
    }
}

/// The difference `D(i) = G(i + 1) - G(i)`, wrapped to 32 bits (equal exactly when the true
/// differences are, values being below 2^32).
#[inline(always)]
fn diff<T: Copy + Into<u32>>(g: &[T], i: usize) -> u32 {
    g[i + 1].into().wrapping_sub(g[i].into())
}

/// Every tail worth reporting, as `(len, p)`: the last `len` differences, of least period `p`,
/// and no longer tail with that least period; increasing in `len`. None when extending the
/// candidate lags would cost more than the failure-function pass (many long overlapping
/// repeats), which the caller then runs.
///
/// With `x(j) = D(m - 1 - j)` (the differences read backwards), a lag `p` is a period of the tail
/// of length `p + L(p)`, `L(p)` being the length of the common prefix of `x` and `x(p..)`. The
/// least period of an interesting tail (see [`REPEAT`]) is the least lag `p` with `p + L(p)` at
/// least its length among the lags with `L(p) >= min(p - 1, REPEAT)`: the lags up to `REPEAT`
/// that pass, and those at which the last `REPEAT` differences recur.
fn tails<T: Copy + Into<u32> + Sync>(g: &[T]) -> Option<Vec<(usize, usize)>> {
    let m = g.len() - 1;
    let x = |j: usize| diff(g, m - 1 - j);
    // Comparisons left before the fallback is cheaper (it costs about as much as ten per value).
    let mut budget = 8 * m as i64;
    let mut lags: Vec<(usize, usize)> = Vec::new();
    // The lag whose tail reaches furthest so far, with that reach: a multiple of it below its
    // reach shares its tail (L(k q) >= e - k q), so the multiple's extension starts there (a
    // period of 12 makes every multiple of 12 a lag, at the cost of one comparison each).
    let mut anchor = (usize::MAX, 0usize);
    let mut extend = |p: usize, need: usize, lags: &mut Vec<(usize, usize)>| -> Option<()> {
        let (q, e) = anchor;
        let known = if p % q == 0 && e > p { e - p } else { 0 };
        let mut l = known;
        while p + l < m && x(l) == x(p + l) {
            l += 1;
        }
        budget -= (l - known) as i64 + 1;
        if budget < 0 {
            return None;
        }
        if l >= need {
            lags.push((p, p + l));
            if p + l > anchor.1 {
                anchor = (p, p + l);
            }
        }
        Some(())
    };
    for p in 1..=REPEAT.min(m - 1) {
        extend(p, p - 1, &mut lags)?;
    }
    // Lags beyond REPEAT at which the last REPEAT differences recur. If the least lag `q` whose
    // tail repeats REPEAT differences reaches `e`, those below `e - REPEAT` are multiples of `q`
    // with that same tail (a lag `p` with `r = p mod q != 0` would make `r` a period of the
    // first `e` differences, and a smaller such lag), so they are not looked for.
    let covered = lags
        .iter()
        .find(|&&(p, e)| e >= p + REPEAT)
        .map_or(0, |&(_, e)| e - REPEAT);
    if m >= 2 * REPEAT + 2 {
        for p in recurrences(g, covered) {
            extend(p, REPEAT, &mut lags)?;
        }
    }
    lags.sort_unstable();
    let mut out = Vec::new();
    let mut reach = 0;
    for (p, e) in lags {
        if e > reach {
            out.push((e, p));
            reach = e;
        }
    }
    Some(out)
}

/// The lags `p > max(REPEAT, covered)` at which the last `REPEAT` differences recur
/// (`D(m - REPEAT - p + k) = D(m - REPEAT + k)` for `k < REPEAT`), ascending: a polynomial
/// rolling hash over every window of `REPEAT` differences (four interleaved runs per task, and
/// tasks in parallel), each match then checked.
fn recurrences<T: Copy + Into<u32> + Sync>(g: &[T], covered: usize) -> Vec<usize> {
    use rayon::prelude::*;
    const B: u64 = 0x9E37_79B9_7F4A_7C15;
    const TASK: usize = 1 << 20;
    let m = g.len() - 1;
    let w = REPEAT;
    let last = m - w; // start of the last window
                      // Windows starting at 0..starts (lag p = last - i > max(REPEAT, covered)).
    let starts = last.saturating_sub(REPEAT.max(covered));
    let top = B.wrapping_pow(w as u32 - 1);
    let hash = |i: usize| {
        (i..i + w).fold(0u64, |h, k| {
            h.wrapping_mul(B).wrapping_add(diff(g, k) as u64)
        })
    };
    let target = hash(last);
    let same = |i: usize| (0..w).all(|k| diff(g, i + k) == diff(g, last + k));
    let tasks = starts.div_ceil(TASK);
    let mut found: Vec<usize> = (0..tasks)
        .into_par_iter()
        .flat_map_iter(|t| {
            let (a, b) = (t * TASK, ((t + 1) * TASK).min(starts));
            // Four runs of the task side by side: four independent multiply chains.
            let q = (b - a).div_ceil(4);
            let run = |r: usize| (a + r * q).min(b);
            let mut at = [run(0), run(1), run(2), run(3)];
            let end = [run(1), run(2), run(3), b];
            let mut h = at.map(|i| if i < b { hash(i) } else { 0 });
            let mut hits = Vec::new();
            loop {
                let mut any = false;
                for r in 0..4 {
                    let i = at[r];
                    if i < end[r] {
                        any = true;
                        if h[r] == target && same(i) {
                            hits.push(last - i);
                        }
                        if i + 1 < end[r] {
                            h[r] = h[r]
                                .wrapping_sub((diff(g, i) as u64).wrapping_mul(top))
                                .wrapping_mul(B)
                                .wrapping_add(diff(g, i + w) as u64);
                        }
                        at[r] = i + 1;
                    }
                }
                if !any {
                    break;
                }
            }
            hits
        })
        .collect();
    found.sort_unstable();
    found
}

/// [`scan`] by the failure function: every tail's least period, one pass (4 bytes of scratch
/// per value; the differences are read from `g`, not stored).
fn scan_by_failure<T: Copy + Into<u32>>(g: &[T], theorem: &Theorem) -> Detection {
    let n = g.len();
    if n < 2 {
        return Detection::default();
    }
    let m = n - 1; // differences D(0..m)
                   // x(i) = D(m - 1 - i): the differences read backwards, computed where they are read.
    let pi = failure(m, |i: usize| -> i64 {
        g[m - i].into() as i64 - g[m - 1 - i].into() as i64
    });
    let mut out = Detection::default();
    // A tail shorter than twice its least period (less one) is neither observed nor a
    // candidate, nor provable when moves leave a heap (the proof needs n0 + 2p + t values):
    // most tails of a sequence that is not periodic, skipped before any other work.
    let skippable = skippable(theorem);
    for len in 1..=m {
        let p = len - pi[len - 1] as usize;
        if skippable && 2 * p > len + 1 && p + p.min(REPEAT) > len {
            continue;
        }
        judge(g, theorem, len, p, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(v: &[u32], th: &Theorem) -> Option<Period> {
        detect(v.len(), |i| v[i], th)
    }

    #[test]
    fn periodic_with_preperiod() {
        let mut v = vec![5, 7, 9];
        for i in 0..40 {
            v.push([1, 2, 3, 4][i % 4]);
        }
        let p = run(&v, &Theorem::Unproven("test".into())).unwrap();
        assert_eq!(
            (p.preperiod, p.period, p.saltus, p.proven),
            (3, 4, 0, false)
        );
        let p = run(&v, &Theorem::Finite { k: 2, t: 2 }).unwrap();
        assert_eq!((p.preperiod, p.period, p.proven), (3, 4, true));
    }

    #[test]
    fn arithmetic_periodic() {
        let v: Vec<u32> = (0..50).map(|n| n / 2).collect();
        let p = run(&v, &Theorem::Unproven("test".into())).unwrap();
        assert_eq!((p.preperiod, p.period, p.saltus), (0, 2, 1));
        let nim: Vec<u32> = (0..50).collect();
        let p = run(&nim, &Theorem::Identity).unwrap();
        assert_eq!((p.preperiod, p.period, p.saltus, p.proven), (0, 1, 1, true));
        // The periodicity theorem never proves a non-zero saltus.
        assert!(!run(&nim, &Theorem::Finite { k: 1, t: 1 }).unwrap().proven);
    }

    #[test]
    fn no_period_in_short_or_irregular_data() {
        let mut x = 12345u64;
        let v: Vec<u32> = (0..200)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (x >> 60) as u32
            })
            .collect();
        assert_eq!(run(&v, &Theorem::Unproven("test".into())), None);
        assert_eq!(run(&[1], &Theorem::Identity), None);
    }

    /// Differences of 2^32 - 1 and -1 are told apart.
    #[test]
    fn values_near_the_top_of_u32() {
        let mut v = vec![0u32];
        v.extend((0..60).map(|i| u32::MAX - i));
        let p = run(&v, &Theorem::Unproven("test".into())).unwrap();
        assert_eq!((p.preperiod, p.period, p.saltus), (1, 1, -1));
    }

    /// A long period that has shown only partly is a candidate, with the size its proof needs.
    #[test]
    fn candidate_before_it_is_observed() {
        let mut v: Vec<u32> = vec![7; 10];
        let mut x = 99u64;
        let cycle: Vec<u32> = (0..5000)
            .map(|_| {
                x = x
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (x >> 59) as u32
            })
            .collect();
        for i in 0..6200 {
            v.push(cycle[i % 5000]);
        }
        let th = Theorem::Finite { k: 2, t: 3 };
        let d = scan(&v, &th);
        assert_eq!(d.found, None);
        let (p, need) = d.candidate.unwrap();
        assert_eq!((p.preperiod, p.period), (10, 5000));
        assert_eq!(need, th.needed(10, 5000, 0).unwrap());
        // Fewer than 1024 repeated values: no candidate yet.
        assert_eq!(scan(&v[..6000], &th).candidate, None);
        // Without a theorem there is nothing to aim for.
        assert_eq!(scan(&v, &Theorem::Unproven("test".into())).candidate, None);
    }

    /// The failure function against its definition, on short random words over small alphabets
    /// (where borders are common).
    #[test]
    fn failure_function_matches_definition() {
        let mut x = 7u64;
        for len in 1..60usize {
            for alphabet in [1u64, 2, 3] {
                let w: Vec<u64> = (0..len)
                    .map(|_| {
                        x = x
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        (x >> 33) % alphabet
                    })
                    .collect();
                let pi = failure(w.len(), |i| w[i]);
                for i in 0..len {
                    let border = (0..=i).rev().find(|&k| w[..k] == w[i + 1 - k..=i]).unwrap();
                    assert_eq!(pi[i] as usize, border, "{w:?} at {i}");
                }
            }
        }
    }

    /// The fast scan of long sequences against the failure-function pass: tails of many
    /// periods (around `REPEAT`, tiny ones whose multiples all recur, long ones seen partly),
    /// plain and arithmetic, cut at lengths around the thresholds, over junk from small
    /// alphabets (where short repeats are everywhere), and sequences with no period at all.
    #[test]
    fn fast_scan_matches_failure_function() {
        let mut x = 2024u64;
        let mut rnd = move |k: u64| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (x >> 33) % k
        };
        let theorems = [
            Theorem::Finite { k: 2, t: 4 },
            Theorem::Finite { k: 1, t: 3 },
            Theorem::Unproven("test".into()),
        ];
        let mut cases = 0;
        for period in [
            1usize, 2, 12, 1000, 1023, 1024, 1025, 1026, 2049, 5000, 30_000,
        ] {
            for alphabet in [2u64, 3, 50] {
                for saltus in [0u32, 1] {
                    let pre = rnd(40_000) as usize;
                    let cycle: Vec<u32> = (0..period).map(|_| rnd(alphabet) as u32).collect();
                    let mut g: Vec<u32> = (0..pre).map(|_| rnd(alphabet) as u32 + 100).collect();
                    for i in 0..FAST_MIN + 70_000 {
                        g.push(cycle[i % period] + saltus * (i / period) as u32);
                    }
                    for len in [
                        FAST_MIN,
                        pre + period + REPEAT - 1,
                        pre + period + REPEAT,
                        pre + period + REPEAT + 1,
                        pre + 2 * period - 1,
                        pre + 2 * period,
                        pre + 3 * period + 5,
                        g.len(),
                    ] {
                        if len < FAST_MIN || len > g.len() {
                            continue;
                        }
                        for th in &theorems {
                            let v = &g[..len];
                            // The fast road itself, not its fallback.
                            assert!(tails(v).is_some(), "fell back: period {period}, {len}");
                            assert_eq!(
                                scan(v, th),
                                scan_by_failure(v, th),
                                "period {period}, alphabet {alphabet}, saltus {saltus}, \
                                 preperiod {pre}, {len} values, {th:?}"
                            );
                            cases += 1;
                        }
                    }
                }
            }
        }
        // No period; a period broken once in the middle of the tail; constant; Nim.
        let junk: Vec<u16> = (0..FAST_MIN + 5000).map(|_| rnd(3) as u16).collect();
        let mut broken: Vec<u16> = (0..FAST_MIN + 9000).map(|i| (i % 1500) as u16).collect();
        broken[40_000] = 7777;
        let flat = vec![5u16; FAST_MIN + 10];
        let nim: Vec<u16> = (0..FAST_MIN as u32 + 10).map(|i| i as u16).collect();
        // (The broken one takes the fallback: every lag beyond the break reaches the end.)
        for v in [&junk, &broken, &flat, &nim] {
            assert_eq!(tails(&v[..]).is_some(), v != &broken);
            for th in &theorems {
                assert_eq!(scan(&v[..], th), scan_by_failure(&v[..], th), "{th:?}");
                cases += 1;
            }
        }
        assert!(cases > 300, "{cases}");
    }

    #[test]
    fn least_period_and_preperiod() {
        // Period 6 that is really period 3 from 2 on.
        let mut v = vec![9, 9];
        for i in 0..60 {
            v.push([0, 1, 2][i % 3]);
        }
        let p = run(&v, &Theorem::Finite { k: 2, t: 1 }).unwrap();
        assert_eq!((p.preperiod, p.period), (2, 3));
    }
}
