use super::*;
use crate::board::{brute, Chomp, Cram, NodeKayles, SimpleGraph};
use crate::control::NoControl;
use crate::engine::testing::StopAt;
use crate::error::Error;

fn cram_options(rows: usize, cols: usize, pos: u128) -> Vec<u128> {
    let cram = Cram::new(rows, cols).unwrap();
    let mut out = Vec::new();
    cram.options(pos, &mut out);
    out
}

/// The smallest budget (two tables of one bucket and its slack: 2 x 176 bytes; Cram's keys
/// fit 64 bits, so each holds two buckets of 4 entries) still gives every value right, with the
/// tables never past it.
#[test]
fn search_tiny_budget_gives_right_values() {
    let cram = Cram::new(3, 4).unwrap();
    let all = brute::values(cram.empty(), |p| cram_options(3, 4, p));
    let mut tiny = Search::new(&cram, 352).unwrap();
    for (&pos, &v) in &all {
        assert_eq!(tiny.value(pos, &NoControl).unwrap(), v);
    }
    let s = tiny.stats();
    assert!(s.table_bytes <= 352 && s.table_entries <= 16 && s.table_capacity == 16);
    // A budget of 1 MiB: the tables take at most that.
    let big = Search::new(&cram, 1 << 20).unwrap().stats();
    assert!(big.table_bytes <= 1 << 20 && big.table_bytes > 1 << 19);
    assert!(matches!(Search::new(&cram, 351), Err(Error::Invalid(_))));
    assert!(matches!(
        Search::new(&cram, u64::MAX),
        Err(Error::Memory { .. })
    ));
}

/// An interrupting control stops the search with its error; the same search answers right
/// afterwards.
///
/// The search polls its control at a multiple of `POLL_NODES` nodes once `POLL_INTERVAL` (50 ms)
/// has passed, so `StopAt(0)` stops it at the first such multiple after 50 ms. The boards must
/// take far longer than that in any build: Cram 5 x 6 (35,034 nodes in both profiles) took the
/// release build some 35 ms, under the first poll, and the test failed there (and passed in the
/// debug build, ten times slower). 6 x 7 takes minutes and 5 x 9 seconds.
#[test]
fn search_interrupt_stops_with_the_error() {
    let cram = Cram::new(6, 7).unwrap();
    let mut search = Search::new(&cram, 1 << 20).unwrap();
    assert_eq!(
        search.value(cram.empty(), &StopAt(0)),
        Err(Error::Interrupted)
    );
    assert!(search.stats().nodes >= POLL_NODES);
    let cram = Cram::new(5, 9).unwrap();
    let mut search = Search::new(&cram, 1 << 20).unwrap();
    assert_eq!(
        search.is_zero(cram.empty(), &StopAt(0)),
        Err(Error::Interrupted)
    );
    let small = Cram::new(4, 4).unwrap();
    let mut s = Search::new(&small, 1 << 20).unwrap();
    assert_eq!(s.value(small.empty(), &NoControl).unwrap(), 0);
}

/// The node count of a search is a function of the board and the budget alone (no clock,
/// address or thread in it): the same for two searches whose tables lie at other addresses, one
/// of them on another thread. (Issue 43 suspected the build profile changed it; it does not:
/// `board_bench cram 5 6` counts 35,034 nodes in both.)
#[test]
fn search_nodes_do_not_depend_on_the_run() {
    let cram = Cram::new(5, 6).unwrap();
    let nodes = || {
        let mut s = Search::new(&cram, 4 << 20).unwrap();
        assert_eq!(s.value(cram.empty(), &NoControl).unwrap(), 2);
        s.stats().nodes
    };
    let here = nodes();
    let _keep = Search::new(&cram, 1 << 20).unwrap();
    let there = std::thread::scope(|sc| sc.spawn(nodes).join().unwrap());
    assert_eq!(here, there);
    assert!(here > 0);
}

