//! A key as the screens understand it, from any front end: the terminal's crossterm events and
//! the browser's keyboard events both become a [`Key`], and one pure function
//! ([`action_for`]) maps it to an action, from the one key table ([`BINDINGS`]).

/// Which key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeyCode {
    Char(char),
    Enter,
    Esc,
    Backspace,
    Left,
    Right,
    Up,
    Down,
    PageUp,
    PageDown,
    Tab,
    /// Any other key (a function key, …): no action.
    Other,
}

/// A key pressed, with whether Control was held.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    pub code: KeyCode,
    pub ctrl: bool,
}

impl Key {
    /// The key alone.
    pub fn plain(code: KeyCode) -> Key {
        Key { code, ctrl: false }
    }
    /// The key with Control held.
    pub fn ctrl(code: KeyCode) -> Key {
        Key { code, ctrl: true }
    }
}

impl From<KeyCode> for Key {
    fn from(code: KeyCode) -> Key {
        Key::plain(code)
    }
}

impl Key {
    /// The key from a browser's `KeyboardEvent.key` name (`"ArrowUp"`, `" "`, `"q"`).
    pub fn from_dom(name: &str, ctrl: bool) -> Key {
        let code = match name {
            "Enter" => KeyCode::Enter,
            "Escape" => KeyCode::Esc,
            "Backspace" => KeyCode::Backspace,
            "ArrowLeft" => KeyCode::Left,
            "ArrowRight" => KeyCode::Right,
            "ArrowUp" => KeyCode::Up,
            "ArrowDown" => KeyCode::Down,
            "PageUp" => KeyCode::PageUp,
            "PageDown" => KeyCode::PageDown,
            "Tab" => KeyCode::Tab,
            _ => {
                let mut chars = name.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => KeyCode::Char(c),
                    _ => KeyCode::Other,
                }
            }
        };
        Key { code, ctrl }
    }

    /// The key's `KeyboardEvent.key` name, for the page's buttons (which send it as a key press).
    pub fn dom_name(self) -> String {
        match self.code {
            KeyCode::Char(c) => c.to_string(),
            KeyCode::Enter => "Enter".into(),
            KeyCode::Esc => "Escape".into(),
            KeyCode::Backspace => "Backspace".into(),
            KeyCode::Left => "ArrowLeft".into(),
            KeyCode::Right => "ArrowRight".into(),
            KeyCode::Up => "ArrowUp".into(),
            KeyCode::Down => "ArrowDown".into(),
            KeyCode::PageUp => "PageUp".into(),
            KeyCode::PageDown => "PageDown".into(),
            KeyCode::Tab => "Tab".into(),
            KeyCode::Other => "Unidentified".into(),
        }
    }
}

/// What a key asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Quit,
    TogglePause,
    Step,
    Faster,
    Slower,
    ToggleOpponent,
    Reset,
    Save,
    ToggleHelp,
    Up,
    Down,
    Enter,
    Type(char),
    Backspace,
    /// Browse the machine's boxes: this many on (or back, when negative).
    Browse(i32),
    /// Go to a box by its number (`#`, then digits and Enter).
    GoTo,
    /// Esc: close what is open (the box number prompt, the box browser), or quit.
    Back,
    /// Any other key: it closes the help.
    Other,
    /// Ctrl-C: quits at once, whatever is open.
    Interrupt,
    /// A click or a tap on the `i`-th move offered: it is played.
    Choose(usize),
    /// A click or a tap on box `b` (from 0) of the machine panel: the browser shows it.
    BrowseTo(usize),
    /// Ctrl-U: the move being typed is cleared.
    ClearInput,
    /// `m`: the whole machine on one screen (every box, grouped by move), or back.
    ToggleWhole,
    /// `p` while watching: play the machine yourself, then back to watching.
    PlayIt,
    /// A click or a tap on the board, at column and row of its drawing: the square there is the
    /// move's origin or its destination.
    Square(u16, u16),
}

/// Which screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Watch,
    Play,
    /// Watching a learner balance the cart-pole (`watch cartpole`).
    Pole,
    /// Beside a real machine (`operate`): what the operator types, a line at a time.
    Operate,
}

/// Where a screen is shown: the page has no quitting (a tab is closed) and no Ctrl-C.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Front {
    #[default]
    Terminal,
    Page,
}

