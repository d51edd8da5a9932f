//! Which solver computes a rule's values: the one place where a rule kind picks its [`Step`].

use super::{AllowedFn, AnySequence, OptionList, OptionsFn, Sequence, SubtractionExact};
use super::{TakeAndBreakExact, TakeAndBreakSparse};
use crate::error::Result;
use crate::rules::Rule;
use std::sync::Arc;

/// Which solver computes a take-and-break code's values; both give the same values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Solver {
    /// The sparse-space solver wherever it applies (finite codes, at most two heaps), else the
    /// exact one.
    #[default]
    Auto,
    /// The mex over every option.
    Exact,
    /// The sparse-space solver (an error for codes it does not apply to).
    Sparse,
}

/// The values of `rule`, computed by the solver its kind calls for: the one place where a rule
/// kind picks its [`Step`](super::Step). `solver` chooses among the take-and-break solvers; other rules
/// have one each.
///
/// ```
/// use grundy::engine::{sequence, Solver};
/// use grundy::control::NoControl;
/// use grundy::rules::Rule;
/// let mut s = sequence(&Rule::take_and_break("4!.0").unwrap(), Solver::Auto).unwrap();
/// s.extend(9, &NoControl).unwrap();
/// assert_eq!(s.values().to_vec(), vec![0, 0, 0, 1, 0, 2, 1, 0, 2]);
/// ```
///
/// # Errors
/// [`Error::Invalid`](crate::error::Error::Invalid) for [`Solver::Sparse`] and a code it does not apply to.
pub fn sequence(rule: &Rule, solver: Solver) -> Result<Box<dyn AnySequence>> {
    Ok(match rule {
        Rule::TakeAndBreak(code) => {
            let sparse = match solver {
                Solver::Exact => false,
                Solver::Sparse => true,
                Solver::Auto => TakeAndBreakSparse::supports(code),
            };
            if sparse {
                Box::new(Sequence::new(TakeAndBreakSparse::new(code.clone())?))
            } else {
                Box::new(Sequence::new(TakeAndBreakExact::new(code.clone())))
            }
        }
        Rule::Subtraction(s) => Box::new(Sequence::new(SubtractionExact::new(s.clone()))),
        Rule::Allowed(src) => {
            let src = Arc::clone(src);
            Box::new(Sequence::new(AllowedFn::new(move |n, k| src.allowed(n, k))))
        }
        Rule::Options(src) => {
            let src = Arc::clone(src);
            Box::new(Sequence::new(OptionsFn::new(
                move |n, out: &mut OptionList| src.options(n, out),
            )))
        }
    })
}
