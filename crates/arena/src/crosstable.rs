//! A round robin's results: standings with Sonneborn-Berger tie-breaks and an
//! Elo estimate per player, and the crosstable of who scored what against whom.
//!
//! Tournament arbiters (the Escampe one, and any later) feed it one game at a
//! time, so the tables can be printed at any point, not only at the end.

use crate::stats::{Tally, elo_text};
use std::fmt::Write as _;

/// Results between `K` named players; player numbers are indices into `names`.
#[derive(Clone, Debug)]
pub struct Crosstable {
    names: Vec<String>,
    /// `cells[a][b]`: `a`'s games against `b`, from `a`'s point of view.
    cells: Vec<Vec<Tally>>,
}

/// One player's line of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// The player's number (its index in the names given to [`Crosstable::new`]).
    pub player: usize,
    pub name: String,
    /// All the player's games, from its point of view.
    pub tally: Tally,
    /// Sonneborn-Berger: the opponents' points, weighted by the score made
    /// against each — the usual tie-break of a round robin.
    pub sonneborn_berger: f64,
    /// Elo against the average of the field, and the half-width of its 95%
    /// interval (trinomial model).
    pub elo: (f64, f64),
}

impl Crosstable {
    pub fn new(names: Vec<String>) -> Crosstable {
        let players = names.len();
        Crosstable {
            names,
            cells: vec![vec![Tally::default(); players]; players],
        }
    }

    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Records one game: `first_score` is 1, 0.5 or 0 for `first`. Games of a
    /// player against itself, or of unknown players, are ignored.
    pub fn add(&mut self, first: usize, second: usize, first_score: f64) {
        if first == second || first >= self.names.len() || second >= self.names.len() {
            return;
        }
        self.cells[first][second].add(first_score);
        self.cells[second][first].add(1.0 - first_score);
    }

    /// `a`'s games against `b`, from `a`'s point of view.
    pub fn between(&self, a: usize, b: usize) -> Tally {
        self.cells[a][b]
    }

    /// Every game of `player`.
    pub fn tally(&self, player: usize) -> Tally {
        self.cells[player]
            .iter()
            .fold(Tally::default(), |sum, t| Tally {
                wins: sum.wins + t.wins,
                draws: sum.draws + t.draws,
                losses: sum.losses + t.losses,
            })
    }

    /// Players by points, then Sonneborn-Berger, then wins, then number.
    pub fn standings(&self) -> Vec<Standing> {
        let points: Vec<f64> = (0..self.names.len())
            .map(|p| self.tally(p).points())
            .collect();
        let mut rows: Vec<Standing> = (0..self.names.len())
            .map(|player| {
                let tally = self.tally(player);
                let sonneborn_berger = self.cells[player]
                    .iter()
                    .zip(&points)
                    .map(|(against, their_points)| against.points() * their_points)
                    .sum();
                Standing {
                    player,
                    name: self.names[player].clone(),
                    tally,
                    sonneborn_berger,
                    elo: tally.elo(),
                }
            })
            .collect();
        rows.sort_by(|a, b| {
            b.tally
                .points()
                .total_cmp(&a.tally.points())
                .then(b.sonneborn_berger.total_cmp(&a.sonneborn_berger))
                .then(b.tally.wins.cmp(&a.tally.wins))
                .then(a.player.cmp(&b.player))
        });
        rows
    }

    /// The standings and the crosstable as text, for a terminal or a file.
    pub fn render(&self) -> String {
        let width = self
            .names
            .iter()
            .map(|n| n.chars().count())
            .max()
            .unwrap_or(0)
            .clamp(6, 24);
        let name = |n: &str| n.chars().take(width).collect::<String>();
        let mut text = String::new();
        let _ = writeln!(
            text,
            "{:>3}  {:<width$} {:>6} {:>4} {:>4} {:>4} {:>7} {:>7}  Elo (95%)",
            "#", "player", "games", "won", "drawn", "lost", "points", "SB"
        );
        for (rank, row) in self.standings().iter().enumerate() {
            let _ = writeln!(
                text,
                "{:>3}  {:<width$} {:>6} {:>4} {:>4} {:>4} {:>7.1} {:>7.2}  {}",
                rank + 1,
                name(&row.name),
                row.tally.games(),
                row.tally.wins,
                row.tally.draws,
                row.tally.losses,
                row.tally.points(),
                row.sonneborn_berger,
                elo_text(row.elo.0, row.elo.1),
            );
        }
        let _ = writeln!(text);
        let _ = write!(text, "{:>3}  {:<width$}", "", "crosstable");
        for column in 0..self.names.len() {
            let _ = write!(text, " {:>7}", column + 1);
        }
        let _ = writeln!(text);
        for (row, cells) in self.cells.iter().enumerate() {
            let _ = write!(text, "{:>3}  {:<width$}", row + 1, name(&self.names[row]));
            for (column, cell) in cells.iter().enumerate() {
                let shown = if row == column {
                    "-".to_string()
                } else if cell.games() == 0 {
                    ".".to_string()
                } else {
                    format!("{}/{}", half_points(cell.points()), cell.games())
                };
                let _ = write!(text, " {shown:>7}");
            }
            let _ = writeln!(text);
        }
        text
    }
}

