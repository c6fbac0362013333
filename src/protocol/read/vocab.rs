//! The reader's vocabularies, as data: severity words, section headings, approval and
//! non-approval phrases, placeholders, and the keys real reviewers' JSON uses.
//!
//! One table per concept, in one place, so a new reviewer format is usually a new row here and
//! not new code (the README's "How answers are read" shows the severity table). Matching is on
//! whole normalised phrases: "critical" in "this is a critical path" is prose, not a marker.

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
    "risk",
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

/// Keys of JSON findings whose value is a severity; the first present wins.
pub const JSON_SEVERITY_KEYS: &[&str] = &[
    "severity",
    "priority",
    "level",
    "impact",
    "importance",
    "criticality",
    "label",
];
/// Keys whose value is a category that may imply a severity (weaker than a level).
pub const JSON_CATEGORY_KEYS: &[&str] = &["category", "type", "kind", "tag"];
pub const JSON_TITLE_KEYS: &[&str] = &[
    "title",
    "issue_header",
    "header",
    "headline",
    "summary",
    "one_sentence_summary",
    "name",
    "issue",
    "problem",
    "message",
    "description",
    "text",
    "comment",
    "body",
];
pub const JSON_BODY_KEYS: &[&str] = &[
    "body",
    "description",
    "details",
    "detail",
    "explanation",
    "rationale",
    "reason",
    "reasoning",
    "why",
    "issue_content",
    "message",
    "content",
    "comment",
    "text",
];
pub const JSON_ACTION_KEYS: &[&str] = &[
    "action",
    "suggestion",
    "suggested_fix",
    "suggested_change",
    "suggested_code",
    "suggestion_content",
    "fix",
    "recommendation",
    "remediation",
    "improved_code",
    "proposed_fix",
    "solution",
];
pub const JSON_FILE_KEYS: &[&str] = &[
    "file",
    "path",
    "filename",
    "file_path",
    "filepath",
    "relevant_file",
    "absolute_file_path",
    "uri",
    "file_name",
];
pub const JSON_LOCATION_KEYS: &[&str] = &[
    "location",
    "locations",
    "code_location",
    "position",
    "physicalLocation",
    "loc",
    "evidence",
];
pub const JSON_LINE_KEYS: &[&str] = &[
    "start_line",
    "line",
    "line_start",
    "startline",
    "line_number",
    "linenumber",
    "lines",
    "line_range",
    "range",
    "start",
    "begin",
    "original_line",
];
pub const JSON_END_KEYS: &[&str] = &["end_line", "line_end", "endline", "end"];
/// Keys that hold the answer's list of findings.
pub const JSON_LIST_KEYS: &[&str] = &[
    "findings",
    "issues",
    "comments",
    "review_comments",
    "reviewcomments",
    "inline_comments",
    "problems",
    "concerns",
    "bugs",
    "defects",
    "results",
    "diagnostics",
    "violations",
    "key_issues_to_review",
    "code_suggestions",
    "suggestions",
    "items",
];
/// Keys that hold the answer's overall verdict.
pub const JSON_VERDICT_KEYS: &[&str] = &[
    "verdict",
    "overall",
    "decision",
    "overall_correctness",
    "overall_verdict",
    "approval",
    "event",
    "state",
    "status",
    "assessment",
];

/// How an answer's overall verdict word reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stance {
    Approve,
    Object,
}

/// Verdict values (JSON or a `Verdict:` line), normalised.
pub const VERDICT_WORDS: &[(&str, Stance)] = &[
    ("approve", Stance::Approve),
    ("approved", Stance::Approve),
    ("lgtm", Stance::Approve),
    ("accept", Stance::Approve),
    ("pass", Stance::Approve),
    ("passed", Stance::Approve),
    ("ok", Stance::Approve),
    ("patch is correct", Stance::Approve),
    ("correct", Stance::Approve),
    ("keep", Stance::Approve),
    ("revise", Stance::Object),
    ("reject", Stance::Object),
    ("rejected", Stance::Object),
    ("request changes", Stance::Object),
    ("request_changes", Stance::Object),
    ("changes requested", Stance::Object),
    ("needs changes", Stance::Object),
    ("needs work", Stance::Object),
    ("fail", Stance::Object),
    ("failed", Stance::Object),
    ("block", Stance::Object),
    ("patch is incorrect", Stance::Object),
    ("incorrect", Stance::Object),
];

