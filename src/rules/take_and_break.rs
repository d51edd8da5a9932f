//! Take-and-break codes `d0.d1d2...` (octal and hexadecimal games).
//!
//! Digit `d_j` is a sum of `2^k` over the heap counts `k` that may remain after removing `j` tokens
//! (`k = 0`: the `j` tokens were the whole heap). Extensions understood, as in CGSuite: `!` after a
//! digit (the resulting heaps must be pairwise unequal), a bracketed final group repeated forever
//! (`0.[3]` is Nim) and explicit heap counts in braces (`0.{1,2}` is `0.6`).
//!
//! ```
//! use grundy::rules::TakeAndBreak;
//! let kayles: TakeAndBreak = ".77".parse().unwrap();
//! assert_eq!(kayles.to_string(), "0.77");
//! assert_eq!(TakeAndBreak::parse("4!.0").unwrap().to_string(), "4!.0");
//! ```

use crate::error::{Error, Result};
use std::fmt;
use std::str::FromStr;

/// The most heaps one move may leave; hexadecimal digits describe up to three.
pub const MAX_HEAPS: u32 = 3;

/// One digit of a code: which heap counts (bit k = k heaps) may remain, and whether they must differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Digit {
    /// Bit k set: leaving exactly k non-empty heaps is allowed (k = 0..=3).
    pub counts: u8,
    /// `!`: the heaps left must be pairwise unequal.
    pub unequal: bool,
}

impl Digit {
    /// The digit 0: no move.
    pub const ZERO: Digit = Digit {
        counts: 0,
        unequal: false,
    };

    /// Whether leaving `k` heaps is allowed.
    #[inline]
    pub fn allows(self, k: u32) -> bool {
        self.counts >> k & 1 == 1
    }
}

/// A take-and-break game given by its code.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TakeAndBreak {
    /// `d0`: moves that remove nothing (may only split).
    pub d0: Digit,
    /// `d1, d2, ...` before any repeated group.
    pub prefix: Vec<Digit>,
    /// The bracketed group repeated forever after the prefix (empty: none).
    pub cycle: Vec<Digit>,
}

impl TakeAndBreak {
    /// Parses a code; errors name the offending character and its position.
    ///
    /// # Errors
    /// [`Error::Parse`] with the message, the code and the position.
    pub fn parse(code: &str) -> Result<Self> {
        Parser {
            chars: code.char_indices().collect(),
            at: 0,
            code,
        }
        .parse()
    }

    /// The digit for removing `j` tokens.
    #[inline]
    pub fn digit(&self, j: u64) -> Digit {
        if j == 0 {
            return self.d0;
        }
        let i = (j - 1) as usize;
        if j <= self.prefix.len() as u64 {
            self.prefix[i]
        } else if self.cycle.is_empty() {
            Digit::ZERO
        } else {
            let off = (j - 1 - self.prefix.len() as u64) % self.cycle.len() as u64;
            self.cycle[off as usize]
        }
    }

    /// Largest heap count any digit allows (0 to 3).
    pub fn max_heaps(&self) -> u32 {
        self.all_digits()
            .map(|d| (8 - d.counts.leading_zeros()).saturating_sub(1))
            .max()
            .unwrap_or(0)
    }

    fn all_digits(&self) -> impl Iterator<Item = Digit> + '_ {
        std::iter::once(self.d0)
            .chain(self.prefix.iter().copied())
            .chain(self.cycle.iter().copied())
    }

    /// Whether some digit allows leaving `k` heaps (with the given `!` flag).
    pub fn uses(&self, k: u32, unequal: bool) -> bool {
        self.all_digits()
            .any(|d| d.allows(k) && d.unequal == unequal)
    }

    /// True for octal games: no digit allows three heaps.
    pub fn is_octal(&self) -> bool {
        self.all_digits().all(|d| d.counts < 8)
    }

    /// True when the code has a repeated group (arbitrarily many tokens may be removed).
    pub fn is_infinite(&self) -> bool {
        !self.cycle.is_empty()
    }

    /// Index of the last non-zero digit of a finite code (`t` in the periodicity theorem).
    pub fn last_nonzero(&self) -> usize {
        self.prefix
            .iter()
            .rposition(|d| d.counts != 0)
            .map_or(0, |i| i + 1)
    }

    /// Whether leaving the heaps `parts` (in any order) is a move from a heap of `n`.
    pub fn is_option(&self, n: u64, parts: &[u64]) -> bool {
        if parts.len() > 3 || parts.contains(&0) {
            return false;
        }
        let Some(sum) = parts.iter().try_fold(0u64, |a, &b| a.checked_add(b)) else {
            return false;
        };
        if sum > n {
            return false;
        }
        let d = self.digit(n - sum);
        if !d.allows(parts.len() as u32) || (n == sum && parts.len() < 2) {
            return false;
        }
        let mut p = parts.to_vec();
        p.sort_unstable();
        !(d.unequal && p.windows(2).any(|w| w[0] == w[1]))
    }

    /// Brings the code to its canonical form: shortest repeated group, no redundant prefix digits,
    /// no trailing zero digits.
    fn normalise(&mut self) {
        for d in std::iter::once(&mut self.d0)
            .chain(self.prefix.iter_mut())
            .chain(self.cycle.iter_mut())
        {
            // `!` only restricts moves that leave two or more heaps.
            if d.counts < 4 {
                d.unequal = false;
            }
        }
        if self.cycle.iter().all(|d| d.counts == 0) {
            self.cycle.clear();
        }
        if !self.cycle.is_empty() {
            // Shortest period of the repeated group.
            let l = self.cycle.len();
            let p =
                (1..=l).find(|&p| l % p == 0 && (p..l).all(|i| self.cycle[i] == self.cycle[i - p]));
            self.cycle.truncate(p.unwrap_or(l));
            // A prefix that ends with the group's last digit is part of the repetition.
            while self
                .prefix
                .last()
                .is_some_and(|d| *d == *self.cycle.last().unwrap())
            {
                self.prefix.pop();
                self.cycle.rotate_right(1);
            }
        } else {
            while self.prefix.last().is_some_and(|d| d.counts == 0) {
                self.prefix.pop();
            }
        }
    }
}

