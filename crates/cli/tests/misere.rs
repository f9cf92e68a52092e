//! Misère play end to end: `compute`, `value`, `moves`, `patterns`, `check`, `plot` and
//! `survey` with `--misere`, against facts known independently of grundy (misère Kayles'
//! P-positions, Winning Ways' genera, Bouton's misère rule) and against each other.

use crate::common;

use common::grundy;
use serde_json::Value;

fn stdout(args: &[&str]) -> String {
    let output = grundy().args(args).output().unwrap();
    assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&stdout(args)).unwrap()
}

/// Whether a sum of Kayles rows (sorted lengths) is a misère P-position, by the definition: it
/// has a move (a non-empty row) and every move (knock down one pin or two adjacent ones,
/// splitting the row) leaves an N-position.
fn kayles_p(rows: Vec<u8>, memo: &mut std::collections::HashMap<Vec<u8>, bool>) -> bool {
    if let Some(&p) = memo.get(&rows) {
        return p;
    }
    let mut p = rows.iter().any(|&r| r > 0);
    'moves: for (i, &row) in rows.iter().enumerate() {
        for take in 1..=2u8.min(row) {
            for left in 0..=row - take {
                let mut next = rows.clone();
                next.remove(i);
                next.extend([left, row - take - left].into_iter().filter(|&r| r > 0));
                next.sort_unstable();
                if kayles_p(next, memo) {
                    p = false;
                    break 'moves;
                }
            }
        }
    }
    memo.insert(rows, p);
    p
}

/// Misère Kayles: its single-heap P-positions against the definition, and the first genera
/// Winning Ways gives (0^120 1^031 2^20 3^31 1^031 4^146).
#[test]
fn misere_kayles_has_its_known_p_positions_and_genera() {
    let mut memo = std::collections::HashMap::new();
    let expected: Vec<usize> = (0..=24u8)
        .filter(|&n| kayles_p(vec![n].into_iter().filter(|&r| r > 0).collect(), &mut memo))
        .map(usize::from)
        .collect();
    let csv = stdout(&["compute", "kayles", "--size", "24", "--misere"]);
    let mut lines = csv.lines();
    assert_eq!(lines.next(), Some("n,misere,genus,tameness"));
    let rows: Vec<Vec<String>> = lines.map(|l| l.split(',').map(String::from).collect()).collect();
    let p: Vec<usize> =
        rows.iter().filter(|r| r[1] == "0").map(|r| r[0].parse().unwrap()).collect();
    assert_eq!(p, expected);
    assert_eq!(&p[..4], [1, 4, 9, 12]);
    let genera: Vec<&str> = rows[..6].iter().map(|r| r[2].as_str()).collect();
    assert_eq!(genera, ["0^120", "1^031", "2^20", "3^31", "1^031", "4^146"]);
    assert_eq!(rows[4][3], "tame");
    assert_eq!(rows[5][3], "restive");
    let outcomes = stdout(&["compute", "kayles", "--size", "4", "--misere", "--outcome"]);
    assert_eq!(outcomes, "n,outcome,genus,tameness\n0,N,0^120,tame\n1,P,1^031,tame\n2,N,2^20,tame\n3,N,3^31,tame\n4,P,1^031,tame\n");
    let summary = json(&["compute", "kayles", "--size", "30", "--misere", "--format", "summary"]);
    assert_eq!(summary["play"], "misere");
    assert!(summary["p_positions"].as_u64().unwrap() >= 5);
    assert_eq!(summary["tame_up_to"], 4);
    assert_eq!(summary["restive"], 1);
}

/// A misère board is the same table whatever the engine, the threads or the layout.
#[test]
fn misere_boards_agree_across_engines_and_layouts() {
    let size = ["--size", "60x45", "--misere"];
    let run = |extra: &[&str]| {
        let mut args = vec!["compute", "wythoff"];
        args.extend(size);
        args.extend(extra);
        stdout(&args)
    };
    let reference = run(&["--engine", "reference"]);
    assert_ne!(reference, stdout(&["compute", "wythoff", "--size", "60x45"]));
    for extra in [
        &["--engine", "tiles"][..],
        &["--engine", "waves", "--threads", "2"],
        &["--stream"],
        &["--threads", "1"],
    ] {
        assert_eq!(run(extra), reference, "{extra:?}");
    }
    // Misère Wythoff's P-positions near the corner: (0, 1), (1, 0), (2, 2), then the normal
    // ones (3, 5), (5, 3), … (the misère play of Wythoff differs only there).
    let outcomes = stdout(&["compute", "wythoff", "--size", "5x5", "--misere", "--outcome"]);
    let p: Vec<(usize, usize)> = outcomes
        .lines()
        .skip(1)
        .enumerate()
        .flat_map(|(i, line)| {
            line.split(',').skip(1).enumerate().filter(|(_, c)| *c == "P").map(move |(j, _)| (i, j))
        })
        .collect();
    assert_eq!(p, [(0, 1), (1, 0), (2, 2), (3, 5), (5, 3)]);
}

