//! The PyO3 layer: converts arguments, releases the GIL around the core, polls for Ctrl-C and maps
//! core errors to Python exceptions. No algorithm lives here.

mod graph;
mod position;
mod sequence;

use crate::error::Error;
use numpy::PyReadonlyArray1;
use pyo3::exceptions::{PyKeyboardInterrupt, PyMemoryError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::{Arc, Mutex};

/// Where a callback or signal check parks the Python exception while the core unwinds.
#[derive(Clone, Default)]
pub(crate) struct ErrSlot(Arc<Mutex<Option<PyErr>>>);

impl ErrSlot {
    pub(crate) fn put(&self, e: PyErr) {
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
    }
    pub(crate) fn take(&self) -> Option<PyErr> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}

/// Maps a core error to the Python exception a user should see.
pub(crate) fn to_py(e: Error, slot: &ErrSlot) -> PyErr {
    match e {
        Error::Parse { .. } | Error::Invalid(_) => PyValueError::new_err(e.to_string()),
        Error::Memory { .. } => PyMemoryError::new_err(e.to_string()),
        Error::Interrupted => slot
            .take()
            .unwrap_or_else(|| PyKeyboardInterrupt::new_err("interrupted")),
        Error::Callback => slot
            .take()
            .unwrap_or_else(|| PyRuntimeError::new_err(e.to_string())),
        Error::Overflow => PyRuntimeError::new_err(e.to_string()),
        Error::Cycle(_) => graph::cycle_error(e),
    }
}

/// Polls Python for signals (Ctrl-C) and reports progress to an optional callable
/// `progress(done, total)`, from inside a computation that runs without the GIL.
pub(crate) struct PyControl {
    pub(crate) slot: ErrSlot,
    pub(crate) progress: Option<Py<PyAny>>,
}

impl crate::engine::Control for PyControl {
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

/// Parses a take-and-break code; returns its canonical form and what the Python layer shows.
#[pyfunction]
fn parse_code<'py>(py: Python<'py>, code: &str) -> PyResult<Bound<'py, PyDict>> {
    let rule =
        crate::rules::TakeAndBreak::parse(code).map_err(|e| to_py(e, &ErrSlot::default()))?;
    let d = PyDict::new(py);
    d.set_item("canonical", rule.to_string())?;
    d.set_item("octal", rule.is_octal())?;
    d.set_item("max_heaps", rule.max_heaps())?;
    d.set_item("infinite", rule.is_infinite())?;
    d.set_item("last_nonzero", rule.last_nonzero())?;
    d.set_item("unequal", rule.uses(2, true) || rule.uses(3, true))?;
    Ok(d)
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
    m.add_class::<sequence::Sequence>()?;
    m.add_class::<graph::Graph>()?;
    m.add("CycleError", m.py().get_type::<graph::CycleError>())?;
    m.add_function(wrap_pyfunction!(parse_code, m)?)?;
    m.add_function(wrap_pyfunction!(nim_sum, m)?)?;
    m.add_class::<position::HeapRule>()?;
    m.add_class::<position::OptionTable>()?;
    m.add_function(wrap_pyfunction!(position::heap_values, m)?)?;
    m.add_function(wrap_pyfunction!(position::outcomes, m)?)?;
    m.add_function(wrap_pyfunction!(position::misere_search, m)?)?;
    m.add_function(wrap_pyfunction!(position::misere_outcomes, m)?)?;
    Ok(())
}
