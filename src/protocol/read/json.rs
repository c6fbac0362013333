//! JSON (and YAML) in an answer: the protocol's own object, and the shapes other reviewers use (`issues`,
//! `comments`, codex's `findings` with `priority` and `code_location`, rdjson `diagnostics`, a
//! bare array, lists keyed by severity), with the keys of [`vocab`] as data.
//!
//! An answer may hold several JSON values: the template's example echoed back, a JSON fix the
//! reviewer suggests, and the review itself. The review is the one that validates against the
//! protocol's schema and is not an echo; failing that, the last one shaped like a review.

use serde_json::{Map, Value};

use super::location::{self, Roots};
use super::markers;
use super::schema::{self, Protocol};
use super::unit::clean;
use super::vocab::{self, Stance, Strength};
use crate::protocol::findings::{Finding, Location, Severity};

/// Every JSON value in fenced blocks (```json, ```jsonc or unlabelled, and ```yaml as pr-agent
/// writes it), then the whole text, then objects that start a line of prose.
pub fn json_blocks(text: &str) -> Vec<Value> {
    let mut out = Vec::new();
    let mut fence: Option<(String, Lang)> = None;
    let mut block = String::new();
    for line in text.lines() {
        let t = line.trim_start();
        if let Some((marker, lang)) = &fence {
            if t.starts_with(marker.as_str()) && t.trim_start_matches('`').trim().is_empty() {
                match lang {
                    Lang::Json => out.extend(parse_lenient(&block)),
                    Lang::Yaml => out.extend(
                        serde_yaml_ng::from_str::<Value>(&block)
                            .ok()
                            .filter(|v| v.is_object() || v.is_array()),
                    ),
                    Lang::Other => {}
                }
                block.clear();
                fence = None;
            } else if *lang != Lang::Other {
                block.push_str(line);
                block.push('\n');
            }
            continue;
        }
        if t.starts_with("```") {
            let n = t.chars().take_while(|c| *c == '`').count();
            let lang = t[n..].trim().to_ascii_lowercase();
            let lang = if lang.is_empty() || lang.starts_with("json") {
                Lang::Json
            } else if lang == "yaml" || lang == "yml" {
                Lang::Yaml
            } else {
                Lang::Other
            };
            fence = Some(("`".repeat(n), lang));
        }
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
    if whole.starts_with('{') || whole.starts_with('[') {
        out.extend(parse_lenient(whole));
    } else if out.is_empty() {
        // An object opening a line, with prose around it.
        let mut at = 0;
        for line in text.split_inclusive('\n') {
            if line.trim_start().starts_with('{') {
                let start = at + (line.len() - line.trim_start().len());
                let mut s = serde_json::Deserializer::from_str(&text[start..]).into_iter::<Value>();
                if let Some(Ok(v)) = s.next() {
                    out.push(v);
                }
            }
            at += line.len();
        }
    }
    out
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lang {
    Json,
    Yaml,
    Other,
}

/// JSON as models write it: strict first, then without trailing commas and `//` comments.
fn parse_lenient(s: &str) -> Option<Value> {
    if let Ok(v) = serde_json::from_str(s) {
        return Some(v);
    }
    let mut cleaned = String::with_capacity(s.len());
    let mut in_str = false;
    let mut escaped = false;
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if in_str {
            cleaned.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_str = false;
            }
        } else if c == '"' {
            in_str = true;
            cleaned.push(c);
        } else if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
            continue;
        } else if c == ',' {
            let next = chars[i + 1..].iter().find(|c| !c.is_whitespace());
            if !matches!(next, Some('}') | Some(']')) {
                cleaned.push(c);
            }
        } else {
            cleaned.push(c);
        }
        i += 1;
    }
    serde_json::from_str(&cleaned).ok()
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

