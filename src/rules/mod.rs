//! What a move is: the heap rules the engines compute.
//!
//! [`Rule`] is the one list of rule kinds. The engine picks its solver from it
//! ([`engine::sequence`](crate::engine::sequence)), the move search and the misère search list
//! options from it ([`position::search`](crate::position::search())), and so does the misère
//! quotient's builder: a new kind of heap rule is added here and in those three matches.
//!
//! ```
//! use grundy::rules::Rule;
//! let kayles = Rule::take_and_break("0.77").unwrap();
//! assert!(kayles.is_option(7, &[2, 3]).unwrap() && !kayles.is_option(7, &[1, 2]).unwrap());
//! assert_eq!(kayles.proof_shape(), Some((2, 2)));
//! assert!(Rule::take_and_break("0.[3]").unwrap().is_nim());
//! ```

pub mod callback;
pub mod subtraction;
pub mod take_and_break;

pub use callback::{AllowedSource, OptionList, OptionSource};
pub use subtraction::Subtraction;
pub use take_and_break::{Digit, TakeAndBreak};

use crate::error::Result;
use std::fmt;
use std::sync::Arc;

/// A heap rule: a move replaces a heap by a sum of smaller heaps.
#[derive(Clone)]
pub enum Rule {
    /// A take-and-break code (octal and hexadecimal games).
    TakeAndBreak(TakeAndBreak),
    /// A built-in subtraction rule.
    Subtraction(Subtraction),
    /// A subtraction rule answered from outside the core: "may `k` be removed from `n`?".
    Allowed(Arc<dyn AllowedSource>),
    /// The options of each heap, listed from outside the core.
    Options(Arc<dyn OptionSource>),
}

impl Rule {
    /// A take-and-break game from its code (parsed here, once).
    ///
    /// # Errors
    /// [`Error::Parse`](crate::error::Error::Parse) naming the offending character.
    pub fn take_and_break(code: &str) -> Result<Self> {
        Ok(Rule::TakeAndBreak(TakeAndBreak::parse(code)?))
    }

    /// Whether this is Nim itself: every smaller heap is an option, and nothing else
    /// (`0.[3]`, or removing any number of tokens).
    pub fn is_nim(&self) -> bool {
        match self {
            Rule::TakeAndBreak(c) => {
                c.d0.counts == 0
                    && c.prefix.is_empty()
                    && c.cycle.len() == 1
                    && c.cycle[0].counts == 3
            }
            Rule::Subtraction(Subtraction::AllBut(s)) => s.is_empty(),
            _ => false,
        }
    }

    /// `(t, k)` for a finite rule: the most tokens a move removes and the most heaps it leaves
    /// (what the periodicity theorems need); `None` for rules that may remove any number.
    pub fn proof_shape(&self) -> Option<(u64, u32)> {
        match self {
            Rule::TakeAndBreak(c) if !c.is_infinite() => {
                Some((c.last_nonzero() as u64, c.max_heaps()))
            }
            Rule::Subtraction(Subtraction::Finite(s)) => s.last().map(|&t| (t, 1)),
            _ => None,
        }
    }

    /// Whether leaving the heaps `parts` (in any order) is a move from a heap of `n`.
    ///
    /// # Errors
    /// What a rule answered from outside the core raised.
    pub fn is_option(&self, n: u64, parts: &[u64]) -> Result<bool> {
        let one = |parts: &[u64]| match *parts {
            [h] if h < n => Some(n - h),
            _ => None,
        };
        match self {
            Rule::TakeAndBreak(rule) => Ok(rule.is_option(n, parts)),
            Rule::Subtraction(rule) => Ok(one(parts).is_some_and(|k| rule.allows(n, k))),
            Rule::Allowed(src) => match one(parts) {
                Some(k) => src.allowed(n, k),
                None => Ok(false),
            },
            Rule::Options(src) => {
                let mut want = parts.to_vec();
                want.sort_unstable();
                let mut out = OptionList::new();
                src.options(n, &mut out)?;
                let found = out.iter().any(|o| {
                    let mut o = o.to_vec();
                    o.sort_unstable();
                    o == want
                });
                Ok(found)
            }
        }
    }
}

impl fmt::Debug for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rule::TakeAndBreak(c) => write!(f, "TakeAndBreak({c})"),
            Rule::Subtraction(s) => write!(f, "{s}"),
            Rule::Allowed(_) => f.write_str("Allowed(<callback>)"),
            Rule::Options(_) => f.write_str("Options(<callback>)"),
        }
    }
}

impl PartialEq for Rule {
    /// Built-in rules by value; rules answered from outside by identity.
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Rule::TakeAndBreak(a), Rule::TakeAndBreak(b)) => a == b,
            (Rule::Subtraction(a), Rule::Subtraction(b)) => a == b,
            (Rule::Allowed(a), Rule::Allowed(b)) => Arc::ptr_eq(a, b),
            (Rule::Options(a), Rule::Options(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }
}

impl From<TakeAndBreak> for Rule {
    fn from(c: TakeAndBreak) -> Self {
        Rule::TakeAndBreak(c)
    }
}

impl From<Subtraction> for Rule {
    fn from(s: Subtraction) -> Self {
        Rule::Subtraction(s)
    }
}
