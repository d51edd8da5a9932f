//! `_core.StateSearch`: the value of one position of a game written in Python whose states are
//! integers, by the pruned search of [`crate::nimber_search`] rather than by tabulating every
//! reachable state.
//!
//! The search reads a game through the [`Board`] trait; [`PyBoard`] implements it by calling
//! the game's Python functions (under the GIL, which the caller holds: the search runs on the
//! caller's thread). `Board` has no way to fail, so a Python exception is parked, and from then
//! on the board answers "no options, no components": the search collapses at once, its table
//! (wrong from then on) is dropped with it, and the parked exception is raised.
//!
//! A split rule (`split=True`) gives each option as its canonical parts. `Board::options`
//! returns positions, so an option of several parts (or none) is returned as a *handle*: bit
//! 127 set, a generation and an index into the parts of the last `options` call, which
//! `Board::components` reads back. The search splits every option it gets before it asks for
//! more options (it splits a node's options, then searches the pending ones), which is all a
//! handle needs; a handle of an older generation is refused loudly (an error, never a wrong
//! value). The states of a split rule are therefore below 2**127.
//!
//! The search and its fixed-budget table live as long as the game (as `_core.BoardGame`'s do),
//! so one call's work serves the next; a call that fails in any way drops them (a rule that
//! raised leaves wrong entries behind), and a call made from inside the rule's own functions
//! (the table is busy) searches with a table of its own.

use super::store::int_state;
use crate::bindings::argument_error;
use crate::bindings::convert::show;
use crate::bindings::leaked::Leaked;
use crate::board::Board;
use crate::control::Control;
use crate::error::Error;
use crate::nimber_search::Search;
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

/// Bit 127 marks a handle to an option of several parts (split rules only).
const HANDLE: u128 = 1 << 127;

/// The most stack the search may take below the call that started it: far less than a thread's
/// (8 MiB on Linux, 512 KiB for macOS threads), and some hundreds of levels of recursion (a
/// level is a move). A deeper search (a game with long plays, or with a cycle, where it would
/// never end) gives up, and the game is tabulated instead.
const MAX_STACK: usize = 192 << 10;

/// The default memory budget of one search's table: 64 MiB (a Python rule is called once per
/// node, so a larger table would take minutes to fill).
pub(crate) const DEFAULT_BUDGET: u64 = 64 << 20;

/// The parts of the options of the last `options` call of a split rule.
#[derive(Default)]
struct Arena {
    generation: u64,
    parts: Vec<u128>,
    /// Option `i`'s parts are `parts[starts[i]..starts[i + 1]]`.
    starts: Vec<usize>,
}

impl Arena {
    fn reset(&mut self) {
        self.generation = (self.generation + 1) & (u64::MAX >> 1);
        self.parts.clear();
        self.starts.clear();
        self.starts.push(0);
    }

    /// Records an option's parts (already in `parts`): its handle.
    fn close(&mut self) -> u128 {
        let i = self.starts.len() - 1;
        self.starts.push(self.parts.len());
        HANDLE | u128::from(self.generation) << 64 | i as u128
    }
}

/// A game written in Python, seen as a [`Board`] over integer states.
struct PyBoard {
    options: Py<PyAny>,
    /// `components` and `key` of a rule that is not split (a split rule's parts are canonical).
    components: Option<Py<PyAny>>,
    key: Option<Py<PyAny>>,
    split: bool,
    /// The first exception a Python function raised (or the signal check) in this call.
    err: Mutex<Option<PyErr>>,
    arena: Mutex<Arena>,
    /// The address of a local of the call searching now (the stack's base for it).
    base: AtomicUsize,
    /// The search went deeper than [`MAX_STACK`].
    too_deep: AtomicBool,
}

/// Where this call's stack is: the address of one of its locals.
#[inline(never)]
fn stack_here() -> usize {
    let x = 0u8;
    std::hint::black_box(&x) as *const u8 as usize
}

impl PyBoard {
    /// Ready for a new call from this point of the stack.
    fn start(&self) {
        self.base.store(stack_here(), Relaxed);
        self.too_deep.store(false, Relaxed);
        *self.err.lock().unwrap_or_else(|p| p.into_inner()) = None;
    }