/// The screens a binding works on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum On {
    Watch,
    Play,
    /// Watch and play.
    Both,
    /// The cart-pole's screen.
    Pole,
    /// The live screens that run by themselves: watching a machine, and the cart-pole.
    Live,
    /// Every screen.
    Every,
    /// The screens that run or play by themselves (not the operator's, where letters are typed).
    Screens,
    /// The operator's screen.
    Operate,
}

impl On {
    fn holds(self, mode: Mode) -> bool {
        matches!(
            (self, mode),
            (On::Every, _)
                | (On::Both, Mode::Watch | Mode::Play)
                | (On::Watch, Mode::Watch)
                | (On::Play, Mode::Play)
                | (On::Pole, Mode::Pole)
                | (On::Live, Mode::Watch | Mode::Pole)
                | (On::Screens, Mode::Watch | Mode::Play | Mode::Pole)
                | (On::Operate, Mode::Operate)
        )
    }
}

/// One line of the key table: keys and what each does, and every way it is described.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Binding {
    pub on: On,
    /// Each key with its action (several keys for one line: `[ ] { }`).
    pub keys: &'static [(Key, Action)],
    /// The keys as the help names them.
    pub label: &'static str,
    /// What they do, for the help overlay and the README.
    pub help: &'static str,
    /// The words of the key bars it is named in (the live screen's, the box browser's, …).
    pub bars: &'static [Bar],
    /// The page's buttons: a label and the key it presses.
    pub buttons: &'static [(&'static str, Key)],
    /// Only in a terminal (the page closes with its tab).
    pub terminal_only: bool,
}

const fn c(ch: char) -> Key {
    Key {
        code: KeyCode::Char(ch),
        ctrl: false,
    }
}

const fn k(code: KeyCode) -> Key {
    Key { code, ctrl: false }
}

const fn ctrl(ch: char) -> Key {
    Key {
        code: KeyCode::Char(ch),
        ctrl: true,
    }
}

/// Where a key bar is shown: the live screen, or what the box browser has open over it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Panel {
    #[default]
    Live,
    /// One box, browsed.
    Box,
    /// The whole machine on one screen.
    Whole,
    /// A box's number being typed.
    Prompt,
}

/// When a key bar names a binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shown {
    /// On the live screen.
    Live,
    /// On the live screen where the machine has boxes to browse (not a stand-in's turn).
    WithBoxes,
    /// On the live play screen reached from watching (Esc goes back to it).
    FromWatch,
    /// On a live screen not reached from watching.
    Alone,
    /// Over the live screen, with this open.
    Panel(Panel),
}

/// Words of a key bar: `{move}` stands for an example move of the game; the rank says how narrow
/// a screen keeps them (1: the narrowest).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bar {
    pub words: &'static str,
    pub rank: u8,
    pub shown: Shown,
}

const fn bar(words: &'static str, rank: u8) -> Bar {
    shown(words, rank, Shown::Live)
}

const fn shown(words: &'static str, rank: u8, shown: Shown) -> Bar {
    Bar { words, rank, shown }
}

/// What a key bar is drawn for: which panel is open, whether the machine plays the move to come
/// (its boxes can be browsed), whether play was reached from watching, and a move of the game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BarFor {
    pub panel: Panel,
    pub machine_plays: bool,
    pub from_watch: bool,
    pub example: String,
}

impl BarFor {
    /// The live watch screen's bar (the machine always has boxes to browse there).
    pub fn watch() -> BarFor {
        BarFor {
            machine_plays: true,
            ..BarFor::default()
        }
    }

    fn shows(&self, shown: Shown) -> bool {
        let live = self.panel == Panel::Live;
        match shown {
            Shown::Live => live,
            Shown::WithBoxes => live && self.machine_plays,
            Shown::FromWatch => live && self.from_watch,
            Shown::Alone => live && !self.from_watch,
            Shown::Panel(p) => self.panel == p,
        }
    }
}

const STEP: &[(Key, Action)] = &[(c('n'), Action::Step), (k(KeyCode::Right), Action::Step)];
const SPEED: &[(Key, Action)] = &[
    (c('+'), Action::Faster),
    (c('='), Action::Faster),
    (c('-'), Action::Slower),
];

const BROWSE: &[(Key, Action)] = &[
    (c('['), Action::Browse(-1)),
    (c(']'), Action::Browse(1)),
    (c('{'), Action::Browse(-10)),
    (k(KeyCode::PageUp), Action::Browse(-10)),
    (c('}'), Action::Browse(10)),
    (k(KeyCode::PageDown), Action::Browse(10)),
];

