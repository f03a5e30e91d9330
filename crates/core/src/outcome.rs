use crate::Side;
use std::fmt;
use std::str::FromStr;

/// How a finished game ended: who won (nobody for a draw) and why.
///
/// The reason is an [`EndReason`], a `Copy` enum, so that search can build
/// outcomes at every node without allocating, code can match on why a game
/// stopped (the arena tells a failing engine from a lost game), and the server
/// and the CLI can still tell people why in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    pub winner: Option<Side>,
    pub reason: EndReason,
}

/// Why a game ended: the rules of one of the games, or a decision outside them
/// (a resignation, the arena's ply cap, a loss on time, a failing engine).
///
/// Its `Display` (and [`EndReason::phrase`]) is the short phrase records, the
/// server's database and its API have always stored, such as `unicorn
/// captured`; [`FromStr`] reads the phrase back, so saved games keep their
/// meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndReason {
    /// Escampe: a unicorn was taken.
    UnicornCaptured,
    /// Abalone: six marbles of one side were pushed off.
    SixMarblesEjected,
    /// Draughts: the side to move has no piece left.
    AllPiecesCaptured,
    /// Abalone, draughts: the side to move has no legal move.
    NoLegalMove,
    /// Ataxx, the virus game: a side has no stone left.
    NoStonesLeft,
    /// Ataxx, the virus game: every cell is filled.
    BoardFull,
    /// Ataxx: empty cells remain that neither side can reach.
    NoMoveForEither,
    /// The virus game: the side to move is walled in; the empty cells count
    /// for the opponent.
    WalledIn,
    /// Escampe, Abalone: the game reached the rules' ply limit (a draw).
    PlyLimit,
    /// Abalone under a move limit (the site's rooms): the limit was reached
    /// and the winner had pushed off more marbles.
    MarblesAtMoveLimit,
    /// The same position, same side to move, for the third time (a draw).
    Repetition,
    /// Ataxx: 100 half-moves without a clone (a draw).
    HalfmoveClock,
    /// Draughts: 25 king moves each without capture or man move (a draw).
    KingMoves,
    /// Draughts: three pieces (one a king) against a lone king, 16 moves each.
    ThreeAgainstKing,
    /// Draughts: two pieces or one (one a king) against a lone king, 5 moves each.
    SmallAgainstKing,
    /// A player resigned (the server).
    Resignation,
    /// The players agreed a draw (the server).
    Agreement,
    /// The arena adjudicated a draw at its ply cap (not a rule of the game).
    PlyCap,
    /// A player ran out of time on its game clock.
    TimeForfeit,
    /// An engine could not start, crashed, answered nonsense or played an
    /// illegal move: it loses the game.
    EngineFailure,
    /// An engine refused the position it was given (a Hub engine's `error`
    /// after `pos`): the game has no result and counts for neither player.
    PositionRefused,
}

impl EndReason {
    /// Every reason, for reading phrases back and for tests.
    pub const ALL: [EndReason; 21] = [
        EndReason::UnicornCaptured,
        EndReason::SixMarblesEjected,
        EndReason::AllPiecesCaptured,
        EndReason::NoLegalMove,
        EndReason::NoStonesLeft,
        EndReason::BoardFull,
        EndReason::NoMoveForEither,
        EndReason::WalledIn,
        EndReason::PlyLimit,
        EndReason::MarblesAtMoveLimit,
        EndReason::Repetition,
        EndReason::HalfmoveClock,
        EndReason::KingMoves,
        EndReason::ThreeAgainstKing,
        EndReason::SmallAgainstKing,
        EndReason::Resignation,
        EndReason::Agreement,
        EndReason::PlyCap,
        EndReason::TimeForfeit,
        EndReason::EngineFailure,
        EndReason::PositionRefused,
    ];

    /// The phrase records and the server store: `unicorn captured`. Changing
    /// one would orphan every game saved with it.
    pub const fn phrase(self) -> &'static str {
        match self {
            EndReason::UnicornCaptured => "unicorn captured",
            EndReason::SixMarblesEjected => "six marbles ejected",
            EndReason::AllPiecesCaptured => "all pieces captured",
            EndReason::NoLegalMove => "no legal move",
            EndReason::NoStonesLeft => "no stones left",
            EndReason::BoardFull => "board full",
            EndReason::NoMoveForEither => "no move left for either side",
            EndReason::WalledIn => "no drop left, empty cells go to the opponent",
            EndReason::PlyLimit => "ply limit",
            EndReason::MarblesAtMoveLimit => "more marbles pushed off at the move limit",
            EndReason::Repetition => "threefold repetition",
            EndReason::HalfmoveClock => "100 half-moves without a clone",
            EndReason::KingMoves => "25 king moves each without capture or man move",
            EndReason::ThreeAgainstKing => "16 moves each with three pieces against a lone king",
            EndReason::SmallAgainstKing => {
                "5 moves each with two pieces or fewer against a lone king"
            }
            EndReason::Resignation => "resignation",
            EndReason::Agreement => "agreement",
            EndReason::PlyCap => "ply cap",
            EndReason::TimeForfeit => "time forfeit",
            EndReason::EngineFailure => "engine failure",
            EndReason::PositionRefused => "position refused",
        }
    }
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.phrase())
    }
}