    fn failed(&self) -> bool {
        self.too_deep.load(Relaxed) || self.err.lock().unwrap_or_else(|p| p.into_inner()).is_some()
    }

    fn fail(&self, e: PyErr) {
        let mut slot = self.err.lock().unwrap_or_else(|p| p.into_inner());
        if slot.is_none() {
            *slot = Some(e);
        }
    }

    /// Parks `e` with a note naming the function and the state it was called on.
    fn fail_on(&self, py: Python<'_>, e: PyErr, what: &str, pos: u128) {
        let Ok(s) = pos.into_pyobject(py);
        let note = format!("raised by {what} on state {}", show(s.as_any()));
        let _ = e.value(py).call_method1("add_note", (note,));
        self.fail(e);
    }

    /// `f(pos)`, an iterable of integer states, pushed onto `out`.
    fn call_ints(
        &self,
        py: Python<'_>,
        f: &Py<PyAny>,
        pos: u128,
        out: &mut Vec<u128>,
    ) -> PyResult<()> {
        let ret = f.call1(py, (pos,))?;
        for x in ret.bind(py).try_iter()? {
            out.push(int_state(&x?)?);
        }
        Ok(())
    }

    /// A part of a split rule's option: an int below 2**127.
    fn part(x: &Bound<'_, PyAny>) -> PyResult<u128> {
        let v = int_state(x)?;
        if v & HANDLE != 0 {
            return Err(argument_error(format!(
                "the search of a split rule needs states below 2**127, not {}",
                show(x)
            )));
        }
        Ok(v)
    }

    /// A split rule's options of `pos`: one part as itself, others as handles.
    fn split_options(&self, py: Python<'_>, pos: u128, out: &mut Vec<u128>) -> PyResult<()> {
        let ret = self.options.call1(py, (pos,))?;
        let mut arena = self.arena.lock().unwrap_or_else(|p| p.into_inner());
        arena.reset();
        for o in ret.bind(py).try_iter()? {
            let o = o?;
            if let Ok(t) = o.cast::<PyTuple>() {
                if t.len() == 1 {
                    out.push(Self::part(&t.get_item(0)?)?);
                    continue;
                }
                for p in t.iter() {
                    let p = Self::part(&p)?;
                    arena.parts.push(p);
                }
            } else {
                for p in o.try_iter()? {
                    let p = Self::part(&p?)?;
                    arena.parts.push(p);
                }
            }
            out.push(arena.close());
        }
        Ok(())
    }

    /// The parts behind a handle of the current generation.
    fn handle_parts(&self, h: u128, out: &mut Vec<u128>) {
        let arena = self.arena.lock().unwrap_or_else(|p| p.into_inner());
        let generation = (h >> 64) as u64 & (u64::MAX >> 1);
        let i = h as u64 as usize;
        if generation != arena.generation || i + 1 >= arena.starts.len() {
            drop(arena);
            self.fail(argument_error(
                "internal error: the nimber search split an option after asking for other \
                 options (a stale handle); please report it",
            ));
            return;
        }
        out.extend_from_slice(&arena.parts[arena.starts[i]..arena.starts[i + 1]]);
    }

    /// A handle to one option of the given parts (a fresh generation).
    fn handle_of(&self, parts: &[u128]) -> u128 {
        let mut arena = self.arena.lock().unwrap_or_else(|p| p.into_inner());
        arena.reset();
        arena.parts.extend_from_slice(parts);
        arena.close()
    }
}

impl Board for PyBoard {
    fn options(&self, pos: u128, out: &mut Vec<u128>) {
        if self.failed() {
            return;
        }
        if stack_here().abs_diff(self.base.load(Relaxed)) > MAX_STACK {
            self.too_deep.store(true, Relaxed);
            return;
        }
        let n = out.len();
        Python::attach(|py| {
            let r = if self.split {
                self.split_options(py, pos, out)
            } else {
                self.call_ints(py, &self.options, pos, out)
            };
            if let Err(e) = r {
                out.truncate(n);
                self.fail_on(py, e, "options", pos);
            }
        });
    }

