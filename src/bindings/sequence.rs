//! `_core.Sequence`: a rule's cached Grundy values, extended on demand without the GIL.

use super::{
    argument_error, argument_type_error, not_found_error, on_threads, reentrancy_error, ErrSlot,
    PyControl,
};
use crate::engine::{
    AllowedFn, AnySequence, OptionList, OptionsFn, Sequence as CoreSequence, SubtractionExact,
    TakeAndBreakExact, TakeAndBreakSparse, Values,
};
use crate::error::Error;
use crate::rules::{Subtraction, TakeAndBreak};
use crate::{periodicity, sparse_space};
use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt};
use std::cell::RefCell;
use std::sync::Mutex;

#[pyclass(module = "grundy._core", frozen)]
pub struct Sequence {
    inner: Mutex<Box<dyn AnySequence>>,
    /// Exceptions raised by a user callable, kept for re-raising.
    slot: ErrSlot,
}

impl Sequence {
    fn wrap(seq: Box<dyn AnySequence>, slot: ErrSlot) -> Self {
        Sequence {
            inner: Mutex::new(seq),
            slot,
        }
    }

    /// Runs `f` on the core sequence without the GIL (waiting for the lock without it too, so a
    /// second Python thread never deadlocks with one that is computing). A call from inside this
    /// sequence's own rule callback is refused ([`not_reentrant`](Self::not_reentrant)).
    fn with<R: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut dyn AnySequence) -> R + Send,
    ) -> PyResult<R> {
        self.not_reentrant()?;
        Ok(py.detach(|| {
            let mut g = self.inner.lock().unwrap_or_else(|p| p.into_inner());
            f(g.as_mut())
        }))
    }

    /// `ReentrancyError` when this thread is running one of this sequence's rule callbacks:
    /// the sequence is locked by the computation that called it, so waiting for the lock would
    /// hang for ever (the callback runs on the thread that waits, or the computation waits for
    /// the callback's thread).
    fn not_reentrant(&self) -> PyResult<()> {
        if in_callback(self.slot.id()) {
            return Err(reentrancy_error(
                "the game's rule (its options or allowed function) asked the same game for values \
                 while the game was computing them; a rule must answer from the heap it is given \
                 alone (compute any values it needs beforehand, outside the rule)",
            ));
        }
        Ok(())
    }

    /// Runs `f` on the core sequence without the GIL under a control that re-raises what the
    /// rule's callbacks raised (they park it in this sequence's slot) and reports to `progress`.
    fn run<R: Send>(
        &self,
        py: Python<'_>,
        progress: Option<Py<PyAny>>,
        f: impl FnOnce(&mut dyn AnySequence, &PyControl) -> crate::Result<R> + Send,
    ) -> PyResult<R> {
        self.not_reentrant()?;
        PyControl::run(py, self.slot.clone(), progress, |ctl| {
            let mut g = self.inner.lock().unwrap_or_else(|p| p.into_inner());
            f(g.as_mut(), ctl)
        })
    }

    /// Runs `f` on the computed values in place, without the GIL (for the position search).
    pub(super) fn with_values<R: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&Values) -> R + Send,
    ) -> PyResult<R> {
        self.with(py, |s| f(s.values()))
    }
}

thread_local! {
    /// The games whose rule callback this thread is running: sequences by [`ErrSlot::id`],
    /// state explorers by the address of their Python object.
    static IN_CALLBACK: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
}

/// Marks this thread as running a rule callback of sequence `id` until dropped.
pub(super) struct InCallback(usize);

impl InCallback {
    pub(super) fn enter(id: usize) -> Self {
        IN_CALLBACK.with(|v| v.borrow_mut().push(id));
        InCallback(id)
    }
}

impl Drop for InCallback {
    fn drop(&mut self) {
        IN_CALLBACK.with(|v| {
            let mut v = v.borrow_mut();
            if let Some(i) = v.iter().rposition(|&x| x == self.0) {
                v.remove(i);
            }
        });
    }
}

