//! The benchmark of published laws (issue 62): every law of `data/laws/laws.toml` is checked on
//! its table, `patterns` searches the same table, and each law is reported as proved,
//! rediscovered or missed. The table of results is the guide's (`docs/guide/06-patterns.md`,
//! between the `published-laws` markers): a change in what the finder finds fails here until
//! the guide says it (`GRUNDY_BLESS=1` writes the new table into the guide).
//!
//! - **rediscovered**: `patterns` states a law of the same kind that `grundy check` confirms on
//!   a table twice as large (so it agrees with the published law there), or for a P-set a
//!   values law whose zeros `check` confirms so; for a heap game's
//!   period, the period, preperiod and saltus that `patterns` reports are the published ones.
//! - **proved**: rediscovered, and that law (or period) is proved for every board.
//! - **missed**: neither; a law no claim can state yet is missed too.

use crate::common;

use common::grundy;
use serde::Deserialize;
use serde_json::Value;
use std::path::{Path, PathBuf};

#[derive(Deserialize)]
struct Laws {
    law: Vec<Entry>,
}

#[derive(Deserialize)]
struct Entry {
    game: String,
    play: Option<String>,
    size: String,
    /// The size the found law is confirmed at; twice `size` when not given.
    larger: Option<String>,
    kind: String,
    law: Option<String>,
    statement: Option<String>,
    period: Option<u64>,
    preperiod: Option<u64>,
    saltus: Option<i64>,
    shape: String,
    source: String,
}

fn folder() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/laws")
}

impl Entry {
    /// The game as the command line takes it: a spec file of the folder by its path.
    fn game(&self) -> String {
        if self.game.ends_with(".toml") {
            folder().join(&self.game).to_string_lossy().into_owned()
        } else {
            self.game.clone()
        }
    }

    fn larger(&self) -> String {
        self.larger.clone().unwrap_or_else(|| {
            let twice: Vec<String> =
                self.size.split('x').map(|n| (2 * n.parse::<u64>().unwrap()).to_string()).collect();
            twice.join("x")
        })
    }

    /// `grundy ARGS` on this entry's game, size and play: its JSON report, or `None` when the
    /// command refuses the table (`patterns` of a 3-D table).
    fn run(&self, command: &str, size: &str, more: &[&str]) -> Option<Value> {
        let game = self.game();
        let mut args = vec![command, game.as_str(), "--size", size, "--json", "--quiet"];
        if let Some(play) = &self.play {
            args.extend(["--play", play]);
        }
        args.extend(more);
        let output = grundy().args(&args).output().unwrap();
        output.status.success().then(|| serde_json::from_slice(&output.stdout).unwrap())
    }

    /// Whether `expression`, as a claim of this entry's kind, agrees with the table of `size`.
    fn agrees(&self, size: &str, expression: &str) -> bool {
        let option = format!("--{}", self.kind);
        self.run("check", size, &[&option, expression]).is_some_and(|r| r["verdict"] == "agrees")
    }

    /// What `patterns` finds of this law.
    fn result(&self) -> &'static str {
        let Some(report) = self.run("patterns", &self.size, &[]) else { return "missed" };
        if self.kind == "period" {
            let found = &report["sequence"];
            let same = found["period"] == self.period.unwrap()
                && found["preperiod"] == self.preperiod.unwrap()
                && found["saltus"] == self.saltus.unwrap_or(0);
            return match (same, found["proved"] == true) {
                (true, true) => "proved",
                (true, false) => "rediscovered",
                _ => "missed",
            };
        }
        let Some(laws) = report["laws"].as_array() else { return "missed" };
        let larger = self.larger();
        // A law of the entry's kind; for a P-set, a values law says it too (its zeros).
        let found = laws.iter().find(|law| {
            let expression = law["expression"].as_str().unwrap();
            match law["kind"].as_str().unwrap() {
                kind if kind == self.kind => self.agrees(&larger, expression),
                "values" if self.kind == "p-set" => {
                    self.agrees(&larger, &format!("({expression}) == 0"))
                }
                _ => false,
            }
        });
        match found {
            Some(law) if law["proved"] == true => "proved",
            Some(_) => "rediscovered",
            None => "missed",
        }
    }

    /// The law as the table shows it.
    fn stated(&self) -> String {
        match (&self.law, &self.statement) {
            (Some(law), _) => format!("`--{} \"{law}\"`", self.kind),
            (None, Some(statement)) => statement.clone(),
            (None, None) => format!(
                "period {}, preperiod {}, saltus {}",
                self.period.unwrap(),
                self.preperiod.unwrap(),
                self.saltus.unwrap_or(0)
            ),
        }
    }
}

const BEGIN: &str = "<!-- published-laws: made by crates/cli/tests/published_laws.rs -->";
const END: &str = "<!-- /published-laws -->";

#[test]
fn published_laws_are_rediscovered_proved_or_missed_as_the_guide_says() {
    let text = std::fs::read_to_string(folder().join("laws.toml")).unwrap();
    let laws: Laws = toml::from_str(&text).unwrap();
    assert!(laws.law.len() >= 30, "{} laws", laws.law.len());
    let mut table =
        String::from("| game | play | law | shape | source | found |\n|---|---|---|---|---|---|\n");
    let mut counts = [0usize; 3];
    for entry in &laws.law {
        // The benchmark's own data: every published law holds on its table.
        if let Some(law) = &entry.law {
            assert!(entry.agrees(&entry.size, law), "{}: {law} does not hold", entry.game);
        }
        let found = entry.result();
        counts[["proved", "rediscovered", "missed"].iter().position(|r| *r == found).unwrap()] += 1;
        table.push_str(&format!(
            "| {} | {} | {} | {} | {} | {found} |\n",
            entry.game,
            entry.play.as_deref().unwrap_or("normal"),
            entry.stated().replace('|', "\\|"),
            entry.shape,
            entry.source,
        ));
    }
    table.push_str(&format!(
        "\n{} laws: {} proved, {} rediscovered and not proved, {} missed.\n",
        laws.law.len(),
        counts[0],
        counts[1],
        counts[2]
    ));
    let guide_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/guide/06-patterns.md");
    let guide = std::fs::read_to_string(&guide_path).unwrap();
    let start = guide.find(BEGIN).expect("the guide's markers") + BEGIN.len();
    let end = guide.find(END).expect("the guide's end marker");
    let shown = guide[start..end].trim();
    if std::env::var_os("GRUNDY_BLESS").is_some() {
        let blessed = format!("{}\n{}\n{}", &guide[..start], table.trim(), &guide[end..]);
        std::fs::write(&guide_path, blessed).unwrap();
        return;
    }
    assert_eq!(shown, table.trim(), "the guide's table of published laws is not this run's");
}
