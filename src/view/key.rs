//! A key as the screens understand it, from any front end: the terminal's crossterm events and
//! the browser's keyboard events both become a [`Key`], and one pure function
//! ([`super::app::action_for`]) maps it to an action.

/// Which key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KeyCode {
    Char(char),
    Enter,
    Esc,
    Backspace,
    Left,
    Right,
    Up,
    Down,
    PageUp,
    PageDown,
    Tab,
    /// Any other key (a function key, …): no action.
    Other,
}

/// A key pressed, with whether Control was held.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key {
    pub code: KeyCode,
    pub ctrl: bool,
}

impl Key {
    /// The key alone.
    pub fn plain(code: KeyCode) -> Key {
        Key { code, ctrl: false }
    }
    /// The key with Control held.
    pub fn ctrl(code: KeyCode) -> Key {
        Key { code, ctrl: true }
    }
}

impl From<KeyCode> for Key {
    fn from(code: KeyCode) -> Key {
        Key::plain(code)
    }
}
