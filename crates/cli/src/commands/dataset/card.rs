//! What a build writes about the collection for people: `SHA256SUMS` (for `sha256sum -c`) and
//! the dataset card, `README.md` — what each file is, its game's rules, how to load it in a few
//! lines of Python, and how to rebuild and check it. Both come from the manifest and the recipe
//! alone, so the same recipe gives the same bytes.

use super::manifest::{Built, Manifest};
use super::recipe::{Entry, Kind, Recipe, CHECKSUMS, MANIFEST};
use crate::commands::compute::Format;
use crate::provenance::shell_line;
use std::fmt::Write;

/// `SHA256SUMS`: each file, and each provenance sidecar, in the recipe's order.
pub(crate) fn checksums(manifest: &Manifest) -> String {
    let mut text = String::new();
    for built in &manifest.files {
        let _ = writeln!(text, "{}  {}", built.sha256, built.file);
        if let Some(sidecar) = &built.sidecar {
            let _ = writeln!(text, "{}  {}", sidecar.sha256, sidecar.file);
        }
    }
    text
}

/// How a file is loaded; files of one way share one example in the card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Way {
    Grid,
    Long,
    Npy,
    Bfile,
    Parquet,
    Summary,
    Rare,
    SurveyCsv,
    SurveyJson,
    Index,
    Picture,
}

impl Way {
    fn of(entry: &Entry, built: &Built) -> Option<Way> {
        let table = match entry.kind {
            Kind::Kept => return None,
            Kind::Plot => return Some(Way::Picture),
            Kind::Survey => {
                return Some(match entry.format.as_deref() {
                    Some("index") => Way::Index,
                    Some("json") => Way::SurveyJson,
                    _ => Way::SurveyCsv,
                })
            }
            Kind::Table => entry.format.as_deref(),
        };
        // No format: the one the file's extension names, as `grundy compute` chooses it.
        let extension = Format::of_extension(std::path::Path::new(&entry.file)).map(Format::name);
        let dims = built.game.as_ref().map_or(2, |game| game.axes.len());
        Some(match table.or(extension.as_deref()) {
            Some("npy") => Way::Npy,
            Some("bfile") => Way::Bfile,
            Some("parquet") => Way::Parquet,
            Some("summary") => Way::Summary,
            Some("rare") => Way::Rare,
            Some("long") => Way::Long,
            // A heap game's CSV and a 3-D game's are one line per cell in either layout.
            _ if dims != 2 => Way::Long,
            _ => Way::Grid,
        })
    }

