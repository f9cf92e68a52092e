//! The time budgets a command is given: `--proof-seconds` and `--law-seconds`, the time of proofs
//! and of the law search, read here and bounded by the library. (Memory is the runtime's:
//! `crate::runtime_args`.)

/// `--proof-seconds`: a number, then the library's bound on it (`grundy_compute::Seconds`).
pub(crate) fn proof_seconds(text: &str) -> Result<grundy_compute::Seconds, String> {
    grundy_compute::Seconds::new(number(text)?, "a proof's time bound").map_err(|e| e.to_string())
}

/// `--law-seconds`: a number, then the library's bound on it.
pub(crate) fn law_seconds(
    text: &str,
) -> Result<grundy_laws::closed_form::LawOptions<'static>, String> {
    grundy_laws::closed_form::LawOptions::within(number(text)?).map_err(|err| err.to_string())
}

/// `text` as a number of seconds, which the library then bounds.
fn number(text: &str) -> Result<f64, String> {
    text.trim().parse().map_err(|_| format!("`{text}` is not a number"))
}
