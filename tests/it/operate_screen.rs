//! The operator's screen, the terminal's and the page's: driven by the key table's Operate keys,
//! and by taps where the page takes them (a bead's line for its colour, the board for the
//! visitor's move, a box's line at a game's end for its audit, the commands under the step),
//! over real sessions of MENACE and HER: a refused colour, an undo, an audit and a revival.

use matchbox::game::Game;
use matchbox::games::hexapawn::{Hexapawn, Size};
use matchbox::games::tictactoe::TicTacToe;
use matchbox::learn::real::operate::{FirstBox, Operator, Turn};
use matchbox::palette;
use matchbox::view::board::BoardView;
use matchbox::view::key::{Action, Front, Key, KeyCode, Mode, action_for};
use matchbox::view::operate::{Answer, Click, Desk, OperateApp, Shown, Tapped, Voice};
use matchbox::view::render;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::common::fresh_machine;
use crate::real::{her_one_bead_from_losing, operator};

/// A session at the boxes as the page and the terminal hold one: the words and taps of
/// [`matchbox::view::operate`] over an operator's copy (no record file here).
struct TestDesk<G: BoardView>(Operator<G>);

impl<G: BoardView> Desk for TestDesk<G> {
    fn shown(&self) -> Shown {
        matchbox::view::operate::shown(&self.0, Voice::Tapping)
    }
    fn submit(&mut self, line: &str) -> Result<Answer, String> {
        Ok(match matchbox::view::operate::command(&mut self.0, line) {
            Ok(None) => Answer::End,
            Ok(Some(lines)) => Answer::Shown(lines),
            Err(e) => Answer::Mistake(e.to_string()),
        })
    }
    fn tap(&self, picked: Option<&str>, col: u16, row: u16) -> Tapped {
        matchbox::view::operate::tap(&self.0, picked, col, row)
    }
}

/// A screen of a size, an app and a session on it.
struct Screen<G: BoardView> {
    area: Rect,
    app: OperateApp,
    desk: TestDesk<G>,
}

impl<G: BoardView> Screen<G> {
    fn new(op: Operator<G>, w: u16, h: u16) -> Screen<G> {
        Screen {
            area: Rect::new(0, 0, w, h),
            app: OperateApp::default(),
            desk: TestDesk(op),
        }
    }

    fn draw(&self) -> Buffer {
        let mut t =
            ratatui::Terminal::new(TestBackend::new(self.area.width, self.area.height)).unwrap();
        let shown = self.desk.shown();
        t.draw(|f| render::operate(f, &self.app, &shown, Front::Page))
            .unwrap();
        t.backend().buffer().clone()
    }

    fn text(&self) -> String {
        let buf = self.draw();
        let a = self.area;
        (0..a.height)
            .map(|y| {
                (0..a.width)
                    .map(|x| buf[(x, y)].symbol())
                    .collect::<String>()
                    + "\n"
            })
            .collect()
    }

    fn op(&self) -> &Operator<G> {
        &self.desk.0
    }

    /// Taps the cell at (`x`, `y`) of the screen.
    fn tap_at(&mut self, x: u16, y: u16) {
        let shown = self.desk.shown();
        let click = render::operate_click(self.area, &self.app, &shown, x, y);
        let click = click.unwrap_or_else(|| panic!("nothing to tap at {x},{y}:\n{}", self.text()));
        self.app.click(click, &mut self.desk).unwrap();
    }

    /// Taps the last row the screen shows `what` on (the commands are at the bottom).
    fn tap_text(&mut self, what: &str) {
        let text = self.text();
        let rows: Vec<&str> = text.lines().collect();
        let (y, line) = (rows.into_iter().enumerate())
            .rfind(|(_, l)| l.contains(what))
            .unwrap_or_else(|| panic!("no `{what}` on the screen:\n{text}"));
        let x = line[..line.find(what).unwrap()].chars().count() as u16;
        self.tap_at(x + 1, y as u16);
    }

