//! The few TOML forms our hand-read files use (`debate.redact.rules`, `.gitdebate-waivers`):
//! strings in their four quotings, one-line arrays of strings, and a string written back so any
//! TOML reader reads it as it was.
//!
//! These files hold a handful of string keys in `[[table]]`s, so a reader of that much says
//! exactly which line is wrong, in words, without a TOML crate's general grammar behind it.

use anyhow::{bail, Context as _, Result};

/// A TOML string: `'literal'`, `'''literal'''`, `"basic"` or `"""basic"""` (escapes decoded).
pub fn string(v: &str, line: usize) -> Result<String> {
    for q in ["'''", "\"\"\"", "'", "\""] {
        if v.len() >= 2 * q.len() && v.starts_with(q) && v.ends_with(q) {
            let inner = &v[q.len()..v.len() - q.len()];
            // A newline right after the opening delimiter is not part of the string.
            let inner = if q.len() == 3 {
                inner.strip_prefix('\n').unwrap_or(inner)
            } else {
                inner
            };
            return if q.starts_with('\'') {
                Ok(inner.to_string())
            } else {
                unescape(inner, line)
            };
        }
    }
    bail!("line {line}: expected a quoted string, found {v}")
}

fn unescape(s: &str, line: usize) -> Result<String> {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\\') => out.push('\\'),
            Some('"') => out.push('"'),
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('u') => {
                let hex: String = chars.by_ref().take(4).collect();
                let c = u32::from_str_radix(&hex, 16)
                    .ok()
                    .and_then(char::from_u32)
                    .with_context(|| format!("line {line}: bad \\u{hex}"))?;
                out.push(c);
            }
            other => bail!("line {line}: unknown escape \\{}", other.unwrap_or(' ')),
        }
    }
    Ok(out)
}

/// A one-line array of strings: `["a", 'b']`.
pub fn strings(v: &str, line: usize) -> Result<Vec<String>> {
    let Some(inner) = v.strip_prefix('[').and_then(|v| v.strip_suffix(']')) else {
        bail!("line {line}: expected an array of strings on one line, found {v}");
    };
    inner
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| string(s, line))
        .collect()
}

/// `s` as a one-line basic string: `"…"` with quotes, backslashes and control characters
/// escaped.
pub fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quoted_string_reads_back_as_written() {
        for s in [
            "plain",
            "a \"quote\" and \\ back",
            "two\nlines\ttab",
            "bell\u{7}",
        ] {
            assert_eq!(string(&quote(s), 1).unwrap(), s);
        }
        assert_eq!(string("'C:\\dir'", 1).unwrap(), "C:\\dir");
        assert!(string("bare", 3)
            .unwrap_err()
            .to_string()
            .contains("line 3"));
        assert_eq!(strings("[\"a\", 'b']", 1).unwrap(), ["a", "b"]);
    }
}
