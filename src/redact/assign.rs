//! Secrets found by their name: `password = x`, `"apiKey": "x"`, `DB_PASS: x`, and values in
//! `.env` and credentials files.
//!
//! The name decides whether to look (its last word must name a secret: `client_secret` does,
//! `token_type` and `tokenizer` do not); the value decides whether it is a literal (code such as
//! `Token::Any`, `next_token()`, `String`, `^2.0.0` or `${VAR}` is not); the file kind decides how
//! an unquoted value reads (see [`crate::redact::file_kind`]).

use std::sync::LazyLock;

use regex::Captures;

use crate::pattern::Pattern;
use crate::redact::file_kind::FileKind;
use crate::redact::rules::{
    KEY_QUALIFIERS, PLACEHOLDERS, PUBLIC_NAMES, PUBLIC_WORDS, SECRET_NAMES, SECRET_WORDS,
    SETTING_WORDS, WEAK_WORDS,
};
use crate::redact::{entropy, marker, MARK};

/// A key containing a secret-ish word, an assignment operator and a value.
static ASSIGNMENT: Pattern = Pattern::new(
    r#"(?i)(?P<key>[A-Za-z0-9_.-]*(?:pass|pwd|pw|secret|token|key|auth|credential|sid|dsn|salt|seed|cookie|sig)[A-Za-z0-9_.-]*)(?P<kq>["'`]?\]?)[ \t]*(?P<op>:=|=>|=|:)[ \t]*(?P<val>"[^"\n]*"|'[^'\n]*'|`[^`\n]*`|\[[ \t]*"[^"\n]*"[ \t]*\]|[^\s,;)}\]|"'`\\]+)"#,
);

/// Any `key = value` / `key: value` / `"key": "value"` line (credentials and `.env` files),
/// also as a diff line and with `export`.
static ANY_ASSIGNMENT: Pattern = Pattern::new(
    r#"(?m)^(?P<pre>[+\- ]?[ \t]*(?:export[ \t]+)?["']?(?P<key>[A-Za-z_][A-Za-z0-9_.-]*)["']?[ \t]*(?:=|:)[ \t]*)(?P<val>[^\n]*?)[ \t]*,?[ \t]*$"#,
);

/// A variable in a value: `$VAR`, `${VAR}`, `{$VAR}`, `{VAR}`.
static REFERENCE: Pattern =
    Pattern::new(r"\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\{\$?[A-Za-z_][A-Za-z0-9_]*\}");

/// `key value` on a line of its own, with no `=` or `:` (`bindpw x` in `nslcd.conf`,
/// `rootpw x` in `slapd.conf`), also as a diff line.
static SPACED: Pattern = Pattern::new(
    r"(?m)^(?P<pre>[+\- ]?[ \t]*(?P<key>[A-Za-z_][A-Za-z0-9_.-]*)[ \t]+)(?P<val>[^\s=:][^\s]*)[ \t]*$",
);

/// `machine h login u password p` and the bare `password p` lines of a `.netrc`.
static NETRC_PASSWORD: Pattern =
    Pattern::new(r"(?-u:\b)(?:password|account)[ \t]+(?P<secret>[^\s\[=:'\x22\\][^\s'\x22\\]*)");

/// How strongly a key's name says "secret".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Name {
    Password,
    Secret,
    /// `key`, `auth`, ...: only a random-looking value counts.
    Weak,
}