    /// What files of this way are, and three lines of Python that load `file`.
    fn example(self, file: &str, built: &Built) -> (&'static str, String) {
        let axes = built.game.as_ref().map(|g| g.axes.clone()).unwrap_or_default();
        let first = axes.first().map_or("x", String::as_str);
        let second = axes.get(1).map_or("y", String::as_str);
        match self {
            Way::Grid => (
                "CSV grids: a row per first coordinate, a column per second (the header names \
                 both axes); `P`/`N` instead of values in outcome tables",
                format!(
                    "import pandas as pd\ntable = pd.read_csv(\"{file}\", index_col=0, comment=\"#\")\n\
                     table.loc[3, \"5\"]  # the cell {first} = 3, {second} = 5"
                ),
            ),
            Way::Long => (
                "CSV, one line per cell: a column per axis, then the value",
                format!(
                    "import pandas as pd\ncells = pd.read_csv(\"{file}\", comment=\"#\")\n\
                     cells.head()"
                ),
            ),
            Way::Npy => (
                "numpy arrays of the table's integer type, indexed from each axis' smallest \
                 coordinate (its `min` in the rules below); the provenance, when written, is \
                 FILE.json beside it",
                format!(
                    "import numpy as np\ntable = np.load(\"{file}\")\n\
                     table.shape, table.dtype"
                ),
            ),
            Way::Bfile => (
                "OEIS b-files: `n value` per line",
                format!(
                    "import numpy as np\nn, value = np.loadtxt(\"{file}\", dtype=np.int64, unpack=True)\n\
                     value[:20]"
                ),
            ),
            Way::Parquet => (
                "Parquet: a column per axis, then `g` (or `outcome`); the narrowest integer \
                 types; the provenance in the file's metadata (polars and DuckDB read it too)",
                if axes.len() == 2 {
                    format!(
                        "import pandas as pd\ncells = pd.read_parquet(\"{file}\")\n\
                         cells.pivot(index=\"{first}\", columns=\"{second}\", \
                         values=cells.columns[-1])  # as a grid"
                    )
                } else {
                    format!("import pandas as pd\ncells = pd.read_parquet(\"{file}\")\ncells.head()")
                },
            ),
            Way::Summary => (
                "JSON summaries of a table: cells, sum, largest value, P-positions",
                format!("import json\nsummary = json.load(open(\"{file}\"))\nsummary[\"p_positions\"]"),
            ),
            Way::Rare => (
                "CSV `heap,value` of a take-and-break game's rare heaps",
                format!("import pandas as pd\nrare = pd.read_csv(\"{file}\")\nrare.tail()"),
            ),
            Way::SurveyCsv => (
                "surveys: one row per member of a family (class, period, preperiod, saltus, \
                 proof; the columns are described in grundy's README)",
                format!(
                    "import pandas as pd\nsurvey = pd.read_csv(\"{file}\")\n\
                     survey[[\"game\", \"period\", \"preperiod\"]]"
                ),
            ),
            Way::SurveyJson => (
                "surveys as JSON: a list of objects, one per member",
                format!("import pandas as pd\nsurvey = pd.read_json(\"{file}\")\nsurvey.head()"),
            ),
            Way::Index => (
                "indexes of known games (`grundy identify --index FILE`): gzipped JSON lines, a \
                 header then one class of games per line",
                format!(
                    "import gzip, json\nheader, *classes = [json.loads(line) for line in gzip.open(\"{file}\", \"rt\")]\n\
                     len(classes), classes[0][\"name\"]"
                ),
            ),
            Way::Picture => ("pictures (PNG or SVG)", String::new()),
        }
    }
}

/// A Markdown table cell: `|` would end it.
fn cell(text: &str) -> String {
    text.replace('|', r"\|").replace('\n', " ")
}

/// The dataset card: the title and what the recipe says about it, then its sections.
pub(crate) fn card(recipe: &Recipe, manifest: &Manifest) -> String {
    let mut card = format!("# {}\n\n", recipe.title.trim());
    if !recipe.about.trim().is_empty() {
        card += recipe.about.trim();
        card += "\n\n";
    }
    let pairs: Vec<(&Entry, &Built)> = recipe
        .entries
        .iter()
        .filter_map(|entry| {
            manifest.files.iter().find(|b| b.file == entry.file).map(|built| (entry, built))
        })
        .collect();
    files_section(&mut card, &pairs);
    loading_section(&mut card, &pairs);
    games_section(&mut card, &pairs);
    rebuilding_section(&mut card, &pairs, manifest);
    let _ = writeln!(card, "\nBuilt by grundy {}.", manifest.grundy_version);
    card
}

/// `## Files`: each file with what it is, its game, its size and its checksum.
fn files_section(card: &mut String, pairs: &[(&Entry, &Built)]) {
    *card += "## Files\n\n| file | what | game | bytes | SHA-256 |\n|---|---|---|---|---|\n";
    for (entry, built) in pairs {
        let game = built.game.as_ref().map_or(String::new(), |g| format!("`{}`", g.name));
        let _ = writeln!(
            card,
            "| `{}` | {} | {game} | {} | `{}` |",
            cell(&built.file),
            cell(&entry.about),
            built.bytes,
            built.sha256
        );
        if let Some(sidecar) = &built.sidecar {
            let _ = writeln!(
                card,
                "| `{}` | the provenance of `{}` (`grundy show {}`) | | {} | `{}` |",
                cell(&sidecar.file),
                cell(&built.file),
                cell(&built.file),
                sidecar.bytes,
                sidecar.sha256
            );
        }
    }
}

