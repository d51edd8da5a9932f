//! Memory checks made before large allocations, so that a request too big for the machine fails
//! with a clear error instead of being killed by the operating system.
//!
//! The environment variable `GRUNDY_MEMORY_LIMIT` (bytes, read at every check) caps the memory
//! this process may hold: the memory available is then at most the limit less the process's
//! resident set. It lets a test (or a shared machine) see the `MemoryError` paths without filling
//! the machine.

use crate::error::{Error, Result};

/// The environment variable that caps this process's memory (bytes).
pub const LIMIT_VAR: &str = "GRUNDY_MEMORY_LIMIT";

/// Bytes of memory available to new allocations (Linux: `MemAvailable`, less what
/// [`LIMIT_VAR`] leaves), if known.
pub fn available() -> Option<u64> {
    let machine = machine_available();
    match limit() {
        Some(cap) => {
            let left = cap.saturating_sub(resident().unwrap_or(0));
            Some(machine.map_or(left, |m| m.min(left)))
        }
        None => machine,
    }
}

/// The machine's `MemAvailable`, if known.
fn machine_available() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// The cap set by [`LIMIT_VAR`], if set and a number.
fn limit() -> Option<u64> {
    parse_limit(&std::env::var(LIMIT_VAR).ok()?)
}

fn parse_limit(s: &str) -> Option<u64> {
    s.trim().parse().ok()
}

/// This process's resident set in bytes (Linux: `VmRSS` of `/proc/self/status`).
fn resident() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = text.lines().find(|l| l.starts_with("VmRSS:"))?;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limit_parses_bytes_only() {
        assert_eq!(parse_limit(" 1000000 "), Some(1_000_000));
        assert_eq!(parse_limit("1G"), None);
        assert_eq!(parse_limit(""), None);
    }

    #[test]
    fn resident_set_is_known_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(resident().unwrap() > 0);
        }
    }
}