fn get_ci<'a>(o: &'a Map<String, Value>, keys: &[&str]) -> Option<(&'static str, &'a Value)> {
    for k in keys {
        for (key, v) in o {
            let norm = key.to_ascii_lowercase().replace(['-', ' '], "_");
            if norm == *k || norm.replace('_', "") == k.replace('_', "") {
                // The static key name, so callers can tell which key matched.
                let name: &'static str = vocab_key(k);
                return Some((name, v));
            }
        }
    }
    None
}

fn vocab_key(k: &str) -> &'static str {
    for list in [
        vocab::JSON_TITLE_KEYS,
        vocab::JSON_BODY_KEYS,
        vocab::JSON_ACTION_KEYS,
        vocab::JSON_FILE_KEYS,
        vocab::JSON_LOCATION_KEYS,
        vocab::JSON_LINE_KEYS,
        vocab::JSON_END_KEYS,
        vocab::JSON_LIST_KEYS,
        vocab::JSON_VERDICT_KEYS,
        vocab::JSON_SEVERITY_KEYS,
        vocab::JSON_CATEGORY_KEYS,
    ] {
        if let Some(x) = list.iter().find(|x| **x == k) {
            return x;
        }
    }
    ""
}

fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        Value::Array(a) => {
            let parts: Vec<String> = a.iter().filter_map(text_of).collect();
            (!parts.is_empty()).then(|| parts.join("\n"))
        }
        Value::Object(o) => get_ci(o, &["code", "content", "text", "body", "description"])
            .and_then(|(_, v)| text_of(v)),
        _ => None,
    }
}

