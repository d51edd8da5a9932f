//! The exact engine for subtraction games: the options of heap n are the heaps n - k.
//!
//! ```
//! use grundy::engine::{NoControl, Sequence, SubtractionExact};
//! use grundy::rules::Subtraction;
//! let mut s = Sequence::new(SubtractionExact::new(Subtraction::finite(vec![1, 2, 3]).unwrap()));
//! s.extend(8, &NoControl).unwrap();
//! assert_eq!(s.values().to_vec(), vec![0, 1, 2, 3, 0, 1, 2, 3]);
//! ```

use super::window_mex::WindowMex;
use super::{Step, Val, RESUME_CHECK};
use crate::bitset::MexSet;
use crate::error::Result;
use crate::periodicity::Theorem;
use crate::rules::Subtraction;

pub struct SubtractionExact {
    rule: Subtraction,
    mex: MexSet,
    /// Values at a sliding window of heaps (AtMostHalf, AllBut).
    window: WindowMex,
    /// Smallest prime factor of every number below `spf.len()` (ProperDivisors).
    spf: Vec<u32>,
}

impl SubtractionExact {
    pub fn new(rule: Subtraction) -> Self {
        SubtractionExact {
            rule,
            mex: MexSet::new(),
            window: WindowMex::new(),
            spf: Vec::new(),
        }
    }

    pub fn rule(&self) -> &Subtraction {
        &self.rule
    }

    /// Feeds the window every heap up to and including `last`.
    fn push_window<T: Val>(&mut self, g: &[T], last: Option<usize>) {
        if let Some(last) = last {
            while self.window.pushed() <= last as u64 {
                let p = self.window.pushed();
                self.window.push(p, g[p as usize].get());
            }
        }
    }

    /// Mex of the window `[lo, pushed)` together with the values already in `self.mex`.
    fn window_mex(&self, lo: u64) -> u32 {
        let mut v = self.window.first_absent(lo, 0);
        while self.mex.contains(v) {
            v = self.window.first_absent(lo, v + 1);
        }
        v
    }
}

fn sieve(n: usize) -> Vec<u32> {
    let mut spf = vec![0u32; n];
    for i in 2..n {
        if spf[i] == 0 {
            let mut j = i;
            while j < n {
                if spf[j] == 0 {
                    spf[j] = i as u32;
                }
                j += i;
            }
        }
    }
    spf
}

impl Step for SubtractionExact {
    fn theorem(&self) -> Theorem {
        match &self.rule {
            Subtraction::Finite(s) => Theorem::Finite {
                k: 1,
                t: *s.last().unwrap_or(&0),
            },
            Subtraction::AllBut(s) if s.is_empty() => Theorem::Identity,
            _ => Theorem::Unproven(
                "no theorem here proves periods of rules that remove arbitrarily many tokens"
                    .into(),
            ),
        }
    }

    fn prepare(&mut self, target: u64) -> Result<()> {
        if self.rule == Subtraction::ProperDivisors && (self.spf.len() as u64) < target {
            crate::memory::check(target.saturating_mul(4))?;
            self.spf = sieve(target as usize);
        }
        Ok(())
    }

    fn bytes_per_heap(&self) -> u64 {
        match self.rule {
            Subtraction::ProperDivisors => 4,
            _ => 0,
        }
    }

    /// Nothing to rebuild: finite sets and squares keep no state, the sieve is sized by
    /// `prepare`, and the sliding window catches up with `g` on the next `compute`.
    fn resume<T: Val>(&mut self, g: &[T]) -> Result<usize> {
        Ok(g.len().saturating_sub(RESUME_CHECK))
    }

