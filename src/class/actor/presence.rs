//! Who is here: pupils joining, coming back with their key (a reload, a lost network, the
//! server restarted), and gone; and the lesson's clock. A page that closes leaves its pupil in
//! the lesson; if it is not back within [`AWAY`], the pupil is marked away and the boxes they
//! held are dealt to the pupils here. A box that waits for a tap longer than the teacher's tap
//! time is drawn for its holder (at once where the holder's page is gone).

use std::time::{Duration, Instant};

use super::*;
use crate::learn::lesson::LessonError;

/// How long a page may be gone before its pupil is marked away.
pub const AWAY: Duration = Duration::from_secs(60);

/// How long a box waits for a holder whose page is gone before the server draws it.
const GONE_TAP: Duration = Duration::from_secs(5);

impl<G: GameDefaults + BoardView + LabelView + Send + 'static> Actor<G>
where
    Machine<G>: Send,
{
    /// A page joins: with a key this lesson gave, as that pupil again; without, as a new pupil
    /// (unless joining is paused).
    pub(super) fn join(
        &mut self,
        out: Outbox,
        key: Option<String>,
    ) -> Result<PupilId, Box<ToClient>> {
        if let Some(key) = key {
            let known = (self.secrets.pupil(&key)).filter(|p| self.lesson.pupils().contains_key(p));
            let Some(id) = known else {
                return Err(Box::new(ToClient::Refused {
                    message:
                        "this phone's place in the lesson is not known here: join with the code"
                            .into(),
                    retry_in: None,
                    forget: true,
                }));
            };
            self.come_back(id, out);
            return Ok(id);
        }
        if !self.joining {
            return Err(Box::new(ToClient::Refused {
                message: "the class is not taking new pupils now: wait for the teacher".into(),
                retry_in: Some(5),
                forget: false,
            }));
        }
        let (id, events) = self.lesson.join();
        self.log(&events);
        self.secrets.new_key(id);
        self.keep_secrets();
        let _ = out.try_send(self.welcome(id, false).json());
        self.pupils.insert(id, out);
        if self.lesson.dealt() {
            // A late joiner is dealt boxes (or told they watch this game).
            self.tell_holdings();
        }
        Ok(id)
    }

    /// A pupil's page is back: the pupil marked here again (dealt boxes if they had been marked
    /// away), and told where they are: their game, or the boxes they hold.
    fn come_back(&mut self, id: PupilId, out: Outbox) {
        self.gone.remove(&id);
        if let Some(old) = self.pupils.insert(id, out.clone()) {
            let moved = ToClient::Ended {
                message: "this pupil is playing on another page now".into(),
            };
            let _ = old.try_send(moved.json());
        }
        let was_away = self.lesson.pupils().get(&id).is_some_and(|p| !p.here);
        if was_away && let Ok(events) = self.lesson.back(id) {
            self.log(&events);
        }
        let _ = out.try_send(self.welcome(id, true).json());
        if self.lesson.dealt() {
            self.tell_holdings();
        } else if let Some(view) = self.lesson.current_view(id) {
            let _ = out.try_send(ToClient::game(view).json());
        }
    }

    /// A pupil's connection closed: if it was their page's current one, they are gone from now.
    pub(super) fn left(&mut self, id: PupilId, out: &Outbox) {
        if self.pupils.get(&id).is_some_and(|o| o.same_channel(out)) {
            self.pupils.remove(&id);
            self.gone.insert(id, Instant::now());
            self.tell_projectors();
        }
    }

    /// What a pupil is told on joining or coming back: their number and name, the game, their
    /// side and their key.
    pub(super) fn welcome(&self, id: PupilId, returning: bool) -> ToClient {
        let g = self.lesson.game();
        let key = (self.secrets.keys.iter())
            .find(|(_, p)| **p == id)
            .map(|(k, _)| k.clone())
            .unwrap_or_default();
        ToClient::Welcome {
            pupil: id,
            name: self.lesson.pupils()[&id].name.clone(),
            game: game_words(g),
            side: g.side_name(self.lesson.pupil_side()).into(),
            key,
            returning,
        }
    }

    /// Writes the secrets file (the new pupil's key in it); an error goes to the projector.
    fn keep_secrets(&mut self) {
        if self.secrets.path.as_os_str().is_empty() {
            return;
        }
        if let Err(e) = self.secrets.save() {
            tracing::error!("{e}");
            self.notice(format!("{e}"));
        }
    }

    /// When the actor must next wake with no command: to tell the projectors a change held
    /// back, to mark a gone page's pupil away, to draw for a holder who did not tap.
    pub(super) fn next_deadline(&self) -> Option<Instant> {
        let tell = (self.tiles_held || self.told_held)
            .then(|| self.told_at.map_or_else(Instant::now, |t| t + TELL_GAP));
        let away = self.gone.values().min().map(|&t| t + AWAY);
        let tap = self.tap_deadline();
        let sync = (self.sync_due).then(|| {
            self.synced
                .map_or_else(Instant::now, |t| t + super::SYNC_GAP)
        });
        [tell, away, tap, sync].into_iter().flatten().min()
    }

    /// When the box waiting for a tap is drawn by the server, if it will be.
    fn tap_deadline(&self) -> Option<Instant> {
        let (_, pupil, since) = self.waiting?;
        let tap = self.keep.tap.map(|t| since + t);
        match self.pupils.contains_key(&pupil) {
            false => Some(tap.map_or(since + GONE_TAP, |t| t.min(since + GONE_TAP))),
            true => tap,
        }
    }

    /// The lesson's clock: what is due now.
    pub(super) fn on_time(&mut self) {
        let now = Instant::now();
        let due: Vec<PupilId> = (self.gone.iter())
            .filter(|(_, t)| now >= **t + AWAY)
            .map(|(&p, _)| p)
            .collect();
        for id in due {
            self.gone.remove(&id);
            if let Ok(events) = self.lesson.away(id) {
                self.log(&events);
                if self.lesson.dealt() {
                    self.tell_holdings();
                    let view = self.lesson.relay_view(None);
                    self.relay_follow(&view);
                }
            }
        }
        if self.tap_deadline().is_some_and(|t| now >= t) {
            self.draw_for();
        }
        self.sync_log();
        self.tell_projectors();
    }

    /// The teacher's "draw for them" (or the tap time run out): the box waiting for its holder
    /// drawn, and the holder told.
    pub(super) fn draw_for(&mut self) {
        let Some((_, pupil)) = self.lesson.waiting_for() else {
            self.waiting = None;
            return self.notice(LessonError::NotYourBox.to_string().replace("of yours ", ""));
        };
        let done = self.lesson.draw_for_holder();
        if let Some(out) = self.pupils.get(&pupil) {
            let said = "the bead was drawn for you: the class's game went on";
            let _ = out.try_send(
                ToClient::Notice {
                    message: said.into(),
                }
                .json(),
            );
        }
        self.relay_done(None, done);
    }

    /// Something the teacher should see, on the projector (saved, an error, not dealt: …).
    pub(super) fn notice(&mut self, message: String) {
        self.last = Some(message.clone());
        let msg = ToClient::Notice { message }.json();
        self.projectors.retain(|out| !out.is_closed());
        for out in &self.projectors {
            let _ = out.try_send(msg.clone());
        }
    }
}

/// A game as the class's pages name it: "noughts and crosses", "hexapawn 3x3".
pub fn game_words<G: crate::game::Game>(g: &G) -> String {
    let title = (crate::games::GAMES.iter())
        .find(|e| e.name == g.name())
        .map_or(g.name(), |e| e.title)
        .to_lowercase();
    match g.name() {
        // One board only.
        "tictactoe" => title,
        _ => format!("{title} {}", g.variant()),
    }
}
