//! Moves taken back: the positions a quiet move of the side that just moved
//! could have come from, within the same material. Captures and promotions
//! lead out of a material, so the generator reaches them forward instead.

use crate::index::Board;
use plateau_draughts::Square;

/// `NEIGHBOURS[square][direction]`: the diagonal neighbour of each square
/// (index 0-49) up-left, up-right, down-left, down-right ("up" is towards
/// square 1), or `NONE` off the board.
static NEIGHBOURS: [[u8; 4]; 50] = {
    let mut table = [[NONE; 4]; 50];
    let mut i = 0;
    while i < 50 {
        let square = Square::from_index(i as u8);
        let (row, column) = (square.row() as i32, square.column() as i32);
        let steps = [(-1, -1), (-1, 1), (1, -1), (1, 1)];
        let mut d = 0;
        while d < 4 {
            if let Some(next) = Square::at(row + steps[d].0, column + steps[d].1) {
                table[i][d] = next.index() as u8;
            }
            d += 1;
        }
        i += 1;
    }
    table
};

const NONE: u8 = u8::MAX;

/// Calls `found` with every position (seen from its own side to move) from
/// which the side that just moved in `board` reached it by a quiet move that
/// crowned nothing. Whether that move was legal there (no capture pending)
/// is the caller's to know.
#[inline]
pub fn predecessors(board: &Board, mut found: impl FnMut(Board)) {
    let occupied = board.occupied();
    // Their kings: back along each diagonal over empty squares.
    let mut kings = board.kings[1];
    while kings != 0 {
        let at = kings.trailing_zeros() as usize;
        kings &= kings - 1;
        for (direction, &first) in NEIGHBOURS[at].iter().enumerate() {
            let mut to = first;
            while to != NONE && occupied >> to & 1 == 0 {
                let mut before = *board;
                before.kings[1] ^= 1 << at | 1 << to;
                found(before.turned());
                to = NEIGHBOURS[to as usize][direction];
            }
        }
    }
    // Their men step towards square 50, so they came from one row up.
    let mut men = board.men[1];
    while men != 0 {
        let at = men.trailing_zeros() as usize;
        men &= men - 1;
        for &from in &NEIGHBOURS[at][..2] {
            if from != NONE && occupied >> from & 1 == 0 {
                let mut before = *board;
                before.men[1] ^= 1 << at | 1 << from;
                found(before.turned());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_neighbours_are_those_of_the_board() {
        // Square 28 (index 27): row 5, column 5.
        assert_eq!(NEIGHBOURS[27].map(|n| n + 1), [22, 23, 32, 33]);
        // Square 46 (index 45), a corner on the left edge: only up-right.
        assert_eq!(NEIGHBOURS[45], [NONE, 40, NONE, NONE]);
        // Square 5 (index 4), Black's back row: only the down side.
        assert_eq!(NEIGHBOURS[4], [NONE, NONE, 9, NONE]);
    }
}
