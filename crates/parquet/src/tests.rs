use super::*;
use grundy_core::game::lookup;
use grundy_core::Nimber;

/// A table of `game`'s shape holding made-up values up to `top` (the layout is what is
/// tested, not the game).
fn table(game: &str, max: &[i64], top: u32) -> GrundyTable {
    let game = lookup(game).unwrap();
    let shape = TableShape::new(&game, max, "t").unwrap();
    let cells = shape.cells() as u32;
    let values: Vec<Nimber> =
        (0..cells).map(|k| Nimber(k.wrapping_mul(2_654_435_761) % (top + 1))).collect();
    GrundyTable::from_nimbers(shape, &values)
}

fn round_trip(table: &GrundyTable, cells: CellKind) -> ReadTable {
    let mut bytes = Vec::new();
    write_parquet(table, cells, None, &mut bytes).unwrap();
    read_parquet(bytes::Bytes::from(bytes), u64::MAX, 0).unwrap()
}

#[test]
fn tables_read_back_as_they_were_written() {
    for (game, max, top) in [
        ("kiki", &[13i64, 7][..], 3),
        ("wythoff", &[40, 30][..], 300),
        ("kayles", &[500][..], 70_000),
        ("cutting-cuboid", &[5, 4, 6][..], 9),
    ] {
        let t = table(game, max, top);
        let read = round_trip(&t, CellKind::Values);
        assert!(read.table == t, "{game}");
        assert_eq!(read.table.shape().axes(), t.shape().axes(), "{game}");
        assert_eq!(read.cells, CellKind::Values);
    }
    let t = table("kiki", &[9, 9], 3);
    let read = round_trip(&t, CellKind::Outcomes);
    assert_eq!(read.cells, CellKind::Outcomes);
    for k in 0..t.cells().len() {
        let (read, written) = (read.table.cells().get(k), t.cells().get(k));
        assert_eq!(read.value(), u32::from(written.value() != 0));
    }
}

#[test]
fn a_table_of_several_row_groups_with_its_provenance() {
    let t = table("wythoff", &[1099, 999], 2000);
    let mut bytes = Vec::new();
    let record = Provenance::from_json(
        r#"{"provenance":1,"game":"wythoff","spec":"","fingerprint":"","size":[1099,999],"cells":"values","grundy_version":"0","git_revision":"x","command":[],"created":"","engine":"tiles"}"#,
    )
    .unwrap();
    write_parquet(&t, CellKind::Values, Some(record), &mut bytes).unwrap();
    let bytes = bytes::Bytes::from(bytes);
    let groups = SerializedFileReader::new(bytes.clone()).unwrap().num_row_groups();
    assert_eq!(groups, 2, "1 100 000 rows in groups of {ROW_GROUP_ROWS}");
    let read = read_parquet(bytes.clone(), u64::MAX, 0).unwrap();
    assert!(read.table == t);
    let provenance = read.provenance.unwrap();
    assert_eq!(provenance.values_sha256, ValuesDigest::of_table(&t, CellKind::Values));
    assert_eq!(read_provenance(bytes.clone()).unwrap().unwrap(), provenance);
    // 2 bytes a cell (values up to 2000: uint16) while it is read, 2 more for the caller,
    // and the largest group's coordinates (2^20 rows, two axes, 8 bytes each) besides.
    let group = (ROW_GROUP_ROWS * 2 * 8) as u64;
    let refused = read_parquet(bytes.clone(), group + 4_000_000, 2).err().unwrap();
    assert!(matches!(
        refused,
        ParquetError::TooLarge { cells: 1_100_000, most: 1_000_000, per_cell: 4 }
    ));
    assert!(read_parquet(bytes, group + 4_400_000, 2).is_ok());
}

