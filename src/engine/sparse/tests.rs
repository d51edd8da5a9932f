use super::space::{analyse, SparseSpace};
use super::*;
use crate::control::NoControl;
use crate::engine::testing::{exact, pool, Deadline, StopAt};
use crate::engine::Sequence;
use std::time::{Duration, Instant};

fn sparse_with(code: &str, n: u64, opts: SparseOptions) -> Sequence<TakeAndBreakSparse> {
    let rule = TakeAndBreak::parse(code).unwrap();
    let mut s = Sequence::new(TakeAndBreakSparse::with_options(rule, opts).unwrap());
    s.extend(n, &NoControl).unwrap();
    s
}

/// Options that use the sparse method as early and as much as possible, with small blocks
/// (so that small tests still cross many block and sub-block boundaries).
fn eager() -> SparseOptions {
    SparseOptions {
        block: 64,
        block_work: 1 << 21,
        chunk: 16,
        sub_block: 8,
        warmup: 16,
        sparse_ratio: 0,
        simd: true,
        prefix: 0,
        producer_share: 0,
        ahead: 16,
        ahead_auto: false,
        window: 12,
    }
}

/// Option sets that exercise different paths: defaults, eager, no vector kernel, a prefix,
/// tiny blocks.
fn variants() -> Vec<SparseOptions> {
    vec![
        SparseOptions::default(),
        eager(),
        SparseOptions {
            simd: false,
            prefix: 40,
            ..eager()
        },
        SparseOptions {
            block: 16,
            warmup: 40,
            ..eager()
        },
        SparseOptions {
            producer_share: 16,
            ..SparseOptions::default()
        },
        SparseOptions {
            ahead: 0,
            window: 0,
            ..eager()
        },
        SparseOptions {
            window: 1,
            ..SparseOptions::default()
        },
        SparseOptions {
            ahead: 1,
            block: 512,
            ..eager()
        },
        // Flagging ahead switched on and off by the threads' times.
        SparseOptions {
            ahead: 64,
            ahead_auto: true,
            block: 512,
            ..eager()
        },
    ]
}

#[test]
fn grundy_first_values() {
    let s = sparse_with("4!.0", 3000, SparseOptions::default());
    assert_eq!(s.values().to_vec(), exact("4!.0", 3000));
    assert_eq!(
        s.step().rare_positions()[..16],
        [0, 1, 2, 3, 4, 6, 7, 9, 10, 12, 15, 20, 23, 26, 28, 31]
    );
    assert_eq!(s.step().mask().unwrap().mask & 0xFF, 0xFE);
    let space = s.step().space().unwrap();
    assert_eq!(space.rare_count + space.common_count, 3000);
    assert_eq!(space, analyse(s.values(), 3000).unwrap());
}

#[test]
fn refuses_what_it_does_not_handle() {
    for code in ["0.[3]", "0.4F", "8.0", "0.1[37]", "C!.0"] {
        let rule = TakeAndBreak::parse(code).unwrap();
        assert!(!TakeAndBreakSparse::supports(&rule));
        assert!(TakeAndBreakSparse::new(rule).is_err(), "{code}");
    }
}

#[test]
fn all_two_digit_codes_match_exact() {
    let mut codes: Vec<String> = [
        "4.0", "4!.0", "0.4!", "0.04!", "4.7", "4!.6!2", "0.7!4", "4.64!",
    ]
    .map(String::from)
    .to_vec();
    for d1 in 0..8 {
        for d2 in 0..8 {
            codes.push(format!("0.{d1}{d2}"));
        }
    }
    // Every code with the defaults and eagerly sparse (slow in a debug build for games
    // without sparse space: fewer heaps), the other variants in turn.
    let variants = variants();
    for (k, code) in codes.iter().enumerate() {
        let want = exact(code, 2500);
        for (opts, n) in [
            (variants[0], 2500),
            (variants[1], 1500),
            (variants[2 + k % 2], 1000),
        ] {
            let got = sparse_with(code, n as u64, opts).values().to_vec();
            assert_eq!(got, want[..n], "{code} {opts:?}");
        }
    }
}

