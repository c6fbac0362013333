//! Secret redaction, applied to every artifact before it is stored or sent.
//!
//! A diff routinely carries credentials someone is about to commit by mistake; they must never
//! reach a model provider or the session store. Each secret is replaced by `[REDACTED:<kind>]` and
//! counted, so the user learns *that* something was hidden without the tool repeating it.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use regex::{Captures, Regex};

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

/// A pattern whose capture group `secret` (or the whole match) is replaced.
struct Rule {
    kind: &'static str,
    re: Regex,
}

fn rule(kind: &'static str, re: &str) -> Rule {
    Rule {
        kind,
        re: Regex::new(re).expect("valid pattern"),
    }
}

/// Most specific first, so a secret is counted once under its best name.
static RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    vec![
        // A PEM block, possibly inside a diff (every line prefixed); unterminated runs to the end.
        rule(
            "private-key",
            r"(?s)(?P<secret>-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----.*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|\z))",
        ),
        rule(
            "url-credential",
            r"[a-zA-Z][a-zA-Z0-9+.-]*://[^\s:/@]+:(?P<secret>[^\s@/]{3,})@",
        ),
        rule(
            "jwt",
            r"\b(?P<secret>eyJ[A-Za-z0-9_-]{7,}\.eyJ[A-Za-z0-9_-]{7,}\.[A-Za-z0-9_-]{10,})",
        ),
        rule("anthropic-key", r"\b(?P<secret>sk-ant-[A-Za-z0-9_-]{20,})"),
        rule(
            "openai-key",
            r"\b(?P<secret>sk-(?:proj-)?[A-Za-z0-9_-]{20,})",
        ),
        rule(
            "github-token",
            r"\b(?P<secret>(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,}))",
        ),
        rule(
            "slack-token",
            r"\b(?P<secret>xox[abposr]-[A-Za-z0-9-]{10,})",
        ),
        rule(
            "slack-webhook",
            r"(?P<secret>https://hooks\.slack\.com/services/[A-Za-z0-9/_-]+)",
        ),
        rule("google-api-key", r"\b(?P<secret>AIza[A-Za-z0-9_-]{35})"),
        rule(
            "aws-access-key",
            r"\b(?P<secret>(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|ANVA|AIPA)[A-Z0-9]{16})\b",
        ),
        rule(
            "aws-secret-key",
            r#"(?i)(?:aws_secret_access_key|secret_?access_?key)["']?\s*(?:=|:|:=|=>)\s*["']?(?P<secret>[A-Za-z0-9/+=]{40})"#,
        ),
        rule(
            "bearer-token",
            r"\b[Bb]earer\s+(?P<secret>[A-Za-z0-9._~+/=-]{16,})",
        ),
    ]
});

/// `password = "x"`, `api_key: x`, `"token": "x"`: a secret-named key assigned a literal.
static ASSIGNMENT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)(?P<key>[A-Za-z0-9_.-]*(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret|auth[_-]?token)[A-Za-z0-9_.-]*)(?P<kq>["']?)\s*(?P<op>:=|=>|=|:)\s*(?P<val>"[^"\n]*"|'[^'\n]*'|[^\s,;)}\]]+)"#,
    )
    .expect("valid pattern")
});

/// `KEY=value` lines of a `.env` file, also as diff lines and with `export`.
static ENV_LINE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?m)^(?P<pre>[+\- ]?\s*(?:export\s+)?[A-Za-z_][A-Za-z0-9_.]*\s*=\s*)(?P<val>[^\n]*?)\s*$"#)
        .expect("valid pattern")
});

fn marker(kind: &str) -> String {
    format!("[REDACTED:{kind}]")
}

/// Redacts `text`; `path` (the file it came from) turns on `.env` handling.
pub fn redact(text: &str, path: Option<&str>) -> Redacted {
    let mut out = Redacted {
        text: text.to_string(),
        ..Default::default()
    };
    for r in RULES.iter() {
        if !r.re.is_match(&out.text) {
            continue;
        }
        let mut n = 0;
        let replaced =
            r.re.replace_all(&out.text, |c: &Captures| {
                let whole = c.get(0).expect("match");
                let secret = c.name("secret").unwrap_or(whole);
                // Already a marker (a second pass over redacted text): leave it, count nothing.
                if secret.as_str().starts_with("[REDACTED:") {
                    return whole.as_str().to_string();
                }
                n += 1;
                format!(
                    "{}{}{}",
                    &whole.as_str()[..secret.start() - whole.start()],
                    marker(r.kind),
                    &whole.as_str()[secret.end() - whole.start()..]
                )
            })
            .into_owned();
        out.text = replaced;
        count(&mut out, r.kind, n);
    }
    redact_assignments(&mut out);
    if path.is_some_and(is_env_file) {
        redact_env(&mut out);
    }
    out
}

