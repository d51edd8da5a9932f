//! Choosing the mask of a sparse space from computed values.
//!
//! For a mask `m` and a parity flag `e`, heap `n` has rarity bit
//! `rho(n) = popcount(G(n) & m) XOR e * (n mod 2)` (mod 2). A split `a + b = s` has
//! `popcount((G(a) ^ G(b)) & m) = rho(a) ^ rho(b) ^ e * (s mod 2)`, so when the heaps with
//! `rho = f` (the rare ones) are few, the values of parity `1 ^ e * (s mod 2)` come only from
//! splits with exactly one rare part. For these to be the values of the common heaps themselves,
//! `f = e * (j mod 2)` where the splits of heap `n` add up to `s = n - j`; without a rule (and for
//! Grundy's game, `j = 0`) `f = 0`: a heap is rare when `rho(n) = 0`, which for `e = 0` is the
//! usual "popcount(G(n) & m) is even". The best `(m, e)` minimises the number of rare heaps;
//! with `h_p[v]` the number of heaps of parity `p` whose value is `v`, and `H_p` its
//! Walsh-Hadamard transform (`H_p[m] = sum_v h_p[v] (-1)^popcount(v & m)`), the number of heaps
//! with `rho = 0` is `(N + H_0[m] + H_1[m]) / 2` for `e = 0` and `(N + H_0[m] - H_1[m]) / 2` for
//! `e = 1`: one transform of each histogram scores every mask at once.
//!
//! ```
//! use grundy::engine::{find_mask, Sequence, TakeAndBreakExact};
//! use grundy::control::NoControl;
//! use grundy::rules::TakeAndBreak;
//! let mut g = Sequence::new(TakeAndBreakExact::new(TakeAndBreak::parse("4!.0").unwrap()));
//! g.extend(3000, &NoControl).unwrap();
//! // Grundy's game: every bit but the lowest, no dependence on the parity of n.
//! let (mask, parity) = find_mask(&g.values().to_vec());
//! assert_eq!((mask & 0xFF, parity), (0xFE, false));
//! ```

use crate::engine::Val;

/// Values at or above `2^HIST_BITS` are left out of the histograms (the transform would be too
/// large); a mask is then chosen from the smaller values only.
pub const HIST_BITS: u32 = 20;

/// A sparse-space classification of heaps: mask, parity flag and which rarity bit is rare.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SparseMask {
    /// The mask `m`. Bits above those of the values it was chosen from are set.
    pub mask: u32,
    /// `e`: whether rarity also depends on the parity of the heap size.
    pub parity: bool,
    /// `f`: heaps with `rho(n) = f` are rare.
    pub rare_rho: bool,
}

impl SparseMask {
    /// `popcount(v & m) mod 2`: the class of a value.
    #[inline]
    pub fn class(&self, v: u32) -> u32 {
        (v & self.mask).count_ones() & 1
    }

    /// `rho(n)` for a heap `n` of value `v`.
    #[inline]
    pub fn rho(&self, n: u64, v: u32) -> bool {
        self.rho_of_class(n, self.class(v))
    }

    /// `rho(n)` for a heap `n` whose value has class `class` (see [`SparseMask::class`]).
    #[inline]
    pub(crate) fn rho_of_class(&self, n: u64, class: u32) -> bool {
        (class == 1) ^ (self.parity && n & 1 == 1)
    }

    /// Whether heap `n` of value `v` is rare.
    #[inline]
    pub fn is_rare(&self, n: u64, v: u32) -> bool {
        self.rho(n, v) == self.rare_rho
    }
}

/// Number of value bits the histograms need for values up to `max`.
pub(crate) fn bits_for(max: u32) -> u32 {
    32 - max.leading_zeros()
}

/// Histograms of values by heap parity: `h[p][v]` counts heaps `n` with `n mod 2 = p`, `G(n) = v`.
#[derive(Debug, Clone, Default)]
pub(crate) struct Histogram {
    pub h: [Vec<u64>; 2],
    /// Heaps counted (values below `2^HIST_BITS`).
    pub total: u64,
}

impl Histogram {
    #[inline]
    pub fn add(&mut self, n: usize, v: u32) {
        self.add_all(n, std::iter::once(v));
    }

    /// [`Histogram::add`] for the values of heaps `n0, n0 + 1, ...`, counted in a register.
    pub fn add_all(&mut self, n0: usize, values: impl Iterator<Item = u32>) {
        let mut total = 0;
        for (k, v) in values.enumerate() {
            if v >> HIST_BITS != 0 {
                continue;
            }
            let h = &mut self.h[(n0 + k) & 1];
            let v = v as usize;
            if v >= h.len() {
                h.resize((v + 1).next_power_of_two(), 0);
            }
            h[v] += 1;
            total += 1;
        }
        self.total += total;
    }

    pub fn clear(&mut self) {
        self.h = Default::default();
        self.total = 0;
    }

