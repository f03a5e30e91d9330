//! The web page in a real headless Chromium, against a real server on a
//! loopback port: every game against the computer, two people and a spectator
//! through a share link, reloads and a dropped connection, resign and rematch,
//! both sides on one device, the keyboard. Screenshots of every board land in
//! `target/tmp/browser-screenshots/`.
//!
//! Needs Debian's `chromium` (or `$PLATEAU_CHROMIUM`). Without one the tests
//! say so loudly and pass, except under `CI=true`, where they fail.

mod cdp;
mod local;
#[path = "../support/mod.rs"]
mod support;

use cdp::{Browser, Page};
use std::io::Write as _;
use std::path::PathBuf;
use std::time::Duration;
use support::{TestServer, temp_db, test_config};

/// A server, a browser, and the runtime the server runs on (dropped with the
/// server, so that stopping it cuts every open connection).
struct Harness {
    runtime: Option<tokio::runtime::Runtime>,
    server: Option<TestServer>,
    db: support::TestDb,
    browser: Browser,
}

fn harness(name: &str) -> Option<Harness> {
    let Some(binary) = cdp::find_chromium() else {
        return no_browser("no chromium on the PATH");
    };
    // A Chromium that is there but does not start is a failure, not a skip.
    let browser = Browser::launch(&binary)
        .unwrap_or_else(|reason| panic!("{} does not start: {reason}", binary.display()));
    let runtime = server_runtime();
    let db = temp_db(&format!("browser-{name}"));
    let server = runtime.block_on(TestServer::start(&db, test_config()));
    Some(Harness {
        runtime: Some(runtime),
        server: Some(server),
        db,
        browser,
    })
}

fn server_runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime")
}

fn no_browser(reason: &str) -> Option<Harness> {
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!(
            "CI=true but no browser could be started ({reason}); .ci/run installs Debian's \
             chromium package, or set PLATEAU_CHROMIUM"
        );
    }
    let bar = "!".repeat(78);
    // Straight to the terminal: the test harness captures eprintln! of passing tests.
    let _ = writeln!(
        std::io::stderr(),
        "\n{bar}\n!!! BROWSER TEST SKIPPED: {reason}.\n!!! Install Chromium (apt-get install -y \
         chromium) or set PLATEAU_CHROMIUM to run the web page's end-to-end tests.\n{bar}\n"
    );
    None
}

impl Harness {
    fn base(&self) -> String {
        self.server.as_ref().expect("a running server").base.clone()
    }

    /// A new browser tab at the desktop width the site is checked at.
    fn person(&self) -> Page {
        self.browser.new_person(DESKTOP.0, DESKTOP.1)
    }

    /// Stops the server: every open connection is cut.
    fn stop_server(&mut self) {
        if let (Some(server), Some(runtime)) = (self.server.take(), self.runtime.take()) {
            runtime.block_on(server.stop());
            runtime.shutdown_timeout(Duration::from_secs(2));
        }
    }

    /// Starts the server again on the same address and database.
    fn restart_server(&mut self, base: &str) {
        let address = base.trim_start_matches("http://").to_string();
        let runtime = server_runtime();
        let server = runtime.block_on(TestServer::start_at(&self.db, test_config(), &address));
        self.server = Some(server);
        self.runtime = Some(runtime);
    }

    /// Fails the test if any page threw or logged an error.
    fn assert_no_page_errors(&self) {
        let errors = self.browser.errors();
        assert!(errors.is_empty(), "JavaScript errors: {errors:#?}");
    }
}

impl Drop for Harness {
    fn drop(&mut self) {
        self.stop_server();
    }
}

/// The two widths every page is checked at: a laptop and a phone.
const DESKTOP: (u32, u32) = (1280, 900);
const PHONE: (u32, u32) = (390, 844);

/// Turns the tab into a phone (or back into a desktop).
fn as_phone(page: &Page, phone: bool) {
    let (width, height) = if phone { PHONE } else { DESKTOP };
    page.set_viewport(width, height, phone);
}

/// The element is shown, whole, inside the phone's width: nothing to scroll
/// sideways for. It is scrolled into view, for the screenshot that follows.
fn fits_the_phone(page: &Page, selector: &str) {
    let rect = page.eval(&format!(
        "(() => {{ const e = document.querySelector({selector:?}); e?.scrollIntoView({{ block: 'center' }}); \
         const r = e?.getBoundingClientRect(); \
         return r ? [r.left, r.right, r.width, r.height, document.documentElement.scrollWidth] : null; }})()"
    ));
    let values: Vec<f64> = rect
        .as_array()
        .unwrap_or_else(|| panic!("no {selector} on the page: {}", page.describe()))
        .iter()
        .map(|v| v.as_f64().unwrap_or(f64::NAN))
        .collect();
    let [left, right, width, height, page_width] = values[..] else {
        panic!("{rect}");
    };
    let phone = f64::from(PHONE.0);
    assert!(
        width > 0.0
            && height > 0.0
            && left >= 0.0
            && right <= phone + 0.5
            && page_width <= phone + 0.5,
        "{selector} at {left}..{right} ({width}x{height}) on a page {page_width} px wide, on a {phone} px phone"
    );
}

fn screenshot_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("browser-screenshots")
        .join(format!("{name}.png"))
}

/// The page can take a move from this person now.
const MY_TURN: &str = "document.querySelector('.game')?.dataset.pending === 'false' \
     && (document.querySelectorAll('.board .cell[tabindex]').length > 0 \
         || !!document.querySelector('.actions [data-move]'))";

/// This person's turn, or the game is over (a computer at a low level may
/// still win quickly: the tests make no assumption on how long a game lasts).
const MY_TURN_OR_OVER: &str = "document.querySelector('.game')?.dataset.status === 'finished' \
     || (document.querySelector('.game')?.dataset.pending === 'false' \
         && (document.querySelectorAll('.board .cell[tabindex]').length > 0 \
             || !!document.querySelector('.actions [data-move]')))";

fn moves(page: &Page) -> u64 {
    page.eval("+(document.querySelector('.game')?.dataset.moves || 0)")
        .as_u64()
        .unwrap_or(0)
}

fn wait_moves(page: &Page, at_least: u64) {
    page.wait_for(&format!(
        "+document.querySelector('.game')?.dataset.moves >= {at_least}"
    ));
}

fn set_select(page: &Page, id: &str, value: &str) {
    let done = page.eval(&format!(
        "(() => {{ const s = document.getElementById({id}); if (!s) return false; s.value = {value}; \
         s.dispatchEvent(new Event('change', {{ bubbles: true }})); return s.value === {value}; }})()",
        id = serde_json::json!(id),
        value = serde_json::json!(value)
    ));
    assert_eq!(done, true, "#{id} has no option {value}");
}

/// Starts a game from the home page; returns the room code.
fn start_game(
    page: &Page,
    base: &str,
    game: &str,
    variant: Option<&str>,
    opponent: &str,
    level: Option<&str>,
    colour: &str,
) -> String {
    page.goto(&format!("{base}/"));
    page.wait_for("!!document.querySelector('input[name=game]')");
    page.click(&format!("input[name=game][value='{game}']"));
    if let Some(variant) = variant {
        set_select(page, "variant", variant);
    }
    page.click(&format!("input[name=opponent][value='{opponent}']"));
    if let Some(level) = level {
        set_select(page, "level", level);
    }
    if opponent != "local" {
        page.click(&format!("input[name=colour][value='{colour}']"));
    }
    page.click("form button[type=submit]");
    let code = page.wait_for(
        "location.pathname.startsWith('/r/') && document.querySelector('.game[data-version]') \
         && location.pathname.slice(3)",
    );
    code.as_str().expect("a room code").to_string()
}

/// Plays one legal move by clicking: a highlighted target if there is one,
/// else a playable piece first. Returns the number of plies after it.
fn play_a_move(page: &Page) -> u64 {
    let before = moves(page);
    page.wait_for(MY_TURN);
    let mut piece = 0;
    for _ in 0..20 {
        let sent = page.eval(&format!(
            "document.querySelector('.game').dataset.pending === 'true' \
             || +document.querySelector('.game').dataset.moves > {before}"
        ));
        if sent == true {
            break;
        }
        let targets = page
            .eval("document.querySelectorAll('.board .cell.target').length")
            .as_u64()
            .unwrap_or(0);
        if targets > 0 {
            page.click(".board .cell.target");
        } else {
            let playable = page
                .eval("document.querySelectorAll('.board .cell.playable').length")
                .as_u64()
                .unwrap_or(0);
            if playable == 0
                && page.eval("!!document.querySelector('.actions [data-move]')") == true
            {
                // No move but a pass.
                page.click(".actions [data-move]");
                continue;
            }
            assert!(playable > 0, "nothing to click: {}", page.describe());
            page.click_nth(".board .cell.playable", piece % playable as usize);
            piece += 1;
        }
    }
    wait_moves(page, before + 1);
    before + 1
}

/// Clicks on a cell that is neither playable nor a target, and checks nothing
/// was sent and nothing changed.
fn illegal_click_changes_nothing(page: &Page) {
    page.wait_for(MY_TURN);
    let version = page.eval("document.querySelector('.game').dataset.version");
    let dead = page.eval(
        "document.querySelectorAll('.board .cell:not(.playable):not(.target):not(.selected):not(.pickable)').length",
    );
    assert!(dead.as_u64().unwrap_or(0) > 0, "every cell is active?");
    page.click(".board .cell:not(.playable):not(.target):not(.selected):not(.pickable)");
    std::thread::sleep(Duration::from_millis(150));
    assert_eq!(
        page.eval("document.querySelector('.game').dataset.pending"),
        "false"
    );
    assert_eq!(
        page.eval("document.querySelector('.game').dataset.version"),
        version
    );
    assert_eq!(
        page.eval("document.querySelector('.hint').classList.contains('bad')"),
        false
    );
}

