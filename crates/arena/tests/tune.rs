//! A tiny tuning run end to end: it finishes, stores every generation and a
//! picture, and does exactly the same again with the same seed.

use plateau_arena::tune::{
    CHAMPION_FILE, CURVE_FILE, Fitness, PLOT_FILE, SETTINGS_FILE, TuneConfig, TuneEvent,
    VERIFY_FILE, generation_file_name, run_tune,
};
use plateau_arena::weights::read_weights;
use plateau_arena::{EngineSpec, Sprt};
use plateau_games::GameSpec;
use std::path::Path;

fn tiny(spec: GameSpec, out: &Path, fitness: Fitness) -> TuneConfig {
    let mut config = TuneConfig::seed_defaults(spec, out.to_path_buf());
    config.generations = 2;
    config.population = 4;
    config.elite = 1;
    config.parents = 2;
    config.games = 2;
    config.depth = 1;
    config.opening_pool = 4;
    config.measure_games = 2;
    config.verify_games = 4;
    config.verify_plies = 2;
    config.max_plies = Some(200);
    config.concurrency = 2;
    config.seed = 11;
    config.fitness = fitness;
    config
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn a_tiny_run_is_stored_plotted_and_repeatable() {
    let spec = GameSpec::lookup("draughts", None).unwrap();
    let root = tempfile::tempdir().unwrap();
    let (first, second) = (root.path().join("a"), root.path().join("b"));
    let mut generations_seen = 0;
    let mut games_seen = 0;
    let result = run_tune(&tiny(spec, &first, Fitness::Random), |event| match event {
        TuneEvent::Generation(_) => generations_seen += 1,
        TuneEvent::Game { .. } => games_seen += 1,
        _ => {}
    })
    .unwrap();
    assert_eq!(generations_seen, 2);
    // Two generations of 4 × 2 / 2 tournament games and 2 measure games.
    assert_eq!(games_seen, 2 * (4 + 2));
    assert_eq!(result.generations.len(), 2);
    let verification = result.verification.unwrap();
    assert_eq!(verification.tally.games(), 4);
    assert_eq!(verification.penta.pairs(), 2);

    for name in [
        SETTINGS_FILE,
        CURVE_FILE,
        PLOT_FILE,
        VERIFY_FILE,
        CHAMPION_FILE,
        &generation_file_name(0),
        &generation_file_name(1),
        &generation_file_name(2),
        "population-001.tsv",
        "population-002.tsv",
    ] {
        assert!(first.join(name).exists(), "{name} is missing");
    }
    let svg = read(&first, PLOT_FILE);
    assert!(
        svg.starts_with("<svg") && svg.contains("final check"),
        "{svg}"
    );
    assert_eq!(read(&first, CURVE_FILE).lines().count(), 3);
    let champion = read_weights(&spec, &first.join(CHAMPION_FILE)).unwrap();
    assert_eq!(champion, result.champion);
    assert_eq!(champion[0], 100.0, "the anchor keeps its value");

    // Every stored generation is an engine.
    for reference in ["1", "2", "last"] {
        let text = format!("gen={}:{reference}", first.display());
        let engine = EngineSpec::parse(&text, &spec).unwrap();
        assert!(matches!(engine, EngineSpec::Weighted { .. }));
    }

    // Same seed, same run, even on another number of threads.
    let mut again = tiny(spec, &second, Fitness::Random);
    again.concurrency = 1;
    run_tune(&again, |_| {}).unwrap();
    for name in [
        CURVE_FILE,
        VERIFY_FILE,
        CHAMPION_FILE,
        PLOT_FILE,
        "population-002.tsv",
    ] {
        assert_eq!(read(&first, name), read(&second, name), "{name} differs");
    }

    // A directory that holds a run is not overwritten.
    let err = run_tune(&tiny(spec, &first, Fitness::Random), |_| {}).unwrap_err();
    assert!(err.to_string().contains("already holds"), "{err}");
}

#[test]
fn the_panel_fitness_and_an_sprt_check_run_too() {
    let spec = GameSpec::lookup("virus", Some("5x5")).unwrap();
    let root = tempfile::tempdir().unwrap();
    let mut config = tiny(spec, &root.path().join("run"), Fitness::Panel);
    config.verify_sprt = Some(Sprt::new(-50.0, 50.0, 0.1, 0.1).unwrap());
    let result = run_tune(&config, |_| {}).unwrap();
    // Each member plays 2 games against the panel, plus the 2 measure games.
    assert_eq!(result.generations.len(), 2);
    for report in &result.generations {
        assert!(report.ranked.iter().all(|m| m.games == 2));
    }
    assert!(read(&root.path().join("run"), VERIFY_FILE).contains("sprt"));
}

#[test]
fn spsa_runs_the_same_whatever_the_threads() {
    let spec = GameSpec::lookup("draughts", None).unwrap();
    let root = tempfile::tempdir().unwrap();
    let run = |name: &str, threads: usize| {
        let mut config = tiny(spec, &root.path().join(name), Fitness::Random);
        config.method = plateau_arena::tune::Method::Spsa;
        config.spsa.steps_per_generation = 4;
        config.spsa.batch = 3;
        config.tuned = vec![true; config.start.len()];
        config.concurrency = threads;
        run_tune(&config, |_| {}).unwrap()
    };
    let one = run("one", 1);
    let two = run("two", 2);
    assert_eq!(one.champion, two.champion);
    assert_ne!(
        one.champion, spec.info.tuning.seed_weights,
        "the weights moved"
    );
    assert_eq!(one.champion[0], 100.0, "SPSA leaves the anchor alone");
    for report in &one.generations {
        assert_eq!(report.ranked.len(), 1);
        assert_eq!(report.ranked[0].games, 8);
    }
    assert_eq!(
        read(&root.path().join("one"), CURVE_FILE),
        read(&root.path().join("two"), CURVE_FILE)
    );
}
