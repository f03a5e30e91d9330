//! The engine in the browser (web/engine/, crates/wasm): a game against the
//! computer that goes on with the server stopped, the analysis board, the
//! in-page training, and the module's speed and node counts in Chromium.

use super::*;

/// A whole game against the in-browser computer at `medium`, with the server
/// stopped once the page and the engine are loaded: every move of the
/// person, every reply of the computer and the end come from the worker.
#[test]
fn a_whole_game_against_the_computer_in_this_browser_with_the_server_stopped() {
    let Some(mut h) = harness("local-game") else {
        return;
    };
    let page = h.person();
    start_local_game(&page, &h.base(), "virus", Some("5x5"), "medium", "white");
    assert_eq!(
        page.eval("document.querySelectorAll('.board .cell').length"),
        25
    );
    assert_eq!(
        page.eval("!!document.querySelector('[data-local=true]')"),
        true,
        "the page says the computer runs locally"
    );
    // The virus game: Black (x) moves first, and the computer has Black.
    wait_moves(&page, 1);
    h.stop_server();
    let mut plies = 0;
    while page.eval("document.querySelector('.game').dataset.status") != "finished" {
        page.wait_for(MY_TURN_OR_OVER);
        if page.eval("document.querySelector('.game').dataset.status") == "finished" {
            break;
        }
        plies = play_a_move(&page);
        assert!(plies < 200, "a 5x5 virus game lasts fewer plies");
    }
    assert!(moves(&page) >= 3, "a game was played: {}", page.describe());
    page.wait_for("document.querySelector('.banner .headline')?.textContent");
    // Kept in this browser, with its result.
    let kept = page.eval(
        "(() => { const g = JSON.parse(localStorage.getItem('plateau.local'))[0]; \
         return g.result && g.moves.length === +document.querySelector('.game').dataset.moves; })()",
    );
    assert_eq!(kept, true, "the finished game is in local storage");
    page.screenshot(&screenshot_path("local-game"));
    let _ = plies;
    h.assert_no_page_errors();
}

/// Starts a game against the computer in this browser from the home page.
fn start_local_game(
    page: &Page,
    base: &str,
    game: &str,
    variant: Option<&str>,
    level: &str,
    colour: &str,
) {
    page.goto(&format!("{base}/"));
    page.wait_for("!!document.querySelector('input[name=game]')");
    page.click(&format!("input[name=game][value='{game}']"));
    if let Some(variant) = variant {
        set_select(page, "variant", variant);
    }
    page.click("input[name=opponent][value='browser']");
    set_select(page, "level", level);
    page.click(&format!("input[name=colour][value='{colour}']"));
    page.click("form button[type=submit]");
    page.wait_for(
        "location.pathname.startsWith('/local/') && document.querySelector('.game[data-version]') \
         && document.querySelectorAll('.board .cell').length > 0",
    );
}

/// Escampe in the browser: a placement too many to list is entered with the
/// placement bar, checked by the worker, and the computer places and moves.
#[test]
fn escampe_placement_against_the_computer_in_this_browser() {
    let Some(h) = harness("local-escampe") else {
        return;
    };
    let page = h.person();
    start_local_game(&page, &h.base(), "escampe", None, "beginner", "black");
    page.wait_for(MY_TURN);
    page.click(".placement [data-layout]");
    page.wait_for("document.querySelectorAll('.board .cell.selected').length === 6");
    page.click(".placement [data-action=place]");
    // The computer places and moves first; then it is our move.
    wait_moves(&page, 3);
    let mine = play_a_move(&page);
    wait_moves(&page, mine + 1);
    page.wait_for(MY_TURN_OR_OVER);
    // A takeback returns to our last turn at once.
    let before = moves(&page);
    page.click("[data-action=takeback]");
    page.wait_for(&format!(
        "+document.querySelector('.game').dataset.moves < {before}"
    ));
    page.wait_for(MY_TURN);
    h.assert_no_page_errors();
}

