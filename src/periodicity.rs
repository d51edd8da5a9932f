//! Finding where a sequence becomes (arithmetic-)periodic, and proving it.
//!
//! Detection is linear in the number of values: the first differences `D(n) = G(n + 1) - G(n)` are
//! read backwards and a prefix-function (failure-function) pass gives, for every tail length, the
//! least period of that tail. `G` is arithmetic-periodic from `n0` with period `p` and saltus `s`
//! (`G(n + p) = G(n) + s`) exactly when `D` is periodic from `n0` with period `p`; plain
//! periodicity is saltus 0.
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

/// [`detect`] over stored values, with the candidate a search may aim for next. Linear time;
/// 4 bytes of scratch per value (the differences are read from `g`, not stored).
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
pub fn scan<T: Copy + Into<u32>>(g: &[T], theorem: &Theorem) -> Detection {
    let n = g.len();
    if n < 2 {
        return Detection::default();
    }
    let m = n - 1; // differences D(0..m)
                   // x(i) = D(m - 1 - i): the differences read backwards, computed where they are read.
    let pi = failure(m, |i: usize| -> i64 {
        g[m - i].into() as i64 - g[m - 1 - i].into() as i64
    });
    let get = |i: usize| -> i64 { g[i].into() as i64 };
    let mut out = Detection::default();
    // A tail shorter than twice its least period (less one) is neither observed nor a
    // candidate, nor provable when moves leave a heap (the proof needs n0 + 2p + t values):
    // most tails of a sequence that is not periodic, skipped before any other work.
    let skippable = !matches!(theorem, Theorem::Finite { k: 0, .. });
    for len in 1..=m {
        let p = len - pi[len - 1] as usize;
        if skippable && 2 * p > len + 1 && p + p.min(1024) > len {
            continue;
        }
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
            if len >= p + p.min(1024) {
                out.candidate = Some((period, need));
            }
        }
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
