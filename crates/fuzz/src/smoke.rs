//! A short, deterministic fuzz run of a target for `cargo test` (stable, no
//! libFuzzer): the seeds, then mutations of them (bit flips, insertions,
//! deletions, splices, protocol words), then random bytes. It catches a
//! target that breaks on its own seeds or on easy neighbours; the long runs
//! are libFuzzer's (see `docs/fuzzing.md`).

use plateau_core::Rng;

/// Words that open doors a blind mutation rarely finds.
const DICTIONARY: &[&str] = &[
    "\n",
    " ",
    "/",
    "-",
    "x",
    ":",
    ",",
    "=",
    "\"",
    "\0",
    "0",
    "9",
    "99999999999",
    "W",
    "B",
    "Z",
    "e",
    "K",
    "start: ",
    "moves: ",
    "ply: ",
    "[FEN \"",
    "\"]",
    "{",
    "}",
    "(",
    ")",
    "position ",
    "fen ",
    "startpos",
    "moves ",
    "setoption name ",
    " value ",
    "pos pos=",
    "MOUVEMENT ",
    "JOUEUR ",
    "FIN! ",
    "Blanc",
    "Noir",
    "net=",
    "threads=",
    "hash=",
    "\u{e9}",
    "\u{85}",
    "\u{ff}",
];

/// Runs `target` on its seeds and `count` inputs derived from them with the
/// randomness of `seed`; returns how many inputs ran.
pub fn run(target: fn(&[u8]), seeds: &[Vec<u8>], count: usize, seed: u64) -> usize {
    let mut rng = Rng::new(seed);
    let mut ran = 0;
    for input in seeds {
        target(input);
        ran += 1;
    }
    for _ in 0..count {
        let input = if seeds.is_empty() || rng.below(10) == 0 {
            random_bytes(&mut rng)
        } else {
            mutate(&mut rng, seeds)
        };
        target(&input);
        ran += 1;
    }
    ran
}

fn random_bytes(rng: &mut Rng) -> Vec<u8> {
    let len = rng.below(64) as usize;
    (0..len).map(|_| rng.next_u64() as u8).collect()
}

/// One to four mutations of a seed.
fn mutate(rng: &mut Rng, seeds: &[Vec<u8>]) -> Vec<u8> {
    let mut input = seeds[rng.below(seeds.len() as u64) as usize].clone();
    for _ in 0..=rng.below(4) {
        let at = rng.below(input.len() as u64 + 1) as usize;
        match rng.below(7) {
            0 if at < input.len() => input[at] ^= 1 << rng.below(8),
            1 if at < input.len() => input[at] = rng.next_u64() as u8,
            2 => {
                let word = DICTIONARY[rng.below(DICTIONARY.len() as u64) as usize];
                input.splice(at..at, word.bytes());
            }
            3 if at < input.len() => {
                let end = (at + 1 + rng.below(8) as usize).min(input.len());
                input.drain(at..end);
            }
            4 => {
                let other = &seeds[rng.below(seeds.len() as u64) as usize];
                let from = rng.below(other.len() as u64 + 1) as usize;
                input.truncate(at);
                input.extend_from_slice(&other[from..]);
            }
            5 if at < input.len() => {
                let end = (at + 1 + rng.below(16) as usize).min(input.len());
                let copy = input[at..end].to_vec();
                input.splice(at..at, copy);
            }
            _ => input.insert(at.min(input.len()), rng.next_u64() as u8),
        }
    }
    input
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{TARGETS, seeds};

    /// Inputs per target beyond the seeds: a few seconds in all.
    const INPUTS: usize = 10_000;

    #[test]
    fn every_target_survives_its_seeds_and_their_mutations() {
        for &(name, target) in TARGETS {
            let seeds = seeds(name);
            assert!(!seeds.is_empty(), "{name} has no seeds");
            let ran = run(target, &seeds, INPUTS, 0x5EED ^ name.len() as u64);
            assert_eq!(ran, seeds.len() + INPUTS);
        }
    }

    #[test]
    fn the_targets_are_named_once() {
        let mut names: Vec<&str> = TARGETS.iter().map(|&(name, _)| name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), TARGETS.len());
    }

    #[test]
    fn a_refused_move_is_a_plain_input_not_a_failure() {
        // Bytes that are no game at all reach every parser and leave quietly.
        for &(_, target) in TARGETS {
            target(b"");
            target(b"\xff\xfe garbage \x00\n\n:::");
        }
    }
}
