use grundy::engine::{NoControl, Sequence, TakeAndBreakSparse};
use grundy::rules::TakeAndBreak;
fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let code = &a[0];
    let n: usize = a[1].parse().unwrap();
    let rule = TakeAndBreak::parse(code).unwrap();
    let mut s = Sequence::new(TakeAndBreakSparse::new(rule.clone()).unwrap());
    s.extend(n as u64, &NoControl).unwrap();
    let g = s.values().to_vec();
    let m = s.step().mask().unwrap();
    println!("mask {:?}", m);
    let hist: Vec<usize> = (0..128)
        .map(|v| g[n / 2..].iter().filter(|&&x| x == v).count())
        .collect();
    println!(
        "value histogram (2nd half): {:?}",
        hist.iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .map(|(v, c)| format!("{v}:{c}"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    // For a few heaps: splits per digit; for each rare value below G(n), first a (ascending) per digit
    let t = rule.prefix.len();
    for h in [n - 5, n - 4, n - 3, n - 2, n - 1] {
        let cls = |v: u32| (v & m.mask).count_ones() & 1;
        let gv = g[h];
        let mut line = format!("heap {h} G={gv} class={}:", cls(gv));
        for v in 0..gv {
            if cls(v) == cls(gv) {
                continue;
            }
            let mut best = usize::MAX;
            let mut cnt = 0;
            for j in 0..=t {
                let d = rule.digit(j as u64);
                if !d.allows(2) || h < j + 2 {
                    continue;
                }
                let s = h - j;
                let amax = if d.unequal { (s - 1) / 2 } else { s / 2 };
                for a0 in 1..=amax {
                    if g[a0] ^ g[s - a0] == v {
                        cnt += 1;
                        best = best.min(a0);
                    }
                }
            }
            line += &format!(" {v}@{best}(x{cnt})");
        }
        println!("{line}");
    }
}
