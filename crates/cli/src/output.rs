//! Where results go, and the rules for `--out PATH`:
//!
//! - `-` (or no `--out`) is standard output.
//! - A regular file, new or existing, is written under a temporary name in its directory, synced
//!   and renamed into place when complete, so a failed or interrupted run never leaves a partial
//!   file and an existing file is untouched on failure. A replaced file keeps its permissions
//!   (and, for root, its owner); a new file gets 0666 less the umask, as shell redirection gives.
//! - A file without write permission (for root: without any write bit) is refused, as shell
//!   redirection refuses it, unless `--force` is given.
//! - A symbolic link is followed: its target is written, atomically, beside the target; the link
//!   stays a link.
//! - A special file (a device such as `/dev/null`, a FIFO, a socket, a terminal) is written
//!   through, as it is: it is never replaced by a regular file. So is a path through the
//!   kernel's descriptor links (`/dev/stdout`, `/dev/fd/N`, `/proc/self/fd/N`), which name an
//!   open file rather than a path: `/dev/stdout` is standard output even when that is a file,
//!   and other descriptors are appended to.
//! - A directory is refused. After the rename the file is checked to be where it was asked for
//!   (a directory moved or removed during the run is an error) and the directory is synced.
//!
//! A path ending in `.gz` is written gzip-compressed.

use anyhow::{bail, Context, Result};
use std::fs;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use tempfile::NamedTempFile;

/// Whether an existing file that is not writable may be replaced (`--force`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Overwrite {
    /// Refuse, as shell redirection does.
    IfWritable,
    /// Replace it anyway.
    Force,
}

/// Whether the destination may be a special file (a device or FIFO), written through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Special {
    /// Write through it (tables, pictures).
    WriteThrough,
    /// Refuse it: the file must be read back and replaced (checkpoints).
    Refuse,
}

/// A destination opened before any work starts, so an unwritable path fails early.
pub(crate) enum Destination {
    Stdout,
    /// A special file, written through.
    Through {
        file: fs::File,
        shown: PathBuf,
    },
    /// A regular file: written to `temp`, then renamed over `target` (the path with its symbolic
    /// links followed); `shown` is the path as the user gave it.
    File {
        temp: NamedTempFile,
        target: PathBuf,
        shown: PathBuf,
        keep: Option<Kept>,
    },
}

/// What a replaced file keeps: its permissions and owner.
pub(crate) struct Kept {
    permissions: fs::Permissions,
    #[cfg(unix)]
    owner: (u32, u32),
}

/// Whether `path` asks for gzip compression (it ends in `.gz`).
fn gzipped(path: &Path) -> bool {
    path.extension().is_some_and(|ext| ext == "gz")
}

/// The most bytes of the target's name kept in the temporary file's name: the name plus a dot,
/// a process id, a host name (at most 64 bytes), a random part and `.tmp` must stay within the
/// 255 bytes a file name may have.
const TEMP_NAME_BYTES: usize = 160;

