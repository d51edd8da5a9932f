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
//! use grundy::engine::NoControl;
//! use grundy::misere_quotient::Quotient;
//! // Nim with heaps of at most 2: the tame quotient T2 = <a, b | a^2 = 1, b^3 = b>, order 6.
//! let opts = vec![vec![], vec![vec![]], vec![vec![], vec![1]]];
//! let q = Quotient::compute(&opts, &NoControl).unwrap();
//! assert_eq!(q.order(), 6);
//! assert!(q.is_p(&[1u32]) && !q.is_p(&[1u32, 1]) && q.is_p(&[2u32, 2]));
//! ```

mod relative;
pub use relative::{relative_bounds, RelativeBounds};

use crate::engine::Control;
use crate::error::{Error, Result};
use crate::position::misere::{FxMap, FxSet};
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

/// A finite commutative monoid with a P-portion, as a multiplication table. Element 0 is the
/// identity.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Monoid {
    m: usize,
    mul: Vec<u32>,
    p: Vec<bool>,
}

impl Monoid {
    #[inline]
    fn mul(&self, a: u32, b: u32) -> u32 {
        self.mul[a as usize * self.m + b as usize]
    }

    /// `x` to the power `k`, by squaring.
    fn pow(&self, x: u32, mut k: u64) -> u32 {
        let (mut acc, mut base) = (0u32, x);
        while k > 0 {
            if k & 1 == 1 {
                acc = self.mul(acc, base);
            }
            base = self.mul(base, base);
            k >>= 1;
        }
        acc
    }

    /// The index and period of `x`: the least `i` and `p ≥ 1` with `x^(i+p) = x^i`.
    fn index_period(&self, x: u32) -> (u32, u32) {
        let mut first = vec![u32::MAX; self.m];
        let mut y = 0;
        for k in 0.. {
            if first[y as usize] != u32::MAX {
                return (first[y as usize], k - first[y as usize]);
            }
            first[y as usize] = k;
            y = self.mul(y, x);
        }
        unreachable!()
    }

