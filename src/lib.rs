//! matchbox: matchbox learning machines (Michie's MENACE, Gardner's HER) and the games they learn.
//!
//! The core (`game`, `learn`, `players`, `solve`) does no terminal or file I/O; `store` reads and
//! writes YAML matchbox files, `cli` is the command line.

pub mod chart;
pub mod cli;
pub mod game;
pub mod labels;
pub mod learn;
pub mod players;
pub mod solve;
pub mod store;
pub mod tui;
