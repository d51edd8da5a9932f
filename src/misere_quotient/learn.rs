//! Angluin-style learning of the quotient's automaton from outcomes: the observation table
//! and its hypotheses.

use super::*;

/// A bit row over the test columns.
pub(super) type Row = Vec<u64>;

pub(super) fn push_bit(row: &mut Row, i: usize, b: bool) {
    if i % 64 == 0 {
        row.push(0);
    }
    if b {
        row[i / 64] |= 1 << (i % 64);
    }
}

pub(super) fn bit(row: &[u64], i: usize) -> bool {
    row[i / 64] >> (i % 64) & 1 == 1
}

/// Angluin's observation table. States are access words with pairwise different rows;
/// `ext[s][a]` is the row of `s + letters[a]`.
pub(super) struct Learner {
    pub(super) letters: Vec<u32>,
    pub(super) access: Vec<Vec<u32>>,
    pub(super) tests: Vec<Vec<u32>>,
    pub(super) rows: Vec<Row>,
    pub(super) ext: Vec<Vec<Row>>,
    pub(super) index: FxMap<Row, usize>,
}

/// A learned automaton: `delta[s * k + a]`, accepting states, letters.
pub(super) struct Hypothesis {
    pub(super) delta: Vec<u32>,
    pub(super) accept: Vec<bool>,
    pub(super) k: usize,
}

impl Hypothesis {
    pub(super) fn run(&self, mut q: u32, word: &[usize]) -> u32 {
        for &a in word {
            q = self.delta[q as usize * self.k + a];
        }
        q
    }
}

impl Learner {
    pub(super) fn new() -> Self {
        Learner {
            letters: Vec::new(),
            access: vec![Vec::new()],
            tests: vec![Vec::new()],
            rows: vec![vec![0]], // the empty sum is N
            ext: vec![Vec::new()],
            index: [(vec![0], 0)].into_iter().collect(),
        }
    }

    pub(super) fn row(&self, oracle: &mut Oracle, word: &[u32], stats: &mut Stats) -> Result<Row> {
        let mut row = Row::new();
        let mut w = Vec::new();
        for (i, t) in self.tests.iter().enumerate() {
            w.clear();
            w.extend_from_slice(word);
            w.extend_from_slice(t);
            w.sort_unstable();
            stats.queries += 1;
            push_bit(&mut row, i, oracle.is_p(&w)?);
        }
        Ok(row)
    }

    pub(super) fn add_letter(
        &mut self,
        h: u32,
        oracle: &mut Oracle,
        stats: &mut Stats,
    ) -> Result<()> {
        self.letters.push(h);
        for s in 0..self.access.len() {
            let mut w = self.access[s].clone();
            w.push(h);
            let r = self.row(oracle, &w, stats)?;
            self.ext[s].push(r);
        }
        Ok(())
    }

    pub(super) fn add_test(
        &mut self,
        t: Vec<u32>,
        oracle: &mut Oracle,
        stats: &mut Stats,
    ) -> Result<()> {
        let i = self.tests.len();
        self.tests.push(t.clone());
        let mut buf: Vec<u32> = Vec::new();
        let mut query = |word: &[u32]| -> Result<bool> {
            let w = &mut buf;
            w.clear();
            w.extend_from_slice(word);
            w.extend_from_slice(&t);
            w.sort_unstable();
            stats.queries += 1;
            oracle.is_p(w)
        };
        for s in 0..self.access.len() {
            let b = query(&self.access[s])?;
            push_bit(&mut self.rows[s], i, b);
            let mut w = self.access[s].clone();
            w.push(0);
            for (a, &h) in self.letters.iter().enumerate() {
                *w.last_mut().expect("the letter's place") = h;
                let b = query(&w)?;
                push_bit(&mut self.ext[s][a], i, b);
            }
        }
        // Rows that differed still differ.
        self.index = self.rows.iter().cloned().zip(0..).collect();
        Ok(())
    }

    /// Adds states until every `s + a` has the row of some state.
    pub(super) fn close(
        &mut self,
        oracle: &mut Oracle,
        stats: &mut Stats,
        ctl: &dyn Control,
        heap: u64,
        max: u64,
    ) -> Result<()> {
        let mut s = 0;
        while s < self.access.len() {
            for a in 0..self.letters.len() {
                if !self.index.contains_key(&self.ext[s][a]) {
                    ctl.check(heap, max)?;
                    let mut w = self.access[s].clone();
                    w.push(self.letters[a]);
                    let row = self.ext[s][a].clone();
                    let id = self.access.len();
                    self.index.insert(row.clone(), id);
                    self.rows.push(row);
                    let mut ext = Vec::with_capacity(self.letters.len());
                    for &h in &self.letters {
                        let mut v = w.clone();
                        v.push(h);
                        ext.push(self.row(oracle, &v, stats)?);
                    }
                    self.access.push(w);
                    self.ext.push(ext);
                }
            }
            s += 1;
        }
        Ok(())
    }

    pub(super) fn hypothesis(&self) -> Hypothesis {
        let k = self.letters.len();
        let mut delta = Vec::with_capacity(self.access.len() * k);
        for s in 0..self.access.len() {
            for a in 0..k {
                delta.push(self.index[&self.ext[s][a]] as u32);
            }
        }
        Hypothesis {
            delta,
            accept: self.rows.iter().map(|r| bit(r, 0)).collect(),
            k,
        }
    }

    /// Rivest and Schapire: `word` (letter indices) is misclassified; find a split point where
    /// the answer changes and add the suffix after it as a test.
    pub(super) fn counterexample(
        &mut self,
        word: &[usize],
        hyp: &Hypothesis,
        oracle: &mut Oracle,
        stats: &mut Stats,
    ) -> Result<()> {
        stats.counterexamples += 1;
        let letters = self.letters.clone();
        let mut alpha = |i: usize| -> Result<bool> {
            let q = hyp.run(0, &word[..i]);
            let mut w = self.access[q as usize].clone();
            w.extend(word[i..].iter().map(|&a| letters[a]));
            w.sort_unstable();
            stats.queries += 1;
            oracle.is_p(&w)
        };
        // The last split point, found from the end: it gives the shortest suffix, so the new test
        // (asked with every state and letter) is as small a sum as this counterexample allows.
        // alpha(len) is the hypothesis' answer and alpha(0) the truth, which differ.
        let mut next = hyp.accept[hyp.run(0, word) as usize];
        let mut hi = word.len();
        for i in (0..word.len()).rev() {
            let a = alpha(i)?;
            if a != next {
                hi = i + 1;
                break;
            }
            next = a;
        }
        let suffix: Vec<u32> = word[hi..].iter().map(|&a| letters[a]).collect();
        self.add_test(suffix, oracle, stats)
    }
}
