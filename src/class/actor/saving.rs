//! The lesson's machine saved: every few games (no more often than every few seconds), at the
//! start, the end and when the teacher asks. A small machine is written on the actor; a big one
//! (a 62 MB Hexapawn 5×5) from a copy on a blocking thread, so the class's moves never wait for
//! the disk, one save at a time. However it was written, what came of it is handled here: a
//! failure said on the projector and tried again after 5 s, 10 s, 20 s … at most 5 min apart; a
//! file another program changed left alone, the machine saved beside it from then on.

use std::path::PathBuf;

use super::*;
use crate::store::StoreError;

/// Machines of this many boxes or more are saved off the actor.
pub const SAVE_APART_FROM: usize = 50_000;

/// A save made off the actor: the file it was meant for, the games the copy held, the outcome.
pub struct Done {
    path: PathBuf,
    games: u64,
    result: Result<(), StoreError>,
}

impl std::fmt::Debug for Done {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "Done({}, {} games)", self.path.display(), self.games)
    }
}

impl<G: GameDefaults + BoardView + LabelView + Send + 'static> Actor<G>
where
    Machine<G>: Send,
{
    pub(super) fn autosave(&mut self) {
        let played = self.lesson.machine().games_played;
        let retry_due = self.retry_at.is_none_or(|t| t <= std::time::Instant::now());
        if self.saving
            || played < self.saved_at + self.keep.every
            || self.saved_when.elapsed() < SAVE_GAP
            || !retry_due
        {
            return;
        }
        if self.lesson.machine().boxes.len() >= self.keep.save_apart_from {
            self.save_apart();
        } else {
            self.save();
        }
    }

    /// Saves the machine here and now; whether it was saved.
    pub(super) fn save(&mut self) -> bool {
        let m = self.lesson.machine();
        let result = crate::store::save_machine(&self.keep.save, self.lesson.game(), m);
        self.after_save(m.games_played, result)
    }

    /// Saves a copy of the machine on a blocking thread; [`Cmd::Saved`] says when it is done.
    fn save_apart(&mut self) {
        let Some(me) = self.me.upgrade() else {
            self.save();
            return;
        };
        let (game, m) = (self.lesson.game().clone(), self.lesson.machine().clone());
        let path = self.keep.save.clone();
        self.saving = true;
        tokio::task::spawn_blocking(move || {
            let result = crate::store::save_machine(&path, &game, &m);
            let games = m.games_played;
            let _ = me.blocking_send(Cmd::Saved(Done {
                path,
                games,
                result,
            }));
        });
    }

    /// A save made off the actor is done.
    pub(super) fn saved_apart(&mut self, done: Done) {
        self.saving = false;
        if done.path == self.keep.save {
            self.after_save(done.games, done.result);
        }
    }

    /// What came of a save of the machine at `games` games: noted, said, retried.
    fn after_save(&mut self, games: u64, result: Result<(), StoreError>) -> bool {
        let error = match result {
            Ok(()) => None,
            Err(StoreError::Changed { kept, .. }) => {
                let said = format!(
                    "{} was changed by another program: the class's machine is saved in {} from now on",
                    self.keep.save.display(),
                    kept.display()
                );
                tracing::warn!("{said}");
                self.notice(said);
                self.keep.save = kept;
                None
            }
            Err(e) => Some(format!("could not save {}: {e}", self.keep.save.display())),
        };
        match &error {
            None => self.saved_well(games),
            Some(said) => {
                tracing::error!("{said}");
                self.notice(format!("{said} (the log keeps every game meanwhile)"));
                self.save_failures += 1;
                let wait = (5u64 << (self.save_failures - 1).min(6)).min(300);
                self.retry_at =
                    Some(std::time::Instant::now() + std::time::Duration::from_secs(wait));
            }
        }
        let saved = error.is_none();
        let mut s = self.keep.saved.lock().unwrap_or_else(|e| e.into_inner());
        *s = Saved {
            path: self.keep.save.clone(),
            games,
            error,
        };
        saved
    }

    fn saved_well(&mut self, games: u64) {
        (self.saved_at, self.save_failures, self.retry_at) = (games, 0, None);
        self.saved_when = std::time::Instant::now();
        // Noted with the secrets: `--resume` knows the file as the lesson left it.
        if !self.secrets.path.as_os_str().is_empty() {
            self.secrets.saved = super::super::secrets::Secrets::stamp_of(&self.keep.save);
            if let Err(e) = self.secrets.save() {
                tracing::error!("{e}");
            }
        }
    }
}