pub(super) fn in_callback(id: usize) -> bool {
    IN_CALLBACK.with(|v| v.borrow().contains(&id))
}

/// Values in the smallest unsigned dtype that holds them.
pub(super) enum Narrow {
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
}

impl Narrow {
    /// `values`, whose largest is `max`, in the smallest type that holds `max`.
    pub(super) fn new(max: u32, values: impl Iterator<Item = u32>) -> Self {
        if max <= u8::MAX as u32 {
            Narrow::U8(values.map(|x| x as u8).collect())
        } else if max <= u16::MAX as u32 {
            Narrow::U16(values.map(|x| x as u16).collect())
        } else {
            Narrow::U32(values.collect())
        }
    }

    /// A new numpy array (the vector is moved, not copied).
    pub(super) fn into_array(self, py: Python<'_>) -> Bound<'_, PyAny> {
        match self {
            Narrow::U8(v) => PyArray1::from_vec(py, v).into_any(),
            Narrow::U16(v) => PyArray1::from_vec(py, v).into_any(),
            Narrow::U32(v) => PyArray1::from_vec(py, v).into_any(),
        }
    }
}

/// Values `start..stop`, narrowed (on the stored slice, so that the loops vectorise).
fn narrow(v: &Values, start: usize, stop: usize) -> Narrow {
    fn of<T: Copy + Into<u32> + Ord + Default>(v: &[T]) -> Narrow {
        let max = v.iter().copied().max().unwrap_or_default().into();
        Narrow::new(max, v.iter().map(|&x| x.into()))
    }
    match v {
        Values::U16(v) => of(&v[start..stop]),
        Values::U32(v) => of(&v[start..stop]),
    }
}

/// Reads what a Python rule returned as the options of heap `n` into `out`: an iterable of
/// iterables of non-negative ints. Anything else is a TypeError or ValueError naming the heap
/// and the option; a part that is too big for u64 is reported as the loop it is.
fn read_options(ret: &Bound<'_, PyAny>, n: u64, out: &mut OptionList) -> PyResult<()> {
    let items = ret.try_iter().map_err(|_| {
        argument_type_error(format!(
            "the options of heap {n} must be an iterable of tuples of heap sizes, not {}",
            type_name(ret)
        ))
    })?;
    for item in items {
        let item = item?;
        let parts = item.try_iter().map_err(|_| {
            argument_type_error(format!(
                "heap {n}: option {} must be a tuple of heap sizes, like ({},)",
                repr(&item),
                repr(&item)
            ))
        })?;
        for p in parts {
            let p = p?;
            let v = if p.is_instance_of::<PyBool>() {
                None
            } else {
                p.extract::<u64>().ok()
            };
            match v {
                Some(v) => out.push_part(v),
                None => return Err(bad_part(n, &item, &p)),
            }
        }
        out.end_option();
    }
    Ok(())
}

fn bad_part(n: u64, item: &Bound<'_, PyAny>, p: &Bound<'_, PyAny>) -> PyErr {
    let (item, part) = (repr(item), repr(p));
    if !p.is_instance_of::<PyInt>() || p.is_instance_of::<PyBool>() {
        return argument_type_error(format!(
            "heap {n}: option {item}: a heap size must be an integer, not {} ({part})",
            type_name(p)
        ));
    }
    if p.lt(0).unwrap_or(false) {
        argument_error(format!(
            "heap {n}: option {item} has a negative part {part}"
        ))
    } else {
        argument_error(format!(
            "heap {n}: option {item} has a part {part} that is not smaller than {n}; \
             every move must leave smaller heaps (else the rule loops)"
        ))
    }
}

fn repr(x: &Bound<'_, PyAny>) -> String {
    x.repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "?".into())
}

