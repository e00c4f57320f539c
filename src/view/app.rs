//! Screen state and what keys do: keys map to an [`Action`], and `update` turns actions into new
//! state and commands for the training thread. No terminal here, so all of it is testable.

use std::collections::HashMap;
use std::path::PathBuf;

use super::board::BoardView;
use super::session::{Curve, GameRecord, Opened, Reinforced, Session, Stats};
use crate::game::{Game, Side};
use crate::learn::MatchBox;
use crate::players::Opponent;

/// How fast the watch screen trains.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Speed {
    /// One move per key press.
    Step,
    /// About one move a second, animated.
    Slow,
    Games1,
    Games10,
    Games100,
    /// As fast as the engine goes.
    FlatOut,
}

impl Speed {
    const ALL: [Speed; 6] = [
        Speed::Step,
        Speed::Slow,
        Speed::Games1,
        Speed::Games10,
        Speed::Games100,
        Speed::FlatOut,
    ];
    pub fn faster(self) -> Speed {
        let i = Self::ALL.iter().position(|&s| s == self).unwrap_or(0);
        Self::ALL[(i + 1).min(Self::ALL.len() - 1)]
    }
    pub fn slower(self) -> Speed {
        let i = Self::ALL.iter().position(|&s| s == self).unwrap_or(0);
        Self::ALL[i.saturating_sub(1)]
    }
    /// Its name on the command line and in the page's address.
    pub fn name(self) -> &'static str {
        match self {
            Speed::Step => "step",
            Speed::Slow => "slow",
            Speed::Games1 => "1",
            Speed::Games10 => "10",
            Speed::Games100 => "100",
            Speed::FlatOut => "flat-out",
        }
    }
    pub fn label(self) -> &'static str {
        match self {
            Speed::Step => "step",
            Speed::Slow => "slow",
            Speed::Games1 => "1 game/s",
            Speed::Games10 => "10 games/s",
            Speed::Games100 => "100 games/s",
            Speed::FlatOut => "flat out",
        }
    }
    /// Whether changes are animated (rather than flashed).
    pub fn animated(self) -> bool {
        self <= Speed::Games1
    }
}

impl std::str::FromStr for Speed {
    type Err = String;
    /// A speed by its name (`step`, `slow`, `1`, `10`, `100`, `flat-out`): the command line's and
    /// the page's one parser.
    fn from_str(s: &str) -> Result<Speed, String> {
        let t = s.trim().to_ascii_lowercase();
        (Speed::ALL.into_iter().find(|sp| sp.name() == t)).ok_or_else(|| {
            format!(
                "`{}` is not a speed: use step, slow, 1, 10, 100 or flat-out",
                crate::text::quote(s)
            )
        })
    }
}

impl std::fmt::Display for Speed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

pub use super::key::{Action, Front, Mode, action_for, key_table};

/// Commands from the screen to the training thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    SetSpeed(Speed),
    Pause(bool),
    Step,
    SetOpponent(Opponent),
    Reset,
    Save(PathBuf),
    /// Show this box (from 0) in full, or follow the box opened last.
    Browse(Option<usize>),
    /// Copy out the boxes of the whole-machine view's page from this box (from 0), or none.
    Whole(Option<usize>),
    Quit,
}

/// The box browser both screens share: a box shown in place of the one the machine opened last,
/// and the `#` prompt for a box number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Browser {
    /// The box shown (from 0), or `None` to follow the box the machine opened last.
    pub shown: Option<usize>,
    /// The digits typed after `#`, while the prompt is open.
    pub prompt: Option<String>,
    /// The whole-machine view, while it is open.
    pub whole: Option<super::whole::Whole>,
    /// The terminal's (or the page's) size in cells, for the whole-machine view's pages: the
    /// front end sets it before every draw.
    pub screen: (u16, u16),
}

impl Default for Browser {
    fn default() -> Self {
        Browser {
            shown: None,
            prompt: None,
            whole: None,
            screen: (80, 24),
        }
    }
}

impl Browser {
    /// The first box of the whole-machine view's page, while it is open.
    pub fn whole_first(&self) -> Option<usize> {
        self.whole.as_ref().map(|w| w.first)
    }

