//! The block context [`Ctx`]: what the three parts of a block read (the engine, the block's
//! start, the value width and classes), and the work of each part: the options below the block
//! ([`Ctx::parallel`]), the splits reaching into it and the candidate ([`Ctx::sequential`],
//! [`Ctx::inner_scatter`]), and the searches that confirm provisional values ([`Ctx::confirm`]).

use super::mask::SparseMask;
use super::{
    Classes, Pending, SparseStats, TakeAndBreakSparse, FIRST_PAIRS, PREFIX_RUN, ROUND_BLOCKS,
    SPREAD, SPREAD_BLOCK,
};
use crate::bitset::mex;
use crate::engine::blocks::{
    flags_to_set_simd, fold_flags, fold_pairs, fold_word, scatter_flags, search, set_bit, Blocks,
    Runs, Want,
};
use crate::engine::Val;

/// Where a window block's values go: pushed onto the values (computing in order), or compared
/// with those predicted (verifying a predicted stretch, which only reads them).
pub(super) trait Sink<T: Val> {
    /// The values known so far, G(0..n) for the next heap n.
    fn values(&self) -> &[T];
    /// Takes G(n) = `v` for the next heap n; false when `v` is not the value predicted (it is
    /// then not taken, and the block ends).
    fn put(&mut self, v: u32) -> bool;
}

impl<T: Val> Sink<T> for Vec<T> {
    #[inline]
    fn values(&self) -> &[T] {
        self
    }
    #[inline]
    fn put(&mut self, v: u32) -> bool {
        self.push(T::new(v));
        true
    }
}

/// Predicted values `pred`, verified up to `len`: the values a verifying block reads.
pub(super) struct Check<'a, T> {
    pub pred: &'a [T],
    pub len: usize,
    /// The first heap whose value is not the one predicted, and its value.
    pub wrong: Option<(usize, u32)>,
}

impl<T: Val> Sink<T> for Check<'_, T> {
    #[inline]
    fn values(&self) -> &[T] {
        &self.pred[..self.len]
    }
    #[inline]
    fn put(&mut self, v: u32) -> bool {
        if self.pred[self.len].get() == v {
            self.len += 1;
            true
        } else {
            self.wrong = Some((self.len, v));
            false
        }
    }
}

/// What the parts of a block read.
pub(super) struct Ctx<'a> {
    pub(super) eng: &'a TakeAndBreakSparse,
    pub(super) n0: usize,
    pub(super) bits: u32,
    pub(super) words: usize,
    /// Bytes of value flags per heap.
    pub(super) stride: usize,
    pub(super) classes: &'a Classes,
    /// The splits whose other part lies in the heap's own sub-block (see
    /// `TakeAndBreakSparse::near_pairs`).
    pub(super) near: &'a [(usize, u32)],
    /// The window (see `SparseOptions::window`; 0: none): the sequential part records every
    /// split of a first-digit sum whose smaller part is at most `win`, so the rare parts up to
    /// `win` are enumerated nowhere else, and the searches start after it.
    pub(super) win: usize,
}

