//! Misère quotients: built without the GIL (for a heap game, by its `HeapCore`), then queried
//! (outcomes of many sums in parallel).

use super::{argument_error, ErrSlot, PyControl};
use crate::error::Error;
use crate::misere_quotient::{relative_bounds, Limits, Quotient, Stopped};
use crate::position::MisereGame;
use numpy::{
    PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;

/// A misère quotient computed by the core, with the option lists it was built from.
#[pyclass(module = "grundy._core", frozen)]
pub struct MisereQuotient {
    q: Quotient,
    opts: Vec<Vec<Vec<u32>>>,
}

impl MisereQuotient {
    /// The largest heap size covered.
    pub(super) fn top(&self) -> usize {
        self.opts.len() - 1
    }

    fn check_heaps(&self, heaps: &[u64]) -> PyResult<()> {
        let max = self.opts.len() as u64 - 1;
        match heaps.iter().find(|&&h| h > max) {
            Some(h) => Err(argument_error(format!(
                "heap {h} is larger than max_heap = {max} of this quotient"
            ))),
            None => Ok(()),
        }
    }
}

#[pymethods]
impl MisereQuotient {
    /// The number of elements.
    #[getter]
    fn order(&self) -> usize {
        self.q.order()
    }

    /// The largest heap size covered.
    #[getter]
    fn max_heap(&self) -> usize {
        self.opts.len() - 1
    }

    /// The multiplication table (order × order, uint32; element 0 is the identity).
    fn table<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u32>>> {
        let m = self.q.order();
        PyArray1::from_slice(py, self.q.table()).reshape([m, m])
    }

    /// Which elements are in the P-portion (bool per element).
    fn p_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let v: Vec<bool> = (0..self.q.order() as u32).map(|x| self.q.in_p(x)).collect();
        PyArray1::from_vec(py, v)
    }

    /// The element of each heap size 0..=max_heap (uint32).
    fn pretending<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u32>> {
        PyArray1::from_slice(py, self.q.pretending())
    }

    /// `(heap, order)` at each heap size where the order changed.
    fn growth(&self) -> Vec<(u32, usize)> {
        self.q.growth().to_vec()
    }

    /// The normal-play value of each element, or None when the elements do not determine it.
    fn normal_values<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyArray1<u32>>> {
        let g = crate::misere_quotient::grundy_values(&self.opts);
        self.q.normal_values(&g).map(|v| PyArray1::from_vec(py, v))
    }

    /// The options of heap `n`, each as the (sorted) heaps it leaves.
    fn options(&self, n: usize) -> PyResult<Vec<Vec<u32>>> {
        self.opts
            .get(n)
            .cloned()
            .ok_or_else(|| argument_error(format!("heap {n} is past max_heap")))
    }

    /// What the construction did: a dict of counters.
    fn stats<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let s = self.q.stats();
        let d = PyDict::new(py);
        d.set_item("queries", s.queries)?;
        d.set_item("searched", s.searched)?;
        d.set_item("counterexamples", s.counterexamples)?;
        d.set_item("proof_states", s.proof_states)?;
        d.set_item("reused", s.reused)?;
        d.set_item("placed", s.placed)?;
        d.set_item("guessed", s.guessed)?;
        d.set_item("guesses_wrong", s.guesses_wrong)?;
        d.set_item("refinements", s.refinements)?;
        Ok(d)
    }

    /// The element of the sum of `heaps` (uint64 array).
    fn element(&self, heaps: PyReadonlyArray1<'_, u64>) -> PyResult<u32> {
        let h = heaps.as_slice()?;
        self.check_heaps(h)?;
        Ok(self.q.element(h))
    }

    /// Misère P (true) or N for each row of a 2-D uint64 array of heaps (0 pads), rows split
    /// between threads without the GIL.
    fn outcomes<'py>(
        &self,
        py: Python<'py>,
        rows: PyReadonlyArray2<'py, u64>,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let width = rows.shape()[1];
        let flat = rows.as_slice()?;
        self.check_heaps(flat)?;
        let q = &self.q;
        let out: Vec<bool> = py.detach(|| {
            if width == 0 {
                return vec![q.in_p(0); flat.len()];
            }
            flat.par_chunks(width)
                .map(|r| {
                    let x = r
                        .iter()
                        .fold(0, |x, &n| q.mul(x, q.pretending()[n as usize]));
                    q.in_p(x)
                })
                .collect()
        });
        Ok(PyArray1::from_vec(py, out))
    }

    /// The winning moves of the sum with `counts[i] = (size, count)` (distinct sizes): pairs
    /// `(size, heaps left)` whose move gives a misère P-position.
    fn winning_moves(&self, counts: Vec<(u64, u64)>) -> PyResult<Vec<(u64, Vec<u32>)>> {
        let sizes: Vec<u64> = counts.iter().map(|c| c.0).collect();
        self.check_heaps(&sizes)?;
        let c: Vec<(u32, u64)> = counts.iter().map(|&(h, k)| (h as u32, k)).collect();
        Ok(self
            .q
            .winning_moves(&c, &self.opts)
            .into_iter()
            .map(|(i, j)| (counts[i].0, self.opts[counts[i].0 as usize][j].clone()))
            .collect())
    }
}

