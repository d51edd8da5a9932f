//! The transposition table of the nimber search: a fixed array of buckets, keyed by a
//! component's canonical key (kept whole, so a hit is never a different component), holding
//! its exact value or the values it is known not to have.
//!
//! A key takes `KW` words: [`Table`] (two, any `u128` key: 24-byte entries) or [`NarrowTable`]
//! (one, for games whose keys fit 64 bits, such as boards of at most 64 cells: 16-byte entries,
//! a bucket of four on one cache line, so that a probe costs one miss, not two, and a budget
//! holds half as many again).
//!
//! A full bucket gives the slot of its least worthy entry to a new one (see [`worth`]): an
//! entry found since the bucket last replaced one (a second chance, as the clock algorithm of
//! page caches gives), and an exact value, which a bound (values ruled out) never pushes out
//! while the bucket holds anything else, are kept over the rest. A search of a strip of Node
//! Kayles asks the exact values of its small pieces in sum after sum, and a table a tenth of
//! what the search fills lost them to the flood of bounds (`benchmarks/board.md`, "Small
//! tables, what is lost").
//!
//! Several threads may use one table at once (the parallel search shares it), without locks
//! on the lookups: each slot is three atomic words, and its data word carries a lock bit and a
//! version that every write takes and bumps (a seqlock per slot). A reader takes a slot only
//! when its data word reads the same, unlocked, before and after its key: a slot being written
//! reads as missing, never as a key with another key's data. (A false hit would need 8,192
//! writes to that very slot between two loads a few instructions apart, and the torn key to
//! equal the one looked up.) Two threads storing at once may lose an entry or keep a key twice:
//! a table only forgets, it never answers wrong.
//!
//! ```
//! use grundy::nimber_search::Table;
//! let t = Table::with_budget(1 << 10).unwrap(); // 1 KiB: 10 buckets of 4 entries
//! t.store_exact(42, 3, 5);
//! t.store_not(7, 0b1, 2); // 7 is not 0
//! assert_eq!(t.exact(42), Some(3));
//! assert!(t.known_not(7, 0) && !t.known_not(7, 1));
//! assert!(t.bytes() <= 1 << 10);
//! ```

use crate::error::{Error, Result};
use crate::memory;
use std::sync::atomic::{fence, AtomicBool, AtomicU64, AtomicUsize, Ordering};

/// Entries per bucket; a new entry replaces the bucket's least useful one.
const WAYS: usize = 4;
/// Values below this are remembered as "not this value"; larger ones only when exact.
const NOT_BITS: u32 = 32;
/// Exact values below this are stored (no board of 128 cells has a value past 127).
const MAX_EXACT: u32 = 0xfe;
/// The data word's version: bumped by every write of the slot.
const VERSION_SHIFT: u32 = 49;
const VERSION: u64 = 0x1fff << VERSION_SHIFT;
/// The entry was found (looked up and there) since its bucket last replaced an entry.
const FOUND: u64 = 1 << 48;
/// A thread is writing the slot.
const LOCK: u64 = 1 << 62;
/// An entry is in use (an all-zero slot is free).
const USED: u64 = 1 << 63;

/// An entry: the key's `KW` words (low first), and its data word: bits 0..32, values the
/// component is known not to have; bits 32..40, its value + 1, or 0 when unknown; bits 40..48,
/// its cost (what it took to learn: see [`Policy`]); bit 48, [`FOUND`]; bits 49..62, the
/// slot's version; bit 62, [`LOCK`]; bit 63, [`USED`].
/// Atomics that are zero when free, so that a new table is zeroed by the allocator (pages the
/// search never touches cost nothing).
#[repr(C)]
struct Slot<const KW: usize> {
    key: [AtomicU64; KW],
    data: AtomicU64,
}

/// A bucket: one cache line for a narrow table (64 bytes, the buckets starting on a line); two
/// lines for a wide one (96 bytes, the first or last 32 of a line and the next line whole: padded
/// to 128, as they were, a budget held a quarter fewer entries, and Node Kayles 3 x 28 with a
/// table of 0.3 MiB searched 1,768,840 nodes instead of 1,369,729).
#[repr(C)]
struct Bucket<const KW: usize>([Slot<KW>; WAYS]);

