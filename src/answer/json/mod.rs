//! JSON (and YAML, and XML-shaped tags) in an answer: the protocol's own object, and the shapes other reviewers use (`issues`,
//! `comments`, codex's `findings` with `priority` and `code_location`, rdjson `diagnostics`, a
//! bare array, lists keyed by severity), with the keys of [`vocab`] as data.
//!
//! An answer may hold several JSON values: the template's example echoed back, a JSON fix the
//! reviewer suggests, and the review itself. The review is the one that validates against the
//! protocol's schema and is not an echo; failing that, the last one shaped like a review.

mod items;
mod lenient;
mod shape;
mod xml;

pub use items::finding;
use items::*;
use lenient::{json_lines, parse_complete, parse_lenient};

use serde_json::{Map, Value};

use crate::answer::location::{self, Roots};

use crate::answer::markers;

use crate::answer::schema::{self, Protocol};

use crate::answer::unit::clean;

use crate::answer::vocab::{self, Stance, Strength};

use crate::findings::{Finding, Location, Severity};

/// Every JSON value in fenced blocks (```json, ```jsonc or unlabelled, an object literal in a
/// ```js fence, and ```yaml as pr-agent writes it), then the whole text, then objects that
/// start a line of prose.
pub fn json_blocks(text: &str) -> Vec<Value> {
    let mut out = Vec::new();
    for (_, code) in crate::markdown::Doc::parse_mixed(text).fenced() {
        let lang = code.lang();
        let block = &code.body;
        // (A JavaScript fence that holds nothing but an object literal is the JSON a small
        // model was asked for, with its comments and unquoted keys.)
        let literal = matches!(lang.as_str(), "js" | "javascript" | "ts" | "typescript")
            && block.trim_start().starts_with(['{', '[']);
        if lang.is_empty() || lang.starts_with("json") || literal {
            out.extend(parse_lenient(block));
        } else if lang == "yaml" || lang == "yml" {
            out.extend(
                serde_yaml_ng::from_str::<Value>(block)
                    .ok()
                    .filter(|v| v.is_object() || v.is_array()),
            );
        } else if lang == "xml" {
            out.extend(xml::value(block));
        }
        // A plain-text fence that holds tagged findings (cubic's agent prompt: `<file>` and
        // `<violation location="path:64">` elements between instructions).
        if matches!(lang.as_str(), "" | "text" | "txt" | "plaintext") && block.contains("</") {
            out.extend(xml::value_within(block));
        }
    }
    // The same tagged findings written straight into the answer, with no fence around them
    // (`<violation location="…">`, `<finding file="…" line="…">`).
    let tagged = ["</violation>", "</finding>", "</issue>", "</problem>"]
        .iter()
        .any(|t| text.contains(t));
    if out.is_empty() && tagged {
        out.extend(xml::value_within(text));
    }
    // Machine-readable findings hidden in a comment (`<!-- code-review-findings {…} -->`).
    let mut rest = text;
    while let Some(start) = rest.find("<!--") {
        let after = &rest[start + 4..];
        let Some(end) = after.find("-->") else { break };
        let inner = &after[..end];
        if let Some(brace) = inner.find('{') {
            let mut s = serde_json::Deserializer::from_str(&inner[brace..]).into_iter::<Value>();
            if let Some(Ok(v)) = s.next() {
                out.push(v);
            }
        }
        rest = &after[end + 3..];
    }
    let whole = text.trim();
    let before = out.len();
    if let Some(lines) = json_lines(whole) {
        // Each line on its own too (a review line next to an echoed template line), and all
        // of them as one list (a finding per line).
        if let Value::Array(items) = &lines {
            out.extend(items.iter().cloned());
        }
        out.push(lines);
    } else if whole.starts_with('{') || whole.starts_with('[') {
        out.extend(parse_lenient(whole));
    } else if whole.starts_with('<') {
        out.extend(xml::value(whole));
    }
    let whole_json = out.len() > before && !whole.starts_with('<');
    if before == 0 && !whole_json {
        // An object opening a line, with prose around it (each one once: lines inside an
        // object already read are skipped).
        let mut at = 0;
        let mut read_to = 0;
        for line in text.split_inclusive('\n') {
            let start = at + (line.len() - line.trim_start().len());
            if start >= read_to && line.trim_start().starts_with('{') {
                let mut s = serde_json::Deserializer::from_str(&text[start..]).into_iter::<Value>();
                if let Some(Ok(v)) = s.next() {
                    out.push(v);
                    read_to = start + s.byte_offset();
                } else if let Some((v, end)) = literal_from(&text[start..]) {
                    out.push(v);
                    read_to = start + end;
                }
            }
            at += line.len();
        }
    }
    out
}

/// How many line ends after an object's first line are tried as its end.
const LITERAL_ENDS: usize = 40;

