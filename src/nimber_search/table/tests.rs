//! The table's tests: budget, replacement, growth (in chunks), threads.

use super::*;

impl<const KW: usize> Table<KW> {
    /// Buckets in use.
    fn in_use(&self) -> usize {
        self.used.load(Ordering::Relaxed)
    }

    /// Slots in use, counted one by one.
    fn counted(&self) -> u64 {
        self.buckets
            .iter()
            .flat_map(|b| b.iter())
            .filter(|s| s.data.load(Ordering::Relaxed) & USED != 0)
            .count() as u64
    }
}

#[test]
fn table_sizes() {
    assert_eq!(std::mem::size_of::<Bucket<1>>(), 64);
    assert_eq!(std::mem::size_of::<Bucket<2>>(), 96);
    assert!(Table::with_budget(143).is_err());
    assert_eq!(Table::with_budget(144).unwrap().capacity(), 4);
    assert_eq!(Table::with_budget(MIN_BYTES).unwrap().capacity(), 4);
    assert_eq!(
        NarrowTable::narrow_with_budget(MIN_BYTES)
            .unwrap()
            .capacity(),
        8
    );
    assert!(NarrowTable::narrow_with_budget(111).is_err());
    assert_eq!(NarrowTable::narrow_with_budget(112).unwrap().capacity(), 4);
    // The buckets start on a cache line, and the table keeps to its budget.
    for bytes in [MIN_BYTES, 1000, 1 << 20] {
        let t = NarrowTable::narrow_with_budget(bytes).unwrap();
        assert_eq!(t.buckets.first.as_ptr() as usize % 64, 0);
        assert!(t.bytes() <= bytes);
        let t = Table::with_budget(bytes).unwrap();
        assert_eq!(t.buckets.first.as_ptr() as usize % 64, 0);
        assert!(t.bytes() <= bytes);
    }
    // A narrow table never holds a key past 64 bits.
    let t = NarrowTable::narrow_with_budget(1 << 12).unwrap();
    t.store_exact(1 << 64 | 5, 2, 3);
    assert_eq!(
        (t.exact(1 << 64 | 5), t.exact(5), t.entries()),
        (None, None, 0)
    );
    t.store_exact(5, 2, 3);
    assert_eq!((t.exact(1 << 64 | 5), t.exact(5)), (None, Some(2)));
}

#[test]
fn table_keeps_to_its_budget_and_replaces() {
    keeps_to_its_budget_and_replaces(|b| Table::with_budget(b).unwrap());
    keeps_to_its_budget_and_replaces(|b| NarrowTable::narrow_with_budget(b).unwrap());
}

fn keeps_to_its_budget_and_replaces<const KW: usize>(make: impl Fn(u64) -> Table<KW>) {
    let t = make(MIN_BYTES);
    assert!(t.capacity() == 4 || t.capacity() == 8);
    for k in 0..100u128 {
        t.store_exact(k << 40 | k, (k % 5) as u32, (k % 20) as u32);
    }
    assert!(t.entries() <= t.capacity());
    assert!(t.bytes() <= MIN_BYTES);
    // Whatever is still there is right.
    for k in 0..100u128 {
        if let Some(v) = t.exact(k << 40 | k) {
            assert_eq!(v, (k % 5) as u32);
        }
    }
    // Excluded values accumulate, and an exact value answers them all.
    let t = make(1 << 12);
    t.store_not(5, 0b1, 3);
    t.store_not(5, 0b100, 3);
    assert_eq!(t.probe(5), (None, 0b101));
    t.store_exact(5, 1, 3);
    assert_eq!(t.exact(5), Some(1));
    assert_eq!(t.probe(5).1, !0b10);
}

