//! `_core.Graph`: an explicit game graph, built from numpy edge arrays and solved without the GIL.

use super::convert::Narrow;
use super::{argument_type_error, not_found_error, ErrSlot, PyControl};
use crate::graph::{Graph as CoreGraph, VertexId};
use numpy::{Element, PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use rayon::prelude::*;

#[pyclass(module = "grundy._core", frozen)]
pub struct Graph {
    inner: CoreGraph,
}

impl Graph {
    /// The core graph (for positions whose components are vertices).
    pub(super) fn core(&self) -> &CoreGraph {
        &self.inner
    }
}

/// The graph, when `src` and `dst` are both 1-d arrays of dtype `T` (`None` otherwise).
fn build<T: Element + VertexId>(
    py: Python<'_>,
    n: u64,
    src: &Bound<'_, PyAny>,
    dst: &Bound<'_, PyAny>,
) -> Option<PyResult<CoreGraph>> {
    let (s, d) = (
        src.cast::<PyArray1<T>>().ok()?,
        dst.cast::<PyArray1<T>>().ok()?,
    );
    let run = || {
        let (s, d) = (s.try_readonly()?, d.try_readonly()?);
        let (s, d) = (s.as_slice()?, d.as_slice()?);
        PyControl::run(py, ErrSlot::default(), None, |ctl| {
            CoreGraph::from_edges(n, s, d, ctl)
        })
    };
    Some(run())
}

#[pymethods]
impl Graph {
    /// A graph with vertices `0..num_vertices` and edges `src[i] -> dst[i]`: two contiguous 1-d
    /// numpy arrays of one dtype among int32, int64, uint32, uint64.
    #[staticmethod]
    fn from_arrays(
        py: Python<'_>,
        num_vertices: u64,
        src: &Bound<'_, PyAny>,
        dst: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let g = build::<i64>(py, num_vertices, src, dst)
            .or_else(|| build::<i32>(py, num_vertices, src, dst))
            .or_else(|| build::<u32>(py, num_vertices, src, dst))
            .or_else(|| build::<u64>(py, num_vertices, src, dst))
            .unwrap_or_else(|| {
                Err(argument_type_error(
                    "src and dst must be 1-d numpy arrays of the same dtype, one of int32, \
                     int64, uint32, uint64",
                ))
            })?;
        Ok(Graph { inner: g })
    }

    #[getter]
    fn num_vertices(&self) -> usize {
        self.inner.num_vertices()
    }

    #[getter]
    fn num_edges(&self) -> usize {
        self.inner.num_edges()
    }

    /// The options of vertex `v` as a uint32 array (with repetitions for repeated edges).
    fn options<'py>(&self, py: Python<'py>, v: usize) -> PyResult<Bound<'py, PyArray1<u32>>> {
        if v >= self.inner.num_vertices() {
            return Err(not_found_error(format!(
                "vertex {v} is not below num_vertices = {}",
                self.inner.num_vertices()
            )));
        }
        Ok(PyArray1::from_slice(py, self.inner.options(v)))
    }

    /// Copies of the CSR arrays `(offsets, targets)`: the options of `u` are
    /// `targets[offsets[u]:offsets[u + 1]]`.
    fn csr<'py>(&self, py: Python<'py>) -> (Bound<'py, PyArray1<u64>>, Bound<'py, PyArray1<u32>>) {
        let (o, t) = self.inner.csr();
        (PyArray1::from_slice(py, o), PyArray1::from_slice(py, t))
    }

    /// Grundy values of every vertex, in the smallest unsigned dtype that holds them. Runs
    /// without the GIL on `threads` threads (None: all, or RAYON_NUM_THREADS); Ctrl-C raises
    /// KeyboardInterrupt; a cycle raises CycleError.
    #[pyo3(signature = (threads=None))]
    fn values<'py>(&self, py: Python<'py>, threads: Option<usize>) -> PyResult<Bound<'py, PyAny>> {
        let out = PyControl::run(py, ErrSlot::default(), None, |ctl| {
            self.inner.grundy_values(ctl, threads).map(|v| {
                let max = v.par_iter().copied().max().unwrap_or(0);
                Narrow::new(max, v.into_iter())
            })
        })?;
        Ok(out.into_array(py))
    }
}
