//! Sparse space of a computed sequence, for display and research tables: the mask (chosen by
//! [`crate::engine::best_mask`], the same choice the fast engine makes) and the rare positions.
//!
//! ```
//! use grundy::engine::Values;
//! use grundy::sparse_space::analyse;
//! // Values 2 and 3 common, 0 and 1 rare under mask 2.
//! let v = Values::U16(vec![0, 1, 2, 3, 2, 3, 3, 2, 3]);
//! let s = analyse(&v, 9).unwrap();
//! assert_eq!((s.mask, s.parity, s.rare_positions), (2, false, vec![0, 1]));
//! ```

use crate::engine::{best_mask, sparse_mask::HIST_BITS, SparseMask, Values};
use crate::error::{Error, Result};

/// The mask (trimmed to the bits the values use), parity flag and rare positions of `G(0..n)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Analysis {
    pub mask: u32,
    pub parity: bool,
    pub rare_positions: Vec<u64>,
}

/// Analyses the first `n` values.
pub fn analyse(values: &Values, n: usize) -> Result<Analysis> {
    let max = values.max(n);
    if max >= 1 << HIST_BITS {
        return Err(Error::Invalid(format!(
            "values reach {max}: sparse space is only analysed for values below 2^{HIST_BITS}"
        )));
    }
    let m: SparseMask = match values {
        Values::U16(v) => best_mask(&v[..n]).0,
        Values::U32(v) => best_mask(&v[..n]).0,
    };
    let width = if max == 0 {
        1
    } else {
        u32::MAX >> max.leading_zeros()
    };
    let rare_positions = (0..n)
        .filter(|&i| m.is_rare(i as u64, values.get(i)))
        .map(|i| i as u64)
        .collect();
    Ok(Analysis {
        mask: m.mask & width,
        parity: m.parity,
        rare_positions,
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
        assert!(a.parity);
        assert!(a.rare_positions.is_empty());
    }

    #[test]
    fn huge_values_are_refused() {
        let v = Values::U32(vec![0, 1 << 21]);
        assert!(analyse(&v, 2).is_err());
    }
}
