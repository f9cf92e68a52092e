//! `grundy identify` and the known lines `patterns` names, end to end, against sequences
//! computed here by brute force (never against the index itself).

mod common;

use common::grundy;
use serde_json::Value;
use std::collections::HashSet;

/// The Grundy values of the octal game `code` (`0.137`) for heaps 0..len, by the definition: a
/// move takes k stones (digit k of the code) and leaves no heap (bit 1, only when the heap is
/// k), one heap (bit 2) or two non-empty heaps (bit 4).
fn octal(code: &str, len: usize) -> Vec<u32> {
    let (whole, digits) = code.split_once('.').unwrap();
    let digits: Vec<u32> = std::iter::once(whole)
        .chain(digits.split(""))
        .filter(|d| !d.is_empty())
        .map(|d| d.parse().unwrap())
        .collect();
    let mut g: Vec<u32> = Vec::with_capacity(len);
    for n in 0..len {
        let mut seen = HashSet::new();
        for (k, &digit) in digits.iter().enumerate() {
            if k > n {
                break;
            }
            let rest = n - k;
            if digit & 1 != 0 && rest == 0 && k > 0 {
                seen.insert(0);
            }
            if digit & 2 != 0 && rest >= 1 && (k > 0 || rest < n) {
                seen.insert(g[rest]);
            }
            if digit & 4 != 0 && rest >= 2 {
                for a in 1..=rest / 2 {
                    seen.insert(g[a] ^ g[rest - a]);
                }
            }
        }
        g.push((0..).find(|v| !seen.contains(v)).unwrap());
    }
    g
}

/// The values of the subtraction game with `set` for heaps 0..len.
fn subtraction(set: &[usize], len: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(len);
    for n in 0..len {
        let seen: HashSet<u32> = set.iter().filter(|&&s| s <= n).map(|&s| g[n - s]).collect();
        g.push((0..).find(|v| !seen.contains(v)).unwrap());
    }
    g
}

