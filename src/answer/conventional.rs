//! Conventional Comments (`issue (blocking): …`, `nitpick: …`, `praise: …`), the labelled
//! format reviewers — and models asked to — write comments in: the label says whether the
//! comment raises anything, its decorations how much it matters.

use crate::answer::lead::{plain, Lead};
use crate::answer::vocab::{self, Strength};
use crate::pattern::Pattern;

/// The lead of a comment written with a Conventional Comments label, if `line` opens with one.
pub fn lead(line: &str) -> Option<Lead> {
    static LABEL: Pattern = Pattern::new(
        r"(?i)^\s*(?:[-*+]\s+)?(?:\*\*|__)?([a-z]+)\s*(?:\(([^)]{1,60})\))?(?:,?\s+(?:not an? (?:problem|issue|blocker|concern)|just curious|only curious))?\s*:\s*(?:\*\*|__)?\s*(.+)$",
    );
    let c = LABEL.captures(line)?;
    let label = c[1].to_ascii_lowercase();
    let (_, own, raises) = vocab::CONVENTIONAL_LABELS
        .iter()
        .find(|(l, _, _)| *l == label)?;
    // Without decorations, only the labels that are unusual outside the format count (a bare
    // `Note:` or `Issue:` is read by the markers as before).
    let decorations = c.get(2).map(|d| d.as_str().to_ascii_lowercase());
    if decorations.is_none() && vocab::CONVENTIONAL_LABELS_NEED_DECORATION.contains(&label.as_str())
    {
        return None;
    }
    let decorated = decorations.iter().flat_map(|d| d.split(',')).find_map(|d| {
        vocab::CONVENTIONAL_DECORATIONS
            .iter()
            .find(|(w, _)| *w == d.trim())
            .map(|(_, s)| *s)
    });
    // (A level word as the decoration, `**Suggestion (minor):**`, `issue (high):`, is that
    // level.)
    let leveled = || {
        decorations
            .iter()
            .flat_map(|d| d.split(','))
            .find_map(|d| vocab::severity_of(d.trim()).filter(|s| s.1 == Strength::Level))
            .map(|s| s.0)
    };
    let decorated = decorated.or_else(leveled);
    Some(Lead {
        severity: decorated.or(*own).map(|s| (s, Strength::Level)),
        title: plain(&c[3]),
        labelled: *raises,
        remark: !raises,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::findings::Severity::*;

    #[test]
    fn labels_and_decorations() {
        let l = lead("**issue (blocking, security):** `v-html` on user input").unwrap();
        assert_eq!(l.severity.map(|s| s.0), Some(P0));
        assert!(l.labelled && !l.remark);
        assert_eq!(l.title, "v-html on user input");
        let l = lead("suggestion (non-blocking): use rand.N").unwrap();
        assert_eq!(l.severity.map(|s| s.0), Some(P3));
        let l = lead("**Suggestion (minor):** `a.rb` line 52 — loses the line").unwrap();
        assert_eq!(l.severity.map(|s| s.0), Some(P2));
        assert_eq!(lead("**todo:** add an aria-label").unwrap().severity, None);
        assert!(lead("**praise:** a clean seam").unwrap().remark);
        assert!(lead("question: why five minutes?").unwrap().remark);
        // A remark that says it is one.
        assert!(
            lead("Question, not a problem: is 7 Sunday too?")
                .unwrap()
                .remark
        );
        // Not the format: a bare `Issue:` (the markers read it), a sentence.
        assert!(lead("Issue: the loop never ends").is_none());
        assert!(lead("The fix is easy: do it").is_none());
    }
}
