//! Small helpers the CLI output parsers share: JSON lines, a JSON object at the end of noisy
//! text, and numeric fields that may be absent.

use serde_json::Value;

use crate::agents::{Captured, Failure};

/// Every line of `text` that is a JSON value; other lines (warnings, banners) are skipped.
pub fn json_lines(text: &str) -> impl Iterator<Item = Value> + '_ {
    text.lines()
        .map(str::trim)
        .filter(|l| l.starts_with('{') || l.starts_with('['))
        .filter_map(|l| serde_json::from_str(l).ok())
}

/// The last meaningful line of a CLI's stderr: not blank, not a warning banner. That is where
/// the CLIs put the reason they stopped before printing any structured output.
pub fn last_line(text: &str) -> Option<&str> {
    text.lines().map(str::trim).rev().find(|l| {
        !l.is_empty()
            && !l.starts_with("WARNING:")
            && !l.to_ascii_lowercase().starts_with("warning:")
    })
}

/// The failure for output without the structure a parser looks for: a CLI that exited non-zero
/// said why on stderr (usage errors, bad config); anything else is a parse error named `what`,
/// never the raw output.
pub fn unstructured(c: &Captured, what: &str) -> Failure {
    match last_line(c.stderr) {
        Some(line) if c.code != Some(0) => Failure::classified(line, None, c.code),
        _ => Failure::parse(what, c.code),
    }
}

/// The whole of `text` as one JSON value, if it is one.
pub fn whole_json(text: &str) -> Option<Value> {
    serde_json::from_str(text.trim()).ok()
}

/// The last JSON object in `text` that runs to its end (after trailing whitespace), for CLIs that
/// print warnings and stack traces before a pretty-printed error object (gemini on stderr).
pub fn trailing_json_object(text: &str) -> Option<Value> {
    let trimmed = text.trim_end();
    // Candidates are lines that start with `{`: the object's first line.
    let mut offset = 0;
    let mut starts = Vec::new();
    for line in trimmed.split_inclusive('\n') {
        if line.trim_start().starts_with('{') {
            starts.push(offset + (line.len() - line.trim_start().len()));
        }
        offset += line.len();
    }
    starts
        .into_iter()
        .find_map(|s| serde_json::from_str::<Value>(&trimmed[s..]).ok())
        .filter(Value::is_object)
}

/// A non-negative integer at `path` (`["usage", "input_tokens"]`).
pub fn u64_at(v: &Value, path: &[&str]) -> Option<u64> {
    at(v, path)?.as_u64()
}

/// A number at `path`.
pub fn f64_at(v: &Value, path: &[&str]) -> Option<f64> {
    at(v, path)?.as_f64()
}

/// A string at `path`.
pub fn str_at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a str> {
    at(v, path)?.as_str()
}

pub fn at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a Value> {
    path.iter().try_fold(v, |v, k| v.get(k))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailing_object_after_noise() {
        let text = "Warning: x\n    at foo (bar.js:1)\n{\n  \"error\": {\"code\": 401}\n}\n";
        let v = trailing_json_object(text).unwrap();
        assert_eq!(u64_at(&v, &["error", "code"]), Some(401));
        assert!(trailing_json_object("no json here").is_none());
    }

    #[test]
    fn json_lines_skip_banners() {
        let v: Vec<_> = json_lines("WARNING: x\n{\"a\":1}\nnot json\n{\"a\":2}\n").collect();
        assert_eq!(v.len(), 2);
    }
}