/// "Move now" ends a long search: the computer plays the best move of its
/// deepest finished iteration, and the page answers while the worker searches.
#[test]
fn move_now_plays_the_best_move_found_so_far() {
    let Some(h) = harness("local-move-now") else {
        return;
    };
    let page = h.person();
    start_local_game(&page, &h.base(), "ataxx", None, "master", "black");
    // Ataxx: Black (x) moves first: our move, then the computer thinks 2 s.
    page.wait_for(MY_TURN);
    play_a_move(&page);
    page.wait_for("!!document.querySelector('.game').dataset.aiBest");
    // The page runs (this very evaluation) while the search goes on.
    assert_eq!(
        page.eval("document.querySelector('.game').dataset.thinking"),
        "true"
    );
    // Read the best move so far and stop in one turn of the page's event
    // loop: no iteration can finish in between.
    let best = page.eval(
        "(() => { const best = document.querySelector('.game').dataset.aiBest; \
         document.querySelector('[data-action=move-now]').click(); return best; })()",
    );
    page.wait_for("+document.querySelector('.game').dataset.moves >= 2");
    let played = page.eval("JSON.parse(localStorage.getItem('plateau.local'))[0].moves[1]");
    assert_eq!(played, best, "Move now plays the best move shown");
    page.wait_for(MY_TURN);
    h.assert_no_page_errors();
}

/// With the server stopped, the engine still restarts after a stop (its
/// worker and module come from the service worker's copy), and a reload
/// still finds the page.
#[test]
fn the_analysis_board_stops_restarts_and_reloads_without_the_server() {
    let Some(mut h) = harness("offline") else {
        return;
    };
    let page = h.person();
    page.goto(&format!("{}/analysis?game=ataxx", h.base()));
    page.wait_for("+document.querySelector('.analysis')?.dataset.depth >= 2");
    page.wait_for("navigator.serviceWorker.ready.then((r) => !!r.active && !!navigator.serviceWorker.controller)");
    h.stop_server();
    page.click("[data-action=stop]");
    page.wait_for("document.querySelector('.analysis').dataset.running === 'false'");
    page.click("[data-action=analyse]");
    page.wait_for("document.querySelector('.analysis').dataset.running === 'true'");
    page.wait_for("+document.querySelector('.analysis').dataset.depth >= 2");
    // A move played on the board stops and restarts the engine too.
    page.click(".board .cell.playable");
    page.click(".board .cell.target");
    page.wait_for(
        "document.querySelector('.hint:not(.bad)')?.textContent.includes('from the set position')",
    );
    page.wait_for("+document.querySelector('.analysis').dataset.depth >= 2");
    page.reload();
    page.wait_for("+document.querySelector('.analysis')?.dataset.depth >= 2");
    page.screenshot(&screenshot_path("offline-analysis"));
    // Stopping the server cut the page's connections: those errors are expected.
    let unexpected: Vec<String> = h
        .browser
        .errors()
        .into_iter()
        .filter(|e| !e.contains("ERR_CONNECTION_REFUSED") && !e.contains("Failed to fetch"))
        .collect();
    assert!(unexpected.is_empty(), "JavaScript errors: {unexpected:#?}");
}

