//! matchbox: matchbox learning machines (Michie's MENACE, Gardner's HER) and the games they learn.
//!
//! Layers, from the bottom (a module imports only from its own layer or below):
//! 1. `rng`, `palette`, `text`, `words`: the generator, the arrow colours and letters, number
//!    formatting, the map keyed by a packed position;
//! 2. the core, with no terminal or file I/O: `game` (the [`game::Game`] trait and the game
//!    graph), `solve` (exact values), `players` (each chooses a move from a position), `learn`
//!    (boxes, beads, reinforcement; the compiled table engine and the lazy position engine);
//! 3. `store` (YAML and binary files, atomic saves), `chart` (plotters), `labels` (SVG, PDF),
//!    `view` (the screens as ratatui widgets), `film` (a screen's frames as an animated GIF);
//! 4. `games`: one folder per game, each holding its rules (core), its defaults, its board on the
//!    screen and on a label, and the registry ([`games::GameKind`]) that names them;
//! 5. `front` (what every front end shares: the page's address as a match), `cli` (the command
//!    line: clap stays here) and `tui` (the terminal).

pub mod cartpole;
pub mod chart;
#[cfg(feature = "class")]
pub mod class;
#[cfg(feature = "native")]
pub mod cli;
pub mod film;
pub mod front;
pub mod game;
pub mod games;
pub mod labels;
pub mod learn;
pub mod palette;
pub mod par;
pub mod players;
pub mod rng;
pub mod solve;
pub mod store;
pub mod text;
#[cfg(feature = "native")]
pub mod tui;
pub mod view;
pub mod words;
