//! Benchmark of the sparse engine ([`TakeAndBreakSparse`]).
//!
//! ```text
//! cargo bench --bench sparse_bench                   # the standard cases
//! cargo bench --bench sparse_bench -- --quick        # the same, 16 times smaller
//! cargo bench --bench sparse_bench -- 4!.0 1000000 1 2   # one case: CODE N [THREADS...]
//! cargo bench --bench sparse_bench -- --stages 0.1777 proven 536870912 1   # JSON stages
//! ```
//!
//! Each case prints the wall time, values per second and nanoseconds per value with 1 and 2
//! threads, and their ratio; from the one-thread run's per-stage times, a scaling model (see
//! `Model`) and what it predicts for 2, 4, 8 and 16 threads, checked against the other runs;
//! then the exact engine on smaller sizes for comparison. Timings on a shared machine vary with
//! its load, printed first and last. The environment variables `SPARSE_BLOCK`, `SPARSE_WORK`,
//! `SPARSE_CHUNK`, `SPARSE_SUB`, `SPARSE_PREFIX`, `SPARSE_SHARE`, `SPARSE_AHEAD`,
//! `SPARSE_AHEAD_AUTO` (0/1), `SPARSE_SIMD` (0/1), `SPARSE_WINDOW` override [`SparseOptions`] for tuning;
//! `SPARSE_STATS=1` prints the work counters.

use grundy::control::NoControl;
use grundy::engine::{Sequence, SparseOptions, SparseStats, TakeAndBreakExact, TakeAndBreakSparse};
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
    if let Some(v) = env("SPARSE_SHARE") {
        o.producer_share = v;
    }
    if let Some(v) = env("SPARSE_AHEAD") {
        o.ahead = v;
    }
    if let Some(v) = env("SPARSE_AHEAD_AUTO") {
        o.ahead_auto = v != 0;
    }
    if let Some(v) = env("SPARSE_SIMD") {
        o.simd = v != 0;
    }
    if let Some(v) = env("SPARSE_WINDOW") {
        o.window = v;
    }
    o
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

/// Runs the sparse engine on `code` up to `n` with `threads` threads: seconds, a summary, and
/// the work counters.
fn sparse(code: &str, n: u64, threads: usize) -> (f64, String, SparseStats) {
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
    (dt, info, e.stats())
}

/// The scaling model, from the per-stage wall times of a one-thread run (`wall` seconds): the
/// first part of each block `F`, the sequential part `S`, the confirmations `C` (done by the
/// other threads while `S` runs, then by all), and the rest `O` (between blocks: serial). Of
/// `S`, the part `A` flagged ahead (measured when the run forces it on, `SPARSE_AHEAD_AUTO=0`;
/// else 0) goes to the other threads with `C`; the rest stays on one thread. With more than one
/// thread the first part overlaps the sequential part (`SparseStats::overlapped`: every thread
/// takes its tasks, the sequential part starting on each sub-block once its rows are done), so
/// with `k` threads a run takes `T(k) = O + max(S - A, (F + S + C)/k) + blocks * sync`; the
/// one-thread run has no `sync`. (Before the overlap it was `O + F/k + max(S - A, (S + C)/k)`.)
struct Model {
    o: f64,
    f: f64,
    s: f64,
    a: f64,
    c: f64,
    blocks: f64,
}

impl Model {
    fn new(wall: f64, st: &SparseStats) -> Model {
        let (f, s) = (st.first_ns as f64 * 1e-9, st.sequential_ns as f64 * 1e-9);
        let c = (st.parallel_ns - st.first_ns) as f64 * 1e-9;
        Model {
            o: (wall - f - s - c).max(0.0),
            f,
            s,
            a: (st.ahead_ns as f64 * 1e-9).min(s),
            c,
            blocks: st.blocks as f64,
        }
    }

    /// Predicted seconds with `k` threads, leaving out the synchronisation.
    fn predict(&self, k: usize) -> f64 {
        let k = k as f64;
        self.o + (self.s - self.a).max((self.f + self.s + self.c) / k)
    }

    fn describe(&self, n: u64) -> String {
        let ns = |x: f64| x * 1e9 / n as f64;
        let total = self.o + self.f + self.s + self.c;
        let speedups: Vec<String> = [2, 4, 8, 16]
            .iter()
            .map(|&k| format!("{k}: {:.2}x", total / self.predict(k)))
            .collect();
        format!(
            "stages per value: first part {:.1} ns, sequential {:.1} ns (flagged ahead {:.1} ns), \
             confirmations {:.1} ns, between blocks {:.1} ns; {} blocks; serial fraction {:.3}; \
             model speedups (no sync) {}",
            ns(self.f),
            ns(self.s),
            ns(self.a),
            ns(self.c),
            ns(self.o),
            self.blocks,
            (self.o + self.s - self.a) / total,
            speedups.join(", ")
        )
    }
}

fn exact(code: &str, n: u64) -> f64 {
    let rule = TakeAndBreak::parse(code).unwrap();
    let t = Instant::now();
    let mut s = Sequence::new(TakeAndBreakExact::new(rule));
    s.extend(n, &NoControl).unwrap();
    t.elapsed().as_secs_f64()
}

