//! `_core.HeapCore`: one heap game in the core: its rule, its cached Grundy values (extended on
//! demand without the GIL), its period, its move searches and its misère quotients.

use super::convert::{in_callback, repr, type_name, InCallback, Narrow};
use super::misere::{build_quotient, quotient_bounds, MisereQuotient};
use super::options::{OptionFamily, OptionTable};
use super::{
    argument_error, argument_type_error, not_found_error, on_threads, reentrancy_error, ErrSlot,
    PyControl,
};
use crate::engine::sparse::space as sparse_space;
use crate::engine::{AnySequence, Solver, Values};
use crate::error::Error;
use crate::periodicity;
use crate::periodicity::Period;
use crate::position::{
    self, Cursor, HeapValues, MisereGame, OptionTable as CoreTable, Query, Tail,
};
use crate::rules::{AllowedSource, OptionList, OptionSource, Rule, Subtraction};
use numpy::{PyArray1, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyInt};
use std::sync::{Arc, Mutex};

/// The core of one heap game: its rule (parsed once), its values, its period search and proven
/// period, and its misère quotients. Everything the Python `Game` asks of its rule goes through
/// here; each call releases the GIL around the core.
#[pyclass(module = "grundy._core", frozen)]
pub struct HeapCore {
    inner: Mutex<Box<dyn AnySequence>>,
    rule: Rule,
    /// Exceptions raised by a user callable, kept for re-raising.
    slot: ErrSlot,
    /// The quotient of the largest heaps built so far.
    quotient: Mutex<Option<Py<MisereQuotient>>>,
    /// The heap from which an automatic quotient build ran out of its budget.
    quotient_out_of_reach: Mutex<Option<u64>>,
}

/// A period found, as the Python layer reads it.
fn period_dict<'py>(
    py: Python<'py>,
    p: &Period,
    certificate: String,
    checked_to: u64,
    needed: Option<u64>,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("preperiod", p.preperiod)?;
    d.set_item("period", p.period)?;
    d.set_item("saltus", p.saltus)?;
    d.set_item("proven", p.proven)?;
    d.set_item("certificate", certificate)?;
    d.set_item("checked_to", checked_to)?;
    d.set_item("needed", needed)?;
    Ok(d)
}

impl HeapCore {
    /// Keeps `q` unless a quotient of larger heaps is kept already.
    fn keep_quotient(&self, py: Python<'_>, q: &Py<MisereQuotient>) {
        let mut kept = self.quotient.lock().unwrap_or_else(|p| p.into_inner());
        if kept.as_ref().is_none_or(|k| k.get().top() < q.get().top()) {
            *kept = Some(q.clone_ref(py));
        }
    }

    /// The rule (for the misère search of sums with other games).
    pub(super) fn rule(&self) -> &Rule {
        &self.rule
    }

    fn new(rule: Rule, solver: Solver, slot: ErrSlot) -> PyResult<Self> {
        let seq = crate::engine::sequence(&rule, solver)?;
        Ok(HeapCore {
            inner: Mutex::new(seq),
            rule,
            slot,
            quotient: Mutex::new(None),
            quotient_out_of_reach: Mutex::new(None),
        })
    }

    /// What is known beyond the computed values: G(h) = h for Nim, else the proven period.
    fn tail(&self, s: &dyn AnySequence) -> Tail {
        if self.rule.is_nim() {
            return Tail::Identity;
        }
        s.proven()
            .and_then(|p| HeapValues::tail_from(p.preperiod, p.period, p.saltus).ok())
            .unwrap_or(Tail::None)
    }