    /// [`Browser::update`] for a screen showing `snap` of `game`: the box opened last, the
    /// machine's size and where the whole-machine view's page ends come from the snapshot.
    pub fn update_on<G: BoardView>(
        &mut self,
        action: Action,
        game: &G,
        snap: &Snapshot<G>,
    ) -> Option<Option<String>> {
        let live = snap.opened.map(|o| o.box_index);
        let end = super::whole::page_of(game, &snap.groups, self.whole.as_ref(), self.screen)
            .map_or(0, |p| p.end);
        self.update(action, snap.boxes.len(), live, end)
    }

    /// The whole-machine view's keys: pages, a box chosen, back. `page_end` is where the page
    /// shown ends.
    fn update_whole(&mut self, action: Action, total: usize, page_end: usize) -> Option<()> {
        let w = self.whole.as_mut()?;
        match action {
            Action::ToggleWhole | Action::Back => self.whole = None,
            Action::Browse(step) if step > 0 => {
                w.next(page_end, total);
            }
            Action::Browse(_) => {
                w.previous();
            }
            Action::BrowseTo(b) if b < total => {
                self.whole = None;
                self.shown = Some(b);
            }
            _ => return None,
        }
        Some(())
    }

    /// Applies `action` if it is the browser's, for a machine of `total` boxes whose box opened
    /// last is `live`, the whole-machine view's page (if open) ending at `page_end`. Returns
    /// `None` when the action is not the browser's, else the message to show (if any).
    pub fn update(
        &mut self,
        action: Action,
        total: usize,
        live: Option<usize>,
        page_end: usize,
    ) -> Option<Option<String>> {
        if self.prompt.is_none() && self.update_whole(action, total, page_end).is_some() {
            return Some(None);
        }
        if let Some(typed) = &mut self.prompt {
            match action {
                Action::Type(c) if c.is_ascii_digit() && typed.len() < 12 => typed.push(c),
                Action::Backspace => {
                    typed.pop();
                }
                Action::Back => self.prompt = None,
                Action::Enter => {
                    let typed = self.prompt.take().unwrap_or_default();
                    return Some(match typed.parse::<usize>() {
                        Ok(n) if (1..=total).contains(&n) => {
                            self.shown = Some(n - 1);
                            self.whole = None;
                            None
                        }
                        _ if typed.is_empty() => None,
                        _ => Some(format!(
                            "no box {typed}: the machine has {} boxes",
                            crate::text::group(total as u64)
                        )),
                    });
                }
                Action::Quit | Action::Interrupt | Action::ToggleHelp => return None,
                // Anything else while typing a number is ignored.
                _ => {}
            }
            return Some(None);
        }
        match action {
            Action::Browse(step) => {
                if total == 0 {
                    return Some(Some("the machine has no boxes yet".into()));
                }
                let from = self.shown.or(live).unwrap_or(0) as i64;
                let to = (from + step as i64).clamp(0, total as i64 - 1);
                self.shown = Some(to as usize);
                Some(None)
            }
            Action::GoTo => {
                self.prompt = Some(String::new());
                Some(None)
            }
            Action::ToggleWhole if total == 0 => Some(Some("the machine has no boxes yet".into())),
            Action::ToggleWhole => {
                // The page from the first box: the machine reads from its first move.
                self.whole = Some(super::whole::Whole::default());
                Some(None)
            }
            Action::BrowseTo(b) if b < total => {
                self.shown = Some(b);
                Some(None)
            }
            Action::Back if self.shown.is_some() => {
                self.shown = None;
                Some(None)
            }
            _ => None,
        }
    }

    /// What the browser has open over the live screen, for its key bar.
    pub fn panel(&self) -> super::key::Panel {
        use super::key::Panel;
        match (&self.prompt, &self.whole, self.shown) {
            (Some(_), _, _) => Panel::Prompt,
            (None, Some(_), _) => Panel::Whole,
            (None, None, Some(_)) => Panel::Box,
            (None, None, None) => Panel::Live,
        }
    }

    /// The key line while browsing or typing a box number, if either, from the key table: only
    /// keys that act on this screen where it is shown (`q quit` only in a terminal), at each
    /// width, widest first (for the screen's `first_fit`).
    pub fn key_lines(
        &self,
        mode: super::key::Mode,
        front: super::key::Front,
    ) -> Option<Vec<String>> {
        let at = super::key::BarFor {
            panel: self.panel(),
            ..Default::default()
        };
        if at.panel == super::key::Panel::Live {
            return None;
        }
        let bars = super::key::key_bars(mode, front, &at).into_iter();
        Some(
            bars.map(|keys| match &self.prompt {
                Some(typed) => format!(" go to box: {typed}▏  {keys}"),
                None => keys,
            })
            .collect(),
        )
    }
}

