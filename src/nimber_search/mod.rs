//! The value of one position of a [`Board`] game by depth-first search, beside the tabulating
//! engine of [`crate::graph::state`] (which settles every reachable state): this one proves only
//! what the question needs.
//!
//! A position is a sum of components, and its value the XOR of theirs. The search asks one
//! question of a component `C`: "is G(C) in the set S?" (Beling and Rogalski's pruning, 2020),
//! answered with G(C) when it is:
//! - G(C) is one of 0..=n for n options, and each option settled rules one value out: its own,
//!   or, when its value is not among those left, the largest left (the options still to come
//!   are then too few to cover the values below it). So each option is asked only for the
//!   values left up to the largest candidate, less the largest left, and the search stops as
//!   soon as no candidate is left;
//! - two equal parts of an option cancel;
//! - an option is a sum: its smaller components get their exact values (smallest first, each
//!   cached), and the question goes on about its largest component alone, with the set moved
//!   by the XOR of the others (`{v ^ x : v in S}`);
//! - the exact value of a component is found by iterative deepening on the nimber: "is
//!   G(C) = 0?", "is G(C) = 1?", ... each a search that usually stops at the first option with
//!   that value, and the one that fails because G(C) is smaller learns G(C) on the way;
//! - a component of a few cells is searched for its exact value, whatever the question;
//! - a question whose smallest candidate lies above a value the tables do not exclude (from 4
//!   up, or with an excluded value between them) is raced against deepening from that value,
//!   with growing node budgets (`race.rs`): when G(C) is small, the set question must settle
//!   every option for every value up to the set's, and its exact value costs far less (Node
//!   Kayles 3 x 21, value 5: 105,893 nodes instead of 528,188; Cram 3 x 16, value 4: 10.4
//!   million instead of 152 million).
//!
//! Everything learnt goes into fixed-size [`Table`]s (the memory budget, split between a small
//! table for components of a few cells and a large one), keyed by the components' canonical
//! keys: exact values, and the values a component is known not to have. An option whose parts
//! the tables all know costs no search (the options are looked up one by one, in the board's
//! order, until one settles the question); the others are searched easiest first (least sum of
//! squared part sizes; among equal ones, in the board's order of options). The game may know
//! values without search ([`Board::known`]: Cram's symmetry strategies), and so may a caller,
//! through [`Search::with_known`]. The search polls its [`Control`] at a multiple of a few
//! thousand nodes once [`POLL_INTERVAL`](crate::control::POLL_INTERVAL) has passed, with the
//! nodes searched so far. [`Search::value_threads`] runs it on several threads sharing the
//! tables (ABDADA: see `parallel.rs`).
//!
//! ```
//! use grundy::board::Cram;
//! use grundy::control::NoControl;
//! use grundy::nimber_search::Search;
//! let cram = Cram::new(4, 5).unwrap();
//! let mut search = Search::new(&cram, 16 << 20).unwrap(); // a 16 MiB table
//! assert_eq!(search.value(cram.empty(), &NoControl).unwrap(), 2);
//! assert!(search.stats().nodes > 0);
//! ```

mod cache;
mod checkpoint;
mod parallel;
mod profile;
mod progress;
mod race;
mod table;

pub use checkpoint::{read_header, FileError, Header};
pub use parallel::Split;
pub use profile::{Profile, RootAsk};
pub use progress::{RootProgress, Watch};
pub use table::{NarrowTable, Policy, Table};

use table::AnyTable;

use crate::board::{Board, Fact};
use crate::control::Control;
use crate::control::Poller;
use crate::error::{Error, Result};
use cache::KeyCache;
use std::sync::Arc;

