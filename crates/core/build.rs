//! Embeds the catalog: every `games/*.toml` of this crate, by file name, so the list of catalog
//! games has one source (the files) and the packaged crate carries its specs.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let dir = Path::new(&std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("games");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("the crate's games/ folder")
        .map(|entry| entry.expect("a readable games/ folder").file_name())
        .filter_map(|name| name.to_str()?.strip_suffix(".toml").map(str::to_string))
        .collect();
    names.sort();
    let mut code = String::from("/// (name, spec text) of every embedded spec file, by name.\n");
    code.push_str("const SPECS: &[(&str, &str)] = &[\n");
    for name in &names {
        let path = dir.join(format!("{name}.toml"));
        println!("cargo:rerun-if-changed={}", path.display());
        writeln!(code, "    ({name:?}, include_str!({:?})),", path.display().to_string()).unwrap();
    }
    code.push_str("];\n");
    let out = Path::new(&std::env::var("OUT_DIR").unwrap()).join("catalog.rs");
    std::fs::write(out, code).expect("OUT_DIR is writable");
}
