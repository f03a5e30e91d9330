//! Packed positions: what version 2 of the training-data file stores instead
//! of the position text, for the games that have a packer here (the Ataxx
//! family: `ataxx`, `virus`, `virus/4x4` to `virus/9x9`).
//!
//! A packed position is the board at two bits a cell, then one byte for the
//! side to move and the half-move clock:
//!
//! ```text
//! board: n*n cells, from the top rank down and from file a right, as in the
//!        position text; cell i in bits 2*(i%4) of byte i/4; codes 0 empty,
//!        1 x (Black), 2 o (White), 3 blocked (full Ataxx only); the bits
//!        after the last cell are 0
//! side:  bits 0-6 the half-move clock (0 to 100; always 0 in the virus
//!        game), bit 7 the side to move (0 x, 1 o)
//! ```
//!
//! That is 14 bytes for a 7x7 board against 30 to 45 for its text. Packing
//! reads the text with the game's own parser, and unpacking hands the text it
//! writes back to that parser, so that a packed position always reads as one
//! of its game; what the text has beyond the board, side and clock (full
//! Ataxx's move number) is not stored: it is derived from the sample's ply.

use plateau_ataxx::{Ataxx, Cell, DEFAULT_SIZE, HALFMOVE_LIMIT, Square, VirusWide};
use plateau_core::{Game, Side};

/// The games of the family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Family {
    /// Full Ataxx: 7x7, blocked cells, the half-move clock.
    Ataxx,
    /// The virus game: no blocked cells, no clock.
    Virus,
}

/// How positions of one game (with its variant) are packed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Packer {
    family: Family,
    /// The board side.
    n: usize,
}

/// Why bytes are not a packed position: the byte (from the start of the
/// packed position) and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackError {
    pub byte: usize,
    pub what: String,
}

const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
const BLOCKED: u8 = 3;

/// The side byte's bit for White (`o`) to move.
const WHITE_TO_MOVE: u8 = 0x80;

impl Packer {
    /// The packer of a data file's game (its registry name with the variant,
    /// as the header holds it), if it has one.
    pub fn for_game(game: &str) -> Option<Packer> {
        if game == "ataxx" {
            return Some(Packer {
                family: Family::Ataxx,
                n: 7,
            });
        }
        if game == "virus" {
            return Some(Packer {
                family: Family::Virus,
                n: DEFAULT_SIZE,
            });
        }
        (4..=9)
            .find(|n| game == format!("virus/{n}x{n}"))
            .map(|n| Packer {
                family: Family::Virus,
                n,
            })
    }

    /// Bytes of the board.
    fn board_bytes(&self) -> usize {
        (self.n * self.n).div_ceil(4)
    }

    /// Bytes of a packed position: the board and the side byte.
    pub fn position_bytes(&self) -> usize {
        self.board_bytes() + 1
    }

