//! Every Walnut file `check --walnut` writes for the claims the suites prove or refute by
//! automata is accepted by the real Walnut (issue 69), with grundy's verdicts: every sentence of
//! a proved claim TRUE; for a refuted one, the sentence grundy names FALSE and the ones decided
//! before it TRUE. Walnut is found by `GRUNDY_WALNUT_RUN` or in the shared folder beside the
//! project (`../shared/walnut/walnut-run`; it needs Java 21 and Debian's jars, which `.ci/run`
//! installs). Without it the test says why and passes, unless `GRUNDY_REQUIRE_EXTERNAL` is set.

mod common;

use common::grundy;
use grundy_testkit::fixtures;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The claims: the game (a catalog name or a fixture's path), its play, the size checked, the
/// kind of claim and the claim, each agreeing with its table. Drawn from the automata's suites:
/// the famous laws, claims true on a box only, claims outside the fragment at a position, the
/// misère laws and their refutations (`ends`), claims that leave a coordinate unread, and
/// Wythoff's game with terminal positions.
fn claims() -> Vec<(String, &'static str, &'static str, &'static str, &'static str)> {
    let fixture = |name: &str| fixtures::path(name).to_string_lossy().into_owned();
    let misere_wythoff = "a + b == 1 || (a == 2 && b == 2) || (min(a, b) >= 3 && min(a, b) == floor(abs(a - b) * phi))";
    let cases: Vec<(String, &str, &str, &str, &str)> = vec![
        ("nim".into(), "normal", "24x24", "--values", "xor(a, b)"),
        ("nim".into(), "normal", "24x24", "--p-set", "a == b"),
        ("wythoff".into(), "normal", "60x60", "--p-set", "min(a, b) == floor(abs(a - b) * phi)"),
        (
            "wythoff-short-diagonal".into(),
            "normal",
            "40x40",
            "--p-set",
            "(a == b && a % 3 == 0) || (min(a, b) % 3 == 1 && abs(a - b) == 1)",
        ),
        (
            fixture("wythoff-from-1"),
            "normal",
            "40x40",
            "--p-set",
            "min(a - 1, b - 1) == floor(abs(a - b) * phi)",
        ),
        // True on the box only: refuted beyond it.
        ("nim".into(), "normal", "24x24", "--values", "xor(a, b) + if(a == 1000 && b == 3, 1, 0)"),
        ("nim".into(), "normal", "24x24", "--values", "xor(a, b) % 64"),
        ("nim".into(), "normal", "24x24", "--p-set", "a == b || a + b == 3000"),
        (
            "wythoff".into(),
            "normal",
            "60x60",
            "--p-set",
            "min(a, b) == floor(abs(a - b) * phi) && a + b < 5000",
        ),
        // Outside the fragment at a position: an obligation refuted.
        ("nim".into(), "normal", "24x24", "--values", "if(a >= 0, xor(a, b), xor(a - 1, b))"),
        // A coordinate left unread.
        (fixture("heap-a"), "normal", "24x24", "--p-set", "a == 0"),
        (fixture("heap-a"), "normal", "24x24", "--values", "a + 0"),
        (fixture("heap-a"), "normal", "24x24", "--p-set", "a == 0 && b < 1000"),
        // Misère play: `ends`.
        ("nim".into(), "misere", "24x24", "--p-set", "(a == b && a >= 2) || a + b == 1"),
        ("wythoff".into(), "misere", "40x40", "--p-set", misere_wythoff),
        (fixture("powers-of-two"), "misere", "200", "--values", "(1 - n) % 3"),
        (fixture("powers-of-two"), "misere", "200", "--p-set", "n % 3 == 1"),
        (fixture("powers-of-two"), "normal", "200", "--values", "n % 3"),
        (fixture("heap-a"), "misere", "24x24", "--p-set", "a == 1"),
        // Terminal positions: no move starts where the condition holds.
        (
            fixture("wythoff-terminal"),
            "normal",
            "40x40",
            "--p-set",
            "a + b <= 1 || min(a, b) + 1 == floor(abs(a - b) * phi)",
        ),
        (
            fixture("wythoff-terminal"),
            "normal",
            "40x40",
            "--p-set",
            "(a + b <= 1 || min(a, b) + 1 == floor(abs(a - b) * phi)) && a < 3000",
        ),
        (
            fixture("heap-a"),
            "misere",
            "24x24",
            "--p-set",
            "(a == 1 && b < 1000) || (a == 0 && b >= 1000)",
        ),
    ];
    cases
}

/// `walnut-run`, when it is here.
fn walnut_run() -> Result<PathBuf, String> {
    if let Some(path) = std::env::var_os("GRUNDY_WALNUT_RUN") {
        let path = PathBuf::from(path);
        return match path.is_file() {
            true => Ok(path),
            false => Err(format!("GRUNDY_WALNUT_RUN names no file ({})", path.display())),
        };
    }
    let beside = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/walnut/walnut-run");
    [beside, PathBuf::from("/work/shared/walnut/walnut-run")]
        .into_iter()
        .find(|path| path.is_file())
        .ok_or_else(|| {
            "no walnut-run (set GRUNDY_WALNUT_RUN, or keep ../shared/walnut beside the project)"
                .into()
        })
}

/// The verdicts grundy's argument implies for the sentences of `file`, in its order: `Some`
/// where one is known.
fn expected(file: &str, report: &Value) -> Vec<(String, Option<bool>)> {
    let names: Vec<String> = file
        .lines()
        .filter_map(|line| line.strip_prefix("eval "))
        .map(|rest| rest.split(' ').next().unwrap().to_string())
        .collect();
    let argument = report["argument"].as_str().unwrap();
    if report["proved"] == true {
        return names.into_iter().map(|n| (n, Some(true))).collect();
    }
    // "refute NAME:" for a refuted sentence, an obligation's counterexample for a claim outside
    // the fragment (the first `defined` sentence that fails).
    let refuted = names
        .iter()
        .position(|n| argument.contains(&format!("refute {n}:")))
        .or_else(|| {
            argument
                .contains("outside the automatic prover's fragment: at")
                .then(|| names.iter().position(|n| n.starts_with("defined")))
                .flatten()
        })
        .unwrap_or_else(|| panic!("no sentence named in {argument}"));
    names
        .into_iter()
        .enumerate()
        .map(|(i, n)| {
            let verdict = match i.cmp(&refuted) {
                std::cmp::Ordering::Less => Some(true),
                std::cmp::Ordering::Equal => Some(false),
                std::cmp::Ordering::Greater => None,
            };
            (n, verdict)
        })
        .collect()
}

#[test]
#[ignore = "runs the real Walnut (a JVM per file): the walnut step of .ci/run"]
fn walnut_accepts_every_file_and_agrees_with_every_verdict() {
    let required = std::env::var_os("GRUNDY_REQUIRE_EXTERNAL").is_some();
    let runner = match walnut_run() {
        Ok(runner) => runner,
        Err(why) if required => panic!("Walnut is required here (GRUNDY_REQUIRE_EXTERNAL): {why}"),
        Err(why) => return eprintln!("skipped: {why}"),
    };
    let dir = tempfile::tempdir().unwrap();
    let mut files = Vec::new();
    let mut unproved = 0;
    for (index, (game, play, size, option, claim)) in claims().into_iter().enumerate() {
        let file = dir.path().join(format!("claim{index}.txt"));
        let output = grundy()
            .args(["check", &game, "--play", play, "--size", size, option, claim, "--json"])
            .arg("--walnut")
            .arg(&file)
            .output()
            .unwrap();
        assert!(output.status.success(), "{claim}: {}", String::from_utf8_lossy(&output.stderr));
        let report: Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(report["verdict"], "agrees", "{game} {claim}: {report}");
        let text = std::fs::read_to_string(&file).unwrap();
        unproved += usize::from(report["proved"] != true);
        files.push((file, claim, expected(&text, &report)));
    }
    let output = Command::new(&runner).args(files.iter().map(|(file, ..)| file)).output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    match output.status.code() {
        Some(3) if required => panic!("Walnut is required here but cannot run: {stderr}"),
        Some(3) => return eprintln!("skipped: Walnut cannot run here: {stderr}"),
        Some(0) => {}
        _ => panic!("Walnut refused a line: {stderr}"),
    }
    // One line per eval, file after file, in order.
    let stdout = String::from_utf8_lossy(&output.stdout);
    let mut verdicts = stdout.lines();
    let mut refuted = 0;
    for (file, claim, expected) in &files {
        for (name, verdict) in expected {
            let line = verdicts.next().unwrap_or_else(|| panic!("{claim}: no verdict for {name}"));
            let (said, walnut) = line.split_once(' ').unwrap();
            assert_eq!(said, name, "{claim} ({})", file.display());
            if let Some(verdict) = verdict {
                let want = if *verdict { "TRUE" } else { "FALSE" };
                assert_eq!(walnut, want, "{claim}: Walnut says {name} is {walnut}");
                refuted += usize::from(!verdict);
            }
        }
    }
    assert!(verdicts.next().is_none(), "more verdicts than sentences");
    // Every claim grundy did not prove had its FALSE sentence compared, and there are some.
    assert_eq!(refuted, unproved, "{stdout}");
    assert!(refuted >= 5, "{stdout}");
}