/// The words of a key: `AWS_SECRET_ACCESS_KEY`, `clientSecret`, `db.password` -> lowercase words.
pub(super) fn words(key: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut prev_lower = false;
    for c in key.chars() {
        if !c.is_ascii_alphanumeric() {
            if !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            prev_lower = false;
            continue;
        }
        if c.is_ascii_uppercase() && prev_lower && !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        cur.push(c.to_ascii_lowercase());
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

pub(super) fn name_of(key: &str) -> Option<Name> {
    let w = words(key);
    let last = w.last()?.as_str();
    let prev = w.len().checked_sub(2).map(|i| w[i].as_str());
    let joined = w.join("_");
    if SECRET_NAMES.contains(&joined.as_str()) {
        return Some(Name::Secret);
    }
    // A public key's name (`publicKey`, `applicationServerKey`) names no secret.
    if w.iter().any(|x| PUBLIC_WORDS.contains(&x.as_str()))
        || PUBLIC_NAMES.contains(&joined.as_str())
    {
        return None;
    }
    // `bind_pw`, `bindpw`, `rootpw`, `PGPASSWORD`, `userPassword`: a password glued to its owner.
    if matches!(
        last,
        "password" | "passwd" | "pwd" | "pass" | "passphrase" | "pw"
    ) || last.ends_with("password")
        || last.ends_with("passwd")
        || last.len() <= 8 && last.ends_with("pw")
    {
        return Some(Name::Password);
    }
    if SECRET_WORDS.contains(&last)
        || last == "key" && prev.is_some_and(|p| KEY_QUALIFIERS.contains(&p))
    {
        return Some(Name::Secret);
    }
    // A bare `key` or `auth` is as often an identifier (`"key": "AY9qLk2m..."`, an issue key)
    // as a credential: it needs a qualifier (`session_key`), or a credentials file.
    (WEAK_WORDS.contains(&last) && w.len() >= 2).then_some(Name::Weak)
}

/// `"x"` -> (`x`, true); `x` -> (`x`, false); a one-string JSON array `["x"]` (Keycloak's
/// attributes) -> (`x`, true).
fn unquote(val: &str) -> (&str, bool) {
    if let Some(inner) = val.strip_prefix('[').and_then(|v| v.strip_suffix(']')) {
        let inner = inner.trim();
        if inner.len() >= 2 && inner.starts_with('"') && inner.ends_with('"') {
            return (&inner[1..inner.len() - 1], true);
        }
    }
    for q in ['"', '\'', '`'] {
        if val.len() >= 2 && val.starts_with(q) && val.ends_with(q) {
            return (&val[1..val.len() - 1], true);
        }
    }
    (val, false)
}

/// Values that are never a secret, quoted or not: empty, templated, references, placeholders,
/// version specs, URLs and paths.
/// `CWE-259`, `CVE-2025-27731`, `GHSA-xxxx-xxxx-xxxx`, `CAPEC-66`: a public catalogue's id.
fn advisory_id(v: &str) -> bool {
    let v = v.trim_end_matches([')', ',', '.', ';']);
    ["CWE-", "CVE-", "CAPEC-"].iter().any(|p| {
        v.strip_prefix(p)
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit() || b == b'-'))
    }) || v.strip_prefix("GHSA-").is_some_and(|n| {
        n.split('-').count() == 3
            && n.split('-')
                .all(|p| p.len() == 4 && p.bytes().all(|b| b.is_ascii_alphanumeric()))
    })
}

fn never_secret(v: &str, key: &str) -> bool {
    let lower = v.to_ascii_lowercase();
    v.len() < 4
        || v.contains("[REDACTED:")
        // `[FILTERED]`, `[hidden]`: a filter's mark; `492f...`: an elided example.
        || v.starts_with('[') && v.ends_with(']')
        || v.ends_with("...")
        || v.ends_with('…')
        || v.chars().any(char::is_whitespace)
        || PLACEHOLDERS.contains(&lower.as_str())
        || words(key).contains(&lower)
        || v.starts_with(['$', '<', '{', '%', '#', '@', '|', '>', '&', '*', '\\', ':'])
        // A YAML tag (`!Ref`, `!!binary`, `!vault`), not a password that starts with `!`.
        || v.starts_with('!') && v[1..].starts_with(|c: char| c.is_ascii_alphabetic() || c == '!')
        // AWS's documented examples (`AKIAIOSFODNN7EXAMPLE`), `example` and `your-…` values.
        || crate::redact::placeholder(v)
        // A SigV4 credential scope (`AKID/20150830/us-east-1/iam/aws4_request`) names a key,
        // a day, a region and a service; it holds no secret.
        || v.contains('/') && v.rsplit('/').next().is_some_and(|s| s.ends_with("_request"))
        || v.chars().all(|c| matches!(c, '*' | 'x' | 'X' | '.' | '-' | '_' | '0'))
        || v.contains("://")
        || v.starts_with("./")
        || v.starts_with("../")
        || v.starts_with("~/")
        || v.starts_with('/') && !entropy::looks_random(v)
        // Version specs: ^2.0.0, ~1.2, >=3, 1.2.3, workspace:*, npm:foo@1.
        || v.starts_with(['^', '~', '=']) && version(&v[1..])
        || v.starts_with("workspace:")
        || v.starts_with("npm:")
        // A weakness's or an advisory's id (`Hardcoded password (CWE-259)`, `CVE-2025-1234`).
        || advisory_id(v)
        || v.trim_start_matches('v').split('.').all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
        // An environment variable's name (`token = "GITHUB_TOKEN"`) is a reference to the secret.
        || v.len() > 3
            && v.contains('_')
            && v.bytes().all(|b| b.is_ascii_uppercase() || b == b'_' || b.is_ascii_digit())
        || quantity(v)
}

