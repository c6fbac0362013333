//! More secrets known by their place: an XML element named for one (`<password>…</password>`),
//! a YAML block scalar under a secret's name, a credential passed positionally to an SDK's
//! constructor, the private lines of a PuTTY `.ppk` key, and the second half of a secret split
//! over two lines.
//!
//! None of these has a shape of its own: a Twilio auth token is 32 hex digits like any digest,
//! and the half of a key on its own line has no prefix left. What gives them away is what stands
//! around them: the call that takes an access key's id and its secret together, the line the
//! first half ended on.

use std::sync::LazyLock;

use aho_corasick::AhoCorasick;
use regex::Captures;

use crate::pattern::Pattern;
use crate::redact::assign::{self, Name};
use crate::redact::file_kind::FileKind;
use crate::redact::rules::{CREDENTIAL_CALLS, PAIRED_IDS};
use crate::redact::{entropy, mark, marker, placeholder, MARK};

/// `<name>value</name>` on one line.
static XML_ELEMENT: Pattern = Pattern::new(
    r"<(?P<key>[\w:.-]*(?i:pass|pwd|pw|secret|token|key|auth|credential)[\w:.-]*)>(?P<val>[^<>\n]{1,200})</(?P<end>[A-Za-z_][\w:.-]*)>",
);

/// Somewhere in a text, a YAML key with a secret's word whose value is a block scalar: the
/// text's lines are walked only then.
static BLOCK_ANY: Pattern = Pattern::new(
    r#"(?mi)^[+\- ]?[ \t]*(?:-[ \t]+)?["']?[\w.-]*(?:pass|pwd|pw|secret|token|key|auth|credential|sid|salt|seed|cookie|sig|dsn)[\w.-]*["']?[ \t]*:[ \t]*[|>]"#,
);

/// A YAML key whose value is a block scalar on the lines below it (`key: |`, `key: >-`).
static BLOCK_HEADER: Pattern = Pattern::new(
    r#"^[ \t]*(?:-[ \t]+)?["']?(?P<key>[A-Za-z0-9_.-]+)["']?[ \t]*:[ \t]*[|>][+-]?[0-9]?[ \t]*$"#,
);

/// A call on one line with its callee (a dotted name, or a call itself: `require('x')(…)`).
static CALL: Pattern = Pattern::new(
    r"(?P<callee>[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*(?:\([^()\n]*\))?)[ \t]*\((?P<args>[^()\n]*)\)",
);

/// What a line must hold for its calls to be read: a name of [`CREDENTIAL_CALLS`] (its last
/// segment), `Client`, or the marker of an access key's id ([`PAIRED_IDS`]).
static CALL_TRIGGERS: LazyLock<AhoCorasick> = LazyLock::new(|| {
    let mut words: Vec<String> = CREDENTIAL_CALLS
        .iter()
        .map(|c| c.rsplit('.').next().unwrap_or(c).to_string())
        .collect();
    words.push("Client".into());
    words.extend(PAIRED_IDS.iter().map(|(id, _)| marker(id)));
    AhoCorasick::new(words).expect("valid words")
});

