//! What several binding files share: values as the smallest numpy dtype ([`Narrow`]), the
//! marker of a running rule callback ([`InCallback`], so that a callback cannot re-enter its own
//! game), and Python objects shown in messages ([`repr`], [`show`], [`type_name`]).

use numpy::PyArray1;
use pyo3::prelude::*;
use std::cell::RefCell;

thread_local! {
    /// The games whose rule callback this thread is running: sequences by [`ErrSlot::id`],
    /// state explorers by the address of their Python object.
    static IN_CALLBACK: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
}

/// Marks this thread as running a rule callback of sequence `id` until dropped.
pub(crate) struct InCallback(usize);

impl InCallback {
    pub(crate) fn enter(id: usize) -> Self {
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

pub(crate) fn in_callback(id: usize) -> bool {
    IN_CALLBACK.with(|v| v.borrow().contains(&id))
}

/// Values in the smallest unsigned dtype that holds them.
pub(crate) enum Narrow {
    U8(Vec<u8>),
    U16(Vec<u16>),
    U32(Vec<u32>),
}

impl Narrow {
    /// `values`, whose largest is `max`, in the smallest type that holds `max`.
    pub(crate) fn new(max: u32, values: impl Iterator<Item = u32>) -> Self {
        if max <= u8::MAX as u32 {
            Narrow::U8(values.map(|x| x as u8).collect())
        } else if max <= u16::MAX as u32 {
            Narrow::U16(values.map(|x| x as u16).collect())
        } else {
            Narrow::U32(values.collect())
        }
    }

    /// A new numpy array (the vector is moved, not copied).
    pub(crate) fn into_array(self, py: Python<'_>) -> Bound<'_, PyAny> {
        match self {
            Narrow::U8(v) => PyArray1::from_vec(py, v).into_any(),
            Narrow::U16(v) => PyArray1::from_vec(py, v).into_any(),
            Narrow::U32(v) => PyArray1::from_vec(py, v).into_any(),
        }
    }
}

/// `repr(x)`, or `?` when it fails.
pub(crate) fn repr(x: &Bound<'_, PyAny>) -> String {
    x.repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// The name of `x`'s type, or `?`.
pub(crate) fn type_name(x: &Bound<'_, PyAny>) -> String {
    x.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into())
}

/// `repr(x)`, cut to 200 characters for messages.
pub(crate) fn show(x: &Bound<'_, PyAny>) -> String {
    let s = x
        .repr()
        .map(|r| r.to_string())
        .unwrap_or_else(|_| "<unprintable state>".into());
    if s.chars().count() > 200 {
        format!("{}...", s.chars().take(200).collect::<String>())
    } else {
        s
    }
}