/// Every key of the screens, once: the key function ([`action_for`]), the help overlay, the
/// watch screen's key bar, the page's buttons and the README's key list all come from here.
pub const BINDINGS: &[Binding] = &[
    Binding {
        on: On::Live,
        keys: &[(c(' '), Action::TogglePause)],
        label: "space",
        help: "pause / resume",
        bars: &[bar("space pause", 1)],
        buttons: &[("pause", c(' '))],
        terminal_only: false,
    },
    Binding {
        on: On::Watch,
        keys: STEP,
        label: "n or →",
        help: "one move (at step speed, or while paused)",
        bars: &[bar("n step", 4)],
        buttons: &[("step", c('n'))],
        terminal_only: false,
    },
    Binding {
        on: On::Watch,
        keys: SPEED,
        label: "+ / -",
        help: "faster / slower: step, slow, 1, 10, 100 games/s, flat out",
        bars: &[bar("+/- speed", 2)],
        buttons: &[("faster", c('+')), ("slower", c('-'))],
        terminal_only: false,
    },
    Binding {
        on: On::Watch,
        keys: &[(c('o'), Action::ToggleOpponent)],
        label: "o",
        help: "opponent: perfect, random or the rival (from the next game)",
        bars: &[bar("o opponent", 2)],
        buttons: &[("opponent", c('o'))],
        terminal_only: false,
    },
    Binding {
        on: On::Watch,
        keys: &[(c('p'), Action::PlayIt)],
        label: "p",
        help: "play the machine yourself (Esc: back to watching)",
        bars: &[bar("p play", 1)],
        buttons: &[("play it", c('p'))],
        terminal_only: false,
    },
    Binding {
        on: On::Watch,
        keys: &[(c('r'), Action::Reset)],
        label: "r",
        help: "reset the machine (asks first; same seed)",
        bars: &[bar("r reset", 4)],
        buttons: &[("reset", c('r'))],
        terminal_only: false,
    },
    Binding {
        on: On::Watch,
        keys: &[(c('s'), Action::Save)],
        label: "s",
        help: "save the machine (YAML, atomic)",
        bars: &[bar("s save", 2)],
        buttons: &[("save", c('s'))],
        terminal_only: false,
    },
    Binding {
        on: On::Play,
        keys: &[
            (k(KeyCode::Up), Action::Up),
            (k(KeyCode::Down), Action::Down),
        ],
        label: "↑ / ↓",
        help: "choose a move",
        bars: &[bar("↑↓ choose", 1)],
        buttons: &[("↑", k(KeyCode::Up)), ("↓", k(KeyCode::Down))],
        terminal_only: false,
    },
    Binding {
        on: On::Play,
        keys: &[(k(KeyCode::Enter), Action::Enter)],
        label: "Enter",
        help: "play it (or start the next game)",
        bars: &[bar("Enter play", 1)],
        buttons: &[("Enter", k(KeyCode::Enter))],
        terminal_only: false,
    },
    Binding {
        on: On::Play,
        keys: &[],
        label: "b1-b2",
        help: "or type a move, then Enter",
        bars: &[bar("type {move}", 1)],
        buttons: &[],
        terminal_only: false,
    },
    Binding {
        on: On::Play,
        keys: &[
            (k(KeyCode::Backspace), Action::Backspace),
            (ctrl('u'), Action::ClearInput),
            (ctrl('U'), Action::ClearInput),
        ],
        label: "Backspace",
        help: "edit what you typed (Ctrl-U: clear it)",
        bars: &[shown("Backspace edit", 1, Shown::Panel(Panel::Prompt))],
        buttons: &[],
        terminal_only: false,
    },
    Binding {
        on: On::Both,
        keys: BROWSE,
        label: "[ ] { }",
        help: "browse the boxes: 1 or 10 back / on (PgUp / PgDn)",
        bars: &[
            shown("[ ] boxes", 3, Shown::WithBoxes),
            shown("[ ] next box", 1, Shown::Panel(Panel::Box)),
            shown("{ } 10 boxes", 1, Shown::Panel(Panel::Box)),
            shown("PgUp PgDn pages", 1, Shown::Panel(Panel::Whole)),
        ],
        buttons: &[("[ box", c('[')), ("box ]", c(']'))],
        terminal_only: false,
    },
    Binding {
        on: On::Both,
        keys: &[(c('#'), Action::GoTo)],
        label: "# 12 Enter",
        help: "go to box 12",
        bars: &[
            shown("# number", 1, Shown::Panel(Panel::Box)),
            shown(
                "click a box or # number to open it",
                1,
                Shown::Panel(Panel::Whole),
            ),
            shown("Enter go", 1, Shown::Panel(Panel::Prompt)),
        ],
        buttons: &[],
        terminal_only: false,
    },
    Binding {
        on: On::Watch,
        keys: &[
            (c('m'), Action::ToggleWhole),
            (k(KeyCode::Tab), Action::ToggleWhole),
        ],
        label: "m or Tab",
        help: "the whole machine: every box by move (pages: PgUp / PgDn)",
        bars: &[
            bar("m machine", 1),
            shown("m back", 1, Shown::Panel(Panel::Whole)),
        ],
        buttons: &[
            ("machine", c('m')),
            ("page ↑", k(KeyCode::PageUp)),
            ("page ↓", k(KeyCode::PageDown)),
        ],
        terminal_only: false,
    },
    Binding {
        on: On::Play,
        keys: &[(k(KeyCode::Tab), Action::ToggleWhole)],
        label: "Tab",
        help: "the whole machine: every box by move (pages: PgUp / PgDn)",
        bars: &[
            shown("Tab machine", 3, Shown::WithBoxes),
            shown("Tab back", 1, Shown::Panel(Panel::Whole)),
        ],
        buttons: &[("machine", k(KeyCode::Tab))],
        terminal_only: false,
    },
    Binding {
        on: On::Watch,
        keys: &[(k(KeyCode::Esc), Action::Back)],
        label: "Esc",
        help: "back to the live box (or quit)",
        bars: &[
            shown("Esc back to the live box", 1, Shown::Panel(Panel::Box)),
            shown("Esc back", 1, Shown::Panel(Panel::Whole)),
            shown("Esc cancel", 1, Shown::Panel(Panel::Prompt)),
        ],
        buttons: &[("esc", k(KeyCode::Esc))],
        terminal_only: false,
    },
    Binding {
        on: On::Play,
        keys: &[(k(KeyCode::Esc), Action::Back)],
        label: "Esc",
        help: "back to the live box, or to watching, or quit",
        bars: &[
            shown("Esc watch", 1, Shown::FromWatch),
            shown("Esc back to the live box", 1, Shown::Panel(Panel::Box)),
            shown("Esc back", 1, Shown::Panel(Panel::Whole)),
            shown("Esc cancel", 1, Shown::Panel(Panel::Prompt)),
        ],
        buttons: &[("esc", k(KeyCode::Esc))],
        terminal_only: false,
    },
    Binding {
        on: On::Pole,
        keys: STEP,
        label: "n or →",
        help: "one push (while paused)",
        bars: &[bar("n one push", 3)],
        buttons: &[("one push", c('n'))],
        terminal_only: false,
    },
    Binding {
        on: On::Pole,
        keys: SPEED,
        label: "+ / -",
        help: "faster / slower: real time (50 pushes a second), ×4, ×20, ×100, flat out",
        bars: &[bar("+/- speed", 1)],
        buttons: &[("faster", c('+')), ("slower", c('-'))],
        terminal_only: false,
    },
    Binding {
        on: On::Pole,
        keys: &[(c('r'), Action::Reset)],
        label: "r",
        help: "start again: a fresh learner (same seed)",
        bars: &[bar("r again", 3)],
        buttons: &[("again", c('r'))],
        terminal_only: false,
    },
    Binding {
        on: On::Pole,
        keys: &[(c('s'), Action::Save)],
        label: "s",
        help: "save the BOXES machine (YAML, atomic)",
        bars: &[bar("s save", 2)],
        buttons: &[("save", c('s'))],
        terminal_only: false,
    },
    Binding {
        on: On::Operate,
        keys: &[(k(KeyCode::Enter), Action::Enter)],
        label: "Enter",
        help: "do what is typed: a bead's colour (name or letter), the visitor's move, undo, audit N, beads, resign, quit; alone, the next game",
        bars: &[bar("Enter do it", 1)],
        buttons: &[("enter", k(KeyCode::Enter))],
        terminal_only: false,
    },
    Binding {
        on: On::Operate,
        keys: &[
            (k(KeyCode::Backspace), Action::Backspace),
            (ctrl('u'), Action::ClearInput),
            (ctrl('U'), Action::ClearInput),
            (k(KeyCode::Esc), Action::ClearInput),
        ],
        label: "Backspace",
        help: "edit what you typed (Ctrl-U or Esc: clear it)",
        bars: &[bar("Backspace edit", 3)],
        buttons: &[],
        terminal_only: false,
    },
    Binding {
        on: On::Operate,
        keys: &[
            (ctrl('c'), Action::Interrupt),
            (ctrl('C'), Action::Interrupt),
        ],
        label: "Ctrl-C",
        help: "end the session (the record is kept; or type quit)",
        bars: &[bar("Ctrl-C end", 2)],
        buttons: &[],
        terminal_only: true,
    },
    Binding {
        on: On::Every,
        keys: &[(c('?'), Action::ToggleHelp)],
        label: "?",
        help: "this help: the keys and what every symbol means",
        bars: &[bar("? help", 1)],
        buttons: &[("help", c('?'))],
        terminal_only: false,
    },
    Binding {
        on: On::Screens,
        keys: &[
            (c('q'), Action::Quit),
            (ctrl('c'), Action::Interrupt),
            (ctrl('C'), Action::Interrupt),
        ],
        label: "q / Ctrl-C",
        help: "quit",
        bars: &[
            shown("q quit", 2, Shown::Alone),
            shown("q quit", 1, Shown::Panel(Panel::Box)),
            shown("q quit", 1, Shown::Panel(Panel::Whole)),
        ],
        buttons: &[],
        terminal_only: true,
    },
];

