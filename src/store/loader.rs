//! A machine put together box by box as a file is read (YAML or binary): each box is checked
//! the moment it arrives — its position, that it needs a box, its arrows and beads, that it is
//! not a duplicate — and goes straight into the machine, so a load holds no more than the
//! machine itself and names the first bad box as soon as it is read.

use std::path::Path;
use std::sync::Arc;

use super::{Header, StoreError, check_header, expected_box, invalid};
use crate::game::{Game, Side};
use crate::learn::{Beads, BoxSet, Machine, MatchBox};
use crate::text::quote;

/// Where the boxes go: a table machine's enumerated set (the file must hold every box once), or
/// a lazy machine's set, grown box by box.
enum Boxes<G: Game> {
    /// The set is enumerated at the first box that passes the checks of its own, so a file whose
    /// first box is bad is refused before anything big is built.
    Table {
        machine: Option<Machine<G>>,
        seen: Vec<bool>,
        count: usize,
        /// The most boxes the file can hold: a set much bigger than that is not built.
        most: usize,
    },
    Lazy {
        set: BoxSet<G>,
        beads: Vec<u32>,
    },
}

pub(super) struct Loader<'a, G: Game> {
    game: &'a G,
    path: &'a Path,
    header: Header,
    side: Side,
    boxes: Boxes<G>,
}

impl<'a, G: Game> Loader<'a, G> {
    /// A loader for a file of `header`'s settings that can hold at most `most` boxes.
    pub(super) fn new(
        game: &'a G,
        path: &'a Path,
        header: Header,
        most: usize,
    ) -> Result<Self, StoreError> {
        let (side, lazy) = check_header(game, path, &header)?;
        let boxes = if lazy {
            Boxes::Lazy {
                set: BoxSet::lazy(game, side, header.symmetry, header.forced_moves),
                beads: Vec::new(),
            }
        } else {
            Boxes::Table {
                machine: None,
                seen: Vec::new(),
                count: 0,
                most,
            }
        };
        Ok(Loader {
            game,
            path,
            header,
            side,
            boxes,
        })
    }

    /// The learner's side.
    pub(super) fn side(&self) -> Side {
        self.side
    }

    /// The error of box `number` (written `position` in the file).
    pub(super) fn box_error(&self, number: usize, position: &str, msg: String) -> StoreError {
        invalid(
            self.path,
            format!("box {number} ({}): {msg}", quote(position)),
        )
    }