/// Pseudo-random longer codes, with `!` and every `d0`.
#[test]
fn random_codes_match_exact() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut rnd = move |m: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % m
    };
    for k in 0..40 {
        let d0 = ["0", "4", "4!"][rnd(3) as usize];
        let len = 1 + rnd(4);
        let digits: String = (0..len)
            .map(|_| {
                let d = rnd(8);
                let bang = if d >= 4 && rnd(3) == 0 { "!" } else { "" };
                format!("{d}{bang}")
            })
            .collect();
        let code = format!("{d0}.{digits}");
        let want = exact(&code, 1200);
        let opts = variants()[1 + k % 3];
        let got = sparse_with(&code, 1200, opts).values().to_vec();
        assert_eq!(got, want, "{code} {opts:?}");
    }
}

#[test]
fn identical_for_any_thread_count() {
    for code in ["4!.0", "0.354", "0.127"] {
        let want = exact(code, 6000);
        for k in 1..=4 {
            let got = pool(k).install(|| sparse_with(code, 6000, SparseOptions::default()));
            assert_eq!(got.values().to_vec(), want, "{code} with {k} threads");
        }
    }
}

/// Options whose small blocks (64 heaps, sub-blocks of 8) still go to the other threads (part
/// 1 overlapping the sequential part, confirmations, and the splits flagged ahead `lag` heaps
/// behind the heap): the threads' paths, on runs short enough to check against the exact
/// engine, where most splits of a heap reach into its own block.
fn threaded(lag: usize) -> SparseOptions {
    SparseOptions {
        block_work: 1 << 15,
        ahead: lag,
        ..eager()
    }
}

/// Random codes through the threads' paths at 1 to 4 threads, with splits flagged ahead from
/// one heap back (nearly every split of a rare part below the block) to two sub-blocks, or
/// not at all: the exact engine's values. Small heaps and rare parts below the sub-block
/// (the splits done heap by heap) are in every block.
#[test]
fn random_codes_match_exact_on_every_thread_path() {
    let mut rng = crate::engine::testing::Rng(0x9e37_79b9_7f4a_7c15);
    let mut codes: Vec<String> = ["0.354", "4!.0", "0.6", "0.137", "0.16", "0.4!7"]
        .map(String::from)
        .to_vec();
    for _ in 0..10 {
        let d0 = ["0", "4", "4!"][rng.below(3) as usize];
        let digits: String = (0..1 + rng.below(4))
            .map(|_| {
                let d = rng.below(8);
                let bang = if d >= 4 && rng.below(3) == 0 { "!" } else { "" };
                format!("{d}{bang}")
            })
            .collect();
        codes.push(format!("{d0}.{digits}"));
    }
    let mut engaged = 0;
    for code in &codes {
        let want = exact(code, 2500);
        for (k, lag) in [(1, 1), (2, 1), (2, 16), (3, 8), (4, 0), (4, 16)] {
            let got = pool(k).install(|| sparse_with(code, 2500, threaded(lag)));
            assert_eq!(
                got.values().to_vec(),
                want,
                "{code}, {k} threads, lag {lag}"
            );
            let st = got.step().stats();
            engaged += u64::from(k > 1 && st.overlapped > 0 && (lag == 0 || st.ahead_pairs > 0));
        }
    }
    // The sparse codes among them took the threads' paths.
    assert!(engaged >= 12, "{engaged}");
}

/// A window that covers every rare heap (0.1777's 16, the last at 123) leaves the block to one
/// loop: no rare pair enumerated, hardly any search. A smaller one, the rare heaps beyond it
/// enumerated as before; 0.16 and 0.127 find rare heaps beyond the window as they go (each ends
/// a window block), and 0.127's values soon need more than six bits (no window then).
#[test]
fn windows_change_no_value() {
    for code in ["0.1777", "0.16", "0.127"] {
        let want = exact(code, 20_000);
        for (window, k) in [(128, 1), (128, 2), (40, 1), (40, 3), (0, 2)] {
            let opts = SparseOptions {
                window,
                ..SparseOptions::default()
            };
            let got = pool(k).install(|| sparse_with(code, 20_000, opts));
            assert_eq!(got.values().to_vec(), want, "{code} window {window}");
            let st = got.step().stats();
            assert_eq!(st.window_pairs > 0, window > 0, "{code} window {window}");
            if code == "0.1777" && window == 128 {
                assert_eq!(st.rare_pairs, 0);
                assert!(st.searches * 100 < st.sparse_heaps, "{st:?}");
            }
        }
    }
}

