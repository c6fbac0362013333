//! Severity words, emoji and the filler around them ("High Severity", "P1 Badge"): what a marker
//! may say, and how sure it is.

use crate::protocol::findings::Severity;
use Severity::*;

/// How sure a severity word is: a level (`high`, `P1`) beats a category that merely implies one
/// (CodeRabbit's "⚠️ Potential issue" next to "🟠 Major").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Strength {
    Category,
    Level,
}

/// Severity words and phrases (normalised: lower case, words separated by one space).
pub const SEVERITY_PHRASES: &[(&str, Severity, Strength)] = &[
    ("p0", P0, Strength::Level),
    ("critical", P0, Strength::Level),
    ("blocker", P0, Strength::Level),
    ("blockers", P0, Strength::Level),
    ("blocking", P0, Strength::Level),
    ("severe", P0, Strength::Level),
    ("urgent", P0, Strength::Level),
    ("showstopper", P0, Strength::Level),
    ("p1", P1, Strength::Level),
    ("high", P1, Strength::Level),
    ("major", P1, Strength::Level),
    ("error", P1, Strength::Level),
    ("errors", P1, Strength::Level),
    ("must fix", P1, Strength::Level),
    ("must reconsider", P1, Strength::Level),
    ("must change", P1, Strength::Level),
    ("must have", P1, Strength::Level),
    ("required", P1, Strength::Level),
    ("action required", P1, Strength::Level),
    ("p2", P2, Strength::Level),
    ("medium", P2, Strength::Level),
    ("moderate", P2, Strength::Level),
    ("warning", P2, Strength::Level),
    ("warnings", P2, Strength::Level),
    ("warn", P2, Strength::Level),
    ("should fix", P2, Strength::Level),
    ("should improve", P2, Strength::Level),
    ("should change", P2, Strength::Level),
    ("should have", P2, Strength::Level),
    ("minor", P2, Strength::Level),
    ("remediation recommended", P2, Strength::Level),
    ("p3", P3, Strength::Level),
    ("low", P3, Strength::Level),
    ("nit", P3, Strength::Level),
    ("nits", P3, Strength::Level),
    ("nitpick", P3, Strength::Level),
    ("nitpicks", P3, Strength::Level),
    ("trivial", P3, Strength::Level),
    ("info", P3, Strength::Level),
    ("information", P3, Strength::Level),
    ("informational", P3, Strength::Level),
    ("note", P3, Strength::Level),
    ("notes", P3, Strength::Level),
    ("notice", P3, Strength::Level),
    ("optional", P3, Strength::Level),
    ("nice to have", P3, Strength::Level),
    ("nice to strengthen", P3, Strength::Level),
    ("could improve", P3, Strength::Level),
    ("style", P3, Strength::Level),
    ("cosmetic", P3, Strength::Level),
    ("non blocking", P3, Strength::Level),
    ("potential issue", P2, Strength::Category),
    ("refactor suggestion", P3, Strength::Category),
    ("best practice", P3, Strength::Category),
    ("enhancement", P3, Strength::Category),
];

/// Emoji that name a level (CodeRabbit, pr-agent and chat answers use the coloured circles).
pub const SEVERITY_EMOJI: &[(&str, Severity, Strength)] = &[
    ("🔴", P0, Strength::Level),
    ("🟥", P0, Strength::Level),
    ("🟠", P1, Strength::Level),
    ("🟧", P1, Strength::Level),
    ("🟡", P2, Strength::Level),
    ("🟨", P2, Strength::Level),
    ("🔵", P3, Strength::Level),
    ("🟢", P3, Strength::Level),
    ("⚪", P3, Strength::Level),
    ("⚠", P2, Strength::Category),
    ("🧹", P3, Strength::Category),
    ("🛠", P3, Strength::Category),
    // GitHub shortcodes, as CodeRabbit sometimes writes them.
    (":red_circle:", P0, Strength::Level),
    (":orange_circle:", P1, Strength::Level),
    (":yellow_circle:", P2, Strength::Level),
    (":large_blue_circle:", P3, Strength::Level),
    (":blue_circle:", P3, Strength::Level),
    (":green_circle:", P3, Strength::Level),
    (":white_circle:", P3, Strength::Level),
    (":warning:", P2, Strength::Category),
    (":broom:", P3, Strength::Category),
    (":hammer_and_wrench:", P3, Strength::Category),
];

/// Words that name a level only as a label opening a line (`Important: …`); anywhere else they
/// are ordinary words (CodeRabbit's "‼️ **IMPORTANT**" boilerplate is not a severity).
pub const LABEL_PHRASES: &[(&str, Severity)] = &[("important", P1), ("must", P1), ("should", P2)];

/// Words that only say "this is a severity" and are dropped before matching ("High Severity",
/// "P1 Badge", "high-priority", "Severity: Medium", "Critical issues (2)").
pub const SEVERITY_FILLER: &[&str] = &[
    "severity",
    "priority",
    "prio",
    "level",
    "badge",
    "issue",
    "issues",
    "finding",
    "findings",
    "comment",
    "comments",
    "impact",
    "concern",
    "concerns",
    "problem",
    "problems",
    "item",
    "items",
    "bug",
    "bugs",
    "fix",
    "fixes",
    "suggestion",
    "suggestions",
    "to",
    "the",
    "and",
    "a",
];
