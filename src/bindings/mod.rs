//! The PyO3 layer: converts arguments, releases the GIL around the core, polls for Ctrl-C and maps
//! core errors to Python exceptions. No algorithm lives here.

mod board;
mod convert;
mod graph;
mod heap;
mod leaked;
mod loopy;
mod misere;
mod options;
mod position;
mod state;
mod two_heap;

use crate::error::Error;
use numpy::PyReadonlyArray1;
use pyo3::exceptions::{
    PyIndexError, PyKeyboardInterrupt, PyMemoryError, PyRuntimeError, PyTypeError, PyValueError,
};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Where a callback or signal check parks the Python exception while the core unwinds.
#[derive(Clone, Default)]
pub(crate) struct ErrSlot(Arc<Mutex<Option<PyErr>>>);

impl ErrSlot {
    pub(crate) fn put(&self, e: PyErr) {
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
    }
    /// An id of this slot (its address), shared by its clones: names the computation it serves.
    pub(crate) fn id(&self) -> usize {
        Arc::as_ptr(&self.0) as usize
    }
    pub(crate) fn take(&self) -> Option<PyErr> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}

impl ErrSlot {
    /// The Python exception for a core error met by a computation that parks its exceptions
    /// here: when the core stopped because a signal check or a callback failed
    /// ([`Error::Interrupted`]), the exception parked then (KeyboardInterrupt, or whatever the
    /// callback raised); otherwise the core error's own (see `From<Error> for PyErr`).
    pub(crate) fn raise(&self, e: Error) -> PyErr {
        match e {
            Error::Interrupted => self.take().unwrap_or_else(|| e.into()),
            e => e.into(),
        }
    }
}

/// `grundy.exceptions.<name>(*args)`, imported when first needed (the module is pure Python and
/// imports nothing from here); `fallback(message)` (a builtin of the same kind) if that fails.
pub(super) fn grundy_exception<'py, A>(
    py: Python<'py>,
    name: &str,
    args: A,
    fallback: fn(String) -> PyErr,
    message: &str,
) -> PyErr
where
    A: pyo3::call::PyCallArgs<'py>,
{
    py.import("grundy.exceptions")
        .and_then(|m| m.getattr(name))
        .and_then(|cls| cls.call1(args))
        .map(PyErr::from_value)
        .unwrap_or_else(|_| fallback(message.to_string()))
}

/// `grundy.ArgumentError(message)` (a ValueError): an argument with an unacceptable value.
pub(crate) fn argument_error(message: impl Into<String>) -> PyErr {
    let m = message.into();
    Python::attach(|py| grundy_exception(py, "ArgumentError", (&m,), PyValueError::new_err, &m))
}

/// `grundy.ArgumentTypeError(message)` (a TypeError): an argument of the wrong type.
pub(crate) fn argument_type_error(message: impl Into<String>) -> PyErr {
    let m = message.into();
    Python::attach(|py| grundy_exception(py, "ArgumentTypeError", (&m,), PyTypeError::new_err, &m))
}

/// `grundy.NotFoundError(message)` (a KeyError and an IndexError): an index that is not there.
pub(crate) fn not_found_error(message: impl Into<String>) -> PyErr {
    let m = message.into();
    Python::attach(|py| grundy_exception(py, "NotFoundError", (&m,), PyIndexError::new_err, &m))
}

/// `grundy.ReentrancyError(message)` (a RuntimeError): a game called from its own callback.
pub(crate) fn reentrancy_error(message: impl Into<String>) -> PyErr {
    let m = message.into();
    Python::attach(|py| grundy_exception(py, "ReentrancyError", (&m,), PyRuntimeError::new_err, &m))
}

