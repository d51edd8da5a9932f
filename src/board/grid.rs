//! Rectangular grids as bitboards: cell `(r, c)` of a `rows x cols` grid is bit `r * cols + c` of
//! a `u128`. Neighbours and connected regions by shifts, and a canonical key of a region under
//! translation and the eight symmetries of the square (rotations, reflections).
//!
//! ```
//! use grundy::board::Grid;
//! let g = Grid::new(3, 4).unwrap();
//! // An L of three cells in the top left corner, and the same L turned, in the bottom right.
//! let a = g.cell(0, 0) | g.cell(1, 0) | g.cell(1, 1);
//! let b = g.cell(1, 3) | g.cell(2, 3) | g.cell(2, 2);
//! assert_eq!(g.canonical(a), g.canonical(b));
//! assert_ne!(g.canonical(a), g.canonical(g.cell(0, 0) | g.cell(0, 1) | g.cell(0, 2)));
//! ```

use super::bits::Bits;
use crate::error::{Error, Result};

/// The most cells a board may have: one bit each in a `u128`.
pub const MAX_CELLS: usize = 128;

/// The lowest `n` bits set (`n <= 128`).
#[inline]
pub(crate) fn low_bits(n: usize) -> u128 {
    if n >= 128 {
        u128::MAX
    } else {
        (1u128 << n) - 1
    }
}

/// A grid's shifts and masks in one word type `T` (see [`super::bits`]): the hot paths of the
/// board games, computed in `u64` when the grid has at most 64 cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Shifts<T> {
    cols: u32,
    /// `2^16 / cols + 1`: a bit's row by a multiplication ([`Shifts::row_of`]).
    inv_cols: u32,
    /// Every cell.
    full: T,
    /// Every cell but those of the last column (the cells whose right neighbour exists).
    not_last_col: T,
    /// Every cell but those of the first column.
    not_first_col: T,
}

impl<T: Bits> Shifts<T> {
    fn new(cols: usize, full: u128, first_col: u128) -> Shifts<T> {
        let last_col = first_col << (cols - 1);
        Shifts {
            cols: cols as u32,
            inv_cols: (1 << 16) / cols as u32 + 1,
            full: T::from_u128(full),
            not_last_col: T::from_u128(full & !last_col),
            not_first_col: T::from_u128(full & !first_col),
        }
    }

    /// Columns.
    #[inline]
    pub(crate) fn cols(&self) -> u32 {
        self.cols
    }

    /// Every cell.
    #[inline]
    pub(crate) fn full(&self) -> T {
        self.full
    }

    /// See [`Grid::horizontal_pairs`].
    #[inline]
    pub(crate) fn horizontal_pairs(&self, m: T) -> T {
        m & (m >> 1) & self.not_last_col
    }

    /// See [`Grid::vertical_pairs`].
    #[inline]
    pub(crate) fn vertical_pairs(&self, m: T) -> T {
        m & self.up(m)
    }

    /// See [`Grid::down`].
    #[inline]
    pub(crate) fn down(&self, m: T) -> T {
        m.shl_or_zero(self.cols) & self.full
    }

    /// See [`Grid::up`].
    #[inline]
    pub(crate) fn up(&self, m: T) -> T {
        m.shr_or_zero(self.cols)
    }

    /// See [`Grid::adjacent`].
    #[inline]
    pub(crate) fn adjacent(&self, m: T) -> T {
        (((m << 1) & self.not_first_col)
            | ((m >> 1) & self.not_last_col)
            | self.down(m)
            | self.up(m))
            & self.full
    }

    /// The region of `within` that holds `seed` when the horizontal links from the cells of
    /// `cut` to their right neighbours do not count.
    #[inline]
    pub(crate) fn region_cut(&self, seed: T, within: T, cut: T) -> T {
        // Bit i: cells i and i + 1 are both in `within`, and linked.
        let link = within & (within >> 1) & self.not_last_col & !cut;
        let mut region = seed;
        loop {
            // Rightwards along a whole run of links at once: the carry of adding a cell to the
            // links runs through the links after it and stops past the last (Cram 4 x 9 and
            // Node Kayles 4 x 15 went one column a step before, a step for each column).
            let right = link ^ link.wrapping_add(region & link);
            let next =
                (region | right | ((region >> 1) & link) | self.down(region) | self.up(region))
                    & within;
            if next == region {
                return region;
            }
            region = next;
        }
    }

