//! The game's Python functions as the core's exploration rules ([`crate::graph::explore`]): a
//! rule that asks `options(state)` of one state at a time (with `components` and `key`, or split
//! options), and a batch rule that asks `options(states)` of an array of integer states. The
//! exploration itself (order, batches, limits, rolling back a failed call) is the core's; here
//! the Python values are read, checked and interned, and Ctrl-C, memory and progress polled.

use super::store::{int_state, Found, Store};
use crate::bindings::convert::show;
use crate::bindings::{argument_error, argument_type_error};
use crate::graph::explore::{Options, Rule, States};
use crate::graph::state::StateGraph;
use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use std::ops::Range;
use std::time::{Duration, Instant};

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

/// The game's functions and settings.
pub(super) struct Rules {
    pub(super) options: Py<PyAny>,
    pub(super) components: Option<Py<PyAny>>,
    pub(super) key: Option<Py<PyAny>>,
    /// `options` returns each option as its canonical parts (no `components` or `key` call).
    pub(super) split: bool,
    pub(super) max_states: Option<u64>,
}

impl Rules {
    /// The rules as one call reads them, with its progress callback.
    pub(super) fn with<'a>(&'a self, progress: Option<&'a Py<PyAny>>) -> Callbacks<'a> {
        Callbacks {
            options: &self.options,
            components: self.components.as_ref(),
            key: self.key.as_ref(),
            split: self.split,
            max_states: self.max_states,
            progress,
        }
    }
}

/// The game's functions and settings, as one exploration reads them.
pub(super) struct Callbacks<'a> {
    options: &'a Py<PyAny>,
    components: Option<&'a Py<PyAny>>,
    key: Option<&'a Py<PyAny>>,
    split: bool,
    max_states: Option<u64>,
    progress: Option<&'a Py<PyAny>>,
}

/// The exploration's polls: Ctrl-C, progress and the memory left, about every [`POLL`].
pub(super) struct Poll {
    last: Instant,
    items: u64,
}

impl Poll {
    pub(super) fn new() -> Self {
        Poll {
            last: Instant::now(),
            items: 0,
        }
    }

    /// Counts one item read; polls when [`POLL_ITEMS`] were read since the last look at the
    /// clock and [`POLL`] has passed.
    fn item(&mut self, py: Python<'_>, at: At<'_>, progress: Option<&Py<PyAny>>) -> PyResult<()> {
        self.items += 1;
        if self.items % POLL_ITEMS == 0 {
            self.poll(py, at, progress)?;
        }
        Ok(())
    }

    /// Polls when [`POLL`] has passed since the last poll.
    fn poll(&mut self, py: Python<'_>, at: At<'_>, progress: Option<&Py<PyAny>>) -> PyResult<()> {
        if self.last.elapsed() < POLL {
            return Ok(());
        }
        self.last = Instant::now();
        py.check_signals()?;
        let held =
            at.store.len() as u64 * at.store.state_bytes() + at.options as u64 * OPTION_BYTES;
        if let Err(e) = crate::memory::check(held) {
            let e = PyErr::from(e);
            let _ = e.value(py).call_method1(
                "add_note",
                (format!(
                    "raised while exploring: {} states found, {} options read; max_states= \
                     bounds the exploration (SearchLimitError past it)",
                    at.store.len(),
                    at.options
                ),),
            );
            return Err(e);
        }
        if let Some(f) = progress {
            f.call1(py, (at.done, at.store.len()))?;
        }
        Ok(())
    }
}

/// Where an exploration stands, for a poll.
#[derive(Clone, Copy)]
struct At<'s> {
    store: &'s Store,
    /// States expanded.
    done: usize,
    /// Options read.
    options: usize,
}

/// Adds a note naming `state` to an exception raised while handling it; the exception itself is
/// kept unchanged.
pub(super) fn with_note(py: Python<'_>, e: PyErr, what: &str, state: &Bound<'_, PyAny>) -> PyErr {
    let _ = e.value(py).call_method1(
        "add_note",
        (format!("raised by {what} on state {}", show(state)),),
    );
    e
}