/// A move typed in notation that the rules refuse: the server's reason shows,
/// the position stays.
fn typed_illegal_move_shows_the_reason(page: &Page, text: &str) {
    page.wait_for(MY_TURN);
    let version = page.eval("document.querySelector('.game').dataset.version");
    page.eval("document.querySelector('details').open = true");
    page.click(".typed input");
    page.type_text(text);
    page.click(".typed button");
    page.wait_for("document.querySelector('.hint.bad')?.textContent");
    assert_eq!(
        page.eval("document.querySelector('.game').dataset.version"),
        version
    );
}

/// Alice starts a friend room playing `colour`; Bob joins through the share
/// link and takes the other seat.
fn friends(h: &Harness, game: &str, variant: Option<&str>, colour: &str) -> (Page, Page) {
    let alice = h.person();
    start_game(&alice, &h.base(), game, variant, "friend", None, colour);
    let link = alice
        .eval("document.querySelector('.share input').value")
        .as_str()
        .expect("a share link")
        .to_string();
    let bob = h.person();
    bob.goto(&link);
    bob.click("[data-action=join]");
    let other = if colour == "white" { "black" } else { "white" };
    bob.wait_for(&format!(
        "document.querySelector('.game').dataset.seat === '{other}'"
    ));
    (alice, bob)
}

/// Places the selected Escampe layout; if the engine warns that it loses by
/// force, confirms it. Waits until the game has `moves` moves.
fn place(page: &Page, moves: u64) {
    page.click(".placement [data-action=place]");
    let state = page.wait_for(&format!(
        "+document.querySelector('.game').dataset.moves >= {moves} ? 'placed' \
         : document.querySelector('.placement [data-action=place]')?.textContent === 'Place anyway' && 'warned'"
    ));
    if state == "warned" {
        page.click(".placement [data-action=place]");
        wait_moves(page, moves);
    }
}

fn ai_game(game: &str, variant: Option<&str>, colour: &str, shot: &str) {
    let Some(h) = harness(shot) else { return };
    let page = h.person();
    start_game(
        &page,
        &h.base(),
        game,
        variant,
        "ai",
        Some("beginner"),
        colour,
    );
    illegal_click_changes_nothing(&page);
    let mine = play_a_move(&page);
    // The computer's reply appears by itself.
    wait_moves(&page, mine + 1);
    let mine = play_a_move(&page);
    wait_moves(&page, mine + 1);
    page.wait_for(MY_TURN_OR_OVER);
    page.screenshot(&screenshot_path(shot));
    h.assert_no_page_errors();
}

#[test]
fn escampe_against_the_computer_placing_by_clicking_six_squares() {
    let Some(h) = harness("escampe") else { return };
    let page = h.person();
    // White: the computer (Black) places first, then we place, then we move first.
    start_game(
        &page,
        &h.base(),
        "escampe",
        None,
        "ai",
        Some("beginner"),
        "white",
    );
    wait_moves(&page, 1);
    page.wait_for(MY_TURN);
    assert_eq!(
        page.eval("document.querySelectorAll('.placement [data-layout]').length"),
        3,
        "suggested layouts are offered"
    );
    // Only the free edge can be clicked.
    let pickable = page.eval("document.querySelectorAll('.board .cell.pickable').length");
    assert_eq!(pickable, 12, "two rows of six");
    illegal_click_changes_nothing(&page);
    // The unicorn first, on the back row (out of reach for a while), then the paladins.
    page.click(".board .cell.pickable[data-cell$='1'], .board .cell.pickable[data-cell$='6']");
    for placed in 1..=6 {
        if placed > 1 {
            page.click(".board .cell.pickable");
        }
        page.wait_for(&format!(
            "document.querySelectorAll('.board .cell.selected').length === {placed}"
        ));
    }
    place(&page, 2);
    let mine = play_a_move(&page);
    wait_moves(&page, mine + 1);
    // The imposed liseré is shown, and only pieces on it can move.
    page.wait_for(MY_TURN);
    page.wait_for("document.querySelector('.hint').textContent.includes('liseré')");
    let imposed_ok = page.eval(
        "[...document.querySelectorAll('.board .cell.playable')].every(c => c.classList.contains('imposed'))",
    );
    assert_eq!(imposed_ok, true);
    typed_illegal_move_shows_the_reason(&page, "A1-A9");
    let mine = play_a_move(&page);
    wait_moves(&page, mine + 1);
    page.wait_for(MY_TURN_OR_OVER);
    page.screenshot(&screenshot_path("escampe"));
    h.assert_no_page_errors();
}

#[test]
fn escampe_as_black_with_a_suggested_layout() {
    let Some(h) = harness("escampe-layout") else {
        return;
    };
    let page = h.person();
    start_game(
        &page,
        &h.base(),
        "escampe",
        None,
        "ai",
        Some("beginner"),
        "black",
    );
    page.wait_for(MY_TURN);
    page.screenshot(&screenshot_path("escampe-placement"));
    page.click(".placement [data-layout]");
    page.wait_for("document.querySelectorAll('.board .cell.selected').length === 6");
    place(&page, 1);
    // The computer places and moves first; then it is our move.
    wait_moves(&page, 3);
    let mine = play_a_move(&page);
    wait_moves(&page, mine + 1);
    page.wait_for(MY_TURN_OR_OVER);
    h.assert_no_page_errors();
}

#[test]
fn the_computer_is_shown_thinking() {
    let Some(h) = harness("thinking") else { return };
    let page = h.person();
    // White against the strongest level at Abalone: Black (the computer)
    // moves first, out of any book, and searches long enough to be seen.
    start_game(
        &page,
        &h.base(),
        "abalone",
        None,
        "ai",
        Some("master"),
        "white",
    );
    page.wait_for_within(
        "document.querySelector('.game').dataset.thinking === 'true' \
         && document.querySelector('.status').textContent.includes('thinking')",
        Duration::from_secs(10),
    );
    wait_moves(&page, 1);
    page.wait_for(MY_TURN);
    h.assert_no_page_errors();
}

#[test]
fn a_computer_move_waiting_for_a_thread_shows_its_place_in_line() {
    let Some(h) = harness("queue") else { return };
    // More master searches than the server has threads, all due at once.
    let runtime = h.runtime.as_ref().expect("the server's runtime");
    for _ in 0..8 {
        let (status, body) = runtime.block_on(support::post(
            &format!("{}/api/rooms", h.base()),
            serde_json::json!({"game": "abalone", "seat": "white", "opponent": "ai", "level": "master"}),
        ));
        assert_eq!(status, 201, "{body}");
    }
    let page = h.person();
    start_game(
        &page,
        &h.base(),
        "abalone",
        None,
        "ai",
        Some("master"),
        "white",
    );
    page.wait_for_within(
        "document.querySelector('.status').textContent.includes('in line')",
        Duration::from_secs(10),
    );
    // Its turn comes.
    wait_moves(&page, 1);
    page.wait_for(MY_TURN);
    h.assert_no_page_errors();
}

#[test]
fn draughts_against_the_computer() {
    let Some(h) = harness("draughts") else { return };
    let page = h.person();
    // Black against the strongest level: White (the computer) moves first,
    // often at once, from its opening book.
    start_game(
        &page,
        &h.base(),
        "draughts",
        None,
        "ai",
        Some("master"),
        "black",
    );
    wait_moves(&page, 1);
    illegal_click_changes_nothing(&page);
    // Square numbers from the start (the notation is made of them); the
    // switch hides them, and the choice is remembered.
    page.wait_for("document.querySelectorAll('.board text.num').length === 50");
    page.click("[data-action=numbers]");
    page.wait_for("document.querySelectorAll('.board text.num').length === 0");
    page.reload();
    page.wait_for("document.querySelector('.game[data-version]') && document.querySelectorAll('.board .cell').length === 50");
    assert_eq!(
        page.eval("document.querySelectorAll('.board text.num').length"),
        0
    );
    page.click("[data-action=numbers]");
    page.wait_for("document.querySelectorAll('.board text.num').length === 50");
    let mine = play_a_move(&page);
    wait_moves(&page, mine + 1);
    page.wait_for(MY_TURN);
    // The last move is highlighted, our pieces at the bottom (Black: flipped).
    assert_eq!(
        page.eval("document.querySelectorAll('.board .cell.last').length >= 2"),
        true
    );
    assert_eq!(
        page.eval("document.querySelector('.player.bottom').dataset.side"),
        "black"
    );
    page.screenshot(&screenshot_path("draughts"));
    page.click("[data-action=flip]");
    page.wait_for("document.querySelector('.player.bottom').dataset.side === 'white'");
    page.click("[data-action=flip]");
    page.wait_for("document.querySelector('.player.bottom').dataset.side === 'black'");
    h.assert_no_page_errors();
}

#[test]
fn abalone_against_the_computer() {
    ai_game("abalone", Some("belgian-daisy"), "black", "abalone");
}

#[test]
fn virus_against_the_computer() {
    ai_game("virus", Some("5x5"), "white", "virus");
}

#[test]
fn ataxx_against_the_computer() {
    ai_game("ataxx", None, "black", "ataxx");
}

