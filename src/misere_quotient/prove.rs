//! The proof that a hypothesis is the quotient: a least-size search for a sum at which the
//! local condition fails, by induction on the sums' total size.

use super::*;

/// A bit set over the elements of a monoid.
pub(super) type Set = Box<[u64]>;

/// One heap's transition in the proof automaton: its element and the elements `q` from which
/// some option of it reaches the P-portion (`q·φ(g') ∈ P`).
#[derive(Clone, PartialEq, Eq, Hash)]
pub(super) struct Letter {
    pub(super) x: u32,
    pub(super) wins: Set,
}

pub(super) fn letter(q: &Monoid, x: u32, option_elements: &[u32]) -> Letter {
    let words = q.m.div_ceil(64);
    let mut wins = vec![0u64; words].into_boxed_slice();
    let mut opts = option_elements.to_vec();
    opts.sort_unstable();
    opts.dedup();
    for z in 0..q.m as u32 {
        if opts.iter().any(|&o| q.p[q.mul(z, o) as usize]) {
            wins[z as usize / 64] |= 1 << (z % 64);
        }
    }
    Letter { x, wins }
}

/// A failed proof: the sum (letter indices) of least total size at which the local condition
/// fails, and its size. Every smaller sum satisfies the condition, so by induction the
/// hypothesis classifies every smaller sum correctly, in particular every option of this one:
/// its true outcome is therefore "P exactly when no option maps into P".
pub(super) struct Failure {
    pub(super) word: Vec<usize>,
    pub(super) size: u64,
    pub(super) truly_p: bool,
}

