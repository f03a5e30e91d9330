//! DamExchange messages, byte for byte. Each is ASCII text whose first letter
//! names it, with fixed-width fields (numbers zero-padded, names space-padded
//! to 32), sent followed by a NUL byte.
//!
//! ```text
//! R 01 <name:32> <follower colour W|Z> <minutes:3> <moves:3> A
//! R 01 <name:32> <W|Z> <minutes:3> <moves:3> B <side to move W|Z> <50 squares wzWZe>
//! A <name:32> <code 0 accept | 1 wrong version | 2 not this game | 3 no games>
//! M <seconds:4> <from:2> <to:2> <count:2> <captured:2>...
//! E <reason 0 none | 1 I lose | 2 draw | 3 I win> <stop 0 next game allowed | 1 stop>
//! C <text>
//! B <move number:3> <side to move W|Z>
//! K <code 0 accept | 1 not supported | 2 decline>
//! ```

use plateau_core::Side;
use std::fmt;

/// The protocol version this side speaks (`01`).
pub const VERSION: u8 = 1;
/// Width of a program name.
pub const NAME_WIDTH: usize = 32;
/// Longest message the protocol allows (characters, the NUL excluded).
pub const MAX_MESSAGE: usize = 127;

/// Where a requested game starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPosition {
    /// `A`: the normal start, White to move.
    Initial,
    /// `B`: this side to move and these 50 squares (`w z W Z e`).
    Setup { to_move: Side, squares: String },
}

/// GAMEREQ: the initiator proposes a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRequest {
    pub version: u8,
    pub name: String,
    /// The colour the follower is asked to play.
    pub follower: Side,
    /// Thinking time of each player for the whole game.
    pub minutes: u16,
    /// Moves in the whole game (0: no limit).
    pub moves: u16,
    pub start: StartPosition,
}

/// The follower's answer to a GAMEREQ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AcceptCode {
    Accept,
    WrongVersion,
    DeclineThisGame,
    DeclineAll,
}

/// Why a side ends a game (the side sending the first GAMEEND speaks for
/// itself; an acknowledging GAMEEND says `Unspecified`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    Unspecified,
    ILose,
    Draw,
    IWin,
}

/// The answer to a take-back request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackCode {
    Accept,
    NotSupported,
    Decline,
}

/// A MOVE: start, end and captured squares (1-50), and the seconds it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveMessage {
    pub seconds: u16,
    pub from: u8,
    pub to: u8,
    pub captured: Vec<u8>,
}

/// Any DamExchange message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    GameRequest(GameRequest),
    GameAccept { name: String, code: AcceptCode },
    Move(MoveMessage),
    GameEnd { reason: EndReason, stop: bool },
    Chat(String),
    BackRequest { move_number: u16, to_move: Side },
    BackAccept(BackCode),
}

/// Why a message was refused: what is wrong, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WireError(pub String);

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for WireError {}

fn side_letter(side: Side) -> char {
    match side {
        Side::White => 'W',
        Side::Black => 'Z',
    }
}

/// A name padded (or cut) to 32 printable ASCII characters, never starting
/// with a blank.
pub fn pad_name(name: &str) -> String {
    // Blank out what is not printable first, then trim: a control character
    // at the start would otherwise become a leading blank.
    let printable: String = name
        .chars()
        .map(|c| if c.is_ascii_graphic() { c } else { ' ' })
        .collect();
    let clean: String = printable.trim_start().chars().take(NAME_WIDTH).collect();
    format!("{clean:<NAME_WIDTH$}")
}