/// Two people through a share link, a reload, a spectator, and a dropped
/// connection (the server restarts on the same port).
#[test]
fn two_friends_and_a_spectator_through_the_share_link() {
    let Some(mut h) = harness("friends") else {
        return;
    };
    let base = h.base();
    let alice = h.person();
    let code = start_game(&alice, &base, "draughts", None, "friend", None, "white");
    alice.wait_for(
        "document.querySelector('.status').textContent.includes('Waiting for your friend')",
    );
    let link = alice
        .eval("document.querySelector('.share input').value")
        .as_str()
        .expect("a share link")
        .to_string();
    assert_eq!(link, format!("{base}/r/{code}"));
    alice.click("[data-action=copy-link]");
    alice.wait_for("!document.getElementById('toast').hidden");
    alice.screenshot(&screenshot_path("friend-waiting"));

    let bob = h.person();
    bob.goto(&link);
    bob.click("[data-action=join]");
    bob.wait_for("document.querySelector('.game').dataset.seat === 'black'");
    alice.wait_for("document.querySelector('.game').dataset.status === 'playing'");
    // Alice sees Bob arrive (his stream carries his seat).
    alice.wait_for("document.querySelector('.player.top .tag').textContent.includes('online')");

    for ply in 1..=4u64 {
        let (mover, watcher) = if ply % 2 == 1 {
            (&alice, &bob)
        } else {
            (&bob, &alice)
        };
        play_a_move(mover);
        wait_moves(watcher, ply);
    }
    // Bob reloads mid-game: same seat, same game, and play goes on.
    bob.reload();
    bob.wait_for("document.querySelector('.game')?.dataset.seat === 'black'");
    wait_moves(&bob, 4);
    play_a_move(&alice);
    wait_moves(&bob, 5);
    play_a_move(&bob);
    wait_moves(&alice, 6);

    // A third person only watches.
    let carol = h.person();
    carol.goto(&link);
    carol.wait_for("document.querySelector('.game')?.dataset.seat === 'spectator'");
    wait_moves(&carol, 6);
    assert_eq!(
        carol.eval("document.querySelectorAll('.board .cell[tabindex]').length"),
        0,
        "a spectator's board is read-only"
    );
    assert_eq!(
        carol.eval("document.querySelectorAll('[data-action=join], [data-action=resign]').length"),
        0
    );
    play_a_move(&alice);
    wait_moves(&carol, 7);
    carol.screenshot(&screenshot_path("spectator"));

    // The connection drops (the server goes away and comes back): the pages
    // say so, reconnect by themselves, and catch up.
    h.stop_server();
    bob.wait_for("document.querySelector('.game').dataset.connection === 'lost'");
    h.restart_server(&base);
    bob.wait_for_within(
        "document.querySelector('.game').dataset.connection === 'open'",
        Duration::from_secs(20),
    );
    alice.wait_for_within(
        "document.querySelector('.game').dataset.connection === 'open'",
        Duration::from_secs(20),
    );
    play_a_move(&bob);
    wait_moves(&alice, 8);
    wait_moves(&carol, 8);
    h.assert_no_page_errors();
}

#[test]
fn resign_and_rematch_through_the_page() {
    let Some(h) = harness("rematch") else { return };
    let (alice, bob) = friends(&h, "virus", Some("4x4"), "black");
    play_a_move(&alice);
    wait_moves(&bob, 1);

    // Resigning asks for a confirmation first.
    bob.click("[data-action=resign]");
    bob.wait_for("document.querySelector('[data-action=resign]').textContent.includes('Confirm')");
    assert_eq!(
        bob.eval("document.querySelector('.game').dataset.status"),
        "playing"
    );
    bob.click("[data-action=resign]");
    for page in [&alice, &bob] {
        page.wait_for("document.querySelector('.game').dataset.status === 'finished'");
        page.wait_for("!document.querySelector('.banner').hidden");
        assert!(
            page.eval("document.querySelector('.banner').textContent")
                .as_str()
                .unwrap_or("")
                .contains("resignation")
        );
    }
    assert!(
        alice
            .eval("document.querySelector('.banner .headline').textContent")
            .as_str()
            .unwrap_or("")
            .contains("You won")
    );
    alice.screenshot(&screenshot_path("resigned"));

    // Alice asks for a rematch: a new room, colours swapped.
    let old = alice.eval("location.pathname");
    alice.click("[data-action=rematch]");
    alice.wait_for(&format!(
        "location.pathname !== {old} && document.querySelector('.game')?.dataset.seat === 'white'"
    ));
    // Bob is offered it and accepts.
    bob.wait_for(
        "document.querySelector('[data-action=rematch]')?.textContent.includes('Play the rematch')",
    );
    bob.click("[data-action=rematch]");
    bob.wait_for("document.querySelector('.game')?.dataset.seat === 'black'");
    assert_eq!(
        alice.eval("location.pathname"),
        bob.eval("location.pathname")
    );
    play_a_move(&bob);
    wait_moves(&alice, 1);
    play_a_move(&alice);
    wait_moves(&bob, 2);
    h.assert_no_page_errors();
}

#[test]
fn a_takeback_against_the_computer_through_the_page() {
    let Some(h) = harness("takeback-ai") else {
        return;
    };
    let page = h.person();
    start_game(
        &page,
        &h.base(),
        "draughts",
        None,
        "ai",
        Some("beginner"),
        "white",
    );
    assert_eq!(
        page.eval("!!document.querySelector('[data-action=takeback]')"),
        false,
        "nothing to take back before the first move"
    );
    let mine = play_a_move(&page);
    wait_moves(&page, mine + 1);
    page.wait_for(MY_TURN);
    page.click("[data-action=takeback]");
    // My move and the computer's reply are gone; it is my turn again.
    page.wait_for("document.querySelector('.game').dataset.moves === '0'");
    page.wait_for(MY_TURN);
    assert!(
        page.eval("document.querySelector('.log').textContent")
            .as_str()
            .unwrap_or("")
            .contains("took back")
    );
    play_a_move(&page);
    h.assert_no_page_errors();
}

/// Starts a friend game listed in the lobby from the home page; its code.
fn start_public_game(page: &Page, base: &str, game: &str, colour: &str) -> String {
    page.goto(&format!("{base}/"));
    page.wait_for("!!document.querySelector('input[name=game]')");
    page.click(&format!("input[name=game][value='{game}']"));
    page.click("input[name=opponent][value='friend']");
    page.click(&format!("input[name=colour][value='{colour}']"));
    page.click("#public");
    page.click("form button[type=submit]");
    page.wait_for(
        "location.pathname.startsWith('/r/') && document.querySelector('.game[data-version]') \
         && location.pathname.slice(3)",
    )
    .as_str()
    .expect("a room code")
    .to_string()
}

#[test]
fn the_lobby_shows_a_public_room_that_a_second_browser_joins_in_one_click() {
    let Some(h) = harness("lobby") else { return };
    let base = h.base();
    let bob = h.person();
    bob.goto(&format!("{base}/"));
    bob.wait_for("document.querySelector('.lobby')?.textContent.includes('No open game')");
    // Alice starts a public friend game as White.
    let alice = h.person();
    let code = start_public_game(&alice, &base, "abalone", "white");
    // Bob's lobby shows it by itself (streamed, no reload), with the game
    // and Alice's colour.
    let row = format!("document.querySelector(\".open-games li[data-code='{code}']\")");
    bob.wait_for(&format!("!!{row}"));
    let text = bob.eval(&format!("{row}.textContent"));
    let text = text.as_str().unwrap_or("");
    assert!(
        text.contains("Abalone") && text.contains("White waits"),
        "{text}"
    );
    bob.screenshot(&screenshot_path("lobby"));
    // One click seats him, on his phone.
    as_phone(&bob, true);
    fits_the_phone(&bob, &format!(".open-games li[data-code='{code}']"));
    bob.screenshot(&screenshot_path("lobby-phone"));
    bob.click(&format!(
        ".open-games li[data-code='{code}'] [data-action=lobby-join]"
    ));
    bob.wait_for(&format!(
        "location.pathname === '/r/{code}' && document.querySelector('.game')?.dataset.seat === 'black'"
    ));
    alice.wait_for("document.querySelector('.game').dataset.status === 'playing'");
    // Now a game to watch for a third person.
    let carol = h.person();
    carol.goto(&format!("{base}/"));
    carol.wait_for(&format!(
        "!!document.querySelector(\".live-games li[data-code='{code}']\")"
    ));
    assert_eq!(
        carol.eval(&format!(
            "!!document.querySelector(\".open-games li[data-code='{code}']\")"
        )),
        false
    );
    h.assert_no_page_errors();
}

#[test]
fn a_lobby_game_leaves_the_lobby_when_its_creator_closes_the_page() {
    let Some(h) = harness("lobby-leave") else {
        return;
    };
    let base = h.base();
    let alice = h.person();
    let code = start_public_game(&alice, &base, "draughts", "random");
    let bob = h.person();
    bob.goto(&format!("{base}/"));
    let row = format!("!!document.querySelector(\".open-games li[data-code='{code}']\")");
    bob.wait_for(&row);
    let closed = std::time::Instant::now();
    alice.close();
    bob.wait_for_within(&format!("!({row})"), Duration::from_secs(5));
    assert!(closed.elapsed() < Duration::from_secs(5));
    h.assert_no_page_errors();
}

#[test]
fn the_games_list_shows_whose_turn_it_is() {
    let Some(h) = harness("your-turn") else {
        return;
    };
    let base = h.base();
    // Alice plays White in two draughts games with Bob: in the first Bob has
    // answered (her turn), in the second she has just moved (his turn).
    let (alice, bob) = friends(&h, "draughts", None, "white");
    let first = alice
        .eval("location.pathname.slice(3)")
        .as_str()
        .unwrap()
        .to_string();
    play_a_move(&alice);
    play_a_move(&bob);
    let second = start_game(&alice, &base, "draughts", None, "friend", None, "white");
    bob.goto(&format!("{base}/r/{second}"));
    bob.click("[data-action=join]");
    bob.wait_for("document.querySelector('.game').dataset.seat === 'black'");
    play_a_move(&alice);
    alice.goto(&format!("{base}/"));
    let standing = |code: &str| {
        format!(
            "document.querySelector(\".your-games li[data-code='{code}'] [data-standing]\")?.textContent"
        )
    };
    alice.wait_for(&format!("{} === 'your turn'", standing(&first)));
    alice.wait_for(&format!("{} === 'their turn'", standing(&second)));
    alice.wait_for("document.title.startsWith('(1) ')");
    alice.screenshot(&screenshot_path("your-turn"));
    as_phone(&alice, true);
    fits_the_phone(&alice, &format!(".your-games li[data-code='{first}']"));
    alice.screenshot(&screenshot_path("your-turn-phone"));
    // Bob answers in the second game: Alice's list says so without a reload.
    play_a_move(&bob);
    alice.wait_for(&format!("{} === 'your turn'", standing(&second)));
    alice.wait_for("document.title.startsWith('(2) ')");
    h.assert_no_page_errors();
}

