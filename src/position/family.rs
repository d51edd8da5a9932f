//! Families of options: the options of one heap written compactly, so that a heap of 10^18 tokens
//! with 10^17 winning options is answered by a handful of arithmetic progressions.
//!
//! Every family lists each of its options once, as the heaps it leaves in ascending order.
//!
//! ```
//! use grundy::position::Family;
//! // Splits of 10 into (a, 10 - a) for a = 1 and a = 4 (step 3, two of them).
//! let f = Family::Pairs { prefix: 0, s: 10, a0: 1, step: 3, count: 2 };
//! let mut seen = Vec::new();
//! f.try_for_each(&mut |p: &[u64]| { seen.push(p.to_vec()); Ok(()) }).unwrap();
//! assert_eq!(seen, vec![vec![1, 9], vec![4, 6]]);
//! ```

use crate::error::Result;

/// Up to three heap sizes, ascending.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Parts {
    buf: [u64; 3],
    len: u8,
}

impl Parts {
    /// The parts, sorted (at most three).
    pub fn new(parts: &[u64]) -> Self {
        let mut p = Parts::default();
        for &x in parts {
            p.buf[p.len as usize] = x;
            p.len += 1;
        }
        p.buf[..p.len as usize].sort_unstable();
        p
    }

    /// The parts, ascending.
    pub fn as_slice(&self) -> &[u64] {
        &self.buf[..self.len as usize]
    }
}

/// A set of options of one heap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Family {
    /// One option.
    One(Parts),
    /// The single heaps `h0 + i * step` for `i < count`.
    Singles {
        /// The first heap.
        h0: u64,
        /// The difference between consecutive heaps.
        step: u64,
        /// Number of heaps.
        count: u64,
    },
    /// `(prefix, a, s - a)` (or `(a, s - a)` when `prefix` is 0) for `a = a0 + i * step`,
    /// `i < count`; always `prefix <= a <= s - a`.
    Pairs {
        /// A first part left beside each pair (0: none).
        prefix: u64,
        /// The sum of the pair.
        s: u64,
        /// The first smaller part.
        a0: u64,
        /// The difference between consecutive smaller parts.
        step: u64,
        /// Number of pairs.
        count: u64,
    },
    /// `(c | x, c | (t ^ x))` for every submask `x` of `free`, except `x = 0` when `c = 0`
    /// (that would leave an empty heap). `free` is `t` without its top bit, so the first part
    /// is the smaller.
    Submask {
        /// The bits both parts have (`(s - t) / 2`).
        c: u64,
        /// The XOR of the parts.
        t: u64,
        /// The bits of `t` that may go to either part.
        free: u64,
    },
    /// Triples `(a, b, s - a - b)` with `a = a0 + i * step` (while a triple exists),
    /// `b ≡ b0 (mod step)`, `b >= max(lo, a + u)` and `s - a - b >= b + u`, where `u` is 1 when
    /// the heaps must be unequal and 0 otherwise.
    Grid {
        /// The sum of the three parts.
        s: u64,
        /// The first smallest part.
        a0: u64,
        /// The residue of the middle part modulo `step`.
        b0: u64,
        /// The least middle part.
        lo: u64,
        /// The difference between consecutive smallest parts, and the modulus of the middle.
        step: u64,
        /// Whether the three heaps must differ.
        unequal: bool,
    },
}

/// Where an [`expand`](Family::expand) of a family stands.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Expansion {
    i: u64,
    j: u64,
    started: bool,
    done: bool,
}

/// The least `x >= from` with `x ≡ r (mod m)`, if it fits in u64.
#[inline]
pub(crate) fn first_at_least(from: u64, r: u64, m: u64) -> Option<u64> {
    from.checked_add((r % m + m - from % m) % m)
}

