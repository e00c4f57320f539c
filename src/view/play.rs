//! The play screen: a person against the machine. Synchronous: the machine answers at once.

use std::path::PathBuf;

use super::app::{Action, Browser, Snapshot, Titles};
use super::board::BoardView;
use super::session::Session;
use crate::game::Side;
use crate::learn::GameResult;

pub struct PlayApp<G: BoardView> {
    pub session: Session<G>,
    pub titles: Titles,
    /// The side the person plays.
    pub human: Side,
    pub cursor: usize,
    pub input: String,
    pub message: Option<String>,
    pub show_help: bool,
    pub quit: bool,
    pub save_path: Option<PathBuf>,
    /// The machine's snapshot for drawing, refreshed after every change.
    pub snapshot: Snapshot<G>,
    pub theme: super::theme::Theme,
    /// Where the screen is shown (the page has no `q`): the help and the key bar follow it.
    pub front: super::key::Front,
    pub browser: Browser,
    /// Games played before this screen opened: quitting after more, with no `--save`, asks first.
    pub games_at_start: u64,
    /// `q` was pressed once with unsaved games: a second `q` quits.
    pub confirm_quit: bool,
    /// The watch screen this play screen came from (`p`), to go back to on `q` or Esc.
    pub watch: Option<WatchState>,
    /// Ctrl-C: the program stops, not only this screen.
    pub interrupted: bool,
    /// The score when the person sat down: the games watched before are not theirs.
    pub score_from: crate::learn::Score,
}

/// What the watch screen's session was set to before `p`, put back on the way back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WatchState {
    pub opponent: crate::players::Opponent,
    pub limit: Option<u64>,
}

impl<G: BoardView> PlayApp<G> {
    pub fn new(
        session: Session<G>,
        titles: Titles,
        human: Side,
        save_path: Option<PathBuf>,
    ) -> Self {
        let snapshot = Snapshot::of(&session);
        let games_at_start = session.machine().games_played;
        let mut app = PlayApp {
            session,
            titles,
            human,
            cursor: 0,
            input: String::new(),
            message: None,
            show_help: false,
            quit: false,
            save_path,
            snapshot,
            theme: super::theme::Theme::Dark,
            front: super::key::Front::Terminal,
            browser: Browser::default(),
            games_at_start,
            confirm_quit: false,
            watch: None,
            interrupted: false,
            score_from: Default::default(),
        };
        app.next_game();
        app
    }

    /// The play screen on the watch screen's session (`p` there): the game under way is played
    /// out first, as watching would have, then the person plays the machine just trained (which
    /// learns from these games too, as from any). The watch screen's limit on games does not
    /// stop the person.
    pub fn from_watch(mut session: Session<G>, titles: Titles) -> Self {
        session.finish_game();
        // The box panel starts clean: what the watched games taught it is not this game's.
        session.reinforced = None;
        let score_from = *session.stats();
        let back = WatchState {
            opponent: session.opponent(),
            limit: session.limit.take(),
        };
        session.set_opponent(crate::players::Opponent::Human);
        let human = session.machine().boxes.side().other();
        let mut app = PlayApp::new(session, titles, human, None);
        app.watch = Some(back);
        app.score_from = score_from;
        app.message = Some(format!(
            "you play {} against the machine just watched; Esc goes back to watching",
            app.session.game().side_name(human)
        ));
        app
    }

    /// Back to watching: the game left unfinished is dropped (the machine does not learn from
    /// it), the opponent and the limit are what they were.
    pub fn into_watch(mut self) -> Session<G> {
        self.session.abandon();
        if let Some(w) = self.watch {
            self.session.set_opponent(w.opponent);
            self.session.limit = w.limit;
        }
        self.session
    }

    /// The person's legal moves now (empty when it is not their turn).
    pub fn options(&self) -> Vec<G::Move> {
        self.session.human_options().unwrap_or_default()
    }

    fn next_game(&mut self) {
        // What was typed during the last game does not carry into the next.
        self.input.clear();
        self.session.begin();
        self.machine_moves();
        self.cursor = 0;
    }

