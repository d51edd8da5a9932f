//! Cram: players take turns placing a domino on two free adjacent cells of a `rows x cols`
//! board; the player who cannot place one loses (normal play).
//!
//! A position is the set of free cells (bit `r * cols + c` for cell `(r, c)`); any position is
//! allowed, the empty board being [`Cram::empty`] and a board with blocked cells
//! [`Cram::position`]. The components are the connected regions of free cells with at least two
//! cells (a lone cell is dead), and the key is the region's shape under translation, rotation
//! and reflection ([`Grid::canonical`]).
//!
//! ```
//! use grundy::board::Cram;
//! use grundy::control::NoControl;
//! use grundy::nimber_search::Search;
//! let cram = Cram::new(3, 3).unwrap();
//! let mut search = Search::new(&cram, 1 << 20).unwrap();
//! assert_eq!(search.value(cram.empty(), &NoControl).unwrap(), 0);
//! // Block the centre: a ring of 8 cells. Every move leaves a path of 6 cells (*3): value 0.
//! let ring = cram.position(cram.grid().cell(1, 1)).unwrap();
//! assert_eq!(search.value(ring, &NoControl).unwrap(), 0);
//! ```

use super::bits::Bits;
use super::grid::{low_bits, Grid, Shifts, MAX_CELLS};
use super::{Board, Fact};
use crate::error::{Error, Result};

/// Cram on a `rows x cols` board of at most 128 cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cram {
    grid: Grid,
    /// Each cell's row and column, doubled (so that a domino's middle is whole).
    twice: Box<[(u8, u8)]>,
}

impl Cram {
    /// The regions of a reduced position `p`, where a horizontal domino that only repeats a
    /// vertical one does not link its two cells ([`Cram::cut`]); a region so split off is
    /// reduced and split again.
    fn split<T: Bits>(g: &Shifts<T>, p: T, out: &mut Vec<u128>) {
        let cut = Self::cut(g, p);
        let mut rest = p;
        while rest != T::ZERO {
            let region = g.region_cut(rest.lowest(), rest, cut);
            rest &= !region;
            if cut != T::ZERO && region != p {
                let r = Self::reduced(g, region);
                if r != region {
                    Self::split(g, r, out);
                    continue;
                }
            }
            if region.count_ones() > 1 {
                out.push(region.to_u128());
            }
        }
    }

    /// The left cells of horizontal dominoes that are the same move as a vertical one, in a
    /// 2 x 2 block of free cells `u a / i w` whose corners `u` and `w` have no other free
    /// neighbour (or the mirror image: `a` and `i`): placing `u a` leaves `w` a tuft of `i`,
    /// as placing `a w` leaves `u` a tuft of `i`: the same game. The block's two columns are
    /// then independent: every move inside either keeps that true (or turns the corners into
    /// extra tufts of one star), and a move across repeats one inside.
    fn cut<T: Bits>(g: &Shifts<T>, p: T) -> T {
        let cols = g.cols();
        let (l, r, u, d) = g.neighbour_sides(p);
        // Free cells whose only free neighbours are right and below (a top left corner), left
        // and above (bottom right), left and below (top right), right and above (bottom left).
        let tl = p & r & d & !l & !u;
        let br = p & l & u & !r & !d;
        let tr = p & l & d & !r & !u;
        let bl = p & r & u & !l & !d;
        // (No shift past the word: a board of one row has no such block.)
        let first = tl & br.shr_or_zero(cols + 1);
        let second = bl & (tr << (cols - 1)) & g.full();
        first | g.down(first) | second | g.up(second)
    }

    /// Cram on a `rows x cols` board.
    ///
    /// # Errors
    /// [`Error::Invalid`] when a side is 0 or the board has more than 128 cells.
    pub fn new(rows: usize, cols: usize) -> Result<Cram> {
        let grid = Grid::new(rows, cols)?;
        let twice = (0..rows * cols)
            .map(|i| (2 * (i / cols) as u8, 2 * (i % cols) as u8))
            .collect();
        Ok(Cram { grid, twice })
    }

    /// The board's grid (cell bits, regions, symmetries).
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The empty board: every cell free.
    pub fn empty(&self) -> u128 {
        self.grid.full()
    }