/// Components of at most this many cells go to the small table, and are searched for their
/// exact value whatever is asked of them: their search is short, and an exact value answers
/// every later question, where one that only rules a value out may need a second search
/// (Cram 3x6 760 nodes instead of 931, 0.54 ms instead of 0.63; 4x5 654 instead of 741; larger
/// boards within the noise; 10 cells did better on some boards and worse on others).
const SMALL_SIZE: u32 = 8;
/// The small table's share of the budget: at most this, and at most a sixteenth.
const SMALL_BUDGET: u64 = 2 << 20;
/// The smallest table: one bucket.
const MIN_BUDGET: u64 = table::MIN_BYTES;

/// Nodes searched between two looks at the clock.
const POLL_NODES: u64 = 1 << 12;
/// Nodes searched between two looks at the stop flag of a parallel search.
const HALT_NODES: u64 = 1 << 6;
/// The fewest nodes an option of a marked node takes for a thread of a parallel search to read
/// the table for the node again after it: the others seldom settle a node meanwhile (Cram 5x8:
/// reading after every option, 1.6 M reads per run, 1.5 a node, found 3 to 5 answers).
const REPROBE_NODES: u64 = 1 << 5;

/// A caller's known values: `Some(G)` for a component whose value it knows.
pub type Known<'a> = dyn Fn(u128) -> Option<u32> + Sync + 'a;

/// Counters of a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SearchStats {
    /// Questions "is G(C) in S?" that the tables did not answer.
    pub nodes: u64,
    /// Entries in the table now.
    pub table_entries: u64,
    /// Entries the table can hold.
    pub table_capacity: u64,
    /// Bytes the table takes.
    pub table_bytes: u64,
}

/// A component met by the search, with its key and size worked out once.
#[derive(Debug, Clone, Copy)]
struct Part {
    cells: u128,
    key: u128,
    size: u32,
}

/// The components of `pos` as [`Part`]s (keys through `keys`), pushed onto `out`, but those
/// whose size tells their value ([`Board::value_of_size`]): the XOR of their values. `cells`
/// is scratch.
#[inline]
fn push_parts<B: Board + ?Sized>(
    board: &B,
    keys: &mut KeyCache,
    pos: u128,
    cells: &mut Vec<u128>,
    out: &mut Vec<Part>,
) -> u32 {
    cells.clear();
    board.components(pos, cells);
    let mut known = 0;
    for &c in cells.iter() {
        let size = board.size(c);
        match board.value_of_size(size) {
            Some(v) => known ^= v,
            None => out.push(Part {
                cells: c,
                key: keys.key(board, c),
                size,
            }),
        }
    }
    known
}

/// One option during a node's search: its parts not known yet, and the XOR of those known.
struct Pending {
    /// Range of its unknown parts in the node's part buffer.
    parts: std::ops::Range<usize>,
    /// XOR of the known parts' values.
    known: u32,
    /// The sum of its unknown parts' squared sizes (the order of the search: easiest first).
    cost: u32,
    /// Put off by a thread of a parallel search (another was in its largest part).
    put_off: bool,
    /// Its place in the board's order of the node's options (for [`Profile::root`]).
    index: u32,
}

/// A node's buffers, kept in a pool so that the search allocates only while it goes deeper
/// than before.
#[derive(Default)]
struct Node {
    opts: Vec<u128>,
    /// An option's components, before they become parts.
    cells: Vec<u128>,
    /// The options' parts, one option after the other.
    parts: Vec<Part>,
    pending: Vec<Pending>,
}

/// A search for values of positions of one game, with its table (kept between questions).
pub struct Search<'a, B: Board + ?Sized> {
    board: &'a B,
    /// Components of more than [`SMALL_SIZE`] cells (shared with the threads of a parallel
    /// search).
    table: Arc<AnyTable>,
    /// Components of at most [`SMALL_SIZE`] cells: a small table that stays in the caches, and
    /// that the large components never push out.
    small: Arc<AnyTable>,
    known: Option<&'a Known<'a>>,
    nodes: u64,
    /// Buffers reused by the nodes (one set per level of the recursion).
    pool: Vec<Node>,
    keys: KeyCache,
    /// What the threads of a parallel search share (set on each of them): the flag that stops
    /// them, and the marks of the nodes they are in.
    team: Option<&'a parallel::Team>,
    /// Where the nodes go, when asked for ([`Search::with_profile`]).
    profile: Option<Box<Profile>>,
    /// The node count at which a race's attempt stops (see `race.rs`).
    limit: race::Limit,
    /// What a full table keeps.
    policy: Policy,
    /// Where the search reports the root's progress ([`Search::watch`]).
    hook: progress::Hook,
}

