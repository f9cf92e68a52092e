//! Files grundy makes beside a path the user gave: a checkpoint's `FILE.lock`, a survey's
//! `FILE.partial` and `FILE.lock`. They get the care that `--out` gets (issue 28: a link at
//! `CKPT.lock` made a run overwrite the user's file with a process id), by one set of rules:
//!
//! - The name always fits: `NAME.SUFFIX` when that is a valid file name; otherwise the start of
//!   `NAME`, `~`, a hash of the whole name, and `.SUFFIX` (the same name on every run, so a
//!   resumed run finds its partial file).
//! - No link is followed: a symbolic link where a derived file goes was not made by grundy,
//!   and is refused with a message (`O_NOFOLLOW`), dangling or not.
//! - Only regular files are used (a FIFO or a device there is refused, without blocking on it).
//! - What is read from them is bounded by the reader (see `grundy_catalog::survey`).

use anyhow::{bail, Context, Result};
use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

/// The most bytes a file name may have (Linux's NAME_MAX, and most file systems').
const NAME_MAX: usize = 255;

/// The file derived from `path` with `suffix` (`lock`, `partial`): `PATH.SUFFIX`, or a
/// shortened name with a hash when that name would be too long (see the module's rules).
pub(crate) fn derived_path(path: &Path, suffix: &str) -> PathBuf {
    let name = path.file_name().map(os_bytes).unwrap_or_default();
    let mut derived = name.clone();
    derived.push(b'.');
    derived.extend_from_slice(suffix.as_bytes());
    if derived.len() > NAME_MAX {
        // The first bytes, `~`, 16 hex digits, `.SUFFIX`.
        let keep = NAME_MAX - 1 - 16 - 1 - suffix.len();
        let mut end = keep.min(name.len());
        // Not inside a UTF-8 character: back off its continuation bytes.
        while end > 0 && end < name.len() && name[end] & 0xC0 == 0x80 {
            end -= 1;
        }
        derived = name[..end].to_vec();
        derived.extend_from_slice(format!("~{:016x}.{suffix}", fnv1a(&name)).as_bytes());
    }
    path.with_file_name(from_os_bytes(derived))
}

/// A derived file to read, if there is one (`None` when nothing is there).
///
/// # Errors
/// It is a link, not a regular file, or cannot be opened.
pub(crate) fn open_to_read(path: &Path) -> Result<Option<File>> {
    match open(path, OpenOptions::new().read(true)) {
        Ok(file) => Ok(Some(file)),
        Err(err)
            if err.downcast_ref::<io::Error>().map(io::Error::kind)
                == Some(io::ErrorKind::NotFound) =>
        {
            Ok(None)
        }
        Err(err) => Err(err),
    }
}

/// A derived file to append to, made if it is not there.
///
/// # Errors
/// It is a link, not a regular file, or cannot be opened or made.
pub(crate) fn open_to_append(path: &Path) -> Result<File> {
    open(path, OpenOptions::new().append(true).create(true))
}

/// Whether something is at `path`.
///
/// # Errors
/// It is a symbolic link: grundy did not make it.
pub(crate) fn exists(path: &Path) -> Result<bool> {
    if is_link(path) {
        bail!(refuse_link(path));
    }
    Ok(std::fs::symlink_metadata(path).is_ok())
}

fn refuse_link(path: &Path) -> String {
    format!(
        "{} is a symbolic link: grundy follows no link where it keeps its own files beside \
         yours; delete it",
        path.display()
    )
}

/// `path` opened with `options`, following no link and refusing anything but a regular file.
fn open(path: &Path, options: &mut OpenOptions) -> Result<File> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // O_NONBLOCK: a FIFO is refused below instead of waiting for a writer.
        options.custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK);
    }
    let file = match options.open(path) {
        Ok(file) => file,
        Err(_) if is_link(path) => bail!(refuse_link(path)),
        Err(err) => {
            return Err(anyhow::Error::new(err))
                .with_context(|| format!("cannot open {}", path.display()))
        }
    };
    let meta = file.metadata().with_context(|| format!("cannot open {}", path.display()))?;
    if !meta.is_file() {
        bail!("{} is not a regular file (a device, FIFO or directory); delete it", path.display());
    }
    #[cfg(unix)]
    {
        // Back to blocking reads and writes, as for any file.
        use std::os::fd::AsRawFd;
        // SAFETY: F_GETFL/F_SETFL on a descriptor this function owns.
        unsafe {
            let flags = libc::fcntl(file.as_raw_fd(), libc::F_GETFL);
            if flags != -1 {
                libc::fcntl(file.as_raw_fd(), libc::F_SETFL, flags & !libc::O_NONBLOCK);
            }
        }
    }
    Ok(file)
}

fn is_link(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|meta| meta.file_type().is_symlink())
}

/// 64-bit FNV-1a: a hash that stays the same across runs, builds and versions.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(0xcbf2_9ce4_8422_2325, |hash, &b| (hash ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

#[cfg(unix)]
fn os_bytes(name: &std::ffi::OsStr) -> Vec<u8> {
    use std::os::unix::ffi::OsStrExt;
    name.as_bytes().to_vec()
}

