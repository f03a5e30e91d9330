//! The messages, byte for byte.

use plateau_core::Side;

/// `Blanc` or `Noir`.
pub fn colour_name(side: Side) -> &'static str {
    match side {
        Side::White => "Blanc",
        Side::Black => "Noir",
    }
}

fn side_of(name: &str) -> Option<Side> {
    match name {
        "Blanc" => Some(Side::White),
        "Noir" => Some(Side::Black),
        _ => None,
    }
}

/// `Blanc\0\n`: the colour a client plays.
pub fn colour_line(side: Side) -> Vec<u8> {
    format!("{}\0\n", colour_name(side)).into_bytes()
}

/// `JOUEUR Blanc\0\n`: whose turn it is, sent to both.
pub fn turn_line(side: Side) -> Vec<u8> {
    format!("JOUEUR {}\0\n", colour_name(side)).into_bytes()
}

/// `MOUVEMENT B1-D1\n`: the opponent's move (no NUL).
pub fn move_line(mv: &str) -> Vec<u8> {
    format!("MOUVEMENT {mv}\n").into_bytes()
}

/// `FIN! Blanc\0\n`, or `FIN! Egalité\0\n` for a draw (UTF-8).
pub fn end_line(winner: Option<Side>) -> Vec<u8> {
    match winner {
        Some(side) => format!("FIN! {}\0\n", colour_name(side)).into_bytes(),
        None => "FIN! Egalité\0\n".as_bytes().to_vec(),
    }
}

/// A message from the arbiter, as a client reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ServerMessage {
    /// The colour this client plays in the game that starts.
    Colour(Side),
    /// Whose turn it is.
    Turn(Side),
    /// The opponent's move.
    Move(String),
    /// The game is over: the winner, or `None` for a draw.
    End(Option<Side>),
    /// Anything else (logged and ignored by the client).
    Unknown(String),
}

impl ServerMessage {
    /// Reads a line with its NUL and newline already removed.
    pub fn parse(line: &str) -> ServerMessage {
        let line = line.trim_end();
        if let Some(side) = side_of(line) {
            return ServerMessage::Colour(side);
        }
        if let Some(rest) = line.strip_prefix("JOUEUR ")
            && let Some(side) = side_of(rest.trim())
        {
            return ServerMessage::Turn(side);
        }
        if let Some(rest) = line.strip_prefix("MOUVEMENT ") {
            return ServerMessage::Move(rest.trim().to_string());
        }
        if let Some(rest) = line.strip_prefix("FIN!") {
            let rest = rest.trim();
            if let Some(side) = side_of(rest) {
                return ServerMessage::End(Some(side));
            }
            // "Egalité", however its é was encoded.
            if rest.starts_with("Egalit") {
                return ServerMessage::End(None);
            }
        }
        ServerMessage::Unknown(line.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_byte_exact() {
        assert_eq!(colour_line(Side::White), b"Blanc\0\n");
        assert_eq!(colour_line(Side::Black), b"Noir\0\n");
        assert_eq!(turn_line(Side::Black), b"JOUEUR Noir\0\n");
        assert_eq!(
            move_line("C6/A6/B5/D5/E6/F5"),
            b"MOUVEMENT C6/A6/B5/D5/E6/F5\n"
        );
        assert_eq!(end_line(Some(Side::Black)), b"FIN! Noir\0\n");
        assert_eq!(end_line(None), "FIN! Egalité\0\n".as_bytes());
    }

    #[test]
    fn messages_parse() {
        assert_eq!(
            ServerMessage::parse("Noir"),
            ServerMessage::Colour(Side::Black)
        );
        assert_eq!(
            ServerMessage::parse("JOUEUR Blanc"),
            ServerMessage::Turn(Side::White)
        );
        assert_eq!(
            ServerMessage::parse("MOUVEMENT E"),
            ServerMessage::Move("E".into())
        );
        assert_eq!(
            ServerMessage::parse("FIN! Blanc"),
            ServerMessage::End(Some(Side::White))
        );
        assert_eq!(
            ServerMessage::parse("FIN! Egalité"),
            ServerMessage::End(None)
        );
        assert_eq!(
            ServerMessage::parse("FIN! Egalit\u{fffd}"),
            ServerMessage::End(None)
        );
        assert!(matches!(
            ServerMessage::parse("JOUEUR Rouge"),
            ServerMessage::Unknown(_)
        ));
        assert!(matches!(
            ServerMessage::parse("bonjour"),
            ServerMessage::Unknown(_)
        ));
    }
}