impl<'a, B: Board + ?Sized> Search<'a, B> {
    /// A search on `board` whose table takes at most `budget` bytes.
    ///
    /// The budget bounds the table, the only part of the search that grows with the number of
    /// positions seen; the recursion itself keeps a few buffers of options per level (a few
    /// KiB per level, at most one level per move of the longest game). A smaller budget only
    /// makes the search slower, never wrong.
    ///
    /// # Errors
    /// [`Error::Invalid`] when `budget` is below two of the smallest tables (352 bytes);
    /// [`Error::Memory`] when the machine lacks the memory.
    pub fn new(board: &'a B, budget: u64) -> Result<Self> {
        // A budget too small to split goes to the main table, with the smallest small table.
        let small = (budget / 16).min(SMALL_BUDGET);
        // Keys of 64 bits take 16-byte entries, four to a cache line.
        let narrow = board.key_bits() <= 64;
        let (small, table) = if small >= MIN_BUDGET && budget - small >= MIN_BUDGET {
            (
                AnyTable::with_budget(small, narrow)?,
                AnyTable::with_budget(budget - small, narrow)?,
            )
        } else if budget >= 2 * MIN_BUDGET {
            (
                AnyTable::with_budget(MIN_BUDGET, narrow)?,
                AnyTable::with_budget(budget - MIN_BUDGET, narrow)?,
            )
        } else {
            return Err(Error::Invalid(format!(
                "the memory budget must be at least {} bytes, not {budget}",
                2 * MIN_BUDGET
            )));
        };
        Ok(Search {
            board,
            table: Arc::new(table),
            small: Arc::new(small),
            known: None,
            nodes: 0,
            pool: Vec::new(),
            keys: KeyCache::new(),
            team: None,
            profile: None,
            limit: race::Limit::default(),
            policy: Policy::default(),
            hook: progress::Hook::new(),
        })
    }

    /// The same search, asking `known` for a component's value before searching it.
    ///
    /// `known` must be right whenever it answers; it is asked once for each component the table
    /// does not hold, and its answers go into the table.
    ///
    /// ```
    /// use grundy::board::Cram;
    /// use grundy::control::NoControl;
    /// use grundy::nimber_search::Search;
    /// let cram = Cram::new(6, 6).unwrap();
    /// let mirror = |c: u128| cram.mirror_zero(c);
    /// let mut search = Search::new(&cram, 1 << 20).unwrap().with_known(&mirror);
    /// assert_eq!(search.value(cram.empty(), &NoControl).unwrap(), 0); // at once
    /// assert_eq!(search.stats().nodes, 0);
    /// ```
    pub fn with_known(mut self, known: &'a Known<'a>) -> Self {
        self.known = Some(known);
        self
    }

    /// The same search, racing by `tuning` (the tests race often and stop attempts often).
    #[cfg(test)]
    fn with_tuning(mut self, tuning: race::Tuning) -> Self {
        self.limit.tuning = tuning;
        self
    }

    /// The same search, counting where its nodes go ([`Profile`]; a little slower).
    pub fn with_profile(mut self) -> Self {
        self.profile = Some(Box::default());
        self
    }

    /// Where the nodes went so far, when [`Search::with_profile`] asked for it.
    pub fn profile(&self) -> Option<&Profile> {
        self.profile.as_deref()
    }

    /// Counters so far.
    pub fn stats(&self) -> SearchStats {
        SearchStats {
            nodes: self.nodes,
            table_entries: self.table.entries() + self.small.entries(),
            table_capacity: self.table.capacity() + self.small.capacity(),
            table_bytes: self.table.bytes() + self.small.bytes(),
        }
    }

