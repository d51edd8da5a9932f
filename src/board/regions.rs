//! The components reachable from some positions of a [`Board`], tabulated one entry per key,
//! for the exhaustive misère search (`crate::position::Misere` over an option table): misère
//! sums do not add up by XOR, so every component that play can reach must be listed.
//!
//! Components with one key are the same game (up to the board's symmetries, or isomorphism on a
//! graph), so they share an entry: on Cram, a region and its translates, turns and mirror images
//! are one entry, where a table by cells had one per placement.
//!
//! ```
//! use grundy::board::{tabulate_regions, Cram};
//! use grundy::control::NoControl;
//! let cram = Cram::new(1, 5).unwrap();
//! let t = tabulate_regions(&cram, &[cram.empty()], 100, &NoControl).unwrap();
//! // Every move leaves a strip of 3 (its reduced part: a domino), or a domino and a dead cell:
//! // two entries, the domino and the start, by size.
//! assert_eq!(t.keys.len(), 2);
//! assert_eq!(t.roots, vec![1]);
//! ```

use super::Board;
use crate::control::Control;
use crate::error::{Error, Result};
use crate::hash::FxMap;
use crate::memory;

/// An option table of components, entries by size (each option's parts come before it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegionTable {
    /// Options of entry `i`: `opt_start[i]..opt_start[i + 1]`.
    pub opt_start: Vec<u64>,
    /// Parts of option `o`: `parts[part_start[o]..part_start[o + 1]]`.
    pub part_start: Vec<u64>,
    /// The entries the options' parts are.
    pub parts: Vec<u64>,
    /// Entry `i`'s key ([`Board::key`]), or the start itself for an entry of a start.
    pub keys: Vec<u128>,
    /// The entry of each start.
    pub roots: Vec<u64>,
}

