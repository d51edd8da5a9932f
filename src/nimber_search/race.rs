//! Two ways to answer "is G(c) in S?" when a value below S is not ruled out, raced with
//! growing node budgets.
//!
//! When the tables know G(c) is past `0..m` but the question's smallest candidate is above
//! `m` (the question came XOR-shifted from a sum, or after other questions left a gap), the
//! answer costs the one way or the other by orders of magnitude, and nothing cheap tells
//! which beforehand:
//! - the set question (Beling and Rogalski) asks `c`'s options for every value from `m` up
//!   to S's largest: cheap when G(c) is larger (an option of each value of S is enough), but
//!   when G(c) is smaller it must settle every option, each asked for all those values (an
//!   option of a large value then needs an option of each);
//! - deepening ("is G(c) = m?", "= m + 1?", ..., each asking the options for that one value)
//!   finds a small G(c) at the price of its exact value, but pays for an option of each value
//!   below S when G(c) is larger.
//!
//! Node Kayles 3 x 21, the root's options asked "is G = 5?" with fresh tables: those of value
//! 1 or 3 take 150,000 to 410,000 nodes by the set question and 3,500 to 17,600 by their exact
//! value; those of value 9 to 11 take 4,000 by the set question and 1.3 to 3.1 million by their
//! exact value. So the search tries the set question with a budget of nodes, then deepening
//! with four times that budget, then both again with a budget twice as large, and so on: the
//! answer costs a few times the cheaper way's nodes. An attempt stopped keeps what its
//! finished subtrees stored in the tables, and the next attempt at either way starts from it.

use super::{Part, Search};
use crate::board::Board;
use crate::control::Poller;
use crate::error::{Error, Result};

/// When and how a search races (the tests lower the bounds, to race often and stop often).
#[derive(Debug, Clone, Copy)]
pub(super) struct Tuning {
    /// The budget of each way's first attempt, in nodes (Node Kayles 3 x 21: 114,410 nodes
    /// with 32, 152,092 with 256, 127,063 with 8, growing by 4 each round; 112,238 with 32,
    /// 113,866 with 16 and 119,689 with 64, growing by 2).
    pub(super) first: u64,
    /// How much each round's budget grows (4: Cram 3 x 14 less its cell 0:7, value 4,
    /// 1,230,628 nodes, 8: 1,261,528; 2: 1,160,303, Node Kayles 3 x 28 503,856 against 538,500).
    pub(super) growth: u64,
    /// How many times the set question's budget deepening gets in a round (deepening wins
    /// seldom but saves much when it does: with 1, Cram 3 x 14 less 0:7 1,160,303 nodes, Node
    /// Kayles 3 x 28 503,856; with 2, 1,108,074 and 467,930; with 4, 1,101,928 and 459,630, Cram
    /// 5 x 6 35,834 against 35,432; with 8, 1,083,788 and 454,079, 5 x 6 36,262).
    pub(super) deepen: u64,
    /// The smallest candidate of the set from which a question is raced: questions for small
    /// values are answered by the set question alone. Racing from 2 or 3 cost Cram (4 x 7 17,526
    /// and 16,984 nodes against 13,044 without racing, 5 x 6 41,969 and 36,303 against 35,034),
    /// where deepening seldom wins (65 races of 104,786 on 4 x 9); from 4, Cram's boards of
    /// small values search the same nodes (4 x 9 159,133 against 159,178) and Node Kayles 3 x 21
    /// 114,631 against 528,188.
    pub(super) from: u32,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            first: 32,
            growth: 2,
            deepen: 4,
            from: 4,
        }
    }
}

/// The node count past which the attempt under way stops, whether an attempt is stopping
/// (the error that unwinds it is then the budget's, not the caller's), and the tuning.
#[derive(Debug)]
pub(super) struct Limit {
    pub(super) nodes: u64,
    stopping: bool,
    pub(super) tuning: Tuning,
}

impl Default for Limit {
    fn default() -> Self {
        Limit {
            nodes: u64::MAX,
            stopping: false,
            tuning: Tuning::default(),
        }
    }
}

impl Limit {
    /// The budget is spent: the error that unwinds the attempt.
    #[cold]
    pub(super) fn stop(&mut self) -> Error {
        self.stopping = true;
        Error::Interrupted
    }
}

