//! Severity words, emoji and the filler around them ("High Severity", "P1 Badge"): what a marker
//! may say, and how sure it is.

use crate::findings::Severity;
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
    ("crit", P0, Strength::Level),
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
    ("med", P2, Strength::Level),
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
    ("hint", P3, Strength::Level),
    ("fatal error", P0, Strength::Level),
    ("information", P3, Strength::Level),
    ("informational", P3, Strength::Level),
    ("note", P3, Strength::Level),
    ("notice", P3, Strength::Level),
    ("optional", P3, Strength::Level),
    ("nice to have", P3, Strength::Level),
    // A section of optional points (`### Consider`, `**Consider**`): only a heading or label
    // that is this word alone; "Consider adding a test" has other words and is no marker.
    ("consider", P3, Strength::Level),
    ("could fix", P3, Strength::Level),
    ("nice to strengthen", P3, Strength::Level),
    ("could improve", P3, Strength::Level),
    ("style", P3, Strength::Level),
    ("cosmetic", P3, Strength::Level),
    ("non blocking", P3, Strength::Level),
    // Spanish, Chinese, Japanese and Korean levels. Three-rung scales read by rank: 高/中/低,
    // 상/중/하 and alta/media/baja are P1/P2/P3; the four-rung 심각/중요/보통/경미 is P0–P3;
    // 重大 tops the common Japanese 重大/中/軽微 scale (P1), and 致命的/严重/심각/crítico
    // name the worst (P0).
    ("crítico", P0, Strength::Level),
    ("crítica", P0, Strength::Level),
    ("critico", P0, Strength::Level),
    ("bloqueante", P0, Strength::Level),
    ("grave", P0, Strength::Level),
    ("alta", P1, Strength::Level),
    ("alto", P1, Strength::Level),
    ("mayor", P1, Strength::Level),
    ("importante", P1, Strength::Level),
    ("media", P2, Strength::Level),
    ("medio", P2, Strength::Level),
    ("moderada", P2, Strength::Level),
    ("baja", P3, Strength::Level),
    ("bajo", P3, Strength::Level),
    ("menor", P3, Strength::Level),
    ("sugerencia", P3, Strength::Level),
    ("致命", P0, Strength::Level),
    ("致命的", P0, Strength::Level),
    ("严重", P0, Strength::Level),
    ("嚴重", P0, Strength::Level),
    ("阻断", P0, Strength::Level),
    ("重大", P1, Strength::Level),
    ("高", P1, Strength::Level),
    ("重要", P1, Strength::Level),
    ("要修正", P1, Strength::Level),
    ("中", P2, Strength::Level),
    ("一般", P2, Strength::Level),
    ("低", P3, Strength::Level),
    ("轻微", P3, Strength::Level),
    ("輕微", P3, Strength::Level),
    ("軽微", P3, Strength::Level),
    ("建议", P3, Strength::Level),
    ("提案", P3, Strength::Level),
    ("심각", P0, Strength::Level),
    ("치명적", P0, Strength::Level),
    ("상", P1, Strength::Level),
    ("높음", P1, Strength::Level),
    ("중요", P1, Strength::Level),
    ("중", P2, Strength::Level),
    ("중간", P2, Strength::Level),
    ("보통", P2, Strength::Level),
    ("하", P3, Strength::Level),
    ("낮음", P3, Strength::Level),
    ("경미", P3, Strength::Level),
    ("사소", P3, Strength::Level),
    // Portuguese, German and French, read the same way (alta/média/baixa, hoch/mittel/
    // niedrig and élevée/moyenne/faible are three rungs; "mineur" is the lowest, as "menor").
    ("média", P2, Strength::Level),
    ("baixa", P3, Strength::Level),
    ("baixo", P3, Strength::Level),
    ("bloqueador", P0, Strength::Level),
    ("kritisch", P0, Strength::Level),
    ("blockierend", P0, Strength::Level),
    ("hoch", P1, Strength::Level),
    ("mittel", P2, Strength::Level),
    ("niedrig", P3, Strength::Level),
    ("gering", P3, Strength::Level),
    ("critique", P0, Strength::Level),
    ("bloquant", P0, Strength::Level),
    ("bloquante", P0, Strength::Level),
    ("élevée", P1, Strength::Level),
    ("élevé", P1, Strength::Level),
    ("haute", P1, Strength::Level),
    ("moyenne", P2, Strength::Level),
    ("moyen", P2, Strength::Level),
    ("faible", P3, Strength::Level),
    ("basse", P3, Strength::Level),
    ("mineur", P3, Strength::Level),
    ("mineure", P3, Strength::Level),
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
    ("🛑", P0, Strength::Level),
    ("⛔", P0, Strength::Level),
    ("❗", P1, Strength::Level),
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
    // Gemini Code Assist's badges: `security-critical`, `security-high`.
    "security",
    "severidade",
    "gravidade",
    "prioridade",
    "schweregrad",
    "priorität",
    "sévérité",
    "gravité",
    "priorité",
    "niveau",
    "severidad",
    "prioridad",
    "gravedad",
    "nivel",
    "重要度",
    "重大度",
    "严重程度",
    "优先级",
    "심각도",
    "우선순위",
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