/// Phrases that approve the whole change when nothing qualifies them (a regex alternation,
/// matched case-insensitively on word boundaries).
pub const APPROVAL_PHRASES: &[&str] = &[
    r"lgtm",
    r"looks good(?: to me)?",
    r"looks great",
    r"looks correct",
    r"looks fine",
    r"no (?:further |significant |major |real |remaining |blocking |obvious )?(?:issues|problems|concerns|bugs|findings)(?: (?:found|identified|detected|spotted))?",
    r"(?:did not|didn't|did n't) (?:find|spot|see|identify) any(?: (?:major|significant|real|obvious|blocking))? (?:issues|problems|concerns|bugs)",
    r"found no (?:issues|problems|concerns|bugs)",
    r"no actionable comments",
    r"nothing (?:to (?:fix|change|flag|report|add)|blocking)",
    r"(?:safe|ready|good) to (?:merge|ship|land)",
    r"ship it",
    r"approved?",
    r"approving",
    r"patch is correct",
    r"i have no (?:further )?(?:comments|feedback|suggestions|objections)",
    r"(?:generated|left|posted|made) no (?:new )?comments",
    r"no (?:new )?comments",
];

/// Words that turn an approval into something else when they come before it in its sentence
/// ("not approved", "far from LGTM").
pub const NEGATIONS: &str = r"(?i)(\bnot|n't|\bnever|\bhardly|\bwithout|\bcannot|\bno longer|\bfar from|\bcan't|\bwon't|\bbefore|\bmostly|\blargely|\bpartially|\bnearly|\balmost|\bsomewhat)\W+(?:\w+\W+){0,3}$";

/// Words that make an approval conditional or partial when they follow it in its sentence
/// ("approve once…", "looks good, but…", "LGTM except…").
pub const QUALIFIERS: &str = r"(?i)^[^.!?\n]*?\b(but|however|though|although|except|once|after|until|unless|if|provided|pending|as long as|as soon as|apart from|aside from|other than|besides|only when|assuming|with one|with a few|with some|with the exception|conditionally|mostly|partially|for the most part|this part|that part)\b";

/// Phrases anywhere in an answer that mean it does not approve.
pub const OBJECTIONS: &str = r"(?i)\b(request(?:ing)? changes|changes requested|do not merge|don't merge|not (?:yet )?(?:ready|safe) to (?:merge|ship|land)|needs (?:more )?work|patch is incorrect|must be (?:fixed|addressed) before)\b";

/// Headings of sections that are not findings: summaries, praise, walkthroughs, effort estimates.
/// A heading matches when its normalised text starts with one of these.
pub const QUIET_SECTIONS: &[&str] = &[
    "summary",
    "overview",
    "walkthrough",
    "changes",
    "change summary",
    "what changed",
    "what this pr does",
    "what this change does",
    "key changes",
    "highlights",
    "strengths",
    "strong points",
    "what looks good",
    "what s good",
    "whats good",
    "what i liked",
    "what works",
    "positive",
    "positives",
    "praise",
    "good",
    "well done",
    "context",
    "background",
    "description",
    "pr overview",
    "pull request overview",
    "reviewed changes",
    "files changed",
    "file changes",
    "changed files",
    "changelog",
    "sequence diagram",
    "testing",
    "test plan",
    "tests",
    "how i reviewed",
    "approach",
    "scope",
    "conclusion",
    "final thoughts",
    "overall",
    "overall assessment",
    "assessment",
    "verdict",
    "prompt for ai agents",
    "prompt to fix with ai",
    "prompt for ai",
    "ai agent prompt",
    "estimated effort",
    "estimated code review effort",
    "poem",
    "tips",
    "confidence score",
    "review details",
    "configuration used",
    "review profile",
    "files selected",
    "files ignored",
    "files processed",
    "relevant ticket",
    "pr reviewer guide",
    "review guide",
    "greptile summary",
    "important files changed",
    "diagram",
    "questions",
    "open questions",
];