impl Callbacks<'_> {
    /// The canonical form of `state`: `key(state)`, or the state itself.
    pub(super) fn canon<'py>(
        &self,
        py: Python<'py>,
        state: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        match self.key {
            Some(k) => Ok(k
                .call1(py, (state,))
                .map_err(|e| with_note(py, e, "key", state))?
                .into_bound(py)),
            None => Ok(state.clone()),
        }
    }

    /// The id of the canonical form of `state`, recording it when it is new.
    fn intern(&self, py: Python<'_>, store: &mut Store, state: &Bound<'_, PyAny>) -> PyResult<u32> {
        let canon = self.canon(py, state)?;
        self.intern_canon(py, store, state, &canon)
    }

    /// The id of canonical state `canon` (the key of `state`), recording it when it is new.
    fn intern_canon(
        &self,
        py: Python<'_>,
        store: &mut Store,
        state: &Bound<'_, PyAny>,
        canon: &Bound<'_, PyAny>,
    ) -> PyResult<u32> {
        let keyed = self.key.is_some();
        let found = store.find(py, canon, |e| {
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
            Found::New(k) => store.push(py, k, self.max_states),
        }
    }

    /// The ids of the parts of an option that a split rule gave (canonical already): a tuple
    /// is read directly, any other iterable through the iterator protocol. Integer parts
    /// (`int_states=True`) take one C call and a hash lookup each, no Python object kept.
    pub(super) fn split_parts(
        &self,
        py: Python<'_>,
        store: &mut Store,
        state: &Bound<'_, PyAny>,
        option: &Bound<'_, PyAny>,
        out: &mut Vec<u32>,
    ) -> PyResult<()> {
        out.clear();
        if let Ok(t) = option.cast::<PyTuple>() {
            for p in t.iter() {
                out.push(match store.ints() {
                    Some(ints) => ints.intern(int_state(&p)?, self.max_states)?,
                    None => self.intern_canon(py, store, &p, &p)?,
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
            out.push(self.intern_canon(py, store, &p, &p)?);
        }
        Ok(())
    }

    /// The ids of the canonical components of `state`.
    fn parts(
        &self,
        py: Python<'_>,
        store: &mut Store,
        state: &Bound<'_, PyAny>,
        out: &mut Vec<u32>,
        poll: &mut Poll,
        at: (usize, usize),
    ) -> PyResult<()> {
        out.clear();
        let Some(c) = self.components else {
            out.push(self.intern(py, store, state)?);
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
            let here = At {
                store,
                done: at.0,
                options: at.1,
            };
            poll.item(py, here, self.progress)?;
            let p = p.map_err(|e| with_note(py, e, "components", state))?;
            out.push(self.intern(py, store, &p)?);
        }
        Ok(())
    }

    /// The ids of the canonical components of each root (`split`: each root is an option's
    /// canonical parts), recording new states.
    pub(super) fn roots(
        &self,
        py: Python<'_>,
        store: &mut Store,
        roots: &Bound<'_, PyAny>,
        split: bool,
        poll: &mut Poll,
    ) -> PyResult<Vec<Vec<u32>>> {
        let mut out = Vec::new();
        let mut parts = Vec::new();
        let done = store.len();
        for r in roots.try_iter()? {
            poll.item(
                py,
                At {
                    store,
                    done,
                    options: 0,
                },
                self.progress,
            )?;
            let r = r?;
            if split {
                self.split_parts(py, store, &r, &r, &mut parts)?;
            } else {
                self.parts(py, store, &r, &mut parts, poll, (done, 0))?;
            }
            out.push(parts.clone());
        }
        Ok(out)
    }
}

/// The rule `options(state)`, one state at a time.
pub(super) struct PerState<'a, 'py> {
    pub(super) py: Python<'py>,
    pub(super) game: &'a Callbacks<'a>,
    pub(super) poll: Poll,
    parts: Vec<u32>,
}

impl<'a, 'py> PerState<'a, 'py> {
    pub(super) fn new(py: Python<'py>, game: &'a Callbacks<'a>) -> Self {
        PerState {
            py,
            game,
            poll: Poll::new(),
            parts: Vec::new(),
        }
    }
}

impl Rule<Store> for PerState<'_, '_> {
    type Error = PyErr;

    fn options(
        &mut self,
        store: &mut Store,
        ids: Range<usize>,
        out: &mut Options<'_>,
    ) -> PyResult<()> {
        let (py, game) = (self.py, self.game);
        for u in ids {
            let s = store.get(py, u)?.into_bound(py);
            let ret = game
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
                let at = At {
                    store,
                    done: u,
                    options: out.num_options(),
                };
                self.poll.item(py, at, game.progress)?;
                let o = o.map_err(|e| with_note(py, e, "options", &s))?;
                if game.split {
                    game.split_parts(py, store, &s, &o, &mut self.parts)?;
                } else {
                    let at = (u, out.num_options());
                    game.parts(py, store, &o, &mut self.parts, &mut self.poll, at)?;
                }
                out.option(&self.parts);
            }
            out.end_state();
        }
        Ok(())
    }

    fn poll(&mut self, store: &Store, graph: &StateGraph) -> PyResult<()> {
        let at = At {
            store,
            done: graph.num_vertices(),
            options: graph.num_options(),
        };
        self.poll.poll(self.py, at, self.game.progress)
    }
}

/// The rule `options(states)` of a batch game: up to [`BATCH`] integer states as a uint64 array
/// in, `(counts, sizes, parts)` out (the number of options of each state, the number of parts
/// of each option, and the parts, canonical states, in order). No Python object per state or
/// option.
pub(super) struct Batch<'a, 'py> {
    pub(super) py: Python<'py>,
    pub(super) game: &'a Callbacks<'a>,
    pub(super) poll: Poll,
    np: Bound<'py, PyModule>,
}

impl<'a, 'py> Batch<'a, 'py> {
    pub(super) fn new(py: Python<'py>, game: &'a Callbacks<'a>) -> PyResult<Self> {
        Ok(Batch {
            py,
            game,
            poll: Poll::new(),
            np: py.import("numpy")?,
        })
    }
}

fn as_array<'py>(
    np: &Bound<'py, PyModule>,
    x: &Bound<'py, PyAny>,
    dtype: &str,
) -> Result<Bound<'py, PyAny>, String> {
    np.call_method1("ascontiguousarray", (x, dtype))
        .map_err(|_| format!("{} is not an array of integers", show(x)))
}