    /// Taps the board's square `name`, where the screen draws it (not a blank of its place).
    fn tap_square(&mut self, name: &str) {
        let (buf, shown) = (self.draw(), self.desk.shown());
        let a = self.area;
        let at = (0..a.height)
            .flat_map(|y| (0..a.width).map(move |x| (x, y)))
            .find(|&(x, y)| {
                let click = render::operate_click(a, &self.app, &shown, x, y);
                matches!(click, Some(Click::Square(c, r))
                    if self.op().game().square_at(c, r).as_deref() == Some(name)
                        && !buf[(x, y)].symbol().trim().is_empty())
            });
        let (x, y) = at.unwrap_or_else(|| panic!("no square {name}:\n{}", self.text()));
        self.tap_at(x, y);
    }

    /// Types `text` and Enter with the key table's keys.
    fn type_line(&mut self, text: &str) {
        for c in text.chars() {
            let key = Key::plain(KeyCode::Char(c));
            let action = action_for(key, Mode::Operate).unwrap();
            self.app.act(action, &mut self.desk).unwrap();
        }
        let enter = action_for(Key::plain(KeyCode::Enter), Mode::Operate).unwrap();
        self.app.act(enter, &mut self.desk).unwrap();
    }

    /// The machine's turn by a tap on its first bead's line that holds beads (or `resign`); the
    /// visitor's by taps on the board: the piece, then where it goes. Returns the move played.
    fn tap_a_step(&mut self) -> Option<String> {
        match self.op().turn() {
            Turn::Machine(open) => match open.beads.iter().find(|(b, _)| b.count > 0) {
                Some((b, sq)) => {
                    self.tap_text(&format!("{} {}", b.letter, b.name));
                    Some(sq.clone())
                }
                None => {
                    self.tap_text("resign");
                    Some("resign".into())
                }
            },
            Turn::Visitor(legal) => {
                let pos = self.op().position();
                let game = self.op().game().clone();
                let mv = game.parse_move(&pos, &legal[0]).unwrap();
                let (from, to) = game.move_ends(mv).unwrap();
                if let Some(from) = from {
                    self.tap_square(&from);
                    assert_eq!(self.app.picked.as_deref(), Some(from.as_str()));
                }
                self.tap_square(&to);
                Some(legal[0].clone())
            }
            Turn::Over(_) => None,
        }
    }
}

/// The operator's full screen, driven by the key table's Operate keys over a real session: the
/// step drawn with each bead colour's dot in its colour, a colour not in the box refused in red
/// and asked again, a typed line edited and cleared, `q` typed as a letter (of `quit`), the help
/// of the commands, Ctrl-C ending it.
#[test]
fn the_operators_screen_is_driven_by_keys() {
    let op = operator(&TicTacToe, fresh_machine(&TicTacToe, 3), FirstBox::Revive);
    let mut s = Screen::new(op, 100, 30);
    assert!(
        s.text().contains("the machine's move: open box 1"),
        "{}",
        s.text()
    );
    // The dot before "A orange" is orange.
    let buf = s.draw();
    let row = (s.text().lines())
        .position(|l| l.contains("A orange"))
        .unwrap();
    let (r, g, b) = palette::arrow(0).rgb;
    assert_eq!(buf[(2, row as u16)].fg, ratatui::style::Color::Rgb(r, g, b));
    s.type_line("purple");
    assert!(
        s.text().contains("✗ box 1 has no purple beads"),
        "{}",
        s.text()
    );
    assert!(
        s.text().contains("the machine's move: open box 1"),
        "asked again"
    );
    // Typed, edited, cleared.
    for key in [KeyCode::Char('z'), KeyCode::Backspace, KeyCode::Char('q')] {
        s.app
            .update(action_for(Key::plain(key), Mode::Operate).unwrap());
    }
    assert_eq!(s.app.input, "q");
    s.app
        .update(action_for(Key::ctrl(KeyCode::Char('u')), Mode::Operate).unwrap());
    assert_eq!(s.app.input, "");
    s.type_line("A");
    assert_eq!(s.app.error, None);
    assert!(s.text().contains("the visitor's move ("));
    s.app.update(Action::ToggleHelp);
    assert!(s.text().contains("audit N: what box N should hold"));
    s.app
        .update(action_for(Key::plain(KeyCode::Char('x')), Mode::Operate).unwrap());
    assert!(!s.app.show_help && !s.app.quit);
    s.app
        .update(action_for(Key::ctrl(KeyCode::Char('c')), Mode::Operate).unwrap());
    assert!(s.app.quit);
}

