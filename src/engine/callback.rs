//! Rules given as closures (the Python binding passes user callables here).
//!
//! ```
//! use grundy::engine::{AllowedFn, NoControl, Sequence};
//! // Remove an odd number of tokens.
//! let mut s = Sequence::new(AllowedFn::new(|_n, k| Ok(k % 2 == 1)));
//! s.extend(6, &NoControl).unwrap();
//! assert_eq!(s.values().to_vec(), vec![0, 1, 0, 1, 0, 1]);
//! ```

use super::{Step, Val};
use crate::bitset::MexSet;
use crate::error::Result;

/// "From a heap of n you may remove k" as a closure `f(n, k)`, asked for every 1 <= k <= n.
pub struct AllowedFn<F> {
    f: F,
    mex: MexSet,
}

impl<F: FnMut(u64, u64) -> Result<bool> + Send> AllowedFn<F> {
    pub fn new(f: F) -> Self {
        AllowedFn {
            f,
            mex: MexSet::new(),
        }
    }
}

impl<F: FnMut(u64, u64) -> Result<bool> + Send> Step for AllowedFn<F> {
    fn compute<T: Val>(&mut self, g: &[T]) -> Result<u32> {
        let n = g.len() as u64;
        self.mex.clear();
        for k in 1..=n {
            if (self.f)(n, k)? {
                self.mex.insert(g[(n - k) as usize].get());
            }
        }
        Ok(self.mex.mex())
    }
}
