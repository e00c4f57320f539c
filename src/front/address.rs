//! The browser page's settings, read from its address with the command line's names and
//! defaults (a link a teacher sends opens the same run), and the match they ask for. The page
//! decodes its address (`UrlSearchParams`) and hands the pairs here.

use crate::games::GameKind;
use crate::learn::real::operate::FirstBox;
use crate::learn::{
    GameDefaults, MachineSpec, MatchSpec, Preset, Reinforcement, StageBeads, SymmetryMode,
};
use crate::palette::BeadColours;
use crate::players::Opponent;
use crate::view::app::Speed;

/// Which screen the page shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Screen {
    Watch,
    Play,
    /// Beside a real machine of matchboxes: the operator's screen (`matchbox operate`).
    Operate,
}

/// The screens, by their names in the address; the first is the default.
const SCREENS: [(&str, Screen); 3] = [
    ("watch", Screen::Watch),
    ("play", Screen::Play),
    ("operate", Screen::Operate),
];
const COLOURS: [(&str, BeadColours); 2] = [
    ("by-arrow", BeadColours::ByArrow),
    ("by-cell", BeadColours::ByCell),
];
const FIRST_BOX: [(&str, FirstBox); 2] =
    [("revive", FirstBox::Revive), ("resign", FirstBox::Resign)];

/// The value of `key` among `options` (the first where the address gives none), or why not.
fn one_of<T: Copy>(key: &str, value: Option<&str>, options: &[(&str, T)]) -> Result<T, String> {
    let Some(v) = value else {
        return Ok(options[0].1);
    };
    match options.iter().find(|(name, _)| *name == v) {
        Some(&(_, t)) => Ok(t),
        None => {
            let names: Vec<&str> = options.iter().map(|(n, _)| *n).collect();
            let (last, rest) = names.split_last().expect("options");
            let v = crate::text::quote(v);
            Err(format!("{key}: `{v}`: use {} or {last}", rest.join(", ")))
        }
    }
}

/// Everything the address may set.
#[derive(Clone, Debug)]
pub struct Settings {
    pub kind: GameKind,
    pub screen: Screen,
    /// The machine's side.
    pub side: Option<String>,
    /// The person's side on the play screen.
    pub person: Option<String>,
    pub opponent: Opponent,
    pub preset: Option<Preset>,
    pub beads: Option<StageBeads>,
    pub reinforcement: Option<Reinforcement>,
    pub symmetry: Option<SymmetryMode>,
    pub seed: u64,
    pub speed: Speed,
    /// The operator's screen: the bead colours the labels were printed with, and the rule for
    /// an emptied first box.
    pub colours: BeadColours,
    pub first_box: FirstBox,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            kind: GameKind::Hexapawn(crate::games::hexapawn::Size::GARDNER),
            screen: Screen::Watch,
            side: None,
            person: None,
            opponent: Opponent::Perfect,
            preset: None,
            beads: None,
            reinforcement: None,
            symmetry: None,
            seed: 1962,
            speed: Speed::Slow,
            colours: BeadColours::ByArrow,
            first_box: FirstBox::Revive,
        }
    }
}

impl Settings {
    /// The settings of an address's query, as decoded (key, value) pairs; a bad value is
    /// refused in one line naming its key. The first of a repeated key counts.
    pub fn from_pairs(pairs: &[(String, String)]) -> Result<Settings, String> {
        let get = |key: &str| {
            pairs
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.as_str())
        };
        let mut s = Settings::default();
        let bad = |key: &str, e: String| format!("{key}: {e}");
        if let Some(name) = get("game") {
            s.kind = GameKind::parse(name, get("size")).map_err(|e| bad("game", e.to_string()))?;
        }
        s.kind = s
            .kind
            .with_rules(
                get("swap") == Some("1"),
                get("handicap").and_then(|h| h.parse().ok()),
            )
            .map_err(|e| bad("swap", e.to_string()))?;
        s.screen = one_of("screen", get("screen"), &SCREENS)?;
        s.colours = one_of("colours", get("colours"), &COLOURS)?;
        s.first_box = one_of("first_box", get("first_box"), &FIRST_BOX)?;
        // `side` is the machine's side, as `--side` on the command line; `as` the person's, as
        // `play --as`. A name of history (`him`) gives the machine its side, as on the command
        // line.
        let alias = get("game").and_then(crate::games::alias_side);
        s.person = get("as").map(str::to_string);
        s.side = match (get("side"), &s.person) {
            (Some(side), _) => Some(side.to_string()),
            (None, None) => alias.map(str::to_string),
            (None, Some(_)) => None,
        };
        if let Some(o) = get("opponent") {
            s.opponent = o.parse().map_err(|e: String| bad("opponent", e))?;
        }
        if let Some(p) = get("preset") {
            s.preset = Some(p.parse().map_err(|e| bad("preset", format!("{e}")))?);
        }
        if let Some(b) = get("beads") {
            s.beads = Some(b.parse().map_err(|e| bad("beads", format!("{e}")))?);
        }
        if let Some(r) = get("reinforcement") {
            s.reinforcement = Some(
                r.parse()
                    .map_err(|e| bad("reinforcement", format!("{e}")))?,
            );
        }
        if let Some(m) = get("symmetry") {
            s.symmetry = Some(m.parse().map_err(|e| bad("symmetry", format!("{e}")))?);
        }
        if let Some(n) = get("seed") {
            s.seed = n
                .parse()
                .map_err(|_| bad("seed", format!("`{n}` is not a whole number")))?;
        }
        if let Some(v) = get("speed") {
            s.speed = v.parse().map_err(|e| bad("speed", e))?;
        }
        Ok(s)
    }

    /// The match the settings ask for, its learner fresh: the person against it on the play
    /// screen, else the opponent asked for.
    pub fn match_spec<G: GameDefaults>(&self, game: &G) -> Result<MatchSpec<G>, String> {
        let opponent = match self.screen {
            Screen::Play | Screen::Operate => Opponent::Human,
            Screen::Watch => self.opponent,
        };
        Ok(MatchSpec::fresh(self.machine_spec(game)?, opponent))
    }

    /// The learner the settings ask for: on the side `side` names, or the other side than the
    /// person's (`as`).
    pub fn machine_spec<G: GameDefaults>(&self, game: &G) -> Result<MachineSpec, String> {
        let parse = |key: &str, t: &Option<String>| match t {
            Some(t) => game
                .parse_side(t)
                .map(Some)
                .ok_or_else(|| format!("{key}: `{t}` is not a side of {}", game.name())),
            None => Ok(None),
        };
        let side = match (parse("side", &self.side)?, parse("as", &self.person)?) {
            (Some(m), Some(p)) if m == p => {
                return Err(format!(
                    "as: you and the machine cannot both play {}",
                    game.side_name(m)
                ));
            }
            (Some(m), _) => Some(m),
            (None, p) => p.map(|p| p.other()),
        };
        Ok(MachineSpec {
            side,
            symmetry: self.symmetry,
            forced: None,
            preset: self.preset,
            reinforcement: self.reinforcement,
            beads: self.beads.clone(),
            seed: self.seed,
            lazy: !crate::game::enumerable(game),
            max_memory: None,
        })
    }
}
