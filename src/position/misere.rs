//! Misère play by exhaustive search.
//!
//! Under misère play the player who cannot move wins, and sums no longer add up by XOR, so the
//! outcome of a sum is found by searching every position reachable from it. A position is a
//! sorted multiset of components `(game, x)` (a heap size, or a vertex of a game graph);
//! components with no move are dropped, since they change nothing. Each move replaces one
//! component by smaller ones, so the search terminates; it runs depth first with an explicit
//! stack (no recursion limit), remembering every position's outcome, and stops with
//! [`Error::SearchLimit`] once more than `max_positions` distinct positions were met.
//!
//! A position is N when it has no move (misère) or when some option is P; otherwise it is P.
//!
//! ```
//! use grundy::control::NoControl;
//! use grundy::position::{Misere, MisereGame};
//! use grundy::rules::Rule;
//! let nim = Rule::TakeAndBreak("0.[3]".parse().unwrap());
//! let games = [MisereGame::Rule(&nim)];
//! let mut m = Misere::new(&games, 100_000, &NoControl);
//! // Misère Nim: heaps all <= 1 are P iff the number of 1-heaps is odd; else P iff XOR = 0.
//! assert!(m.is_p(&[(0, 1), (0, 1), (0, 1)]).unwrap());
//! assert!(!m.is_p(&[(0, 1), (0, 1)]).unwrap());
//! assert!(m.is_p(&[(0, 2), (0, 2)]).unwrap());
//! ```

use super::search::{search, Cursor, Query};
use super::{HeapValues, Tail};
use crate::control::{Control, POLL_INTERVAL};
use crate::engine::Values;
use crate::error::{Error, Result};
use crate::graph::state::StateGraph;
use crate::graph::Graph;
use crate::hash::FxMap;
use crate::rules::Rule;
use rayon::prelude::*;
use std::rc::Rc;
use std::time::Instant;

/// A component: the index of its game and a heap size (or vertex id).
pub type Comp = (u32, u64);

/// The default of `max_positions`: the one limit of every exhaustive misère search (heap sums,
/// game graphs and state games), which Python reads as `grundy._core.MISERE_MAX_POSITIONS`.
pub const MAX_POSITIONS: usize = 1_000_000;

/// The options of heaps `0..N` of a rule given as data (a Python callable, tabulated).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionTable {
    /// Options of heap `n`: `opt_start[n]..opt_start[n + 1]`.
    opt_start: Vec<u64>,
    /// Parts of option `o`: `parts[part_start[o]..part_start[o + 1]]`.
    part_start: Vec<u64>,
    parts: Vec<u64>,
}

impl OptionTable {
    /// Checks the offsets and that every part of an option of heap `n` is below `n`.
    ///
    /// # Errors
    /// [`Error::Invalid`] naming what is malformed.
    pub fn new(opt_start: Vec<u64>, part_start: Vec<u64>, parts: Vec<u64>) -> Result<Self> {
        let bad = |m: &str| Err(Error::Invalid(format!("malformed option table: {m}")));
        if opt_start.first() != Some(&0) || part_start.first() != Some(&0) {
            return bad("offsets must start at 0");
        }
        if opt_start.windows(2).any(|w| w[0] > w[1]) || part_start.windows(2).any(|w| w[0] > w[1]) {
            return bad("offsets must not decrease");
        }
        if opt_start.last().and_then(|l| l.checked_add(1)) != Some(part_start.len() as u64)
            || part_start.last() != Some(&(parts.len() as u64))
        {
            return bad("offsets do not match the lengths");
        }
        let t = OptionTable {
            opt_start,
            part_start,
            parts,
        };
        for n in 0..t.heaps() {
            for o in t.opt_start[n as usize]..t.opt_start[n as usize + 1] {
                if t.option(o).iter().any(|&p| p >= n) {
                    return bad(&format!("an option of heap {n} has a part not below {n}"));
                }
            }
        }
        Ok(t)
    }

    /// Number of heap sizes tabulated (`0..heaps()`).
    pub fn heaps(&self) -> u64 {
        self.opt_start.len() as u64 - 1
    }

    fn option(&self, o: u64) -> &[u64] {
        &self.parts[self.part_start[o as usize] as usize..self.part_start[o as usize + 1] as usize]
    }
}

