//! `_core.HeapRule`, `_core.OptionTable` and the position functions: winning-move search,
//! values and outcomes of many heaps, misère search. Each releases the GIL around the core.

use super::graph::Graph;
use super::sequence::Sequence;
use super::{argument_type_error, ErrSlot, PyControl};
use crate::position::{
    self, misere, Cursor, HeapRule as CoreRule, HeapValues, Misere, MisereGame,
    OptionTable as CoreTable, Query, Tail,
};
use crate::rules::{Subtraction, TakeAndBreak};
use numpy::{PyArray1, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;

/// A proven period as the Python layer passes it: `(preperiod, period, saltus)` or None.
type TailArg = Option<(u64, u64, i64)>;

fn tail_of(t: TailArg) -> crate::Result<Tail> {
    match t {
        None => Ok(Tail::None),
        Some((n0, p, s)) => HeapValues::tail_from(n0, p, s),
    }
}

/// A heap rule whose options the core lists: a take-and-break code or a built-in subtraction
/// rule.
#[pyclass(module = "grundy._core", frozen)]
pub struct HeapRule {
    inner: CoreRule,
}

#[pymethods]
impl HeapRule {
    #[staticmethod]
    fn take_and_break(code: &str) -> PyResult<Self> {
        let rule = TakeAndBreak::parse(code)?;
        Ok(HeapRule {
            inner: CoreRule::TakeAndBreak(rule),
        })
    }

    /// kind: finite, all_but, squares, at_most_half or proper_divisors.
    #[staticmethod]
    #[pyo3(signature = (kind, members=None))]
    fn subtraction(kind: &str, members: Option<Vec<u64>>) -> PyResult<Self> {
        let members = members.unwrap_or_default();
        let rule = Subtraction::from_kind(kind, members)?;
        Ok(HeapRule {
            inner: CoreRule::Subtraction(rule),
        })
    }

    /// Whether leaving the heaps `parts` is a move from a heap of `n`.
    fn is_option(&self, n: u64, parts: Vec<u64>) -> bool {
        self.inner.is_option(n, &parts)
    }

    /// The options of a heap of `n` (worth `target` when given) from `cursor = (k, j)` until
    /// `budget` candidates were examined: `(families, next cursor or None, work)`, each family
    /// a pair (kind, numbers) that the Python layer expands. `seq` and `tail` give the values.
    #[pyo3(signature = (seq, tail, n, target, cursor, budget, first_only=false))]
    #[allow(clippy::too_many_arguments, clippy::type_complexity)]
    fn search(
        &self,
        py: Python<'_>,
        seq: &Bound<'_, Sequence>,
        tail: TailArg,
        n: u64,
        target: Option<u64>,
        cursor: (u8, u64),
        budget: u64,
        first_only: bool,
    ) -> PyResult<(Vec<(&'static str, Vec<u64>)>, Option<(u8, u64)>, u64)> {
        let tail = tail_of(tail)?;
        let rule = &self.inner;
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
        let found = seq.get().with_values(py, |v| {
            let vals = HeapValues::new(v, tail)?;
            position::search(rule, &vals, &q)
        });
        let found = found??;
        Ok((
            found.families.iter().map(|f| f.encode()).collect(),
            found.next.map(|c| (c.k, c.j)),
            found.work,
        ))
    }

    /// For each heap, whether it has an option worth the matching target (bool array).
    fn has_option<'py>(
        &self,
        py: Python<'py>,
        seq: &Bound<'py, Sequence>,
        tail: TailArg,
        heaps: PyReadonlyArray1<'py, u64>,
        targets: PyReadonlyArray1<'py, u64>,
    ) -> PyResult<Bound<'py, PyArray1<bool>>> {
        let tail = tail_of(tail)?;
        let (h, t) = (heaps.as_slice()?, targets.as_slice()?);
        let rule = &self.inner;
        let out = seq.get().with_values(py, |v| {
            let vals = HeapValues::new(v, tail)?;
            position::has_option_with_value(rule, &vals, h, t)
        });
        Ok(PyArray1::from_vec(py, out??))
    }
}

/// The options of heaps `0..N` of a rule written in Python, tabulated for the misère search:
/// the options of heap n are `opt_start[n]..opt_start[n + 1]`, the parts of option o are
/// `parts[part_start[o]..part_start[o + 1]]`.
#[pyclass(module = "grundy._core", frozen)]
pub struct OptionTable {
    inner: CoreTable,
}

