//! The AVX2 kernel of the searches: 32 splits at a time with table lookups (`vpshufb`).

use super::{Blocks, Want};
use std::arch::x86_64::*;

/// The wanted set as `T` lookup tables of 16 bytes (values `128 t .. 128 t + 128`), each
/// broadcast to both lanes.
#[inline]
#[target_feature(enable = "avx2,popcnt")]
unsafe fn tables<const T: usize>(want: &Want) -> [__m256i; T] {
    let p = want.bits.as_ptr() as *const u8;
    let mut t = [_mm256_setzero_si256(); T];
    for (i, x) in t.iter_mut().enumerate() {
        *x = _mm256_broadcastsi128_si256(_mm_loadu_si128(p.add(16 * i) as *const __m128i));
    }
    t
}

/// Byte `i` of a pack of two 16-lane vectors of pairs `0..16`, `16..32` holds pair
/// `i` (i < 8), `i + 8`, `i - 8`, `i` (i >= 24).
const PAIR_OF_BYTE: [u8; 32] = [
    0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8, 9, 10, 11, 12, 13, 14, 15, 24, 25,
    26, 27, 28, 29, 30, 31,
];

/// See [`super::fold_word`]: the pairs `rev[l - e + k]` (= `G(e - 1 - k)`) and
/// `g[s + 1 - e + k]`, both ascending, sixteen at a time. Each XOR (below 64) is widened to
/// 32 bits and shifted into two words of bits: `1 << x` for the low half, `1 << (x - 32)`
/// for the high one (`vpsllvd` gives 0 for a count of 32 or more, and for a negative one,
/// which wraps).
#[target_feature(enable = "avx2,popcnt")]
pub unsafe fn fold_word(rev: &[u16], g: &[u16], s: usize, b: usize, e: usize) -> u64 {
    let l = rev.len();
    assert!(b < e && e <= l && e <= s + 1 && s + 1 - b <= g.len());
    let lp = rev.as_ptr().add(l - e);
    let hp = g.as_ptr().add(s + 1 - e);
    let n = e - b;
    let one = _mm256_set1_epi32(1);
    let k32 = _mm256_set1_epi32(32);
    let (mut lo, mut hi) = (_mm256_setzero_si256(), _mm256_setzero_si256());
    let mut k = 0;
    while k + 16 <= n {
        let x = _mm256_xor_si256(
            _mm256_loadu_si256(lp.add(k) as *const __m256i),
            _mm256_loadu_si256(hp.add(k) as *const __m256i),
        );
        let mut x0 = _mm256_cvtepu16_epi32(_mm256_castsi256_si128(x));
        let mut x1 = _mm256_cvtepu16_epi32(_mm256_extracti128_si256::<1>(x));
        // Hides the counts' range from the compiler, which would otherwise rewrite the
        // shifts as generic ones and clamp their counts again (three more instructions
        // each), unaware that `vpsllvd` already gives 0 for them.
        std::arch::asm!("/* {0} {1} */", inout(ymm_reg) x0, inout(ymm_reg) x1,
            options(pure, nomem, nostack, preserves_flags));
        lo = _mm256_or_si256(
            lo,
            _mm256_or_si256(_mm256_sllv_epi32(one, x0), _mm256_sllv_epi32(one, x1)),
        );
        hi = _mm256_or_si256(
            hi,
            _mm256_or_si256(
                _mm256_sllv_epi32(one, _mm256_sub_epi32(x0, k32)),
                _mm256_sllv_epi32(one, _mm256_sub_epi32(x1, k32)),
            ),
        );
        k += 16;
    }
    // Lane i of `lo` and of `hi` make the 64-bit word lo_i | hi_i << 32.
    let w = _mm256_or_si256(_mm256_unpacklo_epi32(lo, hi), _mm256_unpackhi_epi32(lo, hi));
    let w = _mm_or_si128(_mm256_castsi256_si128(w), _mm256_extracti128_si256::<1>(w));
    let mut m = (_mm_cvtsi128_si64(w) | _mm_extract_epi64::<1>(w)) as u64;
    while k < n {
        m |= 1u64 << ((*lp.add(k) ^ *hp.add(k)) & 63);
        k += 1;
    }
    m
}

/// Wanted values (below 128) up to which [`run_few`] compares them one by one.
const FEW: u32 = 16;