/// The analysis board on a draughts position: depth 8 or more and a
/// principal variation within 5 s of opening it, an evaluation bar and the
/// best move's arrow.
#[test]
fn the_analysis_board_reaches_depth_8_with_a_pv_on_draughts_within_5_s() {
    let Some(h) = harness("analysis") else { return };
    let page = h.person();
    let position = "W:W27,28,32,33,34,37,38,39,42,43,44,47,48:B7,8,9,12,13,14,16,17,18,19,22,23,26";
    let started = std::time::Instant::now();
    page.goto(&format!(
        "{}/analysis?game=draughts&position={}",
        h.base(),
        position.replace(',', "%2C").replace(':', "%3A")
    ));
    let depth = page.wait_for_within(
        "(() => { const s = document.querySelector('.analysis'); \
         return +s.dataset.depth >= 8 && s.dataset.pv && +s.dataset.depth; })()",
        Duration::from_secs(5).saturating_sub(started.elapsed()),
    );
    let pv = page.eval("document.querySelector('.analysis').dataset.pv");
    eprintln!(
        "analysis: depth {depth} after {:.2} s, pv {pv}",
        started.elapsed().as_secs_f64()
    );
    assert!(!pv.as_str().unwrap_or("").is_empty());
    page.wait_for("!!document.querySelector('.board .best-arrow')");
    // The expected reply too, fainter, and the arrow is the PV's first move.
    page.wait_for("!!document.querySelector('.board .reply-arrow')");
    assert_eq!(
        page.eval("document.querySelector('.board .best-arrow').dataset.move === document.querySelector('.analysis').dataset.pv.split(' ')[0]"),
        true
    );
    let bar = page.eval("+document.querySelector('.eval-bar').getAttribute('aria-valuenow')");
    assert!(bar.as_f64().is_some_and(|v| (0.0..=100.0).contains(&v)));
    // The evaluation in men, from White's side, saying who is better; the
    // best line numbered like the move list.
    let score = page.eval("document.querySelector('[data-figure=score]').textContent");
    let score = score.as_str().unwrap_or("");
    let in_men = regex_like_score(score, "men") || regex_like_score(score, "man");
    assert!(
        in_men && (score.contains("is ") || score.contains("about equal")),
        "{score}"
    );
    let line = page.eval("document.querySelector('.pv').textContent");
    assert!(
        line.as_str().unwrap_or("").starts_with("Best line: 1. "),
        "{line}"
    );
    // The same on a phone: the score and the line are on screen, whole.
    as_phone(&page, true);
    fits_the_phone(&page, "[data-figure=score]");
    fits_the_phone(&page, ".pv");
    page.screenshot(&screenshot_path("analysis-phone"));
    as_phone(&page, false);
    // The position shown is the one asked for.
    assert_eq!(
        page.eval("document.querySelector('input[aria-label=\"Position text\"]').value"),
        position
    );
    // A move played on the board: analysis goes on from the new position.
    page.click("[data-action=stop]");
    page.eval("document.querySelector('.analysis details').open = true");
    page.click(".analysis form.typed input[aria-label='Move in notation']");
    let spec = plateau_games::GameSpec::lookup("draughts", None).unwrap();
    // A move after which Black has a choice (a forced reply is not searched).
    let game = spec.from_text(position).unwrap();
    let legal: Vec<String> = game
        .legal_moves()
        .into_iter()
        .filter(|mv| {
            let mut next = game.clone();
            next.play(mv).is_ok() && next.legal_move_count() > 1
        })
        .collect();
    page.type_text(&legal[0]);
    page.click(".analysis details form.typed button");
    page.wait_for(&format!(
        "document.querySelector('.hint:not(.bad)')?.textContent.includes('from the set position: 1. {}')",
        legal[0]
    ));
    page.wait_for("+document.querySelector('.analysis').dataset.depth >= 2");
    // A bad position text is refused with its reason; the board stays usable.
    page.eval("document.querySelector('input[aria-label=\"Position text\"]').value = ''");
    page.click("input[aria-label='Position text']");
    page.type_text("W:W99");
    page.click("[data-action=set-position]");
    page.wait_for("document.querySelector('.hint.bad')?.textContent.includes('99')");
    // The board keeps its position and goes on analysing it.
    page.wait_for("+document.querySelector('.analysis').dataset.depth >= 2");
    let shown = page.eval("new URLSearchParams(location.search).get('position')");
    assert!(
        shown.as_str().is_some_and(|s| s.starts_with("B:")),
        "after {}: {shown}",
        legal[0]
    );
    // The typed text stays in its box, to be corrected.
    assert_eq!(
        page.eval("document.querySelector('input[aria-label=\"Position text\"]').value"),
        "W:W99"
    );
    page.screenshot(&screenshot_path("analysis"));
    h.assert_no_page_errors();
}

/// A replayed position opens in the analysis board.
#[test]
fn a_replayed_position_opens_in_the_analysis_board() {
    let Some(h) = harness("analysis-replay") else {
        return;
    };
    let (white, black, code) = {
        let (code, white, black) = friend_room_over_api(
            &h,
            serde_json::json!({"game": "draughts", "opponent": "friend", "seat": "white"}),
        );
        (white, black, code)
    };
    play_over_api(&h, &code, &white, &black, &["32-28", "19-23"]);
    let page = h.person();
    page.goto(&format!("{}/r/{code}", h.base()));
    page.wait_for("+document.querySelector('.game')?.dataset.moves === 2");
    page.click("[data-ply='1']");
    page.wait_for("!!document.querySelector('[data-action=analyse-replay]')");
    page.click("[data-action=analyse-replay]");
    page.wait_for("location.pathname === '/analysis' && +document.querySelector('.analysis')?.dataset.depth >= 1");
    let shown = page.eval("document.querySelector('input[aria-label=\"Position text\"]').value");
    assert!(
        shown
            .as_str()
            .is_some_and(|s| s.starts_with("B:") && s.contains("28")),
        "the position after 32-28: {shown}"
    );
    h.assert_no_page_errors();
}

