//! One block: part 1 in parallel, part 2 heap by heap, part 3 confirming on the other threads
//! (see the module notes of `super`); or, where the window covers every rare heap, one loop.

use super::block::{Ctx, Sink};
use super::classes::{flag_stride, words_for, Classes};
use super::crew::Crew;
use super::mask::bits_for;
use super::queue::{Ahead, Backoff, Broken, Padded, Queue, Shared};
use super::stats::ticks;
use super::{
    Pending, SparseStats, TakeAndBreakSparse, FLAGS_PER_TASK, HEAP_COST, LONELY_BLOCKS, MIN_BLOCK,
    PUBLISH_LAG, TASK_WORK,
};
use crate::engine::{StepResult, Stop, Val};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

impl TakeAndBreakSparse {
    /// Computes heaps `n0 .. n0 + b` (fewer when a value needs more bits than the block's sets
    /// hold, or a provisional value is refuted), pushing their values onto `g`.
    /// The other threads are `crew`'s (none: one thread, or rayon's tasks for part 1).
    pub(super) fn run_block<T: Val>(
        &mut self,
        g: &mut Vec<T>,
        b: usize,
        crew: Option<&Crew>,
    ) -> StepResult<()> {
        let n0 = g.len();
        self.refresh_rev(&g[..]);
        let bits = bits_for(self.max_seen);
        let win = self.window_for(bits);
        if win > 0 && self.rare.last().is_none_or(|&r| r <= win) {
            self.run_window_block(g, b, bits, win);
            return Ok(());
        }
        let words = words_for(bits);
        let classes = Classes::new(self.space.map_or(u32::MAX, |m| m.mask), words);
        let mut buf = std::mem::take(&mut self.buf);
        // Sized only: each parallel task clears its own part.
        if buf.sets.len() < b * words {
            buf.sets.resize(b * words, 0);
        }
        // Dense blocks need no flags, but one byte per heap keeps the parallel chunks aligned.
        let stride = if self.dense { 1 } else { flag_stride(bits) };
        if buf.flags.len() < b * stride {
            buf.flags.resize(b * stride, 0);
        }
        let dmax = self.max_shift();
        if buf.sums.len() < (dmax + b) * words {
            buf.sums.resize((dmax + b) * words, 0);
        }
        let (sets_all, flags_all) = (&mut buf.sets[..b * words], &mut buf.flags[..b * stride]);
        let sums_all = &mut buf.sums[..(dmax + b) * words];

        // 1. In parallel: the options whose parts are all below n0.
        let win = self.window_for(bits);
        let near = self.near_pairs(&g[..n0], self.opts.sub_block.max(1), win);
        let cx = Ctx {
            eng: &*self,
            n0,
            bits,
            words,
            stride: flag_stride(bits),
            classes: &classes,
            near: &near,
            win,
        };
        let gs = &g[..];
        let clock = Instant::now();
        // Enough work per task, and value flags that fit the first-level cache. (Less work
        // per task where a block aims at little: tests of the threads' paths on small blocks.)
        let task_work = TASK_WORK.min(self.opts.block_work / 32);
        let chunk = ((task_work / self.first_per_heap) as usize)
            .max(self.opts.chunk.max(1))
            .min((FLAGS_PER_TASK / stride).max(16));
        // Small blocks are not worth the other threads' attention.
        let threaded = (b as u64) * self.work_per_heap >= 4 * task_work && self.threads() > 1;
        let helpers = match crew {
            Some(c) if threaded && self.lonely == 0 => c.helpers(),
            _ => 0,
        };
        let lonely_block = threaded && self.lonely > 0;
        // With other threads, part 1 is no phase of its own: every thread takes its tasks in
        // order, and the sequential part starts on a sub-block as soon as the tasks covering it
        // are done, helping with the rest while it waits (no barrier, no thread idle at its
        // end). A task flagging ahead waits for the part-1 tasks of its sub-block.
        let overlap = helpers > 0 && !self.dense && b >= 2 * chunk;
        let mut stats = SparseStats::default();
        if !self.dense {
            // The rows of the heaps just before the block, which its first heaps' shifts read.
            stats.rare_pairs += cx.sums_before(gs, &mut sums_all[..dmax * words]);
        }
        // One task for a block too small for two.
        let chunk = if b >= 2 * chunk { chunk } else { b.max(1) };
        let part1 = Part1::new(&cx, chunk, dmax, (sets_all, sums_all), (flags_all, stride));
        let part1 = &part1;
        match crew {
            _ if overlap => {}
            Some(c) if part1.tasks() > 1 => {
                let work = || while part1.take(gs) {};
                c.run(&work, work);
            }
            // Rayon's tasks: at one thread, or verifying beside other copies of the engine.
            _ if part1.tasks() > 1 => (0..part1.tasks()).into_par_iter().for_each(|_| {
                part1.take(gs);
            }),
            _ => while part1.take(gs) {},
        }

        let t1 = clock.elapsed();
        // 2. Heap by heap: what reaches into the block, giving values or provisional values.
        //    The block goes by sub-blocks: the rare-part splits whose block part lies in an
        //    earlier sub-block are done for the whole sub-block at once (contiguous slices).
        // 3. Meanwhile, on the other threads, the searches that confirm the provisional values,
        //    taken from a queue to which each sub-block's are published at its end (one task per
        //    thread for the whole block: no spawning, hence no waking, per batch). They read
        //    only the values before their heaps. The thread of part 2 joins them at the end.
        let mut overflow = false;
        let mut new_rare = std::mem::take(&mut buf.new_rare);
        new_rare.clear();
        if buf.pending.len() < b {
            buf.pending.resize_with(b, || Pending::new(words));
        }
        g.resize(n0 + b, T::default());
        let shared = Shared::new(&mut g[..]);
        let queue = Queue::new(&mut buf.pending[..b]);
        let claim = ((TASK_WORK / 8 / self.per_search) as usize).clamp(1, 64);
        let mut len = n0;
        let mut t2 = t1;
        let mut seq_ticks = 0u64;
        let mut main_done = 0u64;
        let (sets_sh, sums_sh, flags_sh) = (&part1.sets, &part1.sums, &part1.flags);
        let (cx, queue, shared) = (&cx, &queue, &shared);
        // Time spent confirming and flagging ahead, on every thread, in ticks (for `ahead_auto`).
        let seq_start = ticks();
        // Every counter the other threads write stands on its own cache lines (`Padded`).
        let (conf_t, ahead_t) = (Padded(AtomicU64::new(0)), Padded(AtomicU64::new(0)));
        let (conf_t, ahead_t) = (&conf_t, &ahead_t);
        // Ticks the sequential part waited for other threads, and they for work.
        let (mut wait_t, idle_t) = (0u64, Padded(AtomicU64::new(0)));
        let idle_t = &idle_t;
        // Ticks from the block's start to each other thread's start (waking it).
        let start_t = Padded(AtomicU64::new(0));
        let start_t = &start_t;
        let confirm = move |ps: &mut [Pending]| {
            #[cfg(test)]
            fault::hit(fault::CONFIRM);
            let t = ticks();
            for p in ps {
                // SAFETY: a pending heap is published after every value below it was written.
                let gv = unsafe { shared.prefix(n0 + p.i) };
                p.refuted = cx.confirm(gv, p);
            }
            conf_t.fetch_add(ticks().wrapping_sub(t), Ordering::Relaxed);
        };
        // The splits reaching far back into the block, flagged ahead by the other threads
        // (task t: sub-block t, other parts at least `lag` heaps before it).
        let sb = self.opts.sub_block.max(1);
        let lag = self.lag();
        let first_ahead = lag / sb + 1;
        // Forced on (`ahead_auto: false`), a single thread takes every task itself: the same
        // pairs, timed apart (`SparseStats::ahead_ns`).
        let ahead = self
            .flags_ahead(helpers > 0)
            .then(|| Ahead::new(b.div_ceil(sb), first_ahead));
        let ahead_pairs = Padded(AtomicU64::new(0));
        let (ahead, ahead_pairs) = (ahead.as_ref(), &ahead_pairs);
        // Part 1's tasks when it overlaps the sequential part (none left otherwise).
        let tasks = if overlap { part1.tasks() } else { 0 };
        // SAFETY: the values below n0 no longer change.
        let below = unsafe { shared.prefix(n0) };
        let main_part1 = AtomicU64::new(0);
        let broken = Broken::new();
        let broken = &broken;
        let run_ahead = move |t: usize| {
            let start = ticks();
            let (k0, k1) = (t * sb, ((t + 1) * sb).min(b));
            // Part 1 writes the sub-block's rows first (when it overlaps: every part-1 task is
            // claimed before a thread takes a task ahead, so this only waits for running ones).
            for t in 0..tasks.min(k1.div_ceil(chunk)) {
                let mut backoff = Backoff::new();
                while !part1.is_done(t) {
                    broken.check();
                    backoff.snooze();
                }
            }
            #[cfg(test)]
            fault::hit(fault::AHEAD);
            let s1 = k0 - lag;
            // SAFETY: the values below n0 + s1 are written (the task is available) and no
            // longer change; the flags of sub-block t are this task's alone until it is done
            // (the sequential part waits for it before it touches them).
            let (gv, fl) = unsafe {
                (
                    shared.prefix(n0 + s1),
                    flags_sh.slice_mut(k0 * stride, k1 * stride),
                )
            };
            let pairs = cx.scatter_ahead(gv, k0, k1, s1, fl);
            ahead_pairs.fetch_add(pairs, Ordering::Relaxed);
            ahead_t.fetch_add(ticks().wrapping_sub(start), Ordering::Relaxed);
        };
        let other_work = move || ahead.is_some_and(|a| a.ready());
        let spawned = ticks();
        let helper = move || {
            let _broken = broken.guard(None);
            start_t.fetch_add(ticks().wrapping_sub(spawned), Ordering::Relaxed);
            while part1.take(below) {}
            loop {
                if let Some(t) = ahead.and_then(|a| a.claim()) {
                    run_ahead(t);
                    ahead.unwrap().finish(t);
                    continue;
                }
                let start = ticks();
                let got = queue.claim_or(claim, true, other_work);
                idle_t.fetch_add(ticks().wrapping_sub(start), Ordering::Relaxed);
                match got {
                    Some(ps) => confirm(ps),
                    None if !queue.is_closed() && other_work() => {}
                    None => break,
                }
            }
        };
        let mut main = || {
            // A panic here closes the queue and lets the helpers' waits end (`Broken`).
            let _broken = broken.guard(Some(queue));
            #[cfg(test)]
            fault::BLOCKS.set(true);
            let (mut filled, mut published) = (0, 0);
            let mut k0 = 0;
            let mut stop = false;
            let mut waited = 0;
            while k0 < b && !stop {
                let k1 = (k0 + sb).min(b);
                // Part 1's rows of this sub-block, helping with the tasks still unclaimed.
                let mut backoff = Backoff::new();
                while waited < tasks && waited * chunk < k1 {
                    if part1.is_done(waited) {
                        waited += 1;
                        continue;
                    }
                    let start = ticks();
                    if part1.take(below) {
                        main_part1.fetch_add(ticks().wrapping_sub(start), Ordering::Relaxed);
                    } else {
                        broken.check();
                        backoff.snooze();
                        wait_t += ticks().wrapping_sub(start);
                    }
                }
                if !self.dense && k0 > 0 {
                    let t = k0 / sb;
                    let from = match ahead {
                        Some(a) if t >= first_ahead => {
                            let start = ticks();
                            if a.take_or_wait(t, broken) {
                                run_ahead(t);
                            } else {
                                wait_t += ticks().wrapping_sub(start);
                            }
                            k0 - lag
                        }
                        _ => 0,
                    };
                    // SAFETY: the values below n0 + k0 are written and no longer change; the
                    // tasks ahead touch only the flags of sub-blocks after this one.
                    let (gv, flags) =
                        unsafe { (shared.prefix(n0 + k0), flags_sh.slice_mut(0, k1 * stride)) };
                    stats.rare_pairs += cx.inner_scatter(gv, k0, k1, from, &new_rare, flags);
                }
                #[cfg(test)]
                fault::hit(fault::SEQUENTIAL);
                for i in k0..k1 {
                    // SAFETY: as above, heap i's flags, set and rows (those up to its own) are no
                    // other task's: part 1 is done with them.
                    let (set, sums, flags) = unsafe {
                        (
                            sets_sh.slice_mut(i * words, (i + 1) * words),
                            sums_sh.slice_mut(0, (dmax + i + 1) * words),
                            flags_sh.slice_mut(i * stride, (i + 1) * stride),
                        )
                    };
                    // SAFETY: only this thread fills the queue, above what it published.
                    let p = unsafe { queue.entry(filled) };
                    // SAFETY: the values below n0 + i are written; heap n0 + i is written only
                    // after `gv`'s last use.
                    let gv = unsafe { shared.prefix(n0 + i) };
                    let (mut v, mut provisional) =
                        cx.sequential(gv, i, k0, &new_rare, set, sums, flags, p, &mut stats);
                    if v > T::MAX && provisional {
                        // Settle it before asking for wider storage: the value may be smaller.
                        v = cx.confirm(gv, p).unwrap_or(v);
                        provisional = false;
                        stats.searches += 1;
                        stats.search_pairs += std::mem::take(&mut p.want.examined);
                        stats.search_found += std::mem::take(&mut p.want.found);
                    }
                    if v > T::MAX {
                        overflow = true;
                        stop = true;
                        break;
                    }
                    // SAFETY: no slice covering n0 + i is alive: the confirmations read below
                    // the heaps published so far, all below n0 + k0 <= n0 + i.
                    unsafe { shared.write(n0 + i, T::new(v)) };
                    len = n0 + i + 1;
                    filled += provisional as usize;
                    if self.space.is_some_and(|m| cx.is_rare(m, n0 + i, v)) {
                        new_rare.push(n0 + i);
                    }
                    if bits_for(v) > bits {
                        // Later heaps may have options beyond the block's sets.
                        stop = true;
                        break;
                    }
                }
                // Only heaps well behind the one being written: a confirmation reads the values
                // just below its heap, and sharing the cache line being written would slow both.
                while published < filled && {
                    // SAFETY: entry `published` is at or above what was published.
                    let p = unsafe { queue.entry(published) };
                    p.i + PUBLISH_LAG <= k1
                } {
                    published += 1;
                }
                queue.publish(published);
                if let Some(a) = ahead {
                    if !stop && a.make_available((k1 + lag) / sb + 1) {
                        queue.notify();
                    }
                }
                k0 = k1;
            }
            queue.publish(filled);
            queue.close();
            t2 = clock.elapsed();
            seq_ticks = ticks().wrapping_sub(seq_start);
            while let Some(ps) = queue.claim(claim, false) {
                confirm(ps);
            }
            main_done = ticks();
        };
        match crew {
            Some(c) if helpers > 0 => c.run(&helper, main),
            _ => main(),
        }
        stats = stats.add(*part1.stats.lock().unwrap_or_else(|e| e.into_inner()));
        // Ticks this thread waited at the end for the others' last confirmations.
        let join_t = ticks().wrapping_sub(main_done);
        if lonely_block {
            self.lonely -= 1;
        }
        if helpers > 0 {
            // The threads lost a quarter of the block waiting for each other: one of them had
            // no processor. The next blocks go on one thread.
            let block_t = ticks().wrapping_sub(seq_start);
            if 4 * (wait_t + join_t) > block_t {
                self.lonely = LONELY_BLOCKS;
                stats.lonely += 1;
            }
        }
        let ahead_ticks = ahead_t.load(Ordering::Relaxed);
        if helpers > 0 && !self.dense && lag > 0 && self.opts.ahead_auto {
            // Flag ahead while the confirmations leave the other threads idle for a good part
            // of the sequential part's work (as it would be with nothing flagged ahead, and
            // without the part-1 tasks it took while waiting for its rows); stop when they
            // would not.
            let seq_work =
                seq_ticks.saturating_sub(main_part1.load(Ordering::Relaxed)) + ahead_ticks;
            let room = helpers as u64 * seq_work;
            let conf = conf_t.load(Ordering::Relaxed);
            if 10 * conf < 6 * room {
                self.ahead_on = true;
            } else if 10 * conf > 8 * room {
                self.ahead_on = false;
            }
        }
        if seq_ticks > 0 {
            // Ticks to nanoseconds at the rate of the sequential part, timed both ways.
            let rate = (t2 - t1).as_nanos() as f64 / seq_ticks as f64;
            stats.ahead_ns += (ahead_ticks as f64 * rate) as u64;
            stats.wait_ns += (wait_t as f64 * rate) as u64;
            stats.idle_ns += (idle_t.load(Ordering::Relaxed) as f64 * rate) as u64;
            stats.start_ns += (start_t.load(Ordering::Relaxed) as f64 * rate) as u64;
            stats.join_ns += (join_t as f64 * rate) as u64;
        }
        stats.ahead_pairs += ahead_pairs.load(Ordering::Relaxed);
        stats.rare_pairs += stats.ahead_pairs;
        let npending = queue.published();
        stats.wakes += queue.wakes();
        g.truncate(len);
        let t3 = clock.elapsed();
        stats.parallel_ns += (t1 + t3 - t2).as_nanos() as u64;
        stats.sequential_ns += (t2 - t1).as_nanos() as u64;
        stats.first_ns += t1.as_nanos() as u64;
        stats.blocks += 1;
        stats.overlapped += u64::from(overlap);
        // Keep the block up to its first refuted provisional value.
        let pending = &mut buf.pending[..npending];
        stats.searches += npending as u64;
        let mut refuted = None;
        for p in pending.iter_mut() {
            stats.search_pairs += std::mem::take(&mut p.want.examined);
            stats.search_found += std::mem::take(&mut p.want.found);
            if let Some(v) = p.refuted.take() {
                refuted = refuted.or(Some((p.i, v)));
            }
        }
        match refuted {
            Some((i, v)) => {
                stats.refuted += 1;
                g.truncate(n0 + i);
                g.push(T::new(v));
                overflow = false;
                self.next_block = (2 * (i + 1)).clamp(MIN_BLOCK, self.opts.block.max(1));
            }
            None => self.next_block = (2 * self.next_block).min(self.opts.block.max(1)),
        }
        self.commit(&g[..]);
        let heaps = stats.sparse_heaps + stats.dense_heaps;
        let pairs = stats.rare_pairs + stats.full_pairs + stats.search_pairs;
        self.work_per_heap = pairs / heaps.max(1) + HEAP_COST;
        self.first_per_heap = (stats.rare_pairs + stats.full_pairs) / heaps.max(1) + HEAP_COST;
        self.per_search = stats.search_pairs / stats.searches.max(1) + HEAP_COST;
        self.use_prefix = stats.search_pairs >= 768 * heaps;
        self.stats = self.stats.add(stats);
        buf.new_rare = new_rare;
        self.buf = buf;
        if overflow {
            Err(Stop::Overflow)
        } else {
            Ok(())
        }
    }
}