    fn compute<T: Val>(&mut self, g: &[T]) -> Result<u32> {
        let n = g.len();
        self.mex.clear();
        let v = match &self.rule {
            Subtraction::Finite(set) => {
                for &k in set.iter().take_while(|&&k| k <= n as u64) {
                    self.mex.insert(g[n - k as usize].get());
                }
                self.mex.mex()
            }
            Subtraction::Squares => {
                let mut r = 1usize;
                while r * r <= n {
                    self.mex.insert(g[n - r * r].get());
                    r += 1;
                }
                self.mex.mex()
            }
            Subtraction::ProperDivisors => {
                if n <= 1 {
                    return Ok(0);
                }
                // Divisors from the factorisation n = prod p^e.
                let mut divs = vec![1usize];
                let mut m = n;
                while m > 1 {
                    let p = self.spf[m] as usize;
                    let mut e = 0;
                    while m % p == 0 {
                        m /= p;
                        e += 1;
                    }
                    let len = divs.len();
                    let mut pk = 1;
                    for _ in 0..e {
                        pk *= p;
                        for i in 0..len {
                            divs.push(divs[i] * pk);
                        }
                    }
                }
                for d in divs.into_iter().filter(|&d| d < n) {
                    self.mex.insert(g[n - d].get());
                }
                self.mex.mex()
            }
            Subtraction::AtMostHalf => {
                // Options: heaps n - n/2 ..= n - 1.
                if n < 2 {
                    return Ok(0);
                }
                self.push_window(g, Some(n - 1));
                self.window_mex((n - n / 2) as u64)
            }
            Subtraction::AllBut(set) => {
                // Every k > max(set) is allowed: heaps 0 ..= n - 1 - max form the window.
                let max = *set.last().unwrap_or(&0) as usize;
                for k in (1..=max.min(n)).filter(|k| set.binary_search(&(*k as u64)).is_err()) {
                    self.mex.insert(g[n - k].get());
                }
                if n > max {
                    self.push_window(g, Some(n - 1 - max));
                    self.window_mex(0)
                } else {
                    self.mex.mex()
                }
            }
        };
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{naive, NoControl, Sequence};

    fn exact(rule: Subtraction, n: u64) -> Vec<u32> {
        let mut s = Sequence::new(SubtractionExact::new(rule));
        s.extend(n, &NoControl).unwrap();
        s.values().to_vec()
    }

    #[test]
    fn matches_naive_engine() {
        for rule in [
            Subtraction::finite(vec![1, 2, 3]).unwrap(),
            Subtraction::finite(vec![2, 5, 7, 11]).unwrap(),
            Subtraction::Squares,
            Subtraction::AtMostHalf,
            Subtraction::ProperDivisors,
            Subtraction::all_but(vec![1]).unwrap(),
            Subtraction::all_but(vec![2, 3, 7]).unwrap(),
            Subtraction::all_but(vec![]).unwrap(),
        ] {
            assert_eq!(
                exact(rule.clone(), 300),
                naive::subtraction(&rule, 300),
                "{rule}"
            );
        }
    }

    #[test]
    fn resumes_from_stored_values() {
        for rule in [
            Subtraction::finite(vec![2, 5, 7, 11]).unwrap(),
            Subtraction::Squares,
            Subtraction::AtMostHalf,
            Subtraction::ProperDivisors,
            Subtraction::all_but(vec![2, 3, 7]).unwrap(),
        ] {
            let want = exact(rule.clone(), 400);
            for m in [0, 5, 17, 100, 250] {
                let mut s =
                    Sequence::with_values(SubtractionExact::new(rule.clone()), &want[..m]).unwrap();
                s.extend(400, &NoControl).unwrap();
                assert_eq!(s.values().to_vec(), want, "{rule} from {m}");
            }
            // A wrong value among the last ones is caught.
            let mut bad = want[..300].to_vec();
            bad[295] += 1;
            let r = Sequence::with_values(SubtractionExact::new(rule.clone()), &bad);
            assert!(matches!(r, Err(crate::Error::Invalid(_))), "{rule}");
        }
    }

    #[test]
    fn proper_divisors_is_two_adic_valuation() {
        let v = exact(Subtraction::ProperDivisors, 2000);
        for (n, &x) in v.iter().enumerate().skip(1) {
            assert_eq!(x, n.trailing_zeros(), "n={n}");
        }
    }
}
