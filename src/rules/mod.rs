//! What a move is: the heap rules the engines compute.

pub mod subtraction;
pub mod take_and_break;

pub use subtraction::Subtraction;
pub use take_and_break::{Digit, TakeAndBreak};
