//! The prose docs cannot drift from the tree: every file that ARCHITECTURE.md, the README and the
//! guide name in backticks exists, and every Rust item they name (`FillRequest::prepare`,
//! `ClaimKind::ALL`, `PreparedFill`) is defined in the workspace's sources. (The examples are
//! run by `docs.rs`; this test is about the names between them.)

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

/// Every file under `dir`, outside build output and hidden folders, relative to the root.
fn files(root: &Path, dir: &Path, found: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name.starts_with('.') || name == "target" || name == "node_modules" {
            continue;
        }
        if path.is_dir() {
            files(root, &path, found);
        } else {
            found.push(path.strip_prefix(root).unwrap().to_string_lossy().into_owned());
        }
    }
}

/// The spans in single backticks of a Markdown text, outside fenced blocks.
fn quoted(text: &str) -> Vec<String> {
    let mut spans = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut parts = line.split('`');
        parts.next();
        while let (Some(span), Some(_)) = (parts.next(), parts.next()) {
            spans.push(span.to_string());
        }
    }
    spans
}

/// A file name the docs give: a word with a known extension, no spaces, no placeholder.
fn as_file(span: &str) -> Option<&str> {
    const EXTENSIONS: [&str; 7] = [".rs", ".md", ".toml", ".sh", ".py", ".js", ".css"];
    let span = span.trim_end_matches(['(', ')', ',', ':']);
    let plain = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || "_-./".contains(c);
    (EXTENSIONS.iter().any(|ext| span.ends_with(ext)) && span.chars().all(plain)).then_some(span)
}

/// A Rust item the docs name: `Type`, `Type::item`, `module::function`, `Type::CONST`
/// (a call's parentheses dropped).
fn as_item(span: &str) -> Option<Vec<&str>> {
    let span = span.strip_suffix("()").unwrap_or(span);
    let segments: Vec<&str> = span.split("::").collect();
    let ident = |s: &str| {
        !s.is_empty()
            && s.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    if !segments.iter().all(|s| ident(s)) {
        return None;
    }
    let camel = |s: &str| {
        s.starts_with(|c: char| c.is_ascii_uppercase()) && s.chars().any(|c| c.is_ascii_lowercase())
    };
    // A lone word is an item only in CamelCase (`Runtime`); lower-case words are prose.
    (segments.len() > 1 || camel(segments[0])).then_some(segments)
}

/// Whether `name` is defined in `sources`: as an item, an enum variant, a field or a module.
fn defined(sources: &str, name: &str) -> bool {
    let keywords =
        ["fn", "struct", "enum", "trait", "type", "const", "static", "mod", "macro_rules!"];
    if keywords.iter().any(|k| sources.contains(&format!("{k} {name}"))) {
        return true;
    }
    // A variant or a field: at the start of a line, followed by `,`, `(`, ` {`, `:` or `=`.
    sources.lines().any(|line| {
        let line = line.trim_start().trim_start_matches("pub(crate) ").trim_start_matches("pub ");
        line.strip_prefix(name)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with([',', '(', ' ', ':', '=']))
    })
}

/// Names the docs give that are not ours to define: other crates' and protocols' items, and the
/// user's files and placeholders in the guide's prose.
const NOT_OURS: [&str; 6] = [
    "ThreadPoolBuilder", // rayon's
    "Write",             // std::io's
    "Origin",            // an HTTP header
    "MPI_Abort",         // MPI's
    "RxC",               // the --size placeholder
    ".toml",             // an extension
];

#[test]
fn every_file_and_item_the_docs_name_exists() {
    let root = root();
    let mut tree = Vec::new();
    files(&root, &root, &mut tree);
    let files: Vec<String> = tree
        .iter()
        .filter(|path| path.ends_with(".rs"))
        .map(|path| std::fs::read_to_string(root.join(path)).unwrap())
        .collect();
    let sources = files.join("\n");
    let mut docs = vec!["ARCHITECTURE.md".to_string(), "README.md".to_string()];
    docs.extend(
        tree.iter().filter(|p| p.starts_with("docs/guide/") && p.ends_with(".md")).cloned(),
    );
    let mut missing = BTreeSet::new();
    for doc in &docs {
        let text = std::fs::read_to_string(root.join(doc)).unwrap();
        let written: Vec<&str> = text
            .lines()
            .filter_map(|line| line.trim().split_once(" file="))
            .map(|(_, f)| f)
            .collect();
        for span in quoted(&text) {
            if NOT_OURS.contains(&span.as_str()) {
                continue;
            }
            if let Some(file) = as_file(&span) {
                // A path names the end of one in the tree (`compute/writers.rs`); a bare name
                // any file of that name; or the doc writes it.
                let found = written.contains(&file)
                    || tree.iter().any(|path| {
                        path == file
                            || path.ends_with(&format!("/{}", file.trim_start_matches("./")))
                    });
                if !found {
                    missing.insert(format!("{doc}: file `{file}`"));
                }
            } else if let Some(segments) = as_item(&span) {
                // Crate names and `std` are no items of ours; every other segment is.
                for segment in segments.iter().filter(|s| {
                    !s.starts_with("grundy") && !["std", "crate", "self", "super"].contains(s)
                }) {
                    if !defined(&sources, segment) {
                        missing.insert(format!("{doc}: `{span}` (no `{segment}` is defined)"));
                    }
                }
                // `Type::item`: the item is defined in a file that defines or implements Type.
                if let [owner, item] = segments[..] {
                    let owns = |file: &&String| {
                        ["struct", "enum", "trait", "for", "impl"]
                            .iter()
                            .any(|k| file.contains(&format!("{k} {owner} ")))
                            || file.contains(&format!("impl {owner}<"))
                            || file.contains(&format!("for {owner}<"))
                    };
                    let owned: Vec<&String> = files.iter().filter(owns).collect();
                    if !owned.is_empty() && !owned.iter().any(|file| defined(file, item)) {
                        missing.insert(format!("{doc}: `{span}` (no `{item}` beside `{owner}`)"));
                    }
                }
            }
        }
    }
    assert!(missing.is_empty(), "names the docs give that the tree lacks:\n{}", {
        let lines: Vec<_> = missing.into_iter().collect();
        lines.join("\n")
    });
}

/// The test finds what it looks for: a file and an item that do not exist are reported.
#[test]
fn a_missing_name_is_found() {
    assert_eq!(as_file("sparse/state.rs"), Some("sparse/state.rs"));
    assert_eq!(as_file("FILE.json"), None);
    assert_eq!(as_item("FillRequest::prepare()"), Some(vec!["FillRequest", "prepare"]));
    assert_eq!(as_item("patterns"), None);
    let sources =
        "pub struct FillRequest {\n    engine: Engine,\n}\nimpl X { pub fn prepare() {} }";
    assert!(defined(sources, "FillRequest") && defined(sources, "prepare"));
    assert!(defined(sources, "engine"));
    assert!(!defined(sources, "NoSuchThing"));
    assert_eq!(quoted("a `x.rs` b\n```\n`y.rs`\n```\n`z::w`"), vec!["x.rs", "z::w"]);
}