/// An object literal opening `text` that strict JSON cannot read (`{verdict: "revise", …}`,
/// unfenced, prose after it): the shortest run of whole lines that ends in a closing brace and
/// reads as JSON5, with the length it took.
fn literal_from(text: &str) -> Option<(Value, usize)> {
    let mut end = 0;
    for line in text.split_inclusive('\n').take(LITERAL_ENDS) {
        end += line.len();
        if line.trim_end().ends_with(['}', ']']) {
            if let Some(v) = parse_complete(&text[..end]).filter(Value::is_object) {
                return Some((v, end));
            }
        }
    }
    None
}

/// A review read from JSON.
#[derive(Debug, Clone, Default)]
pub struct JsonReview {
    pub findings: Vec<Finding>,
    pub stance: Option<Stance>,
    pub verdict: Option<String>,
    pub summary: Option<String>,
    pub missing_alternatives: Vec<String>,
    pub recommendation: Option<String>,
    /// It validates against the protocol's schema.
    pub conforms: bool,
}

/// The review among the JSON values of an answer, if one is.
pub fn best_review(values: &[Value], protocol: Protocol, roots: &Roots) -> Option<JsonReview> {
    let mut candidates: Vec<(u8, usize, JsonReview)> = values
        .iter()
        .enumerate()
        .filter(|(_, v)| !is_echo(v))
        .filter_map(|(i, v)| {
            let r = review(v, protocol, roots)?;
            let rank = if r.conforms {
                3
            } else if !r.findings.is_empty() {
                2
            } else {
                1
            };
            Some((rank, i, r))
        })
        .collect();
    candidates.sort_by_key(|(rank, i, _)| (*rank, *i));
    candidates.pop().map(|(_, _, r)| r)
}

/// The template's own example sent back: placeholder titles, or `a|b|c` enums as values.
fn is_echo(v: &Value) -> bool {
    fn placeholder(s: &str) -> bool {
        let t = s.trim();
        (!t.is_empty() && t.chars().all(|c| c == '.' || c == '…'))
            || (t.split('|').count() >= 3 && !t.contains(' '))
    }
    fn walk(v: &Value) -> bool {
        match v {
            Value::String(s) => placeholder(s),
            Value::Array(a) => a.iter().any(walk),
            Value::Object(o) => o.values().any(walk),
            _ => false,
        }
    }
    walk(v)
}

/// Reads `v` as a review: the protocol's object, or any object or array that carries a list
/// of findings or an overall verdict.
pub fn review(v: &Value, protocol: Protocol, roots: &Roots) -> Option<JsonReview> {
    let conforms = schema::validate(v, protocol.schema()).is_ok();
    let items = finding_list(v)?;
    let obj = v.as_object();
    let verdict = obj
        .and_then(|o| get_ci(o, vocab::JSON_VERDICT_KEYS))
        .and_then(|(_, v)| v.as_str().map(str::to_string));
    let stance = verdict.as_deref().and_then(vocab::stance_of).or_else(|| {
        obj.and_then(|o| get_ci(o, &["approved", "approve", "lgtm"]))
            .and_then(|(_, v)| v.as_bool())
            .map(|b| if b { Stance::Approve } else { Stance::Object })
    });
    let findings: Vec<Finding> = items
        .iter()
        .filter_map(|(item, inh)| {
            let mut f = finding(item, inh.severity, roots)?;
            if let Some(file) = &inh.file {
                match &mut f.location {
                    Some(l) if l.path.is_empty() => l.path.clone_from(file),
                    Some(_) => {}
                    None => f.location = Some(Location::new(file, None, None)),
                }
                if let Some(l) = &mut f.location {
                    let (p, outside) = roots.relative(&l.path);
                    l.path = p;
                    l.outside = outside;
                }
            }
            Some(f)
        })
        .collect();
    // (A `status: completed` beside no list says nothing about the change.)
    let is_review = !items.is_empty() || stance.is_some() || has_list_key(v);
    // A list of which no item reads as a finding, and no verdict that says yes or no (a
    // provider's response body, `status: completed`, with the review nested inside a string):
    // not known to be a review, so not known to raise nothing.
    let unread = !items.is_empty() && findings.is_empty() && stance.is_none();
    if !is_review || unread {
        return None;
    }
    let strings = |key: &str| -> Vec<String> {
        obj.and_then(|o| o.get(key))
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .filter(|s| !vocab::is_placeholder(s))
                    .collect()
            })
            .unwrap_or_default()
    };
    Some(JsonReview {
        findings,
        stance,
        verdict,
        summary: obj
            .and_then(|o| get_ci(o, &["summary", "overall_explanation"]))
            .and_then(|(_, v)| text_of(v)),
        missing_alternatives: strings("missing_alternatives"),
        recommendation: obj
            .and_then(|o| o.get("recommendation"))
            .and_then(Value::as_str)
            .map(str::to_string),
        conforms,
    })
}

