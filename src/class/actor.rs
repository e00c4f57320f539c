//! The one task that owns the class's machine: a [`Lesson`], its log and its saves. Sockets
//! send it commands on a channel and never touch the boxes; it answers each connection on that
//! connection's own channel and tells the projector after every change.

use std::io::Write;
use std::path::PathBuf;

use tokio::sync::{mpsc, oneshot};

use super::protocol::{FromPupil, FromTeacher, Standing, ToClient};
use crate::learn::GameDefaults;
use crate::learn::lesson::{Event, Lesson, PupilId};
use crate::view::board::BoardView;

/// A connection's outbox: JSON text to send.
pub type Outbox = mpsc::Sender<String>;

/// What the connections ask of the actor.
pub enum Cmd {
    /// A pupil joins (or is refused while joining is paused): their number.
    Join {
        out: Outbox,
        reply: oneshot::Sender<Option<PupilId>>,
    },
    Pupil(PupilId, FromPupil),
    /// The pupil's connection closed: their game, if any, is abandoned.
    Leave(PupilId),
    /// The teacher's page connects: it hears the class from now on.
    Watch(Outbox),
    Teacher(FromTeacher),
    /// Stop: save and end (Ctrl-C).
    Stop,
}

/// Where the lesson is kept.
pub struct Keeping {
    /// The machine, saved atomically every `every` games (no more often than every few
    /// seconds: the log keeps every game meanwhile) and at the end.
    pub save: PathBuf,
    pub every: u64,
    /// The log, a JSON line an event, after a first line with the machine at the start.
    pub log: Option<std::fs::File>,
}

/// The actor's state.
struct Actor<G: GameDefaults + BoardView> {
    lesson: Lesson<G>,
    keep: Keeping,
    pupils: std::collections::BTreeMap<PupilId, Outbox>,
    projectors: Vec<Outbox>,
    joining: bool,
    last: Option<String>,
    saved_at: u64,
    saved_when: std::time::Instant,
    title: String,
}

/// The least time between two saves in a lesson.
const SAVE_GAP: std::time::Duration = std::time::Duration::from_secs(5);

/// Runs the lesson until the teacher ends it or `Stop` comes; returns the lesson.
pub async fn run<G: GameDefaults + BoardView>(
    lesson: Lesson<G>,
    keep: Keeping,
    mut inbox: mpsc::Receiver<Cmd>,
    done: oneshot::Sender<()>,
) -> Lesson<G> {
    let title = crate::view::app::Titles::of(lesson.game(), lesson.machine()).machine;
    let mut a = Actor {
        lesson,
        keep,
        pupils: Default::default(),
        projectors: Vec::new(),
        joining: true,
        last: None,
        saved_at: 0,
        saved_when: std::time::Instant::now(),
        title,
    };
    // The file exists from the start: the machine as the lesson began.
    a.save();
    while let Some(cmd) = inbox.recv().await {
        let stop = a.handle(cmd);
        if stop {
            break;
        }
    }
    a.save();
    for out in a.pupils.values().chain(&a.projectors) {
        let ended = ToClient::Ended {
            message: "the lesson is over".into(),
        };
        let _ = out.try_send(ended.json());
    }
    let _ = done.send(());
    a.lesson
}

impl<G: GameDefaults + BoardView> Actor<G> {
    /// Does one command; whether the lesson ends.
    fn handle(&mut self, cmd: Cmd) -> bool {
        match cmd {
            Cmd::Join { out, reply } => {
                if !self.joining {
                    let _ = reply.send(None);
                    return false;
                }
                let (id, events) = self.lesson.join();
                self.log(&events);
                let p = &self.lesson.pupils()[&id];
                let welcome = ToClient::Welcome {
                    pupil: id,
                    name: p.name.clone(),
                    game: format!(
                        "{} {}",
                        self.lesson.game().name(),
                        self.lesson.game().variant()
                    ),
                    side: self
                        .lesson
                        .game()
                        .side_name(self.lesson.pupil_side())
                        .into(),
                };
                let _ = out.try_send(welcome.json());
                self.pupils.insert(id, out);
                let _ = reply.send(Some(id));
                self.tell_projectors();
            }
            Cmd::Pupil(id, msg) => self.pupil(id, msg),
            Cmd::Leave(id) => {
                self.pupils.remove(&id);
                if let Ok(events) = self.lesson.leave(id) {
                    self.log(&events);
                }
                self.tell_projectors();
            }
            Cmd::Watch(out) => {
                self.projectors.push(out);
                self.tell_projectors();
            }
            Cmd::Teacher(t) => return self.teacher(t),
            Cmd::Stop => return true,
        }
        false
    }

