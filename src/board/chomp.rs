//! Chomp on a `rows x cols` bar: a move picks a square that is left and eats it with every square
//! below and to the right of it. The top left square (0, 0) is poisoned: the player who must
//! eat it loses.
//!
//! As an impartial game in normal play, the poisoned square is never eaten: a move picks any
//! square left but (0, 0), and the position where only the poisoned square is left is the
//! terminal one (value 0: the player to move there must eat the poison, and loses). So a
//! position is P exactly when its value is 0, as usual.
//!
//! A position is the set of squares left (bit `r * cols + c`), always a staircase: row lengths
//! that never grow downwards. It is one component (unless only the poison is left: none), and
//! its key is its staircase up to transposition (a staircase and its mirror in the diagonal are
//! the same game).
//!
//! ```
//! use grundy::board::Chomp;
//! use grundy::control::NoControl;
//! use grundy::nimber_search::Search;
//! let chomp = Chomp::new(1, 6).unwrap(); // one row: a nim heap of 5 squares
//! let mut search = Search::new(&chomp, 1 << 20).unwrap();
//! assert_eq!(search.value(chomp.start(), &NoControl).unwrap(), 5);
//! let square = Chomp::new(3, 3).unwrap();
//! // The winning move on a square: leave an L of two equal arms.
//! let l = square.position(&[3, 1, 1]).unwrap();
//! let mut search = Search::new(&square, 1 << 20).unwrap();
//! assert_eq!(search.value(l, &NoControl).unwrap(), 0);
//! ```

use super::grid::MAX_CELLS;
use super::Board;
use crate::error::{Error, Result};

/// Chomp on a `rows x cols` bar (at most 128 squares, `rows + cols <= 127`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chomp {
    rows: usize,
    cols: usize,
    /// `eats[i]`: the squares a move at square `i` eats (those below and right of it).
    eats: Vec<u128>,
}

impl Chomp {
    /// Chomp on a `rows x cols` bar.
    ///
    /// # Errors
    /// [`Error::Invalid`] when a side is 0, the bar has more than 128 squares, or
    /// `rows + cols > 127` (the key of a staircase takes `rows + cols + 1` bits).
    pub fn new(rows: usize, cols: usize) -> Result<Chomp> {
        if rows == 0 || cols == 0 || rows.saturating_mul(cols) > MAX_CELLS || rows + cols > 127 {
            return Err(Error::Invalid(format!(
                "a Chomp bar must have at least one row and one column, at most {MAX_CELLS} \
                 squares and rows + cols at most 127, not {rows} x {cols}"
            )));
        }
        let mut eats = vec![0u128; rows * cols];
        for r in 0..rows {
            for c in 0..cols {
                for r2 in r..rows {
                    for c2 in c..cols {
                        eats[r * cols + c] |= 1u128 << (r2 * cols + c2);
                    }
                }
            }
        }
        Ok(Chomp { rows, cols, eats })
    }

    /// The whole bar.
    pub fn start(&self) -> u128 {
        self.eats[0]
    }

    /// The staircase with these row lengths (top row first).
    ///
    /// # Errors
    /// [`Error::Invalid`] when the lengths grow downwards, the top row is empty, or they do not
    /// fit the bar.
    pub fn position(&self, row_lengths: &[usize]) -> Result<u128> {
        let bad = row_lengths.len() > self.rows
            || row_lengths.first().is_none_or(|&l| l == 0 || l > self.cols)
            || row_lengths.windows(2).any(|w| w[1] > w[0]);
        if bad {
            return Err(Error::Invalid(format!(
                "a Chomp position is at most {} row lengths, each at most {}, the first at least \
                 1, never growing downwards; not {row_lengths:?}",
                self.rows, self.cols
            )));
        }
        Ok(row_lengths
            .iter()
            .enumerate()
            .fold(0, |m, (r, &l)| m | ((1u128 << l) - 1) << (r * self.cols)))
    }