/// A quoted literal among a call's arguments.
static LITERAL: Pattern = Pattern::new(r#""(?P<d>[^"\\\n]*)"|'(?P<s>[^'\\\n]*)'"#);

/// A marker at the end of a literal or line that goes on on the next line: string concatenation
/// (`"…"` + newline + `"…"`, with `+` or `.` between, or none as in Python and C) or a line
/// continuation (`\` + newline: shell, Java properties).
static CONTINUED: Pattern = Pattern::new(
    r#"(?P<head>\[REDACTED:(?P<kind>[a-z0-9.-]+)\])(?P<join>["'][ \t]*(?:\+|\.)?[ \t]*\r?\n[+\- ]?[ \t]*(?P<q>["'])|\\\r?\n[+\- ]?[ \t]*)(?P<rest>[^\s"'\\]{6,})"#,
);

/// `Private-Lines: N` of a PuTTY key file: the N lines after it are the private key.
static PPK_PRIVATE: Pattern = Pattern::new(r"^Private-Lines:[ \t]*(?P<n>[0-9]{1,3})[ \t\r]*$");

/// Whether every line of `text` is a diff line (`+`, `-`, ` ` first).
fn is_diff(text: &str) -> bool {
    text.lines()
        .all(|l| l.trim_end().is_empty() || l.starts_with(['+', '-', ' ']))
}

/// A line's body: without its diff marker in a diff.
fn body(line: &str, diff: bool) -> &str {
    if diff && line.starts_with(['+', '-', ' ']) {
        &line[1..]
    } else {
        line
    }
}

/// A line with its body (after the diff marker and the indentation) replaced by a marker,
/// keeping its line end.
fn hide_line(line: &str, diff: bool, kind: &str) -> String {
    let b = body(line, diff);
    let keep = line.len() - b.len() + (b.len() - b.trim_start().len());
    let end = if line.ends_with("\r\n") {
        "\r\n"
    } else if line.ends_with('\n') {
        "\n"
    } else {
        ""
    };
    format!("{}{}{end}", &line[..keep], marker(kind))
}

/// `<password>…</password>`, `<apiKey>…</apiKey>`: an element whose name names a secret, its
/// text judged as a quoted value.
pub fn xml_elements(text: &str, file: FileKind, found: &mut Vec<&'static str>) -> Option<String> {
    if !text.contains("</") || file == FileKind::Lock {
        return None;
    }
    let mut changed = false;
    let out = XML_ELEMENT.replace_all(text, |c: &Captures| {
        let whole = &c[0];
        let val = &c["val"];
        if c["key"] != c["end"] || val.contains(MARK) {
            return whole.to_string();
        }
        match assign::judge(&c["key"], &format!("\"{val}\""), file) {
            Some(kind) => {
                found.push(kind);
                changed = true;
                format!("<{}>{}</{}>", &c["key"], marker(kind), &c["end"])
            }
            None => whole.to_string(),
        }
    });
    changed.then(|| out.into_owned())
}

/// The lines of a YAML block scalar (`secretAccessKey: >-` and the more indented lines below it)
/// under a name that names a secret; under a loose name (`key`) only a random-looking one.
pub fn block_scalars(text: &str, file: FileKind, found: &mut Vec<&'static str>) -> Option<String> {
    if file == FileKind::Lock
        || !(text.contains(": |") || text.contains(": >"))
        || !BLOCK_ANY.is_match(text)
    {
        return None;
    }
    let diff = is_diff(text);
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    let mut i = 0;
    while i < lines.len() {
        out.push_str(lines[i]);
        let b = body(lines[i], diff);
        let Some(c) = BLOCK_HEADER.captures(b.trim_end()) else {
            i += 1;
            continue;
        };
        let indent = b.len() - b.trim_start().len();
        let mut end = i + 1;
        while end < lines.len() {
            let lb = body(lines[end], diff);
            if !lb.trim().is_empty() && lb.len() - lb.trim_start().len() <= indent {
                break;
            }
            end += 1;
        }
        let value: String = lines[i + 1..end]
            .iter()
            .map(|l| body(l, diff).trim())
            .collect();
        let kind = match assign::name_of(&c["key"]) {
            Some(Name::Password) => Some("password"),
            Some(Name::Secret) => Some("secret"),
            Some(Name::Weak) => entropy::looks_random(&value).then_some("secret"),
            None => None,
        };
        let hide = kind.filter(|_| !value.is_empty() && !value.contains(MARK));
        for line in &lines[i + 1..end] {
            match hide {
                Some(kind) if !body(line, diff).trim().is_empty() => {
                    out.push_str(&hide_line(line, diff, kind));
                }
                _ => out.push_str(line),
            }
        }
        if let Some(kind) = hide {
            found.push(kind);
            changed = true;
        }
        i = end;
    }
    changed.then_some(out)
}

/// Whether `callee` (`search.NewClient`, `DefaultProfile.getProfile`) is a call of
/// [`CREDENTIAL_CALLS`], or a client's constructor (a last segment ending in `Client`).
fn credential_call(callee: &str) -> bool {
    let name = callee.split('(').next().unwrap_or(callee);
    let last = name.rsplit('.').next().unwrap_or(name);
    let client = last
        .trim_end_matches(|c: char| c.is_ascii_digit())
        .trim_end_matches('V')
        .ends_with("Client");
    client
        || CREDENTIAL_CALLS
            .iter()
            .any(|e| name == *e || name.ends_with(&format!(".{e}")))
}

/// A literal argument that can be a key: long, unspaced, random-looking (or 32+ hex digits), and
/// neither a URL, a path nor a placeholder.
fn key_shaped(v: &str) -> bool {
    let hex = v.len() >= 32 && v.bytes().all(|b| b.is_ascii_hexdigit());
    v.len() >= 16
        && !v.contains(MARK)
        && !v.contains("://")
        && !v.starts_with(['/', '.', '$', '<', '{'])
        && !placeholder(v)
        && (hex || entropy::looks_random(v))
}

/// Credentials passed positionally: beside an access key's id (already a marker of
/// [`PAIRED_IDS`]: `Client("AC…", "<token>")`), or to a call of [`CREDENTIAL_CALLS`]
/// (`algoliasearch("APPID", "<admin key>")`). Only calls on one line.
pub fn calls(text: &str, file: FileKind, found: &mut Vec<&'static str>) -> Option<String> {
    if file == FileKind::Lock || !CALL_TRIGGERS.is_match(text) {
        return None;
    }
    let mut changed = false;
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        match CALL_TRIGGERS.is_match(line) {
            true => out.push_str(&calls_in_line(line, found, &mut changed)),
            false => out.push_str(line),
        }
    }
    changed.then_some(out)
}

