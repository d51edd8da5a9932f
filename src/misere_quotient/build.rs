//! The builder: heaps placed one at a time (reused, guessed and refined, or learned), each
//! placement proven before the next.

use super::*;

/// The subsets of `items` with `k` elements, in lexicographic order.
pub(super) fn combinations(items: &[u32], k: usize) -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    let mut idx: Vec<usize> = (0..k).collect();
    if k == 0 || k > items.len() {
        return out;
    }
    loop {
        out.push(idx.iter().map(|&i| items[i]).collect());
        let Some(i) = (0..k).rev().find(|&i| idx[i] != i + items.len() - k) else {
            return out;
        };
        idx[i] += 1;
        for j in i + 1..k {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

/// The quotient proven for the heaps placed so far, and what placing the next one needs.
pub(super) struct Proven {
    pub(super) q: Monoid,
    /// The element of each heap placed.
    pub(super) phi: Vec<u32>,
    /// The transitions of the heaps placed, keyed by their win sets (for reuse).
    pub(super) by_wins: FxMap<Set, u32>,
    /// The distinct transitions of the heaps placed (the proof automaton's letters).
    pub(super) letters: Vec<Letter>,
    /// The pairs (φ(X), U(X)) the last successful proof reached.
    pub(super) reached: Vec<(u32, Set)>,
    /// `(heap, order)` each time the order changed.
    pub(super) growth: Vec<(u32, usize)>,
}

impl Proven {
    /// Nothing placed yet: the trivial monoid, whose proof has reached the empty sum only.
    pub(super) fn new(heaps: usize) -> Self {
        Proven {
            q: Monoid {
                m: 1,
                mul: vec![0],
                p: vec![false],
            },
            phi: Vec::with_capacity(heaps),
            by_wins: FxMap::default(),
            letters: Vec::new(),
            reached: vec![(0, vec![0u64; 1].into_boxed_slice())],
            growth: Vec::new(),
        }
    }
}

pub(super) struct Builder<'a> {
    pub(super) opts: &'a [Vec<Vec<u32>>],
    pub(super) ctl: &'a dyn Control,
    pub(super) oracle: Oracle<'a>,
    pub(super) learner: Learner,
    /// Heaps with a move not yet given to the learner (placed by reuse).
    pub(super) pending: Vec<u32>,
    /// The pairs the last proof of a learned quotient reached.
    pub(super) reached: Vec<(u32, Set)>,
    pub(super) stats: Stats,
    /// Refuted guesses tried again per learning step before the exact search.
    pub(super) max_refinements: u32,
    /// Heaps not yet given to the learner, because their steps were guessed.
    pub(super) unlearned: Vec<u32>,
    /// The most elements a guess or a hypothesis may have ([`Limits::max_order`]).
    pub(super) max_order: usize,
}

impl<'a> Builder<'a> {
    pub(super) fn new(opts: &'a [Vec<Vec<u32>>], ctl: &'a dyn Control) -> Self {
        Builder {
            opts,
            ctl,
            oracle: Oracle {
                opts,
                memo: FxMap::default(),
                proven: None,
                below: None,
                searched: 0,
                ctl,
                at: (0, opts.len() as u64),
                base: None,
                reps: Vec::new(),
                freed: Vec::new(),
                guess: false,
                buf: Vec::new(),
                open: FxSet::default(),
            },
            learner: Learner::new(),
            pending: Vec::new(),
            reached: Vec::new(),
            stats: Stats::default(),
            max_refinements: MAX_REFINEMENTS,
            unlearned: Vec::new(),
            max_order: usize::MAX,
        }
    }

    pub(super) fn option_elements(q: &Monoid, phi: &[u32], opts: &[Vec<u32>]) -> Vec<u32> {
        opts.iter().map(|o| q.eval(phi, o)).collect()
    }

    pub(super) fn run(mut self) -> std::result::Result<Quotient, Box<Stopped>> {
        let mut st = Proven::new(self.opts.len());
        for n in 0..self.opts.len() {
            if let Err(error) = self.place(n, &mut st) {
                // Every heap below n is placed and proven in `st`.
                let proven = (n > 0).then(|| self.finish(st, n));
                return Err(Box::new(Stopped { error, proven }));
            }
        }
        let n = self.opts.len();
        Ok(self.finish(st, n))
    }

    /// The quotient of heaps `0..n` from the proven state.
    pub(super) fn finish(&mut self, st: Proven, n: usize) -> Quotient {
        self.stats.searched = self.oracle.searched;
        let mut phi = st.phi;
        phi.truncate(n);
        let words = representatives(&st.q, &phi, &self.opts[..n], &vec![None; n]);
        Quotient {
            monoid: st.q,
            pretending: phi,
            words,
            growth: st.growth,
            stats: self.stats,
        }
    }

    /// Places heap `n`: the proven state for heaps `< n` becomes the one for heaps `≤ n`, or
    /// is left as it was on an error.
    pub(super) fn place(&mut self, n: usize, st: &mut Proven) -> Result<()> {
        let max = self.opts.len().saturating_sub(1) as u64;
        self.ctl.check(n as u64, max + 1)?;
        let Proven {
            q,
            phi,
            by_wins,
            letters,
            reached,
            growth,
        } = st;
        // After heap n - 1 is placed, the proven quotient evaluates every sum of heaps < n.
        if let Some((limit, _, proven_phi)) = &mut self.oracle.proven {
            *limit = n as u32;
            proven_phi.clone_from(phi);
        }
        if self.opts[n].is_empty() {
            phi.push(0);
            return Ok(());
        }
        let elems = Self::option_elements(q, phi, &self.opts[n]);
        let mut l = letter(q, 0, &elems);
        if let Some(&x) = by_wins.get(&l.wins) {
            // Same transition as an earlier heap: the proof automaton is unchanged.
            phi.push(x);
            self.pending.push(n as u32);
            self.stats.reused += 1;
            return Ok(());
        }
        // If the quotient does not grow, heap n is some element x of it, and the proof with
        // its transition passes for that x alone (the quotient is reduced). A heap is P alone
        // exactly when none of its options is, which rules out half the candidates.
        // Adding heap n to a sum X with pair (y, U) gives the pair (y·x, U' ) where U'(1) is
        // U(x) or "some option of n wins from y": the first step of the proof, checked on
        // every pair the last proof reached, rules out almost every wrong x at once.
        let one_step = |x: u32| {
            reached.iter().all(|(y, u)| {
                let b = l.wins[*y as usize / 64] >> (*y % 64) & 1 == 1;
                let a = u[x as usize / 64] >> (x % 64) & 1 == 1;
                q.p[q.mul(*y, x) as usize] != (a || b)
            })
        };
        // Each candidate's first step looks at every pair reached (millions, for a large
        // quotient), and each extended proof starts from a copy of them.
        let mut pace = Pace::new(self.ctl, (n as u64, max + 1));
        let mut candidates: Vec<u32> = Vec::new();
        for x in 0..q.m as u32 {
            pace.tick(reached.len() as u64)?;
            if one_step(x) {
                candidates.push(x);
            }
        }
        let words = q.m.div_ceil(64);
        for x in candidates {
            l.x = x;
            crate::memory::check((reached.len() * (8 * words + 48)) as u64)?;
            let mut now = reached.clone();
            let at = (n as u64, max + 1);
            if extend_proof(q, letters, &l, &mut now, self.ctl, at)? {
                self.stats.proof_states += (now.len() - reached.len()) as u64;
                *reached = now;
                phi.push(x);
                by_wins.insert(l.wins.clone(), x);
                letters.push(l);
                self.pending.push(n as u32);
                self.stats.placed += 1;
                return Ok(());
            }
        }
        self.pending.push(n as u32);
        self.oracle.at = (n as u64, max + 1);
        let (nq, nphi) = self.learn(n as u64, max)?;
        if nq.m != q.m {
            growth.push((n as u32, nq.m));
        }
        *q = nq;
        *phi = nphi;
        *reached = std::mem::take(&mut self.reached);
        by_wins.clear();
        letters.clear();
        let mut pace = Pace::new(self.ctl, (n as u64, max + 1));
        for h in 0..=n {
            if !self.opts[h].is_empty() {
                pace.tick((q.m * (self.opts[h].len() + 1)) as u64)?;
                let elems = Self::option_elements(q, phi, &self.opts[h]);
                let l = letter(q, phi[h], &elems);
                if by_wins.insert(l.wins.clone(), phi[h]).is_none() {
                    letters.push(l);
                }
            }
        }
        self.oracle.memo = FxMap::default();
        self.oracle.proven = Some((n as u32 + 1, q.clone(), phi.clone()));
        Ok(())
    }

    /// Learns and proves the quotient of the heaps given to the learner so far (plus the
    /// pending ones). Returns the monoid (element 0 the identity) and the pretending function
    /// of heaps `0..=n`.
    pub(super) fn learn(&mut self, n: u64, max: u64) -> Result<(Monoid, Vec<u32>)> {
        let pending = std::mem::take(&mut self.pending);
        if let Some(proven) = self.oracle.proven.clone() {
            // First with guessed outcomes (see `Oracle::guess`): the proof decides. A guess it
            // refutes at a sum is tried again on the refuted hypothesis, with some heaps of that
            // sum freed (see `refine`). After a few refutations, only the exact search is left.
            self.oracle.base = Some(proven);
            // The new heap is folded from the start: its copies, like a freed heap's, are a guess.
            self.oracle.freed = vec![None; n as usize + 1];
            self.oracle.freed[n as usize] = Some((2, 2));
            self.oracle.reps = self.representatives();
            self.oracle.guess = true;
            let mut rounds = 0;
            let r = loop {
                self.oracle.memo = FxMap::default();
                self.oracle.open.clear();
                let (q, phi) = match self.guessed_automaton(n as u32) {
                    Ok(Some(h)) => h,
                    Ok(None) | Err(Error::Memory { .. } | Error::Cycle(_)) => break Ok(None),
                    Err(e) => break Err(e),
                };
                if q.m > self.max_order {
                    break Err(self.over_order(n, q.m, false));
                }
                let sizes: Vec<u32> = (0..=n as u32)
                    .filter(|&h| !self.opts[h as usize].is_empty())
                    .collect();
                let failure = self.prove_on(&q, &phi, &sizes, n, max);
                match failure {
                    Ok(None) => break Ok(Some((q, phi))),
                    Ok(Some(f)) => {
                        rounds += 1;
                        if rounds > self.max_refinements {
                            break Ok(None);
                        }
                        let heaps = sorted(&f.word.iter().map(|&i| sizes[i]).collect::<Vec<_>>());
                        self.oracle.base = Some((n as u32 + 1, q, phi));
                        match self.refine(&heaps, f.truly_p) {
                            Ok(()) => self.stats.refinements += 1,
                            Err(Error::Memory { .. } | Error::Cycle(_)) => break Ok(None),
                            Err(e) => break Err(e),
                        }
                    }
                    Err(Error::Memory { .. }) => break Ok(None),
                    Err(e) => break Err(e),
                }
            };
            self.oracle.guess = false;
            self.oracle.open.clear();
            self.oracle.memo = FxMap::default();
            self.oracle.base = None;
            self.oracle.freed.clear();
            self.oracle.reps.clear();
            match r? {
                Some(found) => {
                    self.stats.guessed += 1;
                    // The learner's table stays as it was: its letters wait for the next
                    // exact step.
                    self.unlearned.extend(pending);
                    return Ok(found);
                }
                None => self.stats.guesses_wrong += 1,
            }
        }
        let mut letters = std::mem::take(&mut self.unlearned);
        letters.extend(pending);
        self.learn_with(&letters, n, max)
    }

    /// The guessed outcomes as an automaton, minimised: its states are the canonical forms
    /// (the base's element of the part not freed, and the folded copies of each freed heap),
    /// each heap moves them as it multiplies or counts, and a state accepts when the outcome
    /// search (in guess mode) finds its canonical sum a P-position. This is what L* would learn
    /// from the guessed outcomes, built directly (as MisereSolver marks the P-portion of its
    /// trial monoid and reduces it). Returns the monoid and the pretending function of heaps
    /// `0..=n`, or None when the freed heaps are too many to count in a key or make too many
    /// states.
    pub(super) fn guessed_automaton(&mut self, n: u32) -> Result<Option<(Monoid, Vec<u32>)>> {
        // Borrowed, not cloned: the base can be a refuted guess with a table of gigabytes.
        let base = self.oracle.base.as_ref().expect("a base to guess on");
        let (limit, bq, bphi) = (base.0, &base.1, &base.2);
        // The freed heaps, each with 8 bits of the state's key for its folded copies.
        let freed: Vec<(u32, u32, u32)> = (0..self.oracle.freed.len() as u32)
            .filter_map(|h| self.oracle.freed[h as usize].map(|(i, p)| (h, i, p)))
            .collect();
        if freed.len() > 16 || freed.iter().any(|&(_, i, p)| i + p > 255) {
            return Ok(None);
        }
        // The moves of the heaps: multiply by an element, or count one more copy of freed heap
        // `j`. Heaps with the same move share it.
        #[derive(Clone, Copy, PartialEq, Eq, Hash)]
        enum Move {
            Mul(u32),
            Count(usize),
        }
        let mut moves: Vec<Move> = Vec::new();
        let mut move_of = vec![usize::MAX; n as usize + 1];
        {
            let mut seen: FxMap<Move, usize> = FxMap::default();
            for h in 1..=n {
                if self.opts[h as usize].is_empty() {
                    continue;
                }
                let mv = match freed.iter().position(|f| f.0 == h) {
                    Some(j) => Move::Count(j),
                    None if h < limit => Move::Mul(bphi[h as usize]),
                    None => return Ok(None),
                };
                move_of[h as usize] = *seen.entry(mv).or_insert_with(|| {
                    moves.push(mv);
                    moves.len() - 1
                });
            }
        }
        let k = moves.len();
        // Breadth-first over the reachable states.
        let mut states: Vec<(u32, u128)> = vec![(0, 0)];
        let mut index: FxMap<(u32, u128), u32> = FxMap::default();
        index.insert((0, 0), 0);
        let mut delta: Vec<u32> = Vec::new();
        let mut pace = Pace::new(self.ctl, (n as u64, self.opts.len() as u64));
        let mut head = 0;
        while head < states.len() {
            if states.len() > MAX_GUESS_STATES {
                return Ok(None); // too many freed heaps: the exact search instead
            }
            if head == 0 || pace.tick(8 * k as u64 + 8)? {
                // As many states again must fit: the vectors and the index double.
                crate::memory::check((states.len() * (k * 4 + 48)) as u64)?;
            }
            let (x, counts) = states[head];
            for mv in &moves {
                let next = match *mv {
                    Move::Mul(g) => (bq.mul(x, g), counts),
                    Move::Count(j) => {
                        let (_, i, p) = freed[j];
                        let c = (counts >> (8 * j)) as u32 & 0xff;
                        let c2 = fold(c + 1, i, p) as u128;
                        (x, counts & !(0xff << (8 * j)) | c2 << (8 * j))
                    }
                };
                let id = *index.entry(next).or_insert_with(|| {
                    states.push(next);
                    states.len() as u32 - 1
                });
                delta.push(id);
            }
            head += 1;
        }
        drop(index);
        // The guessed outcome of each state's canonical sum.
        let mut accept = Vec::with_capacity(states.len());
        let mut sum = Vec::new();
        for &(x, counts) in &states {
            // Most sums are answered from the memo, which the search's own polls do not see.
            pace.tick(64)?;
            sum.clear();
            sum.extend_from_slice(&self.oracle.reps[x as usize]);
            for (j, &(h, _, _)) in freed.iter().enumerate() {
                let c = (counts >> (8 * j)) as usize & 0xff;
                sum.extend(std::iter::repeat_n(h, c));
            }
            sum.sort_unstable();
            accept.push(self.oracle.is_p(&sum)?);
        }
        let (class, count) = minimise(&accept, &delta, k, &mut pace)?;
        // The monoid of the minimal automaton: each class has an access word (breadth-first
        // from the empty sum), and column b of the table is column parent(b) moved by b's last
        // move.
        let m = count;
        crate::memory::check((m * m * 4 + m * k * 4) as u64)?;
        let mut rep = vec![u32::MAX; m];
        for (s, &c) in class.iter().enumerate() {
            if rep[c as usize] == u32::MAX {
                rep[c as usize] = s as u32;
            }
        }
        let dc: Vec<u32> = (0..m)
            .flat_map(|c| {
                let s = rep[c] as usize;
                delta[s * k..(s + 1) * k].iter().map(|&t| class[t as usize])
            })
            .collect();
        let mut order = vec![0usize];
        let mut parent = vec![(usize::MAX, usize::MAX); m];
        parent[0] = (0, 0);
        let mut head = 0;
        while head < order.len() {
            let c = order[head];
            for a in 0..k {
                let t = dc[c * k + a] as usize;
                if parent[t].0 == usize::MAX {
                    parent[t] = (c, a);
                    order.push(t);
                }
            }
            head += 1;
        }
        let mul = table_by_columns(m, k, &dc, &order, &parent, &mut pace)?;
        let p: Vec<bool> = (0..m).map(|c| accept[rep[c] as usize]).collect();
        let mut phi = vec![0u32; n as usize + 1];
        for h in 0..=n as usize {
            if move_of[h] != usize::MAX {
                phi[h] = dc[move_of[h]];
            }
        }
        Ok(Some((Monoid { m, mul, p }, phi)))
    }

    /// The proof of `(q, phi)` with the heaps `sizes` as its letters (see [`prove()`]).
    pub(super) fn prove_on(
        &mut self,
        q: &Monoid,
        phi: &[u32],
        sizes: &[u32],
        n: u64,
        max: u64,
    ) -> Result<Option<Failure>> {
        let letters: Vec<Letter> = sizes
            .iter()
            .map(|&h| {
                let elems = Self::option_elements(q, phi, &self.opts[h as usize]);
                letter(q, phi[h as usize], &elems)
            })
            .collect();
        let reached = &mut self.reached;
        prove(
            q,
            &letters,
            sizes,
            None,
            reached,
            self.ctl,
            n,
            max + 1,
            &mut self.stats,
        )
    }

    /// The representatives of the base's elements with the freed heaps left out.
    pub(super) fn representatives(&self) -> Vec<Vec<u32>> {
        let (_, q, phi) = self.oracle.base.as_ref().expect("a base to guess on");
        representatives(q, phi, self.opts, &self.oracle.freed)
    }

    /// After a guess failed at the sum `heaps` (whose true outcome is `truly_p`), and the base
    /// became the refuted hypothesis: frees the fewest heaps of that sum that make the guessed
    /// search agree with the truth there (trying one, two, then three heaps, larger heaps
    /// first), else all of them.
    /// A freed heap is folded at its element's index and period in the base (the period made
    /// even), the index raised to its copies in `heaps`.
    pub(super) fn refine(&mut self, heaps: &[u32], truly_p: bool) -> Result<()> {
        // Borrowed, not cloned: the base is the refuted guess, whose table can be gigabytes.
        let (_, q, phi) = self.oracle.base.as_ref().expect("a base to guess on");
        let m = q.m;
        self.oracle.freed.iter_mut().for_each(|f| *f = None);
        // Each candidate: the heap and the folding it would get.
        let mut candidates: Vec<(u32, (u32, u32))> = Vec::new();
        let mut i = 0;
        while i < heaps.len() {
            let h = heaps[i];
            let copies = heaps[i..].iter().take_while(|&&g| g == h).count() as u32;
            i += copies as usize;
            if !self.opts[h as usize].is_empty() {
                let (index, period) = q.index_period(phi[h as usize]);
                let period = if period % 2 == 1 { 2 * period } else { period };
                candidates.push((h, (index.max(copies), period)));
            }
        }
        // Largest heaps first: the newest classes are the likeliest to split (at heap 33 of
        // Dawson's Kayles this takes 55 refutations where smallest first takes 69).
        candidates.reverse();
        let ids: Vec<u32> = (0..candidates.len() as u32).collect();
        let mut chosen: Option<Vec<u32>> = None;
        let mut pace = Pace::new(self.ctl, self.oracle.at);
        'sizes: for k in 1..=candidates.len().min(3) {
            for subset in combinations(&ids, k) {
                // Each subset finds representatives anew (a search over the base's elements).
                pace.tick(64 * m as u64)?;
                for &j in &subset {
                    let (h, f) = candidates[j as usize];
                    self.oracle.freed[h as usize] = Some(f);
                }
                self.oracle.reps = self.representatives();
                self.oracle.memo = FxMap::default();
                self.oracle.open.clear();
                let agrees = match self.oracle.guessed(heaps) {
                    Ok(p) => p == truly_p,
                    Err(Error::Cycle(_)) => false,
                    Err(e) => return Err(e),
                };
                for &j in &subset {
                    self.oracle.freed[candidates[j as usize].0 as usize] = None;
                }
                if agrees {
                    chosen = Some(subset);
                    break 'sizes;
                }
            }
        }
        for j in chosen.unwrap_or(ids) {
            let (h, f) = candidates[j as usize];
            self.oracle.freed[h as usize] = Some(f);
        }
        self.oracle.reps = self.representatives();
        Ok(())
    }

    /// Learning with the heaps `pending` added as letters, on exact outcomes, until a proof
    /// passes.
    pub(super) fn learn_with(
        &mut self,
        pending: &[u32],
        n: u64,
        max: u64,
    ) -> Result<(Monoid, Vec<u32>)> {
        for &h in pending {
            self.learner
                .add_letter(h, &mut self.oracle, &mut self.stats)?;
        }
        loop {
            self.learner
                .close(&mut self.oracle, &mut self.stats, self.ctl, n, max + 1)?;
            let hyp = self.learner.hypothesis();
            let m = self.learner.access.len();
            if m > self.max_order {
                return Err(self.over_order(n, m, true));
            }
            let k = hyp.k;
            let mut pace = Pace::new(self.ctl, (n, max + 1));
            // Commutativity: a counterexample is whichever order the hypothesis gets wrong.
            let mut cex: Option<Vec<usize>> = None;
            'comm: for s in 0..m {
                pace.tick((k * k) as u64 + 1)?;
                for a in 0..k {
                    for b in a + 1..k {
                        let ab = hyp.run(s as u32, &[a, b]);
                        let ba = hyp.run(s as u32, &[b, a]);
                        if ab != ba {
                            cex = Some(self.order_counterexample(&hyp, s, a, b)?);
                            break 'comm;
                        }
                    }
                }
            }
            if let Some(w) = cex {
                self.learner
                    .counterexample(&w, &hyp, &mut self.oracle, &mut self.stats)?;
                continue;
            }
            // The monoid: q·r = the state reached from q along r's access word.
            let letter_of: FxMap<u32, usize> = self
                .learner
                .letters
                .iter()
                .enumerate()
                .map(|(i, &h)| (h, i))
                .collect();
            // Each access word but the empty one is an earlier access word and one letter (as
            // `close` builds them, so in index order).
            let position: FxMap<&[u32], usize> = self
                .learner
                .access
                .iter()
                .enumerate()
                .map(|(i, w)| (&w[..], i))
                .collect();
            let parent: Vec<(usize, usize)> = self
                .learner
                .access
                .iter()
                .map(|w| match w.split_last() {
                    Some((last, init)) => (position[init], letter_of[last]),
                    None => (0, 0),
                })
                .collect();
            crate::memory::check((m * m * 4) as u64)?;
            let order: Vec<usize> = (0..m).collect();
            let mul = table_by_columns(m, k, &hyp.delta, &order, &parent, &mut pace)?;
            let q = Monoid {
                m,
                mul,
                p: hyp.accept.clone(),
            };
            let mut phi = vec![0u32; n as usize + 1];
            for (i, &h) in self.learner.letters.iter().enumerate() {
                phi[h as usize] = hyp.delta[i];
            }
            let sizes: Vec<u32> = self.learner.letters.clone();
            match self.prove_on(&q, &phi, &sizes, n, max)? {
                None => {
                    self.oracle.below = None;
                    return Ok((q, phi));
                }
                Some(f) => {
                    let heaps = sorted(
                        &f.word
                            .iter()
                            .map(|&i| self.learner.letters[i])
                            .collect::<Vec<_>>(),
                    );
                    self.oracle.memo.insert(heaps.into(), f.truly_p);
                    if self.oracle.below.as_ref().is_none_or(|b| b.0 < f.size) {
                        self.oracle.below = Some((f.size, q, phi));
                    }
                    // Largest heaps first: the suffix that becomes a test then holds small heaps.
                    let mut word = f.word;
                    let letters = &self.learner.letters;
                    word.sort_unstable_by_key(|&i| std::cmp::Reverse(letters[i]));
                    self.learner
                        .counterexample(&word, &hyp, &mut self.oracle, &mut self.stats)?;
                }
            }
        }
    }

    /// The error of a build stopped at heap `n` by a quotient of `m` elements, more than
    /// `max_order`: a hypothesis of the learner (`proven`: its elements are told apart by
    /// sums, so the quotient has at least `m`) or a guess (which may be larger than the truth).
    pub(super) fn over_order(&self, n: u64, m: usize, proven: bool) -> Error {
        let max = self.max_order;
        let message = if proven {
            format!(
                "the misère quotient of heaps up to {n} has more than max_order = {max} \
                 elements ({m} sums, no two alike, are found)"
            )
        } else {
            format!(
                "a trial quotient for heaps up to {n} has {m} elements, more than max_order = \
                 {max} (a guess: the true quotient may be smaller)"
            )
        };
        Error::SearchLimit {
            message,
            limit: max as u64,
        }
    }

    /// `s + a + b` and `s + b + a` reach different states; the true outcome of the sum after
    /// a test that separates them shows which order is wrong.
    pub(super) fn order_counterexample(
        &mut self,
        hyp: &Hypothesis,
        s: usize,
        a: usize,
        b: usize,
    ) -> Result<Vec<usize>> {
        let l = &self.learner;
        let letter_of: FxMap<u32, usize> =
            l.letters.iter().enumerate().map(|(i, &h)| (h, i)).collect();
        let r1 = hyp.run(s as u32, &[a, b]) as usize;
        let r2 = hyp.run(s as u32, &[b, a]) as usize;
        let col = (0..l.tests.len())
            .find(|&i| bit(&l.rows[r1], i) != bit(&l.rows[r2], i))
            .expect("states have different rows");
        let base: Vec<usize> = l.access[s].iter().map(|h| letter_of[h]).collect();
        let test: Vec<usize> = l.tests[col].iter().map(|h| letter_of[h]).collect();
        let mut w1 = base.clone();
        w1.extend([a, b]);
        w1.extend(&test);
        let mut w2 = base;
        w2.extend([b, a]);
        w2.extend(&test);
        let truth = {
            let mut heaps: Vec<u32> = w1.iter().map(|&i| l.letters[i]).collect();
            heaps.sort_unstable();
            self.stats.queries += 1;
            self.oracle.is_p(&heaps)?
        };
        let h1 = hyp.accept[hyp.run(0, &w1) as usize];
        Ok(if h1 != truth { w1 } else { w2 })
    }
}