/// Boxes shown one by one in the machine panel at most; larger sets show the recent ones.
pub const SHOW_ALL_BOXES: usize = 64;

/// Machines with up to this many boxes have their beads counted for every snapshot.
pub const COUNT_EVERY_FRAME: usize = 100_000;

/// The boxes a snapshot shows, copied out of the machine: the cost of a snapshot does not grow
/// with the machine.
pub struct SnapBoxes<G: Game> {
    side: Side,
    len: usize,
    boxes: HashMap<usize, MatchBox<G>>,
}

impl<G: Game> SnapBoxes<G> {
    /// Box `b`, if the snapshot holds it.
    pub fn try_get(&self, b: usize) -> Option<&MatchBox<G>> {
        self.boxes.get(&b)
    }
    /// The screen colour of arrow `k` of box `b` when beads are coloured by `colours`: the bead's
    /// colour, as on the printed label.
    pub fn arrow_colour(
        &self,
        game: &G,
        colours: crate::palette::BeadColours,
        b: usize,
        k: usize,
    ) -> ratatui::style::Color {
        let cell = self
            .try_get(b)
            .and_then(|m| m.arrows.get(k))
            .and_then(|&mv| game.move_cell(mv));
        super::board::bead_colour(colours.index(k, cell))
    }
    /// How many boxes the machine has.
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// The side the machine plays.
    pub fn side(&self) -> Side {
        self.side
    }
}

/// What the screen needs from a session, copied out so the trainer never waits for the screen.
pub struct Snapshot<G: BoardView> {
    pub boxes: SnapBoxes<G>,
    /// Beads of each arrow of the boxes in `shown` and of the box opened last, by box index.
    pub beads: HashMap<usize, Vec<u32>>,
    /// Boxes for the machine panel, in order.
    pub shown: Vec<usize>,
    pub game: Option<GameRecord<G>>,
    pub opened: Option<Opened>,
    pub reinforced: Option<Reinforced>,
    pub stats: Stats,
    pub curve: Curve,
    pub games_played: u64,
    /// Games played since the machine was last saved (or reset, or made).
    pub unsaved: u64,
    pub beads_left: u64,
    pub boxes_emptied: usize,
    pub opponent: Opponent,
    pub seed: u64,
    pub reinforcement: String,
    pub limit_reached: bool,
    pub colours: crate::palette::BeadColours,
    /// The rival machine's boxes, when a second machine is the opponent.
    pub rival_machine: Option<RivalSnap<G>>,
    /// The opponent is the perfect player, and perfect play wins this game for it.
    pub can_only_lose: bool,
    /// Every box of the machine's first move is empty: it resigns every game from now on
    /// (counted on machines small enough to count every frame). The number of those boxes.
    pub gave_up: Option<usize>,
    /// The machine's boxes grouped by move, for the whole-machine view (empty when it is shut).
    pub groups: Vec<super::whole::Group>,
    /// The first box's beads as the games went, for its chart.
    pub first_box: Option<FirstBoxSnap>,
}

/// The first box's history as a snapshot holds it: each arrow's words and colour, the samples.
#[derive(Clone, Debug)]
pub struct FirstBoxSnap {
    pub arrows: Vec<(String, ratatui::style::Color)>,
    pub samples: std::sync::Arc<Vec<(u64, Vec<u32>)>>,
}

impl FirstBoxSnap {
    fn of<G: BoardView>(s: &Session<G>) -> Option<Self> {
        let m = s.machine();
        if m.boxes.is_empty() {
            return None;
        }
        let game = s.game();
        let set = SnapBoxes {
            side: m.boxes.side(),
            len: m.boxes.len(),
            boxes: HashMap::from([(0, m.boxes.get(0))]),
        };
        let arrows = (m.boxes.arrows(0).iter().enumerate())
            .map(|(k, &mv)| (game.move_words(mv), set.arrow_colour(game, s.colours, 0, k)))
            .collect();
        Some(FirstBoxSnap {
            arrows,
            samples: std::sync::Arc::clone(&s.first_box.samples),
        })
    }
}