    fn components(&self, pos: u128, out: &mut Vec<u128>) {
        if self.failed() {
            return;
        }
        if self.split && pos & HANDLE != 0 {
            return self.handle_parts(pos, out);
        }
        let Some(f) = &self.components else {
            out.push(pos);
            return;
        };
        let n = out.len();
        Python::attach(|py| {
            if let Err(e) = self.call_ints(py, f, pos, out) {
                out.truncate(n);
                self.fail_on(py, e, "components", pos);
            }
        });
    }

    fn key(&self, component: u128) -> u128 {
        let Some(f) = &self.key else {
            return component;
        };
        if self.failed() {
            return component;
        }
        Python::attach(|py| {
            let r = f
                .call1(py, (component,))
                .and_then(|k| int_state(k.bind(py)));
            r.unwrap_or_else(|e| {
                self.fail_on(py, e, "key", component);
                component
            })
        })
    }
}

/// Ctrl-C between nodes; a parked exception stops the search.
struct Ctl<'a>(&'a PyBoard);

impl Control for Ctl<'_> {
    fn check(&self, _: u64, _: u64) -> crate::Result<()> {
        if self.0.failed() {
            return Err(Error::Interrupted);
        }
        Python::attach(|py| py.check_signals()).map_err(|e| {
            self.0.fail(e);
            Error::Interrupted
        })
    }
}

/// A Python game and the search over it, with its table.
struct Solver {
    /// Declared first: it borrows the board, and must be dropped before it.
    search: Search<'static, PyBoard>,
    board: Leaked<PyBoard>,
}

/// The value of one position of a Python game with integer states, by pruned search.
#[pyclass(module = "grundy._core", frozen)]
pub struct StateSearch {
    options: Py<PyAny>,
    components: Option<Py<PyAny>>,
    key: Option<Py<PyAny>>,
    split: bool,
    budget: u64,
    /// The search kept between calls (None before the first, and after a failed one).
    solver: Mutex<Option<Solver>>,
}

impl StateSearch {
    fn solver(&self, py: Python<'_>) -> PyResult<Solver> {
        let board = Leaked::new(Box::new(PyBoard {
            options: self.options.clone_ref(py),
            components: if self.split {
                None
            } else {
                self.components.as_ref().map(|f| f.clone_ref(py))
            },
            key: if self.split {
                None
            } else {
                self.key.as_ref().map(|f| f.clone_ref(py))
            },
            split: self.split,
            err: Mutex::new(None),
            arena: Mutex::new(Arena::default()),
            base: AtomicUsize::new(0),
            too_deep: AtomicBool::new(false),
        }));
        // SAFETY: the board goes only to `search`, declared before it in the solver.
        let search = Search::new(unsafe { board.get() }, self.budget)?;
        Ok(Solver { search, board })
    }

    /// The canonical parts of a root of a split rule: `components`, then `key`, applied to it
    /// (each optional).
    fn root_parts(&self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<Vec<u128>> {
        let parts: Vec<Bound<'_, PyAny>> = match &self.components {
            Some(f) => f
                .call1(py, (state,))?
                .into_bound(py)
                .try_iter()?
                .collect::<PyResult<_>>()?,
            None => vec![state.clone()],
        };
        parts
            .iter()
            .map(|p| match &self.key {
                Some(k) => PyBoard::part(k.call1(py, (p,))?.bind(py)),
                None => PyBoard::part(p),
            })
            .collect()
    }

