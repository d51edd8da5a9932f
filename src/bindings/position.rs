//! `_core.OptionTable`, `_core.OptionFamily` (a family of options the move search found, taken
//! a slice at a time) and the misère search of sums of components (heap games, tabulated
//! rules, game graphs). Each releases the GIL around the core; the searches of one heap game
//! are methods of its `HeapCore`.

use super::graph::Graph;
use super::sequence::HeapCore;
use super::{argument_type_error, ErrSlot, PyControl};
use crate::position::{misere, Expansion, Family, Misere, MisereGame, OptionTable as CoreTable};
use numpy::{PyArray1, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyTuple;
use std::sync::Mutex;

/// A family of options of one heap found by the move search (`HeapCore.search`), expanded in
/// the core a slice at a time by [`Family::expand`]: Python never learns the kinds of family.
#[pyclass(module = "grundy._core", frozen)]
pub struct OptionFamily {
    family: Family,
    at: Mutex<Expansion>,
}

impl OptionFamily {
    pub(super) fn new(family: Family) -> Self {
        OptionFamily {
            family,
            at: Mutex::new(Expansion::default()),
        }
    }
}

#[pymethods]
impl OptionFamily {
    /// The next `limit` options at most (each a tuple of the heaps it leaves); `[]` once all
    /// have been taken.
    fn take<'py>(&self, py: Python<'py>, limit: usize) -> PyResult<Vec<Bound<'py, PyTuple>>> {
        let mut parts: Vec<Vec<u64>> = Vec::new();
        {
            let mut at = self.at.lock().unwrap_or_else(|e| e.into_inner());
            self.family
                .expand(&mut at, limit, &mut |p| parts.push(p.to_vec()));
        }
        parts.into_iter().map(|p| PyTuple::new(py, p)).collect()
    }

    fn __repr__(&self) -> String {
        format!("OptionFamily({:?})", self.family)
    }
}

/// The options of heaps `0..N` of a rule written in Python, tabulated for the misère search:
/// the options of heap n are `opt_start[n]..opt_start[n + 1]`, the parts of option o are
/// `parts[part_start[o]..part_start[o + 1]]`.
#[pyclass(module = "grundy._core", frozen)]
pub struct OptionTable {
    inner: CoreTable,
}

impl OptionTable {
    /// A table built by the core.
    pub(super) fn wrap(inner: CoreTable) -> Self {
        OptionTable { inner }
    }
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

/// The core games of a list of HeapCore, OptionTable and Graph objects.
pub(super) fn misere_games<'a>(games: &'a [Bound<'_, PyAny>]) -> PyResult<Vec<MisereGame<'a>>> {
    games
        .iter()
        .map(|g| {
            if let Ok(r) = g.cast::<HeapCore>() {
                Ok(MisereGame::Rule(r.get().rule()))
            } else if let Ok(t) = g.cast::<OptionTable>() {
                Ok(MisereGame::Table(&t.get().inner))
            } else if let Ok(gr) = g.cast::<Graph>() {
                Ok(MisereGame::Graph(gr.get().core()))
            } else {
                Err(argument_type_error(
                    "misère games must be HeapCore, OptionTable or Graph objects",
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
