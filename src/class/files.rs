//! The teacher's downloads from the projector's page: the machine (the command line's YAML), the
//! labels to print (blank, to build the class's machine, or with the beads it holds now) and the
//! class's learning curve (SVG or PNG). The actor hands over a copy of the machine as it stands
//! and a function that makes the file from it; the page's handler runs that function off the
//! actor's task (MENACE's labels take about a second), so the class's games never wait.

use crate::chart::ChartSpec;
use crate::labels::{self, LabelView};
use crate::learn::{GameDefaults, Machine};
use crate::palette::BeadColours;

/// Which file the teacher asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Want {
    Machine,
    /// Blank labels: each box with the beads a new machine starts with, to build it.
    Labels,
    /// The labels with the beads the machine holds now.
    TrainedLabels,
    ChartSvg,
    ChartPng,
}

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
    Box::new(move || make(want, &game, &m, &curve))
}

fn make<G: GameDefaults + LabelView>(
    want: Want,
    game: &G,
    m: &Machine<G>,
    curve: &[i64],
) -> Result<Download, String> {
    let stem = format!("class-{}-{}", game.name(), game.side_name(m.boxes.side()));
    Ok(match want {
        Want::Machine => Download {
            name: "class-machine.yaml".into(),
            mime: "application/yaml; charset=utf-8",
            bytes: crate::store::to_yaml(game, m, game.size_key()).into_bytes(),
        },
        Want::Labels | Want::TrainedLabels => Download {
            name: match want {
                Want::Labels => format!("{stem}-labels.pdf"),
                _ => format!("{stem}-labels-after-{}-games.pdf", m.games_played),
            },
            mime: "application/pdf",
            bytes: label_pdf(game, m, want == Want::TrainedLabels)?,
        },
        Want::ChartSvg | Want::ChartPng => {
            let svg = crate::chart::svg(&chart(game, m, curve)).map_err(|e| e.to_string())?;
            match want {
                Want::ChartSvg => Download {
                    name: format!("{stem}-chart.svg"),
                    mime: "image/svg+xml",
                    bytes: svg.into_bytes(),
                },
                _ => Download {
                    name: format!("{stem}-chart.png"),
                    mime: "image/png",
                    bytes: crate::chart::svg_to_png(&svg).map_err(|e| e.to_string())?,
                },
            }
        }
    })
}

/// The label sheets as one PDF, as `boxes --labels` prints them.
fn label_pdf<G: GameDefaults + LabelView>(
    game: &G,
    m: &Machine<G>,
    trained: bool,
) -> Result<Vec<u8>, String> {
    if let Some(why) = crate::labels::too_many(m.boxes.len()) {
        return Err(why);
    }
    let (pages, title) = labels::machine_sheets(game, m, trained, BeadColours::ByArrow);
    labels::pdf::pages_to_pdf(&pages, &title).map_err(|e| e.to_string())
}

/// The class's learning curve, as `train --plot` draws a run's: the machine against the class.
fn chart<G: GameDefaults>(game: &G, m: &Machine<G>, curve: &[i64]) -> ChartSpec {
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