    /// The element of a sum of heaps, given each heap size's element `phi`.
    fn eval<H: Copy + Into<u64>>(&self, phi: &[u32], heaps: &[H]) -> u32 {
        heaps
            .iter()
            .fold(0, |x, &h| self.mul(x, phi[h.into() as usize]))
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
    /// use grundy::engine::NoControl;
    /// use grundy::misere_quotient::{Limits, Quotient};
    /// use grundy::position::{HeapRule, MisereGame};
    /// // Kayles' quotient has 6 elements for heaps up to 4 and 12 from heap 5.
    /// let kayles = HeapRule::TakeAndBreak("0.77".parse().unwrap());
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

/// Moore's refinement of a complete automaton whose state `s` moves to `delta[s * k + a]` by
/// letter `a`: states stay together while their acceptance and the classes of their successors
/// agree. Returns each state's class, numbered in order of first state (state 0's class is 0),
/// and the number of classes. `pace` is ticked for every state of every round (a round over
/// millions of states takes seconds).
fn minimise(
    accept: &[bool],
    delta: &[u32],
    k: usize,
    pace: &mut Pace,
) -> Result<(Vec<u32>, usize)> {
    let first = accept.first().copied().unwrap_or(false);
    let mut class: Vec<u32> = accept.iter().map(|&a| u32::from(a != first)).collect();
    let mut count = 1 + usize::from(accept.iter().any(|&a| a != first));
    let mut sig = Vec::with_capacity(k + 1);
    // A round holds a signature of k + 1 classes per state in its map, and a class per state.
    crate::memory::check((accept.len() * (4 * k + 64)) as u64)?;
    loop {
        let mut ids: FxMap<Vec<u32>, u32> = FxMap::default();
        let mut next = Vec::with_capacity(accept.len());
        for s in 0..accept.len() {
            pace.tick(8 * (k as u64 + 1))?;
            sig.clear();
            sig.push(class[s]);
            sig.extend(delta[s * k..(s + 1) * k].iter().map(|&t| class[t as usize]));
            let fresh = ids.len() as u32;
            next.push(*ids.entry(sig.clone()).or_insert(fresh));
        }
        let done = ids.len() == count;
        count = ids.len();
        class = next;
        if done {
            return Ok((class, count));
        }
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

/// The memoised outcome search. Sums of heaps below `proven_limit` are evaluated through the
/// quotient proven for them, so the search only walks sums that contain a newer heap.
struct Oracle<'a> {
    opts: &'a [Vec<Vec<u32>>],
    memo: FxMap<Box<[u32]>, bool>,
    proven: Option<(u32, Monoid, Vec<u32>)>,
    /// A hypothesis whose proof failed first at a sum of total size `.0`: it classifies every
    /// smaller sum correctly, so those are evaluated through it.
    below: Option<(u64, Monoid, Vec<u32>)>,
    searched: u64,
    ctl: &'a dyn Control,
    /// The heap being added and the last one, for polls.
    at: (u64, u64),
    /// In guess mode, the monoid through which sums are put in canonical form: the proven
    /// quotient of the heaps below `.0` at first, then the last refuted hypothesis.
    base: Option<(u32, Monoid, Vec<u32>)>,
    /// For each element of the base, a sum (sorted) of heaps that are not freed
    /// that maps to it: the least such sum by total size.
    reps: Vec<Vec<u32>>,
    /// Heaps (below the proven limit) that guessing keeps as they are, up to a number of
    /// copies: `(index, period)` folds `c ≥ index + period` copies to `index + (c - index) mod
    /// period`. The classes that split with the new heap are found by freeing the heaps of the
    /// sums where a guess failed; the folding keeps the guessed outcomes a finite automaton.
    freed: Vec<Option<(u32, u32)>>,
    /// Guess mode: the part of a sum made of heaps the base covers (and not freed) is replaced
    /// by the representative of its element, and the copies of freed heaps are folded. Exact
    /// while no class of the base splits; otherwise a guess (which the proof catches), at a
    /// tiny fraction of the cost: the search meets a few sums per element.
    guess: bool,
    /// A buffer for canonical forms, reused across queries.
    buf: Vec<u32>,
    /// In guess mode, the sums being searched: replacing parts by representatives can lead
    /// back to one of them, which ends the guess (`Error::Cycle`).
    open: FxSet<Box<[u32]>>,
}

impl Oracle<'_> {
    /// The canonical form of a sum (sorted) in guess mode: the part the base covers and that is
    /// not freed becomes the representative of its element, the copies of freed heaps are
    /// folded. Idempotent.
    fn canonical_into(&self, pos: &[u32], c: &mut Vec<u32>) {
        let (limit, q, phi) = self.base.as_ref().expect("a base to guess on");
        c.clear();
        let mut x = 0;
        let mut i = 0;
        while i < pos.len() {
            let h = pos[i];
            let run = pos[i..].iter().take_while(|&&g| g == h).count() as u32;
            i += run as usize;
            match self.freed.get(h as usize).copied().flatten() {
                Some((index, period)) => {
                    c.extend(std::iter::repeat_n(h, fold(run, index, period) as usize));
                }
                None if h < *limit => x = q.mul(x, q.pow(phi[h as usize], run as u64)),
                None => c.extend(std::iter::repeat_n(h, run as usize)),
            }
        }
        c.extend_from_slice(&self.reps[x as usize]);
        c.sort_unstable();
    }

    /// The guessed outcome of any sum: that of its canonical form.
    fn guessed(&mut self, pos: &[u32]) -> Result<bool> {
        let mut c = Vec::new();
        self.canonical_into(pos, &mut c);
        self.is_p(&c)
    }

    fn is_p(&mut self, pos: &[u32]) -> Result<bool> {
        let Some(&top) = pos.last() else {
            return Ok(false); // no move: the player to move wins misère play
        };
        if let Some((limit, q, phi)) = &self.proven {
            if top < *limit {
                let x = q.eval(phi, pos);
                return Ok(q.p[x as usize]);
            }
        }
        if let Some((size, q, phi)) = &self.below {
            if pos.iter().map(|&h| h as u64).sum::<u64>() < *size {
                let x = q.eval(phi, pos);
                return Ok(q.p[x as usize]);
            }
        }
        let mut canon = Vec::new();
        let pos = if self.guess && !self.reps.is_empty() {
            let mut c = std::mem::take(&mut self.buf);
            self.canonical_into(pos, &mut c);
            if c[..] == pos[..] {
                self.buf = c;
                pos
            } else {
                canon = c;
                &canon[..]
            }
        } else {
            pos
        };
        if let Some(&v) = self.memo.get(pos) {
            if canon.capacity() > 0 {
                self.buf = canon; // most queries end here: keep the buffer for the next
            }
            return Ok(v);
        }
        if self.guess && !self.open.insert(pos.into()) {
            return Err(Error::Cycle(Vec::new()));
        }
        let opts = self.opts;
        let mut p = true;
        let mut next = Vec::with_capacity(pos.len() + 4);
        // Largest heaps first: moves in the new heaps leave sums the proven quotient evaluates
        // at once, so a winning move is usually found before any deep search.
        'heaps: for i in (0..pos.len()).rev() {
            if i + 1 < pos.len() && pos[i] == pos[i + 1] {
                continue;
            }
            for o in &opts[pos[i] as usize] {
                next.clear();
                next.extend_from_slice(&pos[..i]);
                next.extend_from_slice(&pos[i + 1..]);
                next.extend_from_slice(o);
                next.sort_unstable();
                let child = std::mem::take(&mut next);
                let child_p = self.is_p(&child)?;
                next = child;
                if child_p {
                    p = false;
                    break 'heaps;
                }
            }
        }
        if self.memo.len() >= MAX_MEMO {
            return Err(Error::Memory {
                requested: (self.memo.len() as u64) * 64,
                available: (MAX_MEMO as u64) * 64,
            });
        }
        if self.memo.len() % MEMO_CHUNK == MEMO_CHUNK - 1 {
            // The cap alone can outgrow a small machine (guesses with many freed heaps fill it):
            // the next chunk must still fit, so that the search ends in Error::Memory rather
            // than in the operating system's out-of-memory killer.
            crate::memory::check((MEMO_CHUNK * 128) as u64)?;
        }
        if self.guess {
            self.open.remove(pos);
        }
        self.memo.insert(pos.into(), p);
        self.searched += 1;
        if self.searched % (1 << 16) == 0 {
            self.ctl.check(self.at.0, self.at.1)?;
        }
        Ok(p)
    }
}

fn sorted(word: &[u32]) -> Vec<u32> {
    let mut v = word.to_vec();
    v.sort_unstable();
    v
}

/// `copies` folded at `index` and `period`: from `index + period` copies on, the count goes
/// round the period.
fn fold(copies: u32, index: u32, period: u32) -> u32 {
    if copies >= index + period {
        index + (copies - index) % period
    } else {
        copies
    }
}

/// A bit row over the test columns.
type Row = Vec<u64>;

fn push_bit(row: &mut Row, i: usize, b: bool) {
    if i % 64 == 0 {
        row.push(0);
    }
    if b {
        row[i / 64] |= 1 << (i % 64);
    }
}

fn bit(row: &[u64], i: usize) -> bool {
    row[i / 64] >> (i % 64) & 1 == 1
}

/// Angluin's observation table. States are access words with pairwise different rows;
/// `ext[s][a]` is the row of `s + letters[a]`.
struct Learner {
    letters: Vec<u32>,
    access: Vec<Vec<u32>>,
    tests: Vec<Vec<u32>>,
    rows: Vec<Row>,
    ext: Vec<Vec<Row>>,
    index: FxMap<Row, usize>,
}

/// A learned automaton: `delta[s * k + a]`, accepting states, letters.
struct Hypothesis {
    delta: Vec<u32>,
    accept: Vec<bool>,
    k: usize,
}

impl Hypothesis {
    fn run(&self, mut q: u32, word: &[usize]) -> u32 {
        for &a in word {
            q = self.delta[q as usize * self.k + a];
        }
        q
    }
}

impl Learner {
    fn new() -> Self {
        Learner {
            letters: Vec::new(),
            access: vec![Vec::new()],
            tests: vec![Vec::new()],
            rows: vec![vec![0]], // the empty sum is N
            ext: vec![Vec::new()],
            index: [(vec![0], 0)].into_iter().collect(),
        }
    }

    fn row(&self, oracle: &mut Oracle, word: &[u32], stats: &mut Stats) -> Result<Row> {
        let mut row = Row::new();
        let mut w = Vec::new();
        for (i, t) in self.tests.iter().enumerate() {
            w.clear();
            w.extend_from_slice(word);
            w.extend_from_slice(t);
            w.sort_unstable();
            stats.queries += 1;
            push_bit(&mut row, i, oracle.is_p(&w)?);
        }
        Ok(row)
    }

    fn add_letter(&mut self, h: u32, oracle: &mut Oracle, stats: &mut Stats) -> Result<()> {
        self.letters.push(h);
        for s in 0..self.access.len() {
            let mut w = self.access[s].clone();
            w.push(h);
            let r = self.row(oracle, &w, stats)?;
            self.ext[s].push(r);
        }
        Ok(())
    }

    fn add_test(&mut self, t: Vec<u32>, oracle: &mut Oracle, stats: &mut Stats) -> Result<()> {
        let i = self.tests.len();
        self.tests.push(t.clone());
        let mut buf: Vec<u32> = Vec::new();
        let mut query = |word: &[u32]| -> Result<bool> {
            let w = &mut buf;
            w.clear();
            w.extend_from_slice(word);
            w.extend_from_slice(&t);
            w.sort_unstable();
            stats.queries += 1;
            oracle.is_p(w)
        };
        for s in 0..self.access.len() {
            let b = query(&self.access[s])?;
            push_bit(&mut self.rows[s], i, b);
            let mut w = self.access[s].clone();
            w.push(0);
            for (a, &h) in self.letters.iter().enumerate() {
                *w.last_mut().expect("the letter's place") = h;
                let b = query(&w)?;
                push_bit(&mut self.ext[s][a], i, b);
            }
        }
        // Rows that differed still differ.
        self.index = self.rows.iter().cloned().zip(0..).collect();
        Ok(())
    }

