//! The screens as ratatui widgets, with no terminal: what `watch` and `play` hold
//! ([`session`], [`app`], [`play`]), how keys and clicks become actions, and how every panel is
//! drawn ([`render`]) on any ratatui backend — the terminal's ([`crate::tui`]) or a browser
//! page's. A game draws its own board by implementing [`board::BoardView`] in its folder.

pub mod app;
pub mod board;
pub mod charts;
pub mod drive;
pub mod key;
pub mod meter;
pub mod operate;
pub mod play;
pub mod pole;
pub mod render;
pub mod session;
pub mod switch;
pub mod theme;
pub mod whole;