    /// The position whose blocked (covered) cells are `blocked`.
    ///
    /// # Errors
    /// [`Error::Invalid`] when `blocked` names a cell outside the board.
    pub fn position(&self, blocked: u128) -> Result<u128> {
        if blocked & !self.grid.full() != 0 {
            return Err(Error::Invalid(format!(
                "blocked cells outside the {} x {} board: bits {:#x}",
                self.grid.rows(),
                self.grid.cols(),
                blocked & !self.grid.full()
            )));
        }
        Ok(self.grid.full() & !blocked)
    }

    /// The symmetry strategy: `Some(0)` when the second player wins `component` by mirroring.
    ///
    /// That is when the component is its own image under the half turn about its centre or a
    /// mirror through a middle line, with no cell its own image and no cell next to its image:
    /// then each domino the first player places has a free mirror image, which the second player
    /// places. (Every centrally symmetric region of an even x even box qualifies.) `None` when it
    /// does not apply (the value may still be 0). A hook for
    /// [`Search::with_known`](crate::nimber_search::Search::with_known); the search also asks
    /// [`Board::known`], which knows the half turn (of this and of a first-player win).
    ///
    /// ```
    /// use grundy::board::Cram;
    /// let cram = Cram::new(4, 6).unwrap();
    /// assert_eq!(cram.mirror_zero(cram.empty()), Some(0));
    /// assert_eq!(Cram::new(3, 3).unwrap().mirror_zero(Cram::new(3, 3).unwrap().empty()), None);
    /// ```
    pub fn mirror_zero(&self, component: u128) -> Option<u32> {
        if component == 0 || component & !self.grid.full() != 0 {
            return None;
        }
        if self.half_turn(component) == Fact::Exact(0) {
            return Some(0);
        }
        let cols = self.grid.cols();
        let (r0, r1, c0, c1) = self.grid.bounds(component);
        // The mirrors: left-right, top-bottom. A free cell in the middle column (or the two
        // middle ones) is its image or next to it: the common case, told at once.
        for (fr, fc) in [(false, true), (true, false)] {
            let middle = if fc {
                self.column((c0 + c1) / 2) | self.column((c0 + c1).div_ceil(2))
            } else {
                self.row((r0 + r1) / 2) | self.row((r0 + r1).div_ceil(2))
            };
            if component & middle != 0 {
                continue;
            }
            let mut ok = true;
            let mut bits = component;
            while ok && bits != 0 {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let (r, c) = (i / cols, i % cols);
                let ri = if fr { r0 + r1 - r } else { r };
                let ci = if fc { c0 + c1 - c } else { c };
                ok = component & self.grid.cell(ri, ci) != 0;
            }
            if ok {
                return Some(0);
            }
        }
        None
    }

    /// The cells of column `c`.
    fn column(&self, c: usize) -> u128 {
        (0..self.grid.rows()).fold(0, |m, r| m | self.grid.cell(r, c))
    }

    /// The cells of row `r`.
    fn row(&self, r: usize) -> u128 {
        low_bits(self.grid.cols()) << (r * self.grid.cols())
    }

    /// What the half turn about `component`'s centre tells of its value, when the component is
    /// its own image. Centre on a grid vertex, or on a cell or between two cells that are not
    /// free: no cell is its image or next to it, and the second player wins by mirroring
    /// (value 0). Centre between two free cells: the first player covers them and then
    /// mirrors (not 0).
    fn half_turn(&self, component: u128) -> Fact {
        match self.grid.half_turn_centre(component) {
            Some((centre, _)) if component & centre == 0 => Fact::Exact(0),
            Some((_, 1)) => Fact::Not(1),
            _ => Fact::Unknown,
        }
    }
}

impl Board for Cram {
    fn options(&self, pos: u128, out: &mut Vec<u128>) {
        match self.grid.narrow() {
            Some(g) => Self::push_options(g, pos as u64, out),
            None => Self::push_options(self.grid.wide(), pos, out),
        }
    }

