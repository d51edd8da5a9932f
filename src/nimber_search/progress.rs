//! What a search shows while it runs: a [`Watch`] on its tables (fill, bytes) and on the
//! question it asks of the root (the component [`Search::value`] or [`Search::is_zero`] is asked
//! about: its options settled so far and what each is worth), read from any thread while the
//! search runs, without stopping it.
//!
//! The search reports to the watch through a small hook, called where a question about the root
//! begins and where one of the root's options is settled: a comparison of cells per node, and a
//! lock only at the root (a few times per root option). On a parallel search only the first
//! thread reports (each thread settles every root option in its own order: two would count them
//! twice).
//!
//! ```
//! use grundy::board::Cram;
//! use grundy::control::NoControl;
//! use grundy::nimber_search::Search;
//! let cram = Cram::new(3, 4).unwrap();
//! let mut search = Search::new(&cram, 1 << 20).unwrap();
//! let watch = search.watch();
//! assert_eq!(search.value(cram.empty(), &NoControl).unwrap(), 1);
//! let root = watch.root();
//! assert_eq!((root.cells, root.options), (cram.empty(), 17));
//! assert!(root.questions >= 1 && root.settled <= root.options); // "is G = 0?", ...
//! assert!(watch.entries() > 0 && watch.entries() <= watch.capacity());
//! ```

use super::table::AnyTable;
use super::Search;
use crate::board::Board;
use std::sync::{Arc, Mutex};

/// What a search has settled of the root's options in the question it asks now.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RootProgress {
    /// The root component's cells (0 before a search began).
    pub cells: u128,
    /// Its options.
    pub options: u32,
    /// Questions ("is G in S?") asked of the root so far: iterative deepening asks "is G = 0?",
    /// "is G = 1?", ... until one answers.
    pub questions: u32,
    /// The values the question under way asks about, as bits (bit `v` for value `v`).
    pub asked: u128,
    /// Options settled in the question under way (from the table or by search).
    pub settled: u32,
    /// Of those, how many have each value (`values[v]` of value `v`).
    pub values: Vec<u32>,
    /// Of those, the options known only not to have the values asked of them.
    pub outside: u32,
}

/// The search's side of the watch (see the module's notes).
#[derive(Clone, Default)]
pub(super) struct Hook {
    /// The root's cells (0: no root, or a thread that does not report).
    root: u128,
    /// Whether this search reports (the first thread of a parallel search, or a plain one).
    on: bool,
    shared: Arc<Mutex<RootProgress>>,
}

impl Hook {
    /// A hook that reports.
    pub(super) fn new() -> Hook {
        Hook {
            on: true,
            ..Hook::default()
        }
    }

    /// The same watch for a thread of a parallel search: muted unless `first`.
    pub(super) fn for_thread(&self, first: bool) -> Hook {
        Hook {
            root: 0,
            on: self.on && first,
            shared: self.shared.clone(),
        }
    }

    /// Whether `cells` is the root (the one comparison each node pays).
    #[inline]
    pub(super) fn is_root(&self, cells: u128) -> bool {
        cells == self.root
    }

    /// The search turns to component `cells` of the position it was asked about.
    pub(super) fn set_root(&mut self, cells: u128) {
        if self.on {
            self.root = cells;
            let mut r = lock(&self.shared);
            if r.cells != cells {
                *r = RootProgress {
                    cells,
                    ..RootProgress::default()
                };
            }
        }
    }

    /// A question about the root begins: is G one of `asked`, among `options` options?
    #[cold]
    pub(super) fn question(&self, asked: u128, options: usize) {
        let mut r = lock(&self.shared);
        r.options = options as u32;
        r.questions += 1;
        r.asked = asked;
        r.settled = 0;
        r.values.clear();
        r.outside = 0;
    }

    /// One of the root's options settled: its value, or `None` (none of those asked).
    #[cold]
    pub(super) fn settled(&self, v: Option<u32>) {
        let mut r = lock(&self.shared);
        r.settled += 1;
        match v {
            Some(v) => {
                let v = v as usize;
                if r.values.len() <= v {
                    r.values.resize(v + 1, 0);
                }
                r.values[v] += 1;
            }
            None => r.outside += 1,
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// A view of a search that any thread may read while the search runs: its tables' fill, the
/// root's progress, and a [checkpoint](Watch::write_checkpoint) of the tables.
#[derive(Clone)]
pub struct Watch {
    pub(super) small: Arc<AnyTable>,
    pub(super) table: Arc<AnyTable>,
    root: Arc<Mutex<RootProgress>>,
}

impl Watch {
    /// Entries in the tables now.
    pub fn entries(&self) -> u64 {
        self.small.entries() + self.table.entries()
    }

    /// Entries the tables can hold.
    pub fn capacity(&self) -> u64 {
        self.small.capacity() + self.table.capacity()
    }

    /// Bytes the tables take (their budget, allocated at once; pages cost memory once touched).
    pub fn bytes(&self) -> u64 {
        self.small.bytes() + self.table.bytes()
    }

    /// The root's progress in the question under way.
    pub fn root(&self) -> RootProgress {
        lock(&self.root).clone()
    }
}

impl<B: Board + ?Sized> Search<'_, B> {
    /// A [`Watch`] on this search, to read while it runs (from another thread, or from its
    /// [`Control`](crate::control::Control)).
    pub fn watch(&self) -> Watch {
        Watch {
            small: self.small.clone(),
            table: self.table.clone(),
            root: self.hook.shared.clone(),
        }
    }
}
