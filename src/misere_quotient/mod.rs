//! Misère quotients of heap games (Plambeck 2005; Plambeck and Siegel 2008).
//!
//! Under misère play two sums `X` and `Y` of heaps are *indistinguishable* when `X + Z` and
//! `Y + Z` have the same outcome for every sum `Z`. The classes form a commutative monoid, the
//! misère quotient `Q`, with its P-portion (the classes of P-positions) and the pretending
//! function (heap size → class). Seen from automata theory, the P-positions are a commutative
//! language over the alphabet of heap sizes and `Q` is its minimal automaton: the classes are
//! the Nerode classes, and since the language is commutative they multiply.
//!
//! # How it is computed, and why it is exact
//! Heaps are added one size at a time. For each size `n` the quotient of all sums of heaps
//! `≤ n` is *learned* and then *proven*:
//!
//! * **Learning** is Angluin's L* with Rivest and Schapire's handling of counterexamples. Its
//!   rows are sums (access words), its columns test sums, and an entry is the misère outcome
//!   of their sum, found by a memoised search in which every sum of heaps `< n` is evaluated
//!   through the quotient already proven for them. Two rows that differ are two classes that a
//!   sum tells apart, so the hypothesis never has more elements than the true quotient.
//! * **Proving** a hypothesis `(Q, P, φ)` means showing `o⁻(X) = P ⇔ φ(X) ∈ P` for every sum
//!   `X` (then `Q` is the quotient, being reduced). By induction on `X` this holds when, for
//!   every `X ≠ 0`, `φ(X) ∈ P` exactly when no option of `X` maps into `P`, and `1 ∉ P`. The
//!   options of `X` depend on more than `φ(X)`, but the set
//!   `U(X) = { z ∈ Q : some option X' of X has φ(X')·z ∈ P }` is carried exactly by a finite
//!   automaton: adding a heap `g` gives `φ(X + g) = φ(X)·φ(g)` and
//!   `U(X + g) = { z : φ(g)·z ∈ U(X) } ∪ { z : some option g' of g has φ(X)·φ(g')·z ∈ P }`.
//!   A breadth-first search over the reachable pairs `(φ(X), U(X))` checks `φ(X) ∈ P ⇔
//!   1 ∉ U(X)` at each; it is a proof, not a sample. A failure names a sum `X`; the outcome
//!   search finds a sum (`X` or one of its options) that the hypothesis gets wrong, which goes
//!   back to the learner as a counterexample.
//! * **Guessing first.** Before the learner, a step builds a guess directly. Each sum is put
//!   in a canonical form through a *base* monoid: the part of the sum the base covers becomes
//!   the least representative of its element, and the copies of the new heap are folded
//!   (`c ≥ 4` copies count as `2 + c mod 2`). The canonical forms are the states of a finite
//!   automaton. Each state accepts when the outcome search finds its sum a P-position, and
//!   minimising the automaton gives the guess. At first the base is the quotient proven for the
//!   smaller heaps; that is exact unless some class of it splits once heap `n` is there. The
//!   proof decides. A refuted guess becomes the next base, and some heaps of the failing sum are
//!   *freed*: kept as they are, their copies folded at their element's index and period. These
//!   are the fewest, one to three, that make the guess right at that sum. MisereSolver
//!   recalibrates its trial quotients the same way (Plambeck and Siegel 2008). After 32
//!   refutations in one step, or when a representative leads back to a sum being searched, the
//!   step is learned with L* and the exact search.
//! * Commutativity of the learned automaton is checked first (a failure again yields a
//!   counterexample), so that `φ` is a monoid homomorphism.
//!
//! When the new heap's option classes give it the same transition as a heap already present
//! (`φ(g)` and the set `{ q : some option g' has q·φ(g') ∈ P }`), the automaton above is
//! unchanged, so the quotient is unchanged and the proof stands: no learning is needed. That is
//! why a game whose quotient stops growing (Kayles from heap 27) is extended to large heaps
//! at the cost of listing options.
//!
//! # Cost
//! A guess costs one outcome search per canonical form (`|base|` times the folded copies of the
//! freed heaps) and a minimisation; the proof visits every reachable pair `(φ(X), U(X))` with
//! `|Q|` work per transition, in parallel over each distance bucket, and dominates. Each refuted
//! guess costs one more proof, of a guess that can be larger than the true quotient: Dawson's
//! Kayles (638 elements at heap 33) is reached after 55 refutations, and at heap 34 the guesses
//! grow to several thousand elements until the 32 refutations allowed run out. The exact
//! learner takes `|Q| · (heaps) · (tests)` outcome queries, each a memoised search over the
//! sums that contain the new heap.
//!
//! ```
//! use grundy::control::NoControl;
//! use grundy::misere_quotient::Quotient;
//! // Nim with heaps of at most 2: the tame quotient T2 = <a, b | a^2 = 1, b^3 = b>, order 6.
//! let opts = vec![vec![], vec![vec![]], vec![vec![], vec![1]]];
//! let q = Quotient::compute(&opts, &NoControl).unwrap();
//! assert_eq!(q.order(), 6);
//! assert!(q.is_p(&[1u32]) && !q.is_p(&[1u32, 1]) && q.is_p(&[2u32, 2]));
//! ```