impl Rule<Store> for Batch<'_, '_> {
    type Error = PyErr;

    fn batch(&self) -> usize {
        BATCH
    }

    fn options(
        &mut self,
        store: &mut Store,
        ids: Range<usize>,
        out: &mut Options<'_>,
    ) -> PyResult<()> {
        let py = self.py;
        let max_states = self.game.max_states;
        let Some(ints) = store.ints() else {
            unreachable!("a batch rule has integer states")
        };
        let n = ids.len();
        let chunk: Vec<u64> = ints
            .slice(ids.clone())
            .iter()
            .map(|&s| u64::try_from(s))
            .collect::<Result<_, _>>()
            .map_err(|_| {
                argument_error(format!(
                    "a batch rule's states must be below 2**64, and state {} is not",
                    ints.slice(ids.clone())
                        .iter()
                        .find(|&&s| s > u128::from(u64::MAX))
                        .unwrap_or(&0)
                ))
            })?;
        let arr = PyArray1::from_vec(py, chunk);
        let ret = self.game.options.call1(py, (arr,)).inspect_err(|e| {
            let note = format!("raised by options on a batch of {n} states");
            let _ = e.value(py).call_method1("add_note", (note,));
        })?;
        let bad = |what: &str| {
            argument_error(format!(
                "a batch rule's options(states) must return (counts, sizes, parts): the \
                 number of options of each state, of parts of each option, and the parts; {what}"
            ))
        };
        let (counts, sizes, parts): (Bound<'_, PyAny>, Bound<'_, PyAny>, Bound<'_, PyAny>) = ret
            .extract(py)
            .map_err(|_| bad("it returned something else"))?;
        let counts = as_array(&self.np, &counts, "int64").map_err(|m| bad(&m))?;
        let sizes = as_array(&self.np, &sizes, "int64").map_err(|m| bad(&m))?;
        let parts = as_array(&self.np, &parts, "uint64").map_err(|m| bad(&m))?;
        let counts: PyReadonlyArray1<'_, i64> = counts.extract()?;
        let sizes: PyReadonlyArray1<'_, i64> = sizes.extract()?;
        let parts: PyReadonlyArray1<'_, u64> = parts.extract()?;
        let (counts, sizes, parts) = (counts.as_slice()?, sizes.as_slice()?, parts.as_slice()?);
        if counts.len() != n {
            return Err(bad(&format!(
                "it gave {} counts for {n} states",
                counts.len()
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
        let mut option: Vec<u32> = Vec::new();
        for &c in counts {
            for &size in &sizes[j..j + c as usize] {
                option.clear();
                for &p in &parts[k..k + size as usize] {
                    option.push(ints.intern(u128::from(p), max_states)?);
                }
                k += size as usize;
                out.option(&option);
            }
            j += c as usize;
            out.end_state();
        }
        Ok(())
    }

    fn poll(&mut self, store: &Store, graph: &StateGraph) -> PyResult<()> {
        self.poll.last = Instant::now().checked_sub(POLL).unwrap_or(self.poll.last); // poll now
        let at = At {
            store,
            done: graph.num_vertices(),
            options: graph.num_options(),
        };
        self.poll.poll(self.py, at, self.game.progress)
    }
}
