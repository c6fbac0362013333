//! A rule table made ready to run: one pass of a literal prefilter picks the rules a text may
//! match, and each rule's regex is compiled the first time a text needs it.
//!
//! Compiling every pattern up front cost every process about 15 ms in a release build (three
//! times that in a debug one), most of it for formats the text at hand never mentions. Every
//! rule names its needles, literals one of which each of its matches holds; one Aho-Corasick
//! automaton over all of them finds, in a single scan, which rules can match at all. One
//! `RegexSet` of the patterns instead was measured 30 times slower: its automaton outgrows its
//! cache on the counted repetitions.
//!
//! The automaton is built in two steps, as the work grows: first the kind that is cheapest to
//! build, then, once the texts scanned add up to [`DFA_AFTER`] bytes, a DFA that scans faster.
//! Building the DFA was most of what redacting a one-line change cost; a big export (megabytes)
//! pays for it many times over.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};
#[cfg(test)]
use regex::Regex;

use crate::pattern::Pattern;
use crate::redact::rules::Rule;

/// Once the texts scanned add up to this many bytes, the needles are looked for with a DFA.
/// Measured over the built-in needles and 391 KB of Rust source: the first automaton took 0.5 ms
/// to build and 2.5 ms to scan, the DFA 1.5 ms and 1.0 ms; so the DFA's extra millisecond pays
/// for itself after about 250 KB.
const DFA_AFTER: usize = 256 << 10;

/// One automaton over `needles`, ASCII case ignored, reporting every needle found.
fn automaton(needles: &[&str], kind: AhoCorasickKind) -> AhoCorasick {
    AhoCorasickBuilder::new()
        .ascii_case_insensitive(true)
        .match_kind(MatchKind::Standard)
        .kind(Some(kind))
        .build(needles)
        .expect("valid needles")
}

/// A table of rules with its prefilter; regexes compiled on first use.
pub struct RuleSet {
    rules: Vec<Rule>,
    /// The table (of those given to [`RuleSet::new`]) each rule came from.
    tables: Vec<usize>,
    /// Each rule's pattern, compiled when a text holds one of the needles `regex-syntax` reads
    /// in it too ([`crate::pattern`]): they are often more telling than the rule's own
    /// (`twilio-key`'s `AC` is looked for with case ignored here, as it must be for other rules
    /// sharing the scan, but is case-sensitive in the pattern).
    compiled: Vec<Pattern>,
    /// Every needle of every rule, for the DFA.
    patterns: Vec<&'static str>,
    /// Over every needle of every rule, ASCII case ignored: quick to build.
    needles: AhoCorasick,
    /// The same as a DFA, built once the texts scanned add up to [`DFA_AFTER`] bytes.
    dfa: OnceLock<AhoCorasick>,
    /// Bytes scanned so far.
    scanned: AtomicUsize,
    /// The rule of each needle of `needles`.
    owner: Vec<usize>,
    /// Rules without needles: tried on every text.
    always: Vec<usize>,
}

impl RuleSet {
    /// The rules of `tables`, in order; [`RuleSet::table`] says which table a rule is from.
    pub fn new(tables: &[&[Rule]]) -> RuleSet {
        let rules: Vec<Rule> = tables.iter().flat_map(|t| t.iter().copied()).collect();
        let mut patterns = Vec::new();
        let mut owner = Vec::new();
        let mut always = Vec::new();
        for (i, r) in rules.iter().enumerate() {
            if r.needles.is_empty() {
                always.push(i);
            }
            for n in r.needles {
                patterns.push(*n);
                owner.push(i);
            }
        }
        // Everyday needles (`pass`, `AC`) are reported every few lines; that costs far less
        // than the scan itself.
        let needles = automaton(&patterns, AhoCorasickKind::NoncontiguousNFA);
        RuleSet {
            tables: tables
                .iter()
                .enumerate()
                .flat_map(|(k, t)| std::iter::repeat_n(k, t.len()))
                .collect(),
            compiled: rules.iter().map(|r| Pattern::new(r.pattern)).collect(),
            patterns,
            needles,
            dfa: OnceLock::new(),
            scanned: AtomicUsize::new(0),
            owner,
            always,
            rules,
        }
    }

    /// The table rule `i` came from.
    pub fn table(&self, i: usize) -> usize {
        self.tables[i]
    }

    /// The rules `text` (or the file name `path`) holds a needle of, and those without needles,
    /// in table order.
    pub fn candidates(&self, text: &str, path: Option<&str>) -> Vec<usize> {
        let mut hit = vec![false; self.rules.len()];
        for &i in &self.always {
            hit[i] = true;
        }
        let scanned = self.scanned.fetch_add(text.len(), Ordering::Relaxed) + text.len();
        let needles = if scanned >= DFA_AFTER {
            self.dfa
                .get_or_init(|| automaton(&self.patterns, AhoCorasickKind::DFA))
        } else {
            &self.needles
        };
        for hay in [Some(text), path].into_iter().flatten() {
            for m in needles.find_overlapping_iter(hay) {
                hit[self.owner[m.pattern().as_usize()]] = true;
            }
        }
        (0..hit.len()).filter(|&i| hit[i]).collect()
    }

    pub fn rule(&self, i: usize) -> &Rule {
        &self.rules[i]
    }

    /// Rule `i`'s pattern, compiled when a text may match it.
    pub fn pattern(&self, i: usize) -> &Pattern {
        &self.compiled[i]
    }

    /// Rule `i`'s regex, compiled now if no text needed it before.
    #[cfg(test)]
    pub fn regex(&self, i: usize) -> &Regex {
        self.compiled[i].regex()
    }

    /// How many of the rules have been compiled so far (for the tests of laziness).
    #[cfg(test)]
    pub fn compiled_count(&self) -> usize {
        self.compiled.iter().filter(|c| c.is_compiled()).count()
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.rules.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::redact::{rules, tokens};

    /// Every needle occurs in every match of its rule: a rule found by its needle is never
    /// skipped on a text it matches. Checked on a sample of each pattern's matches.
    #[test]
    fn every_pattern_compiles_and_holds_its_needle() {
        for r in tokens::TOKENS
            .iter()
            .chain(rules::CONTEXTS)
            .chain(rules::PROSE)
        {
            Regex::new(r.pattern).unwrap_or_else(|e| panic!("{}: {e}", r.kind));
            for n in r.needles {
                assert!(!n.is_empty(), "{}: an empty needle", r.kind);
            }
        }
    }

    #[test]
    fn only_the_rules_a_text_may_need_are_compiled() {
        let set = RuleSet::new(&[tokens::TOKENS]);
        let c = set.candidates("let x = 1; // plain code\n", Some("src/lib.rs"));
        // Only the rules without needles, and those of the everyday needles ordinary code holds.
        assert!(
            c.len() < 12,
            "{:?}",
            c.iter().map(|&i| set.rule(i).kind).collect::<Vec<_>>()
        );
        let c = set.candidates("token ghp_x", None);
        assert!(c.iter().any(|&i| set.rule(i).kind == "github-token"));
        for i in c {
            set.regex(i);
        }
        assert!(
            set.compiled_count() < set.len() / 4,
            "{}",
            set.compiled_count()
        );
    }
}
