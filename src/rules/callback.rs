//! Rules the core does not know: a program outside it (a Python callable) answers for them,
//! heap by heap, through [`AllowedSource`] or [`OptionSource`].

use crate::error::Result;

/// "From a heap of `n` you may remove `k`", answered by a program outside the core.
pub trait AllowedSource: Send + Sync {
    /// Whether `k` tokens may be removed from a heap of `n` (asked for `1 <= k <= n`).
    ///
    /// # Errors
    /// What the program raised (the binding keeps it and returns [`Error::Interrupted`]).
    ///
    /// [`Error::Interrupted`]: crate::error::Error::Interrupted
    fn allowed(&self, n: u64, k: u64) -> Result<bool>;
}

/// The options of each heap, listed by a program outside the core.
pub trait OptionSource: Send + Sync {
    /// Fills `out` (empty) with the options of a heap of `n`, each the heaps it leaves.
    ///
    /// # Errors
    /// As [`AllowedSource::allowed`].
    fn options(&self, n: u64, out: &mut OptionList) -> Result<()>;
}

/// The options of one heap, each a list of heap sizes (its parts), stored flat so that filling
/// it again for the next heap allocates nothing.
#[derive(Debug, Default, Clone)]
pub struct OptionList {
    parts: Vec<u64>,
    /// `ends[i]`: where option `i`'s parts end in `parts`.
    ends: Vec<usize>,
}

impl OptionList {
    /// An empty list.
    pub fn new() -> Self {
        Self::default()
    }

    /// Removes every option (keeping the memory).
    pub fn clear(&mut self) {
        self.parts.clear();
        self.ends.clear();
    }

    /// Adds one option (an empty slice: the move leaves nothing).
    pub fn push(&mut self, parts: &[u64]) {
        self.parts.extend_from_slice(parts);
        self.end_option();
    }

    /// Adds a part to the option being built; [`end_option`](Self::end_option) closes it.
    pub fn push_part(&mut self, part: u64) {
        self.parts.push(part);
    }

    /// Closes the option being built (the parts pushed since the last one).
    pub fn end_option(&mut self) {
        self.ends.push(self.parts.len());
    }

    /// Number of options.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are no options.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The options, each as the slice of its parts.
    pub fn iter(&self) -> impl Iterator<Item = &[u64]> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(&self.ends).map(|(a, &b)| &self.parts[a..b])
    }
}

/// An option written the way Python writes a tuple: `(3,)`, `(1, 2)`, `()`.
pub fn tuple_repr(parts: &[u64]) -> String {
    match parts {
        [p] => format!("({p},)"),
        _ => format!(
            "({})",
            parts
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}
