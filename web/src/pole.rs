//! The cart-pole on the page (`?game=cartpole&learner=boxes&seed=1`): the terminal's screen
//! ([`matchbox::view::pole`]) drawn every frame, its pushes made as the speed owes them (flat
//! out: for a budget of milliseconds a frame), its keys and buttons from the key table; `s`
//! downloads the BOXES machine, as `watch cartpole` saves it.

use matchbox::cartpole::learner::Kind;
use matchbox::view::key::{Action, Front, Mode, action_for};
use matchbox::view::pole::{PoleApp, PoleSpeed};
use matchbox::view::render;
use ratzilla::ratatui::Terminal;
use ratzilla::ratatui::backend::Backend;
use ratzilla::{WebEventHandler, WebRenderer};

use super::{BUDGET_MS, Keys, download, now, say, screen};

/// The address's settings of the cart-pole: its learner and seed, if the address names it.
pub fn settings(pairs: &[(String, String)]) -> Option<Result<(Kind, u64), String>> {
    let get = |key: &str| {
        pairs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };
    if !get("game").is_some_and(|g| matchbox::games::CARTPOLE.is_named(g)) {
        return None;
    }
    let kind = match get("learner") {
        None => Ok(Kind::Boxes),
        Some(name) => (Kind::ALL.into_iter())
            .find(|k| k.name() == name)
            .ok_or_else(|| format!("learner: `{name}`: use boxes, ase or random")),
    };
    let seed = match get("seed").map(str::parse::<u64>) {
        None => Ok(1),
        Some(Ok(s)) => Ok(s),
        Some(Err(_)) => Err("seed: a whole number".to_string()),
    };
    Some(kind.and_then(|k| Ok((k, seed?))))
}

/// The cart-pole's screen on `terminal`, until the page is closed.
pub fn show<B: Backend + WebEventHandler + 'static>(
    terminal: Terminal<B>,
    (kind, seed): (Kind, u64),
    keys: Keys,
) {
    let mut app = PoleApp::new(kind, seed, None);
    let mut last = now();
    terminal.draw_web(move |f| {
        let t = now();
        for key in keys.borrow_mut().drain(..) {
            match action_for(key, Mode::Pole) {
                // A page is closed, not quit.
                Some(Action::Quit | Action::Interrupt | Action::Back) | None => {}
                Some(action) => app.update(action),
            }
        }
        if std::mem::take(&mut app.to_save) {
            app.message = Some(save(&app));
        }
        app.pass((t - last) / 1000.0);
        last = t;
        if app.speed() == PoleSpeed::FlatOut && !app.paused {
            while now() < t + BUDGET_MS {
                (0..200).for_each(|_| app.push());
            }
        }
        render::pole(f, &app, Front::Page);
        screen::keep(f.buffer_mut());
    });
}

/// `s`: the BOXES machine as a download.
fn save(app: &PoleApp) -> String {
    let Some(m) = app.run.learner.as_boxes() else {
        return format!("{} has no matchboxes to save", app.kind.name());
    };
    match download(
        "cartpole-boxes.yaml",
        matchbox::store::boxes_yaml(m).as_bytes(),
        "application/yaml",
    ) {
        Ok(()) => format!(
            "saved the machine after {} trials to cartpole-boxes.yaml (your downloads)",
            m.trials
        ),
        Err(e) => {
            say(&format!("not saved: {e}"));
            format!("not saved: {e}")
        }
    }
}