fn case(code: &str, n: u64, threads: &[usize]) {
    let mut first: Option<(f64, Model)> = None;
    for &k in threads {
        let (dt, info, st) = sparse(code, n, k);
        let ratio = first.as_ref().map_or(String::new(), |(t1, m)| {
            // What the model leaves out: the synchronisation, per block.
            let sync = (dt - m.predict(k)) / st.blocks.max(1) as f64;
            format!(
                ", {:.2}x the 1-thread speed (model {:.2}x; {:.1} us per block beyond it)",
                t1 / dt,
                t1 / m.predict(k),
                sync * 1e6
            )
        });
        println!(
            "sparse {code:>6} to {n:>9}, {k} thread(s): {dt:8.3} s, {:9.3e} values/s, {:6.1} ns/value{ratio}",
            n as f64 / dt,
            dt * 1e9 / n as f64
        );
        if first.is_some() && std::env::var("SPARSE_STATS").is_ok_and(|v| v == "1") {
            // Where the threads lose to each other: the sequential part waiting for theirs,
            // they waiting for work.
            println!("    {st:?}");
        }
        if first.is_none() {
            println!("    {info}");
            if k == 1 {
                let m = Model::new(dt, &st);
                println!("    {}", m.describe(n));
                first = Some((dt, m));
            }
        }
    }
}

/// `--stages CODE proven|proving|values N THREADS`: one run through [`Sequence`] (the period
/// search up to `N` values; the values to `N` with a period search on the way, as Python's
/// `values` does by default; or without), as the Python API does it, printed as one JSON line:
/// the seconds, and the seconds of each stage ([`Stages`], and the sparse engine's parts) that
/// `benchmarks/scaling.py` sums into the time that runs in order. `SPARSE_SPECULATE=1` verifies
/// predicted stretches speculatively even on one thread (`Sequence::set_speculation`), so that
/// their share shows; `0` never.
fn stages(args: &[String]) {
    let (code, mode) = (&args[0], &args[1]);
    let n: u64 = args[2].parse().unwrap();
    let threads: usize = args[3].parse().unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let rule = TakeAndBreak::parse(code).unwrap();
    let t = Instant::now();
    let (s, found) = pool.install(|| {
        let mut s = Sequence::new(TakeAndBreakSparse::with_options(rule, options()).unwrap());
        // Speculation on one thread too, so that its share shows among the stages.
        s.set_speculation(std::env::var("SPARSE_SPECULATE").ok().map(|v| v == "1"));
        let found = match mode.as_str() {
            "proven" => s.search_period(n, &NoControl).unwrap().detection.found,
            "proving" => {
                s.extend_proving(n, &NoControl).unwrap();
                s.proven()
            }
            _ => {
                s.extend(n, &NoControl).unwrap();
                None
            }
        };
        (s, found)
    });
    let dt = t.elapsed().as_secs_f64();
    let (g, st) = (s.stages(), s.step().stats());
    let sec = |ns: u64| ns as f64 * 1e-9;
    // Time outside the sparse engine's blocks while computing in order: the bookkeeping between
    // blocks (mask, rare list, reversed copy), on one thread.
    let between = g
        .compute_ns
        .saturating_sub(st.parallel_ns + st.sequential_ns);
    // Of the sequential part, what more threads take off it (flagged ahead: timed apart when
    // `SPARSE_AHEAD_AUTO=0` forces it on at one thread; else 0).
    let in_order = st.sequential_ns.saturating_sub(st.ahead_ns);
    println!(
        "{{\"seconds\": {dt:.4}, \"values\": {}, \"period\": {}, \"preperiod\": {}, \
         \"compute\": {:.4}, \"block_sequential\": {:.4}, \"block_ahead\": {:.4}, \"block_parallel\": {:.4}, \
         \"between_blocks\": {:.4}, \"speculate\": {:.4}, \"speculate_serial\": {:.4}, \
         \"scan\": {:.4}, \"watch\": {:.4}, \"fill\": {:.4}, \"scans\": {}, \"watched\": {}, \
         \"speculated\": {}, \"refuted\": {}}}",
        s.values().len(),
        found.map_or(0, |p| p.period),
        found.map_or(0, |p| p.preperiod),
        sec(g.compute_ns),
        sec(in_order),
        sec(st.ahead_ns),
        sec(st.parallel_ns),
        sec(between),
        sec(g.speculate_ns),
        sec(g.speculate_serial_ns),
        sec(g.scan_ns),
        sec(g.watch_ns),
        sec(g.fill_ns),
        g.scans,
        g.watched,
        g.speculated,
        g.refuted,
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| a == "--stages") {
        stages(&args[1..]);
        return;
    }
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
        let (ds, _, _) = sparse(code, n, 2);
        println!(
            "exact  {code:>6} to {n:>9}, 2 threads: {dt:8.3} s, {:9.3e} values/s; sparse: {ds:.3} s, {:.0}x faster",
            n as f64 / dt,
            dt / ds
        );
    }
    println!("load average {}", load());
}