impl TakeAndBreakSparse {
    /// [`TakeAndBreakSparse::run_block`] where the window covers every rare heap: see
    /// [`Ctx::window_block`]. One thread does it all: there is no part 1 left, and hardly any
    /// searches (0.1777: 0.2% of the heaps).
    pub(super) fn run_window_block<T: Val, G: Sink<T>>(
        &mut self,
        g: &mut G,
        b: usize,
        bits: u32,
        win: usize,
    ) {
        let n0 = g.values().len();
        let clock = Instant::now();
        let classes = Classes::new(self.space.map_or(u32::MAX, |m| m.mask), 1);
        let mut buf = std::mem::take(&mut self.buf);
        let dmax = self.max_shift();
        if buf.sums.len() < dmax + b {
            buf.sums.resize(dmax + b, 0);
        }
        if buf.pending.is_empty() {
            buf.pending.push(Pending::new(1));
        }
        let cx = Ctx {
            eng: &*self,
            n0,
            bits,
            words: 1,
            stride: flag_stride(bits),
            classes: &classes,
            near: &[],
            win,
        };
        let mut stats = SparseStats::default();
        let (before, _) = buf.sums.split_at_mut(dmax);
        stats.rare_pairs += cx.sums_before(g.values(), before);
        let done = cx.window_block(g, b, &mut buf.sums, &mut buf.pending[0], &mut stats);
        debug_assert_eq!(g.values().len(), n0 + done);
        stats.sequential_ns += clock.elapsed().as_nanos() as u64;
        stats.blocks += 1;
        self.commit(g.values());
        let heaps = stats.sparse_heaps.max(1);
        self.work_per_heap = (stats.rare_pairs + stats.search_pairs) / heaps + HEAP_COST;
        self.first_per_heap = stats.rare_pairs / heaps + HEAP_COST;
        self.per_search = stats.search_pairs / stats.searches.max(1) + HEAP_COST;
        self.next_block = (2 * self.next_block).min(self.opts.block.max(1));
        self.stats = self.stats.add(stats);
        self.buf = buf;
    }
}