    /// The game.
    pub(super) fn game(&self) -> &'a G {
        self.game
    }

    /// Adds the file's box `number` for the position `pos` (written `text`), met at
    /// `move_number`, with the beads `beads` gives for the box it must be (its arrows in the
    /// box's order).
    pub(super) fn add(
        &mut self,
        number: usize,
        text: &str,
        pos: G::Position,
        move_number: u16,
        beads: impl FnOnce(&G::Position, &MatchBox<G>) -> Result<Vec<Beads>, String>,
    ) -> Result<(), StoreError> {
        super::needs_a_box(self.game, self.side, &pos)
            .map_err(|m| self.box_error(number, text, m))?;
        self.enumerate()?;
        let (game, header, side) = (self.game, &self.header, self.side);
        let full = match &self.boxes {
            Boxes::Table { machine, .. } => machine.as_ref().map(|m| m.boxes.as_ref()),
            Boxes::Lazy { .. } => None,
        };
        let expected = expected_box(game, header, side, full, (text, move_number, &pos))
            .map_err(|m| self.box_error(number, text, m))?;
        let duplicate = match &self.boxes {
            Boxes::Table {
                machine: Some(m),
                seen,
                ..
            } => m.boxes.find(&pos).is_some_and(|i| seen[i]),
            Boxes::Table { machine: None, .. } => false,
            Boxes::Lazy { set, .. } => set.find(&pos).is_some(),
        };
        if duplicate {
            return Err(self.box_error(
                number,
                text,
                "duplicate box: this position already has a box".into(),
            ));
        }
        let counts = beads(&pos, &expected).map_err(|m| self.box_error(number, text, m))?;
        if move_number != expected.move_number() {
            return Err(self.box_error(
                number,
                text,
                format!(
                    "key `move`: {move_number} but this position is met at move {}",
                    expected.move_number()
                ),
            ));
        }
        match &mut self.boxes {
            Boxes::Table {
                machine: Some(m),
                seen,
                count,
                ..
            } => {
                let i = m.boxes.find(&pos).expect("the expected box is in the set");
                seen[i] = true;
                *count += 1;
                m.set_beads(i, &counts)
                    .map_err(|e| invalid(self.path, format!("box {number}: {e}")))?;
            }
            Boxes::Table { machine: None, .. } => unreachable!("enumerated above"),
            Boxes::Lazy { set, beads } => {
                if !set.has_room_for(expected.arrows.len()) {
                    return Err(invalid(
                        self.path,
                        format!(
                            "box {number}: more boxes and arrows than a machine may hold (2^32)"
                        ),
                    ));
                }
                let total: u64 = counts.iter().map(|n| n.get() as u64).sum();
                set.add(expected);
                beads.push(total as u32);
                beads.extend(counts.iter().map(|n| n.get()));
            }
        }
        Ok(())
    }

    /// A table machine's set, enumerated once.
    fn enumerate(&mut self) -> Result<(), StoreError> {
        if let Boxes::Table {
            machine,
            seen,
            most,
            ..
        } = &mut self.boxes
            && machine.is_none()
        {
            let h = &self.header;
            let (game, side) = (self.game, self.side);
            // Sets of up to some hundred thousand boxes are built whatever the file holds, so a
            // file short of a few boxes is told which.
            let cap = (*most).max(1 << 17);
            let Some(set) = BoxSet::build_at_most(game, side, h.symmetry, h.forced_moves, cap)
            else {
                return Err(invalid(
                    self.path,
                    format!(
                        "the settings ask for every box of {} {} ({}), more than the {} this file can hold: the file is cut short or its settings are wrong",
                        game.name(),
                        game.variant(),
                        game.side_name(side),
                        crate::text::group(*most as u64)
                    ),
                ));
            };
            *seen = vec![false; set.len()];
            *machine = Some(Machine::new(
                Arc::new(set),
                h.initial_beads.clone(),
                h.reinforcement,
                h.seed,
            ));
        }
        Ok(())
    }

    /// The machine the settings make with no box read: every box at its initial beads (a
    /// table machine's set enumerated whole; a lazy machine's empty).
    pub(super) fn fresh(mut self) -> Result<Machine<G>, StoreError> {
        if let Boxes::Table { most, .. } = &mut self.boxes {
            *most = usize::MAX;
        }
        self.enumerate()?;
        if let Boxes::Table { seen, .. } = &mut self.boxes {
            seen.fill(true);
        }
        self.finish()
    }

    /// The machine, once every box is read: a table machine's file must have held every box.
    pub(super) fn finish(mut self) -> Result<Machine<G>, StoreError> {
        self.enumerate()?;
        let h = self.header;
        let mut m = match self.boxes {
            Boxes::Table {
                machine: Some(m),
                seen,
                count,
                ..
            } => {
                if let Some(i) = seen.iter().position(|&s| !s) {
                    return Err(invalid(
                        self.path,
                        format!(
                            "key `boxes`: {count} boxes, but the {} set for {} has {}; missing {}",
                            h.symmetry,
                            self.game.side_name(self.side),
                            seen.len(),
                            self.game.format_position(&m.boxes.position(i))
                        ),
                    ));
                }
                // One bead count a move of the learner's, as `--beads` is checked.
                let moves = (0..m.boxes.len())
                    .map(|b| m.boxes.stage(b) as usize + 1)
                    .max()
                    .unwrap_or(0);
                let given = h.initial_beads.counts().len();
                if given > moves {
                    let err = crate::learn::LearnError::TooManyStages {
                        beads: h.initial_beads.to_string(),
                        given,
                        moves,
                        game: self.game.name(),
                        variant: self.game.variant(),
                    };
                    return Err(invalid(self.path, format!("key `initial_beads`: {err}")));
                }
                m
            }
            Boxes::Table { machine: None, .. } => unreachable!("enumerated above"),
            Boxes::Lazy { set, beads } => Machine::with_beads(
                Arc::new(set),
                h.initial_beads,
                h.reinforcement,
                h.seed,
                beads,
            )
            .expect("a bead count for each box and arrow"),
        };
        if let Some(rng) = h.rng_state {
            m.rng = rng;
        }
        m.games_played = h.games_played;
        Ok(m)
    }
}
