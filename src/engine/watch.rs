//! Seeing a period soon after it first repeats, between the scans of a period search.
//!
//! A scan sees a candidate period `p` only once the last [`REPEAT`] differences of the values
//! recur `p` values before (see [`crate::periodicity`]), and scans come at sizes that double:
//! 0.1777's period (60,620,715 from 160,949,018) repeats from 221.6 million values, but the scan
//! at 2^28 = 268 million sees it. The values verified in parallel ([`super::speculate`]) start
//! there, so the 47 million values between are computed in order for nothing.
//!
//! A watch indexes the hash of every [`STRIDE`]-th window of `REPEAT` differences as values are
//! computed (one hash step per value, on every thread); any recurrence of the last window at a
//! lag of at least `STRIDE` then meets an indexed window among the `STRIDE` windows that end
//! last, so checking costs `STRIDE` lookups, whatever the number of values. A recurrence found
//! (and compared value by value) calls for a scan at once.

use super::Val;
use crate::periodicity::REPEAT;
use rayon::prelude::*;
use std::collections::HashMap;

/// Windows indexed: those starting at multiples of `STRIDE`.
const STRIDE: usize = 1024;
const B: u64 = 0x9E37_79B9_7F4A_7C15;

/// The index of a watch (see the module notes).
#[derive(Default)]
pub(super) struct Watch {
    /// Start of each indexed window, by hash (the first start with that hash).
    seen: HashMap<u64, usize>,
    /// Windows starting below `next` are indexed.
    next: usize,
    /// No recurrence is reported before this many values (after one that a scan found wanting).
    quiet_until: usize,
}

#[inline]
fn diff<T: Val>(g: &[T], i: usize) -> u64 {
    g[i + 1].get().wrapping_sub(g[i].get()) as u64
}

fn hash<T: Val>(g: &[T], i: usize) -> u64 {
    (i..i + REPEAT).fold(0, |h, k| h.wrapping_mul(B).wrapping_add(diff(g, k)))
}

impl Watch {
    /// Indexes the windows of `g`'s differences not indexed yet (in parallel).
    pub(super) fn update<T: Val>(&mut self, g: &[T]) {
        // A window starting at i reads g[i..=i + REPEAT].
        let Some(end) = g.len().checked_sub(REPEAT) else {
            return;
        };
        let starts: Vec<usize> = (self.next..end).step_by(STRIDE).collect();
        let hashes: Vec<(u64, usize)> = starts.par_iter().map(|&i| (hash(g, i), i)).collect();
        for (h, i) in hashes {
            self.seen.entry(h).or_insert(i);
        }
        if let Some(&last) = starts.last() {
            self.next = last + STRIDE;
        }
    }

    /// Whether the last `REPEAT` differences of `g` recur at a lag of `STRIDE` or more (and
    /// `g` is past the quiet spell): a scan would see a candidate now.
    pub(super) fn recurs<T: Val>(&self, g: &[T]) -> bool {
        if g.len() < self.quiet_until || g.len() < 2 * REPEAT + 2 * STRIDE + 1 {
            return false;
        }
        let last = g.len() - 1 - REPEAT; // the last window starts here
        let same = |i: usize| (0..REPEAT).all(|k| diff(g, i + k) == diff(g, last + k));
        // The windows starting at last - r (r < STRIDE), rolled forwards from the first: each
        // one that recurs at an indexed start i gives the last window's recurrence at i + r.
        let top = B.wrapping_pow(REPEAT as u32 - 1);
        let mut j = last + 1 - STRIDE;
        let mut h = hash(g, j);
        loop {
            if let Some(&i) = self.seen.get(&h) {
                let p = j - i;
                if p >= STRIDE && last >= p && same(last - p) {
                    return true;
                }
            }
            if j == last {
                return false;
            }
            h = h
                .wrapping_sub(diff(g, j).wrapping_mul(top))
                .wrapping_mul(B)
                .wrapping_add(diff(g, j + REPEAT));
            j += 1;
        }
    }

    /// After a scan that a recurrence called for found no candidate: quiet until `n` values.
    pub(super) fn quiet(&mut self, n: usize) {
        self.quiet_until = n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A period of 50,000 from 20,000 recurs from 70,000 + REPEAT values on, and is seen there
    /// (checked at every 997 values); noise never recurs.
    #[test]
    fn sees_a_recurrence_once_it_has_repeated() {
        let noise = |n: usize| {
            let mut x = (n as u64).wrapping_add(0x9E37_79B9_7F4A_7C15);
            x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            ((x ^ (x >> 31)) % 1000) as u32
        };
        let g: Vec<u32> = (0..200_000)
            .map(|n| {
                if n < 20_000 {
                    5000 + noise(n)
                } else {
                    noise(20_000 + (n - 20_000) % 50_000)
                }
            })
            .collect();
        let mut w = Watch::default();
        let mut first = None;
        for n in (0..g.len()).step_by(997) {
            w.update(&g[..n]);
            if w.recurs(&g[..n]) {
                first = first.or(Some(n));
            } else {
                assert!(first.is_none(), "lost at {n}");
            }
        }
        let first = first.expect("never seen");
        assert!(
            (70_000 + REPEAT..70_000 + REPEAT + 997).contains(&first),
            "{first}"
        );
        let noise_only: Vec<u32> = (0..100_000).map(|n| noise(3 * n + 1)).collect();
        let mut w = Watch::default();
        w.update(&noise_only);
        assert!(!w.recurs(&noise_only));
        // Quiet until told.
        let mut w = Watch::default();
        w.update(&g[..150_000]);
        w.quiet(160_000);
        assert!(!w.recurs(&g[..150_000]) && w.recurs(&g[..160_000]));
    }
}
