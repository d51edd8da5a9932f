//! Where `StateExplorer` keeps its canonical states: Python objects in a dict, or, for a game
//! made with `int_states=True`, plain integers below 2**128 in a Rust hash map (no Python
//! object is kept per state; about 40 bytes a state instead of 0.5 KB).

use crate::bindings::convert::show;
use crate::bindings::{argument_error, argument_type_error};
use crate::graph::explore::{IntStates, States};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// `x` as an integer state: an `int` in `[0, 2**128)`. The common case, below 2**64, takes one
/// C call.
#[inline]
pub(crate) fn int_state(x: &Bound<'_, PyAny>) -> PyResult<u128> {
    if let Ok(v) = x.extract::<u64>() {
        return Ok(u128::from(v));
    }
    x.extract::<u128>().map_err(|_| {
        let m = format!(
            "{} is not an int in [0, 2**128): a game made with int_states=True must have states \
             (and keys and parts) that are such ints",
            show(x)
        );
        // An int out of range is a bad value (ValueError); anything else a bad type.
        if x.is_instance_of::<pyo3::types::PyInt>() {
            argument_error(m)
        } else {
            argument_type_error(m)
        }
    })
}

/// The canonical states of one explorer, by id.
pub(crate) enum Store {
    /// Any hashable Python objects: a dict to their ids, and the objects by id.
    Objects {
        index: Py<PyDict>,
        states: Vec<Py<PyAny>>,
    },
    /// Integers below 2**128, kept by the core.
    Ints(IntStates),
}

/// What [`Store::find`] says of a canonical state.
pub(crate) enum Found {
    /// Already stored, with this id.
    Id(u32),
    /// Not stored; [`Store::push`] takes this to store it.
    New(Key),
}

/// A canonical state ready to store.
pub(crate) enum Key {
    Object(Py<PyAny>),
    Int(u128),
}

impl Store {
    pub(crate) fn new(py: Python<'_>, ints: bool) -> Store {
        if ints {
            Store::Ints(IntStates::default())
        } else {
            Store::Objects {
                index: PyDict::new(py).unbind(),
                states: Vec::new(),
            }
        }
    }

    /// Bytes a state takes here at least: its entry in the index and its place in the states
    /// (for the memory checks, which ask that as much again fits).
    pub(crate) fn state_bytes(&self) -> u64 {
        match self {
            Store::Objects { .. } => 128,
            Store::Ints(_) => 40,
        }
    }

    /// The id of canonical state `canon`, or what storing it needs. A TypeError from hashing
    /// is passed to `unhashable` for a clearer message.
    pub(crate) fn find(
        &self,
        py: Python<'_>,
        canon: &Bound<'_, PyAny>,
        unhashable: impl FnOnce(PyErr) -> PyErr,
    ) -> PyResult<Found> {
        match self {
            Store::Objects { index, .. } => match index.bind(py).get_item(canon) {
                Ok(Some(id)) => Ok(Found::Id(id.extract()?)),
                Ok(None) => Ok(Found::New(Key::Object(canon.clone().unbind()))),
                Err(e) if e.is_instance_of::<PyTypeError>(py) => Err(unhashable(e)),
                Err(e) => Err(e),
            },
            Store::Ints(ints) => {
                let k = int_state(canon)?;
                Ok(match ints.find(k) {
                    Some(id) => Found::Id(id),
                    None => Found::New(Key::Int(k)),
                })
            }
        }
    }

    /// Stores a new state (from [`Store::find`]) under the next id, within `max_states`.
    pub(crate) fn push(
        &mut self,
        py: Python<'_>,
        key: Key,
        max_states: Option<u64>,
    ) -> PyResult<u32> {
        let id = self.len() as u32;
        match (self, key) {
            (Store::Objects { index, states }, Key::Object(o)) => {
                crate::graph::explore::room(states.len(), max_states)?;
                index.bind(py).set_item(&o, id)?;
                states.push(o);
                Ok(id)
            }
            (Store::Ints(ints), Key::Int(k)) => Ok(ints.intern(k, max_states)?),
            _ => unreachable!("a key from another kind of store"),
        }
    }

    /// The integer states, when the store keeps integers.
    pub(crate) fn ints(&mut self) -> Option<&mut IntStates> {
        match self {
            Store::Ints(ints) => Some(ints),
            Store::Objects { .. } => None,
        }
    }

    /// The state with id `id`, as a Python object.
    pub(crate) fn get(&self, py: Python<'_>, id: usize) -> PyResult<Py<PyAny>> {
        match self {
            Store::Objects { states, .. } => Ok(states[id].clone_ref(py)),
            Store::Ints(ints) => Ok(ints.get(id).into_pyobject(py)?.into_any().unbind()),
        }
    }

    /// The id of `canon` when it is stored (None, not an error, for a state of the wrong kind).
    pub(crate) fn lookup(&self, py: Python<'_>, canon: &Bound<'_, PyAny>) -> PyResult<Option<u32>> {
        match self {
            Store::Objects { .. } => match self.find(py, canon, |e| e) {
                Ok(Found::Id(id)) => Ok(Some(id)),
                Ok(Found::New(_)) => Ok(None),
                Err(e) if e.is_instance_of::<PyTypeError>(py) => Ok(None),
                Err(e) => Err(e),
            },
            Store::Ints(ints) => Ok(int_state(canon).ok().and_then(|k| ints.find(k))),
        }
    }
}

impl States for Store {
    fn len(&self) -> usize {
        match self {
            Store::Objects { states, .. } => states.len(),
            Store::Ints(ints) => ints.len(),
        }
    }

    fn truncate(&mut self, n: usize) {
        match self {
            Store::Objects { index, states } => Python::attach(|py| {
                let index = index.bind(py);
                for s in states.drain(n.min(states.len())..) {
                    let _ = index.del_item(s);
                }
            }),
            Store::Ints(ints) => ints.truncate(n),
        }
    }
}
