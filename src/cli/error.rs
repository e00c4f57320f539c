//! The command line's own errors, beside anyhow's messages.

use thiserror::Error;

/// A move of a game record that cannot be played: exit status 2, one line.
#[derive(Debug, Error)]
#[error("{0}")]
pub(crate) struct BadRecord(pub String);
