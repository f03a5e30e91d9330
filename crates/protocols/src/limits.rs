//! How the limits a protocol imposes (a clock, a time per move, a depth)
//! combine with a level's own.

use plateau_games::Limits;

/// `imposed`, within the level's depth and node caps (they are what makes
/// `expert` expert). The level's own time per move gives way to the imposed
/// time limits: a protocol's clock is the one that counts.
pub fn within_level(level: &Limits, imposed: &Limits) -> Limits {
    Limits {
        depth: min_some(level.depth, imposed.depth),
        nodes: min_some(level.nodes, imposed.nodes),
        movetime: imposed.movetime,
        clock: imposed.clock,
    }
}

fn min_some<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn caps_stay_and_time_comes_from_the_protocol() {
        let expert = Limits::depth(7);
        let clock = Limits::clock(Duration::from_secs(60), Duration::ZERO);
        assert_eq!(
            within_level(&expert, &clock),
            Limits {
                depth: Some(7),
                ..clock
            }
        );
        assert_eq!(within_level(&expert, &Limits::depth(20)), Limits::depth(7));
        assert_eq!(within_level(&expert, &Limits::depth(4)), Limits::depth(4));
        let master = Limits::movetime(Duration::from_secs(2));
        assert_eq!(within_level(&master, &Limits::default()), Limits::default());
        assert_eq!(within_level(&master, &Limits::nodes(5)), Limits::nodes(5));
    }
}
