use super::*;
use crate::control::NoControl;
use crate::engine::naive::for_each_split;
use crate::engine::{Sequence, SubtractionExact, TakeAndBreakExact, Values};
use crate::periodicity::{detect, Theorem};
use crate::rules::{Subtraction, TakeAndBreak};
use std::collections::BTreeSet;

/// The options of a heap of `n` worth `t`.
fn worth(n: u64, t: u64) -> Query {
    Query {
        target: Some(t),
        ..Query::new(n)
    }
}

fn values_of(code: &str, n: u64) -> Values {
    let mut s = Sequence::new(TakeAndBreakExact::new(TakeAndBreak::parse(code).unwrap()));
    s.extend(n, &NoControl).unwrap();
    s.values().clone()
}

fn proven_tail(code: &str, v: &Values) -> Tail {
    let rule = TakeAndBreak::parse(code).unwrap();
    let th = crate::engine::take_and_break::theorem(&rule);
    let p = detect(v.len(), |i| v.get(i), &th).unwrap();
    assert!(p.proven, "{code}: {p:?}");
    assert!(matches!(th, Theorem::Finite { .. }));
    Tail::Periodic {
        preperiod: p.preperiod,
        period: p.period,
    }
}

fn collect(
    rule: &Rule,
    vals: &HeapValues,
    n: u64,
    t: Option<u64>,
    st: Strategy,
    budget: u64,
) -> BTreeSet<Vec<u64>> {
    let mut out = BTreeSet::new();
    let mut cur = Some(Cursor::START);
    while let Some(c) = cur {
        let q = Query {
            target: t,
            from: c,
            budget,
            strategy: st,
            ..Query::new(n)
        };
        let f = search(rule, vals, &q).unwrap();
        for fam in &f.families {
            fam.try_for_each(&mut |p| {
                assert!(out.insert(p.to_vec()), "{n}: {p:?} twice");
                Ok(())
            })
            .unwrap();
        }
        cur = f.next;
    }
    out
}

/// Every option of heap n, straight from the digits (the naive engine's enumeration).
fn brute(rule: &TakeAndBreak, n: u64) -> BTreeSet<Vec<u64>> {
    let mut out = BTreeSet::new();
    for j in 0..=n {
        let d = rule.digit(j);
        for k in 0..=3u32 {
            if d.allows(k) && !(k == 0 && j == 0) {
                for_each_split(n - j, k, d.unequal, &mut |p| {
                    out.insert(p.to_vec());
                });
            }
        }
    }
    out.retain(|p| !(p.len() == 1 && p[0] == n));
    out
}

#[test]
fn every_option_matches_the_naive_enumeration() {
    for code in [
        "0.77", "0.137", "4!.0", "0.4F", "0.[37]", "8.0", "0.F!7", "4.[3]",
    ] {
        let rule = TakeAndBreak::parse(code).unwrap();
        let v = values_of(code, 40);
        let vals = HeapValues::new(&v, Tail::None).unwrap();
        let hr = Rule::TakeAndBreak(rule.clone());
        for n in 0..40 {
            let want = brute(&rule, n);
            assert_eq!(
                collect(&hr, &vals, n, None, Strategy::Auto, 3),
                want,
                "{code} {n}"
            );
            for p in &want {
                assert!(hr.is_option(n, p).unwrap(), "{code} {n} {p:?}");
            }
            // Every target: the options of that value, found one by one.
            for t in 0..8 {
                let by_value: BTreeSet<_> = want
                    .iter()
                    .filter(|p| p.iter().fold(0, |x, &h| x ^ v.get(h as usize) as u64) == t)
                    .cloned()
                    .collect();
                for st in [Strategy::Explicit, Strategy::Auto] {
                    assert_eq!(
                        collect(&hr, &vals, n, Some(t), st, 5),
                        by_value,
                        "{code} {n} {t}"
                    );
                }
            }
        }
    }
}

