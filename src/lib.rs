//! `grundy`: Grundy (nim) values, periods, sums and misère quotients of impartial games.
//!
//! The core is plain Rust (no Python; `cargo test` runs it alone). A tour, bottom up:
//!
//! - Heap games: [`rules`] says what a move is (take-and-break codes, subtraction sets, rules
//!   given as callbacks); [`engine`] computes G(0..N), exactly or through sparse space, block by
//!   block on rayon's threads, and finds periods as it goes; [`periodicity`] finds and proves them.
//! - Sums: [`nim`] adds values up; [`position`] plays sums of heaps (winning moves, outcomes,
//!   the misère search); [`misere_quotient`] builds and proves misère quotients.
//! - Games beyond heaps: [`graph`] solves explicit game graphs by Kahn layers, with the state
//!   graphs of games over any states ([`graph::state`], explored from their roots by
//!   [`graph::explore`]) and loopy graphs with draws ([`graph::loopy`]); [`two_heap`] fills grids of pairs `(a, b)` (Wythoff's game).
//! - Board games: [`board`] says what Cram, Node Kayles, Arc Kayles and Chomp are, over one
//!   trait; [`nimber_search`] finds one position's value by a pruned search with shared tables.
//! - Shared pieces: [`control`] (Ctrl-C, memory and progress polling, thread pools), [`memory`],
//!   [`bitset`] (sets of values and their mex), [`hash`], [`error`].
//!
//! The optional `python` feature adds the PyO3 layer in `bindings`, which only converts,
//! releases the GIL, checks signals and maps errors.
//!
//! ```
//! use grundy::control::NoControl;
//! use grundy::engine::{Sequence, TakeAndBreakExact};
//! use grundy::rules::TakeAndBreak;
//! let mut kayles = Sequence::new(TakeAndBreakExact::new(TakeAndBreak::parse("0.77").unwrap()));
//! kayles.extend(12, &NoControl).unwrap();
//! assert_eq!(kayles.values().to_vec(), vec![0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
//! ```

#![deny(missing_docs)]

pub mod bitset;
pub mod board;
pub mod control;
pub mod engine;
pub mod error;
pub mod graph;
pub mod hash;
pub mod memory;
pub mod misere_quotient;
pub mod nim;
pub mod nimber_search;
pub mod periodicity;
pub mod position;
pub mod rules;
pub mod two_heap;

#[cfg(feature = "python")]
mod bindings;

pub use error::{Error, Result};