/// Rows handed over in pieces of any length (a streamed heap game's table comes in tiles)
/// make the same file as the table written whole.
#[test]
fn rows_in_pieces_make_the_same_file() {
    for (game, max) in
        [("kayles", &[3000i64][..]), ("wythoff", &[20, 33][..]), ("cutting-cuboid", &[4, 6, 5][..])]
    {
        let t = table(game, max, 40);
        let mut whole = Vec::new();
        write_parquet(&t, CellKind::Values, None, &mut whole).unwrap();
        for piece in [1, 7, 34, 1000] {
            let shape = t.shape();
            let mut bytes = Vec::new();
            let mut rows = ParquetRows::new(
                shape.axes(),
                &shape.lens(),
                CellKind::Values,
                t.width(),
                None,
                &mut bytes,
            )
            .unwrap();
            let values = t.cells().to_u32_vec();
            for chunk in values.chunks(piece) {
                rows.write_row(chunk).unwrap();
            }
            rows.finish().unwrap();
            assert!(bytes == whole, "{game} in pieces of {piece}");
        }
    }
}

/// A kiki table of `max` whose rows are `rows` as given, declared one byte wide: files
/// made by hand, which need not be tables.
fn by_hand(max: &[i64], rows: &[&[u32]]) -> bytes::Bytes {
    let kiki = lookup("kiki").unwrap();
    let shape = TableShape::new(&kiki, max, "t").unwrap();
    let mut bytes = Vec::new();
    let (axes, lens) = (shape.axes(), shape.lens());
    let mut writer =
        ParquetRows::new(axes, &lens, CellKind::Values, CellWidth::U8, None, &mut bytes).unwrap();
    for row in rows {
        writer.write_row(row).unwrap();
    }
    writer.finish().unwrap();
    bytes::Bytes::from(bytes)
}

/// Files whose pages other writers compressed (pyarrow's brotli, snappy, gzip, lz4) read
/// back (issue 50: brotli was "Disabled feature at compile time").
#[test]
fn every_codec_other_writers_use_reads_back() {
    use parquet::basic::{BrotliLevel, GzipLevel};
    let t = table("wythoff", &[30, 20], 60);
    for compression in [
        Compression::BROTLI(BrotliLevel::default()),
        Compression::SNAPPY,
        Compression::GZIP(GzipLevel::default()),
        Compression::LZ4_RAW,
        Compression::UNCOMPRESSED,
    ] {
        let shape = t.shape();
        let mut bytes = Vec::new();
        let mut rows = ParquetRows::compressed(
            shape.axes(),
            &shape.lens(),
            CellKind::Values,
            t.width(),
            None,
            &mut bytes,
            compression,
        )
        .unwrap();
        let values = t.cells().to_u32_vec();
        for row in values.chunks(21) {
            rows.write_row(row).unwrap();
        }
        rows.finish().unwrap();
        let read = read_parquet(bytes::Bytes::from(bytes), u64::MAX, 0).unwrap();
        assert!(read.table == t, "{compression:?}");
    }
    // A codec no build reads is refused in words a user can act on.
    let lzo = ParquetError::from(parquet::errors::ParquetError::NYI(
        "The codec type LZO is not supported yet".into(),
    ));
    assert!(lzo.to_string().starts_with("its pages are compressed with LZO"), "{lzo}");
}

/// A value wider than its column's declared type is refused, not cut.
#[test]
fn a_value_wider_than_its_column_is_refused() {
    let bytes = by_hand(&[2, 2], &[&[1, 2], &[300, 0]]);
    let refused = read_parquet(bytes, u64::MAX, 0).err().unwrap();
    assert_eq!(refused.to_string(), "the value 300 is wider than the column's declared 8 bits");
}

#[test]
fn what_is_not_a_table_is_refused() {
    // Thirteen cells for a box of twelve: the last wraps onto a fourth row.
    let err = read_parquet(by_hand(&[3, 4], &[&[0; 13]]), u64::MAX, 0).err().unwrap();
    assert!(err.to_string().contains("row-major"), "{err}");
    let err = read_parquet(bytes::Bytes::from_static(b"not parquet"), u64::MAX, 0).err().unwrap();
    assert!(matches!(err, ParquetError::Parquet(_)), "{err}");
}
