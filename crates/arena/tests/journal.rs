//! A match's journal: a stopped match resumes with the games missing and
//! ends as the uninterrupted match would; a journal of another match, or a
//! damaged one, is refused with the file and the line named.

use plateau_arena::external::ExternalOptions;
use plateau_arena::journal::Journal;
use plateau_arena::{
    EngineSpec, MatchConfig, OpeningSource, TimeControl, run_match, run_match_resuming,
};
use plateau_games::{GameSpec, Limits};
use std::path::Path;

fn config(a: &str, b: &str, games: u32) -> MatchConfig {
    let spec = GameSpec::lookup("draughts", None).unwrap();
    MatchConfig {
        game: spec,
        engines: [
            EngineSpec::parse(a, &spec).unwrap(),
            EngineSpec::parse(b, &spec).unwrap(),
        ],
        games,
        time: TimeControl::PerMove(Limits::depth(2)),
        openings: OpeningSource::Random { plies: 2 },
        max_plies: Some(300),
        move_limit: None,
        seed: 5,
        concurrency: 2,
        sprt: None,
        external: ExternalOptions::default(),
    }
}

/// Plays the match, journalling every game.
fn journalled(config: &MatchConfig, path: &Path) -> plateau_arena::MatchResult {
    let mut journal = Journal::open(path, config).unwrap();
    let played = journal.played().to_vec();
    run_match_resuming(config, &played, |record, _| journal.append(record).unwrap()).unwrap()
}

fn moves(result: &plateau_arena::MatchResult) -> Vec<Vec<String>> {
    result.records.iter().map(|g| g.moves.clone()).collect()
}

#[test]
fn a_stopped_match_resumes_with_the_missing_games_only() {
    let config = config("expert", "seed", 8);
    let whole = run_match(&config, |_, _| {}).unwrap();

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("match.journal");
    let first = journalled(&config, &path);
    assert_eq!(moves(&first), moves(&whole));
    // The stop: games 3, 6 and 8 never made it to the file, and game 8's
    // line was being written when the process died.
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2 + 8, "{text}");
    let mut kept: Vec<&str> = lines[..2].to_vec();
    for line in &lines[2..] {
        let keep = ["\"game\":3,", "\"game\":6,", "\"game\":8,"]
            .iter()
            .all(|cut| !line.contains(cut));
        if keep {
            kept.push(line);
        }
    }
    assert_eq!(kept.len(), 2 + 5);
    let last = lines[2..]
        .iter()
        .find(|l| l.contains("\"game\":8,"))
        .unwrap();
    let stopped = format!("{}\n{}", kept.join("\n"), &last[..last.len() / 2]);
    std::fs::write(&path, &stopped).unwrap();

    let journal = Journal::open(&path, &config).unwrap();
    let mut numbers: Vec<usize> = journal.played().iter().map(|g| g.number + 1).collect();
    numbers.sort();
    assert_eq!(numbers, [1, 2, 4, 5, 7]);
    drop(journal);
    // The half line is gone from the file.
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        format!("{}\n", kept.join("\n"))
    );

    let mut new_games = Vec::new();
    let mut journal = Journal::open(&path, &config).unwrap();
    let played = journal.played().to_vec();
    let resumed = run_match_resuming(&config, &played, |record, status| {
        journal.append(record).unwrap();
        new_games.push((record.number + 1, status.done));
    })
    .unwrap();
    new_games.sort();
    assert_eq!(new_games.iter().map(|g| g.0).collect::<Vec<_>>(), [3, 6, 8]);
    // Counted after the five from the journal.
    assert!(new_games.iter().all(|&(_, done)| done > 5), "{new_games:?}");
    assert_eq!(moves(&resumed), moves(&whole));
    assert_eq!(resumed.status.tally, whole.status.tally);
    assert_eq!(resumed.status.penta, whole.status.penta);
    assert_eq!(resumed.status.done, 8);

    // Once complete, running it again plays nothing.
    let again = journalled(&config, &path);
    assert_eq!(moves(&again), moves(&whole));
    assert_eq!(again.status.penta, whole.status.penta);
    let outcomes = |r: &plateau_arena::MatchResult| {
        r.records
            .iter()
            .map(|g| (g.outcome, g.white, g.opening_len, g.note.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(outcomes(&again), outcomes(&whole));
    assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 10);
}

#[test]
fn another_matchs_journal_is_refused_naming_what_differs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("match.journal");
    journalled(&config("expert", "seed", 2), &path);
    let before = std::fs::read_to_string(&path).unwrap();

    let err = Journal::open(&path, &config("expert", "medium", 2))
        .err()
        .expect("another engine");
    assert!(err.contains("another match"), "{err}");
    assert!(err.contains("engines"), "{err}");
    assert!(err.contains("medium"), "{err}");

    let mut longer = config("expert", "seed", 2);
    longer.games = 4;
    let err = Journal::open(&path, &longer).err().expect("more games");
    assert!(err.contains("games: 2 there, 4 now"), "{err}");

    // The concurrency is not part of the match.
    let mut alone = config("expert", "seed", 2);
    alone.concurrency = 1;
    assert_eq!(Journal::open(&path, &alone).unwrap().played().len(), 2);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), before);
}