    /// Runs `f` on the values and the tail without the GIL, under a control that re-raises
    /// what the rule's callbacks raised (for the position searches).
    fn with_heap_values<R: Send>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&HeapValues) -> crate::Result<R> + Send,
    ) -> PyResult<R> {
        self.run(py, None, |s, _| {
            let tail = self.tail(s);
            f(&HeapValues::new(s.values(), tail)?)
        })
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

/// A Python callable `allowed(n, k)` as the core's [`AllowedSource`].
struct PyAllowed {
    f: Py<PyAny>,
    slot: ErrSlot,
}

impl AllowedSource for PyAllowed {
    fn allowed(&self, n: u64, k: u64) -> crate::Result<bool> {
        let _in = InCallback::enter(self.slot.id());
        Python::attach(|py| {
            self.f
                .call1(py, (n, k))
                .and_then(|r| r.bind(py).is_truthy())
                .map_err(|e| {
                    self.slot.put(e);
                    Error::Interrupted
                })
        })
    }
}

/// A Python callable `options(n)` as the core's [`OptionSource`].
struct PyOptions {
    f: Py<PyAny>,
    slot: ErrSlot,
}

impl OptionSource for PyOptions {
    fn options(&self, n: u64, out: &mut OptionList) -> crate::Result<()> {
        let _in = InCallback::enter(self.slot.id());
        Python::attach(|py| {
            self.f
                .call1(py, (n,))
                .and_then(|r| read_options(r.bind(py), n, out))
                .map_err(|e| {
                    self.slot.put(e);
                    Error::Interrupted
                })
        })
    }
}

#[pymethods]
impl HeapCore {
    /// A take-and-break game from its code (parsed here, the one time).
    #[staticmethod]
    #[pyo3(signature = (code, engine="auto"))]
    fn take_and_break(code: &str, engine: &str) -> PyResult<Self> {
        let rule = Rule::take_and_break(code)?;
        let solver = match engine {
            "auto" => Solver::Auto,
            "exact" => Solver::Exact,
            "sparse" => Solver::Sparse,
            other => {
                return Err(argument_error(format!(
                    "engine must be 'auto', 'exact' or 'sparse', not {other:?}"
                )))
            }
        };
        Self::new(rule, solver, ErrSlot::default())
    }

    /// A built-in subtraction rule: kind is finite, all_but, squares, at_most_half or
    /// proper_divisors; `members` for the first two.
    #[staticmethod]
    #[pyo3(signature = (kind, members=None))]
    fn subtraction(kind: &str, members: Option<Vec<u64>>) -> PyResult<Self> {
        let rule = Subtraction::from_kind(kind, members.unwrap_or_default())?;
        Self::new(Rule::Subtraction(rule), Solver::Auto, ErrSlot::default())
    }

    /// "From a heap of n you may remove k" as a Python callable `allowed(n, k)`.
    #[staticmethod]
    fn allowed(allowed: Py<PyAny>) -> PyResult<Self> {
        let slot = ErrSlot::default();
        let src = PyAllowed {
            f: allowed,
            slot: slot.clone(),
        };
        Self::new(Rule::Allowed(Arc::new(src)), Solver::Auto, slot)
    }

    /// A heap rule as a Python callable `options(n)` returning the options of a heap of n, each
    /// a tuple of heap sizes; Rust does the XOR of the parts' values and the mex.
    #[staticmethod]
    fn options(options: Py<PyAny>) -> PyResult<Self> {
        let slot = ErrSlot::default();
        let src = PyOptions {
            f: options,
            slot: slot.clone(),
        };
        Self::new(Rule::Options(Arc::new(src)), Solver::Auto, slot)
    }

    /// What the Python layer shows of a take-and-break code (None for other rules): its
    /// canonical form, octal, max_heaps, infinite, last_nonzero and unequal.
    fn code_info<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Rule::TakeAndBreak(rule) = &self.rule else {
            return Ok(None);
        };
        Ok(Some(super::code_info(py, rule)?))
    }

    /// Whether the rule is answered by Python callables (`allowed` and `options`).
    #[getter]
    fn is_callback(&self) -> bool {
        matches!(self.rule, Rule::Allowed(_) | Rule::Options(_))
    }

    /// The game the misère search takes for heaps up to `top`: this core itself for a built-in
    /// rule; for a rule answered by Python callables, the table of its options for heaps
    /// `0..=top`, each heap asked once (SearchLimitError when `top` is more than
    /// `max_positions`: the table alone would pass the limit).
    fn misere_game(slf: &Bound<'_, Self>, top: u64, max_positions: u64) -> PyResult<Py<PyAny>> {
        let me = slf.get();
        if !me.is_callback() {
            return Ok(slf.clone().into_any().unbind());
        }
        if top > max_positions {
            return Err(Error::SearchLimit {
                message: format!(
                    "the misère search tabulates the options of every heap up to {top} of this rule, \
                     more than max_positions = {max_positions}; try smaller heaps"
                ),
                limit: max_positions,
            }
            .into());
        }
        me.not_reentrant()?;
        let py = slf.py();
        let lists = PyControl::run(py, me.slot.clone(), None, |ctl| {
            MisereGame::Rule(&me.rule).option_lists(top, ctl)
        })?;
        let (mut opt_start, mut part_start, mut parts) = (vec![0u64], vec![0u64], Vec::new());
        for opts in &lists {
            for o in opts {
                parts.extend(o.iter().map(|&p| p as u64));
                part_start.push(parts.len() as u64);
            }
            opt_start.push(part_start.len() as u64 - 1);
        }
        let table = CoreTable::new(opt_start, part_start, parts)?;
        Ok(Py::new(py, OptionTable::wrap(table))?.into_any())
    }

    /// Whether the rule is Nim itself (every smaller heap is an option, and nothing else).
    #[getter]
    fn is_nim(&self) -> bool {
        self.rule.is_nim()
    }

    /// `(t, k)` for a finite rule: the most tokens a move removes and the most heaps it leaves;
    /// None for rules that may remove any number.
    #[getter]
    fn proof_shape(&self) -> Option<(u64, u32)> {
        self.rule.proof_shape()
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
        Ok((Some(period_dict(py, &p, cert, n as u64, needed)?), aim))
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
    /// The period search of the core ([`crate::periodicity::next_scan`]) up to `max_n` values:
    /// `(found, examined)`, `found` as [`period`](Self::period) gives it, or None. Values are
    /// computed as needed (`progress(done, total)` about every 50 ms); a proven period is kept.
    #[pyo3(signature = (max_n, progress=None, threads=None))]
    fn search_period<'py>(
        &self,
        py: Python<'py>,
        max_n: u64,
        progress: Option<Py<PyAny>>,
        threads: Option<usize>,
    ) -> PyResult<(Option<Bound<'py, PyDict>>, u64)> {
        let (found, n) = self.run(py, progress, |s, ctl| {
            let found = on_threads(threads, ctl, |c| s.search_period(max_n, c)).and_then(|r| r)?;
            let th = s.theorem();
            let n = found.examined;
            Ok((
                found.detection.found.map(|p| {
                    (
                        p,
                        th.certificate(&p, n),
                        th.needed(p.preperiod, p.period, p.saltus),
                    )
                }),
                n,
            ))
        })?;
        let found = match found {
            Some((p, cert, needed)) => Some(period_dict(py, &p, cert, n, needed)?),
            None => None,
        };
        Ok((found, n))
    }

    /// The proven period `(preperiod, period, saltus)`, or None.
    #[getter]
    fn proven(&self, py: Python<'_>) -> PyResult<Option<(u64, u64, i64)>> {
        self.with(py, |s| {
            s.proven().map(|p| (p.preperiod, p.period, p.saltus))
        })
    }

    /// G(h) when the values computed or the proven period give it, else None.
    fn value(&self, py: Python<'_>, h: u64) -> PyResult<Option<u64>> {
        self.with(py, |s| {
            let tail = self.tail(s);
            HeapValues::new(s.values(), tail)
                .ok()
                .filter(|v| v.covers_below(h.saturating_add(1)))
                .map(|v| v.get(h))
        })
    }

    /// Whether leaving the heaps `parts` is a move from a heap of `n`.
    fn is_option(&self, py: Python<'_>, n: u64, parts: Vec<u64>) -> PyResult<bool> {
        self.not_reentrant()?;
        PyControl::run(py, self.slot.clone(), None, |_| {
            self.rule.is_option(n, &parts)
        })
    }

    /// The options of a heap of `n` (worth `target` when given) from `cursor = (k, j)` until
    /// `budget` candidates were examined: `(families, next cursor or None, work)`, each family
    /// an `OptionFamily` whose options the caller takes a slice at a time.
    #[pyo3(signature = (n, target, cursor, budget, first_only=false))]
    #[allow(clippy::type_complexity)]
    fn search(
        &self,
        py: Python<'_>,
        n: u64,
        target: Option<u64>,
        cursor: (u8, u64),
        budget: u64,
        first_only: bool,
    ) -> PyResult<(Vec<OptionFamily>, Option<(u8, u64)>, u64)> {
        let q = Query {
            target,
            from: Cursor {
                k: cursor.0,
                j: cursor.1,
            },
            budget,
            first_only,
            ..Query::new(n)
        };
        let found = self.with_heap_values(py, |vals| position::search(&self.rule, vals, &q))?;
        Ok((
            found.families.into_iter().map(OptionFamily::new).collect(),
            found.next.map(|c| (c.k, c.j)),
            found.work,
        ))
    }

    /// For each heap, whether it has an option worth the matching target (bool array).
    fn has_option<'py>(
        &self,
        py: Python<'py>,
        heaps: PyReadonlyArray1<'py, u64>,
        targets: PyReadonlyArray1<'py, u64>,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let (h, t) = (heaps.as_slice()?, targets.as_slice()?);
        let out = self.with_heap_values(py, |vals| {
            position::has_option_with_value(&self.rule, vals, h, t)
        })?;
        Ok(PyArray1::from_vec(py, out))
    }

    /// G(h) for each heap, as uint64.
    fn heap_values<'py>(
        &self,
        py: Python<'py>,
        heaps: PyReadonlyArray1<'py, u64>,
    ) -> PyResult<Bound<'py, PyArray1<u64>>> {
        let h = heaps.as_slice()?;
        let out = self.with_heap_values(py, |vals| position::heap_values(vals, h))?;
        Ok(PyArray1::from_vec(py, out))
    }

    /// For each row of a C-contiguous 2-d uint64 array of heaps: whether the sum is a P-position.
    fn outcomes<'py>(
        &self,
        py: Python<'py>,
        heaps: PyReadonlyArray2<'py, u64>,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let width = heaps.shape()[1];
        let h = heaps.as_slice()?;
        let out = self.with_heap_values(py, |vals| position::outcomes(vals, h, width))?;
        Ok(PyArray1::from_vec(py, out))
    }

    /// The misère quotient of all sums of heaps up to `max_heap` (see `build_quotient`), kept:
    /// the quotient of the largest heaps built is [`quotient`](Self::quotient) from then on, and
    /// asking for the heaps it covers exactly returns it.
    #[pyo3(signature = (max_heap, progress=None, max_order=None))]
    fn misere_quotient(
        &self,
        py: Python<'_>,
        max_heap: u64,
        progress: Option<Py<PyAny>>,
        max_order: Option<usize>,
    ) -> PyResult<Py<MisereQuotient>> {
        self.not_reentrant()?;
        if let Some(q) = self.quotient(py) {
            if q.get().top() as u64 == max_heap {
                return Ok(q);
            }
        }
        let g = MisereGame::Rule(&self.rule);
        match build_quotient(py, g, self.slot.clone(), max_heap, progress, max_order) {
            Ok(q) => {
                let q = Py::new(py, q)?;
                self.keep_quotient(py, &q);
                Ok(q)
            }
            Err(e) => {
                if let Ok(kept) = e.value(py).getattr("quotient") {
                    if let Ok(q) = kept.cast_into::<MisereQuotient>() {
                        self.keep_quotient(py, &q.unbind());
                    }
                }
                Err(e)
            }
        }
    }

    /// The quotient of the largest heaps built so far, or None.
    #[getter]
    fn quotient(&self, py: Python<'_>) -> Option<Py<MisereQuotient>> {
        let q = self.quotient.lock().unwrap_or_else(|p| p.into_inner());
        q.as_ref().map(|q| q.clone_ref(py))
    }

    /// The heap from which an automatic quotient build ran past its budget (None: none did).
    #[getter]
    fn quotient_out_of_reach(&self) -> Option<u64> {
        *self
            .quotient_out_of_reach
            .lock()
            .unwrap_or_else(|p| p.into_inner())
    }

    /// Records that quotients from heap `heap` on are out of an automatic build's reach.
    fn give_up_quotient(&self, heap: u64) {
        let mut g = self
            .quotient_out_of_reach
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        *g = Some(g.map_or(heap, |h| h.min(heap)));
    }

    /// Proven lower bounds on the order of the misère quotient at heap `heap`, from the sums
    /// with at most `copies` copies of it: `(below, classes per copy count, refutations, proof
    /// states)`.
    fn misere_quotient_bounds(
        &self,
        py: Python<'_>,
        heap: u64,
        copies: u32,
    ) -> PyResult<(usize, Vec<usize>, u32, usize)> {
        self.not_reentrant()?;
        quotient_bounds(
            py,
            MisereGame::Rule(&self.rule),
            self.slot.clone(),
            heap,
            copies,
        )
    }
}