fn has_list_key(v: &Value) -> bool {
    v.as_object()
        .is_some_and(|o| get_ci(o, vocab::JSON_LIST_KEYS).is_some_and(|(_, x)| x.is_array()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tagged_findings_in_a_text_fence_after_instructions() {
        let text = "Prompt for agents:\n\n```text\nFix each issue below.\n\n<file name=\"a/b.go\">\n\
                    <violation number=\"1\" location=\"a/b.go:64\">\nP1: The total is divided by \
                    the wrong period length.</violation>\n</file>\n<file name=\"a/c.go\">\n<violation \
                    number=\"1\" location=\"a/c.go:9\">\nP3: An exported helper nobody else \
                    uses.</violation>\n<violation number=\"2\" location=\"a/c.go:30\">\nP2: The \
                    reply is sent before the write.</violation>\n</file>\n```\n";
        let r = best_review(&json_blocks(text), Protocol::Cr, &Roots::default()).unwrap();
        let got: Vec<(Severity, String)> = r
            .findings
            .iter()
            .map(|f| (f.severity, f.location.as_ref().unwrap().display()))
            .collect();
        assert_eq!(
            got,
            [
                (Severity::P1, "a/b.go:64".to_string()),
                (Severity::P3, "a/c.go:9".to_string()),
                (Severity::P2, "a/c.go:30".to_string())
            ]
        );
    }

    fn read(v: Value) -> JsonReview {
        review(&v, Protocol::Cr, &Roots::default()).unwrap()
    }

    #[test]
    fn shapes_other_reviewers_use() {
        let codex = read(
            json!({"findings": [{"title": "[P1] Guard the index", "body": "b",
            "priority": 1, "confidence_score": 0.7, "code_location": {"absolute_file_path": "/x/src/a.rs",
            "line_range": {"start": 10, "end": 12}}}], "overall_correctness": "patch is incorrect"}),
        );
        assert_eq!(codex.findings[0].severity, Severity::P1);
        assert_eq!(codex.findings[0].title, "Guard the index");
        assert_eq!(
            codex.findings[0].location.as_ref().unwrap().start_line,
            Some(10)
        );
        assert_eq!(codex.stance, Some(Stance::Object));
        let issues = read(
            json!({"issues": [{"severity": "high", "file": "a.py", "line": "7-9",
            "message": "unchecked"}, {"level": "note", "path": "b.py", "description": "typo"}]}),
        );
        let sev: Vec<_> = issues.findings.iter().map(|f| f.severity).collect();
        assert_eq!(sev, [Severity::P1, Severity::P3]);
        assert_eq!(
            issues.findings[0].location.as_ref().unwrap().end_line,
            Some(9)
        );
        let keyed = read(json!({"critical": [{"title": "x"}], "warnings": ["y at src/b.rs:3"]}));
        assert_eq!(keyed.findings.len(), 2);
        assert_eq!(keyed.findings[1].severity, Severity::P2);
        let bare = review(
            &json!([{"title": "t", "severity": 3}]),
            Protocol::Cr,
            &Roots::default(),
        );
        assert_eq!(bare.unwrap().findings[0].severity, Severity::P3);
        // Not a review: a config snippet the reviewer suggested.
        assert!(review(
            &json!({"dependencies": {"x": "1"}}),
            Protocol::Cr,
            &Roots::default()
        )
        .is_none());
    }

    #[test]
    fn the_echo_is_skipped_and_lenient_json_read() {
        let text = "```json\n{\"verdict\": \"approve|revise|reject\", \"findings\": [{\"severity\": \"P0|P1|P2|P3\", \"title\": \"...\"}]}\n```\nThen:\n```json\n{\"verdict\": \"revise\", \"findings\": [{\"severity\": \"P2\", \"title\": \"real\",},],}\n```";
        let values = json_blocks(text);
        assert_eq!(values.len(), 2);
        let r = best_review(&values, Protocol::Cr, &Roots::default()).unwrap();
        assert_eq!(r.findings[0].title, "real");
        // JSONC: a comma before a comment and the closing bracket is trailing too.
        let jsonc = "```jsonc\n{\n  // overall\n  \"issues\": [\n    {\"title\": \"a\", \"severity\": \"nit\"}, // x\n    // b.py: fine\n  ],\n}\n```";
        let values = json_blocks(jsonc);
        assert_eq!(values.len(), 1, "{jsonc}");
        assert_eq!(values[0]["issues"][0]["severity"], "nit", "{jsonc}");
        // JSON Lines: each line is also a value of its own (a review line beside an echo).
        let lines = "{\"findings\": [{\"severity\": \"P1\", \"title\": \"real\"}], \"verdict\": \
\"revise\"}\n{\"verdict\": \"approve|revise|reject\", \"findings\": [{\"severity\": \
\"P0|P1|P2|P3\", \"title\": \"...\"}]}\n";
        let r = best_review(&json_blocks(lines), Protocol::Cr, &Roots::default()).unwrap();
        assert_eq!(r.findings[0].title, "real");
        assert_eq!(r.verdict.as_deref(), Some("revise"));
    }
}
