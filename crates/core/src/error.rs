use thiserror::Error;

/// A move that could not be read or is not legal in the position it was given for.
///
/// It carries the text as the user typed it and a sentence saying what is wrong,
/// such as `A1-A2: A1 has liseré 1, the constraint is 3`, because a player or a
/// protocol peer needs to know exactly why a move was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{input}: {reason}")]
pub struct MoveError {
    pub input: String,
    pub reason: String,
}

impl MoveError {
    pub fn new(input: impl Into<String>, reason: impl Into<String>) -> MoveError {
        MoveError {
            input: input.into(),
            reason: reason.into(),
        }
    }
}

/// A position text or file that could not be turned into a legal position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{reason}")]
pub struct PositionError {
    pub reason: String,
}

impl PositionError {
    pub fn new(reason: impl Into<String>) -> PositionError {
        PositionError {
            reason: reason.into(),
        }
    }
}