/// Winning moves are exactly the options of value 0, on every reachable 3 x 5 Cram position
/// and 4 x 4 Chomp position; `is_zero` agrees with `value`.
#[test]
fn search_winning_moves_lead_to_p_positions() {
    let cram = Cram::new(3, 5).unwrap();
    let all = brute::values(cram.empty(), |p| cram_options(3, 5, p));
    let mut search = Search::new(&cram, 1 << 16).unwrap();
    for &pos in all.keys() {
        let wins = search.winning_moves(pos, &NoControl).unwrap();
        let want: Vec<u128> = cram_options(3, 5, pos)
            .into_iter()
            .filter(|o| all[o] == 0)
            .collect();
        assert_eq!(wins, want);
        assert_eq!(search.is_zero(pos, &NoControl).unwrap(), all[&pos] == 0);
    }
    let chomp = Chomp::new(4, 4).unwrap();
    let mut search = Search::new(&chomp, 1 << 16).unwrap();
    let square = chomp.start();
    let wins = search.winning_moves(square, &NoControl).unwrap();
    // On a square the only winning move leaves the L of the top row and the left column.
    assert_eq!(wins, vec![chomp.position(&[4, 1, 1, 1]).unwrap()]);
}

/// Node Kayles: the value of a sum of two disjoint paths is the XOR of theirs, through a graph
/// that is not a grid (keys are vertex sets).
#[test]
fn search_sums_xor() {
    let mut edges = Vec::new();
    for v in 0..9 {
        edges.push((v, v + 1));
    }
    for v in 11..20 {
        edges.push((v, v + 1));
    }
    // Two paths of 10 vertices and vertex 10 alone between them (*1).
    let game = NodeKayles::new(SimpleGraph::new(21, &edges).unwrap());
    let dawson = crate::engine::testing::exact("0.137", 12);
    let mut search = Search::new(&game, 1 << 16).unwrap();
    assert_eq!(
        search.value(game.start(), &NoControl).unwrap(),
        dawson[10] ^ dawson[10] ^ 1
    );
    let first = (1u128 << 10) - 1;
    assert_eq!(
        search.value(first | 1 << 20, &NoControl).unwrap(),
        dawson[10] ^ 1
    );
}

/// `xor_set` moves every element of a set by the XOR, on random sets.
#[test]
fn search_xor_set_moves_every_value() {
    let mut rng = crate::engine::testing::Rng(99);
    for _ in 0..200 {
        let set = u128::from(rng.below(u64::MAX)) << 64 | u128::from(rng.below(u64::MAX));
        let x = rng.below(128) as u32;
        let want = (0..128u32)
            .filter(|&v| set >> v & 1 == 1)
            .fold(0u128, |m, v| m | 1 << (v ^ x));
        assert_eq!(xor_set(set, x), want);
    }
}

/// Cram whose `known` tells, of each component, that its value is none of `0..G` (the most a
/// prefix of excluded values can say short of the value): the search starts its nodes without
/// those values, and every value still equals the brute force's, on every position of 3 x 5 and
/// 4 x 4 reachable from the empty board.
#[test]
fn search_known_lower_values_keep_every_value() {
    use crate::board::{Board, Fact};
    use std::collections::HashMap;
    use std::sync::Mutex;
    struct Below<'a> {
        cram: &'a Cram,
        rows: usize,
        cols: usize,
        truth: Mutex<HashMap<u128, u32>>,
    }
    impl Board for Below<'_> {
        fn options(&self, pos: u128, out: &mut Vec<u128>) {
            self.cram.options(pos, out);
        }
        fn components(&self, pos: u128, out: &mut Vec<u128>) {
            self.cram.components(pos, out);
        }
        fn key(&self, c: u128) -> u128 {
            self.cram.key(c)
        }
        fn known(&self, c: u128) -> Fact {
            let (rows, cols) = (self.rows, self.cols);
            let mut truth = self.truth.lock().unwrap();
            let v = *truth
                .entry(c)
                .or_insert_with(|| brute::values(c, |p| cram_options(rows, cols, p))[&c]);
            Fact::Not(((1u64 << v) - 1) as u32)
        }
    }
    for (rows, cols) in [(3, 5), (4, 4)] {
        let cram = Cram::new(rows, cols).unwrap();
        let all = brute::values(cram.empty(), |p| cram_options(rows, cols, p));
        let below = Below {
            cram: &cram,
            rows,
            cols,
            truth: Mutex::new(HashMap::new()),
        };
        let mut search = Search::new(&below, 1 << 16).unwrap();
        for (&pos, &v) in &all {
            assert_eq!(search.value(pos, &NoControl).unwrap(), v, "{pos:#x}");
        }
    }
}

