//! The scoreboard.

use super::*;

/// A key and the first of `values` that leaves a space before the border of a panel `width` wide.
pub(super) fn kv_fit(k: &str, values: &[String], width: u16) -> Line<'static> {
    kv(
        k,
        first_fit(values, (width as usize).saturating_sub(2 + 12 + 1)),
    )
}

/// "3 of 304 boxes", or shorter where that does not fit.
pub(super) fn emptied_values(emptied: usize, boxes: usize) -> [String; 3] {
    let (e, b) = (group(emptied as u64), group(boxes as u64));
    [
        format!("{e} of {b} boxes"),
        format!("{e} of {b}"),
        format!("{e}/{b}"),
    ]
}

pub(super) fn kv(k: &str, v: String) -> Line<'static> {
    Line::from(vec![
        Span::styled(format!(" {k:<10} "), DIM),
        Span::styled(v, BOLD),
    ])
}

/// A count in full, then in short where the panel is narrow (158,098,674 as 158.1M), with
/// `words` around it.
fn full_or_short(n: u64, words: impl Fn(String) -> String) -> Vec<String> {
    vec![words(group(n)), words(short_count(n))]
}

/// A line of the score panel in red: `k`, and the first of `values` that fits.
fn warning(k: &str, values: &[String], width: u16) -> Line<'static> {
    Line::from(vec![
        Span::styled(format!(" {k:<10} "), DIM),
        Span::styled(
            first_fit(values, (width as usize).saturating_sub(2 + 12 + 1)),
            BOLD.fg(Color::Red),
        ),
    ])
}

/// Games a machine loaded from a file played before this screen counted any (its file keeps no
/// score, so the score must say it is this screen's).
fn loaded_before<G: BoardView>(s: &Snapshot<G>) -> u64 {
    let st = &s.stats;
    s.games_played
        .saturating_sub(st.wins + st.draws + st.losses)
}

/// The games row: all the machine's, and how many of them came before, in its file.
fn games_values(played: u64, before: u64) -> Vec<String> {
    match before {
        0 => full_or_short(played, |c| c),
        _ => vec![
            format!("{} ({} before, in the file)", group(played), group(before)),
            format!("{} ({} loaded)", short_count(played), short_count(before)),
            short_count(played),
        ],
    }
}

/// The last loss when there is none: none at all, or none since the machine was loaded.
fn none_yet(before: u64) -> &'static str {
    if before > 0 {
        "none since loaded"
    } else {
        "none yet"
    }
}

/// The rows the score panel takes for `s`: its lines (eight, and a line each for the outlook
/// and the rival machine where there are) and its border.
pub fn score_rows<G: BoardView>(s: &Snapshot<G>) -> u16 {
    10 + u16::from(s.can_only_lose)
        + u16::from(s.rival_machine.is_some())
        + u16::from(s.gave_up.is_some())
}

pub fn score_panel<G: BoardView>(f: &mut Frame, area: Rect, app: &WatchApp<G>) {
    let s = &app.snapshot;
    let st = &s.stats;
    let width = area.width;
    let streak = match st.streak {
        Some((r, n)) => {
            let word = match r {
                GameResult::Win => "won",
                GameResult::Draw => "drawn",
                GameResult::Loss => "lost",
            };
            full_or_short(n, |c| format!("{c} {word}"))
        }
        None => vec!["–".into()],
    };
    let before = loaded_before(s);
    let games = games_values(s.games_played, before);
    let mut lines = vec![
        kv_fit("games", &games, width),
        kv_fit(
            "W/D/L",
            &[
                format!(
                    "{}/{}/{}",
                    group(st.wins),
                    group(st.draws),
                    group(st.losses)
                ),
                format!(
                    "{}/{}/{}",
                    short_count(st.wins),
                    short_count(st.draws),
                    short_count(st.losses)
                ),
            ],
            width,
        ),
        kv_fit("streak", &streak, width),
        kv_fit(
            "last loss",
            &st.last_loss.map_or(vec![none_yet(before).into()], |g| {
                full_or_short(g, |c| format!("game {c}"))
            }),
            width,
        ),
        kv_fit(
            "emptied",
            &emptied_values(s.boxes_emptied, s.boxes.len()),
            width,
        ),
        kv_fit(
            "beads",
            &full_or_short(s.beads_left, |c| format!("{c} left")),
            width,
        ),
        kv("speed", format!("{} games/s", rate(app.games_per_sec))),
        kv("screen", format!("{:.0} frames/s", app.fps)),
    ];
    if s.can_only_lose {
        // Perfect play wins this board for the other side: no machine can do better than lose.
        let why = [
            "can only lose: perfect play wins for the other side".into(),
            "can only lose (perfect play)".into(),
            "can only lose".into(),
        ];
        lines.insert(3, warning("outlook", &why, width));
    }
    if let Some(first) = s.gave_up {
        // The first box is empty: the machine resigns every game until something changes.
        let what = match first {
            1 => "box 1 is empty",
            _ => "its first boxes are empty",
        };
        let why = [
            format!("{what}: it resigns every game · r resets it, o changes its opponent"),
            format!("{what}: it resigns every game · r resets it"),
            "resigns every game · r resets".into(),
            "r resets".into(),
        ];
        lines.insert(3, warning("gave up", &why, width));
    }
    if let Some(r) = &s.rival_machine {
        // The rival machine's own count, beside the learner's.
        let name = app.titles.rival.as_deref().unwrap_or("rival");
        let short = name.split(" (").next().unwrap_or(name);
        lines.insert(
            5,
            kv_fit(
                &format!("{short} empt."),
                &emptied_values(r.boxes_emptied, r.boxes.len()),
                area.width,
            ),
        );
    }
    f.render_widget(Paragraph::new(lines).block(panel(" Score ".into())), area);
}
