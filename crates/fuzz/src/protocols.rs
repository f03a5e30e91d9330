//! The protocol lines: Escampe's arbiter, Hub, DamExchange and UAI, read as
//! the sessions read them (lines cut by `protocols::line`, bounded).

use crate::text;
use plateau_core::{Erased, Game, MoveList};
use plateau_draughts::Draughts;
use plateau_games::EngineChoice;
use plateau_protocols::draughts_wire::{
    DXP, HUB, move_from_fields, position_from_squares, squares_text,
};
use plateau_protocols::dxp::wire::{Message, StartPosition};
use plateau_protocols::escampe::openings::Opening;
use plateau_protocols::escampe::wire::{
    ServerMessage, colour_line, end_line, move_line, turn_line,
};
use plateau_protocols::hub::command::{Command as HubCommand, parse as parse_hub};
use plateau_protocols::hub::wire::{Line, format_line};
use plateau_protocols::line::{LineError, read_line};
use plateau_protocols::uai::{Command as UaiCommand, UaiConfig, run_uai};
use std::io::Cursor;

/// Longest line read, as the sessions bound theirs.
const LINE_LIMIT: usize = 4096;

/// Lines read from one input.
const MAX_LINES: usize = 64;

/// The lines of `data` as [`read_line`] gives them (over-long ones skipped).
fn lines(data: &[u8], delimiter_nul: bool) -> Vec<String> {
    let mut found = Vec::new();
    if delimiter_nul {
        for part in data.split(|&b| b == 0).take(MAX_LINES) {
            found.push(text(part).trim_matches(['\r', '\n']).to_string());
        }
        return found;
    }
    let mut reader = Cursor::new(data);
    while found.len() < MAX_LINES {
        match read_line(&mut reader, LINE_LIMIT) {
            Ok(line) => {
                assert!(!line.contains('\n'), "a line holds a newline");
                assert!(line.len() <= 2 * LINE_LIMIT, "a line past its limit");
                found.push(line);
            }
            Err(LineError::TooLong(_)) => continue,
            Err(_) => break,
        }
    }
    found
}

/// The Escampe arbiter's lines as the client reads them: each message the
/// client understands reads back from the bytes the arbiter writes for it.
pub fn escampe_wire(data: &[u8]) {
    for line in lines(data, false) {
        // The same line as a line of an arbiter's openings file: one it
        // accepts is checked by the rules and reads back from its own text.
        if let Ok(Some(opening)) = Opening::parse(&line) {
            assert_eq!(
                Opening::parse(&opening.text()),
                Ok(Some(opening.clone())),
                "{line:?} as an opening does not read back"
            );
        }
        let message = ServerMessage::parse(&line);
        let bytes = match &message {
            ServerMessage::Colour(side) => colour_line(*side),
            ServerMessage::Turn(side) => turn_line(*side),
            ServerMessage::End(winner) => end_line(*winner),
            // A move ending in NUL or CR loses it on the wire: the arbiter
            // never writes one, and the game refuses it anyway.
            ServerMessage::Move(mv) if !mv.contains(['\0', '\r']) => move_line(mv),
            ServerMessage::Move(_) | ServerMessage::Unknown(_) => continue,
        };
        let written = read_line(&mut Cursor::new(&bytes), LINE_LIMIT)
            .unwrap_or_else(|err| panic!("{message:?} written as {bytes:?} does not read: {err}"));
        assert_eq!(
            ServerMessage::parse(&written),
            message,
            "{line:?} read back as another message"
        );
    }
}