/// Reads `v` as a review: the protocol's object, or any object or array that carries a list
/// of findings or an overall verdict.
pub fn review(v: &Value, protocol: Protocol, roots: &Roots) -> Option<JsonReview> {
    let conforms = schema::validate(v, protocol.schema()).is_ok();
    let (items, default_sev) = finding_list(v, 0)?;
    let obj = v.as_object();
    let verdict = obj
        .and_then(|o| get_ci(o, vocab::JSON_VERDICT_KEYS))
        .and_then(|(_, v)| v.as_str().map(str::to_string));
    let stance = verdict.as_deref().and_then(stance_of).or_else(|| {
        obj.and_then(|o| get_ci(o, &["approved", "lgtm"]))
            .and_then(|(_, v)| v.as_bool())
            .map(|b| if b { Stance::Approve } else { Stance::Object })
    });
    let findings: Vec<Finding> = items
        .iter()
        .filter_map(|(item, inh)| {
            let mut f = finding(item, inh.severity.or(default_sev), roots)?;
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
    let is_review = !items.is_empty() || verdict.is_some() || has_list_key(v);
    if !is_review {
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

fn stance_of(s: &str) -> Option<Stance> {
    let n = vocab::normalise(s);
    vocab::VERDICT_WORDS
        .iter()
        .find(|(w, _)| vocab::normalise(w) == n)
        .map(|(_, st)| *st)
}

/// A finding item and what it inherits from where it sits: a severity (lists keyed by
/// severity) and a file (`{"files": [{"path": …, "issues": [...]}]}`).
#[derive(Clone)]
struct Inherited {
    severity: Option<(Severity, Strength)>,
    file: Option<String>,
}

type Items<'a> = Vec<(&'a Value, Inherited)>;

/// The finding items of a value: a list under a known key, lists keyed by severity, a bare
/// array of finding-like objects, files that each carry their own list, or the same a few
/// levels down (`{"review": {...}}`, SARIF's `runs[].results`).
fn finding_list(v: &Value, depth: u8) -> Option<(Items<'_>, Option<(Severity, Strength)>)> {
    let none = Inherited {
        severity: None,
        file: None,
    };
    let mut items = Vec::new();
    collect(v, &none, depth, &mut items).then_some((items, None))
}

/// Adds the findings under `v` to `out`; `true` when `v` had the shape of a review list (even
/// an empty one).
fn collect<'a>(v: &'a Value, inh: &Inherited, depth: u8, out: &mut Items<'a>) -> bool {
    if depth > 5 {
        return false;
    }
    match v {
        Value::Array(a) => {
            let mut shaped = a.is_empty();
            for x in a {
                // A file with its own list of findings.
                if let Some(o) = x.as_object() {
                    if let Some((_, Value::Array(_))) = get_ci(o, vocab::JSON_LIST_KEYS) {
                        let mut inner = inh.clone();
                        if let Some((_, f)) = get_ci(o, vocab::JSON_FILE_KEYS) {
                            inner.file = f.as_str().map(str::to_string).or(inner.file);
                        }
                        shaped |= collect(x, &inner, depth + 1, out);
                        continue;
                    }
                }
                if finding_like(x) {
                    out.push((x, inh.clone()));
                    shaped = true;
                }
            }
            shaped
        }
        Value::Object(o) => {
            if let Some((key, Value::Array(a))) = get_ci(o, vocab::JSON_LIST_KEYS) {
                // Generic keys (`items`, `results`) must hold finding-like objects.
                let generic = matches!(key, "items" | "results" | "suggestions");
                if !generic || a.iter().any(located_or_rated) || a.is_empty() {
                    let before = out.len();
                    let shaped = collect(&o[key_of(o, key)], inh, depth + 1, out);
                    if shaped || out.len() > before || a.is_empty() {
                        return true;
                    }
                }
            }
            // {"critical": [...], "warnings": [...]}
            let mut keyed = false;
            for (k, x) in o {
                if let (Some(sev), Value::Array(_)) = (vocab::severity_of(k), x) {
                    let inner = Inherited {
                        severity: Some(sev),
                        ..inh.clone()
                    };
                    keyed |= collect(x, &inner, depth + 1, out);
                }
            }
            if keyed {
                return true;
            }
            // One level down: `{"review": {...}}`, `{"files": [...]}`, `{"runs": [...]}` — never
            // into praise or summaries, and into arrays only of objects.
            let candidates = o.iter().filter(|(k, x)| {
                let k = k.to_ascii_lowercase();
                let quiet = vocab::JSON_QUIET_KEYS.contains(&k.as_str()) && k != "files";
                !quiet
                    && (x.is_object()
                        || x.as_array().is_some_and(|a| a.iter().any(Value::is_object)))
            });
            for (_, x) in candidates {
                let before = out.len();
                if collect(x, inh, depth + 1, out) && out.len() > before {
                    return true;
                }
            }
            get_ci(o, vocab::JSON_VERDICT_KEYS).is_some()
        }
        _ => false,
    }
}

/// The key as it is spelled in `o` (lists are found case-insensitively).
fn key_of<'a>(o: &'a Map<String, Value>, normal: &str) -> &'a str {
    o.keys()
        .find(|k| {
            let n = k.to_ascii_lowercase().replace(['-', ' '], "_");
            n == normal || n.replace('_', "") == normal.replace('_', "")
        })
        .map_or("", String::as_str)
}

fn finding_like(v: &Value) -> bool {
    match v {
        Value::String(s) => !s.trim().is_empty() && !vocab::is_placeholder(s),
        Value::Object(o) => {
            get_ci(o, vocab::JSON_TITLE_KEYS).is_some_and(|(_, x)| text_of(x).is_some())
        }
        _ => false,
    }
}

fn located_or_rated(v: &Value) -> bool {
    v.as_object().is_some_and(|o| {
        get_ci(o, vocab::JSON_SEVERITY_KEYS).is_some()
            || get_ci(o, vocab::JSON_FILE_KEYS).is_some()
            || get_ci(o, vocab::JSON_LOCATION_KEYS).is_some()
    })
}

fn severity_value(v: &Value) -> Option<(Severity, Strength)> {
    match v {
        Value::Number(n) => match n.as_u64()? {
            0 => Some((Severity::P0, Strength::Level)),
            1 => Some((Severity::P1, Strength::Level)),
            2 => Some((Severity::P2, Strength::Level)),
            3 => Some((Severity::P3, Strength::Level)),
            _ => None,
        },
        Value::String(s) => vocab::severity_of(s),
        _ => None,
    }
}