impl FromStr for TakeAndBreak {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Self::parse(s)
    }
}

fn write_digit(f: &mut fmt::Formatter<'_>, d: Digit) -> fmt::Result {
    write!(f, "{:X}", d.counts)?;
    if d.unequal {
        f.write_str("!")?;
    }
    Ok(())
}

impl fmt::Display for TakeAndBreak {
    /// The canonical code: `0.77`, `4!.0`, `0.[3]`, hexadecimal digits in upper case.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_digit(f, self.d0)?;
        f.write_str(".")?;
        if self.prefix.is_empty() && self.cycle.is_empty() {
            return f.write_str("0");
        }
        for d in &self.prefix {
            write_digit(f, *d)?;
        }
        if !self.cycle.is_empty() {
            f.write_str("[")?;
            for d in &self.cycle {
                write_digit(f, *d)?;
            }
            f.write_str("]")?;
        }
        Ok(())
    }
}

/// The most characters of a code that a parse error's message quotes.
const QUOTED: usize = 60;

struct Parser<'a> {
    chars: Vec<(usize, char)>,
    at: usize,
    code: &'a str,
}

impl Parser<'_> {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).map(|c| c.1)
    }

    /// The code as a message quotes it: in full up to [`QUOTED`] characters, else its start and
    /// its length (a 100,000-character code must not make a 150 KB message; the error keeps the
    /// whole code in its `code` field).
    fn quoted(&self) -> String {
        if self.chars.len() <= QUOTED {
            return format!("{:?}", self.code);
        }
        let cut = self.chars[QUOTED].0;
        format!(
            "{:?}... ({} characters)",
            &self.code[..cut],
            self.chars.len()
        )
    }

    /// Position in characters (not bytes), which is what a user counts.
    fn err<T>(&self, message: String) -> Result<T> {
        self.err_at(message, self.at)
    }

    /// A parse error at character `position` of the code.
    fn err_at<T>(&self, message: String, position: usize) -> Result<T> {
        Err(Error::Parse {
            message,
            code: self.code.to_string(),
            position,
        })
    }

    fn unexpected<T>(&self, expected: &str) -> Result<T> {
        match self.peek() {
            Some(c) => self.err(format!(
                "invalid character {c:?} at position {} in take-and-break code {}: expected {expected}",
                self.at, self.quoted()
            )),
            None => self.err(format!(
                "take-and-break code {} ends too early at position {}: expected {expected}",
                self.quoted(), self.at
            )),
        }
    }

    fn parse(mut self) -> Result<TakeAndBreak> {
        if self.code.trim().is_empty() {
            return self.err("empty take-and-break code: expected something like '0.77'".into());
        }
        let d0 = if self.peek() == Some('.') {
            Digit::ZERO
        } else {
            self.digit()?
        };
        if d0.counts & 3 != 0 {
            return self.err_at(
                format!(
                    "digit before the point of {} must be 0, 4, 8 or C: a move that removes nothing \
                     must split the heap into two or three heaps",
                    self.quoted()
                ),
                0,
            );
        }
        if self.peek() != Some('.') {
            return self.unexpected("'.'");
        }
        self.at += 1;
        let mut prefix = Vec::new();
        let mut cycle = Vec::new();
        while let Some(c) = self.peek() {
            if c == '[' {
                let open = self.at;
                self.at += 1;
                while self.peek().is_some_and(|c| c != ']') {
                    cycle.push(self.digit()?);
                }
                if self.peek().is_none() {
                    return self.err_at(
                        format!(
                            "unclosed '[' at position {open} in take-and-break code {}",
                            self.quoted()
                        ),
                        open,
                    );
                }
                if cycle.is_empty() {
                    return self.err(format!(
                        "empty repeated group: ']' at position {} closes the '[' at position {open} in \
                         take-and-break code {}",
                        self.at, self.quoted()
                    ));
                }
                self.at += 1;
                if self.peek().is_some() {
                    return self.unexpected("the end of the code after the repeated group");
                }
                break;
            }
            prefix.push(self.digit()?);
        }
        let mut rule = TakeAndBreak { d0, prefix, cycle };
        rule.normalise();
        Ok(rule)
    }

    /// One digit: a hexadecimal character or `{k,...}`, then an optional `!`.
    fn digit(&mut self) -> Result<Digit> {
        let counts = match self.peek() {
            Some('{') => self.braces()?,
            Some(c) if c.is_ascii_hexdigit() => {
                self.at += 1;
                c.to_digit(16).unwrap() as u8
            }
            _ => return self.unexpected("a hexadecimal digit, '{', '[' or '!'"),
        };
        let unequal = if self.peek() == Some('!') {
            self.at += 1;
            true
        } else {
            false
        };
        Ok(Digit { counts, unequal })
    }

    /// `{2,3}`: explicit heap counts.
    fn braces(&mut self) -> Result<u8> {
        let open = self.at;
        self.at += 1;
        let mut counts = 0u8;
        loop {
            match self.peek() {
                Some(c) if c.is_ascii_digit() => {
                    let k = c.to_digit(10).unwrap();
                    if k > MAX_HEAPS {
                        return self.err(format!(
                            "heap count {k} at position {} in take-and-break code {}: at most {MAX_HEAPS} \
                             heaps per move are supported",
                            self.at, self.quoted()
                        ));
                    }
                    counts |= 1 << k;
                    self.at += 1;
                }
                _ => return self.unexpected("a heap count 0 to 3"),
            }
            match self.peek() {
                Some(',') => self.at += 1,
                Some('}') => {
                    self.at += 1;
                    return Ok(counts);
                }
                None => {
                    return self.err_at(
                        format!(
                            "unclosed '{{' at position {open} in take-and-break code {}",
                            self.quoted()
                        ),
                        open,
                    );
                }
                _ => return self.unexpected("',' or '}'"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(s: &str) -> String {
        TakeAndBreak::parse(s).unwrap().to_string()
    }

    #[test]
    fn canonical_forms() {
        assert_eq!(canon(".77"), "0.77");
        assert_eq!(canon("0.770"), "0.77");
        assert_eq!(canon("0.4f"), "0.4F");
        assert_eq!(canon("4.0"), "4.0");
        assert_eq!(canon("4!.0"), "4!.0");
        assert_eq!(canon("0.[3]"), "0.[3]");
        assert_eq!(canon("0.3[33]"), "0.[3]");
        assert_eq!(canon("0.1[37]"), "0.1[37]");
        assert_eq!(canon("0.7[37]"), "0.[73]");
        assert_eq!(canon("0.{1,2}"), "0.6");
        assert_eq!(canon("0.[0]"), "0.0");
        assert_eq!(canon("0.7!"), "0.7!");
        assert_eq!(canon("0.3!"), "0.3");
        assert_eq!(canon("0.3![3]"), "0.[3]");
    }

    #[test]
    fn digits() {
        let r = TakeAndBreak::parse("0.1[37]").unwrap();
        let d: Vec<u8> = (0..7).map(|j| r.digit(j).counts).collect();
        assert_eq!(d, vec![0, 1, 3, 7, 3, 7, 3]);
        assert_eq!(TakeAndBreak::parse("0.4F").unwrap().max_heaps(), 3);
        assert_eq!(TakeAndBreak::parse("0.77").unwrap().max_heaps(), 2);
        assert_eq!(TakeAndBreak::parse("0.137").unwrap().last_nonzero(), 3);
    }

    #[test]
    fn a_long_code_is_quoted_cut_and_kept_whole() {
        // 100,000 characters used to be quoted in full (a 150 KB message).
        let code = format!("0.{}", "é".repeat(100_000));
        match TakeAndBreak::parse(&code) {
            Err(Error::Parse {
                message,
                code: kept,
                position,
            }) => {
                assert!(message.len() < 300, "{} bytes", message.len());
                assert!(message.contains("... (100002 characters)"), "{message}");
                assert_eq!((kept, position), (code, 2));
            }
            other => panic!("{other:?}"),
        }
        let short = TakeAndBreak::parse("0.7x").unwrap_err().to_string();
        assert!(short.contains("\"0.7x\""), "{short}");
    }

    #[test]
    fn errors_name_the_position() {
        let pos = |s: &str| match TakeAndBreak::parse(s) {
            Err(Error::Parse { position, .. }) => position,
            other => panic!("{s}: {other:?}"),
        };
        assert_eq!(pos("0.7x"), 3);
        assert_eq!(pos(""), 0);
        assert_eq!(pos("0..7"), 2);
        assert_eq!(pos("0.[37"), 2);
        assert_eq!(pos("0.[]"), 3);
        assert_eq!(pos("1.0"), 0);
        assert_eq!(pos("0.{4}"), 3);
        assert_eq!(pos("0.[3]7"), 5);
        assert_eq!(pos("077"), 1);
    }
}