/// With more than one thread, part 1 of a block overlaps its sequential part (which starts on a
/// sub-block once the tasks covering it are done, and takes unclaimed tasks while it waits):
/// the values of one thread, which does part 1 first.
#[test]
fn overlapping_first_part_changes_no_value() {
    // No window: 0.1777's blocks would all be window blocks, done by one thread.
    let off = SparseOptions {
        ahead: 0,
        window: 0,
        ..SparseOptions::default()
    };
    for (code, n) in [("4!.0", 30_000), ("0.1777", 30_000)] {
        let want = pool(1).install(|| sparse_with(code, n, off));
        assert_eq!(want.step().stats().overlapped, 0);
        for (k, sub_block) in [(2, 32), (3, 16)] {
            let opts = SparseOptions { sub_block, ..off };
            let got = pool(k).install(|| sparse_with(code, n, opts));
            assert_eq!(got.values().to_vec(), want.values().to_vec(), "{code} {k}");
            assert!(
                got.step().stats().overlapped > 0,
                "{code}: no block overlapped"
            );
        }
    }
}

/// The splits flagged ahead of the sequential part (by the confirming threads, or by the
/// sequential part when it gets there first, or alone with one thread) give the values of a run
/// that flags none ahead.
#[test]
fn flagging_ahead_changes_no_value() {
    // No window: 0.1777's rare heaps all lie within the default one, leaving nothing to flag.
    let off = SparseOptions {
        ahead: 0,
        window: 0,
        ..SparseOptions::default()
    };
    for code in ["4!.0", "0.354", "0.1777"] {
        let want = pool(1).install(|| sparse_with(code, 40_000, off));
        for (k, lag) in [(1, 64), (2, 1), (2, 64), (3, 40)] {
            let opts = SparseOptions {
                ahead: lag,
                ahead_auto: false,
                sub_block: 16,
                ..off
            };
            let got = pool(k).install(|| sparse_with(code, 40_000, opts));
            assert_eq!(
                got.values().to_vec(),
                want.values().to_vec(),
                "{code} {k} {lag}"
            );
            assert!(
                got.step().stats().ahead_pairs > 0,
                "{code}: nothing flagged ahead"
            );
            assert_eq!(want.step().stats().ahead_pairs, 0);
        }
    }
}

/// 0.127 and 0.015 change mask once values grow; 0.127 and 0.104 need the parity of the heap.
#[test]
fn mask_changes_mid_run() {
    for code in ["0.127", "0.015", "0.104", "0.106"] {
        let s = sparse_with(code, 3000, eager());
        assert_eq!(s.values().to_vec(), exact(code, 3000), "{code}");
        assert!(s.step().stats().mask_changes >= 2, "{code}");
        assert!(!s.step().is_dense(), "{code}");
    }
    let s = sparse_with("0.127", 3000, eager());
    assert!(s.step().mask().unwrap().parity);
    // The rare list is the classification of the values under the final mask.
    let values = s.values().to_vec();
    let space = SparseSpace::classify(&values, s.step().mask().unwrap());
    let listed: Vec<u64> = s
        .step()
        .rare_positions()
        .iter()
        .map(|&r| r as u64)
        .collect();
    assert_eq!(space.rare_positions, listed);
}

/// Dawson's chess has no sparse space: every heap by full search, still exact.
#[test]
fn game_without_sparse_space() {
    let s = sparse_with("0.137", 3000, SparseOptions::default());
    assert_eq!(s.values().to_vec(), exact("0.137", 3000));
    assert!(s.step().is_dense());
    assert!(s.step().rare_count() > 300);
    // Forced sparse, it is slower but still exact.
    let s = sparse_with("0.137", 1500, eager());
    assert_eq!(s.values().to_vec(), exact("0.137", 1500));
}

#[test]
fn resumes_in_pieces() {
    for code in ["4!.0", "0.77", "0.354"] {
        let want = exact(code, 5000);
        let rule = TakeAndBreak::parse(code).unwrap();
        let mut s = Sequence::new(TakeAndBreakSparse::with_options(rule, eager()).unwrap());
        for n in [1, 2, 3, 17, 100, 101, 999, 2500, 5000] {
            s.extend(n, &NoControl).unwrap();
            assert_eq!(s.values().len() as u64, n);
        }
        assert_eq!(s.values().to_vec(), want, "{code}");
    }
}

