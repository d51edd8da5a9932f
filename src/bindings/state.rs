//! `_core.StateExplorer`: explores a game given by Python functions over hashable states, holding
//! the GIL only to call them, and solves the explored graph in Rust without the GIL.

use super::convert::{in_callback, show, InCallback, Narrow};
use super::state_store::{int_state, Found, Store};
use super::{
    argument_error, argument_type_error, grundy_exception, not_found_error, on_threads,
    reentrancy_error, ErrSlot, PyControl,
};
use crate::error::Error;
use crate::graph::loopy;
use crate::graph::state::StateGraph;
use crate::position::misere::{Comp, Misere, MisereGame};
use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// Values (uint32, 2**32 - 1 for infinite) and outcomes (uint8: 0 = P, 1 = N, 2 = D).
type Generalized<'py> = (Bound<'py, PyArray1<u32>>, Bound<'py, PyArray1<u8>>);
/// Values, the index of each infinite value's K (-1 for finite), and the distinct K sets.
type GeneralizedOf<'py> = (
    Bound<'py, PyArray1<u32>>,
    Bound<'py, PyArray1<i64>>,
    Vec<Vec<u32>>,
);

/// How often the exploration loop looks for Ctrl-C and the memory left, and reports progress.
const POLL: Duration = Duration::from_millis(100);

/// Options (or parts) read between two looks at the clock: one state's options can be a long
/// iterable (`range(10**12)`), which must not keep Ctrl-C and the memory checks waiting.
const POLL_ITEMS: u64 = 1 << 14;

/// States a batch rule gets in one call, at most.
const BATCH: usize = 1 << 14;

/// Bytes an option holds at least (its entry in the graph): an estimate for the memory checks,
/// which ask that as much again fits (the vectors double as they grow). A state's are the
/// store's ([`Store::state_bytes`]).
const OPTION_BYTES: u64 = 16;

/// The exploration's polls: Ctrl-C, progress and the memory left, about every [`POLL`].
struct Poll {
    last: Instant,
    items: u64,
}

impl Poll {
    /// Counts one item read; polls when [`POLL_ITEMS`] were read since the last look at the
    /// clock and [`POLL`] has passed.
    fn item(
        &mut self,
        py: Python<'_>,
        ex: &StateExplorer,
        progress: Option<&Py<PyAny>>,
    ) -> PyResult<()> {
        self.items += 1;
        if self.items % POLL_ITEMS == 0 {
            self.poll(py, ex, progress)?;
        }
        Ok(())
    }

    /// Polls when [`POLL`] has passed since the last poll.
    fn poll(
        &mut self,
        py: Python<'_>,
        ex: &StateExplorer,
        progress: Option<&Py<PyAny>>,
    ) -> PyResult<()> {
        if self.last.elapsed() < POLL {
            return Ok(());
        }
        self.last = Instant::now();
        py.check_signals()?;
        let held = ex.store.len() as u64 * ex.store.state_bytes()
            + ex.graph.num_options() as u64 * OPTION_BYTES;
        if let Err(e) = crate::memory::check(held) {
            let e = PyErr::from(e);
            let _ = e.value(py).call_method1(
                "add_note",
                (format!(
                    "raised while exploring: {} states found, {} options read; max_states= \
                     bounds the exploration (SearchLimitError past it)",
                    ex.store.len(),
                    ex.graph.num_options()
                ),),
            );
            return Err(e);
        }
        if let Some(f) = progress {
            f.call1(py, (ex.graph.num_vertices(), ex.store.len()))?;
        }
        Ok(())
    }
}

/// A borrow of the explorer by this thread ([`StateExplorer::borrow`]), marking the thread as
/// inside the explorer while it lasts: Python code run meanwhile (the game's functions, a
/// state's `__hash__`) that asks the same explorer is refused, never left waiting for itself.
struct Held<B> {
    b: B,
    _busy: InCallback,
}

impl<B: std::ops::Deref> std::ops::Deref for Held<B> {
    type Target = B::Target;
    fn deref(&self) -> &B::Target {
        &self.b
    }
}