/// Tabulates the starts (one entry each: a whole position) and every component reachable from
/// them, by key; each option of an entry is the list of its components' entries (distinct
/// options only). Polls `ctl` with the entries so far against `limit`.
///
/// The entries are met level by level (a level: one more move from the starts). Once a few
/// levels are known, their sizes give an estimate of the whole table ([`estimate_entries`]);
/// one over [`REFUSE_FACTOR`] times `limit` ends the tabulation at once (Cram 5 x 7 after 0.1 s,
/// where reaching a million entries took 5 s).
///
/// # Errors
/// [`Error::SearchLimit`] when there are more than `limit` entries, or the estimate says so;
/// the error of `ctl`.
pub fn tabulate_regions<B: Board + ?Sized>(
    board: &B,
    starts: &[u128],
    limit: usize,
    ctl: &dyn Control,
) -> Result<RegionTable> {
    // Entries in the order met: (cells of one of them, key, whether a start).
    let mut met: Vec<(u128, u128, bool)> = Vec::new();
    let mut by_key: FxMap<u128, usize> = FxMap::default();
    let mut by_start: FxMap<u128, usize> = FxMap::default();
    let refuse = |how: String| Error::SearchLimit {
        message: format!(
            "the misère search tabulates the components reachable from these boards (one per \
             shape), {how} max_positions = {limit}: misère sums do not add up by XOR, so every \
             one must be listed"
        ),
        limit: limit as u64,
    };
    let over = |n: usize| -> Result<()> {
        if n > limit {
            return Err(refuse("more than".into()));
        }
        Ok(())
    };
    let depth = starts.iter().map(|s| s.count_ones()).max().unwrap_or(0);
    let mut roots = Vec::with_capacity(starts.len());
    for &s in starts {
        let id = *by_start.entry(s).or_insert_with(|| {
            met.push((s, s, true));
            met.len() - 1
        });
        roots.push(id);
    }
    over(met.len())?;
    let mut options: Vec<Vec<Vec<usize>>> = Vec::new();
    // Words the options hold: each option's parts, and its list's header (three words).
    let mut parts_held = 0u64;
    let (mut opts, mut cells) = (Vec::new(), Vec::new());
    // Sizes of the levels met so far; the entries from `level_end` on are the next level's.
    let mut levels = vec![met.len()];
    let mut level_end = met.len();
    let mut i = 0;
    while i < met.len() {
        if i == level_end {
            levels.push(met.len() - level_end);
            level_end = met.len();
            if let Some(e) = estimate_entries(&levels, depth) {
                if e > REFUSE_FACTOR * limit as f64 {
                    let e = if e >= 1e6 {
                        format!("{:.1} million", e / 1e6)
                    } else {
                        format!("{e:.0}")
                    };
                    let how = format!(
                        "about {e} by the sizes of its first {} levels ({}), far more than",
                        levels.len(),
                        levels
                            .iter()
                            .map(usize::to_string)
                            .collect::<Vec<_>>()
                            .join(", ")
                    );
                    return Err(refuse(how));
                }
            }
        }
        if i % 4096 == 0 {
            ctl.check(met.len() as u64, limit as u64)?;
            // Room for the tabulation to grow by half again (its lists and map double at a time):
            // the entry count's limit says nothing of bytes (Cram 8 x 8 went past 21 GB).
            memory::check(held(met.len(), i, parts_held) / 2)?;
        }
        opts.clear();
        board.options(met[i].0, &mut opts);
        let mut mine: Vec<Vec<usize>> = Vec::with_capacity(opts.len());
        for &o in &opts {
            cells.clear();
            board.components(o, &mut cells);
            let mut parts = Vec::with_capacity(cells.len());
            for &c in &cells {
                let k = board.key(c);
                let id = *by_key.entry(k).or_insert_with(|| {
                    met.push((c, k, false));
                    met.len() - 1
                });
                parts.push(id);
            }
            over(met.len())?;
            parts.sort_unstable();
            mine.push(parts);
        }
        mine.sort_unstable();
        mine.dedup();
        parts_held += mine.iter().map(|o| o.len() as u64 + 3).sum::<u64>();
        options.push(mine);
        i += 1;
    }
    // The table's lists, made while the tabulation is still held.
    memory::check(met.len() as u64 * 48 + parts_held * 8)?;
    // By size, the starts after the components of their size: a move removes cells.
    let mut order: Vec<usize> = (0..met.len()).collect();
    order.sort_by_key(|&i| (met[i].0.count_ones(), met[i].2, i));
    let mut id = vec![0u64; met.len()];
    for (j, &i) in order.iter().enumerate() {
        id[i] = j as u64;
    }
    let mut t = RegionTable {
        opt_start: vec![0],
        part_start: vec![0],
        parts: Vec::new(),
        keys: order.iter().map(|&i| met[i].1).collect(),
        roots: roots.iter().map(|&r| id[r]).collect(),
    };
    for &i in &order {
        for o in &options[i] {
            t.parts.extend(o.iter().map(|&p| id[p]));
            t.part_start.push(t.parts.len() as u64);
        }
        t.opt_start.push(t.part_start.len() as u64 - 1);
    }
    Ok(t)
}

/// About the bytes a tabulation holds with `met` entries met, `done` of them expanded into
/// options that hold `parts_held` words: each entry's cells, key and flag, its place in the map by
/// key, and its options' list.
fn held(met: usize, done: usize, parts_held: u64) -> u64 {
    met as u64 * (48 + 40) + done as u64 * 24 + parts_held * 8
}

/// How far over the limit an estimate must be to refuse at once: the estimates of the boards
/// measured were 1.5 to 3 times the tables' true sizes (Cram 5 x 6: about 745,000 for 246,354
/// entries; 3 x 12: 2.0 million for 990,729; 4 x 8: 1.0 million for 486,258).
pub const REFUSE_FACTOR: f64 = 4.0;

