//! Positions: sums of heaps, their outcomes, winning-move search and misère play.
//!
//! A sum is a P-position exactly when the XOR of its components' Grundy values is 0; a winning
//! move from a sum with nim-sum `X` moves some component `c` to an option worth `G(c) ^ X`. This
//! module finds such options for one heap of a rule ([`search()`]), including heaps far beyond the
//! computed values when the rule has a proven period, evaluates millions of sums at once
//! ([`outcomes`]) and decides misère play by exhaustive search ([`misere`]).
//!
//! What is known about `G` lives in [`HeapValues`]: the computed table `G(0..N)` and, beyond it,
//! a proven [`Tail`].
//!
//! ```
//! use grundy::engine::{Sequence, TakeAndBreakExact};
//! use grundy::control::NoControl;
//! use grundy::position::{outcomes, HeapValues, Tail};
//! use grundy::rules::TakeAndBreak;
//! let rule = TakeAndBreak::parse("0.77").unwrap();
//! let mut seq = Sequence::new(TakeAndBreakExact::new(rule.clone()));
//! seq.extend(200, &NoControl).unwrap();
//! // Kayles is periodic from 71 with period 12.
//! let vals = HeapValues::new(seq.values(), Tail::Periodic { preperiod: 71, period: 12 }).unwrap();
//! assert_eq!(vals.get(1_000_000_000_000_000_000), 1); // 10^18 = 76 (mod 12): G(76) = 1
//! // Rows [1, 1] and [4, 1] are P-positions (G(4) = 1); [2, 1] is not.
//! assert_eq!(outcomes(&vals, &[1, 1, 2, 1, 4, 1], 2).unwrap(), vec![true, false, true]);
//! ```

pub mod family;
pub mod misere;
pub mod search;

pub use family::{Expansion, Family, Parts};
pub use misere::{Misere, MisereGame, OptionTable};
pub use search::{search, Cursor, Found, Query, Strategy};

use crate::engine::Values;
use crate::error::{Error, Result};
use crate::rules::Rule;
use rayon::prelude::*;

/// What is known about `G` beyond the computed table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tail {
    /// Nothing: only heaps below the table's length have known values.
    None,
    /// `G(h) = G(preperiod + (h - preperiod) % period)` for every `h >= preperiod` (proven).
    Periodic {
        /// Where the period starts.
        preperiod: u64,
        /// The period.
        period: u64,
    },
    /// `G(h) = h` for every `h` (Nim-like rules: every smaller heap is an option).
    Identity,
}

/// The Grundy values of one rule's heaps: a table `G(0..N)` and a proven tail beyond it.
#[derive(Debug, Clone, Copy)]
pub struct HeapValues<'a> {
    table: &'a Values,
    tail: Tail,
}

impl<'a> HeapValues<'a> {
    /// Checks that the table holds one whole period of a periodic tail.
    ///
    /// # Errors
    /// [`Error::Invalid`] when the table is shorter than the preperiod plus one period.
    pub fn new(table: &'a Values, tail: Tail) -> Result<Self> {
        if let Tail::Periodic { preperiod, period } = tail {
            let need = preperiod.checked_add(period);
            if period == 0 || need.is_none_or(|need| need > table.len() as u64) {
                return Err(Error::Invalid(format!(
                    "a period {period} from {preperiod} needs G(0..{}) but only {} values are computed",
                    preperiod.saturating_add(period),
                    table.len()
                )));
            }
        }
        Ok(HeapValues { table, tail })
    }

    /// A tail from a period as the Python layer reports it: `(preperiod, period, saltus)`.
    /// Saltus 0 is a plain period; `(0, 1, 1)` is `G(h) = h`; anything else is not usable.
    ///
    /// # Errors
    /// [`Error::Invalid`] for any other arithmetic period.
    pub fn tail_from(preperiod: u64, period: u64, saltus: i64) -> Result<Tail> {
        match (preperiod, period, saltus) {
            (_, p, 0) if p > 0 => Ok(Tail::Periodic {
                preperiod,
                period: p,
            }),
            (0, 1, 1) => Ok(Tail::Identity),
            _ => Err(Error::Invalid(format!(
                "an arithmetic period (preperiod {preperiod}, period {period}, saltus {saltus}) other than \
                 G(h) = h cannot be used to evaluate heaps"
            ))),
        }
    }

    /// The tail.
    pub fn tail(&self) -> Tail {
        self.tail
    }

    /// Number of computed values.
    pub fn computed(&self) -> u64 {
        self.table.len() as u64
    }

    /// Whether `G(h)` is known for every `h < n`.
    pub fn covers_below(&self, n: u64) -> bool {
        n <= self.computed() || self.tail != Tail::None
    }

    /// `Err` naming the first heap size whose value is unknown, unless every `h < n` is known.
    ///
    /// # Errors
    /// [`Error::Invalid`] naming the heap.
    pub fn check_below(&self, n: u64) -> Result<()> {
        if self.covers_below(n) {
            Ok(())
        } else {
            Err(Error::Invalid(format!(
                "G({}) is not known: only G(0..{}) are computed and no period is proven",
                self.computed(),
                self.computed()
            )))
        }
    }

    /// `G(h)`. Panics when `h` is beyond the table and there is no tail (check with
    /// [`covers_below`](Self::covers_below)).
    ///
    /// # Panics
    /// As said, for a heap whose value is unknown.
    #[inline]
    pub fn get(&self, h: u64) -> u64 {
        if h < self.table.len() as u64 {
            return self.table.get(h as usize) as u64;
        }
        match self.tail {
            Tail::Periodic { preperiod, period } => {
                let i = preperiod + (h - preperiod) % period;
                self.table.get(i as usize) as u64
            }
            Tail::Identity => h,
            Tail::None => panic!("G({h}) is beyond the {} computed values", self.table.len()),
        }
    }
}