/// See [`super::search`]; `rev` is the reversed copy of the first values.
#[target_feature(enable = "avx2,popcnt")]
pub unsafe fn search(
    rev: &[u16],
    g: &[u16],
    blocks: Blocks,
    want: &mut Want,
    set: &mut [u64],
    bits: u32,
) -> bool {
    // Few wanted values: one comparison each beats the tables and their lane-by-lane hits.
    if bits <= 7 && want.bits[0].count_ones() + want.bits[1].count_ones() <= FEW {
        return run_few(rev, g, blocks, want, set);
    }
    // Tables for the wanted values only: larger values are never found, and the lanes
    // holding them look up nothing (their table index is pushed past 0x7F) unless one table
    // answers every index (`T == 1` with every value below 128).
    let top = want.bits[..16]
        .iter()
        .rposition(|&w| w != 0)
        .map_or(0, |i| 64 * i + 63 - want.bits[i].leading_zeros() as usize);
    match top {
        _ if top < 128 && bits <= 7 => run::<1, false>(rev, g, blocks, want, set),
        0..=254 => run_bytes(rev, g, blocks, want, set),
        255 => run::<2, true>(rev, g, blocks, want, set),
        256..=511 => run::<4, true>(rev, g, blocks, want, set),
        _ => run::<8, true>(rev, g, blocks, want, set),
    }
}

/// Every pair the kernels read lies in `rev` and `g`: `rev[l - e ..]` with `e <= a1 <= l`,
/// `g[.. s + 1 - b]` with `b >= a0`.
#[inline]
fn check_bounds(rev: &[u16], g: &[u16], blocks: Blocks) {
    let (l, s) = (rev.len(), blocks.s);
    assert!(blocks.a0 >= blocks.a1 || (blocks.a1 <= l.min(s + 1) && s + 1 - blocks.a0 <= g.len()));
}

/// The values of 32 pairs, `lp[..32]` XOR `hp[..32]`, as two vectors of 16 lanes.
#[inline]
#[target_feature(enable = "avx2,popcnt")]
unsafe fn xor32(lp: *const u16, hp: *const u16) -> (__m256i, __m256i) {
    let x0 = _mm256_xor_si256(
        _mm256_loadu_si256(lp as *const __m256i),
        _mm256_loadu_si256(hp as *const __m256i),
    );
    let x1 = _mm256_xor_si256(
        _mm256_loadu_si256(lp.add(16) as *const __m256i),
        _mm256_loadu_si256(hp.add(16) as *const __m256i),
    );
    (x0, x1)
}

/// Takes value `x` from `want` if it is there (`x < 1024`).
#[inline(always)]
unsafe fn take(want: &mut Want, set: &mut [u64], x: u32) {
    let (w, b) = ((x >> 6) as usize, x & 63);
    debug_assert!(w < want.bits.len() && w < 16);
    let word = want.bits.get_unchecked_mut(w);
    let m = *word & (1u64 << b);
    *word ^= m;
    want.left -= (m != 0 && x < want.limit) as u32;
    want.found += (m != 0) as u64;
    if let Some(s) = set.get_mut(w) {
        *s |= m;
    }
}

/// Takes the values of the lanes of 32 pairs (`lp[..32]` against `hp[..32]`, XORs `x0`,
/// `x1`) whose table byte `byte` has bit `m`, one by one; when many lanes hit (small value
/// sets repeat), drops those holding a value just taken. The caller reloads its tables.
#[inline]
#[target_feature(enable = "avx2,popcnt")]
#[allow(clippy::too_many_arguments)]
unsafe fn take_hits(
    byte: __m256i,
    m: __m256i,
    x0: __m256i,
    x1: __m256i,
    lp: *const u16,
    hp: *const u16,
    want: &mut Want,
    set: &mut [u64],
) {
    let hits = _mm256_cmpeq_epi8(_mm256_and_si256(byte, m), m);
    let mut h = _mm256_movemask_epi8(hits) as u32;
    while h != 0 {
        let p = PAIR_OF_BYTE[h.trailing_zeros() as usize] as usize;
        h &= h - 1;
        let x = (*lp.add(p) ^ *hp.add(p)) as u32;
        take(want, set, x);
        if h.count_ones() > 2 {
            let xv = _mm256_set1_epi16(x as i16);
            let same = _mm256_packs_epi16(_mm256_cmpeq_epi16(x0, xv), _mm256_cmpeq_epi16(x1, xv));
            h &= !(_mm256_movemask_epi8(same) as u32);
        }
    }
}

/// The pairs `k..n` of a block (fewer than 32) one by one: whether any value was taken.
#[inline(always)]
unsafe fn take_tail(
    lp: *const u16,
    hp: *const u16,
    mut k: usize,
    n: usize,
    want: &mut Want,
    set: &mut [u64],
) -> bool {
    let mut took = false;
    while k < n {
        let x = (*lp.add(k) ^ *hp.add(k)) as u32;
        let word = *want.bits.get_unchecked((x >> 6) as usize);
        if word >> (x & 63) & 1 == 1 {
            take(want, set, x);
            took = true;
        }
        k += 1;
    }
    took
}

