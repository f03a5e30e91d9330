//! The browser engine's requests, natively: the same code the WebAssembly
//! module runs, answered through the same `call`.

use plateau_core::Rng;
use plateau_wasm::{call, take_reports};
use serde_json::{Value, json};

fn ask(request: Value) -> Value {
    serde_json::from_str(&call(&request.to_string())).expect("every answer is JSON")
}

fn error(request: Value) -> String {
    let answer = ask(request);
    answer["error"]
        .as_str()
        .unwrap_or_else(|| panic!("expected an error, got {answer}"))
        .to_string()
}

#[test]
fn state_plays_the_moves_and_lists_the_legal_ones() {
    let answer = ask(json!({"op": "state", "game": "draughts", "moves": ["32-28", "19-23"]}));
    assert_eq!(answer["moves"], json!(["32-28", "19-23"]));
    assert_eq!(answer["side_to_move"], "white");
    let legal: Vec<&str> = answer["legal_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    // A capture is compulsory: 28x19 is the only move.
    assert_eq!(legal, ["28x19"]);
    assert!(answer["outcome"].is_null());
    assert!(answer["position"].as_str().unwrap().starts_with("W:"));
}

#[test]
fn a_refused_move_names_the_move_and_why() {
    let message = error(json!({"op": "state", "game": "draughts", "moves": ["32-28", "32-27"]}));
    assert!(message.starts_with("move 2 (32-27)"), "{message}");
    let message = error(json!({"op": "state", "game": "chess"}));
    assert!(message.contains("unknown game"), "{message}");
    let message = error(json!({"op": "state", "game": "virus", "variant": "3x3"}));
    assert!(message.contains("no variant"), "{message}");
    let message = error(json!({"op": "state", "game": "ataxx", "start": "x5o/7"}));
    assert!(message.starts_with("position:"), "{message}");
    let message = error(json!({"op": "fly"}));
    assert!(message.contains("unknown op"), "{message}");
    let message = error(json!({"op": "state", "game": "ataxx", "moves": "a1"}));
    assert!(message.contains("list"), "{message}");
}

#[test]
fn a_position_text_fixes_the_variant_when_none_is_named() {
    let answer = ask(json!({"op": "state", "game": "virus", "start": "x3o/5/5/5/o3x x"}));
    assert_eq!(answer["game"], "virus/5x5");
    let first = answer["legal_moves"][0].clone();
    let replay =
        ask(json!({"op": "positions", "game": "virus", "variant": "5x5", "moves": [first]}));
    assert_eq!(replay["moves"], json!([first]));
    let positions = replay["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 2);
    assert_eq!(positions[0], answer["position"]);
}

#[test]
fn think_reports_each_iteration_and_answers_a_legal_move() {
    take_reports();
    let answer = ask(json!({
        "op": "think", "game": "ataxx", "level": "master", "depth": 4, "movetime_ms": 20000, "id": 7,
    }));
    let best = answer["best"].as_str().expect("a best move").to_string();
    let state = ask(json!({"op": "state", "game": "ataxx"}));
    assert!(
        state["legal_moves"]
            .as_array()
            .unwrap()
            .contains(&json!(best))
    );
    assert_eq!(answer["depth"], 4);
    let reports: Vec<Value> = take_reports()
        .iter()
        .map(|r| serde_json::from_str(r).unwrap())
        .collect();
    let depths: Vec<u64> = reports
        .iter()
        .map(|r| r["info"]["depth"].as_u64().unwrap())
        .collect();
    assert_eq!(depths, [1, 2, 3, 4]);
    assert!(reports.iter().all(|r| r["id"] == 7));
    assert!(reports[3]["info"]["pv"][0].is_string());
    let over = error(
        json!({"op": "think", "game": "virus", "variant": "4x4", "start": "xxxx/xxxx/xxxx/xxxo o"}),
    );
    assert!(over.contains("over"), "{over}");
}

#[test]
fn a_trained_generation_plays_through_its_weights() {
    let games = ask(json!({"op": "games"}));
    let draughts = games["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "draughts")
        .unwrap();
    let features = draughts["features"].as_array().unwrap().len();
    let weights = vec![1.0; features];
    let answer =
        ask(json!({"op": "think", "game": "draughts", "level": "medium", "weights": weights}));
    assert!(answer["best"].is_string(), "{answer}");
    let message = error(json!({"op": "think", "game": "draughts", "weights": [1.0, 2.0]}));
    assert!(message.contains("weights"), "{message}");
}

#[test]
fn bench_counts_the_same_nodes_as_the_native_bench() {
    use plateau_games::{EngineChoice, GameSpec, Level, Limits, Profile, Tweaks};
    let answer = ask(json!({"op": "bench", "game": "ataxx"}));
    let spec = GameSpec::lookup("ataxx", None).unwrap();
    let choice = EngineChoice {
        profile: Profile::Level(Level::Expert),
        tweaks: Tweaks::default(),
    };
    let mut nodes = 0;
    for text in spec.info.bench_positions {
        let game = spec.from_text(text).unwrap();
        let mut engine = spec.engine_with(&choice, 0);
        nodes += engine
            .think(
                game.as_ref(),
                &Limits::depth(spec.info.bench_depth),
                &mut |_| {},
            )
            .unwrap()
            .nodes;
    }
    assert_eq!(answer["nodes"], nodes);
}

#[test]
fn a_small_tuning_run_reports_every_generation() {
    take_reports();
    let answer = ask(json!({
        "op": "tune", "game": "virus", "variant": "5x5", "generations": 2, "population": 4,
        "games": 2, "measure_games": 2, "seed": 3,
    }));
    assert_eq!(answer["generations"], 2, "{answer}");
    let generations: Vec<Value> = take_reports()
        .iter()
        .map(|r| serde_json::from_str::<Value>(r).unwrap())
        .filter_map(|r| r.get("generation").cloned())
        .collect();
    assert_eq!(generations.len(), 2);
    assert_eq!(generations[1]["number"], 2);
    let measure = &generations[0]["measure"];
    let games = measure["wins"].as_u64().unwrap()
        + measure["draws"].as_u64().unwrap()
        + measure["losses"].as_u64().unwrap();
    assert_eq!(games, 2);
    assert!(measure["low"].as_f64().unwrap() <= measure["score"].as_f64().unwrap());
    assert_eq!(answer["champion"], generations[1]["weights"]);
    let message = error(json!({"op": "tune", "game": "virus", "generations": 100000}));
    assert!(message.contains("generations"), "{message}");
}

/// The virus game's endgame solver runs at `expert` and `master`: on the
/// clock the browser build provides (it once used std's, which panics there).
#[test]
fn the_virus_endgame_solver_plays_at_the_top_levels() {
    for level in ["expert", "master"] {
        let answer = ask(
            json!({"op": "think", "game": "virus", "variant": "4x4", "level": level, "movetime_ms": 500}),
        );
        assert!(answer["best"].is_string(), "{level}: {answer}");
    }
}

/// Garbage never panics: random text, and random requests whose fields have
/// random values of every JSON kind, all get a JSON object back.
#[test]
fn random_requests_get_json_answers() {
    let mut rng = Rng::new(11);
    let pieces = [
        "{",
        "}",
        "\"op\"",
        ":",
        "\"state\"",
        "\"think\"",
        ",",
        "\"game\"",
        "\"draughts\"",
        "\"moves\"",
        "[",
        "]",
        "\"32-28\"",
        "null",
        "1e999",
        "-1",
        "\"depth\"",
        "\"\u{0}\"",
        "\"start\"",
        "\"W:W1:B2\"",
        "\"positions\"",
    ];
    for _ in 0..500 {
        let len = rng.below(12) as usize;
        let text: String = (0..len)
            .map(|_| pieces[rng.below(pieces.len() as u64) as usize])
            .collect();
        let answer: Value = serde_json::from_str(&call(&text)).expect("JSON");
        assert!(answer.is_object(), "{text} -> {answer}");
    }
    let ops = [
        "games",
        "state",
        "positions",
        "think",
        "bench",
        "tune",
        "nope",
    ];
    let games = [
        "escampe",
        "draughts",
        "abalone",
        "virus",
        "ataxx",
        "virus/4x4",
        "go",
        "",
    ];
    let keys = [
        "variant",
        "start",
        "moves",
        "level",
        "weights",
        "movetime_ms",
        "depth",
        "seed",
        "table_mb",
        "analysis",
        "generations",
        "population",
        "games",
        "method",
        "steps",
    ];
    let mut answered = 0;
    for _ in 0..400 {
        let mut request = serde_json::Map::new();
        request.insert(
            "op".into(),
            json!(ops[rng.below(ops.len() as u64) as usize]),
        );
        request.insert(
            "game".into(),
            json!(games[rng.below(games.len() as u64) as usize]),
        );
        for key in keys {
            if rng.below(4) != 0 {
                continue;
            }
            let value = match rng.below(8) {
                0 => json!(null),
                1 => json!(rng.below(3)),
                2 => json!(-1),
                3 => json!(1e300),
                4 => json!("x5o/7/7/7/7/7/o5x x"),
                5 => json!(["a1", 3, null]),
                6 => json!([1.5, -2.0]),
                _ => json!({"nested": true}),
            };
            request.insert(key.into(), value);
        }
        // Keep every search short (depth 1); the long runs (bench, tune)
        // have tests of their own: here their bounds are checked first.
        request.insert("depth".into(), json!(1));
        if matches!(request["op"].as_str(), Some("bench" | "tune")) {
            request.insert("generations".into(), json!(100_000));
            request.insert("depth".into(), json!(99));
        }
        let text = Value::Object(request).to_string();
        let answer: Value = serde_json::from_str(&call(&text)).expect("JSON");
        assert!(answer.is_object(), "{text} -> {answer}");
        if answer.get("error").is_none() {
            answered += 1;
        }
    }
    // Both sides were exercised: refusals, and requests that went through.
    assert!(answered > 20, "only {answered} requests were answered");
}
