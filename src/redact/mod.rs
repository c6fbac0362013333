//! Secret redaction, applied to every artifact before it is stored or sent, and to every model
//! answer before it is stored, printed or sent on.
//!
//! A diff routinely carries credentials someone is about to commit by mistake; they must never
//! reach a model provider or the session store. A reviewer that reads files on its own may quote
//! one back, so answers pass through here too. Each secret is replaced by `[REDACTED:<kind>]` and
//! counted, so the user learns *that* something was hidden without the tool repeating it.
//!
//! A redaction never changes a text's lines: a secret across lines (a private key) leaves one
//! marker a line, each line keeping its diff marker (`+`, `-`, ` `), so a redacted hunk is still
//! the hunk it was.
//!
//! The engine is here; the token formats are data in [`tokens`], the key vocabularies and places
//! in [`rules`]; how a file's name (and a minified file's lines) change the reading of its text is
//! in [`file_kind`]; the name-based and per-file assignment rules in `assign`; secrets known by their
//! place (call arguments, Kubernetes `Secret` manifests, raw key files, PuTTY keys, split keys) in
//! `context` and `places`; string escapes in `escapes`; the randomness test in `entropy`;
//! the user's own rules in `user`; the lazily compiled rule tables in `engine`.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use regex::{Captures, Regex};

use engine::RuleSet;
use file_kind::FileKind;
use rules::Check;

mod assign;
mod context;
mod engine;
mod entropy;
mod escapes;
pub mod file_kind;
mod places;
pub mod rules;
pub mod tokens;
pub mod user;

pub use user::use_rules_file;

/// The start of every marker.
const MARK: &str = "[REDACTED:";

/// How deep escapes inside escaped strings are decoded (`"{\"k\":\"a\\nb\"}"`).
const MAX_DEPTH: u8 = 2;

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

    /// `github-token, stripe-key`: the kinds, for a user-facing line.
    pub fn kind_list(&self) -> String {
        self.kinds.keys().copied().collect::<Vec<_>>().join(", ")
    }
}

/// The built-in tables in one set, so one scan of a text finds the rules of all three it may
/// need: [`TOKENS`], [`CONTEXTS`] and [`PROSE`] are its table numbers.
static RULES: LazyLock<RuleSet> =
    LazyLock::new(|| RuleSet::new(&[tokens::TOKENS, rules::CONTEXTS, rules::PROSE]));
const TOKENS: usize = 0;
const CONTEXTS: usize = 1;
const PROSE: usize = 2;

fn marker(kind: &str) -> String {
    format!("{MARK}{kind}]")
}

/// The replacement of a secret `span`: one marker, or for a span across lines one marker a line,
/// each line keeping its newline and its leading diff marker, so the text keeps its shape.
fn mark(span: &str, kind: &str) -> String {
    let m = marker(kind);
    if !span.contains('\n') {
        return m;
    }
    let mut out = String::with_capacity(span.len().min(m.len() * 8));
    for (i, line) in span.split('\n').enumerate() {
        let (keep, body) = match i {
            0 => ("", line),
            _ if line.starts_with(['+', '-', ' ']) => line.split_at(1),
            _ => ("", line),
        };
        if i > 0 {
            out.push('\n');
        }
        out.push_str(keep);
        if body.trim().is_empty() {
            out.push_str(body);
        } else {
            out.push_str(&m);
        }
    }
    out
}

/// How one text is read: which file it came from and what that file is.
#[derive(Debug, Clone, Copy)]
struct Ctx<'a> {
    path: Option<&'a str>,
    file: FileKind,
    /// A minified or vendored file: only distinctive token formats are looked for.
    vendored: bool,
    netrc: bool,
    key_file: bool,
    /// How many decoded views deep this text is.
    depth: u8,
}

impl<'a> Ctx<'a> {
    fn new(text: &str, path: Option<&'a str>) -> Ctx<'a> {
        let file = file_kind::kind_of(path);
        Ctx {
            path,
            file,
            vendored: file_kind::is_vendored(path, text),
            netrc: file_kind::is_netrc(path),
            key_file: file_kind::is_key_file(path),
            depth: 0,
        }
    }

    /// The decoded view of a text's lines with escapes: read as the file they came from (code
    /// stays code, where prose rules do not run), but never as a key file or a `.netrc`.
    fn for_escaped(&self) -> Ctx<'a> {
        Ctx {
            netrc: false,
            key_file: false,
            depth: self.depth + 1,
            ..*self
        }
    }
}

/// Redacts `text`; `path` (the file it came from, if any) says how assignments read there (see
/// [`file_kind`]): every value of a `.env` file but plain settings, random-looking values in
/// credentials files, unquoted literals in configuration but not in code, and in minified or
/// vendored code only distinctive token formats.
pub fn redact(text: &str, path: Option<&str>) -> Redacted {
    let mut out = Redacted {
        text: text.to_string(),
        ..Default::default()
    };
    run(&mut out, &Ctx::new(text, path));
    out
}