/// Headings of sections whose items are findings although they name no severity.
pub const FINDING_SECTIONS: &[&str] = &[
    "issues",
    "findings",
    "problems",
    "concerns",
    "bugs",
    "defects",
    "comments",
    "review comments",
    "inline comments",
    "suggestions",
    "code suggestions",
    "recommended changes",
    "recommendations",
    "potential issues",
    "detailed findings",
    "detailed review",
    "observations",
    "risks",
    "problems found",
    "issues found",
    "recommended focus areas",
    "focus areas",
    "things to fix",
    "improvements",
    "security concerns",
    "bugs found",
    "other",
    "other issues",
    "other findings",
    "additional issues",
    "comments suppressed",
    "outside diff range comments",
    "duplicate comments",
    "nitpick comments",
    "additional comments",
    "potential issues",
];

/// Titles that praise rather than raise ("LGTM!", "Good use of a guard"): a CodeRabbit
/// "additional comment" on a line range is often one; it is not a finding unless it carries a
/// severity level of its own. Matched at the start of the normalised title.
pub const PRAISE_TITLES: &[&str] = &[
    "lgtm",
    "looks good",
    "looks great",
    "looks correct",
    "good",
    "great",
    "nice",
    "well done",
    "excellent",
    "correct",
    "approved",
    "this is fine",
    "no issues",
    "no concerns",
];

/// Words of a sentence that raises a problem (used where no structure says so: prose next to an
/// approval, a summary section, a normaliser that found nothing). A regex alternation.
pub const CONCERN_CUES: &str = r"(?i)\b(crash(?:es|ed|ing)?|panics?|panicking|leaks?|leaking|race condition|data race|races?|deadlocks?|vulnerab\w*|inject(?:able|ion)|overflows?|underflows?|will fail|fails|failing|broken|breaks|bugs?|regression|incorrect(?:ly)?|(?:is|are|was|were|the) wrong|nits?|nitpick|minor (?:thing|issue|point|nit)|one (?:thing|issue|concern|problem)|could be (?:called|renamed|simplified)|should (?:be|use|not|add|check|handle|return|call)|must (?:be|not)|needs? to|please (?:add|fix|change|remove|rename)|is missing|are missing|never (?:closed|freed|called|released|checked|validated|revoked|cleared)|loses?|lost|todo|fixme|unsafe)\b";
pub const MISSING_SECTIONS: &[&str] = &["missing alternatives", "alternatives not considered"];
pub const RECOMMENDATION_SECTIONS: &[&str] =
    &["recommended decision", "recommendation", "decision"];

/// Labels that open a finding as a line (`Bug: …`, `Issue 2: …`, `Finding: …`).
pub const FINDING_LABELS: &[&str] = &[
    "bug",
    "issue",
    "finding",
    "problem",
    "concern",
    "defect",
    "logic",
    "security",
    "correctness",
];

