//! The tests' reference: the plain memoised mex over whole positions (no components, no
//! symmetry, no pruning), from options written independently of the games' own code.

use std::collections::HashMap;

/// G of every position reachable from `start`, by the options `options` gives.
pub fn values(start: u128, options: impl Fn(u128) -> Vec<u128>) -> HashMap<u128, u32> {
    let mut memo = HashMap::new();
    // Iterative depth-first search: a position is settled once its options are.
    let mut stack = vec![(start, false)];
    while let Some((pos, expanded)) = stack.pop() {
        if memo.contains_key(&pos) {
            continue;
        }
        let opts = options(pos);
        if expanded {
            let mut seen = vec![false; opts.len() + 1];
            for o in &opts {
                let v = memo[o] as usize;
                if v < seen.len() {
                    seen[v] = true;
                }
            }
            let mex = seen.iter().position(|&s| !s).unwrap() as u32;
            memo.insert(pos, mex);
        } else {
            stack.push((pos, true));
            for o in opts {
                if !memo.contains_key(&o) {
                    stack.push((o, false));
                }
            }
        }
    }
    memo
}
