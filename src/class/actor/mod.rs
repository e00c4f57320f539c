//! The one task that owns the class's machine: a [`Lesson`], its log and its saves. Sockets
//! send it commands on a channel and never touch the boxes; it answers each connection on that
//! connection's own channel and tells the projector after every change. It also keeps the
//! lesson's clock: a pupil whose page has been gone a while is marked away (their boxes dealt to
//! the others), and a box that waits too long for its holder's tap is drawn for them
//! ([`presence`]).

mod presence;
mod saving;
pub use saving::SAVE_APART_FROM;

use std::io::Write;
use std::path::PathBuf;

use tokio::sync::{mpsc, oneshot};

use super::protocol::{
    BeadDrawn, FromPupil, FromTeacher, MAX_TILES, RelayInfo, Standing, Tile, ToClient,
};
use crate::labels::LabelView;
use crate::learn::lesson::{Event, Lesson, PupilId, RelayView};
use crate::learn::{GameDefaults, Machine};
use crate::view::board::BoardView;

/// A connection's outbox: JSON text to send.
pub type Outbox = mpsc::Sender<String>;

/// What the connections ask of the actor.
pub enum Cmd {
    /// A pupil's page joins: a new pupil, or with its key the pupil it was. Their number, or
    /// the refusal to send (joining paused, a key not known here).
    Join {
        out: Outbox,
        key: Option<String>,
        reply: oneshot::Sender<Result<PupilId, Box<ToClient>>>,
    },
    Pupil(PupilId, FromPupil),
    /// The pupil's connection (this outbox) closed: they stay in the lesson, and are marked
    /// away if their page is not back soon.
    Leave(PupilId, Outbox),
    /// The teacher's page connects: it hears the class from now on.
    Watch(Outbox),
    Teacher(FromTeacher),
    /// A file of the machine as it stands (the teacher's download): what makes it, from a copy.
    File(super::files::Want, oneshot::Sender<super::files::Maker>),
    /// Stop: save and end (Ctrl-C).
    Stop,
    /// A save made off the actor (a big machine) is done: where it went and how.
    Saved(saving::Done),
}

/// Where the lesson is kept.
pub struct Keeping {
    /// The machine, saved atomically every `every` games (no more often than every few
    /// seconds: the log keeps every game meanwhile) and at the end.
    pub save: PathBuf,
    pub every: u64,
    /// The log, a JSON line an event, after a first line with the machine at the start.
    pub log: Option<std::fs::File>,
    /// The join code, the teacher's token and the pupils' keys, kept beside the log (none: kept
    /// nowhere, as in tests).
    pub secrets: Option<super::secrets::Secrets>,
    /// How long a pupil has to tap before the server draws for them (none: it waits).
    pub tap: Option<std::time::Duration>,
    /// How pupils join, for the projector (the code, the addresses, the QR code).
    pub join: Option<ToClient>,
    /// How the last save went, for the command line's last word once the lesson is over.
    pub saved: std::sync::Arc<std::sync::Mutex<Saved>>,
    /// Machines of at least this many boxes are saved off the actor, from a copy (a 62 MB
    /// machine takes seconds to write, and the class's moves do not wait for it).
    pub save_apart_from: usize,
}

/// How the machine's last save went: where it is saved (the file the teacher named, or the one
/// beside it once another program changed that), the games it holds, and the error if it failed.
#[derive(Clone, Debug, Default)]
pub struct Saved {
    pub path: PathBuf,
    pub games: u64,
    pub error: Option<String>,
}

