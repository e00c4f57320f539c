//! `operate` on a terminal: the operator's screen ([`crate::view::operate::OperateApp`]) drawn
//! as the session goes, the line typed handed to the session at Enter.

use std::time::{Duration, Instant};

use anyhow::Result;

use super::{FPS, keys_until, suspend, with_terminal};
use crate::view::key::{Front, Mode};
use crate::view::operate::OperateApp;
use crate::view::render;

/// A session at the real boxes, as the screen sees it.
pub trait Desk {
    /// What the operator does now, in lines.
    fn lines(&self) -> Vec<String>;
    /// A line typed: what it showed, or the operator's mistake (`Ok(None)`: the session ends);
    /// an error ends the session (a record that cannot be written).
    fn submit(&mut self, line: &str) -> Result<Option<Result<Vec<String>, String>>>;
}

/// Runs the operator's screen over `desk` until the session ends.
pub fn operate_screen(desk: &mut impl Desk) -> Result<()> {
    let mut app = OperateApp::default();
    with_terminal(|terminal| {
        let frame = Duration::from_secs(1) / FPS;
        loop {
            suspend::if_asked(terminal)?;
            let lines = desk.lines();
            terminal.draw(|f| render::operate(f, &app, &lines, Front::Terminal))?;
            let mut failed = None;
            let done = keys_until(Instant::now() + frame, Mode::Operate, |action| {
                if let Some(line) = app.update(action) {
                    match desk.submit(&line) {
                        Ok(Some(result)) => app.answered(result),
                        Ok(None) => app.quit = true,
                        Err(e) => {
                            failed = Some(e);
                            app.quit = true;
                        }
                    }
                }
                app.quit
            })?;
            if let Some(e) = failed {
                return Err(e);
            }
            if done {
                return Ok(());
            }
        }
    })
}
