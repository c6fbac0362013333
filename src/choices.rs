//! The closed vocabularies of the settings: each setting that takes one of a fixed set of words
//! (`--format json`, `debate.mode = manual`, `"fail_on": "p1"` in a session's metadata) is one
//! enum here, with its spellings written once.
//!
//! One enum serves every place the word travels: clap parses the flag (`ValueEnum`), the settings
//! resolver reads the git config value ([`Choice::parse`]), sessions record it and reports print
//! it (serde and `Display`, in the same spelling). Keeping them here, below both the command line
//! and the settings, lets each of those use them without one depending on the other; this module
//! depends on nothing of ours.

use std::fmt;

/// What every vocabulary offers, for code that handles any of them (the settings resolver, the
/// tests). Each vocabulary also has these as inherent items, so a caller needs no import to
/// name or read one.
pub trait Choice: Copy + Sized + 'static {
    /// Every variant, in the order of the manual.
    const ALL: &'static [Self];
    /// Every spelling, in the order of the manual (the tests check it against clap and serde).
    #[cfg(test)]
    const NAMES: &'static [&'static str];

    /// The spelling users write: in flags, in git config and in JSON.
    fn name(self) -> &'static str;

    /// The variant `word` names. Case and surrounding whitespace are ignored, as git ignores them
    /// for its own words (`true`, `Yes`).
    fn parse(word: &str) -> Option<Self> {
        let word = word.trim();
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.name().eq_ignore_ascii_case(word))
    }
}

