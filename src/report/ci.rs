//! Report formats for code hosts and CI: SARIF 2.1.0 (GitHub code scanning and most hosts),
//! reviewdog's rdjson (reviewdog posts it anywhere), and GitHub workflow-command annotations plus
//! a job summary.
//!
//! Each lists the *unresolved* findings of the review (the ones that stand in its last round).
//! A finding is placed at a file and line only when its location was found in the reviewed
//! change (`verified` or `outside-change`); a location the reviewer invented is never sent as a
//! position. Severity maps to levels the same way everywhere: P0/P1 and unknown severity error
//! (unknown may be a blocker), P2 warning, P3 note.
//!
//! Findings without a usable location: GitHub rejects SARIF results without one, and reviewdog
//! turns an rdjson diagnostic without one into a log line instead of a review comment, so both
//! attach them to the reviewed file (line 1) when the review was of one file ([`place`]). Otherwise
//! SARIF lists them as the run's tool notifications and rdjson leaves them out, every diagnostic
//! having a location (the markdown job summary lists every finding); GitHub annotations show them
//! without a file.

use serde::Serialize;

use crate::findings::{LocationCheck, Source};
use crate::report::{Dispute, Item, Report, WithdrawnItem};

/// A position a code host may be given: a path in the repository and a line range.
pub(crate) fn location(i: &Item) -> Option<(String, u64, u64)> {
    let l = i.location.as_ref().filter(|l| l.is_positional())?;
    let start = u64::from(l.start_line.unwrap_or(1));
    let end = u64::from(l.end_line.unwrap_or(l.start_line.unwrap_or(1))).max(start);
    Some((l.path.clone(), start, end))
}

/// Where a finding is shown: its own position, else line 1 of the one file reviewed.
pub(crate) fn place(r: &Report, i: &Item) -> Option<(String, u64, u64)> {
    location(i).or_else(|| r.single_file.as_ref().map(|f| (f.clone(), 1, 1)))
}

fn level(i: &Item) -> &'static str {
    level_of(i.severity.label())
}

/// One line of text for a finding: title, where the reviewer said, why, and what to do.
pub(crate) fn message(i: &Item) -> String {
    let mut m = format!("[{}] {}", i.id, i.title);
    if i.severity == crate::findings::Severity::Unclassified {
        m.push_str(" (severity unknown)");
    }
    if location(i).is_none() {
        if let Some(w) = i.where_() {
            m.push_str(&format!(" [at {w}]"));
        }
    }
    if !i.body.is_empty() {
        m.push_str(&format!(": {}", i.body));
    }
    if let Some(a) = &i.action {
        m.push_str(&format!(" Suggested: {a}"));
    }
    if let Some(d) = &i.dispute {
        m.push_str(&format!(
            " ({})",
            crate::report::dispute_text(d, i.severity_text())
        ));
    }
    if let Some(v) = &i.votes {
        m.push_str(&format!(" (raised by {})", v.text()));
    }
    m
}

/// A fingerprint that survives re-runs and moved lines: the file, the normalised title and
/// the code around the location (never the per-session `F1`).
pub(crate) fn fingerprint(i: &Item) -> String {
    let path = i.location.as_ref().map_or("", |l| l.path.as_str());
    let title = crate::answer::vocab::normalise(&i.title);
    let anchor = i.anchor().unwrap_or("");
    let text = format!("{path}\0{title}\0{anchor}");
    sha1_smol::Sha1::from(text).digest().to_string()
}

const RULES: &[(&str, &str, &str)] = &[
    (
        "P0",
        "Critical: exploitable or destroys data",
        "A P0 finding: the reviewer found an exploitable or data-destroying problem. Fix it before merging.",
    ),
    (
        "P1",
        "Must fix: correctness, security or reliability",
        "A P1 finding: a correctness, security or reliability problem that must be fixed before merging.",
    ),
    (
        "P2",
        "Should fix: maintainability, performance or compatibility",
        "A P2 finding: a maintainability, performance or compatibility problem worth fixing.",
    ),
    ("P3", "Nice to have", "A P3 finding: optional; style and polish."),
    (
        "unclassified",
        "Severity unknown: the reviewer did not classify it",
        "The reviewer raised this without a severity and nobody classified it. It may be a \
         blocker, so it fails every --fail-on level until the judge or a later round gives it one.",
    ),
];