/// A full table keeps its costly entries: one learnt in many nodes outlasts a stream of
/// cheap ones, and of two of the same cost the exact value stays.
#[test]
fn full_tables_keep_the_costly_entries() {
    let t = NarrowTable::narrow_with_budget(64 + SLACK).unwrap(); // one bucket of 4
    let costly = Policy::Work.cost(40, 1 << 20);
    assert_eq!(costly, 21);
    assert_eq!(Policy::Work.cost(40, 0), 0);
    assert_eq!(Policy::Size.cost(40, 1 << 20), 40);
    t.store_not(1, 0b11, costly);
    t.store_exact(2, 3, 5);
    for k in 3..1000u128 {
        t.store_not(k, 0b1, Policy::Work.cost(9, (k % 7) as u64));
    }
    assert_eq!(t.probe(1), (None, 0b11));
    assert_eq!(t.exact(2), Some(3));
    // A later, costlier search of a key raises its cost; a cheaper one leaves it.
    let t = NarrowTable::narrow_with_budget(64 + SLACK).unwrap();
    t.store_not(7, 0b1, 2);
    t.store_not(7, 0b10, 9);
    t.store_not(7, 0b100, 1);
    let mut seen = Vec::new();
    t.for_each(|k, d| seen.push((k, d)));
    assert_eq!(seen, vec![(7, 9 << COST_SHIFT | 0b111)]);
}

/// A bound never pushes out an exact value, however costly the bound and however many come,
/// unless the bucket holds only exact values; through it all the table keeps to its budget.
#[test]
fn exact_values_outlast_a_flood_of_bounds() {
    exact_outlasts_bounds(|b| Table::with_budget(b).unwrap());
    exact_outlasts_bounds(|b| NarrowTable::narrow_with_budget(b).unwrap());
}

fn exact_outlasts_bounds<const KW: usize>(make: impl Fn(u64) -> Table<KW>) {
    let one = std::mem::size_of::<Bucket<KW>>() as u64 + SLACK;
    let t = make(one); // one bucket of 4
    t.store_exact(1, 3, 0); // learnt in no node
    t.store_exact(2, 5, 1);
    for k in 10..2000u128 {
        t.store_not(k, 0b1, 40); // a million million nodes each
        assert!(t.bytes() <= one && t.entries() <= 4);
    }
    assert_eq!((t.exact(1), t.exact(2)), (Some(3), Some(5)));
    // The bounds keep the other slots: the latest is there.
    assert_eq!(t.probe(1999), (None, 0b1));
    // A bucket of exact values only: a bound takes the least worthy one's place.
    for k in 3..5u128 {
        t.store_exact(k, 1, 1);
    }
    t.store_exact(5, 2, 30);
    t.store_not(6, 0b10, 2);
    assert_eq!(t.probe(6), (None, 0b10));
    assert_eq!(t.exact(1), None, "the cheapest exact value went");
    assert_eq!(t.exact(5), Some(2));
    // Exact values among themselves go by worth: a costlier one stays.
    for k in 100..200u128 {
        t.store_exact(k, 0, 3);
    }
    assert_eq!(t.exact(5), Some(2));
    // Many buckets: every exact value stored stays through bounds past the capacity.
    let budget = 32 * std::mem::size_of::<Bucket<KW>>() as u64 + SLACK;
    let t = make(budget);
    let exact: Vec<u128> = (0..24u128).map(|k| k * 7919).collect();
    for &k in &exact {
        t.store_exact(k, (k % 11) as u32, 1);
    }
    for k in 0..20_000u128 {
        t.store_not(k << 20 | 1, 0b111, 25);
    }
    assert!(t.bytes() <= budget && t.entries() <= t.capacity());
    let kept = exact
        .iter()
        .filter(|&&k| t.exact(k) == Some((k % 11) as u32));
    // A bucket meets at most four of them: all stay unless five fell in one bucket.
    assert_eq!(kept.count(), exact.len());
}

/// An entry found since its bucket last replaced one outlasts the others, even costlier ones;
/// one not found again by the next replacement is worth no more than before.
#[test]
fn found_entries_get_a_second_chance() {
    let t = NarrowTable::narrow_with_budget(64 + SLACK).unwrap(); // one bucket of 4
    t.store_not(1, 0b1, 2);
    for k in 2..1000u128 {
        assert_eq!(t.probe(1), (None, 0b1), "found at every turn, kept");
        t.store_not(k, 0b1, 6); // costlier, never found again
    }
    // Not found since the last replacement (which took its mark): the next one pushes it out.
    t.store_not(1000, 0b1, 6);
    assert_eq!(t.probe(1), (None, 0));
}