impl Keeping {
    /// Keeping a lesson's machine in `save`, every `every` games, and nothing else.
    pub fn machine(save: PathBuf, every: u64) -> Keeping {
        Keeping {
            save,
            every,
            log: None,
            secrets: None,
            tap: None,
            join: None,
            saved: Default::default(),
            save_apart_from: saving::SAVE_APART_FROM,
        }
    }
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
    /// Saves failed in a row, and when to try again (a failing disk is not hammered).
    save_failures: u32,
    retry_at: Option<std::time::Instant>,
    /// A save made off the actor is under way (one at a time), and the way it says it is done.
    saving: bool,
    me: mpsc::WeakSender<Cmd>,
    title: String,
    /// What the projector says of the class's game as the machine.
    relay_said: String,
    /// The boxes (from 0) the last finished game drew from.
    used: Vec<usize>,
    /// When the projectors were last sent the whole machine, and whether a change since waits.
    tiles_sent: Option<std::time::Instant>,
    tiles_held: bool,
    /// When the projectors were last told the class, and whether a change since waits.
    told_at: Option<std::time::Instant>,
    told_held: bool,
    /// The pupils whose page has gone, and since when (marked away after [`presence::AWAY`]).
    gone: std::collections::BTreeMap<PupilId, std::time::Instant>,
    /// The class's game waiting for a tap: the game, the pupil, since when.
    waiting: Option<(u64, PupilId, std::time::Instant)>,
    /// The join code, the teacher's token and the pupils' keys.
    secrets: super::secrets::Secrets,
    /// Whether the last write to the log failed (the teacher is told once).
    log_failed: bool,
    /// When the log was last synced to the disk, and whether a game's end waits for a sync.
    synced: Option<std::time::Instant>,
    sync_due: bool,
}

/// The most time between a game's end and the log's sync to the disk.
const SYNC_GAP: std::time::Duration = std::time::Duration::from_millis(200);

/// The least time between two saves in a lesson.
const SAVE_GAP: std::time::Duration = std::time::Duration::from_secs(5);

/// Runs the lesson until the teacher ends it or `Stop` comes; returns the lesson.
pub async fn run<G: GameDefaults + BoardView + LabelView + Send + 'static>(
    lesson: Lesson<G>,
    keep: Keeping,
    mut inbox: mpsc::Receiver<Cmd>,
    me: mpsc::WeakSender<Cmd>,
    done: oneshot::Sender<()>,
) -> Lesson<G>
where
    Machine<G>: Send,
{
    let title = crate::view::app::Titles::of(lesson.game(), lesson.machine()).machine;
    let mut keep = keep;
    let secrets = keep.secrets.take().unwrap_or_else(|| {
        super::secrets::Secrets::fresh(PathBuf::new(), String::new(), String::new())
    });
    let mut a = Actor {
        lesson,
        keep,
        pupils: Default::default(),
        projectors: Vec::new(),
        joining: true,
        last: None,
        saved_at: 0,
        saved_when: std::time::Instant::now(),
        save_failures: 0,
        retry_at: None,
        saving: false,
        me,
        title,
        relay_said: String::new(),
        used: Vec::new(),
        tiles_sent: None,
        tiles_held: false,
        told_at: None,
        told_held: false,
        gone: Default::default(),
        waiting: None,
        secrets,
        log_failed: false,
        synced: None,
        sync_due: false,
    };
    // Pupils of the lesson before a restart are gone until their pages come back.
    let before: Vec<PupilId> = (a.lesson.pupils().iter())
        .filter(|(_, p)| p.here)
        .map(|(&id, _)| id)
        .collect();
    let since = std::time::Instant::now();
    a.gone.extend(before.into_iter().map(|id| (id, since)));
    // A class game resumed waiting for a tap waits no longer than a tap would.
    a.waiting = (a.lesson.waiting_for()).map(|(game, pupil)| (game, pupil, since));
    // The file exists from the start: the machine as the lesson began.
    a.save();
    loop {
        // The class goes to the projectors at most ten times a second, the whole machine at
        // most twice: when a change was held back and nothing else comes, it is sent once the
        // gap has passed. The lesson's own times (a page gone, a tap awaited) come the same way.
        let cmd = match a.next_deadline() {
            Some(at) => match tokio::time::timeout_at(at.into(), inbox.recv()).await {
                Ok(cmd) => cmd,
                Err(_) => {
                    a.on_time();
                    continue;
                }
            },
            None => inbox.recv().await,
        };
        let Some(cmd) = cmd else { break };
        if a.handle(cmd) {
            break;
        }
    }
    // A save under way off the actor finishes before the last one (one writer at a time).
    while a.saving {
        match inbox.recv().await {
            Some(Cmd::Saved(done)) => a.saved_apart(done),
            Some(_) => continue,
            None => break,
        }
    }
    a.save();
    a.sync_log();
    // Each connection says that the lesson is over, after what is queued for it (see
    // `socket::goodbye`): a message put in a full outbox here would be lost.
    let _ = done.send(());
    a.lesson
}

