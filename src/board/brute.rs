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

/// Checks [`Board::value_of_size`](super::Board::value_of_size) against the brute force: on
/// every component of the positions `positions`, where it answers, the answer is the
/// component's value by `options`. The number of components it answered for.
pub fn check_value_of_size<B: super::Board>(
    board: &B,
    positions: impl IntoIterator<Item = u128>,
    options: impl Fn(u128) -> Vec<u128>,
) -> usize {
    let mut checked = 0;
    let mut parts = Vec::new();
    for pos in positions {
        parts.clear();
        board.components(pos, &mut parts);
        for &c in &parts {
            if let Some(v) = board.value_of_size(board.size(c)) {
                assert_eq!(values(c, &options)[&c], v, "component {c:#x} of {pos:#x}");
                checked += 1;
            }
        }
    }
    checked
}
