//! Move-path enumeration: the standard check of a move generator against
//! reference counts.

use crate::{Game, MoveList};

/// Counts the leaves of the legal-move tree `depth` plies deep. A finished game is
/// a leaf only at depth 0; the last ply is counted in bulk, without playing it.
pub fn perft<G: Game>(game: &mut G, depth: u32) -> u64 {
    let mut lists: Vec<MoveList<G::Move>> = (0..=depth).map(|_| MoveList::new()).collect();
    perft_inner(game, depth, &mut lists)
}

fn perft_inner<G: Game>(game: &mut G, depth: u32, lists: &mut [MoveList<G::Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (list, rest) = lists.split_first_mut().expect("one list per ply");
    if depth == 1 {
        return game.count_legal_moves(list);
    }
    game.legal_moves(list);
    let mut total = 0;
    for &mv in list.iter() {
        game.play(mv);
        total += perft_inner(game, depth - 1, rest);
        game.undo(mv);
    }
    total
}

/// The perft count below each legal move, in generation order.
pub fn divide<G: Game>(game: &mut G, depth: u32) -> Vec<(G::Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut list = MoveList::new();
    game.legal_moves(&mut list);
    list.iter()
        .map(|&mv| {
            game.play(mv);
            let count = perft(game, depth - 1);
            game.undo(mv);
            (mv, count)
        })
        .collect()
}

/// One reference count read from a perft data file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftVector {
    /// Settings in force (`variant ataxx`, `layout standard`), in file order.
    pub settings: Vec<(String, String)>,
    /// The position text from the last `pos` line, if any.
    pub position: Option<String>,
    pub depth: u32,
    pub count: u64,
    /// Line number in the file, for failure messages.
    pub line: usize,
}

impl PerftVector {
    /// The value of a setting, such as `variant`.
    pub fn setting(&self, key: &str) -> Option<&str> {
        self.settings
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads the perft data format shared by every game:
///
/// ```text
/// # comment
/// variant ataxx            (any other "key value" line is a setting)
/// pos x5o/7/7/7/7/7/o5x x 0 1
/// perft 1 16
/// ```
///
/// A setting line clears the current position (a new section starts).
pub fn parse_perft_file(text: &str) -> Result<Vec<PerftVector>, String> {
    let mut settings: Vec<(String, String)> = Vec::new();
    let mut position = None;
    let mut vectors = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match key {
            "pos" => position = Some(rest.to_string()),
            "perft" => {
                let mut fields = rest.split_whitespace();
                let parse = |f: Option<&str>| f.and_then(|v| v.parse::<u64>().ok());
                let (Some(depth), Some(count)) = (parse(fields.next()), parse(fields.next()))
                else {
                    return Err(format!(
                        "line {}: expected \"perft <depth> <count>\"",
                        index + 1
                    ));
                };
                vectors.push(PerftVector {
                    settings: settings.clone(),
                    position: position.clone(),
                    depth: depth as u32,
                    count,
                    line: index + 1,
                });
            }
            _ => {
                settings.retain(|(k, _)| k != key);
                settings.push((key.to_string(), rest.to_string()));
                position = None;
            }
        }
    }
    Ok(vectors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_settings_positions_and_counts() {
        let text = "# c\nvariant ataxx\npos a b c\nperft 1 16\nperft 2 256\n\nvariant virus\npos z\nperft 3 9\nlayout x\nperft 1 2\n";
        let vectors = parse_perft_file(text).unwrap();
        assert_eq!(vectors.len(), 4);
        assert_eq!(vectors[0].setting("variant"), Some("ataxx"));
        assert_eq!(vectors[0].position.as_deref(), Some("a b c"));
        assert_eq!((vectors[1].depth, vectors[1].count), (2, 256));
        assert_eq!(vectors[2].setting("variant"), Some("virus"));
        assert_eq!(vectors[3].position, None);
        assert_eq!(vectors[3].setting("layout"), Some("x"));
        assert!(parse_perft_file("perft x 1").is_err());
    }
}
