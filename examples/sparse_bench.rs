//! Benchmark of the sparse engine ([`TakeAndBreakSparse`]).
//!
//! ```text
//! cargo run --release --example sparse_bench                   # the standard cases
//! cargo run --release --example sparse_bench -- --quick        # the same, 16 times smaller
//! cargo run --release --example sparse_bench -- 4!.0 1000000 1 2   # one case: CODE N [THREADS...]
//! ```
//!
//! Each case prints the wall time and values per second with 1 and 2 threads, and their ratio;
//! then the exact engine on smaller sizes for comparison. Timings on a shared machine vary with
//! its load, printed first and last. The environment variables `SPARSE_BLOCK`, `SPARSE_WORK`,
//! `SPARSE_CHUNK`, `SPARSE_SUB`, `SPARSE_PREFIX`, `SPARSE_SIMD` (0/1) override
//! [`SparseOptions`] for tuning; `SPARSE_STATS=1` prints the work counters.

use grundy::engine::{NoControl, Sequence, SparseOptions, TakeAndBreakExact, TakeAndBreakSparse};
use grundy::rules::TakeAndBreak;
use std::time::Instant;

fn options() -> SparseOptions {
    let mut o = SparseOptions::default();
    let env = |k: &str| std::env::var(k).ok().map(|v| v.parse::<usize>().unwrap());
    if let Some(v) = env("SPARSE_BLOCK") {
        o.block = v;
    }
    if let Some(v) = env("SPARSE_WORK") {
        o.block_work = v as u64;
    }
    if let Some(v) = env("SPARSE_CHUNK") {
        o.chunk = v;
    }
    if let Some(v) = env("SPARSE_SUB") {
        o.sub_block = v;
    }
    if let Some(v) = env("SPARSE_PREFIX") {
        o.prefix = v;
    }
    if let Some(v) = env("SPARSE_SIMD") {
        o.simd = v != 0;
    }
    o
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

/// Runs the sparse engine on `code` up to `n` with `threads` threads: seconds, and a summary.
fn sparse(code: &str, n: u64, threads: usize) -> (f64, String) {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let rule = TakeAndBreak::parse(code).unwrap();
    let t = Instant::now();
    let s = pool.install(|| {
        let mut s = Sequence::new(TakeAndBreakSparse::with_options(rule, options()).unwrap());
        s.extend(n, &NoControl).unwrap();
        s
    });
    let dt = t.elapsed().as_secs_f64();
    let e = s.step();
    let mut info = format!(
        "largest value {}, {} rare heaps (last {:?}), mask {:#x}{}{}",
        s.values().max(n as usize),
        e.rare_count(),
        e.last_rare(),
        e.mask().map_or(0, |m| m.mask),
        if e.mask().is_some_and(|m| m.parity) {
            " with parity"
        } else {
            ""
        },
        if e.is_dense() { ", full search" } else { "" }
    );
    if std::env::var("SPARSE_STATS").is_ok_and(|v| v == "1") {
        info += &format!("\n    {:?}", e.stats());
    }
    (dt, info)
}

fn exact(code: &str, n: u64) -> f64 {
    let rule = TakeAndBreak::parse(code).unwrap();
    let t = Instant::now();
    let mut s = Sequence::new(TakeAndBreakExact::new(rule));
    s.extend(n, &NoControl).unwrap();
    t.elapsed().as_secs_f64()
}

fn case(code: &str, n: u64, threads: &[usize]) {
    let mut first = None;
    for &k in threads {
        let (dt, info) = sparse(code, n, k);
        let ratio = first.map_or(String::new(), |t1: f64| {
            format!(", {:.2}x the 1-thread speed", t1 / dt)
        });
        println!(
            "sparse {code:>6} to {n:>9}, {k} thread(s): {dt:8.3} s, {:9.3e} values/s{ratio}",
            n as f64 / dt
        );
        if first.is_none() {
            println!("    {info}");
            first = Some(dt);
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--quick");
    if !args.is_empty() && !quick {
        let n: u64 = args.get(1).map_or(1 << 20, |s| s.parse().unwrap());
        let threads: Vec<usize> = if args.len() > 2 {
            args[2..].iter().map(|s| s.parse().unwrap()).collect()
        } else {
            vec![1, 2]
        };
        case(&args[0], n, &threads);
        return;
    }
    let scale = if quick { 16 } else { 1 };
    println!(
        "{} CPUs, load average {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        load()
    );
    case("4!.0", (1 << 24) / scale, &[1, 2]);
    case("0.16", 300_000, &[1, 2]);
    case("0.354", 20_000_000 / scale, &[1, 2]);
    case("0.77", 100_000_000 / scale, &[1, 2]);
    for (code, n) in [("4!.0", 100_000), ("0.16", 100_000), ("0.354", 100_000)] {
        let dt = exact(code, n);
        let (ds, _) = sparse(code, n, 2);
        println!(
            "exact  {code:>6} to {n:>9}, 2 threads: {dt:8.3} s, {:9.3e} values/s; sparse: {ds:.3} s, {:.0}x faster",
            n as f64 / dt,
            dt / ds
        );
    }
    println!("load average {}", load());
}
