// Included once per storage backend by the test file of the same name.

use serde_json::{Value, json};
use std::time::Duration;
use crate::support::*;

/// A friend room of `game` with both seats taken: (code, white, black).
async fn room_of(server: &TestServer, game: &str) -> (String, String, String) {
    let (code, seat, white) = create(
        server,
        json!({"game": game, "seat": "white", "opponent": "friend"}),
    )
    .await;
    assert_eq!(seat, "white");
    let (status, joined) = post(&server.url(&format!("/api/rooms/{code}/join")), json!({})).await;
    assert_eq!(status, 200, "{joined}");
    (code, white, joined["token"].as_str().unwrap().to_string())
}

async fn ask(
    server: &TestServer,
    code: &str,
    what: &str,
    token: &str,
    action: &str,
) -> (u16, Value) {
    post(
        &server.url(&format!("/api/rooms/{code}/{what}")),
        json!({"token": token, "action": action}),
    )
    .await
}

fn moves(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_takeback_between_players_needs_the_opponents_consent() {
    let db = test_db!("takeback");
    let server = TestServer::start(&db, test_config()).await;
    let (code, white, black) = room_of(&server, "draughts").await;
    let (status, body) = ask(&server, &code, "takeback", &white, "offer").await;
    assert_eq!(status, 409, "nothing to take back yet: {body}");
    let first = play_first(&server, &code, &white).await;
    let now = state(&server, &code).await;
    assert_eq!(now["can_take_back"], json!({"white": true, "black": false}));
    play_first(&server, &code, &black).await;

    let (status, asked) = ask(&server, &code, "takeback", &white, "offer").await;
    assert_eq!(status, 200, "{asked}");
    assert_eq!(asked["offer"], json!({"kind": "takeback", "by": "white"}));
    assert_eq!(moves(&asked).len(), 2, "nothing undone before the answer");
    let (status, _) = ask(&server, &code, "takeback", &white, "accept").await;
    assert_eq!(status, 409, "one cannot accept one's own request");
    let (status, _) = ask(&server, &code, "takeback", &white, "offer").await;
    assert_eq!(status, 409, "already asked");

    // The request survives a restart.
    server.stop().await;
    let server = TestServer::start(&db, test_config()).await;
    assert_eq!(
        state(&server, &code).await["offer"],
        json!({"kind": "takeback", "by": "white"})
    );

    let (status, declined) = ask(&server, &code, "takeback", &black, "decline").await;
    assert_eq!(status, 200);
    assert_eq!(declined["offer"], Value::Null);
    assert_eq!(moves(&declined).len(), 2);

    ask(&server, &code, "takeback", &white, "offer").await;
    let (status, granted) = ask(&server, &code, "takeback", &black, "accept").await;
    assert_eq!(status, 200, "{granted}");
    // White's move and Black's reply are gone: White to move again.
    assert!(moves(&granted).is_empty(), "{granted}");
    assert_eq!(granted["side_to_move"], "white");
    assert_eq!(granted["offer"], Value::Null);
    let log: Vec<&str> = granted["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    assert_eq!(log[0], "white asked for a takeback");
    assert_eq!(log[1], "black declined the takeback");
    assert!(
        log[3].starts_with(&format!("took back {first} ")),
        "{log:?}"
    );

    // The game goes on from there, and the history survives a restart.
    play_first(&server, &code, &white).await;
    server.stop().await;
    let server = TestServer::start(&db, test_config()).await;
    let restored = state(&server, &code).await;
    assert_eq!(moves(&restored).len(), 1);
    assert_eq!(restored["log"], granted["log"]);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_move_voids_a_takeback_request() {
    let server = TestServer::start(&test_db!("takeback-void"), test_config()).await;
    let (code, white, black) = room_of(&server, "ataxx").await;
    // Black (x) moves first in Ataxx.
    assert_eq!(state(&server, &code).await["side_to_move"], "black");
    play_first(&server, &code, &black).await;
    let (status, asked) = ask(&server, &code, "takeback", &black, "offer").await;
    assert_eq!(status, 200, "{asked}");
    play_first(&server, &code, &white).await;
    let now = state(&server, &code).await;
    assert_eq!(now["offer"], Value::Null);
    assert_eq!(moves(&now).len(), 2);
    let (status, _) = ask(&server, &code, "takeback", &white, "accept").await;
    assert_eq!(status, 409);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_takeback_against_the_ai_undoes_my_move_and_its_reply() {
    let server = TestServer::start(&test_db!("takeback-ai"), test_config()).await;
    let (code, seat, token) = create(
        &server,
        json!({"game": "draughts", "seat": "white", "opponent": "ai", "level": "beginner"}),
    )
    .await;
    assert_eq!(seat, "white");
    play_first(&server, &code, &token).await;
    wait_for_moves(&server, &code, 2).await;
    let (status, granted) = ask(&server, &code, "takeback", &token, "offer").await;
    assert_eq!(status, 200, "{granted}");
    assert!(moves(&granted).is_empty(), "{granted}");
    assert_eq!(granted["side_to_move"], "white");
    assert_eq!(granted["offer"], Value::Null, "the AI grants it at once");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_draw_offered_and_accepted_ends_the_game() {
    let server = TestServer::start(&test_db!("draw"), test_config()).await;
    let (code, white, black) = room_of(&server, "draughts").await;
    assert_eq!(state(&server, &code).await["draw_by_agreement"], true);
    let (status, _) = ask(&server, &code, "draw", &black, "accept").await;
    assert_eq!(status, 409, "no offer to accept");
    let (status, offered) = ask(&server, &code, "draw", &white, "offer").await;
    assert_eq!(status, 200);
    assert_eq!(offered["offer"], json!({"kind": "draw", "by": "white"}));
    // White's own move keeps the offer; Black's answer decides.
    play_first(&server, &code, &white).await;
    assert_eq!(
        state(&server, &code).await["offer"],
        json!({"kind": "draw", "by": "white"})
    );
    let (status, drawn) = ask(&server, &code, "draw", &black, "accept").await;
    assert_eq!(status, 200, "{drawn}");
    assert_eq!(drawn["status"], "finished");
    assert_eq!(
        drawn["result"],
        json!({"winner": null, "reason": "agreement"})
    );
    assert_eq!(drawn["offer"], Value::Null);
    let (status, _) = ask(&server, &code, "draw", &white, "offer").await;
    assert_eq!(status, 409, "the game is over");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_draw_offer_is_declined_withdrawn_or_answered_by_a_move() {
    let server = TestServer::start(&test_db!("draw-no"), test_config()).await;
    let (code, white, black) = room_of(&server, "abalone").await;
    ask(&server, &code, "draw", &white, "offer").await;
    let (status, declined) = ask(&server, &code, "draw", &black, "decline").await;
    assert_eq!(status, 200);
    assert_eq!(declined["offer"], Value::Null);
    assert_eq!(declined["status"], "playing");
    ask(&server, &code, "draw", &white, "offer").await;
    let (_, withdrawn) = ask(&server, &code, "draw", &white, "decline").await;
    assert_eq!(withdrawn["log"][3], "white withdrew the draw offer");
    // An offer by the side to move, answered by the opponent's move.
    let now = state(&server, &code).await;
    let to_move = if now["side_to_move"] == "white" {
        &white
    } else {
        &black
    };
    let other = if to_move == &white { &black } else { &white };
    ask(&server, &code, "draw", to_move, "offer").await;
    play_first(&server, &code, to_move).await;
    play_first(&server, &code, other).await;
    assert_eq!(state(&server, &code).await["offer"], Value::Null);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn games_without_draws_refuse_a_draw_offer() {
    let server = TestServer::start(&test_db!("draw-none"), test_config()).await;
    for game in ["escampe", "virus"] {
        let (code, white, _) = room_of(&server, game).await;
        assert_eq!(state(&server, &code).await["draw_by_agreement"], false);
        let (status, body) = ask(&server, &code, "draw", &white, "offer").await;
        assert_eq!(status, 409, "{game}");
        assert!(
            body["error"]
                .as_str()
                .unwrap()
                .contains("no draw by agreement"),
            "{body}"
        );
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_ai_answers_a_draw_offer_at_once() {
    let server = TestServer::start(&test_db!("draw-ai"), test_config()).await;
    let (code, _, token) = create(
        &server,
        json!({"game": "ataxx", "seat": "white", "opponent": "ai", "level": "beginner"}),
    )
    .await;
    let (status, answered) = ask(&server, &code, "draw", &token, "offer").await;
    assert_eq!(status, 200, "{answered}");
    assert_eq!(answered["offer"], Value::Null, "no offer left pending");
    let log = answered["log"].as_array().unwrap();
    assert_eq!(log[0], "white offered a draw");
    let accepted = answered["status"] == "finished";
    if accepted {
        assert_eq!(answered["result"]["reason"], "agreement");
        assert_eq!(log[1], "the AI accepted the draw");
    } else {
        assert_eq!(log[1], "the AI declined the draw");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn offers_need_a_seat_and_a_known_action() {
    let server = TestServer::start(&test_db!("offer-bad"), test_config()).await;
    let (code, white, _) = room_of(&server, "draughts").await;
    let url = server.url(&format!("/api/rooms/{code}/draw"));
    let (status, _) = post(&url, json!({"action": "offer"})).await;
    assert_eq!(status, 403);
    let (status, _) = post(&url, json!({"token": "nope", "action": "offer"})).await;
    assert_eq!(status, 403);
    let (status, body) = post(&url, json!({"token": white, "action": "surrender"})).await;
    assert_eq!(status, 422, "{body}");
    let (status, _) = post(
        &url,
        json!({"token": white, "action": "offer", "version": 1}),
    )
    .await;
    assert_eq!(status, 409, "a stale version");
    assert_eq!(state(&server, &code).await["offer"], Value::Null);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn positions_replay_every_move() {
    let server = TestServer::start(&test_db!("positions"), test_config()).await;
    let (code, white, black) = room_of(&server, "draughts").await;
    play_first(&server, &code, &white).await;
    play_first(&server, &code, &black).await;
    let now = state(&server, &code).await;
    let (status, replay) = get(&server.url(&format!("/api/rooms/{code}/positions"))).await;
    assert_eq!(status, 200, "{replay}");
    let positions = replay["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 3);
    assert_eq!(positions[0], now["start"]);
    assert_eq!(positions[2], now["position"]);
    assert_ne!(positions[1], positions[0]);
    assert_eq!(replay["moves"], now["moves"]);
    assert_eq!(replay["version"], now["version"]);
    let (status, _) = get(&server.url("/api/rooms/ZZZZZ/positions")).await;
    assert_eq!(status, 404);
    server.stop().await;
}

/// The next `lobby` event of a lobby stream that satisfies `wanted`.
async fn lobby_event_where(
    stream: &mut SseReader,
    context: &str,
    wanted: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        let event = stream
            .next_within(left)
            .await
            .unwrap_or_else(|| panic!("{context}: no such lobby event within 5 s"));
        assert_eq!(event.event, "lobby", "{event:?}");
        if wanted(&event.data) {
            return event.data;
        }
    }
}

fn waiting_codes(listed: &Value) -> Vec<String> {
    listed["waiting"]
        .as_array()
        .unwrap()
        .iter()
        .map(|room| room["code"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_lobby_lists_public_rooms_to_join_and_to_watch() {
    let db = test_db!("lobby");
    let server = TestServer::start(&db, test_config()).await;
    let mut feed = SseReader::open(&server.url("/api/lobby/events"), None, None).await;
    let empty = lobby_event_where(&mut feed, "the first event", |_| true).await;
    assert_eq!(empty, json!({"waiting": [], "playing": []}));
    let (code, _, creator) = create(
        &server,
        json!({"game": "draughts", "seat": "black", "opponent": "friend", "public": true}),
    )
    .await;
    let (private, _, private_token) = create(
        &server,
        json!({"game": "draughts", "seat": "white", "opponent": "friend"}),
    )
    .await;
    // Not listed until its creator's page is there: nobody would play.
    let (status, listed) = get(&server.url("/api/lobby")).await;
    assert_eq!(status, 200, "{listed}");
    assert!(waiting_codes(&listed).is_empty(), "{listed}");
    let page = SseReader::open(
        &server.url(&format!("/api/rooms/{code}/events")),
        Some(&creator),
        None,
    )
    .await;
    let _private_page = SseReader::open(
        &server.url(&format!("/api/rooms/{private}/events")),
        Some(&private_token),
        None,
    )
    .await;
    let listed = lobby_event_where(&mut feed, "the creator connected", |l| {
        !waiting_codes(l).is_empty()
    })
    .await;
    let waiting = listed["waiting"].as_array().unwrap();
    assert_eq!(waiting.len(), 1, "only the public room: {listed}");
    assert_eq!(waiting[0]["code"], code.as_str());
    assert_eq!(waiting[0]["creator"], "black");
    assert_eq!(waiting[0]["title"], "International draughts");
    assert!(!listed.to_string().contains(&private));
    let (_, polled) = get(&server.url("/api/lobby")).await;
    assert_eq!(polled, listed);
    assert_eq!(state(&server, &code).await["public"], true);

    // The creator closes the page: gone from the lobby at once, and back
    // when they return.
    drop(page);
    lobby_event_where(&mut feed, "the creator left", |l| {
        waiting_codes(l).is_empty()
    })
    .await;
    let (_, polled) = get(&server.url("/api/lobby")).await;
    assert!(waiting_codes(&polled).is_empty(), "{polled}");
    let _page = SseReader::open(
        &server.url(&format!("/api/rooms/{code}/events")),
        Some(&creator),
        None,
    )
    .await;
    lobby_event_where(&mut feed, "the creator came back", |l| {
        waiting_codes(l) == [code.clone()]
    })
    .await;

    // Once joined it is a game to watch, at once; it survives a restart;
    // once over it leaves the lobby.
    let (_, joined) = post(&server.url(&format!("/api/rooms/{code}/join")), json!({})).await;
    let white = joined["token"].as_str().unwrap().to_string();
    let listed = lobby_event_where(&mut feed, "the seat filled", |l| {
        waiting_codes(l).is_empty()
    })
    .await;
    assert_eq!(listed["playing"][0]["code"], code.as_str(), "{listed}");
    play_first(&server, &code, &white).await;
    server.stop().await;
    let server = TestServer::start(&db, test_config()).await;
    let (_, listed) = get(&server.url("/api/lobby")).await;
    assert!(listed["waiting"].as_array().unwrap().is_empty());
    let playing = listed["playing"].as_array().unwrap();
    assert_eq!(playing.len(), 1);
    assert_eq!(playing[0]["code"], code.as_str());
    assert_eq!(playing[0]["moves"], 1);
    post(
        &server.url(&format!("/api/rooms/{code}/resign")),
        json!({"token": white}),
    )
    .await;
    let (_, listed) = get(&server.url("/api/lobby")).await;
    assert!(listed["playing"].as_array().unwrap().is_empty(), "{listed}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn one_request_tells_where_each_of_a_players_games_stands() {
    let server = TestServer::start(&test_db!("summaries"), test_config()).await;
    let (waiting, _) = white_room(&server, "ataxx").await;
    let (playing, white, _black) = room_of(&server, "draughts").await;
    let (finished, white2) = white_room(&server, "draughts").await;
    join(&server, &finished).await;
    post(
        &server.url(&format!("/api/rooms/{finished}/resign")),
        json!({"token": white2}),
    )
    .await;
    play_first(&server, &playing, &white).await;
    let (status, summary) = get(&server.url(&format!(
        "/api/rooms?codes={waiting},{},{finished},ZZZZZ",
        playing.to_lowercase()
    )))
    .await;
    assert_eq!(status, 200, "{summary}");
    let rooms = summary["rooms"].as_array().unwrap();
    assert_eq!(rooms.len(), 3, "{summary}");
    assert_eq!(rooms[0]["code"], waiting.as_str());
    assert_eq!(rooms[0]["status"], "waiting");
    assert_eq!(rooms[1]["code"], playing.as_str());
    assert_eq!(rooms[1]["status"], "playing");
    assert_eq!(rooms[1]["moves"], 1);
    assert_eq!(
        rooms[1]["side_to_move"],
        state(&server, &playing).await["side_to_move"]
    );
    assert_eq!(rooms[2]["status"], "finished");
    assert_eq!(rooms[2]["result"]["winner"], "black");
    assert_eq!(rooms[2]["result"]["reason"], "resignation");
    assert_eq!(summary["missing"], json!(["ZZZZZ"]));

    // Bad requests name what is wrong.
    let (status, body) = get(&server.url("/api/rooms?codes=AB*DE")).await;
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("\"AB*DE\" is not a room code"), "{body}");
    let (status, body) = get(&server.url("/api/rooms")).await;
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("?codes="), "{body}");
    let many = vec!["ABCDE"; 31].join(",");
    let (status, body) = get(&server.url(&format!("/api/rooms?codes={many}"))).await;
    assert_eq!(status, 400, "{body}");
    assert!(body["error"].as_str().unwrap().contains("at most 30"), "{body}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_placement_that_loses_by_force_is_flagged_before_it_is_played() {
    let server = TestServer::start(&test_db!("check"), test_config()).await;
    let (code, white, black) = friend_room(&server).await;
    let url = server.url(&format!("/api/rooms/{code}/check"));
    // The API doc's example placement: White takes the unicorn in two moves.
    let (status, risky) = post(&url, json!({"token": black, "move": "C6/A6/B5/D5/E6/F5"})).await;
    assert_eq!(status, 200, "{risky}");
    assert_eq!(risky["legal"], true);
    assert_eq!(risky["warning"]["winner"], "white", "{risky}");
    assert!(risky["warning"]["in_moves"].as_i64().unwrap() <= 3);
    // The placement book's safest placement draws no warning.
    let book = include_str!("../../../escampe/src/placement_book.txt")
        .lines()
        .find(|l| !l.starts_with('#') && !l.trim().is_empty())
        .and_then(|l| l.split_whitespace().next())
        .unwrap()
        .to_string();
    let (_, safe) = post(&url, json!({"token": black, "move": book})).await;
    assert_eq!(safe["legal"], true, "{safe}");
    assert_eq!(safe["warning"], Value::Null, "{book}: {safe}");
    let (_, illegal) = post(&url, json!({"token": black, "move": "C6/A6/B5/D5/E6/F2"})).await;
    assert_eq!(illegal["legal"], false);
    assert!(
        illegal["reason"].as_str().unwrap().contains("F2"),
        "{illegal}"
    );
    // Only the side to move may ask, and nothing is played.
    let (status, _) = post(&url, json!({"token": white, "move": book})).await;
    assert_eq!(status, 409);
    let (status, _) = post(&url, json!({"move": book})).await;
    assert_eq!(status, 403);
    assert!(moves(&state(&server, &code).await).is_empty());
    // Blanc places and then moves first: its winning placement is no warning
    // (the score is read from the mover's side, not the side to move).
    play(&server, &code, &black, 2, "C6/A6/B5/D5/E6/F5").await;
    let (_, winning) = post(&url, json!({"token": white, "move": "A1/B1/A2/C2/D2/F2"})).await;
    assert_eq!(winning["legal"], true, "{winning}");
    assert_eq!(winning["warning"], Value::Null, "{winning}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_catalogue_names_each_games_sides_and_whether_it_has_draws() {
    let server = TestServer::start(&test_db!("catalogue"), test_config()).await;
    let (status, catalogue) = get(&server.url("/api/games")).await;
    assert_eq!(status, 200);
    let game = |name: &str| {
        catalogue["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["name"] == name)
            .cloned()
            .unwrap()
    };
    assert_eq!(game("ataxx")["sides"]["black"]["name"], "Black (x)");
    assert_eq!(game("ataxx")["sides"]["black"]["note"], "moves first");
    assert_eq!(game("escampe")["sides"]["black"]["note"], "places first");
    assert_eq!(game("draughts")["sides"]["white"]["note"], "moves first");
    assert_eq!(game("draughts")["draw_by_agreement"], true);
    assert_eq!(game("virus")["draw_by_agreement"], false);
    server.stop().await;
}
