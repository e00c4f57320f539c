//! What a lesson keeps beside its log that the log must not hold: the join code, the teacher's
//! token and each pupil's key (the page's proof that it is that pupil, after a reload, a lost
//! network or a restart). `--resume` reads it back, so the class's code and the teacher's
//! address stay the same and every phone comes back as the pupil it was. The file is the
//! teacher's alone (mode 0600 where the system has modes) and written whole, atomically.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::learn::lesson::PupilId;

/// A lesson's secrets, and where they are kept.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Secrets {
    #[serde(skip)]
    pub path: PathBuf,
    pub code: String,
    pub token: String,
    /// Each pupil's key, and the pupil it names.
    #[serde(default)]
    pub keys: BTreeMap<String, PupilId>,
    /// How the machine file stood after the lesson last saved it (its length and time): at
    /// `--resume`, a file that stands otherwise (edited by hand, another machine copied there)
    /// is kept beside, not replaced.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub saved: Option<String>,
}

impl Secrets {
    /// The secrets file of the lesson saved in `save`: `FILE.secret` beside it.
    pub fn path_for(save: &Path) -> PathBuf {
        PathBuf::from(format!("{}.secret", save.display()))
    }

    /// New secrets for a lesson (its code and token fresh from the system's randomness).
    pub fn fresh(path: PathBuf, code: String, token: String) -> Secrets {
        Secrets {
            path,
            code,
            token,
            keys: BTreeMap::new(),
            saved: None,
        }
    }

    /// How the file at `path` stands: its length and modification time, if it is there.
    pub fn stamp_of(path: &Path) -> Option<String> {
        let meta = std::fs::metadata(path).ok()?;
        let time = meta
            .modified()
            .ok()?
            .duration_since(std::time::UNIX_EPOCH)
            .ok()?;
        Some(format!("{} bytes, {} ns", meta.len(), time.as_nanos()))
    }

    /// The secrets kept at `path`, if the file is there; an error naming the file if it is
    /// there but cannot be read.
    pub fn load(path: &Path) -> anyhow::Result<Option<Secrets>> {
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => anyhow::bail!(
                "{}: could not read the lesson's secrets: {e}",
                path.display()
            ),
        };
        let mut s: Secrets = serde_json::from_str(&text)
            .map_err(|e| anyhow::anyhow!("{}: not a lesson's secrets file: {e}", path.display()))?;
        s.path = path.to_path_buf();
        Ok(Some(s))
    }

    /// A new key for `pupil` (128 bits from the system's randomness), kept.
    pub fn new_key(&mut self, pupil: PupilId) -> String {
        let key = format!("{:032x}", rand::random::<u128>());
        self.keys.insert(key.clone(), pupil);
        key
    }

    /// The pupil `key` names, if any (compared in time that does not depend on the key).
    pub fn pupil(&self, key: &str) -> Option<PupilId> {
        (self.keys.iter())
            .filter(|(k, _)| super::guard::same_secret(k, key))
            .map(|(_, &p)| p)
            .next()
    }

    /// Writes the file whole (atomically), readable by its owner only.
    pub fn save(&self) -> anyhow::Result<()> {
        let text = serde_json::to_string_pretty(self)?;
        crate::store::save_atomic(&self.path, &text)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&self.path, std::fs::Permissions::from_mode(0o600))?;
        }
        Ok(())
    }
}
