//! Sizes of memory as people write them (`512M`, `2G`), and the budget `GRUNDY_MAX_MEMORY` sets.

use std::fmt;

/// The environment variable that sets a memory budget, as `--max-memory` does.
pub const BUDGET_VARIABLE: &str = "GRUNDY_MAX_MEMORY";

/// Text that is not a size of memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SizeError {
    /// The text, trimmed.
    pub text: String,
    /// What is wrong with it.
    pub kind: SizeErrorKind,
    /// Where it came from: the environment variable that held it, if one did.
    pub variable: Option<&'static str>,
}

/// What is wrong with a size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SizeErrorKind {
    /// The unit after the number is not K, M, G or T (with or without B or iB).
    Unit,
    /// There is no number before the unit.
    Number,
    /// Zero, or more than 16 EiB.
    Range,
    /// Not even text (an environment variable that is not UTF-8).
    NotText,
}

impl fmt::Display for SizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(variable) = self.variable {
            if self.kind == SizeErrorKind::NotText {
                return write!(f, "{variable} is not a size (not even text)");
            }
            write!(f, "{variable}: ")?;
        }
        let text = &self.text;
        match self.kind {
            SizeErrorKind::Unit => {
                write!(f, "`{text}` is not a size such as 512M or 2G (unknown unit)")
            }
            SizeErrorKind::Number | SizeErrorKind::NotText => {
                write!(f, "`{text}` is not a size such as 512M or 2G")
            }
            SizeErrorKind::Range => write!(f, "`{text}` is not a size between one byte and 16 EiB"),
        }
    }
}

impl std::error::Error for SizeError {}

/// The budget `GRUNDY_MAX_MEMORY` sets, if any.
///
/// # Errors
/// The variable is set to something that is not a size.
pub fn budget_from_env() -> Result<Option<u64>, SizeError> {
    let in_variable = |err: SizeError| SizeError { variable: Some(BUDGET_VARIABLE), ..err };
    match std::env::var(BUDGET_VARIABLE) {
        Ok(text) => parse_bytes(&text).map(Some).map_err(in_variable),
        Err(std::env::VarError::NotPresent) => Ok(None),
        Err(std::env::VarError::NotUnicode(_)) => Err(in_variable(SizeError {
            text: String::new(),
            kind: SizeErrorKind::NotText,
            variable: None,
        })),
    }
}

/// A size such as `1500000`, `512M`, `2G`, `1.5GiB` or `800MB` (K, M, G, T: powers of 1024,
/// with or without `B` or `iB`).
///
/// # Errors
/// The text is not such a size, or is zero.
pub fn parse_bytes(text: &str) -> Result<u64, SizeError> {
    let trimmed = text.trim();
    let refuse = |kind| SizeError { text: trimmed.to_string(), kind, variable: None };
    let split = trimmed.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(split);
    let shift = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => return Err(refuse(SizeErrorKind::Unit)),
    };
    let value: f64 = number.parse().map_err(|_| refuse(SizeErrorKind::Number))?;
    let bytes = value * (1u64 << shift) as f64;
    if !(1.0..1.8e19).contains(&bytes) {
        return Err(refuse(SizeErrorKind::Range));
    }
    Ok(bytes as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        for (text, bytes) in [
            ("1500000", 1_500_000),
            ("512M", 512 << 20),
            ("2G", 2 << 30),
            ("1.5GiB", 3 << 29),
            ("800mb", 800 << 20),
            (" 4 K ", 4096),
        ] {
            assert_eq!(parse_bytes(text), Ok(bytes), "{text}");
        }
        for text in ["", "G", "12Q", "-1G", "0", "1e3", "99999999999T"] {
            assert!(parse_bytes(text).is_err(), "{text}");
        }
    }
}
