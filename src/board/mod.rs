//! Impartial games on small boards and graphs, each position a bitboard (one bit a cell or vertex
//! of a `u128`): Cram, Node Kayles, Arc Kayles and Chomp.
//!
//! A game is a [`Board`]: the options of a position, its independent components (regions of the
//! board that no move connects, whose values XOR), and a canonical key of a component (equal for
//! components that are the same game up to the board's symmetries). The search engine
//! [`crate::nimber_search`] computes one position's value from these three alone.
//!
//! ```
//! use grundy::board::{Board, Cram};
//! use grundy::control::NoControl;
//! use grundy::nimber_search::Search;
//! let cram = Cram::new(4, 4).unwrap();
//! let mut search = Search::new(&cram, 1 << 20).unwrap();
//! assert_eq!(search.value(cram.empty(), &NoControl).unwrap(), 0); // even x even: 0
//! // Two separate 1 x 2 strips are two single moves: *1 + *1 = 0; one strip alone is *1.
//! let strips = cram.grid().cell(0, 0) | cram.grid().cell(0, 1) | cram.grid().cell(3, 0) | cram.grid().cell(3, 1);
//! let mut parts = Vec::new();
//! cram.components(strips, &mut parts);
//! assert_eq!(parts.len(), 2);
//! assert_eq!(search.value(strips, &NoControl).unwrap(), 0);
//! ```

mod arc_kayles;
mod bits;
#[cfg(test)]
pub(crate) mod brute;
mod chomp;
mod cram;
mod graph;
mod grid;
mod iso;
mod node_kayles;
mod regions;

pub use arc_kayles::ArcKayles;
pub use chomp::Chomp;
pub use cram::Cram;
pub use graph::SimpleGraph;
pub use grid::{Grid, MAX_CELLS};
pub use node_kayles::NodeKayles;
pub use regions::{estimate_entries, tabulate_regions, RegionTable, REFUSE_FACTOR};

/// What a game knows of a component's value without searching it ([`Board::known`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fact {
    /// Nothing.
    Unknown,
    /// Its value.
    Exact(u32),
    /// Values below 32 it does not have (bit `v` for value `v`): `Not(1)` for a first-player
    /// win.
    Not(u32),
}

/// An impartial game whose positions are sets of at most 128 cells (a `u128` bitboard).
///
/// A position may hold several components; a component is a position that [`Board::components`]
/// gives back whole. The search relies on these rules:
/// - every option of a position is a position of the same game;
/// - the value of a position is the XOR of the values of its components, and a position
///   without components has value 0 (cells that no move can use are left out);
/// - two components with the same [`Board::key`] have the same value.
pub trait Board: Sync {
    /// The options of `pos`, pushed onto `out` (left as it was when `pos` has none).
    fn options(&self, pos: u128, out: &mut Vec<u128>);

    /// The options of `pos` in the order the search tries them (those likely to settle a
    /// question soonest first), pushed onto `out`: by default [`Board::options`]'s order.
    fn ordered_options(&self, pos: u128, out: &mut Vec<u128>) {
        self.options(pos, out);
    }

    /// The independent components of `pos`, pushed onto `out`.
    fn components(&self, pos: u128, out: &mut Vec<u128>);

    /// The canonical key of `component`: the same for components that are the same game up to
    /// the game's symmetries (at least the component itself: different components may share a
    /// key only if they have the same value).
    fn key(&self, component: u128) -> u128;

    /// What the game knows of `component`'s value without a search (a theorem, such as a
    /// strategy that wins it): [`Fact::Unknown`] by default. It must be right whenever it says
    /// something; the search asks it once for each component its table knows nothing of.
    fn known(&self, _component: u128) -> Fact {
        Fact::Unknown
    }

    /// A bound on the keys: every [`Board::key`] is below `2^key_bits` (128 by default). At
    /// most 64 lets the search keep 64-bit keys, in smaller table entries.
    fn key_bits(&self) -> u32 {
        128
    }

    /// The value of every component of `size` cells ([`Board::size`]), when the size alone
    /// tells it: `None` by default. The search asks it before making a part's key, so that
    /// such parts (Cram's dominoes: nearly half the parts a Cram search meets) cost no key
    /// and no table probe.
    fn value_of_size(&self, _size: u32) -> Option<u32> {
        None
    }

    /// A measure of how much work a component is (the search solves the smaller components of
    /// a sum first, and the table keeps the larger ones): its number of cells.
    fn size(&self, component: u128) -> u32 {
        component.count_ones()
    }
}
