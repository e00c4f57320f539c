//! The page's settings, read from its address with the command line's names and defaults: a
//! link a teacher sends opens the same run.

use matchbox::games::GameKind;
use matchbox::learn::{
    GameDefaults, Machine, MachineSpec, Preset, Reinforcement, StageBeads, SymmetryMode,
};
use matchbox::players::Opponent;
use matchbox::view::app::Speed;

/// Which screen the page shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Screen {
    Watch,
    Play,
}

/// Everything the address may set.
#[derive(Clone, Debug)]
pub struct Settings {
    pub kind: GameKind,
    pub screen: Screen,
    pub side: Option<String>,
    pub opponent: Opponent,
    pub preset: Option<Preset>,
    pub beads: Option<StageBeads>,
    pub reinforcement: Option<Reinforcement>,
    pub symmetry: Option<SymmetryMode>,
    pub seed: u64,
    pub speed: Speed,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            kind: GameKind::Hexapawn(matchbox::games::hexapawn::Size::GARDNER),
            screen: Screen::Watch,
            side: None,
            opponent: Opponent::Perfect,
            preset: None,
            beads: None,
            reinforcement: None,
            symmetry: None,
            seed: 1962,
            speed: Speed::Slow,
        }
    }
}

/// One `key=value` pair of an address's query, decoded (`+` and `%xx`).
fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("");
                match u8::from_str_radix(hex, 16) {
                    Ok(b) => {
                        out.push(b);
                        i += 2;
                    }
                    Err(_) => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn speed(s: &str) -> Result<Speed, String> {
    Ok(match s {
        "step" => Speed::Step,
        "slow" => Speed::Slow,
        "1" => Speed::Games1,
        "10" => Speed::Games10,
        "100" => Speed::Games100,
        "flat-out" => Speed::FlatOut,
        _ => {
            return Err(format!(
                "speed `{s}`: use step, slow, 1, 10, 100 or flat-out"
            ));
        }
    })
}

impl Settings {
    /// The settings of a query string (`?game=hexapawn&seed=3`); a bad value is refused in one
    /// line naming its key.
    pub fn from_query(query: &str) -> Result<Settings, String> {
        let pairs: Vec<(String, String)> = query
            .trim_start_matches('?')
            .split('&')
            .filter(|p| !p.is_empty())
            .map(|p| {
                let (k, v) = p.split_once('=').unwrap_or((p, ""));
                (decode(k), decode(v))
            })
            .collect();
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
        s.screen = match get("screen") {
            None | Some("watch") => Screen::Watch,
            Some("play") => Screen::Play,
            Some(other) => return Err(bad("screen", format!("`{other}`: use watch or play"))),
        };
        s.side = get("side").map(str::to_string);
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
            s.speed = speed(v).map_err(|e| bad("speed", e))?;
        }
        Ok(s)
    }

    /// The learner the settings ask for, fresh. On the play screen the person takes the side
    /// `side` names and the machine the other.
    pub fn machine<G: GameDefaults>(&self, game: &G) -> Result<Machine<G>, String> {
        let side = match &self.side {
            Some(t) => Some(
                game.parse_side(t)
                    .ok_or_else(|| format!("side: `{t}` is not a side of {}", game.name()))?,
            ),
            None => None,
        };
        let side = match (self.screen, side) {
            (Screen::Play, Some(person)) => Some(person.other()),
            (_, s) => s,
        };
        let spec = MachineSpec {
            side,
            symmetry: self.symmetry,
            forced: None,
            preset: self.preset,
            reinforcement: self.reinforcement,
            beads: self.beads.clone(),
            seed: self.seed,
            lazy: !matchbox::game::enumerable(game),
        };
        spec.build(game).map_err(|e| e.to_string())
    }
}