/// The misère quotient of all sums of heaps of `g` up to `max_heap`, built without the GIL;
/// `progress(heap, total)` is called as heaps are added and Ctrl-C raises KeyboardInterrupt
/// (as does what a rule's callbacks raised: they park it in `slot`). `max_order` bounds the
/// quotients the build makes (`SearchLimitError` past it). However the build stops, the
/// exception raised carries the quotient proven for the heaps before the one it stopped at as
/// `.quotient` (when there is one).
pub(super) fn build_quotient(
    py: Python<'_>,
    g: MisereGame<'_>,
    slot: ErrSlot,
    max_heap: u64,
    progress: Option<Py<PyAny>>,
    max_order: Option<usize>,
) -> PyResult<MisereQuotient> {
    let limits = Limits {
        max_order: max_order.unwrap_or(usize::MAX),
    };
    let ctl = PyControl { slot, progress };
    type Kept = (Quotient, Vec<Vec<Vec<u32>>>);
    let built = py.detach(|| -> Result<Kept, Box<(Error, Option<Kept>)>> {
        let opts = g
            .option_lists(max_heap, &ctl)
            .map_err(|e| Box::new((e, None)))?;
        match Quotient::compute_with(&opts, &ctl, &limits) {
            Ok(q) => Ok((q, opts)),
            Err(stopped) => {
                let Stopped { error, proven } = *stopped;
                let kept = proven.map(|q| {
                    let n = q.pretending().len();
                    (q, opts[..n].to_vec())
                });
                Err(Box::new((error, kept)))
            }
        }
    });
    match built {
        Ok((q, opts)) => Ok(MisereQuotient { q, opts }),
        Err(stopped) => {
            let (error, kept) = *stopped;
            let err = ctl.slot.raise(error);
            if let Some((q, opts)) = kept {
                err.value(py)
                    .setattr("quotient", Py::new(py, MisereQuotient { q, opts })?)?;
            }
            Err(err)
        }
    }
}

/// Proven lower bounds on the order of the misère quotient of `g` at heap `heap`, from the sums
/// with at most `copies` copies of it, built without the GIL: `(below, classes per copy count,
/// refutations, proof states)`.
pub(super) fn quotient_bounds(
    py: Python<'_>,
    g: MisereGame<'_>,
    slot: ErrSlot,
    heap: u64,
    copies: u32,
) -> PyResult<(usize, Vec<usize>, u32, usize)> {
    let b = PyControl::run(py, slot, None, |ctl| {
        let opts = g.option_lists(heap, ctl)?;
        relative_bounds(&opts, copies, ctl)
    })?;
    Ok((b.below, b.classes, b.refutations, b.proof_states))
}
