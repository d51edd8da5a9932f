//! The reference engine: every move of every heap enumerated literally, values by mex over a hash
//! set. Slow on purpose (O(n^3) for octal games); the faster engines are tested against it.

use crate::rules::{Subtraction, TakeAndBreak};
use std::collections::HashSet;

fn mex(set: &HashSet<u32>) -> u32 {
    (0..).find(|v| !set.contains(v)).unwrap()
}

/// Every way to write `s` as `k` non-decreasing positive parts (strictly increasing if `unequal`),
/// passed to `f`.
pub fn for_each_split(s: u64, k: u32, unequal: bool, f: &mut dyn FnMut(&[u64])) {
    fn rec(
        rest: u64,
        k: u32,
        min: u64,
        unequal: bool,
        parts: &mut Vec<u64>,
        f: &mut dyn FnMut(&[u64]),
    ) {
        if k == 0 {
            if rest == 0 {
                f(parts);
            }
            return;
        }
        let mut a = min;
        while a * k as u64 <= rest {
            parts.push(a);
            rec(
                rest - a,
                k - 1,
                if unequal { a + 1 } else { a },
                unequal,
                parts,
                f,
            );
            parts.pop();
            a += 1;
        }
    }
    rec(s, k, 1, unequal, &mut Vec::new(), f)
}

/// G(0..n) of a take-and-break game.
pub fn take_and_break(rule: &TakeAndBreak, n: u64) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::new();
    for h in 0..n {
        let mut opts = HashSet::new();
        for j in 0..=h {
            let d = rule.digit(j);
            for k in 0..=3 {
                if d.allows(k) {
                    for_each_split(h - j, k, d.unequal, &mut |parts| {
                        opts.insert(parts.iter().fold(0, |x, &p| x ^ g[p as usize]));
                    });
                }
            }
        }
        g.push(mex(&opts));
    }
    g
}

/// G(0..n) of a subtraction game.
pub fn subtraction(rule: &Subtraction, n: u64) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::new();
    for h in 0..n {
        let opts: HashSet<u32> = (1..=h)
            .filter(|&k| rule.allows(h, k))
            .map(|k| g[(h - k) as usize])
            .collect();
        g.push(mex(&opts));
    }
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits() {
        let mut seen = Vec::new();
        for_each_split(6, 3, false, &mut |p| seen.push(p.to_vec()));
        assert_eq!(seen, vec![vec![1, 1, 4], vec![1, 2, 3], vec![2, 2, 2]]);
        seen.clear();
        for_each_split(6, 3, true, &mut |p| seen.push(p.to_vec()));
        assert_eq!(seen, vec![vec![1, 2, 3]]);
        seen.clear();
        for_each_split(0, 0, false, &mut |p| seen.push(p.to_vec()));
        assert_eq!(seen, vec![Vec::<u64>::new()]);
    }

    #[test]
    fn published_worked_examples() {
        let grundy = take_and_break(&TakeAndBreak::parse("4!.0").unwrap(), 9);
        assert_eq!(&grundy[1..], &[0, 0, 1, 0, 2, 1, 0, 2]);
        let sq = subtraction(&Subtraction::Squares, 7);
        assert_eq!(sq, vec![0, 1, 0, 1, 2, 0, 1]);
    }
}
