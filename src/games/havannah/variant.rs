//! The board's base and the optional rules (swap, handicap), as typed on the command line.

use std::fmt;

use crate::game::GameError;

/// A board size: base n from 2 to 10 (3n(n−1)+1 cells).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Base(pub(super) u8);

impl Base {
    pub const MIN: u8 = 2;
    pub const MAX: u8 = 10;
    pub fn new(n: u8) -> Result<Base, GameError> {
        if (Self::MIN..=Self::MAX).contains(&n) {
            Ok(Base(n))
        } else {
            Err(GameError::BadVariant(format!(
                "havannah base {n}: bases go from {} to {}",
                Self::MIN,
                Self::MAX
            )))
        }
    }
    pub fn get(self) -> u8 {
        self.0
    }
    /// 3n(n−1)+1.
    pub fn cells(self) -> usize {
        let n = self.0 as usize;
        3 * n * (n - 1) + 1
    }
}

impl fmt::Display for Base {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::str::FromStr for Base {
    type Err = GameError;
    fn from_str(s: &str) -> Result<Base, GameError> {
        let n: u8 = s.trim().parse().map_err(|_| {
            GameError::BadVariant(format!(
                "havannah --size `{}`: give the base, a whole number from {} to {}",
                crate::text::quote(s),
                Base::MIN,
                Base::MAX
            ))
        })?;
        Base::new(n)
    }
}

/// A board and the optional rules: the swap (pie) rule, or a handicap of K ≥ 2 stones that White
/// places on its first turn. Written `4`, `4 swap`, `4 handicap 3` (the `size` key of a file).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Variant {
    pub base: Base,
    pub swap: bool,
    /// 0 for none, else K ≥ 2.
    pub handicap: u8,
}

impl Variant {
    /// The smallest board, base 2, with no optional rule: the game's default.
    pub const SMALLEST: Variant = Variant {
        base: Base(2),
        swap: false,
        handicap: 0,
    };

    pub fn new(base: Base, swap: bool, handicap: u8) -> Result<Variant, GameError> {
        if swap && handicap > 0 {
            return Err(GameError::BadVariant(
                "havannah: the swap rule and a handicap do not go together".into(),
            ));
        }
        if handicap == 1 || handicap as usize >= base.cells() {
            return Err(GameError::BadVariant(format!(
                "havannah --handicap {handicap}: a handicap is from 2 stones to fewer than the {} cells",
                base.cells()
            )));
        }
        Ok(Variant {
            base,
            swap,
            handicap,
        })
    }
    pub fn plain(base: Base) -> Variant {
        Variant {
            base,
            swap: false,
            handicap: 0,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.base)?;
        if self.swap {
            f.write_str(" swap")?;
        }
        if self.handicap > 0 {
            write!(f, " handicap {}", self.handicap)?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Variant {
    type Err = GameError;
    fn from_str(s: &str) -> Result<Variant, GameError> {
        let words: Vec<&str> = s.split_whitespace().collect();
        let base: Base = words.first().copied().unwrap_or("").parse()?;
        match words[1..] {
            [] => Ok(Variant::plain(base)),
            ["swap"] => Variant::new(base, true, 0),
            ["handicap", k] => Variant::new(
                base,
                false,
                k.parse().map_err(|_| {
                    GameError::BadVariant(format!(
                        "havannah handicap `{}`: a number of stones",
                        crate::text::quote(k)
                    ))
                })?,
            ),
            _ => Err(GameError::BadVariant(format!(
                "havannah `{}`: write the base, then `swap` or `handicap K`",
                crate::text::quote(s)
            ))),
        }
    }
}
