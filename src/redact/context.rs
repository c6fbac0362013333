//! Secrets known by where they stand rather than by their shape or an `=`: a name and its value
//! as call arguments (`define('DB_PASSWORD', 'x')`, `os.environ.get("SECRET_KEY", "x")`), every
//! value of a Kubernetes `Secret` manifest, and the bare key in a raw key file (Rails'
//! `config/master.key`).
//!
//! These are the forms a name-based rule cannot see: the name is in one argument and the value in
//! the next, or the document's kind (not each key) says that everything in it is secret.

use std::borrow::Cow;
use std::sync::OnceLock;

use regex::Captures;

use crate::pattern::Pattern;
use crate::redact::file_kind::FileKind;
use crate::redact::{assign, entropy, marker, rules};

/// The forms of [`rules::NAMED_FORMS`], each compiled when a text first holds its needle.
static NAMED_FORMS: [OnceLock<Pattern>; rules::NAMED_FORMS.len()] =
    [const { OnceLock::new() }; rules::NAMED_FORMS.len()];

/// `kind: Secret` on its own line (also as a diff line).
static KUBE_SECRET: Pattern =
    Pattern::new(r#"(?m)^[+\- ]?[ \t]*kind:[ \t]*["']?Secret["']?[ \t]*$"#);

/// A bare key on its own line: `+17b1f97b…` in a diff of `config/master.key`.
static BARE_KEY: Pattern =
    Pattern::new(r"(?m)^(?P<pre>[+\- ]?)(?P<secret>[A-Za-z0-9+/=_-]{16,})[ \t]*$");

/// The names and literal values of [`rules::NAMED_FORMS`], judged as assignments are.
pub fn named_forms(text: &str, file: FileKind, found: &mut Vec<&'static str>) -> Option<String> {
    let mut text = Cow::Borrowed(text);
    let mut changed = false;
    for (i, (needles, pattern)) in rules::NAMED_FORMS.iter().enumerate() {
        if !needles.iter().any(|n| text.contains(n)) {
            continue;
        }
        let re = NAMED_FORMS[i].get_or_init(|| Pattern::new(pattern));
        if !re.is_match(&text) {
            continue;
        }
        let replaced = re.replace_all(&text, |c: &Captures| {
            let whole = c.get(0).expect("match");
            let val = c.name("val").expect("val");
            let Some(kind) = assign::judge(&c["key"], val.as_str(), file) else {
                return whole.as_str().to_string();
            };
            found.push(kind);
            changed = true;
            let (from, to) = (val.start() - whole.start(), val.end() - whole.start());
            let w = whole.as_str();
            format!(
                "{}{q}{}{q}{}",
                &w[..from],
                marker(kind),
                &w[to..],
                q = &val.as_str()[..1]
            )
        });
        if let Cow::Owned(t) = replaced {
            text = Cow::Owned(t);
        }
    }
    changed.then(|| text.into_owned())
}

/// A line's text without its diff marker (when `diff`), and its indentation.
fn split_line(line: &str, diff: bool) -> (&str, usize) {
    let body = if diff {
        &line[line.len().min(1)..]
    } else {
        line
    };
    (body, body.len() - body.trim_start().len())
}

/// Every value under `data:` or `stringData:` of a Kubernetes `kind: Secret` manifest: there the
/// document's kind, not each key's name, says the values are secret (`database-url: <base64>`).
pub fn kube_secret(text: &str, found: &mut Vec<&'static str>) -> Option<String> {
    if !text.contains("Secret") || !KUBE_SECRET.is_match(text) {
        return None;
    }
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    // A diff hunk (every line marked `+`, `-` or ` `) or the file itself.
    let diff = lines
        .iter()
        .all(|l| l.trim_end().is_empty() || l.starts_with(['+', '-', ' ']));
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    // Documents are separated by `---` lines; within one holding `kind: Secret`, the lines
    // indented under a `data:`/`stringData:` key are values.
    let mut start = 0;
    while start < lines.len() {
        let end = (start + 1..lines.len())
            .find(|&j| split_line(lines[j], diff).0.trim_end() == "---")
            .unwrap_or(lines.len());
        let doc = &lines[start..end];
        let secret = doc.iter().any(|l| KUBE_SECRET.is_match(l.trim_end()));
        let mut under: Option<usize> = None;
        // The indentation of a `key: |` whose block lines follow: each one is part of the value.
        let mut block: Option<usize> = None;
        for line in doc {
            let (body, indent) = split_line(line, diff);
            let content = body.trim();
            if !secret || content.is_empty() || content.starts_with('#') {
                out.push_str(line);
                continue;
            }
            if content.starts_with("[REDACTED:") {
                out.push_str(line);
                continue;
            }
            if block.is_some_and(|b| indent > b) {
                found.push("kubernetes-secret");
                changed = true;
                out.push_str(&line[..line.len() - body.len() + indent]);
                out.push_str(&marker("kubernetes-secret"));
                if line.ends_with('\n') {
                    out.push('\n');
                }
                continue;
            }
            block = None;
            if under.is_some_and(|u| indent <= u) {
                under = None;
            }
            if under.is_none() {
                if matches!(content, "data:" | "stringData:") {
                    under = Some(indent);
                }
                out.push_str(line);
                continue;
            }
            if content.ends_with(['|', '>']) || content.ends_with("|-") || content.ends_with(">-") {
                block = Some(indent);
            }
            match secret_value(line) {
                Some(at) => {
                    found.push("kubernetes-secret");
                    changed = true;
                    out.push_str(&line[..at]);
                    out.push_str(&marker("kubernetes-secret"));
                    if line.ends_with('\n') {
                        out.push('\n');
                    }
                }
                None => out.push_str(line),
            }
        }
        start = end;
    }
    changed.then_some(out)
}

/// Where the value of a `key: value` line under `data:` starts, when it is one worth hiding (not
/// empty, a block marker, a template or already a marker).
fn secret_value(line: &str) -> Option<usize> {
    let (key_end, _) = line.char_indices().find(|&(_, c)| c == ':')?;
    let rest = &line[key_end + 1..];
    let value = rest.trim();
    let skip = value.is_empty()
        || matches!(value, "|" | ">" | "|-" | ">-")
        || value.contains("[REDACTED:")
        || value.starts_with(['{', '$', '<']);
    (!skip).then(|| key_end + 1 + (rest.len() - rest.trim_start().len()))
}

/// The bare key lines of a raw key file: 32+ hex digits or a random-looking token.
pub fn key_file(text: &str, found: &mut Vec<&'static str>) -> Option<String> {
    let mut changed = false;
    let out = BARE_KEY.replace_all(text, |c: &Captures| {
        let v = &c["secret"];
        let hex = v.len() >= 32 && v.bytes().all(|b| b.is_ascii_hexdigit());
        if !(hex || entropy::looks_random(v)) {
            return c[0].to_string();
        }
        found.push("key-file");
        changed = true;
        format!("{}{}", &c["pre"], marker("key-file"))
    });
    changed.then(|| out.into_owned())
}
