//! Loopy games end to end: a spec whose moves raise a coordinate on a bounded board, computed by
//! `compute` (CSV with `inf` and K, P/N/D outcomes, numpy, summary) and summed by `value`,
//! against a brute force written here from the rules: the board's win/lose/draw outcomes by the
//! plainest fixpoint, Smith's conditions read off the long CSV, and sums by the fixpoint on the
//! sum's own graph.

use crate::common;

use common::{grundy, stdout_of};
use std::collections::HashMap;

/// Wythoff's moves on an 8×8 board, plus a step along the anti-diagonal either way.
const SPEC: &str = r#"name = "wythoff-anti"
description = "Wythoff's moves, plus a step along the anti-diagonal either way"
axes = [{ name = "n", min = 0, max = 7 }, { name = "m", min = 0, max = 7 }]

[[rules]]
kind = "slide"
directions = [[-1, 0], [0, -1], [-1, -1]]

[[rules]]
kind = "step"
offsets = [[1, -1], [-1, 1]]
"#;

const SIDE: i64 = 8;

/// The options of (n, m) by the spec's rules, written out here.
fn options(n: i64, m: i64) -> Vec<(i64, i64)> {
    let on = |(a, b): (i64, i64)| (0..SIDE).contains(&a) && (0..SIDE).contains(&b);
    let mut out = Vec::new();
    for k in 1..SIDE {
        out.extend([(n - k, m), (n, m - k), (n - k, m - k)].into_iter().filter(|&p| on(p)));
    }
    out.extend([(n + 1, m - 1), (n - 1, m + 1)].into_iter().filter(|&p| on(p)));
    out
}

/// Win/lose/draw of every node of a graph: P when every option is N (so without a move), N
/// when some option is P, until nothing changes; the rest are draws.
fn outcomes(graph: &[Vec<usize>]) -> Vec<char> {
    let mut outcome = vec!['?'; graph.len()];
    loop {
        let mut changed = false;
        for u in 0..graph.len() {
            if outcome[u] != '?' {
                continue;
            }
            if graph[u].iter().any(|&v| outcome[v] == 'P') {
                outcome[u] = 'N';
                changed = true;
            } else if graph[u].iter().all(|&v| outcome[v] == 'N') {
                outcome[u] = 'P';
                changed = true;
            }
        }
        if !changed {
            return outcome.into_iter().map(|o| if o == '?' { 'D' } else { o }).collect();
        }
    }
}

fn board_graph() -> Vec<Vec<usize>> {
    let index = |(n, m): (i64, i64)| (n * SIDE + m) as usize;
    (0..SIDE * SIDE).map(|u| options(u / SIDE, u % SIDE).into_iter().map(index).collect()).collect()
}

/// The outcomes of the sum of two positions of `board`, pair (a, b) at a · cells + b, by the
/// fixpoint on the pairs' own graph (a move moves in one of the two).
fn pair_outcomes(board: &[Vec<usize>]) -> Vec<char> {
    let cells = board.len();
    let pairs: Vec<Vec<usize>> = (0..cells * cells)
        .map(|x| {
            let (a, b) = (x / cells, x % cells);
            let first = board[a].iter().map(|&v| v * cells + b);
            first.chain(board[b].iter().map(|&v| a * cells + v)).collect()
        })
        .collect();
    outcomes(&pairs)
}

fn spec_file(dir: &tempfile::TempDir) -> String {
    let path = dir.path().join("wythoff-anti.toml");
    std::fs::write(&path, SPEC).unwrap();
    path.to_str().unwrap().to_string()
}

/// The records of a long CSV (quoted fields read as the csv crate reads them), header left out.
fn long_rows(text: &str) -> Vec<Vec<String>> {
    csv::Reader::from_reader(text.as_bytes())
        .records()
        .map(|record| record.unwrap().iter().map(str::to_string).collect())
        .collect()
}

