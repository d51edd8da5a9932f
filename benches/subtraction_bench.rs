//! Benchmark of the finite subtraction set kernels against the old one-heap-at-a-time path.
//!
//! ```text
//! cargo bench --bench subtraction_bench              # the standard cases
//! cargo bench --bench subtraction_bench -- --quick   # the same, 16 times smaller
//! cargo bench --bench subtraction_bench -- 1..=250/3 1000000   # one case: A..=B/STEP N
//! cargo bench --bench subtraction_bench -- 2000r20000 1000000  # K random of 1..=M, N
//! ```
//!
//! Each case prints the old path (one thread: it cannot use more), then the new engine with 1 and
//! 2 threads, values per second, the ratio of 2 to 1 threads and the speed-up over the old path;
//! the new values are checked against the old ones. `SUB_KERNEL=ring|gather|block` forces one
//! kernel (default: chosen automatically). Timings on a shared machine vary with its load,
//! printed first and last.

use grundy::control::NoControl;
use grundy::engine::{FiniteKernel, Sequence, SubtractionExact, Values};
use grundy::rules::Subtraction;
use std::time::Instant;

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

fn kernel() -> FiniteKernel {
    match std::env::var("SUB_KERNEL").as_deref() {
        Ok("ring") => FiniteKernel::Ring,
        Ok("gather") => FiniteKernel::Gather,
        Ok("block") => FiniteKernel::Block,
        _ => FiniteKernel::Auto,
    }
}

/// Runs `step` to `n` with `threads` threads: seconds and the values.
fn run(step: SubtractionExact, n: u64, threads: usize) -> (f64, Values) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let t = Instant::now();
    let s = pool.install(|| {
        let mut s = Sequence::new(step);
        s.extend(n, &NoControl).unwrap();
        s
    });
    (t.elapsed().as_secs_f64(), s.values().clone())
}

fn case(name: &str, set: Vec<u64>, n: u64) {
    let rule = Subtraction::finite(set).unwrap();
    let (old, want) = run(SubtractionExact::reference_finite(rule.clone()), n, 1);
    println!("{name} to {n}, largest value {}", want.max(n as usize));
    println!(
        "    old path, 1 thread:   {old:8.3} s, {:9.3e} values/s",
        n as f64 / old
    );
    let mut one = 0.0;
    for threads in [1, 2] {
        let (dt, got) = run(
            SubtractionExact::with_kernel(rule.clone(), kernel()),
            n,
            threads,
        );
        assert!(got == want, "the new engine disagrees with the old path");
        let ratio = if threads == 1 {
            one = dt;
            String::new()
        } else {
            format!(", {:.2}x the 1-thread speed", one / dt)
        };
        println!(
            "    new, {threads} thread(s):     {dt:8.3} s, {:9.3e} values/s, {:6.1}x the old path{ratio}",
            n as f64 / dt,
            old / dt
        );
    }
}

/// `k` distinct members of 1..=max, seeded (splitmix64), sorted.
fn random_subset(k: usize, max: u64, seed: u64) -> Vec<u64> {
    let mut x = seed;
    let mut next = move || {
        x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = x;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut set = std::collections::BTreeSet::new();
    while set.len() < k {
        set.insert(1 + next() % max);
    }
    set.into_iter().collect()
}

/// A set written `A..=B/STEP` (step optional) or `KrM` (K random members of 1..=M).
fn parse_set(spec: &str) -> Vec<u64> {
    if let Some((k, m)) = spec.split_once('r') {
        return random_subset(k.parse().unwrap(), m.parse().unwrap(), 1);
    }
    let (range, step) = spec.split_once('/').unwrap_or((spec, "1"));
    let (a, b) = range.split_once("..=").expect("A..=B/STEP or KrM");
    (a.parse().unwrap()..=b.parse().unwrap())
        .step_by(step.parse().unwrap())
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() == 2 {
        case(&args[0], parse_set(&args[0]), args[1].parse().unwrap());
        return;
    }
    let quick = args.iter().any(|a| a == "--quick");
    let scale = if quick { 16 } else { 1 };
    println!(
        "{} CPUs, load average {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        load()
    );
    case("S = {1..50}", (1..=50).collect(), 100_000_000 / scale);
    case(
        "S = {3, 6, .., 3000} (1000 members)",
        (3..=3000).step_by(3).collect(),
        10_000_000 / scale,
    );
    case(
        "S = 2000 random members of 1..20000 (seed 1)",
        random_subset(2000, 20_000, 1),
        1_000_000 / scale,
    );
    println!("load average {}", load());
}