fn identify_stdin(values: &[u32], args: &[&str]) -> Value {
    let text: Vec<String> = values.iter().map(u32::to_string).collect();
    let out = grundy()
        .arg("identify")
        .args(args)
        .arg("--json")
        .write_stdin(text.join(" "))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn identify(args: &[&str]) -> Value {
    let out = grundy().arg("identify").args(args).arg("--json").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Every (member, shift, proved) of a section of matches.
fn named(found: &Value, section: &str) -> Vec<(String, i64, bool)> {
    found[section]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| {
            let shift = m["shift"].as_i64().unwrap();
            m["members"].as_array().unwrap().iter().map(move |member| {
                let game = member["game"].as_str().unwrap().to_string();
                (game, shift, member["proved"].as_bool().unwrap())
            })
        })
        .collect()
}

fn has(found: &[(String, i64, bool)], game: &str) -> Option<(i64, bool)> {
    found.iter().find(|(g, _, _)| g == game).map(|&(_, k, p)| (k, p))
}

/// What a member named `octal:0.xyz` or `subtraction:a,b` computes to, by brute force.
fn brute(game: &str, len: usize) -> Option<Vec<u32>> {
    if let Some(code) = game.strip_prefix("octal:") {
        return Some(octal(code, len));
    }
    let set = game.strip_prefix("subtraction:")?;
    let set: Option<Vec<usize>> = set.split(',').map(|s| s.parse().ok()).collect();
    Some(subtraction(&set?, len))
}

/// Every octal and subtraction member reported with the same values really has them on the
/// range compared (and the P-positions for the P-only section), by brute force.
fn every_member_checks_out(query: &[u32], found: &Value) {
    for (section, p_only) in [("same_values", false), ("same_p_positions", true)] {
        for m in found[section].as_array().unwrap() {
            let k = m["shift"].as_i64().unwrap();
            let from = m["from"].as_i64().unwrap();
            for member in m["members"].as_array().unwrap() {
                let to = member["to"].as_i64().unwrap_or(query.len() as i64 - 1);
                let game = member["game"].as_str().unwrap();
                let Some(values) = brute(game, (to + k + 1).max(0) as usize) else { continue };
                for n in from..=to.min(query.len() as i64 - 1) {
                    let (a, b) = (query[n as usize], values[(n + k) as usize]);
                    let same = if p_only { (a == 0) == (b == 0) } else { a == b };
                    assert!(same, "{game} (k = {k}) differs from the query at n = {n}");
                }
            }
        }
    }
}

#[test]
fn dawsons_chess_is_dawsons_kayles_shifted_by_one_proved() {
    let found = identify(&["octal:0.137"]);
    assert_eq!(found["proved"], true);
    let same = named(&found, "same_values");
    // Itself, and 0.07 with a(n) = b(n + 1), both proved by the two laws.
    assert_eq!(has(&same, "octal:0.137"), Some((0, true)));
    assert_eq!(has(&same, "octal:0.07"), Some((1, true)));
    assert_eq!(has(&same, "dawsons-kayles"), Some((1, true)));
    // Checked here without the index: 0.137(n) = 0.07(n + 1) on 2000 values.
    let (chess, kayles) = (octal("0.137", 2000), octal("0.07", 2001));
    assert!((0..2000).all(|n| chess[n] == kayles[n + 1]));
    // The text says the same.
    let text = common::stdout_of(&["identify", "octal:0.137"]);
    assert!(text.contains("octal:0.07 with k = +1: proved for every n >= 0"), "{text}");
}

#[test]
fn kayles_pasted_on_stdin_names_kayles_and_its_equivalent_codes() {
    let values = octal("0.77", 200);
    let found = identify_stdin(&values, &[]);
    let same = named(&found, "same_values");
    for game in ["octal:0.77", "kayles", "OEIS A002186"] {
        assert_eq!(has(&same, game).map(|(k, _)| k), Some(0), "{game} in {same:?}");
    }
    // Equivalent four-digit codes (0.771, …) come with it, none proved from 200 values.
    assert!(same.iter().filter(|(g, k, _)| g.starts_with("octal:0.77") && *k == 0).count() > 3);
    assert!(same.iter().all(|(_, _, proved)| !proved));
    every_member_checks_out(&values, &found);
}

#[test]
fn a_shifted_sequence_is_found_with_its_shift() {
    // Dawson's Kayles from heap 3 on, given as starting at n = 0: a(n) = 0.07(n + 3).
    let values = octal("0.07", 403)[3..].to_vec();
    let found = identify_stdin(&values, &[]);
    let same = named(&found, "same_values");
    assert_eq!(has(&same, "octal:0.07"), Some((3, false)));
    every_member_checks_out(&values, &found);
    // With --from 3 the coordinates line up again: k = 0.
    let found = identify_stdin(&values, &["--from", "3"]);
    assert_eq!(has(&named(&found, "same_values"), "octal:0.07"), Some((0, false)));
    // Shifts beyond --shift are not tried.
    let found = identify_stdin(&values, &["--shift", "2"]);
    assert_eq!(has(&named(&found, "same_values"), "octal:0.07"), None);
}

#[test]
fn p_positions_alone_match_apart_from_values() {
    // Dawson's Kayles with every non-zero value raised by one: the same P-positions, other
    // values.
    let values: Vec<u32> =
        octal("0.07", 500).into_iter().map(|v| if v == 0 { 0 } else { v + 1 }).collect();
    let found = identify_stdin(&values, &[]);
    assert_eq!(has(&named(&found, "same_values"), "octal:0.07"), None);
    assert_eq!(has(&named(&found, "same_p_positions"), "octal:0.07"), Some((0, false)));
    every_member_checks_out(&values, &found);
}

#[test]
fn a_near_miss_does_not_match() {
    let mut values = octal("0.07", 600);
    // One value changed far out (a non-zero for another non-zero): no longer 0.07's values,
    // still its P-positions.
    let at = (300..).find(|&n| values[n] > 1).unwrap();
    values[at] += 1;
    let found = identify_stdin(&values, &[]);
    let same = named(&found, "same_values");
    assert_eq!(has(&same, "octal:0.07"), None, "{same:?}");
    assert_eq!(has(&named(&found, "same_p_positions"), "octal:0.07"), Some((0, false)));
    // A P-position moved: neither.
    let zero = (300..).find(|&n| values[n] == 0).unwrap();
    values[zero] = 7;
    let found = identify_stdin(&values, &[]);
    assert_eq!(has(&named(&found, "same_p_positions"), "octal:0.07"), None);
    every_member_checks_out(&values, &found);
}

#[test]
fn the_published_mistakes_are_not_repeated() {
    // Winning Ways' locator maps 0.27 to 0.06: in fact 0.27 is 0.26, proved, and not 0.06.
    let found = identify(&["octal:0.27"]);
    let same = named(&found, "same_values");
    assert_eq!(has(&same, "octal:0.26"), Some((0, true)));
    assert_eq!(has(&same, "octal:0.06"), None);
    let (a, b) = (octal("0.27", 200), octal("0.06", 200));
    assert_ne!(a, b);
    // Flammenkamp's table maps 0.161 to 0.36: they agree up to heap 518 and differ at 519.
    let (a, b) = (octal("0.161", 520), octal("0.36", 520));
    assert_eq!(a[..519], b[..519]);
    assert_ne!(a[519], b[519]);
    let found = identify(&["octal:0.161"]);
    assert_eq!(has(&named(&found, "same_values"), "octal:0.36"), None);
    // Given only the first 500 values, 0.36 agrees as far as they go: evidence, not proof.
    let found = identify_stdin(&a[..500], &[]);
    assert_eq!(has(&named(&found, "same_values"), "octal:0.36"), Some((0, false)));
}

#[test]
fn a_row_of_the_cutting_game_is_dawsons_kayles() {
    let found = identify(&["cutting", "--size", "300x300", "--row", "2"]);
    assert_eq!(found["sequence"], "cutting row w = 2");
    assert_eq!(found["from"], 2);
    let same = named(&found, "same_values");
    assert_eq!(has(&same, "octal:0.07"), Some((-2, false)));
    // The row, from the table grundy computes, against 0.07 computed here.
    let grid = common::stdout_of(&["compute", "cutting", "--size", "2x300", "--format", "grid"]);
    let row: Vec<u32> =
        grid.lines().nth(1).unwrap().split(',').skip(1).map(|v| v.parse().unwrap()).collect();
    let kayles = octal("0.07", 300);
    assert!(row.iter().enumerate().all(|(i, &v)| v == kayles[i]));
}

#[test]
fn patterns_names_the_known_rows_of_a_board() {
    let text = common::stdout_of(&["patterns", "cutting", "--size", "300x300"]);
    let row2 = text.lines().find(|l| l.trim_start().starts_with("row w = 2 = ")).unwrap();
    assert!(row2.contains("octal:0.07(h - 2), agrees on h = 2..=300"), "{row2}");
    let out =
        grundy().args(["patterns", "cutting", "--size", "300x300", "--json"]).output().unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let lines = report["known"]["lines"].as_array().unwrap();
    let row2 = lines.iter().find(|l| l["line"] == "row w = 2").unwrap();
    assert!(row2["matches"].as_array().unwrap().iter().any(|m| m["class"] == "octal:0.07"
        || m["members"].as_array().unwrap().iter().any(|g| g["game"] == "octal:0.07")));
    // No line is named after the game itself.
    assert!(lines.iter().all(|l| l["matches"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| !m["class"].as_str().unwrap().starts_with("cutting "))));
    // A heap game is named too.
    let text = common::stdout_of(&["patterns", "octal:0.137", "--size", "500"]);
    assert!(text.contains("known as: "), "{text}");
    assert!(text.contains("octal:0.07(n + 1)"), "{text}");
}

#[test]
fn no_match_is_an_answer_not_an_error() {
    // Values no game has: the heap sizes themselves, scrambled.
    let values: Vec<u32> = (0..300u32).map(|n| (n * 7919) % 1009).collect();
    let found = identify_stdin(&values, &[]);
    assert_eq!(found["same_values"], serde_json::json!([]));
    let out = grundy().arg("identify").write_stdin("5 3 9 9 1 7 3 3 12 40 2 1").output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("same values: none"));
}