/// Part 1 of a block: tasks of `chunk` heaps, claimed in order by whichever thread comes (the
/// helpers of a crew, rayon's tasks, or the thread of part 2 while it waits for its rows). A
/// task fills its heaps' sets, flags (`stride` bytes a heap) and rows of sums (`dmax` rows in).
struct Part1<'a> {
    cx: &'a Ctx<'a>,
    b: usize,
    chunk: usize,
    dmax: usize,
    stride: usize,
    sets: Shared<u64>,
    sums: Shared<u64>,
    flags: Shared<u8>,
    next: Padded<AtomicUsize>,
    /// Marked when a task's sets, rows and flags are written: until then they are its own.
    done: Vec<AtomicBool>,
    stats: Padded<Mutex<SparseStats>>,
}

impl<'a> Part1<'a> {
    fn new(
        cx: &'a Ctx<'a>,
        chunk: usize,
        dmax: usize,
        (sets, sums): (&mut [u64], &mut [u64]),
        (flags, stride): (&mut [u8], usize),
    ) -> Self {
        let b = sets.len() / cx.words;
        Part1 {
            cx,
            b,
            chunk,
            dmax,
            stride,
            sets: Shared::new(sets),
            sums: Shared::new(sums),
            flags: Shared::new(flags),
            next: Padded(AtomicUsize::new(0)),
            done: (0..b.div_ceil(chunk))
                .map(|_| AtomicBool::new(false))
                .collect(),
            stats: Padded(Mutex::new(SparseStats::default())),
        }
    }