/// File extensions a bare `name.ext` must have to be read as a path (with a `/` any extension
/// is accepted): without this, `self.cache.get` and `Node.js` would be files.
pub const CODE_EXTENSIONS: &[&str] = &[
    "rs",
    "py",
    "pyi",
    "ts",
    "tsx",
    "js",
    "jsx",
    "mjs",
    "cjs",
    "go",
    "java",
    "kt",
    "kts",
    "c",
    "h",
    "cc",
    "cpp",
    "cxx",
    "hpp",
    "hh",
    "cs",
    "fs",
    "rb",
    "php",
    "swift",
    "m",
    "mm",
    "scala",
    "sh",
    "bash",
    "zsh",
    "fish",
    "ps1",
    "sql",
    "md",
    "rst",
    "txt",
    "toml",
    "yaml",
    "yml",
    "json",
    "jsonc",
    "xml",
    "html",
    "htm",
    "css",
    "scss",
    "sass",
    "less",
    "lua",
    "ex",
    "exs",
    "erl",
    "hs",
    "ml",
    "mli",
    "clj",
    "dart",
    "vue",
    "svelte",
    "proto",
    "graphql",
    "gql",
    "tf",
    "hcl",
    "ini",
    "cfg",
    "conf",
    "env",
    "lock",
    "gradle",
    "cmake",
    "mk",
    "r",
    "jl",
    "zig",
    "nim",
    "sol",
    "pl",
    "pm",
    "groovy",
    "ipynb",
    "csv",
    "tsv",
    "bzl",
    "nix",
    "dockerfile",
    "gemspec",
    "podspec",
    "plist",
    "properties",
    "sbt",
    "v",
    "sv",
    "vhd",
    "asm",
    "s",
    "wat",
    "cu",
    "tex",
];
/// File names without an extension that are still files.
pub const BARE_FILE_NAMES: &[&str] = &[
    "Makefile",
    "Dockerfile",
    "Containerfile",
    "Justfile",
    "Rakefile",
    "Gemfile",
    "Procfile",
    "Jenkinsfile",
    "Vagrantfile",
    "BUILD",
    "WORKSPACE",
    "CODEOWNERS",
    "LICENSE",
    "Cargo.lock",
];