    /// Runs `f` on the kept search (a new one when there is none, or when this call comes from
    /// inside the game's own functions while the kept one is busy). The parked exception, if
    /// any, wins over the result. `None` when the game is out of the search's range (a value
    /// over 127, plays too long, a cycle). After any failure the search is dropped.
    fn run<R>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut Search<'static, PyBoard>, &PyBoard, &Ctl<'_>) -> crate::Result<R>,
    ) -> PyResult<Option<(R, u64)>> {
        let mut kept = match self.solver.try_lock() {
            Ok(g) => Some(g),
            Err(std::sync::TryLockError::Poisoned(p)) => Some(p.into_inner()),
            Err(std::sync::TryLockError::WouldBlock) => None, // a call from inside the rule
        };
        let mut own = None;
        let solver = match kept.as_deref_mut() {
            Some(slot) => {
                if slot.is_none() {
                    *slot = Some(self.solver(py)?);
                }
                slot.as_mut().expect("just made")
            }
            None => own.insert(self.solver(py)?),
        };
        // SAFETY: the board lives as long as the solver, which outlives this call.
        let board: &'static PyBoard = unsafe { solver.board.get() };
        board.start();
        let ctl = Ctl(board);
        let before = solver.search.stats().nodes;
        let r = f(&mut solver.search, board, &ctl);
        let nodes = solver.search.stats().nodes - before;
        let err = board.err.lock().unwrap_or_else(|p| p.into_inner()).take();
        let too_deep = board.too_deep.load(Relaxed);
        if err.is_some() || too_deep || r.is_err() {
            if let Some(slot) = kept.as_deref_mut() {
                *slot = None; // its table may hold what a failed rule made up
            }
        }
        if let Some(e) = err {
            return Err(e);
        }
        if too_deep {
            return Ok(None);
        }
        match r {
            Ok(v) => Ok(Some((v, nodes))),
            Err(Error::Invalid(_)) => Ok(None),
            Err(e) => Err(e.into()),
        }
    }
}

#[pymethods]
impl StateSearch {
    #[new]
    #[pyo3(signature = (options, components=None, key=None, split=false, budget=DEFAULT_BUDGET))]
    fn new(
        options: Py<PyAny>,
        components: Option<Py<PyAny>>,
        key: Option<Py<PyAny>>,
        split: bool,
        budget: u64,
    ) -> PyResult<Self> {
        if budget < 1024 {
            return Err(argument_error(format!(
                "the search's memory budget must be at least 1024 bytes, not {budget}"
            )));
        }
        Ok(StateSearch {
            options,
            components,
            key,
            split,
            budget,
            solver: Mutex::new(None),
        })
    }

    /// `(G(state), nodes searched by this call)`, or None when the game is past the search (a value over
    /// 127, plays too long for the stack, or a cycle): tabulate instead.
    fn value(&self, py: Python<'_>, state: &Bound<'_, PyAny>) -> PyResult<Option<(u32, u64)>> {
        if self.split {
            let parts = self.root_parts(py, state)?;
            self.run(py, |s, _, ctl| {
                parts.iter().try_fold(0, |x, &p| Ok(x ^ s.value(p, ctl)?))
            })
        } else {
            let root = int_state(state)?;
            self.run(py, |s, _, ctl| s.value(root, ctl))
        }
    }

    /// The options of `state`, as `options(state)` returned them, whose value is 0 (the
    /// winning moves of a lone game), found by the search.
    fn winning(
        &self,
        py: Python<'_>,
        state: &Bound<'_, PyAny>,
    ) -> PyResult<Option<Vec<Py<PyAny>>>> {
        let opts: Vec<Bound<'_, PyAny>> = self
            .options
            .call1(py, (state,))?
            .into_bound(py)
            .try_iter()?
            .collect::<PyResult<_>>()?;
        let mut targets = Vec::with_capacity(opts.len());
        for o in &opts {
            targets.push(if self.split {
                let parts: Vec<u128> = o
                    .try_iter()?
                    .map(|p| PyBoard::part(&p?))
                    .collect::<PyResult<_>>()?;
                Target::Parts(parts)
            } else {
                Target::State(int_state(o)?)
            });
        }
        let r = self.run(py, |s, board, ctl| {
            let mut zero = Vec::new();
            for (i, t) in targets.iter().enumerate() {
                let pos = match t {
                    Target::State(x) => *x,
                    Target::Parts(p) => board.handle_of(p),
                };
                if s.is_zero(pos, ctl)? {
                    zero.push(i);
                }
            }
            Ok(zero)
        })?;
        Ok(r.map(|(zero, _)| zero.into_iter().map(|i| opts[i].clone().unbind()).collect()))
    }

    /// The memory budget of a search's table, in bytes.
    #[getter]
    fn budget(&self) -> u64 {
        self.budget
    }
}

/// An option of the root, for `winning`.
enum Target {
    State(u128),
    Parts(Vec<u128>),
}