impl Destination {
    /// Standard output when `path` is `None` or `-`; otherwise the file, by the module's rules.
    pub(crate) fn open(
        path: Option<&Path>,
        overwrite: Overwrite,
        special: Special,
    ) -> Result<Destination> {
        let Some(shown) = path.filter(|path| *path != Path::new("-")) else {
            // Before the work, not after it: a closed standard output loses what it is given.
            drop(stdout()?);
            return Ok(Destination::Stdout);
        };
        let cannot = || format!("cannot write {}", shown.display());
        let (target, descriptor) = follow_links(shown).with_context(cannot)?;
        if descriptor {
            if special == Special::Refuse {
                bail!("cannot write {}: it names an open descriptor, not a file", shown.display());
            }
            if is_stdout(shown) {
                return Ok(Destination::Stdout);
            }
            if is_stdin(shown) {
                // A pipe's read end opened for writing writes into the pipe this run reads from
                // (issue 28: the table was lost and the run exited 0).
                bail!("cannot write {}: it is standard input", shown.display());
            }
            let file = fs::OpenOptions::new().append(true).open(shown).with_context(cannot)?;
            return Ok(Destination::Through { file, shown: shown.to_path_buf() });
        }
        let keep = match fs::metadata(&target) {
            Ok(meta) if meta.is_dir() => {
                bail!("cannot write {}: it is a directory", shown.display())
            }
            Ok(meta) if is_special(&meta) => {
                if special == Special::Refuse {
                    bail!(
                        "cannot write {}: it is not a regular file (a device, FIFO or socket)",
                        shown.display()
                    );
                }
                let file = fs::OpenOptions::new().write(true).open(&target).with_context(cannot)?;
                return Ok(Destination::Through { file, shown: shown.to_path_buf() });
            }
            Ok(meta) => {
                if overwrite == Overwrite::IfWritable && !writable(&target, &meta) {
                    bail!(
                        "cannot write {}: it is read-only; give --force to replace it anyway",
                        shown.display()
                    );
                }
                Some(Kept {
                    permissions: meta.permissions(),
                    #[cfg(unix)]
                    owner: {
                        use std::os::unix::fs::MetadataExt;
                        (meta.uid(), meta.gid())
                    },
                })
            }
            Err(err) if err.kind() == io::ErrorKind::NotFound => None,
            Err(err) => return Err(err).with_context(cannot),
        };
        let dir = match target.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let stem = format!(".{}.", shortened(&name, TEMP_NAME_BYTES));
        let host = host_name();
        sweep_stale_temporaries(dir, &stem, &host);
        // The process id and host in the name tell a later run on the same host whether the
        // file's writer still lives.
        let prefix = format!("{stem}{}@{host}-", std::process::id());
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        if keep.is_none() {
            // Created as 0666 less the umask, as `>` creates a file.
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                builder.permissions(fs::Permissions::from_mode(0o666));
            }
        }
        if !dir.is_dir() {
            bail!("cannot write {}: the folder {} does not exist", shown.display(), dir.display());
        }
        let temp = crate::signals::uninterrupted(|| {
            // The temporary file's name is ours, not the user's: the error names the kind only.
            let temp = builder.tempfile_in(dir).map_err(|err| io::Error::from(err.kind()))?;
            crate::signals::register_temporary(temp.path());
            Ok::<_, io::Error>(temp)
        })
        .with_context(cannot)?;
        Ok(Destination::File { temp, target, shown: shown.to_path_buf(), keep })
    }

    /// Runs `write` on a buffered writer and completes the destination: flushes standard output
    /// or a special file, or syncs the temporary file and renames it over the target.
    pub(crate) fn write_with(
        self,
        write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
    ) -> Result<()> {
        let compressed = match &self {
            Destination::Stdout => false,
            Destination::Through { shown, .. } | Destination::File { shown, .. } => gzipped(shown),
        };
        let stream = |out: &mut dyn Write| -> io::Result<()> {
            if compressed {
                // No name and no time in the gzip header, and the input in blocks of one size:
                // the same table gives the same bytes, however it was written.
                let gz = flate2::GzBuilder::new().write(out, flate2::Compression::default());
                let mut out = Blocks::new(gz);
                write(&mut out)?;
                out.finish()?.finish()?;
                Ok(())
            } else {
                let mut out = BufWriter::with_capacity(1 << 16, out);
                write(&mut out)?;
                out.flush()
            }
        };
        match self {
            Destination::Stdout => {
                stream(&mut stdout()?).context("cannot write to standard output")
            }
            Destination::Through { mut file, shown } => {
                stream(&mut file).with_context(|| format!("cannot write {}", shown.display()))
            }
            Destination::File { .. } => self.write_file_with(|file| stream(file)),
        }
    }

    /// Runs `write` on the temporary file itself (for formats that seek back), then syncs it and
    /// renames it over the target.
    ///
    /// # Panics
    /// On standard output or a special file, which cannot seek: callers open their destination
    /// with [`Special::Refuse`].
    pub(crate) fn write_file_with(
        self,
        write: impl FnOnce(&mut fs::File) -> io::Result<()>,
    ) -> Result<()> {
        let Destination::File { mut temp, target, shown, keep } = self else {
            panic!("write_file_with needs a regular file");
        };
        let context = || format!("cannot write {}", shown.display());
        let temp_path = temp.path().to_path_buf();
        let written = (|| {
            write(temp.as_file_mut()).with_context(context)?;
            if let Some(keep) = &keep {
                keep_attributes(temp.as_file(), keep).with_context(context)?;
            }
            temp.as_file().sync_all().with_context(context)?;
            let identity = file_identity(&temp.as_file().metadata().with_context(context)?);
            temp.persist(&target).map_err(|e| e.error).with_context(context)?;
            // The rename went into whatever the directory path names now: check that the file
            // is where the user asked for it (its directory may have been moved or removed).
            match fs::metadata(&target) {
                Ok(meta) if file_identity(&meta) == identity => {}
                _ => bail!(
                    "cannot write {}: its directory was moved or removed, or another process \
                     replaced the file, during the run",
                    shown.display()
                ),
            }
            sync_directory(&target).with_context(context)
        })();
        // Renamed into place, or deleted when `temp` was dropped on failure.
        crate::signals::unregister_temporary(&temp_path);
        written
    }
}