/// Units a measured value ends with, lower case: times, sizes, rates, ratios.
const UNITS: &[&str] = &[
    "ns", "us", "µs", "ms", "s", "sec", "secs", "m", "min", "mins", "h", "hr", "hrs", "d", "b",
    "kb", "mb", "gb", "tb", "kib", "mib", "gib", "tib", "k", "%", "x", "px", "em", "rem", "hz",
    "khz", "mhz", "ghz", "rps", "qps", "tps", "ops",
];

/// A measurement, not a credential: a number and its unit (`Time to First Token: 1.318s`,
/// `token_budget: 4k`, `timeout: 250ms`).
fn quantity(v: &str) -> bool {
    let unit = v.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    let number = &v[..v.len() - unit.len()];
    number.starts_with(|c: char| c.is_ascii_digit())
        && number.matches('.').count() <= 1
        && UNITS.contains(&unit.trim_start().to_lowercase().as_str())
}

/// The rest of a version spec after its `^`, `~` or `=`: `1.2.3`, `=1.2`, `>1`, `2.0.0-beta.1`,
/// `1.x`.
fn version(v: &str) -> bool {
    let v = v.trim_start_matches(['=', '>', '<']);
    let core = v.split(['-', '+']).next().unwrap_or(v);
    core.starts_with(|c: char| c.is_ascii_digit())
        && core
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'x' | b'X' | b'*'))
}

/// A template's blank, never a value: `REPLACE_LICENSE_KEY_HERE`, `<your key>`, `changeme`,
/// `[FILTERED]`, `abc...`, `****`.
fn blank(v: &str) -> bool {
    PLACEHOLDERS.contains(&v.to_ascii_lowercase().as_str())
        || v.starts_with('<') && v.ends_with('>')
        || v.starts_with('[') && v.ends_with(']')
        || v.ends_with("...")
        || v.chars().all(|c| matches!(c, '*' | 'x' | 'X' | '.'))
        || v.len() > 3
            && v.contains('_')
            && v.bytes()
                .all(|b| b.is_ascii_uppercase() || b == b'_' || b.is_ascii_digit())
}

/// An unquoted value that reads as code: a call, index, path, type, member access or keyword.
fn is_code(v: &str) -> bool {
    let ident = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$')
            && !s.as_bytes()[0].is_ascii_digit()
    };
    v.contains(['(', '[', '"', '\'', '`'])
        || v.contains("::")
        || v.contains("->")
        || v.starts_with("self.")
        || v.starts_with("this.")
        || v.starts_with("process.env")
        || v.starts_with("os.")
        || v.split('.').count() > 1 && v.split('.').all(ident) && !entropy::looks_random(v)
        // camelCase (`defaultToConfig2`, `cfg.apiToken`): an identifier.
        // Digits only at its end: a password mixes them in (`Seed6cHOCCsLcM9`).
        || ident(v) && v.as_bytes().windows(2).any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase())
            && !v.trim_end_matches(|c: char| c.is_ascii_digit()).bytes().any(|b| b.is_ascii_digit())
        || is_type(v)
}

