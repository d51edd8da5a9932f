//! `_core.StateExplorer`: explores a game given by Python functions over hashable states, holding
//! the GIL only to call them, and solves the explored graph in Rust without the GIL; and
//! `_core.StateSearch`, one position's value by the pruned search.
//!
//! By concern: `explore.rs` reads the game's functions as the core's exploration rules
//! ([`crate::graph::explore`] explores), `store.rs` keeps the canonical states, `search.rs` is
//! `StateSearch`; this file is the class Python sees.

mod explore;
mod search;
mod store;

pub(crate) use search::StateSearch;

use super::convert::{in_callback, InCallback, Narrow};
use super::{
    argument_error, grundy_exception, not_found_error, on_threads, reentrancy_error, ErrSlot,
    PyControl,
};
use crate::error::Error;
use crate::graph::explore::{expand, explore};
use crate::graph::loopy;
use crate::graph::state::StateGraph;
use crate::position::misere::{Comp, Misere, MisereGame};
use explore::{Batch, PerState, Rules};
use numpy::PyArray1;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyList;
use std::collections::HashMap;
use std::time::Duration;
use store::Store;

/// Values (uint32, 2**32 - 1 for infinite) and outcomes (uint8: 0 = P, 1 = N, 2 = D).
type Generalized<'py> = (Bound<'py, PyArray1<u32>>, Bound<'py, PyArray1<u8>>);
/// Values, the index of each infinite value's K (-1 for finite), and the distinct K sets.
type GeneralizedOf<'py> = (
    Bound<'py, PyArray1<u32>>,
    Bound<'py, PyArray1<i64>>,
    Vec<Vec<u32>>,
);

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
    rules: Rules,
    store: Store,
    graph: StateGraph,
    /// `options` takes an array of states and returns the options of all, split ([`Batch`]).
    batch: bool,
    /// Loopy: options are single states, cycles allowed, values by Smith's generalized function.
    loopy: bool,
}

/// Solves the explored graph without the GIL, on `threads`; a cycle names its states.
fn solve(
    py: Python<'_>,
    graph: &mut StateGraph,
    store: &Store,
    loopy: bool,
    threads: Option<usize>,
) -> PyResult<()> {
    let ctl = PyControl {
        slot: ErrSlot::default(),
        progress: None,
    };
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
        Ok(()) => Ok(()),
        Err(Error::Cycle(ids)) => {
            // The core's message names vertex ids; the exception's names the states.
            let fallback = Error::Cycle(ids.clone()).to_string();
            let cycle = PyList::empty(py);
            for &i in &ids {
                cycle.append(store.get(py, i as usize)?)?;
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

impl StateExplorer {
    /// Explores from `roots` (`split_roots`: each is an option's canonical parts) and solves;
    /// returns the ids of each root's parts. On any failure nothing new is kept (the core's
    /// [`explore`] rolls back).
    fn run(
        &mut self,
        py: Python<'_>,
        roots: &Bound<'_, PyAny>,
        progress: Option<Py<PyAny>>,
        threads: Option<usize>,
        split_roots: bool,
    ) -> PyResult<Vec<Vec<u32>>> {
        let game = self.rules.with(progress.as_ref());
        let (batch, loopy) = (self.batch, self.loopy);
        explore(&mut self.graph, &mut self.store, |graph, store| {
            let mut rule = PerState::new(py, &game);
            let out = game.roots(py, store, roots, split_roots, &mut rule.poll)?;
            if batch {
                expand(graph, store, &mut Batch::new(py, &game)?)?;
            } else {
                expand(graph, store, &mut rule)?;
            }
            solve(py, graph, store, loopy, threads)?;
            Ok(out)
        })
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
            rules: Rules {
                options,
                components,
                key,
                split,
                max_states,
            },
            store: Store::new(py, int_states),
            batch,
            graph: StateGraph::new(),
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
        let canon = this.rules.with(None).canon(py, state)?;
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
