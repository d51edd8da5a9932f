//! Exploring a game's state graph from its roots: every state found gets the next id, and the
//! states are expanded in the order they were found (breadth first), each exactly once. The rule
//! gives a state's options as lists of parts, interned to ids as they come, so the exploration
//! grows the [`StateGraph`] that [`StateGraph::solve`] then settles.
//!
//! - [`States`] is where the states live (their ids and whatever a rule keeps of them);
//!   [`IntStates`] keeps integer states in the core, a binding keeps other objects its own way.
//! - [`Rule`] gives the options of a range of states at once (one, or a batch of them).
//! - [`expand`] expands every state found and not expanded yet; [`explore`] runs a whole
//!   exploration and, when it fails, forgets every state it found, so that a failed call leaves
//!   the graph and the states as they were (solved values stay).
//! - [`room`] is the one limit on the states: `max_states`, and the ids' range.
//!
//! ```
//! use grundy::control::NoControl;
//! use grundy::graph::explore::{explore, expand, IntStates, Options, Rule, States};
//! use grundy::graph::state::StateGraph;
//! use grundy::Error;
//!
//! // A heap of n splits into two smaller non-empty heaps (Grundy's game would ask them unequal).
//! struct Splits;
//! impl Rule<IntStates> for Splits {
//!     type Error = Error;
//!     fn options(&mut self, s: &mut IntStates, ids: std::ops::Range<usize>, out: &mut Options<'_>)
//!         -> Result<(), Error> {
//!         for u in ids {
//!             let n = s.get(u);
//!             for a in 1..n.div_ceil(2) {
//!                 let parts = [s.intern(a, None)?, s.intern(n - a, None)?];
//!                 out.option(&parts);
//!             }
//!             out.end_state();
//!         }
//!         Ok(())
//!     }
//! }
//! let (mut graph, mut states) = (StateGraph::new(), IntStates::default());
//! let root = explore(&mut graph, &mut states, |g, s| {
//!     let root = s.intern(7, None)?;
//!     expand(g, s, &mut Splits)?;
//!     Ok::<_, Error>(root)
//! })
//! .unwrap();
//! graph.solve(&NoControl).unwrap();
//! // 7 -> 1+6, 2+5, 3+4; every heap down to 1 was found.
//! assert_eq!((root, states.len()), (0, 7));
//! ```

use super::state::StateGraph;
use crate::error::{Error, Result};
use crate::hash::FxMap;
use std::ops::Range;

/// The states an exploration has found, ids `0..len()`.
pub trait States {
    /// How many states are stored.
    fn len(&self) -> usize;
    /// Whether none is.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Forgets every state from id `n` on.
    fn truncate(&mut self, n: usize);
}

/// Fails when one more state (id `len`) would pass `max_states` or the range of the ids.
///
/// # Errors
/// [`Error::SearchLimit`] past `max_states`; [`Error::Invalid`] past `u32::MAX` states.
pub fn room(len: usize, max_states: Option<u64>) -> Result<()> {
    if let Some(limit) = max_states {
        if len as u64 >= limit {
            return Err(Error::SearchLimit {
                message: format!(
                    "the game has more than max_states = {limit} distinct states; raise \
                     max_states, or give key= (symmetries) or components= (sums) to explore \
                     fewer"
                ),
                limit,
            });
        }
    }
    if len as u64 >= u64::from(u32::MAX) {
        return Err(Error::Invalid(format!(
            "a game may have at most {} states",
            u32::MAX
        )));
    }
    Ok(())
}

/// Integer states below `2^128`, interned to ids (about 40 bytes a state).
#[derive(Debug, Default, Clone)]
pub struct IntStates {
    index: FxMap<u128, u32>,
    states: Vec<u128>,
}

impl IntStates {
    /// The state with id `id`.
    pub fn get(&self, id: usize) -> u128 {
        self.states[id]
    }

    /// The states `ids`, in order.
    pub fn slice(&self, ids: Range<usize>) -> &[u128] {
        &self.states[ids]
    }

    /// The id of `state` when it is stored.
    #[inline]
    pub fn find(&self, state: u128) -> Option<u32> {
        self.index.get(&state).copied()
    }

    /// The id of `state`, stored under the next id when it is new.
    ///
    /// # Errors
    /// [`room`]'s, when a new state would pass `max_states`.
    #[inline]
    pub fn intern(&mut self, state: u128, max_states: Option<u64>) -> Result<u32> {
        if let Some(id) = self.find(state) {
            return Ok(id);
        }
        room(self.states.len(), max_states)?;
        let id = self.states.len() as u32;
        self.index.insert(state, id);
        self.states.push(state);
        Ok(id)
    }
}