/// `1`, `1½`, `½`: points the way crosstables print them.
fn half_points(points: f64) -> String {
    let whole = points.floor();
    let half = points - whole >= 0.25;
    match (whole as u64, half) {
        (0, true) => "½".into(),
        (n, true) => format!("{n}½"),
        (n, false) => n.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(n: usize) -> Vec<String> {
        (1..=n).map(|i| format!("p{i}")).collect()
    }

    #[test]
    fn standings_rank_by_points_then_sonneborn_berger() {
        let mut table = Crosstable::new(names(4));
        // p1 beats p2 and p3, loses to p4; p4 loses to p2 and p3.
        table.add(0, 1, 1.0);
        table.add(0, 2, 1.0);
        table.add(3, 0, 1.0);
        table.add(1, 3, 1.0);
        table.add(2, 3, 1.0);
        table.add(1, 2, 0.5);
        let rows = table.standings();
        assert_eq!(rows[0].name, "p1");
        assert_eq!(rows[0].tally.points(), 2.0);
        // p2 and p3 both have 1.5 points and the same opponents' scores.
        assert_eq!(rows[1].tally.points(), 1.5);
        assert_eq!(rows[2].tally.points(), 1.5);
        assert_eq!(rows[3].name, "p4");
        // p1's SB: beat p2 (1.5) and p3 (1.5), lost to p4.
        assert_eq!(rows[0].sonneborn_berger, 3.0);
        // p4's SB: beat p1 (2 points).
        assert_eq!(rows[3].sonneborn_berger, 2.0);
        let games: u32 = rows.iter().map(|r| r.tally.games()).sum();
        assert_eq!(games, 12, "every game counts for both players");
    }

    #[test]
    fn sonneborn_berger_breaks_a_tie() {
        let mut table = Crosstable::new(names(4));
        // p1, p2 and p3 each win once; p1's win is over the stronger player.
        table.add(0, 1, 1.0);
        table.add(2, 3, 1.0);
        table.add(1, 3, 1.0);
        let rows = table.standings();
        let order: Vec<&str> = rows.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(order, ["p1", "p2", "p3", "p4"]);
        assert_eq!(rows[0].sonneborn_berger, 1.0, "p1 beat p2, who has 1 point");
        assert_eq!(rows[1].sonneborn_berger, 0.0);
        assert_eq!(rows[2].sonneborn_berger, 0.0);
    }

    #[test]
    fn the_crosstable_shows_each_pairs_score() {
        let mut table = Crosstable::new(vec!["alpha".into(), "beta".into(), "gamma".into()]);
        table.add(0, 1, 1.0);
        table.add(1, 0, 0.5);
        let text = table.render();
        let alpha = text
            .lines()
            .find(|l| l.contains("alpha") && l.contains('-'));
        let alpha = alpha.expect("a crosstable row for alpha");
        assert!(alpha.contains("1½/2"), "{text}");
        assert!(alpha.contains(" ."), "no games against gamma yet: {text}");
        let beta = text
            .lines()
            .rfind(|l| l.contains("beta"))
            .expect("a crosstable row for beta");
        assert!(beta.contains("½/2"), "{text}");
        assert!(text.contains("Elo (95%)"), "{text}");
    }

    #[test]
    fn the_elo_of_an_even_player_is_zero() {
        let mut table = Crosstable::new(names(2));
        table.add(0, 1, 1.0);
        table.add(1, 0, 1.0);
        let rows = table.standings();
        assert_eq!(rows[0].elo.0, 0.0);
        assert!(rows[0].elo.1 > 0.0);
    }
}
