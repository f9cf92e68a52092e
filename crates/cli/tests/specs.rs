//! Games stated in spec files, end to end: compute, value, show, 3-D tables and spec errors.

use crate::common;

use common::{grundy, stdout_of};
use std::fs;
use std::path::Path;

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

const MY_GAME: &str = r#"
name = "my-game"
description = "Wythoff, but the diagonal moves go by 1 or 2 only"
axes = [{ name = "a", min = 0 }, { name = "b", min = 0 }]

[[rules]]
kind = "slide"
directions = [[-1, 0], [0, -1]]

[[rules]]
kind = "jump"
directions = [[-1, -1]]
steps = [1, 2]
"#;

#[test]
fn a_spec_file_computes_like_the_catalog_game_it_restates() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "my-game.toml", MY_GAME);
    let mine = stdout_of(&["compute", &path, "--size", "300x300"]);
    assert_eq!(mine, stdout_of(&["compute", "wythoff-short-diagonal", "--size", "300x300"]));
    assert!(mine.starts_with("a\\b,0,1,2,3"));
    let summary: serde_json::Value = serde_json::from_str(&stdout_of(&[
        "compute", &path, "--size", "300x300", "--format", "summary",
    ]))
    .unwrap();
    assert_eq!(summary["game"], "my-game");
    let value = stdout_of(&["value", &path, "7x9", "3x4"]);
    assert_eq!(value, stdout_of(&["value", "wythoff-short-diagonal", "7x9", "3x4"]));
}

#[test]
fn show_prints_a_spec_that_reads_back_to_the_same_game() {
    let dir = tempfile::tempdir().unwrap();
    for game in ["kiki", "subtraction:2,5", "octal:4.07", "cutting-cuboid"] {
        let spec = stdout_of(&["show", game]);
        let path = write(dir.path(), "shown.toml", &spec);
        let size = match game {
            "kiki" => "20x20",
            "cutting-cuboid" => "5x5x5",
            _ => "60",
        };
        let format = if game == "cutting-cuboid" { "long" } else { "grid" };
        assert_eq!(
            stdout_of(&["compute", &path, "--size", size, "--format", format]),
            stdout_of(&["compute", game, "--size", size, "--format", format]),
            "{game}"
        );
    }
    assert!(
        stdout_of(&["show", "kiki"]).contains("HDU 2147"),
        "the catalog spec is shown with its comments"
    );
    let path = write(dir.path(), "mine.toml", MY_GAME);
    assert_eq!(stdout_of(&["show", &path]), MY_GAME);
}

#[test]
fn three_dimensional_tables_are_long() {
    let csv = stdout_of(&["compute", "cutting-cuboid", "--size", "4x2x5", "--format", "long"]);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "x,y,z,g");
    assert_eq!(lines.len(), 1 + 3 * 4, "x in 2..=4, y = 2, z in 2..=5");
    assert_eq!(lines[1], "2,2,2,0");
    assert_eq!(lines[12], "4,2,5,1");
    assert_eq!(csv, stdout_of(&["compute", "cutting-cuboid", "--size", "4x2x5"]));
    let value: serde_json::Value =
        serde_json::from_str(&stdout_of(&["value", "cutting-cuboid", "4x2x5", "--json"])).unwrap();
    assert_eq!(value["value"], 1);
}

#[test]
fn every_catalog_spec_computes_from_the_command_line() {
    let catalog = stdout_of(&["games"]);
    for line in catalog.lines() {
        let name = line.split_whitespace().next().unwrap();
        if name.contains(':') {
            continue;
        }
        // Each axis runs to a size for its count of axes, or to its `max` (`n in 0..=63`: a
        // loopy game's board is the whole of its bounded axes).
        let axes: Vec<&str> =
            line.split("  ").filter(|part| !part.is_empty()).nth(1).unwrap().split(", ").collect();
        let size: Vec<&str> = axes
            .iter()
            .map(|axis| axis.split("..=").nth(1).unwrap_or(["40", "12", "6"][axes.len() - 1]))
            .collect();
        let size = size.join("x");
        let output = stdout_of(&["compute", name, "--size", &size, "--format", "summary"]);
        assert!(output.contains(&format!("\"game\":\"{name}\"")), "{output}");
    }
}