#[test]
fn files_and_csv_columns_are_sequences_too() {
    let dir = tempfile::tempdir().unwrap();
    let bfile = dir.path().join("k.b");
    let values = octal("0.77", 100);
    let text: String = values.iter().enumerate().map(|(n, v)| format!("{n} {v}\n")).collect();
    std::fs::write(&bfile, text).unwrap();
    let found = identify(&[bfile.to_str().unwrap()]);
    assert_eq!(has(&named(&found, "same_values"), "kayles"), Some((0, false)));
    let csv = dir.path().join("data.csv");
    let rows: String = values.iter().map(|v| format!("x,{v}\n")).collect();
    std::fs::write(&csv, format!("label,kayles\n{rows}")).unwrap();
    for field in ["kayles", "2"] {
        let found = identify(&[csv.to_str().unwrap(), "--field", field]);
        assert_eq!(has(&named(&found, "same_values"), "kayles"), Some((0, false)));
    }
}

#[test]
fn an_index_of_your_own_is_built_by_a_survey_and_searched() {
    let dir = tempfile::tempdir().unwrap();
    let index = dir.path().join("mine.jsonl.gz");
    let index = index.to_str().unwrap();
    grundy()
        .args(["survey", "octal:0.?", "subtraction:any-of-3", "wythoff", "--size", "63"])
        .args(["--until-proved", "--limit", "4096", "--format", "index", "--out", index, "-q"])
        .assert()
        .success();
    // Dawson's Kayles is not in it, but 0.4 is: 0.07(n) = 0.4(n + 1).
    let values = octal("0.07", 300);
    assert_eq!(octal("0.4", 301)[1..], values[..]);
    let found = identify_stdin(&values, &["--index", index]);
    assert_eq!(has(&named(&found, "same_values"), "octal:0.4"), Some((1, false)));
    assert_eq!(has(&named(&found, "same_values"), "octal:0.07"), None);
    let header = &found["index"];
    assert!(header["built_with"].as_str().unwrap().starts_with("grundy survey octal:0.? "));
    // 7 codes, 7 sets, Wythoff's 8 rows and its diagonal (symmetric: no columns), 9 OEIS.
    assert_eq!(header["members"], 7 + 7 + 9 + 9);
    // Wythoff's row 3, by its OEIS values, in it.
    let row3 = [3, 4, 5, 6, 2, 0, 1, 9, 10, 12, 8, 7, 15, 11, 16, 18, 14, 13, 21, 17];
    let found = identify_stdin(&row3, &["--index", index]);
    assert_eq!(has(&named(&found, "same_values"), "wythoff row a = 3"), Some((0, false)));
    assert_eq!(has(&named(&found, "same_values"), "OEIS A004484"), Some((0, false)));
    // The same survey's rows, written as CSV, list every family's members once.
    let csv = common::stdout_of(&["survey", "octal:0.?", "octal:0.?", "kayles", "--size", "50"]);
    assert_eq!(csv.lines().count(), 1 + 7 + 1, "{csv}");
}

