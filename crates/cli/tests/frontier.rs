//! The frontier's long runs (issue 33), committed under `data/surveys/`: the open octal games and
//! Grundy's game's rare heaps to 2^30. They take hours, so they are not rebuilt here; what is
//! checked is what can be without them: their checksums, that every code of the public list of
//! unsolved games is there and as far as the README says, that the rows agree with the public
//! table where it has figures, and that the rare list starts as a fresh computation does.

use crate::common;

use common::stdout_of;
use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The octal-games repository's "Unsolved games" page, in its order (Grundy's game first).
const UNSOLVED: [&str; 83] = [
    "grundys-game",
    "0.6",
    "0.04",
    "0.06",
    "0.14",
    "0.36",
    "0.64",
    "0.74",
    "0.76",
    "0.004",
    "0.005",
    "0.006",
    "0.014",
    "0.015",
    "0.016",
    "0.024",
    "0.026",
    "0.034",
    "0.054",
    "0.064",
    "0.104",
    "0.106",
    "0.114",
    "0.125",
    "0.126",
    "0.135",
    "0.136",
    "0.142",
    "0.143",
    "0.146",
    "0.161",
    "0.162",
    "0.163",
    "0.164",
    "0.166",
    "0.167",
    "0.172",
    "0.174",
    "0.204",
    "0.205",
    "0.206",
    "0.207",
    "0.224",
    "0.244",
    "0.245",
    "0.264",
    "0.314",
    "0.324",
    "0.334",
    "0.336",
    "0.342",
    "0.344",
    "0.346",
    "0.362",
    "0.364",
    "0.366",
    "0.371",
    "0.374",
    "0.404",
    "0.414",
    "0.416",
    "0.444",
    "0.454",
    "0.564",
    "0.604",
    "0.606",
    "0.744",
    "0.764",
    "0.774",
    "0.776",
    "4.004",
    "4.007",
    "4.026",
    "4.044",
    "4.045",
    "4.064",
    "4.324",
    "4.327",
    "4.344",
    "4.364",
    "4.367",
    "4.404",
    "4.406",
];

fn surveys() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../data/surveys")
}

/// A survey CSV's rows by game, each a map from column to cell.
fn rows(file: &str) -> HashMap<String, HashMap<String, String>> {
    let mut reader = csv::Reader::from_path(surveys().join(file)).unwrap();
    let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    reader
        .records()
        .map(|record| {
            let row: HashMap<String, String> =
                header.iter().cloned().zip(record.unwrap().iter().map(String::from)).collect();
            (row["game"].clone(), row)
        })
        .collect()
}

fn number(row: &HashMap<String, String>, column: &str) -> u64 {
    row[column].parse().unwrap_or_else(|_| panic!("{column}: {:?}", row[column]))
}

fn member(code: &str) -> String {
    if code == "grundys-game" {
        code.to_string()
    } else {
        format!("octal:{code}")
    }
}

