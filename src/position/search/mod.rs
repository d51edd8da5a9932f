//! The options of one heap, all of them or only those worth a given value, as [`Family`]s.
//!
//! A take-and-break move removes `j` tokens and leaves `k` non-empty heaps adding up to
//! `s = n - j`. The search visits `k = 0, 1, 2, 3` and, for each, the removals `j` the code
//! allows; for a wanted value `t` it finds the splits with `G(a) ^ G(b) (^ G(c)) = t`:
//!
//! * explicitly, split by split, when the heap is within the computed values;
//! * through a proven period `p` from `n0` otherwise: a part below `n0` is tried one by one (the
//!   rest then has its value read off the period), and when every part is at least `n0` only
//!   the parts' residues modulo `p` matter, so each matching residue gives a whole arithmetic
//!   progression of splits. That is O(n0 + p) candidates for two heaps and O(n0 (n0 + p) + p^2)
//!   for three, whatever the heap size;
//! * by XOR algebra when `G(h) = h`: `a + b = s` and `a ^ b = t` force `a & b = (s - t) / 2`.
//!
//! Work is counted in candidates examined; a search stops after a budget and returns a
//! [`Cursor`] to resume from, so callers can stream the options of a heap of 10^18 tokens.
//!
//! Each kind of rule has its file, as in [`rules`](crate::rules) and [`engine`](crate::engine):
//! `take_and_break.rs` (the splits above), `subtraction.rs` (one heap left; the rules whose
//! options are ranges are listed as ranges) and `callback.rs` (rules answered from outside the
//! core, asked heap by heap). What a search asks is a [`Query`].
//!
//! ```
//! use grundy::engine::{Sequence, TakeAndBreakExact};
//! use grundy::control::NoControl;
//! use grundy::position::{search, HeapValues, Query, Tail};
//! use grundy::rules::{Rule, TakeAndBreak};
//! let code = TakeAndBreak::parse("0.77").unwrap();
//! let mut seq = Sequence::new(TakeAndBreakExact::new(code.clone()));
//! seq.extend(100, &NoControl).unwrap();
//! let vals = HeapValues::new(seq.values(), Tail::Periodic { preperiod: 71, period: 12 }).unwrap();
//! // Options of a Kayles row of 10^18 pins worth G = 0: they exist (and are many).
//! let rule = Rule::TakeAndBreak(code);
//! let q = Query { target: Some(0), first_only: true, ..Query::new(1_000_000_000_000_000_000) };
//! let found = search(&rule, &vals, &q).unwrap();
//! assert!(!found.families.is_empty());
//! ```

use super::family::{Family, Parts};
use super::{HeapValues, Tail};
use crate::error::{Error, Result};
use crate::rules::Rule;

mod callback;
mod subtraction;
mod take_and_break;
#[cfg(test)]
mod tests;

/// Where a search resumes: the number of heaps left `k` and the next removal `j` (for
/// subtraction rules, the next candidate of the rule's own loop).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor {
    /// Heaps left by the moves being visited (take-and-break; 1 for subtraction rules).
    pub k: u8,
    /// The next removal (or candidate) to visit.
    pub j: u64,
}

impl Cursor {
    /// The beginning: no option visited yet.
    pub const START: Cursor = Cursor { k: 0, j: 0 };
}

/// What one call of [`search`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The options found, as families.
    pub families: Vec<Family>,
    /// Where to resume, or `None` when every option was visited.
    pub next: Option<Cursor>,
    /// Candidates examined.
    pub work: u64,
}

/// How splits are searched; [`Strategy::Auto`] picks the cheaper exact method. The others exist
/// so that tests can check the methods against each other.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// The cheaper exact method, case by case.
    Auto,
    /// Every split, one by one.
    Explicit,
    /// Through the period whenever the tail is periodic.
    Structured,
}

/// What one call of [`search`] asks: the options of a heap of `n` (only those worth `target`
/// when given), from `from` until the work reaches `budget` or, with `first_only`, until
/// something is found. [`Query::new`] asks for every option; change the fields from there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Query {
    /// The heap.
    pub n: u64,
    /// The value the options must have (`None`: every option).
    pub target: Option<u64>,
    /// Where to resume ([`Cursor::START`] to begin).
    pub from: Cursor,
    /// Candidates to examine before returning with a cursor (`u64::MAX`: no limit).
    pub budget: u64,
    /// Whether to return as soon as something is found.
    pub first_only: bool,
    /// How splits are searched ([`Strategy::Auto`] outside tests).
    pub strategy: Strategy,
}

impl Query {
    /// Every option of a heap of `n`, from the start, with no budget.
    pub fn new(n: u64) -> Self {
        Query {
            n,
            target: None,
            from: Cursor::START,
            budget: u64::MAX,
            first_only: false,
            strategy: Strategy::Auto,
        }
    }
}

/// The options of a heap that `q` asks for, as families.
///
/// # Errors
/// With a target, every heap below `q.n` must have a known value, and a heap beyond the computed
/// values needs a tail that gives them for the moves of the rule: [`Error::Invalid`] otherwise.
pub fn search(rule: &Rule, vals: &HeapValues, q: &Query) -> Result<Found> {
    let s = Searcher {
        vals,
        target: q.target,
        st: q.strategy,
        budget: q.budget,
        first_only: q.first_only,
        out: Vec::new(),
        work: 0,
    };
    if let Some(t) = q.target {
        vals.check_below(q.n)?;
        // Every option of a heap of n is worth less than n when G(h) = h (a XOR is at most
        // the sum of its terms, which is below n).
        if vals.tail() == Tail::Identity && t >= q.n {
            return Ok(s.done(None));
        }
    }
    match rule {
        Rule::TakeAndBreak(rule) => s.take_and_break(rule, q.n, q.from),
        Rule::Subtraction(rule) => s.subtraction(rule, q.n, q.from),
        Rule::Allowed(src) => s.allowed(src.as_ref(), q.n, q.from),
        Rule::Options(src) => s.listed(src.as_ref(), q.n),
    }
}

/// One search in progress: what it looks for and what it found so far. Each kind of rule adds
/// its methods in its own file.
struct Searcher<'a, 'v> {
    vals: &'a HeapValues<'v>,
    target: Option<u64>,
    st: Strategy,
    budget: u64,
    first_only: bool,
    out: Vec<Family>,
    work: u64,
}

impl Searcher<'_, '_> {
    fn done(self, next: Option<Cursor>) -> Found {
        Found {
            families: self.out,
            next,
            work: self.work,
        }
    }

    /// Whether this call has done its share: found something (with `first_only`) or spent the
    /// budget.
    fn stopped(&self) -> bool {
        (self.first_only && !self.out.is_empty()) || self.work >= self.budget
    }

    #[inline]
    fn g(&self, h: u64) -> u64 {
        self.vals.get(h)
    }

    fn one(&mut self, parts: &[u64]) {
        self.out.push(Family::One(Parts::new(parts)));
    }
}

/// The error for a search by value that needs values no table or tail gives.
fn unsupported(n: u64, what: &str) -> Error {
    Error::Invalid(format!(
        "searching the options of a heap of {n} by value ({what}) needs G of every smaller heap, \
         and no period gives them: compute the values up to {n} first"
    ))
}
