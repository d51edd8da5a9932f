//! Lower bounds where a quotient is out of reach: the sums with at most `m` copies of the new
//! heap.
//!
//! When the quotient explodes at heap `t` (Dawson's Kayles at heap 34), the build of
//! [`Quotient`] does not finish, and says nothing about how large the quotient is. This module
//! gives proven lower bounds instead. Fix `m` and consider only the sums with at most `m` copies
//! of heap `t`. That set is closed under options (a move never adds a copy), so the induction of
//! the proof (module notes of [`super`]) still holds on it when the proof automaton carries the
//! count of copies and never adds one past `m`. The guesses and their refinement are those of a
//! learning step, with heap `t` counted exactly up to `m + 1` copies.
//!
//! Once a guess is proven on the restricted set, its automaton over pairs (element, copies),
//! with a sink past `m` copies, is minimised. Two states with the same count `c` in different
//! classes are two sums with `c` copies of heap `t` that a sum with at most `m - c` copies tells
//! apart. Those are genuine sums, so the two lie in different classes of the full quotient of
//! heaps up to `t`. The number of classes at each count is therefore a lower bound on its
//! order, proven, whatever happens past `m` copies. For a finite quotient the bounds stop
//! growing with `m`; steady growth is evidence (not proof) that it is infinite.

use super::*;

/// Proven lower bounds on the order of the quotient of the heaps up to `heap`, from the sums
/// with at most `copies` copies of it ([`relative_bounds`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RelativeBounds {
    /// The new heap `t`.
    pub heap: u32,
    /// The most copies of it in the sums considered.
    pub copies: u32,
    /// The order of the quotient of the heaps below `heap`.
    pub below: usize,
    /// For each count `c` in `0..=copies`: the classes of the sums with `c` copies that the
    /// sums with at most `copies` copies tell apart. Each is a lower bound on the order.
    pub classes: Vec<usize>,
    /// Guesses refuted before one was proven.
    pub refutations: u32,
    /// Pairs the last (successful) proof visited.
    pub proof_states: usize,
}

impl RelativeBounds {
    /// The best of the bounds: the order of the quotient of heaps up to `heap` is at least this.
    pub fn lower_bound(&self) -> usize {
        self.classes.iter().copied().max().unwrap_or(0)
    }
}

/// Guesses refuted before [`relative_bounds`] gives up.
const MAX_ROUNDS: u32 = 500;

/// Proven lower bounds on the order of the misère quotient of all sums of heaps
/// `0..opts.len()`, from the sums with at most `copies` copies of the largest heap (see the
/// module notes). `opts` are option lists as for [`Quotient::compute`].
///
/// ```
/// use grundy::control::NoControl;
/// use grundy::misere_quotient::relative_bounds;
/// use grundy::position::MisereGame;
/// use grundy::rules::Rule;
/// // Kayles has 32 elements for heaps up to 26 and 40 from heap 27: the sums with copies of
/// // heap 27 fall into 8 new classes. (Heap 27 alone has Grundy value 8, more than any smaller
/// // heap, so a sum with one copy and no other is an N-position whatever else it holds.)
/// let kayles = Rule::TakeAndBreak("0.77".parse().unwrap());
/// let opts = MisereGame::Rule(&kayles).option_lists(27, &NoControl).unwrap();
/// let b = relative_bounds(&opts, 1, &NoControl).unwrap();
/// assert_eq!((b.below, b.classes.clone()), (32, vec![32, 1]));
/// let b = relative_bounds(&opts, 2, &NoControl).unwrap();
/// assert_eq!((b.classes.clone(), b.lower_bound()), (vec![32, 8, 8], 32));
/// ```
///
/// # Errors
/// [`Error::Invalid`] for bad option lists, a largest heap with no move, or more than 253
/// copies;
/// [`Error::SearchLimit`] when no guess is proven within 500 refutations or one cannot be
/// built; [`Error::Memory`] when the search or the proof outgrows memory; the error of `ctl`.
pub fn relative_bounds(
    opts: &[Vec<Vec<u32>>],
    copies: u32,
    ctl: &dyn Control,
) -> Result<RelativeBounds> {
    // A guess keeps the copies of the new heap exact up to copies + 1 in 8 bits of a key.
    if copies > 253 {
        return Err(Error::Invalid(format!(
            "copies must be at most 253, got {copies}"
        )));
    }
    let live = live_options(opts)?;
    let t = live.len().saturating_sub(1);
    if live.get(t).is_none_or(|o| o.is_empty()) {
        return Err(Error::Invalid(format!(
            "heap {t} has no move: it adds nothing to bound"
        )));
    }
    Builder::new(&live, ctl).relative(t, copies)
}