/// The value of `start` by a plain memoised mex over the components reachable from it
/// ([`tabulate_regions`](crate::board::tabulate_regions): one entry per key, parts before the
/// entries they are options of), with no pruning: the reference for values too large for the
/// brute force's boards.
fn region_mex<B: crate::board::Board>(board: &B, start: u128) -> u32 {
    let t = crate::board::tabulate_regions(board, &[start], 1 << 24, &NoControl).unwrap();
    let mut v = vec![0u32; t.keys.len()];
    for i in 0..v.len() {
        let opts = t.opt_start[i] as usize..t.opt_start[i + 1] as usize;
        let mut seen = vec![false; opts.len() + 1];
        for o in opts {
            let parts = &t.parts[t.part_start[o] as usize..t.part_start[o + 1] as usize];
            let x = parts.iter().fold(0, |x, &p| x ^ v[p as usize]) as usize;
            if x < seen.len() {
                seen[x] = true;
            }
        }
        v[i] = seen.iter().position(|&s| !s).unwrap() as u32;
    }
    v[t.roots[0] as usize]
}

/// The positions of a brute force's values, the largest first (then by mask): a fixed order, in
/// which the first questions meet an empty table (in the map's own order, which changes from run
/// to run, the small positions sometimes came first and no attempt ran out of its budget).
fn largest_first(all: &std::collections::HashMap<u128, u32>) -> Vec<(u128, u32)> {
    let mut v: Vec<(u128, u32)> = all.iter().map(|(&p, &g)| (p, g)).collect();
    v.sort_unstable_by_key(|&(p, _)| (std::cmp::Reverse(p.count_ones()), p));
    v
}

/// Racing on every question with a gap below its candidates, attempts stopped after a node or
/// two: the race between the set question and deepening (`race.rs`) stops and restarts all the
/// time, and every value of every position reachable from Cram 3 x 5 and 4 x 4 and Node Kayles
/// on the 3 x 5 grid still equals the brute force's (each board's positions asked in turn of
/// one search, so that later questions meet what the stopped attempts left in the table).
#[test]
fn search_race_keeps_every_value() {
    let aggressive = [
        race::Tuning {
            first: 1,
            growth: 2,
            deepen: 1,
            from: 1,
        },
        race::Tuning {
            first: 3,
            growth: 3,
            deepen: 2,
            from: 2,
        },
    ];
    for tuning in aggressive {
        let (mut races, mut spent) = (0, 0);
        for (rows, cols) in [(3, 5), (4, 4)] {
            let cram = Cram::new(rows, cols).unwrap();
            let all = brute::values(cram.empty(), |p| cram_options(rows, cols, p));
            let mut search = Search::new(&cram, 1 << 16)
                .unwrap()
                .with_tuning(tuning)
                .with_profile();
            for (pos, v) in largest_first(&all) {
                assert_eq!(search.value(pos, &NoControl).unwrap(), v, "{pos:#x}");
            }
            let p = search.profile().unwrap();
            (races, spent) = (races + p.races, spent + p.race_spent);
        }
        let game = NodeKayles::new(SimpleGraph::grid(3, 5).unwrap());
        let all = brute::values(game.start(), |p| {
            let mut out = Vec::new();
            game.options(p, &mut out);
            out
        });
        let mut search = Search::new(&game, 1 << 16)
            .unwrap()
            .with_tuning(tuning)
            .with_profile();
        for (pos, v) in largest_first(&all) {
            assert_eq!(search.value(pos, &NoControl).unwrap(), v, "{pos:#x}");
        }
        let p = search.profile().unwrap();
        (races, spent) = (races + p.races, spent + p.race_spent);
        // The race ran, and attempts were stopped.
        assert!(
            races > 0 && spent > 0,
            "{races} races, {spent} nodes stopped"
        );
    }
}