/// Two generations of in-page training: the curve gets its two points, the
/// generations are kept, and generation 1 plays a legal move as an opponent.
#[test]
fn a_two_generation_training_run_draws_its_curve_and_generation_1_plays() {
    let Some(h) = harness("training") else { return };
    let page = h.person();
    page.goto(&format!("{}/train", h.base()));
    page.wait_for("!!document.querySelector('.train-form select[name=game]')");
    page.eval(
        "(() => { const f = document.querySelector('.train-form'); f.elements.game.value = 'ataxx'; \
         f.elements.generations.value = '2'; })()",
    );
    page.click("[data-action=train]");
    page.wait_for_within(
        "document.querySelector('.train').dataset.running === 'false' \
         && +document.querySelector('.train').dataset.generations === 2",
        Duration::from_secs(120),
    );
    assert_eq!(
        page.eval("document.querySelectorAll('.curve .curve-point').length"),
        2
    );
    assert_eq!(
        page.eval("document.querySelectorAll('.curve .curve-error').length"),
        2,
        "each point has its error bar"
    );
    let kept =
        page.eval("JSON.parse(localStorage.getItem('plateau.training'))[0].generations.length");
    assert_eq!(kept, 2);
    page.screenshot(&screenshot_path("training"));
    page.click("[data-generation='1'] [data-action=play-generation]");
    page.wait_for("location.pathname.startsWith('/local/') && !!document.querySelector('.game[data-version]')");
    // Ataxx: Black moves first; whoever the person is, the computer answers.
    if page.eval("document.querySelector('.game').dataset.toMove === document.querySelector('.game').dataset.seat") == true {
        play_a_move(&page);
    }
    page.wait_for("+document.querySelector('.game').dataset.moves >= 1 && document.querySelector('.game').dataset.toMove === document.querySelector('.game').dataset.seat");
    let opponent = page.eval("JSON.parse(localStorage.getItem('plateau.local'))[0].opponent");
    assert!(
        opponent
            .as_str()
            .is_some_and(|o| o.starts_with("generation 1"))
    );
    h.assert_no_page_errors();
}

/// The module's speed in Chromium on `plateau bench`'s positions, printed
/// for the record (speed targets live in benchmarks, not tests); its node
/// counts must equal the native engine's: one search, two builds.
#[test]
fn the_browser_engine_searches_the_bench_positions_like_the_native_one() {
    use plateau_games::{EngineChoice, GameSpec, Level, Limits, Profile, Tweaks};
    let Some(h) = harness("bench") else { return };
    let page = h.person();
    page.goto(&format!("{}/bench", h.base()));
    page.wait_for_within(
        "document.querySelector('.bench').dataset.done === 'true'",
        Duration::from_secs(300),
    );
    let rows = page.eval(
        "[...document.querySelectorAll('.bench tr[data-game]')].map((r) => [r.dataset.game, +r.dataset.nodes, +r.dataset.nps])",
    );
    let rows = rows.as_array().expect("rows");
    assert_eq!(rows.len(), plateau_games::GAMES.len());
    for row in rows {
        let (name, nodes, nps) = (
            row[0].as_str().unwrap(),
            row[1].as_u64().unwrap(),
            row[2].as_u64().unwrap(),
        );
        let spec = GameSpec::lookup(name, None).unwrap();
        let choice = EngineChoice {
            profile: Profile::Level(Level::Expert),
            tweaks: Tweaks::default(),
        };
        let native: u64 = spec
            .info
            .bench_positions
            .iter()
            .map(|text| {
                let game = spec.from_text(text).unwrap();
                let mut engine = spec.engine_with(&choice, 0);
                engine
                    .think(
                        game.as_ref(),
                        &Limits::depth(spec.info.bench_depth),
                        &mut |_| {},
                    )
                    .unwrap()
                    .nodes
            })
            .sum();
        assert_eq!(nodes, native, "{name}: the same nodes in the browser");
        let _ = writeln!(
            std::io::stderr(),
            "browser engine: {name} {nodes} nodes {nps} nps"
        );
    }
    h.assert_no_page_errors();
}