    fn tasks(&self) -> usize {
        self.done.len()
    }

    /// Claims the next task and does it, reading the values `g` (at least those below the
    /// block); false when none is left.
    fn take<T: Val>(&self, g: &[T]) -> bool {
        let t = self.next.fetch_add(1, Ordering::Relaxed);
        if t >= self.tasks() {
            return false;
        }
        #[cfg(test)]
        fault::hit(fault::PART1);
        let (words, stride, dmax) = (self.cx.words, self.stride, self.dmax);
        let (i0, i1) = (t * self.chunk, ((t + 1) * self.chunk).min(self.b));
        // SAFETY: task t is claimed once, and its heaps are no one else's until it is done.
        let (set, row, fl) = unsafe {
            (
                self.sets.slice_mut(i0 * words, i1 * words),
                self.sums
                    .slice_mut((dmax + i0) * words, (dmax + i1) * words),
                self.flags.slice_mut(i0 * stride, i1 * stride),
            )
        };
        let st = self.cx.parallel(g, i0, set, row, fl);
        let mut total = self.stats.lock().unwrap_or_else(|e| e.into_inner());
        *total = total.add(st);
        drop(total);
        self.done[t].store(true, Ordering::Release);
        true
    }

    fn is_done(&self, t: usize) -> bool {
        self.done[t].load(Ordering::Acquire)
    }
}