impl<const KW: usize> std::ops::Deref for Bucket<KW> {
    type Target = [Slot<KW>; WAYS];
    fn deref(&self) -> &[Slot<KW>; WAYS] {
        &self.0
    }
}

/// Bytes the allocation may take past the buckets, to start them on a cache line.
const SLACK: u64 = 48;

/// The smallest budget of a table of either kind that the search makes: two cache lines and the
/// slack (one wide bucket, or two narrow ones).
pub(crate) const MIN_BYTES: u64 = 128 + SLACK;

/// Buckets on cache lines, in zeroed memory: allocated 16-aligned (a larger alignment makes the
/// allocator clear the whole block at once, 26 ms for 64 MiB, where zeroed pages fresh from
/// the system cost nothing until touched) and started at the first cache line.
struct Buckets<B> {
    first: std::ptr::NonNull<B>,
    len: usize,
    base: *mut u8,
    layout: std::alloc::Layout,
}

// SAFETY: the buckets are owned (freed once, on drop) and used through shared references to
// `B`, which is `Sync` (atomics).
unsafe impl<B: Sync> Send for Buckets<B> {}
unsafe impl<B: Sync> Sync for Buckets<B> {}

impl<B> Buckets<B> {
    /// `n >= 1` all-zero buckets, or `None` when the allocation fails.
    fn zeroed(n: usize) -> Option<Buckets<B>> {
        debug_assert!(std::mem::align_of::<B>() <= 64 && n >= 1);
        let size = std::mem::size_of::<B>()
            .checked_mul(n)?
            .checked_add(SLACK as usize)?;
        let layout = std::alloc::Layout::from_size_align(size, 16).ok()?;
        // SAFETY: the layout is not empty; the first line boundary is at most 48 bytes past a
        // 16-aligned base, so `n` buckets fit after it; all-zero bytes are valid buckets (free
        // slots of atomics).
        unsafe {
            let base = std::alloc::alloc_zeroed(layout);
            if base.is_null() {
                return None;
            }
            advise_huge_pages(base, size);
            let first = base.add(base.align_offset(64)).cast::<B>();
            Some(Buckets {
                first: std::ptr::NonNull::new(first)?,
                len: n,
                base,
                layout,
            })
        }
    }
}

/// Where in a table's allocation huge pages start to be asked for (8 MiB, what a core's
/// translation cache covers in 4 KiB pages).
const HUGE_FROM: usize = 8 << 20;