/// [`calls`] on one line.
fn calls_in_line(line: &str, found: &mut Vec<&'static str>, changed: &mut bool) -> String {
    let out = CALL.replace_all(line, |c: &Captures| {
        let whole = c.get(0).expect("match");
        let args = c.name("args").expect("args");
        let paired = PAIRED_IDS
            .iter()
            .find(|(id, _)| args.as_str().contains(&marker(id)))
            .map(|(_, secret)| *secret);
        let kind = match paired {
            Some(kind) => kind,
            None if credential_call(&c["callee"]) => "api-key",
            None => return whole.as_str().to_string(),
        };
        let mut n = 0;
        let replaced = LITERAL.replace_all(args.as_str(), |l: &Captures| {
            let v = l.name("d").or(l.name("s")).map_or("", |m| m.as_str());
            if !key_shaped(v) {
                return l[0].to_string();
            }
            n += 1;
            let q = &l[0][..1];
            format!("{q}{}{q}", marker(kind))
        });
        if n == 0 {
            return whole.as_str().to_string();
        }
        for _ in 0..n {
            found.push(kind);
        }
        *changed = true;
        let w = whole.as_str();
        let (from, to) = (args.start() - whole.start(), args.end() - whole.start());
        format!("{}{replaced}{}", &w[..from], &w[to..])
    });
    out.into_owned()
}

/// The private lines of a PuTTY key (`Private-Lines: N` and the N lines after it), one marker a
/// line; counted once a key.
pub fn putty_key(text: &str, found: &mut Vec<&'static str>) -> Option<String> {
    if !text.contains("Private-Lines:") {
        return None;
    }
    let diff = is_diff(text);
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut out = String::with_capacity(text.len());
    let mut hide = 0usize;
    let mut changed = false;
    for line in lines {
        let b = body(line, diff);
        if hide > 0 && !b.trim().is_empty() && !b.contains(MARK) {
            out.push_str(&hide_line(line, diff, "private-key"));
            hide -= 1;
            continue;
        }
        out.push_str(line);
        if let Some(c) = PPK_PRIVATE.captures(b.trim_end_matches('\n')) {
            hide = c["n"].parse().unwrap_or(0);
            if hide > 0 {
                found.push("private-key");
                changed = true;
            }
        }
    }
    changed.then_some(out)
}

/// Whether a PEM block holds key material: a body line (its diff marker, quotes and `\n`
/// escapes aside) of 16 or more base64 characters that are not all `X`, a documented blank.
pub fn key_material(block: &str) -> bool {
    block
        .split('\n')
        .flat_map(|l| l.split("\\n"))
        .filter(|l| !l.contains("-----"))
        .map(|l| {
            l.trim_matches(|c: char| c.is_whitespace() || matches!(c, '+' | '-' | '"' | '\'' | ','))
        })
        .any(|l| {
            l.len() >= 16
                && l.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'='))
                && !l.bytes().all(|b| b == b'X' || b == b'=')
        })
}

/// The second half of a secret split over two lines, after a marker that ends its literal or
/// line: hidden under the same kind, and not counted again (it is the same secret).
pub fn continued(text: &str) -> Option<String> {
    if !text.contains(MARK) {
        return None;
    }
    let mut text = std::borrow::Cow::Borrowed(text);
    let mut changed = false;
    // A key split over three or more lines continues from each new marker.
    for _ in 0..4 {
        let mut again = false;
        let out = CONTINUED.replace_all(&text, |c: &Captures| {
            let rest = c.name("rest").expect("rest");
            let next = text[rest.end()..].chars().next();
            let closed = match c.name("q") {
                Some(q) => next.is_some_and(|n| q.as_str().starts_with(n)),
                None => next.is_none_or(|n| n.is_whitespace() || n == '"' || n == '\''),
            };
            if !closed || !secret_piece(rest.as_str()) {
                return c[0].to_string();
            }
            again = true;
            format!(
                "{}{}{}",
                &c["head"],
                &c["join"],
                mark(rest.as_str(), &c["kind"])
            )
        });
        if !again {
            break;
        }
        changed = true;
        text = std::borrow::Cow::Owned(out.into_owned());
    }
    changed.then(|| text.into_owned())
}

/// A piece of a secret: not a word (digits, mixed case or symbols in it) and not a placeholder.
fn secret_piece(v: &str) -> bool {
    let has = |f: fn(&u8) -> bool| v.as_bytes().iter().any(f);
    let mixed = has(u8::is_ascii_uppercase) && has(u8::is_ascii_lowercase);
    let symbol = v
        .bytes()
        .any(|b| !b.is_ascii_alphanumeric() && !matches!(b, b'.' | b'-' | b'_'));
    !v.contains(MARK)
        && !placeholder(v)
        && !v.ends_with([';', ')', ','])
        && (has(u8::is_ascii_digit) || mixed || symbol)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_that_take_credentials_are_known() {
        for callee in [
            "Client",
            "twilio.Client",
            "search.NewClient",
            "SearchClient.create",
            "algoliasearch",
            "DefaultProfile.getProfile",
            "oss2.Auth",
            "cohere.ClientV2",
            "new AcsClient",
        ] {
            let callee = callee.trim_start_matches("new ");
            assert!(credential_call(callee), "{callee}");
        }
        for callee in [
            "URI.create",
            "Stripe",
            "hashlib.sha256",
            "bytes.fromhex",
            "re.compile",
        ] {
            assert!(!credential_call(callee), "{callee}");
        }
    }
}