fn type_name(x: &Bound<'_, PyAny>) -> String {
    x.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

#[pymethods]
impl Sequence {
    /// A take-and-break game from its code.
    #[staticmethod]
    #[pyo3(signature = (code, engine="auto"))]
    fn take_and_break(code: &str, engine: &str) -> PyResult<Self> {
        let rule = TakeAndBreak::parse(code)?;
        // "auto": the sparse-space engine wherever it applies (finite codes, at most two heaps).
        let seq: Box<dyn AnySequence> = match engine {
            "exact" => Box::new(CoreSequence::new(TakeAndBreakExact::new(rule))),
            "sparse" => Box::new(CoreSequence::new(TakeAndBreakSparse::new(rule)?)),
            "auto" if TakeAndBreakSparse::supports(&rule) => {
                Box::new(CoreSequence::new(TakeAndBreakSparse::new(rule)?))
            }
            "auto" => Box::new(CoreSequence::new(TakeAndBreakExact::new(rule))),
            other => {
                return Err(argument_error(format!(
                    "engine must be 'auto', 'exact' or 'sparse', not {other:?}"
                )))
            }
        };
        Ok(Self::wrap(seq, ErrSlot::default()))
    }

    /// A built-in subtraction rule: kind is finite, all_but, squares, at_most_half or
    /// proper_divisors; `members` for the first two.
    #[staticmethod]
    #[pyo3(signature = (kind, members=None))]
    fn subtraction(kind: &str, members: Option<Vec<u64>>) -> PyResult<Self> {
        let rule = Subtraction::from_kind(kind, members.unwrap_or_default())?;
        Ok(Self::wrap(
            Box::new(CoreSequence::new(SubtractionExact::new(rule))),
            ErrSlot::default(),
        ))
    }

    /// "From a heap of n you may remove k" as a Python callable `allowed(n, k)`.
    #[staticmethod]
    fn allowed(allowed: Py<PyAny>) -> Self {
        let slot = ErrSlot::default();
        let s2 = slot.clone();
        let id = slot.id();
        let f = move |n: u64, k: u64| {
            let _in = InCallback::enter(id);
            Python::attach(|py| {
                allowed
                    .call1(py, (n, k))
                    .and_then(|r| r.bind(py).is_truthy())
                    .map_err(|e| {
                        s2.put(e);
                        Error::Interrupted
                    })
            })
        };
        Self::wrap(Box::new(CoreSequence::new(AllowedFn::new(f))), slot)
    }

    /// A heap rule as a Python callable `options(n)` returning the options of a heap of n, each
    /// a tuple of heap sizes; Rust does the XOR of the parts' values and the mex.
    #[staticmethod]
    fn options(options: Py<PyAny>) -> Self {
        let slot = ErrSlot::default();
        let s2 = slot.clone();
        let id = slot.id();
        let f = move |n: u64, out: &mut OptionList| {
            let _in = InCallback::enter(id);
            Python::attach(|py| {
                options
                    .call1(py, (n,))
                    .and_then(|r| read_options(r.bind(py), n, out))
                    .map_err(|e| {
                        s2.put(e);
                        Error::Interrupted
                    })
            })
        };
        Self::wrap(Box::new(CoreSequence::new(OptionsFn::new(f))), slot)
    }

    /// Computes G(0..n) if not yet known. `progress(done, total)` is called about every 50 ms.
    /// With `from_period`, a period is looked for on the way (for rules with a theorem) and,
    /// once proven, the rest is filled from it; values beyond a period proven earlier (by
    /// `period`) are filled from it either way.
    #[pyo3(signature = (n, progress=None, threads=None, from_period=false))]
    fn extend(
        &self,
        py: Python<'_>,
        n: u64,
        progress: Option<Py<PyAny>>,
        threads: Option<usize>,
        from_period: bool,
    ) -> PyResult<()> {
        self.run(py, progress, |s, ctl| {
            on_threads(threads, ctl, |c| {
                if from_period {
                    s.extend_proving(n, c)
                } else {
                    s.extend(n, c)
                }
            })
            .and_then(|r| r)
        })
    }

    /// Fills an empty sequence with known values G(0..len(values)) (a uint32 array) without
    /// recomputing them all: the rule rebuilds its state and recomputes a few values (all of
    /// them for rules without a cheap rebuild) to check them. ValueError when a value disagrees
    /// with the rule or the sequence is not empty.
    #[pyo3(signature = (values, progress=None))]
    fn seed(
        &self,
        py: Python<'_>,
        values: PyReadonlyArray1<'_, u32>,
        progress: Option<Py<PyAny>>,
    ) -> PyResult<()> {
        let v = values.as_slice()?;
        self.run(py, progress, |s, ctl| s.seed(v, ctl))
    }

    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        self.with(py, |s| s.values().len())
    }

    /// G(start..stop) as a new numpy array of the smallest unsigned dtype that holds them.
    fn array<'py>(
        &self,
        py: Python<'py>,
        start: usize,
        stop: usize,
    ) -> PyResult<Bound<'py, PyAny>> {
        let out = self.with(py, |s| {
            let v = s.values();
            (start <= stop && stop <= v.len()).then(|| narrow(v, start, stop))
        })?;
        let out =
            out.ok_or_else(|| not_found_error(format!("values {start}..{stop} are not computed")))?;
        Ok(out.into_array(py))
    }

    /// G(i) for a computed heap size i.
    fn get(&self, py: Python<'_>, i: usize) -> PyResult<u32> {
        self.with(py, |s| (i < s.values().len()).then(|| s.values().get(i)))?
            .ok_or_else(|| argument_error(format!("G({i}) is not computed yet")))
    }

    /// What G(0..n) shows of a period: `(found, aim)`. `found` is the earliest credible
    /// (arithmetic-)periodic tail, or None: a dict with preperiod, period, saltus, proven,
    /// certificate, checked_to (the values examined) and needed (the values its proof needs, or
    /// None). `aim` is the number of values that would prove the longest tail seen repeating,
    /// or None: a hint for how far a search should compute next. A proven period is kept: values
    /// beyond it are filled from it from then on.
    fn period<'py>(
        &self,
        py: Python<'py>,
        n: usize,
    ) -> PyResult<(Option<Bound<'py, PyDict>>, Option<u64>)> {
        let (found, aim) = self.with(py, |s| {
            let th = s.theorem();
            let n = n.min(s.values().len());
            let d = s.scan_period(n);
            let found = d.found.map(|p| {
                (
                    p,
                    th.certificate(&p, n as u64),
                    th.needed(p.preperiod, p.period, p.saltus),
                    n,
                )
            });
            (found, d.candidate.map(|(_, need)| need))
        })?;
        let Some((p, cert, needed, n)) = found else {
            return Ok((None, aim));
        };
        let d = PyDict::new(py);
        d.set_item("preperiod", p.preperiod)?;
        d.set_item("period", p.period)?;
        d.set_item("saltus", p.saltus)?;
        d.set_item("proven", p.proven)?;
        d.set_item("certificate", cert)?;
        d.set_item("checked_to", n)?;
        d.set_item("needed", needed)?;
        Ok((Some(d), aim))
    }

    /// Why no period can be proven for this rule, or None when a theorem applies.
    fn unproven_reason(&self, py: Python<'_>) -> PyResult<Option<String>> {
        Ok(match self.with(py, |s| s.theorem())? {
            periodicity::Theorem::Unproven(why) => Some(why),
            _ => None,
        })
    }

    /// Sparse space of G(0..n): the best mask, the parity flag and the rare positions.
    fn sparse_space<'py>(&self, py: Python<'py>, n: usize) -> PyResult<Bound<'py, PyDict>> {
        let (a, n) = self.with(py, |s| {
            let v = s.values();
            let n = n.min(v.len());
            sparse_space::analyse(v, n).map(|a| (a, n))
        })??;
        let d = PyDict::new(py);
        d.set_item("mask", a.shown_mask())?;
        d.set_item("parity", a.mask.parity)?;
        d.set_item("n", n)?;
        d.set_item("rare_positions", PyArray1::from_vec(py, a.rare_positions))?;
        Ok(d)
    }
}
