//! The exact engine for subtraction games: the options of heap n are the heaps n - k.
//!
//! ```
//! use grundy::engine::{Sequence, SubtractionExact};
//! use grundy::control::NoControl;
//! use grundy::rules::Subtraction;
//! let mut s = Sequence::new(SubtractionExact::new(Subtraction::finite(vec![1, 2, 3]).unwrap()));
//! s.extend(8, &NoControl).unwrap();
//! assert_eq!(s.values().to_vec(), vec![0, 1, 2, 3, 0, 1, 2, 3]);
//! ```

use super::finite::{Finite, Kernel};
use super::window_mex::WindowMex;
use super::{default_extend_to, Step, StepResult, Val, RESUME_CHECK};
use crate::bitset::MexSet;
use crate::control::Control;
use crate::error::{Error, Result};
use crate::periodicity::Theorem;
use crate::rules::Subtraction;

/// The solver for a built-in subtraction rule: a window of values or the smallest prime
/// factors where the rule's moves need them, and fast kernels for finite sets.
pub struct SubtractionExact {
    rule: Subtraction,
    mex: MexSet,
    /// Values at a sliding window of heaps (AtMostHalf, AllBut).
    window: WindowMex,
    /// Smallest prime factor of every number below `spf.len()` (ProperDivisors).
    spf: Vec<u32>,
    /// Finite sets: which kernel computes many heaps at once (`None`: one heap at a time with
    /// [`Step::compute`], the reference path), and its tables once built.
    kernel: Option<Kernel>,
    finite: Option<Finite>,
}

impl SubtractionExact {
    /// The solver for `rule`, with the fastest kernels.
    pub fn new(rule: Subtraction) -> Self {
        Self::with_kernel(rule, Kernel::Auto)
    }

    /// A finite set computed by the given kernel (the others are unaffected); for tests and
    /// benchmarks, [`Kernel::Auto`] is the fastest choice.
    pub fn with_kernel(rule: Subtraction, kernel: Kernel) -> Self {
        SubtractionExact {
            rule,
            mex: MexSet::new(),
            window: WindowMex::new(),
            spf: Vec::new(),
            kernel: Some(kernel),
            finite: None,
        }
    }

    /// The reference path for finite sets: one heap at a time, every option's value inserted into
    /// a [`MexSet`]. Slower; kept to check and time the other kernels against.
    pub fn reference_finite(rule: Subtraction) -> Self {
        SubtractionExact {
            kernel: None,
            ..Self::new(rule)
        }
    }

    /// The rule.
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

