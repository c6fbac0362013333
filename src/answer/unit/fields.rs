//! Field lines inside a finding (`Severity: High`, `**File:** src/a.rs`, `- Fix: …`) and the
//! text clean-ups every reader shares.

use super::*;

/// What a field line is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Field {
    Severity,
    Category,
    File,
    Line,
    Action,
    Evidence,
    Body,
    Title,
}

pub(super) const FIELD_NAMES: &[(&str, Field)] = &[
    ("severity", Field::Severity),
    ("severity level", Field::Severity),
    ("priority", Field::Severity),
    ("level", Field::Severity),
    ("criticality", Field::Severity),
    ("impact", Field::Severity),
    ("importance", Field::Severity),
    ("category", Field::Category),
    ("type", Field::Category),
    ("file", Field::File),
    ("files", Field::File),
    ("path", Field::File),
    ("location", Field::File),
    ("where", Field::File),
    ("line", Field::Line),
    ("lines", Field::Line),
    ("fix", Field::Action),
    ("suggested fix", Field::Action),
    ("proposed fix", Field::Action),
    ("suggestion", Field::Action),
    ("suggested change", Field::Action),
    ("recommendation", Field::Action),
    ("recommended fix", Field::Action),
    ("action", Field::Action),
    ("suggested action", Field::Action),
    ("remediation", Field::Action),
    ("how to fix", Field::Action),
    ("solution", Field::Action),
    ("evidence", Field::Evidence),
    ("problem", Field::Body),
    ("issue", Field::Body),
    ("description", Field::Body),
    ("details", Field::Body),
    ("why", Field::Body),
    ("why it matters", Field::Body),
    ("explanation", Field::Body),
    ("rationale", Field::Body),
    ("reason", Field::Body),
    ("risk", Field::Body),
    ("title", Field::Title),
    ("summary", Field::Title),
];

pub(super) fn field(line: &str) -> Option<(Field, String)> {
    static FIELD: OnceLock<Regex> = OnceLock::new();
    let line = &strip_tags(line);
    let c = re(
        &FIELD,
        r"^\s*(?:[-*+]\s+)?(?:\*\*|__|\*|_)?([A-Za-z][A-Za-z ]{0,22}?)\s*(?::(?:\*\*|__|\*|_)|(?:\*\*|__|\*|_)\s*:|:)\s*(.*)$",
    )
    .captures(line)?;
    let name = c[1].trim().to_ascii_lowercase();
    let kind = FIELD_NAMES.iter().find(|(n, _)| *n == name)?.1;
    Some((kind, c[2].trim().to_string()))
}

/// `Severity: High`, `**File:** src/a.rs`, `- Fix: …`: a detail of a finding, never a finding.
pub fn is_field(line: &str) -> bool {
    field(line).is_some()
}

/// Control characters (escape sequences included) out of model text before anyone prints it.
pub fn clean(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_control() || *c == '\n' || *c == '\t')
        .collect::<String>()
        .trim()
        .to_string()
}