/// [`run`] when every value is below 128 and few are wanted (games with few rare heaps:
/// 0.1777, 0.354): the 32 values of a step are packed to bytes, and each wanted value is
/// compared with all of them at once (`vpcmpeqb`); the values met are taken together, with
/// no table to rebuild and no lane-by-lane loop.
#[target_feature(enable = "avx2,popcnt")]
unsafe fn run_few(
    rev: &[u16],
    g: &[u16],
    blocks: Blocks,
    want: &mut Want,
    set: &mut [u64],
) -> bool {
    // Bit masks of the required values (below `limit`) in words 0 and 1.
    let below = |w: u32| -> u64 {
        let lim = want.limit.saturating_sub(64 * w);
        if lim >= 64 {
            u64::MAX
        } else {
            (1u64 << lim) - 1
        }
    };
    let required = [below(0), below(1)];
    let (l, s) = (rev.len(), blocks.s);
    check_bounds(rev, g, blocks);
    // Takes the values of `met` (values below 128: words 0 and 1).
    let mut take_all = |met: [u64; 2], want: &mut Want| {
        for w in 0..2 {
            let took = met[w] & want.bits[w];
            want.bits[w] ^= took;
            want.left -= (took & required[w]).count_ones();
            want.found += took.count_ones() as u64;
            if let Some(sw) = set.get_mut(w) {
                *sw |= took;
            }
        }
    };
    blocks.each(|b, e| {
        let lp = rev.as_ptr().add(l - e);
        let hp = g.as_ptr().add(s + 1 - e);
        let n = e - b;
        let mut k = 0;
        while k + 32 <= n {
            let (x0, x1) = xor32(lp.add(k), hp.add(k));
            // Every value is below 128: the pack saturates nothing.
            let xb = _mm256_packus_epi16(x0, x1);
            let mut met = [0u64; 2];
            let mut any = 0u64;
            for (w, m) in met.iter_mut().enumerate() {
                let mut left = want.bits[w];
                while left != 0 {
                    let v = left.trailing_zeros();
                    left &= left - 1;
                    let x = _mm256_set1_epi8((64 * w as u32 + v) as i8);
                    let hit = _mm256_movemask_epi8(_mm256_cmpeq_epi8(xb, x)) != 0;
                    *m |= u64::from(hit) << v;
                }
                any |= *m;
            }
            want.examined += 32;
            if any != 0 {
                take_all(met, want);
                if want.left == 0 {
                    return true;
                }
            }
            k += 32;
        }
        want.examined += (n - k) as u64;
        let mut met = [0u64; 2];
        while k < n {
            let x = (*lp.add(k) ^ *hp.add(k)) as u32 & 127;
            met[(x >> 6) as usize] |= 1u64 << (x & 63);
            k += 1;
        }
        take_all(met, want);
        want.left == 0
    })
}

/// [`run`] when every wanted value is below 255: the values are packed to bytes with
/// unsigned saturation (values of 256 and more become 255, which is not wanted), giving the
/// table byte `x >> 3` (5 bits), the bit `x & 7` and the table (bit 7 of `x`) from one pack;
/// two 16-entry tables and a blend look the byte up.
#[target_feature(enable = "avx2,popcnt")]
unsafe fn run_bytes(
    rev: &[u16],
    g: &[u16],
    blocks: Blocks,
    want: &mut Want,
    set: &mut [u64],
) -> bool {
    debug_assert!(want.bits.len() >= 16 && want.bits[3] >> 63 == 0);
    let seven = _mm256_set1_epi8(7);
    let low5 = _mm256_set1_epi8(0x1F);
    let pow2 = _mm256_setr_epi8(
        1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128,
        1, 2, 4, 8, 16, 32, 64, -128,
    );
    let mut t = tables::<2>(want);
    let (l, s) = (rev.len(), blocks.s);
    check_bounds(rev, g, blocks);
    blocks.each(|b, e| {
        let lp = rev.as_ptr().add(l - e);
        let hp = g.as_ptr().add(s + 1 - e);
        let n = e - b;
        let mut k = 0;
        while k + 32 <= n {
            let (x0, x1) = xor32(lp.add(k), hp.add(k));
            let xb = _mm256_packus_epi16(x0, x1);
            // Index bits 0-3 pick the entry (bit 4 is ignored by vpshufb, bit 7 of xb picks
            // the table); bits 5-7 of the index are cleared so no lane reads as zero.
            let idx = _mm256_and_si256(_mm256_srli_epi16(xb, 3), low5);
            let m = _mm256_shuffle_epi8(pow2, _mm256_and_si256(xb, seven));
            let byte = _mm256_blendv_epi8(
                _mm256_shuffle_epi8(t[0], idx),
                _mm256_shuffle_epi8(t[1], idx),
                xb,
            );
            want.examined += 32;
            if _mm256_testz_si256(byte, m) == 0 {
                take_hits(byte, m, x0, x1, lp.add(k), hp.add(k), want, set);
                if want.left == 0 {
                    return true;
                }
                t = tables::<2>(want);
            }
            k += 32;
        }
        want.examined += (n - k) as u64;
        let took = take_tail(lp, hp, k, n, want, set);
        if want.left == 0 {
            return true;
        }
        if took {
            t = tables::<2>(want);
        }
        false
    })
}

