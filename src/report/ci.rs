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
//! Findings without a usable location: GitHub rejects SARIF results without one, so SARIF
//! attaches them to the reviewed file (line 1) when the review was of one file, and otherwise
//! lists them as the run's tool notifications (and the markdown job summary lists every
//! finding); rdjson keeps them without a location (reviewdog's diff filters drop such
//! diagnostics unless run with `-filter-mode=nofilter`); GitHub annotations show them without
//! a file.

use serde_json::{json, Value};

use crate::report::{Item, Report};

/// A position a code host may be given: a path in the repository and a line range.
fn location(i: &Item) -> Option<(String, u64, u64)> {
    let l = i.location.as_ref().filter(|l| l.is_positional())?;
    let start = u64::from(l.start_line.unwrap_or(1));
    let end = u64::from(l.end_line.unwrap_or(l.start_line.unwrap_or(1))).max(start);
    Some((l.path.clone(), start, end))
}

fn level(i: &Item) -> &'static str {
    match i.severity.label() {
        "P0" | "P1" | "unclassified" => "error",
        "P3" => "note",
        _ => "warning",
    }
}

/// One line of text for a finding: title, where the reviewer said, why, and what to do.
fn message(i: &Item) -> String {
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
    m
}

/// A fingerprint that survives re-runs and moved lines: the file, the normalised title and
/// the code around the location (never the per-session `F1`).
fn fingerprint(i: &Item) -> String {
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

pub fn sarif(r: &Report) -> Value {
    let rules: Vec<Value> = RULES
        .iter()
        .map(|(id, short, full)| {
            json!({
                "id": id,
                "name": format!("GitDebate{}", if *id == "unclassified" { "Unclassified" } else { id }),
                "shortDescription": {"text": short},
                "fullDescription": {"text": full},
                "help": {"text": full},
                "defaultConfiguration": {"level": match *id {
                    "P0" | "P1" | "unclassified" => "error", "P3" => "note", _ => "warning" }},
            })
        })
        .collect();
    let mut results = Vec::new();
    let mut notifications = Vec::new();
    for i in &r.unresolved {
        let rule_index = RULES
            .iter()
            .position(|(id, _, _)| *id == i.severity.label())
            .unwrap_or(4);
        let place = location(i).or_else(|| r.single_file.as_ref().map(|f| (f.clone(), 1, 1)));
        let Some((path, start, end)) = place else {
            notifications.push(json!({
                "level": level(i),
                "message": {"text": message(i)},
                "descriptor": {"id": i.severity},
            }));
            continue;
        };
        results.push(json!({
            "ruleId": i.severity,
            "ruleIndex": rule_index,
            "level": level(i),
            "message": {"text": message(i)},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": path, "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": start, "endLine": end},
            }}],
            "partialFingerprints": {"gitDebateFinding/v1": fingerprint(i)},
            "properties": {
                "judged": i.judged, "round": i.round, "finding": i.id,
                "source": i.source,
                "location": i.location.as_ref().and_then(|l| l.check),
            },
        }));
    }
    if !r.evaluated {
        notifications.push(json!({
            "level": "error",
            "message": {"text": format!(
                "The review was not evaluated: {}",
                r.error.as_deref().unwrap_or("the reviewer never answered")
            )},
        }));
    }
    let partial = r.coverage.as_ref().and_then(|c| c.not_evaluated_line());
    if let Some(line) = &partial {
        notifications.push(json!({"level": "error", "message": {"text": line}}));
    }
    let mut invocation = json!({"executionSuccessful": r.evaluated && partial.is_none()});
    if !notifications.is_empty() {
        invocation["toolExecutionNotifications"] = Value::Array(notifications);
    }
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "git-debate",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://github.com/git-debate/git-debate",
                "rules": rules,
            }},
            "invocations": [invocation],
            "automationDetails": {"id": format!("git-debate/{}", r.session)},
            "results": results,
            "properties": {
                "status": r.status, "finalDecision": r.final_decision,
                "reviewer": r.reviewer, "author": r.author, "evaluated": r.evaluated,
            },
        }],
    })
}

pub fn rdjson(r: &Report) -> Value {
    let diagnostics: Vec<Value> = r
        .unresolved
        .iter()
        .map(|i| {
            let mut d = json!({
                "message": message(i),
                "severity": match level(i) { "error" => "ERROR", "note" => "INFO", _ => "WARNING" },
                "code": {"value": i.severity},
                "source": {"name": "git-debate"},
            });
            if let Some((path, start, end)) = location(i) {
                d["location"] = json!({"path": path, "range": {
                    "start": {"line": start}, "end": {"line": end},
                }});
            }
            d
        })
        .collect();
    json!({
        "source": {"name": "git-debate", "url": "https://github.com/git-debate/git-debate"},
        "diagnostics": diagnostics,
    })
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
    out.push_str(&format!(
        "git debate: {} — {} unresolved finding(s); session {}\n",
        r.final_decision,
        r.unresolved.len(),
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

    #[test]
    fn workflow_command_escaping() {
        assert_eq!(escape_data("50% done\nnext"), "50%25 done%0Anext");
        assert_eq!(escape_property("a:b,c"), "a%3Ab%2Cc");
    }
}
