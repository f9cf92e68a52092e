//! Where results go: standard output, or a file written under a temporary name and renamed into
//! place when complete, so a failed or interrupted run never leaves a partial file. A path ending
//! in `.gz` is written gzip-compressed.

use anyhow::{bail, Context, Result};
use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use tempfile::NamedTempFile;

/// A destination opened before any work starts, so an unwritable path fails early.
pub(crate) enum Destination {
    Stdout,
    File { temp: NamedTempFile, path: PathBuf },
}

/// Whether `path` asks for gzip compression (it ends in `.gz`).
fn gzipped(path: &Path) -> bool {
    path.extension().is_some_and(|ext| ext == "gz")
}

impl Destination {
    /// Standard output when `path` is `None` or `-`; otherwise a temporary file beside `path`.
    pub(crate) fn open(path: Option<&Path>) -> Result<Destination> {
        let Some(path) = path.filter(|path| *path != Path::new("-")) else {
            return Ok(Destination::Stdout);
        };
        if path.is_dir() {
            bail!("cannot write {}: it is a directory", path.display());
        }
        let dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let temp = tempfile::Builder::new()
            .prefix(&format!(".{name}."))
            .suffix(".tmp")
            .tempfile_in(dir)
            .with_context(|| format!("cannot write {}", path.display()))?;
        crate::signals::register_temporary(temp.path());
        Ok(Destination::File { temp, path: path.to_path_buf() })
    }

    /// Runs `write` on a buffered writer and completes the destination: flushes standard output,
    /// or syncs the temporary file and renames it over the target.
    pub(crate) fn write_with(
        self,
        write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    ) -> Result<()> {
        match self {
            Destination::Stdout => {
                let stdout = io::stdout();
                let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
                write(&mut out)
                    .and_then(|()| out.flush())
                    .context("cannot write to standard output")
            }
            Destination::File { ref path, .. } if gzipped(path) => self.write_file_with(|file| {
                // No name and no time in the gzip header: the same table gives the same bytes.
                let gz = flate2::GzBuilder::new().write(file, flate2::Compression::default());
                let mut out = BufWriter::with_capacity(1 << 16, gz);
                write(&mut out)?;
                out.into_inner().map_err(|e| e.into_error())?.finish()?;
                Ok(())
            }),
            Destination::File { .. } => self.write_file_with(|file| {
                let mut out = BufWriter::with_capacity(1 << 16, file);
                write(&mut out)?;
                out.flush()
            }),
        }
    }

    /// Runs `write` on the temporary file itself (for formats that seek back), then syncs it and
    /// renames it over the target.
    ///
    /// # Panics
    /// On standard output, which cannot seek: callers pass a file path.
    pub(crate) fn write_file_with(
        self,
        write: impl FnOnce(&mut fs::File) -> io::Result<()>,
    ) -> Result<()> {
        let Destination::File { mut temp, path } = self else {
            panic!("write_file_with needs a file destination");
        };
        let context = || format!("cannot write {}", path.display());
        let temp_path = temp.path().to_path_buf();
        let written = (|| {
            write(temp.as_file_mut()).with_context(context)?;
            temp.as_file().sync_all().with_context(context)?;
            temp.persist(&path).map_err(|e| e.error).with_context(context)
        })();
        // Renamed into place, or deleted when `temp` was dropped on failure.
        crate::signals::unregister_temporary(&temp_path);
        written?;
        // Keep the permissions a plain create would give, not the temporary file's 0600.
        set_default_permissions(&path);
        Ok(())
    }
}

#[cfg(unix)]
fn set_default_permissions(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let _ = fs::set_permissions(path, fs::Permissions::from_mode(0o644));
}

#[cfg(not(unix))]
fn set_default_permissions(_path: &Path) {}

/// Whether an error comes from writing to a closed pipe (`grundy … | head`), which is not a
/// failure.
pub(crate) fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause.downcast_ref::<io::Error>().is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Writes `value` as one line of JSON. Serialising to memory first keeps I/O errors (a closed
/// pipe) as `io::Error`s, which serde_json would otherwise fold into its own error type.
pub(crate) fn write_json_line(
    out: &mut dyn Write,
    value: &impl serde::Serialize,
) -> io::Result<()> {
    let mut text = serde_json::to_vec(value).map_err(io::Error::other)?;
    text.push(b'\n');
    out.write_all(&text)
}