    /// The machine plays until it is the person's turn or the game is over.
    fn machine_moves(&mut self) {
        while self.session.in_game() && self.session.human_options().is_none() {
            self.session.ply();
        }
        if !self.session.in_game()
            && let Some(rec) = &self.session.game
            && let Some(r) = rec.result
        {
            let machine = &self.titles.machine;
            let beads = |n: i64| match n {
                1 => "a bead".to_string(),
                n => format!("{n} beads"),
            };
            let (lost, gained) = self.session.reinforced.as_ref().map_or((0, 0), |r| {
                r.changes.iter().fold(
                    (0, 0),
                    |(l, g), &(_, _, d)| {
                        if d < 0 { (l - d, g) } else { (l, g + d) }
                    },
                )
            });
            let outcome = match r {
                GameResult::Win if gained > 0 => {
                    format!("{machine} won and gains {}", beads(gained))
                }
                GameResult::Win => format!("{machine} won"),
                GameResult::Draw if gained > 0 => {
                    format!("a draw; {machine} gains {}", beads(gained))
                }
                GameResult::Draw => "a draw".to_string(),
                GameResult::Loss if lost > 0 => format!("you won; {machine} loses {}", beads(lost)),
                GameResult::Loss => format!("you won; {machine} keeps its beads"),
            };
            self.input.clear();
            let why = rec
                .why
                .as_ref()
                .map(|w| format!(" ({w})"))
                .unwrap_or_default();
            self.message = Some(format!(
                "game {}: {outcome}{why}. Enter: next game",
                rec.number
            ));
        }
        self.refresh();
    }

    /// A new snapshot, with the browsed box in it.
    fn refresh(&mut self) {
        let whole = self.browser.whole_first();
        self.snapshot = Snapshot::browsing(&self.session, self.browser.shown, whole);
    }

    /// Whether quitting now would lose games the machine learned from (no `--save`).
    /// Games the machine learned from that quitting now would lose: none with `--save`, and none
    /// against a player standing in for the machine (it neither draws nor learns).
    pub fn unsaved_games(&self) -> u64 {
        // From the watch screen, the machine goes back to it (which saves with `s`).
        if self.save_path.is_some() || self.session.has_stand_in() || self.watch.is_some() {
            return 0;
        }
        self.session.machine().games_played - self.games_at_start
    }

    pub fn update(&mut self, action: Action) {
        // Any key but quit just closes the help.
        if self.show_help && !matches!(action, Action::Quit | Action::Interrupt) {
            self.show_help = false;
            return;
        }
        // A player standing in for the machine has no boxes to browse.
        if self.session.has_stand_in() && matches!(action, Action::Browse(_) | Action::ToggleWhole)
        {
            return;
        }
        let before = (self.browser.shown, self.browser.whole_first());
        let game = self.session.game();
        if let Some(message) = self.browser.update_on(action, game, &self.snapshot) {
            if message.is_some() {
                self.message = message;
            }
            if (self.browser.shown, self.browser.whole_first()) != before {
                self.refresh();
            }
            return;
        }
        let confirming = std::mem::take(&mut self.confirm_quit);
        let options = self.options();
        match action {
            Action::Interrupt => {
                self.quit = true;
                self.interrupted = true;
            }
            Action::Quit | Action::Back if confirming || self.unsaved_games() == 0 => {
                self.quit = true
            }
            Action::Quit | Action::Back => {
                self.confirm_quit = true;
                let keeps = match self.front {
                    super::key::Front::Terminal => "--save FILE keeps them",
                    super::key::Front::Page => "machine ⤓ keeps them",
                };
                self.message = Some(format!(
                    "quit without saving? The machine's {} here {} lost ({keeps}). q again quits, any other key plays on",
                    crate::text::count(self.unsaved_games(), "game", "games"),
                    if self.unsaved_games() == 1 {
                        "is"
                    } else {
                        "are"
                    }
                ));
            }
            Action::ToggleHelp => self.show_help = true,
            Action::Choose(i) if i < options.len() && self.session.in_game() => {
                self.input.clear();
                self.cursor = i;
                self.update(Action::Enter);
            }
            Action::Up if !options.is_empty() => {
                self.cursor = (self.cursor + options.len() - 1) % options.len();
            }
            Action::Down if !options.is_empty() => self.cursor = (self.cursor + 1) % options.len(),
            Action::Type(c) if self.input.len() < 24 => self.input.push(c),
            Action::Type(_) => {
                self.message = Some("a move is at most 24 characters: Ctrl-U clears it".into());
            }
            Action::Backspace => {
                self.input.pop();
            }
            Action::ClearInput => self.input.clear(),
            Action::Square(col, row) if self.session.in_game() && !options.is_empty() => {
                if let Some(name) = self.session.game().square_at(col, row) {
                    self.tap(&name, &options);
                }
            }
            Action::Enter => self.enter(&options),
            _ => {}
        }
    }
}