fn count(out: &mut Redacted, kind: &'static str, n: usize) {
    if n > 0 {
        out.count += n;
        *out.kinds.entry(kind).or_default() += n;
    }
}

/// Literal values only: identifiers, calls, references and placeholders are code, not secrets.
fn is_literal_secret(val: &str) -> bool {
    let quoted = (val.starts_with('"') && val.ends_with('"') && val.len() >= 2)
        || (val.starts_with('\'') && val.ends_with('\'') && val.len() >= 2);
    let inner = if quoted { &val[1..val.len() - 1] } else { val };
    if inner.len() < 4 || inner.contains("[REDACTED:") {
        return false;
    }
    let lower = inner.to_ascii_lowercase();
    const PLACEHOLDERS: &[&str] = &[
        "none",
        "null",
        "nil",
        "true",
        "false",
        "undefined",
        "xxx",
        "***",
        "****",
    ];
    if PLACEHOLDERS.contains(&lower.as_str())
        || inner.starts_with('$')
        || inner.starts_with('<')
        || inner.starts_with('{')
        || inner.chars().all(|c| c == '*' || c == 'x' || c == 'X')
    {
        return false;
    }
    if quoted {
        return true;
    }
    // Unquoted: an expression (call, field access, type) is code. A value with a digit or a
    // symbol, or a long run of letters, is a literal as written in env/YAML/INI files.
    let code_like = inner.contains('(')
        || inner.contains('[')
        || inner.starts_with('&')
        || inner.starts_with("self.")
        || inner.starts_with("this.")
        || inner.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            && inner
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == ':' || c == '<' || c == '>')
        || inner
            .chars()
            .all(|c| c.is_ascii_lowercase() || c == '_' || c == '.')
            && inner.contains(['_', '.']);
    !code_like
}

fn redact_assignments(out: &mut Redacted) {
    let mut n_pass = 0;
    let mut n_secret = 0;
    let text = ASSIGNMENT
        .replace_all(&out.text, |c: &Captures| {
            let whole = c.get(0).expect("match").as_str();
            let op = &c["op"];
            let val = &c["val"];
            // `password == x` is a comparison, `token: str` a type annotation.
            if op == "=" && val.starts_with('=') || !is_literal_secret(val) {
                return whole.to_string();
            }
            if op == ":" && matches!(val, "str" | "String" | "string" | "&str" | "bytes") {
                return whole.to_string();
            }
            let key = c["key"].to_ascii_lowercase();
            let kind = if key.contains("pass") || key.contains("pwd") {
                n_pass += 1;
                "password"
            } else {
                n_secret += 1;
                "secret"
            };
            let quote = val.chars().next().filter(|q| *q == '"' || *q == '\'');
            let val_start = whole.len() - val.len();
            match quote {
                Some(q) => format!("{}{q}{}{q}", &whole[..val_start], marker(kind)),
                None => format!("{}{}", &whole[..val_start], marker(kind)),
            }
        })
        .into_owned();
    out.text = text;
    count(out, "password", n_pass);
    count(out, "secret", n_secret);
}

fn is_env_file(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    (name == ".env" || name.starts_with(".env."))
        && ![".env.example", ".env.sample", ".env.template", ".env.dist"].contains(&name)
}