/// A type: `String`, `Vec<u8>`, GraphQL's `String!`, Prisma's `String?`.
fn is_type(v: &str) -> bool {
    v.bytes().next().is_some_and(|b| b.is_ascii_uppercase())
        && v.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'<' | b'>' | b':' | b'!' | b'?'))
        && !v.bytes().any(|b| b.is_ascii_digit())
}

/// Whether an unquoted value outside a config file still reads as a literal secret.
fn plain_literal(v: &str) -> bool {
    let digit = v.bytes().any(|b| b.is_ascii_digit());
    let alpha = v.bytes().any(|b| b.is_ascii_alphabetic());
    // Words joined by `-`, `_` or `.` (`same-origin`) are a name, words joined by `|` or `,`
    // a list (`loggedin|twosock`), and an apostrophe makes a word (`can't`); other ASCII symbols
    // are not.
    let symbol = v.bytes().any(|b| {
        b.is_ascii_punctuation()
            && !matches!(b, b'_' | b'-' | b'.' | b'/' | b':' | b'\'' | b'|' | b',')
    });
    alpha && (digit || symbol) && !v.bytes().all(|b| b.is_ascii_digit() || b == b'.')
}

/// Whether a value stated in prose (`the password is X`) reads as one. Prose has no
/// identifiers, so `PwUxMTDTcU25` and `xZsin.dur6AHpv` are values there; calls, indexes,
/// types (`String!`) and placeholders are not.
pub(super) fn prose_value(v: &str) -> bool {
    // `size=10`, `lib,link`, `a|b`: parameters and lists, in a sentence about a password.
    let listed = v.contains(['=', ',', '|', '&']);
    // `user@domain`: an address (the anonymous FTP password convention), not a password.
    let address = v.split_once('@').is_some_and(|(a, b)| {
        [a, b].iter().all(|p| {
            !p.is_empty()
                && p.bytes()
                    .all(|c| c.is_ascii_alphabetic() || c == b'.' || c == b'-')
        })
    });
    !never_secret(v, "")
        && !listed
        && !address
        && !v.contains(['(', '[', '{'])
        && !v.contains("::")
        && !is_type(v)
        && (plain_literal(v) || entropy::looks_random(v))
}

/// The same for a command line or connection string, where a value is never code: only calls,
/// indexes and templates are kept (`encodeURIComponent(pw)`), an identifier-like value is not.
pub(super) fn literal_argument(v: &str) -> bool {
    !never_secret(v, "")
        && !v.contains(['(', '[', '{'])
        && (plain_literal(v) || entropy::looks_random(v))
}

/// Whether a `.env` value is a plain setting, kept readable: its name names no secret, it does not
/// look random, and it is a number, a boolean, a URL without credentials, a word, or the value of
/// a setting's name (`NODE_ENV`, `OPENAI_MODEL`, `MAILGUN_DOMAIN`).
fn env_setting(key: &str, v: &str) -> bool {
    if name_of(key).is_some() || entropy::looks_random(v) {
        return false;
    }
    let lower = v.to_ascii_lowercase();
    if let Some((_, rest)) = v.split_once("://") {
        let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
        let query = rest.split_once('?').map_or("", |(_, q)| q);
        let secret_param = query
            .split('&')
            .any(|kv| name_of(kv.split('=').next().unwrap_or("")).is_some());
        return !authority.contains('@') && !secret_param;
    }
    // `8080`, `0.5`, `30s`, `512MB`, `-42`, `1e10`, `0x1A`.
    let digits = v.trim_end_matches(|c: char| c.is_ascii_alphabetic());
    let number = !digits.is_empty()
        && v.len() - digits.len() <= 3
        && digits.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        || numeric(v);
    let word =
        v.chars().count() <= 40 && v.chars().all(|c| c.is_alphabetic() || "-_./:".contains(c));
    // Words with spaces and variables between them (`My App`, `Lorem ${NAME} ipsum`): a
    // sentence or a template, where a secret is one unbroken token.
    let plain = REFERENCE.replace_all(v, "");
    let parts: Vec<&str> = plain.split_whitespace().collect();
    let prose = v.contains(char::is_whitespace)
        && !parts.is_empty()
        && parts
            .iter()
            .map(|p| p.trim_matches(|c: char| !c.is_alphanumeric()))
            .filter(|p| !p.is_empty() && p.chars().all(char::is_alphabetic))
            .count()
            * 2
            > parts.len();
    let setting = words(key)
        .last()
        .is_some_and(|w| SETTING_WORDS.contains(&w.as_str()))
        && v.len() <= 64
        && !v.chars().any(char::is_whitespace);
    number
        || ["true", "false", "yes", "no", "on", "off"].contains(&lower.as_str())
        || word
        || prose
        || setting
}