/// `path` with its symbolic links followed to the file they finally name (which may not exist
/// yet; the path itself when it is no link), and whether the way there passes through the
/// kernel's descriptor links (`/proc/…/fd/N`, `/dev/fd/N`), whose text is no path to replace.
fn follow_links(path: &Path) -> io::Result<(PathBuf, bool)> {
    let through_descriptors =
        |p: &Path| p.starts_with("/proc") || p.starts_with("/dev/fd") || p.starts_with("/dev/std");
    let mut current = path.to_path_buf();
    let mut descriptor = through_descriptors(&current);
    // As many links as the kernel follows (ELOOP beyond).
    for _ in 0..40 {
        match fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = fs::read_link(&current)?;
                current = match current.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
                descriptor |= through_descriptors(&current);
                if descriptor {
                    return Ok((current, true));
                }
            }
            Ok(_) => return Ok((current, descriptor)),
            Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok((current, descriptor)),
            Err(err) => return Err(err),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// Deletes the temporary files `.NAME.PID@HOST-RANDOM.tmp` (named by `stem`, `.NAME.`) in `dir`
/// that this user's runs on this host (`here`) left when they were killed (`kill -9`, a crash: nothing
/// could clean up): their process is gone. A file whose process lives, another user's, or one
/// written from another host (a directory shared over NFS, where process ids say nothing) is
/// left alone (issue 19: a killed run left up to 124 MB behind, never cleaned up).
#[cfg(unix)]
fn sweep_stale_temporaries(dir: &Path, stem: &str, here: &str) {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = fs::read_dir(dir) else { return };
    // SAFETY: geteuid has no preconditions.
    let me = unsafe { libc::geteuid() };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(middle) = name.strip_prefix(stem).and_then(|rest| rest.strip_suffix(".tmp"))
        else {
            continue;
        };
        // `PID@HOST-RANDOM`; the random part has no `-`.
        let Some((writer, _)) = middle.rsplit_once('-') else { continue };
        let Some((pid, host)) = writer.split_once('@') else { continue };
        let Ok(pid) = pid.parse::<libc::pid_t>() else { continue };
        if host != here {
            continue;
        }
        // SAFETY: signal 0 only asks whether the process exists.
        let gone = pid > 0
            && unsafe { libc::kill(pid, 0) } == -1
            && io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH);
        let mine = entry.metadata().is_ok_and(|meta| meta.is_file() && meta.uid() == me);
        if gone && mine {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// This host's name as it goes into temporary files' names: at most 64 bytes of letters,
/// digits, `.` and `-` (anything else becomes `_`), or `localhost` when it cannot be read.
#[cfg(unix)]
fn host_name() -> String {
    let mut buffer = [0u8; 256];
    // SAFETY: gethostname writes at most `buffer.len()` bytes into `buffer`.
    let read = unsafe { libc::gethostname(buffer.as_mut_ptr().cast(), buffer.len()) } == 0;
    let end = buffer.iter().position(|&b| b == 0).unwrap_or(buffer.len());
    let name: String = buffer[..end]
        .iter()
        .take(64)
        .map(|&b| if b.is_ascii_alphanumeric() || b == b'.' || b == b'-' { b as char } else { '_' })
        .collect();
    if read && !name.is_empty() {
        name
    } else {
        "localhost".to_string()
    }
}

#[cfg(not(unix))]
fn host_name() -> String {
    "localhost".to_string()
}

#[cfg(not(unix))]
fn sweep_stale_temporaries(_dir: &Path, _stem: &str, _here: &str) {}

/// Whether `path` opens the same file as standard output.
#[cfg(unix)]
fn is_stdout(path: &Path) -> bool {
    use std::os::fd::AsFd;
    same_as_descriptor(path, io::stdout().as_fd())
}

/// Whether `path` opens the same file as standard input.
#[cfg(unix)]
fn is_stdin(path: &Path) -> bool {
    use std::os::fd::AsFd;
    same_as_descriptor(path, io::stdin().as_fd())
}

#[cfg(unix)]
fn same_as_descriptor(path: &Path, fd: std::os::fd::BorrowedFd<'_>) -> bool {
    let Ok(ours) = fd.try_clone_to_owned().map(fs::File::from) else {
        return false;
    };
    match (ours.metadata(), fs::metadata(path)) {
        (Ok(a), Ok(b)) => file_identity(&a) == file_identity(&b),
        _ => false,
    }
}

#[cfg(not(unix))]
fn is_stdout(_path: &Path) -> bool {
    false
}

#[cfg(not(unix))]
fn is_stdin(_path: &Path) -> bool {
    false
}

/// The first `bytes` bytes of `name` at most, cut at a character boundary.
fn shortened(name: &str, bytes: usize) -> &str {
    let mut end = name.len().min(bytes);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    &name[..end]
}

#[cfg(unix)]
fn is_special(meta: &fs::Metadata) -> bool {
    use std::os::unix::fs::FileTypeExt;
    let kind = meta.file_type();
    kind.is_char_device() || kind.is_block_device() || kind.is_fifo() || kind.is_socket()
}

#[cfg(not(unix))]
fn is_special(meta: &fs::Metadata) -> bool {
    !meta.is_file() && !meta.is_dir()
}

/// Whether the user may write the existing file `path`: its permissions for this user (root may
/// write anything, so for root: whether any write bit is set).
#[cfg(unix)]
fn writable(path: &Path, meta: &fs::Metadata) -> bool {
    use std::os::unix::ffi::OsStrExt;
    use std::os::unix::fs::PermissionsExt;
    // SAFETY: geteuid has no preconditions and cannot fail.
    if unsafe { libc::geteuid() } == 0 {
        return meta.permissions().mode() & 0o222 != 0;
    }
    let Ok(path) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
        return false;
    };
    // SAFETY: `path` is a valid NUL-terminated string that outlives the call.
    unsafe { libc::access(path.as_ptr(), libc::W_OK) == 0 }
}

#[cfg(not(unix))]
fn writable(_path: &Path, meta: &fs::Metadata) -> bool {
    !meta.permissions().readonly()
}

/// Gives the temporary file the permissions (and, where allowed, the owner) of the file it
/// replaces.
fn keep_attributes(file: &fs::File, keep: &Kept) -> io::Result<()> {
    file.set_permissions(keep.permissions.clone())?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let meta = file.metadata()?;
        if (meta.uid(), meta.gid()) != keep.owner {
            // Only root may give a file away; anyone else keeps their own file.
            let _ = std::os::unix::fs::fchown(file, Some(keep.owner.0), Some(keep.owner.1));
        }
    }
    Ok(())
}