/// The proof. Returns None when the hypothesis is the quotient, else the least failure.
/// `letters[i]` is the transition of a heap of size `sizes[i]`; letters with equal transitions
/// are explored once (the smallest heap stands for them). The search is Dijkstra's over the
/// pairs `(φ(X), U(X))` with the heap sizes as lengths, so the first failing pair met is reached
/// by a failing sum of least total size.
///
/// With `cap = Some((t, m))` only the sums with at most `m` copies of letter `t` are proven
/// (see [`relative`]): the search carries the count in its states and adds no copy past `m`.
/// Those sums are closed under options, so the induction holds on them.
#[allow(clippy::too_many_arguments)]
pub(super) fn prove(
    q: &Monoid,
    letters: &[Letter],
    sizes: &[u32],
    cap: Option<(usize, u32)>,
    reached: &mut Vec<(u32, Set)>,
    ctl: &dyn Control,
    heap: u64,
    max: u64,
    stats: &mut Stats,
) -> Result<Option<Failure>> {
    if q.p[0] {
        return Ok(Some(Failure {
            word: Vec::new(),
            size: 0,
            truly_p: false,
        }));
    }
    let mut distinct: Vec<usize> = Vec::new();
    {
        let mut seen: FxMap<&Letter, usize> = FxMap::default();
        for (i, l) in letters.iter().enumerate() {
            if cap.is_some_and(|(t, _)| t == i) {
                distinct.push(i); // counted: never stands for another heap, nor another for it
                continue;
            }
            match seen.get(l) {
                Some(&j) if sizes[distinct[j]] <= sizes[i] => {}
                Some(&j) => distinct[j] = i,
                None => {
                    seen.insert(l, distinct.len());
                    distinct.push(i);
                }
            }
        }
    }
    let m = q.m;
    let words = m.div_ceil(64);
    // Node 0 is the empty sum; a nonempty sum reaching the same pair is a node of its own (it
    // must be checked, the empty sum need not). The third part counts the copies of the capped
    // letter (always 0 without a cap).
    let (capped, most) = cap.map_or((usize::MAX, 0), |(t, m)| (t, m));
    let mut states: Vec<(u32, Set, u32)> = vec![(0, vec![0u64; words].into_boxed_slice(), 0)];
    let mut dist: Vec<u64> = vec![0];
    let mut parent: Vec<(usize, usize)> = vec![(usize::MAX, usize::MAX)];
    let mut done: Vec<bool> = vec![false];
    let mut index: FxMap<(u32, Set, u32), usize> = FxMap::default();
    let mut buckets: Vec<Vec<usize>> = vec![vec![0]];
    // A bucket at a time: every sum of the next bucket is larger (heaps have size at least 1),
    // so the bucket's pairs are checked in order and then all moved by every letter at once, in
    // parallel, which is where the proof spends its time (|Q| work per step).
    // Bytes a state holds: its pair and the key's copy in the index (a set of `words` words
    // each), its distance, parent, flag and bucket entry.
    let state_bytes = (16 * words + 128) as u64;
    // The work of moving one state by every letter, and the states moved between two polls
    // (a bucket can hold millions of them).
    let per_state = (distinct.len() * m).max(1);
    let chunk = ((POLL_WORK as usize * 4) / per_state).max(64);
    let mut pace = Pace::new(ctl, (heap, max));
    let mut d = 0;
    while d < buckets.len() {
        let mut batch = std::mem::take(&mut buckets[d]);
        batch.reverse();
        batch.retain(|&u| !done[u] && dist[u] == d as u64);
        ctl.check(heap, max)?;
        crate::memory::check(states.len() as u64 * state_bytes)?;
        for &u in &batch {
            done[u] = true;
            if u == 0 {
                continue;
            }
            let (x, ref us, _) = states[u];
            let option_in_p = us[0] & 1 == 1; // z = 1, the identity
            if q.p[x as usize] == option_in_p {
                stats.proof_states += states.len() as u64;
                let mut w = Vec::new();
                let mut s = u;
                while parent[s].0 != usize::MAX {
                    w.push(parent[s].1);
                    s = parent[s].0;
                }
                w.reverse();
                return Ok(Some(Failure {
                    word: w,
                    size: dist[u],
                    truly_p: !option_in_p,
                }));
            }
        }
        for part in batch.chunks(chunk) {
            let moved: Vec<Option<(u32, Set, u32)>> = {
                let states = &states;
                let distinct = &distinct;
                part.par_iter()
                    .with_min_len((4096 / (m * distinct.len()).max(1)).max(1))
                    .flat_map_iter(|&u| {
                        let (x, ref us, c) = states[u];
                        distinct.iter().map(move |&li| {
                            let more = u32::from(li == capped);
                            (c + more <= most || more == 0).then(|| {
                                let (y, v) = step(q, (x, us), &letters[li]);
                                (y, v, c + more)
                            })
                        })
                    })
                    .collect()
            };
            let mut moved = moved.into_iter();
            for &u in part {
                for &li in &distinct {
                    let Some(key) = moved.next().expect("one entry per sum and letter") else {
                        continue; // a copy past the cap
                    };
                    let nd = dist[u] + sizes[li] as u64;
                    let v = match index.get(&key) {
                        Some(&v) => v,
                        None => {
                            let v = states.len();
                            index.insert(key.clone(), v);
                            states.push(key);
                            dist.push(u64::MAX);
                            parent.push((usize::MAX, usize::MAX));
                            done.push(false);
                            v
                        }
                    };
                    if nd < dist[v] {
                        dist[v] = nd;
                        parent[v] = (u, li);
                        if buckets.len() <= nd as usize {
                            buckets.resize(nd as usize + 1, Vec::new());
                        }
                        buckets[nd as usize].push(v);
                    }
                }
            }
            if pace.tick((part.len() * per_state) as u64)? {
                // As many states again must fit: the vectors double as they grow.
                crate::memory::check(states.len() as u64 * state_bytes)?;
            }
        }
        d += 1;
    }
    stats.proof_states += states.len() as u64;
    *reached = states.into_iter().map(|(x, u, _)| (x, u)).collect();
    Ok(None)
}

/// One step of the proof automaton: the pair of `X + g` from the pair of `X`.
pub(super) fn step(q: &Monoid, (x, u): (u32, &[u64]), l: &Letter) -> (u32, Set) {
    let m = q.m;
    let mut nu = vec![0u64; m.div_ceil(64)].into_boxed_slice();
    let row_g = &q.mul[l.x as usize * m..(l.x as usize + 1) * m];
    let row_x = &q.mul[x as usize * m..(x as usize + 1) * m];
    // Branch-free, 64 elements to a word: the bits are as good as random.
    for ((word, gs), xs) in nu.iter_mut().zip(row_g.chunks(64)).zip(row_x.chunks(64)) {
        let mut w = 0u64;
        for (i, (&a, &b)) in gs.iter().zip(xs).enumerate() {
            let (a, b) = (a as usize, b as usize);
            let bit = (u[a / 64] >> (a % 64)) | (l.wins[b / 64] >> (b % 64));
            w |= (bit & 1) << i;
        }
        *word = w;
    }
    (q.mul(x, l.x), nu)
}