/// The module is served as `application/wasm`, gzipped for browsers that
/// take it (under 3 MB as served), and the page's policy lets it compile.
#[test]
fn the_engine_module_is_served_compressed_with_its_type_and_policy() {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        let server = TestServer::start(&temp_db("wasm"), test_config()).await;
        let client = support::client();
        let plain = client
            .get(server.url("/engine/plateau.wasm"))
            .send()
            .await
            .unwrap();
        assert_eq!(plain.status().as_u16(), 200);
        assert_eq!(plain.headers()["content-type"], "application/wasm");
        assert!(plain.headers().get("content-encoding").is_none());
        let plain_size = plain.bytes().await.unwrap().len();
        let packed = client
            .get(server.url("/engine/plateau.wasm"))
            .header("accept-encoding", "gzip, deflate, br")
            .send()
            .await
            .unwrap();
        assert_eq!(packed.headers()["content-encoding"], "gzip");
        assert_eq!(packed.headers()["vary"], "accept-encoding");
        let etag = packed.headers()["etag"].clone();
        let packed_size = packed.bytes().await.unwrap().len();
        eprintln!("plateau.wasm: {plain_size} bytes, {packed_size} gzipped as served");
        assert!(packed_size < 3 * 1024 * 1024, "{packed_size} bytes");
        assert!(packed_size < plain_size);
        let again = client
            .get(server.url("/engine/plateau.wasm"))
            .header("accept-encoding", "gzip")
            .header("if-none-match", etag.clone())
            .send()
            .await
            .unwrap();
        assert_eq!(again.status().as_u16(), 304);
        // A tag a proxy weakened still revalidates.
        let weak = client
            .get(server.url("/engine/plateau.wasm"))
            .header("accept-encoding", "gzip")
            .header("if-none-match", format!("W/{}", etag.to_str().unwrap()))
            .send()
            .await
            .unwrap();
        assert_eq!(weak.status().as_u16(), 304);
        let refused = client
            .get(server.url("/engine/plateau.wasm"))
            .header("accept-encoding", "gzip;q=0, identity")
            .send()
            .await
            .unwrap();
        assert!(refused.headers().get("content-encoding").is_none());
        // The page itself compiles no WebAssembly; only the engine's worker may.
        for path in ["/", "/analysis", "/train", "/local/ABCDEFGH"] {
            let page = client.get(server.url(path)).send().await.unwrap();
            assert_eq!(page.status().as_u16(), 200, "{path}");
            let policy = page.headers()["content-security-policy"]
                .to_str()
                .unwrap()
                .to_string();
            assert!(policy.contains("script-src 'self';"), "{path}: {policy}");
            assert!(policy.contains("worker-src 'self'"), "{path}: {policy}");
            assert!(!policy.contains("eval"), "{path}: {policy}");
        }
        let worker = client
            .get(server.url("/engine/worker.js"))
            .send()
            .await
            .unwrap();
        let policy = worker.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .to_string();
        assert!(
            policy.contains("script-src 'self' 'wasm-unsafe-eval'"),
            "{policy}"
        );
        assert!(!policy.contains("'unsafe-eval'"), "{policy}");
        server.stop().await;
    });
}

/// The set-up editor: an empty board, two men placed by clicks, and the
/// engine analyses the position built (White must take: 28x19).
#[test]
fn the_set_up_editor_builds_a_position_for_the_engine() {
    let Some(h) = harness("set-up") else { return };
    let page = h.person();
    page.goto(&format!("{}/analysis?game=draughts", h.base()));
    page.wait_for("!!document.querySelector('[data-action=set-up]:not([disabled])')");
    page.click("[data-action=set-up]");
    page.wait_for("document.querySelector('.analysis').dataset.editing === 'true'");
    page.click("[data-action=clear-board]");
    // Empty, white man, white king, black man: one click, then three.
    page.click(".board .cell[data-cell='28']");
    for _ in 0..3 {
        page.click(".board .cell[data-cell='23']");
    }
    page.click("[data-action=done-editing]");
    page.wait_for("new URLSearchParams(location.search).get('position') === 'W:W28:B23'");
    page.wait_for("document.querySelector('.analysis').dataset.pv === '28x19'");
    assert_eq!(
        page.eval("document.querySelector('.analysis').dataset.editing"),
        "false"
    );
    // A position the rules refuse (no piece at all) is named, not shown.
    page.click("[data-action=set-up]");
    page.click("[data-action=clear-board]");
    page.click("[data-action=done-editing]");
    page.wait_for("document.querySelector('.hint.bad')?.textContent");
    assert_eq!(
        page.eval("new URLSearchParams(location.search).get('position')"),
        "W:W28:B23"
    );
    h.assert_no_page_errors();
}

