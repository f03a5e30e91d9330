use thiserror::Error;

/// What is wrong with a refused move, for callers that answer each differently
/// (a protocol that tells a typo from a rules violation, a server that tells
/// "the game is over" from a bad request). The sentence stays in
/// [`MoveError::reason`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveErrorKind {
    /// The text is not a move in the game's notation: empty, too long, a
    /// square off the board, a form the game does not have (a pass in the
    /// virus game).
    Unreadable,
    /// A move the notation can write, but not legal in the position: an
    /// occupied target, a piece that cannot get there, a capture left out.
    Illegal,
    /// The game is over: no move is legal any more.
    GameOver,
}

/// A move that could not be read or is not legal in the position it was given for.
///
/// It carries the text as the user typed it and a sentence saying what is wrong,
/// such as `A1-A2: A1 has liseré 1, the constraint is 3`, because a player or a
/// protocol peer needs to know exactly why a move was refused; and a
/// [`MoveErrorKind`] for code that decides by it.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{input}: {reason}")]
pub struct MoveError {
    pub kind: MoveErrorKind,
    pub input: String,
    pub reason: String,
}

impl MoveError {
    /// A refusal of `kind`.
    pub fn of_kind(
        kind: MoveErrorKind,
        input: impl Into<String>,
        reason: impl Into<String>,
    ) -> MoveError {
        MoveError {
            kind,
            input: input.into(),
            reason: reason.into(),
        }
    }

    /// A move that is not legal here ([`MoveErrorKind::Illegal`]), the usual
    /// refusal; the other kinds have their own constructors.
    pub fn new(input: impl Into<String>, reason: impl Into<String>) -> MoveError {
        MoveError::of_kind(MoveErrorKind::Illegal, input, reason)
    }

    /// A text that is not a move in the game's notation.
    pub fn unreadable(input: impl Into<String>, reason: impl Into<String>) -> MoveError {
        MoveError::of_kind(MoveErrorKind::Unreadable, input, reason)
    }

    /// A move given after the end of the game.
    pub fn game_over(input: impl Into<String>, reason: impl Into<String>) -> MoveError {
        MoveError::of_kind(MoveErrorKind::GameOver, input, reason)
    }
}

/// What is wrong with a refused position text or file, for callers that act
/// on it: a front-end that reads a virus position of another board size as
/// that size's variant ([`PositionErrorKind::OtherVariant`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PositionErrorKind {
    /// The text cannot be read: bad syntax, an unknown piece letter, a missing
    /// or extra field, too long.
    Malformed,
    /// Readable, but not a position the rules allow: too many pieces, a piece
    /// where none can stand, an impossible history.
    Illegal,
    /// A good position of another variant of the game than the one asked for
    /// (a virus board of another size); the variant it is on reads it.
    OtherVariant,
}

/// A position text or file that could not be turned into a legal position.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{reason}")]
pub struct PositionError {
    pub kind: PositionErrorKind,
    pub reason: String,
}

impl PositionError {
    /// A refusal of `kind`.
    pub fn of_kind(kind: PositionErrorKind, reason: impl Into<String>) -> PositionError {
        PositionError {
            kind,
            reason: reason.into(),
        }
    }

    /// A text that cannot be read ([`PositionErrorKind::Malformed`]), the usual
    /// refusal; the other kinds have their own constructors.
    pub fn new(reason: impl Into<String>) -> PositionError {
        PositionError::of_kind(PositionErrorKind::Malformed, reason)
    }

    /// A readable position the rules do not allow.
    pub fn illegal(reason: impl Into<String>) -> PositionError {
        PositionError::of_kind(PositionErrorKind::Illegal, reason)
    }

    /// A position of another variant than the one asked for.
    pub fn other_variant(reason: impl Into<String>) -> PositionError {
        PositionError::of_kind(PositionErrorKind::OtherVariant, reason)
    }

    /// The same error with `context` before its reason (`line 3: ...`),
    /// keeping its kind.
    pub fn context(self, context: impl std::fmt::Display) -> PositionError {
        PositionError {
            kind: self.kind,
            reason: format!("{context}: {}", self.reason),
        }
    }
}
