//! Builds the misère quotient of an octal game heap by heap and prints its growth and stats.
//!
//! `cargo run --release --example misere_bench -- 0.07 34`
use grundy::engine::NoControl;
use grundy::misere_quotient::Quotient;
use grundy::position::{HeapRule, MisereGame};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let code = args.get(1).map_or("0.07", String::as_str);
    let max: u64 = args.get(2).map_or(30, |s| s.parse().expect("max heap"));
    let rule = HeapRule::TakeAndBreak(code.parse().expect("an octal code"));
    let opts = MisereGame::Rule(&rule)
        .option_lists(max, &NoControl)
        .expect("option lists");
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