/// A loopy long CSV's `g` and `infinite` fields: the value (`None` for ∞, written -1, with
/// `inf(K)` beside it) and K.
fn loopy_cell(g: &str, infinite: &str) -> (Option<u32>, Vec<u32>) {
    if g == "-1" {
        let k = infinite.strip_prefix("inf(").and_then(|rest| rest.strip_suffix(')'));
        let k = k.unwrap_or_else(|| panic!("∞ without inf(K): {infinite:?}"));
        (None, k.split(',').filter(|v| !v.is_empty()).map(|v| v.parse().unwrap()).collect())
    } else {
        assert_eq!(infinite, "", "a finite value has no K");
        (Some(g.parse().unwrap()), Vec::new())
    }
}

#[test]
fn loopy_tables_meet_smiths_conditions_and_the_brute_force_outcomes() {
    let dir = tempfile::tempdir().unwrap();
    let spec = spec_file(&dir);
    let long = stdout_of(&["compute", &spec, "--size", "7x7", "--format", "long"]);
    assert!(long.starts_with("n,m,g,infinite\n"), "{long}");
    // (n, m) → (value or None for ∞, K).
    let mut values: HashMap<(i64, i64), (Option<u32>, Vec<u32>)> = HashMap::new();
    for fields in long_rows(&long) {
        let pos = (fields[0].parse().unwrap(), fields[1].parse().unwrap());
        let (value, k) = loopy_cell(&fields[2], &fields[3]);
        values.insert(pos, (value, k));
    }
    assert_eq!(values.len(), (SIDE * SIDE) as usize);
    let expected = outcomes(&board_graph());
    let grid = stdout_of(&["compute", &spec, "--size", "7x7", "--outcome"]);
    let mut kinds = HashMap::new();
    for (n, row) in grid.lines().skip(1).enumerate() {
        for (m, cell) in row.split(',').skip(1).enumerate() {
            let letter = cell.chars().next().unwrap();
            assert_eq!(letter, expected[n * SIDE as usize + m], "outcome of ({n}, {m})");
            *kinds.entry(letter).or_insert(0) += 1;
        }
    }
    assert!(kinds.len() == 3, "P, N and D all occur: {kinds:?}");
    for (&(n, m), (value, k)) in &values {
        let of: Vec<Option<u32>> = options(n, m).iter().map(|p| values[p].0).collect();
        match value {
            Some(v) => {
                assert!(!of.contains(&Some(*v)), "({n}, {m}) = {v} has an option of value {v}");
                assert!((0..*v).all(|j| of.contains(&Some(j))), "({n}, {m}) = {v} misses one");
                // An option of larger or infinite value can be answered back to v.
                for p in options(n, m) {
                    if values[&p].0.is_none_or(|w| w > *v) {
                        let back = options(p.0, p.1).iter().any(|q| values[q].0 == Some(*v));
                        assert!(back, "({n}, {m}) = {v}: no way back from {p:?}");
                    }
                }
            }
            None => {
                let mut finite: Vec<u32> = of.iter().flatten().copied().collect();
                finite.sort_unstable();
                finite.dedup();
                assert_eq!(&finite, k, "K of ({n}, {m}) is its options' finite values");
            }
        }
    }
    let summary: serde_json::Value = serde_json::from_str(&stdout_of(&[
        "compute", &spec, "--size", "7x7", "--format", "summary",
    ]))
    .unwrap();
    assert_eq!(summary["engine"], "retrograde");
    assert_eq!(summary["cells"], 64);
    let count = |c| expected.iter().filter(|&&o| o == c).count();
    assert_eq!(summary["draws"], count('D'));
    assert_eq!(summary["p_positions"], count('P'));
    // numpy: ∞ is the largest uint32.
    let npy = grundy()
        .args(["compute", &spec, "--size", "7x7", "--format", "npy"])
        .output()
        .unwrap()
        .stdout;
    let body = &npy[npy.len() - 64 * 4..];
    for (i, cell) in body.chunks(4).enumerate() {
        let label = u32::from_le_bytes(cell.try_into().unwrap());
        let value = values[&(i as i64 / SIDE, i as i64 % SIDE)].0;
        assert_eq!(label, value.unwrap_or(u32::MAX), "cell {i}");
    }
}

