//! Search scores: evaluations near zero, wins and losses far away, counted in
//! plies so that a faster win scores higher.

use crate::worker::MAX_PLY;
use plateau_core::{EVAL_LIMIT, Outcome, Proven, Side};

/// The score of a win at the root; a win `n` plies away scores `WIN - n`.
pub const WIN: i32 = 1_000_000;
/// Above every real score: the initial window.
pub const INFINITY: i32 = WIN + 1;
/// Scores beyond this are wins or losses found by search.
pub const WIN_THRESHOLD: i32 = WIN - 10_000;

const _: () = assert!(EVAL_LIMIT < WIN_THRESHOLD);

/// The score of a finished game for the side to move, `ply` plies from the root.
#[inline]
pub fn terminal(outcome: Outcome, side_to_move: Side, ply: usize) -> i32 {
    match outcome.winner {
        Some(winner) if winner == side_to_move => WIN - ply as i32,
        Some(_) => -(WIN - ply as i32),
        None => 0,
    }
}

/// A win proven by a table (endgame databases), before the tiebreaks: beyond
/// every evaluation, below every win found by search.
pub const TABLE_WIN: i32 = 500_000;

const _: () = assert!(TABLE_WIN - 2 * EVAL_LIMIT > EVAL_LIMIT);
const _: () = assert!(TABLE_WIN + 2 * EVAL_LIMIT < WIN_THRESHOLD);

/// The score of a position a table proves, `ply` plies from the root, whose
/// static evaluation is `eval`. A proven draw is 0. A proven win keeps the
/// evaluation as a tiebreak and loses a point per ply, so that among won
/// positions the search heads for the better and nearer ones: captures and
/// promotions, the progress a table without distances cannot show.
#[inline]
pub fn proven(value: Proven, ply: usize, eval: i32) -> i32 {
    let eval = eval.clamp(-EVAL_LIMIT, EVAL_LIMIT);
    match value {
        Proven::Win => TABLE_WIN - ply as i32 + eval,
        Proven::Loss => -TABLE_WIN + ply as i32 + eval,
        Proven::Draw => 0,
    }
}

/// The score of a table's win or loss reached without progress: a position
/// with as many pieces as the root, which the table also covers (see
/// `Evaluator::proven_limit`). A win lies below every win of [`proven`]
/// (so a line that captures into a win scores above it) and far above
/// every evaluation and draw; the evaluation, halved, stays its tiebreak.
/// A loss mirrors it: better than being captured into a loss, worse than a
/// draw.
#[inline]
pub fn proven_without_progress(value: Proven, ply: usize, eval: i32) -> i32 {
    let eval = eval.clamp(-EVAL_LIMIT, EVAL_LIMIT) / 2;
    // A ply margin on each side: even at the extreme evaluations, every
    // captured win (at any ply) lies above, and the table band's floor
    // below.
    let base = TABLE_WIN - EVAL_LIMIT * 3 / 2 - MAX_PLY as i32;
    match value {
        Proven::Win => base - ply as i32 + eval,
        Proven::Loss => -base + ply as i32 + eval,
        Proven::Draw => 0,
    }
}

/// Scores beyond this are wins or losses, proven by a table or by search:
/// no evaluation reaches them.
pub const PROVEN_THRESHOLD: i32 = TABLE_WIN - 2 * EVAL_LIMIT - 2 * MAX_PLY as i32;

/// Whether a score is a win or a loss, proven by a table or by search. The
/// pruning rules, which reason in evaluation margins, stay away from them;
/// without tables this is [`is_decisive`].
#[inline]
pub fn is_proven(score: i32) -> bool {
    score.abs() >= PROVEN_THRESHOLD
}

/// Whether a score is a table's win or loss (not one the search proved to
/// the end): lines whose leaves the table scores, which a static evaluation
/// says nothing about.
#[inline]
pub fn is_table(score: i32) -> bool {
    is_proven(score) && !is_decisive(score)
}

