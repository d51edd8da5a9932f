//! Two-heap subtraction games: a position is a pair `(a, b)` and a move subtracts a vector
//! `(dx, dy)` from a fixed set (or, when unbounded, any positive multiple `k * (dx, dy)`) as long
//! as both heaps stay non-negative. Wythoff's game is `{(1, 0), (0, 1), (1, 1)}`, unbounded.
//!
//! [`TwoHeap::grid`] computes G(a, b) for `a < rows`, `b < cols`. Every move lowers `a + b`, so
//! the cells of one anti-diagonal `a + b = s` depend only on earlier anti-diagonals and are
//! settled in parallel. For unbounded moves the options of a cell along direction `(dx, dy)` are
//! the earlier cells of its ray; each ray keeps a bit set of the values seen on it (incremental
//! mex), so a cell costs a scan of a few words instead of a rescan of every option. Two cells of
//! one anti-diagonal never share a ray, so the updates do not conflict.
//!
//! ```
//! use grundy::control::NoControl;
//! use grundy::two_heap::TwoHeap;
//! let wythoff = TwoHeap::new(&[(1, 0), (0, 1), (1, 1)], true).unwrap();
//! let g = wythoff.grid(3, 3, &NoControl).unwrap();
//! assert_eq!(g, vec![0, 1, 2, 1, 2, 0, 2, 0, 1]);
//! ```

use crate::control::{Control, Poller};
use crate::error::{Error, Result};
use crate::memory;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};

/// Anti-diagonals shorter than this are settled on the calling thread.
/// (Small under test, so that small grids take the parallel path too.)
const PAR_DIAGONAL: usize = if cfg!(test) { 16 } else { 256 };

/// A two-heap subtraction game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TwoHeap {
    moves: Vec<(u32, u32)>,
    unbounded: bool,
}

impl TwoHeap {
    /// The game with the given move vectors (duplicates are dropped). [`Error::Invalid`] for
    /// `(0, 0)` (a move that changes nothing) or a component above `u32::MAX`.
    pub fn new(moves: &[(u64, u64)], unbounded: bool) -> Result<Self> {
        let mut out: Vec<(u32, u32)> = Vec::new();
        for &(dx, dy) in moves {
            if dx == 0 && dy == 0 {
                return Err(Error::Invalid(
                    "the move (0, 0) changes nothing: every move must take from a heap".into(),
                ));
            }
            let (Ok(x), Ok(y)) = (u32::try_from(dx), u32::try_from(dy)) else {
                return Err(Error::Invalid(format!(
                    "move ({dx}, {dy}) is too large: components are at most {}",
                    u32::MAX
                )));
            };
            if !out.contains(&(x, y)) {
                out.push((x, y));
            }
        }
        out.sort_unstable();
        Ok(TwoHeap {
            moves: out,
            unbounded,
        })
    }

    /// The move vectors, sorted.
    pub fn moves(&self) -> &[(u32, u32)] {
        &self.moves
    }

    /// Whether any positive multiple of a move vector may be subtracted.
    pub fn unbounded(&self) -> bool {
        self.unbounded
    }

    /// The options of `(a, b)`, each once, in order of move then multiple.
    pub fn options(&self, a: u64, b: u64) -> Vec<(u64, u64)> {
        let mut out = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for &(dx, dy) in &self.moves {
            let (dx, dy) = (dx as u64, dy as u64);
            let mut k = 1u64;
            while dx * k <= a && dy * k <= b {
                let o = (a - dx * k, b - dy * k);
                if seen.insert(o) {
                    out.push(o);
                }
                if !self.unbounded {
                    break;
                }
                k += 1;
            }
        }
        out
    }

    /// The most options a cell below `(rows, cols)` can have: a bound on every value.
    fn max_options(&self, rows: u64, cols: u64) -> u64 {
        let (a, b) = (rows.saturating_sub(1), cols.saturating_sub(1));
        self.moves
            .iter()
            .map(|&(dx, dy)| {
                if !self.unbounded {
                    1
                } else {
                    let ka = if dx == 0 { u64::MAX } else { a / dx as u64 };
                    let kb = if dy == 0 { u64::MAX } else { b / dy as u64 };
                    ka.min(kb)
                }
            })
            .sum()
    }

