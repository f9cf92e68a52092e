//! Lines of text read within a bound: a file of one endless line (`/dev/zero`, a 300 MB file
//! without a newline) is refused after `limit` bytes, not held whole.

use std::io::BufRead;

/// What [`read_line_within`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Line {
    /// A whole line, at most the limit long (its `\n` and a `\r` before it taken off).
    Whole,
    /// A line longer than the limit: its first `limit` bytes are kept, and the input stands
    /// right after them (the caller refuses the file, or skips the line with
    /// [`skip_line_within`]).
    Longer,
}

/// Reads the next line of `input` into `line` (cleared first), holding at most `limit` bytes of
/// it; `None` at the end of the input.
///
/// # Errors
/// The input's.
pub fn read_line_within(
    input: &mut impl BufRead,
    line: &mut Vec<u8>,
    limit: usize,
) -> std::io::Result<Option<Line>> {
    line.clear();
    let mut any = false;
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            return Ok(any.then_some(Line::Whole).map(|whole| trimmed(line, whole)));
        }
        any = true;
        let room = limit - line.len();
        match buffer.iter().position(|&b| b == b'\n') {
            Some(end) if end <= room => {
                line.extend_from_slice(&buffer[..end]);
                input.consume(end + 1);
                return Ok(Some(trimmed(line, Line::Whole)));
            }
            _ if buffer.len() > room => {
                line.extend_from_slice(&buffer[..room]);
                input.consume(room);
                return Ok(Some(Line::Longer));
            }
            _ => {
                let taken = buffer.len();
                line.extend_from_slice(buffer);
                input.consume(taken);
            }
        }
    }
}

/// Skips the rest of a line of `input` without holding it; `false` when it runs on past `limit`
/// more bytes (where the input then stands).
///
/// # Errors
/// The input's.
pub fn skip_line_within(input: &mut impl BufRead, limit: u64) -> std::io::Result<bool> {
    let mut skipped = 0u64;
    loop {
        let buffer = input.fill_buf()?;
        if buffer.is_empty() {
            return Ok(true);
        }
        if let Some(end) = buffer.iter().position(|&b| b == b'\n') {
            input.consume(end + 1);
            return Ok(true);
        }
        let taken = buffer.len();
        input.consume(taken);
        skipped += taken as u64;
        if skipped > limit {
            return Ok(false);
        }
    }
}

fn trimmed(line: &mut Vec<u8>, found: Line) -> Line {
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &[u8], limit: usize) -> Vec<(String, Line)> {
        let mut input = std::io::BufReader::with_capacity(4, text);
        let mut line = Vec::new();
        let mut found = Vec::new();
        while let Some(kind) = read_line_within(&mut input, &mut line, limit).unwrap() {
            found.push((String::from_utf8_lossy(&line).into_owned(), kind));
            if kind == Line::Longer {
                assert!(skip_line_within(&mut input, 1 << 20).unwrap());
            }
        }
        found
    }

    #[test]
    fn lines_are_read_whole_or_cut_at_the_limit() {
        use Line::{Longer, Whole};
        let got = lines(b"ab\r\ncdefghij\n\nk", 5);
        let want = [("ab", Whole), ("cdefg", Longer), ("", Whole), ("k", Whole)];
        assert_eq!(got, want.map(|(s, l)| (s.to_string(), l)));
        assert_eq!(lines(b"abcde\n", 5), [("abcde".to_string(), Whole)]);
        assert!(lines(b"", 5).is_empty());
    }

    #[test]
    fn an_endless_line_is_not_held() {
        let mut zeros = std::io::BufReader::new(std::io::repeat(0));
        let mut line = Vec::new();
        assert_eq!(read_line_within(&mut zeros, &mut line, 1000).unwrap(), Some(Line::Longer));
        assert_eq!(line.len(), 1000);
        assert!(!skip_line_within(&mut zeros, 1 << 16).unwrap());
    }
}
