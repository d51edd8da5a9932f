//! Builds the misère quotient of an octal game heap by heap and prints its growth and stats;
//! with `--relative M...`, proven lower bounds on the order at the largest heap instead, from
//! the sums with at most `M` copies of it (`misere_quotient::relative_bounds`), for each `M`.
//!
//! `cargo bench --bench misere_bench -- 0.07 33`
//! `cargo bench --bench misere_bench -- 0.07 34 --relative 1 2 3 4`
use grundy::control::NoControl;
use grundy::misere_quotient::{relative_bounds, Quotient};
use grundy::position::MisereGame;
use grundy::rules::Rule;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let code = args.get(1).map_or("0.07", String::as_str);
    let max: u64 = args.get(2).map_or(30, |s| s.parse().expect("max heap"));
    let rule = Rule::TakeAndBreak(code.parse().expect("an octal code"));
    let opts = MisereGame::Rule(&rule)
        .option_lists(max, &NoControl)
        .expect("option lists");
    if args.get(3).map(String::as_str) == Some("--relative") {
        for m in &args[4..] {
            let m: u32 = m.parse().expect("a number of copies");
            let t = Instant::now();
            let b = relative_bounds(&opts, m, &NoControl).expect("the bounds");
            println!(
                "{code} heap {max}, at most {m} copies: order ≥ {} (heaps below: {}); classes per \
                 copy count {:?}; {} refutations, {} proof states, {:.1} s",
                b.lower_bound(),
                b.below,
                b.classes,
                b.refutations,
                b.proof_states,
                t.elapsed().as_secs_f64()
            );
        }
        return;
    }
    let t = Instant::now();
    let q = Quotient::compute(&opts, &NoControl).expect("the quotient");
    println!(
        "{code} to heap {max}: order {} in {:.3} s",
        q.order(),
        t.elapsed().as_secs_f64()
    );
    println!("growth {:?}", q.growth());
    println!("{:?}", q.stats());
}
