//! `grundy`: Grundy values of impartial heap games.
//!
//! The core is plain Rust (no Python): [`rules`] says what a move is, [`engine`] computes
//! G(0..N), [`nim`] adds games up, [`position`] plays sums (winning moves, outcomes, misère),
//! [`graph`] solves explicit game graphs. The optional `python` feature adds the PyO3 layer in
//! `bindings`, which only converts, releases the GIL, checks signals and maps errors.

#![deny(missing_docs)]

pub mod bitset;
pub mod board;
pub mod engine;
pub mod error;
pub mod graph;
pub mod loopy;
pub mod memory;
pub mod misere_quotient;
pub mod nim;
pub mod nimber_search;
pub mod periodicity;
pub mod position;
pub mod rules;
pub mod sparse_space;
pub mod state_graph;
pub mod two_heap;

#[cfg(feature = "python")]
mod bindings;

pub use error::{Error, Result};