mod build;
mod learn;
mod monoid;
mod oracle;
mod prove;
mod relative;
pub use relative::{relative_bounds, RelativeBounds};

use build::{Builder, Proven};
use learn::{bit, Hypothesis, Learner};
use monoid::{minimise, table_by_columns, Monoid};
use oracle::{fold, sorted, Oracle};
use prove::{extend_proof, letter, prove, representatives, Failure, Letter, Set};

use crate::control::Control;
use crate::error::{Error, Result};
use crate::hash::{FxMap, FxSet};
use rayon::prelude::*;

/// Refuted guesses tried again in one learning step before the exact search takes over.
const MAX_REFINEMENTS: u32 = 32;

/// Canonical forms a guessed automaton may have (each costs an outcome search and `4k` bytes).
const MAX_GUESS_STATES: usize = 1 << 22;

/// Outcomes memoised before the learner gives up (about 60 bytes each).
const MAX_MEMO: usize = 1 << 26;

/// Outcomes memoised between two checks that the memory left holds the next as many.
const MEMO_CHUNK: usize = 1 << 20;

/// Work between two polls of the control in the build's long loops, in units of about one
/// table entry or machine word handled (so about a millisecond).
const POLL_WORK: u64 = 1 << 20;

/// Polls the control from inside a long loop of the build (a guess, its minimisation and
/// table, a proof), every [`POLL_WORK`] units of work, so that Ctrl-C, the progress callback
/// and the memory checks made at the polls never wait for the loop to end.
struct Pace<'a> {
    ctl: &'a dyn Control,
    /// The heap being added and the number of heaps, as the control is told.
    at: (u64, u64),
    work: u64,
}

impl<'a> Pace<'a> {
    fn new(ctl: &'a dyn Control, at: (u64, u64)) -> Self {
        Pace { ctl, at, work: 0 }
    }

    /// Counts `units` of work; polls the control once enough is done since the last poll.
    /// Returns whether it polled (a caller then checks the memory it is growing).
    fn tick(&mut self, units: u64) -> Result<bool> {
        self.work += units;
        if self.work < POLL_WORK {
            return Ok(false);
        }
        self.work = 0;
        self.ctl.check(self.at.0, self.at.1)?;
        Ok(true)
    }
}

/// A misère quotient: the monoid, its P-portion and the pretending function.
#[derive(Debug, Clone)]
pub struct Quotient {
    monoid: Monoid,
    /// The element of each heap size `0..=max_heap`.
    pretending: Vec<u32>,
    /// For each element, a sum of heaps (sorted) that maps to it.
    words: Vec<Vec<u32>>,
    /// `(heap, order)` each time the order changed.
    growth: Vec<(u32, usize)>,
    stats: Stats,
}

/// Bounds on the work of a quotient build ([`Quotient::compute_with`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The most elements a quotient the build makes may have: the learner's hypothesis (which
    /// never has more elements than the true quotient, so passing this proves the quotient
    /// larger) or a guess (which may: guesses refuted on the way can outgrow the truth).
    pub max_order: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_order: usize::MAX,
        }
    }
}

/// A build that stopped: why, and the quotient proven for the heaps below the one it stopped
/// at (None when it stopped before any heap was placed).
#[derive(Debug, Clone)]
pub struct Stopped {
    /// Why it stopped.
    pub error: Error,
    /// The quotient of the heaps before the one it stopped at.
    pub proven: Option<Quotient>,
}