/// The proof with one more letter, from the pairs a proof without it reached (`reached`, which
/// holds the empty sum's pair first): only pairs new with the letter are explored and checked.
/// Returns whether it passes; on success `reached` gains the new pairs.
pub(super) fn extend_proof(
    q: &Monoid,
    letters: &[Letter],
    new: &Letter,
    reached: &mut Vec<(u32, Set)>,
    ctl: &dyn Control,
    at: (u64, u64),
) -> Result<bool> {
    // Each pair is held twice (in `reached` or `fresh`, and as the index's key).
    let pair_bytes = (16 * q.m.div_ceil(64) + 96) as u64;
    crate::memory::check(reached.len() as u64 * pair_bytes)?;
    let mut pace = Pace::new(ctl, at);
    let mut index: FxMap<(u32, Set), ()> =
        reached.iter().skip(1).map(|s| (s.clone(), ())).collect();
    let empty = &reached[0];
    let ok = |t: &(u32, Set)| {
        // A nonempty sum at the empty sum's pair fails: it would be N with no option in P.
        t != empty && q.p[t.0 as usize] != (t.1[0] & 1 == 1)
    };
    let mut fresh: Vec<(u32, Set)> = Vec::new();
    for s in reached.iter() {
        pace.tick(q.m as u64)?;
        let t = step(q, (s.0, &s.1), new);
        if !index.contains_key(&t) {
            if !ok(&t) {
                return Ok(false);
            }
            index.insert(t.clone(), ());
            fresh.push(t);
        }
    }
    let mut head = 0;
    while head < fresh.len() {
        if pace.tick(((letters.len() + 1) * q.m) as u64)? {
            // As many new pairs again must fit: `fresh` and the index double as they grow.
            crate::memory::check(fresh.len() as u64 * pair_bytes)?;
        }
        let u = fresh[head].clone();
        for l in letters.iter().chain(std::iter::once(new)) {
            let t = step(q, (u.0, &u.1), l);
            if !index.contains_key(&t) {
                if !ok(&t) {
                    return Ok(false);
                }
                index.insert(t.clone(), ());
                fresh.push(t);
            }
        }
        head += 1;
    }
    reached.extend(fresh);
    Ok(true)
}

/// For each element of `q`, the least sum (by total size) of heaps that are not `freed` and
/// map to it, found by Dijkstra's search over the elements; an element no such sum reaches gets
/// an empty list (never asked for: the canonical forms only ask for elements of such sums).
pub(super) fn representatives(
    q: &Monoid,
    phi: &[u32],
    opts: &[Vec<Vec<u32>>],
    freed: &[Option<(u32, u32)>],
) -> Vec<Vec<u32>> {
    // The smallest heap of each element among the heaps that may stand in a representative.
    let mut gens: Vec<u32> = Vec::new();
    let mut seen = vec![false; q.m];
    for (h, &x) in phi.iter().enumerate() {
        if !opts[h].is_empty() && freed[h].is_none() && !seen[x as usize] {
            seen[x as usize] = true;
            gens.push(h as u32);
        }
    }
    let mut dist = vec![u64::MAX; q.m];
    let mut parent = vec![(0u32, 0u32); q.m];
    dist[0] = 0;
    let mut heap = std::collections::BinaryHeap::new();
    heap.push(std::cmp::Reverse((0u64, 0u32)));
    while let Some(std::cmp::Reverse((d, x))) = heap.pop() {
        if d != dist[x as usize] {
            continue;
        }
        for &g in &gens {
            let y = q.mul(x, phi[g as usize]);
            let nd = d + g as u64;
            if nd < dist[y as usize] {
                dist[y as usize] = nd;
                parent[y as usize] = (x, g);
                heap.push(std::cmp::Reverse((nd, y)));
            }
        }
    }
    (0..q.m)
        .map(|x| {
            let mut w = Vec::new();
            let mut y = x;
            while y != 0 && dist[y] != u64::MAX {
                let (p, g) = parent[y];
                w.push(g);
                y = p as usize;
            }
            w.sort_unstable();
            w
        })
        .collect()
}
