//! The teacher's downloads from the projector's page, made by the library's one maker of
//! teacher's files (`front::files`, as the page makes its own): the machine, the labels to print
//! and the class's learning curve. The actor hands over a copy of the machine as it stands and a
//! function that makes the file from it; the page's handler runs that function off the actor's
//! task (MENACE's labels take about a second), so the class's games never wait.

pub use crate::front::files::Want;
use crate::front::files::{Body, Source};
use crate::labels::LabelView;
use crate::learn::{GameDefaults, Machine};
use crate::palette::BeadColours;

/// A file to download: its name, its type and its bytes.
pub struct Download {
    pub name: String,
    pub mime: &'static str,
    pub bytes: Vec<u8>,
}

/// Makes a file from the copy of the lesson it holds.
pub type Maker = Box<dyn FnOnce() -> Result<Download, String> + Send>;

/// The maker of `want` from copies of the lesson's game, machine and learning curve (its wins −
/// losses after each game).
pub fn maker<G>(want: Want, game: G, m: Machine<G>, curve: Vec<i64>) -> Maker
where
    G: GameDefaults + LabelView + Send + 'static,
    Machine<G>: Send,
{
    Box::new(move || {
        let source = Source {
            stem: format!("class-{}-{}", game.name(), game.side_name(m.boxes.side())),
            chart: Some(chart(&game, &m, &curve)),
            colours: BeadColours::ByArrow,
            game: &game,
            machine: &m,
        };
        let file = source.file(want)?;
        let bytes = match file.body {
            Body::Bytes(bytes) => bytes,
            Body::Png(svg) => crate::chart::svg_to_png(&svg).map_err(|e| e.to_string())?,
            Body::Pdf(pages, title) => {
                crate::labels::pdf::pages_to_pdf(&pages, &title).map_err(|e| e.to_string())?
            }
        };
        let mime = file.mime;
        Ok(Download {
            name: file.name,
            mime,
            bytes,
        })
    })
}

/// The class's learning curve, as `train --plot` draws a run's: the machine against the class.
fn chart<G: GameDefaults>(game: &G, m: &Machine<G>, curve: &[i64]) -> crate::chart::ChartSpec {
    let name = game.machine_name(m.boxes.side(), m.boxes.mode());
    let label = format!(
        "{name} v the class · {} {} · {} · {} reinforcement · beads {} · seed {}",
        game.name(),
        game.variant(),
        m.boxes.mode().words(),
        m.reinforcement,
        m.initial,
        m.seed
    );
    let points = std::iter::once((0.0, 0.0))
        .chain((curve.iter().enumerate()).map(|(i, &score)| ((i + 1) as f64, score as f64)))
        .collect();
    crate::chart::data::learning_curve(&label, points, None)
}