    /// Cells of `m` whose neighbours to the left, right, above and below are in `m`.
    #[inline]
    pub(crate) fn neighbour_sides(&self, m: T) -> (T, T, T, T) {
        let h = self.horizontal_pairs(m);
        let v = self.vertical_pairs(m);
        (h << 1, h, self.down(v), v)
    }

    /// The row of bit `i` (`i < 128`): `i / cols`, by a multiplication (a division takes
    /// several times longer; exact as `i * cols < 2^16`).
    #[inline]
    pub(crate) fn row_of(&self, i: u32) -> usize {
        ((i * self.inv_cols) >> 16) as usize
    }

    /// The first and last row of a non-empty set of cells.
    #[inline]
    pub(crate) fn row_span(&self, m: T) -> (usize, usize) {
        (self.row_of(m.trailing_zeros()), self.row_of(m.highest()))
    }

    /// See [`Grid::bounds`].
    #[inline]
    pub(crate) fn bounds(&self, m: T) -> (usize, usize, usize, usize) {
        debug_assert!(m != T::ZERO);
        let (r0, r1) = self.row_span(m);
        let row_mask = T::from_u128(low_bits(self.cols as usize));
        let mut col_union = T::ZERO;
        let mut rest = m >> (r0 as u32 * self.cols);
        for _ in r0..=r1 {
            col_union |= rest & row_mask;
            rest = rest.shr_or_zero(self.cols);
        }
        (
            r0,
            r1,
            col_union.trailing_zeros() as usize,
            col_union.highest() as usize,
        )
    }

    /// A non-empty set of at most 8 rows moved to the top left corner, row `i` in lane `i` of
    /// the narrowest lanes that hold its width: 8 bits (row `i` in byte `i`, the layout of
    /// [`Grid::canonical`]'s `u64` path), else 16, 32 or 64 bits of a `u128` as far as its rows
    /// fit; with the lane width, its rows and its columns. `None` when it fits none.
    #[inline]
    pub(crate) fn in_lanes(&self, m: T) -> Option<(u128, u32, usize, usize)> {
        let (r0, r1) = self.row_span(m);
        let h = r1 - r0 + 1;
        if h > 8 {
            return None;
        }
        let row_mask = T::from_u128(low_bits(self.cols as usize));
        let mut rows = [T::ZERO; 8];
        let mut col_union = T::ZERO;
        let mut rest = m >> (r0 as u32 * self.cols);
        for b in &mut rows[..h] {
            *b = rest & row_mask;
            col_union |= *b;
            rest = rest.shr_or_zero(self.cols);
        }
        let c0 = col_union.trailing_zeros();
        let w = (col_union.highest() + 1 - c0) as usize;
        let lane = match w {
            0..=8 => 8,
            9..=16 => 16,
            17..=32 if h <= 4 => 32,
            33..=64 if h <= 2 => 64,
            _ => return None,
        };
        if lane == 8 {
            // In a u64 (a u128's variable shifts cost several instructions each).
            let mut q = 0u64;
            for (i, &b) in rows[..h].iter().enumerate() {
                q |= ((b >> c0).to_u128() as u64) << (8 * i);
            }
            return Some((u128::from(q), 8, h, w));
        }
        let mut q = 0u128;
        for (i, &b) in rows[..h].iter().enumerate() {
            q |= (b >> c0).to_u128() << (lane * i as u32);
        }
        Some((q, lane, h, w))
    }
}

/// A `rows x cols` grid of at most [`MAX_CELLS`] cells, with the masks its shifts need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    rows: usize,
    cols: usize,
    /// The shifts on any set of cells.
    wide: Shifts<u128>,
    /// The same in a `u64`, when the grid has at most 64 cells.
    narrow: Option<Shifts<u64>>,
    /// The frame width of canonical keys: `max(rows, cols)`.
    frame: usize,
}