/// What the construction did, for benchmarks and the notes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Outcome queries the learner made.
    pub queries: u64,
    /// Positions the outcome search memoised, summed over heap sizes.
    pub searched: u64,
    /// Counterexamples returned to the learner.
    pub counterexamples: u64,
    /// Pairs `(φ(X), U(X))` the proofs visited, summed.
    pub proof_states: u64,
    /// Heaps placed without learning because their transition equals an earlier heap's.
    pub reused: u64,
    /// Heaps placed without learning by proving one candidate element.
    pub placed: u64,
    /// Learning steps that ended with a proof while outcomes were guessed (`Oracle::guess`),
    /// without the exact search.
    pub guessed: u64,
    /// Learning steps whose guesses were given up (then learned exactly).
    pub guesses_wrong: u64,
    /// Guesses refuted at a sum and tried again on the refuted hypothesis with some of the
    /// sum's heaps freed.
    pub refinements: u64,
}

impl Quotient {
    /// The quotient of all sums of heaps `0..opts.len()`, where `opts[n]` lists the options of
    /// heap `n`, each as the sorted heaps it leaves (as `MisereGame::option_lists` gives them).
    ///
    /// # Errors
    /// [`Error::Invalid`] when an option has a part that is not a smaller heap with a move;
    /// [`Error::Memory`] when the search or the proof outgrows memory; the error of `ctl`,
    /// which is polled with `(heap, max_heap)`.
    pub fn compute(opts: &[Vec<Vec<u32>>], ctl: &dyn Control) -> Result<Quotient> {
        Self::compute_with(opts, ctl, &Limits::default()).map_err(|s| s.error)
    }

    /// As [`Quotient::compute`], within `limits`, and keeping what was proven when it stops:
    /// a build stopped at heap `n` (by an error, an interrupt or a limit) returns the error
    /// with the quotient of the heaps below `n`, so an hour's work is not lost at the heap
    /// that outgrows the machine.
    ///
    /// ```
    /// use grundy::control::NoControl;
    /// use grundy::misere_quotient::{Limits, Quotient};
    /// use grundy::position::MisereGame;
    /// use grundy::rules::Rule;
    /// // Kayles' quotient has 6 elements for heaps up to 4 and 12 from heap 5.
    /// let kayles = Rule::TakeAndBreak("0.77".parse().unwrap());
    /// let opts = MisereGame::Rule(&kayles).option_lists(8, &NoControl).unwrap();
    /// let stopped = Quotient::compute_with(&opts, &NoControl, &Limits { max_order: 6 })
    ///     .unwrap_err();
    /// let kept = stopped.proven.unwrap();
    /// assert_eq!((kept.order(), kept.pretending().len()), (6, 5));
    /// ```
    ///
    /// # Errors
    /// As [`Quotient::compute`], and [`Error::SearchLimit`] when a quotient the build makes
    /// (a guess or the learner's hypothesis) has more than `limits.max_order` elements.
    pub fn compute_with(
        opts: &[Vec<Vec<u32>>],
        ctl: &dyn Control,
        limits: &Limits,
    ) -> std::result::Result<Quotient, Box<Stopped>> {
        Self::compute_refining(opts, ctl, MAX_REFINEMENTS, limits)
    }

    /// As [`Quotient::compute_with`], with at most `refinements` refuted guesses tried again
    /// per learning step (0: a refuted guess goes straight to the exact search).
    fn compute_refining(
        opts: &[Vec<Vec<u32>>],
        ctl: &dyn Control,
        refinements: u32,
        limits: &Limits,
    ) -> std::result::Result<Quotient, Box<Stopped>> {
        let live = live_options(opts).map_err(|error| {
            Box::new(Stopped {
                error,
                proven: None,
            })
        })?;
        let mut b = Builder::new(&live, ctl);
        b.max_refinements = refinements;
        b.max_order = limits.max_order;
        b.run()
    }

    /// The number of elements.
    pub fn order(&self) -> usize {
        self.monoid.m
    }

    /// The product of elements `a` and `b`.
    pub fn mul(&self, a: u32, b: u32) -> u32 {
        self.monoid.mul(a, b)
    }

    /// The multiplication table, row-major (`order × order`).
    pub fn table(&self) -> &[u32] {
        &self.monoid.mul
    }

    /// Whether element `x` is in the P-portion.
    pub fn in_p(&self, x: u32) -> bool {
        self.monoid.p[x as usize]
    }

    /// The pretending function: the element of each heap size `0..=max_heap`.
    pub fn pretending(&self) -> &[u32] {
        &self.pretending
    }

    /// For each element, the least sum of heaps (sorted, by total size) that maps to it.
    pub fn words(&self) -> &[Vec<u32>] {
        &self.words
    }

    /// `(heap, order)` at each heap size where the order changed.
    pub fn growth(&self) -> &[(u32, usize)] {
        &self.growth
    }