impl<B: std::ops::DerefMut> std::ops::DerefMut for Held<B> {
    fn deref_mut(&mut self) -> &mut B::Target {
        &mut self.b
    }
}

/// The explored graph of one game: canonical states, their ids, and the options of each as lists
/// of component ids.
#[pyclass(module = "grundy._core")]
pub struct StateExplorer {
    options: Py<PyAny>,
    components: Option<Py<PyAny>>,
    key: Option<Py<PyAny>>,
    store: Store,
    graph: StateGraph,
    /// `options` returns each option as its canonical parts (no `components` or `key` call).
    split: bool,
    /// `options` takes an array of states and returns the options of all, split ([`Self::expand_batch`]).
    batch: bool,
    max_states: Option<u64>,
    /// Loopy: options are single states, cycles allowed, values by Smith's generalized function.
    loopy: bool,
}

/// Adds a note naming `state` to an exception raised while handling it; the exception itself is
/// kept unchanged.
fn with_note(py: Python<'_>, e: PyErr, what: &str, state: &Bound<'_, PyAny>) -> PyErr {
    let _ = e.value(py).call_method1(
        "add_note",
        (format!("raised by {what} on state {}", show(state)),),
    );
    e
}

impl StateExplorer {
    /// The id of the canonical form of `state`, recording it when it is new.
    fn intern(&mut self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<u32> {
        let canon = match &self.key {
            Some(k) => k
                .call1(py, (state,))
                .map_err(|e| with_note(py, e, "key", state))?
                .into_bound(py),
            None => state.clone(),
        };
        self.intern_canon(py, state, &canon)
    }

    /// The id of canonical state `canon` (the key of `state`), recording it when it is new.
    fn intern_canon(
        &mut self,
        py: Python<'_>,
        state: &Bound<'_, PyAny>,
        canon: &Bound<'_, PyAny>,
    ) -> PyResult<u32> {
        let keyed = self.key.is_some();
        let found = self.store.find(py, canon, |e| {
            let what = if keyed {
                format!("key({}) returned {}", show(state), show(canon))
            } else {
                format!("state {}", show(state))
            };
            argument_type_error(format!(
                "{what}, which is not hashable ({}): states (and keys) must be hashable, \
                 e.g. tuples or frozensets rather than lists or sets",
                e.value(py)
            ))
        })?;
        match found {
            Found::Id(id) => Ok(id),
            Found::New(k) => {
                self.check_room()?;
                self.store.push(py, k)
            }
        }
    }

    /// The id of an integer part given by a split rule, recording it when it is new: one C call
    /// and a hash lookup, no Python object kept (`int_states=True`).
    #[inline]
    fn intern_int(&mut self, py: Python<'_>, part: &Bound<'_, PyAny>) -> PyResult<u32> {
        match self.store.find_int(int_state(part)?) {
            Found::Id(id) => Ok(id),
            Found::New(k) => {
                self.check_room()?;
                self.store.push(py, k)
            }
        }
    }

    /// Fails when one more state would pass `max_states` or the ids' range.
    fn check_room(&self) -> PyResult<()> {
        let id = self.store.len();
        if let Some(limit) = self.max_states {
            if id as u64 >= limit {
                return Err(Error::SearchLimit {
                    message: format!(
                        "the game has more than max_states = {limit} distinct states; raise \
                         max_states, or give key= (symmetries) or components= (sums) to explore \
                         fewer"
                    ),
                    limit,
                }
                .into());
            }
        }
        if id as u64 >= u32::MAX as u64 {
            return Err(PyErr::from(Error::Invalid(format!(
                "a game may have at most {} states",
                u32::MAX
            ))));
        }
        Ok(())
    }

    /// The ids of the parts of an option that a split rule gave (canonical already): a tuple
    /// is read directly, any other iterable through the iterator protocol.
    fn split_parts(
        &mut self,
        py: Python<'_>,
        state: &Bound<'_, PyAny>,
        option: &Bound<'_, PyAny>,
        out: &mut Vec<u32>,
    ) -> PyResult<()> {
        out.clear();
        let ints = matches!(self.store, Store::Ints { .. });
        if let Ok(t) = option.cast::<PyTuple>() {
            for p in t.iter() {
                out.push(if ints {
                    self.intern_int(py, &p)?
                } else {
                    self.intern_canon(py, &p, &p)?
                });
            }
            return Ok(());
        }
        let it = option.try_iter().map_err(|_| {
            argument_type_error(format!(
                "options({}) gave the option {}, which is not iterable: with split=True each \
                 option is the tuple of the canonical parts it leaves (() when none)",
                show(state),
                show(option)
            ))
        })?;
        for p in it {
            let p = p.map_err(|e| with_note(py, e, "options", state))?;
            out.push(self.intern_canon(py, &p, &p)?);
        }
        Ok(())
    }

    /// The ids of the canonical components of `state`.
    fn parts(
        &mut self,
        py: Python<'_>,
        state: &Bound<'_, PyAny>,
        out: &mut Vec<u32>,
        poll: &mut Poll,
        progress: Option<&Py<PyAny>>,
    ) -> PyResult<()> {
        out.clear();
        let Some(c) = &self.components else {
            out.push(self.intern(py, state)?);
            return Ok(());
        };
        let ret = c
            .call1(py, (state,))
            .map_err(|e| with_note(py, e, "components", state))?
            .into_bound(py);
        let it = ret.try_iter().map_err(|_| {
            argument_type_error(format!(
                "components({}) returned {}, which is not iterable: it must return the parts \
                 (states) the state splits into",
                show(state),
                show(&ret)
            ))
        })?;
        for p in it {
            poll.item(py, self, progress)?;
            let p = p.map_err(|e| with_note(py, e, "components", state))?;
            out.push(self.intern(py, &p)?);
        }
        Ok(())
    }

    /// Records the options of every state discovered but not yet expanded, by a batch rule:
    /// `options(states)` gets up to [`BATCH`] states as a uint64 array and returns `(counts,
    /// sizes, parts)`: the number of options of each state, the number of parts of each option,
    /// and the parts (canonical states), in order. No Python object per state or option.
    fn expand_batch(&mut self, py: Python<'_>, progress: Option<&Py<PyAny>>) -> PyResult<()> {
        let mut poll = Poll {
            last: Instant::now(),
            items: 0,
        };
        let np = py.import("numpy")?;
        while self.graph.num_vertices() < self.store.len() {
            let u0 = self.graph.num_vertices();
            let u1 = self.store.len().min(u0 + BATCH);
            let Store::Ints { states, .. } = &self.store else {
                unreachable!("a batch rule has integer states")
            };
            let chunk: Vec<u64> = states[u0..u1]
                .iter()
                .map(|&s| u64::try_from(s))
                .collect::<Result<_, _>>()
                .map_err(|_| {
                    argument_error(format!(
                        "a batch rule's states must be below 2**64, and state {} is not",
                        states[u0..u1]
                            .iter()
                            .find(|&&s| s > u64::MAX as u128)
                            .unwrap_or(&0)
                    ))
                })?;
            let arr = PyArray1::from_vec(py, chunk);
            let ret = self.options.call1(py, (arr,)).inspect_err(|e| {
                let note = format!("raised by options on a batch of {} states", u1 - u0);
                let _ = e.value(py).call_method1("add_note", (note,));
            })?;
            let bad = |what: &str| {
                argument_error(format!(
                    "a batch rule's options(states) must return (counts, sizes, parts): the \
                     number of options of each state, of parts of each option, and the parts; {what}"
                ))
            };
            let (counts, sizes, parts): (Bound<'_, PyAny>, Bound<'_, PyAny>, Bound<'_, PyAny>) =
                ret.extract(py)
                    .map_err(|_| bad("it returned something else"))?;
            fn as_array<'py>(
                np: &Bound<'py, PyModule>,
                x: &Bound<'py, PyAny>,
                dtype: &str,
            ) -> Result<Bound<'py, PyAny>, String> {
                np.call_method1("ascontiguousarray", (x, dtype))
                    .map_err(|_| format!("{} is not an array of integers", show(x)))
            }
            let counts = as_array(&np, &counts, "int64").map_err(|m| bad(&m))?;
            let sizes = as_array(&np, &sizes, "int64").map_err(|m| bad(&m))?;
            let parts = as_array(&np, &parts, "uint64").map_err(|m| bad(&m))?;
            let counts: PyReadonlyArray1<'_, i64> = counts.extract()?;
            let sizes: PyReadonlyArray1<'_, i64> = sizes.extract()?;
            let parts: PyReadonlyArray1<'_, u64> = parts.extract()?;
            let (counts, sizes, parts) = (counts.as_slice()?, sizes.as_slice()?, parts.as_slice()?);
            if counts.len() != u1 - u0 {
                return Err(bad(&format!(
                    "it gave {} counts for {} states",
                    counts.len(),
                    u1 - u0
                )));
            }
            if counts.iter().chain(sizes).any(|&c| c < 0) {
                return Err(bad("a count or size is negative"));
            }
            let total: i64 = counts.iter().sum();
            let in_parts: i64 = sizes.iter().sum();
            if total as usize != sizes.len() || in_parts as usize != parts.len() {
                return Err(bad(&format!(
                    "the counts add up to {total} options, with {} sizes; the sizes to \
                     {in_parts} parts, with {} parts",
                    sizes.len(),
                    parts.len()
                )));
            }
            let (mut j, mut k) = (0usize, 0usize);
            let mut ids: Vec<u32> = Vec::new();
            for &c in counts {
                for &size in &sizes[j..j + c as usize] {
                    ids.clear();
                    for &p in &parts[k..k + size as usize] {
                        ids.push(match self.store.find_int(u128::from(p)) {
                            Found::Id(id) => id,
                            Found::New(key) => {
                                self.check_room()?;
                                self.store.push(py, key)?
                            }
                        });
                    }
                    k += size as usize;
                    self.graph.push_option(&ids);
                }
                j += c as usize;
                self.graph.end_vertex();
            }
            poll.last = Instant::now().checked_sub(POLL).unwrap_or(poll.last); // poll now
            poll.poll(py, self, progress)?;
        }
        Ok(())
    }