#[test]
fn sums_with_loopy_components_agree_with_the_sums_graph() {
    let dir = tempfile::tempdir().unwrap();
    let spec = spec_file(&dir);
    // The sum of two boards, by the fixpoint on the pairs of positions.
    let cells = board_graph().len();
    let truth = pair_outcomes(&board_graph());
    let mut seen = HashMap::new();
    for (a, b) in [(0, 9), (3, 17), (12, 40), (63, 63), (5, 5), (21, 44), (2, 58), (30, 31)] {
        let pos = |u: usize| format!("{}x{}", u / SIDE as usize, u % SIDE as usize);
        let out = stdout_of(&["value", &spec, &pos(a), &pos(b), "--json"]);
        let report: serde_json::Value = serde_json::from_str(&out).unwrap();
        let outcome = report["outcome"].as_str().unwrap().chars().next().unwrap();
        assert_eq!(outcome, truth[a * cells + b], "{} + {}: {out}", pos(a), pos(b));
        *seen.entry(outcome).or_insert(0) += 1;
    }
    assert!(seen.len() >= 2, "{seen:?}");
    // With a nim-heap: ∞_K + *x is an N-position exactly when x is in K.
    let text = stdout_of(&["value", &spec, "0x3", "+", "nim", "0x0"]);
    assert!(text.contains("outcome: N"), "{text}");
}

/// `moves` of a sum of two boards: each move's outcome (the opponent to move) is the outcome
/// of the pair it leaves, by the fixpoint on the pairs; the text lists winning moves, moves that
/// keep a draw and the others.
#[test]
fn moves_of_loopy_sums_leave_the_outcomes_of_the_sums_graph() {
    let dir = tempfile::tempdir().unwrap();
    let spec = spec_file(&dir);
    let board = board_graph();
    let cells = board.len();
    let truth = pair_outcomes(&board);
    let index = |to: &serde_json::Value| {
        let p = &to[0];
        (p[0].as_i64().unwrap() * SIDE + p[1].as_i64().unwrap()) as usize
    };
    let mut seen = HashMap::new();
    for (a, b) in [(0, 9), (3, 17), (12, 40), (5, 5), (21, 44), (2, 58), (30, 31), (9, 50)] {
        let pos = |u: usize| format!("{}x{}", u / SIDE as usize, u % SIDE as usize);
        let out = stdout_of(&["moves", &spec, &pos(a), &pos(b), "--json"]);
        let report: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(report["outcome"], truth[a * cells + b].to_string(), "{out}");
        for (j, component) in report["components"].as_array().unwrap().iter().enumerate() {
            let mut moved = 0;
            for group in component["groups"].as_array().unwrap() {
                for option in group["options"].as_array().unwrap() {
                    let v = index(&option["to"]);
                    let after = if j == 0 { v * cells + b } else { a * cells + v };
                    let outcome = option["outcome"].as_str().unwrap();
                    assert_eq!(outcome, truth[after].to_string(), "{} -> {v}: {out}", pos(a));
                    assert_eq!(option["winning"], outcome == "P");
                    *seen.entry(truth[after]).or_insert(0) += 1;
                    moved += 1;
                }
            }
            assert_eq!(moved, board[if j == 0 { a } else { b }].len(), "every move is listed");
        }
    }
    assert_eq!(seen.len(), 3, "moves to P, N and D all occur: {seen:?}");
    // In text: a draw's moves that keep it, and Smith's conditions explained.
    let text = stdout_of(&["moves", "diagonal-shuffle", "4x7"]);
    assert!(text.starts_with("4x7: value inf(); D (a draw"), "{text}");
    assert!(text.contains("moves that keep a draw (each leaves a D-position):"), "{text}");
    assert!(text.contains("so 4x7 is infinite, with K = {}"), "{text}");
    // A sum with a heap game answered by its proved period.
    let text = stdout_of(&["moves", "knight-retreat", "3x5", "+", "kayles", "10^18"]);
    assert!(text.contains("; sum 1; N (the player to move wins)"), "{text}");
    assert!(text.contains("winning moves (each leaves a P-position"), "{text}");
    assert!(text.contains("kayles: period 12 from n = 71"), "{text}");
}