#[test]
fn the_long_runs_are_the_files_their_checksums_name() {
    let output =
        Command::new("sha256sum").arg("-c").arg("SHA256SUMS").current_dir(surveys()).output();
    let output = output.expect("sha256sum runs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stdout));
    let sums = fs::read_to_string(surveys().join("SHA256SUMS")).unwrap();
    for file in [
        "open-octal-2p17.csv",
        "open-octal-sparse-2p24.csv",
        "open-octal-dense-180s.csv",
        "grundys-game-rare-2p30.csv",
    ] {
        assert!(sums.contains(&format!("  {file}\n")), "SHA256SUMS lists {file}");
    }
}

/// Every unsolved code is in the table to 2^17, and in exactly one far table: the sparse one if
/// its rare heaps are few at 2^17 (under 2500; 900 seconds each), the dense one otherwise (180
/// seconds each). A far row reaches 2^24 heaps or has spent its budget, and beats 2^17; the
/// README names each row that stops short.
#[test]
fn every_unsolved_code_is_surveyed_as_far_as_stated() {
    let near = rows("open-octal-2p17.csv");
    let (sparse, dense) = (rows("open-octal-sparse-2p24.csv"), rows("open-octal-dense-180s.csv"));
    assert_eq!(near.len(), UNSOLVED.len());
    assert_eq!(sparse.len() + dense.len(), UNSOLVED.len());
    // The list files the surveys were run from are the public list and its two parts.
    let listed = |file: &str| -> Vec<String> {
        let text = fs::read_to_string(surveys().join(file)).unwrap();
        text.split_whitespace().map(String::from).collect()
    };
    let members: Vec<String> = UNSOLVED.iter().map(|code| member(code)).collect();
    assert_eq!(listed("open-octal-games.txt"), members);
    let in_order = |table: &HashMap<_, _>| -> Vec<String> {
        members.iter().filter(|game| table.contains_key(*game)).cloned().collect()
    };
    assert_eq!(listed("open-octal-sparse.txt"), in_order(&sparse));
    assert_eq!(listed("open-octal-dense.txt"), in_order(&dense));
    let readme = fs::read_to_string(surveys().join("README.md")).unwrap();
    for code in UNSOLVED {
        let game = member(code);
        assert_eq!(number(&near[&game], "values"), 1 << 17, "{game}");
        let sparse_at_2p17 = number(&near[&game], "rare") < 2500;
        let (far, budget) = if sparse_at_2p17 { (&sparse, 900.0) } else { (&dense, 180.0) };
        let row = far.get(&game).unwrap_or_else(|| panic!("{game} is in its far table"));
        let values = number(row, "values");
        let budget_spent = row["seconds"].parse::<f64>().unwrap() >= budget;
        assert!(values == 1 << 24 || budget_spent, "{game}: {values}");
        assert!(values > 1 << 17, "{game}: {values}");
        if values < 1 << 24 {
            assert!(readme.contains(&format!("`{game}`")), "the README names {game}");
        }
    }
}

/// The public table's figures for .04 and .06 at 2^17 heaps (largest index, largest value, rare
/// mask, number of rare heaps, last rare). Its mask is over values, ours over value·2 + parity
/// (bit 0 unset here), and it counts heap 0 among the rare ones, which ours leave out.
#[test]
fn the_rows_at_2p17_are_the_public_tables() {
    let near = rows("open-octal-2p17.csv");
    for (game, max_at, max, mask, rare, last) in [
        ("octal:0.04", 109363, 1024, 0x7b8, 18860, 131003),
        ("octal:0.06", 127083, 1045, 0x5a0, 52923, 131070),
    ] {
        let row = &near[game];
        assert_eq!(number(row, "max_first_at"), max_at, "{game}");
        assert_eq!(number(row, "max"), max, "{game}");
        assert_eq!(number(row, "rare_mask"), mask << 1, "{game}");
        assert_eq!(number(row, "rare") + 1, rare, "{game}");
        assert_eq!(number(row, "last_rare"), last, "{game}");
    }
}

/// The list of Grundy's game's rare heaps to 2^30: in heap order, its first part what a fresh
/// computation lists, and as many to 2^24 as the survey's row counts.
#[test]
fn grundys_rare_list_starts_as_a_fresh_computation() {
    let list = fs::read_to_string(surveys().join("grundys-game-rare-2p30.csv")).unwrap();
    let fresh =
        stdout_of(&["compute", "grundys-game", "--size", "131071", "--format", "rare", "-q"]);
    assert!(list.starts_with(&fresh), "the list starts with the rare heaps to 2^17");
    let heaps: Vec<u64> =
        list.lines().skip(1).map(|line| line.split_once(',').unwrap().0.parse().unwrap()).collect();
    assert!(heaps.windows(2).all(|pair| pair[0] < pair[1]));
    assert!(*heaps.last().unwrap() < 1 << 30);
    let row = &rows("open-octal-sparse-2p24.csv")["grundys-game"];
    let to_2p24 = heaps.iter().filter(|&&heap| heap < 1 << 24).count() as u64;
    assert_eq!(to_2p24, number(row, "rare"));
}

/// Four codes of the public unsolved list are proved periodic in these files (the README says
/// what was checked of them), and a fresh run proves the smallest of them again.
#[test]
fn four_listed_codes_are_proved_periodic() {
    let mut far = rows("open-octal-sparse-2p24.csv");
    far.extend(rows("open-octal-dense-180s.csv"));
    for (game, period, preperiod) in [
        ("octal:4.064", 16132, 94272),
        ("octal:4.344", 51, 998),
        ("octal:4.364", 62, 11687),
        ("octal:4.406", 44, 294097),
    ] {
        let row = &far[game];
        assert_eq!(row["proved"], "true", "{game}");
        assert_eq!(
            (number(row, "period"), number(row, "preperiod")),
            (period, preperiod),
            "{game}"
        );
    }
    let fresh = stdout_of(&["patterns", "octal:4.344", "--until-proved", "--json", "-q"]);
    for part in ["\"period\":51,", "\"preperiod\":998,", "\"proved\":true,"] {
        assert!(fresh.contains(part), "{fresh}");
    }
}
