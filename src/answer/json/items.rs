//! One JSON finding and where a value keeps its findings: the keys of `vocab` for a finding's
//! parts (title, body, fix, severity, file, lines, location objects), lists under known keys,
//! lists per severity and per file, and SARIF's and SonarQube's shapes.

use super::*;

pub(super) fn get_ci<'a>(
    o: &'a Map<String, Value>,
    keys: &[&'static str],
) -> Option<(&'static str, &'a Value)> {
    for k in keys {
        for (key, v) in o {
            let norm = key.to_ascii_lowercase().replace(['-', ' '], "_");
            if norm == *k || norm.replace('_', "") == k.replace('_', "") {
                // The vocabulary's spelling, so callers can tell which key matched.
                return Some((k, v));
            }
        }
    }
    None
}

pub(super) fn text_of(v: &Value) -> Option<String> {
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

/// A finding item and what it inherits from where it sits: a severity (lists keyed by
/// severity) and a file (`{"files": [{"path": …, "issues": [...]}]}`).
#[derive(Clone)]
pub(super) struct Inherited {
    pub(super) severity: Option<(Severity, Strength)>,
    pub(super) file: Option<String>,
}

pub(super) type Items<'a> = Vec<(&'a Value, Inherited)>;

/// The finding items of a value: a list under a known key, lists keyed by severity, a bare
/// array of finding-like objects, files that each carry their own list, or the same a few
/// levels down (`{"review": {...}}`, SARIF's `runs[].results`).
pub(super) fn finding_list(v: &Value) -> Option<Items<'_>> {
    let none = Inherited {
        severity: None,
        file: None,
    };
    let mut items = Vec::new();
    collect(v, &none, 0, &mut items).then_some(items)
}