    /// The value of `pos`: the XOR of its components' values.
    ///
    /// # Errors
    /// Whatever `ctl` returns (the search stops and passes it on; the table keeps what was
    /// learnt, so asking again goes faster); [`Error::Invalid`] for a
    /// component whose value is over 127 (no board of 128 cells has one: a value is at most
    /// the length of the longest play).
    pub fn value(&mut self, pos: u128, ctl: &dyn Control) -> Result<u32> {
        let mut poll = Poller::new(ctl, 0);
        let mut nb = self.take();
        let mut v = self.parts_of(pos, &mut nb.cells, &mut nb.parts);
        let mut r = Ok(());
        for &c in &nb.parts {
            self.hook.set_root(c.cells);
            match self.exact(c, &mut poll) {
                Ok(x) => v ^= x,
                Err(e) => {
                    r = Err(e);
                    break;
                }
            }
        }
        self.pool.push(nb);
        r.map(|()| v)
    }

    /// Whether `pos` is a P-position (value 0), which may take far less search than its value.
    ///
    /// # Errors
    /// As [`Search::value`].
    pub fn is_zero(&mut self, pos: u128, ctl: &dyn Control) -> Result<bool> {
        let mut poll = Poller::new(ctl, 0);
        let mut nb = self.take();
        let known = self.parts_of(pos, &mut nb.cells, &mut nb.parts);
        if let Some(c) = nb.parts.last() {
            self.hook.set_root(c.cells);
        }
        let r = self.sum_in_set(&nb.parts, xor_set(1, known), &mut poll);
        self.pool.push(nb);
        Ok(r? == Some(known))
    }

    /// The options of `pos` that are P-positions: the winning moves, in the order of
    /// [`Board::options`].
    ///
    /// # Errors
    /// As [`Search::value`].
    pub fn winning_moves(&mut self, pos: u128, ctl: &dyn Control) -> Result<Vec<u128>> {
        let mut opts = Vec::new();
        self.board.options(pos, &mut opts);
        let mut out = Vec::new();
        for o in opts {
            if self.is_zero(o, ctl)? {
                out.push(o);
            }
        }
        Ok(out)
    }

    /// The parts of a position's own components ([`push_parts`]), sorted by size (the search
    /// solves the smaller parts of a sum first); the XOR of those left out.
    fn parts_of(&mut self, pos: u128, cells: &mut Vec<u128>, out: &mut Vec<Part>) -> u32 {
        let known = push_parts(self.board, &mut self.keys, pos, cells, out);
        out.sort_unstable_by_key(|p| p.size);
        known
    }

    /// The table for components of `size` cells.
    #[inline]
    fn table_for(&self, size: u32) -> &AnyTable {
        if size <= SMALL_SIZE {
            &self.small
        } else {
            &self.table
        }
    }

    /// A node's buffers, from the pool, cleared.
    fn take(&mut self) -> Node {
        let mut nb = self.pool.pop().unwrap_or_default();
        nb.opts.clear();
        nb.parts.clear();
        nb.pending.clear();
        nb
    }

    /// For a sum of components `parts` (sorted by size): `Some(G)`, its value, when the search
    /// settled it (always when G is in `set`, bit `v` for value `v`), else `None` (G is not in
    /// `set`). The smaller parts by their exact values, the largest by the search.
    fn sum_in_set(&mut self, parts: &[Part], set: u128, poll: &mut Poller) -> Result<Option<u32>> {
        let Some((&last, rest)) = parts.split_last() else {
            return Ok(Some(0));
        };
        let mut x = 0;
        for &c in rest {
            x ^= self.exact(c, poll)?;
        }
        Ok(self.in_set(last, xor_set(set, x), poll)?.map(|v| v ^ x))
    }

