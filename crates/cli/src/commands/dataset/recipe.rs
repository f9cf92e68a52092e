//! A recipe: the TOML file that states a collection — its title and description, and each file
//! as the `grundy` command that makes it (`[[table]]` for `compute`, `[[plot]]`, `[[survey]]`) or
//! as a file made elsewhere that the collection lists (`[[kept]]`). Checked whole before anything
//! is built, each error naming the entry.

use crate::load::read_text_within;
use anyhow::{bail, Context, Result};
use serde::Deserialize;
use std::collections::BTreeSet;
use std::path::{Component, Path};

/// The files a build writes beside the collection's own; no entry may be one of them.
pub(crate) const CARD: &str = "README.md";
pub(crate) const CHECKSUMS: &str = "SHA256SUMS";
pub(crate) const MANIFEST: &str = "manifest.json";

/// The most bytes a recipe may have: it is a few pages of text.
const MAX_RECIPE_BYTES: u64 = 1 << 20;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RecipeFile {
    title: String,
    #[serde(default)]
    about: String,
    #[serde(default)]
    table: Vec<TableEntry>,
    #[serde(default)]
    plot: Vec<PlotEntry>,
    #[serde(default)]
    survey: Vec<SurveyEntry>,
    #[serde(default)]
    kept: Vec<KeptEntry>,
}

/// `grundy compute GAME --size SIZE [--format FORMAT] [--outcome] OPTIONS --out FILE`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TableEntry {
    file: String,
    about: String,
    game: String,
    size: Option<Size>,
    format: Option<String>,
    #[serde(default)]
    outcome: bool,
    #[serde(default)]
    options: Vec<String>,
}

/// `grundy plot GAME --size SIZE [--outcome] OPTIONS --out FILE`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlotEntry {
    file: String,
    about: String,
    game: String,
    size: Option<Size>,
    #[serde(default)]
    outcome: bool,
    #[serde(default)]
    options: Vec<String>,
}

/// `grundy survey FAMILIES... [--size SIZE] [--format FORMAT] OPTIONS --out FILE`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SurveyEntry {
    file: String,
    about: String,
    families: Vec<String>,
    size: Option<Size>,
    format: Option<String>,
    #[serde(default)]
    options: Vec<String>,
}

/// A file made elsewhere (by hand, or by a run too long to repeat): listed with its checksum.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct KeptEntry {
    file: String,
    about: String,
}

/// A size as TOML gives it: `10000` for a heap game, `"200x200"` for a board.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Size {
    Number(u64),
    Text(String),
}

impl Size {
    fn text(&self) -> String {
        match self {
            Size::Number(n) => n.to_string(),
            Size::Text(text) => text.clone(),
        }
    }
}

/// What makes an entry's file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Table,
    Plot,
    Survey,
    Kept,
}

impl Kind {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Kind::Table => "table",
            Kind::Plot => "plot",
            Kind::Survey => "survey",
            Kind::Kept => "kept",
        }
    }
}

/// One file of the collection.
#[derive(Debug)]
pub(crate) struct Entry {
    pub(crate) kind: Kind,
    /// Its path in the output folder, `/`-separated.
    pub(crate) file: String,
    pub(crate) about: String,
    /// The game it is a table or picture of.
    pub(crate) game: Option<String>,
    /// The `--format` it asks for, if any.
    pub(crate) format: Option<String>,
    /// The command's words after `grundy`, without `--out FILE`; empty for a kept file.
    pub(crate) words: Vec<String>,
}

impl Entry {
    /// The command that makes the file, as run from the recipe's folder into the output folder.
    pub(crate) fn command(&self) -> Option<Vec<String>> {
        (self.kind != Kind::Kept).then(|| {
            let mut words = vec!["grundy".to_string()];
            words.extend(self.words.iter().cloned());
            words.extend(["--out".to_string(), self.file.clone()]);
            words
        })
    }
}

/// A checked recipe.
#[derive(Debug)]
pub(crate) struct Recipe {
    pub(crate) title: String,
    pub(crate) about: String,
    pub(crate) entries: Vec<Entry>,
}

impl Recipe {
    /// Reads and checks the recipe at `path`.
    pub(crate) fn read(path: &Path) -> Result<Recipe> {
        let shown = path.display();
        let what = shown.to_string();
        let text =
            read_text_within(path, &what, MAX_RECIPE_BYTES, "a recipe is a few pages of TOML")?;
        Recipe::parse(&text).with_context(|| format!("recipe {shown}"))
    }

