//! Rules given as closures (the Python binding passes user callables here).
//!
//! ```
//! use grundy::engine::{AllowedFn, Sequence};
//! use grundy::control::NoControl;
//! // Remove an odd number of tokens.
//! let mut s = Sequence::new(AllowedFn::new(|_n, k| Ok(k % 2 == 1)));
//! s.extend(6, &NoControl).unwrap();
//! assert_eq!(s.values().to_vec(), vec![0, 1, 0, 1, 0, 1]);
//! ```
//!
//! ```
//! use grundy::engine::{OptionList, OptionsFn, Sequence};
//! use grundy::control::NoControl;
//! // Kayles: remove 1 or 2 tokens from a row, leaving the rest as up to two heaps.
//! let mut s = Sequence::new(OptionsFn::new(|n: u64, out: &mut OptionList| {
//!     for k in 1..=n.min(2) {
//!         for a in 0..=(n - k) / 2 {
//!             out.push(&[a, n - k - a]);
//!         }
//!     }
//!     Ok(())
//! }));
//! s.extend(8, &NoControl).unwrap();
//! assert_eq!(s.values().to_vec(), vec![0, 1, 2, 3, 1, 4, 3, 2]);
//! ```

use super::{Step, Val};
use crate::bitset::MexSet;
use crate::error::{Error, Result};
pub use crate::rules::callback::{tuple_repr, OptionList};

/// "From a heap of n you may remove k" as a closure `f(n, k)`, asked for every 1 <= k <= n.
pub struct AllowedFn<F> {
    f: F,
    mex: MexSet,
}

impl<F: FnMut(u64, u64) -> Result<bool> + Send> AllowedFn<F> {
    /// The rule `f`. An error from `f` stops the computation and is returned as it is: a
    /// callback that fails keeps its cause and returns [`Error::Interrupted`] (as the Python binding
    /// does).
    pub fn new(f: F) -> Self {
        AllowedFn {
            f,
            mex: MexSet::new(),
        }
    }
}

impl<F: FnMut(u64, u64) -> Result<bool> + Send> Step for AllowedFn<F> {
    fn compute<T: Val>(&mut self, g: &[T]) -> Result<u32> {
        let n = g.len() as u64;
        self.mex.clear();
        for k in 1..=n {
            if (self.f)(n, k)? {
                self.mex.insert(g[(n - k) as usize].get());
            }
        }
        Ok(self.mex.mex())
    }
}

/// A heap rule as a closure `f(n, out)` that fills `out` with the options of a heap of `n`, each
/// a sum of heaps given by their sizes. The value of an option is the XOR of its parts' values;
/// G(n) is the mex of those. Every part must be smaller than `n` (else the rule loops, and
/// [`Error::Invalid`] names the heap and the option).
///
/// The closure is called once per heap size, even when the engine retries a heap after widening
/// its storage.
pub struct OptionsFn<F> {
    f: F,
    options: OptionList,
    mex: MexSet,
    /// The last heap computed and its value, for retries of the same heap.
    last: Option<(u64, u32)>,
}

impl<F: FnMut(u64, &mut OptionList) -> Result<()> + Send> OptionsFn<F> {
    /// The rule `f`. An error from `f` stops the computation and is returned as it is (see
    /// [`AllowedFn::new`]).
    pub fn new(f: F) -> Self {
        OptionsFn {
            f,
            options: OptionList::new(),
            mex: MexSet::new(),
            last: None,
        }
    }
}