    /// What the table, the game ([`Board::known`]) or the caller's hook knows of a component:
    /// its exact value, or the bits of values below 32 it does not have. The game and the hook
    /// are asked only when the table knows nothing, and what they know goes into the table.
    #[inline]
    fn lookup(&mut self, c: Part) -> (Option<u32>, u32) {
        let (key, size) = (c.key, c.size);
        let (exact, not) = self.table_for(size).probe(key);
        if exact.is_some() || not != 0 {
            return (exact, not);
        }
        let v = match self.board.known(c.cells) {
            Fact::Exact(v) => Some(v),
            Fact::Not(not) => {
                let cost = self.policy.cost(size, 0);
                self.table_for(size).store_not(key, not, cost);
                return (None, not);
            }
            Fact::Unknown => self.known.and_then(|f| f(c.cells)),
        };
        if let Some(v) = v {
            let cost = self.policy.cost(size, 0);
            self.table_for(size).store_exact(key, v, cost);
        }
        (v, 0)
    }

    /// G(c), for a component `c`: iterative deepening, "is G(c) = k?" for
    /// k = 0, 1, ... (each question that fails because G(c) < k settles G(c) on the way; asking
    /// for every value at once would take every option's exact value).
    fn exact(&mut self, c: Part, poll: &mut Poller) -> Result<u32> {
        for k in 0..128 {
            if let Some(p) = self.profile.as_deref_mut() {
                if p.depth == 0 {
                    p.root_question = k;
                }
            }
            if let Some(v) = self.in_set(c, 1 << k, poll)? {
                return Ok(v);
            }
        }
        Err(too_large())
    }

    /// For a component `c`: `Some(G(c))` when the search settled G(c) (always when it is in
    /// `set`), `None` when G(c) is not in `set`. The tables' answer when they have one; else
    /// a search of `c`'s options for the candidates they leave, its answer stored.
    fn in_set(&mut self, c: Part, set: u128, poll: &mut Poller) -> Result<Option<u32>> {
        let (exact, not) = self.lookup(c);
        if let Some(v) = exact {
            return Ok(Some(v));
        }
        if c.size > SMALL_SIZE && self.limit.worth_racing(set, not) {
            return self.race(c, set, not, poll);
        }
        self.in_set_once(c, set, not, poll)
    }

    /// [`Search::in_set`] past the lookup, with what the tables know not to be G(c): one
    /// search of `c`'s options.
    fn in_set_once(
        &mut self,
        c: Part,
        set: u128,
        not: u32,
        poll: &mut Poller,
    ) -> Result<Option<u32>> {
        let set = if c.size <= SMALL_SIZE {
            !u128::from(not)
        } else {
            set & !u128::from(not)
        };
        if set == 0 {
            return Ok(None);
        }
        let before = self.nodes;
        self.nodes += 1;
        if self.nodes % POLL_NODES == 0 {
            poll.tick(self.nodes)?;
        }
        if self.nodes > self.limit.nodes {
            return Err(self.limit.stop());
        }
        if let Some(team) = self.team {
            if self.nodes % HALT_NODES == 0 && team.stopped() {
                return Err(Error::Interrupted);
            }
        }
        if let Some(p) = self.profile.as_deref_mut() {
            p.node(c.size, set, not);
            p.depth += 1;
        }
        // `covered`: the values excluded from 0 up, each some option's value (G is past them
        // all), which the options need not be asked for.
        let covered = not.trailing_ones();
        let mut nb = self.take();
        let r = match self.team {
            None => self.search_options(c, set, covered, &mut nb, poll),
            Some(team) => {
                // The other threads put off this node while this one is in it.
                let mark = team.enter(c);
                let r = self.search_options(c, set, covered, &mut nb, poll);
                team.leave(mark);
                r
            }
        };
        self.pool.push(nb);
        if let Some(p) = self.profile.as_deref_mut() {
            p.depth -= 1;
            p.exact += u64::from(matches!(r, Ok(Settled::Exact(_))));
        }
        let (key, size) = (c.key, c.size);
        let cost = self.policy.cost(size, self.nodes - before);
        match r? {
            Settled::Exact(g) => {
                self.table_for(size).store_exact(key, g, cost);
                Ok(Some(g))
            }
            Settled::Within(excluded) => {
                self.table_for(size).store_not(key, excluded as u32, cost);
                Ok(None)
            }
        }
    }