/// The rival machine's part of a snapshot (learner against learner).
pub struct RivalSnap<G: Game> {
    pub boxes: SnapBoxes<G>,
    /// Beads of each arrow of the boxes in `shown`.
    pub beads: HashMap<usize, Vec<u32>>,
    /// Every box of a small machine; the most recently opened of a big one, latest first.
    pub shown: Vec<usize>,
    pub beads_left: u64,
    pub boxes_emptied: usize,
    pub games_played: u64,
}

impl<G: Game> RivalSnap<G> {
    fn of(m: &crate::learn::Machine<G>, recent: &std::collections::VecDeque<usize>) -> Self {
        let set = &m.boxes;
        let shown: Vec<usize> = if set.len() <= SHOW_ALL_BOXES {
            (0..set.len()).collect()
        } else {
            recent.iter().copied().take(SHOW_ALL_BOXES).collect()
        };
        let beads = shown
            .iter()
            .map(|&b| (b, m.beads_in(b).iter().map(|x| x.get()).collect()))
            .collect();
        let boxes = SnapBoxes {
            side: set.side(),
            len: set.len(),
            boxes: shown.iter().map(|&b| (b, set.get(b))).collect(),
        };
        let (beads_left, boxes_emptied) = if set.len() <= COUNT_EVERY_FRAME {
            (m.beads_left(), m.boxes_emptied())
        } else {
            (0, 0)
        };
        RivalSnap {
            boxes,
            beads,
            shown,
            beads_left,
            boxes_emptied,
            games_played: m.games_played,
        }
    }
}

impl<G: BoardView> Snapshot<G> {
    /// The screen colour of arrow `k` of box `b`: its bead's colour, as on the printed label.
    pub fn arrow_colour(&self, game: &G, b: usize, k: usize) -> ratatui::style::Color {
        self.boxes.arrow_colour(game, self.colours, b, k)
    }

    /// The session as the screen shows it, following the box opened last.
    pub fn of(s: &Session<G>) -> Snapshot<G> {
        Self::browsing(s, None, None)
    }

    /// The session with box `browse` (from 0) and its neighbours in number order copied out for
    /// the box browser; `None` follows the box opened last (and the machine panel shows the boxes
    /// opened most recently). With `whole`, the boxes of the whole-machine view's page from that
    /// box, and the machine's groups by move.
    pub fn browsing(s: &Session<G>, browse: Option<usize>, whole: Option<usize>) -> Snapshot<G> {
        let m = s.machine();
        let set = &m.boxes;
        let browse = browse.filter(|&b| b < set.len());
        let shown: Vec<usize> = if set.len() <= SHOW_ALL_BOXES {
            (0..set.len()).collect()
        } else if let Some(b) = browse {
            let first = (b / SHOW_ALL_BOXES) * SHOW_ALL_BOXES;
            (first..(first + SHOW_ALL_BOXES).min(set.len())).collect()
        } else {
            s.recent.iter().copied().take(SHOW_ALL_BOXES).collect()
        };
        let mut beads = HashMap::new();
        let mut copied = HashMap::new();
        let extra = s.opened.map(|o| o.box_index);
        let window = whole.map(|first| {
            super::whole::Whole {
                first,
                back: Vec::new(),
            }
            .window(set.len())
        });
        let page = window.clone().into_iter().flatten();
        for b in shown.iter().copied().chain(extra).chain(browse).chain(page) {
            beads.insert(b, m.beads_in(b).iter().map(|x| x.get()).collect());
            copied.insert(b, set.get(b));
        }
        // Small machines are counted afresh; big ones as last counted (about once a second).
        let (beads_left, boxes_emptied) = if set.len() <= COUNT_EVERY_FRAME {
            (m.beads_left(), m.boxes_emptied())
        } else {
            s.totals
        };
        let boxes = SnapBoxes {
            side: set.side(),
            len: set.len(),
            boxes: copied,
        };
        Snapshot {
            beads,
            shown,
            game: s.game.clone(),
            opened: s.opened,
            reinforced: s.reinforced.clone(),
            stats: *s.stats(),
            curve: s.curve.clone(),
            games_played: m.games_played,
            unsaved: m.games_played.saturating_sub(s.saved_games),
            beads_left,
            boxes_emptied,
            opponent: s.playing_opponent(),
            seed: m.seed,
            reinforcement: m.reinforcement.to_string(),
            limit_reached: s.limit_reached(),
            colours: s.colours,
            can_only_lose: s.can_only_lose(),
            gave_up: (set.len() <= COUNT_EVERY_FRAME && crate::learn::first_box_empty(m))
                .then(|| (0..set.len()).filter(|&b| set.stage(b) == 0).count()),
            rival_machine: s
                .rival_machine()
                .filter(|_| s.playing_opponent() == Opponent::Matchbox)
                .map(|m| RivalSnap::of(m, &s.rival_recent)),
            first_box: FirstBoxSnap::of(s),
            groups: match window {
                Some(_) => super::whole::groups(set.len(), |i| set.move_number(i)),
                None => Vec::new(),
            },
            boxes,
        }
    }
}