/// Bouton's misère rule on sums of Nim heaps, and a sum of different games.
#[test]
fn misere_sums_follow_bouton_and_name_their_winning_moves() {
    // Three heaps of one: the player to move takes one, and so on: they take the last. P.
    let report = json(&["value", "--misere", "nim", "1x1", "+", "nim", "1x0", "--json"]);
    assert_eq!(report["outcome"], "P");
    assert_eq!(report["method"], "tame rule");
    // 2 + 2: nim-sum 0 with a heap above 1: P; 2 + 3: N.
    assert_eq!(json(&["value", "--misere", "nim", "2x2", "--json"])["outcome"], "P");
    assert_eq!(json(&["value", "--misere", "nim", "2x3", "--json"])["outcome"], "N");
    let text = stdout(&["value", "--misere", "kayles", "9", "12"]);
    assert!(text.contains("kayles") || text.contains("9: misère 0"), "{text}");
    assert!(text.contains("outcome: N under misère play"), "{text}");
    let moves = stdout(&["moves", "--misere", "kayles", "5", "7"]);
    assert!(moves.contains("N under misère play (the player to move wins)"), "{moves}");
    assert!(
        moves.contains("winning moves (each leaves a P-position: a sum of value 0):\n  5 -> 1 + 3"),
        "{moves}"
    );
    let json_moves = json(&["moves", "--misere", "kayles", "5", "7", "--json"]);
    let options = json_moves["components"].as_array().unwrap().iter().flat_map(|c| {
        c["groups"].as_array().unwrap().iter().flat_map(|g| g["options"].as_array().unwrap())
    });
    assert_eq!(options.filter(|m| m["winning"] == true).count(), 2);
    // A spec that says `play = "misere"` makes the sum misère without the flag.
    let spec = grundy_testkit::fixtures::path("misere-steps");
    let spec = spec.to_str().unwrap();
    assert_eq!(json(&["value", spec, "1", "--json"])["outcome"], "P");
    assert_eq!(json(&["value", spec, "3", "--json"])["play"], "misere");
}