impl Family {
    /// Calls `f` with at most `limit` (at least 1) more options, in the order of [`try_for_each`](Self::try_for_each),
    /// resuming where `at` stands (start from `Expansion::default()`). Returns how many it gave: 0
    /// only once every option has been given. This is how a caller that must not hold a whole family
    /// (a heap of 10^18 has half that many splits) takes its options a slice at a time, and the one
    /// place a family is expanded for Python.
    ///
    /// ```
    /// use grundy::position::{Expansion, Family};
    /// let f = Family::Singles { h0: 3, step: 2, count: 3 };
    /// let (mut at, mut seen) = (Expansion::default(), Vec::new());
    /// while f.expand(&mut at, 2, &mut |p| seen.push(p[0])) > 0 {}
    /// assert_eq!(seen, [3, 5, 7]);
    /// ```
    pub fn expand(&self, at: &mut Expansion, limit: usize, f: &mut dyn FnMut(&[u64])) -> usize {
        let (mut n, limit) = (0usize, limit.max(1));
        if at.done {
            return 0;
        }
        match *self {
            Family::One(p) => {
                f(p.as_slice());
                n = 1;
                at.done = true;
            }
            Family::Singles { h0, step, count } => {
                while at.i < count && n < limit {
                    f(&[h0 + at.i * step]);
                    at.i += 1;
                    n += 1;
                }
                at.done = at.i >= count;
            }
            Family::Pairs {
                prefix,
                s,
                a0,
                step,
                count,
            } => {
                while at.i < count && n < limit {
                    let a = a0 + at.i * step;
                    if prefix == 0 {
                        f(&[a, s - a]);
                    } else {
                        f(&[prefix, a, s - a]);
                    }
                    at.i += 1;
                    n += 1;
                }
                at.done = at.i >= count;
            }
            Family::Submask { c, t, free } => {
                // `at.i` is the next submask of `free` to give.
                while n < limit {
                    let x = at.i;
                    if c != 0 || x != 0 {
                        f(&[c | x, c | (t ^ x)]);
                        n += 1;
                    }
                    if x == free {
                        at.done = true;
                        break;
                    }
                    at.i = ((x | !free).wrapping_add(1)) & free;
                }
            }
            Family::Grid {
                s,
                a0,
                b0,
                lo,
                step,
                unequal,
            } => {
                // `at.i` is the smallest part; `at.j` the next middle part (u64::MAX: not yet
                // found for this smallest part).
                let u = unequal as u64;
                if !at.started {
                    (at.i, at.j, at.started) = (a0, u64::MAX, true);
                }
                loop {
                    let a = at.i;
                    if a.checked_mul(3).and_then(|x| x.checked_add(3 * u)) > Some(s) {
                        at.done = true;
                        break;
                    }
                    let bmax = (s - a - u) / 2;
                    if at.j == u64::MAX {
                        at.j = first_at_least(lo.max(a + u), b0, step).unwrap_or(bmax + 1);
                    }
                    while at.j <= bmax {
                        if n == limit {
                            return n;
                        }
                        f(&[a, at.j, s - a - at.j]);
                        n += 1;
                        at.j = at.j.checked_add(step).unwrap_or(bmax + 1);
                    }
                    match a.checked_add(step) {
                        Some(next) => (at.i, at.j) = (next, u64::MAX),
                        None => {
                            at.done = true;
                            break;
                        }
                    }
                }
            }
        }
        n
    }

