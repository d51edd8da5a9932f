use grundy::engine::{NoControl, Sequence, TakeAndBreakExact};
use grundy::rules::TakeAndBreak;
fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let n: u64 = a[1].parse().unwrap();
    let t = std::time::Instant::now();
    let mut s = Sequence::new(TakeAndBreakExact::new(TakeAndBreak::parse(&a[0]).unwrap()));
    s.extend(n, &NoControl).unwrap();
    println!("exact {} {}: {:.3}s", a[0], n, t.elapsed().as_secs_f64());
}