    /// The row lengths of a staircase, top row first, empty rows left out.
    pub fn row_lengths(&self, pos: u128) -> Vec<usize> {
        let row = (1u128 << self.cols) - 1;
        (0..self.rows)
            .map(|r| ((pos >> (r * self.cols)) & row).count_ones() as usize)
            .take_while(|&l| l > 0)
            .collect()
    }
}

/// The staircase with row lengths `lengths` as its boundary from the bottom left corner to the
/// top right: a 0 for each step right, a 1 for each step up, after a leading 1.
fn boundary(lengths: &[usize]) -> u128 {
    let mut key = 1u128;
    for (i, &l) in lengths.iter().enumerate().rev() {
        let below = lengths.get(i + 1).copied().unwrap_or(0);
        key = (key << (l - below)) << 1 | 1;
    }
    key
}

impl Board for Chomp {
    fn options(&self, pos: u128, out: &mut Vec<u128>) {
        let mut bits = pos & !1;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            out.push(pos & !self.eats[i]);
        }
    }

    fn components(&self, pos: u128, out: &mut Vec<u128>) {
        if pos & !1 != 0 {
            out.push(pos);
        }
    }

    fn key(&self, component: u128) -> u128 {
        let lengths = self.row_lengths(component);
        let width = lengths.first().copied().unwrap_or(0);
        let transposed: Vec<usize> = (0..width)
            .map(|j| lengths.iter().take_while(|&&l| l > j).count())
            .collect();
        boundary(&lengths).min(boundary(&transposed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::brute;
    use crate::control::NoControl;
    use crate::nimber_search::Search;

    /// Chomp's options as row lengths, independent of the masks above.
    fn plain_options(rows: usize, cols: usize, pos: u128) -> Vec<u128> {
        let lengths: Vec<usize> = (0..rows)
            .map(|r| {
                (0..cols)
                    .filter(|&c| pos >> (r * cols + c) & 1 == 1)
                    .count()
            })
            .collect();
        let mut out = Vec::new();
        for r in 0..rows {
            for c in 0..lengths[r] {
                if r == 0 && c == 0 {
                    continue;
                }
                let mut m = 0u128;
                for (r2, &l) in lengths.iter().enumerate() {
                    let keep = if r2 >= r { l.min(c) } else { l };
                    m |= ((1u128 << keep) - 1) << (r2 * cols);
                }
                out.push(m);
            }
        }
        out
    }

    #[test]
    fn chomp_matches_brute_force() {
        for rows in 1..=4 {
            for cols in 1..=5 {
                let chomp = Chomp::new(rows, cols).unwrap();
                let all = brute::values(chomp.start(), |p| plain_options(rows, cols, p));
                let mut search = Search::new(&chomp, 1 << 20).unwrap();
                for (&pos, &v) in &all {
                    assert_eq!(
                        search.value(pos, &NoControl).unwrap(),
                        v,
                        "{rows}x{cols} {pos:#x}"
                    );
                }
                // Strategy stealing: every bar but the poison alone is a first-player win.
                assert_eq!(all[&chomp.start()] == 0, rows * cols == 1);
            }
        }
    }

    #[test]
    fn chomp_positions_and_keys() {
        let c = Chomp::new(3, 4).unwrap();
        assert_eq!(c.row_lengths(c.start()), vec![4, 4, 4]);
        let p = c.position(&[3, 1]).unwrap();
        assert_eq!(c.row_lengths(p), vec![3, 1]);
        // [3, 1] and its transpose [2, 1, 1] share a key; [3, 1] and [2, 2] do not.
        assert_eq!(c.key(p), c.key(c.position(&[2, 1, 1]).unwrap()));
        assert_ne!(c.key(p), c.key(c.position(&[2, 2]).unwrap()));
        assert!(c.position(&[1, 2]).is_err());
        assert!(c.position(&[]).is_err());
        assert!(c.position(&[5]).is_err());
        assert!(c.position(&[1, 1, 1, 1]).is_err());
        assert!(Chomp::new(1, 127).is_err());
        assert!(Chomp::new(2, 64).is_ok());
    }
}