    /// What the construction did.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// The element of the sum of `heaps` (each at most `max_heap`; the caller checks).
    pub fn element<H: Copy + Into<u64>>(&self, heaps: &[H]) -> u32 {
        self.monoid.eval(&self.pretending, heaps)
    }

    /// Whether the sum of `heaps` is a misère P-position.
    pub fn is_p<H: Copy + Into<u64>>(&self, heaps: &[H]) -> bool {
        self.in_p(self.element(heaps))
    }

    /// `x` multiplied by itself `k` times (`x^0` is the identity), by repeated squaring.
    pub fn pow(&self, x: u32, k: u64) -> u32 {
        self.monoid.pow(x, k)
    }

    /// The winning moves of a sum given as `(heap size, count)` pairs with distinct sizes: each
    /// `(index into counts, option index)` whose option makes the sum a P-position. `opts` are
    /// the option lists the quotient was built from. Linear in the number of distinct sizes
    /// plus the options examined.
    pub fn winning_moves(
        &self,
        counts: &[(u32, u64)],
        opts: &[Vec<Vec<u32>>],
    ) -> Vec<(usize, usize)> {
        let k = counts.len();
        let powers: Vec<u32> = counts
            .iter()
            .map(|&(h, c)| self.pow(self.pretending[h as usize], c))
            .collect();
        // prefix[i] = product of powers[..i], suffix[i] = product of powers[i..].
        let mut prefix = vec![0u32; k + 1];
        let mut suffix = vec![0u32; k + 1];
        for i in 0..k {
            prefix[i + 1] = self.mul(prefix[i], powers[i]);
        }
        for i in (0..k).rev() {
            suffix[i] = self.mul(suffix[i + 1], powers[i]);
        }
        let mut out = Vec::new();
        for (i, &(h, c)) in counts.iter().enumerate() {
            if c == 0 {
                continue;
            }
            let others = self.mul(prefix[i], suffix[i + 1]);
            let rest = self.mul(others, self.pow(self.pretending[h as usize], c - 1));
            for (j, o) in opts[h as usize].iter().enumerate() {
                if self.in_p(self.mul(rest, self.element(o))) {
                    out.push((i, j));
                }
            }
        }
        out
    }
}

/// The option lists checked (each option a sorted list of smaller heaps) and with the heaps
/// that have no move left out: they change nothing in a misère sum, so the search skips them.
fn live_options(opts: &[Vec<Vec<u32>>]) -> Result<Vec<Vec<Vec<u32>>>> {
    for (n, list) in opts.iter().enumerate() {
        for o in list {
            if o.windows(2).any(|w| w[0] > w[1]) || o.iter().any(|&p| p as usize >= n) {
                return Err(Error::Invalid(format!(
                    "an option of heap {n} is not a sorted list of smaller heaps"
                )));
            }
        }
    }
    Ok(opts
        .iter()
        .map(|list| {
            let mut v: Vec<Vec<u32>> = list
                .iter()
                .map(|o| {
                    o.iter()
                        .copied()
                        .filter(|&p| !opts[p as usize].is_empty())
                        .collect()
                })
                .collect();
            v.sort_unstable();
            v.dedup();
            v
        })
        .collect())
}

/// The normal-play Grundy value of each heap, from the option lists (the mex of the XOR of each
/// option's parts).
pub fn grundy_values(opts: &[Vec<Vec<u32>>]) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(opts.len());
    for list in opts {
        let mut seen = vec![false; list.len() + 1];
        for o in list {
            let v = o.iter().fold(0, |a, &h| a ^ g[h as usize]) as usize;
            if v < seen.len() {
                seen[v] = true;
            }
        }
        g.push(seen.iter().position(|&b| !b).unwrap_or(list.len()) as u32);
    }
    g
}

impl Quotient {
    /// The normal-play value each element carries, given the Grundy values of the heaps: the
    /// value of any sum that maps to it. None when two sums of one element have different
    /// values (checked on every element times every heap, which by induction covers all sums).
    pub fn normal_values(&self, grundy: &[u32]) -> Option<Vec<u32>> {
        let nv: Vec<u32> = self
            .words
            .iter()
            .map(|w| w.iter().fold(0, |a, &h| a ^ grundy[h as usize]))
            .collect();
        for x in 0..self.order() as u32 {
            for (h, &phi) in self.pretending.iter().enumerate() {
                if nv[self.mul(x, phi) as usize] != nv[x as usize] ^ grundy[h] {
                    return None;
                }
            }
        }
        Some(nv)
    }
}

#[cfg(test)]
mod tests;
