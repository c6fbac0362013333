//! The keys real reviewers' JSON uses for a finding's parts, its list of findings and its
//! verdict (first present wins; matched case-insensitively, `-`/`_` alike).

/// Keys of JSON findings whose value is a severity; the first present wins.
pub const JSON_SEVERITY_KEYS: &[&str] = &[
    "severity",
    "sev",
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
    "what",
    "message",
    "msg",
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
    "msg",
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
    "component",
];
pub const JSON_LOCATION_KEYS: &[&str] = &[
    "location",
    "locations",
    "code_location",
    "position",
    "physicalLocation",
    "loc",
    "where",
    "evidence",
];
pub const JSON_LINE_KEYS: &[&str] = &[
    "start_line",
    "line",
    "original_line",
    "line_start",
    "startline",
    "line_number",
    "linenumber",
    "lines",
    "line_range",
    "range",
    "start",
    "begin",
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
    // An XML answer's repeated `<violation>` elements, read as a list under their own name.
    "violation",
    "key_issues_to_review",
    "code_suggestions",
    "suggestions",
    "items",
];
/// Keys whose lists are praise or summary, never findings.
pub const JSON_QUIET_KEYS: &[&str] = &[
    "praise",
    "strengths",
    "positives",
    "positive",
    "good",
    "highlights",
    "summary",
    "changes",
    "notes",
    "files",
    "walkthrough",
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