impl Message {
    /// The bytes on the wire, NUL included. Numbers too wide for their field are
    /// clamped to its largest value (9999 seconds, 999 minutes...).
    pub fn encode(&self) -> Vec<u8> {
        let mut text = match self {
            Message::GameRequest(request) => {
                let mut text = format!(
                    "R{:02}{}{}{:03}{:03}",
                    request.version.min(99),
                    pad_name(&request.name),
                    side_letter(request.follower),
                    request.minutes.min(999),
                    request.moves.min(999)
                );
                match &request.start {
                    StartPosition::Initial => text.push('A'),
                    StartPosition::Setup { to_move, squares } => {
                        text.push('B');
                        text.push(side_letter(*to_move));
                        text.push_str(squares);
                    }
                }
                text
            }
            Message::GameAccept { name, code } => {
                let code = match code {
                    AcceptCode::Accept => '0',
                    AcceptCode::WrongVersion => '1',
                    AcceptCode::DeclineThisGame => '2',
                    AcceptCode::DeclineAll => '3',
                };
                format!("A{}{code}", pad_name(name))
            }
            Message::Move(mv) => {
                let mut text = format!(
                    "M{:04}{:02}{:02}{:02}",
                    mv.seconds.min(9999),
                    mv.from,
                    mv.to,
                    mv.captured.len().min(99)
                );
                for square in &mv.captured {
                    text.push_str(&format!("{square:02}"));
                }
                text
            }
            Message::GameEnd { reason, stop } => {
                let reason = match reason {
                    EndReason::Unspecified => '0',
                    EndReason::ILose => '1',
                    EndReason::Draw => '2',
                    EndReason::IWin => '3',
                };
                format!("E{reason}{}", if *stop { '1' } else { '0' })
            }
            Message::Chat(text) => {
                let clean: String = text
                    .chars()
                    .map(|c| {
                        if c.is_ascii() && !c.is_ascii_control() {
                            c
                        } else {
                            ' '
                        }
                    })
                    .take(MAX_MESSAGE - 1)
                    .collect();
                format!("C{clean}")
            }
            Message::BackRequest {
                move_number,
                to_move,
            } => format!("B{:03}{}", (*move_number).min(999), side_letter(*to_move)),
            Message::BackAccept(code) => {
                let code = match code {
                    BackCode::Accept => '0',
                    BackCode::NotSupported => '1',
                    BackCode::Decline => '2',
                };
                format!("K{code}")
            }
        }
        .into_bytes();
        text.push(0);
        text
    }

    /// Reads a message (its NUL already removed).
    pub fn decode(text: &str) -> Result<Message, WireError> {
        if text.len() > MAX_MESSAGE {
            return fail(format!(
                "{} characters: a message has at most {MAX_MESSAGE}",
                text.len()
            ));
        }
        if let Some(c) = text.chars().find(|c| !c.is_ascii() || *c == '\0') {
            return fail(format!("{c:?} is not allowed: messages are ASCII"));
        }
        let mut fields = Fields { text, at: 0 };
        let header = fields.take(1, "the message type")?;
        let message = match header {
            "R" => Message::GameRequest(decode_request(&mut fields)?),
            "A" => {
                let name = fields.take(NAME_WIDTH, "the follower's name")?.trim_end();
                let code = match fields.take(1, "the acceptance code")? {
                    "0" => AcceptCode::Accept,
                    "1" => AcceptCode::WrongVersion,
                    "2" => AcceptCode::DeclineThisGame,
                    "3" => AcceptCode::DeclineAll,
                    other => return fail(format!("GAMEACC: acceptance code {other:?} is not 0-3")),
                };
                Message::GameAccept {
                    name: name.to_string(),
                    code,
                }
            }
            "M" => {
                let seconds = fields.number(4, "MOVE: the time")?;
                let from = fields.square("MOVE: the start")?;
                let to = fields.square("MOVE: the end")?;
                let count = fields.number(2, "MOVE: the number captured")?;
                if count > 20 {
                    return fail(format!("MOVE: {count} captured pieces; at most 20 exist"));
                }
                let mut captured = Vec::with_capacity(count as usize);
                for _ in 0..count {
                    captured.push(fields.square("MOVE: a captured square")?);
                }
                Message::Move(MoveMessage {
                    seconds,
                    from,
                    to,
                    captured,
                })
            }
            "E" => {
                let reason = match fields.take(1, "GAMEEND: the reason")? {
                    "0" => EndReason::Unspecified,
                    "1" => EndReason::ILose,
                    "2" => EndReason::Draw,
                    "3" => EndReason::IWin,
                    other => return fail(format!("GAMEEND: reason {other:?} is not 0-3")),
                };
                let stop = match fields.take(1, "GAMEEND: the stop code")? {
                    "0" => false,
                    "1" => true,
                    other => return fail(format!("GAMEEND: stop code {other:?} is not 0 or 1")),
                };
                Message::GameEnd { reason, stop }
            }
            "C" => return Ok(Message::Chat(text[1..].to_string())),
            "B" => {
                let move_number = fields.number(3, "BACKREQ: the move number")?;
                let to_move = fields.side("BACKREQ: the side to move")?;
                Message::BackRequest {
                    move_number,
                    to_move,
                }
            }
            "K" => Message::BackAccept(match fields.take(1, "BACKACC: the code")? {
                "0" => BackCode::Accept,
                "1" => BackCode::NotSupported,
                "2" => BackCode::Decline,
                other => return fail(format!("BACKACC: code {other:?} is not 0-2")),
            }),
            other => {
                return fail(format!(
                    "unknown message type {other:?} (R, A, M, E, C, B or K)"
                ));
            }
        };
        fields.end(header)?;
        Ok(message)
    }