    /// "not {} position".
    fn a_position(&self) -> &'static str {
        match self.family {
            Family::Ataxx => "an Ataxx",
            Family::Virus => "a virus",
        }
    }

    /// The cell at packed index `i` (0 the top-left).
    fn square(&self, i: usize) -> Square {
        Square::at(i % self.n, self.n - 1 - i / self.n)
    }

    /// Appends the packed form of a position text to `out`; the error says
    /// why the text is not a position of this game.
    pub fn pack(&self, text: &str, out: &mut Vec<u8>) -> Result<(), String> {
        let not_one = |err: &dyn std::fmt::Display| {
            format!("{text:?} is not {} position: {err}", self.a_position())
        };
        let (cells, side, halfmove): (Vec<Cell>, Side, u16) = match self.family {
            Family::Ataxx => {
                let game = Ataxx::from_text(text).map_err(|err| not_one(&err))?;
                let cells = (0..self.n * self.n)
                    .map(|i| game.cell(self.square(i)))
                    .collect();
                (cells, game.side_to_move(), game.halfmove_clock())
            }
            Family::Virus => {
                let game = VirusWide::from_text(text).map_err(|err| not_one(&err))?;
                if game.size() != self.n {
                    return Err(not_one(&format!(
                        "its board is {0}x{0}, the file's {1}x{1}",
                        game.size(),
                        self.n
                    )));
                }
                let cells = (0..self.n * self.n)
                    .map(|i| game.cell(self.square(i)))
                    .collect();
                (cells, game.side_to_move(), 0)
            }
        };
        let start = out.len();
        out.resize(start + self.board_bytes(), 0);
        for (i, cell) in cells.iter().enumerate() {
            let code = match cell {
                Cell::Empty => EMPTY,
                Cell::Stone(Side::Black) => BLACK,
                Cell::Stone(Side::White) => WHITE,
                Cell::Blocked => BLOCKED,
            };
            out[start + i / 4] |= code << (2 * (i % 4));
        }
        // The parser keeps the clock within 0..=100: it fits seven bits.
        let mut side_byte = halfmove.min(HALFMOVE_LIMIT) as u8;
        if side == Side::White {
            side_byte |= WHITE_TO_MOVE;
        }
        out.push(side_byte);
        Ok(())
    }

    /// The position text of a packed position (`bytes` holds exactly
    /// [`Packer::position_bytes`]); full Ataxx's move number is derived from
    /// `ply`, the plies since the standard start: `ply / 2 + 1`.
    pub fn unpack(&self, bytes: &[u8], ply: u16) -> Result<String, PackError> {
        let bad = |byte: usize, what: String| PackError { byte, what };
        if bytes.len() != self.position_bytes() {
            return Err(bad(
                0,
                format!(
                    "a packed position of {} bytes, not {}",
                    bytes.len(),
                    self.position_bytes()
                ),
            ));
        }
        let cells = self.n * self.n;
        let mut board = String::with_capacity(cells + self.n);
        for row in 0..self.n {
            if row > 0 {
                board.push('/');
            }
            let mut run = 0u8;
            for file in 0..self.n {
                let i = row * self.n + file;
                let letter = match (bytes[i / 4] >> (2 * (i % 4))) & 3 {
                    EMPTY => {
                        run += 1;
                        continue;
                    }
                    BLACK => 'x',
                    WHITE => 'o',
                    _ if self.family == Family::Virus => {
                        return Err(bad(
                            i / 4,
                            format!(
                                "cell {} is blocked (code 3), and the virus game has no \
                                 blocked cells",
                                self.square(i)
                            ),
                        ));
                    }
                    _ => '-',
                };
                if run > 0 {
                    board.push(char::from(b'0' + run));
                    run = 0;
                }
                board.push(letter);
            }
            if run > 0 {
                board.push(char::from(b'0' + run));
            }
        }
        let last = self.board_bytes() - 1;
        let used = cells - 4 * last;
        if used < 4 && bytes[last] >> (2 * used) != 0 {
            return Err(bad(
                last,
                format!(
                    "byte {:#04x} has bits set after the board's last cell: a stone off the \
                     {}x{} board",
                    bytes[last], self.n, self.n
                ),
            ));
        }
        let side_byte = bytes[last + 1];
        let side = if side_byte & WHITE_TO_MOVE == 0 {
            'x'
        } else {
            'o'
        };
        let halfmove = side_byte & !WHITE_TO_MOVE;
        let text = match self.family {
            Family::Ataxx => {
                if u16::from(halfmove) > HALFMOVE_LIMIT {
                    return Err(bad(
                        last + 1,
                        format!(
                            "side byte {side_byte:#04x}: a half-move clock of {halfmove}, past \
                             the {HALFMOVE_LIMIT} that draws the game"
                        ),
                    ));
                }
                format!("{board} {side} {halfmove} {}", ply / 2 + 1)
            }
            Family::Virus => {
                if halfmove != 0 {
                    return Err(bad(
                        last + 1,
                        format!(
                            "side byte {side_byte:#04x}: a half-move clock of {halfmove}, and \
                             the virus game has none"
                        ),
                    ));
                }
                format!("{board} {side}")
            }
        };
        // The rules have the last word: no stone at all, or (virus) none for
        // the side that played last, is not a position.
        let checked = match self.family {
            Family::Ataxx => Ataxx::from_text(&text).map(|game| game.to_text()),
            Family::Virus => VirusWide::from_text(&text).map(|game| game.to_text()),
        };
        checked.map_err(|err| {
            bad(
                0,
                format!(
                    "the packed position {text:?} is not {} position: {err}",
                    self.a_position()
                ),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_of_the_family_pack_and_others_do_not() {
        let size = |game: &str| Packer::for_game(game).map(|p| (p.n, p.position_bytes()));
        assert_eq!(size("ataxx"), Some((7, 14)));
        assert_eq!(size("virus"), Some((DEFAULT_SIZE, 14)));
        assert_eq!(size("virus/4x4"), Some((4, 5)));
        assert_eq!(size("virus/5x5"), Some((5, 8)));
        assert_eq!(size("virus/8x8"), Some((8, 17)));
        assert_eq!(size("virus/9x9"), Some((9, 22)));
        for other in [
            "draughts",
            "escampe",
            "abalone/belgian-daisy",
            "virus/3x3",
            "virus/10x10",
            "virus/5x6",
            "Ataxx",
            "",
        ] {
            assert_eq!(Packer::for_game(other), None, "{other}");
        }
    }

    #[test]
    fn the_start_packs_as_documented() {
        let packer = Packer::for_game("virus/4x4").unwrap();
        let mut out = Vec::new();
        packer.pack("x2o/4/4/o2x o", &mut out).unwrap();
        // Cells 0 (x) and 3 (o), then 12 (o) and 15 (x); White to move.
        assert_eq!(out, vec![0b1000_0001, 0, 0, 0b0100_0010, 0x80]);
        assert_eq!(packer.unpack(&out, 9).unwrap(), "x2o/4/4/o2x o");
    }

    #[test]
    fn blocked_cells_and_clocks_survive() {
        let packer = Packer::for_game("ataxx").unwrap();
        for (text, ply) in [
            ("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1", 0),
            ("-x3o-/7/2-1-2/1oo4/2-1-2/7/-o3x- o 37 12", 23),
            ("x5o/7/7/7/7/7/o5x x 100 51", 100),
        ] {
            let mut out = Vec::new();
            packer.pack(text, &mut out).unwrap();
            assert_eq!(out.len(), 14);
            assert_eq!(packer.unpack(&out, ply).unwrap(), text);
        }
    }

    #[test]
    fn bad_bytes_are_named() {
        let ataxx = Packer::for_game("ataxx").unwrap();
        let mut start = Vec::new();
        ataxx.pack("x5o/7/7/7/7/7/o5x x 0 1", &mut start).unwrap();
        let mut padded = start.clone();
        padded[12] |= 0b0100;
        let err = ataxx.unpack(&padded, 0).unwrap_err();
        assert_eq!(err.byte, 12);
        assert!(err.what.contains("off the 7x7 board"), "{err:?}");
        let mut clock = start.clone();
        clock[13] = 101;
        let err = ataxx.unpack(&clock, 0).unwrap_err();
        assert_eq!(err.byte, 13);
        assert!(err.what.contains("half-move clock of 101"), "{err:?}");
        let empty = vec![0u8; 14];
        let err = ataxx.unpack(&empty, 0).unwrap_err();
        assert!(err.what.contains("neither side has a stone"), "{err:?}");
        assert!(ataxx.unpack(&start[..13], 0).is_err());

        let virus = Packer::for_game("virus/7x7").unwrap();
        let mut blocked = start.clone();
        blocked[3] |= 3;
        let err = virus.unpack(&blocked, 0).unwrap_err();
        assert_eq!(err.byte, 3);
        assert!(err.what.contains("no blocked cells"), "{err:?}");
        let mut clock = start.clone();
        clock[13] = 1;
        let err = virus.unpack(&clock, 0).unwrap_err();
        assert!(err.what.contains("has none"), "{err:?}");
        // Only Black's stones, and Black to move: White played last and
        // has no stone.
        let mut out = Vec::new();
        virus.pack("x6/7/7/7/7/7/o5x x", &mut out).unwrap();
        out[10] = 0;
        let err = virus.unpack(&out, 0).unwrap_err();
        assert!(err.what.contains("no game reaches"), "{err:?}");
    }

    #[test]
    fn texts_of_other_games_and_sizes_are_refused() {
        let virus = Packer::for_game("virus/5x5").unwrap();
        let mut out = Vec::new();
        let err = virus.pack("x5o/7/7/7/7/7/o5x x", &mut out).unwrap_err();
        assert!(err.contains("its board is 7x7, the file's 5x5"), "{err}");
        let err = virus.pack("x3o/5/5/5/o3x x 0 1", &mut out).unwrap_err();
        assert!(err.contains("not a virus position"), "{err}");
        let ataxx = Packer::for_game("ataxx").unwrap();
        assert!(ataxx.pack("position 3", &mut out).is_err());
        assert!(out.is_empty());
    }
}