/// A table that grows keeps what it holds (growth never loses an entry while the buckets
/// are at most a quarter full), and stops at its budget.
#[test]
fn table_grows_in_place_within_its_budget() {
    // Keys of 64 bits, that both kinds hold, and keys of 128 bits in the wide one.
    let short = |k: u128| k.wrapping_mul(0x9e37_79b9_7f4a_7c15) as u64 as u128;
    grows_in_place(|b| Table::with_budget(b).unwrap(), short);
    grows_in_place(|b| NarrowTable::narrow_with_budget(b).unwrap(), short);
    grows_in_place(
        |b| Table::with_budget(b).unwrap(),
        |k| k.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835),
    );
}

fn grows_in_place<const KW: usize>(make: impl Fn(u64) -> Table<KW>, key: impl Fn(u128) -> u128) {
    let t = make((128 << 16) + SLACK);
    let buckets = t.capacity() as usize / WAYS;
    assert_eq!(t.in_use(), FIRST_BUCKETS);
    let n = 100_000u128;
    for k in 0..n {
        t.store_exact(key(k), (k % 7) as u32, 9);
    }
    assert!(t.in_use() >= 1 << 16 && t.in_use() <= buckets);
    assert!(t.bytes() <= (128 << 16) + SLACK);
    let kept = (0..n)
        .filter(|&k| t.exact(key(k)) == Some((k % 7) as u32))
        .count() as u64;
    assert_eq!(kept, t.entries());
    assert!(kept > 90_000, "{kept}");
    // Growing loses nothing: every key there just before the first growth is there after.
    let t = make((128 << 16) + SLACK);
    let mut before = Vec::new();
    for k in 0..4096u128 {
        // Growth is looked at when a thread's count reaches a multiple of 64, and when a store
        // pushes an entry out: what the table holds just before the store that grows it.
        before = (0..k).filter(|&j| t.exact(key(j)).is_some()).collect();
        t.store_exact(key(k), 1, 9);
        if t.in_use() > FIRST_BUCKETS {
            before.push(k);
            break;
        }
    }
    assert_eq!(t.in_use(), 4 * FIRST_BUCKETS);
    assert!(before.len() >= FIRST_BUCKETS * WAYS / 2, "{}", before.len());
    assert!(before.iter().all(|&j| t.exact(key(j)) == Some(1)));
}

/// Growth does not wait for one thread to add 64 entries: eight threads that add 31 each (each
/// counting its own) fill the first buckets past half, and the table grows. It stayed in its
/// first buckets before, pushing out entry after entry (a search on 8 cores found 80 times the
/// nodes).
#[test]
fn many_threads_that_each_add_few_entries_grow_the_table() {
    let t = Table::with_budget((128 << 16) + SLACK).unwrap();
    let key = |k: u128| k.wrapping_mul(0x9e37_79b9_7f4a_7c15) as u64 as u128;
    for i in 0..8u128 {
        // One thread after another: each a new thread, with a counter of its own.
        std::thread::scope(|s| {
            s.spawn(|| (0..31).for_each(|j| t.store_exact(key(i * 31 + j + 1), 1, 9)));
        });
    }
    assert!(t.in_use() > FIRST_BUCKETS, "{} buckets", t.in_use());
    let kept = (1..=8 * 31).filter(|&k| t.exact(key(k)) == Some(1)).count();
    assert!(kept >= 8 * 31 - 16, "{kept} of {}", 8 * 31);
}

