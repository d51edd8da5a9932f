//! Benchmark of the nimber search ([`grundy::nimber_search`]) on one board game position.
//!
//! ```text
//! cargo run --release --example board_bench -- cram 5 7
//! cargo run --release --example board_bench -- cram 6 6 --mirror      # Cram's mirror hook on
//! cargo run --release --example board_bench -- nodekayles 6 6          # the 6 x 6 grid graph
//! cargo run --release --example board_bench -- arckayles 4 5
//! cargo run --release --example board_bench -- chomp 6 7
//! cargo run --release --example board_bench -- cram 5 7 --budget 16    # tables of 16 MiB
//! cargo run --release --example board_bench -- nodekayles-all 6 6      # every grid up to 6 x 6
//! ```
//!
//! Prints the value of the starting position, the wall time of the search (and apart, of making
//! the tables), the nodes searched and the table's entries (used / capacity) and bytes. The
//! tables' budget defaults to 64 MiB.

use grundy::board::{ArcKayles, Board, Chomp, Cram, NodeKayles, SimpleGraph};
use grundy::engine::NoControl;
use grundy::nimber_search::Search;
use std::time::Instant;

fn run<B: Board>(
    name: &str,
    board: &B,
    start: u128,
    budget: u64,
    hook: Option<&(dyn Fn(u128) -> Option<u32> + Sync)>,
) {
    let t = Instant::now();
    let mut search = Search::new(board, budget).expect("budget");
    if let Some(h) = hook {
        search = search.with_known(h);
    }
    let setup = t.elapsed().as_secs_f64();
    // The search alone, as igsolve's "Calculation time" (which leaves out making its table).
    let t = Instant::now();
    let v = search.value(start, &NoControl).expect("search");
    let dt = t.elapsed().as_secs_f64();
    let s = search.stats();
    println!(
        "{name}: value {v}  time {dt:.6} s  (setup {setup:.6} s)  nodes {}  table {} / {} entries ({:.1} MiB)",
        s.nodes,
        s.table_entries,
        s.table_capacity,
        s.table_bytes as f64 / (1 << 20) as f64
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: board_bench cram|nodekayles|nodekayles-all|arckayles|chomp ROWS COLS [--mirror] [--budget MIB]";
    if args.len() < 3 {
        eprintln!("{usage}");
        std::process::exit(2);
    }
    let rows: usize = args[1].parse().expect("ROWS");
    let cols: usize = args[2].parse().expect("COLS");
    let mirror = args.iter().any(|a| a == "--mirror");
    let budget_mib: u64 = args
        .iter()
        .position(|a| a == "--budget")
        .map(|i| args[i + 1].parse().expect("MIB"))
        .unwrap_or(64);
    let budget = budget_mib << 20;
    let name = format!("{} {rows}x{cols}", args[0]);
    match args[0].as_str() {
        "cram" => {
            let cram = Cram::new(rows, cols).expect("board");
            let hook = |c: u128| cram.mirror_zero(c);
            let hook: Option<&(dyn Fn(u128) -> Option<u32> + Sync)> =
                if mirror { Some(&hook) } else { None };
            run(&name, &cram, cram.empty(), budget, hook);
        }
        "nodekayles" => {
            let game = NodeKayles::new(SimpleGraph::grid(rows, cols).expect("grid"));
            run(&name, &game, game.start(), budget, None);
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
                        budget,
                        None,
                    );
                }
            }
            println!("all: {:.4} s", t.elapsed().as_secs_f64());
        }
        "arckayles" => {
            let game = ArcKayles::new(SimpleGraph::grid(rows, cols).expect("grid"));
            run(&name, &game, game.start(), budget, None);
        }
        "chomp" => {
            let game = Chomp::new(rows, cols).expect("bar");
            run(&name, &game, game.start(), budget, None);
        }
        _ => {
            eprintln!("{usage}");
            std::process::exit(2);
        }
    }
}
