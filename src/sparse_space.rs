//! Sparse space: a mask `m` splits values into rare (popcount(v & m) even) and common (odd).
//! For many take-and-break games rare values occur at only a few heap sizes, which is what the
//! fast engine exploits. Rarity may also flip with the parity of the heap size.
//!
//! The best mask is found from the data: with the value histogram `h`, the number of rare values
//! under mask `m` is `(N + W[m]) / 2`, where `W` is the Walsh–Hadamard transform of `h`.
//!
//! ```
//! use grundy::sparse_space::best_mask;
//! // Values 2 and 3 common, 0 and 1 rare under mask 2.
//! let values = [0u32, 1, 2, 3, 2, 3, 3, 2, 3];
//! let s = best_mask(values.len(), |i| values[i]).unwrap();
//! assert_eq!((s.mask, s.parity), (2, false));
//! ```

use crate::error::{Error, Result};

/// Values above this make the transform too large to be worth it.
pub const MAX_BITS: u32 = 22;

/// The chosen mask and whether rarity also flips with the parity of the heap size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mask {
    pub mask: u32,
    pub parity: bool,
}

impl Mask {
    /// Whether heap `n` with value `v` is a rare position.
    #[inline]
    pub fn is_rare(&self, n: usize, v: u32) -> bool {
        ((v & self.mask).count_ones() + (self.parity && n % 2 == 1) as u32) % 2 == 0
    }
}

fn walsh_hadamard(a: &mut [i64]) {
    let mut h = 1;
    while h < a.len() {
        for i in (0..a.len()).step_by(2 * h) {
            for j in i..i + h {
                let (x, y) = (a[j], a[j + h]);
                a[j] = x + y;
                a[j + h] = x - y;
            }
        }
        h *= 2;
    }
}

/// The mask (non-zero) and parity flag that make the fewest of `G(0..n)` rare.
pub fn best_mask(n: usize, get: impl Fn(usize) -> u32) -> Result<Mask> {
    let max = (0..n).map(&get).max().unwrap_or(0);
    let bits = 32 - max.leading_zeros();
    if bits > MAX_BITS {
        return Err(Error::Invalid(format!(
            "values reach {max}: sparse space is only analysed for values below 2^{MAX_BITS}"
        )));
    }
    let size = 1usize << bits.max(1);
    let mut even = vec![0i64; size];
    let mut odd = vec![0i64; size];
    for i in 0..n {
        let h = if i % 2 == 0 { &mut even } else { &mut odd };
        h[get(i) as usize] += 1;
    }
    let (ne, no) = (even.iter().sum::<i64>(), odd.iter().sum::<i64>());
    walsh_hadamard(&mut even);
    walsh_hadamard(&mut odd);
    let mut best = (
        i64::MAX,
        Mask {
            mask: 1,
            parity: false,
        },
    );
    for m in 1..size {
        let rare_even = (ne + even[m]) / 2;
        for parity in [false, true] {
            let rare_odd = if parity {
                (no - odd[m]) / 2
            } else {
                (no + odd[m]) / 2
            };
            let rare = rare_even + rare_odd;
            if rare < best.0 {
                best = (
                    rare,
                    Mask {
                        mask: m as u32,
                        parity,
                    },
                );
            }
        }
    }
    Ok(best.1)
}

/// The rare positions of `G(0..n)` under `mask`.
pub fn rare_positions(n: usize, get: impl Fn(usize) -> u32, mask: Mask) -> Vec<u64> {
    (0..n)
        .filter(|&i| mask.is_rare(i, get(i)))
        .map(|i| i as u64)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transform_counts_match_brute_force() {
        let v: Vec<u32> = (0..300u32).map(|i| (i * 37 + i / 7) % 13).collect();
        let m = best_mask(v.len(), |i| v[i]).unwrap();
        let count = |mask: Mask| (0..v.len()).filter(|&i| mask.is_rare(i, v[i])).count();
        let best = count(m);
        for mask in 1..16 {
            for parity in [false, true] {
                assert!(best <= count(Mask { mask, parity }));
            }
        }
    }

    #[test]
    fn parity_dependent_rarity_is_found() {
        // Odd values at even heaps, even values at odd heaps: every position is common under
        // mask 1 once rarity flips with parity, and no mask alone does as well.
        let v: Vec<u32> = (0..400u32)
            .map(|i| {
                if i % 2 == 0 {
                    2 * (i % 5) + 1
                } else {
                    2 * (i % 7)
                }
            })
            .collect();
        let m = best_mask(v.len(), |i| v[i]).unwrap();
        assert_eq!(
            m,
            Mask {
                mask: 1,
                parity: true
            }
        );
        assert!(rare_positions(v.len(), |i| v[i], m).is_empty());
    }
}
