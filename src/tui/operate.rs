//! `operate` on a terminal: the operator's screen ([`crate::view::operate::OperateApp`]) drawn
//! as the session goes, the line typed handed to the session at Enter.

use std::time::{Duration, Instant};

use anyhow::Result;

use super::{FPS, keys_until, suspend, with_terminal};
use crate::view::key::{Front, Mode};
use crate::view::operate::{Desk, OperateApp};
use crate::view::render;

/// Runs the operator's screen over `desk` until the session ends.
pub fn operate_screen(desk: &mut dyn Desk) -> Result<()> {
    let mut app = OperateApp::default();
    with_terminal(|terminal| {
        let frame = Duration::from_secs(1) / FPS;
        loop {
            suspend::if_asked(terminal)?;
            let shown = desk.shown();
            terminal.draw(|f| render::operate(f, &app, &shown, Front::Terminal))?;
            let mut failed = None;
            let done = keys_until(Instant::now() + frame, Mode::Operate, |action| {
                if let Err(e) = app.act(action, desk) {
                    failed = Some(e);
                    app.quit = true;
                }
                app.quit
            })?;
            if let Some(e) = failed {
                anyhow::bail!(e);
            }
            if done {
                return Ok(());
            }
        }
    })
}
