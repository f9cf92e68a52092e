//! Provenance on disk: the record (`grundy_core::Provenance`) made for a run, written as a CSV
//! comment header and last line or as a sidecar `FILE.json`, and found again for `grundy show`.

use crate::load::read_text_within;
use anyhow::{bail, Context, Result};
use grundy_compute::memory::MemoryPool;
use grundy_core::table::{read_line_within, skip_line_within, Line, PROVENANCE_VERSION};
use grundy_core::{CellKind, Game, Provenance};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

/// The first line of a CSV file's provenance; the record follows as one line of JSON.
const CSV_MARK: &str = "# grundy provenance (check it with `grundy show FILE`)";
/// The start of a CSV file's last line: the values' checksum, known once every row is written.
const CSV_CHECKSUM: &str = "# grundy values_sha256: ";
/// The largest provenance record read: a spec (at most [`grundy_core::SPEC_LIMIT_BYTES`]) and a
/// command line; a sidecar that is `/dev/zero` is refused at this.
const MAX_RECORD_BYTES: u64 = grundy_core::SPEC_LIMIT_BYTES + (16 << 20);

/// A command as a shell line: words with characters a shell would read (`?` in `octal:0.??`,
/// spaces) in single quotes.
pub(crate) fn shell_line(words: &[String]) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "_-./:=,@+%^".contains(c);
    let quoted: Vec<String> = words
        .iter()
        .map(|word| {
            if !word.is_empty() && word.chars().all(plain) {
                word.clone()
            } else {
                format!("'{}'", word.replace('\'', r"'\''"))
            }
        })
        .collect();
    quoted.join(" ")
}

/// The record of a table of `game` up to `max`, holding `cells`, computed by `engine`, by this
/// program and command, now; its checksum is left for the writer.
pub(crate) fn record(game: &Game, max: &[i64], cells: CellKind, engine: &str) -> Provenance {
    let spec = grundy_core::to_spec(game);
    Provenance {
        provenance: PROVENANCE_VERSION,
        game: game.name().to_string(),
        fingerprint: grundy_core::table::fingerprint(&spec),
        spec,
        size: max.to_vec(),
        cells: Provenance::cells_name(cells).to_string(),
        grundy_version: env!("CARGO_PKG_VERSION").to_string(),
        git_revision: env!("GRUNDY_GIT_REVISION").to_string(),
        command: command(),
        created: created(),
        engine: engine.to_string(),
        values_sha256: String::new(),
        record_sha256: String::new(),
    }
    .sealed()
}

/// The command line, the program named by its file name (not the path it was run from).
fn command() -> Vec<String> {
    let mut words: Vec<String> = std::env::args().collect();
    if let Some(program) = words.first_mut() {
        if let Some(name) = Path::new(program.as_str()).file_name() {
            *program = name.to_string_lossy().into_owned();
        }
    }
    words
}

/// Now, UTC, to the second; `SOURCE_DATE_EPOCH` (seconds) instead when set, so that a rebuild
/// of a dataset can reproduce its files byte for byte.
fn created() -> String {
    let now = std::env::var("SOURCE_DATE_EPOCH")
        .ok()
        .and_then(|text| text.trim().parse::<i64>().ok())
        .and_then(|seconds| time::OffsetDateTime::from_unix_timestamp(seconds).ok())
        .unwrap_or_else(time::OffsetDateTime::now_utc)
        .replace_nanosecond(0)
        .expect("0 ns is a valid time");
    now.format(&time::format_description::well_known::Rfc3339).expect("a UTC time formats")
}

/// Writes the header of a CSV file's provenance: `record` without its checksum.
pub(crate) fn write_csv_header(out: &mut dyn Write, record: &Provenance) -> std::io::Result<()> {
    writeln!(out, "{CSV_MARK}")?;
    writeln!(out, "# {}", record.to_json())
}

/// Writes the last line of a CSV file's provenance: the values' checksum.
pub(crate) fn write_csv_checksum(out: &mut dyn Write, values_sha256: &str) -> std::io::Result<()> {
    writeln!(out, "{CSV_CHECKSUM}{values_sha256}")
}

/// Where the provenance of a `.npy` or b-file lives: beside it, its name and `.json`.
pub(crate) fn sidecar_path(table: &Path) -> PathBuf {
    let mut name = table.as_os_str().to_owned();
    name.push(".json");
    PathBuf::from(name)
}