/// A rule of its own code: the text, the file's kind, the kinds found so far; the new text when
/// it replaced something.
type Step = fn(&str, FileKind, &mut Vec<&'static str>) -> Option<String>;

/// Every rule, in order, over `out.text`.
fn run(out: &mut Redacted, ctx: &Ctx) {
    if ctx.depth < MAX_DEPTH {
        escapes::redact_escaped(out, ctx);
    }
    // A token is a secret by its shape; a value found by its place must also read as one.
    let candidates = RULES.candidates(&out.text, ctx.path);
    apply(out, ctx, &RULES, &candidates, TOKENS, |v| !placeholder(v));
    user::apply(out, ctx);
    let mut found = Vec::new();
    if !ctx.vendored {
        apply(
            out,
            ctx,
            &RULES,
            &candidates,
            CONTEXTS,
            assign::literal_argument,
        );
        if ctx.file == FileKind::Other {
            apply(out, ctx, &RULES, &candidates, PROSE, assign::prose_value);
        }
        let steps: [Step; 6] = [
            context::named_forms,
            assign::named,
            assign::spaced,
            places::xml_elements,
            places::block_scalars,
            places::calls,
        ];
        for step in steps {
            if let Some(t) = step(&out.text, ctx.file, &mut found) {
                out.text = t;
            }
        }
        if matches!(ctx.file, FileKind::Env | FileKind::Credentials) {
            if let Some(t) = assign::file_values(&out.text, ctx.file, ctx.netrc, &mut found) {
                out.text = t;
            }
        }
        if let Some(t) = context::kube_secret(&out.text, &mut found) {
            out.text = t;
        }
        if ctx.key_file {
            if let Some(t) = context::key_file(&out.text, &mut found) {
                out.text = t;
            }
        }
        if let Some(t) = places::putty_key(&out.text, &mut found) {
            out.text = t;
        }
    }
    // The rest of a secret split over two lines is the same secret: hidden, not counted again.
    if let Some(t) = places::continued(&out.text) {
        out.text = t;
    }
    for kind in found {
        count(out, kind, 1);
    }
}

/// Replaces the `secret` group (or the whole match) of each rule of `set`'s table `table` among
/// the `candidates` (the rules the text may match), when its value is `accept`ed (and, for a rule
/// that asks, looks random).
fn apply(
    out: &mut Redacted,
    ctx: &Ctx,
    set: &RuleSet,
    candidates: &[usize],
    table: usize,
    accept: fn(&str) -> bool,
) {
    for &i in candidates.iter().filter(|&&i| set.table(i) == table) {
        let rule = set.rule(i);
        if ctx.vendored && !rule.distinctive {
            continue;
        }
        let mut n = 0;
        let re = set.pattern(i);
        let replaced = re.replace_all(&out.text, |c: &Captures| {
            let whole = c.get(0).expect("match");
            // A match: the regex is compiled.
            let secret = secret_group(re.regex(), c).unwrap_or(whole);
            let v = secret.as_str();
            // Already a marker (a second pass over redacted text), or a placeholder in a
            // documented form (`user:pass@host`, `Bearer <token>`): leave it, count nothing.
            let checked = match rule.check {
                Check::Shape => true,
                Check::Random => entropy::looks_random(v),
                Check::KeyBlock => places::key_material(v),
            };
            if v.contains(MARK) || !accept(v) || !checked {
                return whole.as_str().to_string();
            }
            n += 1;
            format!(
                "{}{}{}",
                &whole.as_str()[..secret.start() - whole.start()],
                mark(v, rule.kind),
                &whole.as_str()[secret.end() - whole.start()..]
            )
        });
        if n > 0 {
            out.text = replaced.into_owned();
            count(out, rule.kind, n);
        }
    }
}

/// The `secret` group of a match: the first group named `secret…` that took part (a rule with
/// alternative forms of its value names each `secret`, `secret2`, ...).
fn secret_group<'h>(re: &Regex, c: &Captures<'h>) -> Option<regex::Match<'h>> {
    re.capture_names()
        .flatten()
        .filter(|n| n.starts_with("secret"))
        .find_map(|n| c.name(n))
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

/// A file's path as git-debate shows it: a secret in a file's name (`keys/sk_live_….txt`) is
/// redacted in the artifact, the session's records and the reviewer's copy of the revision alike.
pub fn redact_path(path: &str) -> String {
    let r = redact(path, None);
    if r.count > 0 {
        r.text
    } else {
        path.to_string()
    }
}

/// A value found by its shape or place that only stands for a secret: `pass`, `password`,
/// `$PASS`, `<token>`, AWS's documented `…EXAMPLE` keys, `your-token`.
pub(super) fn placeholder(v: &str) -> bool {
    let lower = v.to_ascii_lowercase();
    rules::PLACEHOLDERS.contains(&lower.as_str())
        || ["pass", "pw", "pwd", "user", "username"].contains(&lower.as_str())
        || v.starts_with(['$', '<', '{', '%'])
        || v.chars().all(|c| matches!(c, '*' | 'x' | 'X' | '.'))
        || lower.contains("example")
        || lower.contains("your-")
        || lower.contains("your_")
        // An elided example: `ya29.AHES6Z...OMfsHYI`.
        || v.contains("...")
        || v.contains('…')
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
mod places_tests;
#[cfg(test)]
mod shape_tests;
#[cfg(test)]
mod tests;
