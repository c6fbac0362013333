//! Secret redaction, applied to every artifact before it is stored or sent, and to every model
//! answer before it is stored, printed or sent on.
//!
//! A diff routinely carries credentials someone is about to commit by mistake; they must never
//! reach a model provider or the session store. A reviewer that reads files on its own may quote
//! one back, so answers pass through here too. Each secret is replaced by `[REDACTED:<kind>]` and
//! counted, so the user learns *that* something was hidden without the tool repeating it.
//!
//! The engine is here; the token formats and key vocabularies are data in [`rules`]; how a file's
//! name changes the reading of its assignments is in [`files`]; the name-based and per-file
//! assignment rules in `assign`; secrets known by their place (call arguments, Kubernetes
//! `Secret` manifests, raw key files) in `context`; the randomness test in `entropy`.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use regex::{Captures, Regex};

use files::FileKind;

mod assign;
mod context;
mod entropy;
pub mod files;
pub mod rules;

/// Outcome of redacting one text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Redacted {
    pub text: String,
    /// Total number of secrets replaced.
    pub count: usize,
    /// Kind name -> how many of that kind.
    pub kinds: BTreeMap<&'static str, usize>,
}

impl Redacted {
    /// Adds another redaction's counts (a change is redacted file by file).
    pub fn absorb(&mut self, other: &Redacted) {
        self.count += other.count;
        for (k, n) in &other.kinds {
            *self.kinds.entry(k).or_default() += n;
        }
    }
}

/// The token rules of [`rules::TOKENS`], compiled once. Each runs on its own: most start with a
/// literal the regex engine finds with a fast substring search, while one `RegexSet` of them all
/// measured 30 times slower (its automaton outgrows its cache on counted repetitions).
static TOKENS: LazyLock<Vec<(&'static str, Regex)>> = LazyLock::new(|| compile(rules::TOKENS));
static CONTEXTS: LazyLock<Vec<(&'static str, Regex)>> = LazyLock::new(|| compile(rules::CONTEXTS));
static PROSE: LazyLock<Vec<(&'static str, Regex)>> = LazyLock::new(|| compile(rules::PROSE));

fn compile(table: &[(&'static str, &str)]) -> Vec<(&'static str, Regex)> {
    table
        .iter()
        .map(|(k, p)| (*k, Regex::new(p).expect("valid pattern")))
        .collect()
}

fn marker(kind: &str) -> String {
    format!("[REDACTED:{kind}]")
}

/// Redacts `text`; `path` (the file it came from, if any) says how assignments read there (see
/// [`files`]): every value of a `.env` file but plain settings, random-looking values in
/// credentials files, unquoted literals in configuration but not in code.
pub fn redact(text: &str, path: Option<&str>) -> Redacted {
    let mut out = Redacted {
        text: text.to_string(),
        ..Default::default()
    };
    // A token is a secret by its shape; a value found by its place must also read as one.
    apply(&mut out, path, &TOKENS, |v| !placeholder(v));
    apply(&mut out, path, &CONTEXTS, assign::literal_argument);
    let file = files::kind_of(path);
    if file == FileKind::Other {
        apply(&mut out, path, &PROSE, assign::literal_secret);
    }
    let mut found = Vec::new();
    for step in [context::named_forms, assign::named] {
        if let Some(t) = step(&out.text, file, &mut found) {
            out.text = t;
        }
    }
    if matches!(file, FileKind::Env | FileKind::Credentials) {
        if let Some(t) = assign::file_values(&out.text, file, files::is_netrc(path), &mut found) {
            out.text = t;
        }
    }
    if let Some(t) = context::kube_secret(&out.text, &mut found) {
        out.text = t;
    }
    if files::is_key_file(path) {
        if let Some(t) = context::key_file(&out.text, &mut found) {
            out.text = t;
        }
    }
    for kind in found {
        count(&mut out, kind, 1);
    }
    out
}

/// Replaces the `secret` group (or the whole match) of each rule in `rules` whose value `accept`s.
/// A rule listed in [`rules::GATES`] runs only when its text or file name holds one of its
/// literals.
fn apply(
    out: &mut Redacted,
    path: Option<&str>,
    rules: &[(&'static str, Regex)],
    accept: fn(&str) -> bool,
) {
    for (kind, re) in rules {
        let gate = rules::GATES.iter().find(|(k, _)| k == kind);
        let open = |lits: &[&str]| {
            lits.iter()
                .any(|l| out.text.contains(l) || path.is_some_and(|p| p.contains(l)))
        };
        if gate.is_some_and(|(_, lits)| !open(lits)) || !re.is_match(&out.text) {
            continue;
        }
        let mut n = 0;
        let replaced = re.replace_all(&out.text, |c: &Captures| {
            let whole = c.get(0).expect("match");
            let secret = c.name("secret").unwrap_or(whole);
            // Already a marker (a second pass over redacted text), or a placeholder in a
            // documented form (`user:pass@host`, `Bearer <token>`): leave it, count nothing.
            if secret.as_str().starts_with("[REDACTED:") || !accept(secret.as_str()) {
                return whole.as_str().to_string();
            }
            n += 1;
            format!(
                "{}{}{}",
                &whole.as_str()[..secret.start() - whole.start()],
                marker(kind),
                &whole.as_str()[secret.end() - whole.start()..]
            )
        });
        if n > 0 {
            out.text = replaced.into_owned();
            count(out, kind, n);
        }
    }
}

/// Redacts every string inside a JSON value (a model's structured answer, a record), returning
/// what was replaced.
pub fn redact_json(value: &mut serde_json::Value) -> Redacted {
    let mut total = Redacted::default();
    match value {
        serde_json::Value::String(s) => {
            let r = redact(s, None);
            if r.count > 0 {
                *s = r.text.clone();
            }
            total.absorb(&r);
        }
        serde_json::Value::Array(items) => {
            for v in items {
                total.absorb(&redact_json(v));
            }
        }
        serde_json::Value::Object(map) => {
            for v in map.values_mut() {
                total.absorb(&redact_json(v));
            }
        }
        _ => {}
    }
    total
}

/// A context-found value that only stands for a secret: `pass`, `password`, `$PASS`, `<token>`.
fn placeholder(v: &str) -> bool {
    let lower = v.to_ascii_lowercase();
    rules::PLACEHOLDERS.contains(&lower.as_str())
        || ["pass", "pw", "pwd", "user", "username"].contains(&lower.as_str())
        || v.starts_with(['$', '<', '{', '%'])
        || v.chars().all(|c| matches!(c, '*' | 'x' | 'X' | '.'))
        // Lowercase words joined by `/` (`basic request/response information`): prose, while
        // base64 of a credential always mixes in capitals or digits.
        || v.contains('/') && v.bytes().all(|b| b.is_ascii_lowercase() || b == b'/')
}

fn count(out: &mut Redacted, kind: &'static str, n: usize) {
    if n > 0 {
        out.count += n;
        *out.kinds.entry(kind).or_default() += n;
    }
}

#[cfg(test)]
mod context_tests;
#[cfg(test)]
mod tests;