/// Below this many heaps a job runs on the calling thread.
const PAR_HEAPS: usize = 1 << 14;

/// `G(h)` for every heap, in parallel for long inputs.
///
/// # Errors
/// [`Error::Invalid`] naming the first heap whose value is unknown.
pub fn heap_values(vals: &HeapValues, heaps: &[u64]) -> Result<Vec<u64>> {
    check_heaps(vals, heaps)?;
    if heaps.len() < PAR_HEAPS {
        return Ok(heaps.iter().map(|&h| vals.get(h)).collect());
    }
    Ok(heaps.par_iter().map(|&h| vals.get(h)).collect())
}

fn check_heaps(vals: &HeapValues, heaps: &[u64]) -> Result<()> {
    if vals.tail == Tail::None {
        if let Some(&h) = heaps.iter().find(|&&h| h >= vals.computed()) {
            return Err(Error::Invalid(format!(
                "G({h}) is not known: only G(0..{}) are computed and no period is proven",
                vals.computed()
            )));
        }
    }
    Ok(())
}

/// For each row of `heaps` (row-major, `width` heaps per row): whether the sum of its heaps is a
/// P-position (the XOR of their values is 0). Rows run in parallel.
///
/// # Errors
/// [`Error::Invalid`] for a heap whose value is unknown, or heaps that do not make rows
/// of `width`.
pub fn outcomes(vals: &HeapValues, heaps: &[u64], width: usize) -> Result<Vec<bool>> {
    check_heaps(vals, heaps)?;
    if width == 0 {
        return Err(Error::Invalid("rows must have at least one heap".into()));
    }
    if heaps.len() % width != 0 {
        return Err(Error::Invalid(format!(
            "{} heaps do not make rows of {width}",
            heaps.len()
        )));
    }
    let row = |r: &[u64]| r.iter().fold(0, |x, &h| x ^ vals.get(h)) == 0;
    if heaps.len() < PAR_HEAPS {
        return Ok(heaps.chunks(width).map(row).collect());
    }
    Ok(heaps.par_chunks(width).map(row).collect())
}

/// For each heap `heaps[i]`: whether it has an option worth `targets[i]` (so that moving there
/// wins when `targets[i] = G(heaps[i]) ^ X` for a sum of nim-sum `X`). Heaps run in parallel.
///
/// # Errors
/// [`Error::Invalid`] when the lengths differ, or as [`search()`] for a heap.
pub fn has_option_with_value(
    rule: &Rule,
    vals: &HeapValues,
    heaps: &[u64],
    targets: &[u64],
) -> Result<Vec<bool>> {
    if heaps.len() != targets.len() {
        return Err(Error::Invalid(format!(
            "{} heaps but {} targets",
            heaps.len(),
            targets.len()
        )));
    }
    let one = |(&n, &t): (&u64, &u64)| {
        let q = Query {
            target: Some(t),
            first_only: true,
            ..Query::new(n)
        };
        search(rule, vals, &q).map(|f| !f.families.is_empty())
    };
    if heaps.len() < 64 {
        return heaps.iter().zip(targets).map(one).collect();
    }
    heaps.par_iter().zip(targets).map(one).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn winning_heaps_of_a_nim_sum() {
        // Nim [10, 12, 5]: nim-sum 3; only the heap of 10 can move to 10 ^ 3 = 9.
        let t = Values::U16((0..16).collect());
        let v = HeapValues::new(&t, Tail::Identity).unwrap();
        let nim = Rule::TakeAndBreak("0.[3]".parse().unwrap());
        let heaps = [10, 12, 5];
        let targets: Vec<u64> = heaps.iter().map(|h| h ^ 3).collect();
        assert_eq!(
            has_option_with_value(&nim, &v, &heaps, &targets).unwrap(),
            vec![true, false, false]
        );
        assert!(has_option_with_value(&nim, &v, &heaps, &[1]).is_err());
    }

    #[test]
    fn tails() {
        let t = Values::U16(vec![0, 1, 2, 0, 1, 2, 0]);
        let v = HeapValues::new(
            &t,
            Tail::Periodic {
                preperiod: 1,
                period: 3,
            },
        )
        .unwrap();
        assert_eq!(v.get(10), 1);
        assert_eq!(v.get(u64::MAX), [1, 2, 0][((u64::MAX - 1) % 3) as usize]);
        assert!(HeapValues::new(
            &t,
            Tail::Periodic {
                preperiod: 5,
                period: 3
            }
        )
        .is_err());
        let v = HeapValues::new(&t, Tail::Identity).unwrap();
        assert_eq!(v.get(u64::MAX), u64::MAX);
        assert_eq!(HeapValues::tail_from(0, 1, 1).unwrap(), Tail::Identity);
        assert!(HeapValues::tail_from(0, 2, 1).is_err());
    }

    #[test]
    fn outcomes_and_values_check_coverage() {
        let t = Values::U16((0..16).collect());
        let v = HeapValues::new(&t, Tail::None).unwrap();
        assert_eq!(
            outcomes(&v, &[10, 12, 5, 9, 12, 5], 3).unwrap(),
            vec![false, true]
        );
        assert!(outcomes(&v, &[16], 1).is_err());
        assert!(heap_values(&v, &[3, 16]).is_err());
        assert!(outcomes(&v, &[1, 2, 3], 2).is_err());
        let big: Vec<u64> = (0..100_000).map(|i| i % 16).collect();
        let o = outcomes(&v, &big, 2).unwrap();
        assert_eq!(o.len(), 50_000);
        assert!(o
            .iter()
            .zip(big.chunks(2))
            .all(|(&p, r)| p == (r[0] == r[1])));
    }
}