/// `compute --checkpoint` of a loopy game: a run whose table cannot be written keeps the
/// finished labelling in the checkpoint; the next run resumes from it, writes the table of a
/// plain run and deletes it; a run of another game refuses it, and a streamed loopy run is
/// refused. (Stopping between rounds and resuming is the library's test,
/// `a_labelling_stopped_and_resumed_from_its_checkpoint_gives_the_same_values`.)
#[test]
fn a_loopy_runs_checkpoint_keeps_its_labelling_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let ckpt = dir.path().join("knight.ckpt");
    let out = dir.path().join("knight.csv");
    let (ckpt_text, out_text) = (ckpt.to_str().unwrap(), out.to_str().unwrap());
    let base = ["compute", "knight-retreat", "--size", "63x63", "--format", "long"];
    let run = |extra: &[&str]| grundy().args(base).args(extra).output().unwrap();
    let full = run(&["--out", "/dev/full", "--checkpoint", ckpt_text]);
    let stderr = String::from_utf8_lossy(&full.stderr);
    assert_eq!(full.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("the finished table is saved in checkpoint"), "{stderr}");
    assert!(ckpt.exists());
    let other = grundy()
        .args([
            "compute",
            "wythoff",
            "--size",
            "63x63",
            "--checkpoint",
            ckpt_text,
            "--out",
            out_text,
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&other.stderr);
    assert_eq!(other.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("it belongs to knight-retreat up to 63x63"), "{stderr}");
    assert!(!out.exists());
    let resumed = run(&["--out", out_text, "--checkpoint", ckpt_text]);
    let stderr = String::from_utf8_lossy(&resumed.stderr);
    assert!(resumed.status.success(), "{stderr}");
    assert!(
        stderr.starts_with("grundy: resuming from checkpoint")
            && stderr.contains("4096 of 4096 positions labelled"),
        "{stderr}"
    );
    assert!(!ckpt.exists(), "the checkpoint is deleted once the table is written");
    let plain = run(&[]);
    assert!(std::fs::read(&out).unwrap() == plain.stdout, "the resumed table is a plain run's");
    let streamed = run(&["--stream", "--out", out_text, "--checkpoint", ckpt_text]);
    let stderr = String::from_utf8_lossy(&streamed.stderr);
    assert_eq!(streamed.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("not streamed or distributed"), "{stderr}");
}

/// `patterns` of a loopy heap game: its counts, P-positions and draws are the outcome CSV's,
/// and a period is reported from where it starts. (A heap that may always grow has no
/// position without a move below the top, so such games are small or mostly draws.)
#[test]
fn patterns_read_a_loopy_heap_game() {
    let dir = tempfile::tempdir().unwrap();
    for (rules, top) in [("[[-3], [-4], [5]]", 6), ("[[-2], [-3], [1]]", 40), ("[[-1], [4]]", 4)] {
        let spec = dir.path().join("heaps.toml");
        std::fs::write(
            &spec,
            format!(
                "name = \"heaps\"\ndescription = \"a loopy heap game\"\n\
                 axes = [{{ name = \"n\", min = 0, max = {top} }}]\n\
                 [[rules]]\nkind = \"step\"\noffsets = {rules}\n"
            ),
        )
        .unwrap();
        let spec = spec.to_str().unwrap();
        let size = top.to_string();
        let csv = stdout_of(&["compute", spec, "--size", &size, "--outcome"]);
        let outcomes: Vec<char> = csv
            .lines()
            .skip(1)
            .map(|l| l.split(',').nth(1).unwrap().chars().next().unwrap())
            .collect();
        let json = stdout_of(&["patterns", spec, "--size", &size, "--json"]);
        let report: serde_json::Value = serde_json::from_str(&json).unwrap();
        let heaps_of = |which: char| -> Vec<i64> {
            (0..outcomes.len()).filter(|&i| outcomes[i] == which).map(|i| i as i64).collect()
        };
        for (key, letter) in [("p", 'P'), ("n", 'N'), ("d", 'D')] {
            let count = outcomes.iter().filter(|&&o| o == letter).count();
            assert_eq!(report["counts"][key], count, "{rules}: {json}");
        }
        let listed = |key: &str| -> Vec<i64> {
            report[key].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect()
        };
        assert_eq!(listed("p_positions"), heaps_of('P'), "{rules}");
        assert_eq!(listed("draws"), heaps_of('D').into_iter().take(30).collect::<Vec<_>>());
        // A period found is one: the outcomes repeat from its start to the top.
        if let Some(p) = report["outcomes"].as_object() {
            let (period, from) =
                (p["period"].as_u64().unwrap() as usize, p["from"].as_u64().unwrap() as usize);
            for i in from..outcomes.len() - period {
                assert_eq!(outcomes[i], outcomes[i + period], "{rules}: heap {i}");
            }
        }
    }
    // The last game in text: heaps 0..=4, take 1 or add 4.
    let spec = dir.path().join("heaps.toml");
    let text = stdout_of(&["patterns", spec.to_str().unwrap(), "--size", "4"]);
    assert!(text.starts_with("heaps: n = 0..=4 (loopy)\noutcomes:  "), "{text}");
    assert!(text.contains("\nP-positions: "), "{text}");
}