/// The search with the default race and with racing on every gap.
const RACE_EVERYWHERE: race::Tuning = race::Tuning {
    first: 2,
    growth: 2,
    deepen: 3,
    from: 1,
};

/// Asserts that the search of `start` with each of `tunings` (a table of `budget` bytes) gives the
/// plain mex over regions.
fn assert_matches_region_mex<B: Board>(
    board: &B,
    start: u128,
    budget: u64,
    tunings: &[race::Tuning],
    name: &str,
) {
    let want = region_mex(board, start);
    for &tuning in tunings {
        let mut search = Search::new(board, budget).unwrap().with_tuning(tuning);
        assert_eq!(search.value(start, &NoControl).unwrap(), want, "{name}");
    }
}

/// Node Kayles on the 3 x n grid, whose values reach 5 (3 x 12) and 4 (3 x 14), by the search
/// with the default race and with racing everywhere, against the plain mex over regions.
#[test]
fn search_large_values_match_the_region_mex() {
    for n in [7, 9, 12] {
        let game = NodeKayles::new(SimpleGraph::grid(3, n).unwrap());
        let tunings = [race::Tuning::default(), RACE_EVERYWHERE];
        assert_matches_region_mex(&game, game.start(), 1 << 20, &tunings, &format!("3x{n}"));
    }
}

/// The same, further: Node Kayles 3 x 13 to 3 x 20 and Cram 3 x 6 to 3 x 11 (3 x 6 has value 4)
/// against the plain mex over regions (long: `cargo test --release -- --ignored nimber`).
#[test]
#[ignore]
fn nimber_search_large_values_match_the_region_mex_long() {
    let tunings = [race::Tuning::default(), RACE_EVERYWHERE];
    for n in 13..=20 {
        let game = NodeKayles::new(SimpleGraph::grid(3, n).unwrap());
        assert_matches_region_mex(&game, game.start(), 16 << 20, &tunings, &format!("3x{n}"));
    }
    for n in 6..=11 {
        let cram = Cram::new(3, n).unwrap();
        assert_matches_region_mex(&cram, cram.empty(), 16 << 20, &tunings, &format!("3x{n}"));
    }
}

/// Node Kayles 3 x 21 to 3 x 24, terms past OEIS A316632 (which ends at 3 x 16), by the search
/// and by the plain mex over every region shape reachable (4,225,810 of them for 3 x 24): the
/// second method that `docs/results.md` names for these terms (long, about 3 minutes: `cargo
/// test --release -- --ignored a316632`).
#[test]
#[ignore]
fn nimber_search_a316632_terms_21_to_24_match_the_region_mex_long() {
    for n in 21..=24 {
        let game = NodeKayles::new(SimpleGraph::grid(3, n).unwrap());
        let tunings = [race::Tuning::default()];
        assert_matches_region_mex(&game, game.start(), 64 << 20, &tunings, &format!("3x{n}"));
    }
}

/// Node Kayles on an r x c grid written cell by cell, for a second method that shares nothing
/// with the search's board but the trait: moves by row and column, regions by a flood fill, and
/// as key the least of a region's images under the square's symmetries (a region and its
/// transpose are the same graph), moved to the corner, in rows of the board's longer side.
struct PlainGrid {
    rows: usize,
    cols: usize,
    /// Each cell's neighbours, by row and column.
    adj: Vec<u128>,
}

impl PlainGrid {
    fn new(rows: usize, cols: usize) -> Self {
        let adj = (0..rows * cols)
            .map(|i| {
                let (r, c) = (i / cols, i % cols);
                [
                    (r.wrapping_sub(1), c),
                    (r + 1, c),
                    (r, c.wrapping_sub(1)),
                    (r, c + 1),
                ]
                .into_iter()
                .filter(|&(a, b)| a < rows && b < cols)
                .fold(0u128, |m, (a, b)| m | 1 << (a * cols + b))
            })
            .collect();
        PlainGrid { rows, cols, adj }
    }

    fn cells(&self, m: u128) -> impl Iterator<Item = usize> {
        let mut rest = m;
        std::iter::from_fn(move || {
            let i = (rest != 0).then(|| rest.trailing_zeros() as usize)?;
            rest &= rest - 1;
            Some(i)
        })
    }
}

