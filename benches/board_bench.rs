//! Benchmark of the nimber search ([`grundy::nimber_search`]) on one board game position.
//!
//! ```text
//! cargo bench --bench board_bench -- cram 5 7
//! cargo bench --bench board_bench -- cram 6 6 --mirror      # Cram's mirror hook on
//! cargo bench --bench board_bench -- nodekayles 6 6          # the 6 x 6 grid graph
//! cargo bench --bench board_bench -- arckayles 4 5
//! cargo bench --bench board_bench -- chomp 6 7
//! cargo bench --bench board_bench -- cram 5 7 --budget 16    # tables of 16 MiB
//! cargo bench --bench board_bench -- cram 5 7 --budget 0.5 --policy size  # 512 KiB, kept by size
//! cargo bench --bench board_bench -- nodekayles-all 6 6      # every grid up to 6 x 6
//! cargo bench --bench board_bench -- cram 3 6 --repeat 200   # median of 200 searches
//! cargo bench --bench board_bench -- nodekayles 3 21 --profile  # where the nodes go
//! cargo bench --bench board_bench -- cram 5 8 --block 0:0 --block 4:7  # cells blocked
//! cargo bench --bench board_bench -- arckayles-complete 64 0  # the complete graph K_64
//! cargo bench --bench board_bench -- nodekayles-cube 7 0      # the 7-cube
//! ```
//!
//! Prints the value of the starting position, the wall time of the search (and apart, of making
//! the tables; with `--repeat N`, the medians of N searches, each with new tables: a search of a
//! millisecond is too short to time or profile alone), the nodes searched and the table's entries (used / capacity) and bytes. The
//! tables' budget defaults to 64 MiB.

use grundy::board::{ArcKayles, Board, Chomp, Cram, NodeKayles, SimpleGraph};
use grundy::control::NoControl;
use grundy::nimber_search::{Policy, Search};
use std::time::Instant;

/// How each search of a run is made and repeated.
#[derive(Clone, Copy)]
struct Opts {
    budget: u64,
    repeat: usize,
    profile: bool,
    policy: Policy,
}