impl States for IntStates {
    fn len(&self) -> usize {
        self.states.len()
    }

    fn truncate(&mut self, n: usize) {
        for s in self.states.drain(n.min(self.states.len())..) {
            self.index.remove(&s);
        }
    }
}

/// Where a [`Rule`] writes the options of the states it is asked about, in order.
pub struct Options<'g> {
    graph: &'g mut StateGraph,
}

impl Options<'_> {
    /// One option of the state being written, with its parts (ids; none for an option that
    /// ends the game in that component).
    #[inline]
    pub fn option(&mut self, parts: &[u32]) {
        self.graph.push_option(parts);
    }

    /// Ends the state being written: the options written since the last call are its options.
    #[inline]
    pub fn end_state(&mut self) {
        self.graph.end_vertex();
    }

    /// The options written so far over all states (for memory estimates).
    pub fn num_options(&self) -> usize {
        self.graph.num_options()
    }
}

/// A game's rule, as an exploration asks it.
pub trait Rule<S: States> {
    /// The rule's errors ([`Error`]s among them: [`room`]'s, a poll's).
    type Error: From<Error>;

    /// The most states one call to [`Self::options`] is given (at least 1).
    fn batch(&self) -> usize {
        1
    }

    /// Writes the options of the states `ids` (in order: each state's options, then
    /// [`Options::end_state`]) into `out`, interning the parts into `states` (a new part gets the
    /// next id, and is expanded in a later call).
    ///
    /// # Errors
    /// Whatever the rule fails with; the exploration stops and returns it.
    fn options(
        &mut self,
        states: &mut S,
        ids: Range<usize>,
        out: &mut Options<'_>,
    ) -> std::result::Result<(), Self::Error>;

    /// Called after every call to [`Self::options`], with what the exploration holds: the place to
    /// look for Ctrl-C, the memory left and progress.
    ///
    /// # Errors
    /// An error stops the exploration.
    fn poll(&mut self, _states: &S, _graph: &StateGraph) -> std::result::Result<(), Self::Error> {
        Ok(())
    }
}

/// Expands every state found but not expanded yet, new ones included, in the order they were
/// found, at most [`Rule::batch`] states a call.
///
/// # Errors
/// The rule's; [`Error::Invalid`] when a call did not end each of its states exactly once.
pub fn expand<S: States, R: Rule<S>>(
    graph: &mut StateGraph,
    states: &mut S,
    rule: &mut R,
) -> std::result::Result<(), R::Error> {
    while graph.num_vertices() < states.len() {
        let u0 = graph.num_vertices();
        let u1 = states.len().min(u0 + rule.batch().max(1));
        rule.options(states, u0..u1, &mut Options { graph })?;
        if graph.num_vertices() != u1 {
            return Err(Error::Invalid(format!(
                "the rule wrote {} states where {} were asked",
                graph.num_vertices() as i64 - u0 as i64,
                u1 - u0
            ))
            .into());
        }
        rule.poll(states, graph)?;
    }
    Ok(())
}

