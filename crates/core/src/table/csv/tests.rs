use super::*;
use crate::game::lookup;
use crate::table::TableShape;

/// Issue 12, item 3: endless inputs (`/dev/zero`, a decompression bomb) were read until the
/// process was killed; lines and memory are bounded.
#[test]
fn reading_stops_at_the_limits() {
    let grid: String = std::iter::once("n\\m,0,1,2,3\n".to_string())
        .chain((0..100).map(|n| format!("{n},0,1,2,3\n")))
        .collect();
    assert!(read_csv(grid.as_bytes()).is_ok());
    let tight = CsvLimits { max_bytes: 1000, ..CsvLimits::UNBOUNDED };
    let err = read_csv_within(grid.as_bytes(), &tight).unwrap_err();
    assert!(err.message.starts_with("the table is too large to read"), "{err}");
    let long: String =
        std::iter::once("n,g\n".to_string()).chain((0..100).map(|n| format!("{n},1\n"))).collect();
    assert!(read_csv_within(long.as_bytes(), &tight).is_err());
    let short_lines = CsvLimits { max_line_bytes: 8, ..CsvLimits::UNBOUNDED };
    let err = read_csv_within(grid.as_bytes(), &short_lines).unwrap_err();
    assert!(err.message.contains("a line is longer than 8 bytes"), "{err}");
    let zeros = std::io::repeat(0).take(1 << 30);
    let err = read_csv(zeros).unwrap_err();
    assert!(err.message.contains("a line is longer than"), "{err}");
}

/// Issue 19: a grid's header declares its width, which is checked before anything else is
/// kept; the caller's bytes per line (row, column, diagonal) count; and no line may outgrow
/// a tenth of the budget, which is what its record may take.
#[test]
fn what_a_grid_declares_is_checked_first() {
    let columns = 5000;
    let header: Vec<String> = (0..columns).map(|c| c.to_string()).collect();
    let wide = format!("n\\m,{}\n0,{}\n", header.join(","), vec!["1"; columns].join(","));
    let line_bytes = CsvLimits { max_bytes: 1 << 20, extra_per_line: 100, ..CsvLimits::UNBOUNDED };
    let err = read_csv_within(wide.as_bytes(), &line_bytes).unwrap_err();
    assert_eq!(err.line, Some(1));
    assert!(err.message.contains("the header declares 5000 columns, and one row needs"), "{err}");
    assert!(
        read_csv_within(wide.as_bytes(), &CsvLimits { extra_per_line: 0, ..line_bytes }).is_ok()
    );
    let long: String = std::iter::once("n,m,g\n".to_string())
        .chain((0..5000).map(|m| format!("0,{m},1\n")))
        .collect();
    let err = read_csv_within(long.as_bytes(), &line_bytes).unwrap_err();
    assert!(err.message.contains("rows, columns and diagonals so far need"), "{err}");
    let small = CsvLimits { max_bytes: 100_000, ..CsvLimits::UNBOUNDED };
    let err = read_csv_within(wide.as_bytes(), &small).unwrap_err();
    assert!(err.message.contains("a line is longer than 10000 bytes"), "{err}");
}

fn sample(game: &str, max: &[i64]) -> GrundyTable {
    let game = lookup(game).unwrap();
    let shape = TableShape::new(&game, max, "").unwrap();
    let values: Vec<Nimber> = (0..shape.cells() as u32).map(|i| Nimber(i % 3)).collect();
    GrundyTable::from_nimbers(shape, &values)
}

fn csv(table: &GrundyTable, layout: CsvLayout, outcome: bool) -> String {
    let mut out = Vec::new();
    let cells = if outcome { CellKind::Outcomes } else { CellKind::Values };
    write_csv(table, layout, cells, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn grid_and_long_layouts() {
    let table = sample("kiki", &[2, 3]);
    assert_eq!(csv(&table, CsvLayout::Grid, false), "n\\m,1,2,3\n1,0,1,2\n2,0,1,2\n");
    assert_eq!(csv(&table, CsvLayout::Grid, true), "n\\m,1,2,3\n1,P,N,N\n2,P,N,N\n");
    assert_eq!(
        csv(&table, CsvLayout::Long, false),
        "n,m,g\n1,1,0\n1,2,1\n1,3,2\n2,1,0\n2,2,1\n2,3,2\n"
    );
}

#[test]
fn tables_read_back_from_every_layout() {
    for (game, max) in [
        ("kiki", &[4i64, 6][..]),
        ("cutting", &[5, 3]),
        ("kayles", &[9]),
        ("cutting-cuboid", &[3, 4, 5]),
    ] {
        let table = sample(game, max);
        for layout in [CsvLayout::Grid, CsvLayout::Long] {
            if layout == CsvLayout::Grid && max.len() == 3 {
                continue;
            }
            let (read, kind) = read_csv(csv(&table, layout, false).as_bytes()).unwrap();
            assert_eq!((read, kind), (table.clone(), CellKind::Values), "{game} {layout:?}");
            let (outcomes, kind) = read_csv(csv(&table, layout, true).as_bytes()).unwrap();
            assert_eq!(kind, CellKind::Outcomes);
            let mask =
                |t: &GrundyTable| t.to_nimbers().iter().map(|v| v.is_p()).collect::<Vec<_>>();
            assert_eq!(mask(&outcomes), mask(&table));
        }
    }
}

#[test]
fn malformed_csv_is_refused_with_the_line() {
    let cases = [
        ("", "the file is empty"),
        ("n\\m,1,2\n1,0,1\n2,0\n", "line 3: expected 3 fields like the header, found 2"),
        ("n\\m,1,2\n1,0,x\n", "line 2: `x` is not a Grundy value (a whole number >= 0) nor P or N"),
        ("n\\m,1,3\n1,0,1\n", "line 1: column coordinates must go up by one: 1 is followed by 3"),
        (
            "n\\m,1,2\n1,0,1\n3,0,1\n",
            "line 3: row coordinates must go up by one: 1 is followed by 3",
        ),
        ("n\\m,1,2\n", "line 1: the table has a header but no rows"),
        ("n\\m,1,2\n1,P,1\n", "line 2: the table mixes numbers with P/N outcomes"),
        ("a,b,c,d,g\n", "line 1: the header is neither"),
        ("a,b,value\n", "line 1: the header is neither"),
        (
            "n,m,g\n1,1,0\n1,3,0\n",
            "line 3: expected the cell [1, 2] here (row-major order), found [1, 3]",
        ),
        ("n,m,g\n1,1,0\n1,2,0\n2,1,0\n", "the table ends before its last cell"),
        // Issue 19: a repeat was "the table ends before its last cell".
        ("n,g\n0,0\n1,1\n0,0\n1,1\n", "line 4: the cell [0] appears a second time"),
        ("n,m,g\n1,1,0\n1,2,0\n1,1,0\n", "line 4: the cell [1, 1] appears a second time"),
        ("n,g\n-1,0\n", "line 2: `-1` is not a coordinate"),
        ("1n\\m,1\n1,0\n", "line 1: `1n` is not an axis name"),
    ];
    for (text, expected) in cases {
        let message = read_csv(text.as_bytes()).unwrap_err().to_string();
        assert!(message.starts_with(expected), "{text:?}: {message}");
    }
}

#[test]
fn one_dimensional_tables_are_lists() {
    let table = sample("kayles", &[3]);
    let expected = "n,g\n0,0\n1,1\n2,2\n3,0\n";
    assert_eq!(csv(&table, CsvLayout::Grid, false), expected);
    assert_eq!(csv(&table, CsvLayout::Long, false), expected);
}
