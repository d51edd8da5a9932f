//! Nim-sums: the Grundy value of a sum of games is the XOR of its components' values.
//!
//! ```
//! assert_eq!(grundy::nim::nim_sum(&[10, 12, 5]), 3);
//! ```

use rayon::prelude::*;

/// XOR of every heap (parallel for long inputs).
pub fn nim_sum(heaps: &[u64]) -> u64 {
    if heaps.len() < 1 << 16 {
        heaps.iter().fold(0, |a, b| a ^ b)
    } else {
        heaps
            .par_chunks(1 << 14)
            .map(|c| c.iter().fold(0, |a, b| a ^ b))
            .reduce(|| 0, |a, b| a ^ b)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn worked_example_and_long_input() {
        assert_eq!(super::nim_sum(&[10, 12, 5]), 3);
        assert_eq!(super::nim_sum(&[]), 0);
        let v: Vec<u64> = (0..200_000u64).map(|i| i * 1_000_000_007_000).collect();
        assert_eq!(super::nim_sum(&v), v.iter().fold(0, |a, b| a ^ b));
    }
}