    /// Records the options of every state discovered but not yet expanded.
    fn expand(&mut self, py: Python<'_>, progress: Option<&Py<PyAny>>) -> PyResult<()> {
        if self.batch {
            return self.expand_batch(py, progress);
        }
        let mut parts = Vec::new();
        let mut poll = Poll {
            last: Instant::now(),
            items: 0,
        };
        while self.graph.num_vertices() < self.store.len() {
            let u = self.graph.num_vertices();
            let s = self.store.get(py, u)?.into_bound(py);
            let ret = self
                .options
                .call1(py, (&s,))
                .map_err(|e| with_note(py, e, "options", &s))?
                .into_bound(py);
            let it = ret.try_iter().map_err(|_| {
                argument_type_error(format!(
                    "options({}) returned {}, which is not iterable: it must return the states \
                     one move can reach (an empty list when there is no move)",
                    show(&s),
                    show(&ret)
                ))
            })?;
            for o in it {
                poll.item(py, self, progress)?;
                let o = o.map_err(|e| with_note(py, e, "options", &s))?;
                if self.split {
                    self.split_parts(py, &s, &o, &mut parts)?;
                } else {
                    self.parts(py, &o, &mut parts, &mut poll, progress)?;
                }
                self.graph.push_option(&parts);
            }
            self.graph.end_vertex();
            if u & 1023 == 0 {
                poll.poll(py, self, progress)?;
            }
        }
        Ok(())
    }