    /// G(a, b) for `a < rows`, `b < cols`, row-major (`rows * cols` values). Runs on the current
    /// rayon pool; `ctl` is polled about every
    /// [`POLL_INTERVAL`](crate::control::POLL_INTERVAL). [`Error::Memory`] when the grid and the
    /// ray bit sets would not fit.
    pub fn grid(&self, rows: usize, cols: usize, ctl: &dyn Control) -> Result<Vec<u32>> {
        let cells = (rows as u64)
            .checked_mul(cols as u64)
            .ok_or(Error::Memory {
                requested: u64::MAX,
                available: memory::available().unwrap_or(0),
            })?;
        if cells == 0 {
            return Ok(Vec::new());
        }
        let vmax = self.max_options(rows as u64, cols as u64);
        if vmax >= u32::MAX as u64 {
            return Err(Error::Invalid(format!(
                "a {rows} x {cols} grid may hold values above {}",
                u32::MAX
            )));
        }
        let words = (vmax as usize) / 64 + 1;
        // Rays: per move, one bit set per ray start (only for unbounded moves).
        let rays: Vec<usize> = if self.unbounded {
            self.moves
                .iter()
                .map(|&(dx, dy)| dx as usize * cols + dy as usize * rows)
                .collect()
        } else {
            Vec::new()
        };
        let total_rays: u64 = rays.iter().map(|&r| r as u64).sum();
        memory::check(
            cells
                .saturating_mul(4)
                .saturating_add(total_rays.saturating_mul(words as u64 * 8)),
        )?;
        let mut ray_base = Vec::with_capacity(rays.len());
        let mut acc = 0usize;
        for &r in &rays {
            ray_base.push(acc);
            acc += r;
        }
        // Per ray, how many leading words of its bit set are full: the values on a ray are
        // distinct, so the mex of a cell is at least each of its rays' mex, and the scan starts
        // there (each pointer only moves forward: amortised O(values / 64) per ray).
        let full: Vec<AtomicU32> = (0..acc)
            .into_par_iter()
            .map(|_| AtomicU32::new(0))
            .collect();
        let bits: Vec<AtomicU64> = (0..acc * words)
            .into_par_iter()
            .map(|_| AtomicU64::new(0))
            .collect();
        let grid: Vec<AtomicU32> = (0..cells)
            .into_par_iter()
            .map(|_| AtomicU32::new(0))
            .collect();
        let k = Cells {
            game: self,
            rows,
            cols,
            words,
            ray_base: &ray_base,
            full: &full,
            bits: &bits,
            grid: &grid,
        };
        by_diagonals(rows, cols, ctl, Vec::new, |scratch, a, b| {
            k.settle(a, b, scratch)
        })?;
        drop(bits);
        Ok(grid.into_iter().map(AtomicU32::into_inner).collect())
    }

