//! [`Leaked`]: a box whose contents a `nimber_search::Search` may borrow for `'static`, so that a
//! Python object can own a board and the search over it together (`BoardGame`, `StateSearch`).
//!
//! `Search` borrows its board; an owning search would need its tables split from the board it
//! reads. Until then this is the one place that unsafety lives.

use std::ptr::NonNull;

/// A box whose contents a `Search` borrows for `'static`: its owner (a `Solver`) declares it
/// after the search, so that the search is dropped first (fields drop in declaration order).
pub(super) struct Leaked<T: ?Sized + 'static>(NonNull<T>);

// SAFETY: a `Leaked<T>` is a `Box<T>` in all but name (the one owner, freed once, by its drop),
// so it may cross and be shared between threads when a box could.
unsafe impl<T: ?Sized + Send> Send for Leaked<T> {}
unsafe impl<T: ?Sized + Sync> Sync for Leaked<T> {}

impl<T: ?Sized + 'static> Leaked<T> {
    pub(super) fn new(b: Box<T>) -> Self {
        Leaked(NonNull::from(Box::leak(b)))
    }

    /// The contents for `'static`.
    ///
    /// # Safety
    /// The reference must not be used after `self` is dropped: it goes only to fields of the
    /// same owner declared before `self`.
    pub(super) unsafe fn get(&self) -> &'static T {
        // SAFETY: the pointer came from a live box, freed only by `drop` (see above).
        unsafe { self.0.as_ref() }
    }
}

impl<T: ?Sized + 'static> Drop for Leaked<T> {
    fn drop(&mut self) {
        // SAFETY: the pointer came from `Box::leak` in `new` and is freed only here.
        drop(unsafe { Box::from_raw(self.0.as_ptr()) });
    }
}