/// An index file of one endless line is refused in bounded memory, in one line (issue 50:
/// `--index /dev/zero` was killed at 512 MiB; a 300 MB one-line file peaked at 299 MB).
#[cfg(unix)]
#[test]
fn an_index_of_one_endless_line_is_refused_in_bounded_memory() {
    let dir = tempfile::tempdir().unwrap();
    // 64 MiB of zero bytes and no newline (a sparse file: this process holds none of it).
    let long = dir.path().join("long.jsonl");
    std::fs::File::create(&long).unwrap().set_len(64 << 20).unwrap();
    for index in ["/dev/zero", long.to_str().unwrap()] {
        let (ok, stderr, peak) =
            common::peak_of(&["identify", "kayles", "--size", "100", "--index", index, "--quiet"]);
        assert!(!ok, "{index}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains("longer than 4 MiB: not an index"), "{index}: {stderr}");
        assert!(peak < 48 << 20, "{index}: peak {} MiB", peak >> 20);
    }
}

/// Values read from standard input are said to be read, not computed; a match is given with a
/// shift that covers the first value given (issue 50: octal 0.73 from heap 7 came with
/// k = −1, valid by its period but with no value for the first term).
#[test]
fn read_values_are_read_and_their_shift_covers_the_first() {
    let values = octal("0.73", 207)[7..].to_vec();
    let text: Vec<String> = values.iter().map(u32::to_string).collect();
    let out = grundy().arg("identify").write_stdin(text.join(" ")).output().unwrap();
    let out = String::from_utf8(out.stdout).unwrap();
    assert!(out.starts_with("standard input: n = 0..=199 (200 values read)"), "{out}");
    let found = identify_stdin(&values, &[]);
    let (shift, _) = has(&named(&found, "same_values"), "octal:0.73").expect("octal:0.73 found");
    assert!(shift >= 0, "k = {shift} leaves a(0) without b(k)");
    let class = found["same_values"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["members"].as_array().unwrap().iter().any(|m| m["game"] == "octal:0.73"))
        .unwrap();
    assert_eq!(class["from"], 0, "the match covers the first value: {class}");
    // A game's values are computed.
    let game = grundy().args(["identify", "kayles", "--size", "100"]).output().unwrap();
    assert!(String::from_utf8_lossy(&game.stdout).contains("values computed"));
}