/// Defines a vocabulary: the enum with its clap, serde and `Display` spellings taken from one
/// list, so a word cannot be spelt one way on the command line and another in a session's JSON.
macro_rules! vocabulary {
    (
        $(#[$attr:meta])*
        pub enum $name:ident {
            $( $(#[$vattr:meta])* $variant:ident = $word:literal, )+
        }
    ) => {
        $(#[$attr])*
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum, serde::Serialize,
            serde::Deserialize,
        )]
        pub enum $name {
            $( $(#[$vattr])* #[value(name = $word)] #[serde(rename = $word)] $variant, )+
        }

        impl $name {
            /// Every variant, in the order of the manual.
            pub const ALL: &'static [Self] = &[$(Self::$variant),+];
            /// Every spelling, in the order of the manual. Not every choice has a setting whose
            /// manual lists it, so one may go unused outside the tests.
            #[allow(dead_code)]
            pub const NAMES: &'static [&'static str] = &[$($word),+];

            /// The spelling users write: in flags, in git config and in JSON.
            pub const fn name(self) -> &'static str {
                match self {
                    $(Self::$variant => $word,)+
                }
            }

            /// The variant `word` names, in any case.
            pub fn parse(word: &str) -> Option<Self> {
                <Self as Choice>::parse(word)
            }
        }

        impl Choice for $name {
            const ALL: &'static [Self] = $name::ALL;
            #[cfg(test)]
            const NAMES: &'static [&'static str] = $name::NAMES;

            fn name(self) -> &'static str {
                $name::name(self)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}

vocabulary! {
    /// `--target`: what kind of review was asked for. Not `Target`: `change::Target` is the kind
    /// an artifact turned out to be, which `auto` resolves to.
    pub enum TargetSetting {
        Auto = "auto",
        Code = "code",
        /// `doc` is taken too (the name one of the seeds gives a design document's review).
        #[value(alias = "doc")]
        Proposal = "proposal",
        Mixed = "mixed",
    }
}

vocabulary! {
    /// `--color`: whether text on a terminal is coloured.
    pub enum ColorWhen {
        Auto = "auto",
        Always = "always",
        Never = "never",
    }
}

vocabulary! {
    /// `--intensity`: a preset for rounds, budget and timeout.
    pub enum Intensity {
        Quick = "quick",
        Standard = "standard",
        Extensive = "extensive",
    }
}

impl Intensity {
    /// Rounds, budget minutes and timeout seconds of the preset.
    pub fn preset(self) -> (u64, u64, u64) {
        match self {
            Intensity::Quick => (1, 10, 180),
            Intensity::Standard => (3, 20, 600),
            Intensity::Extensive => (5, 40, 900),
        }
    }
}

vocabulary! {
    /// `--mode`: who decides after the judge.
    pub enum Mode {
        Auto = "auto",
        Manual = "manual",
    }
}

vocabulary! {
    /// `--effort`: reasoning effort, mapped to each provider's model and settings.
    pub enum Effort {
        Low = "low",
        Medium = "medium",
        High = "high",
        Max = "max",
    }
}

vocabulary! {
    /// `--format`: how a report is printed.
    pub enum Format {
        /// For people at a terminal (coloured there).
        Text = "text",
        /// The summary as markdown; fits a pull-request comment.
        Markdown = "markdown",
        /// Everything, versioned (`"schema": 1`).
        Json = "json",
        /// SARIF 2.1.0, one result per unresolved finding (code scanning).
        Sarif = "sarif",
        /// reviewdog's diagnostic format, for `reviewdog -f=rdjson`.
        Rdjson = "rdjson",
        /// GitHub Actions annotations, plus the markdown summary in $GITHUB_STEP_SUMMARY.
        Github = "github",
        /// GitLab Code Quality JSON, for `artifacts:reports:codequality`.
        Codequality = "codequality",
    }
}

vocabulary! {
    /// `--fail-on`: the severity at which unresolved findings fail the gate.
    #[derive(schemars::JsonSchema)]
    pub enum FailOn {
        P1 = "p1",
        P2 = "p2",
        P3 = "p3",
        Never = "never",
    }
}

impl FailOn {
    /// The lowest-ranked severity that blocks (P1 is 1), or `None` when nothing does.
    pub fn rank(self) -> Option<u8> {
        match self {
            FailOn::P1 => Some(1),
            FailOn::P2 => Some(2),
            FailOn::P3 => Some(3),
            FailOn::Never => None,
        }
    }
}

vocabulary! {
    /// `--consensus`: with several reviewers, how many of those that answered must raise a
    /// finding before the gate counts it.
    #[derive(schemars::JsonSchema)]
    pub enum Consensus {
        // One reviewer is enough: a single family's blocker blocks.
        Any = "any",
        // More than half of the reviewers that answered.
        Majority = "majority",
        // Every reviewer that answered.
        All = "all",
    }
}

impl Consensus {
    /// Whether `raised` votes of `answered` reviewers meet the rule.
    pub fn met(self, raised: usize, answered: usize) -> bool {
        match self {
            Consensus::Any => raised >= 1,
            Consensus::Majority => raised * 2 > answered,
            Consensus::All => raised >= answered && raised > 0,
        }
    }

    /// Whether `answered` of `asked` reviewers are enough to evaluate anything under the rule.
    pub fn enough(self, answered: usize, asked: usize) -> bool {
        match self {
            Consensus::Any => answered >= 1,
            Consensus::Majority => answered * 2 > asked,
            Consensus::All => answered == asked && answered > 0,
        }
    }
}

vocabulary! {
    /// `--chunk`/`--no-chunk`: whether a change is reviewed in chunks at once.
    pub enum Chunking {
        // Only a change bigger than the artifact budget. (Plain comments here and below: a doc
        // comment on a variant becomes its help in `--help` and the man page.)
        Auto = "auto",
        Always = "always",
        // Cut a big change to the budget instead, listing what was left out.
        Never = "never",
    }
}

vocabulary! {
    /// `--reviewer-workspace`: where the models run.
    pub enum Workspace {
        // A redacted copy of the reviewed revision.
        Export = "export",
        // The work tree itself.
        Worktree = "worktree",
    }
}

vocabulary! {
    /// `--reviewer-tools`: whether the reviewer keeps its read-only tools.
    pub enum Tools {
        Default = "default",
        None = "none",
    }
}

vocabulary! {
    /// `debate.<backend>.transport`: how an agent CLI is spoken to.
    pub enum Transport {
        // Its command line, one process per call.
        Cli = "cli",
        // The Agent Client Protocol.
        Acp = "acp",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    /// clap and serde read the spellings from the attributes the macro writes; this checks they
    /// agree with `name`, the spelling config and reports use.
    fn agrees<T: Choice + ValueEnum + serde::Serialize + fmt::Display>() {
        assert_eq!(T::ALL.len(), T::NAMES.len());
        for (v, name) in T::ALL.iter().zip(T::NAMES) {
            assert_eq!(v.name(), *name);
            assert_eq!(v.to_string(), *name);
            assert_eq!(v.to_possible_value().unwrap().get_name(), *name);
            assert_eq!(serde_json::to_value(v).unwrap(), *name);
            assert_eq!(
                T::parse(&format!(" {} ", name.to_uppercase())).map(T::name),
                Some(*name)
            );
        }
        assert!(T::parse("no such word").is_none());
    }

    #[test]
    fn every_vocabulary_is_spelt_alike_everywhere() {
        agrees::<TargetSetting>();
        agrees::<Intensity>();
        agrees::<Mode>();
        agrees::<Effort>();
        agrees::<Format>();
        agrees::<FailOn>();
        agrees::<Consensus>();
        agrees::<Chunking>();
        agrees::<Workspace>();
        agrees::<Tools>();
        agrees::<Transport>();
    }

    #[test]
    fn json_reads_back_what_it_wrote() {
        let v: FailOn = serde_json::from_str("\"p2\"").unwrap();
        assert_eq!(v, FailOn::P2);
        assert_eq!(FailOn::P3.rank(), Some(3));
        assert_eq!(FailOn::Never.rank(), None);
    }

    #[test]
    fn consensus_counts_votes_of_those_that_answered() {
        assert!(Consensus::Any.met(1, 3));
        assert!(!Consensus::Majority.met(1, 3));
        assert!(Consensus::Majority.met(2, 3));
        assert!(!Consensus::All.met(2, 3));
        assert!(Consensus::All.met(3, 3));
        assert!(Consensus::Majority.enough(2, 3));
        assert!(!Consensus::Majority.enough(1, 3));
        assert!(!Consensus::All.enough(2, 3));
        assert!(!Consensus::Any.enough(0, 3));
    }
}