#[test]
fn a_match_its_sprt_stopped_stays_stopped() {
    let mut config = config("expert", "random", 400);
    config.sprt = Some(plateau_arena::Sprt::new(0.0, 50.0, 0.05, 0.05).unwrap());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("match.journal");
    let first = journalled(&config, &path);
    let (_, verdict) = first.status.sprt.unwrap();
    assert_eq!(verdict, plateau_arena::SprtStatus::AcceptH1);
    assert!(first.status.done < 100, "{}", first.status.done);

    let mut journal = Journal::open(&path, &config).unwrap();
    assert_eq!(journal.played().len(), first.status.done);
    let played = journal.played().to_vec();
    let mut new_games = 0;
    let again = run_match_resuming(&config, &played, |record, _| {
        journal.append(record).unwrap();
        new_games += 1;
    })
    .unwrap();
    assert_eq!(new_games, 0, "the test had decided");
    assert_eq!(again.status.sprt, first.status.sprt);
    assert_eq!(again.status.tally, first.status.tally);
    assert_eq!(moves(&again), moves(&first));
}

#[test]
fn a_damaged_journal_is_refused_naming_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("match.journal");
    let config = config("expert", "seed", 4);
    journalled(&config, &path);
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();

    let refused = |content: String| {
        std::fs::write(&path, &content).unwrap();
        let err = Journal::open(&path, &config).err().expect("refused");
        // Refused files are left as they were.
        assert_eq!(std::fs::read_to_string(&path).unwrap(), content);
        err
    };
    let with_line_3 = |line: &str| {
        let mut edited = lines.clone();
        edited[2] = line;
        format!("{}\n", edited.join("\n"))
    };
    let err = refused(with_line_3("{not json"));
    assert!(err.contains("line 3") && err.contains("not JSON"), "{err}");
    let illegal = lines[2].replacen("\"moves\":[\"", "\"moves\":[\"50-45\",\"", 1);
    let err = refused(with_line_3(&illegal));
    assert!(err.contains("line 3") && err.contains("50-45"), "{err}");
    let err = refused(with_line_3(&lines[2].replacen(
        "\"game\":",
        "\"game\":9",
        1,
    )));
    assert!(
        err.contains("line 3") && err.contains("game number"),
        "{err}"
    );
    let err = refused(format!("{}\n{}\n", text.trim_end(), lines[3]));
    assert!(err.contains("line 7") && err.contains("twice"), "{err}");
    let swapped = if lines[2].contains("\"white\":0") {
        lines[2].replacen("\"white\":0", "\"white\":1", 1)
    } else {
        lines[2].replacen("\"white\":1", "\"white\":0", 1)
    };
    let err = refused(with_line_3(&swapped));
    assert!(err.contains("line 3") && err.contains("as White"), "{err}");

    // A whole last line without its newline was cut before the newline
    // was written: dropped, and its game played again.
    let cut = text.trim_end().to_string();
    std::fs::write(&path, &cut).unwrap();
    assert_eq!(Journal::open(&path, &config).unwrap().played().len(), 3);
    let kept = lines[..lines.len() - 1].join("\n") + "\n";
    assert_eq!(std::fs::read_to_string(&path).unwrap(), kept);

    let err = refused("results of last week\n".into());
    assert!(err.contains("not a match journal"), "{err}");
    assert!(err.contains(&path.display().to_string()), "{err}");

    // A file cut inside its description (killed as it was being made)
    // is started again.
    std::fs::write(&path, &text[..lines[0].len() + 10]).unwrap();
    assert!(Journal::open(&path, &config).unwrap().played().is_empty());
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        format!("{}\n{}\n", lines[0], lines[1])
    );
}