/// A number as configuration writes one: `-42`, `3.5`, `1e10`, `0x1A`.
fn numeric(v: &str) -> bool {
    let v = v.trim_start_matches(['-', '+']);
    if let Some(h) = v.strip_prefix("0x").or_else(|| v.strip_prefix("0X")) {
        return !h.is_empty() && h.len() <= 16 && h.bytes().all(|b| b.is_ascii_hexdigit());
    }
    v.len() <= 24
        && v.starts_with(|c: char| c.is_ascii_digit())
        && v.bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
}

/// A `.env` value up to its comment: `"a b" # note` -> `"a b"`, `x # note` -> `x`.
fn strip_comment(raw: &str) -> &str {
    if let Some(q) = raw.chars().next().filter(|c| *c == '"' || *c == '\'') {
        if let Some(end) = raw[1..].find(q) {
            let rest = raw[end + 2..].trim_start();
            if rest.is_empty() || rest.starts_with('#') {
                return &raw[..end + 2];
            }
        }
        return raw;
    }
    match raw.find(" #").or_else(|| raw.find("\t#")) {
        Some(at) => raw[..at].trim_end(),
        None => raw,
    }
}

/// The kind to redact `val` under, for key `key` in a file of kind `file`; `None` leaves it.
pub(super) fn judge(key: &str, val: &str, file: FileKind) -> Option<&'static str> {
    let bare_weak =
        file == FileKind::Credentials && WEAK_WORDS.contains(&key.to_ascii_lowercase().as_str());
    let name = name_of(key).or(bare_weak.then_some(Name::Weak))?;
    let (v, quoted) = unquote(val);
    if never_secret(v, key) {
        return None;
    }
    // Outside `.env` and credentials files a one-word value (`id-token: write`, `password:
    // 'foobar'` in a demo) is a setting or an example; a secret mixes in digits or symbols, or
    // looks random.
    let shaped = plain_literal(v) || entropy::looks_random(v) || token_prefixed(v);
    let literal = match (quoted, file) {
        (_, FileKind::Lock) => false,
        (_, FileKind::Env | FileKind::Credentials) => {
            quoted || !is_code(v) || entropy::looks_random(v)
        }
        // (A markdown code span in prose, "on the first pass: `close()`", quotes code.)
        (true, _) if val.starts_with('`') => !is_code(v) && shaped,
        (true, _) => shaped,
        (false, FileKind::Source) => false,
        (false, FileKind::Config | FileKind::Other) => !is_code(v) && shaped,
    };
    if !literal {
        return None;
    }
    match name {
        Name::Password => Some("password"),
        Name::Secret => Some("secret"),
        // A UUID under a loose name (`DocumentKey=12d8d106-…`) names a record.
        Name::Weak => (entropy::looks_random(v) && !uuid(v)).then_some("secret"),
    }
}

/// A value that starts with a token format's prefix (`glpat-`, `ghp_`, `sk_live_`) though it
/// is too short for the format: the first half of a token split over two lines.
fn token_prefixed(v: &str) -> bool {
    static PREFIXES: LazyLock<Vec<&'static str>> = LazyLock::new(|| {
        crate::redact::tokens::TOKENS
            .iter()
            .flat_map(|r| r.needles.iter().copied())
            .filter(|n| n.len() >= 4 && n.ends_with(['_', '-']))
            .collect()
    });
    v.len() > 8 && PREFIXES.iter().any(|p| v.starts_with(p))
}