#[test]
fn a_white_player_of_ataxx_sees_their_side_at_the_bottom() {
    let Some(h) = harness("ataxx-white") else {
        return;
    };
    let page = h.person();
    start_game(
        &page,
        &h.base(),
        "ataxx",
        None,
        "ai",
        Some("beginner"),
        "white",
    );
    page.wait_for("document.querySelector('.player.bottom')?.textContent.includes('White')");
    // White's first stones (a1 and g7 at the start) are at the bottom-left
    // corner: the board is turned for White.
    let a1_low = page.eval(
        "(() => { const a1 = document.querySelector('.board .cell[data-cell=a1]').getBoundingClientRect(); \
         const a7 = document.querySelector('.board .cell[data-cell=a7]').getBoundingClientRect(); \
         return a1.top < a7.top; })()",
    );
    assert_eq!(
        a1_low, true,
        "a1 is at the top when White plays from the bottom"
    );
    page.click("[data-action=flip]");
    page.wait_for("document.querySelector('.player.bottom')?.textContent.includes('Black')");
    h.assert_no_page_errors();
}

#[test]
fn against_the_computer_the_clock_starts_once_the_board_is_shown() {
    let Some(h) = harness("ai-clock") else { return };
    let page = h.person();
    page.goto(&format!("{}/", h.base()));
    // The room is made, then its page opens 1.5 s later (a slow phone): none
    // of that time is charged.
    let made = page.eval(
        "fetch('/api/rooms', { method: 'POST', headers: { 'Content-Type': 'application/json' }, \
         body: JSON.stringify({ game: 'draughts', opponent: 'ai', level: 'beginner', seat: 'white', \
         clock: { initial_s: 180, increment_s: 2 } }) }).then(r => r.json()).then(room => { \
         localStorage.setItem('plateau.games', JSON.stringify([{ code: room.code, game: 'draughts', \
         tokens: { white: room.token }, opponent: 'ai' }])); return room.code; })",
    );
    let code = made.as_str().expect("a room code").to_string();
    std::thread::sleep(Duration::from_millis(1500));
    page.goto(&format!("{}/r/{code}", h.base()));
    page.wait_for("document.querySelector('.player.bottom .clock')?.classList.contains('running')");
    let white_ms = page.eval(&format!(
        "fetch('/api/rooms/{code}').then(r => r.json()).then(s => s.clock.white_ms)"
    ));
    let white_ms = white_ms.as_i64().unwrap();
    assert!(
        white_ms > 179_000,
        "{white_ms} ms left: the time before the page showed the board was charged"
    );
    let shown = page.eval("document.querySelector('.player.bottom .clock').textContent");
    assert!(
        shown == "3:00" || shown == "2:59",
        "{shown} at first sight: {}",
        page.describe()
    );
    h.assert_no_page_errors();
}

#[test]
fn the_game_record_link_serves_pdn_that_pydraughts_reads_back() {
    let Some(h) = harness("record") else { return };
    let (alice, bob) = friends(&h, "draughts", None, "white");
    play_a_move(&alice);
    play_a_move(&bob);
    play_a_move(&alice);
    let link = alice.eval("document.querySelector('[data-action=record]').getAttribute('href')");
    assert!(
        link.as_str().unwrap().ends_with("/record?download"),
        "{link}"
    );
    assert_eq!(
        alice.eval("document.querySelector('[data-action=record]').hasAttribute('download')"),
        true
    );
    let text = alice
        .eval("fetch(document.querySelector('[data-action=record]').href).then(r => r.text())");
    let text = text.as_str().unwrap();
    assert!(
        text.contains("[GameType \"20\"]") && text.contains("[Result \"*\"]"),
        "{text}"
    );
    let position = alice.eval("fetch('/api/rooms/' + location.pathname.slice(3)).then(r => r.json()).then(s => s.position)");
    let Some(python) = records_python() else {
        return;
    };
    let path = support::temp_path("browser-record.pdn");
    std::fs::write(&path, text).unwrap();
    let out = std::process::Command::new(python)
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/records/read_back.py"
        ))
        .arg("draughts")
        .arg(&path)
        .arg(position.as_str().unwrap())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(lines[0], "3", "{lines:?}");
    assert_eq!(lines[2], lines[3], "{lines:?}");
    h.assert_no_page_errors();
}

#[test]
fn a_finished_game_gets_an_evaluation_graph_whose_points_open_their_position() {
    let Some(h) = harness("graph") else { return };
    let (alice, bob) = friends(&h, "draughts", None, "white");
    play_a_move(&alice);
    play_a_move(&bob);
    play_a_move(&alice);
    bob.click("[data-action=resign]");
    bob.wait_for("document.querySelector('[data-action=resign]').textContent.includes('Confirm')");
    bob.click("[data-action=resign]");
    alice.wait_for("document.querySelector('.game').dataset.status === 'finished'");
    // Four points: the start, after each of the three moves (the last is the
    // result itself).
    alice.wait_for("document.querySelector('.eval-graph:not([hidden])')?.dataset.points === '4'");
    alice.wait_for("document.querySelector('[data-graph-status]')?.dataset.graphStatus === 'done'");
    let title =
        alice.eval("document.querySelector('.graph-point[data-ply=\"1\"] title').textContent");
    assert!(
        title.as_str().unwrap_or("").starts_with("after 1 move: "),
        "{title}"
    );
    alice.eval("document.querySelector('.graph-point[data-ply=\"1\"]').dispatchEvent(new MouseEvent('click', { bubbles: true }))");
    alice.wait_for("document.querySelector('.game').dataset.replay === '1'");
    alice.screenshot(&screenshot_path("evaluation-graph"));
    as_phone(&alice, true);
    fits_the_phone(&alice, ".eval-graph");
    alice.screenshot(&screenshot_path("evaluation-graph-phone"));
    h.assert_no_page_errors();
}

#[test]
fn each_game_has_a_rules_page_linked_from_home_room_and_footer() {
    let Some(h) = harness("rules") else { return };
    let page = h.person();
    page.goto(&format!("{}/", h.base()));
    page.wait_for("!!document.querySelector('input[name=game]')");
    page.click("input[name=game][value='ataxx']");
    page.click("[data-action=rules]");
    page.wait_for("location.pathname === '/rules/ataxx' && document.querySelector('.rules h1')?.textContent === 'Ataxx: the rules'");
    // Illustrated with the game's own board: the start's four stones.
    assert_eq!(
        page.eval("document.querySelectorAll('.rules-figure .board .cell').length"),
        49
    );
    page.screenshot(&screenshot_path("rules-ataxx"));
    as_phone(&page, true);
    page.goto(&format!("{}/rules/escampe", h.base()));
    page.wait_for("document.querySelector('.rules')?.dataset.game === 'escampe'");
    page.screenshot(&screenshot_path("rules-escampe-phone"));
    // On a phone the header is one line (it wrapped to five).
    let header = page.eval("document.querySelector('.site-header').getBoundingClientRect().height");
    assert!(
        header.as_f64().unwrap() < 56.0,
        "the header is {header} px high on a phone"
    );
    page.goto(&format!("{}/", h.base()));
    page.wait_for("!!document.querySelector('input[name=game]')");
    page.screenshot(&screenshot_path("home-phone"));
    as_phone(&page, false);
    page.goto(&format!("{}/rules/escampe", h.base()));
    page.wait_for("document.querySelector('.rules')?.dataset.game === 'escampe'");
    // Play from the rules page: the home page opens on that game.
    page.click(".rules .btn.primary");
    page.wait_for("document.querySelector('input[name=game][value=escampe]')?.checked === true");
    // The footer leads to the engine speed page, whose words are right.
    // (Its whole run is the local bench test's; here the first game's
    // status line is enough, and a busy machine takes long for the rest.)
    page.click(".site-footer a[href='/bench']");
    page.wait_for(
        "document.querySelector('.bench .status')?.textContent.startsWith('Searching: ')",
    );
    let text = page.eval("document.querySelector('.bench').textContent");
    assert!(!text.as_str().unwrap_or("").contains("the The"), "{text}");
    // An unknown game's rules page lists the others.
    page.goto(&format!("{}/rules/chess", h.base()));
    page.wait_for("document.querySelectorAll('.rules-index li').length === 5");
    h.assert_no_page_errors();
}

#[test]
fn sounds_are_off_until_turned_on_and_then_play_for_moves() {
    let Some(h) = harness("sound") else { return };
    let page = h.person();
    // A recording stand-in for WebAudio: which tones were asked for.
    page.call(
        "Page.addScriptToEvaluateOnNewDocument",
        serde_json::json!({ "source": "window.tones = []; window.AudioContext = class { constructor() { this.currentTime = 0; this.destination = {}; } \
            createOscillator() { const o = { frequency: {}, connect: (g) => g, start: () => window.tones.push(o.frequency.value), stop: () => {} }; return o; } \
            createGain() { const g = { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (d) => d }; return g; } };" }),
    );
    start_game(
        &page,
        &h.base(),
        "virus",
        None,
        "ai",
        Some("beginner"),
        "black",
    );
    let mine = play_a_move(&page);
    wait_moves(&page, mine + 1);
    assert_eq!(page.eval("window.tones.length"), 0, "off by default");
    assert_eq!(
        page.eval("document.querySelector('[data-action=sound]').getAttribute('aria-pressed')"),
        "false"
    );
    page.click("[data-action=sound]");
    let mine = play_a_move(&page);
    wait_moves(&page, mine + 1);
    page.wait_for("window.tones.length >= 2");
    // Remembered across a reload.
    page.reload();
    page.wait_for(
        "document.querySelector('[data-action=sound]')?.getAttribute('aria-pressed') === 'true'",
    );
    h.assert_no_page_errors();
}