/// Titles that do not change during a session.
#[derive(Clone, Debug)]
pub struct Titles {
    /// e.g. `HER (black)`.
    pub machine: String,
    /// e.g. `hexapawn 3x3`.
    pub game: String,
    pub symmetry: String,
    /// The rival machine, e.g. `HIM (white)`, when the opponent is a second machine.
    pub rival: Option<String>,
    /// Who the machine plays, where the opponent's kind does not say it: `the class` (a
    /// lesson's games, played again).
    pub against: Option<String>,
}

impl Titles {
    /// The titles of a machine playing a game.
    pub fn of<G: BoardView>(game: &G, m: &crate::learn::Machine<G>) -> Titles {
        Titles {
            machine: game
                .machine_name(m.boxes.side(), m.boxes.mode())
                .to_string(),
            game: format!("{} {}", game.name(), game.variant()),
            symmetry: if m.boxes.is_lazy() {
                format!("{}, boxes made on first visit", m.boxes.mode().words())
            } else {
                format!("{}, {} boxes", m.boxes.mode().words(), m.boxes.len())
            },
            rival: None,
            against: None,
        }
    }

    /// The titles of a session's match: its machine's, and its rival machine's where it has one.
    pub fn of_session<G: BoardView>(s: &super::session::Session<G>) -> Titles {
        let game = s.game();
        let mut t = Titles::of(game, s.machine());
        if let Some(r) = s.rival_machine() {
            t.rival = Some(
                game.machine_name(r.boxes.side(), r.boxes.mode())
                    .to_string(),
            );
        }
        t
    }
}

/// The watch screen.
pub struct WatchApp<G: BoardView> {
    pub game: G,
    pub titles: Titles,
    pub snapshot: Snapshot<G>,
    pub speed: Speed,
    pub paused: bool,
    pub show_help: bool,
    pub quit: bool,
    pub message: Option<String>,
    pub save_path: PathBuf,
    pub opponent: Opponent,
    pub fps: f64,
    pub games_per_sec: f64,
    /// Progress (0 to 1) of the animation of the last reinforcement; 1 or more when done.
    pub anim: f32,
    /// `r` was pressed once: a second `r` resets the machine, any other key keeps it.
    pub confirm_reset: bool,
    /// `q` was pressed with games not saved: a second `q` quits, any other key watches on.
    pub confirm_quit: bool,
    /// The speed was changed: the games-per-second reading starts afresh.
    pub speed_changed: bool,
    pub theme: super::theme::Theme,
    /// Where the screen is shown (the page has no `q`): the help and the key bar follow it.
    pub front: super::key::Front,
    pub browser: Browser,
    /// The opponents `o` goes through, in order.
    pub opponents: Vec<Opponent>,
    /// `p` was pressed: the front end hands the session to the play screen, then back.
    pub to_play: bool,
    /// The front end can do that (the terminal's can; a page says where to play instead).
    pub can_play: bool,
    /// The charts as last drawn, copied into frames they still stand for.
    pub charts: super::charts::Charts,
}

impl<G: BoardView> WatchApp<G> {
    pub fn new(
        game: G,
        titles: Titles,
        snapshot: Snapshot<G>,
        speed: Speed,
        save_path: PathBuf,
        opponent: Opponent,
    ) -> Self {
        WatchApp {
            game,
            titles,
            snapshot,
            speed,
            paused: false,
            show_help: false,
            quit: false,
            message: None,
            save_path,
            opponent,
            fps: 0.0,
            games_per_sec: 0.0,
            anim: 1.0,
            confirm_reset: false,
            confirm_quit: false,
            speed_changed: false,
            theme: super::theme::Theme::Dark,
            front: super::key::Front::Terminal,
            browser: Browser::default(),
            opponents: vec![Opponent::Perfect, Opponent::Random],
            to_play: false,
            can_play: true,
            charts: Default::default(),
        }
    }

