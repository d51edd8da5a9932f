//! Why the sparse engine loads a batch of values before it stores their flags: the store
//! pattern of its first part (a rare heap's value against a run of heaps, one flag byte per
//! value and heap), timed in three shapes on random 16-bit values.
//!
//! ```text
//! cargo bench --bench flag_stores [HEAPS_PER_RUN]
//! ```
//!
//! Prints nanoseconds per pair for: each run on its own (load, XOR, store, the plain loop);
//! four runs walking the heaps together (a load and a store per pair, alternating); and four
//! runs by four heaps per batch, four values per 8-byte load, every load of a batch before its
//! 16 stores (`scatter_runs16` in `src/engine/blocks.rs`).

use std::hint::black_box;
use std::time::Instant;

const STRIDE: usize = 256;
const RUNS: usize = 1276;

fn main() {
    let len: usize = std::env::args()
        .nth(1)
        .map_or(44, |s| s.parse().expect("HEAPS_PER_RUN: a number"));
    // A xorshift generator: values below 256 (XORs stay below the stride).
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let g: Vec<u16> = (0..100_000).map(|_| (next() & 255) as u16).collect();
    let runs: Vec<(u32, usize)> = (0..RUNS)
        .map(|_| {
            (
                (next() & 255) as u32,
                (next() % (g.len() - len) as u64) as usize,
            )
        })
        .collect();
    let mut flags = vec![0u8; len * STRIDE];
    let reps = (400_000_000 / (len * RUNS)).max(1);
    let pairs = (reps * len * RUNS) as f64;
    println!("{RUNS} runs of {len} heaps, {reps} times");
    for (name, f) in [
        (
            "one run at a time",
            plain as fn(&[u16], &[(u32, usize)], usize, &mut [u8]),
        ),
        ("four runs together", four_runs),
        ("batches: loads, then stores", batched),
    ] {
        let t = Instant::now();
        for _ in 0..reps {
            f(&g, &runs, len, &mut flags);
        }
        black_box(&flags);
        println!(
            "{name:>28}: {:.3} ns/pair",
            t.elapsed().as_secs_f64() / pairs * 1e9
        );
    }
}

// The loops index without bounds checks, as the engine does (every XOR is below the stride);
// the asserts check the ranges once per call.

fn plain(g: &[u16], runs: &[(u32, usize)], len: usize, flags: &mut [u8]) {
    assert!(len * STRIDE <= flags.len());
    let base = flags.as_mut_ptr();
    for &(gr, start) in runs {
        for (k, &v) in g[start..start + len].iter().enumerate() {
            // SAFETY: k < len and the XOR of two values below 256 is below STRIDE.
            unsafe { *base.add(k * STRIDE + (u32::from(v) ^ gr) as usize) = 1 };
        }
    }
}

fn four_runs(g: &[u16], runs: &[(u32, usize)], len: usize, flags: &mut [u8]) {
    assert!(len * STRIDE <= flags.len());
    let base = flags.as_mut_ptr();
    for q in runs.chunks_exact(4) {
        let src = [q[0], q[1], q[2], q[3]].map(|(gr, start)| (gr, &g[start..start + len]));
        for k in 0..len {
            for (gr, s) in src {
                // SAFETY: as above (k < len = s.len()).
                unsafe {
                    let x = u32::from(*s.get_unchecked(k)) ^ gr;
                    *base.add(k * STRIDE + x as usize) = 1;
                }
            }
        }
    }
}

fn batched(g: &[u16], runs: &[(u32, usize)], len: usize, flags: &mut [u8]) {
    const SPLAT: u64 = 0x0001_0001_0001_0001;
    assert!(len * STRIDE <= flags.len());
    let base = flags.as_mut_ptr();
    for q in runs.chunks_exact(4) {
        let src = [q[0], q[1], q[2], q[3]].map(|(_, start)| &g[start..start + len]);
        let gx = [q[0], q[1], q[2], q[3]].map(|(gr, _)| u64::from(gr) * SPLAT);
        for k in (0..len / 4 * 4).step_by(4) {
            // SAFETY: k + 4 <= len; unaligned 8-byte reads of four values.
            let v = [0, 1, 2, 3].map(|t| unsafe {
                u64::from_le(std::ptr::read_unaligned(
                    src[t].as_ptr().add(k) as *const u64
                )) ^ gx[t]
            });
            for h in 0..4 {
                for w in v {
                    // SAFETY: as above.
                    unsafe { *base.add((k + h) * STRIDE + (w >> (16 * h)) as u16 as usize) = 1 };
                }
            }
        }
    }
}