/// The one-value-at-a-time path (`compute`, as the default `extend_to` uses it).
#[test]
fn single_steps_match() {
    struct OneByOne(TakeAndBreakSparse);
    impl Step for OneByOne {
        fn compute<T: Val>(&mut self, g: &[T]) -> Result<u32> {
            self.0.compute(g)
        }
    }
    for code in ["4!.0", "0.354", "0.127", "0.77"] {
        let rule = TakeAndBreak::parse(code).unwrap();
        let mut s = Sequence::new(OneByOne(
            TakeAndBreakSparse::with_options(rule, eager()).unwrap(),
        ));
        s.extend(1500, &NoControl).unwrap();
        assert_eq!(s.values().to_vec(), exact(code, 1500), "{code}");
    }
}

/// Values too large for the storage: every smaller heap is pushed, then `Overflow`; the
/// driver widens and the solver goes on from there.
#[test]
fn overflow_then_wider_storage() {
    #[derive(Clone, Copy, Default, Debug, PartialEq)]
    struct Tiny(u8);
    impl Val for Tiny {
        const MAX: u32 = 7;
        fn get(self) -> u32 {
            self.0 as u32
        }
        fn new(v: u32) -> Self {
            Tiny(v as u8)
        }
    }
    let want = exact("4!.0", 3000);
    let rule = TakeAndBreak::parse("4!.0").unwrap();
    let mut eng = TakeAndBreakSparse::with_options(rule, eager()).unwrap();
    let mut tiny: Vec<Tiny> = Vec::new();
    assert_eq!(
        eng.extend_to(&mut tiny, 3000, &NoControl),
        Err(crate::engine::Stop::Overflow)
    );
    let first_big = want.iter().position(|&v| v > 7).unwrap();
    assert_eq!(tiny.len(), first_big);
    let mut wide: Vec<u32> = tiny.iter().map(|v| v.get()).collect();
    eng.extend_to(&mut wide, 3000, &NoControl).unwrap();
    assert_eq!(wide, want);
}

/// Interrupted by its control, the computation keeps what it proved and resumes.
#[test]
fn interrupted_and_resumed() {
    let want = exact("4!.0", 4000);
    let rule = TakeAndBreak::parse("4!.0").unwrap();
    let mut s = Sequence::new(TakeAndBreakSparse::with_options(rule, eager()).unwrap());
    assert_eq!(s.extend(4000, &StopAt(1000)), Err(Error::Interrupted));
    let got = s.values().to_vec();
    assert!(got.len() >= 1000);
    assert_eq!(got[..], want[..got.len()]);
    s.extend(4000, &NoControl).unwrap();
    assert_eq!(s.values().to_vec(), want);
}

/// Interrupted with other threads, the run stops within a second (its helpers with it: the
/// call returns) and keeps exact values (one thread's, which the tests above hold to the exact
/// engine's), at every thread count.
#[test]
fn interrupted_with_threads() {
    let n = 1 << 22;
    for k in [2, 3, 4] {
        let rule = TakeAndBreak::parse("0.354").unwrap();
        let mut s = Sequence::new(TakeAndBreakSparse::new(rule).unwrap());
        let start = Instant::now();
        let stop = Deadline(start + Duration::from_millis(100));
        let r = pool(k).install(|| s.extend(n, &stop));
        let took = start.elapsed();
        assert_eq!(r, Err(Error::Interrupted), "{k} threads");
        assert!(took < Duration::from_millis(1100), "{k} threads: {took:?}");
        let got = s.values().to_vec();
        assert!(got.len() < n as usize, "{k} threads");
        let want = pool(1).install(|| sparse_with("0.354", got.len() as u64, eager()));
        assert_eq!(got, want.values().to_vec(), "{k} threads");
    }
}