    /// The misère outcomes of `(a, b)` for `a < rows`, `b < cols`, row-major: true for a
    /// P-position when the player who cannot move wins. A cell without options is N; any other
    /// is P when none of its options is P. For unbounded moves each ray remembers whether a
    /// P-cell lies on it, so a cell costs one look per move, as in [`TwoHeap::grid`]. Runs on the
    /// current rayon pool; `ctl` is polled about every
    /// [`POLL_INTERVAL`](crate::control::POLL_INTERVAL).
    ///
    /// ```
    /// use grundy::control::NoControl;
    /// use grundy::two_heap::TwoHeap;
    /// let wythoff = TwoHeap::new(&[(1, 0), (0, 1), (1, 1)], true).unwrap();
    /// let p = wythoff.misere_grid(3, 3, &NoControl).unwrap();
    /// // (0, 0) has no move: the player to move has won, so (0, 1) and (1, 0) are P, and
    /// // (2, 2) takes the place of normal play's (1, 2) and (2, 1).
    /// assert_eq!(p, vec![false, true, false, true, false, false, false, false, true]);
    /// ```
    ///
    /// # Errors
    /// [`Error::Memory`] when the grid would not fit; the control's error when it stops the work.
    pub fn misere_grid(&self, rows: usize, cols: usize, ctl: &dyn Control) -> Result<Vec<bool>> {
        let cells = (rows as u64)
            .checked_mul(cols as u64)
            .ok_or(Error::Memory {
                requested: u64::MAX,
                available: memory::available().unwrap_or(0),
            })?;
        if cells == 0 {
            return Ok(Vec::new());
        }
        let mut ray_base = Vec::new();
        let mut acc = 0usize;
        if self.unbounded {
            for &(dx, dy) in &self.moves {
                ray_base.push(acc);
                acc += dx as usize * cols + dy as usize * rows;
            }
        }
        memory::check(cells.saturating_add(acc as u64))?;
        let p: Vec<AtomicBool> = (0..cells).map(|_| AtomicBool::new(false)).collect();
        let ray_p: Vec<AtomicBool> = (0..acc).map(|_| AtomicBool::new(false)).collect();
        let settle = |_: &mut (), a: usize, b: usize| {
            let mut has_option = false;
            let mut p_option = false;
            for (i, &(dx, dy)) in self.moves.iter().enumerate() {
                let (dx, dy) = (dx as usize, dy as usize);
                if dx > a || dy > b {
                    continue;
                }
                has_option = true;
                p_option |= if self.unbounded {
                    ray_p[ray_base[i] + ray_of(rows, cols, a, b, dx, dy)].load(Relaxed)
                } else {
                    p[(a - dx) * cols + b - dy].load(Relaxed)
                };
            }
            if has_option && !p_option {
                p[a * cols + b].store(true, Relaxed);
                if self.unbounded {
                    for (i, &(dx, dy)) in self.moves.iter().enumerate() {
                        let r = ray_of(rows, cols, a, b, dx as usize, dy as usize);
                        ray_p[ray_base[i] + r].store(true, Relaxed);
                    }
                }
            }
        };
        by_diagonals(rows, cols, ctl, || (), settle)?;
        Ok(p.into_iter().map(AtomicBool::into_inner).collect())
    }
}

/// Calls `settle(scratch, a, b)` for every cell of a `rows x cols` grid, one anti-diagonal
/// `a + b = s` after another (every move lowers `a + b`, so a diagonal depends only on earlier
/// ones); the cells of a long diagonal in parallel, each thread with its own `init()` scratch.
/// Polls `ctl` about every [`POLL_INTERVAL`](crate::control::POLL_INTERVAL).
fn by_diagonals<S>(
    rows: usize,
    cols: usize,
    ctl: &dyn Control,
    init: impl Fn() -> S + Sync + Send,
    settle: impl Fn(&mut S, usize, usize) + Sync + Send,
) -> Result<()> {
    let cells = (rows * cols) as u64;
    ctl.check(0, cells)?;
    let mut poll = Poller::new(ctl, cells);
    let mut done = 0u64;
    for s in 0..rows + cols - 1 {
        let lo = s.saturating_sub(cols - 1);
        let hi = s.min(rows - 1);
        if hi + 1 - lo < PAR_DIAGONAL {
            let mut scratch = init();
            for a in lo..=hi {
                settle(&mut scratch, a, s - a);
            }
        } else {
            (lo..hi + 1)
                .into_par_iter()
                .with_min_len(256)
                .for_each_init(&init, |scratch, a| settle(scratch, a, s - a));
        }
        done += (hi + 1 - lo) as u64;
        poll.tick(done)?;
    }
    Ok(())
}

/// The index of the ray of `(a, b)` along move `(dx, dy)`, among that move's rays in a grid of
/// `rows x cols`: rays are named by their first cell, which has `a < dx` or `b < dy`.
#[inline]
fn ray_of(rows: usize, cols: usize, a: usize, b: usize, dx: usize, dy: usize) -> usize {
    let k = match (dx, dy) {
        (0, _) => b / dy,
        (_, 0) => a / dx,
        _ => (a / dx).min(b / dy),
    };
    let (a0, b0) = (a - k * dx, b - k * dy);
    if a0 < dx {
        a0 * cols + b0
    } else {
        dx * cols + b0 * rows + a0
    }
}

/// The shared state of one grid computation.
struct Cells<'a> {
    game: &'a TwoHeap,
    rows: usize,
    cols: usize,
    words: usize,
    ray_base: &'a [usize],
    full: &'a [AtomicU32],
    bits: &'a [AtomicU64],
    grid: &'a [AtomicU32],
}

