//! `grundy plot` end to end: the pictures decode as PNG, show P-positions in their colour, read
//! every CSV layout that `compute` writes, and refuse what they cannot draw.

use crate::common;

use common::grundy;
use std::fs;
use std::path::Path;

/// The red of value 0 and the dark of N-positions (`grundy_plot::ZERO`, `N_POSITION`).
const ZERO: [u8; 3] = [220, 30, 50];
const N_POSITION: [u8; 3] = [40, 40, 60];

struct Picture {
    width: u32,
    height: u32,
    rgb: Vec<u8>,
}

impl Picture {
    fn read(path: &Path) -> Picture {
        let decoder = png::Decoder::new(std::io::BufReader::new(fs::File::open(path).unwrap()));
        let mut reader = decoder.read_info().unwrap();
        let mut rgb = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut rgb).unwrap();
        assert_eq!(info.color_type, png::ColorType::Rgb);
        rgb.truncate(info.buffer_size());
        Picture { width: info.width, height: info.height, rgb }
    }

    fn count(&self, colour: [u8; 3]) -> usize {
        self.rgb.chunks_exact(3).filter(|pixel| *pixel == colour).count()
    }
}

fn plot(args: &[&str], out: &Path) -> Picture {
    let output = grundy().arg("plot").args(args).arg("--out").arg(out).output().unwrap();
    assert!(output.status.success(), "{args:?}: {}", String::from_utf8_lossy(&output.stderr));
    Picture::read(out)
}

#[test]
fn a_heatmap_shows_p_positions_in_red_in_proportion() {
    let dir = tempfile::tempdir().unwrap();
    // kiki 8×8: 16 of the 64 cells are P-positions, in a 2×2 pattern.
    let picture = plot(&["kiki", "--size", "8x8"], &dir.path().join("kiki.png"));
    assert!(picture.width >= 420 && picture.height >= 300);
    let red = picture.count(ZERO);
    let mask = plot(&["kiki", "--size", "8x8", "--outcome"], &dir.path().join("mask.png"));
    let (p, n) = (mask.count(ZERO), mask.count(N_POSITION));
    // The legend draws one box of each colour; the cells are squares of equal size.
    assert!(p > 0 && n > 0);
    let box_pixels = 22 * 18;
    let (cells_p, cells_n) = (p - box_pixels, n - box_pixels);
    assert_eq!(cells_n, 3 * cells_p, "P-positions are a quarter of the board");
    assert_eq!(red, p, "the heatmap and the mask agree on P-positions");
}

#[test]
fn tables_read_from_every_csv_layout_give_the_same_picture_as_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let direct = plot(&["cutting", "--size", "40x30"], &dir.path().join("direct.png"));
    for (format, file) in [("grid", "c.csv"), ("long", "c-long.csv"), ("grid", "c.csv.gz")] {
        let table = dir.path().join(file);
        grundy()
            .args(["compute", "cutting", "--size", "40x30", "--format", format, "--out"])
            .arg(&table)
            .assert()
            .success();
        let picture = plot(&[table.to_str().unwrap()], &dir.path().join(format!("{file}.png")));
        assert_eq!((picture.width, picture.height), (direct.width, direct.height), "{file}");
        assert_eq!(picture.count(ZERO), direct.count(ZERO), "{file}");
    }
    // A P/N table is drawn as its mask.
    let outcome = dir.path().join("c-pn.csv");
    grundy()
        .args(["compute", "cutting", "--size", "40x30", "--outcome", "--out"])
        .arg(&outcome)
        .assert()
        .success();
    let from_mask = plot(&[outcome.to_str().unwrap()], &dir.path().join("pn.png"));
    let mask = plot(&["cutting", "--size", "40x30", "--outcome"], &dir.path().join("mask.png"));
    assert_eq!(from_mask.count(ZERO), mask.count(ZERO));
    assert_eq!(from_mask.count(N_POSITION), mask.count(N_POSITION));
}

#[test]
fn big_tables_are_downsampled_and_heap_games_are_sequences() {
    let dir = tempfile::tempdir().unwrap();
    let big =
        plot(&["wythoff", "--size", "2999x2999", "--max-side", "300"], &dir.path().join("w.png"));
    assert!(big.width < 1000 && big.height < 1000, "{}×{}", big.width, big.height);
    // Every block on the two P-lines keeps its 0.
    assert!(big.count(ZERO) > 300);
    let kayles = plot(&["kayles", "--size", "300"], &dir.path().join("kayles.png"));
    assert!(kayles.count(ZERO) > 0, "n = 0 is a P-position");
}