    /// Beling and Rogalski's search of `c`'s options for the candidates `set`.
    ///
    /// `p` holds the values G(c) may still have: at first 0..=n for n options (the mex of n
    /// values is at most n), and each option settled takes one value out of it: its own value
    /// when that is in `p`, else the largest of `p` (if G(c) were that largest, the options
    /// left, one fewer than the values below it in `p`, could not cover those). Values past
    /// the largest candidate only count (they go first). So an option is asked only whether
    /// its value is one of `p`'s, but the largest; none needs asking when that is empty. G(c)
    /// is exact once every option is settled, and the search stops when `p` holds no
    /// candidate. When G(c) is known to be past `0..covered` (the table excludes them all), each
    /// of those values is some option's, so `p` starts without them, and options are asked only
    /// for the values above: "is G(c) = k?" after 0..k were excluded asks each option "= k?".
    ///
    /// On a thread of a parallel search (ABDADA, see [`parallel`]), the options after the first
    /// that another thread is searching are put off until the others are settled (by then the
    /// table often holds their answer), and the table is read again for `c` after each option
    /// that took [`REPROBE_NODES`] or more: another thread may have settled it meanwhile.
    fn search_options(
        &mut self,
        c: Part,
        set: u128,
        covered: u32,
        nb: &mut Node,
        poll: &mut Poller,
    ) -> Result<Settled> {
        let mut p = match self.open_options(c.cells, set, covered, nb) {
            Opened::Settled(s) => return Ok(s),
            Opened::Open(p) => p,
        };
        let set = set & low_bits(nb.opts.len() + 1);
        let Some(team) = self.team else {
            let root = self.hook.is_root(c.cells);
            for i in 0..nb.pending.len() {
                self.ask_option(nb, i, &mut p, poll, root)?;
                if !p.narrow(set) {
                    return Ok(Settled::Within(p.excluded()));
                }
            }
            return p.exact().map(Settled::Exact).ok_or_else(too_large);
        };
        let mut put_off = false;
        let root = self.hook.is_root(c.cells);
        for pass in 0..2 {
            for i in 0..nb.pending.len() {
                if pass == 0 {
                    // The eldest option always goes first, even while another thread is in it.
                    if i > 0 && team.busy(&nb.parts[nb.pending[i].parts.clone()]) {
                        nb.pending[i].put_off = true;
                        put_off = true;
                        continue;
                    }
                } else if !nb.pending[i].put_off {
                    continue;
                }
                let before = self.nodes;
                self.ask_option(nb, i, &mut p, poll, root)?;
                if !p.narrow(set) {
                    return Ok(Settled::Within(p.excluded()));
                }
                if c.size >= team.mark_cells() && self.nodes - before >= REPROBE_NODES {
                    if let Some(s) = self.answered(c, set) {
                        return Ok(s);
                    }
                }
            }
            if !put_off {
                break;
            }
        }
        p.exact().map(Settled::Exact).ok_or_else(too_large)
    }

    /// Asks pending option `i` of `nb` for the values `p` still wants, and settles it in `p`
    /// (and in the root's progress, at the `root`).
    #[inline]
    fn ask_option(
        &mut self,
        nb: &mut Node,
        i: usize,
        p: &mut Values,
        poll: &mut Poller,
        root: bool,
    ) -> Result<()> {
        let wanted = p.wanted();
        if wanted == 0 {
            p.settle(None);
            if root {
                self.hook.settled(None);
            }
            return Ok(());
        }
        let q = &nb.pending[i];
        let (known, index) = (q.known, q.index);
        let parts = &mut nb.parts[q.parts.clone()];
        parts.sort_unstable_by_key(|r| r.size);
        let before = self.nodes;
        let v = self.sum_in_set(parts, xor_set(wanted, known), poll)?;
        let v = v.map(|v| v ^ known);
        p.settle(v);
        if root {
            self.hook.settled(v);
            if let Some(prof) = self.profile.as_deref_mut() {
                prof.root_option(index as usize, wanted, v, self.nodes - before);
            }
        }
        Ok(())
    }