/// A SARIF 2.1.0 log: the parts of the standard this report fills in.
#[derive(Serialize)]
pub struct Sarif {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: Vec<SarifRun>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifRun {
    tool: Tool,
    invocations: Vec<Invocation>,
    automation_details: Automation,
    results: Vec<SarifResult>,
    properties: RunProperties,
}

#[derive(Serialize)]
struct Tool {
    driver: Driver,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Driver {
    name: &'static str,
    version: &'static str,
    information_uri: &'static str,
    rules: Vec<Rule>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Rule {
    id: &'static str,
    name: String,
    short_description: Text,
    full_description: Text,
    help: Text,
    default_configuration: Configuration,
}

#[derive(Serialize)]
struct Configuration {
    level: &'static str,
}

#[derive(Serialize)]
struct Text {
    text: String,
}

impl Text {
    fn of(s: impl Into<String>) -> Text {
        Text { text: s.into() }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Invocation {
    execution_successful: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tool_execution_notifications: Vec<Notification>,
}

#[derive(Serialize)]
struct Notification {
    level: &'static str,
    message: Text,
    #[serde(skip_serializing_if = "Option::is_none")]
    descriptor: Option<Descriptor>,
}

#[derive(Serialize)]
struct Descriptor {
    id: &'static str,
}

#[derive(Serialize)]
struct Automation {
    id: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: Text,
    locations: Vec<SarifLocation>,
    partial_fingerprints: Fingerprints,
    /// A waiver in `.gitdebate-waivers` covers it: code hosts show it as suppressed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    suppressions: Vec<Suppression>,
    properties: ResultProperties,
}

/// SARIF's record of a result someone decided not to act on, outside the code (`external`).
#[derive(Serialize)]
struct Suppression {
    kind: &'static str,
    status: &'static str,
    justification: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifLocation {
    physical_location: PhysicalLocation,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PhysicalLocation {
    artifact_location: ArtifactLocation,
    region: Region,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ArtifactLocation {
    uri: String,
    uri_base_id: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: u64,
    end_line: u64,
}

#[derive(Serialize)]
struct Fingerprints {
    #[serde(rename = "gitDebateFinding/v1")]
    finding: String,
}

#[derive(Serialize)]
struct ResultProperties {
    judged: String,
    round: u32,
    finding: String,
    source: Source,
    location: Option<LocationCheck>,
    /// Both positions, when the judge disputed the finding.
    #[serde(skip_serializing_if = "Option::is_none")]
    dispute: Option<Dispute>,
    /// With several reviewers: who raised it, how many of how many, whether the gate counts it.
    #[serde(skip_serializing_if = "Option::is_none")]
    votes: Option<crate::store::summary::Votes>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    raised_by: Vec<crate::findings::Vote>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RunProperties {
    status: String,
    final_decision: String,
    reviewer: String,
    author: String,
    evaluated: bool,
    /// The report's notes (repair counts, rulings on unknown ids, what a trusted judge decided).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    notes: Vec<String>,
    /// Findings the reviewer withdrew when the judge disputed them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    withdrawn: Vec<WithdrawnItem>,
    trust_judge: bool,
    /// With several reviewers: the consensus rule and who answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    reviewers: Option<crate::store::summary::Reviewers>,
    /// Findings a waiver covers (their results carry a suppression).
    #[serde(skip_serializing_if = "is_zero")]
    waived: usize,
    /// Waivers that expired, or that the change adds to its own review.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    waiver_notes: Vec<String>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The level of a rule or finding of severity `id`.
fn level_of(id: &str) -> &'static str {
    match id {
        "P0" | "P1" | "unclassified" => "error",
        "P3" => "note",
        _ => "warning",
    }
}

/// SARIF's rules: one per severity.
fn rules() -> Vec<Rule> {
    RULES
        .iter()
        .map(|(id, short, full)| Rule {
            id,
            name: format!(
                "GitDebate{}",
                if *id == "unclassified" {
                    "Unclassified"
                } else {
                    id
                }
            ),
            short_description: Text::of(*short),
            full_description: Text::of(*full),
            help: Text::of(*full),
            default_configuration: Configuration {
                level: level_of(id),
            },
        })
        .collect()
}

pub fn sarif(r: &Report) -> Sarif {
    let mut results = Vec::new();
    let mut notifications = Vec::new();
    for i in r.unresolved.iter().chain(&r.waived) {
        let rule_index = RULES
            .iter()
            .position(|(id, _, _)| *id == i.severity.label())
            .unwrap_or(4);
        let Some((path, start, end)) = place(r, i) else {
            // A waived finding without a place is counted in the run's properties.
            if i.waiver.is_some() {
                continue;
            }
            notifications.push(Notification {
                level: level(i),
                message: Text::of(message(i)),
                descriptor: Some(Descriptor {
                    id: i.severity.label(),
                }),
            });
            continue;
        };
        results.push(SarifResult {
            rule_id: i.severity.label(),
            rule_index,
            level: level(i),
            message: Text::of(message(i)),
            locations: vec![SarifLocation {
                physical_location: PhysicalLocation {
                    artifact_location: ArtifactLocation {
                        uri: path,
                        uri_base_id: "%SRCROOT%",
                    },
                    region: Region {
                        start_line: start,
                        end_line: end,
                    },
                },
            }],
            partial_fingerprints: Fingerprints {
                finding: fingerprint(i),
            },
            suppressions: i
                .waiver
                .iter()
                .map(|w| Suppression {
                    kind: "external",
                    status: "accepted",
                    justification: w.describe(),
                })
                .collect(),
            properties: ResultProperties {
                judged: i.judged.clone(),
                round: i.round,
                finding: i.id.clone(),
                source: i.source,
                location: i.location.as_ref().and_then(|l| l.check),
                dispute: i.dispute.clone(),
                votes: i.votes.clone(),
                raised_by: i.raised_by.clone(),
            },
        });
    }
    if !r.evaluated {
        notifications.push(Notification {
            level: "error",
            message: Text::of(format!(
                "The review was not evaluated: {}",
                r.error.as_deref().unwrap_or("the reviewer never answered")
            )),
            descriptor: None,
        });
    }
    let partial = r.coverage.as_ref().and_then(|c| c.not_evaluated_line());
    if let Some(line) = &partial {
        notifications.push(Notification {
            level: "error",
            message: Text::of(line.clone()),
            descriptor: None,
        });
    }
    Sarif {
        schema: "https://json.schemastore.org/sarif-2.1.0.json",
        version: "2.1.0",
        runs: vec![SarifRun {
            tool: Tool {
                driver: Driver {
                    name: "git-debate",
                    version: env!("CARGO_PKG_VERSION"),
                    information_uri: "https://github.com/git-debate/git-debate",
                    rules: rules(),
                },
            },
            invocations: vec![Invocation {
                execution_successful: r.evaluated && partial.is_none(),
                tool_execution_notifications: notifications,
            }],
            automation_details: Automation {
                id: format!("git-debate/{}", r.session),
            },
            results,
            properties: RunProperties {
                status: r.status.clone(),
                final_decision: r.final_decision.clone(),
                reviewer: r.reviewer.clone(),
                author: r.author.clone(),
                evaluated: r.evaluated,
                notes: r.notes.clone(),
                withdrawn: r.withdrawn.clone(),
                trust_judge: r.gate.trust_judge,
                reviewers: r.reviewers.clone(),
                waived: r.waived.len(),
                waiver_notes: r.waiver_notes.clone(),
            },
        }],
    }
}

/// reviewdog's diagnostic format (`DiagnosticResult` of its `reviewdog.proto`).
#[derive(Serialize)]
pub struct Rdjson {
    source: RdSource,
    diagnostics: Vec<Diagnostic>,
    /// Findings left out for want of a place (see the module documentation); not serialised.
    #[serde(skip)]
    pub unplaced: usize,
}

#[derive(Serialize)]
struct RdSource {
    name: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    url: Option<&'static str>,
}

#[derive(Serialize)]
struct Diagnostic {
    message: String,
    severity: &'static str,
    code: Code,
    source: RdSource,
    location: RdLocation,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    suggestions: Vec<RdSuggestion>,
}

#[derive(Serialize)]
struct Code {
    value: &'static str,
}

#[derive(Serialize)]
struct RdLocation {
    path: String,
    range: Range,
}

/// Lines `start..=end`: without columns, reviewdog takes a range line by line, the end line
/// included.
#[derive(Serialize)]
struct Range {
    start: Line,
    end: Line,
}

#[derive(Serialize)]
struct Line {
    line: u64,
    /// Only in a deletion's range: column 1 of the line after the last, so the line breaks go
    /// too (a range without columns leaves the last line's break, an empty line).
    #[serde(skip_serializing_if = "Option::is_none")]
    column: Option<u64>,
}

#[derive(Serialize)]
struct RdSuggestion {
    range: Range,
    text: String,
}

fn lines(start: u64, end: u64) -> Range {
    Range {
        start: Line {
            line: start,
            column: None,
        },
        end: Line {
            line: end,
            column: None,
        },
    }
}

/// A suggestion's range: its lines, or for a deletion, from the first line's start to the start
/// of the line after the last.
fn replaced(s: &crate::report::suggestion::Suggestion) -> Range {
    if !s.text.is_empty() {
        return lines(s.start, s.end);
    }
    Range {
        start: Line {
            line: s.start,
            column: Some(1),
        },
        end: Line {
            line: s.end + 1,
            column: Some(1),
        },
    }
}

pub fn rdjson(r: &Report) -> Rdjson {
    let mut diagnostics = Vec::new();
    let mut unplaced = 0;
    for i in &r.unresolved {
        let Some((path, start, end)) = place(r, i) else {
            unplaced += 1;
            continue;
        };
        let suggestions = location(i)
            .zip(i.action.as_deref())
            .and_then(|((path, s, e), a)| crate::report::suggestion::suggestion(a, &path, s, e))
            .map(|s| RdSuggestion {
                range: replaced(&s),
                text: s.text,
            })
            .into_iter()
            .collect();
        diagnostics.push(Diagnostic {
            message: message(i),
            severity: match level(i) {
                "error" => "ERROR",
                "note" => "INFO",
                _ => "WARNING",
            },
            code: Code {
                value: i.severity.label(),
            },
            source: RdSource {
                name: "git-debate",
                url: None,
            },
            location: RdLocation {
                path,
                range: lines(start, end),
            },
            suggestions,
        });
    }
    Rdjson {
        source: RdSource {
            name: "git-debate",
            url: Some("https://github.com/git-debate/git-debate"),
        },
        diagnostics,
        unplaced,
    }
}

/// GitHub shows at most 10 annotations of each kind per step; the rest are counted.
const GITHUB_CAP: usize = 10;

/// `::error file=…,line=…,title=…::message` lines, most severe first.
pub fn github(r: &Report) -> String {
    // Cleaned first: no escape sequence reaches the log, and no newline in a title reaches the
    // command line (the escaping below then makes what is left inert as data).
    let r = &r.for_display();
    let mut items: Vec<&Item> = r.unresolved.iter().collect();
    items.sort_by_key(|i| match level(i) {
        "error" => 0,
        "warning" => 1,
        _ => 2,
    });
    let mut out = String::new();
    if !r.evaluated {
        out.push_str(&format!(
            "::error title=git debate: not evaluated::{}\n",
            escape_data(&format!(
                "The review was not evaluated (exit 3): {}",
                r.error.as_deref().unwrap_or("the reviewer never answered")
            ))
        ));
    }
    if let Some(line) = r.coverage.as_ref().and_then(|c| c.not_evaluated_line()) {
        out.push_str(&format!(
            "::error title=git debate: not evaluated::{}\n",
            escape_data(&line)
        ));
    }
    let mut shown = std::collections::BTreeMap::<&str, usize>::new();
    let mut hidden = 0;
    for i in items {
        let kind = match level(i) {
            "note" => "notice",
            l => l,
        };
        let n = shown.entry(kind).or_default();
        if *n >= GITHUB_CAP {
            hidden += 1;
            continue;
        }
        *n += 1;
        let mut props = Vec::new();
        if let Some((path, start, end)) = location(i) {
            props.push(format!("file={}", escape_property(&path)));
            props.push(format!("line={start}"));
            props.push(format!("endLine={end}"));
        }
        props.push(format!(
            "title={}",
            escape_property(&format!(
                "git debate {} [{}] {}",
                i.severity_text(),
                i.id,
                i.title
            ))
        ));
        out.push_str(&format!(
            "::{kind} {}::{}\n",
            props.join(","),
            escape_data(&message(i))
        ));
    }
    if hidden > 0 {
        out.push_str(&format!(
            "::notice title=git debate::{hidden} more finding(s) in the job summary\n"
        ));
    }
    for n in &r.notes {
        out.push_str(&format!(
            "::notice title=git debate: note::{}\n",
            escape_data(n)
        ));
    }
    for n in &r.waiver_notes {
        out.push_str(&format!(
            "::notice title=git debate: waivers::{}\n",
            escape_data(n)
        ));
    }
    if let Some(v) = &r.reviewers {
        out.push_str(&format!(
            "::notice title=git debate: reviewers::{}\n",
            escape_data(&crate::report::votes::line(v))
        ));
    }
    out.push_str(&format!(
        "git debate: {} — {} unresolved finding(s), {} waived; session {}\n",
        r.final_decision,
        r.unresolved.len(),
        r.waived.len(),
        r.session
    ));
    out
}

/// Workflow-command message escaping.
fn escape_data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Workflow-command property escaping.
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    use serde_json::{json, Value};

    /// The fields of reviewdog.proto's messages (`DiagnosticResult` and what it holds), by the
    /// key that leads to them.
    const RDJSON_FIELDS: &[(&str, &[&str])] = &[
        ("", &["diagnostics", "source", "severity"]),
        (
            "diagnostics",
            &[
                "message",
                "location",
                "severity",
                "source",
                "code",
                "suggestions",
                "original_output",
            ],
        ),
        ("location", &["path", "range"]),
        ("range", &["start", "end"]),
        ("start", &["line", "column"]),
        ("end", &["line", "column"]),
        ("source", &["name", "url"]),
        ("code", &["value", "url"]),
        ("suggestions", &["range", "text"]),
    ];

    fn only_proto_fields(key: &str, v: &Value) {
        match v {
            Value::Array(items) => items.iter().for_each(|i| only_proto_fields(key, i)),
            Value::Object(o) => {
                let known = RDJSON_FIELDS
                    .iter()
                    .find(|(k, _)| *k == key)
                    .unwrap_or_else(|| panic!("no message under {key}"))
                    .1;
                for (k, child) in o {
                    assert!(
                        known.contains(&k.as_str()),
                        "{k} is not a field under {key:?}"
                    );
                    only_proto_fields(k, child);
                }
            }
            _ => {}
        }
    }

    #[test]
    fn rdjson_has_reviewdogs_fields_and_a_location_for_every_diagnostic() {
        let r = crate::report::sample::report(
            json!([
                {"severity": "P1", "title": "wrong sum",
                 "location": {"path": "a.rs", "start_line": 2, "end_line": 3, "check": "verified"},
                 "action": "```diff\n@@ -2,2 +2,2 @@\n-    a - b\n+    a + b\n }\n```"},
                {"severity": "P3", "title": "dead line",
                 "location": {"path": "a.rs", "start_line": 5, "check": "verified"},
                 "action": "@@ -5,1 +5,0 @@\n-let unused = 1;"},
                {"severity": "P2", "title": "no tests"},
            ]),
            Some("a.rs"),
        );
        let rd = rdjson(&r);
        assert_eq!(rd.unplaced, 0);
        let v = serde_json::to_value(&rd).unwrap();
        only_proto_fields("", &v);
        let d = v["diagnostics"].as_array().unwrap();
        assert_eq!(d.len(), 3);
        for x in d {
            assert!(x["location"]["path"].is_string(), "{x}");
            assert!(x["location"]["range"]["start"]["line"].as_u64().unwrap() >= 1);
        }
        // Lines 2-3, end line included (no columns: linewise).
        assert_eq!(
            d[0]["location"]["range"],
            json!({"start": {"line": 2}, "end": {"line": 3}})
        );
        assert_eq!(
            d[0]["suggestions"],
            json!([{"range": {"start": {"line": 2}, "end": {"line": 2}}, "text": "    a + b"}])
        );
        // A deletion takes the line breaks with it.
        assert_eq!(
            d[1]["suggestions"][0]["range"],
            json!({"start": {"line": 5, "column": 1}, "end": {"line": 6, "column": 1}})
        );
        assert_eq!(d[1]["suggestions"][0]["text"], "");
        // A file-level finding of a one-file review: the file, line 1, and no suggestion.
        assert_eq!(d[2]["location"]["path"], "a.rs");
        assert_eq!(d[2]["location"]["range"]["start"]["line"], 1);
        assert!(d[2].get("suggestions").is_none());
        // Without the one file, it has no place: left out and counted.
        let mut many = r.clone();
        many.single_file = None;
        let rd = rdjson(&many);
        assert_eq!((rd.diagnostics.len(), rd.unplaced), (2, 1));
    }

    #[test]
    fn workflow_command_escaping() {
        assert_eq!(escape_data("50% done\nnext"), "50%25 done%0Anext");
        assert_eq!(escape_property("a:b,c"), "a%3Ab%2Cc");
    }
}
