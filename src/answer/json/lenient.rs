//! JSON as models write it rather than as parsers want it: `//` and `/* */` comments, trailing
//! commas (also before a comment), a JavaScript object literal (unquoted keys, single-quoted
//! strings: small models write one when asked for JSON), an answer cut off mid-object by a token
//! limit, and JSON Lines. The JavaScript forms are JSON5, read by the `json5` crate; the cut-off
//! repair needs serde_json's error position, so it stays here.

use serde_json::Value;

/// JSON Lines (one finding per line, a verdict object last): every non-blank line an object,
/// two at least, as one array.
pub(super) fn json_lines(text: &str) -> Option<Value> {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.len() < 2 {
        return None;
    }
    let values: Option<Vec<Value>> = lines
        .iter()
        .map(|l| {
            serde_json::from_str::<Value>(l.trim())
                .ok()
                .filter(Value::is_object)
        })
        .collect();
    values.map(Value::Array)
}

/// JSON as models write it: strict first, then as JSON5, then without comments (`//`, `/* */`) and trailing
/// commas, then — for an answer cut off mid-object — up to its last complete element.
pub(super) fn parse_lenient(s: &str) -> Option<Value> {
    parse_complete(s).or_else(|| repair_truncated(&clean_json(s)))
}

/// JSON as models write it, whole: strict, then as JSON5, then without comments and trailing
/// commas; never a part of it.
pub(super) fn parse_complete(s: &str) -> Option<Value> {
    if let Ok(v) = serde_json::from_str(s) {
        return Some(v);
    }
    if let Ok(v) = json5::from_str::<Value>(s) {
        return Some(v);
    }
    serde_json::from_str(&clean_json(s)).ok()
}

fn clean_json(s: &str) -> String {
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
        } else if c == '/' && chars.get(i + 1) == Some(&'*') {
            i += 2;
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                i += 1;
            }
            i += 2;
            continue;
        } else if c == ',' {
            if !matches!(next_significant(&chars, i + 1), Some('}') | Some(']')) {
                cleaned.push(c);
            }
        } else {
            cleaned.push(c);
        }
        i += 1;
    }
    cleaned
}

/// The next character from `i` that is not whitespace or inside a comment (a comma before
/// `// note` and then `]` is still trailing).
fn next_significant(chars: &[char], mut i: usize) -> Option<char> {
    while i < chars.len() {
        match (chars[i], chars.get(i + 1)) {
            (c, _) if c.is_whitespace() => i += 1,
            ('/', Some('/')) => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            ('/', Some('*')) => {
                i += 2;
                while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                    i += 1;
                }
                i += 2;
            }
            (c, _) => return Some(c),
        }
    }
    None
}

/// How many cut points, counted back from the end, a truncated answer is tried at.
const REPAIR_TRIES: usize = 20;

/// An object cut off mid-way (a local model's length limit): the longest prefix that ends after a
/// complete element, closed with the brackets still open. Only the last few cut points before
/// the first syntax error are tried, so a long broken answer costs a few parses, not hundreds.
fn repair_truncated(s: &str) -> Option<Value> {
    let s = s.trim_start();
    if !s.starts_with('{') && !s.starts_with('[') {
        return None;
    }
    // Past a syntax error that is not the cut-off end, no prefix parses.
    let limit = match serde_json::from_str::<Value>(s) {
        Ok(v) => return Some(v),
        Err(e) if e.is_eof() => s.len(),
        Err(e) => byte_offset(s, e.line(), e.column()),
    };
    let bytes = s.as_bytes();
    let mut stack: Vec<u8> = Vec::new();
    let mut in_str = false;
    let mut escaped = false;
    // Positions just after a complete element, with the brackets open there (the last few).
    let mut cuts: std::collections::VecDeque<(usize, Vec<u8>)> = Default::default();
    let mut cut = |at: usize, stack: &Vec<u8>| {
        if cuts.len() == REPAIR_TRIES {
            cuts.pop_front();
        }
        cuts.push_back((at, stack.clone()));
    };
    for (i, &b) in bytes.iter().enumerate().take(limit) {
        if in_str {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_str = true,
            b'{' => stack.push(b'}'),
            b'[' => stack.push(b']'),
            b'}' | b']' => {
                stack.pop();
                cut(i + 1, &stack);
            }
            b',' => cut(i, &stack),
            _ => {}
        }
    }
    cuts.iter().rev().find_map(|(at, open)| {
        if open.is_empty() {
            return None;
        }
        let mut candidate = s[..*at].to_string();
        candidate.extend(open.iter().rev().map(|c| *c as char));
        serde_json::from_str::<Value>(&candidate).ok()
    })
}

/// The byte offset of a 1-based line and column (serde_json's error position).
fn byte_offset(s: &str, line: usize, column: usize) -> usize {
    let start: usize = s
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    (start + column).min(s.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cut_off_answer_keeps_its_complete_elements() {
        let cut = "\n  {\"findings\": [{\"title\": \"a\"}, {\"title\": \"b\"}, {\"title\": \"c";
        let v = parse_lenient(cut).unwrap();
        assert_eq!(v["findings"].as_array().unwrap().len(), 2);
        // A syntax error in the middle: only cuts before it are tried, and one works.
        let broken = format!(
            "{{\"findings\": [{{\"title\": \"a\"}}, {{\"title\" \"b\"}}, {}",
            "{\"title\": \"x\"}, ".repeat(50_000)
        );
        let v = parse_lenient(&broken).unwrap();
        assert_eq!(v["findings"].as_array().unwrap().len(), 1);
    }

    #[test]
    fn a_javascript_object_literal_is_read() {
        let js = "{\n  verdict: 'revise',\n  findings: [\n    // one\n    {severity: 'P2', \
                  title: 'N+1 \\'members\\'', action: 'prefetch_related(\"m\")'},\n  ],\n}";
        let v = parse_lenient(js).unwrap();
        assert_eq!(v["verdict"], "revise");
        assert_eq!(v["findings"][0]["title"], "N+1 'members'");
        assert_eq!(v["findings"][0]["action"], "prefetch_related(\"m\")");
    }
}
