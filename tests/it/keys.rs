//! The one key table: the key function, the help, the key bar, the page's buttons and the
//! README's key lists all say the same.

use matchbox::view::key::{
    Action, BINDINGS, BarFor, Front, Key, KeyCode, Mode, Panel, action_for, bindings, buttons,
    key_bars, key_table, markdown,
};

/// The README's key list for a screen: the Markdown table between its markers.
fn readme_list(mode: &str) -> String {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let start = format!("<!-- keys: {mode} -->\n");
    let from = readme
        .find(&start)
        .unwrap_or_else(|| panic!("the README has no `{}` marker", start.trim()))
        + start.len();
    let to = from
        + readme[from..]
            .find("<!-- /keys -->")
            .expect("an end marker");
    readme[from..to].to_string()
}

#[test]
fn the_readmes_key_lists_are_the_key_table() {
    assert_eq!(readme_list("watch"), markdown(Mode::Watch));
    assert_eq!(readme_list("play"), markdown(Mode::Play));
}

#[test]
fn every_key_in_the_table_does_what_its_line_says() {
    for mode in [Mode::Watch, Mode::Play, Mode::Pole, Mode::Operate] {
        for b in bindings(mode, Front::Terminal) {
            for &(key, action) in b.keys {
                assert_eq!(action_for(key, mode), Some(action), "{} {mode:?}", b.label);
            }
        }
    }
    // And no key is bound twice on one screen.
    for mode in [Mode::Watch, Mode::Play, Mode::Pole, Mode::Operate] {
        let mut seen = std::collections::HashSet::new();
        for b in bindings(mode, Front::Terminal) {
            for (key, _) in b.keys {
                assert!(seen.insert(*key), "{key:?} twice on {mode:?}");
            }
        }
    }
}

#[test]
fn typing_comes_after_the_table() {
    let ch = |c| Key::plain(KeyCode::Char(c));
    assert_eq!(action_for(ch('7'), Mode::Watch), Some(Action::Type('7')));
    assert_eq!(action_for(ch('b'), Mode::Play), Some(Action::Type('b')));
    // `p` plays the machine while watching; while playing it is a letter of a move.
    assert_eq!(action_for(ch('p'), Mode::Watch), Some(Action::PlayIt));
    assert_eq!(action_for(ch('p'), Mode::Play), Some(Action::Type('p')));
    assert_eq!(action_for(ch('z'), Mode::Watch), Some(Action::Other));
    // The operator types words: `q` is a letter there (of `quit`), not the quit key.
    assert_eq!(action_for(ch('q'), Mode::Operate), Some(Action::Type('q')));
    assert_eq!(action_for(ch(' '), Mode::Operate), Some(Action::Type(' ')));
    assert_eq!(
        action_for(Key::ctrl(KeyCode::Char('c')), Mode::Operate),
        Some(Action::Interrupt)
    );
    assert_eq!(action_for(Key::ctrl(KeyCode::Char('x')), Mode::Watch), None);
}

#[test]
fn the_page_shows_no_terminal_only_key() {
    for mode in [Mode::Watch, Mode::Play, Mode::Pole] {
        let page = key_table(mode, Front::Page);
        let terminal = key_table(mode, Front::Terminal);
        assert!(page.len() < terminal.len());
        assert!(
            page.iter().all(|(label, _)| !label.contains('q')),
            "{page:?}"
        );
        assert!(
            key_bars(mode, Front::Page, &BarFor::watch())
                .iter()
                .all(|b| !b.contains("quit"))
        );
        assert!(key_bars(mode, Front::Terminal, &BarFor::watch())[0].contains("q quit"));
    }
}

#[test]
fn the_page_buttons_press_keys_that_act() {
    for mode in [Mode::Watch, Mode::Play, Mode::Pole] {
        let buttons = buttons(mode);
        assert!(buttons.len() >= 6, "{mode:?}: {buttons:?}");
        for (label, name) in buttons {
            let key = Key::from_dom(&name, false);
            assert_eq!(key.dom_name(), name, "{label}");
            let action = action_for(key, mode);
            assert!(
                !matches!(action, None | Some(Action::Other | Action::Type(_))),
                "{label} ({name}) does nothing on {mode:?}"
            );
        }
    }
}

