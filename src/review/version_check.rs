//! Is the author's compromise a version of what it revises? A compromise becomes the text the
//! next round reviews and, at the end, `final-artifact.md`; an answer of "LGTM", an empty one or
//! megabytes of one character must never take that place. Such an answer is recorded as a
//! failed compromise (the last good version is kept), never as the decision.
//!
//! The rules are about shape, not quality: a code change's compromise is a unified diff (it
//! holds file headers and at least one hunk), a document's is a document of a comparable size.
//! Whether the revision is any good is the next round's question.

use crate::change::markdown::Target;
use crate::change::sections::DiffDoc;

/// Replies that approve instead of revising, compared after lower-casing and dropping
/// punctuation: the answer to the review prompt given to the compromise prompt.
const APPROVALS: &[&str] = &[
    "lgtm",
    "looks good",
    "looks good to me",
    "approved",
    "approve",
    "ok",
    "okay",
    "ship it",
    "no changes",
    "no changes needed",
    "no change needed",
    "nothing to change",
    "agreed",
    "done",
    "1",
];

/// A compromise may be this many times the size of the version it revises (plus [`SLACK`]).
const GROWTH: usize = 4;
/// Room for a small version to grow (a one-line file given its tests).
const SLACK: usize = 64 * 1024;
/// A document's compromise under this fraction of the version it revises is not a revision of
/// it (for versions of at least [`SMALL`] bytes).
const SHRINK: usize = 10;
const SMALL: usize = 200;
/// At least one in this many of a revision's words (3+ letters or digits) occur in what it
/// revises.
const SHARED: usize = 3;
/// Words compared, at most: enough to judge, bounded for a big answer.
const MAX_WORDS: usize = 5000;

/// How many of the distinct words of `answer` occur in `current`, and of how many.
fn shared_words(current: &str, answer: &str) -> (usize, usize) {
    use std::collections::HashSet;
    let words = |t: &str| -> HashSet<String> {
        t.split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.chars().count() >= 3)
            .map(str::to_lowercase)
            .take(MAX_WORDS * 4)
            .collect()
    };
    let known = words(current);
    let mine: Vec<String> = words(answer).into_iter().take(MAX_WORDS).collect();
    let shared = mine.iter().filter(|w| known.contains(*w)).count();
    (shared, mine.len())
}

/// Why `answer` is not a version of `current` (a `target` artifact), or `None` when it is one.
pub fn rejects(target: Target, current: &str, answer: &str) -> Option<String> {
    let text = answer.trim();
    if text.is_empty() {
        return Some("it is empty".into());
    }
    let limit = current.len().saturating_mul(GROWTH).saturating_add(SLACK);
    if answer.len() > limit {
        return Some(format!(
            "it is {} bytes, over {GROWTH} times the {}-byte version it revises",
            answer.len(),
            current.len()
        ));
    }
    let words: String = text
        .chars()
        .map(|c| {
            if c.is_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                ' '
            }
        })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    if APPROVALS.contains(&words.as_str()) {
        // The words matched one of a few short phrases, so quoting them is short.
        return Some(format!(
            "it is an approval (\"{words}\"), not a revised version"
        ));
    }
    let mut distinct: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() <= 3 && text.len() >= SMALL {
        return Some(format!(
            "it is {} bytes of {} repeated character(s)",
            answer.len(),
            distinct.len()
        ));
    }
    let diff = DiffDoc::parse(text).is_some() && text.lines().any(|l| l.starts_with("@@"));
    if target == Target::Code && diff {
        return None;
    }
    if target != Target::Code && current.len() >= SMALL && text.len() * SHRINK < current.len() {
        return Some(format!(
            "it is {} bytes, under a tenth of the {}-byte document it revises",
            text.len(),
            current.len()
        ));
    }
    // A revision (a whole file or document rewritten rather than a diff) keeps most of the
    // vocabulary of what it revises; a reply about it ("I would rename it") does not.
    let (shared, of) = shared_words(current, text);
    if shared * SHARED < of {
        let what = if target == Target::Code {
            "it holds no unified diff, and"
        } else {
            "it"
        };
        return Some(format!(
            "{what} shares {shared} of its {of} words with the version it revises"
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    const DIFF: &str =
        "diff --git a/lib.rs b/lib.rs\n--- a/lib.rs\n+++ b/lib.rs\n@@ -1 +1 @@\n-a\n+b\n";

    #[test]
    fn answers_that_are_not_versions_are_named() {
        let doc = "# Design\n\n".to_string() + &"A sentence of the design.\n".repeat(20);
        for (target, current, answer, says) in [
            (Target::Code, DIFF, "LGTM", "an approval"),
            (Target::Code, DIFF, "  ", "empty"),
            (Target::Code, DIFF, "I would rename it.", "no unified diff"),
            (
                Target::Code,
                DIFF,
                "Sorry, I cannot write that.",
                "shares 0 of its",
            ),
            (
                Target::Proposal,
                doc.as_str(),
                "Looks good to me!",
                "an approval",
            ),
            (
                Target::Proposal,
                doc.as_str(),
                "Fine as is, really.",
                "under a tenth",
            ),
        ] {
            let why = rejects(target, current, answer).expect(answer);
            assert!(why.contains(says), "{answer}: {why}");
        }
        let blob = "x".repeat(1000);
        assert!(rejects(Target::Proposal, &doc, &blob)
            .unwrap()
            .contains("repeated"));
        let flood = "xy\n".repeat(200_000);
        assert!(rejects(Target::Proposal, &doc, &flood)
            .unwrap()
            .contains("over 4 times"));
    }

    #[test]
    fn revisions_pass() {
        assert_eq!(
            rejects(Target::Code, DIFF, &format!("Here:\n```diff\n{DIFF}```")),
            None
        );
        let doc = "# Design\n\nWe cache.\n";
        assert_eq!(
            rejects(Target::Proposal, doc, "# Design\n\nWe cache less.\n"),
            None
        );
        // A whole file instead of a diff still revises it.
        let change = "diff --git a/lib.rs b/lib.rs\n@@ -1 +1 @@\n-fn add(a: i32) -> i32 { a }\n";
        assert_eq!(
            rejects(
                Target::Code,
                change,
                "fn add(a: i32) -> Option<i32> { a.checked_add(1) }"
            ),
            None
        );
    }
}
