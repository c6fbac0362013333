//! A review bot's overview that counts its comments by category and marks each count
//! (Sourcery: `🔴 **Security**: 1 blocking issue`, or without the bold, `🟡 **General issues**: 2 issues found`,
//! `🟢 **Testing**: all looks good`): a blocking count is the level of that category's comments
//! that state none of their own (`**issue (security):** …`). Yellow only says issues were found,
//! not how grave they are: those comments stay unrated.

use crate::answer::re;
use crate::answer::unit::Unit;
use crate::answer::vocab;
use crate::findings::{Finding, Severity};
use crate::pattern::Pattern;
use std::sync::OnceLock;

/// One overview line: its category, normalised, and the level its mark gives (none for a
/// category that "all looks good").
struct Count {
    category: String,
    level: Option<Severity>,
}

/// The overview's counts in `text`, in order.
fn counts(text: &str) -> Vec<Count> {
    static LINE: OnceLock<Pattern> = OnceLock::new();
    let line = re(
        &LINE,
        r"(?m)^\s*[-*]?\s*(🔴|🟠|🟡|🔵|⚪|🟢)\s*(?:\*\*([^*\n]{2,40})\*\*|([^*:\n]{2,40}))\s*:\s*([^\n]*)$",
    );
    line.captures_iter(text)
        .map(|c| {
            // (The category in bold or not: `🔴 **Security**:`, `- 🔴 Security:`.)
            let category = c.get(2).or_else(|| c.get(3)).map_or("", |m| m.as_str());
            let said = c[4].to_ascii_lowercase();
            let counted = said
                .split_whitespace()
                .next()
                .and_then(|n| n.parse::<u32>().ok());
            // (Only a blocking count rates: yellow says "issues found", not how grave.)
            let blocking = said.contains("blocking") || &c[1] == "🔴";
            let level = counted
                .filter(|n| *n > 0 && blocking)
                .and_then(|_| vocab::severity_of(&c[1]).map(|s| s.0));
            Count {
                category: vocab::normalise(category),
                level,
            }
        })
        .collect()
}

/// The category a comment tags itself with (`**issue (security):**` → "security"), normalised.
fn tag(lead: &str) -> Option<String> {
    static TAG: OnceLock<Pattern> = OnceLock::new();
    let c = re(
        &TAG,
        r"(?i)\b(?:issue|suggestion|nitpick|question|todo|thought|chore|note)\s*\(([\w -]{2,30})\)\s*:",
    )
    .captures(lead)?;
    Some(vocab::normalise(&c[1]))
}

/// The label a comment opens with (`**security (open-redirect):**` → "security",
/// `**Security:**` → "security"), normalised: a category when the overview counts one by
/// that name.
fn label(lead: &str) -> Option<String> {
    static LABEL: OnceLock<Pattern> = OnceLock::new();
    let c = re(
        &LABEL,
        r"^\W*([\p{L}][\p{L} _-]{1,30}?)\s*(?:\([\w -]{2,30}\))?\s*:",
    )
    .captures(lead)?;
    Some(vocab::normalise(&c[1]))
}

/// Gives each unrated comment its category's level from the overview in `text`: the category
/// it tags itself with when the overview counts that one, else the overview's general issues.
pub(super) fn level_from_overview(text: &str, units: &[Unit], found: &mut [Option<Finding>]) {
    let counts = counts(text);
    if counts.iter().all(|c| c.level.is_none()) {
        return;
    }
    let general = counts
        .iter()
        .find(|c| c.category == "general issues" || c.category == "general");
    for (u, f) in units.iter().zip(found.iter_mut()) {
        let Some(f) = f.as_mut().filter(|f| f.severity == Severity::Unclassified) else {
            continue;
        };
        // (Sourcery's tag opens the comment's body, under its place.)
        let tagged = std::iter::once(&u.lead)
            .chain(u.lines.iter().take(3))
            .find_map(|l| tag(l));
        let labelled = || {
            let l = label(&u.lead).or_else(|| u.lines.first().and_then(|l| label(l)))?;
            counts.iter().find(|c| c.category == l)
        };
        let own = tagged
            .and_then(|t| counts.iter().find(|c| c.category == t))
            .or_else(labelled);
        if let Some(level) = own.or(general).and_then(|c| c.level) {
            f.severity = level;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_overview_line_counts_a_category_at_its_mark() {
        let text = "- 🟡 **General issues**: 2 issues found\n- 🔴 **Security**: 1 blocking issue\n\
- 🟢 **Testing**: all looks good\n";
        let c = counts(text);
        assert_eq!(c.len(), 3);
        assert_eq!(
            (c[0].category.as_str(), c[0].level),
            ("general issues", None)
        );
        assert_eq!(
            (c[1].category.as_str(), c[1].level),
            ("security", Some(Severity::P0))
        );
        assert_eq!(c[2].level, None);
        assert_eq!(
            tag("**🚨 issue (security):** the body"),
            Some("security".into())
        );
        assert_eq!(
            tag("**issue (bug_risk):** the key"),
            Some("bug risk".into())
        );
        assert_eq!(tag("**nitpick:** hints"), None);
        // (Or the category first, its kind in parentheses.)
        assert_eq!(
            label("**security (open-redirect):** `redirect(next)`"),
            Some("security".into())
        );
        assert_eq!(label("**Security:** the token"), Some("security".into()));
        assert_eq!(label("the token is logged"), None);
    }

    #[test]
    fn an_overview_line_without_bold_counts_too() {
        let c = counts("- 🟢 General issues: all looks good\n- 🔴 Security: 1 blocking issue\n");
        assert_eq!(c.len(), 2);
        assert_eq!(
            (c[1].category.as_str(), c[1].level),
            ("security", Some(Severity::P0))
        );
    }
}
