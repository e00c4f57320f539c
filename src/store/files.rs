//! Files on disk: reading a matchbox file (a regular file, never a pipe or a device, of bounded
//! size) and saving atomically (a temporary file in the same directory, then a rename).

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use super::{MAX_FILE_BYTES, StoreError, invalid};
use crate::learn::{GameDefaults, Machine};

/// Opens a file to read: a regular file, never a pipe or a device (asked before opening: opening
/// a FIFO blocks until a writer comes).
pub fn open(path: &Path) -> Result<fs::File, StoreError> {
    let io = |err| StoreError::Io {
        path: path.to_path_buf(),
        err,
    };
    let meta = fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(not_regular(path, &meta));
    }
    let f = fs::File::open(path).map_err(io)?;
    let meta = f.metadata().map_err(io)?;
    if !meta.is_file() {
        return Err(not_regular(path, &meta));
    }
    Ok(f)
}

/// Reads a file from disk: a regular file of at most [`MAX_FILE_BYTES`], as UTF-8 (a game record,
/// a table). Machine files are read box by box instead ([`load_machine`]).
pub fn read(path: &Path) -> Result<String, StoreError> {
    use std::io::Read;
    let io = |err| StoreError::Io {
        path: path.to_path_buf(),
        err,
    };
    let f = open(path)?;
    let len = f.metadata().map_err(io)?.len();
    if len > MAX_FILE_BYTES {
        return Err(invalid(
            path,
            format!(
                "{} is more than this file may hold ({})",
                crate::text::bytes(len),
                crate::text::bytes(MAX_FILE_BYTES)
            ),
        ));
    }
    let mut text = String::new();
    f.take(MAX_FILE_BYTES + 1)
        .read_to_string(&mut text)
        .map_err(io)?;
    Ok(text)
}

/// The buffer a machine file is read and written through.
const BUFFER: usize = 1 << 16;

/// Loads a machine file for `game`, YAML or binary by its extension, box by box: memory for the
/// machine and a small buffer, whatever the file's size.
pub fn load_machine<G: crate::game::Game>(game: &G, path: &Path) -> Result<Machine<G>, StoreError> {
    let f = open(path)?;
    let input = std::io::BufReader::with_capacity(BUFFER, f);
    super::read_machine(game, path, super::Format::of(path), input)
}

/// The game (and size) a machine file is for, from its settings alone.
pub fn read_file_game(path: &Path) -> Result<super::FileGame, StoreError> {
    let input = std::io::BufReader::new(open(path)?);
    super::read_file_game_from(path, super::Format::of(path), input)
}

/// Why a path that is not a regular file cannot be read.
fn not_regular(path: &Path, meta: &fs::Metadata) -> StoreError {
    let what = if meta.is_dir() {
        "a directory"
    } else {
        #[cfg(unix)]
        {
            use std::os::unix::fs::FileTypeExt;
            let t = meta.file_type();
            if t.is_fifo() {
                "a named pipe (FIFO)"
            } else if t.is_socket() {
                "a socket"
            } else if t.is_char_device() || t.is_block_device() {
                "a device"
            } else {
                "something else"
            }
        }
        #[cfg(not(unix))]
        "something else"
    };
    invalid(path, format!("is {what}, not a regular file"))
}

/// Saves `machine` to `path`, YAML or binary by its extension, box by box and atomically.
pub fn save_machine<G: GameDefaults>(
    path: &Path,
    game: &G,
    machine: &Machine<G>,
) -> Result<(), StoreError> {
    let mut w = AtomicWriter::create(path)?;
    super::write_machine(
        &mut w,
        super::Format::of(path),
        game,
        machine,
        game.size_key(),
    )
    .map_err(|err| StoreError::Io {
        path: path.to_path_buf(),
        err,
    })?;
    w.finish(true)
}

/// Claims `path` for this run's saves of a machine, before the machine saved there is read: a
/// second run that claims it meanwhile is refused, and a save over it after someone else changed
/// it replaces nothing (the machine goes beside it). See [`super::claim`].
pub fn claim(path: &Path) -> Result<(), StoreError> {
    super::claim::claim(path, file_key(path), &save_target(path)?)
}

/// Where a save to `path` really goes: the final target when `path` is a symbolic link (so the
/// link is kept and its target replaced), `path` itself otherwise.
fn save_target(path: &Path) -> Result<PathBuf, StoreError> {
    let io = |err| StoreError::Io {
        path: path.to_path_buf(),
        err,
    };
    let mut target = path.to_path_buf();
    // Follow a chain of links (not for ever).
    for _ in 0..32 {
        match fs::symlink_metadata(&target) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = fs::read_link(&target).map_err(io)?;
                target = match target.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
            }
            _ => return Ok(target),
        }
    }
    Err(invalid(path, "too many symbolic links"))
}