#[test]
fn structured_search_agrees_with_explicit() {
    // Kayles (period 12 from 71), Dawson's chess (34 from 52) and hexadecimal games that
    // leave up to three heaps (0.B7C: period 62 from 122; 0.F7D: 34 from 53).
    for code in ["0.77", "0.137", "0.B7C", "0.F7D"] {
        let v = values_of(code, 3000);
        let tail = proven_tail(code, &v);
        let vals = HeapValues::new(&v, tail).unwrap();
        let hr = Rule::TakeAndBreak(TakeAndBreak::parse(code).unwrap());
        let heaps: &[u64] = if code.len() == 5 {
            &[3, 90, 157, 400, 701, 1200]
        } else {
            &[5, 70, 71, 150, 401, 1000, 2999]
        };
        for &n in heaps {
            for t in 0..10 {
                let a = collect(&hr, &vals, n, Some(t), Strategy::Explicit, u64::MAX);
                let b = collect(&hr, &vals, n, Some(t), Strategy::Structured, u64::MAX);
                assert_eq!(a, b, "{code} heap {n} value {t}");
            }
        }
    }
}

#[test]
fn kayles_heap_of_10_18_has_a_winning_move() {
    let v = values_of("0.77", 200);
    let vals = HeapValues::new(&v, proven_tail("0.77", &v)).unwrap();
    let hr = Rule::TakeAndBreak(TakeAndBreak::parse("0.77").unwrap());
    let n = 1_000_000_000_000_000_000u64;
    let f = search(&hr, &vals, &worth(n, 0)).unwrap();
    assert!(f.work < 1000, "{}", f.work);
    let mut checked = 0;
    for fam in &f.families {
        fam.try_for_each(&mut |p| {
            assert!(hr.is_option(n, p).unwrap());
            assert_eq!(p.iter().fold(0, |x, &h| x ^ vals.get(h)), 0);
            checked += 1;
            if checked > 1000 {
                Err(Error::Interrupted)
            } else {
                Ok(())
            }
        })
        .ok();
    }
    assert!(checked > 1000);
}

#[test]
fn identity_rules_by_algebra() {
    // 0.[7]: remove any number, leave up to two heaps; G(h) = h.
    let code = "0.[7]";
    let rule = TakeAndBreak::parse(code).unwrap();
    let v = values_of(code, 60);
    assert!((0..60).all(|i| v.get(i) == i as u32));
    let hr = Rule::TakeAndBreak(rule.clone());
    let small = HeapValues::new(&v, Tail::None).unwrap();
    let id = HeapValues::new(&v, Tail::Identity).unwrap();
    for n in 0..60 {
        for t in 0..64 {
            let a = collect(&hr, &small, n, Some(t), Strategy::Explicit, 7);
            let b = collect(&hr, &id, n, Some(t), Strategy::Auto, 7);
            assert_eq!(a, b, "{n} {t}");
        }
    }
    // Far beyond the table: the single heap of value t, found at once.
    let n = u64::MAX - 5;
    let q = Query {
        first_only: true,
        ..worth(n, 12345)
    };
    let f = search(&hr, &id, &q).unwrap();
    assert_eq!(f.families, vec![Family::One(Parts::new(&[12345]))]);
    let f = search(&hr, &id, &worth(10, 10)).unwrap();
    assert!(f.families.is_empty() && f.next.is_none());
}

#[test]
fn subtraction_rules() {
    let rules = [
        Subtraction::finite(vec![1, 3, 4]).unwrap(),
        Subtraction::all_but(vec![2, 3]).unwrap(),
        Subtraction::Squares,
        Subtraction::AtMostHalf,
        Subtraction::ProperDivisors,
    ];
    for r in rules {
        let mut s = Sequence::new(SubtractionExact::new(r.clone()));
        s.extend(80, &NoControl).unwrap();
        let v = s.values().clone();
        let vals = HeapValues::new(&v, Tail::None).unwrap();
        let hr = Rule::Subtraction(r.clone());
        for n in 0..80u64 {
            let want: BTreeSet<Vec<u64>> = (1..=n)
                .filter(|&k| r.allows(n, k))
                .map(|k| vec![n - k])
                .collect();
            assert_eq!(
                collect(&hr, &vals, n, None, Strategy::Auto, 2),
                want,
                "{r} {n}"
            );
            for t in 0..6 {
                let w: BTreeSet<_> = want
                    .iter()
                    .filter(|p| v.get(p[0] as usize) as u64 == t)
                    .cloned()
                    .collect();
                assert_eq!(collect(&hr, &vals, n, Some(t), Strategy::Auto, 2), w);
            }
        }
    }
}

