//! The CSV reader on arbitrary bytes: an error or a table, never a panic; a table it accepts
//! writes back (in the layout it was read from) and reads back as the same table.
#![no_main]

use grundy_core::{read_csv, write_csv, CellKind, CsvLayout};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    if let Ok((table, kind)) = read_csv(bytes) {
        let mut out = Vec::new();
        let layout = if table.shape().lens().len() == 2 { CsvLayout::Grid } else { CsvLayout::Long };
        if kind == CellKind::Values {
            write_csv(&table, layout, false, &mut out).expect("writing to memory");
            let (again, _) = read_csv(&out[..]).expect("write_csv output reads back");
            assert_eq!(table, again, "CSV round trip");
        }
    }
});