/// The lines of the key table for a screen, where it is shown.
pub fn bindings(mode: Mode, front: Front) -> impl Iterator<Item = &'static Binding> {
    BINDINGS
        .iter()
        .filter(move |b| b.on.holds(mode) && (front == Front::Terminal || !b.terminal_only))
}

/// The action for a key press on a screen, if any: from [`BINDINGS`], then the typing each
/// screen takes (a box number's digits while watching; a move's letters while playing).
pub fn action_for(key: Key, mode: Mode) -> Option<Action> {
    let bound = bindings(mode, Front::Terminal)
        .flat_map(|b| b.keys.iter())
        .find(|(k, _)| *k == key);
    if let Some(&(_, action)) = bound {
        return Some(action);
    }
    if key.ctrl {
        return None;
    }
    Some(match (mode, key.code) {
        (Mode::Watch, KeyCode::Char(c)) if c.is_ascii_digit() => Action::Type(c),
        // The operator types words: colours, moves, commands (any letter, `?` aside).
        (Mode::Operate, KeyCode::Char(c)) if !c.is_control() => Action::Type(c),
        (Mode::Watch, KeyCode::Enter) => Action::Enter,
        (Mode::Watch, KeyCode::Backspace) => Action::Backspace,
        // Spaces and commas: an Arimaa turn is several steps (`Dc4w Dd4s`).
        (Mode::Play, KeyCode::Char(c)) if c.is_ascii_alphanumeric() || "-x:, ".contains(c) => {
            Action::Type(c)
        }
        _ => Action::Other,
    })
}