#[test]
fn the_key_bars_narrow_from_everything_to_the_essentials() {
    let bars = key_bars(Mode::Watch, Front::Terminal, &BarFor::watch());
    assert!(bars[0].contains("r reset") && bars[0].contains("n step"));
    // Each set of words parted by dots, then by spaces where that is too wide.
    assert_eq!(bars[1], bars[0].replace(" · ", "  "));
    assert_eq!(
        bars.last().unwrap(),
        " space pause  p play  m machine  ? help"
    );
    assert_eq!(
        bars[bars.len() - 2],
        " space pause · p play · m machine · ? help"
    );
    // Playing: the game's move as the example; the boxes only where the machine has them; Esc
    // back to watching where play came from there, else q.
    let play = |machine_plays, from_watch| {
        let at = BarFor {
            machine_plays,
            from_watch,
            example: "b1-b2".into(),
            ..BarFor::default()
        };
        key_bars(Mode::Play, Front::Terminal, &at).swap_remove(0)
    };
    assert_eq!(
        play(true, false),
        " ↑↓ choose · Enter play · type b1-b2 · [ ] boxes · Tab machine · ? help · q quit"
    );
    assert_eq!(
        play(false, true),
        " ↑↓ choose · Enter play · type b1-b2 · Esc watch · ? help"
    );
}

/// The key a bar's words start with (`m back`: m; `↑↓ choose`: ↑), if they name one.
fn key_named(words: &str) -> Option<Key> {
    let first = words.split(' ').next()?;
    let code = match first {
        "space" => KeyCode::Char(' '),
        "Tab" => KeyCode::Tab,
        "Esc" => KeyCode::Esc,
        "Enter" => KeyCode::Enter,
        "Backspace" => KeyCode::Backspace,
        "PgUp" => KeyCode::PageUp,
        "↑↓" => KeyCode::Up,
        "type" | "click" => return None,
        _ => KeyCode::Char(first.chars().next()?),
    };
    Some(Key::plain(code))
}

/// Every key a bar names acts on that screen, over every panel the browser opens: the play
/// screen's whole machine says `Tab back`, as `m` there is a letter of a move.
#[test]
fn every_key_a_bar_names_acts_where_it_is_shown() {
    for mode in [Mode::Watch, Mode::Play, Mode::Pole] {
        for panel in [Panel::Live, Panel::Box, Panel::Whole, Panel::Prompt] {
            // The cart-pole's screen has no box browser: its bar is the live one.
            if mode == Mode::Pole && panel != Panel::Live {
                continue;
            }
            for from_watch in [false, true] {
                let at = BarFor {
                    panel,
                    from_watch,
                    machine_plays: true,
                    example: "a1".into(),
                };
                let bar = key_bars(mode, Front::Terminal, &at).swap_remove(0);
                assert!(bar.trim().len() > 5, "{mode:?} {panel:?}: `{bar}`");
                for words in bar.trim().split(" · ") {
                    let Some(key) = key_named(words) else {
                        continue;
                    };
                    let action = action_for(key, mode);
                    assert!(
                        !matches!(action, None | Some(Action::Other | Action::Type(_))),
                        "{mode:?} {panel:?}: `{words}` names a key that does nothing ({action:?})"
                    );
                }
            }
        }
    }
}

/// The box browser's key line says `q quit` only where `q` quits: in a terminal, never on the
/// page (which has no quitting, and where `q` is bound to nothing).
#[test]
fn the_box_browsers_key_line_offers_quit_only_in_a_terminal() {
    use matchbox::view::app::Browser;
    let browsing = Browser {
        shown: Some(3),
        ..Browser::default()
    };
    let line = |front| {
        browsing
            .key_lines(Mode::Watch, front)
            .unwrap()
            .swap_remove(0)
    };
    // At 80 columns the whole line still fits, its keys parted by spaces.
    let narrow = Browser {
        whole: Some(Default::default()),
        ..Browser::default()
    };
    let lines = narrow.key_lines(Mode::Play, Front::Terminal).unwrap();
    let at_80 = lines.iter().find(|l| l.chars().count() <= 80).unwrap();
    assert!(
        at_80.chars().count() <= 80 && at_80.ends_with("q quit"),
        "{at_80}"
    );
    assert!(
        line(Front::Terminal).ends_with("q quit"),
        "{}",
        line(Front::Terminal)
    );
    assert!(!line(Front::Page).contains("quit"), "{}", line(Front::Page));
    assert!(action_for(Key::plain(KeyCode::Char('q')), Mode::Watch).is_some());
    assert!(
        BINDINGS
            .iter()
            .filter(|b| b
                .keys
                .iter()
                .any(|(k, _)| *k == Key::plain(KeyCode::Char('q'))))
            .all(|b| b.terminal_only),
        "q is bound in the terminal only"
    );
}