/// Each spec error: exit code 2 and one line naming the file, the rule and the field.
#[test]
fn spec_errors_name_the_file_the_rule_and_the_field() {
    let dir = tempfile::tempdir().unwrap();
    let with_rule = |rule: &str| {
        format!("name = \"bad\"\naxes = [{{ name = \"n\", min = 1 }}, {{ name = \"m\", min = 1 }}]\n\n[[rules]]\n{rule}\n")
    };
    let cases = [
        (with_rule("kind = \"teleport\""), "rule 1, field `kind`: unknown rule kind `teleport`"),
        (with_rule("kind = \"jump\"\ndirections = [[-1, 0]]\nsteps = \"odd\""), "rule 1 (jump), field `steps`: unknown named set `odd`"),
        (with_rule("kind = \"step\"\noffsets = [[1, -1]]"), "rule 1 (step), field `offsets`: offset [1, -1] raises axis `n`, which has no `max`"),
        (with_rule("kind = \"slide\"\ndirections = [[0, 0]]"), "rule 1 (slide), field `directions`: direction [0, 0] is zero"),
        (with_rule("kind = \"jump\"\ndirections = [[-1, 0]]\nsteps = []"), "rule 1 (jump), field `steps`: the step set is empty"),
        (with_rule("kind = \"step\"\noffsets = [[-1, 0, 0]]"), "rule 1 (step), field `offsets`: offset [-1, 0, 0] has 3 coordinates but the game has 2 axes"),
        (with_rule("kind = \"split\"\naxis = \"k\"\nmin-piece = 1"), "rule 1 (split), field `axis`: no axis `k` (the axes are n, m)"),
        (
            "name = \"bad\"\naxes = [{ name = \"n\" }]\n[[rules]]\nkind = \"take-and-break\"\ncode = \"0.7z\"\n".to_string(),
            "rule 1 (take-and-break), field `code`: `z` in `0.7z` is not a digit",
        ),
        ("name = \"bad\"\naxes = [{ name = \"n\" }\n".to_string(), "TOML syntax error at line 2, column"),
    ];
    for (text, expected) in cases {
        let path = write(dir.path(), "bad.toml", &text);
        let output = grundy().args(["compute", &path, "--size", "5x5"]).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains(&format!("{path}: {expected}")),
            "\n{text}\ngave   {stderr}\nwanted {expected}"
        );
    }
    let output = grundy().args(["compute", "no-such-file.toml", "--size", "5"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("cannot read spec file no-such-file.toml")
    );
}

/// Issue 11, item 7: `steps = "2.."` (every amount from 2 on) was refused while `"2..=9"` worked.
#[test]
fn unbounded_step_ranges() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "open.toml",
        "name = \"open\"\ndescription = \"take 2 or more from either pile\"\n\
         axes = [{ name = \"a\", min = 0 }, { name = \"b\", min = 0 }]\n\
         [[rules]]\nkind = \"jump\"\ndirections = [[-1, 0], [0, -1]]\nsteps = \"2..\"\n",
    );
    let tiles = stdout_of(&["compute", &path, "--size", "60x60"]);
    assert_eq!(tiles, stdout_of(&["compute", &path, "--size", "60x60", "--engine", "reference"]));
    // One pile is the subtraction game of every amount from 2: values 0 0 1 1 2 2 ...
    assert!(tiles.lines().nth(1).unwrap().starts_with("0,0,0,1,1,2,2,3,3,"), "{tiles}");
    assert!(stdout_of(&["show", &path]).contains("steps = \"2..\""));
}

