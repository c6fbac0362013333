//! A judge's words: how it says a finding is valid, invalid or needs context, in the languages
//! judges answer in, which keys its JSON uses instead of the asked ones, and the words that name
//! a recommendation without its letter.

use super::Verdict;
use Verdict::*;

/// Verdict phrases, matched case-insensitively; a Latin phrase must stand as a word ("valid" is
/// not read inside "inválido"). Where two phrases start at the same place, the longer wins.
pub const RULING_WORDS: &[(&str, Verdict)] = &[
    ("valid", Valid),
    ("válido", Valid),
    ("válida", Valid),
    ("valido", Valid),
    ("holds", Valid),
    ("stands", Valid),
    ("accepted", Valid),
    ("accept", Valid),
    ("agree", Valid),
    ("agreed", Valid),
    ("confirmed", Valid),
    ("true positive", Valid),
    ("妥当", Valid),
    ("正当", Valid),
    ("有效", Valid),
    ("成立", Valid),
    ("유효", Valid),
    ("타당", Valid),
    ("✅", Valid),
    ("✔", Valid),
    ("invalid", Invalid),
    ("not valid", Invalid),
    ("inválido", Invalid),
    ("inválida", Invalid),
    ("invalido", Invalid),
    ("no válido", Invalid),
    ("is wrong", Invalid),
    ("wrong", Invalid),
    ("incorrect", Invalid),
    ("rejected", Invalid),
    ("reject", Invalid),
    ("disagree", Invalid),
    ("does not hold", Invalid),
    ("doesn't hold", Invalid),
    ("not a real problem", Invalid),
    ("not a real issue", Invalid),
    ("not an issue", Invalid),
    ("not a problem", Invalid),
    ("false positive", Invalid),
    ("無効", Invalid),
    ("不当", Invalid),
    ("无效", Invalid),
    ("無效", Invalid),
    ("不成立", Invalid),
    ("무효", Invalid),
    ("❌", Invalid),
    ("✗", Invalid),
    ("missing-context", MissingContext),
    ("missing context", MissingContext),
    ("missing_context", MissingContext),
    ("needs-context", MissingContext),
    ("needs context", MissingContext),
    ("need context", MissingContext),
    ("needs more context", MissingContext),
    ("needs-evidence", MissingContext),
    ("insufficient context", MissingContext),
    ("not enough context", MissingContext),
    ("unclear", MissingContext),
    ("can't rule", MissingContext),
    ("cannot rule", MissingContext),
    ("can't tell", MissingContext),
    ("falta contexto", MissingContext),
    ("falta de contexto", MissingContext),
    ("文脈不足", MissingContext),
    ("情報不足", MissingContext),
    ("缺少上下文", MissingContext),
    ("上下文不足", MissingContext),
    ("缺乏上下文", MissingContext),
    ("맥락 부족", MissingContext),
    ("컨텍스트 부족", MissingContext),
    ("판단 불가", MissingContext),
    ("❓", MissingContext),
];

/// Phrases that rule on the ids right after them ("I agree with F2", "I can't rule on F1–F3").
pub const RULING_BEFORE_ID: &[(&str, Verdict)] = &[
    ("agree with", Valid),
    ("disagree with", Invalid),
    ("can't rule on", MissingContext),
    ("cannot rule on", MissingContext),
    ("can not rule on", MissingContext),
];

/// Keys of a ruling object: the finding it is about, its verdict, a corrected severity, why.
pub const RULING_ID_KEYS: &[&str] = &["id", "finding", "finding_id", "findingId", "ref"];
pub const RULING_VERDICT_KEYS: &[&str] = &[
    "verdict",
    "ruling",
    "decision",
    "status",
    "classification",
    "judgement",
    "judgment",
    "result",
];
pub const RULING_SEVERITY_KEYS: &[&str] = &[
    "new_severity",
    "corrected_severity",
    "adjusted_severity",
    "severity",
];
pub const RULING_REASON_KEYS: &[&str] = &[
    "reason",
    "why",
    "rationale",
    "explanation",
    "note",
    "comment",
];
/// Where the list of rulings is.
pub const RULING_LIST_KEYS: &[&str] = &[
    "classifications",
    "rulings",
    "results",
    "verdicts",
    "judgements",
    "judgments",
    "findings",
];
/// Where the judge's own findings are.
pub const ADDED_KEYS: &[&str] = &[
    "added",
    "new_findings",
    "missed",
    "missed_findings",
    "additional_findings",
];
/// Where its letter is.
pub const RECOMMENDATION_KEYS: &[&str] = &["recommendation", "decision", "choice", "option"];

/// Words that introduce the letter in prose ("Recommendation: **C**", "推奨：C", "I recommend
/// option (B)").
pub const RECOMMENDATION_WORDS: &[&str] = &[
    "recommendation",
    "recommend",
    "recommended",
    "recomendación",
    "recomendacion",
    "recomiendo",
    "推奨",
    "推荐",
    "建议",
    "建議",
    "권고",
    "추천",
    "decision",
    "i'd go with",
    "i would go with",
    "go with",
    "i choose",
    "i pick",
];

/// The options named in words, for an answer that gives no letter: read only when the words of
/// exactly one option occur.
pub const RECOMMENDATION_PHRASES: &[(&str, char)] = &[
    ("keep the original", 'A'),
    ("keep the author's version", 'A'),
    ("reviewer's version", 'B'),
    ("accept the reviewer", 'B'),
    ("write a compromise", 'C'),
    ("a compromise", 'C'),
    ("continue with a rebuttal", 'D'),
    ("stop the debate", 'E'),
    ("end the debate", 'E'),
    ("stop here", 'E'),
    ("no further round", 'E'),
];
