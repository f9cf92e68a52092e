//! `--format bfile`: an OEIS b-file, `n value` per line (heap games), its provenance beside it
//! as FILE.json.

use super::output::{write_sidecar, Finished, Genera};
use crate::signals::StopOnSignal;
use anyhow::Result;
use grundy_core::write_bfile;

/// A finished table, then its sidecar.
pub(super) fn table(out: Finished<'_>) -> Result<()> {
    let record = out.record();
    let (run, table) = (out.run, out.answered.table());
    out.destination.write_with(|file| write_bfile(table, &mut StopOnSignal(file)))?;
    write_sidecar(run, table, || record)
}

/// A misère heap game's values.
pub(super) fn genera(out: Genera<'_>) -> Result<()> {
    let table = out.table;
    out.destination.write_with(|file| write_bfile(table, &mut StopOnSignal(file)))
}