fn redact_env(out: &mut Redacted) {
    let mut n = 0;
    let text = ENV_LINE
        .replace_all(&out.text, |c: &Captures| {
            let val = c["val"].trim();
            if val.is_empty() || val.contains("[REDACTED:") || val == "\"\"" || val == "''" {
                return c[0].to_string();
            }
            n += 1;
            format!("{}{}", &c["pre"], marker("env-value"))
        })
        .into_owned();
    out.text = text;
    count(out, "env-value", n);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<&'static str> {
        redact(text, None).kinds.keys().copied().collect()
    }

    #[test]
    fn each_kind_is_found_and_the_secret_is_gone() {
        let cases = [
            ("-----BEGIN RSA PRIVATE KEY-----\nMIIEabc\n-----END RSA PRIVATE KEY-----\n", "private-key", "MIIEabc"),
            ("+-----BEGIN OPENSSH PRIVATE KEY-----\n+b3BlbnNza\n+-----END OPENSSH PRIVATE KEY-----", "private-key", "b3BlbnNza"),
            ("-----BEGIN PRIVATE KEY-----\nclippedkeybody", "private-key", "clippedkeybody"),
            ("id AKIAIOSFODNN7EXAMPLE here", "aws-access-key", "AKIAIOSFODNN7EXAMPLE"),
            ("aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws-secret-key", "wJalrXUtnFEMI"),
            ("t = ghp_abcdefghijklmnopqrstuvwxyz0123456789", "github-token", "ghp_abcdef"),
            ("github_pat_11ABCDEFG0123456789_abcdefghij", "github-token", "github_pat_11"),
            ("xoxb-1234567890-abcdefghij", "slack-token", "xoxb-1234567890"),
            ("https://hooks.slack.com/services/T000/B000/XXXXabc", "slack-webhook", "T000/B000"),
            ("sk-proj-abcdefghijklmnopqrstuvwx", "openai-key", "abcdefghijklmnop"),
            ("sk-ant-api03-abcdefghijklmnopqrstuvwx", "anthropic-key", "api03-abcdef"),
            ("AIzaSyA1234567890abcdefghijklmnopqrstuv", "google-api-key", "AIzaSyA123"),
            ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abcdefghijklmnop", "jwt", "eyJzdWIiOiIxMjM0In0"),
            ("Authorization: Bearer abcdef0123456789abcdef", "bearer-token", "abcdef0123456789"),
            ("password = \"hunter22\"", "password", "hunter22"),
            ("db_password: s3cr3t!", "password", "s3cr3t!"),
            ("{\"api_key\": \"k-123456\"}", "secret", "k-123456"),
            ("postgres://app:pa55word@db/app", "url-credential", "pa55word"),
        ];
        for (text, kind, secret) in cases {
            let r = redact(text, None);
            assert!(r.kinds.contains_key(kind), "{text}: {:?}", r.kinds);
            assert!(!r.text.contains(secret), "{text} -> {}", r.text);
            assert!(r.text.contains(&format!("[REDACTED:{kind}]")), "{}", r.text);
            assert!(!format!("{r:?}").contains(secret));
            assert_eq!(redact(&r.text, None).count, 0, "not idempotent: {}", r.text);
        }
    }

    #[test]
    fn near_misses_are_left_alone() {
        for text in [
            "AKIA1234",
            "sk-short",
            "password = get_password()",
            "fn login(password: &str) -> bool",
            "token: str",
            "if password == other {",
            "secret = os.environ[\"SECRET\"]",
            "token = self.token",
            "password = ${DB_PASSWORD}",
            "password: <your password here>",
            "password = None",
            "Bearer token",
            "commit 0123456789abcdef0123456789abcdef01234567",
            "the design: use a queue",
        ] {
            assert_eq!(
                kinds(text),
                Vec::<&str>::new(),
                "{text}: {}",
                redact(text, None).text
            );
        }
    }

    #[test]
    fn anthropic_keys_count_once_as_anthropic() {
        let r = redact("k=sk-ant-abcdefghijklmnopqrstuvwxyz", None);
        assert_eq!(r.count, 1, "{:?}", r.kinds);
        assert_eq!(r.kinds.get("anthropic-key"), Some(&1));
    }

    #[test]
    fn env_files_have_every_value_redacted() {
        let text = "+DB_HOST=localhost\n+export NAME=plainvalue\n-OLD=oldvalue\n EMPTY=\n";
        let r = redact(text, Some("config/.env.production"));
        for v in ["localhost", "plainvalue", "oldvalue"] {
            assert!(!r.text.contains(v), "{}", r.text);
        }
        assert_eq!(r.kinds.get("env-value"), Some(&3));
        assert!(r.text.contains("+export NAME=[REDACTED:env-value]"));
        let ex = redact("DB_HOST=localhost\n", Some(".env.example"));
        assert_eq!(ex.count, 0);
        assert_eq!(redact(&r.text, Some(".env")).count, 0);
    }

    #[test]
    fn absorb_sums_counts() {
        let mut total = redact("AKIAIOSFODNN7EXAMPLE", None);
        total.absorb(&redact(
            "AKIAIOSFODNN7EXAMPLF and password='abcd1234'",
            None,
        ));
        assert_eq!(total.count, 3);
        assert_eq!(total.kinds.get("aws-access-key"), Some(&2));
    }

    #[test]
    fn large_clean_input_is_unchanged() {
        let text = "let x = compute(a, b); // ordinary code line\n".repeat(100_000);
        let r = redact(&text, Some("src/lib.rs"));
        assert_eq!(r.count, 0);
        assert_eq!(r.text, text);
    }
}
