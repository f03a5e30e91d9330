/// One pruning rule's margin. [`crate::Options::margin_percent`] scales them
/// all for a game; each may then be scaled on its own
/// ([`crate::Options::margin_scales`]), because what a rule risks differs:
/// a reverse-futility cut trusts the static score at the node, a ProbCut
/// a shallow search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Margin {
    /// Razoring: how far below alpha a static score goes to quiescence.
    Razor,
    /// Reverse futility: how far above beta a static score ends the node.
    ReverseFutility,
    /// Futility: how far a quiet move may lift the static score.
    Futility,
    /// ProbCut: how far above beta the shallow search must reach.
    Probcut,
    /// Singular extensions: how far below the table move's score the others stay.
    Singular,
    /// The null move's reduction grows a ply per this much above beta.
    NullMove,
}

impl Margin {
    pub const COUNT: usize = 6;
    pub const ALL: [Margin; Margin::COUNT] = [
        Margin::Razor,
        Margin::ReverseFutility,
        Margin::Futility,
        Margin::Probcut,
        Margin::Singular,
        Margin::NullMove,
    ];

    /// Its place in [`crate::Options::margin_scales`].
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The engine option that scales it (`master,rfp-margin=80`).
    pub const fn key(self) -> &'static str {
        match self {
            Margin::Razor => "razor-margin",
            Margin::ReverseFutility => "rfp-margin",
            Margin::Futility => "fp-margin",
            Margin::Probcut => "probcut-margin",
            Margin::Singular => "se-margin",
            Margin::NullMove => "nmp-margin",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_follow_the_list_and_keys_differ() {
        for (i, margin) in Margin::ALL.into_iter().enumerate() {
            assert_eq!(margin.index(), i);
            assert!(margin.key().ends_with("-margin"));
        }
        let mut keys = Margin::ALL.map(Margin::key).to_vec();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), Margin::COUNT);
    }
}