/// A large table's growth moves its entries a chunk at a time, each store moving at most
/// one chunk (a move of gigabytes at once took seconds without a poll), and loses nothing
/// that is only looked up: every key stored before is found at every step of the move.
#[test]
fn a_large_growth_moves_in_chunks_and_loses_nothing() {
    let key = |k: u128| k.wrapping_mul(0x9e37_79b9_7f4a_7c15_f39c_c060_5ced_c835);
    let t = Table::with_budget((128 << 16) + SLACK).unwrap();
    let mut k = 0u128;
    // Up to the growth from 4 * 4 * 64 = 1,024 buckets to 4,096: four chunks to move.
    while t.in_use() < 1024 {
        t.store_exact(key(k), (k % 5) as u32, 9);
        k += 1;
    }
    // What a full bucket dropped before the growth is not asked of it.
    let mut before: Vec<u128> = Vec::new();
    while t.in_use() == 1024 {
        before = (0..k).filter(|&j| t.exact(key(j)).is_some()).collect();
        t.store_exact(key(k), (k % 5) as u32, 9);
        k += 1;
    }
    before.push(k - 1);
    assert!(before.len() > 1024 * WAYS * 4 / 10, "{}", before.len());
    assert_eq!(t.in_use(), 4096);
    let all_found = || {
        before
            .iter()
            .all(|&j| t.exact(key(j)) == Some((j % 5) as u32))
    };
    // The growth's store moved two chunks (its own, and one as every store does).
    assert_eq!(t.left.load(Ordering::Relaxed), 1024 - 2 * MOVE_CHUNK);
    assert!(all_found());
    // A key not moved yet, stored again (to a new bucket past the old ones, where it takes
    // no old entry's place): its entry keeps what the old one said.
    let j = *before
        .iter()
        .find(|&&j| (256..1024 - 2 * MOVE_CHUNK).contains(&bucket_of(key(j), 1024)))
        .unwrap();
    t.store_not(key(j), 1 << 7, 2);
    assert!(t.known_not(key(j), 7) && t.exact(key(j)) == Some((j % 5) as u32));
    assert_eq!(
        t.left.load(Ordering::Relaxed),
        1024 - 3 * MOVE_CHUNK,
        "one chunk a store"
    );
    assert!(all_found());
    t.move_some();
    assert_eq!(t.moving.load(Ordering::Relaxed), 0, "moved");
    assert!(all_found());
    let found = (0..k).filter(|&j| t.exact(key(j)).is_some()).count() as u64;
    assert_eq!(t.entries(), found, "no key twice");
    assert_eq!(t.counted(), found);
}

/// Threads storing and looking up at once, through growth, on keys that differ in a few
/// bits (so that a torn key would look like another): every hit is the key's own value.
#[test]
fn table_shared_by_threads_never_answers_wrong() {
    // Keys that differ in a few bits of either word, or of the one word.
    shared_never_wrong(&Table::with_budget((96 << 12) + SLACK).unwrap(), |i, j| {
        u128::from(i & 0xff) << 64 | u128::from(1u64 << (j % 64) | i)
    });
    shared_never_wrong(
        &NarrowTable::narrow_with_budget((64 << 12) + SLACK).unwrap(),
        |i, j| u128::from((i & 0xff) << 48 | 1u64 << (j % 48) | i),
    );
}

/// Growth to 4,096 buckets, then replacement.
fn shared_never_wrong<const KW: usize>(t: &Table<KW>, key: impl Fn(u64, u64) -> u128 + Sync) {
    let value = |k: u128| (k.count_ones() + (k >> 48) as u32) % 7;
    let wrong = std::sync::atomic::AtomicU64::new(0);
    let hits = std::sync::atomic::AtomicU64::new(0);
    std::thread::scope(|sc| {
        for th in 0..4u64 {
            let (wrong, hits, key) = (&wrong, &hits, &key);
            sc.spawn(move || {
                let mut rng = crate::engine::testing::Rng(th + 1);
                for _ in 0..200_000 {
                    let k = key(rng.below(600), rng.below(64));
                    let v = value(k);
                    match rng.below(3) {
                        0 => t.store_exact(k, v, (k as u32) % 20),
                        1 => t.store_not(k, !(1 << v) & (1 << rng.below(32)), 3),
                        _ => {
                            let (exact, not) = t.probe(k);
                            if exact.is_some() || not != 0 {
                                hits.fetch_add(1, Ordering::Relaxed);
                            }
                            if exact.is_some_and(|x| x != v) || not >> v & 1 == 1 {
                                wrong.fetch_add(1, Ordering::Relaxed);
                            }
                        }
                    }
                }
            });
        }
    });
    assert_eq!(wrong.load(Ordering::Relaxed), 0);
    assert!(hits.load(Ordering::Relaxed) > 1000);
    assert_eq!(t.in_use(), 4096);
    assert!(t.entries() <= t.capacity());
    assert_eq!(t.counted(), t.entries());
}