/// Hub lines: a line that splits writes back to the same split, and a `pos`
/// command gives a legal position and moves.
pub fn hub(data: &[u8]) {
    for line in lines(data, false) {
        if let Ok(Some(split)) = Line::parse(&line)
            && split.args.iter().all(|(_, value)| value.is_some())
        {
            let args: Vec<(&str, &str)> = split
                .args
                .iter()
                .map(|(name, value)| (name.as_str(), value.as_deref().unwrap_or("")))
                .collect();
            let written = format_line(&split.command, &args);
            let again = Line::parse(&written)
                .unwrap_or_else(|err| panic!("{written:?} does not split again: {err}"));
            // Line breaks inside a quoted value are written as blanks.
            let mut expected = split.clone();
            for (_, value) in &mut expected.args {
                *value = value.as_ref().map(|v| v.replace(['\n', '\r'], " "));
            }
            assert_eq!(again, Some(expected), "{line:?} written as {written:?}");
        }
        match parse_hub(&line) {
            Ok(Some(HubCommand::Pos { start, moves })) => {
                let squares = squares_text(&start, &HUB);
                let side = HUB.side(start.side_to_move());
                let again = position_from_squares(start.side_to_move(), &squares, &HUB)
                    .unwrap_or_else(|err| panic!("{side}{squares} does not read back: {err}"));
                assert_eq!(again.to_text(), start.to_text(), "hub position round trip");
                let mut game = Erased::new("draughts", *start);
                for mv in moves {
                    let mut legal = MoveList::new();
                    game.game().legal_moves(&mut legal);
                    assert!(legal.contains(&mv), "an illegal move accepted");
                    game.play_typed(mv);
                }
                crate::games::check_draughts(game.game());
            }
            Ok(Some(HubCommand::Level(level))) => {
                let _ = level.limits();
            }
            _ => {}
        }
    }
}

/// DamExchange messages, NUL-separated: each message read encodes back to
/// itself; a GAMEREQ position and the MOVEs that follow are played as the
/// session plays them.
pub fn dxp(data: &[u8]) {
    let mut position = Draughts::new();
    for text in lines(data, true) {
        let Ok(message) = Message::decode(&text) else {
            continue;
        };
        let mut bytes = message.encode();
        assert_eq!(bytes.pop(), Some(0), "a message ends with NUL");
        let written = String::from_utf8(bytes).unwrap_or_else(|_| panic!("{message:?} not ASCII"));
        let again = Message::decode(&written)
            .unwrap_or_else(|err| panic!("{message:?} written as {written:?} is refused: {err}"));
        // Names lose their leading blanks and chats their control
        // characters when written: after that one normalisation, writing and
        // reading are exact inverses.
        let mut rewritten = again.encode();
        rewritten.pop();
        assert_eq!(
            rewritten,
            written.as_bytes(),
            "{text:?} written as {written:?}"
        );
        if !matches!(
            message,
            Message::GameRequest(_) | Message::GameAccept { .. } | Message::Chat(_)
        ) {
            assert_eq!(again, message, "{text:?} written as {written:?}");
        }
        match message {
            Message::GameRequest(request) => {
                position = match request.start {
                    StartPosition::Initial => Draughts::new(),
                    StartPosition::Setup { to_move, squares } => {
                        match position_from_squares(to_move, &squares, &DXP) {
                            Ok(setup) => {
                                assert_eq!(squares_text(&setup, &DXP), squares, "DXP squares");
                                setup
                            }
                            Err(_) => continue,
                        }
                    }
                };
            }
            Message::Move(mv) => {
                if let Ok(found) = move_from_fields(&position, mv.from, mv.to, &mv.captured) {
                    let mut legal = MoveList::new();
                    position.legal_moves(&mut legal);
                    assert!(legal.contains(&found), "an illegal DXP move");
                    position.play(found);
                }
            }
            _ => {}
        }
    }
    crate::games::check_draughts(&position);
}

/// UAI: every line is parsed, then the whole input (less `go`, which would
/// search) is played through a real session, which must neither panic nor
/// fail.
pub fn uai(data: &[u8]) {
    let mut kept = String::new();
    for line in lines(data, false) {
        match UaiCommand::parse(&line) {
            Ok(UaiCommand::Go(_)) => {}
            _ => {
                kept.push_str(&line);
                kept.push('\n');
            }
        }
    }
    let Ok(engine) = EngineChoice::parse("beginner") else {
        panic!("beginner is an engine");
    };
    let config = UaiConfig {
        engine,
        seed: 1,
        threads: 1,
    };
    let result = run_uai(&config, Cursor::new(kept.into_bytes()), std::io::sink());
    assert!(result.is_ok(), "the UAI session failed: {result:?}");
}