    /// Forgets every state from `n` on.
    fn rollback(&mut self, py: Python<'_>, n: usize) {
        self.store.truncate(py, n);
        self.graph.truncate(n);
    }

    /// Explores from `roots` and solves; on any failure nothing new is kept.
    fn run(
        &mut self,
        py: Python<'_>,
        roots: &Bound<'_, PyAny>,
        progress: Option<Py<PyAny>>,
        threads: Option<usize>,
        split_roots: bool,
    ) -> PyResult<Vec<Vec<u32>>> {
        let n0 = self.store.len();
        let r = self.explore_and_solve(py, roots, progress, threads, split_roots);
        if r.is_err() {
            self.rollback(py, n0);
        }
        r
    }

    fn explore_and_solve(
        &mut self,
        py: Python<'_>,
        roots: &Bound<'_, PyAny>,
        progress: Option<Py<PyAny>>,
        threads: Option<usize>,
        split_roots: bool,
    ) -> PyResult<Vec<Vec<u32>>> {
        let mut out = Vec::new();
        let mut parts = Vec::new();
        let mut poll = Poll {
            last: Instant::now(),
            items: 0,
        };
        for r in roots.try_iter()? {
            poll.item(py, self, progress.as_ref())?;
            let r = r?;
            if split_roots {
                self.split_parts(py, &r, &r, &mut parts)?;
            } else {
                self.parts(py, &r, &mut parts, &mut poll, progress.as_ref())?;
            }
            out.push(parts.clone());
        }
        self.expand(py, progress.as_ref())?;
        let ctl = PyControl {
            slot: ErrSlot::default(),
            progress: None,
        };
        let graph = &mut self.graph;
        let loopy = self.loopy;
        let r = py.detach(|| {
            on_threads(threads, &ctl, |c| {
                if loopy {
                    graph.solve_loopy(c)
                } else {
                    graph.solve(c)
                }
            })
            .and_then(|r| r)
        });
        match r {
            Ok(()) => Ok(out),
            Err(Error::Cycle(ids)) => {
                // The core's message names vertex ids; the exception's names the states.
                let fallback = Error::Cycle(ids.clone()).to_string();
                let cycle = PyList::empty(py);
                for &i in &ids {
                    cycle.append(self.store.get(py, i as usize)?)?;
                }
                Err(grundy_exception(
                    py,
                    "CycleError",
                    (cycle,),
                    PyValueError::new_err,
                    &fallback,
                ))
            }
            Err(e) => Err(ctl.slot.raise(e)),
        }
    }

