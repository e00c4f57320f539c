//! matchbox: matchbox learning machines (Michie's MENACE, Gardner's HER) and the games they learn.
//!
//! The core (`game`, `learn`, `players`, `solve`) does no terminal or file I/O; neither do `chart`
//! and `labels`, which return image and SVG data. `store` reads and writes YAML matchbox files (and
//! saves every file atomically), `tui` owns the terminal screens, `cli` is the command line.

pub mod chart;
pub mod cli;
pub mod game;
pub mod labels;
pub mod learn;
pub mod players;
pub mod solve;
pub mod store;
pub mod text;
pub mod tui;
