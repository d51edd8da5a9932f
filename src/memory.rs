//! Memory checks made before large allocations, so that a request too big for the machine fails
//! with a clear error instead of being killed by the operating system.
//!
//! The environment variable `GRUNDY_MEMORY_LIMIT` (bytes, read at every check) caps the memory
//! this process may hold: the memory available is then at most the limit less the process's
//! resident set. It lets a test (or a shared machine) see the `MemoryError` paths without filling
//! the machine. A value that is not a number of bytes is refused at the first check, naming the
//! variable, rather than ignored.

use crate::error::{Error, Result};

/// The environment variable that caps this process's memory (bytes).
pub const LIMIT_VAR: &str = "GRUNDY_MEMORY_LIMIT";

/// Bytes of memory available to new allocations (Linux: `MemAvailable`, less what
/// [`LIMIT_VAR`] leaves), if known. A [`LIMIT_VAR`] that is not a number is not applied here:
/// [`check`] and [`limit`] refuse it.
pub fn available() -> Option<u64> {
    let machine = machine_available();
    match limit().ok().flatten() {
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

/// The cap set by [`LIMIT_VAR`]: None when it is unset or empty.
///
/// # Errors
/// [`Error::Invalid`] naming the variable when it is set to anything but a number of bytes.
pub fn limit() -> Result<Option<u64>> {
    limit_of(std::env::var(LIMIT_VAR))
}

/// The cap a value of [`LIMIT_VAR`] sets (see [`limit`]).
fn limit_of(var: std::result::Result<String, std::env::VarError>) -> Result<Option<u64>> {
    let text = match var {
        Ok(s) => s,
        Err(std::env::VarError::NotPresent) => return Ok(None),
        Err(std::env::VarError::NotUnicode(s)) => s.to_string_lossy().into_owned(),
    };
    if text.trim().is_empty() {
        return Ok(None);
    }
    parse_limit(&text).map(Some).ok_or_else(|| {
        Error::Invalid(format!(
            "the environment variable {LIMIT_VAR} = {text:?} is not a number of bytes: set it to \
             the bytes this process may hold (such as 8000000000), or unset it"
        ))
    })
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
/// [`Error::Memory`] with the bytes asked for and those available; [`Error::Invalid`] for a
/// [`LIMIT_VAR`] that is not a number.
pub fn check(bytes: u64) -> Result<()> {
    limit()?;
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
    fn a_limit_that_is_not_bytes_is_refused_naming_the_variable() {
        // The variable's values through limit_of: setting it would change what the other tests
        // of this process, running beside this one, see.
        for bad in ["abc", "1G", "-5", "1e9"] {
            let e = limit_of(Ok(bad.into())).unwrap_err().to_string();
            assert!(
                e.contains(LIMIT_VAR) && e.contains(&format!("{bad:?}")),
                "{e}"
            );
        }
        assert_eq!(limit_of(Ok(" 1000 ".into())), Ok(Some(1000)));
        assert_eq!(limit_of(Ok(" ".into())), Ok(None));
        assert_eq!(limit_of(Err(std::env::VarError::NotPresent)), Ok(None));
    }

    #[test]
    fn resident_set_is_known_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(resident().unwrap() > 0);
        }
    }
}
