//! Loopy games: generalized Sprague-Grundy values of a `_core.Graph`, computed without the GIL.

use super::graph::Graph;
use super::{ErrSlot, PyControl};
use crate::graph::loopy;
use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::prelude::*;

/// Values (uint32, 2**32 - 1 for infinite) and outcomes (uint8: 0 = P, 1 = N, 2 = D).
type Solved<'py> = (Bound<'py, PyArray1<u32>>, Bound<'py, PyArray1<u8>>);

/// Values and outcomes of the CSR graph `(off, tgt)`, without the GIL, as numpy arrays.
fn solve<'py>(
    py: Python<'py>,
    off: &[u64],
    tgt: &[u32],
    threads: Option<usize>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Solved<'py>> {
    let (values, outcomes) = detached(py, progress, |ctl| {
        let v = loopy::generalized_values_csr(off, tgt, ctl, threads)?;
        let o = loopy::outcomes(off, tgt, &v, threads)?;
        Ok((v, o.into_iter().map(|x| x as u8).collect::<Vec<u8>>()))
    })?;
    Ok((
        PyArray1::from_vec(py, values),
        PyArray1::from_vec(py, outcomes),
    ))
}

/// Runs `f` without the GIL with a control that polls Ctrl-C and calls `progress(done, total)`.
fn detached<R: Send>(
    py: Python<'_>,
    progress: Option<Py<PyAny>>,
    f: impl FnOnce(&PyControl) -> crate::Result<R> + Send,
) -> PyResult<R> {
    let ctl = PyControl {
        slot: ErrSlot::default(),
        progress,
    };
    py.detach(|| f(&ctl)).map_err(|e| ctl.slot.raise(e))
}

/// `(values, outcomes)` of every vertex of `graph`: values as uint32 with 2**32 - 1 for an
/// infinite value, outcomes as uint8 (0 = P, 1 = N, 2 = D). Runs without the GIL on `threads`
/// threads (None: all cores or RAYON_NUM_THREADS); `progress(done, total)` is called about every
/// 50 ms; Ctrl-C raises KeyboardInterrupt.
#[pyfunction]
#[pyo3(signature = (graph, threads=None, progress=None))]
pub(super) fn generalized_values<'py>(
    py: Python<'py>,
    graph: &Graph,
    threads: Option<usize>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Solved<'py>> {
    let (off, tgt) = graph.core().csr();
    solve(py, off, tgt, threads, progress)
}

/// The same from CSR arrays (`offsets`: uint64, V + 1 entries; `targets`: uint32), for state
/// graphs explored elsewhere.
#[pyfunction]
#[pyo3(signature = (offsets, targets, threads=None, progress=None))]
pub(super) fn generalized_values_csr<'py>(
    py: Python<'py>,
    offsets: PyReadonlyArray1<'py, u64>,
    targets: PyReadonlyArray1<'py, u32>,
    threads: Option<usize>,
    progress: Option<Py<PyAny>>,
) -> PyResult<Solved<'py>> {
    solve(
        py,
        offsets.as_slice()?,
        targets.as_slice()?,
        threads,
        progress,
    )
}
