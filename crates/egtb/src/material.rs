//! Which pieces are on the board: the unit a database file covers.

use std::fmt;

/// The men and kings of each side, the side to move first. A database slice
/// holds every position of one material with that side to move (a position
/// with Black to move is read turned half a turn with the colours swapped, so
/// one slice serves both colours).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// Men of the side to move, then of the other side.
    pub men: [u8; 2],
    /// Kings of the side to move, then of the other side.
    pub kings: [u8; 2],
}

impl Material {
    /// Every piece on the board.
    pub fn pieces(self) -> u32 {
        u32::from(self.men[0] + self.men[1] + self.kings[0] + self.kings[1])
    }

    /// The pieces of one side (0: the side to move).
    pub fn side_pieces(self, side: usize) -> u32 {
        u32::from(self.men[side] + self.kings[side])
    }

    /// The same pieces with the other side to move: the slice a quiet move
    /// leads to.
    pub fn swapped(self) -> Material {
        Material {
            men: [self.men[1], self.men[0]],
            kings: [self.kings[1], self.kings[0]],
        }
    }

    /// Every material of 2 to `max_pieces` pieces with at least one piece
    /// each, in an order the generator can follow: fewer pieces first (a
    /// capture leads there), then fewer men (a promotion leads there).
    pub fn all(max_pieces: u32) -> Vec<Material> {
        let mut all = Vec::new();
        let max = max_pieces.min(MAX_PIECES) as u8;
        for m0 in 0..=max {
            for k0 in 0..=max - m0 {
                for m1 in 0..=max - m0 - k0 {
                    for k1 in 0..=max - m0 - k0 - m1 {
                        let material = Material {
                            men: [m0, m1],
                            kings: [k0, k1],
                        };
                        if m0 + k0 > 0 && m1 + k1 > 0 {
                            all.push(material);
                        }
                    }
                }
            }
        }
        all.sort_by_key(|m| (m.pieces(), m.men[0] + m.men[1], *m));
        all
    }

    /// `2m1k-1m0k`: men and kings of the side to move, then of the other.
    pub fn name(self) -> String {
        format!(
            "{}m{}k-{}m{}k",
            self.men[0], self.kings[0], self.men[1], self.kings[1]
        )
    }

    /// Reads [`Material::name`] back.
    pub fn from_name(name: &str) -> Option<Material> {
        let (us, them) = name.split_once('-')?;
        let side = |text: &str| -> Option<(u8, u8)> {
            let (men, kings) = text.strip_suffix('k')?.split_once('m')?;
            Some((men.parse().ok()?, kings.parse().ok()?))
        };
        let (m0, k0) = side(us)?;
        let (m1, k1) = side(them)?;
        let material = Material {
            men: [m0, m1],
            kings: [k0, k1],
        };
        (material.pieces() <= MAX_PIECES
            && material.side_pieces(0) > 0
            && material.side_pieces(1) > 0
            && material.name() == name)
            .then_some(material)
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// The most pieces an index can describe (the binomial table's reach).
pub const MAX_PIECES: u32 = 8;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_and_nonsense_does_not() {
        for material in Material::all(5) {
            assert_eq!(Material::from_name(&material.name()), Some(material));
        }
        for bad in [
            "",
            "1m0k",
            "1m0k-0m0k",
            "01m0k-1m0k",
            "9m0k-1m0k",
            "xm0k-1m0k",
        ] {
            assert_eq!(Material::from_name(bad), None, "{bad}");
        }
    }

    #[test]
    fn captures_and_promotions_lead_to_materials_listed_earlier() {
        let all = Material::all(4);
        for (i, m) in all.iter().enumerate() {
            // A promotion of the side to move, seen from the other side.
            if m.men[0] > 0 {
                let promoted = Material {
                    men: [m.men[1], m.men[0] - 1],
                    kings: [m.kings[1], m.kings[0] + 1],
                };
                let at = all.iter().position(|x| *x == promoted).unwrap();
                assert!(at < i, "{m} before {promoted}");
            }
        }
        assert_eq!(all.len(), 4 + 12 + 25);
    }
}