/// Adds the findings under `v` to `out`; `true` when `v` had the shape of a review list (even
/// an empty one).
pub(super) fn collect<'a>(v: &'a Value, inh: &Inherited, depth: u8, out: &mut Items<'a>) -> bool {
    if depth > 5 {
        return false;
    }
    match v {
        Value::Array(a) => {
            let mut shaped = a.is_empty();
            for x in a {
                // A file with its own list of findings.
                if let Some(o) = x.as_object() {
                    let own = get_ci(o, vocab::JSON_LIST_KEYS).map(|(_, l)| l);
                    let mut inner = inh.clone();
                    if let Some((_, f)) = get_ci(o, vocab::JSON_FILE_KEYS) {
                        inner.file = f.as_str().map(str::to_string).or(inner.file);
                    }
                    if let Some(Value::Array(_)) = own {
                        shaped |= collect(x, &inner, depth + 1, out);
                        continue;
                    }
                    // One finding where XML gave no list (`<file>` with one `<violation>`).
                    if let Some(one @ Value::Object(_)) = own.filter(|v| finding_like(v)) {
                        out.push((one, inner));
                        shaped = true;
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
            if let Some((key, list @ Value::Array(a))) = get_ci(o, vocab::JSON_LIST_KEYS) {
                // Generic keys (`items`, `results`) must hold finding-like objects.
                let generic = matches!(key, "items" | "results" | "suggestions");
                if !generic || a.iter().any(located_or_rated) || a.is_empty() {
                    let before = out.len();
                    let shaped = collect(list, inh, depth + 1, out);
                    if shaped || out.len() > before || a.is_empty() {
                        return true;
                    }
                }
            }
            // One finding where XML gave no list: `<file name="a.ts">` holding one `<violation>`.
            if let Some((_, one @ Value::Object(_))) = get_ci(o, vocab::JSON_LIST_KEYS) {
                if finding_like(one) {
                    let mut inner = inh.clone();
                    if let Some((_, f)) = get_ci(o, vocab::JSON_FILE_KEYS) {
                        inner.file = f.as_str().map(str::to_string).or(inner.file);
                    }
                    out.push((one, inner));
                    return true;
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
            // {"src/a.rs": [...], "src/b.rs": [...]}: lists keyed by file.
            for (k, x) in o {
                let path = location::path_only(k, &Roots::default()).filter(|_| x.is_array());
                if let Some(p) = path {
                    let inner = Inherited {
                        file: Some(p.path),
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

pub(super) fn finding_like(v: &Value) -> bool {
    match v {
        Value::String(s) => !s.trim().is_empty() && !vocab::is_placeholder(s),
        Value::Object(o) => {
            get_ci(o, vocab::JSON_TITLE_KEYS).is_some_and(|(_, x)| text_of(x).is_some())
                || super::shape::finding_like(o, &Roots::default())
        }
        _ => false,
    }
}

pub(super) fn located_or_rated(v: &Value) -> bool {
    v.as_object().is_some_and(|o| {
        get_ci(o, vocab::JSON_SEVERITY_KEYS).is_some()
            || get_ci(o, vocab::JSON_FILE_KEYS).is_some()
            || get_ci(o, vocab::JSON_LOCATION_KEYS).is_some()
    })
}

pub(super) fn severity_value(v: &Value) -> Option<(Severity, Strength)> {
    match v {
        Value::Number(n) => match n.as_u64()? {
            0 => Some((Severity::P0, Strength::Level)),
            1 => Some((Severity::P1, Strength::Level)),
            2 => Some((Severity::P2, Strength::Level)),
            3 => Some((Severity::P3, Strength::Level)),
            _ => None,
        },
        Value::String(s) => vocab::field_severity(s),
        _ => None,
    }
}

/// A line value: `12`, `"12"`, `"12-14"`, `[12, 14]`, `{"start": 12, "end": 14}`.
pub(super) fn lines_value(v: &Value) -> Option<(u32, Option<u32>)> {
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
pub(super) fn location_of(o: &Map<String, Value>, roots: &Roots) -> Option<Location> {
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

/// The first sentence of `text` (at most 120 characters of it).
fn first_sentence(text: &str) -> String {
    let t = text.trim();
    let end = t
        .char_indices()
        .find(|(i, c)| {
            matches!(c, '.' | '!' | '?' | '\n' | '。')
                && t[i + c.len_utf8()..].starts_with([' ', '\n'])
        })
        .map_or(t.len(), |(i, c)| i + c.len_utf8());
    t[..end]
        .chars()
        .take(120)
        .collect::<String>()
        .trim()
        .to_string()
}

/// A result the reviewer marks passed or done: SARIF's `"kind": "pass"` (or
/// `"notApplicable"`), a `"status": "fixed"` carried from an earlier review. What was checked
/// and found fine, not a finding.
fn passed(o: &Map<String, Value>) -> bool {
    let said = |keys: &'static [&'static str], words: &[&str]| {
        get_ci(o, keys)
            .and_then(|(_, v)| v.as_str())
            .is_some_and(|v| words.contains(&v.trim().to_ascii_lowercase().as_str()))
    };
    // (`"status": "withdrawn"`, `"verified fixed"`, `"not applicable"`: what a re-review says
    // of an earlier round's finding.)
    let carried = get_ci(o, &["status", "state", "resolution"])
        .and_then(|(_, v)| v.as_str())
        .and_then(vocab::status_word)
        .is_some_and(|c| c != vocab::Carried::Open);
    carried
        || said(&["kind"], &["pass", "notapplicable"])
        || said(
            &["status", "result", "outcome"],
            &[
                "pass",
                "passed",
                "ok",
                "fixed",
                "resolved",
                "addressed",
                "done",
            ],
        )
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
        Value::Object(o) if !passed(o) => o,
        _ => return None,
    };
    // A finding without a title is titled from its body's first sentence (it is not dropped).
    let titled = get_ci(o, vocab::JSON_TITLE_KEYS)
        .and_then(|(k, v)| text_of(v).filter(|t| !t.trim().is_empty()).map(|t| (k, t)));
    let (title_key, raw_title) = match titled {
        Some(t) => t,
        None => {
            let (k, body) = vocab::JSON_BODY_KEYS
                .iter()
                .find_map(|k| get_ci(o, &[k]).and_then(|(k, v)| text_of(v).map(|t| (k, t))))
                .or_else(|| super::shape::text(o).map(|t| ("", t)))?;
            let first = first_sentence(&body);
            if first.len() < body.trim().len() {
                (k, format!("{first}\n{body}"))
            } else {
                (k, first)
            }
        }
    };
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
        .or_else(|| super::shape::severity(o))
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
    let by_shape = super::shape::location(o, roots);
    f.location = match location_of(o, roots) {
        // A known file key beside a line key we do not know (`"行号": 88`).
        Some(mut l) if l.start_line.is_none() => {
            if let Some(s) = by_shape.filter(|s| s.path == l.path) {
                l.start_line = s.start_line;
            }
            Some(l)
        }
        Some(l) => Some(l),
        None => f
            .evidence
            .as_deref()
            .and_then(|e| location::find_all(e, roots).into_iter().next())
            .or(by_shape),
    };
    Some(f)
}