/// MENACE by taps, on a phone's grid and a projector's: the board refuses a tap on the machine's
/// turn; a bead's line plays its square, drawn on the board and the label in its colour with its
/// letter; the visitor's square tapped; `undo` tapped takes the visitor's move back; a colour
/// typed that the box lacks is refused; a whole game tapped to its end, a box's line tapped for
/// its audit, and `next game`.
#[test]
fn menace_is_operated_by_taps() {
    for (w, h) in [(44, 40), (100, 30)] {
        let op = operator(&TicTacToe, fresh_machine(&TicTacToe, 3), FirstBox::Revive);
        let mut s = Screen::new(op, w, h);
        let Turn::Machine(open) = s.op().turn() else {
            panic!()
        };
        // Each bead's letter on its square of the board, in its colour.
        let (bead, square) = open.beads[1].clone();
        let text = s.text();
        let letters = text
            .lines()
            .take(8)
            .filter(|l| l.contains(&bead.letter))
            .count();
        assert!(letters >= 1, "{text}");
        s.tap_square("c3");
        assert!(
            s.app
                .error
                .as_deref()
                .unwrap()
                .contains("the machine's turn")
        );
        assert!(s.op().words().is_empty());
        s.tap_text(&format!("{} {}", bead.letter, bead.name));
        assert_eq!(s.op().words(), &[square.clone()][..], "{}", s.text());
        let Turn::Visitor(legal) = s.op().turn() else {
            panic!()
        };
        s.tap_square(&legal[0]);
        assert_eq!(s.op().words().len(), 2, "{}", s.text());
        // A colour the box opened now has none of.
        let Turn::Machine(open) = s.op().turn() else {
            panic!()
        };
        let missing = (0..10)
            .map(|c| palette::arrow(c).name)
            .find(|name| open.beads.iter().all(|(b, _)| b.name != *name))
            .unwrap();
        s.type_line(missing);
        let refused = s.app.error.clone().unwrap_or_default();
        assert!(
            refused.contains(&format!("has no {missing} beads")),
            "{}",
            s.text()
        );
        assert_eq!(s.op().words().len(), 2, "asked again");
        s.tap_text(" undo ");
        assert_eq!(s.op().words(), &[square][..]);
        assert!(matches!(s.op().turn(), Turn::Visitor(_)));
        while s.tap_a_step().is_some() {}
        let Turn::Over(end) = s.op().turn() else {
            panic!()
        };
        assert!(s.text().contains("game 1 over"), "{}", s.text());
        let n = end.steps[0].box_number;
        s.tap_text(&format!("box {n}:"));
        assert!(
            s.app.answer[0].starts_with(&format!("box {n} should hold")),
            "{:?}",
            s.app.answer
        );
        s.tap_text(" next game ");
        assert!(matches!(s.op().turn(), Turn::Machine(_)));
        assert_eq!(s.op().lines().len(), 1);
    }
}

/// HER by taps: a pawn tapped, then where it goes; a square no move of the visitor's touches
/// refused; HER's one bead tapped; White's win tapped; the first box, emptied, keeps one bead
/// (the revival), said on the screen; its line tapped audits it: one bead.
#[test]
fn her_is_operated_by_taps_and_revives_its_first_box() {
    let her = Hexapawn::new(Size::GARDNER);
    let (m, b, [w1, b1, w2]) = her_one_bead_from_losing();
    let op = operator(&her, m, FirstBox::Revive);
    let mut s = Screen::new(op, 44, 40);
    s.tap_square("b3");
    assert!(
        s.app
            .error
            .as_deref()
            .unwrap()
            .contains("no move of the visitor's"),
        "{}",
        s.text()
    );
    assert_eq!(s.tap_a_step(), Some(w1.clone()));
    assert_eq!(s.op().words(), &[w1.clone()][..]);
    assert!(
        s.text().contains(&format!("open box {}", b + 1)),
        "{}",
        s.text()
    );
    assert_eq!(s.tap_a_step(), Some(b1.clone()));
    // White's win by its two taps.
    let pos = s.op().position();
    let (from, to) = her.move_ends(her.parse_move(&pos, &w2).unwrap()).unwrap();
    s.tap_square(&from.unwrap());
    assert!(s.app.answer[0].contains("now tap where it goes"));
    s.tap_square(&to);
    assert_eq!(s.op().words(), &[w1, b1, w2][..]);
    let text = s.text();
    assert!(
        text.contains("the machine lost") && text.contains("keeps one bead"),
        "{text}"
    );
    s.tap_text(&format!("box {}:", b + 1));
    assert!(
        s.app.answer[0].starts_with(&format!("box {} should hold 1 beads", b + 1)),
        "{:?}",
        s.app.answer
    );
    assert_eq!(s.op().machine().box_total(b), 1);
}