/// A game against the in-browser computer continues on the server: a room
/// against the server's computer at the same level, with the same moves, the
/// person in the same seat.
#[test]
fn a_local_game_continues_on_the_server() {
    let Some(h) = harness("carry-over") else {
        return;
    };
    let page = h.person();
    start_local_game(&page, &h.base(), "ataxx", None, "beginner", "black");
    play_a_move(&page);
    wait_moves(&page, 2);
    page.wait_for(MY_TURN);
    let local: Vec<String> = serde_json::from_value(
        page.eval("JSON.parse(localStorage.getItem('plateau.local'))[0].moves"),
    )
    .expect("the local moves");
    page.click("[data-action=save-room]");
    page.wait_for(
        "location.pathname.startsWith('/r/') && document.querySelector('.game[data-version]') \
         && document.querySelector('.game').dataset.seat === 'black'",
    );
    let moves: Vec<String> = serde_json::from_value(
        page.eval("[...document.querySelectorAll('.moves [data-ply]')].map((p) => p.textContent)"),
    )
    .expect("the room's moves");
    assert_eq!(moves[..local.len()], local[..]);
    // The server's computer plays on: our move, then its reply.
    let mine = play_a_move(&page);
    wait_moves(&page, mine + 1);
    h.assert_no_page_errors();
}

/// *Continue on the server* with the server away: the reason shows, and the
/// game goes on in the browser as before.
#[test]
fn continuing_on_a_server_that_is_away_changes_nothing() {
    let Some(mut h) = harness("carry-over-away") else {
        return;
    };
    let page = h.person();
    start_local_game(&page, &h.base(), "ataxx", None, "medium", "black");
    play_a_move(&page);
    wait_moves(&page, 2);
    page.wait_for(MY_TURN);
    h.stop_server();
    page.click("[data-action=save-room]");
    page.wait_for("document.querySelector('.hint.bad')?.textContent.includes('cannot be reached')");
    assert!(
        page.eval("location.pathname")
            .as_str()
            .unwrap()
            .starts_with("/local/")
    );
    let mine = play_a_move(&page);
    wait_moves(&page, mine + 1);
    let kept = page.eval("JSON.parse(localStorage.getItem('plateau.local'))[0].moves.length");
    assert_eq!(kept.as_u64(), Some(mine + 1), "the game is still kept here");
}

/// `+1.4 men (...)` or `−0.2 men (...)`: a signed amount with one decimal and
/// the unit.
fn regex_like_score(text: &str, unit: &str) -> bool {
    let Some(rest) = text.strip_prefix('+').or_else(|| text.strip_prefix('−')) else {
        return false;
    };
    let Some((amount, after)) = rest.split_once(' ') else {
        return false;
    };
    amount.parse::<f64>().is_ok() && after.starts_with(&format!("{unit} ("))
}

#[test]
fn escampe_placements_are_not_analysed_and_the_page_says_why() {
    let Some(h) = harness("analysis-escampe") else {
        return;
    };
    let page = h.person();
    page.goto(&format!("{}/analysis?game=escampe", h.base()));
    page.wait_for("document.querySelector('.analysis')?.dataset.game === 'escampe' && !!document.querySelector('.board .cell')");
    page.wait_for(
        "document.querySelector('[data-figure=score]').textContent === 'from the first move'",
    );
    let hint = page.eval("document.querySelector('.analysis .hint').textContent");
    assert!(
        hint.as_str()
            .unwrap_or("")
            .contains("analyses from the first move"),
        "{hint}"
    );
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(
        page.eval("document.querySelector('.analysis').dataset.running"),
        "false"
    );
    assert_eq!(
        page.eval("!!document.querySelector('.board .best-arrow')"),
        false
    );
    // Once both sides have placed, the engine analyses.
    page.goto(&format!(
        "{}/analysis?game=escampe&position={}",
        h.base(),
        "n1B2b/2b3/b1nn2/5b/2b3/nnN3 w 2"
            .replace(' ', "%20")
            .replace('/', "%2F")
    ));
    page.wait_for("+document.querySelector('.analysis').dataset.depth >= 2");
    let score = page.eval("document.querySelector('[data-figure=score]').textContent");
    assert!(
        score.as_str().unwrap_or("").contains("White"),
        "White wins by force here: {score}"
    );
    h.assert_no_page_errors();
}