impl Grid {
    /// A grid of `rows x cols` cells.
    ///
    /// # Errors
    /// [`Error::Invalid`] when a side is 0 or the grid has more than [`MAX_CELLS`] cells.
    pub fn new(rows: usize, cols: usize) -> Result<Grid> {
        if rows == 0 || cols == 0 || rows.saturating_mul(cols) > MAX_CELLS {
            return Err(Error::Invalid(format!(
                "a board must have at least one row and one column and at most {MAX_CELLS} \
                 cells, not {rows} x {cols}"
            )));
        }
        let full = low_bits(rows * cols);
        let mut first_col = 0u128;
        for r in 0..rows {
            first_col |= 1u128 << (r * cols);
        }
        Ok(Grid {
            rows,
            cols,
            wide: Shifts::new(cols, full, first_col),
            narrow: (rows * cols <= 64).then(|| Shifts::new(cols, full, first_col)),
            frame: rows.max(cols),
        })
    }

    /// The shifts in a `u64`, when the grid has at most 64 cells (the fast path).
    #[inline]
    pub(crate) fn narrow(&self) -> Option<&Shifts<u64>> {
        self.narrow.as_ref()
    }

    /// The shifts in a `u128`.
    #[inline]
    pub(crate) fn wide(&self) -> &Shifts<u128> {
        &self.wide
    }

    /// Rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Every cell of the grid.
    pub fn full(&self) -> u128 {
        self.wide.full
    }

    /// The bit of cell `(r, c)` (`r < rows`, `c < cols`).
    #[inline]
    pub fn cell(&self, r: usize, c: usize) -> u128 {
        debug_assert!(r < self.rows && c < self.cols);
        1u128 << (r * self.cols + c)
    }

    /// Cells of `m` whose right neighbour is also in `m` (each the left cell of a horizontal pair).
    #[inline]
    pub fn horizontal_pairs(&self, m: u128) -> u128 {
        self.wide.horizontal_pairs(m)
    }

    /// Cells of `m` whose lower neighbour is also in `m` (each the top cell of a vertical pair).
    #[inline]
    pub fn vertical_pairs(&self, m: u128) -> u128 {
        self.wide.vertical_pairs(m)
    }

    /// Each cell of `m` moved one row down (a shift by a whole row: none on a 1 x 128 grid).
    #[inline]
    pub fn down(&self, m: u128) -> u128 {
        self.wide.down(m)
    }

    /// Each cell of `m` moved one row up.
    #[inline]
    pub fn up(&self, m: u128) -> u128 {
        self.wide.up(m)
    }

    /// The cells next to a cell of `m` (up, down, left, right), `m` itself included.
    #[inline]
    pub fn grow(&self, m: u128) -> u128 {
        (m | self.adjacent(m)) & self.full()
    }

    /// The cells next to a cell of `m` (up, down, left, right); a cell of `m` only when it is
    /// next to another.
    #[inline]
    pub fn adjacent(&self, m: u128) -> u128 {
        self.wide.adjacent(m)
    }

    /// The connected region of `within` that holds the cells of `seed` (a subset of `within`).
    #[inline]
    pub fn region(&self, seed: u128, within: u128) -> u128 {
        match self.narrow {
            Some(s) => s.region_cut(seed as u64, within as u64, 0).to_u128(),
            None => self.wide.region_cut(seed, within, 0),
        }
    }

    /// Calls `f` with each connected region of `m`, lowest cell first.
    pub fn for_each_region(&self, m: u128, mut f: impl FnMut(u128)) {
        let mut rest = m;
        while rest != 0 {
            let region = self.region(rest & rest.wrapping_neg(), rest);
            f(region);
            rest &= !region;
        }
    }

    /// The rows and columns a non-empty set of cells spans: `(first row, last row, first
    /// column, last column)`.
    pub fn bounds(&self, m: u128) -> (usize, usize, usize, usize) {
        match self.narrow {
            Some(s) => s.bounds(m as u64),
            None => self.wide.bounds(m),
        }
    }