/// A phrase that is no [`EndReason`]'s.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a reason a game ends for")]
pub struct UnknownEndReason(pub String);

impl FromStr for EndReason {
    type Err = UnknownEndReason;

    /// Reads a phrase as [`EndReason::phrase`] writes it (exactly).
    fn from_str(text: &str) -> Result<EndReason, UnknownEndReason> {
        EndReason::ALL
            .into_iter()
            .find(|reason| reason.phrase() == text)
            .ok_or_else(|| UnknownEndReason(text.chars().take(80).collect()))
    }
}

impl Outcome {
    /// `side` won, for `reason`.
    pub const fn win(side: Side, reason: EndReason) -> Outcome {
        Outcome {
            winner: Some(side),
            reason,
        }
    }

    /// Nobody won, for `reason`.
    pub const fn draw(reason: EndReason) -> Outcome {
        Outcome {
            winner: None,
            reason,
        }
    }

    /// 1, 0.5 or 0: the match score of `side`.
    pub fn score_for(&self, side: Side) -> f64 {
        match self.winner {
            Some(w) if w == side => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2` from White's point of view.
    pub fn result_text(&self) -> &'static str {
        result_text(self.winner)
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(side) => write!(f, "{side} wins ({})", self.reason),
            None => write!(f, "draw ({})", self.reason),
        }
    }
}

/// A game's result as a record states it: an [`Outcome`] of the rules, or one
/// decided outside them (a resignation, a timeout), with a borrowed reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict<'a> {
    pub winner: Option<Side>,
    pub reason: &'a str,
}

impl Verdict<'_> {
    /// `1-0`, `0-1` or `1/2-1/2` from White's point of view.
    pub fn result_text(&self) -> &'static str {
        result_text(self.winner)
    }
}

fn result_text(winner: Option<Side>) -> &'static str {
    match winner {
        Some(Side::White) => "1-0",
        Some(Side::Black) => "0-1",
        None => "1/2-1/2",
    }
}

impl Outcome {
    /// The outcome as a record states it.
    pub fn verdict(&self) -> Verdict<'static> {
        Verdict {
            winner: self.winner,
            reason: self.reason.phrase(),
        }
    }
}

impl fmt::Display for Verdict<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(side) => write!(f, "{side} wins ({})", self.reason),
            None => write!(f, "draw ({})", self.reason),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_reason_reads_back_from_its_phrase() {
        for reason in EndReason::ALL {
            assert_eq!(reason.to_string(), reason.phrase());
            assert_eq!(reason.phrase().parse::<EndReason>(), Ok(reason));
        }
        let mut phrases: Vec<_> = EndReason::ALL.map(EndReason::phrase).to_vec();
        phrases.sort_unstable();
        phrases.dedup();
        assert_eq!(
            phrases.len(),
            EndReason::ALL.len(),
            "two reasons share a phrase"
        );
    }

    #[test]
    fn the_phrases_are_those_saved_games_hold() {
        // Stored in the server's database and in match records: never change.
        assert_eq!(EndReason::UnicornCaptured.to_string(), "unicorn captured");
        assert_eq!(EndReason::EngineFailure.to_string(), "engine failure");
        assert_eq!(EndReason::PlyCap.to_string(), "ply cap");
        assert_eq!(EndReason::Resignation.to_string(), "resignation");
        assert_eq!(
            Outcome::win(Side::Black, EndReason::TimeForfeit).to_string(),
            "black wins (time forfeit)"
        );
        assert_eq!(
            Outcome::draw(EndReason::Repetition).verdict().to_string(),
            "draw (threefold repetition)"
        );
    }

    #[test]
    fn unknown_phrases_are_refused() {
        for text in ["", "Engine failure", "engine failure ", "checkmate"] {
            assert!(text.parse::<EndReason>().is_err(), "{text:?}");
        }
    }
}