    fn ordered_options(&self, pos: u128, out: &mut Vec<u128>) {
        let first = out.len();
        self.options(pos, out);
        // Moves near the middle first: they split the position, into parts the search knows
        // sooner (the search keeps this order among options of equal cost). A counting sort
        // on the distance from the middle (in half cells, capped), stable.
        let n = out.len() - first;
        if n < 2 {
            return;
        }
        let (r0, r1, c0, c1) = self.grid.bounds(pos);
        let (mr, mc) = ((r0 + r1) as i32, (c0 + c1) as i32);
        let mut keys = [0u8; 2 * MAX_CELLS];
        let mut count = [0u16; 65];
        for (k, &o) in keys.iter_mut().zip(&out[first..]) {
            let d = pos ^ o;
            let i = d.trailing_zeros() as usize;
            let across = (d >> (i + 1) & 1) as i32;
            let (r, c) = self.twice[i];
            let dist = (r as i32 + 1 - across - mr).abs() + (c as i32 + across - mc).abs();
            *k = (dist * 2 + across).min(63) as u8;
            count[*k as usize + 1] += 1;
        }
        for j in 1..65 {
            count[j] += count[j - 1];
        }
        out.extend_from_within(first..first + n);
        for (j, &k) in keys[..n].iter().enumerate() {
            let at = &mut count[k as usize];
            out[first + *at as usize] = out[first + n + j];
            *at += 1;
        }
        out.truncate(first + n);
    }

    fn components(&self, pos: u128, out: &mut Vec<u128>) {
        // Cells with a free neighbour (the others can never be covered), simplified; in a u64
        // when the board fits one.
        match self.grid.narrow() {
            Some(g) => Self::split(g, Self::reduced(g, pos as u64), out),
            None => Self::split(self.grid.wide(), Self::reduced(self.grid.wide(), pos), out),
        }
    }

    fn key(&self, component: u128) -> u128 {
        self.grid.canonical(component)
    }

    /// A key is a layout of at most the board's cells ([`Grid::canonical`]).
    fn key_bits(&self) -> u32 {
        (self.grid.rows() * self.grid.cols()) as u32
    }

    /// A component of two cells is one domino: *1.
    fn value_of_size(&self, size: u32) -> Option<u32> {
        (size == 2).then_some(1)
    }

    /// The half turn ([`Cram::mirror_zero`]): value 0 when the second player mirrors, not 0
    /// when the first covers the two cells at the centre and then mirrors. (A mirror through a
    /// middle line never fits a component: its middle column or columns would be empty.)
    fn known(&self, component: u128) -> Fact {
        self.half_turn(component)
    }
}

impl Cram {
    /// [`Board::options`] in the word `T`: horizontal dominoes, then vertical ones, each in the
    /// order of their first cell.
    fn push_options<T: Bits>(g: &Shifts<T>, pos: T, out: &mut Vec<u128>) {
        let mut h = g.horizontal_pairs(pos);
        while h != T::ZERO {
            let b = h.lowest();
            h ^= b;
            out.push((pos & !(b | b << 1)).to_u128());
        }
        let mut v = g.vertical_pairs(pos);
        while v != T::ZERO {
            let b = v.lowest();
            v ^= b;
            out.push((pos & !(b | g.down(b))).to_u128());
        }
    }

