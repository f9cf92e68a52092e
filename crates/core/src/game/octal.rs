//! Take-and-break codes (octal, and hexadecimal for three-heap moves).

use std::fmt;

/// Why a take-and-break code was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum OctalCodeError {
    /// The code holds a space (issue 28: `octal: 0.7` was said to have more than one digit
    /// before the `.`).
    #[error("`{code}` holds a space; write the code without one, e.g. `0.77`")]
    Space {
        /// The code as given.
        code: String,
    },
    /// There is no `.`.
    #[error("`{code}` has no `.`; write codes as `0.77`")]
    NoPoint {
        /// The code as given.
        code: String,
    },
    /// More than one digit before the `.`.
    #[error("`{code}` has more than one digit before the `.`")]
    WholePart {
        /// The code as given.
        code: String,
    },
    /// A hexadecimal digit in an octal code.
    #[error("digit `{digit}` in `{code}` is not an octal digit (0-7)")]
    NotOctal {
        /// The digit.
        digit: char,
        /// The code as given.
        code: String,
    },
    /// Something that is no digit at all.
    #[error("`{found}` in `{code}` is not a digit")]
    NotDigit {
        /// What was found.
        found: char,
        /// The code as given.
        code: String,
    },
    /// The digit before the `.` allows removing nothing and leaving a heap or none.
    #[error("the digit before the `.` in `{code}` may only allow splitting (4{}), since removing no stones must leave two or more heaps", if *hex { ", 8 or c" } else { "" })]
    RemovesNothing {
        /// The code as given.
        code: String,
        /// Whether hexadecimal digits were allowed.
        hex: bool,
    },
    /// Every digit is 0.
    #[error("`{code}` allows no move at all")]
    NoMove {
        /// The code as given.
        code: String,
    },
}

/// A take-and-break code `d0.d1d2…`.
///
/// Digit `dk` says what removing `k` stones from a heap may leave: bit 1 no heap, bit 2 one heap,
/// bit 4 two heaps, bit 8 (hexadecimal codes only) three heaps. `d0` may only hold bits 4 and 8:
/// splitting a heap without removing anything.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OctalCode {
    digits: Vec<u8>,
    hex: bool,
}

impl OctalCode {
    /// Parses an octal code such as `0.77`, `.07` or `4.0`.
    pub fn parse_octal(text: &str) -> Result<OctalCode, OctalCodeError> {
        OctalCode::parse(text, false)
    }

    /// Parses a code whose digits may be hexadecimal (`0-9`, `a-f`), so bit 8 (three heaps) is
    /// available.
    pub fn parse_hex(text: &str) -> Result<OctalCode, OctalCodeError> {
        OctalCode::parse(text, true)
    }

    fn parse(text: &str, hex: bool) -> Result<OctalCode, OctalCodeError> {
        let radix = if hex { 16 } else { 8 };
        if text.chars().any(char::is_whitespace) {
            return Err(OctalCodeError::Space { code: text.to_string() });
        }
        let (whole, fraction) = match text.split_once('.') {
            Some((whole, fraction)) => (whole, fraction),
            None => return Err(OctalCodeError::NoPoint { code: text.to_string() }),
        };
        let whole = if whole.is_empty() { "0" } else { whole };
        if whole.len() != 1 {
            return Err(OctalCodeError::WholePart { code: text.to_string() });
        }
        let mut digits = Vec::with_capacity(fraction.len() + 1);
        for c in whole.chars().chain(fraction.chars()) {
            match c.to_digit(radix) {
                Some(d) => digits.push(d as u8),
                None if c.is_ascii_hexdigit() && !hex => {
                    return Err(OctalCodeError::NotOctal { digit: c, code: text.to_string() })
                }
                None => return Err(OctalCodeError::NotDigit { found: c, code: text.to_string() }),
            }
        }
        if digits[0] & 0b11 != 0 {
            return Err(OctalCodeError::RemovesNothing { code: text.to_string(), hex });
        }
        while digits.len() > 1 && *digits.last().unwrap() == 0 {
            digits.pop();
        }
        if digits.iter().all(|&d| d == 0) {
            return Err(OctalCodeError::NoMove { code: text.to_string() });
        }
        Ok(OctalCode { digits, hex })
    }

    /// The digit for removing `k` stones (0 beyond the code's end).
    pub fn digit(&self, k: usize) -> u8 {
        self.digits.get(k).copied().unwrap_or(0)
    }

    /// The digits `d0, d1, …` without trailing zeros.
    pub fn digits(&self) -> &[u8] {
        &self.digits
    }

    /// The largest number of stones a move removes: the position of the last non-zero digit.
    pub fn last_digit_position(&self) -> usize {
        self.digits.len() - 1
    }
}

impl fmt::Display for OctalCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let radix = if self.hex { 16 } else { 8 };
        let digit = |d: u8| char::from_digit(d.into(), radix).unwrap();
        write!(f, "{}.", digit(self.digits[0]))?;
        if self.digits.len() == 1 {
            return write!(f, "0");
        }
        self.digits[1..].iter().try_for_each(|&d| write!(f, "{}", digit(d)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_prints() {
        for (text, shown) in
            [("0.77", "0.77"), (".07", "0.07"), ("0.1370", "0.137"), ("4.0", "4.0")]
        {
            assert_eq!(OctalCode::parse_octal(text).unwrap().to_string(), shown);
        }
        assert_eq!(OctalCode::parse_hex("0.f").unwrap().digit(1), 15);
    }

    #[test]
    fn rejects_malformed_codes() {
        for text in ["0.8", "077", "0.", "1.7", "12.3", "0.x", "0.00", "0.7-"] {
            assert!(OctalCode::parse_octal(text).is_err(), "{text}");
        }
        assert!(OctalCode::parse_hex("0.8").is_ok());
    }
}