#[test]
fn unknown_values_are_an_error() {
    let v = values_of("4!.0", 50);
    let vals = HeapValues::new(&v, Tail::None).unwrap();
    let hr = Rule::TakeAndBreak(TakeAndBreak::parse("4!.0").unwrap());
    let q = Query {
        budget: 10,
        ..worth(51, 0)
    };
    assert!(search(&hr, &vals, &q).is_err());
    // Listing options needs no values.
    let q = Query {
        budget: 10,
        ..Query::new(1 << 60)
    };
    assert!(search(&hr, &vals, &q).is_ok());
}

/// Rules answered from outside the core list, and find by value, the options of the built-in
/// rules they copy (each once, in resumable slices for `allowed`).
#[test]
fn callback_rules_list_what_the_built_in_rules_list() {
    use crate::rules::{AllowedSource, OptionList, OptionSource};
    use std::sync::Arc;
    struct Allowed(Subtraction);
    impl AllowedSource for Allowed {
        fn allowed(&self, n: u64, k: u64) -> crate::Result<bool> {
            Ok(self.0.allows(n, k))
        }
    }
    /// Kayles, each split listed twice (in both orders): the search lists it once.
    struct Kayles;
    impl OptionSource for Kayles {
        fn options(&self, n: u64, out: &mut OptionList) -> crate::Result<()> {
            for k in 1..=n.min(2) {
                for a in 0..=n - k {
                    let parts: Vec<u64> = [a, n - k - a].into_iter().filter(|&h| h > 0).collect();
                    out.push(&parts);
                }
            }
            Ok(())
        }
    }
    let sub = Subtraction::finite(vec![1, 3, 4]).unwrap();
    let cases = [
        (
            Rule::Subtraction(sub.clone()),
            Rule::Allowed(Arc::new(Allowed(sub))),
        ),
        (
            Rule::TakeAndBreak(TakeAndBreak::parse("0.77").unwrap()),
            Rule::Options(Arc::new(Kayles)),
        ),
    ];
    for (built_in, callback) in &cases {
        let mut s = crate::engine::sequence(built_in, crate::engine::Solver::Exact).unwrap();
        s.extend(60, &NoControl).unwrap();
        let vals = HeapValues::new(s.values(), Tail::None).unwrap();
        for n in 0..60u64 {
            for t in [None, Some(0), Some(1), Some(3)] {
                let want = collect(built_in, &vals, n, t, Strategy::Auto, 1 << 20);
                assert_eq!(
                    collect(callback, &vals, n, t, Strategy::Auto, 3),
                    want,
                    "{built_in:?} {n} {t:?}"
                );
            }
            let some = collect(built_in, &vals, n, None, Strategy::Auto, 1 << 20);
            for p in &some {
                assert!(callback.is_option(n, p).unwrap(), "{n} {p:?}");
            }
            assert!(!callback.is_option(n, &[n]).unwrap());
        }
    }
    // The misère quotient's builder lists them alike.
    for (built_in, callback) in &cases {
        let lists = |r| crate::position::MisereGame::Rule(r).option_lists(20, &NoControl);
        assert_eq!(lists(callback).unwrap(), lists(built_in).unwrap());
    }
    assert!(!cases[1].1.is_nim() && cases[1].1.proof_shape().is_none());
    assert_eq!(cases[0].0.proof_shape(), Some((4, 1)));
    assert!(Rule::Subtraction(Subtraction::all_but(vec![]).unwrap()).is_nim());
    assert!(!Rule::take_and_break("0.3").unwrap().is_nim());
}