    /// `pos` less cells that do not change its value, as long as some go: dead cells (no free
    /// neighbour), all but one of the tufts of a cell, and bridges.
    ///
    /// A tuft is a free cell with one free neighbour, its star. Two tufts of one star are the
    /// same: covering the star with either kills the other, and nothing else covers them; so
    /// one is enough. A bridge is a cell, neither tuft nor star, whose free neighbours are all
    /// stars: `pos` and `pos` less the bridge b have the same value, since in their sum the
    /// second player answers a move on b and a star s in one by the move on s and its tuft in
    /// the other (the two positions are then the same), and any other move by the same move in
    /// the other; a star keeps its tuft until it is covered, so the answer is always there.
    fn reduced<T: Bits>(g: &Shifts<T>, pos: T) -> T {
        let mut p = pos;
        loop {
            // Free cells with a free neighbour left, right, above, below.
            let (l, r, u, d) = g.neighbour_sides(p);
            let any = r | l | d | u;
            let two = (r & l) | ((r | l) & (d | u)) | (d & u);
            let tufts = any & !two;
            // Each star keeps its first tuft, in the order below, right, above, left.
            let mut stars = g.down(tufts & d);
            let mut q = any;
            let right = (tufts & r) << 1;
            q &= !((right & stars) >> 1);
            stars |= right;
            let above = g.up(tufts & u);
            q &= !g.down(above & stars);
            stars |= above;
            let left = (tufts & l) >> 1;
            q &= !((left & stars) << 1);
            stars |= left;
            let rest = any & !(tufts | stars);
            q &= !(rest & !g.adjacent(rest));
            if q == p {
                return p;
            }
            p = q;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::brute;
    use crate::control::NoControl;
    use crate::engine::testing::Rng;
    use crate::nimber_search::Search;

    /// Cram's options written cell by cell, independent of the shifts above.
    fn plain_options(rows: usize, cols: usize, pos: u128) -> Vec<u128> {
        let mut out = Vec::new();
        let bit = |r: usize, c: usize| 1u128 << (r * cols + c);
        for r in 0..rows {
            for c in 0..cols {
                if pos & bit(r, c) == 0 {
                    continue;
                }
                if c + 1 < cols && pos & bit(r, c + 1) != 0 {
                    out.push(pos & !bit(r, c) & !bit(r, c + 1));
                }
                if r + 1 < rows && pos & bit(r + 1, c) != 0 {
                    out.push(pos & !bit(r, c) & !bit(r + 1, c));
                }
            }
        }
        out
    }

    /// [`plain_options`] in [`Cram::options`]'s order: the horizontal moves, then the vertical
    /// ones, each by their first cell.
    fn plain_options_by_kind(rows: usize, cols: usize, pos: u128) -> Vec<u128> {
        let all = plain_options(rows, cols, pos);
        let across = |o: &u128| {
            let d = pos ^ o;
            d >> (d.trailing_zeros() + 1) & 1 == 1
        };
        let (mut h, v): (Vec<u128>, Vec<u128>) = all.into_iter().partition(across);
        h.extend(v);
        h
    }

    /// Every board up to 4 x 5 (and 5 x 4): the search's value of every position reachable from
    /// the empty board equals the plain memoised mex over whole boards.
    #[test]
    fn cram_matches_brute_force_on_every_board_up_to_4x5() {
        for rows in 1..=5 {
            for cols in 1..=5 {
                if rows * cols > 20 {
                    continue;
                }
                let cram = Cram::new(rows, cols).unwrap();
                let all = brute::values(cram.empty(), |p| plain_options(rows, cols, p));
                let mut search = Search::new(&cram, 1 << 20).unwrap();
                for (&pos, &v) in &all {
                    assert_eq!(
                        search.value(pos, &NoControl).unwrap(),
                        v,
                        "{rows} x {cols}, free cells {pos:#x}"
                    );
                }
            }
        }
    }

    /// Random mid-game positions of larger boards (a third of the cells blocked).
    #[test]
    fn cram_matches_brute_force_on_random_positions() {
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        for &(rows, cols) in &[(5, 5), (4, 6), (3, 8), (5, 6)] {
            let cram = Cram::new(rows, cols).unwrap();
            let mut search = Search::new(&cram, 1 << 16).unwrap();
            for _ in 0..6 {
                let mut blocked = 0u128;
                for i in 0..rows * cols {
                    if rng.below(3) == 0 {
                        blocked |= 1 << i;
                    }
                }
                let pos = cram.position(blocked).unwrap();
                let all = brute::values(pos, |p| plain_options(rows, cols, p));
                let sized = brute::check_value_of_size(&cram, all.keys().copied(), |p| {
                    plain_options(rows, cols, p)
                });
                assert!(sized > 0);
                assert_eq!(search.value(pos, &NoControl).unwrap(), all[&pos]);
                assert_eq!(search.is_zero(pos, &NoControl).unwrap(), all[&pos] == 0);
            }
        }
    }

    /// A strip of 1 x n is the octal game 0.07 at n, both ways round, up to 128 cells (the
    /// whole-row shift of a 1 x 128 board is no shift at all).
    #[test]
    fn cram_strips_are_0_07() {
        let want = crate::engine::testing::exact("0.07", 129);
        for n in [2, 5, 17, 64, 127, 128] {
            for (rows, cols) in [(1, n), (n, 1)] {
                let cram = Cram::new(rows, cols).unwrap();
                let mut search = Search::new(&cram, 1 << 16).unwrap();
                assert_eq!(search.value(cram.empty(), &NoControl).unwrap(), want[n]);
            }
        }
    }

    /// [`Cram::reduced`] in the wide word.
    fn reduced(cram: &Cram, pos: u128) -> u128 {
        Cram::reduced(cram.grid.wide(), pos)
    }

    /// The narrow word (boards of at most 64 cells) computes the same options, components,
    /// bounds and keys as the wide one, on random positions of boards up to 64 cells.
    #[test]
    fn cram_narrow_word_agrees_with_wide() {
        let mut rng = Rng(11);
        for (rows, cols) in [(4, 9), (5, 7), (8, 8), (7, 9), (1, 64), (64, 1), (2, 3)] {
            let cram = Cram::new(rows, cols).unwrap();
            let (g, w) = (cram.grid.narrow().unwrap(), cram.grid.wide());
            for _ in 0..300 {
                let pos = random_cells(&mut rng, rows * cols);
                let (mut a, mut b) = (Vec::new(), Vec::new());
                Cram::push_options(g, pos as u64, &mut a);
                Cram::push_options(w, pos, &mut b);
                assert_eq!(a, b);
                let (mut a, mut b) = (Vec::new(), Vec::new());
                Cram::split(g, Cram::reduced(g, pos as u64), &mut a);
                Cram::split(w, Cram::reduced(w, pos), &mut b);
                assert_eq!(a, b, "{rows}x{cols} {pos:#x}");
                for &c in &a {
                    assert_eq!(cram.key(c) >> cram.key_bits(), 0, "{c:#x}");
                    assert_eq!(g.bounds(c as u64), w.bounds(c));
                    assert_eq!(g.in_lanes(c as u64), w.in_lanes(c));
                }
            }
        }
        assert!(Cram::new(5, 13).unwrap().grid.narrow().is_none());
    }

    /// A random set of the first `n` cells, each free with probability 2/3.
    fn random_cells(rng: &mut Rng, n: usize) -> u128 {
        (0..n)
            .filter(|_| rng.below(3) != 0)
            .fold(0, |m, i| m | 1 << i)
    }

    /// Dropping extra tufts and bridges keeps the value (plain mex on both, no search), and
    /// does drop cells: a row of three is a domino, a plus sign of five is a domino; cutting
    /// at repeated moves keeps it too.
    #[test]
    fn cram_reduction_keeps_the_value() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let (rows, cols) = (4, 5);
        let cram = Cram::new(rows, cols).unwrap();
        let mut dropped = 0;
        for _ in 0..120 {
            let pos = random_cells(&mut rng, rows * cols);
            // The search's order holds the same options; the public order is the plain one.
            let (mut plain, mut ordered) = (Vec::new(), Vec::new());
            cram.options(pos, &mut plain);
            cram.ordered_options(pos, &mut ordered);
            assert_eq!(plain, plain_options_by_kind(rows, cols, pos));
            ordered.sort_unstable();
            plain.sort_unstable();
            assert_eq!(ordered, plain);
            let r = reduced(&cram, pos);
            assert_eq!(r & !pos, 0);
            dropped += u32::from(r != pos);
            let a = brute::values(pos, |p| plain_options(rows, cols, p))[&pos];
            let b = brute::values(r, |p| plain_options(rows, cols, p))[&r];
            assert_eq!(a, b, "{pos:#x} reduced to {r:#x}");
        }
        assert!(dropped > 40);
        // The components (reduced, split at repeated moves) add up to the whole.
        let mut split = 0;
        for _ in 0..120 {
            let pos = random_cells(&mut rng, rows * cols);
            let mut parts = Vec::new();
            cram.components(pos, &mut parts);
            let mut regions = 0;
            cram.grid().for_each_region(pos, |_| regions += 1);
            split += usize::from(parts.len() > regions);
            let sum = parts.iter().fold(0, |x, &c| {
                x ^ brute::values(c, |p| plain_options(rows, cols, p))[&c]
            });
            let whole = brute::values(pos, |p| plain_options(rows, cols, p))[&pos];
            assert_eq!(sum, whole, "{pos:#x} split into {parts:x?}");
        }
        assert!(split > 5, "{split}");
        let g = cram.grid();
        let row = g.cell(0, 0) | g.cell(0, 1) | g.cell(0, 2);
        assert_eq!(reduced(&cram, row).count_ones(), 2);
        let plus = g.cell(1, 1) | g.cell(0, 1) | g.cell(2, 1) | g.cell(1, 0) | g.cell(1, 2);
        assert_eq!(reduced(&cram, plus).count_ones(), 2);
    }

    /// The half turn of the grid moves each cell where the cell-by-cell image is, and what
    /// Cram knows by it holds against the brute force, on random centrally symmetric positions
    /// (centre on a vertex, on a cell, between two cells; the centre cells free or not), whole
    /// or in part: value 0 when it says so, not 0 when it says so; the search with it agrees.
    #[test]
    fn cram_half_turn_facts_hold() {
        let mut rng = Rng(0x1234_5678_9abc_def1);
        let (mut zero, mut not_zero) = (0, 0);
        for &(rows, cols) in &[(4, 5), (5, 5), (4, 6), (3, 7), (6, 4), (3, 8)] {
            let cram = Cram::new(rows, cols).unwrap();
            let g = cram.grid();
            for _ in 0..40 {
                // A random box inside the board, a random set in it, made symmetric.
                let (h, w) = (
                    2 + rng.below(rows as u64 - 1) as usize,
                    2 + rng.below(cols as u64 - 1) as usize,
                );
                let (r0, c0) = (
                    rng.below((rows - h + 1) as u64) as usize,
                    rng.below((cols - w + 1) as u64) as usize,
                );
                // Each pair of cells (a cell and its image) free with odds 2 in 3.
                let mut pos = 0u128;
                for r in r0..r0 + h {
                    for c in c0..c0 + w {
                        let (ri, ci) = (2 * r0 + h - 1 - r, 2 * c0 + w - 1 - c);
                        if (r, c) <= (ri, ci) && rng.below(3) != 0 {
                            pos |= g.cell(r, c) | g.cell(ri, ci);
                        }
                    }
                }
                if pos == 0 {
                    continue;
                }
                let mut image = 0u128;
                let (b0, b1, d0, d1) = g.bounds(pos);
                for i in 0..rows * cols {
                    if pos >> i & 1 == 1 {
                        image |= g.cell(b0 + b1 - i / cols, d0 + d1 - i % cols);
                    }
                }
                assert_eq!(g.half_turn(pos).0, image);
                assert!(g.may_be_half_turn(pos));
                let v = brute::values(pos, |p| plain_options(rows, cols, p))[&pos];
                match cram.half_turn(pos) {
                    Fact::Exact(x) => {
                        assert_eq!((x, v), (0, 0), "{rows} x {cols} {pos:#x}");
                        assert_eq!(cram.mirror_zero(pos), Some(0));
                        zero += 1;
                    }
                    Fact::Not(bits) => {
                        assert_eq!(bits, 1);
                        assert_ne!(v, 0, "{rows} x {cols} {pos:#x}");
                        not_zero += 1;
                    }
                    Fact::Unknown => {}
                }
                let mut search = Search::new(&cram, 1 << 16).unwrap();
                assert_eq!(search.value(pos, &NoControl).unwrap(), v);
            }
        }
        assert!(zero > 20 && not_zero > 20, "{zero} {not_zero}");
    }

    #[test]
    fn cram_known_values_and_the_mirror_hook() {
        // The symmetry hook must not change any value, and it only ever claims P-positions.
        let cram = Cram::new(4, 5).unwrap();
        let hook = |c: u128| cram.mirror_zero(c);
        let mut plain = Search::new(&cram, 1 << 20).unwrap();
        let mut hooked = Search::new(&cram, 1 << 20).unwrap().with_known(&hook);
        let all = brute::values(cram.empty(), |p| plain_options(4, 5, p));
        for (&pos, &v) in all.iter().take(3000) {
            assert_eq!(hooked.value(pos, &NoControl).unwrap(), v);
            assert_eq!(plain.value(pos, &NoControl).unwrap(), v);
            if cram.mirror_zero(pos) == Some(0) {
                assert_eq!(v, 0, "mirror strategy claimed {pos:#x}");
            }
        }
        assert!(cram.position(1 << 20).is_err());
        assert_eq!(cram.position(0).unwrap(), cram.empty());
    }
}