/// Proofs under misère play: the subtraction window holds, the Octal Periodicity Theorem is
/// not applied, and the finite box proves a misère rule.
#[test]
fn misere_patterns_prove_only_what_holds() {
    let report = json(&["patterns", "subtraction:1,3,4", "--size", "200", "--misere", "--json"]);
    let sequence = &report["sequence"];
    assert_eq!(sequence["proved"], true, "{report}");
    assert!(sequence["argument"].as_str().unwrap().contains("under misère play too"));
    // 31 heaps: the genera of Kayles' heaps (part of the report) take 1 s there and 17 s on 41.
    let kayles = json(&["patterns", "kayles", "--size", "30", "--misere", "--json"]);
    assert_ne!(kayles["sequence"]["proved"], true, "{kayles}");
    let spec = grundy_testkit::fixtures::path("steps");
    let spec = spec.to_str().unwrap();
    let check = |claim: &str| {
        json(&[
            "check", spec, "--size", "30x30", "--misere", "--p-set", claim, "--period", "2x2",
            "--json",
        ])
    };
    let right = check("(n + m) % 2 == 1");
    assert_eq!(right["verdict"], "agrees", "{right}");
    assert_eq!(right["proved"], true, "{right}");
    let wrong = grundy()
        .args([
            "check",
            spec,
            "--size",
            "30x30",
            "--misere",
            "--p-set",
            "(n + m) % 2 == 0",
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(wrong.status.code(), Some(1), "a claim that disagrees exits 1");
    let wrong: Value = serde_json::from_slice(&wrong.stdout).unwrap();
    assert_eq!(wrong["verdict"], "disagrees");
}

/// `plot` and `survey` take --misere too.
#[test]
fn misere_plots_and_surveys() {
    let dir = tempfile::tempdir().unwrap();
    let png = dir.path().join("k.png");
    stdout(&[
        "plot",
        "kiki",
        "--size",
        "40x40",
        "--misere",
        "--outcome",
        "--out",
        png.to_str().unwrap(),
    ]);
    assert!(std::fs::metadata(&png).unwrap().len() > 0);
    let survey =
        stdout(&["survey", "--misere", "subtraction:2-of-4", "--size", "60", "--no-seconds"]);
    let normal = stdout(&["survey", "subtraction:2-of-4", "--size", "60", "--no-seconds"]);
    assert_ne!(survey, normal);
    assert!(survey.lines().count() == normal.lines().count());
}

#[test]
fn misere_quotients_print_their_presentation() {
    // Tame Kayles (heaps up to 4) has the tame quotient T₂ = ⟨a, b | a² = 1, b³ = b⟩.
    let text = stdout(&["patterns", "kayles", "--misere-quotient", "--heaps", "4"]);
    assert!(text.contains("order 6, P-portion 2"), "{text}");
    assert!(text.contains("relations: a^2 = 1, b^3 = b"), "{text}");
    // Every heap to 30 is a P-position exactly when its class is in the P-portion, as the
    // definition says.
    let report = json(&["patterns", "kayles", "--misere-quotient", "--heaps", "30", "--json"]);
    assert_eq!(report["last_heap"], 30);
    let p_portion: Vec<&str> =
        report["p_positions"].as_array().unwrap().iter().map(|w| w.as_str().unwrap()).collect();
    let mut memo = std::collections::HashMap::new();
    for entry in report["heaps"].as_array().unwrap() {
        let heap = entry[0].as_u64().unwrap() as u8;
        let class = entry[1].as_str().unwrap();
        let rows = if heap == 0 { vec![] } else { vec![heap] };
        assert_eq!(p_portion.contains(&class), kayles_p(rows, &mut memo), "heap {heap}: {class}");
    }
}

/// A sum far past the exact search's reach is answered when its game's standings are proved
/// periodic (the subtraction window) and every heap is tame (issue 50: "too far out"); a search
/// that runs says so once, with its bounds (issue 50: silent for up to 600 s).
#[test]
fn far_misere_sums_use_the_proved_standings_and_a_long_search_says_it_runs() {
    let far = json(&["value", "--misere", "subtraction:1,2,3", "10^12", "7", "--json"]);
    assert_eq!(far["method"], "tame rule");
    // 10^12 is 0 modulo the period 4, from heap 0: heap 4 stands as it does.
    let near = json(&["value", "--misere", "subtraction:1,2,3", "4", "7", "--json"]);
    assert_eq!(far["value"], near["value"]);
    assert_eq!(far["components"][0]["value"], near["components"][0]["value"]);
    // Kayles splits heaps: no law answers it far out.
    let refused = grundy().args(["value", "--misere", "kayles", "10^12", "7"]).output().unwrap();
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("too far out"));
    // A long search, its standard error no terminal: one note, then its limit.
    let output = grundy()
        .args(["value", "--misere", "kayles", "40", "41", "--search-seconds", "3"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        stderr.matches("note: the exact misère search over sums is running").count(),
        1,
        "{stderr}"
    );
    assert!(stderr.contains("it stops after 3 s (--search-seconds)"), "{stderr}");
    assert!(stderr.contains("ran past its limit of 3 s"), "{stderr}");
    // A short one says nothing.
    let quick = grundy().args(["value", "--misere", "kayles", "5", "7"]).output().unwrap();
    assert!(quick.stderr.is_empty(), "{}", String::from_utf8_lossy(&quick.stderr));
}

/// The misère values of heaps 0 to `last` of the octal code `0.d1d2…` whose digits (0–3) are
/// `digits`, by the definition: heap n may become heap n − k for each k ≥ 1 whose digit has
/// bit 2 (n > k), or nothing when n = k and the digit has bit 1. A position without a move is
/// worth 1 (its player has no move, so the other made the last move and lost): heap 0, and the
/// nothing a whole heap's taking leaves (issue 58: it was counted 0).
fn takes_misere_values(digits: &[u8], last: usize) -> Vec<u32> {
    const WITHOUT_A_MOVE: u32 = 1;
    let mut values: Vec<u32> = Vec::with_capacity(last + 1);
    for n in 0..=last {
        let mut options = Vec::new();
        for (i, &digit) in digits.iter().enumerate() {
            let k = i + 1;
            if digit & 1 != 0 && n == k {
                options.push(WITHOUT_A_MOVE);
            }
            if digit & 2 != 0 && n > k {
                options.push(values[n - k]);
            }
        }
        let value = match options.is_empty() {
            true => WITHOUT_A_MOVE,
            false => (0..).find(|v| !options.contains(v)).unwrap(),
        };
        values.push(value);
    }
    values
}

/// Every octal code with digits 0–3 and at most three digits (63 codes), each as its digits
/// and its name (`octal:0.123`).
fn codes_that_only_take() -> impl Iterator<Item = (Vec<u8>, String)> {
    (1..64u8).map(|n| {
        let mut digits = vec![n & 3, (n >> 2) & 3, n >> 4];
        while digits.last() == Some(&0) {
            digits.pop();
        }
        let code: String = digits.iter().map(|d| char::from(b'0' + d)).collect();
        (digits, format!("octal:0.{code}"))
    })
}

/// Every octal code with digits 0–3 and at most three digits, under `compute --misere`, equals
/// the definition up to heap 40 (issue 58: 54 of these 63 codes panicked on a genus mismatch).
#[test]
fn every_octal_code_that_only_takes_computes_its_misere_values() {
    let mut codes = 0;
    for (digits, name) in codes_that_only_take() {
        let csv = stdout(&["compute", &name, "--size", "40", "--misere"]);
        let mut lines = csv.lines();
        assert_eq!(lines.next(), Some("n,misere,genus,tameness"), "{name}");
        let values: Vec<u32> =
            lines.map(|line| line.split(',').nth(1).unwrap().parse().unwrap()).collect();
        assert_eq!(values, takes_misere_values(&digits, 40), "{name}");
        codes += 1;
    }
    assert_eq!(codes, 63);
}

/// Misère octal codes without splits have their period proved (the take-away window: past the
/// largest removal t every heap has the same moves), and each period proved on a short table
/// holds on the definition's first 2000 heaps; a code that splits heaps is not proved so.
#[test]
fn misere_periods_of_codes_that_only_take_are_proved_and_hold() {
    let mut proved_on_40 = 0;
    for (digits, name) in codes_that_only_take() {
        let values = takes_misere_values(&digits, 2000);
        for size in ["10", "40"] {
            let args = ["patterns", &name, "--misere", "--size", size, "--law-seconds", "0"];
            let report = json(&[&args[..], &["--json"]].concat());
            let sequence = &report["sequence"];
            if sequence["proved"] != true {
                continue;
            }
            proved_on_40 += usize::from(size == "40");
            let argument = sequence["argument"].as_str().unwrap();
            assert!(argument.starts_with("octal game without splits"), "{name}: {argument}");
            let e = sequence["preperiod"].as_u64().unwrap() as usize;
            let p = sequence["period"].as_u64().unwrap() as usize;
            let wrong = (e..=2000 - p).find(|&n| values[n + p] != values[n]);
            assert_eq!(wrong, None, "{name} on {size} heaps: period {p} from {e}");
        }
    }
    assert_eq!(proved_on_40, 63, "every code's period is proved on 41 heaps");
    let splits = json(&["patterns", "octal:0.7", "--misere", "--size", "40", "--json"]);
    assert_ne!(splits["sequence"]["proved"], true, "{splits}");
}

/// `check --misere` agrees with the definition's P-set on the codes of issue 58, and refuses a
/// claim that agreed with the old, wrong tables (heap 1 of 0.1 is P: its one move takes the
/// whole heap, and its mover makes the last move).
#[test]
fn check_misere_states_the_p_positions_of_codes_that_take_a_whole_heap() {
    type Rule = fn(usize) -> bool;
    let claims: [(&str, &[u8], &str, Rule); 5] = [
        ("0.1", &[1], "n == 1", |n| n == 1),
        ("0.3", &[3], "n % 2 == 1", |n| n % 2 == 1),
        ("0.31", &[3, 1], "n % 2 == 1", |n| n % 2 == 1),
        ("0.13", &[1, 3], "n % 4 == 1 || n % 4 == 2", |n| n % 4 == 1 || n % 4 == 2),
        ("0.01", &[0, 1], "n == 2", |n| n == 2),
    ];
    for (code, digits, p_set, rule) in claims {
        let values = takes_misere_values(digits, 40);
        for (n, value) in values.iter().enumerate() {
            assert_eq!(*value == 0, rule(n), "0.{code}: the stated rule at heap {n}");
        }
        let name = format!("octal:{code}");
        let out = stdout(&["check", &name, "--size", "40", "--misere", "--p-set", p_set]);
        assert!(out.contains("agrees on all 41 cells"), "{name}: {out}");
    }
    let wrong = grundy()
        .args(["check", "octal:0.3", "--size", "40", "--misere", "--p-set", "n % 2 == 0 && n > 0"])
        .output()
        .unwrap();
    assert_eq!(wrong.status.code(), Some(1), "{}", String::from_utf8_lossy(&wrong.stdout));
}

/// The other front doors take the empty position's value from the same place: `survey
/// --misere` (issue 58: wrong rows for 0.01, 0.11, 0.21 and 0.31), `value --misere` and `moves
/// --misere` (the exact search), and `patterns --misere` (the fill behind its report).
#[test]
fn every_front_door_agrees_on_codes_that_take_a_whole_heap() {
    let csv = stdout(&["survey", "octal:0.?1", "--misere", "--size", "30"]);
    let mut rows = csv.lines().skip_while(|line| !line.starts_with("game,"));
    let header: Vec<&str> = rows.next().unwrap().split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let mut seen = 0;
    for row in rows {
        let cells: Vec<&str> = row.split(',').collect();
        let Some(code) = cells[0].strip_prefix("octal:0.") else { continue };
        let digits: Vec<u8> = code.bytes().map(|b| b - b'0').collect();
        if digits.iter().any(|&d| d > 3) {
            continue;
        }
        let values = takes_misere_values(&digits, 30);
        let p = values.iter().filter(|&&v| v == 0).count();
        assert_eq!(cells[column("p_positions")], p.to_string(), "survey --misere: {row}");
        let max = values.iter().max().unwrap();
        assert_eq!(cells[column("max")], max.to_string(), "survey --misere: {row}");
        seen += 1;
    }
    assert_eq!(seen, 4, "0.01, 0.11, 0.21 and 0.31");
    let values = takes_misere_values(&[3, 1], 12);
    for (n, &value) in values.iter().enumerate() {
        let heap = n.to_string();
        let report = json(&["value", "--misere", "octal:0.31", &heap, "--json"]);
        assert_eq!(report["value"], value, "value --misere octal:0.31 {n}");
        let moves = stdout(&["moves", "--misere", "octal:0.31", &heap]);
        let outcome = if value == 0 { "P under misère play" } else { "N under misère play" };
        assert!(moves.contains(outcome), "moves --misere octal:0.31 {n}: {moves}");
    }
    // 0.1's misère values are 1, 0, then 1 for ever (the old table: 1 for ever).
    let report = json(&["patterns", "octal:0.1", "--size", "40", "--misere", "--json"]);
    let sequence = &report["sequence"];
    assert_eq!((&sequence["preperiod"], &sequence["period"]), (&2.into(), &1.into()), "{report}");
}

/// Issue 60, item 2: the play convention is one value, `--play`, of which `--misere` is the
/// short form; `--play normal` plays a misère spec under normal play.
#[test]
fn play_misere_is_misere_and_play_normal_undoes_a_misere_spec() {
    let out = |args: &[&str]| {
        let output = grundy().args(args).output().unwrap();
        assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stdout).unwrap()
    };
    for command in [&["compute", "octal:0.3", "--size", "30"][..], &["value", "kayles", "5", "9"]] {
        let short = out(&[command, &["--misere"]].concat());
        assert_eq!(out(&[command, &["--play", "misere"]].concat()), short);
        assert_ne!(out(&[command, &["--play", "normal"]].concat()), short, "{command:?}");
    }
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, play: &str| {
        let path = dir.path().join(name);
        std::fs::write(
            &path,
            format!(
                "name = \"heap\"\ndescription = \"one heap\"\n{play}axes = [{{ name = \"n\", \
                 min = 0 }}]\n[[rules]]\nkind = \"slide\"\ndirections = [[-1]]\n"
            ),
        )
        .unwrap();
        path.to_str().unwrap().to_string()
    };
    let misere = write("misere.toml", "play = \"misere\"\n");
    let normal = write("normal.toml", "");
    let table =
        |spec: &str, play: &[&str]| out(&[&["compute", spec, "--size", "12"][..], play].concat());
    assert_ne!(table(&misere, &[]), table(&normal, &[]));
    assert_eq!(table(&misere, &["--play", "normal"]), table(&normal, &[]));
    assert_eq!(table(&normal, &["--misere"]), table(&misere, &[]));
}
