//! Openings files for DXP matches: the positions each pair of games starts
//! from, as balloted openings are in draughts tournaments.

use plateau_core::Game;
use plateau_draughts::Draughts;

/// The openings of a file's text: one per line, moves from the start in PDN
/// notation (`32-28 19-23 37-32`; move numbers such as `1.` or `1...` are
/// skipped) or a position text (`W:W31-50:B1-20`); blank lines and `#`
/// comments are skipped. Every move is checked by the rules; an error names
/// the line and what is wrong there.
pub fn parse_openings(text: &str) -> Result<Vec<Draughts>, String> {
    let mut openings = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let at = format!("line {}", number + 1);
        if line.contains(':') {
            let position = Draughts::from_text(line).map_err(|e| format!("{at}: {e}"))?;
            if position.outcome().is_some() {
                return Err(format!("{at}: the game is over in this position"));
            }
            openings.push(position);
            continue;
        }
        let mut position = Draughts::new();
        for token in line.split_whitespace() {
            // `1.` and `1...` are move numbers; `1.32-28` is a move after one.
            let digits = token.find('.').map_or(0, |dot| {
                let number = &token[..dot];
                if number.chars().all(|c| c.is_ascii_digit()) {
                    token[dot..].len() - token[dot..].trim_start_matches('.').len() + dot
                } else {
                    0
                }
            });
            let mv_text = &token[digits..];
            if mv_text.is_empty() {
                continue;
            }
            let mv = position.check_move(mv_text).map_err(|e| {
                let e = e.to_string();
                if e.contains(mv_text) {
                    format!("{at}: {e}")
                } else {
                    format!("{at}: {mv_text}: {e}")
                }
            })?;
            position.play(mv);
            if position.outcome().is_some() {
                return Err(format!("{at}: the game is over after {mv_text}"));
            }
        }
        openings.push(position);
    }
    Ok(openings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_with_or_without_numbers_and_positions_are_read() {
        let text = "# two ballots and a position\n\
                    32-28 17-21 37-32\n\
                    1. 31-26 17-21 2. 26x17 # a capture\n\
                    \n\
                    W:W31-50:B1-20\n";
        let openings = parse_openings(text).unwrap();
        assert_eq!(openings.len(), 3);
        assert_eq!(openings[0].side_to_move(), plateau_core::Side::Black);
        let after = |moves: &[&str]| {
            let mut position = Draughts::new();
            for text in moves {
                let mv = position.check_move(text).unwrap();
                position.play(mv);
            }
            position.to_text()
        };
        assert_eq!(openings[0].to_text(), after(&["32-28", "17-21", "37-32"]));
        assert_eq!(openings[1].to_text(), after(&["31-26", "17-21", "26x17"]));
        assert_eq!(openings[2].to_text(), Draughts::new().to_text());
        // The same opening written with numbers glued on.
        let glued = parse_openings("1.32-28 17-21 2.37-32").unwrap();
        assert_eq!(glued[0].to_text(), openings[0].to_text());
    }

    #[test]
    fn a_bad_line_is_named_with_what_is_wrong() {
        for (text, words) in [
            ("32-28\n32-28 19-23 28-22", "line 2: 28-22"),
            ("32-28 32-28", "line 1: 32-28"),
            ("W:W99:B1", "line 1"),
            ("33-29 zz", "line 1: zz"),
        ] {
            let err = parse_openings(text).expect_err(text);
            assert!(err.contains(words), "{text}: {err}");
        }
        assert!(parse_openings("# nothing\n\n").unwrap().is_empty());
    }
}