/// The Python of the record tests (tests/records.rs), if it has the readers.
fn records_python() -> Option<PathBuf> {
    let candidate =
        std::env::var_os("PLATEAU_PYTHON").map_or_else(|| PathBuf::from("python3"), PathBuf::from);
    let works = std::process::Command::new(&candidate)
        .args(["-c", "import draughts"])
        .output()
        .is_ok_and(|out| out.status.success());
    if works {
        return Some(candidate);
    }
    assert_ne!(
        std::env::var("CI").as_deref(),
        Ok("true"),
        "CI=true but {} cannot import pydraughts (.ci/run sets PLATEAU_PYTHON)",
        candidate.display()
    );
    let _ = writeln!(
        std::io::stderr(),
        "record read-back skipped: no pydraughts in {}",
        candidate.display()
    );
    None
}

#[test]
fn a_clocked_game_ends_on_time() {
    let Some(h) = harness("clock") else { return };
    // White creates a 2-second game and never moves; Black joins in the page.
    let server = h.server.as_ref().expect("a running server");
    let runtime = h.runtime.as_ref().expect("a runtime");
    let (code, _, _) = runtime.block_on(support::create(
        server,
        serde_json::json!({"game": "draughts", "seat": "white", "opponent": "friend",
                           "clock": {"initial_s": 2, "increment_s": 1}}),
    ));
    let page = h.person();
    page.goto(&format!("{}/r/{code}", h.base()));
    page.click("[data-action=join]");
    page.wait_for("document.querySelector('.game').dataset.seat === 'black'");
    page.wait_for(
        "document.querySelector('.clock[data-clock=white]')?.classList.contains('running')",
    );
    let shown = page.eval("document.querySelector('.clock[data-clock=black]').textContent");
    assert_eq!(shown, "0:02.0", "Black's clock waits at its full time");
    page.wait_for("document.querySelector('.clock[data-clock=white]').classList.contains('low')");
    page.screenshot(&screenshot_path("clock-running"));
    page.wait_for("document.querySelector('.game').dataset.status === 'finished'");
    page.wait_for("!document.querySelector('.banner').hidden");
    let banner = page.eval("document.querySelector('.banner').textContent");
    let banner = banner.as_str().unwrap_or("");
    assert!(
        banner.contains("time forfeit") && banner.contains("You won"),
        "{banner}"
    );
    assert_eq!(
        page.eval("document.querySelector('.clock[data-clock=white]').textContent"),
        "0:00.0"
    );
    h.assert_no_page_errors();
}

#[test]
fn the_home_page_starts_a_game_with_a_clock() {
    let Some(h) = harness("clock-preset") else {
        return;
    };
    let page = h.person();
    page.goto(&format!("{}/", h.base()));
    page.wait_for("!!document.querySelector('input[name=game]')");
    page.click("input[name=game][value='ataxx']");
    page.click("input[name=opponent][value='local']");
    set_select(&page, "clock", "3+2");
    page.click("form button[type=submit]");
    page.wait_for("!!document.querySelector('.clock[data-clock=black]')");
    page.wait_for(
        "document.querySelector('.clock[data-clock=black]').classList.contains('running')",
    );
    assert_eq!(
        page.eval("document.querySelector('.clock[data-clock=white]').textContent"),
        "3:00"
    );
    play_a_move(&page);
    // White's clock runs now; Black's stopped at its time left plus the 2 s
    // increment (the exact charge is checked by the API tests: here the
    // machine may be slow to click).
    page.wait_for(
        "document.querySelector('.clock[data-clock=white]').classList.contains('running')",
    );
    let black = page.eval("document.querySelector('.clock[data-clock=black]').textContent");
    let seconds = black
        .as_str()
        .and_then(|t| t.split_once(':'))
        .and_then(|(m, s)| Some(m.parse::<u32>().ok()? * 60 + s.parse::<u32>().ok()?))
        .unwrap_or(0);
    assert!((150..=182).contains(&seconds), "{black}");
    std::thread::sleep(Duration::from_millis(1200));
    assert_eq!(
        page.eval("document.querySelector('.clock[data-clock=black]').textContent"),
        black,
        "Black's clock is stopped"
    );
    h.assert_no_page_errors();
}

#[test]
fn stepping_through_the_moves_by_clicks_and_keys() {
    let Some(h) = harness("replay") else { return };
    let page = h.person();
    start_game(&page, &h.base(), "draughts", None, "local", None, "white");
    for _ in 0..3 {
        play_a_move(&page);
    }
    let live = page.eval("document.querySelector('.game').dataset.version");
    // A click on the first move shows the position after it, read-only.
    page.click(".moves [data-ply='1']");
    page.wait_for("document.querySelector('.game').dataset.replay === '1'");
    assert_eq!(
        page.eval("document.querySelectorAll('.board .cell[tabindex]').length"),
        0,
        "no move can be made while replaying"
    );
    assert!(
        page.eval("document.querySelector('.replay').textContent")
            .as_str()
            .unwrap_or("")
            .contains("After move 1 of 3")
    );
    let after_one = page
        .eval("document.querySelector('.replay input').value")
        .as_str()
        .expect("the position as text")
        .to_string();
    assert!(after_one.starts_with('B'), "Black to move: {after_one}");
    page.screenshot(&screenshot_path("replay"));
    // The arrow keys step, Home goes to the start, End back to the game.
    page.press("ArrowLeft");
    page.wait_for("document.querySelector('.game').dataset.replay === '0'");
    page.press("ArrowRight");
    page.press("ArrowRight");
    page.wait_for("document.querySelector('.game').dataset.replay === '2'");
    page.press("Home");
    page.wait_for("document.querySelector('.game').dataset.replay === '0'");
    page.press("End");
    page.wait_for("document.querySelector('.game').dataset.replay === 'live'");
    assert_eq!(
        page.eval("document.querySelector('.game').dataset.version"),
        live
    );
    // The button returns to the game too, and play goes on.
    page.click("[data-action=replay-back]");
    page.wait_for("document.querySelector('.game').dataset.replay === '2'");
    page.click("[data-action=live]");
    page.wait_for("document.querySelector('.game').dataset.replay === 'live'");
    play_a_move(&page);
    h.assert_no_page_errors();
}

#[test]
fn a_takeback_and_a_draw_between_two_players_through_the_page() {
    let Some(h) = harness("offers") else { return };
    let (alice, bob) = friends(&h, "draughts", None, "white");
    play_a_move(&alice);
    wait_moves(&bob, 1);
    assert_eq!(
        bob.eval("!!document.querySelector('[data-action=takeback]')"),
        false,
        "Bob has no move to take back"
    );

    // Alice asks to take her move back; Bob sees the request and grants it.
    alice.click("[data-action=takeback]");
    alice.wait_for(
        "document.querySelector('.offer:not([hidden])')?.textContent.includes('waiting')",
    );
    bob.wait_for(
        "document.querySelector('.offer:not([hidden])')?.textContent.includes('take back')",
    );
    bob.screenshot(&screenshot_path("takeback-asked"));
    bob.click("[data-action=accept-offer]");
    for page in [&alice, &bob] {
        page.wait_for("document.querySelector('.game').dataset.moves === '0'");
        page.wait_for("document.querySelector('.offer').hidden");
    }

    // Bob cannot offer a draw twice; Alice offers one, Bob declines, then
    // Alice offers again and Bob accepts.
    alice.click("[data-action=offer-draw]");
    bob.wait_for(
        "document.querySelector('.offer:not([hidden])')?.textContent.includes('offers a draw')",
    );
    bob.click("[data-action=decline-offer]");
    // The answer shows where the offer was, not only in the room's history.
    alice.wait_for("document.querySelector('.offer [data-answer]')?.textContent === 'Black declined the draw' && !!document.querySelector('[data-action=offer-draw]')");
    alice.click("[data-action=offer-draw]");
    bob.wait_for(
        "document.querySelector('.offer:not([hidden])')?.textContent.includes('offers a draw')",
    );
    bob.click("[data-action=accept-offer]");
    for page in [&alice, &bob] {
        page.wait_for("document.querySelector('.game').dataset.status === 'finished'");
        page.wait_for("!document.querySelector('.banner').hidden");
        assert!(
            page.eval("document.querySelector('.banner').textContent")
                .as_str()
                .unwrap_or("")
                .contains("agreement")
        );
    }
    alice.screenshot(&screenshot_path("draw-agreed"));
    h.assert_no_page_errors();
}

#[test]
fn both_sides_on_one_device_by_keyboard_and_on_a_phone() {
    let Some(h) = harness("local") else { return };
    let page = h.person();
    as_phone(&page, true);
    page.goto(&format!("{}/", h.base()));
    page.wait_for("!!document.querySelector('input[name=game]')");
    page.screenshot(&screenshot_path("home-phone"));
    start_game(&page, &h.base(), "abalone", None, "local", None, "white");
    page.wait_for("document.querySelector('.game').dataset.seat === 'white black'");
    // Keyboard: a marble is focusable and Enter selects it; Enter on a target plays.
    page.wait_for(MY_TURN);
    page.eval("document.querySelector('.board .cell.playable[tabindex]').focus()");
    page.press("Enter");
    page.wait_for("document.querySelectorAll('.board .cell.selected').length === 1");
    page.wait_for("document.querySelector('.board .cell.target[tabindex]')");
    page.eval("document.querySelector('.board .cell.target[tabindex]').focus()");
    page.press("Enter");
    wait_moves(&page, 1);
    // The other side plays from the same page.
    play_a_move(&page);
    play_a_move(&page);
    page.wait_for(MY_TURN);
    page.screenshot(&screenshot_path("abalone-phone"));
    // The game is remembered on the home page.
    page.click("a.brand");
    page.wait_for("document.querySelectorAll('.recent li').length === 1");
    assert!(
        page.eval("document.querySelector('.recent li').textContent")
            .as_str()
            .unwrap_or("")
            .contains("both sides here")
    );
    h.assert_no_page_errors();
}