/// The provenance a table file carries, with its checksum: from a CSV file's comment lines
/// (plain or gzip-compressed), a Parquet file's metadata, or the sidecar of any other file.
///
/// # Errors
/// An unreadable file, a file with no provenance, or a record that does not read.
pub(crate) fn read(path: &str, memory: &MemoryPool) -> Result<Provenance> {
    if path.ends_with(".csv") || path.ends_with(".csv.gz") {
        return read_csv(path, memory);
    }
    if path.ends_with(".parquet") {
        let file = std::fs::File::open(path).with_context(|| format!("cannot read {path}"))?;
        let record = grundy_parquet::read_provenance(file)
            .with_context(|| format!("cannot read Parquet table {path}"))?;
        return record.ok_or_else(|| {
            anyhow::anyhow!(
                "{path} carries no provenance: its metadata has no `{}` (grundy writes it unless \
                 --no-provenance)",
                grundy_parquet::PROVENANCE_KEY
            )
        });
    }
    let sidecar = sidecar_path(Path::new(path));
    if !sidecar.exists() {
        bail!(
            "{path} carries no provenance: there is no {} beside it (`grundy compute` writes \
             one with every .npy and b-file it writes to a file)",
            sidecar.display()
        );
    }
    let what = sidecar.display().to_string();
    let text = read_text_within(
        &sidecar,
        &what,
        MAX_RECORD_BYTES,
        "a provenance record is a page of JSON",
    )?;
    let record = Provenance::from_json(&text)
        .with_context(|| format!("cannot read the provenance in {}", sidecar.display()))?;
    if record.values_sha256.is_empty() {
        bail!("the provenance in {} has no values_sha256", sidecar.display());
    }
    Ok(record)
}

fn read_csv(path: &str, memory: &MemoryPool) -> Result<Provenance> {
    let file = std::fs::File::open(path).with_context(|| format!("cannot read {path}"))?;
    let file = std::io::BufReader::new(file);
    let mut reader: Box<dyn BufRead> = if path.ends_with(".gz") {
        Box::new(std::io::BufReader::new(flate2::bufread::MultiGzDecoder::new(file)))
    } else {
        Box::new(file)
    };
    let mut record: Option<Provenance> = None;
    let mut checksum: Option<String> = None;
    let mut after_mark = false;
    // Every line is read (the checksum is the last), but only comment lines are kept, each at
    // most a record long; a line of cells is skipped as long as a table's line may be (a
    // tenth of the memory, as `read_csv_within` allows), so an endless line ends in an error.
    let cell_line = memory.read_budget() / 10;
    let mut line = Vec::new();
    let mut number = 0u64;
    loop {
        let read = read_line_within(&mut reader, &mut line, MAX_RECORD_BYTES as usize)
            .with_context(|| format!("cannot read {path}"))?;
        number += 1;
        let Some(read) = read else { break };
        if line.first() != Some(&b'#') {
            after_mark = false;
            if read == Line::Longer
                && !skip_line_within(&mut reader, cell_line)
                    .with_context(|| format!("cannot read {path}"))?
            {
                bail!("line {number} of {path} is longer than a table's line can be: not a table");
            }
            continue;
        }
        if read == Line::Longer {
            bail!(
                "line {number} of {path} is a comment longer than {} MiB: not grundy's provenance",
                MAX_RECORD_BYTES >> 20
            );
        }
        let line = String::from_utf8_lossy(&line);
        // One header, one record, one checksum: a second of any is refused, whichever comes
        // first (issue 59: a second record after the first was ignored and the file "checked").
        let second = |what: &str| {
            anyhow::anyhow!(
                "line {number} of {path} holds a second provenance {what}: a file carries one, \
                 so which is the table's cannot be told"
            )
        };
        if line == CSV_MARK {
            if record.is_some() || after_mark {
                return Err(second("header"));
            }
            after_mark = true;
        } else if after_mark {
            let json = line.strip_prefix("# ").unwrap_or(&line);
            let read = Provenance::from_json(json).with_context(|| {
                format!("cannot read the provenance on line {number} of {path}")
            })?;
            record = Some(read);
            after_mark = false;
        } else if let Some(sum) = line.strip_prefix(CSV_CHECKSUM) {
            if checksum.is_some() {
                return Err(second("checksum"));
            }
            checksum = Some(sum.trim().to_string());
        } else if line.starts_with("# {") {
            return Err(second("record"));
        }
    }
    let Some(mut record) = record else {
        bail!(
            "{path} carries no provenance: write it with `grundy compute ... --provenance` (CSV \
             has none by default)"
        );
    };
    match checksum {
        Some(sum) => record.values_sha256 = sum,
        None => bail!(
            "{path} has a provenance header but no last `{}` line: the file was cut short",
            CSV_CHECKSUM.trim_end()
        ),
    }
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_lines_quote_what_a_shell_would_read() {
        let words: Vec<String> = ["grundy", "survey", "octal:0.??", "it's", "", "--size", "20x20"]
            .map(String::from)
            .into();
        assert_eq!(shell_line(&words), r"grundy survey 'octal:0.??' 'it'\''s' '' --size 20x20");
    }
}