/// Issue 11, item 6: 3-D games write the long format by default; a grid is refused by name.
#[test]
fn three_dimensional_tables_default_to_long() {
    let long = stdout_of(&["compute", "cutting-cuboid", "--size", "3x3x3"]);
    assert!(long.starts_with("x,y,z,g\n2,2,2,0\n"), "{long}");
    assert_eq!(long.lines().count(), 1 + 8);
    let output = grundy()
        .args(["compute", "cutting-cuboid", "--size", "3x3x3", "--format", "grid"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("a 3-D table has no grid format"));
}

/// Issue 11, item 6: `patterns`, `plot` and `check` take a 2-D slice of a 3-D table.
#[test]
fn slices_of_three_dimensional_tables() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("cuboid.csv");
    let table = table.to_str().unwrap();
    stdout_of(&["compute", "cutting-cuboid", "--size", "12x12x12", "--out", table]);
    let from_game: serde_json::Value = serde_json::from_str(&stdout_of(&[
        "patterns",
        "cutting-cuboid",
        "--size",
        "12x12x12",
        "--slice",
        "z=5",
        "--json",
    ]))
    .unwrap();
    let from_file: serde_json::Value =
        serde_json::from_str(&stdout_of(&["patterns", table, "--slice", "z=5", "--json"])).unwrap();
    assert_eq!(from_game["axes"], serde_json::json!(["x", "y"]));
    assert_eq!(from_game["game"], "cutting-cuboid at z = 5");
    assert_eq!(from_game["outcome"], from_file["outcome"]);
    // The slice's values are the 3-D table's at z = 5 (the cuboid game is a sum of three cutting
    // games' strips, so g(x, y, 5) = g(x, 5, y) by symmetry).
    let slice_y: serde_json::Value = serde_json::from_str(&stdout_of(&[
        "patterns",
        "cutting-cuboid",
        "--size",
        "12x12x12",
        "--slice",
        "y=5",
        "--json",
    ]))
    .unwrap();
    assert_eq!(slice_y["outcome"]["period"], from_game["outcome"]["period"]);
    let png = dir.path().join("slice.png");
    stdout_of(&[
        "plot",
        "cutting-cuboid",
        "--size",
        "12x12x12",
        "--slice",
        "x=4",
        "--out",
        png.to_str().unwrap(),
    ]);
    assert!(fs::read(&png).unwrap().starts_with(b"\x89PNG"));
    let check: serde_json::Value = serde_json::from_str(&stdout_of(&[
        "check",
        "cutting-cuboid",
        "--size",
        "12x12x12",
        "--slice",
        "z=2",
        "--holds",
        "g >= 0",
        "--json",
    ]))
    .unwrap();
    assert_eq!(check["cells"], 11 * 11);
    for (args, message) in [
        (
            &["patterns", "cutting-cuboid", "--size", "5x5x5", "--slice", "w=3"][..],
            "has no axis `w` (its axes: x, y, z)",
        ),
        (
            &["patterns", "cutting-cuboid", "--size", "5x5x5", "--slice", "z=9"],
            "z runs from 2 to 5",
        ),
        (
            &["patterns", "cutting-cuboid", "--size", "5x5x5", "--slice", "z"],
            "malformed --slice `z`",
        ),
        (&["patterns", "kiki", "--size", "5x5", "--slice", "n=2"], "but kiki has 2 axes"),
        (&["plot", "cutting-cuboid", "--size", "5x5x5", "--out", "x.png"], "take a 2-D slice"),
    ] {
        let output = grundy().current_dir(dir.path()).args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}

/// Every command a catalog spec's comments tell the user to run exists (issue 50: the
/// knight-retreat spec said `grundy spec`, which does not).
#[test]
fn the_commands_named_in_catalog_specs_exist() {
    let help = stdout_of(&["--help"]);
    let commands: Vec<&str> = help
        .lines()
        .skip_while(|line| !line.starts_with("Commands:"))
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .collect();
    assert!(commands.contains(&"show") && commands.contains(&"compute"), "{commands:?}");
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("../core/games");
    let mut named = 0;
    for entry in fs::read_dir(games).unwrap() {
        let path = entry.unwrap().path();
        let text = fs::read_to_string(&path).unwrap();
        for comment in text.lines().filter_map(|line| line.strip_prefix('#')) {
            for (at, mark) in comment.match_indices("`grundy ") {
                let word = comment[at + mark.len()..].split([' ', '`']).next().unwrap();
                assert!(
                    commands.contains(&word),
                    "{}: `grundy {word}` is no command",
                    path.display()
                );
                named += 1;
            }
        }
    }
    assert!(named > 0, "the specs name no command at all");
}

/// Issue 59, item 6: an axis may not take a word that claims reserve. Axes named `true` and
/// `false` made `patterns` panic (and the view's `/api/patterns` answer 500); an axis named `g`
/// silently took the value's place in `--holds`, so a claim meant something else. An axis
/// `g_b` beside an axis `b` would likewise be read where a claim meant `b`'s edge.
#[test]
fn axes_named_after_reserved_words_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let pairs = [
        ("true", "false", "true"),
        ("n", "g", "g"),
        ("phi", "m", "phi"),
        ("n", "min", "min"),
        ("g_b", "b", "g_b"),
        ("a", "g_", "g_"),
    ];
    for (first, second, refused) in pairs {
        let spec = write(
            dir.path(),
            &format!("{first}-{second}.toml"),
            &format!(
                "name = \"reserved\"\naxes = [{{ name = \"{first}\", min = 0 }}, \
                 {{ name = \"{second}\", min = 0 }}]\n[[rules]]\nkind = \"step\"\n\
                 offsets = [[-1, 0], [0, -1]]\n"
            ),
        );
        for args in [
            vec!["patterns", &spec, "--size", "9x9"],
            vec!["check", &spec, "--size", "9x9", "--holds", "g == 0 || g > 0"],
            vec!["compute", &spec, "--size", "9x9"],
        ] {
            let output = grundy().args(&args).output().unwrap();
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
            assert!(stderr.contains(&format!("bad axis name `{refused}`")), "{args:?}: {stderr}");
            assert!(stderr.contains("none of the words claims reserve (g, true, false, phi"));
            assert_eq!(stderr.lines().count(), 1, "{stderr}");
        }
    }
    // A CSV table's header is held to the same rule.
    for header in ["g\\m", "g_m\\m"] {
        let csv = write(dir.path(), "g.csv", &format!("{header},0,1\n0,0,1\n1,1,0\n"));
        let output = grundy().args(["patterns", &csv]).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{}", String::from_utf8_lossy(&output.stderr));
    }
}