#[test]
fn the_page_and_its_files_are_served_with_types_and_cache_headers() {
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(async {
        let server = TestServer::start(&temp_db("page"), test_config()).await;
        let client = support::client();
        for (path, kind) in [
            ("/", "text/html"),
            ("/r/ABCDE", "text/html"),
            ("/js/main.js", "text/javascript"),
            ("/style.css", "text/css"),
            ("/favicon.svg", "image/svg+xml"),
        ] {
            let response = client.get(server.url(path)).send().await.unwrap();
            assert_eq!(response.status().as_u16(), 200, "{path}");
            let headers = response.headers();
            assert!(
                headers["content-type"].to_str().unwrap().starts_with(kind),
                "{path}"
            );
            assert_eq!(headers["cache-control"], "no-cache", "{path}");
            let etag = headers["etag"].clone();
            let again = client
                .get(server.url(path))
                .header("if-none-match", etag)
                .send()
                .await
                .unwrap();
            assert_eq!(again.status().as_u16(), 304, "{path} revalidates");
        }
        let missing = client.get(server.url("/js/nope.js")).send().await.unwrap();
        assert_eq!(missing.status().as_u16(), 404);
        let api = client.get(server.url("/api/nope")).send().await.unwrap();
        assert_eq!(api.status().as_u16(), 404);
        server.stop().await;
    });
}

/// A draughts capture of two pieces entered by clicking through its landing
/// squares (the only capturing piece selected from the start), after moves
/// typed in notation; and captures that share start and end told apart by
/// their landings (the page's modules, on a position set up for it).
#[test]
fn draughts_captures_by_clicking_through_the_landings() {
    let Some(h) = harness("captures") else { return };
    let page = h.person();
    start_game(&page, &h.base(), "draughts", None, "local", None, "white");
    let opening = [
        "34-29", "20-24", "29x20", "15x24", "32-27", "19-23", "37-32", "24-29", "33x24", "14-20",
        "24x15", "9-14", "31-26", "17-21", "26x17",
    ];
    page.eval("document.querySelector('details').open = true");
    for (ply, mv) in opening.iter().enumerate() {
        page.wait_for(MY_TURN);
        page.click(".typed input");
        page.type_text(mv);
        page.click(".typed button");
        wait_moves(&page, ply as u64 + 1);
    }
    page.wait_for(MY_TURN);
    // Black must take two pieces with the man on 11: it is selected already,
    // the first landing (22) is a step, the end (31) a final target.
    assert_eq!(
        page.eval("[...document.querySelectorAll('.board .cell.selected')].map(c => c.dataset.cell).join()"),
        "11"
    );
    assert_eq!(
        page.eval("[...document.querySelectorAll('.board .cell.target')].map(c => c.dataset.cell + ':' + (c.classList.contains('step') ? 'step' : 'final')).sort().join()"),
        "22:step,31:final"
    );
    page.click(".board .cell[data-cell='22']");
    page.wait_for("[...document.querySelectorAll('.board .cell.target')].map(c => c.dataset.cell).join() === '31'");
    page.click(".board .cell[data-cell='31']");
    wait_moves(&page, 16);
    assert_eq!(
        page.eval("document.querySelector('.moves .ply.latest').textContent"),
        "11x31"
    );
    page.screenshot(&screenshot_path("draughts-capture"));

    // A king's captures that share start and end but not their pieces: the
    // server writes them with every landing (as `plateau perft --divide`
    // lists them), and the page has the player click through the landings.
    let picked = page.eval(
        "(async () => { \
           const d = await import('/js/boards/draughts.js'); \
           const { SequencePicker } = await import('/js/picker.js'); \
           const model = d.parse('W:WK43:B17,29,13,9,27'); \
           const legal = ['43x21x3x20x33', '43x21x3x20x38', '43x21x3x20x42', '43x21x3x20x47', \
                          '43x21x8x24x33', '43x21x8x24x38', '43x21x8x24x42', '43x21x8x24x47']; \
           const picker = new SequencePicker(d.entries(model, legal)); \
           const seen = []; \
           const targets = () => [...picker.view().targets].map(([c, k]) => c + ':' + k).sort().join(); \
           seen.push([...picker.view().selected].join(), targets()); \
           for (const cell of ['21', '8', '24']) { picker.click(cell); seen.push(targets()); } \
           seen.push(JSON.stringify(picker.click('38'))); \
           return seen; })()",
    );
    assert_eq!(
        picked,
        serde_json::json!([
            "43",
            "21:step",
            "3:step,8:step",
            "24:step",
            "33:final,38:final,42:final,47:final",
            "{\"move\":\"43x21x8x24x38\"}"
        ])
    );
    h.assert_no_page_errors();
}

/// A friend room of `game` with both seats taken over the API: (code, White's
/// token, Black's token).
fn friend_room_over_api(h: &Harness, body: serde_json::Value) -> (String, String, String) {
    let server = h.server.as_ref().expect("a running server");
    h.runtime.as_ref().expect("a runtime").block_on(async {
        let (code, seat, token) = support::create(server, body).await;
        let (status, joined) = support::post(
            &server.url(&format!("/api/rooms/{code}/join")),
            serde_json::json!({}),
        )
        .await;
        assert_eq!(status, 200, "{joined}");
        let other = joined["token"].as_str().unwrap().to_string();
        if seat == "white" {
            (code, token, other)
        } else {
            (code, other, token)
        }
    })
}

/// Plays `moves` over the API, each by the side to move.
fn play_over_api(h: &Harness, code: &str, white: &str, black: &str, moves: &[&str]) {
    let server = h.server.as_ref().expect("a running server");
    h.runtime.as_ref().expect("a runtime").block_on(async {
        for mv in moves {
            let now = support::state(server, code).await;
            let token = if now["side_to_move"] == "white" {
                white
            } else {
                black
            };
            let version = now["version"].as_u64().unwrap();
            let (status, body) = support::play(server, code, token, version, mv).await;
            assert_eq!(status, 200, "{mv}: {body}");
        }
    });
}