/// The classes, per copy count `c ≤ m`, of the minimal automaton over the pairs (element, `c`)
/// reachable from the empty sum, with a sink past `m` copies. Letters are the elements `gens`
/// of the smaller heaps and `t`, the element of the new heap.
fn classes_per_count(
    q: &Monoid,
    gens: &[u32],
    t: u32,
    m: u32,
    ctl: &dyn Control,
    heap: u64,
) -> Result<Vec<usize>> {
    let mut states: Vec<(u32, u32)> = vec![(0, 0)];
    let mut index: FxMap<(u32, u32), u32> = FxMap::default();
    index.insert((0, 0), 0);
    let k = gens.len() + 1;
    // A copy past m goes to the sink, numbered once every state is known.
    const SINK: u32 = u32::MAX;
    let mut delta: Vec<u32> = Vec::new();
    let mut pace = Pace::new(ctl, (heap, heap + 1));
    let mut head = 0;
    while head < states.len() {
        if head == 0 || pace.tick(8 * k as u64)? {
            // As many states again must fit: the vectors and the index double.
            crate::memory::check((states.len() * (k * 4 + 48)) as u64)?;
        }
        let (x, c) = states[head];
        for a in 0..k {
            let next = match gens.get(a) {
                Some(&g) => (q.mul(x, g), c),
                None if c < m => (q.mul(x, t), c + 1),
                None => {
                    delta.push(SINK);
                    continue;
                }
            };
            delta.push(*index.entry(next).or_insert_with(|| {
                states.push(next);
                states.len() as u32 - 1
            }));
        }
        head += 1;
    }
    let sink = states.len() as u32;
    delta
        .iter_mut()
        .filter(|t| **t == SINK)
        .for_each(|t| *t = sink);
    delta.extend(std::iter::repeat_n(sink, k));
    let mut accept: Vec<bool> = states.iter().map(|&(x, _)| q.p[x as usize]).collect();
    accept.push(false);
    let (class, _) = minimise(&accept, &delta, k, &mut pace)?;
    Ok((0..=m)
        .map(|c| {
            let seen: FxSet<u32> = states
                .iter()
                .zip(&class)
                .filter(|((_, cc), _)| *cc == c)
                .map(|(_, &cl)| cl)
                .collect();
            seen.len()
        })
        .collect())
}

impl Builder<'_> {
    /// Places the heaps below `t`, then learns and proves a guess for the sums with at most
    /// `m` copies of heap `t`, and counts its classes per copy count.
    fn relative(&mut self, t: usize, m: u32) -> Result<RelativeBounds> {
        let mut st = Proven::new(t);
        for n in 0..t {
            self.place(n, &mut st)?;
        }
        let n = t as u32;
        // Every sum of heaps below t is evaluated through their quotient, and guesses start
        // from it, with heap t counted exactly up to m + 1 copies.
        self.oracle.proven = Some((n, st.q.clone(), st.phi.clone()));
        self.oracle.at = (t as u64, t as u64 + 1);
        self.oracle.base = self.oracle.proven.clone();
        self.oracle.freed = vec![None; t + 1];
        self.oracle.freed[t] = Some((m + 1, 1));
        self.oracle.reps = self.representatives();
        self.oracle.guess = true;
        let sizes: Vec<u32> = (1..=n)
            .filter(|&h| !self.opts[h as usize].is_empty())
            .collect();
        let t_letter = sizes.len() - 1;
        let give_up = |why: &str| Error::SearchLimit {
            message: format!("bounding the quotient at heap {t} with {m} copies: {why}"),
            limit: MAX_ROUNDS as u64,
        };
        for round in 0..=MAX_ROUNDS {
            self.oracle.memo = FxMap::default();
            self.oracle.open.clear();
            let (q, phi) = match self.guessed_automaton(n) {
                Ok(Some(h)) => h,
                Ok(None) | Err(Error::Cycle(_)) => {
                    return Err(give_up("a guess could not be built"))
                }
                Err(e) => return Err(e),
            };
            let letters: Vec<Letter> = sizes
                .iter()
                .map(|&h| {
                    let elems = Self::option_elements(&q, &phi, &self.opts[h as usize]);
                    letter(&q, phi[h as usize], &elems)
                })
                .collect();
            let at = (t as u64, t as u64 + 1);
            let cap = Some((t_letter, m));
            let mut reached = Vec::new();
            let failure = prove(
                &q,
                &letters,
                &sizes,
                cap,
                &mut reached,
                self.ctl,
                at.0,
                at.1,
                &mut self.stats,
            )?;
            let Some(f) = failure else {
                let gens: Vec<u32> = sizes[..t_letter].iter().map(|&h| phi[h as usize]).collect();
                return Ok(RelativeBounds {
                    heap: n,
                    copies: m,
                    below: st.q.m,
                    classes: classes_per_count(&q, &gens, phi[t], m, self.ctl, at.0)?,
                    refutations: round,
                    proof_states: reached.len(),
                });
            };
            let heaps = sorted(&f.word.iter().map(|&i| sizes[i]).collect::<Vec<_>>());
            self.oracle.base = Some((n + 1, q, phi));
            match self.refine(&heaps, f.truly_p) {
                Ok(()) => {}
                Err(Error::Cycle(_)) => return Err(give_up("a guess could not be refined")),
                Err(e) => return Err(e),
            }
            // Heap t stays counted exactly, whatever the refinement folded it to.
            self.oracle.freed[t] = Some((m + 1, 1));
            self.oracle.reps = self.representatives();
        }
        Err(give_up(
            "no guess was proven within the refutations allowed",
        ))
    }
}