impl<G: BoardView> PlayApp<G> {
    /// Enter: the next game once one is over; else the move typed (or the one marked) is played,
    /// and the machine answers.
    fn enter(&mut self, options: &[G::Move]) {
        if !self.session.in_game() {
            self.message = None;
            self.next_game();
            return;
        }
        let pick = if self.input.trim().is_empty() {
            Some(self.cursor.min(options.len().saturating_sub(1)))
        } else {
            // What was typed stays until it is played, so a typo can be mended.
            let text = self.input.clone();
            let game = self.session.game();
            let pos = self
                .session
                .game
                .as_ref()
                .map(|g| g.position().clone())
                .unwrap_or_else(|| game.start());
            match game.parse_move(&pos, &text) {
                Ok(mv) => options.iter().position(|&m| m == mv),
                // A square alone (`b2`) is the one move that goes there, if only one does.
                Err(e) => match destination(game, options, text.trim()) {
                    Some(i) => Some(i),
                    None => {
                        self.message = Some(e.to_string());
                        None
                    }
                },
            }
        };
        if let Some(i) = pick
            && i < options.len()
        {
            self.message = None;
            self.input.clear();
            self.session.human_move(i);
            self.cursor = 0;
            self.machine_moves();
        }
    }

    /// A tap on the square `name`: with an origin already picked (the text typed), the move from
    /// it to here; else the square becomes the origin if a move leaves it, or the move that goes
    /// here if only one does. Where several turns fit, the first is marked in the list.
    fn tap(&mut self, name: &str, options: &[G::Move]) {
        let game = self.session.game();
        let ends: Vec<_> = options.iter().map(|&m| game.move_ends(m)).collect();
        let from_here = |from: &str| {
            ends.iter()
                .enumerate()
                .filter(|(_, e)| e.as_ref().is_some_and(|(f, _)| f.as_deref() == Some(from)))
                .map(|(i, _)| i)
                .collect::<Vec<_>>()
        };
        let picked = self.input.trim().to_string();
        let fits: Vec<usize> = if picked.is_empty() || picked == name {
            Vec::new()
        } else {
            from_here(&picked)
                .into_iter()
                .filter(|&i| ends[i].as_ref().is_some_and(|(_, t)| t == name))
                .collect()
        };
        if fits.is_empty() && !from_here(name).is_empty() {
            self.input = name.to_string();
            self.message = Some(format!("{name}: now where it goes"));
            return;
        }
        let fits = if fits.is_empty() {
            let to_here: Vec<usize> = (0..ends.len())
                .filter(|&i| ends[i].as_ref().is_some_and(|(_, t)| t == name))
                .collect();
            to_here
        } else {
            fits
        };
        match fits.as_slice() {
            [] => {
                self.input.clear();
                self.message = Some(format!("no move of yours goes from or to {name}"));
            }
            &[i] => self.update(Action::Choose(i)),
            &[i, ..] => {
                self.input.clear();
                self.cursor = i;
                self.message = Some(format!(
                    "{} moves fit: ↑ ↓ choose, Enter plays the marked one",
                    fits.len()
                ));
            }
        }
    }
}

/// The one move of `options` that goes to the square `to` (written `b1-b2`, `a3xb2`: its text
/// ends with `-b2` or `xb2`), if exactly one does.
fn destination<G: crate::game::Game>(game: &G, options: &[G::Move], to: &str) -> Option<usize> {
    if to.is_empty() {
        return None;
    }
    let mut found = options.iter().enumerate().filter(|(_, m)| {
        let text = game.format_move(**m);
        text.strip_suffix(to)
            .is_some_and(|head| head.ends_with('-') || head.ends_with('x'))
    });
    match (found.next(), found.next()) {
        (Some((i, _)), None) => Some(i),
        _ => None,
    }
}