impl Board for PlainGrid {
    fn options(&self, pos: u128, out: &mut Vec<u128>) {
        for i in self.cells(pos) {
            out.push(pos & !(1 << i) & !self.adj[i]);
        }
    }

    fn components(&self, pos: u128, out: &mut Vec<u128>) {
        let mut left = pos;
        while left != 0 {
            // A flood fill, a cell at a time.
            let first = left.trailing_zeros() as usize;
            let (mut part, mut todo) = (1u128 << first, 1u128 << first);
            while todo != 0 {
                let i = todo.trailing_zeros() as usize;
                todo &= todo - 1;
                let new = self.adj[i] & pos & !part;
                part |= new;
                todo |= new;
            }
            left &= !part;
            out.push(part);
        }
    }

    fn key(&self, part: u128) -> u128 {
        let frame = self.rows.max(self.cols);
        let at = |i: usize| (i / self.cols, i % self.cols);
        let (mut r0, mut r1, mut c0, mut c1) = (usize::MAX, 0, usize::MAX, 0);
        for (r, c) in self.cells(part).map(at) {
            (r0, r1, c0, c1) = (r0.min(r), r1.max(r), c0.min(c), c1.max(c));
        }
        let (h, w) = (r1 - r0 + 1, c1 - c0 + 1);
        let mut best = u128::MAX;
        for t in 0..8 {
            // Flipped up-down (bit 0), left-right (bit 1), then transposed (bit 2); no taller
            // than wide, so that the rows fit the board's shorter side and the key 128 bits.
            let taller = if t & 4 != 0 { w > h } else { h > w };
            if taller {
                continue;
            }
            let mut k = 0u128;
            for (r, c) in self.cells(part).map(at) {
                let a = if t & 1 != 0 { r1 - r } else { r - r0 };
                let b = if t & 2 != 0 { c1 - c } else { c - c0 };
                let (a, b) = if t & 4 != 0 { (b, a) } else { (a, b) };
                k |= 1 << (a * frame + b);
            }
            best = best.min(k);
        }
        best
    }
}

/// The Node Kayles grids that `docs/results.md` marks as checked by the plain tabulation below:
/// `(rows, last)` for the boards `rows x cols`, `rows <= cols <= last`, read from the atlas's
/// own constant (`CHECKED_GRIDS_TABULATED` in `python/grundy/surveys/atlas.py`), so that the
/// page and this test name the same boards.
fn grids_the_atlas_marks_checked() -> Vec<(usize, usize)> {
    let src = include_str!("../../python/grundy/surveys/atlas.py");
    let line = src
        .lines()
        .find(|l| l.starts_with("CHECKED_GRIDS_TABULATED = {"))
        .expect("atlas.py names CHECKED_GRIDS_TABULATED");
    let inner = line.split(['{', '}']).nth(1).unwrap();
    inner
        .split(',')
        .map(|kv| {
            let (k, v) = kv.split_once(':').unwrap();
            (k.trim().parse().unwrap(), v.trim().parse().unwrap())
        })
        .collect()
}

/// The value `docs/results.md` gives Node Kayles `rows x cols` in its table of `rows`-row boards.
fn value_on_the_results_page(rows: usize, cols: usize) -> Option<u32> {
    let page = include_str!("../../docs/results.md");
    let table = page
        .split(&format!("## Node Kayles, {rows} x n\n"))
        .nth(1)?;
    let row = table
        .lines()
        .take_while(|l| !l.starts_with("## "))
        .find(|l| l.starts_with(&format!("| {rows} x {cols} |")))?;
    row.split('|').nth(2)?.trim().parse().ok()
}