#[test]
fn the_retrograde_engine_gives_an_acyclic_games_table() {
    for (game, size) in [("kiki", "30x30"), ("wythoff", "25x25"), ("subtraction:1,3,4", "200")] {
        let tiles = stdout_of(&["compute", game, "--size", size]);
        let retrograde = stdout_of(&["compute", game, "--size", size, "--engine", "retrograde"]);
        // A heap game's table is in the long layout, where the retrograde fill adds K (empty
        // when every value is finite).
        let retrograde = if size.contains('x') {
            retrograde
        } else {
            let lines =
                retrograde.lines().map(|l| l.rsplit_once(',').unwrap().0.to_string() + "\n");
            lines.collect::<String>()
        };
        assert_eq!(retrograde, tiles, "{game}");
    }
}

/// The loopy catalog games keep the laws their spec files state, on their own board and on
/// copies with other board sizes (`grundy show` gives the spec; a user edits `max`).
#[test]
fn the_loopy_catalog_games_keep_their_stated_laws() {
    type Law = fn(i64, i64) -> &'static str;
    let knight: Law = |n, m| match (n % 3, m) {
        (0, m) if m >= n => "0",
        (_, m) if n % 3 != 0 && m >= n - 1 => "finite",
        _ => "inf",
    };
    let shuffle: Law = |n, m| if (n + m) % 2 == 0 { "min mod 3" } else { "inf" };
    let dir = tempfile::tempdir().unwrap();
    for (game, law) in [("knight-retreat", knight), ("diagonal-shuffle", shuffle)] {
        let spec = stdout_of(&["show", game]);
        assert!(spec.contains("max = 63"), "{spec}");
        for side in [63, 50, 31] {
            let path = dir.path().join(format!("{game}-{side}.toml"));
            std::fs::write(&path, spec.replace("max = 63", &format!("max = {side}"))).unwrap();
            let size = format!("{side}x{side}");
            let long = stdout_of(&[
                "compute",
                path.to_str().unwrap(),
                "--size",
                &size,
                "--format",
                "long",
            ]);
            let outcomes = stdout_of(&[
                "compute",
                path.to_str().unwrap(),
                "--size",
                &size,
                "--outcome",
                "--format",
                "long",
            ]);
            let mut seen = HashMap::new();
            for (cells, outcome) in long_rows(&long).into_iter().zip(outcomes.lines().skip(1)) {
                let (n, m): (i64, i64) = (cells[0].parse().unwrap(), cells[1].parse().unwrap());
                let (value, k) = (cells[2].as_str(), loopy_cell(&cells[2], &cells[3]).1);
                let outcome = outcome.split(',').nth(2).unwrap();
                let expected_outcome = match law(n, m) {
                    "0" => {
                        assert_eq!(value, "0", "{game} {side}: ({n}, {m})");
                        "P"
                    }
                    "finite" => {
                        assert!(["1", "2"].contains(&value), "{game} {side}: ({n}, {m}) = {value}");
                        "N"
                    }
                    "min mod 3" => {
                        let expected = (n.min(m) % 3).to_string();
                        assert_eq!(value, expected, "{game} {side}: ({n}, {m})");
                        if expected == "0" {
                            "P"
                        } else {
                            "N"
                        }
                    }
                    _ => {
                        assert_eq!(value, "-1", "{game} {side}: ({n}, {m})");
                        if k.contains(&0) {
                            "N"
                        } else {
                            "D"
                        }
                    }
                };
                assert_eq!(outcome, expected_outcome, "{game} {side}: ({n}, {m})");
                *seen.entry(outcome.to_string()).or_insert(0) += 1;
            }
            // P-positions, N-positions and draws all occur, many times: not a board of draws.
            assert!(
                ["P", "N", "D"].iter().all(|o| seen.get(*o).copied().unwrap_or(0) > side),
                "{game} {side}: {seen:?}"
            );
        }
        // The catalog game itself computes on its board, and refuses another size in one line.
        let summary = stdout_of(&["compute", game, "--size", "63x63", "--format", "summary"]);
        assert!(summary.contains("\"draws\":"), "{summary}");
        grundy().args(["compute", game, "--size", "30x30"]).assert().code(2);
    }
}