#[cfg(unix)]
fn from_os_bytes(bytes: Vec<u8>) -> std::ffi::OsString {
    use std::os::unix::ffi::OsStringExt;
    std::ffi::OsString::from_vec(bytes)
}

#[cfg(not(unix))]
fn os_bytes(name: &std::ffi::OsStr) -> Vec<u8> {
    name.to_string_lossy().into_owned().into_bytes()
}

#[cfg(not(unix))]
fn from_os_bytes(bytes: Vec<u8>) -> std::ffi::OsString {
    String::from_utf8_lossy(&bytes).into_owned().into()
}

/// A lock on a user's file (`FILE.lock`, an advisory `flock` that the kernel drops when the
/// process ends, even by `kill -9`), held while a run lasts so that a second run on the same
/// file is refused instead of racing the first, and deleted when it ends. A lock file left by a
/// killed run is no lock: the kernel dropped its `flock`.
pub(crate) struct Lock {
    path: PathBuf,
    file: File,
}

/// What a lock guards, as its refusals name it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Guarded {
    /// `checkpoint`, `survey output`.
    pub(crate) what: &'static str,
    /// The option that gives a run its own file.
    pub(crate) option: &'static str,
}

impl Lock {
    /// Takes the lock of `of`.
    ///
    /// # Errors
    /// Another run holds it, or its file cannot be made (a link, not a regular file).
    pub(crate) fn take(of: &Path, guarded: Guarded) -> Result<Lock> {
        let path = derived_path(of, "lock");
        // Made and registered for deletion with no signal in between.
        crate::signals::uninterrupted(|| {
            let mut file = open(&path, OpenOptions::new().read(true).write(true).create(true))
                .with_context(|| format!("cannot lock {} {}", guarded.what, of.display()))?;
            // Another run's lock file is left as it is: only a held lock becomes this run's.
            hold(&mut file, of, guarded)?;
            crate::signals::register_temporary(&path);
            Ok(Lock { path: path.clone(), file })
        })
    }

    /// Whether the lock's file is still at its path: a lock deleted by hand during the run no
    /// longer keeps a second run out.
    pub(crate) fn still_held(&self) -> bool {
        let ours = self.file.metadata().ok().map(|meta| crate::output::file_identity(&meta));
        ours.is_some()
            && ours == std::fs::metadata(&self.path).ok().map(|m| crate::output::file_identity(&m))
    }

    /// Takes the lock again when it was deleted by hand during the run (a second run may have
    /// taken it since: then this fails).
    pub(crate) fn retake(&mut self, of: &Path, guarded: Guarded) -> Result<()> {
        if self.still_held() {
            return Ok(());
        }
        // The old lock, dropped, unregisters its path once; the fresh one registered it too.
        *self = Lock::take(of, guarded)?;
        Ok(())
    }

    /// The lock's file.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

/// Takes the `flock` of the lock file `file` of `of` and writes this process's id in it.
#[cfg(unix)]
fn hold(file: &mut File, of: &Path, guarded: Guarded) -> Result<()> {
    use std::io::Write;
    use std::os::fd::AsRawFd;
    // SAFETY: flock on a descriptor the caller owns.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } != 0 {
        let mut holder = String::new();
        let _ = io::Read::read_to_string(&mut io::Read::take(&*file, 32), &mut holder);
        let holder: String = holder.trim().chars().filter(char::is_ascii_digit).take(20).collect();
        bail!(
            "{} {} is in use by another run (process {holder}); wait for it, or give this \
                 run its own {}",
            guarded.what,
            of.display(),
            guarded.option
        );
    }
    file.set_len(0)?;
    write!(file, "{}", std::process::id())?;
    Ok(())
}

#[cfg(not(unix))]
fn hold(_file: &mut File, _of: &Path, _guarded: Guarded) -> Result<()> {
    Ok(())
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Deleted while still held, and only if it is still this run's file.
        if self.still_held() {
            let _ = std::fs::remove_file(&self.path);
        }
        crate::signals::unregister_temporary(&self.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_names_fit_and_stay_the_same() {
        let short = derived_path(Path::new("dir/table.ckpt"), "lock");
        assert_eq!(short, Path::new("dir/table.ckpt.lock"));
        for len in [250, 251, 253, 255] {
            let name = "é".repeat(len / 2) + &"x".repeat(len % 2);
            let path = Path::new("dir").join(&name);
            let derived = derived_path(&path, "partial");
            let file = derived.file_name().unwrap().to_str().expect("whole characters");
            assert!(file.len() <= NAME_MAX, "{len}: {}", file.len());
            assert!(file.ends_with(".partial") && file.starts_with('é'), "{file}");
            assert_eq!(derived, derived_path(&path, "partial"), "the same on every run");
            assert_eq!(derived.parent(), Some(Path::new("dir")));
        }
        // Two long names that share their start get two files.
        let a = derived_path(Path::new(&"a".repeat(250)), "lock");
        let b = derived_path(Path::new(&("a".repeat(249) + "b")), "lock");
        assert_ne!(a, b);
    }
}