    fn extend_to<T: Val>(
        &mut self,
        g: &mut Vec<T>,
        target: u64,
        ctl: &dyn Control,
    ) -> StepResult<()> {
        let (Subtraction::Finite(set), Some(kernel)) = (&self.rule, self.kernel) else {
            return default_extend_to(self, g, target, ctl);
        };
        let target = usize::try_from(target).map_err(|_| Error::Memory {
            requested: target,
            available: 0,
        })?;
        self.finite
            .get_or_insert_with(|| Finite::new(set, kernel))
            .extend_to(g, target, ctl)
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
    use crate::control::NoControl;
    use crate::engine::testing::{pool, StopAt};
    use crate::engine::{naive, Sequence};

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

    /// A small deterministic generator (splitmix64) for random sets.
    fn rng(seed: u64) -> impl FnMut() -> u64 {
        let mut x = seed;
        move || {
            x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = x;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }
    }

    /// A random set with largest member `t` and about `density` of 1..t in it.
    fn random_set(next: &mut impl FnMut() -> u64, t: u64, density: f64) -> Vec<u64> {
        let mut s: Vec<u64> = (1..t)
            .filter(|_| ((next() >> 11) as f64 / (1u64 << 53) as f64) < density)
            .collect();
        s.push(t);
        s
    }

    fn finite_with(set: &[u64], n: u64, kernel: Kernel, threads: usize) -> Vec<u32> {
        let pool = pool(threads);
        let rule = Subtraction::finite(set.to_vec()).unwrap();
        pool.install(|| {
            let mut s = Sequence::new(SubtractionExact::with_kernel(rule, kernel));
            s.extend(n, &NoControl).unwrap();
            s.values().to_vec()
        })
    }

    const KERNELS: [Kernel; 4] = [Kernel::Auto, Kernel::Ring, Kernel::Gather, Kernel::Block];

    /// Random finite sets, small and large, dense and sparse: every kernel agrees with the
    /// reference engine.
    #[test]
    fn finite_kernels_match_naive() {
        let mut next = rng(1);
        let mut cases = vec![
            vec![],
            vec![2, 1 << 40],
            vec![1],
            vec![3],
            vec![1, 2, 3],
            vec![64],
            vec![1, 64],
            vec![65],
        ];
        for t in [
            2, 5, 31, 63, 64, 65, 100, 128, 129, 255, 256, 257, 511, 512, 513, 700,
        ] {
            for density in [0.02, 0.3, 0.9] {
                cases.push(random_set(&mut next, t, density));
            }
        }
        cases.push((1..=50).collect());
        cases.push((1..=200).collect());
        for set in &cases {
            let t = *set.last().unwrap_or(&0);
            let n = (3 * t).min(2000) + 200;
            let want = naive::subtraction(&Subtraction::finite(set.clone()).unwrap(), n);
            for kernel in KERNELS {
                assert_eq!(finite_with(set, n, kernel, 2), want, "{set:?} {kernel:?}");
            }
        }
    }

    /// Large t (up to 3000): checked against the reference path, with 1 to 4 threads.
    #[test]
    fn finite_kernels_large_sets_and_threads() {
        let mut next = rng(2);
        let mut cases = vec![
            (1..=3000).step_by(3).collect::<Vec<u64>>(),
            (1..=1500).collect(),
        ];
        for (t, density) in [(3000, 0.01), (3000, 0.3), (2000, 0.8), (1200, 0.1)] {
            cases.push(random_set(&mut next, t, density));
        }
        for set in &cases {
            let n = 3 * *set.last().unwrap() + 1000;
            let rule = Subtraction::finite(set.clone()).unwrap();
            let mut r = Sequence::new(SubtractionExact::reference_finite(rule));
            r.extend(n, &NoControl).unwrap();
            let want = r.values().to_vec();
            for threads in 1..=4 {
                for kernel in KERNELS {
                    let got = finite_with(set, n, kernel, threads);
                    assert!(
                        got == want,
                        "{} members, {kernel:?}, {threads} threads",
                        set.len()
                    );
                }
            }
        }
        // And one against the naive engine itself.
        let set = &cases[5];
        let rule = Subtraction::finite(set.clone()).unwrap();
        assert_eq!(
            finite_with(set, 4000, Kernel::Auto, 3),
            naive::subtraction(&rule, 4000)
        );
    }

    /// Extending in pieces (each piece may pick another kernel) gives the same values.
    #[test]
    fn finite_extends_in_pieces() {
        let mut next = rng(3);
        for set in [
            vec![1, 2, 3],
            (1..=50).collect(),
            random_set(&mut next, 300, 0.2),
            random_set(&mut next, 900, 0.5),
        ] {
            let rule = Subtraction::finite(set.clone()).unwrap();
            let want = naive::subtraction(&rule, 5000);
            let pool = pool(2);
            for kernel in KERNELS {
                pool.install(|| {
                    let mut s = Sequence::new(SubtractionExact::with_kernel(rule.clone(), kernel));
                    for n in [1, 7, 1000, 1001, 1500, 5000] {
                        s.extend(n, &NoControl).unwrap();
                    }
                    assert_eq!(s.values().to_vec(), want, "{kernel:?}");
                });
            }
        }
    }

    /// A sequence seeded with stored values goes on with the many-heap kernels from there.
    #[test]
    fn finite_resumes_with_kernels() {
        let mut next = rng(4);
        for set in [random_set(&mut next, 1500, 0.3), (1..=60).collect()] {
            let rule = Subtraction::finite(set).unwrap();
            let want = exact(rule.clone(), 6000);
            for m in [0, 10, 1000, 4321] {
                for kernel in KERNELS {
                    let step = SubtractionExact::with_kernel(rule.clone(), kernel);
                    let mut s = Sequence::with_values(step, &want[..m]).unwrap();
                    s.extend(6000, &NoControl).unwrap();
                    assert_eq!(s.values().to_vec(), want, "from {m}, {kernel:?}");
                }
            }
        }
    }

    /// A set of 70000 members: values past 65535 widen the storage. About 2.5e9 member
    /// operations, a few seconds in release but minutes in a debug build:
    /// `cargo test --release -- --ignored finite_past_16_bits`.
    #[test]
    #[ignore]
    fn finite_past_16_bits() {
        let set: Vec<u64> = (1..=70_000).collect();
        let rule = Subtraction::finite(set).unwrap();
        let n = 70_100u64;
        for threads in [1, 2] {
            let pool = pool(threads);
            let mut s = Sequence::new(SubtractionExact::new(rule.clone()));
            pool.install(|| s.extend(n, &NoControl).unwrap());
            assert_eq!(s.values().width(), 4);
            for i in 0..n as usize {
                assert_eq!(s.values().get(i), (i % 70_001) as u32, "G({i})");
            }
        }
    }

    /// Stops soon at a control's request, with every value so far kept.
    #[test]
    fn finite_control_stops() {
        let set: Vec<u64> = (1..=3000).step_by(3).collect();
        let rule = Subtraction::finite(set).unwrap();
        for threads in [1, 2] {
            let pool = pool(threads);
            let mut s = Sequence::new(SubtractionExact::new(rule.clone()));
            let t = std::time::Instant::now();
            let n = 20_000_000;
            assert_eq!(
                pool.install(|| s.extend(n, &StopAt(0))),
                Err(Error::Interrupted)
            );
            assert!(t.elapsed().as_secs_f64() < 5.0, "{:?}", t.elapsed());
            let have = s.values().len();
            assert!(have > 0 && have < n as usize);
            let want = naive::subtraction(&rule, 6000.min(have as u64));
            assert_eq!(s.values().to_vec()[..want.len()], want[..]);
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
