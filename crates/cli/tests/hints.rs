//! A refusal that suggests another command suggests one that runs (issue 52): the suggestion is
//! made only when the library prepares the suggested fill and it fits in the same budget.

use assert_cmd::Command;

fn grundy(args: &[&str]) -> (bool, String, String) {
    let out = Command::cargo_bin("grundy").unwrap().args(args).output().unwrap();
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (out.status.success(), text(out.stdout), text(out.stderr))
}

/// A table refused in memory whose stream fits: the refusal names `--stream`, and the command
/// with `--stream` runs in the same budget.
#[test]
fn a_suggested_stream_runs() {
    let args =
        ["compute", "nim", "--size", "100000x100", "--format", "summary", "--max-memory", "64M"];
    let (ok, _, err) = grundy(&args);
    assert!(!ok && err.contains("--stream computes it row by row"), "{err}");
    let (ok, out, err) = grundy(&[&args[..], &["--stream", "--quiet"]].concat());
    assert!(ok, "{err}");
    assert!(out.contains("\"cells\":10100101"), "{out}");

    let (ok, _, err) = grundy(&["value", "nim", "100000x100", "--max-memory", "64M"]);
    let suggested = "`grundy compute nim --size 100000x100 --stream`";
    assert!(!ok && err.contains(suggested), "{err}");
    let (ok, _, err) = grundy(&[
        "compute",
        "nim",
        "--size",
        "100000x100",
        "--stream",
        "--format",
        "summary",
        "--max-memory",
        "64M",
        "--quiet",
    ]);
    assert!(ok, "{err}");
}

/// A table whose stream does not fit either: no suggestion of `--stream`.
#[test]
fn no_refusal_suggests_a_refused_stream() {
    let args =
        ["compute", "wythoff", "--size", "99x999999", "--format", "summary", "--max-memory", "1G"];
    let (ok, _, err) = grundy(&args);
    assert!(!ok, "{err}");
    assert!(!err.contains("--stream"), "{err}");
    let (ok, _, streamed) = grundy(&[&args[..], &["--stream"]].concat());
    assert!(!ok, "{streamed}");
    // Wythoff's far position is answered by its proved law (issue 61); a queen that also moves
    // as a knight has no law found, and is refused without a stream to suggest.
    let (ok, out, err) = grundy(&["value", "wythoff", "99x999999", "--max-memory", "1G"]);
    assert!(ok && out.contains("answered by the p-set law"), "{err}");
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("wythoff-knight.toml");
    std::fs::write(
        &spec,
        "name = \"wythoff-knight\"\naxes = [{ name = \"a\", min = 0 }, { name = \"b\", min = 0 }]\n\
         [[rules]]\nkind = \"slide\"\ndirections = [[-1, 0], [0, -1], [-1, -1]]\n\
         [[rules]]\nkind = \"step\"\noffsets = [[-2, -1], [-1, -2]]\n",
    )
    .unwrap();
    let spec = spec.to_str().unwrap();
    let (ok, _, err) = grundy(&["value", spec, "99x999999", "--max-memory", "1G"]);
    assert!(!ok && err.contains("needs 262.7 GiB"), "{err}");
    assert!(!err.contains("--stream"), "{err}");
}