    /// Adds states until every `s + a` has the row of some state.
    fn close(
        &mut self,
        oracle: &mut Oracle,
        stats: &mut Stats,
        ctl: &dyn Control,
        heap: u64,
        max: u64,
    ) -> Result<()> {
        let mut s = 0;
        while s < self.access.len() {
            for a in 0..self.letters.len() {
                if !self.index.contains_key(&self.ext[s][a]) {
                    ctl.check(heap, max)?;
                    let mut w = self.access[s].clone();
                    w.push(self.letters[a]);
                    let row = self.ext[s][a].clone();
                    let id = self.access.len();
                    self.index.insert(row.clone(), id);
                    self.rows.push(row);
                    let mut ext = Vec::with_capacity(self.letters.len());
                    for &h in &self.letters {
                        let mut v = w.clone();
                        v.push(h);
                        ext.push(self.row(oracle, &v, stats)?);
                    }
                    self.access.push(w);
                    self.ext.push(ext);
                }
            }
            s += 1;
        }
        Ok(())
    }

    fn hypothesis(&self) -> Hypothesis {
        let k = self.letters.len();
        let mut delta = Vec::with_capacity(self.access.len() * k);
        for s in 0..self.access.len() {
            for a in 0..k {
                delta.push(self.index[&self.ext[s][a]] as u32);
            }
        }
        Hypothesis {
            delta,
            accept: self.rows.iter().map(|r| bit(r, 0)).collect(),
            k,
        }
    }