/// The plain board agrees with Node Kayles on every position of small grids (values by the
/// brute force), so the long test below compares two independent computations.
#[test]
fn plain_grid_matches_the_brute_force() {
    for (rows, cols) in [(2, 3), (3, 4), (4, 4), (2, 7)] {
        let plain = PlainGrid::new(rows, cols);
        let game = NodeKayles::new(SimpleGraph::grid(rows, cols).unwrap());
        let all = brute::values(game.start(), |p| {
            let mut out = Vec::new();
            plain.options(p, &mut out);
            out
        });
        assert_eq!(region_mex(&plain, game.start()), all[&game.start()]);
        let mut search = Search::new(&game, 1 << 16).unwrap();
        for (&pos, &v) in all.iter().filter(|(p, _)| p.count_ones() > 2) {
            assert_eq!(region_mex(&plain, pos), v, "{rows} x {cols} {pos:#x}");
            assert_eq!(search.value(pos, &NoControl).unwrap(), v);
        }
    }
    assert!(grids_the_atlas_marks_checked().len() >= 4);
    assert_eq!(value_on_the_results_page(3, 12), Some(5));
    assert_eq!(value_on_the_results_page(5, 7), Some(2));
}

/// Node Kayles on grids of 4 to 7 rows, each by the search and by the plain mex over every
/// region shape reachable, with `PlainGrid`'s own moves, regions and keys (630,875 shapes for
/// 4 x 14): the second method that `docs/results.md` names for these boards (long, about 2
/// minutes: `cargo test --release -- --ignored grids`).
#[test]
#[ignore]
fn nimber_search_node_kayles_grids_match_a_plain_tabulation_long() {
    for (rows, last) in grids_the_atlas_marks_checked() {
        for cols in rows..=last {
            let plain = PlainGrid::new(rows, cols);
            let game = NodeKayles::new(SimpleGraph::grid(rows, cols).unwrap());
            let want = region_mex(&plain, game.start());
            let mut search = Search::new(&game, 64 << 20).unwrap();
            let got = search.value(game.start(), &NoControl).unwrap();
            assert_eq!(got, want, "{rows} x {cols}");
            assert_eq!(
                value_on_the_results_page(rows, cols),
                Some(want),
                "{rows} x {cols}"
            );
        }
    }
}

/// The profile's account of the root's options ([`Profile::root`]): each option it names, by
/// its place in the board's order, has the value it says (or none of the values it was asked
/// for), against the plain mex over regions; on Cram 3 x 6 (value 4: the root asks "= 0?" to
/// "= 4?") and Node Kayles 3 x 9, with the default race and with racing everywhere (attempts
/// stopped part way record nothing).
#[test]
fn search_profile_names_the_root_options_right() {
    fn check<B: Board>(board: &B, start: u128, name: &str) {
        let mut comps = Vec::new();
        board.components(start, &mut comps);
        assert_eq!(comps.len(), 1, "{name}");
        let mut opts = Vec::new();
        board.ordered_options(comps[0], &mut opts);
        let truth: Vec<u32> = opts.iter().map(|&o| region_mex(board, o)).collect();
        for tuning in [race::Tuning::default(), RACE_EVERYWHERE] {
            let mut search = Search::new(board, 1 << 20)
                .unwrap()
                .with_tuning(tuning)
                .with_profile();
            let g = search.value(start, &NoControl).unwrap();
            assert_eq!(g, region_mex(board, start), "{name}");
            let p = search.profile().unwrap();
            assert!(
                p.root.iter().any(|r| r.question > 0),
                "{name}: one question"
            );
            assert!(p.root.iter().map(|r| r.nodes).sum::<u64>() <= search.stats().nodes);
            for r in &p.root {
                let t = truth[r.option];
                match r.value {
                    Some(v) => assert_eq!(v, t, "{name}: option {}", r.option),
                    None => assert_eq!(r.asked >> t & 1, 0, "{name}: option {}", r.option),
                }
                assert!(r.question as u32 <= g, "{name}");
            }
            // Every question of the root is in the printed account.
            let text = p.to_string();
            let last = p.root.iter().map(|r| r.question).max().unwrap();
            assert!(text.contains(&format!("under k={last}")), "{text}");
        }
    }
    let cram = Cram::new(3, 6).unwrap();
    check(&cram, cram.empty(), "Cram 3x6");
    let game = NodeKayles::new(SimpleGraph::grid(3, 9).unwrap());
    check(&game, game.start(), "Node Kayles 3x9");
}