    /// The message's name in the protocol (GAMEREQ, MOVE...), for logs.
    pub fn kind(&self) -> &'static str {
        match self {
            Message::GameRequest(_) => "GAMEREQ",
            Message::GameAccept { .. } => "GAMEACC",
            Message::Move(_) => "MOVE",
            Message::GameEnd { .. } => "GAMEEND",
            Message::Chat(_) => "CHAT",
            Message::BackRequest { .. } => "BACKREQ",
            Message::BackAccept(_) => "BACKACC",
        }
    }
}

fn fail<T>(reason: String) -> Result<T, WireError> {
    Err(WireError(reason))
}

fn decode_request(fields: &mut Fields) -> Result<GameRequest, WireError> {
    let version = fields.number(2, "GAMEREQ: the version")?;
    let name = fields.take(NAME_WIDTH, "GAMEREQ: the initiator's name")?;
    let follower = fields.side("GAMEREQ: the follower's colour")?;
    let minutes = fields.number(3, "GAMEREQ: the thinking time")?;
    let moves = fields.number(3, "GAMEREQ: the number of moves")?;
    let start = match fields.take(1, "GAMEREQ: the starting position (A or B)")? {
        "A" => StartPosition::Initial,
        "B" => {
            let to_move = fields.side("GAMEREQ: the side to move first")?;
            let squares = fields.take(50, "GAMEREQ: the 50 squares of the position")?;
            StartPosition::Setup {
                to_move,
                squares: squares.to_string(),
            }
        }
        other => {
            return fail(format!(
                "GAMEREQ: starting position {other:?} is neither A (the normal start) nor B (a position)"
            ));
        }
    };
    Ok(GameRequest {
        version: version as u8,
        name: name.trim_end().to_string(),
        follower,
        minutes,
        moves,
        start,
    })
}

