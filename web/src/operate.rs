//! The operator's screen on the page (`?game=tictactoe&screen=operate`), as `matchbox operate`
//! shows it on a terminal: the same session ([`matchbox::learn::real::operate::Operator`]), the
//! same words and commands ([`matchbox::view::operate`]), and taps: a bead's line for its
//! colour, the board for the visitor's move, a box's line at a game's end for its audit, the
//! commands under the step. The record is the command line's file, kept in the browser's
//! storage after every step (a phone that sleeps or reloads comes back to the game under way)
//! and offered as a download (`record ⤓`), which `train --record` learns from.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use matchbox::labels::LabelView;
use matchbox::learn::real::operate::{Operator, record_header};
use matchbox::view::board::BoardView;
use matchbox::view::key::{Action, Front, Mode, action_for};
use matchbox::view::operate::{Answer, Desk, OperateApp, Shown, Tapped, Voice};
use matchbox::view::render;
use ratzilla::ratatui::Terminal;
use ratzilla::ratatui::backend::Backend;
use ratzilla::{WebEventHandler, WebRenderer};
use wasm_bindgen::prelude::*;

use super::{Keys, Settings, files, say, screen};
use screen::Clicks;

thread_local! {
    /// Lines typed in the page's own field (a phone's keyboard), for the screen.
    static TYPED: RefCell<VecDeque<String>> = const { RefCell::new(VecDeque::new()) };
    /// The browser storage's key of the session on screen.
    static KEY: RefCell<String> = const { RefCell::new(String::new()) };
}

/// A line typed in the page's field: done as if typed on the screen and ended with Enter.
#[wasm_bindgen]
pub fn operate_line(text: &str) {
    TYPED.with(|t| t.borrow_mut().push_back(text.to_string()));
}