    /// Calls `f` with each option (ascending heap sizes); stops at the first error.
    ///
    /// # Errors
    /// The first error `f` returns.
    pub fn try_for_each(&self, f: &mut dyn FnMut(&[u64]) -> Result<()>) -> Result<()> {
        match *self {
            Family::One(p) => f(p.as_slice()),
            Family::Singles { h0, step, count } => {
                for i in 0..count {
                    f(&[h0 + i * step])?;
                }
                Ok(())
            }
            Family::Pairs {
                prefix,
                s,
                a0,
                step,
                count,
            } => {
                for i in 0..count {
                    let a = a0 + i * step;
                    if prefix == 0 {
                        f(&[a, s - a])?;
                    } else {
                        f(&[prefix, a, s - a])?;
                    }
                }
                Ok(())
            }
            Family::Submask { c, t, free } => {
                let mut x = 0u64;
                loop {
                    if c != 0 || x != 0 {
                        f(&[c | x, c | (t ^ x)])?;
                    }
                    if x == free {
                        return Ok(());
                    }
                    // Next submask of `free` in increasing order.
                    x = ((x | !free).wrapping_add(1)) & free;
                }
            }
            Family::Grid {
                s,
                a0,
                b0,
                lo,
                step,
                unequal,
            } => {
                let u = unequal as u64;
                let mut a = a0;
                // A triple needs b >= a + u and s - a - b >= b + u, so 3a + 3u <= s.
                while a.checked_mul(3).and_then(|x| x.checked_add(3 * u)) <= Some(s) {
                    let bmax = (s - a - u) / 2;
                    if let Some(mut b) = first_at_least(lo.max(a + u), b0, step) {
                        while b <= bmax {
                            f(&[a, b, s - a - b])?;
                            b += step;
                        }
                    }
                    a = match a.checked_add(step) {
                        Some(a) => a,
                        None => break,
                    };
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(f: &Family) -> Vec<Vec<u64>> {
        let mut v = Vec::new();
        f.try_for_each(&mut |p| {
            v.push(p.to_vec());
            Ok(())
        })
        .unwrap();
        v
    }

    #[test]
    fn submasks() {
        // a + b = 22, a ^ b = 6: a & b = (22 - 6) / 2 = 8.
        let f = Family::Submask {
            c: 8,
            t: 6,
            free: 2,
        };
        assert_eq!(all(&f), vec![vec![8, 14], vec![10, 12]]);
        let f = Family::Submask {
            c: 0,
            t: 7,
            free: 3,
        };
        assert_eq!(all(&f), vec![vec![1, 6], vec![2, 5], vec![3, 4]]);
    }

    #[test]
    fn grid_is_every_triple() {
        for u in [false, true] {
            let f = Family::Grid {
                s: 12,
                a0: 1,
                b0: 0,
                lo: 1,
                step: 1,
                unequal: u,
            };
            let mut want = Vec::new();
            for a in 1..=12u64 {
                for b in a..=12 {
                    if a + b < 12 {
                        let c = 12 - a - b;
                        if b <= c && (!u || (a < b && b < c)) {
                            want.push(vec![a, b, c]);
                        }
                    }
                }
            }
            assert_eq!(all(&f), want);
        }
    }

    /// Every option of `f`, taken `limit` at a time through `expand`.
    fn in_slices(f: &Family, limit: usize) -> Vec<Vec<u64>> {
        let (mut at, mut v) = (Expansion::default(), Vec::new());
        loop {
            let before = v.len();
            let n = f.expand(&mut at, limit, &mut |p| v.push(p.to_vec()));
            assert_eq!(n, v.len() - before);
            assert!(n <= limit);
            if n == 0 {
                return v;
            }
        }
    }

    #[test]
    fn expanding_in_slices_gives_every_option_once_in_order() {
        let mut families = vec![
            Family::One(Parts::new(&[3, 4])),
            Family::One(Parts::new(&[])),
            Family::Singles {
                h0: 5,
                step: 3,
                count: 0,
            },
            Family::Singles {
                h0: 5,
                step: 3,
                count: 7,
            },
            Family::Pairs {
                prefix: 0,
                s: 20,
                a0: 1,
                step: 2,
                count: 5,
            },
            Family::Pairs {
                prefix: 4,
                s: 20,
                a0: 4,
                step: 1,
                count: 7,
            },
        ];
        for (c, t) in [(0, 7), (8, 6), (0, 0), (5, 0), (0, 1), (16, 45)] {
            let free = if t == 0 {
                0
            } else {
                t & !(1u64 << (63 - u64::leading_zeros(t)))
            };
            families.push(Family::Submask { c, t, free });
        }
        for (s, a0, b0, lo, step, unequal) in [
            (12, 1, 0, 1, 1, false),
            (12, 1, 0, 1, 1, true),
            (40, 2, 1, 3, 3, false),
            (5, 0, 0, 0, 1, true),
            (2, 1, 0, 1, 1, false),
        ] {
            families.push(Family::Grid {
                s,
                a0,
                b0,
                lo,
                step,
                unequal,
            });
        }
        for f in &families {
            let want = all(f);
            for limit in [1, 2, 3, 7, 1000] {
                assert_eq!(in_slices(f, limit), want, "{f:?} in slices of {limit}");
            }
        }
    }

    #[test]
    fn expanding_a_huge_family_takes_only_the_slice_asked() {
        let f = Family::Pairs {
            prefix: 0,
            s: 2_000_000_000_000_000_000,
            a0: 1,
            step: 1,
            count: 1_000_000_000_000_000_000,
        };
        let mut at = Expansion::default();
        let mut first = Vec::new();
        assert_eq!(f.expand(&mut at, 3, &mut |p| first.push(p.to_vec())), 3);
        assert_eq!(first[2], vec![3, 2_000_000_000_000_000_000 - 3]);
        assert_eq!(f.expand(&mut at, 1, &mut |p| first.push(p.to_vec())), 1);
        assert_eq!(first[3], vec![4, 2_000_000_000_000_000_000 - 4]);
    }

    #[test]
    fn first_at_least_wraps() {
        assert_eq!(first_at_least(10, 3, 4), Some(11));
        assert_eq!(first_at_least(11, 3, 4), Some(11));
        assert_eq!(first_at_least(u64::MAX, 0, 2), None);
    }
}