    /// What the tables know now of `c` that answers "is G(c) in `set`?" (another thread of a
    /// parallel search may have stored it since this one opened `c`).
    #[inline]
    fn answered(&self, c: Part, set: u128) -> Option<Settled> {
        match self.table_for(c.size).probe(c.key) {
            (Some(g), _) => Some(Settled::Exact(g)),
            (None, not) if set & !u128::from(not) == 0 => Some(Settled::Within(u128::from(not))),
            _ => None,
        }
    }

    /// A node's first half: the options of `c` into `nb.opts`, each option's parts and keys,
    /// two equal parts cancelled, and the tables' answers, one option at a time (an answer that
    /// settles the question spares the options after it; working out a few options ahead, so
    /// that their probes' cache misses overlap, costs more than it saves). Either that settles the node, or `nb.pending` holds
    /// the options still to search, easiest first (the least sum of squared part sizes; among
    /// equal ones, the board's order), and the values G may still have are returned.
    fn open_options(&mut self, c: u128, set: u128, covered: u32, nb: &mut Node) -> Opened {
        let board = self.board;
        board.ordered_options(c, &mut nb.opts);
        let n = nb.opts.len();
        let set = set & low_bits(n + 1);
        if set == 0 {
            // G is at most n.
            return Opened::Settled(Settled::Within(!low_bits(n + 1)));
        }
        let mut p = Values::new(n, set, covered);
        let root = self.hook.is_root(c);
        if root {
            self.hook.question(set, n);
        }
        for i in 0..n {
            let start = nb.parts.len();
            let o = nb.opts[i];
            let mut known = push_parts(board, &mut self.keys, o, &mut nb.cells, &mut nb.parts);
            let end = nb.parts.len();
            let mut unknown = start;
            for j in start..end {
                // Two equal parts add up to 0: both go.
                if let Some(d) = (start..unknown).find(|&d| nb.parts[d].key == nb.parts[j].key) {
                    unknown -= 1;
                    nb.parts.swap(d, unknown);
                    continue;
                }
                match self.lookup(nb.parts[j]).0 {
                    Some(v) => known ^= v,
                    None => {
                        nb.parts.swap(unknown, j);
                        unknown += 1;
                    }
                }
            }
            if unknown == start {
                p.settle(Some(known));
                if root {
                    self.hook.settled(Some(known));
                }
                if !p.narrow(set) {
                    return Opened::Settled(Settled::Within(p.excluded()));
                }
            } else {
                let cost = nb.parts[start..unknown]
                    .iter()
                    .map(|p| p.size * p.size)
                    .sum();
                nb.pending.push(Pending {
                    parts: start..unknown,
                    known,
                    cost,
                    put_off: false,
                    index: i as u32,
                });
            }
        }
        // Stable: among equal costs, the board's order.
        nb.pending.sort_by_key(|q| q.cost);
        Opened::Open(p)
    }
}

/// What [`Search::open_options`] leaves: a settled node, or the values G may still have.
enum Opened {
    Settled(Settled),
    Open(Values),
}

/// What a search of a component's options settled.
enum Settled {
    /// Its value.
    Exact(u32),
    /// A set of values (as bits) that holds its value and none of the candidates.
    Within(u128),
}

/// The values a component may still have while its options are searched (see
/// [`Search::search_options`]), as far as the candidates go: `bits`, within `0..=bound` (the
/// largest candidate left), and `over` more values past `bound`, which go first. If G is at
/// most `bound`, it is one of `bits`.
struct Values {
    bits: u128,
    bound: u32,
    over: usize,
}

