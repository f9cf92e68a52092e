//! What installing grundy gives beside the binary (issue 53): shell completions that the shell
//! loads, man pages that `man` reads, and a `--version` that names the build.

use crate::common;

use common::{grundy, stdout_of};
use std::process::Command;

#[test]
fn bash_sources_the_completion_script_and_completes_commands() {
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("grundy.bash");
    std::fs::write(&script, stdout_of(&["completions", "bash"])).unwrap();
    // Source it, then ask its function for the words after `grundy pat`.
    let probe = format!(
        "set -e; source '{}'; complete -p grundy; COMP_WORDS=(grundy pat); COMP_CWORD=1; \
         COMP_LINE='grundy pat'; COMP_POINT=10; _grundy grundy pat grundy; \
         printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        script.display()
    );
    let out = Command::new("bash").args(["--norc", "-c", &probe]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("complete -o bashdefault") && text.contains("patterns"), "{text}");
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        assert!(stdout_of(&["completions", shell]).contains("patterns"), "{shell}");
    }
    grundy().args(["completions", "tcsh"]).assert().code(2);
}

#[test]
fn man_reads_the_generated_pages() {
    let page = stdout_of(&["completions", "man"]);
    assert!(page.contains(".TH grundy 1"), "{page}");
    for command in ["compute", "patterns", "check", "view", "completions"] {
        assert!(page.contains(&format!("grundy\\-{command}(1)")), "{command}");
    }
    let dir = tempfile::tempdir().unwrap();
    grundy().args(["completions", "man", "--dir"]).arg(dir.path()).assert().success();
    let compute = std::fs::read_to_string(dir.path().join("grundy-compute.1")).unwrap();
    assert!(compute.contains(".TH grundy-compute 1") && compute.contains("\\-\\-size"));
    // `man` itself, where it is installed (CI installs man-db): the page renders with its name.
    match Command::new("man")
        .arg("-l")
        .arg(dir.path().join("grundy.1"))
        .env("MANWIDTH", "80")
        .output()
    {
        Ok(out) if out.status.success() => {
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(text.contains("Sprague") && text.contains("patterns"), "{text}");
        }
        Ok(out) => panic!("man -l failed: {}", String::from_utf8_lossy(&out.stderr)),
        Err(_) => no_man("the `man -l` reading"),
    }
    grundy().args(["completions", "bash", "--dir"]).arg(dir.path()).assert().code(2);
}

#[test]
fn the_version_names_the_revision_and_the_features() {
    let text = stdout_of(&["--version"]);
    // "grundy 0.1.0 (revision 0123456789ab; optional features: none)"
    let revision = text.split("(revision ").nth(1).and_then(|r| r.split(';').next()).unwrap();
    assert!(
        revision == "unknown"
            || (revision.len() == 12 && revision.chars().all(|c| c.is_ascii_hexdigit())),
        "{text}"
    );
    assert!(text.starts_with(&format!("grundy {} (", env!("CARGO_PKG_VERSION"))), "{text}");
    assert!(text.contains("optional features: "), "{text}");
}

/// Says that a check needing `man` was skipped, or fails where `.ci/run` requires it.
fn no_man(check: &str) {
    let why = "no man on this machine (`apt-get install man-db` to run it)";
    assert!(
        std::env::var_os("GRUNDY_REQUIRE_EXTERNAL").is_none(),
        "{check} is required, but {why}"
    );
    eprintln!("skipped {check}: {why}");
}

/// The README's lines after `cargo install`, run as written, in a fresh home whose
/// `~/.cargo/bin` holds `grundy` (where `cargo install` puts it): the completion script loads,
/// `man` finds the pages the README installs, `--version` answers.
#[test]
fn the_readme_install_lines_run_as_written() {
    let readme = include_str!("../../../README.md");
    let line = |start: &str| -> String {
        let line = readme.lines().find(|l| l.starts_with(start));
        let line = line.unwrap_or_else(|| panic!("the README has no line `{start}...`"));
        line.split(" #").next().unwrap().trim().to_string()
    };
    let home = tempfile::tempdir().unwrap();
    let bin = home.path().join(".cargo/bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_grundy"), bin.join("grundy")).unwrap();
    let run = |script: &str| {
        Command::new("bash")
            .args(["--norc", "-c", &format!("set -e; {script}")])
            .env_clear()
            .env("HOME", home.path())
            .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
            .env("MANPAGER", "cat")
            .env("MANWIDTH", "80")
            .output()
            .unwrap()
    };
    let out = run(&format!("{}; complete -p grundy", line("source <(grundy completions bash)")));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let version = run(&line("grundy --version"));
    assert!(String::from_utf8_lossy(&version.stdout).starts_with("grundy "));
    let man_line = line("grundy completions man --dir ");
    if Command::new("man").arg("--version").output().is_err() {
        return no_man("reading the installed pages with `man`");
    }
    let out = run(&man_line);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{man_line}: {}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("grundy-patterns") && text.contains("law-seconds"), "{text}");
}

/// Issue 59, item 10: `completions man --dir` keeps its pages as grundy keeps its own files. A
/// symbolic link planted as `grundy.1` (to a file, or dangling) was written through, and a FIFO
/// there blocked the command for ever; each is refused in one line, exit 2, before any page is
/// written, and the link's target is untouched. An older page is replaced.
#[cfg(unix)]
#[test]
fn man_pages_follow_no_link_and_wait_on_no_fifo() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "precious\n").unwrap();
    type Plant<'a> = &'a dyn Fn(&std::path::Path);
    let cases: [(&str, Plant<'_>); 3] = [
        ("a link to a file", &|page| symlink(&victim, page).unwrap()),
        ("a dangling link", &|page| symlink(dir.path().join("nowhere.txt"), page).unwrap()),
        ("a FIFO", &|page| {
            let path = std::ffi::CString::new(page.to_str().unwrap()).unwrap();
            // SAFETY: a NUL-terminated path and a mode.
            assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0);
        }),
    ];
    for (i, (what, plant)) in cases.iter().enumerate() {
        let man = dir.path().join(format!("man{i}"));
        std::fs::create_dir(&man).unwrap();
        plant(&man.join("grundy.1"));
        let output = grundy()
            .args(["completions", "man", "--dir", man.to_str().unwrap()])
            .timeout(std::time::Duration::from_secs(20))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{what}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{what}: {stderr}");
        assert!(stderr.contains("grundy.1"), "{what}: {stderr}");
        let written = std::fs::read_dir(&man).unwrap().count();
        assert_eq!(written, 1, "{what}: no page is written beside it");
    }
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    assert!(!dir.path().join("nowhere.txt").exists());
    // An older page, a regular file, is replaced.
    let man = dir.path().join("again");
    std::fs::create_dir(&man).unwrap();
    std::fs::write(man.join("grundy.1"), "old page\n").unwrap();
    grundy().args(["completions", "man", "--dir", man.to_str().unwrap()]).assert().success();
    assert!(std::fs::read_to_string(man.join("grundy.1")).unwrap().starts_with(".ie"));
}
