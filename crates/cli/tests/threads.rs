//! Issue 51: every command runs on one runtime, rayon's global pool built of its `--threads`,
//! so that nothing in it — an index read on first use, a search on a thread of its own, a
//! survey's members — can start another pool as wide as the machine. Counted by the operating
//! system (`/proc/PID/task`), watched while the command runs and read at its end, not by a
//! counter of the crate's own: N worker threads, the main thread, Ctrl-C's watcher and the
//! exact misère search's deep stack make N + 3 at most.

#![cfg(target_os = "linux")]

use crate::common;

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The most threads a process has had while it was watched: its tasks counted every few
/// hundred microseconds until it ends (or until `until` says to stop watching).
fn watch(child: &mut Child, mut until: impl FnMut() -> bool) -> usize {
    let tasks = format!("/proc/{}/task", child.id());
    let mut most = 0;
    loop {
        if let Ok(entries) = std::fs::read_dir(&tasks) {
            most = most.max(entries.count());
        }
        if child.try_wait().unwrap().is_some() || until() {
            return most;
        }
        std::thread::sleep(Duration::from_micros(200));
    }
}

/// The threads the command says it had at its end (`GRUNDY_THREAD_STATS`).
fn at_exit(stderr: &str) -> usize {
    let line = stderr
        .lines()
        .find_map(|line| line.strip_prefix("grundy: threads at exit: "))
        .unwrap_or_else(|| panic!("no thread count in {stderr:?}"));
    line.parse().unwrap()
}

fn command(dir: &Path, args: &[&str], threads: usize) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_grundy"));
    command
        .current_dir(dir)
        .args(args)
        .args(["--threads", &threads.to_string()])
        .env("GRUNDY_THREAD_STATS", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    command
}

/// The most threads `grundy args --threads N` had, watched and at its end.
fn most_threads(dir: &Path, args: &[&str], threads: usize) -> usize {
    let mut child = command(dir, args, threads).spawn().unwrap();
    // Standard error is read on a thread of the test's, so that a full pipe cannot stall it.
    let mut stderr = child.stderr.take().unwrap();
    let reading = std::thread::spawn(move || {
        let mut text = String::new();
        stderr.read_to_string(&mut text).unwrap();
        text
    });
    let watched = watch(&mut child, || false);
    let status = child.wait().unwrap();
    let stderr = reading.join().unwrap();
    assert!(status.success(), "{args:?} --threads {threads}: {stderr}");
    watched.max(at_exit(&stderr))
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).unwrap();
}

/// Every command, with the work that once started threads of its own: the identification of a
/// table against the index (issue 51's `patterns --until-proved`), the misère search's deep
/// stack, a survey's members, a loopy game's graph, a view's server.
#[test]
fn every_command_runs_at_most_n_plus_3_threads() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "values.csv", &common::stdout_of(&["compute", "kiki", "--size", "40x40"]));
    write(
        d,
        "loopy.toml",
        "name = \"loopy-steps\"\ndescription = \"a loopy heap game\"\n\
         axes = [{ name = \"n\", min = 0, max = 400 }]\n\
         [[rules]]\nkind = \"step\"\noffsets = [[-2], [-3], [1]]\n",
    );
    write(
        d,
        "recipe.toml",
        "title = \"t\"\nabout = \"t\"\n[[table]]\nfile = \"kayles.csv\"\nabout = \"k\"\ngame = \"kayles\"\n\
         size = \"300\"\n[[table]]\nfile = \"wythoff.csv\"\nabout = \"w\"\ngame = \"wythoff\"\n\
         size = \"60x60\"\n",
    );
    let commands: &[&[&str]] = &[
        &["compute", "wythoff", "--size", "300x300", "--format", "summary"],
        &["compute", "kiki", "--size", "300x300", "--stream", "--format", "summary"],
        &["compute", "kayles", "--size", "20", "--misere"],
        &["compute", "loopy.toml", "--size", "400"],
        &["patterns", "octal:0.16", "--until-proved", "--json"],
        &["patterns", "kiki", "--size", "60x60", "--json"],
        &["patterns", "kayles", "--misere", "--size", "20", "--json"],
        &["patterns", "kayles", "--misere-quotient", "--heaps", "20"],
        &["check", "kiki", "--size", "60x60", "--stream", "--p-set", "n % 2 == 1 && m % 2 == 1"],
        &["plot", "kiki", "--size", "60x60", "--out", "kiki.png"],
        &["value", "kayles", "10^12", "+", "wythoff", "3x5", "+", "kiki", "700x900"],
        &["value", "--misere", "kayles", "12", "13"],
        &["moves", "kayles", "30", "31"],
        &["survey", "octal:0.?", "--size", "200"],
        &["identify", "octal:0.07", "--size", "300"],
        &["identify", "values.csv", "--row", "3"],
        &["dataset", "recipe.toml", "--out", "built"],
    ];
    let mut over = Vec::new();
    for args in commands {
        for threads in 1..=3 {
            let most = most_threads(d, args, threads);
            if most > threads + 3 {
                over.push(format!("{args:?} --threads {threads}: {most} threads"));
            }
        }
    }
    assert!(over.is_empty(), "more than N + 3 threads:\n{}", over.join("\n"));
}

/// `view` serves until it is stopped: its threads are watched while it computes its table and
/// answers a request, then it is stopped as Ctrl-C does.
#[test]
fn the_view_runs_at_most_n_plus_3_threads() {
    let dir = tempfile::tempdir().unwrap();
    for threads in 1..=3 {
        let mut child = command(dir.path(), &["view", "wythoff", "--size", "200x200"], threads)
            .arg("--quiet")
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let url = common::view_url(&mut child);
        // The page, asked for as a browser would, while the threads are watched.
        let address = url.trim_start_matches("http://").split('/').next().unwrap().to_string();
        let path = format!("/{}", url.trim_start_matches("http://").split_once('/').unwrap().1);
        let asking = std::thread::spawn(move || {
            let mut stream = std::net::TcpStream::connect(&address).unwrap();
            write!(stream, "GET {path} HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n")
                .unwrap();
            let mut answer = String::new();
            stream.read_to_string(&mut answer).unwrap();
            answer
        });
        let started = Instant::now();
        let most = watch(&mut child, || started.elapsed() > Duration::from_millis(700));
        let answer = asking.join().unwrap();
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer:.200}");
        let status = common::interrupt(&mut child);
        let mut stderr = String::new();
        child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
        assert!(status.code().is_some(), "{stderr}");
        let most = most.max(at_exit(&stderr));
        assert!(most <= threads + 3, "view --threads {threads}: {most} threads");
    }
}