impl<G: GameDefaults + BoardView + LabelView + Send + 'static> Actor<G>
where
    Machine<G>: Send,
{
    /// Does one command; whether the lesson ends.
    fn handle(&mut self, cmd: Cmd) -> bool {
        match cmd {
            Cmd::Join { out, key, reply } => {
                let _ = reply.send(self.join(out, key));
                self.tell_projectors();
            }
            Cmd::Pupil(id, msg) => self.pupil(id, msg),
            Cmd::Leave(id, out) => self.left(id, &out),
            Cmd::Watch(out) => {
                if let Some(join) = &self.keep.join {
                    let _ = out.try_send(join.json());
                }
                self.projectors.push(out);
                self.tiles_sent = None;
                self.told_at = None;
                self.tell_projectors();
            }
            Cmd::Teacher(t) => return self.teacher(t),
            Cmd::File(want, reply) => {
                let copy = (self.lesson.game().clone(), self.lesson.machine().clone());
                let _ = reply.send(super::files::maker(
                    want,
                    copy.0,
                    copy.1,
                    self.lesson.curve().to_vec(),
                ));
            }
            Cmd::Stop => return true,
            Cmd::Saved(done) => self.saved_apart(done),
        }
        false
    }

    fn pupil(&mut self, id: PupilId, msg: FromPupil) {
        let result = match msg {
            FromPupil::Start {} => {
                let started = self.lesson.start(id);
                // The projector counts the games under way.
                self.tell_projectors();
                started
            }
            FromPupil::Move { game, mv } => self.lesson.play(id, game, &mv),
            FromPupil::Draw {} => {
                let done = self.lesson.draw(id);
                return self.relay_done(Some(id), done);
            }
        };
        let reply = match result {
            Ok((view, events)) => {
                self.log(&events);
                if let Some(over) = &view.over {
                    let name = &self.lesson.pupils()[&id].name;
                    let learned: Vec<String> = (over.learned.iter())
                        .filter(|l| l.change != 0)
                        .map(|l| l.words())
                        .collect();
                    self.last = Some(format!(
                        "game {}: {name} {} · the boxes it used: {}",
                        over.number,
                        match over.result {
                            crate::learn::GameResult::Win => "beat the machine",
                            crate::learn::GameResult::Draw => "drew",
                            crate::learn::GameResult::Loss => "lost",
                        },
                        if learned.is_empty() {
                            "no bead changed".to_string()
                        } else {
                            learned.join(", ")
                        }
                    ));
                    self.used = over.learned.iter().map(|l| l.number - 1).collect();
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
            FromTeacher::Save {} => {
                if self.save() {
                    let games = self.lesson.machine().games_played;
                    let file = self.keep.save.display().to_string();
                    self.notice(format!("saved: the machine at {games} games is in {file}"));
                }
            }
            FromTeacher::EndLesson {} => return true,
            FromTeacher::DrawFor {} => self.draw_for(),
            FromTeacher::TapTime { seconds } => {
                self.keep.tap =
                    seconds.map(|s| std::time::Duration::from_secs(s.clamp(5, 600) as u64));
                self.notice(match self.keep.tap {
                    Some(t) => format!(
                        "a box waits {} s for its holder's tap, then the server draws",
                        t.as_secs()
                    ),
                    None => "a box waits for its holder's tap (or the teacher's \"draw for them\")"
                        .into(),
                });
            }
            FromTeacher::Deal {} => {
                let dealt = self.lesson.deal();
                self.after_deal(dealt);
            }
            FromTeacher::ClassGame {} => {
                let started = self.lesson.relay_start();
                self.relay_done(None, started);
            }
            FromTeacher::Reset {} => {
                let before = self.lesson.machine().clone();
                let done = self.lesson.reset();
                self.new_machine(before, done, "the machine is reset: every box as new");
            }
            FromTeacher::Side { side } => {
                let before = self.lesson.machine().clone();
                let done = self.lesson.change_side(side);
                let said = format!(
                    "the machine plays {} now: a new machine",
                    self.lesson.game().side_name(side)
                );
                self.new_machine(before, done, &said);
            }
            FromTeacher::Opponent { opponent } => match self.lesson.set_opponent(opponent) {
                Ok(events) => {
                    self.log(&events);
                    self.relay_said =
                        format!("the class's game: the machine plays {}", opponent.words());
                }
                Err(e) => self.notice(format!("not changed: {e}")),
            },
            FromTeacher::Collect {} => {
                if let Ok(events) = self.lesson.collect() {
                    self.log(&events);
                    self.relay_said = "the boxes are collected: play the machine again".into();
                    for out in self.pupils.values() {
                        let _ = out.try_send(ToClient::Collected {}.json());
                    }
                }
            }
        }
        self.tell_projectors();
        false
    }

    /// After a reset or a change of side: the log, the curve begun again, the machine that was
    /// (if it played) kept in a file beside the lesson's, the new one saved in the lesson's file,
    /// and every pupil welcomed to it afresh (their games under way were abandoned; the page
    /// starts a new one).
    fn new_machine(
        &mut self,
        before: Machine<G>,
        done: Result<Vec<Event>, crate::learn::lesson::LessonError>,
        said: &str,
    ) {
        let events = match done {
            Ok(events) => events,
            Err(e) => {
                self.notice(format!("not done: {e}"));
                return;
            }
        };
        self.log(&events);
        let game = self.lesson.game().clone();
        self.title = crate::view::app::Titles::of(&game, self.lesson.machine()).machine;
        self.used.clear();
        self.tiles_sent = None;
        self.told_at = None;
        self.last = Some(said.to_string());
        if before.games_played > 0 {
            let kept = crate::store::beside(&self.keep.save);
            match crate::store::save_machine(&kept, &game, &before) {
                Ok(()) => {
                    self.last = Some(format!(
                        "{said}; the machine before is kept in {}",
                        kept.display()
                    ))
                }
                Err(e) => tracing::error!(
                    file = %kept.display(),
                    "could not keep the machine before: {e}"
                ),
            }
        }
        self.save();
        let ids: Vec<PupilId> = self.pupils.keys().copied().collect();
        for id in ids {
            let welcome = self.welcome(id, false);
            if let Some(out) = self.pupils.get(&id) {
                let _ = out.try_send(welcome.json());
            }
        }
    }

    /// The boxes dealt: each pupil told which they hold.
    fn after_deal(&mut self, dealt: Result<Vec<Event>, crate::learn::lesson::LessonError>) {
        match dealt {
            Ok(events) => {
                self.log(&events);
                self.relay_said = "the boxes are dealt: start a game".into();
                self.tell_holdings();
            }
            Err(e) => self.notice(format!("not dealt: {e}")),
        }
    }

    /// Every pupil here told the boxes they hold now (after a deal, or boxes dealt again when
    /// a pupil joined, went away or came back), or that they watch this game.
    fn tell_holdings(&self) {
        for &id in self.pupils.keys() {
            let numbers: Vec<String> = (self.lesson.held(id).iter())
                .map(|b| b.number.to_string())
                .collect();
            let said = match numbers.len() {
                0 => "the class is the machine: every box is held (more pupils than boxes); watch the game on the projector".to_string(),
                1 => format!("the class is the machine: you hold box {}; wait for it to come up", numbers[0]),
                _ => format!("the class is the machine: you hold boxes {}; wait for yours to come up", numbers.join(", ")),
            };
            let waiting = self.lesson.waiting_for().filter(|w| w.1 == id);
            let number = waiting.and_then(|_| self.lesson.relay_view(None).waiting.map(|w| w.0));
            self.tell_boxes(id, number, said);
        }
    }

    /// After a step of the class's game (`by` the pupil who tapped): the log, the next holder
    /// asked to draw, and at the end each holder told what their boxes learned.
    fn relay_done(
        &mut self,
        by: Option<PupilId>,
        done: Result<(RelayView, Vec<Event>), crate::learn::lesson::LessonError>,
    ) {
        let view = match done {
            Ok((view, events)) => {
                self.log(&events);
                // The bead drawn, on the tapper's phone (where the game went on: at its end the
                // instructions follow at once, with the boxes as the game left them).
                let ended = events.iter().any(|e| matches!(e, Event::Ended { .. }));
                if let Some(pupil) = by.filter(|_| !ended) {
                    self.tell_what_was_drawn(pupil, &events);
                }
                view
            }
            Err(e) => {
                match by.and_then(|id| self.pupils.get(&id)) {
                    Some(out) => {
                        let _ = out.try_send(ToClient::error(e).json());
                    }
                    None => self.notice(format!("no game: {e}")),
                }
                self.tell_projectors();
                return;
            }
        };
        self.relay_follow(&view);
        self.tell_projectors();
    }

    /// Tells the pupil who tapped which bead came out of their box (the first draw or
    /// resignation after their tap), before anyone is asked for the next one.
    fn tell_what_was_drawn(&self, pupil: PupilId, events: &[Event]) {
        let (said, drawn) = match events.iter().find_map(|e| match e {
            Event::Drew { drawn, mv, .. } => drawn.map(|d| Ok((d, mv.clone()))),
            Event::Resigned { box_index, .. } => Some(Err(*box_index)),
            _ => None,
        }) {
            Some(Ok(((b, arrow), mv))) => {
                // The bead as the box shows it (a box may hold the board's mirror image).
                let bead = (self.lesson.held(pupil).into_iter())
                    .find(|h| h.number == b + 1)
                    .and_then(|h| h.arrows.get(arrow).map(|a| a.0.clone()))
                    .unwrap_or_else(|| mv.clone());
                let said = match bead == mv {
                    true => format!(
                        "you drew a bead of {mv} from box {}: the machine plays {mv}",
                        b + 1
                    ),
                    false => format!(
                        "you drew a bead of {bead} from box {} (the board is its mirror image): the machine plays {mv}",
                        b + 1
                    ),
                };
                let drawn = BeadDrawn {
                    number: b + 1,
                    arrow,
                    bead,
                    mv,
                };
                (said, Some(drawn))
            }
            Some(Err(b)) => (
                format!("your box {} is empty: the machine resigns", b + 1),
                None,
            ),
            None => return,
        };
        self.tell_drawn(pupil, None, said, drawn);
    }

    /// Tells the pupils what the class's game asks of them now.
    fn relay_follow(&mut self, view: &RelayView) {
        if let Some((number, pupil)) = view.waiting {
            let name = self.lesson.pupils().get(&pupil).map(|p| p.name.clone());
            self.relay_said = format!(
                "{} is drawing a bead from box {number}",
                name.unwrap_or_default()
            );
            let said = format!("your box {number}: draw a bead");
            self.tell_boxes(pupil, Some(number), said);
            let since = std::time::Instant::now();
            self.waiting = Some((view.game, pupil, since));
        } else {
            self.waiting = None;
        }
        if let Some(over) = &view.over {
            self.relay_said = format!(
                "game {}: the class (the machine) {}",
                over.number,
                match over.result {
                    crate::learn::GameResult::Win => "won",
                    crate::learn::GameResult::Draw => "drew",
                    crate::learn::GameResult::Loss => "lost",
                }
            );
            let mut told: std::collections::BTreeMap<PupilId, Vec<String>> = Default::default();
            for l in &over.learned {
                if let Some(holder) = self.lesson.holder(l.number - 1) {
                    told.entry(holder).or_default().push(l.instruction());
                }
            }
            for (pupil, lines) in told {
                self.tell_boxes(pupil, None, lines.join("; "));
            }
            self.autosave();
        }
    }

    /// A pupil's boxes and what to do, on their phone.
    fn tell_boxes(&self, pupil: PupilId, waiting: Option<usize>, said: String) {
        self.tell_drawn(pupil, waiting, said, None);
    }

    /// A pupil's boxes, what to do, and the bead they have just drawn, on their phone.
    fn tell_drawn(
        &self,
        pupil: PupilId,
        waiting: Option<usize>,
        said: String,
        drawn: Option<BeadDrawn>,
    ) {
        if let Some(out) = self.pupils.get(&pupil) {
            let msg = ToClient::Boxes {
                boxes: self.lesson.held(pupil),
                waiting,
                said,
                drawn,
            };
            let _ = out.try_send(msg.json());
        }
    }

    /// The class's game for the projector, while the boxes are dealt.
    fn relay_info(&self) -> Option<RelayInfo> {
        if !self.lesson.dealt() {
            return None;
        }
        let view = self.lesson.relay_view(None);
        Some(RelayInfo {
            game: view.game,
            board: view.board,
            playing: self.lesson.relay_under_way(),
            waiting: self.lesson.waiting_for().is_some(),
            tap_time: self.keep.tap.map(|t| t.as_secs()),
            moves: view.moves,
            said: self.relay_said.clone(),
            score: tally(&self.lesson.relay_score()),
        })
    }

    /// Writes events to the log as they happen: each line whole in one write, synced to the
    /// disk when a game ends; a failure goes to the projector (once until it works again).
    fn log(&mut self, events: &[Event]) {
        let Some(f) = &mut self.keep.log else {
            return;
        };
        let mut text = String::new();
        for e in events {
            if let Ok(line) = serde_json::to_string(e) {
                text.push_str(&line);
                text.push('\n');
            }
        }
        // Synced to the disk at a game's end, at most every SYNC_GAP (a class finishes a few
        // games a second; simulated pupils thousands): a power cut loses at most that much.
        let ended = events.iter().any(|e| matches!(e, Event::Ended { .. }));
        let due = ended && self.synced.is_none_or(|t| t.elapsed() >= SYNC_GAP);
        let written = f
            .write_all(text.as_bytes())
            .and_then(|()| if due { f.sync_data() } else { Ok(()) });
        if due {
            self.synced = Some(std::time::Instant::now());
        }
        self.sync_due |= ended && !due;
        match written {
            Ok(()) => self.log_failed = false,
            Err(e) if !self.log_failed => {
                self.log_failed = true;
                let said = format!("could not write the lesson's log: {e}");
                tracing::error!("{said}");
                self.notice(said);
            }
            Err(_) => {}
        }
    }

    /// Syncs the log to the disk, if a game's end waits for it.
    fn sync_log(&mut self) {
        if let (true, Some(f)) = (self.sync_due, &self.keep.log) {
            let _ = f.sync_data();
            (self.synced, self.sync_due) = (Some(std::time::Instant::now()), false);
        }
    }

    /// The class as the projector shows it: sent at most every [`TELL_GAP`] (a lesson of
    /// simulated pupils makes thousands of changes a second; a page shows a few), a change held
    /// back sent when the gap has passed.
    fn tell_projectors(&mut self) {
        if self.projectors.is_empty() {
            (self.tiles_held, self.told_held) = (false, false);
            return;
        }
        if self.told_at.is_some_and(|t| t.elapsed() < TELL_GAP) {
            self.told_held = true;
            return;
        }
        (self.told_at, self.told_held) = (Some(std::time::Instant::now()), false);
        let mut pupils: Vec<Standing> = (self.lesson.pupils().values())
            .map(|p| Standing {
                name: p.name.clone(),
                won: p.score.wins,
                drawn: p.score.draws,
                lost: p.score.losses,
                here: p.here,
            })
            .collect();
        pupils.sort_by_key(|p| std::cmp::Reverse((p.won, p.drawn)));
        let g = self.lesson.game();
        let msg = ToClient::Class {
            game: presence::game_words(g),
            machine: self.title.clone(),
            joining: self.joining,
            pupils,
            score: tally(self.lesson.score()),
            games_played: self.lesson.machine().games_played,
            under_way: self.lesson.games_under_way(),
            last: self.last.clone(),
            relay: self.relay_info(),
            curve: thinned(self.lesson.curve(), 400),
            side: self.lesson.machine().boxes.side(),
            side_names: (
                g.side_name(crate::game::Side::First).into(),
                g.side_name(crate::game::Side::Second).into(),
            ),
            opponent: self.lesson.relay_opponent(),
            machine_boxes: self.tiles(),
            used: self.used.iter().map(|&b| self.lesson.box_view(b)).collect(),
        }
        .json();
        self.projectors.retain(|out| !out.is_closed());
        for out in &self.projectors {
            let _ = out.try_send(msg.clone());
        }
    }
}

impl<G: GameDefaults + BoardView + LabelView + Send + 'static> Actor<G>
where
    Machine<G>: Send,
{
    /// The whole machine for the projectors, when it is time to send it again.
    fn tiles(&mut self) -> Option<Vec<Tile>> {
        let m = self.lesson.machine();
        let due = self.tiles_sent.is_none_or(|t| t.elapsed() >= TILES_GAP);
        self.tiles_held = !due;
        if !due || m.boxes.len() > MAX_TILES {
            return None;
        }
        self.tiles_sent = Some(std::time::Instant::now());
        let small = m.boxes.len() <= super::protocol::CARDS;
        let tiles = (0..m.boxes.len())
            .map(|b| {
                let card = small.then(|| self.lesson.box_view(b));
                Tile {
                    number: b + 1,
                    move_number: m.boxes.move_number(b),
                    beads: m.beads_in(b).iter().map(|n| n.get()).collect(),
                    board: card.as_ref().map(|c| c.board.clone()).unwrap_or_default(),
                    arrows: (card.iter().flat_map(|c| &c.arrows))
                        .map(|a| a.0.clone())
                        .collect(),
                }
            })
            .collect();
        Some(tiles)
    }
}

/// The least time between two sends of the whole machine to the projectors.
const TILES_GAP: std::time::Duration = std::time::Duration::from_millis(500);

/// The least time between two messages to the projectors.
const TELL_GAP: std::time::Duration = std::time::Duration::from_millis(100);

/// At most `n` points of a curve, evenly spaced, its last point kept: what the projector draws.
fn thinned(curve: &[i64], n: usize) -> Vec<i64> {
    if curve.len() <= n {
        return curve.to_vec();
    }
    let mut out: Vec<i64> = (0..n - 1).map(|i| curve[i * curve.len() / n]).collect();
    out.extend(curve.last());
    out
}

/// A score as the pages take it: wins, draws, losses.
fn tally(s: &crate::learn::Score) -> (u64, u64, u64) {
    (s.wins, s.draws, s.losses)
}
