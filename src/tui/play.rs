//! The play screen: a person against the machine. Synchronous: the machine answers at once.

use std::path::PathBuf;

use super::app::{Action, Snapshot, Titles};
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
}

impl<G: BoardView> PlayApp<G> {
    pub fn new(
        session: Session<G>,
        titles: Titles,
        human: Side,
        save_path: Option<PathBuf>,
    ) -> Self {
        let snapshot = Snapshot::of(&session);
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
        };
        app.next_game();
        app
    }

    /// The person's legal moves now (empty when it is not their turn).
    pub fn options(&self) -> Vec<G::Move> {
        self.session.human_options().unwrap_or_default()
    }

    fn next_game(&mut self) {
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
            let outcome = match r {
                GameResult::Win => format!("{machine} won"),
                GameResult::Draw => "a draw".to_string(),
                GameResult::Loss => format!("you won; {machine} loses a bead"),
            };
            self.message = Some(format!("game {}: {outcome}. Enter: next game", rec.number));
        }
        self.snapshot = Snapshot::of(&self.session);
    }

    pub fn update(&mut self, action: Action) {
        // Any key but quit just closes the help.
        if self.show_help && action != Action::Quit {
            self.show_help = false;
            return;
        }
        let options = self.options();
        match action {
            Action::Quit => self.quit = true,
            Action::ToggleHelp => self.show_help = true,
            Action::Up if !options.is_empty() => {
                self.cursor = (self.cursor + options.len() - 1) % options.len();
            }
            Action::Down if !options.is_empty() => self.cursor = (self.cursor + 1) % options.len(),
            Action::Type(c) if self.input.len() < 24 => self.input.push(c),
            Action::Backspace => {
                self.input.pop();
            }
            Action::Enter => {
                if !self.session.in_game() {
                    self.message = None;
                    self.next_game();
                    return;
                }
                let pick = if self.input.trim().is_empty() {
                    Some(self.cursor.min(options.len().saturating_sub(1)))
                } else {
                    let text = std::mem::take(&mut self.input);
                    let game = self.session.game();
                    let pos = self
                        .session
                        .game
                        .as_ref()
                        .map(|g| g.position().clone())
                        .unwrap_or_else(|| game.start());
                    match game.parse_move(&pos, &text) {
                        Ok(mv) => options.iter().position(|&m| m == mv),
                        Err(e) => {
                            self.message = Some(e.to_string());
                            None
                        }
                    }
                };
                if let Some(i) = pick
                    && i < options.len()
                {
                    self.message = None;
                    self.session.human_move(i);
                    self.cursor = 0;
                    self.machine_moves();
                }
            }
            _ => {}
        }
    }
}
