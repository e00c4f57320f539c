//! The DejaVu Sans fonts (licence in `src/chart/fonts/LICENSE-DejaVu.txt`) that charts and labels
//! are drawn with, so text looks the same on a machine with no fonts installed. The program has
//! them built in (feature `embedded-fonts`, part of `native`); a browser page, where they would
//! add 1.5 MB to every visit, fetches them from its own folder the first time a PNG chart or the
//! labels are asked for and gives them here.

use std::sync::OnceLock;

/// The regular and the bold face, as TrueType files.
#[derive(Clone, Copy, Debug)]
pub struct Fonts {
    pub regular: &'static [u8],
    pub bold: &'static [u8],
}

#[cfg(feature = "embedded-fonts")]
static BUILT_IN: Option<Fonts> = Some(Fonts {
    regular: include_bytes!("fonts/DejaVuSans.ttf"),
    bold: include_bytes!("fonts/DejaVuSans-Bold.ttf"),
});
#[cfg(not(feature = "embedded-fonts"))]
static BUILT_IN: Option<Fonts> = None;

static GIVEN: OnceLock<Fonts> = OnceLock::new();

/// The fonts, if built in or given; `None` until a page has given them.
pub fn fonts() -> Option<Fonts> {
    BUILT_IN.or_else(|| GIVEN.get().copied())
}

/// Gives the fonts to a program built without them (they live as long as the program). The
/// first fonts given stay; `false` if fonts were there already.
pub fn give(regular: Vec<u8>, bold: Vec<u8>) -> bool {
    if fonts().is_some() {
        return false;
    }
    let leak = |v: Vec<u8>| -> &'static [u8] { Box::leak(v.into_boxed_slice()) };
    GIVEN
        .set(Fonts {
            regular: leak(regular),
            bold: leak(bold),
        })
        .is_ok()
}