/// A spec whose moves raise a coordinate but all lower a weighted sum has no cycles: `compute`
/// says so (a note, and `acyclic` in the summary), and its values are the plain
/// Sprague–Grundy values, checked here by a memoised mex over the rules.
#[test]
fn an_acyclic_spec_that_raises_a_coordinate_says_so_and_has_plain_values() {
    let spec = "name = \"kiki-sidestep\"\ndescription = \"kiki, or two up and one left\"\n\
                axes = [{ name = \"n\", min = 0, max = 29 }, { name = \"m\", min = 0, max = 19 }]\n\
                [[rules]]\nkind = \"step\"\noffsets = [[-1, 0], [0, -1], [-1, -1], [2, -1]]\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sidestep.toml");
    std::fs::write(&path, spec).unwrap();
    let path = path.to_str().unwrap();
    let done =
        grundy().args(["compute", path, "--size", "29x19", "--format", "long"]).assert().success();
    let stderr = String::from_utf8(done.get_output().stderr.clone()).unwrap();
    assert!(stderr.contains("every move lowers n + 3m: no play goes round"), "{stderr}");
    let long = String::from_utf8(done.get_output().stdout.clone()).unwrap();
    // The values by the definition, in order of n + 3m (every option comes first).
    let mut value = HashMap::new();
    let mut cells: Vec<(i64, i64)> = (0..30).flat_map(|n| (0..20).map(move |m| (n, m))).collect();
    cells.sort_by_key(|&(n, m)| n + 3 * m);
    for (n, m) in cells {
        let options: Vec<u32> = [(-1, 0), (0, -1), (-1, -1), (2, -1)]
            .iter()
            .map(|(a, b)| (n + a, m + b))
            .filter(|&(a, b)| (0..30).contains(&a) && (0..20).contains(&b))
            .map(|p| value[&p])
            .collect();
        value.insert((n, m), (0..).find(|v| !options.contains(v)).unwrap());
    }
    let mut checked = 0;
    for line in long.lines().skip(1) {
        let cells: Vec<&str> = line.split(',').collect();
        let (n, m): (i64, i64) = (cells[0].parse().unwrap(), cells[1].parse().unwrap());
        assert_eq!(cells[2], value[&(n, m)].to_string(), "({n}, {m})");
        checked += 1;
    }
    assert_eq!(checked, 600);
    let summary = stdout_of(&["compute", path, "--size", "29x19", "--format", "summary"]);
    assert!(
        summary.contains("\"acyclic\":\"n + 3m\"") && summary.contains("\"draws\":0"),
        "{summary}"
    );
    // A loopy game's summary has no such field.
    let loopy = stdout_of(&["compute", "knight-retreat", "--size", "63x63", "--format", "summary"]);
    assert!(!loopy.contains("acyclic"), "{loopy}");
}