impl Cells<'_> {
    /// The index of the ray of `(a, b)` along move `(dx, dy)` (see [`ray_of`]).
    #[inline]
    fn ray(&self, a: usize, b: usize, dx: usize, dy: usize) -> usize {
        ray_of(self.rows, self.cols, a, b, dx, dy)
    }

    /// Computes G(a, b) from earlier anti-diagonals and records it on its rays.
    #[inline]
    fn settle(&self, a: usize, b: usize, scratch: &mut Vec<u64>) {
        let g = if self.game.unbounded {
            let moves = &self.game.moves;
            let w = self.words;
            // Word-major bit sets (word i of every ray, then word i + 1): neighbouring cells of
            // an anti-diagonal lie on neighbouring rays and scan the same words, so they share
            // cache lines.
            let n = self.full.len();
            let mut base = [0usize; 8];
            let small = moves.len() <= 8;
            let starts: Vec<usize>;
            let starts: &[usize] = if small {
                for (i, &(dx, dy)) in moves.iter().enumerate() {
                    base[i] = self.ray_base[i] + self.ray(a, b, dx as usize, dy as usize);
                }
                &base[..moves.len()]
            } else {
                starts = moves
                    .iter()
                    .enumerate()
                    .map(|(i, &(dx, dy))| {
                        self.ray_base[i] + self.ray(a, b, dx as usize, dy as usize)
                    })
                    .collect();
                &starts
            };
            let from = starts
                .iter()
                .map(|&s| self.full[s].load(Relaxed) as usize)
                .max()
                .unwrap_or(0);
            let mut g = (w * 64) as u32;
            for i in from..w {
                let mut x = 0u64;
                let row = &self.bits[i * n..(i + 1) * n];
                for &s in starts {
                    x |= row[s].load(Relaxed);
                }
                if x != u64::MAX {
                    g = (i * 64) as u32 + (!x).trailing_zeros();
                    break;
                }
            }
            let (word, bit) = (g as usize / 64, g % 64);
            if word < w {
                for &s in starts {
                    self.bits[word * n + s].fetch_or(1 << bit, Relaxed);
                    let f = &self.full[s];
                    let mut k = f.load(Relaxed) as usize;
                    while k < w && self.bits[k * n + s].load(Relaxed) == u64::MAX {
                        k += 1;
                    }
                    f.store(k as u32, Relaxed);
                }
            }
            g
        } else {
            let d = self.game.moves.len();
            scratch.clear();
            scratch.resize(d / 64 + 1, 0);
            for &(dx, dy) in &self.game.moves {
                let (dx, dy) = (dx as usize, dy as usize);
                if dx <= a && dy <= b {
                    let x = self.grid[(a - dx) * self.cols + b - dy].load(Relaxed) as usize;
                    if x <= d {
                        scratch[x >> 6] |= 1 << (x & 63);
                    }
                }
            }
            let i = scratch
                .iter()
                .position(|&w| w != u64::MAX)
                .unwrap_or(scratch.len());
            (i * 64) as u32 + (!scratch.get(i).copied().unwrap_or(0)).trailing_zeros()
        };
        self.grid[a * self.cols + b].store(g, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::control::NoControl;

    /// Reference: the mex over `options`, row by row.
    fn naive(game: &TwoHeap, rows: usize, cols: usize) -> Vec<u32> {
        let mut g = vec![0u32; rows * cols];
        for a in 0..rows {
            for b in 0..cols {
                let set: std::collections::HashSet<u32> = game
                    .options(a as u64, b as u64)
                    .into_iter()
                    .map(|(x, y)| g[x as usize * cols + y as usize])
                    .collect();
                g[a * cols + b] = (0..).find(|x| !set.contains(x)).unwrap();
            }
        }
        g
    }

    /// Reference: misère outcomes over `options`, row by row (P: has an option, none is P).
    fn naive_misere(game: &TwoHeap, rows: usize, cols: usize) -> Vec<bool> {
        let mut p = vec![false; rows * cols];
        for a in 0..rows {
            for b in 0..cols {
                let opts = game.options(a as u64, b as u64);
                p[a * cols + b] = !opts.is_empty()
                    && opts
                        .iter()
                        .all(|&(x, y)| !p[x as usize * cols + y as usize]);
            }
        }
        p
    }

    use crate::engine::testing::Rng;

    /// A random rule of one to five moves of at most 3 a heap, and its moves.
    fn random_game(rng: &mut Rng, unbounded: bool) -> (TwoHeap, Vec<(u64, u64)>, bool) {
        let m = 1 + rng.below(5) as usize;
        let moves: Vec<(u64, u64)> = (0..m)
            .map(|_| loop {
                let v = (rng.below(4), rng.below(4));
                if v != (0, 0) {
                    break v;
                }
            })
            .collect();
        (TwoHeap::new(&moves, unbounded).unwrap(), moves, unbounded)
    }

    #[test]
    fn misere_grids_match_the_naive_walk() {
        let mut rng = Rng(0x0BAD_5EED_1234_5678);
        for round in 0..60 {
            let (game, moves, unbounded) = random_game(&mut rng, round % 2 == 0);
            let (r, c) = [(7, 40), (40, 7), (70, 70)][round % 3];
            assert_eq!(
                game.misere_grid(r, c, &NoControl).unwrap(),
                naive_misere(&game, r, c),
                "{moves:?} unbounded={unbounded}"
            );
        }
        // Misère Wythoff: (0, 0) is N, so (0, 1) and (1, 0) are P (their one option is (0, 0)),
        // (1, 1) and (1, 2) are N (they move to (1, 0)) and (2, 2) is P; from 3 on the
        // P-positions are normal Wythoff's.
        let w = TwoHeap::new(&[(1, 0), (0, 1), (1, 1)], true).unwrap();
        let n = 300;
        let (p, g) = (
            w.misere_grid(n, n, &NoControl).unwrap(),
            w.grid(n, n, &NoControl).unwrap(),
        );
        assert!(!p[0] && p[1] && p[n] && !p[n + 1] && !p[n + 2] && p[2 * n + 2]);
        for a in 0..n {
            for b in 0..n {
                if a.max(b) >= 3 {
                    assert_eq!(p[a * n + b], g[a * n + b] == 0, "({a}, {b})");
                }
            }
        }
        assert!(w.misere_grid(0, 3, &NoControl).unwrap().is_empty());
    }

    #[test]
    fn wythoff_p_positions() {
        let w = TwoHeap::new(&[(1, 0), (0, 1), (1, 1)], true).unwrap();
        let n = 400;
        let g = w.grid(n, n, &NoControl).unwrap();
        let phi = (1.0 + 5f64.sqrt()) / 2.0;
        let mut want = std::collections::HashSet::new();
        for k in 0..n {
            let (x, y) = ((k as f64 * phi) as usize, (k as f64 * phi * phi) as usize);
            want.insert((x, y));
            want.insert((y, x));
        }
        for a in 0..n {
            for b in 0..n {
                assert_eq!(g[a * n + b] == 0, want.contains(&(a, b)), "({a}, {b})");
            }
            // Row 0 is nim: G(0, b) = b.
            assert_eq!(g[a], a as u32);
        }
    }

    #[test]
    fn random_games_match_the_naive_grid() {
        let mut rng = Rng(0x1234_5678_9ABC_DEF1);
        for round in 0..60 {
            let (game, moves, unbounded) = random_game(&mut rng, round % 2 == 0);
            // Tall, wide and big enough for the parallel path.
            let (r, c) = [(7, 40), (40, 7), (70, 70)][round % 3];
            assert_eq!(
                game.grid(r, c, &NoControl).unwrap(),
                naive(&game, r, c),
                "{moves:?} unbounded={unbounded}"
            );
        }
    }

    #[test]
    fn bad_moves_and_empty_grids() {
        assert!(matches!(
            TwoHeap::new(&[(0, 0)], true),
            Err(Error::Invalid(_))
        ));
        assert!(matches!(
            TwoHeap::new(&[(1 << 40, 0)], false),
            Err(Error::Invalid(_))
        ));
        let g = TwoHeap::new(&[], false).unwrap();
        assert_eq!(g.grid(2, 2, &NoControl).unwrap(), vec![0; 4]);
        assert_eq!(g.grid(0, 5, &NoControl).unwrap(), Vec::<u32>::new());
        let w = TwoHeap::new(&[(1, 0)], true).unwrap();
        assert!(matches!(
            w.grid(1 << 31, 1 << 31, &NoControl),
            Err(Error::Memory { .. } | Error::Invalid(_))
        ));
    }
}