/// The one mapping of core errors to Python exceptions: `Parse` is `grundy.CodeError(message,
/// code, position)`, `SearchLimit` is `grundy.SearchLimitError(message, limit)`, `Cycle` is
/// `grundy.CycleError(vertex ids, message)`, `Invalid` is `grundy.ArgumentError` (a
/// ValueError), `Memory` is `grundy.MemoryLimitError(message, needed, available)` (a
/// MemoryError) and `Interrupted` is KeyboardInterrupt (a computation with an [`ErrSlot`]
/// re-raises the exception it parked instead: [`ErrSlot::raise`]).
impl From<Error> for PyErr {
    fn from(e: Error) -> PyErr {
        let msg = e.to_string();
        let v = PyValueError::new_err;
        match e {
            Error::Parse { code, position, .. } => Python::attach(|py| {
                grundy_exception(py, "CodeError", (&msg, code, position), v, &msg)
            }),
            Error::SearchLimit { limit, .. } => Python::attach(|py| {
                grundy_exception(py, "SearchLimitError", (&msg, limit), v, &msg)
            }),
            // `.cycle` holds vertex ids; `GameGraph` re-raises with its labels.
            Error::Cycle(ids) => {
                Python::attach(|py| grundy_exception(py, "CycleError", (ids, &msg), v, &msg))
            }
            Error::Invalid(_) => argument_error(msg),
            Error::Memory {
                requested,
                available,
            } => Python::attach(|py| {
                grundy_exception(
                    py,
                    "MemoryLimitError",
                    (&msg, requested, available),
                    PyMemoryError::new_err,
                    &msg,
                )
            }),
            Error::Interrupted => PyKeyboardInterrupt::new_err(msg),
        }
    }
}

/// Polls Python for signals (Ctrl-C) and reports progress to an optional callable
/// `progress(done, total)`, from inside a computation that runs without the GIL.
pub(crate) struct PyControl {
    pub(crate) slot: ErrSlot,
    pub(crate) progress: Option<Py<PyAny>>,
}

impl PyControl {
    /// Runs `f` without the GIL under a control that parks its exceptions in `slot` and reports
    /// to `progress`; a core error becomes the Python exception to raise ([`ErrSlot::raise`]).
    pub(crate) fn run<R: Send>(
        py: Python<'_>,
        slot: ErrSlot,
        progress: Option<Py<PyAny>>,
        f: impl FnOnce(&PyControl) -> crate::Result<R> + Send,
    ) -> PyResult<R> {
        let ctl = PyControl { slot, progress };
        py.detach(|| f(&ctl)).map_err(|e| ctl.slot.raise(e))
    }
}

impl crate::control::Control for PyControl {
    fn check(&self, done: u64, total: u64) -> crate::Result<()> {
        Python::attach(|py| {
            let r = py.check_signals().and_then(|_| match &self.progress {
                Some(f) => f.call1(py, (done, total)).map(|_| ()),
                None => Ok(()),
            });
            r.map_err(|e| {
                self.slot.put(e);
                Error::Interrupted
            })
        })
    }
}

/// A control for work running on another thread: that thread cannot see Ctrl-C (Python runs
/// signal handlers on the main thread only), so the caller polls signals and raises `cancel`.
struct Cancellable<'a> {
    inner: &'a PyControl,
    cancel: AtomicBool,
}

impl crate::control::Control for Cancellable<'_> {
    fn check(&self, done: u64, total: u64) -> crate::Result<()> {
        if self.cancel.load(Ordering::Relaxed) {
            return Err(Error::Interrupted);
        }
        self.inner.check(done, total)
    }
}

/// Runs `f` (called without the GIL) on a pool of `threads` rayon threads, or, when `threads` is
/// None, of as many as rayon's global pool has (every core, or `RAYON_NUM_THREADS`). The work
/// always runs inside the pool, on a helper thread, while this one keeps polling for Ctrl-C
/// every 20 ms; the wait ends as soon as the work does (short calls, such as the steps of a
/// period search, must not pay a polling interval each). Run from outside a pool, every
/// `rayon::scope` of the engine's blocks would be injected into the pool and hand its block from
/// this thread to a worker and back (issue 33: `threads=None` took 1.28x the time of `threads=2`
/// on two cores for Grundy's game to 2^22).
pub(crate) fn on_threads<R: Send>(
    threads: Option<usize>,
    ctl: &PyControl,
    f: impl FnOnce(&dyn crate::control::Control) -> R + Send,
) -> crate::Result<R> {
    let pool = pool(threads.unwrap_or_else(rayon::current_num_threads))?;
    let c = Cancellable {
        inner: ctl,
        cancel: AtomicBool::new(false),
    };
    std::thread::scope(|scope| {
        let (done, finished) = mpsc::channel::<()>();
        let c = &c;
        let worker = scope.spawn(move || {
            let r = pool.install(|| f(c));
            let _ = done.send(());
            r
        });
        while let Err(RecvTimeoutError::Timeout) = finished.recv_timeout(Duration::from_millis(20))
        {
            if let Err(e) = Python::attach(|py| py.check_signals()) {
                ctl.slot.put(e);
                c.cancel.store(true, Ordering::Relaxed);
            }
        }
        Ok(worker
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p)))
    })
}

