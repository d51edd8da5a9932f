//! The word a bitboard is computed in: `u128` for any board, `u64` for a board of at most 64
//! cells, where every shift, mask and count takes one instruction instead of two to six (a
//! `u128` shift by a variable amount is a double shift and two selects). The board games keep
//! `u128` positions in their interface, and compute their hot paths (regions, reductions,
//! canonical keys) in the narrower word when the board fits it.
//!
//! ```
//! # use grundy::board::Grid;
//! // A 4 x 9 board fits a u64: its regions and keys are computed there, with the same results.
//! let g = Grid::new(4, 9).unwrap();
//! let a = g.cell(0, 0) | g.cell(0, 1) | g.cell(3, 8);
//! let mut parts = Vec::new();
//! g.for_each_region(a, |r| parts.push(r));
//! assert_eq!(parts, vec![g.cell(0, 0) | g.cell(0, 1), g.cell(3, 8)]);
//! ```

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

/// An unsigned word of bits: `u64` or `u128`.
pub(crate) trait Bits:
    Copy
    + Eq
    + Ord
    + std::fmt::Debug
    + BitAnd<Output = Self>
    + BitAndAssign
    + BitOr<Output = Self>
    + BitOrAssign
    + BitXor<Output = Self>
    + BitXorAssign
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// No bit.
    const ZERO: Self;
    /// Bits in the word.
    const BITS: u32;
    /// The low bits of `x` (all of them when the word is `u128`).
    fn from_u128(x: u128) -> Self;
    /// The word widened.
    fn to_u128(self) -> u128;
    fn trailing_zeros(self) -> u32;
    fn leading_zeros(self) -> u32;
    fn count_ones(self) -> u32;
    fn wrapping_neg(self) -> Self;
    fn wrapping_add(self, other: Self) -> Self;
    /// `self << n`, or 0 when `n` is the width or more.
    fn shl_or_zero(self, n: u32) -> Self;
    /// `self >> n`, or 0 when `n` is the width or more.
    fn shr_or_zero(self, n: u32) -> Self;
    /// The lowest set bit alone (0 for 0).
    #[inline]
    fn lowest(self) -> Self {
        self & self.wrapping_neg()
    }
    /// Index of the highest set bit (`self` not 0).
    #[inline]
    fn highest(self) -> u32 {
        Self::BITS - 1 - self.leading_zeros()
    }
}

macro_rules! bits {
    ($t:ty) => {
        impl Bits for $t {
            const ZERO: Self = 0;
            const BITS: u32 = <$t>::BITS;
            #[inline(always)]
            fn from_u128(x: u128) -> Self {
                x as $t
            }
            #[inline(always)]
            fn to_u128(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            #[inline(always)]
            fn leading_zeros(self) -> u32 {
                <$t>::leading_zeros(self)
            }
            #[inline(always)]
            fn count_ones(self) -> u32 {
                <$t>::count_ones(self)
            }
            #[inline(always)]
            fn wrapping_neg(self) -> Self {
                <$t>::wrapping_neg(self)
            }
            #[inline(always)]
            fn wrapping_add(self, other: Self) -> Self {
                <$t>::wrapping_add(self, other)
            }
            #[inline(always)]
            fn shl_or_zero(self, n: u32) -> Self {
                self.checked_shl(n).unwrap_or(0)
            }
            #[inline(always)]
            fn shr_or_zero(self, n: u32) -> Self {
                self.checked_shr(n).unwrap_or(0)
            }
        }
    };
}
bits!(u64);
bits!(u128);

#[cfg(test)]
mod tests {
    use super::*;

    fn same<T: Bits>(x: u128) {
        let t = T::from_u128(x);
        let w = u128::from(T::BITS == 64) * 64;
        let lo = if w == 64 { x & u128::from(u64::MAX) } else { x };
        assert_eq!(t.to_u128(), lo);
        assert_eq!(t.count_ones(), lo.count_ones());
        assert_eq!(t.lowest().to_u128(), lo & lo.wrapping_neg());
        if lo != 0 {
            assert_eq!(t.trailing_zeros(), lo.trailing_zeros());
            assert_eq!(t.highest(), 127 - lo.leading_zeros());
        }
        for n in [0, 1, 7, 63, 64, 127, 128] {
            let mask = if w == 64 {
                u128::from(u64::MAX)
            } else {
                u128::MAX
            };
            let shl = if n < T::BITS { (lo << n) & mask } else { 0 };
            let shr = if n < T::BITS { lo >> n } else { 0 };
            assert_eq!(t.shl_or_zero(n).to_u128(), shl, "{x:#x} << {n}");
            assert_eq!(t.shr_or_zero(n).to_u128(), shr, "{x:#x} >> {n}");
        }
    }

    #[test]
    fn bits_agree_with_u128() {
        let mut rng = crate::engine::testing::Rng(3);
        for _ in 0..1000 {
            let x = u128::from(rng.below(u64::MAX)) << 64 | u128::from(rng.below(u64::MAX));
            let x = x >> rng.below(128);
            same::<u64>(x);
            same::<u128>(x);
        }
        same::<u64>(0);
        same::<u128>(u128::MAX);
    }
}