    /// The watch screen of a session, where it is shown: its opponent (a session a person was
    /// playing is watched against the perfect player), and among the opponents `o` offers the
    /// rival machine first where the session has one.
    pub fn of_session(
        session: &super::session::Session<G>,
        titles: Titles,
        speed: Speed,
        save_path: PathBuf,
        front: super::key::Front,
    ) -> Self {
        let opponent = match session.opponent() {
            Opponent::Human => Opponent::Perfect,
            k => k,
        };
        let titles = Titles {
            rival: Titles::of_session(session).rival,
            ..titles
        };
        let snapshot = Snapshot::of(session);
        let game = session.game().clone();
        let mut app = WatchApp::new(game, titles, snapshot, speed, save_path, opponent);
        if session.rival_machine().is_some() {
            app.opponents = vec![Opponent::Matchbox, Opponent::Perfect, Opponent::Random];
        }
        app.front = front;
        app
    }

    /// A first `q` with games not saved: the screen says so, and a second quits.
    fn ask_before_quitting(&mut self) {
        self.confirm_quit = true;
        let n = self.snapshot.unsaved;
        self.message = Some(format!(
            "quit? The {} since it was saved {} not saved: q again quits, s saves, any other key watches on",
            crate::text::count(n, "game", "games"),
            if n == 1 { "is" } else { "are" }
        ));
    }

    /// Applies an action; returns the commands for the training thread.
    pub fn update(&mut self, action: Action) -> Vec<Command> {
        // Any key but quit just closes the help.
        if self.show_help && !matches!(action, Action::Quit | Action::Interrupt) {
            self.show_help = false;
            return Vec::new();
        }
        let before = (self.browser.shown, self.browser.whole_first());
        if let Some(message) = self.browser.update_on(action, &self.game, &self.snapshot) {
            self.message = message;
            self.confirm_reset = false;
            let mut commands = Vec::new();
            if self.browser.shown != before.0 {
                commands.push(Command::Browse(self.browser.shown));
            }
            if self.browser.whole_first() != before.1 {
                commands.push(Command::Whole(self.browser.whole_first()));
            }
            return commands;
        }
        self.message = None;
        let confirming = std::mem::take(&mut self.confirm_reset);
        let quitting = std::mem::take(&mut self.confirm_quit);
        match action {
            Action::Quit | Action::Back
                if !quitting
                    && self.front == super::key::Front::Terminal
                    && self.snapshot.unsaved > 0 =>
            {
                self.ask_before_quitting();
                Vec::new()
            }
            Action::Quit | Action::Back | Action::Interrupt => {
                self.quit = true;
                vec![Command::Quit]
            }
            Action::TogglePause => {
                self.paused = !self.paused;
                vec![Command::Pause(self.paused)]
            }
            Action::Step => {
                if self.speed != Speed::Step && !self.paused {
                    self.paused = true;
                    return vec![Command::Pause(true), Command::Step];
                }
                vec![Command::Step]
            }
            Action::Faster | Action::Slower => {
                self.speed = if action == Action::Faster {
                    self.speed.faster()
                } else {
                    self.speed.slower()
                };
                self.speed_changed = true;
                vec![Command::SetSpeed(self.speed)]
            }
            Action::ToggleOpponent => {
                let at = self.opponents.iter().position(|&o| o == self.opponent);
                self.opponent = match at {
                    Some(i) => self.opponents[(i + 1) % self.opponents.len()],
                    None => self.opponents.first().copied().unwrap_or(Opponent::Perfect),
                };
                self.message = Some(format!("opponent: {} from the next game", self.opponent));
                vec![Command::SetOpponent(self.opponent)]
            }
            Action::Reset if confirming => {
                self.message = Some("machine reset: every box refilled".into());
                vec![Command::Reset]
            }
            Action::Reset => {
                self.confirm_reset = true;
                self.message = Some("reset the machine? r again to refill every box".into());
                Vec::new()
            }
            Action::Save => vec![Command::Save(self.save_path.clone())],
            Action::PlayIt if self.can_play => {
                // The trainer stops and hands the session over; watching resumes after.
                self.to_play = true;
                vec![Command::Quit]
            }
            Action::PlayIt => {
                self.message = Some(
                    "to play this machine: save it (s), then open it under “play against it”"
                        .into(),
                );
                Vec::new()
            }
            Action::ToggleHelp => {
                self.show_help = true;
                Vec::new()
            }
            _ => Vec::new(),
        }
    }
}