    /// The distinct finite values of the options of explored state `id`, in increasing order
    /// (its K when its value is infinite).
    fn k_set(&self, id: usize) -> Vec<u32> {
        let mut k: Vec<u32> = self
            .graph
            .option_ids(id)
            .filter_map(|j| self.graph.option_value(j))
            .filter(|&x| x != loopy::INFINITE)
            .collect();
        k.sort_unstable();
        k.dedup();
        k
    }

    /// The explorer's identity while it lives (the address of its Python object), for
    /// [`InCallback`].
    fn id(slf: &Bound<'_, Self>) -> usize {
        slf.as_ptr() as usize
    }

    /// The explorer, borrowed for a call from Python that reads it.
    ///
    /// While a call explores, the explorer is borrowed mutably and the game's own functions
    /// (options, components, key, progress) run on that call's thread. One of them asking the
    /// same game again would meet PyO3's bare "Already mutably borrowed": it gets a
    /// `ReentrancyError` that says what happened instead. A call from another thread waits
    /// (without the GIL, Ctrl-C still heard) for the exploring call to end.
    fn borrow<'py>(slf: &Bound<'py, Self>) -> PyResult<Held<PyRef<'py, Self>>> {
        Self::wait(slf, || slf.try_borrow().ok())
    }

    /// The explorer, borrowed for a call from Python that explores ([`Self::borrow`]).
    fn borrow_mut<'py>(slf: &Bound<'py, Self>) -> PyResult<Held<PyRefMut<'py, Self>>> {
        Self::wait(slf, || slf.try_borrow_mut().ok())
    }

    fn wait<B>(slf: &Bound<'_, Self>, mut take: impl FnMut() -> Option<B>) -> PyResult<Held<B>> {
        let py = slf.py();
        loop {
            if let Some(b) = take() {
                return Ok(Held {
                    b,
                    _busy: InCallback::enter(Self::id(slf)),
                });
            }
            if in_callback(Self::id(slf)) {
                return Err(reentrancy_error(
                    "the game's options, components, key or progress function asked the same \
                     game for values (or its states) while the game was exploring them or \
                     reading its states; a function must answer from the state it is given alone (compute any values \
                     it needs beforehand, outside it, or from another StateGame)",
                ));
            }
            py.detach(|| std::thread::sleep(Duration::from_millis(1)));
            py.check_signals()?;
        }
    }

    fn check_id(&self, id: usize) -> PyResult<()> {
        if id < self.graph.num_solved() {
            Ok(())
        } else {
            Err(not_found_error(format!(
                "state id {id} is not explored (only {} are)",
                self.graph.num_solved()
            )))
        }
    }
}

