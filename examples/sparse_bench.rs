//! Benchmark of the sparse engine: `cargo run --release --example sparse_bench -- [CODE N]...`
use grundy::engine::{NoControl, Sequence, SparseOptions, TakeAndBreakSparse};
use grundy::rules::TakeAndBreak;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = args.first().map_or("4!.0", |s| s.as_str());
    let n: u64 = args.get(1).map_or(1 << 20, |s| s.parse().unwrap());
    let threads: usize = args.get(2).map_or(2, |s| s.parse().unwrap());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let rule = TakeAndBreak::parse(code).unwrap();
    let t = Instant::now();
    let s = pool.install(|| {
        let mut o = SparseOptions::default();
        let env = |k: &str| std::env::var(k).ok().map(|v| v.parse::<usize>().unwrap());
        if let Some(v) = env("SPARSE_PREFIX") {
            o.prefix = v;
        }
        if let Some(v) = env("SPARSE_BLOCK") {
            o.block = v;
        }
        if let Some(v) = env("SPARSE_LOOKAHEAD") {
            o.lookahead = v as u32;
        }
        if let Some(v) = env("SPARSE_SIMD") {
            o.simd = v != 0;
        }
        let mut s = Sequence::new(TakeAndBreakSparse::with_options(rule, o).unwrap());
        s.extend(n, &NoControl).unwrap();
        s
    });
    let dt = t.elapsed().as_secs_f64();
    let st = s.step().stats();
    println!(
        "{code} n={n} threads={threads}: {dt:.3}s {:.2e} values/s rare={} last={:?} max={} mask={:?} stats={st:?}",
        n as f64 / dt,
        s.step().rare_count(),
        s.step().last_rare(),
        s.values().max(n as usize),
        s.step().mask()
    );
}