    /// Rivest and Schapire: `word` (letter indices) is misclassified; find a split point where
    /// the answer changes and add the suffix after it as a test.
    fn counterexample(
        &mut self,
        word: &[usize],
        hyp: &Hypothesis,
        oracle: &mut Oracle,
        stats: &mut Stats,
    ) -> Result<()> {
        stats.counterexamples += 1;
        let letters = self.letters.clone();
        let mut alpha = |i: usize| -> Result<bool> {
            let q = hyp.run(0, &word[..i]);
            let mut w = self.access[q as usize].clone();
            w.extend(word[i..].iter().map(|&a| letters[a]));
            w.sort_unstable();
            stats.queries += 1;
            oracle.is_p(&w)
        };
        // The last split point, found from the end: it gives the shortest suffix, so the new test
        // (asked with every state and letter) is as small a sum as this counterexample allows.
        // alpha(len) is the hypothesis' answer and alpha(0) the truth, which differ.
        let mut next = hyp.accept[hyp.run(0, word) as usize];
        let mut hi = word.len();
        for i in (0..word.len()).rev() {
            let a = alpha(i)?;
            if a != next {
                hi = i + 1;
                break;
            }
            next = a;
        }
        let suffix: Vec<u32> = word[hi..].iter().map(|&a| letters[a]).collect();
        self.add_test(suffix, oracle, stats)
    }
}

/// A bit set over the elements of a monoid.
type Set = Box<[u64]>;

/// One heap's transition in the proof automaton: its element and the elements `q` from which
/// some option of it reaches the P-portion (`q·φ(g') ∈ P`).
#[derive(Clone, PartialEq, Eq, Hash)]
struct Letter {
    x: u32,
    wins: Set,
}

fn letter(q: &Monoid, x: u32, option_elements: &[u32]) -> Letter {
    let words = q.m.div_ceil(64);
    let mut wins = vec![0u64; words].into_boxed_slice();
    let mut opts = option_elements.to_vec();
    opts.sort_unstable();
    opts.dedup();
    for z in 0..q.m as u32 {
        if opts.iter().any(|&o| q.p[q.mul(z, o) as usize]) {
            wins[z as usize / 64] |= 1 << (z % 64);
        }
    }
    Letter { x, wins }
}

/// A failed proof: the sum (letter indices) of least total size at which the local condition
/// fails, and its size. Every smaller sum satisfies the condition, so by induction the
/// hypothesis classifies every smaller sum correctly, in particular every option of this one:
/// its true outcome is therefore "P exactly when no option maps into P".
struct Failure {
    word: Vec<usize>,
    size: u64,
    truly_p: bool,
}

/// The proof. Returns None when the hypothesis is the quotient, else the least failure.
/// `letters[i]` is the transition of a heap of size `sizes[i]`; letters with equal transitions
/// are explored once (the smallest heap stands for them). The search is Dijkstra's over the
/// pairs `(φ(X), U(X))` with the heap sizes as lengths, so the first failing pair met is reached
/// by a failing sum of least total size.
///
/// With `cap = Some((t, m))` only the sums with at most `m` copies of letter `t` are proven
/// (see [`relative`]): the search carries the count in its states and adds no copy past `m`.
/// Those sums are closed under options, so the induction holds on them.
#[allow(clippy::too_many_arguments)]
fn prove(
    q: &Monoid,
    letters: &[Letter],
    sizes: &[u32],
    cap: Option<(usize, u32)>,
    reached: &mut Vec<(u32, Set)>,
    ctl: &dyn Control,
    heap: u64,
    max: u64,
    stats: &mut Stats,
) -> Result<Option<Failure>> {
    if q.p[0] {
        return Ok(Some(Failure {
            word: Vec::new(),
            size: 0,
            truly_p: false,
        }));
    }
    let mut distinct: Vec<usize> = Vec::new();
    {
        let mut seen: FxMap<&Letter, usize> = FxMap::default();
        for (i, l) in letters.iter().enumerate() {
            if cap.is_some_and(|(t, _)| t == i) {
                distinct.push(i); // counted: never stands for another heap, nor another for it
                continue;
            }
            match seen.get(l) {
                Some(&j) if sizes[distinct[j]] <= sizes[i] => {}
                Some(&j) => distinct[j] = i,
                None => {
                    seen.insert(l, distinct.len());
                    distinct.push(i);
                }
            }
        }
    }
    let m = q.m;
    let words = m.div_ceil(64);
    // Node 0 is the empty sum; a nonempty sum reaching the same pair is a node of its own (it
    // must be checked, the empty sum need not). The third part counts the copies of the capped
    // letter (always 0 without a cap).
    let (capped, most) = cap.map_or((usize::MAX, 0), |(t, m)| (t, m));
    let mut states: Vec<(u32, Set, u32)> = vec![(0, vec![0u64; words].into_boxed_slice(), 0)];
    let mut dist: Vec<u64> = vec![0];
    let mut parent: Vec<(usize, usize)> = vec![(usize::MAX, usize::MAX)];
    let mut done: Vec<bool> = vec![false];
    let mut index: FxMap<(u32, Set, u32), usize> = FxMap::default();
    let mut buckets: Vec<Vec<usize>> = vec![vec![0]];
    // A bucket at a time: every sum of the next bucket is larger (heaps have size at least 1),
    // so the bucket's pairs are checked in order and then all moved by every letter at once, in
    // parallel, which is where the proof spends its time (|Q| work per step).
    // Bytes a state holds: its pair and the key's copy in the index (a set of `words` words
    // each), its distance, parent, flag and bucket entry.
    let state_bytes = (16 * words + 128) as u64;
    // The work of moving one state by every letter, and the states moved between two polls
    // (a bucket can hold millions of them).
    let per_state = (distinct.len() * m).max(1);
    let chunk = ((POLL_WORK as usize * 4) / per_state).max(64);
    let mut pace = Pace::new(ctl, (heap, max));
    let mut d = 0;
    while d < buckets.len() {
        let mut batch = std::mem::take(&mut buckets[d]);
        batch.reverse();
        batch.retain(|&u| !done[u] && dist[u] == d as u64);
        ctl.check(heap, max)?;
        crate::memory::check(states.len() as u64 * state_bytes)?;
        for &u in &batch {
            done[u] = true;
            if u == 0 {
                continue;
            }
            let (x, ref us, _) = states[u];
            let option_in_p = us[0] & 1 == 1; // z = 1, the identity
            if q.p[x as usize] == option_in_p {
                stats.proof_states += states.len() as u64;
                let mut w = Vec::new();
                let mut s = u;
                while parent[s].0 != usize::MAX {
                    w.push(parent[s].1);
                    s = parent[s].0;
                }
                w.reverse();
                return Ok(Some(Failure {
                    word: w,
                    size: dist[u],
                    truly_p: !option_in_p,
                }));
            }
        }
        for part in batch.chunks(chunk) {
            let moved: Vec<Option<(u32, Set, u32)>> = {
                let states = &states;
                let distinct = &distinct;
                part.par_iter()
                    .with_min_len((4096 / (m * distinct.len()).max(1)).max(1))
                    .flat_map_iter(|&u| {
                        let (x, ref us, c) = states[u];
                        distinct.iter().map(move |&li| {
                            let more = u32::from(li == capped);
                            (c + more <= most || more == 0).then(|| {
                                let (y, v) = step(q, (x, us), &letters[li]);
                                (y, v, c + more)
                            })
                        })
                    })
                    .collect()
            };
            let mut moved = moved.into_iter();
            for &u in part {
                for &li in &distinct {
                    let Some(key) = moved.next().expect("one entry per sum and letter") else {
                        continue; // a copy past the cap
                    };
                    let nd = dist[u] + sizes[li] as u64;
                    let v = match index.get(&key) {
                        Some(&v) => v,
                        None => {
                            let v = states.len();
                            index.insert(key.clone(), v);
                            states.push(key);
                            dist.push(u64::MAX);
                            parent.push((usize::MAX, usize::MAX));
                            done.push(false);
                            v
                        }
                    };
                    if nd < dist[v] {
                        dist[v] = nd;
                        parent[v] = (u, li);
                        if buckets.len() <= nd as usize {
                            buckets.resize(nd as usize + 1, Vec::new());
                        }
                        buckets[nd as usize].push(v);
                    }
                }
            }
            if pace.tick((part.len() * per_state) as u64)? {
                // As many states again must fit: the vectors double as they grow.
                crate::memory::check(states.len() as u64 * state_bytes)?;
            }
        }
        d += 1;
    }
    stats.proof_states += states.len() as u64;
    *reached = states.into_iter().map(|(x, u, _)| (x, u)).collect();
    Ok(None)
}

/// One step of the proof automaton: the pair of `X + g` from the pair of `X`.
fn step(q: &Monoid, (x, u): (u32, &[u64]), l: &Letter) -> (u32, Set) {
    let m = q.m;
    let mut nu = vec![0u64; m.div_ceil(64)].into_boxed_slice();
    let row_g = &q.mul[l.x as usize * m..(l.x as usize + 1) * m];
    let row_x = &q.mul[x as usize * m..(x as usize + 1) * m];
    // Branch-free, 64 elements to a word: the bits are as good as random.
    for ((word, gs), xs) in nu.iter_mut().zip(row_g.chunks(64)).zip(row_x.chunks(64)) {
        let mut w = 0u64;
        for (i, (&a, &b)) in gs.iter().zip(xs).enumerate() {
            let (a, b) = (a as usize, b as usize);
            let bit = (u[a / 64] >> (a % 64)) | (l.wins[b / 64] >> (b % 64));
            w |= (bit & 1) << i;
        }
        *word = w;
    }
    (q.mul(x, l.x), nu)
}

/// The proof with one more letter, from the pairs a proof without it reached (`reached`, which
/// holds the empty sum's pair first): only pairs new with the letter are explored and checked.
/// Returns whether it passes; on success `reached` gains the new pairs.
fn extend_proof(
    q: &Monoid,
    letters: &[Letter],
    new: &Letter,
    reached: &mut Vec<(u32, Set)>,
    ctl: &dyn Control,
    at: (u64, u64),
) -> Result<bool> {
    // Each pair is held twice (in `reached` or `fresh`, and as the index's key).
    let pair_bytes = (16 * q.m.div_ceil(64) + 96) as u64;
    crate::memory::check(reached.len() as u64 * pair_bytes)?;
    let mut pace = Pace::new(ctl, at);
    let mut index: FxMap<(u32, Set), ()> =
        reached.iter().skip(1).map(|s| (s.clone(), ())).collect();
    let empty = &reached[0];
    let ok = |t: &(u32, Set)| {
        // A nonempty sum at the empty sum's pair fails: it would be N with no option in P.
        t != empty && q.p[t.0 as usize] != (t.1[0] & 1 == 1)
    };
    let mut fresh: Vec<(u32, Set)> = Vec::new();
    for s in reached.iter() {
        pace.tick(q.m as u64)?;
        let t = step(q, (s.0, &s.1), new);
        if !index.contains_key(&t) {
            if !ok(&t) {
                return Ok(false);
            }
            index.insert(t.clone(), ());
            fresh.push(t);
        }
    }
    let mut head = 0;
    while head < fresh.len() {
        if pace.tick(((letters.len() + 1) * q.m) as u64)? {
            // As many new pairs again must fit: `fresh` and the index double as they grow.
            crate::memory::check(fresh.len() as u64 * pair_bytes)?;
        }
        let u = fresh[head].clone();
        for l in letters.iter().chain(std::iter::once(new)) {
            let t = step(q, (u.0, &u.1), l);
            if !index.contains_key(&t) {
                if !ok(&t) {
                    return Ok(false);
                }
                index.insert(t.clone(), ());
                fresh.push(t);
            }
        }
        head += 1;
    }
    reached.extend(fresh);
    Ok(true)
}

/// For each element of `q`, the least sum (by total size) of heaps that are not `freed` and
/// map to it, found by Dijkstra's search over the elements; an element no such sum reaches gets
/// an empty list (never asked for: the canonical forms only ask for elements of such sums).
fn representatives(
    q: &Monoid,
    phi: &[u32],
    opts: &[Vec<Vec<u32>>],
    freed: &[Option<(u32, u32)>],
) -> Vec<Vec<u32>> {
    // The smallest heap of each element among the heaps that may stand in a representative.
    let mut gens: Vec<u32> = Vec::new();
    let mut seen = vec![false; q.m];
    for (h, &x) in phi.iter().enumerate() {
        if !opts[h].is_empty() && freed[h].is_none() && !seen[x as usize] {
            seen[x as usize] = true;
            gens.push(h as u32);
        }
    }
    let mut dist = vec![u64::MAX; q.m];
    let mut parent = vec![(0u32, 0u32); q.m];
    dist[0] = 0;
    let mut heap = std::collections::BinaryHeap::new();
    heap.push(std::cmp::Reverse((0u64, 0u32)));
    while let Some(std::cmp::Reverse((d, x))) = heap.pop() {
        if d != dist[x as usize] {
            continue;
        }
        for &g in &gens {
            let y = q.mul(x, phi[g as usize]);
            let nd = d + g as u64;
            if nd < dist[y as usize] {
                dist[y as usize] = nd;
                parent[y as usize] = (x, g);
                heap.push(std::cmp::Reverse((nd, y)));
            }
        }
    }
    (0..q.m)
        .map(|x| {
            let mut w = Vec::new();
            let mut y = x;
            while y != 0 && dist[y] != u64::MAX {
                let (p, g) = parent[y];
                w.push(g);
                y = p as usize;
            }
            w.sort_unstable();
            w
        })
        .collect()
}

/// The multiplication table of the monoid of a minimal commutative automaton with `m` states
/// and `k` moves (`delta[s * k + a]`), state 0 the empty sum. `order` lists the states, 0 first,
/// each after its `parent` (the state and move of a shortest word reaching it): column `b` of
/// the table is column `parent(b)` moved by that move, so the table costs `m²` steps.
/// `pace` is ticked for every column (`m²` can be billions of steps).
fn table_by_columns(
    m: usize,
    k: usize,
    delta: &[u32],
    order: &[usize],
    parent: &[(usize, usize)],
    pace: &mut Pace,
) -> Result<Vec<u32>> {
    let mut mul = vec![0u32; m * m];
    for &b in order {
        pace.tick(m as u64)?;
        let (pb, a) = parent[b];
        for x in 0..m {
            mul[x * m + b] = if b == 0 {
                x as u32
            } else {
                delta[mul[x * m + pb] as usize * k + a]
            };
        }
    }
    Ok(mul)
}

/// The subsets of `items` with `k` elements, in lexicographic order.
fn combinations(items: &[u32], k: usize) -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    let mut idx: Vec<usize> = (0..k).collect();
    if k == 0 || k > items.len() {
        return out;
    }
    loop {
        out.push(idx.iter().map(|&i| items[i]).collect());
        let Some(i) = (0..k).rev().find(|&i| idx[i] != i + items.len() - k) else {
            return out;
        };
        idx[i] += 1;
        for j in i + 1..k {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

/// The quotient proven for the heaps placed so far, and what placing the next one needs.
struct Proven {
    q: Monoid,
    /// The element of each heap placed.
    phi: Vec<u32>,
    /// The transitions of the heaps placed, keyed by their win sets (for reuse).
    by_wins: FxMap<Set, u32>,
    /// The distinct transitions of the heaps placed (the proof automaton's letters).
    letters: Vec<Letter>,
    /// The pairs (φ(X), U(X)) the last successful proof reached.
    reached: Vec<(u32, Set)>,
    /// `(heap, order)` each time the order changed.
    growth: Vec<(u32, usize)>,
}

impl Proven {
    /// Nothing placed yet: the trivial monoid, whose proof has reached the empty sum only.
    fn new(heaps: usize) -> Self {
        Proven {
            q: Monoid {
                m: 1,
                mul: vec![0],
                p: vec![false],
            },
            phi: Vec::with_capacity(heaps),
            by_wins: FxMap::default(),
            letters: Vec::new(),
            reached: vec![(0, vec![0u64; 1].into_boxed_slice())],
            growth: Vec::new(),
        }
    }
}

struct Builder<'a> {
    opts: &'a [Vec<Vec<u32>>],
    ctl: &'a dyn Control,
    oracle: Oracle<'a>,
    learner: Learner,
    /// Heaps with a move not yet given to the learner (placed by reuse).
    pending: Vec<u32>,
    /// The pairs the last proof of a learned quotient reached.
    reached: Vec<(u32, Set)>,
    stats: Stats,
    /// Refuted guesses tried again per learning step before the exact search.
    max_refinements: u32,
    /// Heaps not yet given to the learner, because their steps were guessed.
    unlearned: Vec<u32>,
    /// The most elements a guess or a hypothesis may have ([`Limits::max_order`]).
    max_order: usize,
}

impl<'a> Builder<'a> {
    fn new(opts: &'a [Vec<Vec<u32>>], ctl: &'a dyn Control) -> Self {
        Builder {
            opts,
            ctl,
            oracle: Oracle {
                opts,
                memo: FxMap::default(),
                proven: None,
                below: None,
                searched: 0,
                ctl,
                at: (0, opts.len() as u64),
                base: None,
                reps: Vec::new(),
                freed: Vec::new(),
                guess: false,
                buf: Vec::new(),
                open: FxSet::default(),
            },
            learner: Learner::new(),
            pending: Vec::new(),
            reached: Vec::new(),
            stats: Stats::default(),
            max_refinements: MAX_REFINEMENTS,
            unlearned: Vec::new(),
            max_order: usize::MAX,
        }
    }

    fn option_elements(q: &Monoid, phi: &[u32], opts: &[Vec<u32>]) -> Vec<u32> {
        opts.iter().map(|o| q.eval(phi, o)).collect()
    }

    fn run(mut self) -> std::result::Result<Quotient, Box<Stopped>> {
        let mut st = Proven::new(self.opts.len());
        for n in 0..self.opts.len() {
            if let Err(error) = self.place(n, &mut st) {
                // Every heap below n is placed and proven in `st`.
                let proven = (n > 0).then(|| self.finish(st, n));
                return Err(Box::new(Stopped { error, proven }));
            }
        }
        let n = self.opts.len();
        Ok(self.finish(st, n))
    }

    /// The quotient of heaps `0..n` from the proven state.
    fn finish(&mut self, st: Proven, n: usize) -> Quotient {
        self.stats.searched = self.oracle.searched;
        let mut phi = st.phi;
        phi.truncate(n);
        let words = representatives(&st.q, &phi, &self.opts[..n], &vec![None; n]);
        Quotient {
            monoid: st.q,
            pretending: phi,
            words,
            growth: st.growth,
            stats: self.stats,
        }
    }

    /// Places heap `n`: the proven state for heaps `< n` becomes the one for heaps `≤ n`, or
    /// is left as it was on an error.
    fn place(&mut self, n: usize, st: &mut Proven) -> Result<()> {
        let max = self.opts.len().saturating_sub(1) as u64;
        self.ctl.check(n as u64, max + 1)?;
        let Proven {
            q,
            phi,
            by_wins,
            letters,
            reached,
            growth,
        } = st;
        // After heap n - 1 is placed, the proven quotient evaluates every sum of heaps < n.
        if let Some((limit, _, proven_phi)) = &mut self.oracle.proven {
            *limit = n as u32;
            proven_phi.clone_from(phi);
        }
        if self.opts[n].is_empty() {
            phi.push(0);
            return Ok(());
        }
        let elems = Self::option_elements(q, phi, &self.opts[n]);
        let mut l = letter(q, 0, &elems);
        if let Some(&x) = by_wins.get(&l.wins) {
            // Same transition as an earlier heap: the proof automaton is unchanged.
            phi.push(x);
            self.pending.push(n as u32);
            self.stats.reused += 1;
            return Ok(());
        }
        // If the quotient does not grow, heap n is some element x of it, and the proof with
        // its transition passes for that x alone (the quotient is reduced). A heap is P alone
        // exactly when none of its options is, which rules out half the candidates.
        // Adding heap n to a sum X with pair (y, U) gives the pair (y·x, U' ) where U'(1) is
        // U(x) or "some option of n wins from y": the first step of the proof, checked on
        // every pair the last proof reached, rules out almost every wrong x at once.
        let one_step = |x: u32| {
            reached.iter().all(|(y, u)| {
                let b = l.wins[*y as usize / 64] >> (*y % 64) & 1 == 1;
                let a = u[x as usize / 64] >> (x % 64) & 1 == 1;
                q.p[q.mul(*y, x) as usize] != (a || b)
            })
        };
        // Each candidate's first step looks at every pair reached (millions, for a large
        // quotient), and each extended proof starts from a copy of them.
        let mut pace = Pace::new(self.ctl, (n as u64, max + 1));
        let mut candidates: Vec<u32> = Vec::new();
        for x in 0..q.m as u32 {
            pace.tick(reached.len() as u64)?;
            if one_step(x) {
                candidates.push(x);
            }
        }
        let words = q.m.div_ceil(64);
        for x in candidates {
            l.x = x;
            crate::memory::check((reached.len() * (8 * words + 48)) as u64)?;
            let mut now = reached.clone();
            let at = (n as u64, max + 1);
            if extend_proof(q, letters, &l, &mut now, self.ctl, at)? {
                self.stats.proof_states += (now.len() - reached.len()) as u64;
                *reached = now;
                phi.push(x);
                by_wins.insert(l.wins.clone(), x);
                letters.push(l);
                self.pending.push(n as u32);
                self.stats.placed += 1;
                return Ok(());
            }
        }
        self.pending.push(n as u32);
        self.oracle.at = (n as u64, max + 1);
        let (nq, nphi) = self.learn(n as u64, max)?;
        if nq.m != q.m {
            growth.push((n as u32, nq.m));
        }
        *q = nq;
        *phi = nphi;
        *reached = std::mem::take(&mut self.reached);
        by_wins.clear();
        letters.clear();
        let mut pace = Pace::new(self.ctl, (n as u64, max + 1));
        for h in 0..=n {
            if !self.opts[h].is_empty() {
                pace.tick((q.m * (self.opts[h].len() + 1)) as u64)?;
                let elems = Self::option_elements(q, phi, &self.opts[h]);
                let l = letter(q, phi[h], &elems);
                if by_wins.insert(l.wins.clone(), phi[h]).is_none() {
                    letters.push(l);
                }
            }
        }
        self.oracle.memo = FxMap::default();
        self.oracle.proven = Some((n as u32 + 1, q.clone(), phi.clone()));
        Ok(())
    }

    /// Learns and proves the quotient of the heaps given to the learner so far (plus the
    /// pending ones). Returns the monoid (element 0 the identity) and the pretending function
    /// of heaps `0..=n`.
    fn learn(&mut self, n: u64, max: u64) -> Result<(Monoid, Vec<u32>)> {
        let pending = std::mem::take(&mut self.pending);
        if let Some(proven) = self.oracle.proven.clone() {
            // First with guessed outcomes (see `Oracle::guess`): the proof decides. A guess it
            // refutes at a sum is tried again on the refuted hypothesis, with some heaps of that
            // sum freed (see `refine`). After a few refutations, only the exact search is left.
            self.oracle.base = Some(proven);
            // The new heap is folded from the start: its copies, like a freed heap's, are a guess.
            self.oracle.freed = vec![None; n as usize + 1];
            self.oracle.freed[n as usize] = Some((2, 2));
            self.oracle.reps = self.representatives();
            self.oracle.guess = true;
            let mut rounds = 0;
            let r = loop {
                self.oracle.memo = FxMap::default();
                self.oracle.open.clear();
                let (q, phi) = match self.guessed_automaton(n as u32) {
                    Ok(Some(h)) => h,
                    Ok(None) | Err(Error::Memory { .. } | Error::Cycle(_)) => break Ok(None),
                    Err(e) => break Err(e),
                };
                if q.m > self.max_order {
                    break Err(self.over_order(n, q.m, false));
                }
                let sizes: Vec<u32> = (0..=n as u32)
                    .filter(|&h| !self.opts[h as usize].is_empty())
                    .collect();
                let failure = self.prove_on(&q, &phi, &sizes, n, max);
                match failure {
                    Ok(None) => break Ok(Some((q, phi))),
                    Ok(Some(f)) => {
                        rounds += 1;
                        if rounds > self.max_refinements {
                            break Ok(None);
                        }
                        let heaps = sorted(&f.word.iter().map(|&i| sizes[i]).collect::<Vec<_>>());
                        self.oracle.base = Some((n as u32 + 1, q, phi));
                        match self.refine(&heaps, f.truly_p) {
                            Ok(()) => self.stats.refinements += 1,
                            Err(Error::Memory { .. } | Error::Cycle(_)) => break Ok(None),
                            Err(e) => break Err(e),
                        }
                    }
                    Err(Error::Memory { .. }) => break Ok(None),
                    Err(e) => break Err(e),
                }
            };
            self.oracle.guess = false;
            self.oracle.open.clear();
            self.oracle.memo = FxMap::default();
            self.oracle.base = None;
            self.oracle.freed.clear();
            self.oracle.reps.clear();
            match r? {
                Some(found) => {
                    self.stats.guessed += 1;
                    // The learner's table stays as it was: its letters wait for the next
                    // exact step.
                    self.unlearned.extend(pending);
                    return Ok(found);
                }
                None => self.stats.guesses_wrong += 1,
            }
        }
        let mut letters = std::mem::take(&mut self.unlearned);
        letters.extend(pending);
        self.learn_with(&letters, n, max)
    }

    /// The guessed outcomes as an automaton, minimised: its states are the canonical forms
    /// (the base's element of the part not freed, and the folded copies of each freed heap),
    /// each heap moves them as it multiplies or counts, and a state accepts when the outcome
    /// search (in guess mode) finds its canonical sum a P-position. This is what L* would learn
    /// from the guessed outcomes, built directly (as MisereSolver marks the P-portion of its
    /// trial monoid and reduces it). Returns the monoid and the pretending function of heaps
    /// `0..=n`, or None when the freed heaps are too many to count in a key or make too many
    /// states.
    fn guessed_automaton(&mut self, n: u32) -> Result<Option<(Monoid, Vec<u32>)>> {
        // Borrowed, not cloned: the base can be a refuted guess with a table of gigabytes.
        let base = self.oracle.base.as_ref().expect("a base to guess on");
        let (limit, bq, bphi) = (base.0, &base.1, &base.2);
        // The freed heaps, each with 8 bits of the state's key for its folded copies.
        let freed: Vec<(u32, u32, u32)> = (0..self.oracle.freed.len() as u32)
            .filter_map(|h| self.oracle.freed[h as usize].map(|(i, p)| (h, i, p)))
            .collect();
        if freed.len() > 16 || freed.iter().any(|&(_, i, p)| i + p > 255) {
            return Ok(None);
        }
        // The moves of the heaps: multiply by an element, or count one more copy of freed heap
        // `j`. Heaps with the same move share it.
        #[derive(Clone, Copy, PartialEq, Eq, Hash)]
        enum Move {
            Mul(u32),
            Count(usize),
        }
        let mut moves: Vec<Move> = Vec::new();
        let mut move_of = vec![usize::MAX; n as usize + 1];
        {
            let mut seen: FxMap<Move, usize> = FxMap::default();
            for h in 1..=n {
                if self.opts[h as usize].is_empty() {
                    continue;
                }
                let mv = match freed.iter().position(|f| f.0 == h) {
                    Some(j) => Move::Count(j),
                    None if h < limit => Move::Mul(bphi[h as usize]),
                    None => return Ok(None),
                };
                move_of[h as usize] = *seen.entry(mv).or_insert_with(|| {
                    moves.push(mv);
                    moves.len() - 1
                });
            }
        }
        let k = moves.len();
        // Breadth-first over the reachable states.
        let mut states: Vec<(u32, u128)> = vec![(0, 0)];
        let mut index: FxMap<(u32, u128), u32> = FxMap::default();
        index.insert((0, 0), 0);
        let mut delta: Vec<u32> = Vec::new();
        let mut pace = Pace::new(self.ctl, (n as u64, self.opts.len() as u64));
        let mut head = 0;
        while head < states.len() {
            if states.len() > MAX_GUESS_STATES {
                return Ok(None); // too many freed heaps: the exact search instead
            }
            if head == 0 || pace.tick(8 * k as u64 + 8)? {
                // As many states again must fit: the vectors and the index double.
                crate::memory::check((states.len() * (k * 4 + 48)) as u64)?;
            }
            let (x, counts) = states[head];
            for mv in &moves {
                let next = match *mv {
                    Move::Mul(g) => (bq.mul(x, g), counts),
                    Move::Count(j) => {
                        let (_, i, p) = freed[j];
                        let c = (counts >> (8 * j)) as u32 & 0xff;
                        let c2 = fold(c + 1, i, p) as u128;
                        (x, counts & !(0xff << (8 * j)) | c2 << (8 * j))
                    }
                };
                let id = *index.entry(next).or_insert_with(|| {
                    states.push(next);
                    states.len() as u32 - 1
                });
                delta.push(id);
            }
            head += 1;
        }
        drop(index);
        // The guessed outcome of each state's canonical sum.
        let mut accept = Vec::with_capacity(states.len());
        let mut sum = Vec::new();
        for &(x, counts) in &states {
            // Most sums are answered from the memo, which the search's own polls do not see.
            pace.tick(64)?;
            sum.clear();
            sum.extend_from_slice(&self.oracle.reps[x as usize]);
            for (j, &(h, _, _)) in freed.iter().enumerate() {
                let c = (counts >> (8 * j)) as usize & 0xff;
                sum.extend(std::iter::repeat_n(h, c));
            }
            sum.sort_unstable();
            accept.push(self.oracle.is_p(&sum)?);
        }
        let (class, count) = minimise(&accept, &delta, k, &mut pace)?;
        // The monoid of the minimal automaton: each class has an access word (breadth-first
        // from the empty sum), and column b of the table is column parent(b) moved by b's last
        // move.
        let m = count;
        crate::memory::check((m * m * 4 + m * k * 4) as u64)?;
        let mut rep = vec![u32::MAX; m];
        for (s, &c) in class.iter().enumerate() {
            if rep[c as usize] == u32::MAX {
                rep[c as usize] = s as u32;
            }
        }
        let dc: Vec<u32> = (0..m)
            .flat_map(|c| {
                let s = rep[c] as usize;
                delta[s * k..(s + 1) * k].iter().map(|&t| class[t as usize])
            })
            .collect();
        let mut order = vec![0usize];
        let mut parent = vec![(usize::MAX, usize::MAX); m];
        parent[0] = (0, 0);
        let mut head = 0;
        while head < order.len() {
            let c = order[head];
            for a in 0..k {
                let t = dc[c * k + a] as usize;
                if parent[t].0 == usize::MAX {
                    parent[t] = (c, a);
                    order.push(t);
                }
            }
            head += 1;
        }
        let mul = table_by_columns(m, k, &dc, &order, &parent, &mut pace)?;
        let p: Vec<bool> = (0..m).map(|c| accept[rep[c] as usize]).collect();
        let mut phi = vec![0u32; n as usize + 1];
        for h in 0..=n as usize {
            if move_of[h] != usize::MAX {
                phi[h] = dc[move_of[h]];
            }
        }
        Ok(Some((Monoid { m, mul, p }, phi)))
    }

    /// The proof of `(q, phi)` with the heaps `sizes` as its letters (see [`prove`]).
    fn prove_on(
        &mut self,
        q: &Monoid,
        phi: &[u32],
        sizes: &[u32],
        n: u64,
        max: u64,
    ) -> Result<Option<Failure>> {
        let letters: Vec<Letter> = sizes
            .iter()
            .map(|&h| {
                let elems = Self::option_elements(q, phi, &self.opts[h as usize]);
                letter(q, phi[h as usize], &elems)
            })
            .collect();
        let reached = &mut self.reached;
        prove(
            q,
            &letters,
            sizes,
            None,
            reached,
            self.ctl,
            n,
            max + 1,
            &mut self.stats,
        )
    }

    /// The representatives of the base's elements with the freed heaps left out.
    fn representatives(&self) -> Vec<Vec<u32>> {
        let (_, q, phi) = self.oracle.base.as_ref().expect("a base to guess on");
        representatives(q, phi, self.opts, &self.oracle.freed)
    }

    /// After a guess failed at the sum `heaps` (whose true outcome is `truly_p`), and the base
    /// became the refuted hypothesis: frees the fewest heaps of that sum that make the guessed
    /// search agree with the truth there (trying one, two, then three heaps, larger heaps
    /// first), else all of them.
    /// A freed heap is folded at its element's index and period in the base (the period made
    /// even), the index raised to its copies in `heaps`.
    fn refine(&mut self, heaps: &[u32], truly_p: bool) -> Result<()> {
        // Borrowed, not cloned: the base is the refuted guess, whose table can be gigabytes.
        let (_, q, phi) = self.oracle.base.as_ref().expect("a base to guess on");
        let m = q.m;
        self.oracle.freed.iter_mut().for_each(|f| *f = None);
        // Each candidate: the heap and the folding it would get.
        let mut candidates: Vec<(u32, (u32, u32))> = Vec::new();
        let mut i = 0;
        while i < heaps.len() {
            let h = heaps[i];
            let copies = heaps[i..].iter().take_while(|&&g| g == h).count() as u32;
            i += copies as usize;
            if !self.opts[h as usize].is_empty() {
                let (index, period) = q.index_period(phi[h as usize]);
                let period = if period % 2 == 1 { 2 * period } else { period };
                candidates.push((h, (index.max(copies), period)));
            }
        }
        // Largest heaps first: the newest classes are the likeliest to split (at heap 33 of
        // Dawson's Kayles this takes 55 refutations where smallest first takes 69).
        candidates.reverse();
        let ids: Vec<u32> = (0..candidates.len() as u32).collect();
        let mut chosen: Option<Vec<u32>> = None;
        let mut pace = Pace::new(self.ctl, self.oracle.at);
        'sizes: for k in 1..=candidates.len().min(3) {
            for subset in combinations(&ids, k) {
                // Each subset finds representatives anew (a search over the base's elements).
                pace.tick(64 * m as u64)?;
                for &j in &subset {
                    let (h, f) = candidates[j as usize];
                    self.oracle.freed[h as usize] = Some(f);
                }
                self.oracle.reps = self.representatives();
                self.oracle.memo = FxMap::default();
                self.oracle.open.clear();
                let agrees = match self.oracle.guessed(heaps) {
                    Ok(p) => p == truly_p,
                    Err(Error::Cycle(_)) => false,
                    Err(e) => return Err(e),
                };
                for &j in &subset {
                    self.oracle.freed[candidates[j as usize].0 as usize] = None;
                }
                if agrees {
                    chosen = Some(subset);
                    break 'sizes;
                }
            }
        }
        for j in chosen.unwrap_or(ids) {
            let (h, f) = candidates[j as usize];
            self.oracle.freed[h as usize] = Some(f);
        }
        self.oracle.reps = self.representatives();
        Ok(())
    }

    /// Learning with the heaps `pending` added as letters, on exact outcomes, until a proof
    /// passes.
    fn learn_with(&mut self, pending: &[u32], n: u64, max: u64) -> Result<(Monoid, Vec<u32>)> {
        for &h in pending {
            self.learner
                .add_letter(h, &mut self.oracle, &mut self.stats)?;
        }
        loop {
            self.learner
                .close(&mut self.oracle, &mut self.stats, self.ctl, n, max + 1)?;
            let hyp = self.learner.hypothesis();
            let m = self.learner.access.len();
            if m > self.max_order {
                return Err(self.over_order(n, m, true));
            }
            let k = hyp.k;
            let mut pace = Pace::new(self.ctl, (n, max + 1));
            // Commutativity: a counterexample is whichever order the hypothesis gets wrong.
            let mut cex: Option<Vec<usize>> = None;
            'comm: for s in 0..m {
                pace.tick((k * k) as u64 + 1)?;
                for a in 0..k {
                    for b in a + 1..k {
                        let ab = hyp.run(s as u32, &[a, b]);
                        let ba = hyp.run(s as u32, &[b, a]);
                        if ab != ba {
                            cex = Some(self.order_counterexample(&hyp, s, a, b)?);
                            break 'comm;
                        }
                    }
                }
            }
            if let Some(w) = cex {
                self.learner
                    .counterexample(&w, &hyp, &mut self.oracle, &mut self.stats)?;
                continue;
            }
            // The monoid: q·r = the state reached from q along r's access word.
            let letter_of: FxMap<u32, usize> = self
                .learner
                .letters
                .iter()
                .enumerate()
                .map(|(i, &h)| (h, i))
                .collect();
            // Each access word but the empty one is an earlier access word and one letter (as
            // `close` builds them, so in index order).
            let position: FxMap<&[u32], usize> = self
                .learner
                .access
                .iter()
                .enumerate()
                .map(|(i, w)| (&w[..], i))
                .collect();
            let parent: Vec<(usize, usize)> = self
                .learner
                .access
                .iter()
                .map(|w| match w.split_last() {
                    Some((last, init)) => (position[init], letter_of[last]),
                    None => (0, 0),
                })
                .collect();
            crate::memory::check((m * m * 4) as u64)?;
            let order: Vec<usize> = (0..m).collect();
            let mul = table_by_columns(m, k, &hyp.delta, &order, &parent, &mut pace)?;
            let q = Monoid {
                m,
                mul,
                p: hyp.accept.clone(),
            };
            let mut phi = vec![0u32; n as usize + 1];
            for (i, &h) in self.learner.letters.iter().enumerate() {
                phi[h as usize] = hyp.delta[i];
            }
            let sizes: Vec<u32> = self.learner.letters.clone();
            match self.prove_on(&q, &phi, &sizes, n, max)? {
                None => {
                    self.oracle.below = None;
                    return Ok((q, phi));
                }
                Some(f) => {
                    let heaps = sorted(
                        &f.word
                            .iter()
                            .map(|&i| self.learner.letters[i])
                            .collect::<Vec<_>>(),
                    );
                    self.oracle.memo.insert(heaps.into(), f.truly_p);
                    if self.oracle.below.as_ref().is_none_or(|b| b.0 < f.size) {
                        self.oracle.below = Some((f.size, q, phi));
                    }
                    // Largest heaps first: the suffix that becomes a test then holds small heaps.
                    let mut word = f.word;
                    let letters = &self.learner.letters;
                    word.sort_unstable_by_key(|&i| std::cmp::Reverse(letters[i]));
                    self.learner
                        .counterexample(&word, &hyp, &mut self.oracle, &mut self.stats)?;
                }
            }
        }
    }