/// `8-4-4-4-12` hex digits.
fn uuid(v: &str) -> bool {
    let parts: Vec<&str> = v.split('-').collect();
    parts.iter().map(|p| p.len()).eq([8, 4, 4, 4, 12])
        && parts
            .iter()
            .all(|p| p.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// Replaces `val` (the tail of `whole`) by a marker, keeping its quotes (and brackets).
fn replace_value(whole: &str, val: &str, kind: &str) -> String {
    let start = whole.len() - val.len();
    let (inner, _) = unquote(val);
    let at = inner.as_ptr() as usize - val.as_ptr() as usize;
    format!(
        "{}{}{}{}",
        &whole[..start],
        &val[..at],
        marker(kind),
        &val[at + inner.len()..]
    )
}

/// Secret-named assignments anywhere in `text`.
pub fn named(text: &str, file: FileKind, found: &mut Vec<&'static str>) -> Option<String> {
    if !ASSIGNMENT.is_match(text) {
        return None;
    }
    let mut changed = false;
    let out = ASSIGNMENT.replace_all(text, |c: &Captures| {
        let whole = c.get(0).expect("match").as_str();
        let (op, val) = (&c["op"], &c["val"]);
        let after_key = c.name("key").expect("key").end();
        let before = text[..c.get(0).expect("match").start()].chars().next_back();
        // `Token::Any`, `a::token: x`, `password == x`, `x.token = y` (a field, in code).
        let start = c.get(0).expect("match").start();
        let path_like = op == ":" && (val.starts_with(':') || before == Some(':'))
            // A route's segment (`"/disk/:encoded_token" => "…"`), not a name.
            || text[..start].ends_with('/')
            || text[..start].ends_with("/:");
        let compare = op == "=" && (val.starts_with('=') || text[after_key..].starts_with("=="))
            // `test "$mode,$pass" = "lib,link"`: a variable read, not a name assigned to.
            || before == Some('$');
        // YAML/JSON write `key: value` with a space or a quoted key; `a:b` is something else.
        let tight_colon = op == ":"
            && c["kq"].is_empty()
            && !whole[c["key"].len()..].starts_with(": ")
            && !whole[c["key"].len()..].starts_with(":\t");
        if path_like || compare || tight_colon {
            return whole.to_string();
        }
        // `pass=12345&id=…`: a query string's parameter ends at the next `&`.
        let (val, rest) = match (op, val.split_once('&')) {
            ("=", Some((v, _))) if !val.starts_with(['"', '\'', '`']) => val.split_at(v.len()),
            _ => (val, ""),
        };
        match judge(&c["key"], val, file) {
            Some(kind) => {
                found.push(kind);
                changed = true;
                let head = &whole[..whole.len() - rest.len()];
                format!("{}{rest}", replace_value(head, val, kind))
            }
            None => whole.to_string(),
        }
    });
    changed.then(|| out.into_owned())
}

/// `bindpw x`: a configuration line of a name that names a password or secret and its value,
/// separated by spaces alone. Only in configuration files, where such lines are the syntax.
pub fn spaced(text: &str, file: FileKind, found: &mut Vec<&'static str>) -> Option<String> {
    if file != FileKind::Config {
        return None;
    }
    let mut changed = false;
    let out = SPACED.replace_all(text, |c: &Captures| {
        let whole = &c[0];
        // `password prog,link` in a shell script's `case`: a list, not a value.
        let strong = matches!(name_of(&c["key"]), Some(Name::Password | Name::Secret))
            && !c["val"].contains([',', '|', '&']);
        match judge(&c["key"], &c["val"], file).filter(|_| strong && !c["val"].contains(MARK)) {
            Some(kind) => {
                found.push(kind);
                changed = true;
                format!("{}{}", &c["pre"], marker(kind))
            }
            None => whole.to_string(),
        }
    });
    changed.then(|| out.into_owned())
}

/// Every value of a `.env` file but plain settings, or every random-looking or secret-named value of a credentials
/// file, line by line.
pub fn file_values(
    text: &str,
    file: FileKind,
    netrc: bool,
    found: &mut Vec<&'static str>,
) -> Option<String> {
    let mut changed = false;
    let out = ANY_ASSIGNMENT.replace_all(text, |c: &Captures| {
        let whole = &c[0];
        let val = &c["val"];
        let raw = strip_comment(val.trim_end_matches(',').trim());
        // What follows the value within the match: its comment.
        let comment = &val[raw.as_ptr() as usize - val.as_ptr() as usize + raw.len()..];
        let (v, _) = unquote(raw);
        let reference = v.starts_with("$") && !v[1..].contains('$') && !v.contains(' ') || blank(v);
        if v.is_empty() || v.contains("[REDACTED:") || reference || v.starts_with(['{', '[']) {
            return whole.to_string();
        }
        let kind = match file {
            FileKind::Env if env_setting(&c["key"], v) => None,
            FileKind::Env => Some("env-value"),
            _ if entropy::looks_random(v) => Some("credential-value"),
            _ => judge(&c["key"], raw, file),
        };
        match kind {
            Some(kind) => {
                found.push(kind);
                changed = true;
                let (_, quoted) = unquote(raw);
                let q = if quoted { &raw[..1] } else { "" };
                let tail = &c[0][c["pre"].len() + val.len()..];
                format!("{}{q}{}{q}{comment}{tail}", &c["pre"], marker(kind))
            }
            None => whole.to_string(),
        }
    });
    let mut text = out.into_owned();
    if netrc && NETRC_PASSWORD.is_match(&text) {
        text = NETRC_PASSWORD
            .replace_all(&text, |c: &Captures| {
                found.push("netrc-password");
                changed = true;
                let whole = &c[0];
                format!(
                    "{}{}",
                    &whole[..whole.len() - c["secret"].len()],
                    marker("netrc-password")
                )
            })
            .into_owned();
    }
    changed.then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_weakness_or_advisory_id_is_no_secret() {
        for id in [
            "CWE-259",
            "CWE-259)",
            "CVE-2025-27731",
            "GHSA-4x9q-8c2v-77mp",
        ] {
            assert!(never_secret(id, "password"), "{id}");
        }
        assert!(!never_secret("CWE-x9Tq!", "password"));
    }

    #[test]
    fn a_code_span_that_holds_code_is_no_secret() {
        assert_eq!(judge("pass", "`close()`", FileKind::Other), None);
        assert_eq!(
            judge("password", "`Hunt3r!x9`", FileKind::Other),
            Some("password")
        );
    }

    #[test]
    fn a_number_with_its_unit_is_a_measurement_not_a_secret() {
        for v in ["1.318s", "250ms", "4k", "1.5GB", "30 s", "12%"] {
            assert!(quantity(v), "{v}");
            assert_eq!(
                judge("Time to First Token", v, FileKind::Other),
                None,
                "{v}"
            );
        }
        for v in ["Seed6cHOCCsLcM9", "1.2.3s", "s", "9x9x9k", "123abc"] {
            assert!(!quantity(v), "{v}");
        }
        assert_eq!(
            judge("api_token", "\"Seed6cHOCCsLcM9\"", FileKind::Other),
            Some("secret")
        );
    }

    #[test]
    fn key_words_and_names() {
        assert_eq!(
            words("AWS_SECRET_ACCESS_KEY"),
            ["aws", "secret", "access", "key"]
        );
        assert_eq!(words("clientSecret"), ["client", "secret"]);
        assert_eq!(words("db.password"), ["db", "password"]);
        assert_eq!(name_of("api_key"), Some(Name::Secret));
        assert_eq!(name_of("GITHUB_TOKEN"), Some(Name::Secret));
        assert_eq!(name_of("DB_PASS"), Some(Name::Password));
        assert_eq!(name_of("cacheKey"), Some(Name::Weak));
        for code in [
            "token_type",
            "tokenizer",
            "passwordHash",
            "secretName",
            "bypass",
        ] {
            assert_eq!(name_of(code), None, "{code}");
        }
    }
}