/// Fixed-width fields read in order.
struct Fields<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Fields<'a> {
    fn take(&mut self, width: usize, what: &str) -> Result<&'a str, WireError> {
        let end = self.at + width;
        match self.text.get(self.at..end) {
            Some(field) => {
                self.at = end;
                Ok(field)
            }
            None => fail(format!(
                "too short: {what} ({width} characters at position {}) is missing",
                self.at
            )),
        }
    }

    fn number(&mut self, width: usize, what: &str) -> Result<u16, WireError> {
        let field = self.take(width, what)?;
        if !field.bytes().all(|b| b.is_ascii_digit()) {
            return fail(format!("{what} must be {width} digits, not {field:?}"));
        }
        field
            .parse()
            .map_err(|_| WireError(format!("{what}: {field:?} is not a number")))
    }

    fn square(&mut self, what: &str) -> Result<u8, WireError> {
        let number = self.number(2, what)?;
        if !(1..=50).contains(&number) {
            return fail(format!("{what}: square {number:02} is not 01-50"));
        }
        Ok(number as u8)
    }

    fn side(&mut self, what: &str) -> Result<Side, WireError> {
        match self.take(1, what)? {
            "W" => Ok(Side::White),
            "Z" => Ok(Side::Black),
            other => fail(format!("{what} must be W or Z, not {other:?}")),
        }
    }

    fn end(&self, header: &str) -> Result<(), WireError> {
        if self.at == self.text.len() {
            Ok(())
        } else {
            fail(format!(
                "{} characters too many after a complete {header} message: {:?}",
                self.text.len() - self.at,
                &self.text[self.at..]
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(message: Message, bytes: &[u8]) {
        assert_eq!(message.encode(), bytes, "{message:?}");
        let text = std::str::from_utf8(&bytes[..bytes.len() - 1]).unwrap();
        assert_eq!(Message::decode(text).unwrap(), message);
    }

    #[test]
    fn the_rules_file_example_move() {
        round_trip(
            Message::Move(MoveMessage {
                seconds: 0,
                from: 25,
                to: 34,
                captured: vec![30],
            }),
            b"M000025340130\0",
        );
    }

    #[test]
    fn the_protocol_pages_examples() {
        round_trip(
            Message::Move(MoveMessage {
                seconds: 12,
                from: 6,
                to: 11,
                captured: vec![],
            }),
            b"M0012061100\0",
        );
        round_trip(
            Message::Move(MoveMessage {
                seconds: 12,
                from: 5,
                to: 25,
                captured: vec![22, 12, 23, 20],
            }),
            b"M001205250422122320\0",
        );
        round_trip(
            Message::GameAccept {
                name: "Tornado voor Windows 4.0".into(),
                code: AcceptCode::Accept,
            },
            b"ATornado voor Windows 4.0        0\0",
        );
        round_trip(
            Message::GameEnd {
                reason: EndReason::Unspecified,
                stop: false,
            },
            b"E00\0",
        );
        round_trip(
            Message::Chat("What do you think about move 35?".into()),
            b"CWhat do you think about move 35?\0",
        );
        round_trip(
            Message::BackRequest {
                move_number: 5,
                to_move: Side::Black,
            },
            b"B005Z\0",
        );
    }

    #[test]
    fn game_requests() {
        round_trip(
            Message::GameRequest(GameRequest {
                version: 1,
                name: "plateau master".into(),
                follower: Side::Black,
                minutes: 5,
                moves: 0,
                start: StartPosition::Initial,
            }),
            b"R01plateau master                  Z005000A\0",
        );
        let squares = format!("{}{}{}", "z".repeat(20), "e".repeat(10), "w".repeat(20));
        let message = Message::GameRequest(GameRequest {
            version: 1,
            name: "x".into(),
            follower: Side::White,
            minutes: 120,
            moves: 75,
            start: StartPosition::Setup {
                to_move: Side::Black,
                squares: squares.clone(),
            },
        });
        let mut bytes = format!("R01x{}W120075BZ{squares}", " ".repeat(31)).into_bytes();
        bytes.push(0);
        round_trip(message, &bytes);
    }

    #[test]
    fn ends_accepts_and_take_backs() {
        for (reason, stop, bytes) in [
            (EndReason::ILose, false, b"E10\0"),
            (EndReason::Draw, true, b"E21\0"),
            (EndReason::IWin, false, b"E30\0"),
        ] {
            round_trip(Message::GameEnd { reason, stop }, bytes);
        }
        round_trip(Message::BackAccept(BackCode::Decline), b"K2\0");
        round_trip(Message::BackAccept(BackCode::NotSupported), b"K1\0");
        round_trip(
            Message::GameAccept {
                name: "plateau".into(),
                code: AcceptCode::DeclineAll,
            },
            b"Aplateau                         3\0",
        );
        round_trip(Message::Chat(String::new()), b"C\0");
    }

    #[test]
    fn names_are_padded_cleaned_and_cut() {
        assert_eq!(pad_name("  a\tb").len(), 32);
        assert!(pad_name("  a\tb").starts_with("a b"));
        assert_eq!(pad_name(&"n".repeat(40)), "n".repeat(32));
    }

    /// Found by the `dxp` fuzz target: a name whose first printable character
    /// followed a control character was written with a leading blank, so the
    /// message read back changed again when written once more.
    #[test]
    fn a_name_starting_with_a_control_character_is_written_without_a_leading_blank() {
        assert!(pad_name("\u{19}plateau").starts_with("plateau"));
        assert!(pad_name(" \t\u{1}x").starts_with('x'));
        let text = "A  \u{19}             -               0";
        let message = Message::decode(text).unwrap();
        let written = message.encode();
        assert_eq!(written[1], b'-', "{written:?}");
        let again = Message::decode(std::str::from_utf8(&written[..written.len() - 1]).unwrap());
        assert_eq!(again.unwrap().encode(), written);
    }

    #[test]
    fn malformed_messages_say_what_is_wrong() {
        for (text, expected) in [
            ("", "message type"),
            ("X", "unknown message type"),
            ("M0000", "too short"),
            ("M00002530", "too short"),
            ("M0000253001", "too short"),
            ("M000025340130x", "too many"),
            ("M00a025340130", "4 digits"),
            ("M000099340100", "not 01-50"),
            ("M000025342100", "at most 20"),
            ("E4", "reason"),
            ("E12", "stop code"),
            ("R01short", "too short"),
            ("Ahello", "too short"),
            ("B005X", "W or Z"),
            ("K7", "not 0-2"),
            ("Cé", "ASCII"),
        ] {
            let err = Message::decode(text).unwrap_err();
            assert!(err.0.contains(expected), "{text:?}: {err}");
        }
        let long = format!("C{}", "x".repeat(200));
        assert!(
            Message::decode(&long)
                .unwrap_err()
                .0
                .contains("at most 127")
        );
        let mut request = format!("R01x{}Z005000C", " ".repeat(31));
        assert!(
            Message::decode(&request)
                .unwrap_err()
                .0
                .contains("neither A")
        );
        request.truncate(request.len() - 1);
        request.push_str("BW");
        assert!(
            Message::decode(&request)
                .unwrap_err()
                .0
                .contains("50 squares")
        );
    }
}