/// What tells one file from another: its device and inode (where there are none, its length).
#[cfg(unix)]
pub(crate) fn file_identity(meta: &fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

/// What tells one file from another: its device and inode (where there are none, its length).
#[cfg(not(unix))]
pub(crate) fn file_identity(meta: &fs::Metadata) -> (u64, u64) {
    (meta.len(), 0)
}

/// Syncs the directory of `path`, so that the rename survives a crash.
fn sync_directory(path: &Path) -> io::Result<()> {
    #[cfg(unix)]
    {
        let dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        fs::File::open(dir)?.sync_all()?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// Whether `a` and `b` name the same file once their symbolic links are followed (and their
/// directories resolved), whether or not it exists yet.
pub(crate) fn same_file(a: &Path, b: &Path) -> bool {
    let resolved = |path: &Path| -> Option<PathBuf> {
        let (target, _) = follow_links(path).ok()?;
        let dir = match target.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        Some(fs::canonicalize(dir).ok()?.join(target.file_name()?))
    };
    match (resolved(a), resolved(b)) {
        (Some(a), Some(b)) => a == b,
        _ => false,
    }
}

/// Standard output, locked, or an error when it is closed (`grundy … >&-`): Rust's standard
/// library drops what is written to a closed standard output without an error, so a table would
/// vanish and the run end with exit code 0 (issue 19).
pub(crate) fn stdout() -> Result<io::StdoutLock<'static>> {
    if stdout_is_closed() {
        bail!("standard output is closed: what this command writes there would be lost");
    }
    Ok(io::stdout().lock())
}

/// Whether standard output was closed when the process started (`grundy … >&-`), as recorded
/// by [`RECORD_CLOSED_STDOUT`].
#[cfg(target_os = "linux")]
static STDOUT_CLOSED_AT_START: std::sync::atomic::AtomicBool =
    std::sync::atomic::AtomicBool::new(false);

/// Runs before `main` and before Rust's runtime starts (the dynamic loader calls the functions in
/// `.init_array` first). The runtime reopens a closed standard descriptor on `/dev/null` for
/// reading and writing, after which a closed standard output cannot be told from a `/dev/null`
/// that a caller chose (Python's `subprocess.DEVNULL` opens it the same way, issue 28): so the
/// descriptor is asked here, while it is still what the caller left.
#[cfg(target_os = "linux")]
#[used]
#[link_section = ".init_array"]
static RECORD_CLOSED_STDOUT: extern "C" fn() = {
    extern "C" fn record() {
        // SAFETY: F_GETFD only asks whether the descriptor is open; it changes nothing.
        let closed = unsafe { libc::fcntl(libc::STDOUT_FILENO, libc::F_GETFD) } == -1;
        STDOUT_CLOSED_AT_START.store(closed, std::sync::atomic::Ordering::Relaxed);
    }
    record
};

/// Whether standard output is closed: it was closed when the process started, or it has been
/// closed since.
#[cfg(unix)]
fn stdout_is_closed() -> bool {
    // SAFETY: F_GETFD only asks whether the descriptor is open.
    if unsafe { libc::fcntl(libc::STDOUT_FILENO, libc::F_GETFD) } == -1 {
        return true;
    }
    #[cfg(target_os = "linux")]
    return STDOUT_CLOSED_AT_START.load(std::sync::atomic::Ordering::Relaxed);
    #[cfg(not(target_os = "linux"))]
    false
}

#[cfg(not(unix))]
fn stdout_is_closed() -> bool {
    false
}

/// Whether an error comes from writing to a closed pipe (`grundy … | head`), which is not a
/// failure.
pub(crate) fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause.downcast_ref::<io::Error>().is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Writes `value` as one line of JSON, as it is serialized (through a buffer), not from a copy
/// in memory: a report can be far larger as text than as its structure (issue 19). I/O errors (a
/// closed pipe) stay `io::Error`s: serde_json's conversion gives back the one it wrapped.
pub(crate) fn write_json_line(
    out: &mut dyn Write,
    value: &impl serde::Serialize,
) -> io::Result<()> {
    let mut buffered = io::BufWriter::with_capacity(1 << 16, out);
    serde_json::to_writer(&mut buffered, value).map_err(io::Error::from)?;
    buffered.write_all(b"\n")?;
    buffered.flush()
}

/// The bytes written to it handed to `inner` in blocks of exactly [`Blocks::SIZE`] bytes (the
/// last one shorter, at [`Blocks::finish`]), however they were written: a gzip stream's bytes
/// depend on how its input arrives, and the same table must give the same file whichever writer
/// wrote it, in whatever pieces.
struct Blocks<W: Write> {
    inner: W,
    block: Vec<u8>,
}

impl<W: Write> Blocks<W> {
    const SIZE: usize = 1 << 16;

    fn new(inner: W) -> Blocks<W> {
        Blocks { inner, block: Vec::with_capacity(Blocks::<W>::SIZE) }
    }

    /// Hands on the last, shorter block, and returns the inner writer.
    fn finish(mut self) -> io::Result<W> {
        self.inner.write_all(&self.block)?;
        Ok(self.inner)
    }
}

impl<W: Write> Write for Blocks<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let take = (Self::SIZE - self.block.len()).min(buf.len());
        self.block.extend_from_slice(&buf[..take]);
        if self.block.len() == Self::SIZE {
            self.inner.write_all(&self.block)?;
            self.block.clear();
        }
        Ok(take)
    }

    /// Nothing: a partial block waits for more bytes or for the end, and the encoder is not
    /// flushed (a gzip flush marks the stream), so that the stream does not depend on when
    /// flushes come. [`Blocks::finish`] ends it.
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same bytes, written in pieces of any size with flushes between them, make the same
    /// gzip stream.
    #[test]
    fn a_gzip_stream_does_not_depend_on_how_its_input_was_written() {
        let text: Vec<u8> =
            (0..200_000u32).flat_map(|i| format!("{i},{}\n", i % 7).into_bytes()).collect();
        let gz = |piece: usize| {
            let encoder =
                flate2::GzBuilder::new().write(Vec::new(), flate2::Compression::default());
            let mut out = Blocks::new(encoder);
            for chunk in text.chunks(piece) {
                out.write_all(chunk).unwrap();
                out.flush().unwrap();
            }
            out.finish().unwrap().finish().unwrap()
        };
        let once = gz(text.len());
        for piece in [1, 7, 8192, 65_536, 100_000] {
            assert!(gz(piece) == once, "pieces of {piece} bytes");
        }
    }
}