impl Limit {
    /// Whether a question for `set`, of a component known not to have the values `not`, is
    /// raced: when a value below its smallest candidate is not excluded (deepening is then
    /// another way to answer it), and either that candidate is at least [`Tuning::from`] or
    /// the tables exclude a value between them (a sign that G is small: a question on a
    /// larger value failed while a smaller one is open). The hole alone gains little (Node
    /// Kayles 3 x 21 435,829 nodes) but costs nothing on Cram.
    #[inline]
    pub(super) fn worth_racing(&self, set: u128, not: u32) -> bool {
        let s = set & !u128::from(not);
        if s == 0 {
            return false;
        }
        let (covered, m) = (not.trailing_ones(), s.trailing_zeros().min(31));
        if covered >= m {
            return false;
        }
        let hole = (not & ((1u32 << m) - 1)) >> covered != 0;
        hole || m >= self.tuning.from
    }
}

/// What an attempt came to.
enum Attempt<T> {
    Done(T),
    /// Its budget ran out.
    Spent,
}

impl<B: Board + ?Sized> Search<'_, B> {
    /// Runs `f` with at most `budget` more nodes (and no more than an enclosing attempt
    /// allows): [`Attempt::Spent`] when this budget ran out; an enclosing budget's stop and
    /// the caller's errors pass on.
    fn attempt<T>(
        &mut self,
        budget: u64,
        f: impl FnOnce(&mut Self) -> Result<T>,
    ) -> Result<Attempt<T>> {
        let outer = self.limit.nodes;
        let n0 = self.nodes;
        let mine = self.nodes.saturating_add(budget);
        self.limit.nodes = outer.min(mine);
        let r = f(self);
        self.limit.nodes = outer;
        match r {
            Ok(v) => Ok(Attempt::Done(v)),
            // This attempt's own budget, not an enclosing one's.
            Err(Error::Interrupted) if self.limit.stopping && self.nodes <= outer => {
                self.limit.stopping = false;
                if let Some(p) = self.profile.as_deref_mut() {
                    p.race_spent += self.nodes - n0;
                }
                Ok(Attempt::Spent)
            }
            Err(e) => Err(e),
        }
    }

    /// "Is G(c) in `set`?" for a component the tables do not settle, known not to have the
    /// values `not`, raced between the set question and deepening (see the module's notes).
    pub(super) fn race(
        &mut self,
        c: Part,
        set: u128,
        not: u32,
        poll: &mut Poller,
    ) -> Result<Option<u32>> {
        // Values deepening found G(c) not to have (the tables may forget them).
        let mut learnt = not;
        if let Some(p) = self.profile.as_deref_mut() {
            p.races += 1;
        }
        let mut budget = self.limit.tuning.first.max(1);
        loop {
            let (exact, known) = self.lookup(c);
            if exact.is_some() {
                return Ok(exact);
            }
            let not = learnt | known;
            if !self.limit.worth_racing(set, not) {
                // Deepening reached the set's smallest candidate: the set question alone.
                return self.in_set_once(c, set, not, poll);
            }
            match self.attempt(budget, |s| s.in_set_once(c, set, not, poll))? {
                Attempt::Done(v) => {
                    if let Some(p) = self.profile.as_deref_mut() {
                        p.race_set += 1;
                    }
                    return Ok(v);
                }
                Attempt::Spent => {}
            }
            // Deepening, from the smallest value not excluded, up to the set's smallest
            // candidate.
            let done = self.attempt(budget.saturating_mul(self.limit.tuning.deepen), |s| {
                let mut learnt = learnt;
                loop {
                    let (exact, known) = s.lookup(c);
                    if exact.is_some() {
                        return Ok((exact, learnt));
                    }
                    let not = learnt | known;
                    if !s.limit.worth_racing(set, not) {
                        return Ok((None, learnt));
                    }
                    let k = not.trailing_ones();
                    match s.in_set_once(c, 1 << k, not, poll)? {
                        Some(v) => return Ok((Some(v), learnt)),
                        None => learnt = not | 1 << k,
                    }
                }
            })?;
            match done {
                Attempt::Done((Some(v), _)) => {
                    if let Some(p) = self.profile.as_deref_mut() {
                        p.race_deepen += 1;
                    }
                    return Ok(Some(v));
                }
                Attempt::Done((None, l)) => {
                    learnt = l;
                    continue;
                }
                Attempt::Spent => {}
            }
            budget = budget.saturating_mul(self.limit.tuning.growth.max(2));
        }
    }
}