/// Values a severity *field* may hold that are not levels anywhere else (`"severity":
/// "suggestion"` in a model's JSON, GitHub check annotations' `failure`): a `**Suggestion:**`
/// lead is a label, but a severity that says "suggestion" is the lowest level.
pub const FIELD_SEVERITY_VALUES: &[(&str, Severity)] = &[
    ("suggestion", P3),
    ("suggestions", P3),
    ("improvement", P3),
    ("recommendation", P3),
    ("failure", P1),
];

/// pr-agent's importance score (1–10) as the Impact it shows beside it: 9 and up High, 7 and 8
/// Medium, the rest Low. Used only when nothing else gives a level.
pub const IMPORTANCE_LEVELS: &[(u32, Severity)] = &[(9, P1), (7, P2), (1, P3)];

/// Conventional Comments labels: the level the label implies, and whether a comment with it
/// raises anything (praise, questions and thoughts do not).
pub const CONVENTIONAL_LABELS: &[(&str, Option<Severity>, bool)] = &[
    ("praise", None, false),
    ("question", None, false),
    ("thought", None, false),
    ("nitpick", Some(P3), true),
    ("note", Some(P3), true),
    ("typo", Some(P3), true),
    ("polish", Some(P3), true),
    ("quibble", Some(P3), true),
    ("suggestion", None, true),
    ("issue", None, true),
    ("todo", None, true),
    ("chore", None, true),
];

/// Labels that are ordinary words outside the format: read as Conventional Comments only with
/// decorations (`issue (blocking):`); bare, the markers and fields read them as before.
pub const CONVENTIONAL_LABELS_NEED_DECORATION: &[&str] = &["issue", "suggestion", "note"];

/// Conventional Comments decorations that give a level.
pub const CONVENTIONAL_DECORATIONS: &[(&str, Severity)] = &[
    ("blocking", P0),
    ("non-blocking", P3),
    ("non blocking", P3),
    ("nonblocking", P3),
    ("if-minor", P3),
];