    /// The mask minimising the number of rare heaps, with that number. `allow_parity` permits
    /// `e = 1`; `odd_offset` is `j mod 2` (the rare bit is `f = e * (j mod 2)`); `prefer` wins
    /// ties (so that a running solver keeps its mask when nothing is gained). Bits above the
    /// histogram's width are set in the mask.
    pub fn best(
        &self,
        allow_parity: bool,
        odd_offset: bool,
        prefer: Option<SparseMask>,
    ) -> (SparseMask, u64) {
        let len = self.h[0].len().max(self.h[1].len()).max(1);
        let bits = len.trailing_zeros();
        if bits == 0 {
            // Every value is 0: any mask makes every heap rho = 0; nothing to optimise.
            let m = SparseMask {
                mask: u32::MAX,
                parity: false,
                rare_rho: false,
            };
            return (m, self.total);
        }
        let wht = |h: &Vec<u64>| {
            let mut a = vec![0i64; len];
            for (x, &c) in a.iter_mut().zip(h) {
                *x = c as i64;
            }
            walsh_hadamard(&mut a);
            a
        };
        let (t0, t1) = (wht(&self.h[0]), wht(&self.h[1]));
        let n = self.total as i64;
        let high = if bits >= 32 { 0 } else { u32::MAX << bits };
        let mut best: Option<(SparseMask, u64)> = None;
        // Rare heaps of a candidate; `prefer` is scored with its own high bits ignored, which is
        // what the histogram can see.
        let count = |m: usize, e: bool, f: bool| -> u64 {
            let s = if e { t0[m] - t1[m] } else { t0[m] + t1[m] };
            let zeros = (n + s) / 2;
            (if f { n - zeros } else { zeros }) as u64
        };
        if let Some(p) = prefer {
            let m = (p.mask & !high) as usize;
            if m != 0 && (allow_parity || !p.parity) && p.rare_rho == (p.parity && odd_offset) {
                best = Some((p, count(m, p.parity, p.rare_rho)));
            }
        }
        for e in [false, true] {
            if e && !allow_parity {
                continue;
            }
            let f = e && odd_offset;
            for m in 1..len {
                let c = count(m, e, f);
                if best.is_none_or(|(_, b)| c < b) {
                    let mask = SparseMask {
                        mask: m as u32 | high,
                        parity: e,
                        rare_rho: f,
                    };
                    best = Some((mask, c));
                }
            }
        }
        best.unwrap()
    }
}

/// In-place Walsh-Hadamard transform: `a[m] <- sum_v a[v] (-1)^popcount(v & m)`.
pub fn walsh_hadamard(a: &mut [i64]) {
    let n = a.len();
    debug_assert!(n.is_power_of_two());
    let mut h = 1;
    while h < n {
        for block in a.chunks_mut(2 * h) {
            let (x, y) = block.split_at_mut(h);
            for (u, v) in x.iter_mut().zip(y.iter_mut()) {
                let (p, q) = (*u, *v);
                *u = p + q;
                *v = p - q;
            }
        }
        h *= 2;
    }
}

/// The sparse-space mask of any computed sequence `G(0..N)` (rare: `rho(n) = 0`): the `(m, e)`
/// with the fewest rare heaps (ties: no parity dependence, then the smallest mask), and that
/// number.
pub fn best_mask<T: Val>(values: &[T]) -> (SparseMask, u64) {
    let mut h = Histogram::default();
    for (n, v) in values.iter().enumerate() {
        h.add(n, v.get());
    }
    h.best(true, false, None)
}

/// `(mask, e)` of [`best_mask`]: rare heaps are those where
/// `popcount(G(n) & mask) XOR e * (n mod 2)` is even.
pub fn find_mask<T: Val>(values: &[T]) -> (u32, bool) {
    let (m, _) = best_mask(values);
    (m.mask, m.parity)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transform_matches_definition() {
        let mut a: Vec<i64> = vec![3, 0, 5, 1, 0, 0, 2, 7];
        let orig = a.clone();
        walsh_hadamard(&mut a);
        for (m, &got) in a.iter().enumerate() {
            let want: i64 = orig
                .iter()
                .enumerate()
                .map(|(v, &c)| if (v & m).count_ones() % 2 == 0 { c } else { -c })
                .sum();
            assert_eq!(got, want);
        }
    }

    #[test]
    fn counts_match_brute_force() {
        // Values with some structure; compare the transform's counts with direct counting.
        let vals: Vec<u32> = (0..500u32).map(|n| (n * 7 + n / 3) % 13).collect();
        let (best, count) = best_mask(&vals);
        let direct = |m: SparseMask| {
            (0..vals.len())
                .filter(|&n| m.is_rare(n as u64, vals[n]))
                .count() as u64
        };
        assert_eq!(direct(best), count);
        for mask in 1..16u32 {
            for parity in [false, true] {
                let m = SparseMask {
                    mask,
                    parity,
                    rare_rho: false,
                };
                assert!(direct(m) >= count, "{m:?}");
            }
        }
    }

    #[test]
    fn parity_dependent_space() {
        // Even heaps have values of odd weight (1, 2), odd heaps of even weight (0, 3): no mask
        // alone separates them, the parity of n does. Two exceptions.
        let mut vals: Vec<u32> = (0..400u32)
            .map(|n| match (n % 2, n % 3) {
                (0, 0) => 1,
                (0, _) => 2,
                (_, 0) => 0,
                _ => 3,
            })
            .collect();
        vals[10] = 0;
        vals[11] = 1;
        let (m, count) = best_mask(&vals);
        assert!(m.parity);
        assert_eq!(m.mask & 3, 3);
        assert_eq!(count, 2);
        assert_eq!(find_mask(&vals), (m.mask, true));
    }
}
