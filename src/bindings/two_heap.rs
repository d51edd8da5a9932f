//! `_core.TwoHeap`: two-heap subtraction games, whose grids are computed without the GIL; and
//! `scan_period`, the period detection of `periodicity.rs` over a given array of values.

use super::{on_threads, ErrSlot, PyControl};
use crate::periodicity::{scan, Theorem};
use crate::two_heap::TwoHeap as Core;
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;

#[pyclass(module = "grundy._core", frozen)]
pub struct TwoHeap {
    inner: Core,
}

#[pymethods]
impl TwoHeap {
    #[new]
    #[pyo3(signature = (moves, unbounded=false))]
    fn new(moves: Vec<(u64, u64)>, unbounded: bool) -> PyResult<Self> {
        let inner = Core::new(&moves, unbounded).map_err(PyErr::from)?;
        Ok(TwoHeap { inner })
    }

    /// The move vectors, sorted and without duplicates.
    #[getter]
    fn moves(&self) -> Vec<(u32, u32)> {
        self.inner.moves().to_vec()
    }

    #[getter]
    fn unbounded(&self) -> bool {
        self.inner.unbounded()
    }

    /// The options of (a, b), each once.
    fn options(&self, a: u64, b: u64) -> Vec<(u64, u64)> {
        self.inner.options(a, b)
    }

    /// G(a, b) for a < rows, b < cols as a (rows, cols) uint32 array, computed without the GIL
    /// on `threads` threads (None: all); `progress(done, total)` is called about every 50 ms.
    #[pyo3(signature = (rows, cols, progress=None, threads=None))]
    fn grid<'py>(
        &self,
        py: Python<'py>,
        rows: usize,
        cols: usize,
        progress: Option<Py<PyAny>>,
        threads: Option<usize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        grid_array(py, rows, cols, progress, threads, |c| {
            self.inner.grid(rows, cols, c)
        })
    }

    /// The misère outcomes of (a, b) for a < rows, b < cols as a (rows, cols) bool array (True:
    /// a P-position), computed without the GIL on `threads` threads (None: all).
    #[pyo3(signature = (rows, cols, progress=None, threads=None))]
    fn misere_grid<'py>(
        &self,
        py: Python<'py>,
        rows: usize,
        cols: usize,
        progress: Option<Py<PyAny>>,
        threads: Option<usize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        grid_array(py, rows, cols, progress, threads, |c| {
            self.inner.misere_grid(rows, cols, c)
        })
    }
}

/// A grid computed by `f` without the GIL on `threads` threads, as a (rows, cols) array.
fn grid_array<'py, T: numpy::Element + Send>(
    py: Python<'py>,
    rows: usize,
    cols: usize,
    progress: Option<Py<PyAny>>,
    threads: Option<usize>,
    f: impl FnOnce(&dyn crate::control::Control) -> crate::Result<Vec<T>> + Send,
) -> PyResult<Bound<'py, PyAny>> {
    let ctl = PyControl {
        slot: ErrSlot::default(),
        progress,
    };
    let v = py
        .detach(|| on_threads(threads, &ctl, f).and_then(|r| r))
        .map_err(|e| ctl.slot.raise(e))?;
    Ok(PyArray1::from_vec(py, v).reshape([rows, cols])?.into_any())
}

/// What `values` (uint32, G(0..n) of some sequence) shows of an (arithmetic) period: a dict with
/// preperiod, period, saltus, proven (always False: no theorem is known to the caller),
/// certificate, checked_to; or None. `reason` says why nothing is proven, for the certificate.
#[pyfunction]
pub(super) fn scan_period<'py>(
    py: Python<'py>,
    values: PyReadonlyArray1<'py, u32>,
    reason: &str,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    let v = values.as_slice()?;
    let th = Theorem::Unproven(reason.to_string());
    let Some(p) = py.detach(|| scan(v, &th).found) else {
        return Ok(None);
    };
    let d = PyDict::new(py);
    d.set_item("preperiod", p.preperiod)?;
    d.set_item("period", p.period)?;
    d.set_item("saltus", p.saltus)?;
    d.set_item("proven", p.proven)?;
    d.set_item("certificate", th.certificate(&p, v.len() as u64))?;
    d.set_item("checked_to", v.len())?;
    Ok(Some(d))
}
