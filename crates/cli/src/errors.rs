//! Error lines and exit codes: every failure of every command (also an MPI rank's, before it
//! ends the job) is one line on standard error, safe for a terminal, and exit code 2.

/// Exit code for bad input and failures.
pub(crate) const EXIT_ERROR: u8 = 2;

/// Prints `err` as the one error line every failure gets (also an MPI rank's, before it ends
/// the job): its chain on one line, made safe for a terminal.
pub(crate) fn print_error(err: &anyhow::Error) {
    eprintln!("grundy: error: {}", printable(&one_line(&format!("{err:#}"))));
}

/// `message` made safe for a terminal: control characters escaped (a name from a spec file
/// must not recolour or clear the user's terminal) and every run of more than
/// `LONGEST_WORD` characters without a space cut to its start, saying how much was left out (a
/// 50 MB CSV cell made a 50 MB error line). Issue 19.
pub(crate) fn printable(message: &str) -> String {
    const LONGEST_WORD: usize = 200;
    let mut out = String::with_capacity(message.len().min(4096));
    for (k, word) in message.split(' ').enumerate() {
        if k > 0 {
            out.push(' ');
        }
        let chars = word.chars().count();
        for c in word.chars().take(LONGEST_WORD) {
            if c.is_control() {
                out.extend(c.escape_default());
            } else {
                out.push(c);
            }
        }
        if chars > LONGEST_WORD {
            out.push_str(&format!("…({} more characters)", chars - LONGEST_WORD));
        }
    }
    out
}

/// Folds a multi-line message (clap's errors, a TOML syntax error's excerpt) into one line: its
/// lines trimmed and joined by `; ` (after a line that ends in `:`, by a space); clap's usage line
/// stays, as `usage: …` at the end, and its pointer to `--help` goes.
pub(crate) fn one_line(message: &str) -> String {
    let mut out = String::new();
    for line in message.lines().map(str::trim) {
        if line.is_empty() || line.starts_with("For more information") {
            continue;
        }
        if !out.is_empty() {
            out.push_str(if out.ends_with(':') { " " } else { "; " });
        }
        match line.strip_prefix("Usage:") {
            Some(usage) => {
                out.push_str("usage:");
                out.push_str(usage);
            }
            None => out.push_str(line),
        }
    }
    out
}
