//! Helpers shared by the engines' unit tests.

use super::{Sequence, TakeAndBreakExact};
use crate::control::{Control, NoControl};
use crate::error::{Error, Result};
use crate::rules::TakeAndBreak;

/// G(0..n) of a take-and-break code by the exact engine, the reference of the faster ones.
pub fn exact(code: &str, n: u64) -> Vec<u32> {
    let mut s = Sequence::new(TakeAndBreakExact::new(TakeAndBreak::parse(code).unwrap()));
    s.extend(n, &NoControl).unwrap();
    s.values().to_vec()
}

/// A control that interrupts once `done` reaches its count (at once for 0).
pub struct StopAt(pub u64);

impl Control for StopAt {
    fn check(&self, done: u64, _: u64) -> Result<()> {
        if done >= self.0 {
            Err(Error::Interrupted)
        } else {
            Ok(())
        }
    }
}

/// A control that interrupts every check once its instant has passed.
pub struct Deadline(pub std::time::Instant);

impl Control for Deadline {
    fn check(&self, _: u64, _: u64) -> Result<()> {
        if std::time::Instant::now() >= self.0 {
            Err(Error::Interrupted)
        } else {
            Ok(())
        }
    }
}

/// A rayon pool of `k` threads, for running a computation with a given thread count.
pub fn pool(k: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(k)
        .build()
        .unwrap()
}

/// A small xorshift generator for tests that want reproducible random inputs without a dependency.
pub struct Rng(pub u64);

impl Rng {
    /// A pseudo-random number in `0..n` (`n > 0`); the state must start non-zero.
    pub fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}
