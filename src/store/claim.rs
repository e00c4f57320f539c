//! Two runs, one machine file: a run that will save a machine *claims* the file first (before it
//! reads the machine it resumes). The claim notes how the file stood (its size, time and, on
//! Unix, its inode) and, on Unix, holds an advisory lock on it for as long as the run lasts:
//!
//! - a second run that claims a file another run holds is refused at once, before any work
//!   ("another matchbox run is saving its machine there");
//! - a save over a file that changed since it was claimed (a writer that takes no lock: another
//!   program, an editor, a run on Windows, where the lock is not taken because Windows' locks
//!   also stop reading) replaces nothing: this run's machine goes beside it (`m-2.yaml`) and the
//!   error says where. Nothing is lost either way.
//!
//! The claims are the process's, in one table: every save of a machine passes through
//! [`super::save_machine`], which asks it, so no command can forget the rule. A file saved
//! without a claim is claimed by that save (the screens' `s` saves again later).

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

use super::{StoreError, invalid};

/// How a file stood: a save by anyone else changes at least one of these.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
    /// Device and inode: an atomic save (a rename) makes a new inode even when size and time
    /// agree.
    #[cfg(unix)]
    inode: (u64, u64),
}

impl Stamp {
    fn of(target: &Path) -> Option<Stamp> {
        let meta = fs::metadata(target).ok()?;
        Some(Stamp {
            len: meta.len(),
            modified: meta.modified().ok(),
            #[cfg(unix)]
            inode: {
                use std::os::unix::fs::MetadataExt;
                (meta.dev(), meta.ino())
            },
        })
    }
}

struct Claim {
    /// The file, however the command named it (its folder made canonical).
    key: PathBuf,
    /// How it stood when claimed or last saved by this run (`None`: there was no file).
    seen: Option<Stamp>,
    /// The open file whose lock is held (Unix).
    _lock: Option<fs::File>,
}

static CLAIMS: Mutex<Vec<Claim>> = Mutex::new(Vec::new());

fn claims() -> std::sync::MutexGuard<'static, Vec<Claim>> {
    CLAIMS.lock().unwrap_or_else(|e| e.into_inner())
}

/// Claims the file `key` (at `target`; named `path` by the command) for this run's saves of a
/// machine (see the module's notes). Refused when another run holds the file.
pub(super) fn claim(path: &Path, key: PathBuf, target: &Path) -> Result<(), StoreError> {
    if claims().iter().any(|c| c.key == key) {
        return Ok(());
    }
    let lock = lock(path, target)?;
    let seen = Stamp::of(target);
    claims().push(Claim {
        key,
        seen,
        _lock: lock,
    });
    Ok(())
}

/// Takes the advisory lock of an existing file (Unix; elsewhere none is taken).
fn lock(path: &Path, target: &Path) -> Result<Option<fs::File>, StoreError> {
    if !cfg!(unix) {
        return Ok(None);
    }
    let Ok(file) = fs::File::open(target) else {
        return Ok(None);
    };
    match file.try_lock() {
        Ok(()) => Ok(Some(file)),
        Err(fs::TryLockError::WouldBlock) => Err(invalid(
            path,
            "another matchbox run has this machine open and will save it there: wait for that run to end, or save to another file",
        )),
        // A file system without locks: the stamp still guards the save.
        Err(fs::TryLockError::Error(_)) => Ok(None),
    }
}

/// Whether a save to the file `key` (at `target`) may replace it: this run has not claimed it,
/// or it stands as claimed.
pub(super) fn unchanged(key: &Path, target: &Path) -> bool {
    let now = Stamp::of(target);
    claims()
        .iter()
        .find(|c| c.key == key)
        .is_none_or(|c| c.seen == now)
}

/// The file at `path`, opened and locked (Unix), if it can be.
pub(super) fn locked(path: &Path) -> Option<fs::File> {
    cfg!(unix)
        .then(|| fs::File::open(path).ok().filter(|f| f.try_lock().is_ok()))
        .flatten()
}

/// Notes that this run saved the file `key` (at `target`, holding `lock` on it, taken before it
/// was renamed there): it is claimed as it now stands.
pub(super) fn saved(key: PathBuf, target: &Path, lock: Option<fs::File>) {
    let mut all = claims();
    all.retain(|c| c.key != key);
    all.push(Claim {
        key,
        seen: Stamp::of(target),
        _lock: lock.or_else(|| locked(target)),
    });
}

/// A free name beside `target` for a machine that may not replace it: `m-2.yaml`, `m-3.yaml`…
pub fn beside(target: &Path) -> PathBuf {
    let stem = target
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let ext = target
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    let dir = target.parent().unwrap_or(Path::new(""));
    (2..)
        .map(|n| dir.join(format!("{stem}-{n}{ext}")))
        .find(|p| fs::symlink_metadata(p).is_err())
        .expect("some number is free")
}

/// The error of a save that found its file changed: where the machine went instead.
pub(super) fn changed(path: &Path, kept: &Path) -> StoreError {
    StoreError::Changed {
        path: path.to_path_buf(),
        kept: kept.to_path_buf(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_free_name_beside_keeps_the_extension() {
        let dir = tempfile::tempdir().unwrap();
        let m = dir.path().join("m.yaml");
        fs::write(&m, "x").unwrap();
        assert_eq!(beside(&m), dir.path().join("m-2.yaml"));
        fs::write(dir.path().join("m-2.yaml"), "x").unwrap();
        assert_eq!(beside(&m), dir.path().join("m-3.yaml"));
    }

    #[test]
    fn a_file_changed_after_its_claim_is_seen_changed() {
        let dir = tempfile::tempdir().unwrap();
        let m = dir.path().join("m.yaml");
        fs::write(&m, "first").unwrap();
        claim(&m, m.clone(), &m).unwrap();
        assert!(unchanged(&m, &m));
        // Another program replaces it (a new inode, as an atomic save makes).
        let other = dir.path().join("other");
        fs::write(&other, "second, longer").unwrap();
        fs::rename(&other, &m).unwrap();
        assert!(!unchanged(&m, &m));
        saved(m.clone(), &m, None);
        assert!(unchanged(&m, &m));
    }
}
