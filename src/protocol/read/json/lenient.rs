//! JSON as models write it rather than as parsers want it: `//` and `/* */` comments, trailing
//! commas (also before a comment), an answer cut off mid-object by a token limit, and JSON Lines.

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

/// JSON as models write it: strict first, then without comments (`//`, `/* */`) and trailing
/// commas, then — for an answer cut off mid-object — up to its last complete element.
pub(super) fn parse_lenient(s: &str) -> Option<Value> {
    if let Ok(v) = serde_json::from_str(s) {
        return Some(v);
    }
    let cleaned = clean_json(s);
    if let Ok(v) = serde_json::from_str(&cleaned) {
        return Some(v);
    }
    repair_truncated(&cleaned)
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

/// An object cut off mid-way (a local model's length limit): the longest prefix that ends after a
/// complete element, closed with the brackets still open.
fn repair_truncated(s: &str) -> Option<Value> {
    let bytes = s.as_bytes();
    let mut stack: Vec<u8> = Vec::new();
    let mut in_str = false;
    let mut escaped = false;
    // Positions just after a complete element, with the brackets open there.
    let mut cuts: Vec<(usize, Vec<u8>)> = Vec::new();
    for (i, &b) in bytes.iter().enumerate() {
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
                cuts.push((i + 1, stack.clone()));
            }
            b',' => cuts.push((i, stack.clone())),
            _ => {}
        }
    }
    if stack.is_empty() || bytes.first() != Some(&b'{') {
        return None;
    }
    for (at, open) in cuts.iter().rev().take(200) {
        let mut candidate = s[..*at].to_string();
        candidate.extend(open.iter().rev().map(|c| *c as char));
        if let Ok(v) = serde_json::from_str::<Value>(&candidate) {
            return Some(v);
        }
    }
    None
}
