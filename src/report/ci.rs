//! Report formats for code hosts and CI: SARIF 2.1.0 (GitHub code scanning and most hosts),
//! reviewdog's rdjson (reviewdog posts it anywhere), and GitHub workflow-command annotations plus
//! a job summary.
//!
//! Each lists the *unresolved* findings of the review (the ones that stand in its last round),
//! with a physical location when the finding cites `path:line`. Severity maps to levels the same
//! way everywhere: P0/P1 error, P2 and unclassified warning, P3 note.

use serde_json::{json, Value};

use super::{Item, Report};

/// Where a finding points: a path and a line range, from `path:12` or `path:12-20`.
fn location(i: &Item) -> Option<(String, u64, u64)> {
    let loc = crate::protocol::findings::location_in(i.evidence.as_deref()?)?;
    let (path, lines) = loc.rsplit_once(':')?;
    let mut range = lines.split('-').filter_map(|n| n.parse::<u64>().ok());
    let start = range.next()?.max(1);
    let end = range.next().unwrap_or(start).max(start);
    Some((path.to_string(), start, end))
}

fn level(i: &Item) -> &'static str {
    match i.severity {
        "P0" | "P1" => "error",
        "P3" => "note",
        _ => "warning",
    }
}

/// One line of text for a finding: title, why, and what to do.
fn message(i: &Item) -> String {
    let mut m = format!("[{}] {}", i.id, i.title);
    if !i.body.is_empty() {
        m.push_str(&format!(": {}", i.body));
    }
    if let Some(a) = &i.action {
        m.push_str(&format!(" Suggested: {a}"));
    }
    m
}

pub fn sarif(r: &Report) -> Value {
    let rules: Vec<Value> = [
        ("P0", "Critical: exploitable or destroys data"),
        ("P1", "Must fix: correctness, security or reliability"),
        (
            "P2",
            "Should fix: maintainability, performance or compatibility",
        ),
        ("P3", "Nice to have"),
        ("unclassified", "A critique the reviewer did not classify"),
    ]
    .iter()
    .map(|(id, text)| json!({"id": id, "shortDescription": {"text": text}}))
    .collect();
    let results: Vec<Value> = r
        .unresolved
        .iter()
        .map(|i| {
            let mut res = json!({
                "ruleId": i.severity,
                "level": level(i),
                "message": {"text": message(i)},
                "partialFingerprints": {"gitDebateFinding": i.id},
                "properties": {"judged": i.judged, "round": i.round},
            });
            if let Some((path, start, end)) = location(i) {
                res["locations"] = json!([{"physicalLocation": {
                    "artifactLocation": {"uri": path},
                    "region": {"startLine": start, "endLine": end},
                }}]);
            }
            res
        })
        .collect();
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
            "automationDetails": {"id": format!("git-debate/{}", r.session)},
            "results": results,
            "properties": {
                "status": r.status, "finalDecision": r.final_decision,
                "reviewer": r.reviewer, "author": r.author,
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
    let mut items: Vec<&Item> = r.unresolved.iter().collect();
    items.sort_by_key(|i| match level(i) {
        "error" => 0,
        "warning" => 1,
        _ => 2,
    });
    let mut out = String::new();
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
            escape_property(&format!("git debate {} [{}] {}", i.severity, i.id, i.title))
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