/// The keys of a screen for the help overlay: each line's keys and what they do.
pub fn key_table(mode: Mode, front: Front) -> Vec<(&'static str, &'static str)> {
    bindings(mode, front).map(|b| (b.label, b.help)).collect()
}

/// A screen's key bar at each width, widest first, from the key table (only the keys that act
/// where it is shown): the words ranked 1 to 4, then 1 to 3, …, to 1, each parted by ` · ` and
/// then, where that is too wide, by two spaces.
pub fn key_bars(mode: Mode, front: Front, at: &BarFor) -> Vec<String> {
    let mut bars: Vec<String> = Vec::new();
    for rank in (1..=4).rev() {
        let words: Vec<String> = bindings(mode, front)
            .flat_map(|b| b.bars.iter())
            .filter(|w| w.rank <= rank && at.shows(w.shown))
            .map(|w| w.words.replace("{move}", &at.example))
            .collect();
        for gap in [" · ", "  "] {
            let bar = format!(" {}", words.join(gap));
            if !bars.contains(&bar) {
                bars.push(bar);
            }
        }
    }
    bars
}

/// The page's buttons for a screen: a label and the `KeyboardEvent.key` each sends.
pub fn buttons(mode: Mode) -> Vec<(&'static str, String)> {
    bindings(mode, Front::Page)
        .flat_map(|b| b.buttons.iter())
        .map(|&(label, key)| (label, key.dom_name()))
        .collect()
}

/// The key list of a screen as a Markdown table, as the README shows it.
pub fn markdown(mode: Mode) -> String {
    let mut out = String::from("| key | does |\n|---|---|\n");
    for (label, help) in key_table(mode, Front::Terminal) {
        out.push_str(&format!("| {label} | {help} |\n"));
    }
    out
}