/// Asks the system for huge pages (2 MiB) under `len` bytes at `base` from [`HUGE_FROM`] on: a
/// probe of a table of hundreds of MiB then finds its page's translation cached (Cram 5 x 9 on
/// a 512 MiB table: 5 to 8% less time on one thread, 10 to 15% on two, which share the cache
/// of translations less well). A table puts its buckets to use from the first on, four times
/// more each time they are half full, and a huge page is touched only once the buckets in use
/// reach it, so its pages fill up anyway and memory in use does not grow: the first 8 MiB stay
/// in small pages so that a small search still touches few. Advice only: where the system
/// gives no huge pages (or has no such call), nothing changes.
#[cfg(target_os = "linux")]
fn advise_huge_pages(base: *mut u8, len: usize) {
    const HUGE: usize = 2 << 20;
    let start = (base as usize + HUGE_FROM).next_multiple_of(HUGE);
    let end = (base as usize + len) & !4095;
    if end > start + HUGE {
        // SAFETY: whole pages inside the allocation just made; the advice changes no byte.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_base: *mut u8, _len: usize) {}

impl<B> std::ops::Deref for Buckets<B> {
    type Target = [B];
    fn deref(&self) -> &[B] {
        // SAFETY: `len` initialised buckets from `first`, alive as long as `self`.
        unsafe { std::slice::from_raw_parts(self.first.as_ptr(), self.len) }
    }
}

impl<B> Drop for Buckets<B> {
    fn drop(&mut self) {
        // SAFETY: allocated in `zeroed` with this layout, freed once. (Buckets of atomics need
        // no drop.)
        unsafe { std::alloc::dealloc(self.base, self.layout) }
    }
}

/// A key as `KW` words, low first; `None` when it does not fit.
#[inline]
fn words<const KW: usize>(key: u128) -> Option<[u64; KW]> {
    let w: [u64; KW] = std::array::from_fn(|i| (key >> (64 * i)) as u64);
    (KW >= 2 || key >> 64 == 0).then_some(w)
}

/// The key of words `w`.
#[inline]
fn key_of<const KW: usize>(w: &[u64; KW]) -> u128 {
    w.iter()
        .enumerate()
        .fold(0, |k, (i, &x)| k | u128::from(x) << (64 * i))
}

#[inline]
fn exact_of(d: u64) -> Option<u32> {
    let v = (d >> 32) & 0xff;
    (v != 0).then(|| v as u32 - 1)
}

/// The bits of the data word an entry's contents take (what a checkpoint keeps): the values
/// excluded, the value and the cost.
pub(crate) const CONTENTS: u64 = (1 << 48) - 1;
/// The cost byte of the data word.
const COST_SHIFT: u32 = 40;
const COST: u64 = 0xff << COST_SHIFT;

/// What a [`FOUND`] entry is worth more: as much as costing 256 times the nodes (an entry
/// looked up again is likely to be looked up again; 4: Node Kayles 3 x 28 in 0.3 MiB 1,762,921
/// nodes, 16: 1,369,729, 40: 1,415,631).
const FOUND_WORTH: u64 = 16;
/// What an exact value is worth more when a bound comes: more than any bound.
const EXACT_WORTH: u64 = 1 << 12;

/// How much keeping entry `d` is worth when a new entry needs a slot of its bucket (the least
/// worthy gives way; a free slot is worth nothing), the new one exact or not (`exact`): one that
/// cost more to learn costs more to learn again, an exact value says more than a few excluded
/// ones, and one found since the bucket last replaced an entry is worth [`FOUND_WORTH`] more. A
/// bound gives way to an exact value, never the other way, unless the bucket holds only exact
/// values: a bound answers fewer questions, and it is the exact values of a sum's small parts
/// that a search asks again and again (Node Kayles 3 x 28 in 0.3 MiB: 1,866,924 nodes without
/// this, 1,369,729 with it, both with [`FOUND`]).
#[inline]
fn worth(d: u64, exact: bool) -> u64 {
    if d & USED == 0 {
        return 0;
    }
    let kept = exact_of(d).is_some();
    let found = if d & FOUND != 0 { FOUND_WORTH } else { 0 };
    let over = if kept && !exact { EXACT_WORTH } else { 0 };
    1 + 2 * ((d & COST) >> COST_SHIFT) + u64::from(kept) + found + over
}

/// What a full table keeps: each entry's cost byte, which the table weighs (the entry of least
/// worth in a bucket gives way to a new one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Policy {
    /// The component's size in cells: large components cost more to search again.
    Size,
    /// The nodes searched under the entry, as `1 + log2` (0 for what no search learnt):
    /// the costly subtrees stay, the many cheap entries near the leaves go first (with an
    /// entry's other worth: see the module's notes). With a table a tenth of what it fills,
    /// Cram 5 x 8 searches 1.4x the nodes, Node Kayles 3 x 28 2.0x (see `benchmarks/board.md`,
    /// "Small tables").
    #[default]
    Work,
}

impl Policy {
    /// The cost byte of an entry for a component of `size` cells learnt in `work` nodes.
    #[inline]
    pub fn cost(self, size: u32, work: u64) -> u32 {
        match self {
            Policy::Size => size.min(0xff),
            Policy::Work => 64 - work.leading_zeros(),
        }
    }
}

/// `d`'s version bumped, with the lock and version bits of `d` replaced.
#[inline]
fn bumped(seen: u64, d: u64) -> u64 {
    let v = (seen & VERSION).wrapping_add(1 << VERSION_SHIFT) & VERSION;
    d & !(VERSION | LOCK) | v
}

/// The bucket of `key` among `n`: the hash scaled to `0..n`.
#[inline]
fn bucket_of(key: u128, n: usize) -> usize {
    let (lo, hi) = (key as u64, (key >> 64) as u64);
    let mut h = lo ^ hi.rotate_left(29).wrapping_mul(0xff51_afd7_ed55_8ccd);
    h = (h ^ (h >> 32)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    h ^= h >> 29;
    ((u128::from(h) * n as u128) >> 64) as usize
}

impl<const KW: usize> Slot<KW> {
    /// The data word of the slot when it holds key `k` (read whole: see the module's notes).
    #[inline]
    fn holds(&self, k: &[u64; KW]) -> Option<u64> {
        let d = self.data.load(Ordering::Acquire);
        if d & (USED | LOCK) != USED || (0..KW).any(|i| self.key[i].load(Ordering::Relaxed) != k[i])
        {
            return None;
        }
        fence(Ordering::Acquire);
        (self.data.load(Ordering::Relaxed) == d).then_some(d)
    }

    /// Writes key `k` and data `d` in place of what the slot held when its data word read
    /// `seen`; `false` (nothing written) when another thread wrote it since.
    #[inline]
    fn write(&self, seen: u64, k: &[u64; KW], d: u64) -> bool {
        if seen & LOCK != 0
            || self
                .data
                .compare_exchange(seen, seen | LOCK, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
        {
            return false;
        }
        fence(Ordering::Release);
        for (w, &x) in self.key.iter().zip(k) {
            w.store(x, Ordering::Relaxed);
        }
        self.data.store(bumped(seen, d), Ordering::Release);
        true
    }

    /// The key and data word of the slot when it holds an entry that no thread is writing
    /// (read as [`Slot::holds`] reads, whatever the key).
    fn read(&self) -> Option<([u64; KW], u64)> {
        let d = self.data.load(Ordering::Acquire);
        if d & (USED | LOCK) != USED {
            return None;
        }
        let k = std::array::from_fn(|i| self.key[i].load(Ordering::Relaxed));
        fence(Ordering::Acquire);
        (self.data.load(Ordering::Relaxed) == d).then_some((k, d))
    }

    /// Takes the entry out (the slot left free): its key and data, or `None` when it is free or
    /// being written.
    fn take(&self) -> Option<([u64; KW], u64)> {
        let d = self.data.load(Ordering::Acquire);
        if d & (USED | LOCK) != USED
            || self
                .data
                .compare_exchange(d, d | LOCK, Ordering::Acquire, Ordering::Relaxed)
                .is_err()
        {
            return None;
        }
        let k = std::array::from_fn(|i| self.key[i].load(Ordering::Relaxed));
        self.data.store(bumped(d, 0), Ordering::Release);
        Some((k, d))
    }
}

/// A fixed-size transposition table: `u128` keys to exact values or excluded values, shared by
/// reference between threads.
///
/// The whole budget is allocated at once (zeroed pages that cost nothing until touched), but
/// only its first `used` buckets are in use, four times more each time they are half full:
/// a small search touches few pages (a page's first touch costs more than a probe). The entries
/// are then moved a few buckets at a time (256, `MOVE_CHUNK`), by whichever thread stores next and
/// finds no other moving, while the others go on (an entry on its way reads as missing): one
/// move of a table of gigabytes takes seconds, and a search must poll Ctrl-C meanwhile.
pub struct Table<const KW: usize = 2> {
    buckets: Buckets<Bucket<KW>>,
    used: AtomicUsize,
    /// While a thread moves the entries to more buckets, the buckets in use before (0 when no
    /// move is under way): where a lookup that missed looks again, so that the other threads
    /// of a parallel search do not lose every entry not moved yet for the move's time (and
    /// search again what they held).
    moving: AtomicUsize,
    /// Old buckets not moved yet during a move (`0..left`, moved from the last down).
    left: AtomicUsize,
    /// Held by the one thread that moves entries now (a chunk, or the start of a move).
    mover: AtomicBool,
    /// Entries in use, counted apart by each thread (a counter every thread wrote would take
    /// the cache line of `buckets` and `used`, read at every probe, from the others).
    entries: [Counter; SHARDS],
}

/// Counters of [`Table::entries`].
const SHARDS: usize = 8;

/// A counter alone on its cache lines.
#[derive(Debug, Default)]
#[repr(align(128))]
struct Counter(AtomicU64);

/// This thread's counter.
fn shard() -> usize {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    thread_local! {
        static SHARD: usize = NEXT.fetch_add(1, Ordering::Relaxed) % SHARDS;
    }
    SHARD.with(|s| *s)
}

/// A [`Table`] of keys below 2^64 (a key past that is never found, never stored).
pub type NarrowTable = Table<1>;

impl<const KW: usize> std::fmt::Debug for Table<KW> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Table")
            .field("buckets", &self.buckets.len())
            .field("used", &self.used)
            .field("entries", &self.entries)
            .finish()
    }
}

/// Buckets in use at first: 6 KiB, two pages. (1,024 buckets cost Cram 3x4, 18 nodes, 88 µs
/// instead of 38 µs: a first touch of each of the pages its entries fell on.)
const FIRST_BUCKETS: usize = 1 << 6;

/// Old buckets moved at a time when the table grows (a few tens of microseconds of work).
const MOVE_CHUNK: usize = 256;

/// What two entries of one key say together: the bits of both, the larger cost.
#[inline]
fn joined(a: u64, b: u64) -> u64 {
    (a | b) & !COST | (a & COST).max(b & COST)
}

impl Table {
    /// The most buckets that fit in `bytes` (at least one: 144 bytes, a bucket of 96 and 48 to
    /// start it on a cache line).
    ///
    /// # Errors
    /// [`Error::Invalid`] when `bytes` is below one bucket; [`Error::Memory`] when the machine
    /// does not have that much memory available.
    pub fn with_budget(bytes: u64) -> Result<Table> {
        Table::alloc(bytes)
    }
}

impl NarrowTable {
    /// The most buckets that fit in `bytes` (at least one: 112 bytes, a bucket of 64 and 48 to
    /// start it on a cache line).
    ///
    /// # Errors
    /// As [`Table::with_budget`].
    pub fn narrow_with_budget(bytes: u64) -> Result<NarrowTable> {
        Table::alloc(bytes)
    }
}

impl<const KW: usize> Table<KW> {
    fn alloc(bytes: u64) -> Result<Table<KW>> {
        let per = std::mem::size_of::<Bucket<KW>>() as u64;
        if bytes < per + SLACK {
            return Err(Error::Invalid(format!(
                "the memory budget must be at least {} bytes, not {bytes}",
                per + SLACK
            )));
        }
        let n = (bytes - SLACK) / per;
        memory::check(n * per + SLACK)?;
        let too_much = || Error::Memory {
            requested: bytes,
            available: memory::available().unwrap_or(0),
        };
        let n = usize::try_from(n).map_err(|_| too_much())?;
        let buckets = Buckets::zeroed(n).ok_or_else(too_much)?;
        Ok(Table {
            buckets,
            used: AtomicUsize::new(n.min(FIRST_BUCKETS)),
            moving: AtomicUsize::new(0),
            left: AtomicUsize::new(0),
            mover: AtomicBool::new(false),
            entries: Default::default(),
        })
    }

    /// Bytes the table takes (never more than its budget).
    pub fn bytes(&self) -> u64 {
        self.buckets.layout.size() as u64
    }

    /// Entries in use.
    pub fn entries(&self) -> u64 {
        let n = self.entries.iter().map(|c| c.0.load(Ordering::Relaxed));
        // A thread's counter goes below 0 when it moves entries that others stored.
        n.fold(0u64, u64::wrapping_add)
    }

    /// Counts `d` more entries (`d` may be negative); the new count of this thread's counter.
    #[inline]
    fn count(&self, d: i64) -> u64 {
        let c = &self.entries[shard()].0;
        c.fetch_add(d as u64, Ordering::Relaxed)
            .wrapping_add(d as u64)
    }

    /// Entries it can hold.
    pub fn capacity(&self) -> u64 {
        (self.buckets.len() * WAYS) as u64
    }

    #[inline]
    fn bucket(&self, key: u128) -> &Bucket<KW> {
        &self.buckets[bucket_of(key, self.used.load(Ordering::Relaxed))]
    }

    /// Puts four times as many buckets to use (at most all), in place: with the bucket a
    /// multiple of the hash, old bucket `b`'s entries go to new buckets from `b * new / old` on,
    /// never below `b`, so the old buckets are moved from the last down (where two old buckets
    /// share a new one, the least useful entries may go), one chunk at a time
    /// ([`Table::move_some`]). Nothing when a move is under way or another thread holds the
    /// mover's flag (the growth is looked at again 64 entries later). An entry stored meanwhile
    /// in a bucket not moved yet may take an old entry's place (a miss, later).
    fn grow(&self, old: usize) {
        let new = old.saturating_mul(4).min(self.buckets.len());
        if new <= old || self.mover.swap(true, Ordering::Acquire) {
            return;
        }
        if self.moving.load(Ordering::Relaxed) == 0
            && self
                .used
                .compare_exchange(old, new, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
        {
            self.left.store(old, Ordering::Relaxed);
            self.moving.store(old, Ordering::Release);
            self.move_chunk();
        }
        self.mover.store(false, Ordering::Release);
    }

    /// Moves the next chunk of a move under way, unless another thread is moving one.
    #[inline]
    fn move_some(&self) {
        if self.moving.load(Ordering::Relaxed) != 0 && !self.mover.swap(true, Ordering::Acquire) {
            self.move_chunk();
            self.mover.store(false, Ordering::Release);
        }
    }

    /// Moves the last [`MOVE_CHUNK`] old buckets not moved yet (the caller holds `mover`).
    fn move_chunk(&self) {
        if self.moving.load(Ordering::Acquire) == 0 {
            return;
        }
        let new = self.used.load(Ordering::Relaxed);
        let left = self.left.load(Ordering::Relaxed);
        let lo = left.saturating_sub(MOVE_CHUNK);
        for b in (lo..left).rev() {
            let moving: [Option<([u64; KW], u64)>; WAYS] =
                std::array::from_fn(|i| self.buckets[b][i].take());
            for (k, d) in moving.into_iter().flatten() {
                self.count(-1);
                self.put(&self.buckets[bucket_of(key_of(&k), new)], &k, d);
            }
        }
        self.left.store(lo, Ordering::Relaxed);
        if lo == 0 {
            self.moving.store(0, Ordering::Release);
        }
    }

    /// Moves what is left of a move under way (a caller with the table to itself).
    fn finish_move(&self) {
        while self.moving.load(Ordering::Acquire) != 0 {
            self.move_some();
        }
    }

    #[inline]
    fn find(&self, key: u128) -> Option<u64> {
        let k = words::<KW>(key)?;
        let found = self
            .bucket(key)
            .iter()
            .find_map(|s| Some((s, s.holds(&k)?)));
        if let Some((s, d)) = found {
            if d & FOUND == 0 {
                // Once per entry and bucket's replacement (the mark is only a hint: a slot
                // written meanwhile keeps its new word).
                let _ = s
                    .data
                    .compare_exchange(d, d | FOUND, Ordering::Relaxed, Ordering::Relaxed);
            }
            return Some(d);
        }
        match self.moving.load(Ordering::Relaxed) {
            0 => None,
            old => self.buckets[bucket_of(key, old)]
                .iter()
                .find_map(|s| s.holds(&k)),
        }
    }

    /// The value stored for `key`, if exact.
    #[inline]
    pub fn exact(&self, key: u128) -> Option<u32> {
        self.find(key).and_then(exact_of)
    }

    /// Whether `key`'s value is known not to be `v`.
    #[inline]
    pub fn known_not(&self, key: u128, v: u32) -> bool {
        self.find(key).is_some_and(|d| match exact_of(d) {
            Some(x) => x != v,
            None => v < NOT_BITS && d >> v & 1 == 1,
        })
    }

    /// What the table knows of `key`: its exact value, or the set of values below 32 it is known
    /// not to have (as bits).
    #[inline]
    pub fn probe(&self, key: u128) -> (Option<u32>, u32) {
        match self.find(key) {
            Some(d) => (exact_of(d), d as u32),
            None => (None, 0),
        }
    }

    /// Records that `key` has value `v`; `cost` (at most 255: a [`Policy`]'s) is what it took to
    /// learn, which a full bucket weighs to choose the entry that goes.
    pub fn store_exact(&self, key: u128, v: u32, cost: u32) {
        let not = if v < NOT_BITS { !(1u32 << v) } else { u32::MAX };
        // Values past 253 (which no board of 128 cells reaches) are not stored.
        if v < MAX_EXACT {
            self.store(key, u64::from(not) | u64::from(v + 1) << 32, cost);
        }
    }

    /// Records that `key` has none of the values in `set` (bit `v` for value `v`; values from 32
    /// on are not recorded); `cost` as in [`Table::store_exact`].
    pub fn store_not(&self, key: u128, set: u32, cost: u32) {
        if set != 0 {
            self.store(key, u64::from(set), cost);
        }
    }

    fn store(&self, key: u128, bits: u64, cost: u32) {
        let Some(k) = words::<KW>(key) else {
            return;
        };
        let cost = u64::from(cost.min(0xff)) << COST_SHIFT;
        let mut used = self.used.load(Ordering::Relaxed);
        let mut b = &self.buckets[bucket_of(key, used)];
        if Self::merge(b, &k, bits | cost) {
            self.move_some();
            return;
        }
        // A full bucket of a table past half full: it grows first, so that nothing is pushed
        // out. Each thread counts its own entries (below), so with many threads none may reach
        // its next 64 before the buckets in use are full (Cram 5 x 8 on 8 threads stayed in
        // 128 buckets, 506 entries, and searched 80 times the nodes).
        if b.iter().all(|s| s.data.load(Ordering::Relaxed) & USED != 0) && self.past_half(used) {
            self.grow(used);
            used = self.used.load(Ordering::Relaxed);
            b = &self.buckets[bucket_of(key, used)];
        }
        // During a move the key may still be in its old bucket: what it says comes along.
        let mut d = USED | cost | bits;
        match self.moving.load(Ordering::Relaxed) {
            0 => {}
            old => {
                let was = self.buckets[bucket_of(key, old)]
                    .iter()
                    .find_map(|s| s.holds(&k));
                if let Some(was) = was {
                    d = joined(was, d);
                }
            }
        }
        // Whether the table is half full, looked at every 64 entries a thread adds.
        if self.place(b, &k, d) % 64 == 0 && self.past_half(used) {
            self.grow(used);
        }
        self.move_some();
    }

    /// Whether a table of `used` buckets in use is past half full and may grow.
    #[inline]
    fn past_half(&self, used: usize) -> bool {
        used < self.buckets.len() && self.entries() as usize * 2 > used * WAYS
    }

    /// When bucket `b` holds key `k`, merges `d` (bits and cost) into its entry: true.
    #[inline]
    fn merge(b: &Bucket<KW>, k: &[u64; KW], d: u64) -> bool {
        for s in b.iter() {
            if let Some(was) = s.holds(k) {
                // What is known of a key only grows: or the bits in, if no one wrote since.
                let _ = s.data.compare_exchange(
                    was,
                    bumped(was, joined(was, d)),
                    Ordering::Release,
                    Ordering::Relaxed,
                );
                return true;
            }
        }
        false
    }

    /// An entry moved to bucket `b`: merged with the key's entry there (one stored during the
    /// move), else placed as a new one.
    fn put(&self, b: &Bucket<KW>, k: &[u64; KW], d: u64) {
        if !Self::merge(b, k, d) {
            self.place(b, k, d);
        }
    }

    /// Calls `f` with the key and contents (the [`CONTENTS`] bits of the data word) of each entry,
    /// each read whole as a lookup reads it: beside threads that store, the walk may miss an
    /// entry (one being written or moved) or meet a key twice, never a torn entry.
    pub(crate) fn for_each(&self, mut f: impl FnMut(u128, u64)) {
        let used = self.used.load(Ordering::Acquire);
        for b in &self.buckets[..used] {
            for s in b.iter() {
                if let Some((k, d)) = s.read() {
                    f(key_of(&k), d & CONTENTS);
                }
            }
        }
    }

    /// Stores an entry as [`Table::for_each`] gave it (merged with what the table knows of the
    /// key, as any store).
    pub(crate) fn restore(&self, key: u128, contents: u64) {
        let cost = ((contents & COST) >> COST_SHIFT) as u32;
        self.store(key, contents & CONTENTS & !COST, cost);
    }

    /// Puts to use enough buckets for `n` entries at most half full (at most all), as `n`
    /// stores would, at once.
    pub(crate) fn reserve(&self, n: u64) {
        loop {
            self.finish_move();
            let used = self.used.load(Ordering::Relaxed);
            if used >= self.buckets.len() || (used * WAYS) as u64 >= n.saturating_mul(2) {
                return;
            }
            self.grow(used);
        }
    }

    /// Forgets every entry (with no other thread using the table).
    pub(crate) fn clear(&self) {
        self.moving.store(0, Ordering::Relaxed);
        self.left.store(0, Ordering::Relaxed);
        let used = self.used.load(Ordering::Acquire);
        for b in &self.buckets[..used] {
            for s in b.iter() {
                if s.take().is_some() {
                    self.count(-1);
                }
            }
        }
    }

    /// The bytes of a key (8 for a narrow table, 16 for a wide one).
    pub(crate) const KEY_BYTES: usize = 8 * KW;

    /// Puts a new entry in bucket `b`, in place of the least worthy one ([`worth`]; nothing when
    /// another thread writes that slot meanwhile). An entry pushed out takes the [`FOUND`] marks
    /// of the others with it: each keeps its place the next time only if found again by then.
    /// When it took a free slot, the new count of this thread's entries; else 1.
    fn place(&self, b: &Bucket<KW>, k: &[u64; KW], d: u64) -> u64 {
        let seen: [u64; WAYS] = std::array::from_fn(|i| b[i].data.load(Ordering::Relaxed));
        let exact = exact_of(d).is_some();
        let victim = (0..WAYS)
            .min_by_key(|&i| worth(seen[i], exact))
            .unwrap_or(0);
        if seen[victim] & USED != 0 {
            for (i, &x) in seen.iter().enumerate() {
                if i != victim && x & FOUND != 0 {
                    let _ = b[i].data.compare_exchange(
                        x,
                        x & !FOUND,
                        Ordering::Relaxed,
                        Ordering::Relaxed,
                    );
                }
            }
        }
        if b[victim].write(seen[victim], k, d) && seen[victim] & USED == 0 {
            self.count(1)
        } else {
            1
        }
    }
}

impl<'a, B: crate::board::Board + ?Sized> super::Search<'a, B> {
    /// The same search, its tables keeping what `policy` weighs most when full (the default:
    /// [`Policy::Work`]).
    ///
    /// ```
    /// use grundy::board::Cram;
    /// use grundy::control::NoControl;
    /// use grundy::nimber_search::{Policy, Search};
    /// let cram = Cram::new(4, 5).unwrap();
    /// let mut search = Search::new(&cram, 1 << 12).unwrap().with_policy(Policy::Size);
    /// assert_eq!(search.value(cram.empty(), &NoControl).unwrap(), 2);
    /// ```
    pub fn with_policy(mut self, policy: Policy) -> Self {
        self.policy = policy;
        self
    }
}

/// A table of either kind: narrow when the game's keys fit 64 bits.
#[derive(Debug)]
pub(crate) enum AnyTable {
    Narrow(NarrowTable),
    Wide(Table),
}

/// Calls `$f` on the table inside `$t`.
macro_rules! either {
    ($t:expr, $x:ident => $f:expr) => {
        match $t {
            AnyTable::Narrow($x) => $f,
            AnyTable::Wide($x) => $f,
        }
    };
}

impl AnyTable {
    /// A table of at most `bytes`, narrow when `narrow`.
    pub(crate) fn with_budget(bytes: u64, narrow: bool) -> Result<AnyTable> {
        Ok(if narrow {
            AnyTable::Narrow(NarrowTable::narrow_with_budget(bytes)?)
        } else {
            AnyTable::Wide(Table::with_budget(bytes)?)
        })
    }

    pub(crate) fn bytes(&self) -> u64 {
        either!(self, t => t.bytes())
    }

    pub(crate) fn entries(&self) -> u64 {
        either!(self, t => t.entries())
    }

    pub(crate) fn capacity(&self) -> u64 {
        either!(self, t => t.capacity())
    }

    #[inline]
    pub(crate) fn probe(&self, key: u128) -> (Option<u32>, u32) {
        either!(self, t => t.probe(key))
    }

    #[inline]
    pub(crate) fn store_exact(&self, key: u128, v: u32, size: u32) {
        either!(self, t => t.store_exact(key, v, size));
    }

    #[inline]
    pub(crate) fn store_not(&self, key: u128, set: u32, size: u32) {
        either!(self, t => t.store_not(key, set, size));
    }

    pub(crate) fn for_each(&self, f: impl FnMut(u128, u64)) {
        either!(self, t => t.for_each(f));
    }

    pub(crate) fn restore(&self, key: u128, contents: u64) {
        either!(self, t => t.restore(key, contents));
    }

    pub(crate) fn clear(&self) {
        either!(self, t => t.clear());
    }

    pub(crate) fn reserve(&self, n: u64) {
        either!(self, t => t.reserve(n));
    }

    /// The bytes of a key.
    pub(crate) fn key_bytes(&self) -> usize {
        match self {
            AnyTable::Narrow(_) => NarrowTable::KEY_BYTES,
            AnyTable::Wide(_) => Table::<2>::KEY_BYTES,
        }
    }
}

#[cfg(test)]
mod tests;