    /// Checks a recipe's text: its TOML, every entry's file path and options.
    pub(crate) fn parse(text: &str) -> Result<Recipe> {
        let file: RecipeFile = toml::from_str(text)?;
        if file.title.trim().is_empty() {
            bail!("the title is empty");
        }
        let mut entries = Vec::new();
        for (k, entry) in file.table.into_iter().enumerate() {
            let named = || format!("[[table]] {} ({})", k + 1, entry.file);
            check_options(&entry.options).with_context(named)?;
            let mut words = vec!["compute".to_string(), entry.game.clone()];
            push_size(&mut words, entry.size.as_ref());
            if let Some(format) = &entry.format {
                words.extend(["--format".to_string(), format.clone()]);
            }
            if entry.outcome {
                words.push("--outcome".to_string());
            }
            words.extend(entry.options);
            entries.push(Entry {
                kind: Kind::Table,
                file: entry.file,
                about: entry.about,
                game: Some(entry.game),
                format: entry.format,
                words,
            });
        }
        for (k, entry) in file.plot.into_iter().enumerate() {
            let named = || format!("[[plot]] {} ({})", k + 1, entry.file);
            check_options(&entry.options).with_context(named)?;
            let mut words = vec!["plot".to_string(), entry.game.clone()];
            push_size(&mut words, entry.size.as_ref());
            if entry.outcome {
                words.push("--outcome".to_string());
            }
            words.extend(entry.options);
            entries.push(Entry {
                kind: Kind::Plot,
                file: entry.file,
                about: entry.about,
                game: Some(entry.game),
                format: None,
                words,
            });
        }
        for (k, entry) in file.survey.into_iter().enumerate() {
            let named = || format!("[[survey]] {} ({})", k + 1, entry.file);
            check_options(&entry.options).with_context(named)?;
            if entry.families.is_empty() {
                return Err(anyhow::anyhow!("families is empty")).with_context(named);
            }
            let mut words = vec!["survey".to_string()];
            words.extend(entry.families);
            push_size(&mut words, entry.size.as_ref());
            if let Some(format) = &entry.format {
                words.extend(["--format".to_string(), format.clone()]);
            }
            words.extend(entry.options);
            entries.push(Entry {
                kind: Kind::Survey,
                file: entry.file,
                about: entry.about,
                game: None,
                format: entry.format,
                words,
            });
        }
        for entry in file.kept {
            entries.push(Entry {
                kind: Kind::Kept,
                file: entry.file,
                about: entry.about,
                game: None,
                format: None,
                words: Vec::new(),
            });
        }
        if entries.is_empty() {
            bail!("it lists no file: add [[table]], [[plot]], [[survey]] or [[kept]] entries");
        }
        let mut seen = BTreeSet::new();
        for entry in &entries {
            let named = || format!("[[{}]] {}", entry.kind.name(), entry.file);
            check_path(&entry.file).with_context(named)?;
            if !seen.insert(entry.file.as_str()) {
                bail!("{} is listed twice", entry.file);
            }
        }
        // A .npy or b-file's provenance is written beside it, as FILE.json.
        for entry in &entries {
            let sidecar = format!("{}.json", entry.file);
            if seen.contains(sidecar.as_str()) {
                bail!("{sidecar} is listed, but it is where {}'s provenance goes", entry.file);
            }
        }
        Ok(Recipe { title: file.title, about: file.about, entries })
    }
}

fn push_size(words: &mut Vec<String>, size: Option<&Size>) {
    if let Some(size) = size {
        words.extend(["--size".to_string(), size.text()]);
    }
}

/// The options an entry may not give: the recipe says where the file goes, and the build runs
/// each command quietly.
fn check_options(options: &[String]) -> Result<()> {
    for option in options {
        let name = option.split('=').next().unwrap_or(option);
        match name {
            "--out" | "-o" => {
                bail!("options may not give {name}: the entry's file is where it goes")
            }
            "--format" => bail!("options may not give --format: give the entry's format"),
            "--size" => bail!("options may not give --size: give the entry's size"),
            "--quiet" | "-q" => bail!("options may not give {name}: the build is quiet itself"),
            _ => {}
        }
    }
    Ok(())
}