    /// Whether `m` is its own image under bit `i` to bit `lo + hi - i` (its lowest and highest
    /// bits): true of every set that [`Grid::half_turn`] maps onto itself, which reverses the
    /// order of its cells; cheap, as it needs no bounds, so most sets are told apart at once.
    ///
    /// ```
    /// use grundy::board::Grid;
    /// let g = Grid::new(3, 4).unwrap();
    /// let corner = g.cell(0, 0) | g.cell(0, 1) | g.cell(1, 0);
    /// assert!(!g.may_be_half_turn(corner));
    /// assert!(g.may_be_half_turn(g.full()));
    /// ```
    #[inline]
    pub fn may_be_half_turn(&self, m: u128) -> bool {
        if m & m.wrapping_sub(1) == 0 {
            return true;
        }
        let (lo, hi) = (m.trailing_zeros(), 127 - m.leading_zeros());
        let s = lo + hi;
        if hi < 64 {
            // A bit reversal takes dozens of instructions on x86: half as many in a u64.
            let m = m as u64;
            let rev = m.reverse_bits();
            return (if s <= 63 {
                rev >> (63 - s)
            } else {
                rev << (s - 63)
            }) == m;
        }
        reflect(m, s) == m
    }

    /// `m`'s image under the half turn about the centre of its bounding box, and the doubled
    /// centre `(r0 + r1, c0 + c1)` (each odd when the centre falls between two rows, columns).
    ///
    /// Cell `(r, c)`, bit `i`, goes to `(r0 + r1 - r, c0 + c1 - c)`, bit `k - i` for
    /// `k = (r0 + r1) * cols + c0 + c1`: the bits reversed and shifted.
    #[inline]
    pub fn half_turn(&self, m: u128) -> (u128, usize, usize) {
        if m == 0 {
            return (0, 0, 0);
        }
        let (r0, r1, c0, c1) = self.bounds(m);
        let (sr, sc) = (r0 + r1, c0 + c1);
        let k = sr * self.cols + sc;
        (reflect(m, k as u32), sr, sc)
    }

    /// When `m` is its own image under [`Grid::half_turn`]: the cells at the centre of the turn
    /// (the one there, the two it lies between, or none when it falls on a grid vertex) and
    /// how many of its two coordinates fall between cells (0, 1 or 2). A cell and its image
    /// are next to each other only when both are the centre's two cells, and the same only
    /// when it is the centre's one cell: the symmetry strategies of Cram and Node Kayles read
    /// their answers from these two figures.
    ///
    /// ```
    /// use grundy::board::Grid;
    /// let g = Grid::new(3, 4).unwrap();
    /// let plus = g.cell(0, 1) | g.cell(1, 0) | g.cell(1, 1) | g.cell(1, 2) | g.cell(2, 1);
    /// assert_eq!(g.half_turn_centre(plus), Some((g.cell(1, 1), 0)));
    /// assert_eq!(g.half_turn_centre(g.full()), Some((g.cell(1, 1) | g.cell(1, 2), 1)));
    /// assert_eq!(g.half_turn_centre(g.cell(0, 0) | g.cell(0, 1) | g.cell(1, 0)), None);
    /// ```
    pub fn half_turn_centre(&self, m: u128) -> Option<(u128, usize)> {
        // Asked of every part a search's table does not know: most are told at once.
        if m == 0 || !self.may_be_half_turn(m) {
            return None;
        }
        let (image, sr, sc) = self.half_turn(m);
        if image != m {
            return None;
        }
        let (r, c) = (sr / 2, sc / 2);
        let centre = match (sr % 2, sc % 2) {
            (1, 1) => 0,
            (0, 0) => self.cell(r, c),
            (1, _) => self.cell(r, c) | self.cell(r + 1, c),
            _ => self.cell(r, c) | self.cell(r, c + 1),
        };
        Some((centre, sr % 2 + sc % 2))
    }

    /// The key of a set of cells under translation and the 8 symmetries of the square: equal for
    /// two sets when one is the other moved, turned or mirrored, different otherwise.
    ///
    /// The set is moved to the top left corner and laid out no taller than wide, in rows of the
    /// frame width `max(rows, cols)`, and the smallest of the (4 or 8) layouts is the key; so the
    /// key fits in the grid's cell count and never needs more than 128 bits.
    pub fn canonical(&self, m: u128) -> u128 {
        if m == 0 {
            return 0;
        }
        // Sets that fit in 8 x 8 (nearly all that a search meets) go through one u64, those of
        // at most 8 rows and 64 columns through lanes of a u128 (the long parts of 3 x n and
        // 4 x n boards).
        let lanes = match self.narrow {
            Some(s) => s.in_lanes(m as u64),
            None => self.wide.in_lanes(m),
        };
        match lanes {
            Some((q, 8, h, w)) => self.canonical_small(q as u64, h, w),
            Some((q, lane, h, w)) => self.canonical_lanes(q, lane, h, w),
            None => self.canonical_wide(m),
        }
    }