#[test]
fn svg_pictures_have_their_text_as_text() {
    let dir = tempfile::tempdir().unwrap();
    for (args, file, text) in [
        (&["wythoff", "--size", "99x99"][..], "w.svg", "wythoff 99×99"),
        (&["kayles", "--size", "300"][..], "k.svg", "kayles up to n=300"),
        (&["kiki", "--size", "20x20", "--outcome"][..], "o.svg", "P (value 0)"),
        (&["knight-retreat", "--size", "63x63"][..], "l.svg", "generalized values"),
    ] {
        let out = dir.path().join(file);
        grundy().arg("plot").args(args).arg("--out").arg(&out).arg("-q").assert().success();
        let svg = fs::read_to_string(&out).unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{file}");
        assert!(svg.contains(text), "{file}: {text}");
        // A heatmap's cells are one embedded image; a sequence is shapes.
        let images = svg.matches("data:image/png;base64,").count();
        assert_eq!(images, usize::from(file != "k.svg"), "{file}");
    }
}

/// PDF pictures: their text extracts as text (with poppler's `pdftotext`, which `.ci/run`
/// installs and requires with `GRUNDY_REQUIRE_EXTERNAL=1`; without it only the file's structure
/// is checked, and the test says so), for a heatmap, a sequence, a P/N mask and a loopy board.
#[test]
fn pdf_pictures_have_their_text_as_text() {
    let dir = tempfile::tempdir().unwrap();
    let pdftotext = std::process::Command::new("pdftotext").arg("-v").output().is_ok();
    if !pdftotext {
        let why = "no pdftotext (`apt-get install poppler-utils`)";
        assert!(std::env::var_os("GRUNDY_REQUIRE_EXTERNAL").is_none(), "required, but {why}");
        eprintln!("skipped the PDF text extraction: {why}");
    }
    for (args, file, text) in [
        (&["wythoff", "--size", "99x99"][..], "w.pdf", "wythoff 99×99"),
        (&["kayles", "--size", "300"][..], "k.pdf", "kayles up to n=300"),
        (&["kiki", "--size", "20x20", "--outcome"][..], "o.pdf", "P (value 0)"),
        (&["knight-retreat", "--size", "63x63"][..], "l.pdf", "generalized values"),
    ] {
        let out = dir.path().join(file);
        grundy().arg("plot").args(args).arg("--out").arg(&out).arg("-q").assert().success();
        let pdf = fs::read(&out).unwrap();
        assert!(pdf.starts_with(b"%PDF-") && pdf.trim_ascii_end().ends_with(b"%%EOF"), "{file}");
        if pdftotext {
            let extracted = std::process::Command::new("pdftotext").arg(&out).arg("-").output();
            let extracted = String::from_utf8(extracted.unwrap().stdout).unwrap();
            assert!(extracted.contains(text), "{file}: {text} not in {extracted}");
        }
    }
}

#[test]
fn what_cannot_be_drawn_is_refused_without_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("x.png");
    let out = out.to_str().unwrap();
    for (args, expected) in [
        (vec!["cutting-cuboid", "--size", "4x4x4", "--out", out], "has 3 axes"),
        (
            vec!["kayles", "--size", "40", "--outcome", "--out", out],
            "already shows its P-positions",
        ),
        (vec!["kiki", "--size", "4x4", "--out", "x.jpg"], "must be a .png, .svg or .pdf file"),
        (vec!["kiki", "--out", out], "--size is needed"),
        (vec!["kiki", "--size", "4x4", "--max-side", "3", "--out", out], "--max-side"),
    ] {
        let output = grundy().arg("plot").args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(!Path::new(out).exists() && !Path::new("x.jpg").exists());
    }
}

/// A loopy game's mask draws its draws in amber, beside P in red and N dark, each in proportion
/// to the positions (knight-retreat on 64×64: 715 P, 1407 N, 1974 draws); its values show ∞ in
/// light grey.
#[test]
fn a_loopy_board_shows_draws_in_their_own_colour() {
    const DRAW: [u8; 3] = [245, 180, 40];
    const INFINITE: [u8; 3] = [205, 205, 205];
    let dir = tempfile::tempdir().unwrap();
    let mask = plot(&["knight-retreat", "--size", "63x63", "--outcome"], &dir.path().join("m.png"));
    let (p, n, d) = (mask.count(ZERO), mask.count(N_POSITION), mask.count(DRAW));
    // Every cell the same number of pixels, give or take the legend's three boxes.
    let per_cell = (p + n + d) as f64 / 4096.0;
    for (found, cells) in [(p, 715.0), (n, 1407.0), (d, 1974.0)] {
        let ratio = found as f64 / per_cell / cells;
        assert!((0.97..1.03).contains(&ratio), "{found} pixels for {cells} cells: {p} {n} {d}");
    }
    let values = plot(&["knight-retreat", "--size", "63x63"], &dir.path().join("v.png"));
    assert!(values.count(INFINITE) as f64 > 0.9 * d as f64, "∞ covers at least the draws");
    assert_eq!(values.count(DRAW), 0);
}
