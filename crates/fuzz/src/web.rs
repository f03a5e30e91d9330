//! The server's JSON request bodies: read as the handlers read them
//! (`serde_json` into the body type), then checked as the handlers check them
//! before touching a room.

use plateau_games::{GAMES, GameSpec};
use plateau_server::{CreateRoom, MoveBody, TokenBody, check_move_text};

/// The first byte picks the body (create a room, play a move, a token) and,
/// for a move, the game; the rest is the JSON. A room request that passes its
/// checks names a game that starts; a move that passes is played, and a
/// refused one leaves the game as it was.
pub fn api_json(data: &[u8]) {
    let Some((&choice, body)) = data.split_first() else {
        return;
    };
    match choice % 3 {
        0 => {
            let Ok(request) = serde_json::from_slice::<CreateRoom>(body) else {
                return;
            };
            if let Ok(room) = request.check() {
                let mut game = room.spec.new_game();
                assert_eq!(game.name(), room.spec.full_name());
                assert!(!game.legal_moves().is_empty(), "a new room's game is over");
                // A carried-over game's moves were each checked legal.
                for mv in &room.moves {
                    assert!(game.play(mv).is_ok(), "{mv} was accepted");
                }
            }
        }
        1 => {
            let Ok(request) = serde_json::from_slice::<MoveBody>(body) else {
                return;
            };
            let info = GAMES[usize::from(choice / 3) % GAMES.len()];
            let Ok(spec) = GameSpec::lookup(info.name, None) else {
                panic!("{} is not registered", info.name);
            };
            if check_move_text(&request.mv).is_err() {
                return;
            }
            let mut game = spec.new_game();
            let before = game.to_text();
            match game.play(&request.mv) {
                Ok(played) => assert_eq!(game.history(), [played]),
                Err(_) => {
                    assert_eq!(
                        game.to_text(),
                        before,
                        "a refused move changed the room's game"
                    );
                    assert!(game.history().is_empty());
                }
            }
        }
        _ => {
            let _ = serde_json::from_slice::<TokenBody>(body);
        }
    }
}