impl Ctx<'_> {
    /// Whether heap `n` of value `v` is rare under `m` (the block's mask).
    #[inline]
    pub(super) fn is_rare(&self, m: SparseMask, n: usize, v: u32) -> bool {
        m.rho_of_class(n as u64, self.classes.class_of(m, v)) == m.rare_rho
    }

    /// The options of heaps `n0 + i0 ..` (as many as `sets` holds) whose parts are all below
    /// `n0`: single heaps, and the splits with a rare part (sparse mode) or all splits (dense).
    pub(super) fn parallel<T: Val>(
        &self,
        g: &[T],
        i0: usize,
        sets: &mut [u64],
        sums: &mut [u64],
        flags: &mut [u8],
    ) -> SparseStats {
        let (eng, n0, words) = (self.eng, self.n0, self.words);
        debug_assert!(g.len() >= n0);
        let g = &g[..n0];
        let len = sets.len() / words;
        let i1 = i0 + len;
        let mut stats = SparseStats::default();
        sets.fill(0);
        if !eng.shifts.is_empty() {
            // Only games with several split digits use the rows (a task's flags already fill
            // the first-level cache).
            sums.fill(0);
        }
        for k in 0..len {
            let n = n0 + i0 + k;
            let set = &mut sets[k * words..(k + 1) * words];
            if eng.zeros.get(n) == Some(&true) {
                set_bit(set, 0);
            }
            for &j in &eng.singles {
                if j < n && n - j < n0 {
                    set_bit(set, g[n - j].get());
                }
            }
        }
        if eng.dense {
            for k in 0..len {
                let (i, n) = (i0 + k, n0 + i0 + k);
                let set = &mut sets[k * words..(k + 1) * words];
                for sd in &eng.splits {
                    if n < sd.j + 2 {
                        continue;
                    }
                    let (lo, end) = (sd.outer(i), sd.amax(n - sd.j) + 1);
                    fold_pairs(g, n - sd.j, lo, end, set);
                    stats.full_pairs += end.saturating_sub(lo) as u64;
                }
            }
            stats.dense_heaps += len as u64;
            return stats;
        }
        // Rare part r < n0 against heaps whose other part n0 + i - j - r is below n0 too.
        let stride = self.stride;
        let flags = &mut flags[..len * stride];
        flags.fill(0);
        // Runs over every heap of the task, batched (most of them).
        let mut runs = Runs::new();
        for sd in &eng.sum_digit {
            let j = sd.j;
            let rmin = (i0 + 1).saturating_sub(j).max(1).max(self.win + 1);
            let from = eng.rare.partition_point(|&r| r < rmin);
            for &r in &eng.rare[from..] {
                let lo = i0.max((r + j + 1).saturating_sub(n0));
                let hi = i1.min(r + j);
                if lo >= hi {
                    continue;
                }
                let gr = g[r].get();
                let start = n0 + lo - j - r;
                let run = &mut flags[(lo - i0) * stride..(hi - i0) * stride];
                stats.rare_pairs += (hi - lo) as u64;
                let eq = (2 * r + j).wrapping_sub(n0);
                if sd.unequal && 2 * r + j >= n0 && (lo..hi).contains(&eq) {
                    // The equal split r + r is not a move.
                    let (a, b) = run.split_at_mut((eq - lo) * stride);
                    scatter_flags(g, gr, start, eq - lo, a, stride);
                    let after = &mut b[stride..];
                    scatter_flags(g, gr, start + (eq - lo) + 1, hi - eq - 1, after, stride);
                } else if (lo, hi) == (i0, i1) {
                    runs.push((gr, start), g, len, flags, stride);
                } else {
                    scatter_flags(g, gr, start, hi - lo, run, stride);
                }
            }
        }
        runs.flush(g, len, flags, stride);
        for k in 0..len {
            let (i, n) = (i0 + k, n0 + i0 + k);
            let fl = &mut flags[k * stride..(k + 1) * stride];
            if let Some(sd) = eng.sum_digit.first() {
                if n >= sd.j + 2 && eng.opts.prefix > 0 && eng.use_prefix {
                    // Runs of PREFIX_RUN pairs spread over the search window (neighbouring
                    // pairs give correlated values).
                    let (lo, end) = (sd.outer(i), sd.amax(n - sd.j) + 1);
                    let runs = eng.opts.prefix.div_ceil(PREFIX_RUN);
                    let gap = ((end.saturating_sub(lo)).min(SPREAD) / runs).max(PREFIX_RUN);
                    for q in 0..runs {
                        let a0 = (lo + q * gap).min(end);
                        let a1 = (a0 + PREFIX_RUN).min(end);
                        fold_flags(g, &eng.rev, n - sd.j, a0, a1, fl);
                        stats.full_pairs += (a1 - a0) as u64;
                    }
                }
            }
            // With one split digit the row is the heap's own: straight into its set.
            let row = if eng.shifts.is_empty() {
                &mut sets[k * words..(k + 1) * words]
            } else {
                &mut sums[k * words..(k + 1) * words]
            };
            flags_to_set_simd(eng.simd, fl, row);
        }
        stats.sparse_heaps += len as u64;
        stats
    }

    /// The rows of `sums` for the heaps `n0 - rows .. n0` (`before` holds `rows` of them): the
    /// rare-part splits of each one's first-digit sum, all below `n0`, and its window. Later
    /// heaps of the block read them through their shifts (see `TakeAndBreakSparse::shifts`).
    /// Returns the rare pairs.
    pub(super) fn sums_before<T: Val>(&self, g: &[T], before: &mut [u64]) -> u64 {
        let (eng, n0) = (self.eng, self.n0);
        let rows = before.len() / self.words;
        let mut pairs = 0;
        for (q, row) in before.chunks_exact_mut(self.words).enumerate() {
            row.fill(0);
            let (Some(n), Some(sd)) = ((n0 + q).checked_sub(rows), eng.sum_digit.first()) else {
                continue;
            };
            let Some(s) = n.checked_sub(sd.j) else {
                continue;
            };
            if self.win > 0 {
                row[0] |= fold_word(g, &eng.rev, eng.simd, s, 1, sd.amax(s).min(self.win) + 1);
            }
            let from = eng.rare.partition_point(|&r| r <= self.win);
            for &r in eng.rare[from..].iter().take_while(|&&r| r < s) {
                if r >= 1 && 2 * r != s {
                    set_bit(row, g[r].get() ^ g[s - r].get());
                    pairs += 1;
                }
            }
        }
        pairs
    }

    /// For the heaps `k0 .. k1` of the block (`g` holds `G(0 .. n0 + k0)`; `flags`, a block's
    /// worth of value flags; `new_rare`, the rare heaps of the block so far): flags the values
    /// of the splits with a rare part and the other part in `n0 + from .. n0 + k0`, or a rare
    /// part in `n0 .. n0 + k0` and the other part below `n0`. Returns the number of pairs.
    /// (The splits whose other part lies in `n0 .. n0 + from` were flagged ahead, by
    /// [`Ctx::scatter_ahead`].)
    pub(super) fn inner_scatter<T: Val>(
        &self,
        g: &[T],
        k0: usize,
        k1: usize,
        from: usize,
        new_rare: &[usize],
        flags: &mut [u8],
    ) -> u64 {
        let (eng, n0) = (self.eng, self.n0);
        let stride = self.stride;
        let mut pairs = self.scatter_old(g, k0, k1, from, k0, &mut flags[k0 * stride..k1 * stride]);
        for sd in &eng.sum_digit {
            let j = sd.j;
            // Rare r in n0 .. n0 + k0, other part n0 + i - j - r >= 1 (below n0).
            for &r in new_rare.iter().take_while(|&&r| r < n0 + k0) {
                let lo = k0.max((r + j + 1).saturating_sub(n0));
                if lo >= k1 {
                    continue;
                }
                let run = &mut flags[lo * stride..k1 * stride];
                scatter_flags(g, g[r].get(), n0 + lo - j - r, k1 - lo, run, stride);
                pairs += (k1 - lo) as u64;
            }
        }
        pairs
    }

    /// For the heaps `k0 .. k1` of the block (`flags`: theirs only): flags the values of the
    /// splits with a rare part below `n0` and the other part in `n0 + s0 .. n0 + s1` (`g` holds
    /// at least `G(0 .. n0 + s1)`). Returns the number of pairs. Run ahead by the threads that
    /// confirm, while the sequential part is still `s0 - s1` heaps or more behind `k0`.
    pub(super) fn scatter_ahead<T: Val>(
        &self,
        g: &[T],
        k0: usize,
        k1: usize,
        s1: usize,
        flags: &mut [u8],
    ) -> u64 {
        self.scatter_old(g, k0, k1, 0, s1, flags)
    }

    fn scatter_old<T: Val>(
        &self,
        g: &[T],
        k0: usize,
        k1: usize,
        s0: usize,
        s1: usize,
        flags: &mut [u8],
    ) -> u64 {
        let (eng, n0) = (self.eng, self.n0);
        let stride = self.stride;
        let mut pairs = 0;
        // Runs over the whole sub-block, batched (most of them).
        let mut runs = Runs::new();
        for sd in &eng.sum_digit {
            let j = sd.j;
            // Rare r below n0, other part n0 + i - j - r in n0 + s0 .. n0 + s1:
            // i in r + j + s0 .. r + j + s1, which meets k0 .. k1 from the first r with
            // r + j + s1 > k0 (found by bisection: stepping over the rare heaps before it cost
            // as much as a tenth of 0.354's time).
            // (Rare parts up to the window are in the window.)
            let first = eng
                .rare
                .partition_point(|&r| r + j + s1 <= k0 || r <= self.win);
            for &r in eng.rare[first..].iter().take_while(|&&r| r + j + s0 < k1) {
                let (lo, hi) = (k0.max(r + j + s0), k1.min(r + j + s1));
                if r == 0 || lo >= hi {
                    continue;
                }
                pairs += (hi - lo) as u64;
                let start = n0 + lo - j - r;
                if (lo, hi) == (k0, k1) {
                    runs.push((g[r].get(), start), g, k1 - k0, flags, stride);
                } else {
                    let run = &mut flags[(lo - k0) * stride..(hi - k0) * stride];
                    scatter_flags(g, g[r].get(), start, hi - lo, run, stride);
                }
            }
        }
        runs.flush(g, k1 - k0, flags, stride);
        pairs
    }

    /// The options of heap `n0 + i` that reach into the block (`g` holds `G(0 .. n0 + i)`;
    /// `new_rare`: the rare heaps of the block so far; the splits reaching only into the
    /// sub-blocks before `k0` were flagged already), then its value: `(value, false)`, or
    /// `(candidate, true)` with `pending` to be confirmed by [`Ctx::confirm`].
    #[allow(clippy::too_many_arguments)]
    pub(super) fn sequential<T: Val>(
        &self,
        g: &[T],
        i: usize,
        k0: usize,
        new_rare: &[usize],
        set: &mut [u64],
        sums: &mut [u64],
        flags: &mut [u8],
        pending: &mut Pending,
        stats: &mut SparseStats,
    ) -> (u32, bool) {
        let (eng, n0) = (self.eng, self.n0);
        let n = n0 + i;
        debug_assert_eq!(g.len(), n);
        // Values below 64 (most games with few rare heaps) are gathered in a register: no
        // stores, and no flags to fold for this heap unless earlier sub-blocks flagged some.
        let small = !eng.dense && self.stride <= 64;
        let mut acc = 0u64;
        // The single heaps left, the heap's own options (not its sum's row).
        let mut single = 0u64;
        for &j in &eng.singles {
            if j <= i && j < n {
                let x = g[n - j].get();
                if small {
                    single |= 1u64 << (x & 63);
                } else {
                    set_bit(set, x);
                }
            }
        }
        if eng.dense {
            for sd in &eng.splits {
                if n < sd.j + 2 {
                    continue;
                }
                let end = sd.outer(i).min(sd.amax(n - sd.j) + 1);
                fold_pairs(g, n - sd.j, 1, end, set);
                stats.full_pairs += end.saturating_sub(1) as u64;
            }
            return (mex(set), false);
        }
        // Rare part against a heap of this sub-block (r <= s - n0 - k0), or a rare heap of this
        // sub-block (r >= n0 + k0); those reaching into earlier sub-blocks were flagged by
        // `inner_scatter`. Flagged (plain stores) or gathered in a register, then added to the set.
        let from = new_rare.partition_point(|&r| r < n0 + k0);
        let mut pairs = 0u64;
        let mut put = |x: u32| {
            if small {
                acc |= 1u64 << (x & 63);
            } else {
                flags[x as usize] = 1;
            }
        };
        // Old rare parts against this sub-block: one list for every split digit.
        for &(d, gr) in self.near {
            if d > i - k0 {
                break;
            }
            debug_assert!(d <= n);
            // SAFETY: d >= 1 and d <= i - k0 <= i <= n = g.len().
            put(gr ^ unsafe { g.get_unchecked(n - d) }.get());
            pairs += 1;
        }
        // Rare heaps of this sub-block against anything below.
        for sd in &eng.sum_digit {
            if n < sd.j + 2 {
                continue;
            }
            let s = n - sd.j;
            for &r in &new_rare[from..] {
                if r >= s {
                    break;
                }
                if sd.unequal && 2 * r == s {
                    continue;
                }
                put(g[r].get() ^ g[s - r].get());
                pairs += 1;
            }
        }
        stats.rare_pairs += pairs;
        // Every split of the first digit's sum whose smaller part is within the window.
        if let Some(s) = eng
            .sum_digit
            .first()
            .filter(|_| self.win > 0)
            .and_then(|sd| {
                n.checked_sub(sd.j)
                    .map(|s| (s, sd.amax(s).min(self.win) + 1))
            })
        {
            acc |= fold_word(g, &eng.rev, eng.simd, s.0, 1, s.1);
            stats.window_pairs += (s.1 - 1) as u64;
        }
        // This heap's row is complete; its set joins it with the rows of the other digits' sums.
        if eng.shifts.is_empty() {
            if k0 > 0 || (pairs > 0 && !small) {
                flags_to_set_simd(eng.simd, flags, set);
            }
            set[0] |= acc;
        } else {
            // The rows of heaps i - dmax ..= i (sums holds dmax rows before the block's).
            let (words, dmax) = (self.words, eng.max_shift());
            let rows = &mut sums[i * words..(dmax + i + 1) * words];
            let top = dmax * words;
            let own = &mut rows[top..];
            if k0 > 0 || (pairs > 0 && !small) {
                flags_to_set_simd(eng.simd, flags, own);
            }
            own[0] |= acc;
            for (w, x) in set.iter_mut().enumerate() {
                let mut y = rows[top + w];
                for &d in &eng.shifts {
                    // SAFETY: d <= the largest shift, so top - d * words + w < rows.len().
                    y |= unsafe { rows.get_unchecked(top - d * words + w) };
                }
                *x |= y;
            }
        }
        // The equal split a + a (value 0), left out of the rows.
        match eng.equal_js.last() {
            Some(&j) if n >= j + 2 => single |= u64::from(eng.equal_by_parity[n % 2]),
            _ => {
                for &j in &eng.equal_js {
                    if n >= j + 2 && (n - j) % 2 == 0 {
                        single |= 1;
                    }
                }
            }
        }
        set[0] |= single;
        let class = eng.common_class(n);
        let c = self.classes.candidate(set, class);
        pending
            .want
            .fill(set, |w| self.classes.word(w, class ^ 1), c, c);
        pending.i = i;
        (c, pending.want.left != 0)
    }

    /// Heaps `n0 .. n0 + b` of a block whose window covers every rare heap (see
    /// `SparseOptions::window`), pushed onto `g` one by one on this thread: no flags, no parts.
    /// A heap's set is its window's row (kept in `rows`, after the `max_shift` rows before the
    /// block) joined with the rows of its other digits' sums, its single heaps and the equal
    /// split; the rare values below the candidate that the windows lack are searched for at
    /// once, beyond the windows. Stops after a heap that is rare (the next block enumerates its
    /// splits) or whose value needs more than six bits. Returns the heaps written.
    pub(super) fn window_block<T: Val, G: Sink<T>>(
        &self,
        g: &mut G,
        b: usize,
        rows: &mut [u64],
        pending: &mut Pending,
        stats: &mut SparseStats,
    ) -> usize {
        let (eng, n0, win) = (self.eng, self.n0, self.win);
        let (sd, dmax) = (eng.sum_digit[0], eng.max_shift());
        let space = eng.space.expect("a window needs a mask");
        debug_assert!(win > 0 && self.words == 1 && rows.len() >= dmax + b);
        // The equal split a + a (value 0) is left out of the rows: by the parity of the heap
        // once every digit allowing it has a sum of 2 or more.
        let equal_from = eng.equal_js.last().map_or(usize::MAX, |&j| j + 2);
        let mut pairs = 0;
        for i in 0..b {
            let n = n0 + i;
            let gv = g.values();
            let mut set = u64::from(eng.zeros.get(n) == Some(&true));
            for &j in &eng.singles {
                if j < n {
                    set |= 1u64 << (gv[n - j].get() & 63);
                }
            }
            let row = n.checked_sub(sd.j).map_or(0, |s| {
                let a1 = sd.amax(s).min(win) + 1;
                pairs += a1 - 1;
                fold_word(&gv[..n], &eng.rev, eng.simd, s, 1, a1)
            });
            rows[dmax + i] = row;
            set |= row;
            for &d in &eng.shifts {
                set |= rows[dmax + i - d];
            }
            if n >= equal_from {
                set |= u64::from(eng.equal_by_parity[n % 2]);
            } else {
                for &j in &eng.equal_js {
                    if n >= j + 2 && (n - j) % 2 == 0 {
                        set |= 1;
                    }
                }
            }
            let class = eng.common_class(n);
            let common = !set & self.classes.word(0, class);
            let c = if common == 0 {
                64
            } else {
                common.trailing_zeros()
            };
            // Rare values below the candidate that no window has.
            let below = if c == 64 { u64::MAX } else { (1u64 << c) - 1 };
            let mut v = c;
            if !set & self.classes.word(0, class ^ 1) & below != 0 {
                pending
                    .want
                    .fill(&[set], |w| self.classes.word(w, class ^ 1), c, c);
                pending.i = i;
                v = self.confirm(&gv[..n], pending).unwrap_or(c);
                stats.searches += 1;
                stats.search_pairs += std::mem::take(&mut pending.want.examined);
                stats.search_found += std::mem::take(&mut pending.want.found);
            }
            if !g.put(v) {
                // A value other than the one predicted: not written, and the block ends.
                stats.sparse_heaps += i as u64 + 1;
                stats.window_pairs += pairs as u64;
                return i;
            }
            if v >= 64 || self.is_rare(space, n, v) {
                stats.sparse_heaps += i as u64 + 1;
                stats.window_pairs += pairs as u64;
                return i + 1;
            }
        }
        stats.sparse_heaps += b as u64;
        stats.window_pairs += pairs as u64;
        b
    }

    /// Looks for a pending heap's wanted values among all its splits (`g` holds at least
    /// `G(0 .. n0 + i)`). None when all are found (the provisional value stands); otherwise the
    /// heap's value, the smallest value missing.
    pub(super) fn confirm<T: Val>(&self, g: &[T], p: &mut Pending) -> Option<u32> {
        let n = self.n0 + p.i;
        let mut scratch = [0u64; 0];
        if self.search(&g[..n], n, &mut scratch, &mut p.want) {
            None
        } else {
            p.want.first()
        }
    }

    /// Searches every split `a + (s - a)` of heap `n` for the wanted values: per split digit
    /// first the smallest parts in order, then blocks spread over the next `SPREAD` pairs, then
    /// the rest in order, going round-robin over the digits (one digit's splits may lack a value
    /// that another's have at once). True as soon as no required value is wanted; false when
    /// every split was looked at.
    fn search<T: Val>(&self, g: &[T], n: usize, set: &mut [u64], want: &mut Want) -> bool {
        let eng = self.eng;
        let (rev, simd, bits) = (&eng.rev, eng.simd, self.bits);
        let mut small = [Blocks::range(0, 0, 0); 4];
        let mut big = Vec::new();
        let spread: &mut [Blocks] = if eng.splits.len() <= small.len() {
            &mut small[..eng.splits.len()]
        } else {
            big.resize(eng.splits.len(), Blocks::range(0, 0, 0));
            &mut big[..]
        };
        for sd in &eng.splits {
            if n >= sd.j + 2 {
                let s = n - sd.j;
                let (a0, end) = ((1 + self.win).min(sd.amax(s) + 1), sd.amax(s) + 1);
                let first = Blocks::range(s, a0, end.min(a0 + FIRST_PAIRS));
                if search(g, rev, simd, bits, first, want, set) {
                    return true;
                }
            }
        }
        let mut rounds = 0;
        for (sd, bl) in eng.splits.iter().zip(spread.iter_mut()) {
            if n < sd.j + 2 {
                continue;
            }
            let s = n - sd.j;
            let (a0, end) = (1 + self.win + FIRST_PAIRS, sd.amax(s) + 1);
            *bl = Blocks::spread(s, a0.min(end), end.min(a0 + SPREAD), SPREAD_BLOCK);
            rounds = rounds.max(bl.count().div_ceil(ROUND_BLOCKS));
        }
        for r in 0..rounds {
            for bl in spread.iter() {
                let part = bl.part(r * ROUND_BLOCKS, (r + 1) * ROUND_BLOCKS);
                if search(g, rev, simd, bits, part, want, set) {
                    return true;
                }
            }
        }
        const ROUND: usize = ROUND_BLOCKS * SPREAD_BLOCK;
        let mut at = 0;
        loop {
            let mut any = false;
            for (sd, bl) in eng.splits.iter().zip(spread.iter()) {
                if n < sd.j + 2 {
                    continue;
                }
                let (b, end) = (bl.a1 + at, sd.amax(bl.s) + 1);
                if b < end {
                    any = true;
                    let part = Blocks::range(bl.s, b, (b + ROUND).min(end));
                    if search(g, rev, simd, bits, part, want, set) {
                        return true;
                    }
                }
            }
            if !any {
                return false;
            }
            at += ROUND;
        }
    }
}