    fn pupil(&mut self, id: PupilId, msg: FromPupil) {
        let result = match msg {
            FromPupil::Start {} => self.lesson.start(id),
            FromPupil::Move { game, mv } => self.lesson.play(id, game, &mv),
        };
        let reply = match result {
            Ok((view, events)) => {
                self.log(&events);
                if let Some(over) = &view.over {
                    let name = &self.lesson.pupils()[&id].name;
                    self.last = Some(format!(
                        "game {}: {name} {}",
                        view.game,
                        match over.result {
                            crate::learn::GameResult::Win => "beat the machine",
                            crate::learn::GameResult::Draw => "drew",
                            crate::learn::GameResult::Loss => "lost",
                        }
                    ));
                    self.autosave();
                    self.tell_projectors();
                }
                ToClient::game(view)
            }
            Err(e) => ToClient::error(e),
        };
        if let Some(out) = self.pupils.get(&id) {
            let _ = out.try_send(reply.json());
        }
    }

    fn teacher(&mut self, t: FromTeacher) -> bool {
        match t {
            FromTeacher::PauseJoining {} => self.joining = false,
            FromTeacher::ResumeJoining {} => self.joining = true,
            FromTeacher::Save {} => self.save(),
            FromTeacher::EndLesson {} => return true,
        }
        self.tell_projectors();
        false
    }

    /// Writes events to the log as they happen.
    fn log(&mut self, events: &[Event]) {
        let Some(f) = &mut self.keep.log else {
            return;
        };
        for e in events {
            if let Ok(line) = serde_json::to_string(e) {
                let _ = writeln!(f, "{line}");
            }
        }
        let _ = f.flush();
    }

    fn autosave(&mut self) {
        let played = self.lesson.machine().games_played;
        if played >= self.saved_at + self.keep.every && self.saved_when.elapsed() >= SAVE_GAP {
            self.save();
        }
    }

    fn save(&mut self) {
        let m = self.lesson.machine();
        match crate::store::save_machine(&self.keep.save, self.lesson.game(), m) {
            Ok(()) => {
                self.saved_at = m.games_played;
                self.saved_when = std::time::Instant::now();
            }
            Err(e) => eprintln!("class: could not save {}: {e}", self.keep.save.display()),
        }
    }

    /// The class as the projector shows it.
    fn tell_projectors(&mut self) {
        if self.projectors.is_empty() {
            return;
        }
        let mut pupils: Vec<Standing> = (self.lesson.pupils().values())
            .map(|p| Standing {
                name: p.name.clone(),
                won: p.won,
                drawn: p.drawn,
                lost: p.lost,
            })
            .collect();
        pupils.sort_by_key(|p| std::cmp::Reverse((p.won, p.drawn)));
        let g = self.lesson.game();
        let msg = ToClient::Class {
            game: format!("{} {}", g.name(), g.variant()),
            machine: self.title.clone(),
            joining: self.joining,
            pupils,
            score: self.lesson.score,
            games_played: self.lesson.machine().games_played,
            under_way: self.lesson.games_under_way(),
            last: self.last.clone(),
        }
        .json();
        self.projectors.retain(|out| !out.is_closed());
        for out in &self.projectors {
            let _ = out.try_send(msg.clone());
        }
    }
}