    /// [`Grid::canonical`] of a set of at most 8 x 8 cells `q` (row `i` in byte `i`, moved to
    /// the top left corner), `h` rows and `w` columns: the same key, by bytewise operations.
    #[inline]
    fn canonical_small(&self, q: u64, h: usize, w: usize) -> u128 {
        // Rows in reverse order, and each row reversed, moved back to the corner.
        let tb = |x: u64, h: usize| x.swap_bytes() >> (8 * (8 - h));
        let lr = |x: u64, w: usize| reverse_in_bytes(x) >> (8 - w);
        let four = |x: u64, h: usize, w: usize| {
            let l = lr(x, w);
            x.min(l).min(tb(x, h)).min(tb(l, h))
        };
        let mut best = u64::MAX;
        if h <= w {
            best = best.min(four(q, h, w));
        }
        if w <= h {
            best = best.min(four(transpose8(q), w, h));
        }
        // In rows of the frame width, as the wide layout has them (the order is the same).
        if self.frame == 8 {
            return u128::from(best);
        }
        let mut key = 0u128;
        for i in 0..h.min(w) {
            key |= u128::from((best >> (8 * i)) as u8) << (self.frame * i);
        }
        key
    }

    /// [`Grid::canonical`] of a set of `h` rows and `w` columns, `8 < w <= lane`, row `i` in
    /// lane `i` of `lane` bits of `q` (so `h < w`: no transpose): the four layouts by whole-word
    /// operations, then moved to rows of the frame width.
    #[inline]
    fn canonical_lanes(&self, q: u128, lane: u32, h: usize, w: usize) -> u128 {
        let (h, w) = (h as u32, w as u32);
        // The lanes in reverse order, each as it was.
        let flip = |x: u128| {
            let mut x = x.rotate_left(64);
            if lane <= 32 {
                x = (x >> 32) & LANES_32 | (x & LANES_32) << 32;
            }
            if lane <= 16 {
                x = (x >> 16) & LANES_16 | (x & LANES_16) << 16;
            }
            x
        };
        let unused = 128 - h * lane;
        // Every bit reversed: lanes in reverse order, each reversed into its top `w` bits.
        let rev = q.reverse_bits();
        let both = rev >> (unused + lane - w);
        let lr = flip(rev) >> (lane - w);
        let tb = flip(q) >> unused;
        let best = q.min(lr).min(tb).min(both);
        if self.frame as u32 == lane {
            return best;
        }
        let row = low_bits(lane as usize);
        let mut key = 0u128;
        for i in 0..h {
            key |= ((best >> (lane * i)) & row) << (self.frame as u32 * i);
        }
        key
    }

    /// [`Grid::canonical`] of any set.
    fn canonical_wide(&self, m: u128) -> u128 {
        let cols = self.cols;
        let (r0, r1, c0, c1) = self.bounds(m);
        let (h, w) = (r1 - r0 + 1, c1 - c0 + 1);
        // Every cell's column is at least c0, so this shift moves no cell into another row.
        let m = m >> (r0 * cols + c0);
        let mut rows = [0u128; 16];
        let mut heap_rows = Vec::new();
        let rows: &mut [u128] = if h <= 16 {
            &mut rows[..h]
        } else {
            heap_rows.resize(h, 0);
            &mut heap_rows
        };
        let w_mask = low_bits(w);
        for (i, b) in rows.iter_mut().enumerate() {
            *b = (m >> (i * cols)) & w_mask;
        }
        let mut best = u128::MAX;
        if h <= w {
            best = best.min(self.layouts(rows, w));
        }
        if w <= h {
            // The transpose: its rows are the columns of the set.
            let mut t = [0u128; 16];
            let mut heap_t = Vec::new();
            let t: &mut [u128] = if w <= 16 {
                &mut t[..w]
            } else {
                heap_t.resize(w, 0);
                &mut heap_t
            };
            for (i, &b) in rows.iter().enumerate() {
                let mut b = b;
                while b != 0 {
                    let j = b.trailing_zeros() as usize;
                    t[j] |= 1u128 << i;
                    b &= b - 1;
                }
            }
            best = best.min(self.layouts(t, h));
        }
        best
    }