/// Checks, before any work is done, that `path` can be saved to: it is (or will be) a regular
/// file in a directory that exists and that this program can write to. A device, a pipe or a
/// directory is refused (a save replaces the file it writes, and must not replace a device).
pub fn check_writable(path: &Path) -> Result<(), StoreError> {
    let text = path.as_os_str().to_string_lossy();
    if text.ends_with('/') || text.ends_with(std::path::MAIN_SEPARATOR) {
        return Err(invalid(
            path,
            "ends in a slash, so it names a directory: give the name of a file to save to",
        ));
    }
    let target = save_target(path)?;
    if let Ok(meta) = fs::metadata(&target) {
        if meta.is_dir() {
            return Err(invalid(path, "is a directory, not a file to save to"));
        }
        if !meta.is_file() {
            return Err(invalid(
                path,
                "is not a regular file (a device or a pipe): give the name of a file to save to",
            ));
        }
        check_replaceable(path, &meta)?;
    }
    let dir = parent_dir(&target);
    if !dir.is_dir() {
        return Err(invalid(
            path,
            format!("cannot save: no directory {}", dir.display()),
        ));
    }
    // Try: a read-only directory or a file system that takes no files fails here, not after the
    // work is done. The probe has the name of this process's save of the target, so a probe left
    // by a killed process is cleaned by the next save like any other temporary file.
    clean_stale_temps(&target);
    let probe =
        temp_name(&target, std::process::id()).ok_or_else(|| invalid(path, "not a file name"))?;
    match fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .open(&probe)
    {
        Ok(_) => {
            let _ = fs::remove_file(&probe);
            Ok(())
        }
        Err(err) => Err(invalid(
            path,
            format!("cannot save in {}: {err}", dir.display()),
        )),
    }
}

/// Refuses two outputs of one command that name the same file (one would replace the other).
/// `outputs` are (option, path) pairs.
pub fn check_distinct(outputs: &[(&str, &Path)]) -> Result<(), StoreError> {
    let key = file_key;
    for (i, (a, pa)) in outputs.iter().enumerate() {
        for (b, pb) in &outputs[i + 1..] {
            if key(pa) == key(pb) {
                return Err(invalid(
                    pa,
                    format!("{a} and {b} name the same file; give each its own"),
                ));
            }
        }
    }
    Ok(())
}

