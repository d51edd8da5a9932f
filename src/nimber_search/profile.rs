//! Counters of where a search's nodes go, kept only when asked for
//! ([`Search::with_profile`](super::Search::with_profile)): by the root's question, by the
//! largest candidate of the set asked, by the component's size, by depth, and how many nodes
//! search again a component the table already held "not" bits of (a question on it failed
//! before, and a new one asks for other values); and each of the root's options searched, with
//! its answer and its nodes (what a large value's proof pays for: issue 42's mid-game positions).

/// Where a search's nodes went.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Profile {
    /// Nodes under each of the root's questions "is G = k?" (index `k`; the root component is
    /// the largest one of the position searched).
    pub by_root_question: Vec<u64>,
    /// Nodes by the largest candidate of the set asked (index: that value).
    pub by_largest: Vec<u64>,
    /// Nodes by the number of candidates asked.
    pub by_candidates: Vec<u64>,
    /// Nodes by the component's cells.
    pub by_size: Vec<u64>,
    /// Nodes by depth (the root component at 0).
    pub by_depth: Vec<u64>,
    /// Nodes that ended with the component's exact value.
    pub exact: u64,
    /// Nodes whose component the table knew not to have some values (searched before).
    pub again: u64,
    /// Nodes whose component was searched again with its values known to be past `0..k`
    /// for some `k >= 1` (an iterative deepening step), by `k`.
    pub deepening: Vec<u64>,
    /// Questions raced between the set question and deepening (see `race.rs`).
    pub races: u64,
    /// Races the set question won.
    pub race_set: u64,
    /// Races deepening won (the rest: deepening reached the set's smallest candidate).
    pub race_deepen: u64,
    /// Nodes of the attempts stopped by their budget.
    pub race_spent: u64,
    /// Each of the root's options that a question of the root searched (those the tables
    /// settled when the root opened are left out), in the order they were asked.
    pub root: Vec<RootAsk>,
    /// The current depth and root question (bookkeeping).
    pub(super) depth: usize,
    pub(super) root_question: usize,
}

/// One of the root's options searched under a question of the root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RootAsk {
    /// The root's question it was asked under: "is G = k?" (`k`; 0 for [`is_zero`]).
    ///
    /// [`is_zero`]: super::Search::is_zero
    pub question: usize,
    /// Its place among the root's options, in [`Board::ordered_options`]'s order.
    ///
    /// [`Board::ordered_options`]: crate::board::Board::ordered_options
    pub option: usize,
    /// The values it was asked for (bit `v` for value `v`).
    pub asked: u128,
    /// Its value, when the answer settled it (always when it is one of `asked`); `None` when it
    /// is none of them.
    pub value: Option<u32>,
    /// The nodes the answer took.
    pub nodes: u64,
}

fn bump(v: &mut Vec<u64>, i: usize) {
    if v.len() <= i {
        v.resize(i + 1, 0);
    }
    v[i] += 1;
}

impl Profile {
    /// One node: a component of `size` cells asked for `set` (bits), the table having known it
    /// not to have the values of `not`.
    pub(super) fn node(&mut self, size: u32, set: u128, not: u32) {
        bump(&mut self.by_root_question, self.root_question);
        bump(&mut self.by_largest, (127 - set.leading_zeros()) as usize);
        bump(&mut self.by_candidates, set.count_ones() as usize);
        bump(&mut self.by_size, size as usize);
        bump(&mut self.by_depth, self.depth);
        if not != 0 {
            self.again += 1;
            let covered = not.trailing_ones() as usize;
            if covered > 0 {
                bump(&mut self.deepening, covered);
            }
        }
    }

    /// One of the root's options, `option` in the board's order, asked for `asked`: its value
    /// `value` (`None`: not one of those), after `nodes` nodes.
    pub(super) fn root_option(
        &mut self,
        option: usize,
        asked: u128,
        value: Option<u32>,
        nodes: u64,
    ) {
        self.root.push(RootAsk {
            question: self.root_question,
            option,
            asked,
            value,
            nodes,
        });
    }

    /// Adds `other`'s counters (a thread's of a parallel search) to these.
    pub(super) fn add(&mut self, other: &Profile) {
        let sum = |a: &mut Vec<u64>, b: &[u64]| {
            if a.len() < b.len() {
                a.resize(b.len(), 0);
            }
            a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        };
        sum(&mut self.by_root_question, &other.by_root_question);
        sum(&mut self.by_largest, &other.by_largest);
        sum(&mut self.by_candidates, &other.by_candidates);
        sum(&mut self.by_size, &other.by_size);
        sum(&mut self.by_depth, &other.by_depth);
        sum(&mut self.deepening, &other.deepening);
        self.exact += other.exact;
        self.again += other.again;
        self.races += other.races;
        self.race_set += other.race_set;
        self.race_deepen += other.race_deepen;
        self.race_spent += other.race_spent;
        self.root.extend(other.root.iter().cloned());
    }
}

impl std::fmt::Display for Profile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let row = |f: &mut std::fmt::Formatter<'_>, name: &str, v: &[u64]| {
            let cells: Vec<String> = v
                .iter()
                .enumerate()
                .filter(|(_, &n)| n > 0)
                .map(|(i, n)| format!("{i}:{n}"))
                .collect();
            writeln!(f, "  {name}: {}", cells.join(" "))
        };
        let total: u64 = self.by_size.iter().sum();
        writeln!(
            f,
            "profile: {total} nodes, {} exact, {} on components searched before",
            self.exact, self.again
        )?;
        writeln!(
            f,
            "  races {}: won by the set question {}, by deepening {}; nodes of stopped attempts {}",
            self.races, self.race_set, self.race_deepen, self.race_spent
        )?;
        row(f, "by root question k", &self.by_root_question)?;
        row(f, "by largest candidate", &self.by_largest)?;
        row(f, "by candidates", &self.by_candidates)?;
        row(f, "by size", &self.by_size)?;
        row(f, "by depth", &self.by_depth)?;
        row(f, "again, past 0..k", &self.deepening)?;
        // The root's options searched, by question and by answer: "value:nodes(options)", "-"
        // for "none of the values asked".
        let last = self.root.iter().map(|r| r.question).max();
        for k in 0..last.map_or(0, |m| m + 1) {
            let mut by: Vec<(Option<u32>, u64, usize)> = Vec::new();
            for r in self.root.iter().filter(|r| r.question == k && r.nodes > 0) {
                match by.iter_mut().find(|b| b.0 == r.value) {
                    Some(b) => (b.1, b.2) = (b.1 + r.nodes, b.2 + 1),
                    None => by.push((r.value, r.nodes, 1)),
                }
            }
            if by.is_empty() {
                continue;
            }
            by.sort_unstable_by_key(|b| b.0.map_or(u32::MAX, |v| v));
            let cells: Vec<String> = by
                .iter()
                .map(|(v, n, c)| match v {
                    Some(v) => format!("{v}:{n}({c})"),
                    None => format!("-:{n}({c})"),
                })
                .collect();
            writeln!(
                f,
                "  root's options searched under k={k}, by answer: {}",
                cells.join(" ")
            )?;
        }
        Ok(())
    }
}