/// A line value: `12`, `"12"`, `"12-14"`, `[12, 14]`, `{"start": 12, "end": 14}`.
fn lines_value(v: &Value) -> Option<(u32, Option<u32>)> {
    match v {
        Value::Number(n) => Some((u32::try_from(n.as_u64()?).ok()?, None)),
        Value::String(s) => {
            let s = s.trim().trim_start_matches(['L', 'l']);
            let mut parts = s
                .split(['-', '–', ':', ','])
                .map(|p| p.trim().trim_start_matches('L'));
            let start = parts.next()?.parse().ok()?;
            Some((start, parts.next().and_then(|e| e.parse().ok())))
        }
        Value::Array(a) => {
            let start = lines_value(a.first()?)?.0;
            Some((start, a.get(1).and_then(lines_value).map(|x| x.0)))
        }
        Value::Object(o) => {
            let start = get_ci(o, &["start", "start_line", "startline", "line", "begin"])
                .and_then(|(_, v)| lines_value(v))?
                .0;
            let end = get_ci(o, &["end", "end_line", "endline"]).and_then(|(_, v)| lines_value(v));
            Some((start, end.map(|e| e.0)))
        }
        _ => None,
    }
}

/// Where a JSON finding points: file and line keys, or a location object or string.
fn location_of(o: &Map<String, Value>, roots: &Roots) -> Option<Location> {
    let file = get_ci(o, vocab::JSON_FILE_KEYS)
        .and_then(|(_, v)| v.as_str().map(|s| s.trim().to_string()));
    // The first line key that holds a line (`"line": null` beside `"original_line": 57`).
    let lines = vocab::JSON_LINE_KEYS
        .iter()
        .find_map(|k| get_ci(o, &[k]).and_then(|(_, v)| lines_value(v)));
    let end = get_ci(o, vocab::JSON_END_KEYS)
        .and_then(|(_, v)| lines_value(v))
        .map(|e| e.0);
    // SonarQube: `component` is `projectKey:path/to/File.java`.
    let file = file.map(|f| match f.split_once(':') {
        Some((key, path))
            if key.len() > 1
                && !key.contains('/')
                && path.contains('/')
                && !path.starts_with("//") =>
        {
            path.to_string()
        }
        _ => f,
    });
    if let Some(f) = file.filter(|f| !f.trim().is_empty()) {
        // The file value may carry its own line (`"src/a.rs:12"`).
        let parsed = location::find_all(&format!("`{f}`"), roots)
            .into_iter()
            .next();
        let (path, outside) = roots.relative(&f);
        let mut loc = match parsed {
            Some(p) if p.start_line.is_some() => p,
            _ => {
                let mut l = Location::new(&path, None, None);
                l.outside = outside;
                l
            }
        };
        if let Some((s, e)) = lines {
            loc.start_line = Some(s).filter(|s| *s > 0);
            loc.end_line = end
                .or(e)
                .filter(|e| loc.start_line.is_some_and(|s| *e >= s));
        }
        return Some(loc);
    }
    // SARIF: {"physicalLocation": {"artifactLocation": {"uri"}, "region": {"startLine"}}}
    if let Some(art) = o.get("artifactLocation").and_then(Value::as_object) {
        let uri = art.get("uri").and_then(Value::as_str)?;
        let (path, outside) = roots.relative(uri);
        let region = o.get("region");
        let line = |k: &str| {
            region
                .and_then(|r| r.get(k))
                .and_then(Value::as_u64)
                .and_then(|n| u32::try_from(n).ok())
        };
        let mut l = Location::new(&path, line("startLine"), line("endLine"));
        l.outside = outside;
        return Some(l);
    }
    for (_, v) in o.iter().filter(|(k, _)| {
        let k = k.to_ascii_lowercase();
        vocab::JSON_LOCATION_KEYS
            .iter()
            .any(|x| x.to_ascii_lowercase() == k)
    }) {
        let v = match v {
            Value::Array(a) => match a.first() {
                Some(first) => first,
                None => continue,
            },
            v => v,
        };
        match v {
            Value::String(s) => {
                if let Some(l) = location::find_all(s, roots).into_iter().next() {
                    return Some(l);
                }
            }
            Value::Object(inner) => {
                if let Some(l) = location_of(inner, roots) {
                    return Some(l);
                }
                // SARIF-like: {"physicalLocation": {"artifactLocation": {"uri"}, "region": {...}}}
                for x in inner.values().filter_map(Value::as_object) {
                    if let Some(mut l) = location_of(x, roots) {
                        if l.start_line.is_none() {
                            if let Some((s, e)) = inner.get("region").and_then(|r| {
                                lines_value(&serde_json::json!({
                                    "start": r.get("startLine"), "end": r.get("endLine")
                                }))
                            }) {
                                l.start_line = Some(s);
                                l.end_line = e;
                            }
                        }
                        return Some(l);
                    }
                }
            }
            _ => {}
        }
    }
    // Lines without a file: the file may be inherited (a per-file list).
    lines.map(|(s, e)| Location::new("", Some(s), end.or(e)))
}