/// Levels a sentence may state ("I'd treat this as a blocker", "a minor point", "this is
/// low priority"). Narrower than [`SEVERITY_PHRASES`]: "error", "high" or "note" in a sentence
/// are ordinary words. The flag says the word needs a severity noun after it ("high priority",
/// never "the load is high").
pub const PROSE_LEVELS: &[(&str, Severity, bool)] = &[
    ("p0", P0, false),
    ("p1", P1, false),
    ("p2", P2, false),
    ("p3", P3, false),
    ("blocker", P0, false),
    // The worst level in other languages' prose ("Das ist ein Blocker", "Это блокер").
    ("bloqueante", P0, false),
    ("bloquant", P0, false),
    ("bloccante", P0, false),
    ("блокер", P0, false),
    ("блокирующая", P0, false),
    ("blokujący", P0, false),
    ("kritisch", P0, false),
    ("critique", P0, false),
    ("критично", P0, false),
    ("must fix", P1, false),
    ("blocking", P0, true),
    ("should fix", P2, false),
    ("showstopper", P0, false),
    ("merge blocker", P0, false),
    ("critical", P0, false),
    ("severe", P0, false),
    ("major", P1, false),
    ("high", P1, true),
    ("moderate", P2, false),
    ("medium", P2, true),
    ("minor", P2, false),
    ("low", P3, true),
    ("nit", P3, false),
    ("nitpick", P3, false),
    ("trivial", P3, false),
    ("cosmetic", P3, false),
];

/// The word right before a level that makes it a rating ("treat this as **a** blocker", "this
/// **is** critical", "that'**s** moderate", "**a** minor point").
pub const PROSE_FRAMES: &[&str] = &[
    "as", "is", "s", "a", "an", "one", // German, Spanish, Portuguese, French, Italian, Dutch,
    // Polish and Russian: "ist ein", "es un", "é um", "est un", "è un", "is een", "jest", "это".
    "ein", "eine", "ist", "un", "una", "es", "é", "um", "uma", "est", "une", "è", "een", "jest",
    "это",
];

/// Verbs of rating before a level ("I'd **call this** high", "**rate it as** low"): with one,
/// even a level that otherwise needs a noun is a rating at the end of its clause.
pub const PROSE_RATING_VERBS: &[&str] = &[
    "call this",
    "call it",
    "call that",
    "rate this",
    "rate it",
    "rate this as",
    "rate it as",
    "class this as",
    "class it as",
    "mark this as",
    "mark it as",
    "treat this as",
    "treat it as",
    "consider this",
    "consider it",
];

/// Nouns after a level that make it a rating ("a minor **point**", "high **priority**").
pub const PROSE_NOUNS: &[&str] = &[
    "issue",
    "issues",
    "point",
    "points",
    "concern",
    "concerns",
    "problem",
    "problems",
    "bug",
    "bugs",
    "finding",
    "findings",
    "severity",
    "priority",
    "one",
    "thing",
    "things",
    "defect",
    "regression",
    "nit",
    "nits",
    "risk",
];

/// Words that undo a rating within the few before it ("**not** a blocker", "**nothing**
/// critical", "**no** major issues").
/// Words after a framed level that only say whose view it is or when it applies ("a blocker
/// **in my view**", "is critical **for this PR**"): the level still ends its clause.
pub const PROSE_TAILS: &[&str] = &[
    "in my view",
    "in my opinion",
    "imo",
    "imho",
    "for me",
    "to me",
    "here",
    "as written",
    "as is",
    "for now",
    "for this pr",
    "for this change",
    "for merge",
    "for merging",
    "before merge",
    "before merging",
    "to merge",
    "honestly",
    "though",
];

/// Phrases that rate what they are said of on their own, wherever they stand in a clause ("This
/// one must be fixed before merging"), unless negated.
pub const PROSE_SELF_RATED: &[(&str, Severity)] = &[
    ("blocks the merge", P0),
    ("blocks merging", P0),
    ("must be fixed before", P1),
    ("must be addressed before", P1),
    ("must be resolved before", P1),
    ("needs to be fixed before", P1),
    ("needs to be addressed before", P1),
    ("has to be fixed before", P1),
    ("must fix before", P1),
    ("should be fixed before merging", P2),
    ("should be fixed before merge", P2),
];

pub const PROSE_NEGATIONS: &[&str] = &[
    "not", "no", "nothing", "never", "isn", "isnt", "aren", "arent", "non", "without", "hardly",
    "didn", "didnt", "don", "dont", "doesn", "doesnt", "wasn", "weren", "zero", "none", "nor",
];