/// An entry's file must stay inside the output folder and not be one of the build's own files.
fn check_path(file: &str) -> Result<()> {
    let path = Path::new(file);
    if file.is_empty() {
        bail!("file is empty");
    }
    // Word by word: `Path::components` would drop a `.` in the middle.
    let words_plain = file.split('/').all(|word| !word.is_empty() && word != "." && word != "..");
    if file.contains('\\')
        || !words_plain
        || !path.components().all(|c| matches!(c, Component::Normal(_)))
    {
        bail!("file must be a relative path inside the output folder, `/`-separated, without `.` or `..`");
    }
    // `sha256sum -c SHA256SUMS` reads a line a file: a newline in a name breaks it, and an
    // ESC in a name would reach every terminal that lists the folder.
    if let Some(c) = file.chars().find(|c| c.is_control()) {
        bail!(
            "file `{}` holds the control character {c:?}: names in a collection are listed one \
             a line in SHA256SUMS and printed on terminals",
            file.escape_debug()
        );
    }
    if [CARD, CHECKSUMS, MANIFEST].contains(&file) {
        bail!("{file} is the build's own (the dataset card, the checksums and the manifest)");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> String {
        format!("{:#}", Recipe::parse(text).unwrap_err())
    }

    #[test]
    fn entries_become_the_commands_that_make_them() {
        let recipe = Recipe::parse(
            r#"
            title = "t"
            [[table]]
            file = "kiki.csv.gz"
            about = "kiki"
            game = "kiki"
            size = "20x30"
            outcome = true
            [[table]]
            file = "kayles.b"
            about = "Kayles"
            game = "kayles"
            size = 100
            options = ["--no-provenance"]
            [[plot]]
            file = "pictures/wythoff.svg"
            about = "Wythoff"
            game = "wythoff"
            size = "9x9"
            [[survey]]
            file = "s.csv"
            about = "s"
            families = ["octal:0.?", "kayles"]
            format = "csv"
            [[kept]]
            file = "notes.txt"
            about = "by hand"
            "#,
        )
        .unwrap();
        let commands: Vec<String> =
            recipe.entries.iter().filter_map(|e| e.command()).map(|c| c.join(" ")).collect();
        assert_eq!(
            commands,
            [
                "grundy compute kiki --size 20x30 --outcome --out kiki.csv.gz",
                "grundy compute kayles --size 100 --no-provenance --out kayles.b",
                "grundy plot wythoff --size 9x9 --out pictures/wythoff.svg",
                "grundy survey octal:0.? kayles --format csv --out s.csv",
            ]
        );
        assert_eq!(recipe.entries[4].kind, Kind::Kept);
    }

    #[test]
    fn bad_recipes_are_refused_naming_the_entry() {
        let table = |file: &str, extra: &str| {
            format!("title = \"t\"\n[[table]]\nfile = \"{file}\"\nabout = \"a\"\ngame = \"nim\"\n{extra}")
        };
        for (text, expected) in [
            (table("../x.csv", ""), "relative path inside the output folder"),
            (table("/tmp/x.csv", ""), "relative path inside the output folder"),
            (table("a/./x.csv", ""), "relative path inside the output folder"),
            (table("README.md", ""), "the build's own"),
            (table("x.csv", "options = [\"--out\", \"y\"]"), "[[table]] 1 (x.csv): options may not give --out"),
            (table("x.csv", "options = [\"--format=npy\"]"), "give the entry's format"),
            (table("x.csv", "colour = 3"), "unknown field `colour`"),
            (table("x.csv", "size = -3"), "size"),
            ("title = \"t\"".to_string(), "lists no file"),
            ("title = \"\"\n[[kept]]\nfile = \"a\"\nabout = \"a\"".to_string(), "title is empty"),
            (
                "title = \"t\"\n[[kept]]\nfile = \"a\"\nabout = \"a\"\n[[kept]]\nfile = \"a\"\nabout = \"b\"".to_string(),
                "a is listed twice",
            ),
            (
                "title = \"t\"\n[[kept]]\nfile = \"a.npy\"\nabout = \"a\"\n[[kept]]\nfile = \"a.npy.json\"\nabout = \"b\"".to_string(),
                "where a.npy's provenance goes",
            ),
            ("title = \"t\"\n[[survey]]\nfile = \"s.csv\"\nabout = \"a\"\nfamilies = []".to_string(), "families is empty"),
        ] {
            let message = error(&text);
            assert!(message.contains(expected), "{text}\n=> {message}");
        }
    }
}
