//! Rulings in JSON: the asked `classifications`, and the other shapes judges use — `rulings`
//! or `results` with `finding`/`ruling`/`decision`/`status`, an object keyed by id, a letter
//! under `decision` — with the keys of [`crate::answer::vocab`] as data. A block cut off by the token limit
//! still gives the rulings whose verdict was written before the cut.

use std::sync::OnceLock;

use serde_json::{Map, Value};

use super::{letter, words, Judgement, Ruling, Verdict};
use crate::answer::vocab::parse_severity;
use crate::answer::{self, re, Roots};
use crate::findings::Source;
use crate::pattern::Pattern;

/// The last JSON value in `text` that holds rulings, read; else the rulings in a cut-off block.
pub(super) fn from_blocks(text: &str, roots: &Roots) -> Option<Judgement> {
    let blocks = answer::json::json_blocks(text);
    if let Some(j) = blocks.iter().rev().find_map(|v| judgement(v, roots)) {
        return Some(j);
    }
    cut_off(text)
}

/// The rulings of one JSON value, when it has any (an echo of the prompt's template, whose
/// verdicts read `valid|invalid|missing-context`, has none).
pub(super) fn judgement(v: &Value, roots: &Roots) -> Option<Judgement> {
    let obj = v.as_object()?;
    let mut j = Judgement::default();
    let list = words::RULING_LIST_KEYS
        .iter()
        .find_map(|k| obj.get(*k).and_then(Value::as_array));
    if let Some(list) = list {
        for item in list {
            if let Some(o) = item.as_object() {
                ruling(o, None, &mut j);
            }
        }
    } else {
        // Keyed by id: `{"F1": {"verdict": …}, "F2": "invalid"}`.
        for (k, v) in obj {
            if is_id(k) {
                match v {
                    Value::Object(o) => ruling(o, Some(k), &mut j),
                    Value::String(s) => ruling(
                        &Map::from_iter([("verdict".to_string(), Value::String(s.clone()))]),
                        Some(k),
                        &mut j,
                    ),
                    _ => {}
                }
            }
        }
    }
    if j.rulings.is_empty() && j.notes.is_empty() {
        return None;
    }
    j.readable = true;
    j.recommendation = words::RECOMMENDATION_KEYS
        .iter()
        .filter_map(|k| obj.get(*k).and_then(Value::as_str))
        .find_map(letter);
    j.reason = ["reason", "summary", "comment", "rationale"]
        .iter()
        .find_map(|k| obj.get(*k).and_then(Value::as_str))
        .unwrap_or("")
        .trim()
        .to_string();
    j.added = words::ADDED_KEYS
        .iter()
        .filter_map(|k| obj.get(*k).and_then(Value::as_array))
        .flatten()
        .filter_map(|x| answer::json::finding(x, None, roots))
        .map(|mut f| {
            f.source = Source::Judge;
            f
        })
        .collect();
    Some(j)
}

fn is_id(s: &str) -> bool {
    let t = s.trim();
    t.len() >= 2 && t[..1].eq_ignore_ascii_case("f") && t[1..].chars().all(|c| c.is_ascii_digit())
}

fn field<'a>(o: &'a Map<String, Value>, keys: &[&str]) -> Option<&'a Value> {
    keys.iter().find_map(|k| o.get(*k).filter(|v| !v.is_null()))
}

/// One ruling object: a ruling when its verdict reads, a note when it does not.
fn ruling(o: &Map<String, Value>, id: Option<&str>, j: &mut Judgement) {
    let id = id.map(str::to_string).or_else(|| {
        field(o, words::RULING_ID_KEYS)
            .and_then(Value::as_str)
            .map(str::to_string)
    });
    let Some(id) = id.filter(|i| is_id(i)) else {
        return;
    };
    let said = field(o, words::RULING_VERDICT_KEYS).and_then(Value::as_str);
    // A template's placeholder (`valid|invalid|missing-context`) is no ruling and no note.
    if said.is_some_and(|s| s.contains('|')) {
        return;
    }
    let Some(verdict) = said.and_then(Verdict::parse) else {
        j.notes.push(format!(
            "the judge's ruling on {} ({:?}) could not be read; it counts as valid",
            id.trim().to_ascii_uppercase(),
            said.unwrap_or("")
        ));
        return;
    };
    j.rulings.push(Ruling {
        id,
        verdict,
        severity: field(o, words::RULING_SEVERITY_KEYS)
            .and_then(Value::as_str)
            .and_then(parse_severity),
        reason: field(o, words::RULING_REASON_KEYS)
            .and_then(Value::as_str)
            .unwrap_or("")
            .trim()
            .to_string(),
    });
}

/// A fenced JSON block that does not parse (cut off mid-string): each object that names an id
/// and a verdict before the cut, by its `"key": "value"` pairs.
fn cut_off(text: &str) -> Option<Judgement> {
    static PAIR: OnceLock<Pattern> = OnceLock::new();
    let pair = re(&PAIR, r#""(\w+)"\s*:\s*(?:"((?:[^"\\]|\\.)*)"|null)"#);
    let doc = crate::markdown::Doc::parse_mixed(text);
    let mut j = Judgement::default();
    for (_, code) in doc.fenced() {
        let lang = code.lang();
        if !(lang.is_empty() || lang.starts_with("json")) {
            continue;
        }
        let mut cur: Map<String, Value> = Map::new();
        let flush = |cur: &mut Map<String, Value>, j: &mut Judgement| {
            if !cur.is_empty() {
                ruling(cur, None, j);
                cur.clear();
            }
        };
        for c in pair.captures_iter(&code.body) {
            let key = c[1].to_string();
            if words::RULING_ID_KEYS.contains(&key.as_str()) {
                flush(&mut cur, &mut j);
            }
            let value = c
                .get(2)
                .map_or(Value::Null, |v| Value::String(v.as_str().to_string()));
            cur.insert(key, value);
        }
        flush(&mut cur, &mut j);
        if let Some(r) = re(
            &REC,
            r#""(?:recommendation|decision|choice)"\s*:\s*"([A-Ea-e])""#,
        )
        .captures(&code.body)
        {
            j.recommendation = letter(&r[1]);
        }
    }
    static REC: OnceLock<Pattern> = OnceLock::new();
    (!j.rulings.is_empty()).then(|| {
        j.readable = true;
        j
    })
}