/// `check` on a loopy board: P-set, draws, values and holds claims, position by position, as
/// evidence (no proof is claimed); counterexamples say what the position is; a draws claim
/// about a game that always ends is refused, and so is a period to prove with.
#[test]
fn check_takes_claims_about_draws_on_loopy_boards() {
    let agrees = |claim: &[&str]| {
        let mut args = vec!["check", "knight-retreat", "--size", "63x63"];
        args.extend(claim);
        let text = stdout_of(&args);
        assert!(text.contains("agrees on all 4096 cells"), "{claim:?}: {text}");
        assert!(text.contains("not proved for every board: no theorem is applied to a loopy game"));
    };
    agrees(&["--p-set", "n % 3 == 0 && m >= n"]);
    agrees(&["--draws", "m < n - 1 || (n % 3 == 0 && m < n)"]);
    agrees(&["--holds", "(g == -1) == (m < n - 1 || (n % 3 == 0 && m < n))"]);
    // 21 positions (3k, 3k - 1) are draws the claim leaves out.
    let out = grundy()
        .args(["check", "knight-retreat", "--size", "63x63", "--draws", "m < n - 1", "--show", "2"])
        .assert()
        .code(1);
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(text.contains("disagrees on 21 of 4096 cells"), "{text}");
    assert!(text.contains("(3, 2): inf (D), claim says P or N"), "{text}");
    // A values claim meets ∞ at the odd squares of diagonal-shuffle.
    let out = grundy()
        .args([
            "check",
            "diagonal-shuffle",
            "--size",
            "63x63",
            "--values",
            "min(n, m) % 3",
            "--json",
        ])
        .assert()
        .code(1);
    let json: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(json["disagreements"], 2048);
    assert_eq!(json["counterexamples"][0]["value"], 4294967295u64);
    for refused in [
        vec!["check", "kiki", "--size", "10x10", "--draws", "n < 0"],
        vec!["check", "kiki", "--size", "10x10", "--draws", "n < 0", "--stream"],
        vec!["check", "knight-retreat", "--size", "63x63", "--draws", "m < n", "--period", "3x1"],
        vec!["check", "knight-retreat", "--size", "63x63", "--draws", "m < n", "--stream"],
        vec!["check", "knight-retreat", "--size", "63x63", "--draws", "m +"],
    ] {
        let out = grundy().args(&refused).assert().code(2);
        let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{refused:?}: {stderr}");
    }
}

/// `patterns` of a loopy game: the outcomes counted, the draws' and P-positions' 2-D period and
/// rule where there is one, each line's outcomes, all as evidence.
#[test]
fn patterns_find_where_the_draws_lie() {
    let text = stdout_of(&["patterns", "diagonal-shuffle", "--size", "63x63"]);
    assert!(text.contains("outcomes:  704 P, 1344 N, 2048 D (evidence only"), "{text}");
    assert!(text.contains("draws: period [2, 2] from (n, m) = (0, 0)"), "{text}");
    assert!(text.contains("P-positions: no 2-D period within the board"), "{text}");
    let json: serde_json::Value = serde_json::from_str(&stdout_of(&[
        "patterns",
        "knight-retreat",
        "--size",
        "63x63",
        "--json",
    ]))
    .unwrap();
    assert_eq!(json["counts"], serde_json::json!({"p": 715, "n": 1407, "d": 1974}));
    assert!(json["draws"]["rule"].is_null());
    // Row n = 3 is D, D, D, then P for good: period 1 from m = 3.
    assert_eq!(json["rows"][3]["period"], 1);
    assert_eq!(json["rows"][3]["from"], 3);
    // The draws rule found holds: `check` agrees with it on the board.
    let draws: serde_json::Value = serde_json::from_str(&stdout_of(&[
        "patterns",
        "diagonal-shuffle",
        "--size",
        "63x63",
        "--json",
    ]))
    .unwrap();
    let rule = draws["draws"]["rule"].as_str().unwrap();
    let checked = stdout_of(&["check", "diagonal-shuffle", "--size", "63x63", "--draws", rule]);
    assert!(checked.contains("agrees on all 4096 cells"), "{checked}");
    // A loopy heap game has no board to plot (`patterns` reads it: see below).
    let dir = tempfile::tempdir().unwrap();
    let heap = dir.path().join("heap.toml");
    let spec = "name = \"h\"\naxes = [{ name = \"n\", min = 0, max = 9 }]\n[[rules]]\nkind = \"step\"\noffsets = [[-2], [1]]\n";
    std::fs::write(&heap, spec).unwrap();
    let out = dir.path().join("h.png");
    let plotted =
        grundy().args(["plot", heap.to_str().unwrap(), "--size", "9", "--out"]).arg(&out).output();
    let plotted = plotted.unwrap();
    assert_eq!(plotted.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&plotted.stderr).contains("plot draws a loopy game's board"));
    assert!(!out.exists());
}