/// The board's cells with `class`, sorted, once they read `expected` or after
/// a few seconds (the page may fetch the position before the last move first):
/// a mismatch shows what the board has.
fn board_cells(page: &Page, class: &str, expected: &str) -> String {
    let read = format!(
        "[...document.querySelectorAll('.board .cell.{class}')].map(c => c.dataset.cell).sort().join()"
    );
    let deadline = std::time::Instant::now() + Duration::from_secs(3);
    loop {
        let seen = page.eval(&read).as_str().unwrap_or("").to_string();
        if seen == expected || std::time::Instant::now() > deadline {
            return seen;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// After a draughts capture the last move shows its whole path (every landing
/// square) and, apart, the men it took: live, after a reload (the page then
/// asks the server for the position before the move), and stepping back to it.
#[test]
fn draughts_last_move_shows_the_capture_path_and_the_taken_men() {
    let Some(h) = harness("capture-path") else {
        return;
    };
    let (code, white, black) = friend_room_over_api(
        &h,
        serde_json::json!({"game": "draughts", "seat": "white", "opponent": "friend"}),
    );
    let opening = [
        "34-29", "20-24", "29x20", "15x24", "32-27", "19-23", "37-32", "24-29", "33x24", "14-20",
        "24x15", "9-14", "31-26", "17-21", "26x17",
    ];
    play_over_api(&h, &code, &white, &black, &opening);
    let page = h.person();
    page.goto(&format!("{}/r/{code}", h.base()));
    page.wait_for("document.querySelector('.game')?.dataset.moves === '15'");
    // 26x17 took the man on 21.
    assert_eq!(board_cells(&page, "last", "17,26"), "17,26");
    assert_eq!(board_cells(&page, "taken", "21"), "21");
    // Black's 11x31 lands on 22 on the way and takes 17 and 27.
    play_over_api(&h, &code, &white, &black, &["11x31"]);
    page.wait_for("document.querySelector('.game').dataset.moves === '16'");
    assert_eq!(board_cells(&page, "last", "11,22,31"), "11,22,31");
    assert_eq!(board_cells(&page, "taken", "17,27"), "17,27");
    page.screenshot(&screenshot_path("draughts-capture-path"));
    page.reload();
    page.wait_for("document.querySelector('.game')?.dataset.moves === '16'");
    assert_eq!(board_cells(&page, "last", "11,22,31"), "11,22,31");
    assert_eq!(board_cells(&page, "taken", "17,27"), "17,27");
    // White's reply takes one man; a quiet move shows its two squares;
    // stepping back shows the double capture again.
    play_over_api(&h, &code, &white, &black, &["36x27"]);
    page.wait_for("document.querySelector('.game').dataset.moves === '17'");
    assert_eq!(board_cells(&page, "last", "27,36"), "27,36");
    assert_eq!(board_cells(&page, "taken", "31"), "31");
    play_over_api(&h, &code, &white, &black, &["18-22"]);
    page.wait_for("document.querySelector('.game').dataset.moves === '18'");
    assert_eq!(board_cells(&page, "last", "18,22"), "18,22");
    assert_eq!(board_cells(&page, "taken", ""), "");
    page.press("ArrowLeft");
    page.wait_for("document.querySelector('.game').dataset.replay === '17'");
    page.press("ArrowLeft");
    page.wait_for("document.querySelector('.game').dataset.replay === '16'");
    assert_eq!(board_cells(&page, "last", "11,22,31"), "11,22,31");
    assert_eq!(board_cells(&page, "taken", "17,27"), "17,27");

    // In the module: a full path names every landing; without the position
    // before the move, only the squares written are known.
    let seen = page.eval(
        "(async () => { \
           const d = await import('/js/boards/draughts.js'); \
           const before = d.parse('W:WK43:B17,29,13,9,27'); \
           const sorted = (cells) => [...cells].map(Number).sort((a, b) => a - b).join(); \
           return [d.lastCells('43x21x8x24x38', before).join(), sorted(d.takenCells('43x21x8x24x38', before)), \
                   d.lastCells('11x31').join(), d.takenCells('11x31').join(), \
                   d.lastCells('32-28', before).join(), d.takenCells('32-28', before).join()]; })()",
    );
    assert_eq!(
        seen,
        serde_json::json!(["43,21,8,24,38", "13,17,27,29", "11,31", "", "32,28", ""])
    );
    h.assert_no_page_errors();
}

/// After an Abalone move the last move shows every marble that moved, where
/// it was and where it went, and every marble it pushed: a broadside of three,
/// an inline push of three against one (live), and an ejection (in the module).
#[test]
fn abalone_last_move_shows_every_marble_that_moved() {
    let Some(h) = harness("abalone-last") else {
        return;
    };
    let (code, white, black) = friend_room_over_api(
        &h,
        serde_json::json!({"game": "abalone", "variant": "standard", "seat": "black", "opponent": "friend"}),
    );
    // c3, c4, c5 step sideways to d3, d4, d5.
    play_over_api(&h, &code, &white, &black, &["c3c5d3"]);
    let page = h.person();
    page.goto(&format!("{}/r/{code}", h.base()));
    page.wait_for("document.querySelector('.game')?.dataset.moves === '1'");
    assert_eq!(
        board_cells(&page, "last", "c3,c4,c5,d3,d4,d5"),
        "c3,c4,c5,d3,d4,d5"
    );
    // c5, d5, e5 move up to d5, e5, f5 and push White's f5 to g5.
    play_over_api(
        &h,
        &code,
        &white,
        &black,
        &["g5f5", "a5b5", "i9h9", "b5c5", "i8h8", "c5d5"],
    );
    page.wait_for("document.querySelector('.game').dataset.moves === '7'");
    assert_eq!(
        board_cells(&page, "last", "c5,d5,e5,f5,g5"),
        "c5,d5,e5,f5,g5"
    );
    assert_eq!(
        page.eval(
            "document.querySelector(\".board .cell[data-cell='g5']\").getAttribute('aria-label')"
        ),
        "g5, white marble"
    );
    page.screenshot(&screenshot_path("abalone-push"));

    let seen = page.eval(
        "(async () => { \
           const a = await import('/js/boards/abalone.js'); \
           const start = a.parse('wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b b0 w0'); \
           const edge = a.parse('5/6/7/8/4bbbww/8/7/6/5 b b0 w0'); \
           const sorted = (cells) => [...cells].sort().join(); \
           return [sorted(a.lastCells('c3c4d3', start)), sorted(a.lastCells('b2c3c2', start)), \
                   sorted(a.lastCells('a1b2', start)), sorted(a.lastCells('e5e6', edge)), \
                   sorted(a.lastCells('c5d5'))]; })()",
    );
    assert_eq!(
        seen,
        serde_json::json!([
            "c3,c4,d3,d4",
            "b2,c2,c3,d3",
            "a1,b2,c3,d4",
            "e5,e6,e7,e8,e9",
            "c5,d5"
        ])
    );
    h.assert_no_page_errors();
}

/// Escampe's liseré marks (1-3 per square) cannot be taken for pieces: no
/// ring or disc, and nothing where a piece stands (the middle of the square);
/// each square still shows as many marks as its liseré, at desktop and phone size.
#[test]
fn escampe_lisere_marks_are_not_mistaken_for_pieces() {
    let Some(h) = harness("lisere") else { return };
    let (code, white, black) = friend_room_over_api(
        &h,
        serde_json::json!({"game": "escampe", "seat": "white", "opponent": "friend"}),
    );
    play_over_api(
        &h,
        &code,
        &white,
        &black,
        &["C6/A6/B5/D5/E6/F5", "B2/A1/B1/C2/E2/F2"],
    );
    let page = h.person();
    page.goto(&format!("{}/r/{code}", h.base()));
    page.wait_for("document.querySelectorAll('.board .cell.occupied').length === 12");
    let check = "(async () => { \
           const e = await import('/js/boards/escampe.js'); \
           const svg = document.querySelector('.board'); \
           const bad = []; \
           for (const cell of svg.querySelectorAll('.cell')) { \
             const marks = [...cell.querySelectorAll('.lisere')]; \
             if (marks.length !== e.lisere(cell.dataset.cell)) bad.push(cell.dataset.cell + ': ' + marks.length + ' marks'); \
             for (const mark of marks) { \
               if (['circle', 'ellipse'].includes(mark.tagName)) { bad.push(cell.dataset.cell + ': a ' + mark.tagName); continue; } \
               const p = svg.createSVGPoint(); \
               for (let i = 0; i < 16; i += 1) for (const r of [0, 0.1, 0.2, 0.3]) { \
                 p.x = 0.5 + r * Math.cos(i * Math.PI / 8); p.y = 0.5 + r * Math.sin(i * Math.PI / 8); \
                 if (mark.isPointInFill(p) || mark.isPointInStroke(p)) { bad.push(cell.dataset.cell + ': a mark where pieces stand'); i = 16; break; } \
               } \
             } \
           } \
           return [...new Set(bad)].slice(0, 6).join('; '); })()";
    assert_eq!(page.eval(check), "");
    page.screenshot(&screenshot_path("escampe-lisere-desktop"));
    as_phone(&page, true);
    page.reload();
    page.wait_for("document.querySelectorAll('.board .cell.occupied').length === 12");
    assert_eq!(page.eval(check), "");
    page.screenshot(&screenshot_path("escampe-lisere-phone"));
    h.assert_no_page_errors();
}

/// The board modules read each game's position text and turn its moves into
/// clicks as the rules say (checked in the page itself, on set positions).
#[test]
fn board_modules_read_positions_and_moves() {
    let Some(h) = harness("modules") else { return };
    let page = h.person();
    page.goto(&format!("{}/", h.base()));
    let seen = page.eval(
        "(async () => { \
           const e = await import('/js/boards/escampe.js'); \
           const d = await import('/js/boards/draughts.js'); \
           const a = await import('/js/boards/abalone.js'); \
           const x = await import('/js/boards/ataxx.js'); \
           const out = {}; \
           const m = e.parse('n1B2b/2b3/b1nn2/5b/2b3/nnN3 w 2'); \
           out.escampe = [m.board.size, m.board.get('C1'), m.board.get('C6'), m.side, m.constraint, \
                          e.lisere('A1'), e.lisere('D6'), e.lisere('F6'), e.lisere('B5'), \
                          e.placementRows(e.parse('6/6/6/6/6/6 b -'), 'black', 'B5').join(), \
                          e.placementRows(e.parse('n1n2N/1n1n2/6/6/6/6 w -'), 'white', null).join()]; \
           const dm = d.parse('B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29'); \
           out.draughts = [dm.board.size, dm.side, dm.board.get(10).king, dm.board.get(18).king, \
                           d.parse('W:W31-50:B1-20').board.size, d.coords(1).join(), d.coords(46).join(), d.coords(50).join()]; \
           const am = a.parse('wwwww/wwwwww/2www2/8/9/8/2bbb2/bbbbbb/bbbbb b b0 w0'); \
           const picker = new a.AbalonePicker(am, ['c3d3', 'c3c4d3', 'a1b1']); \
           picker.click('c3'); picker.click('c4'); \
           out.abalone = [am.board.size, am.board.get('a1'), am.board.get('i9'), am.side, \
                          [...picker.view().targets.keys()].sort().join(), JSON.stringify(picker.click('d4'))]; \
           const xm = x.parse('x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1'); \
           const entries = x.entries(xm, ['b7', 'a7c5', '0000']); \
           out.ataxx = [xm.n, xm.board.get('a7'), xm.board.get('g7'), xm.board.get('c5'), xm.jumps, \
                        JSON.stringify(entries.map((en) => en.seqs)), x.parse('x3/4/4/3o o').jumps]; \
           return out; })()",
    );
    assert_eq!(
        seen,
        serde_json::json!({
            "escampe": [12, "N", "B", "white", 2, 1, 1, 2, 3, "5,6", "1,2"],
            "draughts": [12, "black", true, false, 40, "0,1", "9,0", "9,8"],
            "abalone": [28, "black", "white", "black", "d3,d4", "{\"move\":\"c3c4d3\"}"],
            "ataxx": [7, "black", "white", "blocked", true,
                      "[[[\"b7\"],[\"a7\",\"b7\"]],[[\"a7\",\"c5\"]],[]]", false],
        })
    );
    h.assert_no_page_errors();
}

// ---- rough edges found by a newcomer's tryout, each a failing case first ----

#[test]
fn an_unknown_room_and_a_malformed_code_say_so_and_show_nothing_else() {
    let Some(h) = harness("missing") else { return };
    let page = h.person();
    page.goto(&format!("{}/r/ZZZZZ", h.base()));
    page.wait_for("!!document.querySelector('[data-missing]')");
    // Its state said 404: no event stream was opened for it.
    assert_eq!(
        page.eval(
            "performance.getEntriesByType('resource').some((e) => e.name.includes('/events'))"
        ),
        false
    );
    let text = page.eval("document.querySelector('#app').textContent");
    assert!(
        text.as_str()
            .unwrap_or("")
            .contains("There is no room ZZZZZ"),
        "{text}"
    );
    for absent in [".moves-box", "details", ".board"] {
        assert_eq!(
            page.eval(&format!("!!document.querySelector('{absent}')")),
            false,
            "{absent} shown for a room that does not exist"
        );
    }
    page.goto(&format!("{}/r/abc", h.base()));
    page.wait_for("!!document.querySelector('[data-missing]')");
    let text = page.eval("document.querySelector('#app').textContent");
    assert!(
        text.as_str().unwrap_or("").contains("is not a room code"),
        "{text}"
    );
    assert_eq!(
        page.eval("!!document.querySelector('input[name=game]')"),
        false,
        "not the home page"
    );
    h.assert_no_page_errors();
}

#[test]
fn spectators_get_no_move_form() {
    let Some(h) = harness("spectator-form") else {
        return;
    };
    let server = h.server.as_ref().expect("a running server");
    let runtime = h.runtime.as_ref().expect("a runtime");
    let code = runtime.block_on(async {
        let (code, _, _) = support::create(
            server,
            serde_json::json!({"game": "draughts", "seat": "white", "opponent": "friend"}),
        )
        .await;
        support::post(
            &server.url(&format!("/api/rooms/{code}/join")),
            serde_json::json!({}),
        )
        .await;
        code
    });
    let page = h.person();
    page.goto(&format!("{}/r/{code}", h.base()));
    page.wait_for("document.querySelector('.game')?.dataset.seat === 'spectator'");
    assert_eq!(
        page.eval("document.querySelector('details').hidden"),
        true,
        "the move form is for players"
    );
    h.assert_no_page_errors();
}

/// The blank gap above the action buttons, in pixels: from the lowest shown
/// line between them and the status (the status itself, a move limit).
const STATUS_GAP: &str = "(() => { const actions = document.querySelector('.actions'); \
     let above = actions.previousElementSibling; \
     while (above && above !== document.querySelector('.status') && !above.getClientRects().length) above = above.previousElementSibling; \
     return actions.getBoundingClientRect().top - above.getBoundingClientRect().bottom; })()";

#[test]
fn no_blank_bands_and_the_phone_shows_status_and_clocks_first() {
    let Some(h) = harness("layout") else { return };
    for (game, variant) in [
        ("escampe", None),
        ("draughts", None),
        ("abalone", None),
        ("virus", Some("5x5")),
        ("ataxx", None),
    ] {
        for (label, width, height, mobile) in [
            ("desktop", DESKTOP.0, DESKTOP.1, false),
            ("phone", PHONE.0, PHONE.1, true),
        ] {
            let page = h.person();
            page.set_viewport(width, height, mobile);
            page.goto(&format!("{}/", h.base()));
            page.wait_for("!!document.querySelector('input[name=game]')");
            page.click(&format!("input[name=game][value='{game}']"));
            if let Some(variant) = variant {
                set_select(&page, "variant", variant);
            }
            page.click("input[name=opponent][value='local']");
            set_select(&page, "clock", "5+3");
            // (clientWidth: the width inside a vertical scroll bar, if the page has one.)
            let overflow = page.eval(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth",
            );
            assert_eq!(
                overflow, 0,
                "{game} {label}: the home page is wider than the screen"
            );
            page.click("form button[type=submit]");
            page.wait_for(
                "!!document.querySelector('.game[data-version] .clock') || document.querySelector('.error')?.textContent",
            );
            let error = page.eval("document.querySelector('.error')?.textContent || ''");
            assert_eq!(error, "", "{game} {label}");
            if game != "escampe" {
                play_a_move(&page);
            }
            let gap = page.eval(STATUS_GAP).as_f64().unwrap_or(f64::MAX);
            assert!(
                gap <= 24.0,
                "{game} {label}: {gap} px between status and buttons"
            );
            for (what, selector) in [
                ("status", ".status"),
                ("top clock", ".player.top .clock"),
                ("bottom clock", ".player.bottom .clock"),
                ("board", ".board-wrap"),
            ] {
                let bottom = page
                    .eval(&format!(
                        "document.querySelector('{selector}').getBoundingClientRect().bottom"
                    ))
                    .as_f64()
                    .unwrap_or(f64::MAX);
                assert!(
                    bottom <= height as f64,
                    "{game} {label}: the {what} ends at {bottom} px, below the first screen"
                );
            }
            page.screenshot(&screenshot_path(&format!("layout-{game}-{label}")));
        }
    }
    h.assert_no_page_errors();
}

#[test]
fn status_and_seat_labels_read_on_one_line() {
    let Some(h) = harness("labels") else { return };
    let page = h.person();
    page.set_viewport(780, 900, false);
    start_game(
        &page,
        &h.base(),
        "ataxx",
        None,
        "ai",
        Some("beginner"),
        "black",
    );
    page.wait_for(MY_TURN);
    for row in [".player.top", ".player.bottom"] {
        let lines = page
            .eval(&format!(
                "(() => {{ const r = document.querySelector('{row}'); \
                 return Math.max(...[...r.children].map(c => Math.round(c.getBoundingClientRect().height \
                 / parseFloat(getComputedStyle(c).lineHeight || '20') || 1))); }})()"
            ))
            .as_f64()
            .unwrap_or(99.0);
        assert!(lines <= 1.5, "{row} wraps onto {lines} lines");
    }
    let status = page.eval("document.querySelector('.status').textContent");
    let status = status.as_str().unwrap_or("");
    assert!(
        !status.contains("((") && !status.contains("))"),
        "nested brackets: {status}"
    );
    h.assert_no_page_errors();
}

#[test]
fn escampe_placements_stay_whole_in_the_move_list_and_a_forced_pass_is_explained() {
    let Some(h) = harness("escampe-list") else {
        return;
    };
    let server = h.server.as_ref().expect("a running server");
    let runtime = h.runtime.as_ref().expect("a runtime");
    // The brief's placements; Blanc's C2-C5 leaves Noir no liseré-1 piece.
    let code = runtime.block_on(async {
        let (code, white, black) = support::friend_room(server).await;
        for (version, token, mv) in [
            (2, &black, "C6/A6/B5/D5/E6/F5"),
            (3, &white, "B2/A1/B1/C2/E2/F2"),
            (4, &white, "C2-C5"),
        ] {
            let (status, body) = support::play(server, &code, token, version, mv).await;
            assert_eq!(status, 200, "{mv}: {body}");
        }
        code
    });
    let page = h.person();
    page.goto(&format!("{}/r/{code}", h.base()));
    page.wait_for("document.querySelector('.game')?.dataset.moves === '3'");
    let cut = page.eval(
        "[...document.querySelectorAll('.moves .ply')].filter(p => p.textContent.includes('/')) \
         .filter(p => p.scrollWidth > p.clientWidth + 1 \
             || p.getBoundingClientRect().height > 1.6 * parseFloat(getComputedStyle(p).fontSize)).length",
    );
    assert_eq!(cut, 0, "a placement is cut or wrapped in the move list");
    let hint = page.eval("document.querySelector('.hint').textContent");
    let hint = hint.as_str().unwrap_or("");
    assert!(
        hint.contains("no piece that can move") && hint.contains("pass"),
        "{hint}"
    );
    page.screenshot(&screenshot_path("escampe-forced-pass"));
    h.assert_no_page_errors();
}

#[test]
fn a_placement_that_loses_by_force_is_warned_before_it_is_played() {
    let Some(h) = harness("placement-warning") else {
        return;
    };
    let page = h.person();
    // Black places first, against the computer: the API doc's example layout.
    start_game(
        &page,
        &h.base(),
        "escampe",
        None,
        "ai",
        Some("medium"),
        "black",
    );
    page.wait_for(MY_TURN);
    for square in ["C6", "A6", "B5", "D5", "E6", "F5"] {
        page.click(&format!(".board .cell[data-cell='{square}']"));
    }
    page.wait_for("document.querySelectorAll('.board .cell.selected').length === 6");
    page.click(".placement [data-action=place]");
    page.wait_for(
        "document.querySelector('.placement [data-action=place]')?.textContent === 'Place anyway'",
    );
    let hint = page.eval("document.querySelector('.hint').textContent");
    let hint = hint.as_str().unwrap_or("");
    assert!(hint.contains("wins by force"), "{hint}");
    assert_eq!(moves(&page), 0, "nothing played yet");
    page.screenshot(&screenshot_path("placement-warning"));
    // Confirmed, it is played.
    page.click(".placement [data-action=place]");
    wait_moves(&page, 1);
    h.assert_no_page_errors();
}

#[test]
fn an_abalone_room_shows_the_move_limit_chosen_on_the_home_page() {
    let Some(h) = harness("move-limit") else {
        return;
    };
    let page = h.person();
    page.goto(&format!("{}/", h.base()));
    page.wait_for("!!document.querySelector('input[name=game]')");
    // Only Abalone has one, at 100 moves each unless chosen.
    page.click("input[name=game][value='draughts']");
    assert_eq!(
        page.eval("document.querySelector('#move-limit').closest('label').hidden"),
        true
    );
    page.click("input[name=game][value='abalone']");
    assert_eq!(
        page.eval("document.querySelector('#move-limit').value"),
        "100"
    );
    page.click("input[name=opponent][value='local']");
    set_select(&page, "move-limit", "50");
    page.click("form button[type=submit]");
    page.wait_for("document.querySelector('.move-limit:not([hidden])')?.textContent.startsWith('Move limit: 50 moves each')");
    assert_eq!(
        page.eval("document.querySelector('.move-limit').dataset.toGo"),
        "50"
    );
    play_a_move(&page);
    page.wait_for("document.querySelector('.move-limit').dataset.toGo === '49'");
    let said = page.eval("document.querySelector('.move-limit').textContent");
    assert!(
        said.as_str().unwrap_or("").contains("more marbles wins"),
        "{said}"
    );
    page.screenshot(&screenshot_path("move-limit"));
    as_phone(&page, true);
    fits_the_phone(&page, ".move-limit");
    page.screenshot(&screenshot_path("move-limit-phone"));
    h.assert_no_page_errors();
}