impl Values {
    /// 0..=n, as far as the largest candidate of `set` (at most `n`, and not empty), less the
    /// values `0..covered`, known to be values of options (not yet settled): each counts as a
    /// value past the bound, so that the option that has it takes it out when settled, whatever
    /// it answers.
    #[inline]
    fn new(n: usize, set: u128, covered: u32) -> Values {
        let bound = 127 - set.leading_zeros();
        let covered = covered.min(bound);
        Values {
            bits: low_bits(bound as usize + 1) & !low_bits(covered as usize),
            bound,
            over: n - bound as usize + covered as usize,
        }
    }

    /// One more option settled, of value `v` (`None`: not one of those asked for).
    #[inline]
    fn settle(&mut self, v: Option<u32>) {
        match v {
            Some(v) if v < 128 && self.bits >> v & 1 == 1 => self.bits &= !(1 << v),
            _ if self.over > 0 => self.over -= 1,
            _ => self.bits &= !top_bit(self.bits),
        }
    }

    /// Narrows to the candidates of `set` left: `false` when there is none.
    #[inline]
    fn narrow(&mut self, set: u128) -> bool {
        let c = self.bits & set;
        if c == 0 {
            return false;
        }
        let bound = 127 - c.leading_zeros();
        if bound < self.bound {
            let keep = low_bits(bound as usize + 1);
            self.over += (self.bits & !keep).count_ones() as usize;
            self.bits &= keep;
            self.bound = bound;
        }
        true
    }

    /// The values known not to be G (when there is no candidate left).
    #[inline]
    fn excluded(&self) -> u128 {
        low_bits(self.bound as usize + 1) & !self.bits
    }

    /// The values to ask the next option for: all, but the largest when none is past it.
    #[inline]
    fn wanted(&self) -> u128 {
        if self.over == 0 {
            self.bits & !top_bit(self.bits)
        } else {
            self.bits
        }
    }

    /// The value, once every option is settled.
    #[inline]
    fn exact(&self) -> Option<u32> {
        (self.over == 0 && self.bits.count_ones() == 1).then(|| self.bits.trailing_zeros())
    }
}

/// The highest set bit of `m` (0 for 0).
#[inline]
fn top_bit(m: u128) -> u128 {
    if m == 0 {
        0
    } else {
        1 << (127 - m.leading_zeros())
    }
}

fn too_large() -> Error {
    Error::Invalid("a component has a value over 127, past what the nimber search handles".into())
}

/// The lowest `n` bits (`n <= 128`).
#[inline]
fn low_bits(n: usize) -> u128 {
    if n >= 128 {
        u128::MAX
    } else {
        (1 << n) - 1
    }
}

/// `{v ^ x : v in set}` for a set of values below 128 (as bits) and `x < 128`: for each bit of
/// `x`, swap the blocks of values that differ in that bit.
#[inline]
fn xor_set(set: u128, x: u32) -> u128 {
    const HALVES: [u128; 7] = [
        0x5555_5555_5555_5555_5555_5555_5555_5555,
        0x3333_3333_3333_3333_3333_3333_3333_3333,
        0x0f0f_0f0f_0f0f_0f0f_0f0f_0f0f_0f0f_0f0f,
        0x00ff_00ff_00ff_00ff_00ff_00ff_00ff_00ff,
        0x0000_ffff_0000_ffff_0000_ffff_0000_ffff,
        0x0000_0000_ffff_ffff_0000_0000_ffff_ffff,
        0x0000_0000_0000_0000_ffff_ffff_ffff_ffff,
    ];
    let mut s = set;
    for (b, &m) in HALVES.iter().enumerate() {
        if x >> b & 1 == 1 {
            s = (s & m) << (1 << b) | (s >> (1 << b)) & m;
        }
    }
    s
}

#[cfg(test)]
mod tests;
