//! Error lines and exit codes: every failure of every command (also an MPI rank's, before it
//! ends the job) is one line on standard error, safe for a terminal, and exit code 2.

/// Exit code for bad input and failures.
pub(crate) const EXIT_ERROR: u8 = 2;

/// Prints `err` as the one error line every failure gets (also an MPI rank's, before it ends
/// the job): its chain on one line, made safe for a terminal.
pub(crate) fn print_error(err: &anyhow::Error) {
    eprintln!("grundy: error: {}", printable(&one_line(&chain(err))));
}

/// `err` and its causes joined by `: `, as `{err:#}` writes them, but a cause that its error's
/// message already says is said once (issue 50: "Address already in use (os error 98): Address
/// already in use (os error 98)": many library errors name their cause in their own words).
pub(crate) fn chain(err: &anyhow::Error) -> String {
    let mut said: Vec<String> = Vec::new();
    for cause in err.chain() {
        let text = cause.to_string();
        if !said.iter().any(|before| before.contains(&text)) {
            said.push(text);
        }
    }
    said.join(": ")
}

/// `message` made safe for a terminal: control characters escaped (a name from a spec file
/// must not recolour or clear the user's terminal), every run of more than `LONGEST_WORD`
/// characters without a space cut to its start, saying how much was left out (a 50 MB CSV cell
/// made a 50 MB error line; issue 19), and the whole line kept to about `LONGEST_LINE`
/// characters: its start (what was refused) and its end (usually why), with how much was left
/// out between (issue 59: inputs with spaces were echoed whole, a 6 MB line for a CSV cell).
pub(crate) fn printable(message: &str) -> String {
    const LONGEST_WORD: usize = 200;
    const LONGEST_LINE: usize = 600;
    const KEPT_END: usize = 200;
    let out = escaped_words(message, LONGEST_WORD);
    let chars = out.chars().count();
    if chars <= LONGEST_LINE {
        return out;
    }
    let head: String = out.chars().take(LONGEST_LINE - KEPT_END).collect();
    let tail: String = out.chars().skip(chars - KEPT_END).collect();
    format!("{head}…({} characters left out)…{tail}", chars - LONGEST_LINE)
}

/// `message` with control characters escaped and runs of more than `longest` characters
/// without a space cut to their start.
fn escaped_words(message: &str, longest: usize) -> String {
    let mut out = String::with_capacity(message.len().min(4096));
    for (k, word) in message.split(' ').enumerate() {
        if k > 0 {
            out.push(' ');
        }
        let chars = word.chars().count();
        for c in word.chars().take(longest) {
            if c.is_control() {
                out.extend(c.escape_default());
            } else {
                out.push(c);
            }
        }
        if chars > longest {
            out.push_str(&format!("…({} more characters)", chars - longest));
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 59, item 11: a message with spaces is kept to about 600 characters as a whole,
    /// its start and its end kept (a CSV cell of 3 M words made a 6.0 MB line).
    #[test]
    fn error_lines_are_cut_as_a_whole_keeping_their_start_and_end() {
        let huge = format!("bad cell `{}`: not a number", vec!["1"; 3_000_000].join(" "));
        let line = printable(&huge);
        assert!(line.chars().count() < 700, "{} characters", line.chars().count());
        assert!(line.starts_with("bad cell `1 1 1"), "{line}");
        assert!(line.ends_with("1 1`: not a number"), "{line}");
        assert!(line.contains("characters left out)"), "{line}");
        // Short messages are as they were, control characters escaped.
        assert_eq!(printable("a \u{1b}[2J b"), "a \\u{1b}[2J b");
        let words = format!("x {}", "y".repeat(300));
        assert_eq!(printable(&words), format!("x {}…(100 more characters)", "y".repeat(200)));
    }

    #[derive(Debug)]
    struct SaysItsCause(std::io::Error);

    impl std::fmt::Display for SaysItsCause {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "cannot listen on 127.0.0.1:80: {}", self.0)
        }
    }

    impl std::error::Error for SaysItsCause {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.0)
        }
    }

    #[test]
    fn a_cause_is_said_once() {
        let io = || std::io::Error::from(std::io::ErrorKind::AddrInUse);
        let err = anyhow::Error::new(SaysItsCause(io())).context("the view stopped");
        let text = chain(&err);
        assert_eq!(text.matches(&io().to_string()).count(), 1, "{text}");
        assert!(text.starts_with("the view stopped: cannot listen on 127.0.0.1:80: "), "{text}");
        // Causes that add something are all kept.
        let err = anyhow::Error::new(io()).context("cannot bind").context("the view stopped");
        assert_eq!(chain(&err), format!("the view stopped: cannot bind: {}", io()));
    }
}
