//! The monoid a quotient is, as a multiplication table, and the automata it is read from:
//! Moore minimisation and the table built column by column.

use super::*;

/// A finite commutative monoid with a P-portion, as a multiplication table. Element 0 is the
/// identity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Monoid {
    pub(super) m: usize,
    pub(super) mul: Vec<u32>,
    pub(super) p: Vec<bool>,
}

impl Monoid {
    #[inline]
    pub(super) fn mul(&self, a: u32, b: u32) -> u32 {
        self.mul[a as usize * self.m + b as usize]
    }

    /// `x` to the power `k`, by squaring.
    pub(super) fn pow(&self, x: u32, mut k: u64) -> u32 {
        let (mut acc, mut base) = (0u32, x);
        while k > 0 {
            if k & 1 == 1 {
                acc = self.mul(acc, base);
            }
            base = self.mul(base, base);
            k >>= 1;
        }
        acc
    }

    /// The index and period of `x`: the least `i` and `p ≥ 1` with `x^(i+p) = x^i`.
    pub(super) fn index_period(&self, x: u32) -> (u32, u32) {
        let mut first = vec![u32::MAX; self.m];
        let mut y = 0;
        for k in 0.. {
            if first[y as usize] != u32::MAX {
                return (first[y as usize], k - first[y as usize]);
            }
            first[y as usize] = k;
            y = self.mul(y, x);
        }
        unreachable!()
    }

    /// The element of a sum of heaps, given each heap size's element `phi`.
    pub(super) fn eval<H: Copy + Into<u64>>(&self, phi: &[u32], heaps: &[H]) -> u32 {
        heaps
            .iter()
            .fold(0, |x, &h| self.mul(x, phi[h.into() as usize]))
    }
}

/// Moore's refinement of a complete automaton whose state `s` moves to `delta[s * k + a]` by
/// letter `a`: states stay together while their acceptance and the classes of their successors
/// agree. Returns each state's class, numbered in order of first state (state 0's class is 0),
/// and the number of classes. `pace` is ticked for every state of every round (a round over
/// millions of states takes seconds).
pub(super) fn minimise(
    accept: &[bool],
    delta: &[u32],
    k: usize,
    pace: &mut Pace,
) -> Result<(Vec<u32>, usize)> {
    let first = accept.first().copied().unwrap_or(false);
    let mut class: Vec<u32> = accept.iter().map(|&a| u32::from(a != first)).collect();
    let mut count = 1 + usize::from(accept.iter().any(|&a| a != first));
    let mut sig = Vec::with_capacity(k + 1);
    // A round holds a signature of k + 1 classes per state in its map, and a class per state.
    crate::memory::check((accept.len() * (4 * k + 64)) as u64)?;
    loop {
        let mut ids: FxMap<Vec<u32>, u32> = FxMap::default();
        let mut next = Vec::with_capacity(accept.len());
        for s in 0..accept.len() {
            pace.tick(8 * (k as u64 + 1))?;
            sig.clear();
            sig.push(class[s]);
            sig.extend(delta[s * k..(s + 1) * k].iter().map(|&t| class[t as usize]));
            let fresh = ids.len() as u32;
            next.push(*ids.entry(sig.clone()).or_insert(fresh));
        }
        let done = ids.len() == count;
        count = ids.len();
        class = next;
        if done {
            return Ok((class, count));
        }
    }
}

/// The multiplication table of the monoid of a minimal commutative automaton with `m` states
/// and `k` moves (`delta[s * k + a]`), state 0 the empty sum. `order` lists the states, 0 first,
/// each after its `parent` (the state and move of a shortest word reaching it): column `b` of
/// the table is column `parent(b)` moved by that move, so the table costs `m²` steps.
/// `pace` is ticked for every column (`m²` can be billions of steps).
pub(super) fn table_by_columns(
    m: usize,
    k: usize,
    delta: &[u32],
    order: &[usize],
    parent: &[(usize, usize)],
    pace: &mut Pace,
) -> Result<Vec<u32>> {
    let mut mul = vec![0u32; m * m];
    for &b in order {
        pace.tick(m as u64)?;
        let (pb, a) = parent[b];
        for x in 0..m {
            mul[x * m + b] = if b == 0 {
                x as u32
            } else {
                delta[mul[x * m + pb] as usize * k + a]
            };
        }
    }
    Ok(mul)
}