impl<F: FnMut(u64, &mut OptionList) -> Result<()> + Send> Step for OptionsFn<F> {
    fn compute<T: Val>(&mut self, g: &[T]) -> Result<u32> {
        let n = g.len() as u64;
        if let Some((m, v)) = self.last {
            if m == n {
                return Ok(v);
            }
        }
        self.options.clear();
        (self.f)(n, &mut self.options)?;
        self.mex.clear();
        for opt in self.options.iter() {
            let mut x = 0;
            for &p in opt {
                if p >= n {
                    return Err(Error::Invalid(format!(
                        "heap {n}: option {} has a part {p} that is not smaller than {n}; \
                         every move must leave smaller heaps (else the rule loops)",
                        tuple_repr(opt)
                    )));
                }
                x ^= g[p as usize].get();
            }
            self.mex.insert(x);
        }
        let v = self.mex.mex();
        self.last = Some((n, v));
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::NoControl;
    use crate::engine::{naive, Sequence};
    use crate::rules::TakeAndBreak;

    /// Take-and-break options of heap n for an octal code, written out by hand.
    fn octal_options(code: &TakeAndBreak, n: u64, out: &mut OptionList) {
        for j in 0..=n {
            let d = code.digit(j);
            let rest = n - j;
            if d.allows(0) && rest == 0 {
                out.push(&[]);
            }
            if d.allows(1) && rest > 0 {
                out.push(&[rest]);
            }
            if d.allows(2) {
                for a in 1..=rest / 2 {
                    if !(d.unequal && 2 * a == rest) {
                        out.push(&[a, rest - a]);
                    }
                }
            }
        }
    }

    #[test]
    fn octal_games_written_as_options() {
        for code in ["0.77", "0.137", "4!.0", "0.6", "0.007"] {
            let rule = TakeAndBreak::parse(code).unwrap();
            let r2 = rule.clone();
            let mut s = Sequence::new(OptionsFn::new(move |n, out: &mut OptionList| {
                octal_options(&r2, n, out);
                Ok(())
            }));
            s.extend(120, &NoControl).unwrap();
            assert_eq!(
                s.values().to_vec(),
                naive::take_and_break(&rule, 120),
                "{code}"
            );
        }
    }

    #[test]
    fn called_once_per_heap_even_when_widening() {
        // Heap k >= 1 may become any sum of distinct heaps 1..k: G(k) = 2^(k-1), so G(17) = 2^16
        // no longer fits 16 bits and the engine widens and retries heap 17.
        let mut calls = Vec::new();
        let mut s = Sequence::new(OptionsFn::new(|n, out: &mut OptionList| {
            calls.push(n);
            if n == 0 {
                return Ok(());
            }
            for subset in 0..1u64 << n.saturating_sub(1) {
                for p in 1..n {
                    if subset >> (p - 1) & 1 == 1 {
                        out.push_part(p);
                    }
                }
                out.end_option();
            }
            Ok(())
        }));
        s.extend(18, &NoControl).unwrap();
        assert_eq!(s.values().width(), 4);
        assert_eq!(s.values().get(17), 1 << 16);
        assert_eq!(s.values().get(5), 16);
        drop(s);
        assert_eq!(calls, (0..18).collect::<Vec<u64>>());
    }

    #[test]
    fn loops_are_named() {
        let mut s = Sequence::new(OptionsFn::new(|n, out: &mut OptionList| {
            if n >= 3 {
                out.push(&[1, n]);
            }
            Ok(())
        }));
        let e = s.extend(10, &NoControl).unwrap_err();
        assert!(matches!(e, Error::Invalid(_)));
        assert!(e.to_string().contains("heap 3: option (1, 3)"), "{e}");
        assert_eq!(s.values().len(), 3);
    }

    #[test]
    fn empty_option_and_tuple_repr() {
        // From every heap you may take everything: G(n) = 1 for n >= 0 (heap 0 included).
        let mut s = Sequence::new(OptionsFn::new(|_n, out: &mut OptionList| {
            out.push(&[]);
            Ok(())
        }));
        s.extend(3, &NoControl).unwrap();
        assert_eq!(s.values().to_vec(), vec![1, 1, 1]);
        assert_eq!(tuple_repr(&[]), "()");
        assert_eq!(tuple_repr(&[4]), "(4,)");
        assert_eq!(tuple_repr(&[1, 2]), "(1, 2)");
    }
}