/// An estimate of the entries of a whole table from the sizes of its first levels (`levels[d]`:
/// entries first met `d` moves from the starts, the last level complete), at most `depth` levels
/// in all; `None` until there is enough to go on (five levels, the last of 10,000 entries or
/// more).
///
/// The sizes rise and fall like a bell: the ratio of one level to the one before falls by a
/// nearly steady factor (Cram 5 x 7: 17, 23, 14.2, 9.0, 5.3, 2.9, 1.4, 0.63). The estimate goes
/// on from the last level with the last ratio, each time times the smaller of the last two such
/// factors, until a level holds less than one entry. It comes out over the true size, since
/// the factor itself falls as the cells run out.
///
/// ```
/// use grundy::board::estimate_entries;
/// // Cram 5 x 7's first levels; its table holds 3,080,310 entries.
/// let e = estimate_entries(&[1, 17, 393, 5591, 50478], 35).unwrap();
/// assert!(e > 3.08e6 && e < 4.0 * 3.08e6);
/// assert_eq!(estimate_entries(&[1, 17, 393], 35), None);
/// ```
pub fn estimate_entries(levels: &[usize], depth: u32) -> Option<f64> {
    let n = levels.len();
    if n < 5 || levels[n - 1] < 10_000 || levels[n - 4..].contains(&0) {
        return None;
    }
    let c: Vec<f64> = levels[n - 4..].iter().map(|&x| x as f64).collect();
    let r = [c[1] / c[0], c[2] / c[1], c[3] / c[2]];
    let fall = (r[1] / r[0]).min(r[2] / r[1]).min(1.0);
    let mut total: f64 = levels.iter().map(|&x| x as f64).sum();
    let (mut size, mut ratio) = (c[3], r[2]);
    for _ in n..=depth as usize {
        ratio *= fall;
        size *= ratio;
        if size < 1.0 {
            break;
        }
        total += size;
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Cram, NodeKayles, SimpleGraph};
    use crate::control::NoControl;
    use crate::engine::testing::Rng;
    use std::collections::HashMap as Map;

    /// Misère P from the table: a sum of entries (sorted), no move means the mover wins.
    fn table_p(t: &RegionTable, sum: Vec<u64>, memo: &mut Map<Vec<u64>, bool>) -> bool {
        if let Some(&p) = memo.get(&sum) {
            return p;
        }
        let mut any = false;
        let mut p = true;
        for (k, &e) in sum.iter().enumerate() {
            for o in t.opt_start[e as usize]..t.opt_start[e as usize + 1] {
                any = true;
                let (a, b) = (t.part_start[o as usize], t.part_start[o as usize + 1]);
                let mut next: Vec<u64> = sum[..k].iter().chain(&sum[k + 1..]).copied().collect();
                next.extend(&t.parts[a as usize..b as usize]);
                next.sort_unstable();
                if table_p(t, next, memo) {
                    p = false;
                }
            }
        }
        let r = any && p;
        memo.insert(sum, r);
        r
    }

    /// Misère P of whole positions by the plain options (no components, no keys).
    fn plain_p(pos: u128, options: &dyn Fn(u128) -> Vec<u128>, memo: &mut Map<u128, bool>) -> bool {
        if let Some(&p) = memo.get(&pos) {
            return p;
        }
        let opts = options(pos);
        let r = !opts.is_empty() && opts.iter().all(|&o| !plain_p(o, options, memo));
        memo.insert(pos, r);
        r
    }

    /// Cram and Node Kayles on a cube: the table's misère outcomes equal those of the whole
    /// positions, for random starts; each part of an option comes before its entry.
    #[test]
    fn region_tables_keep_misere_outcomes() {
        let mut rng = Rng(17);
        let cram = Cram::new(4, 4).unwrap();
        let g = cram.grid().clone();
        let cram_opts = |p: u128| {
            let mut out = Vec::new();
            for i in 0..16 {
                let (r, c) = (i / 4, i % 4);
                for (r2, c2) in [(r, c + 1), (r + 1, c)] {
                    if r2 < 4 && c2 < 4 && p & g.cell(r, c) != 0 && p & g.cell(r2, c2) != 0 {
                        out.push(p & !g.cell(r, c) & !g.cell(r2, c2));
                    }
                }
            }
            out
        };
        let edges: Vec<_> = (0..16usize)
            .flat_map(|v| (0..4).map(move |b| (v, v ^ 1 << b)))
            .filter(|&(u, v)| u < v)
            .collect();
        let cube = NodeKayles::new(SimpleGraph::new(16, &edges).unwrap());
        let cube_opts = |p: u128| {
            (0..16)
                .filter(|&v| p >> v & 1 == 1)
                .map(|v| {
                    edges.iter().fold(p & !(1 << v), |q, &(a, b)| {
                        if a == v {
                            q & !(1 << b)
                        } else if b == v {
                            q & !(1 << a)
                        } else {
                            q
                        }
                    })
                })
                .collect::<Vec<u128>>()
        };
        let (mut m1, mut m2) = (Map::new(), Map::new());
        for _ in 0..20 {
            let starts: Vec<u128> = (0..2).map(|_| u128::from(rng.below(1 << 16))).collect();
            let t = tabulate_regions(&cram, &starts, 1 << 20, &NoControl).unwrap();
            for (n, w) in t.opt_start.windows(2).enumerate() {
                for o in w[0]..w[1] {
                    let (a, b) = (t.part_start[o as usize], t.part_start[o as usize + 1]);
                    assert!(t.parts[a as usize..b as usize]
                        .iter()
                        .all(|&p| p < n as u64));
                }
            }
            for (k, &s) in starts.iter().enumerate() {
                let want = plain_p(s, &cram_opts, &mut m1);
                assert_eq!(
                    table_p(&t, vec![t.roots[k]], &mut Map::new()),
                    want,
                    "{s:#x}"
                );
            }
            let s = starts[0];
            let t = tabulate_regions(&cube, &[s], 1 << 20, &NoControl).unwrap();
            let want = plain_p(s, &cube_opts, &mut m2);
            assert_eq!(
                table_p(&t, vec![t.roots[0]], &mut Map::new()),
                want,
                "{s:#x}"
            );
        }
        let err = tabulate_regions(&cram, &[cram.empty()], 10, &NoControl).unwrap_err();
        assert!(matches!(err, Error::SearchLimit { limit: 10, .. }));
    }

    /// Level sizes measured on Cram rectangles (by a breadth-first count apart from this module)
    /// and their tables' sizes: every estimate is at least the true size, and under
    /// [`REFUSE_FACTOR`] times it, so a table that fits its limit is never refused.
    #[test]
    fn estimates_stay_within_the_refusal_factor() {
        let measured: [(&[usize], u32); 5] = [
            (&[1, 14, 239, 2234, 11328, 26706, 26132, 9094, 870, 5], 28),
            (
                &[1, 15, 279, 3149, 20559, 67009, 95951, 50871, 8220, 297, 3],
                30,
            ),
            (
                &[
                    1, 17, 393, 5591, 50478, 268741, 776923, 1105796, 692597, 166604, 12944, 224, 1,
                ],
                35,
            ),
            (
                &[
                    1, 16, 324, 3751, 25886, 95851, 172747, 138868, 44511, 4248, 55,
                ],
                32,
            ),
            (
                &[
                    1, 18, 399, 4919, 35924, 146961, 315125, 317991, 138073, 27910, 3208, 195, 5,
                ],
                36,
            ),
        ];
        for (levels, depth) in measured {
            let total: usize = levels.iter().sum();
            for n in 1..=levels.len() {
                if let Some(e) = estimate_entries(&levels[..n], depth) {
                    let r = e / total as f64;
                    assert!((0.99..REFUSE_FACTOR).contains(&r), "{levels:?} at {n}: {r}");
                }
            }
        }
    }

    /// Tables that fit their limit exactly are tabulated whole (never refused by the estimate);
    /// Cram 5 x 7 (3,080,310 entries) is refused by it before 60,000 entries are met.
    #[test]
    fn refuses_by_estimate_only_what_is_far_over() {
        for (r, c) in [(4, 7), (5, 5), (3, 9)] {
            let cram = Cram::new(r, c).unwrap();
            let whole = tabulate_regions(&cram, &[cram.empty()], usize::MAX, &NoControl).unwrap();
            let n = whole.keys.len();
            let t = tabulate_regions(&cram, &[cram.empty()], n, &NoControl).unwrap();
            assert_eq!(t, whole);
        }
        struct Count(std::sync::atomic::AtomicU64);
        impl crate::control::Control for Count {
            fn check(&self, done: u64, _: u64) -> Result<()> {
                self.0.fetch_max(done, std::sync::atomic::Ordering::Relaxed);
                Ok(())
            }
        }
        let seen = Count(0.into());
        let cram = Cram::new(5, 7).unwrap();
        let err = tabulate_regions(&cram, &[cram.empty()], 1_000_000, &seen).unwrap_err();
        let Error::SearchLimit { message, .. } = err else {
            panic!("{err:?}")
        };
        assert!(message.contains("first 5 levels"), "{message}");
        assert!(seen.0.into_inner() < 60_000);
    }
}