/// `## Loading`: how to load each kind of file, with an example.
fn loading_section(card: &mut String, pairs: &[(&Entry, &Built)]) {
    let mut ways: Vec<(Way, Vec<&Built>)> = Vec::new();
    for (entry, built) in pairs {
        if let Some(way) = Way::of(entry, built) {
            match ways.iter_mut().find(|(w, _)| *w == way) {
                Some((_, files)) => files.push(built),
                None => ways.push((way, vec![built])),
            }
        }
    }
    ways.sort_by_key(|(way, _)| *way);
    if !ways.is_empty() {
        *card += "\n## Loading\n\n";
    }
    for (way, files) in &ways {
        let (what, example) = way.example(&files[0].file, files[0]);
        let names: Vec<String> = files.iter().map(|b| format!("`{}`", b.file)).collect();
        if example.is_empty() {
            let _ = writeln!(card, "**{}** — {}.\n", capitalised(what), names.join(", "));
        } else {
            let _ = writeln!(card, "**{}** — {}:\n", capitalised(what), names.join(", "));
            let _ = writeln!(card, "```python\n{example}\n```\n");
        }
    }
}

/// `## Games`: each game's rules as a spec, with its fingerprint.
fn games_section(card: &mut String, pairs: &[(&Entry, &Built)]) {
    let mut games: Vec<&super::manifest::GameRecord> = Vec::new();
    for (_, built) in pairs {
        if let Some(game) = &built.game {
            if !games.iter().any(|g| g.fingerprint == game.fingerprint) {
                games.push(game);
            }
        }
    }
    if !games.is_empty() {
        *card += "## Games\n\nEach game's rules as a spec: save one as a `.toml` file and name it \
                 where a command takes a game (`grundy compute FILE.toml --size ...`). The \
                 fingerprint (the first 16 hex digits of the spec's SHA-256) is what a table's \
                 provenance records: two files with one fingerprint come from the same rules.\n\n";
    }
    for game in games {
        let _ = writeln!(
            card,
            "### {}\n\n{} Fingerprint `{}`.\n\n```toml\n{}\n```\n",
            game.name,
            sentence(&game.description),
            game.fingerprint,
            game.spec.trim_end()
        );
    }
}

/// `## Checking and rebuilding`: the checksums, the rebuild, and each file's command.
fn rebuilding_section(card: &mut String, pairs: &[(&Entry, &Built)], manifest: &Manifest) {
    *card += "## Checking and rebuilding\n\n";
    let _ = writeln!(
        card,
        "- Check every file: `sha256sum -c {CHECKSUMS}` in this folder.\n\
         - Rebuild the collection: `grundy dataset {} --out .` in this folder. Files already as \
         the recipe asks (same command, inputs and grundy version, unchanged since) are kept; \
         `--force` makes them all again.\n\
         - Make one file alone: its command below, run in the recipe's folder (paths in the \
         recipe are relative to it), `--out` giving where you want it.\n\
         - `{MANIFEST}` holds all of this for programs: each file with its command, its game's \
         name, rules and fingerprint, the spec files it read, its size and SHA-256.\n",
        shell_line(std::slice::from_ref(&manifest.recipe))
    );
    *card += "| file | made by |\n|---|---|\n";
    for (_, built) in pairs {
        let how = match &built.command {
            Some(words) => format!("`{}`", cell(&shell_line(words))),
            None => "kept: made elsewhere (see above)".to_string(),
        };
        let _ = writeln!(card, "| `{}` | {how} |", cell(&built.file));
    }
}

fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or(String::new(), |c| c.to_uppercase().chain(chars).collect())
}

/// A description as a sentence: capitalised, ending in a full stop.
fn sentence(text: &str) -> String {
    let text = capitalised(text.trim());
    if text.is_empty() || text.ends_with('.') {
        text
    } else {
        format!("{text}.")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sentences_end_once() {
        assert_eq!(sentence("move a coin"), "Move a coin.");
        assert_eq!(sentence("done."), "Done.");
    }
}
