//! Typed errors. The binding turns each kind into the package's `ValueError` subclass
//! of the same name (`hexgames.InvalidPositionError`, ...), with the message as is.

use std::fmt;

/// Bad input: which kind, and a message that names the offending text and the reason
/// (the same messages as the Python boards where practical).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// Text that is not a move in the game's notation.
    InvalidMove(String),
    /// A well-formed move that the rules forbid in this position.
    IllegalMove(String),
    /// A malformed or impossible position string.
    InvalidPosition(String),
    /// An unknown rules option or a bad value for one.
    InvalidRules(String),
    /// Any other bad argument (a bad search option, a limit out of range...).
    InvalidArgument(String),
}

impl Error {
    /// The message, without the kind.
    pub fn message(&self) -> &str {
        match self {
            Error::InvalidMove(m)
            | Error::IllegalMove(m)
            | Error::InvalidPosition(m)
            | Error::InvalidRules(m)
            | Error::InvalidArgument(m) => m,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for Error {}

/// Results of this crate.
pub type Result<T> = std::result::Result<T, Error>;
