//! The teacher's files, made the same way for every front end that offers them (the page and the
//! class's projector): the machine (the command line's YAML), the labels to print (blank, to build
//! the machine, or with the beads it holds now; the same sheets as `boxes --labels`) and the
//! learning curve (the same chart as `train --plot`). What is made here is the file's name, type
//! and contents; turning SVG into a PNG or label sheets into a PDF is the front end's last step
//! (natively at once; in a browser by the page's converter, loaded only when asked for).

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

impl Want {
    /// Every file, in the order the pages offer them.
    pub const ALL: [Want; 5] = [
        Want::Machine,
        Want::Labels,
        Want::TrainedLabels,
        Want::ChartSvg,
        Want::ChartPng,
    ];

    /// The file's name in the pages' addresses and buttons: `machine`, `labels`,
    /// `labels-trained`, `chart`, `chart-png`.
    pub fn key(self) -> &'static str {
        match self {
            Want::Machine => "machine",
            Want::Labels => "labels",
            Want::TrainedLabels => "labels-trained",
            Want::ChartSvg => "chart",
            Want::ChartPng => "chart-png",
        }
    }

    /// The file a page names, or the reason there is none.
    pub fn parse(key: &str) -> Result<Want, String> {
        let names = || Want::ALL.map(Want::key).join(", ");
        (Want::ALL.into_iter().find(|w| w.key() == key))
            .ok_or_else(|| format!("no file `{key}` (the files: {})", names()))
    }
}

/// A file to download: its name, its type and what it holds.
#[derive(Debug)]
pub struct TeacherFile {
    pub name: String,
    pub mime: &'static str,
    pub body: Body,
}

/// What a file holds: its bytes, or the SVG a front end turns into the PNG or PDF it names.
#[derive(Debug)]
pub enum Body {
    Bytes(Vec<u8>),
    /// A chart, to be a PNG.
    Png(String),
    /// Label sheets, one SVG document a page, and the document's title: to be a PDF.
    Pdf(Vec<String>, String),
}

/// What a file is made from: a copy of what is on the screen.
pub struct Source<'a, G: GameDefaults> {
    pub game: &'a G,
    pub machine: &'a Machine<G>,
    /// The start of every file's name (`hexapawn-X`, `class-tictactoe-O`).
    pub stem: String,
    /// The learning curve as drawn, if any game has been played.
    pub chart: Option<ChartSpec>,
    /// How the labels colour their beads.
    pub colours: BeadColours,
}

impl<G: GameDefaults + LabelView> Source<'_, G> {
    /// The file the teacher asks for, or why it cannot be made (too many boxes to print, no game
    /// played yet to chart).
    pub fn file(&self, want: Want) -> Result<TeacherFile, String> {
        let (stem, m) = (&self.stem, self.machine);
        let file = |name: String, mime, body| Ok(TeacherFile { name, mime, body });
        match want {
            Want::Machine => {
                let yaml = crate::store::to_yaml(self.game, m, self.game.size_key());
                file(
                    format!("{stem}.yaml"),
                    "application/yaml",
                    Body::Bytes(yaml.into_bytes()),
                )
            }
            Want::Labels => file(
                format!("{stem}-labels.pdf"),
                "application/pdf",
                self.labels(false)?,
            ),
            Want::TrainedLabels => {
                let name = format!("{stem}-labels-after-{}-games.pdf", m.games_played);
                file(name, "application/pdf", self.labels(true)?)
            }
            Want::ChartSvg => file(
                format!("{stem}-chart.svg"),
                "image/svg+xml",
                Body::Bytes(self.svg()?.into_bytes()),
            ),
            Want::ChartPng => file(
                format!("{stem}-chart.png"),
                "image/png",
                Body::Png(self.svg()?),
            ),
        }
    }

    /// The label sheets, as `boxes --labels` prints them.
    fn labels(&self, trained: bool) -> Result<Body, String> {
        if let Some(why) = labels::too_many(self.machine.boxes.len()) {
            return Err(why);
        }
        let (pages, title) = labels::machine_sheets(self.game, self.machine, trained, self.colours);
        Ok(Body::Pdf(pages, title))
    }

    fn svg(&self) -> Result<String, String> {
        let chart = (self.chart.as_ref()).ok_or("no games played yet: nothing to chart")?;
        crate::chart::svg(chart).map_err(|e| e.to_string())
    }
}
