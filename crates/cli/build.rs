//! Records the git revision the binary is built from, for the provenance of the tables it
//! writes (`unknown` outside a checkout or without git).

use std::process::Command;

fn main() {
    let revision = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .output()
        .ok()
        .filter(|out| out.status.success())
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .map(|text| text.trim().to_string())
        .filter(|text| !text.is_empty());
    // Not marked when the tree has uncommitted changes: this script reruns when HEAD moves,
    // not when a source file does, so such a mark would go stale.
    let revision = revision.unwrap_or_else(|| "unknown".to_string());
    println!("cargo:rustc-env=GRUNDY_GIT_REVISION={revision}");
    // The optional features built in, for `grundy --version` (cargo sets CARGO_FEATURE_<NAME>
    // for each enabled feature of this package).
    let mut features: Vec<String> = std::env::vars()
        .filter_map(|(name, _)| name.strip_prefix("CARGO_FEATURE_").map(|f| f.to_lowercase()))
        .collect();
    features.sort();
    let features = if features.is_empty() { "none".to_string() } else { features.join(", ") };
    println!("cargo:rustc-env=GRUNDY_FEATURES={features}");
    // A new commit or a checkout changes HEAD or the branch it names.
    let git = Command::new("git").args(["rev-parse", "--git-dir"]).output().ok();
    if let Some(dir) = git.filter(|out| out.status.success()) {
        let dir = String::from_utf8_lossy(&dir.stdout).trim().to_string();
        // Only paths that exist: cargo reruns a script for a missing one on every build.
        for file in ["HEAD", "refs/heads", "packed-refs"] {
            let path = std::path::Path::new(&dir).join(file);
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
    browser_tests();
}

/// The browser tests (`tests/view.rs`) show as ignored, with the reason, in `cargo test`'s own
/// summary when no Chromium is installed where they look (`chromium_missing`); `--ignored` runs
/// them anyway (with GRUNDY_CHROMIUM naming a browser elsewhere). No environment variable is
/// read here, so that setting one for a test run rebuilds nothing.
fn browser_tests() {
    println!("cargo:rustc-check-cfg=cfg(chromium_missing)");
    match CHROMIUM_PATHS.iter().find(|p| std::path::Path::new(p).exists()) {
        // Removing it runs this script again.
        Some(path) => println!("cargo:rerun-if-changed={path}"),
        None => println!("cargo:rustc-cfg=chromium_missing"),
    }
}

/// Where the browser tests look for Chromium (as `tests/view.rs` does).
const CHROMIUM_PATHS: [&str; 3] =
    ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];