/// Normalises a marker or heading: lower case, emoji and punctuation gone, words separated by
/// one space (`"**P1 - Must Fix**"` → `"p1 must fix"`).
pub fn normalise(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else {
            out.push(' ');
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The severity a marker names ("High Severity", "P1 Badge", "🔴 Critical", "priority: 2",
/// "must-fix", "[nitpick]"), when the whole marker is severity vocabulary; prose that merely
/// contains a severity word is not a marker.
pub fn severity_of(marker: &str) -> Option<(Severity, Strength)> {
    let mut found: Vec<(Severity, Strength)> = Vec::new();
    for (e, s, st) in SEVERITY_EMOJI {
        match marker.matches(e).count() {
            0 => {}
            // A run of circles is a scale ("effort 🔵🔵🔵⚪⚪"), not a level.
            1 => found.push((*s, *st)),
            _ => return None,
        }
    }
    // Shortcodes are markers or nothing: `:bulb: Codebase verification` is the words alone.
    let without_codes: String = {
        let mut out = String::with_capacity(marker.len());
        let mut rest = marker;
        while let Some(start) = rest.find(':') {
            let after = &rest[start + 1..];
            match after.find(':') {
                Some(end)
                    if end > 0
                        && after[..end]
                            .chars()
                            .all(|c| c.is_ascii_lowercase() || c == '_' || c.is_ascii_digit()) =>
                {
                    out.push_str(&rest[..start]);
                    out.push(' ');
                    rest = &after[end + 1..];
                }
                _ => {
                    out.push_str(&rest[..=start]);
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        out
    };
    let normal = normalise(&without_codes);
    let words: Vec<&str> = normal.split(' ').filter(|w| !w.is_empty()).collect();
    if let Some(s) = numbered_severity(&words) {
        found.push((s, Strength::Level));
    } else {
        let named = phrases(&words)?;
        if named.is_empty() && found.is_empty() {
            return None;
        }
        found.extend(named);
    }
    // Every word was vocabulary: the strongest, then the most severe, wins.
    found
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
}

/// `priority 1`, `severity: 2`, `prio 0`: the number is the level (0 to 3; larger is unknown).
fn numbered_severity(words: &[&str]) -> Option<Severity> {
    match words {
        [k, n] if ["priority", "prio", "severity", "p"].contains(k) => match *n {
            "0" => Some(P0),
            "1" => Some(P1),
            "2" => Some(P2),
            "3" => Some(P3),
            _ => None,
        },
        _ => None,
    }
}

/// The words as a sequence of vocabulary phrases (filler words and counts skipped), or `None`
/// when any other word is present.
fn phrases(words: &[&str]) -> Option<Vec<(Severity, Strength)>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let hit = (1..=3.min(words.len() - i)).rev().find_map(|len| {
            let phrase = words[i..i + len].join(" ");
            SEVERITY_PHRASES
                .iter()
                .find(|(p, _, _)| *p == phrase)
                .map(|(_, s, st)| (len, (*s, *st)))
        });
        match hit {
            Some((len, h)) => {
                out.push(h);
                i += len;
            }
            None if SEVERITY_FILLER.contains(&words[i])
                || words[i].chars().all(|c| c.is_ascii_digit()) =>
            {
                i += 1
            }
            None => return None,
        }
    }
    Some(out)
}

/// `none`, `(none)`, `N/A`, `No blockers.`, `Nothing blocking.`, `No P1 issues.`: a placeholder
/// where a list of findings would be, not a finding.
pub fn is_placeholder(s: &str) -> bool {
    let t = normalise(s);
    if t.is_empty() {
        return !s.trim().is_empty();
    }
    let words: Vec<&str> = t.split(' ').collect();
    if words.len() > 9 {
        return false;
    }
    const EMPTY: &[&str] = &["none", "n a", "na", "nil", "nothing", "no", "empty", "nope"];
    if EMPTY.contains(&t.as_str()) {
        return true;
    }
    let rest = |skip: usize| words[skip..].join(" ");
    match words[0] {
        "none" | "nothing" => {
            let r = rest(1);
            r.is_empty()
                || regex_lite_match(
                    &r,
                    &[
                        "found",
                        "identified",
                        "noted",
                        "here",
                        "so far",
                        "to report",
                        "blocking",
                        "to flag",
                        "to fix",
                        "to add",
                        "to change",
                        "at this level",
                        "that i",
                        "in this",
                    ],
                )
        }
        "no" => {
            // "No P1 issues.", "No blocking concerns found", "No security concerns identified".
            let nouns = [
                "issues",
                "issue",
                "findings",
                "finding",
                "concerns",
                "concern",
                "blockers",
                "blocker",
                "problems",
                "problem",
                "bugs",
                "bug",
                "comments",
                "suggestions",
                "nits",
                "items",
                "remarks",
            ];
            words.iter().skip(1).take(5).any(|w| nouns.contains(w))
        }
        "n" if words.get(1) == Some(&"a") => true,
        _ => false,
    }
}

fn regex_lite_match(rest: &str, starts: &[&str]) -> bool {
    starts.iter().any(|s| rest.starts_with(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_and_prose() {
        for (m, s) in [
            ("P1", P1),
            ("**P1 - Must Fix**", P1),
            ("High Severity", P1),
            ("high-priority", P1),
            ("P1 Badge", P1),
            ("🔴 Critical", P0),
            ("_🟠 Major_", P1),
            ("Severity: Medium", P2),
            ("[nitpick]", P3),
            ("Nitpick comments (2)", P3),
            ("priority: 2", P2),
            ("Nice to Have", P3),
            ("🟡", P2),
            ("Blocking issues", P0),
        ] {
            assert_eq!(severity_of(m).map(|x| x.0), Some(s), "{m}");
        }
        for prose in [
            "Potential blocker in the auth flow",
            "this is a critical path",
            "Summary",
            "🔵🔵🔵⚪⚪ and more",
            "",
        ] {
            assert_eq!(severity_of(prose), None, "{prose}");
        }
        // A level beats a category.
        assert_eq!(
            severity_of("⚠️ Potential issue | 🟠 Major"),
            Some((P1, Strength::Level))
        );
        assert_eq!(
            severity_of("⚠️ Potential issue"),
            Some((P2, Strength::Category))
        );
    }

    #[test]
    fn placeholders() {
        for p in [
            "none",
            "(none)",
            "N/A",
            "No blockers.",
            "Nothing blocking.",
            "No P1 issues.",
            "None found.",
            "No security concerns identified",
            "-",
        ] {
            assert!(is_placeholder(p), "{p}");
        }
        for f in [
            "No timeout on the HTTP client",
            "Nothing validates the header length",
            "Null deref in parse",
            "None of the callers check the result, so errors vanish",
        ] {
            assert!(!is_placeholder(f), "{f}");
        }
    }
}
