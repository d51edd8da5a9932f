//! `_core.OptionFamily` (a family of options the move search found, taken a slice at a time)
//! and `_core.OptionTable` (the options of a rule written in Python, tabulated for the misère
//! search).

use crate::position::{Expansion, Family, OptionTable as CoreTable};
use numpy::PyReadonlyArray1;
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
    pub(super) inner: CoreTable,
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