    /// The smallest of the four layouts of `rows` (each `width` wide) mirrored left-right and
    /// top-bottom, in rows of the frame width.
    #[inline]
    fn layouts(&self, rows: &[u128], width: usize) -> u128 {
        let f = self.frame;
        let shift = 128 - width;
        let (mut id, mut lr, mut tb, mut both) = (0u128, 0u128, 0u128, 0u128);
        let n = rows.len();
        for (i, &b) in rows.iter().enumerate() {
            let rev = b.reverse_bits() >> shift;
            let top = i * f;
            let bottom = (n - 1 - i) * f;
            id |= b << top;
            lr |= rev << top;
            tb |= b << bottom;
            both |= rev << bottom;
        }
        id.min(lr).min(tb).min(both)
    }
}

/// The low 32 bits of each 64 (lanes to swap in pairs).
const LANES_32: u128 = 0x0000_0000_ffff_ffff_0000_0000_ffff_ffff;
/// The low 16 bits of each 32.
const LANES_16: u128 = 0x0000_ffff_0000_ffff_0000_ffff_0000_ffff;

/// `m`'s image under bit `i` to bit `s - i` (for `i <= s`; those past bit 127 are dropped): the
/// bits reversed and shifted. Both half-turn tests of [`Grid`] use it.
#[inline]
fn reflect(m: u128, s: u32) -> u128 {
    let rev = m.reverse_bits();
    if s <= 127 {
        rev >> (127 - s)
    } else {
        rev << (s - 127)
    }
}

/// Each byte of `x` with its bits in reverse order (`x.reverse_bits().swap_bytes()`, without
/// the two byte swaps).
#[inline]
fn reverse_in_bytes(x: u64) -> u64 {
    let x = (x >> 1) & 0x5555_5555_5555_5555 | (x & 0x5555_5555_5555_5555) << 1;
    let x = (x >> 2) & 0x3333_3333_3333_3333 | (x & 0x3333_3333_3333_3333) << 2;
    (x >> 4) & 0x0f0f_0f0f_0f0f_0f0f | (x & 0x0f0f_0f0f_0f0f_0f0f) << 4
}