/// Refuses an output that names a file the command reads: the input would be lost.
pub fn check_not_read(
    outputs: &[(&str, &Path)],
    inputs: &[(&str, &Path)],
) -> Result<(), StoreError> {
    for (out, po) in outputs {
        for (input, pi) in inputs {
            if file_key(po) == file_key(pi) {
                return Err(invalid(
                    po,
                    format!(
                        "{out} would replace the file {input} reads: give the output its own name"
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// The file a path names, however it is written (`./m.yaml`, a link to it, `dir/../m.yaml`).
fn file_key(p: &Path) -> PathBuf {
    let target = save_target(p).unwrap_or_else(|_| p.to_path_buf());
    let dir = parent_dir(&target);
    let dir = fs::canonicalize(&dir).unwrap_or(dir);
    match target.file_name() {
        Some(name) => dir.join(name),
        None => target,
    }
}

/// Whether two paths name the same file.
pub fn same_file(a: &Path, b: &Path) -> bool {
    file_key(a) == file_key(b)
}

/// Refuses an output that names a file the command also reads in another role (the learner's
/// `--boxes` as `--save-opponent`, say: the save would replace the machine it was given).
/// `inputs` and `outputs` are (option, path); `allowed` pairs an output with the input it may
/// replace (the learner resumed and saved in place).
pub fn check_not_inputs(
    outputs: &[(&str, &Path)],
    inputs: &[(&str, &Path)],
    allowed: &[(&str, &str)],
) -> Result<(), StoreError> {
    for &(out, po) in outputs {
        for &(inp, pi) in inputs {
            if same_file(po, pi) && !allowed.contains(&(out, inp)) {
                return Err(invalid(
                    po,
                    format!(
                        "{out} names the file {inp} reads: saving would replace that machine; give {out} a file of its own"
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// What an existing file holds, in words for a message: `a tictactoe machine (x, 2,000,000
/// games played)`, or `a file of 1,234 bytes` when it is not a matchbox file. `None` when there is
/// no file.
pub fn describe_existing(path: &Path) -> Option<String> {
    use std::io::Read;
    let meta = fs::metadata(path).ok()?;
    if !meta.is_file() {
        return Some("something that is not a regular file".into());
    }
    let mut head = String::new();
    let mut f = fs::File::open(path).ok()?;
    let mut bytes = Vec::new();
    let _ = (&mut f).take(8192).read_to_end(&mut bytes);
    // A binary file's settings follow its magic, version, encoding and length (15 bytes).
    let text = match bytes.strip_prefix(b"MATCHBOX") {
        Some(_) => bytes.get(15..).unwrap_or_default(),
        None => &bytes[..],
    };
    head.push_str(&String::from_utf8_lossy(text));
    let key = |name: &str| {
        head.lines()
            .take_while(|l| !l.starts_with("boxes:"))
            .find_map(|l| l.strip_prefix(name))
            .map(|v| v.trim().trim_matches(|c| c == '\'' || c == '"').to_string())
    };
    match (key("game:"), key("side:"), key("games_played:")) {
        (Some(game), side, played) => {
            let size = key("size:").map(|s| format!(" {s}")).unwrap_or_default();
            let side = side.map(|s| format!("{s}, ")).unwrap_or_default();
            let played = played
                .and_then(|p| p.parse::<u64>().ok())
                .map(|n| crate::text::count(n, "game", "games") + " played")
                .unwrap_or_else(|| "games unknown".into());
            Some(format!("a {game}{size} machine ({side}{played})"))
        }
        _ => Some(format!(
            "a file of {}",
            crate::text::count(meta.len(), "byte", "bytes")
        )),
    }
}

/// Refuses a chart or a table written over a matchbox machine: a machine is never replaced by
/// what is drawn from it, `--force` or not (nothing else keeps its boxes).
pub fn check_not_a_machine(option: &str, path: &Path) -> Result<(), StoreError> {
    match describe_existing(path) {
        Some(what) if what.contains(" machine (") => Err(invalid(
            path,
            format!("holds {what}; {option} would replace it: write the {option} to another file"),
        )),
        _ => Ok(()),
    }
}

/// Refuses to save over an existing file unless it is the machine being resumed (`resumed`) or
/// the person said so (`force`). The message says what the file holds.
pub fn check_replace(
    option: &str,
    path: &Path,
    resumed: Option<&Path>,
    force: bool,
) -> Result<(), StoreError> {
    if fs::metadata(path).is_ok_and(|m| m.is_dir()) {
        // No --force replaces a folder: say what will do.
        return Err(invalid(
            path,
            format!("is a directory: {option} takes a file's name (a file in it, say)"),
        ));
    }
    if force || resumed.is_some_and(|r| same_file(r, path)) {
        return Ok(());
    }
    match describe_existing(path) {
        Some(what) => Err(invalid(
            path,
            format!(
                "holds {what}; {option} would replace it: add --force to replace it, or save to another file"
            ),
        )),
        None => Ok(()),
    }
}

fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Writes `contents` to `path` atomically: a temporary file in the same directory, flushed to disk,
/// then renamed over the target. A failure leaves any existing file untouched.
pub fn save_atomic(path: &Path, contents: &str) -> Result<(), StoreError> {
    save_atomic_bytes(path, contents.as_bytes())
}

/// The temporary file of a save to `target` by process `pid`: `.NAME.PID.tmp`, the name cut to
/// 200 bytes so that a name near the file system's limit (255) still has room for it.
fn temp_name(target: &Path, pid: u32) -> Option<PathBuf> {
    let name = temp_stem(target)?;
    Some(parent_dir(target).join(format!(".{name}.{pid}.tmp")))
}

/// The part of `target`'s name its temporary files carry.
fn temp_stem(target: &Path) -> Option<String> {
    let mut name = target.file_name()?.to_string_lossy().into_owned();
    let mut cut = name.len().min(200);
    while !name.is_char_boundary(cut) {
        cut -= 1;
    }
    name.truncate(cut);
    Some(name)
}

/// Removes temporary files that saves to `target` left behind when their process was killed
/// (`.NAME.PID.tmp` whose process is gone).
fn clean_stale_temps(target: &Path) {
    let (Some(name), Ok(entries)) = (temp_stem(target), fs::read_dir(parent_dir(target))) else {
        return;
    };
    let prefix = format!(".{name}.");
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = file
            .strip_prefix(&prefix)
            .and_then(|rest| rest.strip_suffix(".tmp"))
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !process_alive(pid) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Refuses to replace a file its owner protected: a read-only file, or one with other names (hard
/// links: a save writes a new file, so the other names would keep the old contents).
fn check_replaceable(path: &Path, meta: &fs::Metadata) -> Result<(), StoreError> {
    if meta.permissions().readonly() {
        return Err(invalid(
            path,
            "is read-only, so it is not replaced: make it writable first, or save to another file",
        ));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.nlink() > 1 {
            return Err(invalid(
                path,
                format!(
                    "has {} names (hard links): a save writes a new file, so the other names would keep the old contents; save to another file, or remove the other links first",
                    meta.nlink()
                ),
            ));
        }
    }
    Ok(())
}

/// Gives the new file `tmp` the permissions of the `target` it replaces (a private machine stays
/// private) and, where this program may, its owner and group.
fn keep_owner_and_mode(tmp: &Path, target: &Path) {
    let Ok(meta) = fs::metadata(target) else {
        return;
    };
    let _ = fs::set_permissions(tmp, meta.permissions());
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let Ok(now) = fs::metadata(tmp)
            && (now.uid(), now.gid()) != (meta.uid(), meta.gid())
        {
            let _ = std::os::unix::fs::chown(tmp, Some(meta.uid()), Some(meta.gid()));
        }
    }
}

/// Whether process `pid` is running (on systems with /proc; elsewhere assumed so).
fn process_alive(pid: u32) -> bool {
    let proc = Path::new("/proc");
    !proc.is_dir() || proc.join(pid.to_string()).exists()
}

/// [`save_atomic`] for any bytes (charts, tables). A symbolic link is followed (its target is
/// replaced, the link kept); a path that is not a regular file is refused.
pub fn save_atomic_bytes(path: &Path, contents: &[u8]) -> Result<(), StoreError> {
    let mut w = AtomicWriter::create(path)?;
    w.write_all(contents).map_err(|err| StoreError::Io {
        path: path.to_path_buf(),
        err,
    })?;
    w.commit()
}

/// A file written in pieces and saved atomically: the pieces go to a temporary file beside the
/// target, which replaces the target on [`AtomicWriter::commit`]; dropped without a commit, it is
/// removed and the target is untouched. For output that streams (a table of every game).
pub struct AtomicWriter {
    path: PathBuf,
    target: PathBuf,
    tmp: PathBuf,
    file: Option<std::io::BufWriter<fs::File>>,
}

impl AtomicWriter {
    pub fn create(path: &Path) -> Result<AtomicWriter, StoreError> {
        let target = save_target(path)?;
        if let Ok(meta) = fs::metadata(&target)
            && !meta.is_file()
        {
            return Err(invalid(
                path,
                "is not a regular file (a device, a pipe or a directory): not replaced",
            ));
        }
        if let Ok(meta) = fs::metadata(&target) {
            check_replaceable(path, &meta)?;
        }
        clean_stale_temps(&target);
        let tmp = temp_name(&target, std::process::id())
            .ok_or_else(|| invalid(path, "not a file name"))?;
        let file = fs::File::create(&tmp).map_err(|err| StoreError::Io {
            path: path.to_path_buf(),
            err,
        })?;
        Ok(AtomicWriter {
            path: path.to_path_buf(),
            target,
            tmp,
            file: Some(std::io::BufWriter::with_capacity(BUFFER, file)),
        })
    }

    /// Flushes to disk and puts the file in place of the target, with the target's permissions
    /// (and, where this program may, its owner).
    pub fn commit(self) -> Result<(), StoreError> {
        self.finish(false)
    }

    /// [`AtomicWriter::commit`]; when `claimed` (a machine), only over a file that stands as this
    /// run claimed it ([`super::claim`]): else the file goes beside it and the error says where.
    fn finish(mut self, claimed: bool) -> Result<(), StoreError> {
        let io = |err| StoreError::Io {
            path: self.path.clone(),
            err,
        };
        let file = self.file.take().expect("not yet committed");
        let f = file.into_inner().map_err(|e| io(e.into_error()))?;
        f.sync_all().map_err(io)?;
        drop(f);
        keep_owner_and_mode(&self.tmp, &self.target);
        let key = file_key(&self.path);
        if claimed && !super::claim::unchanged(&key, &self.target) {
            let kept = super::claim::beside(&self.target);
            fs::rename(&self.tmp, &kept).map_err(io)?;
            return Err(super::claim::changed(&self.path, &kept));
        }
        // The new file locked before it takes the old one's place: no other run finds it
        // unlocked in between.
        let lock = claimed.then(|| super::claim::locked(&self.tmp)).flatten();
        fs::rename(&self.tmp, &self.target).map_err(io)?;
        if claimed {
            super::claim::saved(key, &self.target, lock);
        }
        Ok(())
    }
}

impl Write for AtomicWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.file.as_mut().expect("not yet committed").write(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.file.as_mut().expect("not yet committed").flush()
    }
}

impl Drop for AtomicWriter {
    fn drop(&mut self) {
        // After a commit the temporary file is the target (nothing left to remove); otherwise
        // what was written goes.
        let _ = fs::remove_file(&self.tmp);
    }
}