/// One JSON finding.
pub fn finding(v: &Value, default: Option<(Severity, Strength)>, roots: &Roots) -> Option<Finding> {
    let o = match v {
        Value::String(s) => {
            let lead = markers::read_lead(s);
            let mut f = Finding::new(
                lead.severity
                    .or(default)
                    .map_or(Severity::Unclassified, |s| s.0),
                &clean(&lead.title),
            );
            f.location = location::find_all(s, roots).into_iter().next();
            return (!f.title.is_empty()).then_some(f);
        }
        Value::Object(o) => o,
        _ => return None,
    };
    let (title_key, title_v) = get_ci(o, vocab::JSON_TITLE_KEYS)?;
    let raw_title = text_of(title_v)?;
    let first_line = raw_title.lines().next().unwrap_or("");
    let mut lead = markers::read_lead(first_line);
    if lead.severity.is_none() {
        // No marker to take out: the title is the reviewer's, label and all.
        lead.title = first_line.trim().to_string();
    }
    let sev = get_ci(o, vocab::JSON_SEVERITY_KEYS)
        .and_then(|(_, v)| severity_value(v))
        .or(lead.severity.filter(|s| s.1 == Strength::Level))
        .or(default)
        .or(get_ci(o, vocab::JSON_CATEGORY_KEYS)
            .and_then(|(_, v)| v.as_str())
            .and_then(vocab::severity_of))
        .or(lead.severity);
    let mut title = lead.title.clone();
    let mut body_parts: Vec<String> = Vec::new();
    if raw_title.lines().count() > 1 || title.chars().count() > 200 {
        body_parts.push(raw_title.clone());
        title = title.chars().take(120).collect();
    }
    let body_key = vocab::JSON_BODY_KEYS
        .iter()
        .filter(|k| **k != title_key)
        .find_map(|k| get_ci(o, &[k]).and_then(|(_, v)| text_of(v)));
    body_parts.extend(body_key);
    let mut f = Finding::new(sev.map_or(Severity::Unclassified, |s| s.0), &clean(&title));
    if f.title.is_empty() {
        return None;
    }
    f.body = clean(&body_parts.join("\n"));
    f.action = get_ci(o, vocab::JSON_ACTION_KEYS)
        .filter(|(k, _)| *k != title_key)
        .and_then(|(_, v)| text_of(v))
        .filter(|a| !vocab::is_placeholder(a))
        .map(|a| clean(&a));
    f.evidence = o
        .get("evidence")
        .or_else(|| o.get("section"))
        .and_then(Value::as_str)
        .map(clean)
        .filter(|e| !e.is_empty());
    f.location = location_of(o, roots).or_else(|| {
        f.evidence
            .as_deref()
            .and_then(|e| location::find_all(e, roots).into_iter().next())
    });
    Some(f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
    }
}