/// One game a misère position may have components of.
#[derive(Debug, Clone, Copy)]
pub enum MisereGame<'a> {
    /// A heap of a rule the core lists the options of.
    Rule(&'a Rule),
    /// A heap of a rule written in Python, tabulated.
    Table(&'a OptionTable),
    /// A vertex of a game graph.
    Graph(&'a Graph),
    /// A solved vertex of an explored state graph (a `StateGame`); its options are sums of
    /// vertices. The graph must be acyclic, as [`StateGraph::solve`] makes sure.
    State(&'a StateGraph),
}

/// Options of a rule are listed in slices of this much work.
const RULE_BUDGET: u64 = 1 << 12;
/// Positions expanded between two looks at the clock.
const POLL_EVERY: usize = 1 << 10;

static NO_VALUES: Values = Values::U16(Vec::new());

impl MisereGame<'_> {
    fn check(&self, x: u64) -> Result<()> {
        let (what, limit) = match self {
            MisereGame::Rule(_) => return Ok(()),
            MisereGame::Table(t) => ("heap", t.heaps()),
            MisereGame::Graph(g) => ("vertex", g.num_vertices() as u64),
            MisereGame::State(s) => ("state", s.num_solved() as u64),
        };
        if x < limit {
            Ok(())
        } else {
            Err(Error::Invalid(format!(
                "{what} {x} is not in the table of options (below {limit})"
            )))
        }
    }

    /// Calls `f` with each option of component `x` (the heaps or vertex it leaves).
    fn for_each_option(&self, x: u64, f: &mut dyn FnMut(&[u64]) -> Result<()>) -> Result<()> {
        match *self {
            MisereGame::Rule(rule) => {
                let vals = HeapValues::new(&NO_VALUES, Tail::None)?;
                let mut cur = Some(Cursor::START);
                while let Some(c) = cur {
                    let q = Query {
                        from: c,
                        budget: RULE_BUDGET,
                        ..Query::new(x)
                    };
                    let found = search(rule, &vals, &q)?;
                    for fam in &found.families {
                        fam.try_for_each(f)?;
                    }
                    cur = found.next;
                }
                Ok(())
            }
            MisereGame::Table(t) => {
                for o in t.opt_start[x as usize]..t.opt_start[x as usize + 1] {
                    f(t.option(o))?;
                }
                Ok(())
            }
            MisereGame::Graph(g) => {
                for &v in g.options(x as usize) {
                    f(&[v as u64])?;
                }
                Ok(())
            }
            MisereGame::State(s) => {
                let mut parts = Vec::new();
                for j in s.option_ids(x as usize) {
                    parts.clear();
                    parts.extend(s.option_parts(j).iter().map(|&p| p as u64));
                    f(&parts)?;
                }
                Ok(())
            }
        }
    }

    /// The options of every heap `0..=max_heap`, each as the sorted heaps it leaves. Made for
    /// [`crate::misere_quotient`], which needs every option of every heap up to a bound.
    ///
    /// # Errors
    /// [`Error::Invalid`] for a graph (its vertices are not heap sizes) or a heap past a table;
    /// [`Error::Memory`] when the lists would not fit; the error of the control.
    pub fn option_lists(&self, max_heap: u64, ctl: &dyn Control) -> Result<Vec<Vec<Vec<u32>>>> {
        if let MisereGame::Graph(_) | MisereGame::State(_) = self {
            return Err(Error::Invalid(
                "option lists are for heap games, not game graphs or state games".into(),
            ));
        }
        if max_heap >= u32::MAX as u64 {
            return Err(Error::Invalid(format!(
                "max_heap = {max_heap} is too large"
            )));
        }
        self.check(max_heap)?;
        crate::memory::check((max_heap + 1) * std::mem::size_of::<Vec<Vec<u32>>>() as u64)?;
        // An estimate first, from the options of the largest heap (the heaps below have about
        // as many, or fewer): an absurd max_heap (Nim at 10^6: 5·10^11 options) is refused at
        // once instead of after minutes of listing. The lists are held twice by a quotient's
        // build (as listed, and with the heaps that have no move left out).
        let (mut top_options, mut top_parts) = (0u64, 0u64);
        self.for_each_option(max_heap, &mut |parts| {
            top_options += 1;
            top_parts += parts.len() as u64;
            if top_options % (1 << 20) == 0 {
                ctl.check(0, max_heap + 1)?;
            }
            Ok(())
        })?;
        let per_heap = top_options * OPTION_BYTES + top_parts * 4;
        crate::memory::check((max_heap + 1).saturating_mul(per_heap))?;
        let mut lists: Vec<Vec<Vec<u32>>> = Vec::with_capacity(max_heap as usize + 1);
        let (mut options, mut bytes) = (0u64, 0u64);
        for n in 0..=max_heap {
            ctl.check(n, max_heap + 1)?;
            let mut opts: Vec<Vec<u32>> = Vec::new();
            self.for_each_option(n, &mut |parts| {
                let mut o: Vec<u32> = parts.iter().map(|&p| p as u32).collect();
                o.sort_unstable();
                options += 1;
                bytes += OPTION_BYTES / 2 + 4 * o.len() as u64;
                if options % (1 << 20) == 0 {
                    // A heap can have millions of options: Ctrl-C and progress between them.
                    ctl.check(n, max_heap + 1)?;
                    crate::memory::check(bytes * 2)?;
                }
                opts.push(o);
                Ok(())
            })?;
            opts.sort_unstable();
            opts.dedup();
            lists.push(opts);
        }
        Ok(lists)
    }

    fn has_option(&self, x: u64) -> Result<bool> {
        Ok(match *self {
            MisereGame::Rule(rule) => {
                let vals = HeapValues::new(&NO_VALUES, Tail::None)?;
                let q = Query {
                    first_only: true,
                    ..Query::new(x)
                };
                !search(rule, &vals, &q)?.families.is_empty()
            }
            MisereGame::Table(t) => t.opt_start[x as usize] < t.opt_start[x as usize + 1],
            MisereGame::Graph(g) => g.out_degree(x as usize) > 0,
            MisereGame::State(s) => !s.option_ids(x as usize).is_empty(),
        })
    }
}

/// Bytes an option costs in a quotient's build, besides its parts: its list's header and
/// allocation, as listed and again with the heaps that have no move left out.
const OPTION_BYTES: u64 = 2 * 56;

const UNKNOWN: u8 = 0;
const P: u8 = 1;
const N: u8 = 2;

/// Every position met so far, numbered, with its outcome once known.
#[derive(Default)]
struct Memo {
    index: FxMap<Rc<[Comp]>, u32>,
    positions: Vec<Rc<[Comp]>>,
    outcome: Vec<u8>,
    /// Components of all the positions, for [`Memo::bytes`].
    comps: u64,
}

impl Memo {
    /// About the bytes the memo holds: each position's slice (its reference count's header and
    /// components) and its entries in the index, the list and the outcomes.
    fn bytes(&self) -> u64 {
        let comp = std::mem::size_of::<Comp>() as u64;
        self.positions.len() as u64 * (16 + 16 + 32 + 1) + self.comps * comp
    }

    fn intern(&mut self, pos: Vec<Comp>, max: usize) -> Result<u32> {
        if let Some(&id) = self.index.get(pos.as_slice()) {
            return Ok(id);
        }
        if self.positions.len() >= max {
            return Err(Error::SearchLimit {
                message: format!(
                    "the misère search met more than max_positions = {max} distinct positions and stopped: \
                     misère sums do not add up by XOR, so every position reachable from this one must be \
                     examined; try smaller heaps or raise max_positions"
                ),
                limit: max as u64,
            });
        }
        let id = self.positions.len() as u32;
        self.comps += pos.len() as u64;
        let rc: Rc<[Comp]> = pos.into();
        self.positions.push(rc.clone());
        self.index.insert(rc, id);
        self.outcome.push(UNKNOWN);
        Ok(id)
    }
}

/// An exhaustive misère solver over positions made of components of `games`.
pub struct Misere<'a> {
    games: &'a [MisereGame<'a>],
    max_positions: usize,
    ctl: &'a dyn Control,
    memo: Memo,
    live: FxMap<Comp, bool>,
    expanded: usize,
    last_poll: Instant,
}

