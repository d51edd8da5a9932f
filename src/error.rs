//! Errors of the core. The Python layer maps each variant to one Python exception.
//!
//! Only what a caller of the core can meet is here: the engine's internal signal that a value
//! needs wider storage is [`Stop::Overflow`](crate::engine::Stop), handled inside the engine, and
//! a user callback that fails stops the computation as [`Error::Interrupted`] (the caller that
//! gave the callback keeps the cause).

use std::fmt;

/// Everything that can go wrong in the core, as plain data (no Python here). New variants may
/// come: match with a wildcard arm.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A malformed take-and-break code.
    Parse {
        /// What was wrong (the whole message, naming the code and the position).
        message: String,
        /// The code as given.
        code: String,
        /// The 0-based character (not byte) position of the offending character.
        position: usize,
    },
    /// A rule or argument that is well formed but not acceptable (`Subtraction([0])`, ...).
    Invalid(String),
    /// The request would need more memory than the machine has.
    Memory {
        /// Bytes the request needs.
        requested: u64,
        /// Bytes available when it was checked.
        available: u64,
    },
    /// The caller asked to stop: its [`Control`](crate::control::Control) did (Ctrl-C, for
    /// instance), or one of its callbacks failed. The caller knows why (the Python binding
    /// re-raises the exception it kept).
    Interrupted,
    /// A game graph has a cycle (so no Grundy values): the vertices of one cycle, each an option
    /// of the one before and the first an option of the last.
    Cycle(Vec<u64>),
    /// An exhaustive search (misère play, state exploration, quotient construction) passed its
    /// limit: what was searched, and the limit.
    SearchLimit {
        /// What was searched and which limit it passed.
        message: String,
        /// The limit.
        limit: u64,
    },
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
                "this needs about {} but only {} of memory is available",
                amount(*requested),
                amount(*available)
            ),
            Error::Interrupted => f.write_str("interrupted"),
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
                    Some(v) => write!(f, "{v} ({})", vertices(c.len())),
                    None => f.write_str("?"),
                }
            }
        }
    }
}

impl std::error::Error for Error {}

/// Bytes for a reader: "1000 bytes" under a MiB (where MiB would read 0), else whole MiB.
fn amount(bytes: u64) -> String {
    if bytes < 1 << 20 {
        format!("{bytes} bytes")
    } else {
        format!("{} MiB", bytes >> 20)
    }
}

/// "1 vertex", "2 vertices".
fn vertices(n: usize) -> String {
    if n == 1 {
        "1 vertex".into()
    } else {
        format!("{n} vertices")
    }
}

/// The core's result type.
pub type Result<T> = std::result::Result<T, Error>;

#[cfg(test)]
mod tests {
    use super::Error;

    #[test]
    fn memory_under_a_mib_is_shown_in_bytes() {
        let small = Error::Memory {
            requested: 5 << 20,
            available: 1000,
        };
        assert_eq!(
            small.to_string(),
            "this needs about 5 MiB but only 1000 bytes of memory is available"
        );
    }

    #[test]
    fn a_cycle_of_one_vertex_is_singular() {
        let one = Error::Cycle(vec![7]).to_string();
        assert!(one.ends_with("7 -> 7 (1 vertex)"), "{one}");
        let two = Error::Cycle(vec![1, 2]).to_string();
        assert!(two.ends_with("(2 vertices)"), "{two}");
    }
}
