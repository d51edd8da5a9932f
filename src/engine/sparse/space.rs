//! Sparse space of a computed sequence, for display, research tables and the fast engine's
//! report: the mask (chosen by [`crate::engine::best_mask`], the same choice the fast engine
//! makes) and the heaps that are rare under it. [`analyse`] is the one analysis of any computed
//! values; [`TakeAndBreakSparse::space`](crate::engine::TakeAndBreakSparse::space) reports the
//! engine's own classification as the same [`SparseSpace`].
//!
//! ```
//! use grundy::engine::Values;
//! use grundy::engine::sparse::space::analyse;
//! // Values 2 and 3 common, 0 and 1 rare under mask 2.
//! let v = Values::U16(vec![0, 1, 2, 3, 2, 3, 3, 2, 3]);
//! let s = analyse(&v, 9).unwrap();
//! assert_eq!((s.shown_mask(), s.mask.parity, s.rare_positions), (2, false, vec![0, 1]));
//! ```

use super::mask::{best_mask, SparseMask, HIST_BITS};
use crate::engine::{Val, Values};
use crate::error::{Error, Result};

/// The sparse space of `G(0..checked_to)`: a mask and the heaps rare under it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SparseSpace {
    /// The mask, parity flag and rare class.
    pub mask: SparseMask,
    /// Rare heap sizes, ascending.
    pub rare_positions: Vec<u64>,
    /// Number of rare heaps.
    pub rare_count: u64,
    /// Number of heaps that are not rare.
    pub common_count: u64,
    /// Heaps classified (`G(0..checked_to)`).
    pub checked_to: u64,
    /// The largest value classified.
    pub max_value: u32,
}

impl SparseSpace {
    /// The largest rare heap, if any.
    pub fn last_rare(&self) -> Option<u64> {
        self.rare_positions.last().copied()
    }

    /// Classifies `values` with `mask`.
    pub fn classify<T: Val>(values: &[T], mask: SparseMask) -> Self {
        let rare: Vec<u64> = (0..values.len() as u64)
            .filter(|&n| mask.is_rare(n, values[n as usize].get()))
            .collect();
        SparseSpace {
            mask,
            rare_count: rare.len() as u64,
            common_count: values.len() as u64 - rare.len() as u64,
            rare_positions: rare,
            checked_to: values.len() as u64,
            max_value: values.iter().map(|v| v.get()).max().unwrap_or(0),
        }
    }

    /// The mask trimmed to the bits the classified values use (the bits above change no
    /// value's class), as it is shown.
    pub fn shown_mask(&self) -> u32 {
        let width = if self.max_value == 0 {
            1
        } else {
            u32::MAX >> self.max_value.leading_zeros()
        };
        self.mask.mask & width
    }
}

/// The sparse space of the first `n` values: the best mask and the heaps rare under it.
///
/// # Errors
/// [`Error::Invalid`] when a value reaches `2^HIST_BITS` (the mask search would be too big).
///
/// # Panics
/// When `n` is more than the values computed.
pub fn analyse(values: &Values, n: usize) -> Result<SparseSpace> {
    fn of<T: Val>(v: &[T]) -> SparseSpace {
        SparseSpace::classify(v, best_mask(v).0)
    }
    let max = values.max(n);
    if max >= 1 << HIST_BITS {
        return Err(Error::Invalid(format!(
            "values reach {max}: sparse space is only analysed for values below 2^{HIST_BITS}"
        )));
    }
    Ok(match values {
        Values::U16(v) => of(&v[..n]),
        Values::U32(v) => of(&v[..n]),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parity_dependent_rarity_is_found() {
        // Odd values at even heaps, even values at odd heaps: every position is common under
        // mask 1 once rarity flips with parity, and no mask alone does as well.
        let v: Vec<u16> = (0..400u16)
            .map(|i| {
                if i % 2 == 0 {
                    2 * (i % 5) + 1
                } else {
                    2 * (i % 7)
                }
            })
            .collect();
        let a = analyse(&Values::U16(v), 400).unwrap();
        assert!(a.mask.parity);
        assert!(a.rare_positions.is_empty());
        assert_eq!((a.rare_count, a.common_count, a.checked_to), (0, 400, 400));
    }

    #[test]
    fn huge_values_are_refused() {
        let v = Values::U32(vec![0, 1 << 21]);
        assert!(analyse(&v, 2).is_err());
    }
}
