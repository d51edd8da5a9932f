//! The misère search of sums of components (heap games, tabulated rules, game graphs). Each
//! call releases the GIL around the core; the searches of one heap game are methods of its
//! `HeapCore`.

use super::graph::Graph;
use super::heap::HeapCore;
use super::options::OptionTable;
use super::{argument_type_error, ErrSlot, PyControl};
use crate::position::{misere, Misere, MisereGame};
use numpy::{PyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;

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