/// A panic in any part of a block run on two threads (a bug's stand-in, injected in tests only)
/// reaches the caller as that panic, with its message, whichever thread it hit: the others stop
/// waiting for the work it left undone (`queue::Broken`) instead of the run hanging.
#[test]
fn a_panic_in_a_block_ends_the_run() {
    use super::run::fault;
    use std::sync::atomic::Ordering;
    let sites = [
        fault::PART1,
        fault::AHEAD,
        fault::CONFIRM,
        fault::SEQUENTIAL,
    ];
    let cases = sites.into_iter().flat_map(|s| [(s, 0), (s, 50), (s, 400)]);
    // Then on a helper only (the sequential part runs on the block's thread alone).
    let on_helpers = sites[..3].iter().map(|&s| (s, 50));
    for (k, (site, skip)) in cases.chain(on_helpers).enumerate() {
        fault::SPARE_BLOCKS.store(k >= 3 * sites.len(), Ordering::Relaxed);
        fault::SKIP.store(skip, Ordering::Relaxed);
        fault::AT.store(site, Ordering::Relaxed);
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(2)
                .thread_name(|i| format!("fault-{i}"))
                .build()
                .unwrap();
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                pool.install(|| sparse_with("0.354", 1 << 22, SparseOptions::default()))
            }));
            // The fault's own message, whichever thread it hit (not the others' echo of it).
            let msg = r.err().map(|p| p.downcast_ref::<String>().cloned());
            tx.send(msg).ok();
        });
        let got = rx.recv_timeout(Duration::from_secs(30));
        fault::AT.store(0, Ordering::Relaxed);
        fault::SPARE_BLOCKS.store(false, Ordering::Relaxed);
        assert_eq!(
            got,
            Ok(Some(Some(format!("a fault injected at site {site}")))),
            "case {k}, site {site} after {skip}: a timeout is a run that hung, Ok(None) one the \
             fault missed"
        );
    }
}

/// Long runs against the exact engine and published periods. Minutes in a debug build:
/// `cargo test --release -- --ignored`.
#[test]
#[ignore]
fn long_runs_match_exact() {
    // 0.1777 and the mixed codes: three split digits, and digits with and without `!`, whose
    // splits share one row per sum (see `TakeAndBreakSparse::shifts`).
    let codes = [
        "0.16", "0.137", "0.354", "0.156", "4!.0", "0.77", "0.127", "0.1777", "0.4!7",
    ];
    for (k, code) in codes.into_iter().enumerate() {
        let n = if k < 7 { 200_000 } else { 100_000 };
        let want = exact(code, n);
        for opts in [SparseOptions::default(), eager()] {
            let got = sparse_with(code, n, opts).values().to_vec();
            assert_eq!(got, want, "{code} {opts:?}");
        }
    }
}

/// 0.16: preperiod 105351, period 149459, largest value 23 (Gangolli and Plambeck), checked
/// over the range the octal periodicity theorem asks for (t = 2).
#[test]
#[ignore]
fn published_period_of_0_16() {
    let (n0, p) = (105_351usize, 149_459usize);
    let n = 2 * n0 + p + 2;
    let g = sparse_with("0.16", n as u64, SparseOptions::default())
        .values()
        .to_vec();
    assert!((n0..n - p).all(|i| g[i] == g[i + p]));
    assert_ne!(g[n0 - 1], g[n0 - 1 + p]);
    assert_eq!(g.iter().max(), Some(&23));
}

/// Seeding from stored values rebuilds the state without replaying them: the sequence then
/// extends to the same values, and a wrong value among the last ones is still caught.
#[test]
fn resumes_from_stored_values() {
    for code in ["4!.0", "0.77", "0.6", "0.354"] {
        let rule = TakeAndBreak::parse(code).unwrap();
        let want = exact(code, 3000);
        for opts in [SparseOptions::default(), eager()] {
            for m in [0, 5, 16, 17, 100, 1000, 2999] {
                let step = TakeAndBreakSparse::with_options(rule.clone(), opts).unwrap();
                let mut s = Sequence::with_values(step, &want[..m]).unwrap();
                s.extend(3000, &NoControl).unwrap();
                assert_eq!(s.values().to_vec(), want, "{code} from {m}");
            }
        }
        // Only the last values are recomputed (replaying all of them was slower than a fresh run).
        struct Counting(TakeAndBreakSparse, usize);
        impl Step for Counting {
            fn resume<T: Val>(&mut self, g: &[T]) -> Result<usize> {
                self.0.resume(g)
            }
            fn compute<T: Val>(&mut self, g: &[T]) -> Result<u32> {
                self.1 += 1;
                self.0.compute(g)
            }
        }
        let counting = Counting(TakeAndBreakSparse::new(rule.clone()).unwrap(), 0);
        let s = Sequence::with_values(counting, &want).unwrap();
        assert_eq!(s.step().1, crate::engine::RESUME_CHECK, "{code}");
        let mut bad = want[..2000].to_vec();
        bad[1995] ^= 1;
        let step = TakeAndBreakSparse::new(rule.clone()).unwrap();
        let r = Sequence::with_values(step, &bad);
        assert!(matches!(r, Err(crate::Error::Invalid(_))), "{code}");
    }
}