fn is_live(games: &[MisereGame], live: &mut FxMap<Comp, bool>, c: Comp) -> Result<bool> {
    if let Some(&b) = live.get(&c) {
        return Ok(b);
    }
    let b = games[c.0 as usize].has_option(c.1)?;
    live.insert(c, b);
    Ok(b)
}

impl<'a> Misere<'a> {
    /// A search over sums of `games`, stopping after `max_positions` distinct positions and
    /// polling `ctl`.
    pub fn new(games: &'a [MisereGame<'a>], max_positions: usize, ctl: &'a dyn Control) -> Self {
        Misere {
            games,
            max_positions,
            ctl,
            memo: Memo::default(),
            live: FxMap::default(),
            expanded: 0,
            last_poll: Instant::now(),
        }
    }

    /// Distinct positions met so far.
    pub fn positions(&self) -> usize {
        self.memo.positions.len()
    }

    fn check(&self, comps: &[Comp]) -> Result<()> {
        for &(g, x) in comps {
            let game = self.games.get(g as usize).ok_or_else(|| {
                Error::Invalid(format!("game index {g} is not below {}", self.games.len()))
            })?;
            game.check(x)?;
        }
        Ok(())
    }

    /// The position of these components, normalised (components with no move dropped, sorted).
    fn intern(&mut self, comps: &[Comp]) -> Result<u32> {
        let mut v = Vec::with_capacity(comps.len());
        for &c in comps {
            if is_live(self.games, &mut self.live, c)? {
                v.push(c);
            }
        }
        v.sort_unstable();
        self.memo.intern(v, self.max_positions)
    }

    /// Whether the sum of `comps` is a P-position under misère play.
    ///
    /// # Errors
    /// [`Error::Invalid`] for a component that is not a heap or vertex of its game;
    /// [`Error::SearchLimit`] past `max_positions`; the error of the control.
    pub fn is_p(&mut self, comps: &[Comp]) -> Result<bool> {
        self.check(comps)?;
        let id = self.intern(comps)?;
        self.solve(id)
    }

    /// Every move from the sum of `comps` to a misère P-position: the index of the component
    /// moved in and the heaps (or vertex) it leaves.
    ///
    /// # Errors
    /// As [`Misere::is_p`].
    pub fn winning_moves(&mut self, comps: &[Comp]) -> Result<Vec<(usize, Vec<u64>)>> {
        self.check(comps)?;
        let games = self.games;
        let mut children = Vec::new();
        for (i, &(g, x)) in comps.iter().enumerate() {
            let mut rest: Vec<Comp> = comps.to_vec();
            rest.remove(i);
            let (memo, live, max) = (&mut self.memo, &mut self.live, self.max_positions);
            games[g as usize].for_each_option(x, &mut |parts| {
                let mut child = Vec::with_capacity(rest.len() + parts.len());
                let moved = parts.iter().map(|&p| (g, p));
                for c in rest.iter().copied().chain(moved) {
                    if is_live(games, live, c)? {
                        child.push(c);
                    }
                }
                child.sort_unstable();
                children.push((i, parts.to_vec(), memo.intern(child, max)?));
                Ok(())
            })?;
        }
        let mut out = Vec::new();
        for (i, parts, id) in children {
            if self.solve(id)? {
                out.push((i, parts));
            }
        }
        Ok(out)
    }

    /// The ids of the options of position `id`.
    fn expand(&mut self, id: u32) -> Result<Vec<u32>> {
        self.expanded += 1;
        if self.expanded % POLL_EVERY == 0 && self.last_poll.elapsed() >= POLL_INTERVAL {
            self.ctl
                .check(self.memo.positions.len() as u64, self.max_positions as u64)?;
            // Room for the memo to grow by half again (its list and index double at a time).
            crate::memory::check(self.memo.bytes() / 2)?;
            self.last_poll = Instant::now();
        }
        let pos = self.memo.positions[id as usize].clone();
        let games = self.games;
        let (memo, live, max) = (&mut self.memo, &mut self.live, self.max_positions);
        let mut children = Vec::new();
        for i in 0..pos.len() {
            if i > 0 && pos[i] == pos[i - 1] {
                continue; // the same moves as the equal component before it
            }
            let (g, x) = pos[i];
            games[g as usize].for_each_option(x, &mut |parts| {
                // pos without component i is sorted: insert the live parts in place.
                let mut child = Vec::with_capacity(pos.len() + parts.len());
                child.extend_from_slice(&pos[..i]);
                child.extend_from_slice(&pos[i + 1..]);
                for &p in parts {
                    let c = (g, p);
                    if is_live(games, live, c)? {
                        let at = child.partition_point(|&d| d < c);
                        child.insert(at, c);
                    }
                }
                children.push(memo.intern(child, max)?);
                Ok(())
            })?;
        }
        Ok(children)
    }

    /// Solves position `id` and everything it needs, depth first without recursion.
    fn solve(&mut self, id: u32) -> Result<bool> {
        if self.memo.outcome[id as usize] == UNKNOWN {
            let mut stack: Vec<(u32, Vec<u32>, usize)> = vec![(id, self.expand(id)?, 0)];
            while let Some((pid, children, next)) = stack.last_mut() {
                let mut result = None;
                let mut push = None;
                while *next < children.len() {
                    let c = children[*next];
                    match self.memo.outcome[c as usize] {
                        P => {
                            result = Some(N);
                            break;
                        }
                        N => *next += 1,
                        _ => {
                            push = Some(c);
                            break;
                        }
                    }
                }
                if let Some(c) = push {
                    let kids = self.expand(c)?;
                    stack.push((c, kids, 0));
                    continue;
                }
                // No move at all: the player to move has won (misère). All options N: P.
                let r = result.unwrap_or(if children.is_empty() { N } else { P });
                self.memo.outcome[*pid as usize] = r;
                stack.pop();
            }
        }
        Ok(self.memo.outcome[id as usize] == P)
    }
}