fn run<B: Board>(
    name: &str,
    board: &B,
    start: u128,
    hook: Option<&(dyn Fn(u128) -> Option<u32> + Sync)>,
    o: &Opts,
) {
    let Opts {
        budget,
        repeat,
        profile,
        policy,
    } = *o;
    let (mut setups, mut times) = (Vec::new(), Vec::new());
    let mut last = None;
    for _ in 0..repeat.max(1) {
        let t = Instant::now();
        let mut search = Search::new(board, budget)
            .expect("budget")
            .with_policy(policy);
        if let Some(h) = hook {
            search = search.with_known(h);
        }
        if profile {
            search = search.with_profile();
        }
        setups.push(t.elapsed().as_secs_f64());
        // The search alone, as igsolve's "Calculation time" (which leaves out making its table).
        let t = Instant::now();
        let v = search.value(start, &NoControl).expect("search");
        times.push(t.elapsed().as_secs_f64());
        last = Some((v, search.stats(), search.profile().cloned()));
    }
    let median = |x: &mut Vec<f64>| {
        x.sort_by(f64::total_cmp);
        x[x.len() / 2]
    };
    let (setup, dt) = (median(&mut setups), median(&mut times));
    let (v, s, prof) = last.expect("one search");
    println!(
        "{name}: value {v}  time {dt:.6} s  (setup {setup:.6} s)  nodes {}  table {} / {} entries ({:.1} MiB)",
        s.nodes,
        s.table_entries,
        s.table_capacity,
        s.table_bytes as f64 / (1 << 20) as f64
    );
    if let Some(p) = prof {
        print!("{p}");
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: board_bench cram|nodekayles|nodekayles-all|arckayles|arckayles-complete|nodekayles-cube|chomp ROWS COLS [--mirror] [--block R:C] [--budget MIB] [--policy size|work] [--repeat N] [--profile]";
    if args.len() < 3 {
        eprintln!("{usage}");
        std::process::exit(2);
    }
    let rows: usize = args[1].parse().expect("ROWS");
    let cols: usize = args[2].parse().expect("COLS");
    let mirror = args.iter().any(|a| a == "--mirror");
    let profile = args.iter().any(|a| a == "--profile");
    let budget_mib: f64 = args
        .iter()
        .position(|a| a == "--budget")
        .map(|i| args[i + 1].parse().expect("MIB"))
        .unwrap_or(64.0);
    let budget = (budget_mib * (1 << 20) as f64) as u64;
    let policy = match args.iter().position(|a| a == "--policy") {
        Some(i) if args[i + 1] == "size" => Policy::Size,
        Some(i) if args[i + 1] == "work" => Policy::Work,
        Some(_) => panic!("--policy size|work"),
        None => Policy::default(),
    };
    let repeat: usize = args
        .iter()
        .position(|a| a == "--repeat")
        .map(|i| args[i + 1].parse().expect("N"))
        .unwrap_or(1);
    // Cells `r:c` taken out of the start (Cram).
    let blocked: Vec<(usize, usize)> = args
        .iter()
        .enumerate()
        .filter(|(_, a)| *a == "--block")
        .map(|(i, _)| {
            let (r, c) = args[i + 1].split_once(':').expect("R:C");
            (r.parse().expect("R"), c.parse().expect("C"))
        })
        .collect();
    let opts = Opts {
        budget,
        repeat,
        profile,
        policy,
    };
    let name = format!("{} {rows}x{cols}", args[0]);
    match args[0].as_str() {
        "cram" => {
            let cram = Cram::new(rows, cols).expect("board");
            let hook = |c: u128| cram.mirror_zero(c);
            let hook: Option<&(dyn Fn(u128) -> Option<u32> + Sync)> =
                if mirror { Some(&hook) } else { None };
            let start = blocked
                .iter()
                .fold(cram.empty(), |m, &(r, c)| m & !cram.grid().cell(r, c));
            run(&name, &cram, start, hook, &opts);
        }
        "nodekayles" => {
            let game = NodeKayles::new(SimpleGraph::grid(rows, cols).expect("grid"));
            run(&name, &game, game.start(), None, &opts);
        }
        "nodekayles-all" => {
            let t = Instant::now();
            for r in 1..=rows {
                for c in r..=cols {
                    let game = NodeKayles::new(SimpleGraph::grid(r, c).expect("grid"));
                    run(
                        &format!("nodekayles {r}x{c}"),
                        &game,
                        game.start(),
                        None,
                        &opts,
                    );
                }
            }
            println!("all: {:.4} s", t.elapsed().as_secs_f64());
        }
        "arckayles" => {
            let game = ArcKayles::new(SimpleGraph::grid(rows, cols).expect("grid"));
            run(&name, &game, game.start(), None, &opts);
        }
        "arckayles-complete" => {
            let n = rows;
            let edges: Vec<_> = (0..n)
                .flat_map(|u| (u + 1..n).map(move |v| (u, v)))
                .collect();
            let game = ArcKayles::new(SimpleGraph::new(n, &edges).expect("graph"));
            run(&name, &game, game.start(), None, &opts);
        }
        "nodekayles-cube" => {
            let n = 1usize << rows;
            let edges: Vec<_> = (0..n)
                .flat_map(|u| (0..rows).map(move |b| (u, u ^ 1 << b)))
                .filter(|&(u, v)| u < v)
                .collect();
            let game = NodeKayles::new(SimpleGraph::new(n, &edges).expect("graph"));
            run(&name, &game, game.start(), None, &opts);
        }
        "chomp" => {
            let game = Chomp::new(rows, cols).expect("bar");
            run(&name, &game, game.start(), None, &opts);
        }
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    }
}