/// Forgets the session on screen (its record kept in the browser): the page then begins anew.
#[wasm_bindgen]
pub fn operate_forget() {
    let key = KEY.with(|k| k.borrow().clone());
    if let Some(store) = storage()
        && !key.is_empty()
    {
        store.remove_item(&key).ok();
    }
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// The storage's key of a session's record: its header's (the game, the settings, the machine
/// it began from) FNV-1a digest, so other settings never continue or replace this record.
fn key_of(header: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in header.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    format!("matchbox-operate-{h:016x}")
}

/// The comment of the stored record that holds the game under way's words.
const UNDER_WAY: &str = "# under way:";

/// The session at the real boxes on the page: the operator's copy, kept in storage.
struct PageDesk<G: BoardView> {
    op: Operator<G>,
    header: String,
    key: String,
}

impl<G: BoardView> PageDesk<G> {
    /// The record as the command line writes it, and the game under way's words in a comment.
    fn record(&self) -> String {
        let mut text = self.header.clone();
        for line in self.op.lines() {
            text.push_str(&line);
            text.push('\n');
        }
        if !self.op.is_over() && !self.op.words().is_empty() {
            text.push_str(&format!("{UNDER_WAY} {}\n", self.op.words().join(" ")));
        }
        text
    }

    fn keep(&self) -> Result<(), String> {
        let store = storage().ok_or("this browser keeps nothing for the page")?;
        (store.set_item(&self.key, &self.record()))
            .map_err(|_| "the browser's storage is full: download the record".to_string())
    }

    /// The session stored under this key, played again: its games, then the game under way.
    fn restore(&mut self) -> Result<usize, String> {
        let Some(text) = storage().and_then(|s| s.get_item(&self.key).ok().flatten()) else {
            return Ok(0);
        };
        let record = matchbox::learn::real::parse(&text).map_err(|e| e.to_string())?;
        (self.op.continue_with(&record.games)).map_err(|e| format!("the stored record: {e}"))?;
        let under_way = text.lines().find_map(|l| l.strip_prefix(UNDER_WAY));
        let words: Vec<String> = (under_way.unwrap_or_default().split_whitespace())
            .map(String::from)
            .collect();
        // As far as its moves go: the words before one that cannot be played stay played.
        let _ = self.op.replay_words(&words);
        Ok(record.games.len())
    }
}

impl<G: BoardView> Desk for PageDesk<G> {
    fn shown(&self) -> Shown {
        matchbox::view::operate::shown(&self.op, Voice::Tapping)
    }

    fn submit(&mut self, line: &str) -> Result<Answer, String> {
        let answer = match matchbox::view::operate::command(&mut self.op, line) {
            // A page is closed, not quit: the session stays, kept.
            Ok(None) => Answer::Mistake("the page keeps the session: close it to stop".into()),
            Ok(Some(shown)) => Answer::Shown(shown),
            Err(e) => Answer::Mistake(e.to_string()),
        };
        if let Err(e) = self.keep() {
            say(&format!("error: {e}"));
        }
        Ok(answer)
    }

    fn tap(&self, picked: Option<&str>, col: u16, row: u16) -> Tapped {
        matchbox::view::operate::tap(&self.op, picked, col, row)
    }
}

/// The session the settings ask for, continued from the browser's storage, on screen.
pub fn run<G: BoardView + LabelView + Clone + 'static>(
    game: G,
    s: &Settings,
) -> Result<(), String> {
    let spec = s.match_spec(&game)?;
    let bout = (spec.build(game.clone(), &mut |_| {})).map_err(|e| e.to_string())?;
    matchbox::view::operate::operable(&game, bout.learner())?;
    let header = record_header(&game, bout.learner(), s.first_box);
    let key = key_of(&header);
    KEY.with(|k| *k.borrow_mut() = key.clone());
    let op = Operator::new(bout, s.colours, s.first_box);
    let mut desk = PageDesk { op, header, key };
    let games = desk.restore()?;
    if games > 0 {
        say(&format!(
            "{games} games of this machine so far, kept in this browser"
        ));
    }
    let desk = Rc::new(RefCell::new(desk));
    let offered = Rc::clone(&desk);
    let colours = s.colours;
    files::offer(Box::new(move |what| {
        let d = offered.borrow();
        let (game, m) = (d.op.game(), d.op.machine());
        let stem = format!("{}-real", game.name());
        if what == "record" {
            let body = files::Body::Bytes(d.record().into_bytes());
            let (name, mime) = (format!("{stem}.txt"), "text/plain");
            return Ok(files::File { name, mime, body });
        }
        let source = matchbox::front::files::Source {
            stem,
            chart: None,
            colours,
            game,
            machine: m,
        };
        source.file(matchbox::front::files::Want::parse(what)?)
    }));
    let keys: Keys = Rc::default();
    super::listen_keys(Rc::clone(&keys))?;
    super::on_screen(OperateScreen(desk, keys))
}

/// The operator's screen: the session and the keys pressed.
struct OperateScreen<G: BoardView>(Rc<RefCell<PageDesk<G>>>, Keys);

impl<G: BoardView + 'static> super::OnScreen for OperateScreen<G> {
    fn show<B: Backend + WebEventHandler + 'static>(self, terminal: Terminal<B>, clicks: Clicks) {
        let OperateScreen(desk, keys) = self;
        let mut app = OperateApp::default();
        terminal.draw_web(move |f| {
            let mut desk = desk.borrow_mut();
            let area = f.area();
            let clicked: Vec<_> = clicks.borrow_mut().drain(..).collect();
            let mut done = Vec::new();
            for (col, row) in clicked {
                // Each click on the screen as it is after the one before.
                let shown = desk.shown();
                if let Some(click) = render::operate_click(area, &app, &shown, col, row) {
                    done.push(app.click(click, &mut *desk));
                }
            }
            for key in keys.borrow_mut().drain(..) {
                match action_for(key, Mode::Operate) {
                    // A page is closed, not quit.
                    Some(Action::Quit | Action::Interrupt) | None => {}
                    Some(action) => done.push(app.act(action, &mut *desk)),
                }
            }
            for line in TYPED.with(|t| t.borrow_mut().drain(..).collect::<Vec<_>>()) {
                done.push(app.submit(&line, &mut *desk));
            }
            if let Some(Err(e)) = done.into_iter().find(Result::is_err) {
                say(&format!("error: {e}"));
            }
            render::operate(f, &app, &desk.shown(), Front::Page);
            screen::keep(f.buffer_mut());
        });
    }
}
