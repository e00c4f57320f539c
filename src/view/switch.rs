//! The switch between watching a machine learn and playing it (`p`, then Esc), the same for
//! every front end: the session goes to the play screen and comes back to the watch screen.

use super::app::{Snapshot, WatchApp};
use super::board::BoardView;
use super::play::PlayApp;
use super::session::Session;

impl<G: BoardView> WatchApp<G> {
    /// `p` was pressed: the play screen on the session as watched, on the same front, theme and
    /// screen size (Esc there comes back: [`WatchApp::back_from`]).
    pub fn play(&mut self, session: Session<G>) -> PlayApp<G> {
        self.to_play = false;
        let mut play = PlayApp::from_watch(session, self.titles.clone());
        play.front = self.front;
        play.theme = self.theme;
        play.browser.screen = self.browser.screen;
        play
    }

    /// Back from the play screen: its session, watched again from where the person left it.
    pub fn back_from(&mut self, play: PlayApp<G>) -> Session<G> {
        let session = play.into_watch();
        self.snapshot = Snapshot::of(&session);
        session
    }
}