/// For each row of `rows` (`width` heaps of game 0 per row, row-major): whether it is a misère
/// P-position. Rows are split between threads, each with its own solver and position limit.
///
/// # Errors
/// [`Error::Invalid`] when the heaps do not make rows of `width`, and as
/// [`Misere::is_p`] for any row.
pub fn misere_outcomes(
    games: &[MisereGame],
    rows: &[u64],
    width: usize,
    max_positions: usize,
    ctl: &dyn Control,
) -> Result<Vec<bool>> {
    if width == 0 || rows.len() % width != 0 {
        return Err(Error::Invalid(format!(
            "{} heaps do not make rows of {width}",
            rows.len()
        )));
    }
    let n_rows = rows.len() / width;
    let chunk = n_rows.div_ceil(rayon::current_num_threads().max(1)).max(1);
    let parts: Vec<Result<Vec<bool>>> = rows
        .par_chunks(chunk * width)
        .map(|block| {
            let mut m = Misere::new(games, max_positions, ctl);
            block
                .chunks(width)
                .map(|r| {
                    let comps: Vec<Comp> = r.iter().map(|&h| (0, h)).collect();
                    m.is_p(&comps)
                })
                .collect()
        })
        .collect();
    let mut out = Vec::with_capacity(n_rows);
    for p in parts {
        out.extend(p?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::NoControl;
    use crate::rules::{Subtraction, TakeAndBreak};
    use std::collections::HashMap as Map;

    /// Misère outcome by plain recursion over sorted heap lists (no dropping, no sharing).
    fn naive(rule: &Rule, heaps: Vec<u64>, memo: &mut Map<Vec<u64>, bool>) -> bool {
        let mut heaps = heaps;
        heaps.sort_unstable();
        if let Some(&r) = memo.get(&heaps) {
            return r;
        }
        let games = [MisereGame::Rule(rule)];
        let mut any_move = false;
        let mut wins = false;
        for i in 0..heaps.len() {
            let mut opts = Vec::new();
            games[0]
                .for_each_option(heaps[i], &mut |p| {
                    opts.push(p.to_vec());
                    Ok(())
                })
                .unwrap();
            for p in opts {
                any_move = true;
                let mut child = heaps.clone();
                child.remove(i);
                child.extend(p);
                if naive(rule, child, memo) {
                    wins = true;
                }
            }
        }
        let p = any_move && !wins;
        memo.insert(heaps, p);
        p
    }

    #[test]
    fn misere_nim_rule() {
        let nim = Rule::TakeAndBreak("0.[3]".parse().unwrap());
        let games = [MisereGame::Rule(&nim)];
        let mut m = Misere::new(&games, 1 << 20, &NoControl);
        for a in 0..6u64 {
            for b in 0..6 {
                for c in 0..6 {
                    let h = [a, b, c];
                    let want = if h.iter().all(|&x| x <= 1) {
                        h.iter().sum::<u64>() % 2 == 1
                    } else {
                        a ^ b ^ c == 0
                    };
                    assert_eq!(m.is_p(&[(0, a), (0, b), (0, c)]).unwrap(), want, "{h:?}");
                }
            }
        }
        // The empty sum: no move, so the player to move wins.
        assert!(!m.is_p(&[]).unwrap());
    }

    #[test]
    fn agrees_with_naive_recursion() {
        let rules = [
            Rule::TakeAndBreak(TakeAndBreak::parse("0.77").unwrap()),
            Rule::TakeAndBreak(TakeAndBreak::parse("4!.0").unwrap()),
            Rule::Subtraction(Subtraction::finite(vec![1, 3, 4]).unwrap()),
        ];
        for rule in &rules {
            let games = [MisereGame::Rule(rule)];
            let mut m = Misere::new(&games, 1 << 20, &NoControl);
            let mut memo = Map::new();
            for a in 0..9u64 {
                for b in a..9 {
                    for c in b..7 {
                        let want = naive(rule, vec![a, b, c], &mut memo);
                        assert_eq!(m.is_p(&[(0, c), (0, a), (0, b)]).unwrap(), want);
                    }
                }
            }
            // Winning moves lead exactly to P-positions.
            let comps = [(0, 5), (0, 7), (0, 3)];
            let wins = m.winning_moves(&comps).unwrap();
            let mut count = 0;
            for (i, &(_, x)) in comps.iter().enumerate() {
                games[0]
                    .for_each_option(x, &mut |p| {
                        let mut child: Vec<u64> = comps.iter().map(|c| c.1).collect();
                        child.remove(i);
                        child.extend_from_slice(p);
                        let is_win = naive(rule, child, &mut memo);
                        assert_eq!(is_win, wins.contains(&(i, p.to_vec())));
                        count += is_win as usize;
                        Ok(())
                    })
                    .unwrap();
            }
            assert_eq!(count, wins.len());
        }
    }

    #[test]
    fn tables_and_graphs() {
        // Kayles' options of heaps 0..8 as a table, and a small graph: a -> b -> c, a -> c.
        let kayles = Rule::TakeAndBreak("0.77".parse().unwrap());
        let (mut os, mut ps, mut parts) = (vec![0u64], vec![0u64], Vec::new());
        for n in 0..8 {
            MisereGame::Rule(&kayles)
                .for_each_option(n, &mut |p| {
                    parts.extend_from_slice(p);
                    ps.push(parts.len() as u64);
                    Ok(())
                })
                .unwrap();
            os.push(ps.len() as u64 - 1);
        }
        let table = OptionTable::new(os, ps, parts).unwrap();
        let g = Graph::from_edges(3, &[0u32, 1, 0], &[1u32, 2, 2], &NoControl).unwrap();
        let games = [
            MisereGame::Rule(&kayles),
            MisereGame::Table(&table),
            MisereGame::Graph(&g),
        ];
        let mut m = Misere::new(&games, 1 << 20, &NoControl);
        for a in 0..8 {
            for b in 0..8 {
                assert_eq!(
                    m.is_p(&[(0, a), (0, b)]).unwrap(),
                    m.is_p(&[(1, a), (0, b)]).unwrap()
                );
            }
        }
        // Vertex 1 (one move, to a terminal) is misère P; vertex 0 can move to it: N.
        assert!(m.is_p(&[(2, 1)]).unwrap());
        assert!(!m.is_p(&[(2, 0)]).unwrap());
        assert_eq!(m.winning_moves(&[(2, 0)]).unwrap(), vec![(0, vec![1])]);
        assert!(m.is_p(&[(1, 9)]).is_err());
        assert!(m.is_p(&[(3, 0)]).is_err());
        assert!(OptionTable::new(vec![0, 1], vec![0, 1], vec![0]).is_err());
    }

    #[test]
    fn limit_is_an_error_not_a_hang() {
        let kayles = Rule::TakeAndBreak("0.77".parse().unwrap());
        let games = [MisereGame::Rule(&kayles)];
        let mut m = Misere::new(&games, 10_000, &NoControl);
        let e = m.is_p(&[(0, 1_000_000_000_000_000_000)]).unwrap_err();
        assert!(e.to_string().contains("max_positions = 10000"), "{e}");
        assert!(
            matches!(e, Error::SearchLimit { limit: 10_000, .. }),
            "{e:?}"
        );
        assert!(m.positions() <= 10_000);
    }

    #[test]
    fn batch_matches_single() {
        let kayles = Rule::TakeAndBreak("0.77".parse().unwrap());
        let games = [MisereGame::Rule(&kayles)];
        let rows: Vec<u64> = (0..300u64).map(|i| (i * 7 + i / 5) % 9).collect();
        let got = misere_outcomes(&games, &rows, 3, 1 << 20, &NoControl).unwrap();
        let mut m = Misere::new(&games, 1 << 20, &NoControl);
        for (r, &g) in rows.chunks(3).zip(&got) {
            let c: Vec<Comp> = r.iter().map(|&h| (0, h)).collect();
            assert_eq!(m.is_p(&c).unwrap(), g);
        }
    }
}