/// Tests make a part of a block panic (a bug's stand-in) on the threads of a pool whose names
/// start with "fault", to check that every thread then leaves the block.
#[cfg(test)]
pub(super) mod fault {
    use std::cell::Cell;
    use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

    pub(in crate::engine::sparse) const PART1: u32 = 1;
    pub(in crate::engine::sparse) const AHEAD: u32 = 2;
    pub(in crate::engine::sparse) const CONFIRM: u32 = 3;
    pub(in crate::engine::sparse) const SEQUENTIAL: u32 = 4;
    /// The site that panics (0: none), once.
    pub(in crate::engine::sparse) static AT: AtomicU32 = AtomicU32::new(0);
    /// Hits of the site let pass first (so that the fault lands in the middle of a run).
    pub(in crate::engine::sparse) static SKIP: AtomicU32 = AtomicU32::new(0);
    /// Whether the fault spares the threads that ran a block's sequential part (`BLOCKS`), so
    /// that it hits a helper while the block's thread waits for it.
    pub(in crate::engine::sparse) static SPARE_BLOCKS: AtomicBool = AtomicBool::new(false);

    thread_local! {
        pub(in crate::engine::sparse) static BLOCKS: Cell<bool> = const { Cell::new(false) };
    }

    pub(in crate::engine::sparse) fn hit(site: u32) {
        let named = || {
            std::thread::current()
                .name()
                .is_some_and(|n| n.starts_with("fault"))
        };
        let skip = || SKIP.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |k| k.checked_sub(1));
        // Once: the other threads must leave through `queue::Broken`, not a fault of their own.
        let once = || AT.compare_exchange(site, 0, Ordering::Relaxed, Ordering::Relaxed);
        let spared = || SPARE_BLOCKS.load(Ordering::Relaxed) && BLOCKS.get();
        if AT.load(Ordering::Relaxed) == site
            && named()
            && !spared()
            && skip().is_err()
            && once().is_ok()
        {
            panic!("a fault injected at site {site}");
        }
    }
}
