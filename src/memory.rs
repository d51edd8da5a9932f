//! Memory checks made before large allocations, so that a request too big for the machine fails
//! with a clear error instead of being killed by the operating system.

use crate::error::{Error, Result};

/// Bytes of memory available to new allocations (Linux: `MemAvailable`), if known.
pub fn available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Fails with [`Error::Memory`] when `bytes` more would not fit in the available memory.
///
/// # Errors
/// [`Error::Memory`] with the bytes asked for and those available.
pub fn check(bytes: u64) -> Result<()> {
    // Where the figure is unknown, still refuse what no machine has (over 2^46 bytes = 64 TiB).
    let available = available().unwrap_or(1 << 46);
    if bytes > available {
        return Err(Error::Memory {
            requested: bytes,
            available,
        });
    }
    Ok(())
}
