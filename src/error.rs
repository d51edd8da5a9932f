//! Errors of the core. The Python layer maps each variant to one Python exception.

use std::fmt;

/// Everything that can go wrong in the core, as plain data (no Python here).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A malformed take-and-break code: what was wrong and the 0-based character position.
    Parse { message: String, position: usize },
    /// A rule or argument that is well formed but not acceptable (`Subtraction([0])`, ...).
    Invalid(String),
    /// The request would need more memory than the machine has.
    Memory { requested: u64, available: u64 },
    /// The caller's [`Control`](crate::engine::Control) asked to stop (Ctrl-C, for instance).
    Interrupted,
    /// A user callback failed; the binding keeps the original exception and re-raises it.
    Callback,
    /// A Grundy value does not fit the current storage type; the engine widens and retries.
    Overflow,
    /// A game graph has a cycle (so no Grundy values): the vertices of one cycle, each an option
    /// of the one before and the first an option of the last.
    Cycle(Vec<u64>),
    /// An exhaustive search (misère play, state exploration, quotient construction) passed its
    /// limit: what was searched, and the limit.
    SearchLimit { message: String, limit: u64 },
}

/// How many vertices of a cycle its message shows.
const CYCLE_SHOWN: usize = 20;

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Parse { message, .. } => f.write_str(message),
            Error::Invalid(m) => f.write_str(m),
            Error::Memory {
                requested,
                available,
            } => write!(
                f,
                "this needs about {} MiB but only {} MiB of memory is available",
                requested >> 20,
                available >> 20
            ),
            Error::Interrupted => f.write_str("interrupted"),
            Error::Callback => f.write_str("a user callback raised an error"),
            Error::Overflow => f.write_str("value does not fit the storage type"),
            Error::SearchLimit { message, .. } => f.write_str(message),
            Error::Cycle(c) => {
                // A cycle may have millions of vertices: show its start and its length.
                f.write_str("the game graph has a cycle, so it has no Grundy values: ")?;
                for v in c.iter().take(CYCLE_SHOWN) {
                    write!(f, "{v} -> ")?;
                }
                if c.len() > CYCLE_SHOWN {
                    write!(f, "... -> ")?;
                }
                match c.first() {
                    Some(v) => write!(f, "{v} ({} vertices)", c.len()),
                    None => f.write_str("?"),
                }
            }
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;