/// A rayon pool of `k` threads (at most one per processor: [`crate::control::pool_threads`]),
/// built once per size and kept: starting threads for every call
/// would cost more than the short calls of a period search. The four last sizes are kept.
fn pool(k: usize) -> crate::Result<Arc<rayon::ThreadPool>> {
    static POOLS: Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>> = Mutex::new(Vec::new());
    let k = crate::control::pool_threads(k)?;
    let mut pools = POOLS.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((_, p)) = pools.iter().find(|(n, _)| *n == k) {
        return Ok(p.clone());
    }
    let p = rayon::ThreadPoolBuilder::new()
        .num_threads(k)
        .build()
        .map_err(|e| Error::Invalid(format!("cannot start {k} threads: {e}")))?;
    let p = Arc::new(p);
    if pools.len() >= 4 {
        pools.remove(0); // its threads end once no call uses it
    }
    pools.push((k, p.clone()));
    Ok(p)
}

/// Parses a take-and-break code; returns its canonical form and what the Python layer shows.
#[pyfunction]
fn parse_code<'py>(py: Python<'py>, code: &str) -> PyResult<Bound<'py, PyDict>> {
    code_info(py, &crate::rules::TakeAndBreak::parse(code)?)
}

/// What the Python layer shows of a parsed take-and-break code.
pub(crate) fn code_info<'py>(
    py: Python<'py>,
    rule: &crate::rules::TakeAndBreak,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("canonical", rule.to_string())?;
    d.set_item("octal", rule.is_octal())?;
    d.set_item("max_heaps", rule.max_heaps())?;
    d.set_item("infinite", rule.is_infinite())?;
    d.set_item("last_nonzero", rule.last_nonzero())?;
    d.set_item("unequal", rule.uses(2, true) || rule.uses(3, true))?;
    Ok(d)
}

/// The most threads any computation uses: the processors this process may use (every
/// `threads=` argument is capped at this, see [`crate::control::pool_threads`]).
#[pyfunction]
fn max_threads() -> PyResult<usize> {
    Ok(crate::control::pool_threads(usize::MAX)?)
}

/// Refuses a request of `bytes` bytes that would not fit in the available memory
/// (`grundy.MemoryLimitError` with the estimate): the one memory check, for the Python layer's
/// own tables too.
#[pyfunction]
fn check_memory(bytes: u64) -> PyResult<()> {
    Ok(crate::memory::check(bytes)?)
}

/// XOR of a contiguous uint64 array.
#[pyfunction]
fn nim_sum(py: Python<'_>, heaps: PyReadonlyArray1<'_, u64>) -> PyResult<u64> {
    let s = heaps.as_slice()?;
    Ok(py.detach(|| crate::nim::nim_sum(s)))
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<heap::HeapCore>()?;
    m.add_class::<graph::Graph>()?;
    // The former `_core.CycleError`, for code that still catches it by that name.
    m.add(
        "CycleError",
        m.py().import("grundy.exceptions")?.getattr("CycleError")?,
    )?;
    m.add_function(wrap_pyfunction!(parse_code, m)?)?;
    m.add_function(wrap_pyfunction!(nim_sum, m)?)?;
    m.add_function(wrap_pyfunction!(max_threads, m)?)?;
    m.add_function(wrap_pyfunction!(check_memory, m)?)?;
    m.add_class::<options::OptionTable>()?;
    m.add_class::<options::OptionFamily>()?;
    m.add_function(wrap_pyfunction!(position::misere_search, m)?)?;
    m.add_function(wrap_pyfunction!(position::misere_outcomes, m)?)?;
    m.add(
        "MISERE_MAX_POSITIONS",
        crate::position::misere::MAX_POSITIONS,
    )?;
    m.add_class::<state::StateExplorer>()?;
    m.add_class::<state::StateSearch>()?;
    m.add_class::<two_heap::TwoHeap>()?;
    m.add_function(wrap_pyfunction!(two_heap::scan_period, m)?)?;
    m.add_function(wrap_pyfunction!(loopy::generalized_values, m)?)?;
    m.add_function(wrap_pyfunction!(loopy::generalized_values_csr, m)?)?;
    m.add_class::<misere::MisereQuotient>()?;
    m.add_class::<board::BoardGame>()?;
    m.add_class::<board::SearchWatch>()?;
    m.add_function(wrap_pyfunction!(board::checkpoint_header, m)?)?;
    m.add_function(wrap_pyfunction!(board::memory_available, m)?)?;
    Ok(())
}
