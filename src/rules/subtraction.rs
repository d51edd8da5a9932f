//! Subtraction games: from a heap of `n` remove `k` tokens for `k` in a set `S` (one heap remains).
//!
//! ```
//! use grundy::rules::Subtraction;
//! let s = Subtraction::finite(vec![3, 1, 2]).unwrap();
//! assert_eq!(s, Subtraction::Finite(vec![1, 2, 3]));
//! assert!(Subtraction::finite(vec![0]).is_err());
//! ```

use crate::error::{Error, Result};
use std::fmt;

/// The subtraction rules the core knows (a rule given as a Python callable lives in the binding).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Subtraction {
    /// Remove `k` for `k` in a finite set (sorted, distinct, positive).
    Finite(Vec<u64>),
    /// Remove any number of tokens except those in a finite set (sorted, distinct, positive).
    AllBut(Vec<u64>),
    /// Remove a positive square.
    Squares,
    /// Remove 1 to floor(n/2) tokens.
    AtMostHalf,
    /// Remove a divisor `d` of `n` with `d < n`.
    ProperDivisors,
}

fn checked_set(mut set: Vec<u64>, what: &str) -> Result<Vec<u64>> {
    if let Some(&bad) = set.iter().find(|&&k| k == 0) {
        return Err(Error::Invalid(format!(
            "{what} contains {bad}: every member must be a positive integer (removing 0 tokens is not a move)"
        )));
    }
    set.sort_unstable();
    set.dedup();
    Ok(set)
}

impl Subtraction {
    /// A finite subtraction set; members must be positive.
    ///
    /// # Errors
    /// [`Error::Invalid`] for a member 0.
    pub fn finite(set: Vec<u64>) -> Result<Self> {
        Ok(Subtraction::Finite(checked_set(
            set,
            "the subtraction set",
        )?))
    }

    /// Remove any number of tokens except the members of `set`.
    ///
    /// # Errors
    /// [`Error::Invalid`] for a member 0.
    pub fn all_but(set: Vec<u64>) -> Result<Self> {
        Ok(Subtraction::AllBut(checked_set(set, "the excluded set")?))
    }

    /// A rule by name: `finite` and `all_but` take `members`; `squares`, `at_most_half` and
    /// `proper_divisors` take none. (The names the Python layer uses.)
    ///
    /// # Errors
    /// [`Error::Invalid`] for an unknown name or a member 0.
    pub fn from_kind(kind: &str, members: Vec<u64>) -> Result<Self> {
        match kind {
            "finite" => Subtraction::finite(members),
            "all_but" => Subtraction::all_but(members),
            "squares" => Ok(Subtraction::Squares),
            "at_most_half" => Ok(Subtraction::AtMostHalf),
            "proper_divisors" => Ok(Subtraction::ProperDivisors),
            other => Err(Error::Invalid(format!(
                "unknown subtraction rule {other:?}"
            ))),
        }
    }

    /// Whether removing `k` tokens from a heap of `n` is allowed (`1 <= k <= n` assumed).
    pub fn allows(&self, n: u64, k: u64) -> bool {
        match self {
            Subtraction::Finite(s) => s.binary_search(&k).is_ok(),
            Subtraction::AllBut(s) => s.binary_search(&k).is_err(),
            Subtraction::Squares => {
                let r = k.isqrt();
                r * r == k
            }
            Subtraction::AtMostHalf => k <= n / 2,
            Subtraction::ProperDivisors => k < n && n % k == 0,
        }
    }
}

impl fmt::Display for Subtraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = |s: &[u64]| {
            s.iter()
                .map(|k| k.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            Subtraction::Finite(s) => write!(f, "Subtraction([{}])", list(s)),
            Subtraction::AllBut(s) => write!(f, "Subtraction.all_but([{}])", list(s)),
            Subtraction::Squares => f.write_str("Subtraction.squares()"),
            Subtraction::AtMostHalf => f.write_str("Subtraction.at_most_half()"),
            Subtraction::ProperDivisors => f.write_str("Subtraction.proper_divisors()"),
        }
    }
}