/// Whether a score is a forced win or loss.
#[inline]
pub fn is_decisive(score: i32) -> bool {
    score.abs() >= WIN_THRESHOLD
}

/// Win scores are stored in the table relative to the node, not the root.
#[inline]
pub fn to_table(score: i32, ply: usize) -> i32 {
    if score >= WIN_THRESHOLD {
        score + ply as i32
    } else if score <= -WIN_THRESHOLD {
        score - ply as i32
    } else {
        score
    }
}

#[inline]
pub fn from_table(score: i32, ply: usize) -> i32 {
    if score >= WIN_THRESHOLD {
        score - ply as i32
    } else if score <= -WIN_THRESHOLD {
        score + ply as i32
    } else {
        score
    }
}

/// Plies to the end of a forced win or loss (positive: the side to move wins).
pub fn plies_to_end(score: i32) -> Option<i32> {
    if score >= WIN_THRESHOLD {
        Some(WIN - score)
    } else if score <= -WIN_THRESHOLD {
        Some(-(WIN + score))
    } else {
        None
    }
}

/// `+35`, `-120`, `win in 3` (moves of the side to move), `loss in 2`.
pub fn describe(score: i32) -> String {
    match plies_to_end(score) {
        Some(plies) if plies > 0 => format!("win in {}", (plies + 1) / 2),
        Some(plies) => format!("loss in {}", (-plies + 1) / 2),
        None => format!("{score:+}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use plateau_core::EndReason;

    #[test]
    fn table_scores_round_trip() {
        for score in [0, 57, -300, WIN - 5, -(WIN - 9)] {
            for ply in [0, 3, 40] {
                assert_eq!(from_table(to_table(score, ply), ply), score);
            }
        }
    }

    #[test]
    fn table_wins_rank_captures_over_no_progress_over_draws() {
        let evals = [-EVAL_LIMIT, -3_000, 0, 250, EVAL_LIMIT];
        let plies = [0, 4, 30, MAX_PLY - 1];
        for (eval, other) in evals.into_iter().flat_map(|e| evals.map(|o| (e, o))) {
            for (ply, other_ply) in plies.into_iter().flat_map(|p| plies.map(|o| (p, o))) {
                let captured = proven(Proven::Win, ply, eval);
                let same_size = proven_without_progress(Proven::Win, other_ply, other);
                assert!(captured > same_size, "{eval}@{ply} {other}@{other_ply}");
                assert!(is_table(same_size) && is_table(captured));
                let lost = proven_without_progress(Proven::Loss, other_ply, other);
                assert!(
                    lost > proven(Proven::Loss, ply, eval),
                    "{eval}@{ply} {other}@{other_ply}"
                );
                assert!(is_table(lost) && lost < -EVAL_LIMIT);
            }
        }
        assert!(
            proven_without_progress(Proven::Win, 4, 500)
                > proven_without_progress(Proven::Win, 4, 100)
        );
        assert_eq!(proven_without_progress(Proven::Draw, 4, 500), 0);
    }

    #[test]
    fn faster_wins_score_higher() {
        let win = Outcome::win(Side::White, EndReason::BoardFull);
        assert!(terminal(win, Side::White, 1) > terminal(win, Side::White, 3));
        assert!(terminal(win, Side::Black, 3) > terminal(win, Side::Black, 1));
        assert_eq!(
            terminal(Outcome::draw(EndReason::Repetition), Side::White, 4),
            0
        );
    }

    #[test]
    fn descriptions() {
        assert_eq!(describe(WIN - 1), "win in 1");
        assert_eq!(describe(WIN - 3), "win in 2");
        assert_eq!(describe(-(WIN - 2)), "loss in 1");
        assert_eq!(describe(42), "+42");
        assert_eq!(plies_to_end(WIN - 5), Some(5));
        assert_eq!(plies_to_end(-(WIN - 4)), Some(-4));
    }
}