    /// The error of a build stopped at heap `n` by a quotient of `m` elements, more than
    /// `max_order`: a hypothesis of the learner (`proven`: its elements are told apart by
    /// sums, so the quotient has at least `m`) or a guess (which may be larger than the truth).
    fn over_order(&self, n: u64, m: usize, proven: bool) -> Error {
        let max = self.max_order;
        let message = if proven {
            format!(
                "the misère quotient of heaps up to {n} has more than max_order = {max} \
                 elements ({m} sums, no two alike, are found)"
            )
        } else {
            format!(
                "a trial quotient for heaps up to {n} has {m} elements, more than max_order = \
                 {max} (a guess: the true quotient may be smaller)"
            )
        };
        Error::SearchLimit {
            message,
            limit: max as u64,
        }
    }

    /// `s + a + b` and `s + b + a` reach different states; the true outcome of the sum after
    /// a test that separates them shows which order is wrong.
    fn order_counterexample(
        &mut self,
        hyp: &Hypothesis,
        s: usize,
        a: usize,
        b: usize,
    ) -> Result<Vec<usize>> {
        let l = &self.learner;
        let letter_of: FxMap<u32, usize> =
            l.letters.iter().enumerate().map(|(i, &h)| (h, i)).collect();
        let r1 = hyp.run(s as u32, &[a, b]) as usize;
        let r2 = hyp.run(s as u32, &[b, a]) as usize;
        let col = (0..l.tests.len())
            .find(|&i| bit(&l.rows[r1], i) != bit(&l.rows[r2], i))
            .expect("states have different rows");
        let base: Vec<usize> = l.access[s].iter().map(|h| letter_of[h]).collect();
        let test: Vec<usize> = l.tests[col].iter().map(|h| letter_of[h]).collect();
        let mut w1 = base.clone();
        w1.extend([a, b]);
        w1.extend(&test);
        let mut w2 = base;
        w2.extend([b, a]);
        w2.extend(&test);
        let truth = {
            let mut heaps: Vec<u32> = w1.iter().map(|&i| l.letters[i]).collect();
            heaps.sort_unstable();
            self.stats.queries += 1;
            self.oracle.is_p(&heaps)?
        };
        let h1 = hyp.accept[hyp.run(0, &w1) as usize];
        Ok(if h1 != truth { w1 } else { w2 })
    }
}

#[cfg(test)]
mod tests;