#[pymethods]
impl StateExplorer {
    #[new]
    #[pyo3(signature = (
        options, components=None, key=None, max_states=None, loopy=false, split=false,
        int_states=false, batch=false
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        options: Py<PyAny>,
        components: Option<Py<PyAny>>,
        key: Option<Py<PyAny>>,
        max_states: Option<u64>,
        loopy: bool,
        split: bool,
        int_states: bool,
        batch: bool,
    ) -> PyResult<Self> {
        if batch && (loopy || !split || !int_states) {
            return Err(argument_error(
                "a batch rule gives split options of integer states (split=True, int_states=True) \
                 and is not loopy",
            ));
        }
        if loopy && components.is_some() {
            return Err(argument_error(
                "loopy=True cannot be combined with components=: the generalized value of a loopy \
                 sum is not that of a single state (two infinite parts make a draw with no value); \
                 explore whole states, or put the parts in a grundy.Position",
            ));
        }
        Ok(StateExplorer {
            options,
            components,
            key,
            store: Store::new(py, int_states),
            split,
            batch,
            graph: StateGraph::new(),
            max_states,
            loopy,
        })
    }

    /// Explores every state reachable from `roots` (an iterable of states) and solves them.
    /// Returns, per root, the ids of its canonical components. `progress(done, found)` is
    /// called about every 0.1 s while exploring.
    #[pyo3(signature = (roots, progress=None, threads=None))]
    fn explore(
        slf: &Bound<'_, Self>,
        roots: &Bound<'_, PyAny>,
        progress: Option<Py<PyAny>>,
        threads: Option<usize>,
    ) -> PyResult<Vec<Vec<u32>>> {
        Self::borrow_mut(slf)?.run(slf.py(), roots, progress, threads, false)
    }

    /// As `explore`, for options of a split rule: each root is an iterable of canonical parts
    /// (no `components` or `key` call). Returns the ids of each one's parts.
    #[pyo3(signature = (options, progress=None, threads=None))]
    fn explore_options(
        slf: &Bound<'_, Self>,
        options: &Bound<'_, PyAny>,
        progress: Option<Py<PyAny>>,
        threads: Option<usize>,
    ) -> PyResult<Vec<Vec<u32>>> {
        Self::borrow_mut(slf)?.run(slf.py(), options, progress, threads, true)
    }

    /// The values of `roots` (the XOR of their components' values) as a numpy array of the
    /// smallest unsigned dtype that holds them.
    #[pyo3(signature = (roots, progress=None, threads=None))]
    fn values<'py>(
        slf: &Bound<'py, Self>,
        roots: &Bound<'py, PyAny>,
        progress: Option<Py<PyAny>>,
        threads: Option<usize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let mut this = Self::borrow_mut(slf)?;
        if this.loopy {
            return Err(argument_error(
                "the values of a loopy game may be infinite: use generalized_of",
            ));
        }
        let ids = this.run(slf.py(), roots, progress, threads, false)?;
        let v = this.graph.values();
        let out: Vec<u32> = ids
            .iter()
            .map(|p| p.iter().fold(0, |x, &i| x ^ v[i as usize]))
            .collect();
        let max = out.iter().copied().max().unwrap_or(0);
        Ok(Narrow::new(max, out.into_iter()).into_array(slf.py()))
    }

    /// The generalized values of `roots` in a loopy game, after exploring them: `(values, k,
    /// sets)`, where `values` is uint32 with 2**32 - 1 for an infinite value, and for a root of
    /// infinite value `sets[k[i]]` is its K (the distinct finite values of its options, in
    /// increasing order); `k` is int64, -1 for a finite value. Each distinct K is listed once.
    #[pyo3(signature = (roots, progress=None, threads=None))]
    fn generalized_of<'py>(
        slf: &Bound<'py, Self>,
        roots: &Bound<'py, PyAny>,
        progress: Option<Py<PyAny>>,
        threads: Option<usize>,
    ) -> PyResult<GeneralizedOf<'py>> {
        let py = slf.py();
        let mut this = Self::borrow_mut(slf)?;
        if !this.loopy {
            return Err(argument_error(
                "generalized values are computed for loopy=True games only",
            ));
        }
        let ids = this.run(slf.py(), roots, progress, threads, false)?;
        let v = this.graph.values();
        let mut sets: Vec<Vec<u32>> = Vec::new();
        let mut seen: HashMap<Vec<u32>, i64> = HashMap::new();
        let mut by_id: HashMap<u32, i64> = HashMap::new();
        let mut values = Vec::with_capacity(ids.len());
        let mut k = Vec::with_capacity(ids.len());
        for p in &ids {
            let id = p[0]; // one part per root in a loopy game
            values.push(v[id as usize]);
            if v[id as usize] != loopy::INFINITE {
                k.push(-1);
                continue;
            }
            let i = *by_id.entry(id).or_insert_with(|| {
                let set = this.k_set(id as usize);
                *seen.entry(set).or_insert_with_key(|set| {
                    sets.push(set.clone());
                    sets.len() as i64 - 1
                })
            });
            k.push(i);
        }
        Ok((
            PyArray1::from_vec(py, values),
            PyArray1::from_vec(py, k),
            sets,
        ))
    }

    /// G of the explored state with this id.
    fn value(slf: &Bound<'_, Self>, id: usize) -> PyResult<u32> {
        let this = Self::borrow(slf)?;
        this.check_id(id)?;
        Ok(this.graph.values()[id])
    }

    /// The options of an explored state, each as the list of ids of its components.
    fn option_parts(slf: &Bound<'_, Self>, id: usize) -> PyResult<Vec<Vec<u32>>> {
        let this = Self::borrow(slf)?;
        this.check_id(id)?;
        Ok(this
            .graph
            .option_ids(id)
            .map(|j| this.graph.option_parts(j).to_vec())
            .collect())
    }

    /// Misère play of the sum of the explored states `root` (ids, repeats allowed), by the core's
    /// exhaustive misère search, without the GIL: `(is_p, moves, positions examined)`. When
    /// `want_moves` and the sum is N, `moves` lists each move to a misère P-position as (index in
    /// `root`, ids of the parts it leaves), one per option. SearchLimitError past `max_positions`
    /// distinct positions; Ctrl-C raises KeyboardInterrupt.
    #[pyo3(signature = (root, max_positions, want_moves=false))]
    #[allow(clippy::type_complexity)]
    fn misere_search(
        slf: &Bound<'_, Self>,
        root: Vec<u32>,
        max_positions: usize,
        want_moves: bool,
    ) -> PyResult<(bool, Vec<(usize, Vec<u32>)>, usize)> {
        let this = Self::borrow(slf)?;
        if this.loopy {
            // A loopy graph has cycles, through which the search would never end.
            return Err(argument_error(
                "misère play of loopy games is not supported: the generalized Sprague-Grundy \
                 values and their sum rules hold for normal play only (misere=False)",
            ));
        }
        for &id in &root {
            this.check_id(id as usize)?;
        }
        let graph = &this.graph;
        PyControl::run(slf.py(), ErrSlot::default(), None, |ctl| {
            let games = [MisereGame::State(graph)];
            let comps: Vec<Comp> = root.iter().map(|&id| (0, id as u64)).collect();
            let mut m = Misere::new(&games, max_positions, ctl);
            let p = m.is_p(&comps)?;
            let moves = if want_moves && !p {
                m.winning_moves(&comps)?
                    .into_iter()
                    .map(|(i, parts)| (i, parts.into_iter().map(|x| x as u32).collect()))
                    .collect()
            } else {
                Vec::new()
            };
            Ok((p, moves, m.positions()))
        })
    }

    /// The ids of the options of an explored state of a loopy game (each option is one state).
    fn options<'py>(slf: &Bound<'py, Self>, id: usize) -> PyResult<Bound<'py, PyArray1<u32>>> {
        let this = Self::borrow(slf)?;
        this.check_id(id)?;
        let ids: Vec<u32> = this
            .graph
            .option_ids(id)
            .flat_map(|j| this.graph.option_parts(j).iter().copied())
            .collect();
        Ok(PyArray1::from_vec(slf.py(), ids))
    }

    /// For each id, the distinct finite values of the options of that explored state of a loopy
    /// game, in increasing order: its K when its value is infinite.
    fn finite_option_values(slf: &Bound<'_, Self>, ids: Vec<usize>) -> PyResult<Vec<Vec<u32>>> {
        let this = Self::borrow(slf)?;
        ids.into_iter()
            .map(|id| {
                this.check_id(id)?;
                Ok(this.k_set(id))
            })
            .collect()
    }

    /// The id of the explored state `state` (after `key`), or None when it is not explored.
    /// Nothing is explored or recorded.
    fn lookup(slf: &Bound<'_, Self>, state: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
        let py = slf.py();
        let this = Self::borrow(slf)?;
        let canon = match &this.key {
            Some(k) => k
                .call1(py, (state,))
                .map_err(|e| with_note(py, e, "key", state))?
                .into_bound(py),
            None => state.clone(),
        };
        Ok(this
            .store
            .lookup(py, &canon)?
            .map(|id| id as usize)
            .filter(|&i| i < this.graph.num_solved()))
    }

    /// `(values, outcomes)` of every explored state of a loopy game, by id: values as uint32
    /// with 2**32 - 1 for an infinite value, outcomes as uint8 (0 = P, 1 = N, 2 = D).
    fn generalized<'py>(slf: &Bound<'py, Self>) -> PyResult<Generalized<'py>> {
        let py = slf.py();
        let this = Self::borrow(slf)?;
        if !this.loopy {
            return Err(argument_error(
                "generalized values are computed for loopy=True games only",
            ));
        }
        let (opt_off, _, parts) = this.graph.csr();
        let v = this.graph.values();
        let n = v.len();
        let off = &opt_off[..n + 1];
        let tgt = &parts[..off[n] as usize];
        let o = loopy::outcomes(off, tgt, v, None)?;
        Ok((
            PyArray1::from_slice(py, v),
            PyArray1::from_vec(py, o.into_iter().map(|x| x as u8).collect()),
        ))
    }

    /// Whether this explorer solves loopy games (cycles allowed).
    #[getter]
    fn loopy(slf: &Bound<'_, Self>) -> PyResult<bool> {
        Ok(Self::borrow(slf)?.loopy)
    }

    /// The canonical state with this id.
    fn state(slf: &Bound<'_, Self>, id: usize) -> PyResult<Py<PyAny>> {
        let this = Self::borrow(slf)?;
        this.check_id(id)?;
        this.store.get(slf.py(), id)
    }

    /// The number of distinct canonical states explored and solved.
    #[getter]
    fn num_states(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Ok(Self::borrow(slf)?.graph.num_solved())
    }

    /// The number of options over all explored states.
    #[getter]
    fn num_options(slf: &Bound<'_, Self>) -> PyResult<usize> {
        Ok(Self::borrow(slf)?.graph.num_options())
    }
}
