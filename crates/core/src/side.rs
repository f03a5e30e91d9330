use std::fmt;
use std::ops::Not;

/// One of the two players.
///
/// Every plateau game is a two-player game, and every one of them names its players
/// White and Black (Ataxx's `o` and `x`, Abalone's white and black marbles), so one
/// type serves them all; who moves first is each game's business.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    White,
    Black,
}

impl Side {
    /// Both sides, White first: handy for per-side arrays.
    pub const ALL: [Side; 2] = [Side::White, Side::Black];

    /// 0 for White, 1 for Black, to index per-side arrays.
    #[inline]
    pub const fn index(self) -> usize {
        match self {
            Side::White => 0,
            Side::Black => 1,
        }
    }

    /// The other side.
    #[inline]
    pub const fn opponent(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// `"white"` or `"black"`: the spelling used by the API and the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }

    /// Reads `white`/`black` (or `w`/`b`), any case.
    pub fn from_name(text: &str) -> Option<Side> {
        match text.to_ascii_lowercase().as_str() {
            "white" | "w" => Some(Side::White),
            "black" | "b" => Some(Side::Black),
            _ => None,
        }
    }
}

impl Not for Side {
    type Output = Side;
    #[inline]
    fn not(self) -> Side {
        self.opponent()
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opponent_is_an_involution() {
        for side in Side::ALL {
            assert_eq!(!!side, side);
            assert_ne!(!side, side);
        }
    }

    #[test]
    fn names_round_trip() {
        for side in Side::ALL {
            assert_eq!(Side::from_name(side.name()), Some(side));
        }
        assert_eq!(Side::from_name("B"), Some(Side::Black));
        assert_eq!(Side::from_name("red"), None);
    }
}
