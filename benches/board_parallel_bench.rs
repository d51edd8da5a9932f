//! Benchmark of the parallel nimber search ([`grundy::nimber_search::Search::value_threads`]) on
//! the empty Cram board, against the plain one.
//!
//! ```text
//! cargo bench --bench board_parallel_bench -- 5 8 --threads 2
//! cargo bench --bench board_parallel_bench -- 5 8 --threads 1       # the plain search
//! cargo bench --bench board_parallel_bench -- 5 9 --threads 2 --budget 512
//! cargo bench --bench board_parallel_bench -- 5 8 --threads 2 --mark 16 --cells 30
//! ```
//!
//! Prints the value, the wall time, the nodes searched (every thread's) and the table's entries,
//! then for each thread that ran 10 ms or more (Linux) the seconds it ran and waited for a core.
//! `--threads 1` takes the plain search; `--mark` and `--cells` set the [`Split`] (default: the
//! search's own); `--budget` is in MiB (default 64); `--mirror` turns on Cram's mirror hook;
//! `--profile` prints where the nodes went (every thread's: by size, by depth, the races).
//! `--threads` past the cores gives as many threads as cores (`control::build_pool`).

use grundy::board::Cram;
use grundy::control::{build_pool, NoControl};
use grundy::nimber_search::{Search, Split};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: board_parallel_bench ROWS COLS [--threads K] [--budget MIB] [--mark M] \
                 [--cells N] [--mirror] [--profile]";
    if args.len() < 2 {
        eprintln!("{usage}");
        std::process::exit(2);
    }
    let flag = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .map(|i| args[i + 1].parse::<u64>().expect(usage))
    };
    let rows: usize = args[0].parse().expect(usage);
    let cols: usize = args[1].parse().expect(usage);
    let threads = flag("--threads").unwrap_or(2) as usize;
    let budget = flag("--budget").unwrap_or(64) << 20;
    let mut split = Split::default();
    if let Some(m) = flag("--mark") {
        split.mark_cells = m as u32;
    }
    if let Some(c) = flag("--cells") {
        split.min_cells = c as u32;
    }
    let cram = Cram::new(rows, cols).expect("board");
    let mirror = |c: u128| cram.mirror_zero(c);
    // At most one thread per core, as every pool of grundy's (past the cores, threads only
    // take turns and search more nodes).
    let pool = build_pool(Some(threads)).expect("pool").expect("a pool");
    let t = Instant::now();
    let mut search = Search::new(&cram, budget).expect("budget");
    if args.iter().any(|a| a == "--mirror") {
        search = search.with_known(&mirror);
    }
    if args.iter().any(|a| a == "--profile") {
        search = search.with_profile();
    }
    let v = if threads == 1 {
        search.value(cram.empty(), &NoControl)
    } else {
        search.value_threads(cram.empty(), &NoControl, Some(&pool), split)
    }
    .expect("search");
    let dt = t.elapsed().as_secs_f64();
    let s = search.stats();
    // Per thread (Linux): seconds run and seconds waited for a core, which tell the threads'
    // idle time (wall - run - wait) on a machine other jobs load.
    let mut busy = String::new();
    if let Ok(tasks) = std::fs::read_dir("/proc/self/task") {
        for t in tasks.flatten() {
            let stat = std::fs::read_to_string(t.path().join("schedstat")).unwrap_or_default();
            let f: Vec<f64> = stat
                .split_whitespace()
                .filter_map(|x| x.parse().ok())
                .collect();
            if f.len() >= 2 && f[0] > 1e7 {
                busy += &format!(" run {:.2} s wait {:.2} s;", f[0] / 1e9, f[1] / 1e9);
            }
        }
    }
    println!(
        "cram {rows}x{cols} threads {} split {}/{}: value {v}  time {dt:.3} s  nodes {}  \
         table {} / {} entries ({:.1} MiB)\n  threads:{busy}",
        if threads == 1 {
            1
        } else {
            pool.current_num_threads()
        },
        split.mark_cells,
        split.min_cells,
        s.nodes,
        s.table_entries,
        s.table_capacity,
        s.table_bytes as f64 / (1 << 20) as f64
    );
    if let Some(p) = search.profile() {
        print!("{p}");
    }
}