#[pymethods]
impl OptionTable {
    #[new]
    fn new(
        opt_start: PyReadonlyArray1<'_, u64>,
        part_start: PyReadonlyArray1<'_, u64>,
        parts: PyReadonlyArray1<'_, u64>,
    ) -> PyResult<Self> {
        let t = CoreTable::new(
            opt_start.as_slice()?.to_vec(),
            part_start.as_slice()?.to_vec(),
            parts.as_slice()?.to_vec(),
        )?;
        Ok(OptionTable { inner: t })
    }
}

/// G(h) for each heap, as uint64.
#[pyfunction]
pub fn heap_values<'py>(
    py: Python<'py>,
    seq: &Bound<'py, Sequence>,
    tail: TailArg,
    heaps: PyReadonlyArray1<'py, u64>,
) -> PyResult<Bound<'py, PyArray1<u64>>> {
    let tail = tail_of(tail)?;
    let h = heaps.as_slice()?;
    let out = seq
        .get()
        .with_values(py, |v| position::heap_values(&HeapValues::new(v, tail)?, h));
    Ok(PyArray1::from_vec(py, out??))
}

/// For each row of a C-contiguous 2-d uint64 array of heaps: whether the sum is a P-position.
#[pyfunction]
pub fn outcomes<'py>(
    py: Python<'py>,
    seq: &Bound<'py, Sequence>,
    tail: TailArg,
    heaps: PyReadonlyArray2<'py, u64>,
) -> PyResult<Bound<'py, PyArray1<bool>>> {
    let tail = tail_of(tail)?;
    let width = heaps.shape()[1];
    let h = heaps.as_slice()?;
    let out = seq.get().with_values(py, |v| {
        position::outcomes(&HeapValues::new(v, tail)?, h, width)
    });
    Ok(PyArray1::from_vec(py, out??))
}

/// The core games of a list of HeapRule, OptionTable and Graph objects.
pub(super) fn misere_games<'a>(games: &'a [Bound<'_, PyAny>]) -> PyResult<Vec<MisereGame<'a>>> {
    games
        .iter()
        .map(|g| {
            if let Ok(r) = g.cast::<HeapRule>() {
                Ok(MisereGame::Rule(&r.get().inner))
            } else if let Ok(t) = g.cast::<OptionTable>() {
                Ok(MisereGame::Table(&t.get().inner))
            } else if let Ok(gr) = g.cast::<Graph>() {
                Ok(MisereGame::Graph(gr.get().core()))
            } else {
                Err(argument_type_error(
                    "misère games must be HeapRule, OptionTable or Graph objects",
                ))
            }
        })
        .collect()
}

/// Misère outcome of the sum of `root` (pairs (game index, heap or vertex)) and, when asked,
/// its winning moves (component index, heaps left): `(is_p, moves, positions examined)`.
#[pyfunction]
#[pyo3(signature = (games, root, max_positions, want_moves=false))]
#[allow(clippy::type_complexity)]
pub fn misere_search(
    py: Python<'_>,
    games: Vec<Bound<'_, PyAny>>,
    root: Vec<(u32, u64)>,
    max_positions: usize,
    want_moves: bool,
) -> PyResult<(bool, Vec<(usize, Vec<u64>)>, usize)> {
    let mg = misere_games(&games)?;
    PyControl::run(py, ErrSlot::default(), None, |ctl| {
        let mut m = Misere::new(&mg, max_positions, ctl);
        let p = m.is_p(&root)?;
        let moves = if want_moves && !p {
            m.winning_moves(&root)?
        } else {
            Vec::new()
        };
        Ok((p, moves, m.positions()))
    })
}

/// Misère P (true) or N for each row of heaps of `games[0]`, rows split between threads.
#[pyfunction]
pub fn misere_outcomes<'py>(
    py: Python<'py>,
    games: Vec<Bound<'py, PyAny>>,
    rows: PyReadonlyArray2<'py, u64>,
    max_positions: usize,
) -> PyResult<Bound<'py, PyArray1<bool>>> {
    let mg = misere_games(&games)?;
    let width = rows.shape()[1];
    let h = rows.as_slice()?;
    let out = PyControl::run(py, ErrSlot::default(), None, |ctl| {
        misere::misere_outcomes(&mg, h, width, max_positions, ctl)
    })?;
    Ok(PyArray1::from_vec(py, out))
}