/// The 8 x 8 bit matrix `x` (row `r`, column `c` at bit `8 r + c`) transposed.
#[inline]
fn transpose8(mut x: u64) -> u64 {
    let t = (x ^ (x >> 7)) & 0x00aa_00aa_00aa_00aa;
    x ^= t ^ (t << 7);
    let t = (x ^ (x >> 14)) & 0x0000_cccc_0000_cccc;
    x ^= t ^ (t << 14);
    let t = (x ^ (x >> 28)) & 0x0000_0000_f0f0_f0f0;
    x ^ t ^ (t << 28)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bit's row by multiplication is its row by division, on every grid; the bytes reversed
    /// in place are the bits reversed and the bytes swapped back.
    #[test]
    fn grid_row_of_and_byte_reversal() {
        for cols in 1..=128 {
            let g = Grid::new(1, cols).unwrap();
            for i in 0..128 {
                assert_eq!(g.wide().row_of(i), i as usize / cols, "{i} / {cols}");
            }
        }
        let mut rng = crate::engine::testing::Rng(5);
        for _ in 0..1000 {
            let x = rng.below(u64::MAX);
            assert_eq!(reverse_in_bytes(x), x.reverse_bits().swap_bytes());
        }
    }

    #[test]
    fn grid_regions_and_pairs() {
        let g = Grid::new(2, 3).unwrap();
        // Cells 0 and 2 of row 0, and cell 5 under 2: two regions.
        let m = g.cell(0, 0) | g.cell(0, 2) | g.cell(1, 2);
        let mut regions = Vec::new();
        g.for_each_region(m, |r| regions.push(r));
        assert_eq!(regions, vec![g.cell(0, 0), g.cell(0, 2) | g.cell(1, 2)]);
        assert_eq!(
            g.horizontal_pairs(g.full()),
            g.cell(0, 0) | g.cell(0, 1) | g.cell(1, 0) | g.cell(1, 1)
        );
        assert_eq!(g.vertical_pairs(m), g.cell(0, 2));
        // No wrap from the end of one row to the start of the next.
        assert_eq!(g.horizontal_pairs(g.cell(0, 2) | g.cell(1, 0)), 0);
        assert!(Grid::new(0, 3).is_err());
        assert!(Grid::new(11, 12).is_err());
        assert!(Grid::new(8, 16).is_ok());
    }

    /// The quick filter of the half turn never turns away a set that is its own image: on every
    /// set of a 3 x 4 and a 4 x 3 grid, and on random symmetric sets of grids up to 128 cells
    /// (where it also says yes to some sets that are not: the bits wrap across rows).
    #[test]
    fn grid_half_turn_filter_keeps_every_symmetric_set() {
        for (rows, cols) in [(3, 4), (4, 3)] {
            let g = Grid::new(rows, cols).unwrap();
            let mut symmetric = 0;
            for m in 0u128..1 << (rows * cols) {
                if g.half_turn(m).0 == m {
                    assert!(g.may_be_half_turn(m), "{rows} x {cols} {m:#x}");
                    symmetric += 1;
                }
            }
            assert!(symmetric > 50, "{symmetric}");
        }
        let mut rng = crate::engine::testing::Rng(11);
        let (mut asymmetric, mut told) = (0, 0);
        for &(rows, cols) in &[
            (1, 128),
            (2, 64),
            (3, 42),
            (4, 31),
            (5, 25),
            (8, 16),
            (11, 11),
        ] {
            let g = Grid::new(rows, cols).unwrap();
            for _ in 0..200 {
                let mut m = 0u128;
                for i in 0..rows * cols {
                    if rng.below(3) == 0 {
                        m |= 1 << i;
                    }
                }
                if m == 0 {
                    continue;
                }
                let symmetric = m | g.half_turn(m).0;
                assert_eq!(g.half_turn(symmetric).0, symmetric);
                assert!(g.may_be_half_turn(symmetric));
                if g.half_turn(m).0 != m {
                    asymmetric += 1;
                    told += usize::from(!g.may_be_half_turn(m));
                }
            }
        }
        // What the filter is for: the others told apart at once, nearly all of them.
        assert!(told * 100 >= asymmetric * 99, "{told} of {asymmetric}");
    }

    /// The 8 x 8 path gives the key of the general one, on every set of a 4 x 4 grid and on
    /// random sets of larger grids.
    #[test]
    fn grid_canonical_small_equals_wide() {
        let g = Grid::new(4, 4).unwrap();
        for m in 1u128..1 << 16 {
            assert_eq!(g.canonical(m), g.canonical_wide(m), "{m:#x}");
        }
        let mut rng = crate::engine::testing::Rng(7);
        let grids = [
            (8, 8),
            (5, 9),
            (9, 5),
            (3, 11),
            (11, 11),
            (8, 16),
            (4, 15),
            (4, 32),
            (3, 42),
            (2, 64),
            (1, 100),
            (5, 25),
        ];
        for (rows, cols) in grids {
            let g = Grid::new(rows, cols).unwrap();
            for k in 0..3000 {
                // A random set inside a random box (as wide as the grid, a third of the time:
                // the lanes of 16, 32 and 64 columns).
                let h = 1 + rng.below(8.min(rows) as u64) as usize;
                let w = 1 + rng.below(if k % 3 == 0 { cols } else { 8 } as u64) as usize;
                let (r0, c0) = (
                    rng.below(rows as u64) as usize,
                    rng.below(cols as u64) as usize,
                );
                let mut m = 0u128;
                for r in r0..(r0 + h).min(rows) {
                    for c in c0..(c0 + w).min(cols) {
                        if rng.below(2) == 1 {
                            m |= g.cell(r, c);
                        }
                    }
                }
                if m != 0 {
                    assert_eq!(g.canonical(m), g.canonical_wide(m), "{rows}x{cols} {m:#x}");
                }
            }
        }
    }

    /// A region grown by whole runs of links is the one a plain flood fill over the cells
    /// finds, with and without cut links, in both words.
    #[test]
    fn regions_are_those_of_a_flood_fill() {
        let mut rng = crate::engine::testing::Rng(11);
        for (rows, cols) in [(4, 15), (5, 9), (3, 21), (8, 8), (1, 64), (7, 18), (2, 64)] {
            let g = Grid::new(rows, cols).unwrap();
            let n = rows * cols;
            let cells = |m: u128| (0..n).filter(move |&i| m >> i & 1 == 1);
            for k in 0..400 {
                let mut within = 0u128;
                let mut cut = 0u128;
                for i in 0..n {
                    // Dense sets (long runs) and sparse ones.
                    if rng.below(4) < 2 + (k % 2) as u64 {
                        within |= 1 << i;
                    }
                    if rng.below(8) == 0 {
                        cut |= 1 << i;
                    }
                }
                let Some(seed) = cells(within)
                    .nth(rng.below(n as u64) as usize % within.count_ones().max(1) as usize)
                else {
                    continue;
                };
                // The flood fill: a cell's neighbours up, down, left and right; the link from a
                // cell of `cut` to its right neighbour does not count.
                let linked = |a: usize, b: usize| {
                    let (a, b) = (a.min(b), a.max(b));
                    if b == a + cols {
                        return true;
                    }
                    b == a + 1 && a % cols != cols - 1 && cut >> a & 1 == 0
                };
                let mut region = 1u128 << seed;
                let mut stack = vec![seed];
                while let Some(a) = stack.pop() {
                    for b in cells(within & !region) {
                        if linked(a, b) {
                            region |= 1 << b;
                            stack.push(b);
                        }
                    }
                }
                let wide = g.wide.region_cut(1 << seed, within, cut);
                assert_eq!(
                    wide, region,
                    "{rows}x{cols} {within:#x} cut {cut:#x} seed {seed}"
                );
                if let Some(s) = g.narrow {
                    let narrow = s.region_cut(1 << seed, within as u64, cut as u64);
                    assert_eq!(narrow.to_u128(), region);
                }
            }
        }
    }

    /// The canonical key is the same on all 8 images of random sets, translated anywhere, and
    /// different sets (up to symmetry) get different keys, on a 3 x 5 grid by brute force.
    #[test]
    fn grid_canonical_is_a_class_invariant() {
        use std::collections::HashMap;
        let g = Grid::new(3, 5).unwrap();
        // Each set of cells -> the sorted list of cells of its normalised images.
        let image = |m: u128, t: usize| -> Vec<(i64, i64)> {
            let mut v: Vec<(i64, i64)> = (0..15)
                .filter(|&i| m >> i & 1 == 1)
                .map(|i| {
                    let (r, c) = ((i / 5) as i64, (i % 5) as i64);
                    let (r, c) = if t & 4 != 0 { (c, r) } else { (r, c) };
                    let r = if t & 1 != 0 { -r } else { r };
                    let c = if t & 2 != 0 { -c } else { c };
                    (r, c)
                })
                .collect();
            let rmin = v.iter().map(|p| p.0).min().unwrap();
            let cmin = v.iter().map(|p| p.1).min().unwrap();
            for p in &mut v {
                *p = (p.0 - rmin, p.1 - cmin);
            }
            v.sort();
            v
        };
        let mut class_of_key: HashMap<u128, Vec<(i64, i64)>> = HashMap::new();
        let mut key_of_class: HashMap<Vec<(i64, i64)>, u128> = HashMap::new();
        for m in 1u128..(1 << 15) {
            let class = (0..8).map(|t| image(m, t)).min().unwrap();
            let key = g.canonical(m);
            assert!(key < 1 << 15);
            let seen = class_of_key.entry(key).or_insert_with(|| class.clone());
            assert_eq!(*seen, class, "two classes share key {key:b}");
            assert_eq!(
                *key_of_class.entry(class).or_insert(key),
                key,
                "one class, two keys"
            );
        }
    }
}