/// 32 pairs per step: XOR the values, split each into a table byte `x >> 3` and a bit
/// `x & 7`, look the byte up with `vpshufb` (16-entry tables; table `t` answers only where
/// the index's bits 4-6 equal `t`, the others being pushed past 0x7F by a saturating add, which
/// makes `vpshufb` give 0), and test the bit. The pairs of a block are `rev[l - e + k]`
/// (= `G(e - 1 - k)`) and `g[s + 1 - e + k]`: both ascending.
#[target_feature(enable = "avx2,popcnt")]
unsafe fn run<const T: usize, const SEL: bool>(
    rev: &[u16],
    g: &[u16],
    blocks: Blocks,
    want: &mut Want,
    set: &mut [u64],
) -> bool {
    debug_assert!(want.bits.len() >= 16);
    let seven = _mm256_set1_epi16(7);
    let pow2 = _mm256_setr_epi8(
        1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128, 1, 2, 4, 8, 16, 32, 64, -128,
        1, 2, 4, 8, 16, 32, 64, -128,
    );
    let push = _mm256_set1_epi8(0x70);
    let mut t = tables::<T>(want);
    let (l, s) = (rev.len(), blocks.s);
    check_bounds(rev, g, blocks);
    blocks.each(|b, e| {
        let lp = rev.as_ptr().add(l - e);
        let hp = g.as_ptr().add(s + 1 - e);
        let n = e - b;
        let mut k = 0;
        while k + 32 <= n {
            let (x0, x1) = xor32(lp.add(k), hp.add(k));
            let idx = _mm256_packus_epi16(_mm256_srli_epi16(x0, 3), _mm256_srli_epi16(x1, 3));
            let bit = _mm256_packus_epi16(_mm256_and_si256(x0, seven), _mm256_and_si256(x1, seven));
            let m = _mm256_shuffle_epi8(pow2, bit);
            let byte = if !SEL {
                _mm256_shuffle_epi8(t[0], idx)
            } else {
                let mut acc = _mm256_setzero_si256();
                for (i, ti) in t.iter().enumerate() {
                    let sel = _mm256_adds_epu8(
                        _mm256_xor_si256(idx, _mm256_set1_epi8((16 * i) as i8)),
                        push,
                    );
                    acc = _mm256_or_si256(acc, _mm256_shuffle_epi8(*ti, sel));
                }
                acc
            };
            want.examined += 32;
            if _mm256_testz_si256(byte, m) == 0 {
                take_hits(byte, m, x0, x1, lp.add(k), hp.add(k), want, set);
                if want.left == 0 {
                    return true;
                }
                t = tables::<T>(want);
            }
            k += 32;
        }
        want.examined += (n - k) as u64;
        let took = take_tail(lp, hp, k, n, want, set);
        if want.left == 0 {
            return true;
        }
        if took {
            t = tables::<T>(want);
        }
        false
    })
}

/// See [`super::flags_to_set`]: 32 flags a step (two steps a word instead of four).
#[target_feature(enable = "avx2")]
pub unsafe fn flags_to_set(flags: &[u8], set: &mut [u64]) {
    let z = _mm256_setzero_si256();
    for (w, block) in set.iter_mut().zip(flags.chunks_exact(64)) {
        let p = block.as_ptr() as *const __m256i;
        // 0/1 bytes to 0/0xFF, then their top bits.
        let lo = _mm256_movemask_epi8(_mm256_sub_epi8(z, _mm256_loadu_si256(p))) as u32;
        let hi = _mm256_movemask_epi8(_mm256_sub_epi8(z, _mm256_loadu_si256(p.add(1)))) as u32;
        *w |= u64::from(lo) | u64::from(hi) << 32;
    }
}
