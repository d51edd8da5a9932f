//! The options of a heap of a rule answered from outside the core (a Python callable): asked
//! for, then filtered by value.

use super::{Cursor, Found, Searcher};
use crate::error::Result;
use crate::rules::{AllowedSource, OptionList, OptionSource};

impl Searcher<'_, '_> {
    /// "May `k` be removed?" for each `k` from the cursor on, resumably.
    pub(super) fn allowed(
        mut self,
        src: &dyn AllowedSource,
        n: u64,
        from: Cursor,
    ) -> Result<Found> {
        let mut k = from.j.max(1);
        while k <= n {
            if self.stopped() {
                return Ok(self.done(Some(Cursor { k: 1, j: k })));
            }
            self.work += 1;
            let h = n - k;
            if src.allowed(n, k)? && self.target.is_none_or(|t| self.g(h) == t) {
                self.one(&[h]);
            }
            k += 1;
        }
        Ok(self.done(None))
    }

    /// Every option the source lists, each once (parts sorted), in one go: the source gives
    /// them all at once anyway.
    pub(super) fn listed(mut self, src: &dyn OptionSource, n: u64) -> Result<Found> {
        let mut out = OptionList::new();
        src.options(n, &mut out)?;
        let mut opts: Vec<Vec<u64>> = out
            .iter()
            .map(|o| {
                let mut o = o.to_vec();
                o.sort_unstable();
                o
            })
            .collect();
        opts.sort_unstable();
        opts.dedup();
        for o in opts {
            self.work += 1;
            if self
                .target
                .is_none_or(|t| o.iter().fold(0, |x, &h| x ^ self.g(h)) == t)
            {
                self.one(&o);
            }
        }
        Ok(self.done(None))
    }
}
