//! A JSON finding whose keys we have never seen (`{"文件": …, "行号": 88, "严重程度": "严重",
//! "描述": …}`, `{"archivo": …, "gravedad": …}`): its parts are read from the shape of its
//! values instead. Reviewers name keys in every language and style, but a finding still holds a
//! sentence, a short level word, a path and a line number, and those are told apart by what they
//! look like. This is the fallback after the key tables in `vocab`: a known key always wins.

use serde_json::{Map, Value};

use crate::answer::location::{self, Roots};
use crate::answer::vocab::{self, Strength};
use crate::findings::{Location, Severity};

/// The longest value that reads as a sentence (words, or a run of CJK text): the finding's text.
pub(super) fn text(o: &Map<String, Value>) -> Option<String> {
    o.values()
        .filter_map(Value::as_str)
        .map(str::trim)
        .filter(|s| sentence_like(s))
        .max_by_key(|s| s.chars().count())
        .map(str::to_string)
}

/// A short value that is a level word (`"严重"`, `"alta"`, `"Major"`), under any key.
pub(super) fn severity(o: &Map<String, Value>) -> Option<(Severity, Strength)> {
    o.values()
        .filter_map(Value::as_str)
        .filter(|s| s.trim().chars().count() <= 24)
        .find_map(vocab::field_severity)
        .filter(|s| s.1 == Strength::Level)
}

/// A value that is nothing but a path, with the line a numeric value beside it gives.
pub(super) fn location(o: &Map<String, Value>, roots: &Roots) -> Option<Location> {
    let (path_key, mut loc) = o.iter().find_map(|(k, v)| {
        let s = v.as_str()?;
        let l = location::path_only(s, roots).filter(|l| !l.path.is_empty())?;
        Some((k.as_str(), l))
    })?;
    if loc.start_line.is_none() {
        // The one whole number that is not a level (`"priority": 2` is one) gives the line.
        let numbers: Vec<u32> = o
            .iter()
            .filter(|(k, _)| k.as_str() != path_key && !is_level_key(k))
            .filter_map(|(_, v)| v.as_u64().and_then(|n| u32::try_from(n).ok()))
            .filter(|n| *n > 0)
            .collect();
        if let [line] = numbers.as_slice() {
            loc.start_line = Some(*line);
        }
    }
    Some(loc)
}

/// Does an object with unknown keys still hold a finding: a sentence, and a level or a place?
pub(super) fn finding_like(o: &Map<String, Value>, roots: &Roots) -> bool {
    text(o).is_some() && (severity(o).is_some() || location(o, roots).is_some())
}

/// A key of the severity table, spelled any way (`Severity`, `sev-level`).
fn is_level_key(k: &str) -> bool {
    let k = k.to_ascii_lowercase().replace(['-', ' ', '_'], "");
    vocab::JSON_SEVERITY_KEYS
        .iter()
        .any(|s| s.replace('_', "") == k)
}

/// Several words, or a run of at least eight CJK characters (no spaces between words there).
fn sentence_like(s: &str) -> bool {
    let words = s
        .split_whitespace()
        .filter(|w| w.chars().any(char::is_alphabetic))
        .count();
    let cjk = s
        .chars()
        .filter(|c| crate::answer::vocab::unspaced(*c))
        .count();
    words >= 4 || cjk >= 8
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn obj(v: Value) -> Map<String, Value> {
        v.as_object().cloned().unwrap_or_default()
    }

    #[test]
    fn parts_are_told_apart_by_their_shape() {
        let o = obj(json!({
            "archivo": "api/pagos.py", "linea_aprox": 41, "gravedad": "alta",
            "detalle": "El reintento no comprueba el código de estado antes de repetir el cobro."
        }));
        let roots = Roots::default();
        assert!(finding_like(&o, &roots));
        assert_eq!(severity(&o).map(|s| s.0), Some(Severity::P1));
        let l = location(&o, &roots).unwrap();
        assert_eq!((l.path.as_str(), l.start_line), ("api/pagos.py", Some(41)));
        assert!(text(&o).unwrap().starts_with("El reintento"));
    }

    #[test]
    fn a_list_of_names_or_a_count_is_not_a_finding() {
        let roots = Roots::default();
        assert!(!finding_like(
            &obj(json!({"name": "ok", "count": 3})),
            &roots
        ));
        assert!(!finding_like(
            &obj(json!({"note": "All four handlers are covered by the new tests."})),
            &roots
        ));
    }
}