/// A GET (or another method) on loopback: the status line, the head and the body.
fn http(addr: &str, method: &str, path: &str) -> (String, String, String) {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    let req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    s.write_all(req.as_bytes()).unwrap();
    let mut text = String::new();
    s.read_to_string(&mut text).unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.lines().next().unwrap_or_default().to_string();
    (status, head.to_lowercase(), body.to_string())
}

/// The room's projector (`operate --projector`): its page, and the step served as the operator
/// types it — sent again only when it changed, refused for any method but GET and a bad query;
/// the session ends as ever.
#[test]
fn the_room_follows_the_operators_session() {
    use std::io::{BufRead, Write};
    let dir = tempfile::tempdir().unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_matchbox"))
        .args(["operate", "tictactoe", "--lines", "--seed", "5"])
        .args(["--projector", "127.0.0.1:0"])
        .current_dir(dir.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut out = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let mut seen = String::new();
    let mut addr = None;
    for line in out.by_ref().map(Result::unwrap) {
        seen.push_str(&line);
        if let Some((_, rest)) = line.split_once("open http://") {
            addr = Some(rest.split('/').next().unwrap().to_string());
            break;
        }
    }
    // The rest of what it says read, so its output stays open.
    let rest = std::thread::spawn(move || out.count());
    let addr = addr.unwrap_or_else(|| panic!("no address said: {seen}"));
    let (status, _, page) = http(&addr, "GET", "/");
    assert!(
        status.contains("200") && page.contains("the real machine"),
        "{status}"
    );
    let (status, head, screen) = http(&addr, "GET", "/screen");
    assert!(
        status.contains("200") && screen.contains("open box 1"),
        "{status} {screen}"
    );
    let version = (head.lines())
        .find_map(|l| l.strip_prefix("x-version: "))
        .unwrap()
        .trim()
        .to_string();
    let (status, _, _) = http(&addr, "GET", &format!("/screen?v={version}"));
    assert!(status.contains("204"), "unchanged: {status}");
    writeln!(input, "A").unwrap();
    let moved = (0..100).any(|_| {
        std::thread::sleep(std::time::Duration::from_millis(50));
        http(&addr, "GET", "/screen").2.contains("the visitor")
    });
    assert!(moved, "the room sees the machine's move");
    assert!(http(&addr, "POST", "/screen").0.contains("405"));
    assert!(
        http(&addr, "GET", "/screen?v=%3Cscript%3E")
            .0
            .contains("400")
    );
    writeln!(input, "quit").unwrap();
    drop(input);
    assert!(child.wait().unwrap().success());
    assert!(rest.join().unwrap() > 5);
}

/// A screen too short for the whole step keeps the step's own line (the box to open) and drops
/// the lines before it, then the ones at its end.
#[test]
fn a_short_screen_keeps_the_box_to_open() {
    let octopawn = Hexapawn::new(Size::new(4, 4).unwrap());
    let op = operator(&octopawn, fresh_machine(&octopawn, 1), FirstBox::Revive);
    let s = Screen::new(op, 44, 14);
    let text = s.text();
    assert!(text.contains("the machine's move: open box 1"), "{text}");
    assert!(
        !text.contains("has won 0"),
        "the tally gives way first: {text}"
    );
    let tall = Screen::new(
        operator(&octopawn, fresh_machine(&octopawn, 1), FirstBox::Revive),
        44,
        40,
    );
    assert!(tall.text().contains("has won 0") && tall.text().contains("open box 1"));
}