/// Runs `f`, an exploration that adds states and expands them; when it fails, forgets every
/// state it added (and their options), so that nothing of a failed call is kept.
///
/// # Errors
/// `f`'s.
pub fn explore<S: States, T, E>(
    graph: &mut StateGraph,
    states: &mut S,
    f: impl FnOnce(&mut StateGraph, &mut S) -> std::result::Result<T, E>,
) -> std::result::Result<T, E> {
    let n0 = states.len();
    let r = f(graph, states);
    if r.is_err() {
        states.truncate(n0);
        graph.truncate(n0);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::NoControl;

    /// Subtraction game {1, 2} on one heap, the options of one state or of a batch; fails at
    /// `fail_at` (a state) when asked about it.
    struct Take12 {
        batch: usize,
        fail_at: Option<u128>,
        calls: Vec<Range<usize>>,
        max_states: Option<u64>,
    }

    impl Take12 {
        fn new(batch: usize) -> Self {
            Take12 {
                batch,
                fail_at: None,
                calls: Vec::new(),
                max_states: None,
            }
        }
    }

    impl Rule<IntStates> for Take12 {
        type Error = Error;
        fn batch(&self) -> usize {
            self.batch
        }
        fn options(
            &mut self,
            s: &mut IntStates,
            ids: Range<usize>,
            out: &mut Options<'_>,
        ) -> Result<()> {
            self.calls.push(ids.clone());
            for u in ids {
                let n = s.get(u);
                if Some(n) == self.fail_at {
                    return Err(Error::Invalid(format!("no options for {n}")));
                }
                for k in [1, 2] {
                    if n >= k {
                        let p = s.intern(n - k, self.max_states)?;
                        out.option(&[p]);
                    }
                }
                out.end_state();
            }
            Ok(())
        }
    }

    fn run(rule: &mut Take12, root: u128) -> (Result<u32>, StateGraph, IntStates) {
        let (mut g, mut s) = (StateGraph::new(), IntStates::default());
        let r = explore(&mut g, &mut s, |g, s| {
            let id = s.intern(root, rule.max_states)?;
            expand(g, s, rule)?;
            Ok(id)
        });
        (r, g, s)
    }

    #[test]
    fn states_get_ids_in_the_order_found_and_each_is_expanded_once() {
        for batch in [1, 2, 3, 100] {
            let mut rule = Take12::new(batch);
            let (r, mut g, s) = run(&mut rule, 10);
            assert_eq!(r.unwrap(), 0);
            // Breadth first from 10: 10, 9, 8, 7, ...
            assert_eq!(
                s.slice(0..s.len()),
                (0..=10).rev().collect::<Vec<u128>>().as_slice()
            );
            assert_eq!(g.num_vertices(), 11);
            // Every state asked about exactly once, in order, at most `batch` at a time.
            let asked: Vec<usize> = rule.calls.iter().flat_map(|r| r.clone()).collect();
            assert_eq!(asked, (0..11).collect::<Vec<_>>());
            assert!(rule.calls.iter().all(|r| r.len() <= batch));
            g.solve(&NoControl).unwrap();
            // G(n) = n mod 3 for the subtraction set {1, 2}.
            let v: Vec<u32> = (0..11).map(|u| g.values()[u]).collect();
            let want: Vec<u32> = (0..=10u32).rev().map(|n| n % 3).collect();
            assert_eq!(v, want);
        }
    }

    #[test]
    fn a_failed_exploration_keeps_nothing_it_found() {
        let (mut g, mut s) = (StateGraph::new(), IntStates::default());
        let mut rule = Take12::new(2);
        explore(&mut g, &mut s, |g, s| {
            s.intern(3, None)?;
            expand(g, s, &mut rule)
        })
        .unwrap();
        g.solve(&NoControl).unwrap();
        let before = (g.clone(), s.len());
        rule.fail_at = Some(7);
        let r = explore(&mut g, &mut s, |g, s| {
            s.intern(9, None)?;
            expand(g, s, &mut rule)
        });
        assert!(matches!(r, Err(Error::Invalid(_))));
        assert_eq!((g.clone(), s.len()), before);
        assert_eq!(s.find(9), None);
        assert_eq!(s.find(8), None);
        // The states of before still answer, and a later exploration goes on from them.
        rule.fail_at = None;
        explore(&mut g, &mut s, |g, s| {
            s.intern(9, None)?;
            expand(g, s, &mut rule)
        })
        .unwrap();
        g.solve(&NoControl).unwrap();
        assert_eq!(g.values()[s.find(9).unwrap() as usize], 0);
    }

    #[test]
    fn max_states_stops_the_exploration() {
        let mut rule = Take12::new(1);
        rule.max_states = Some(5);
        let (r, g, s) = run(&mut rule, 100);
        assert!(matches!(r, Err(Error::SearchLimit { limit: 5, .. })));
        assert_eq!((g.num_vertices(), s.len()), (0, 0));
        assert!(room(u32::MAX as usize, None).is_err());
        assert!(room(10, Some(11)).is_ok());
    }

    #[test]
    fn a_rule_that_skips_a_state_is_refused() {
        struct Skips;
        impl Rule<IntStates> for Skips {
            type Error = Error;
            fn options(
                &mut self,
                _: &mut IntStates,
                _: Range<usize>,
                _: &mut Options<'_>,
            ) -> Result<()> {
                Ok(())
            }
        }
        let (mut g, mut s) = (StateGraph::new(), IntStates::default());
        let r = explore(&mut g, &mut s, |g, s| {
            s.intern(1, None)?;
            expand(g, s, &mut Skips)
        });
        assert!(matches!(r, Err(Error::Invalid(_))));
        assert_eq!((g.num_vertices(), s.len()), (0, 0));
    }
}
