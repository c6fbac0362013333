//! The redactor's unit tests: each format caught, near misses left alone, ordinary code untouched.

use super::*;

fn kinds(text: &str) -> Vec<&'static str> {
    redact(text, None).kinds.keys().copied().collect()
}

#[test]
fn each_kind_is_found_and_the_secret_is_gone() {
    let cases = [
        (
            "-----BEGIN RSA PRIVATE KEY-----\nMIIEabcdefghijklmnopqrstuvwx\n-----END RSA PRIVATE KEY-----\n",
            "private-key",
            "MIIEabc",
        ),
        (
            "+-----BEGIN OPENSSH PRIVATE KEY-----\n+b3BlbnNzaC1rZXktdjEAAAAA\n+-----END OPENSSH PRIVATE KEY-----",
            "private-key",
            "b3BlbnNza",
        ),
        (
            "-----BEGIN PRIVATE KEY-----\nclippedkeybody0123456789",
            "private-key",
            "clippedkeybody",
        ),
        (
            "id AKIAQ3EGRZ7KXV4NPL2M here",
            "aws-access-key",
            "AKIAQ3EGRZ7KXV4NPL2M",
        ),
        (
            "aws_secret_access_key = kQ7vR2mX9pL4sT8wN1bF6hJ3cD5gY0zA2eU7iO9r",
            "aws-secret-key",
            "kQ7vR2mX9pL4",
        ),
        (
            "t = ghp_abcdefghijklmnopqrstuvwxyz0123456789",
            "github-token",
            "ghp_abcdef",
        ),
        (
            "github_pat_11ABCDEFG0123456789_abcdefghij",
            "github-token",
            "github_pat_11",
        ),
        (
            "xoxb-1234567890-abcdefghij",
            "slack-token",
            "xoxb-1234567890",
        ),
        (
            "https://hooks.slack.com/services/T000/B000/XXXXabc",
            "slack-webhook",
            "T000/B000",
        ),
        (
            "sk-proj-Xk9mQ2vL7pR4tW8zB3nF6hJ1",
            "openai-key",
            "Xk9mQ2vL7pR4",
        ),
        (
            "sk-ant-api03-abcdefghijklmnopqrstuvwx",
            "anthropic-key",
            "api03-abcdef",
        ),
        (
            "AIzaSyA1234567890abcdefghijklmnopqrstuv",
            "google-api-key",
            "AIzaSyA123",
        ),
        (
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abcdefghijklmnop",
            "jwt",
            "eyJzdWIiOiIxMjM0In0",
        ),
        (
            "Authorization: Bearer abcdef0123456789abcdef",
            "bearer-token",
            "abcdef0123456789",
        ),
        ("password = \"hunter22\"", "password", "hunter22"),
        ("db_password: s3cr3t!", "password", "s3cr3t!"),
        ("{\"api_key\": \"k-123456\"}", "secret", "k-123456"),
        (
            "postgres://app:pa55word@db/app",
            "url-credential",
            "pa55word",
        ),
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
        "match t { Token::Any => 1 }",
        "let token = next_token();",
        "struct Login { password: String }",
        "\"jsonwebtoken\": \"^2.0.0\",",
        "\"secret-handshake\": \"~1.4\"",
        "token_type = \"bearer\"",
        "let tokenizer = Tokenizer::new(input);",
        "password: req.body.password,",
        "api_key = os.environ.get(\"API_KEY\")",
        "token = \"GITHUB_TOKEN\"",
        "password: \"Password is required\"",
        "auth: true",
        "cacheKey = \"user-profile\"",
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
fn env_files_hide_values_but_plain_settings() {
    let text = "+DB_HOST=localhost\n+export NAME=plainvalue\n-OLD=oldvalue\n EMPTY=\n+DB_PASSWORD=hunter\n+HOOK=a1b2c3d4e5\n+SESSION=q8Vd2LkR9sXw4TzB7mNc\n";
    let r = redact(text, Some("config/.env.production"));
    for v in ["hunter", "a1b2c3d4e5", "q8Vd2LkR9sXw4TzB7mNc"] {
        assert!(!r.text.contains(v), "{}", r.text);
    }
    for v in ["localhost", "plainvalue", "oldvalue"] {
        assert!(r.text.contains(v), "{}", r.text);
    }
    assert_eq!(r.count, 3, "{}", r.text);
    assert!(r.text.contains("+HOOK=[REDACTED:env-value]"));
    let settings = "NODE_ENV=production\nAPP_ENV=local\nOPENAI_MODEL=gpt-4o-mini\nMAILGUN_DOMAIN=mg.acme.io\nSUPABASE_URL=https://gibzztcwenssqkqghpes.supabase.co\nPORT=8080\nTIMEOUT=30s\nDEBUG=false\n";
    assert_eq!(redact(settings, Some(".env")).count, 0);
    // A URL with credentials or a secret parameter, a random value under a setting's name: hidden.
    for line in [
        "REDIS_URL=redis://:R26x0qbPqGkh@cache:6379/0",
        "HOOK_URL=https://h.example/x?token=abc123def",
        "APP_ENV=q8Vd2LkR9sXw4TzB7mNc",
    ] {
        assert_eq!(redact(line, Some(".env")).count, 1, "{line}");
    }
    let ex = redact("DB_PASSWORD=hunter2x\n", Some(".env.example"));
    assert_eq!(ex.count, 1);
    assert_eq!(redact(&r.text, Some(".env")).count, 0);
}

#[test]
fn absorb_sums_counts() {
    let mut total = redact("AKIAQ3EGRZ7KXV4NPL2M", None);
    total.absorb(&redact(
        "AKIAQ3EGRZ7KXV4NPL2N and password='abcd1234'",
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

/// The planted corpus (tests/fixtures/secrets/corpus.tsv): `(scope, path, kind, secret, text)`.
pub(crate) fn corpus() -> Vec<(String, String, String, String, String)> {
    include_str!("../../tests/fixtures/secrets/corpus.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            let secret = c[3].replace("%%", "");
            let text = c[4].replace("\\n", "\n").replace("{S}", &secret);
            let path = c[1].replace("{S}", &secret);
            (c[0].into(), path, c[2].into(), secret, text)
        })
        .collect()
}

#[test]
fn every_planted_secret_is_caught_line_by_line() {
    let mut missed = Vec::new();
    for (scope, path, kind, secret, text) in corpus() {
        let r = match scope.as_str() {
            "name" => redact(&path, None),
            "message" => redact(&text, None),
            _ => redact(&text, Some(&path)),
        };
        if r.text.contains(&secret) {
            missed.push(format!("{kind} in {path}: {} -> {}", text, r.text));
        }
    }
    assert!(missed.is_empty(), "missed:\n{}", missed.join("\n"));
}

#[test]
fn ordinary_code_in_source_files_is_left_alone() {
    for (path, text) in [
        (
            "src/lexer.rs",
            "Token::Any => self.bump(),\nlet token = next_token();\npassword: String,",
        ),
        (
            "app/login.js",
            "const password = form.password;\nlet token = await getToken(user);",
        ),
        (
            "app/auth.py",
            "password = request.form['password']\ntoken = create_token(user)",
        ),
        (
            "app/db.go",
            "password := cfg.Password\nsecret := os.Getenv(\"SECRET\")",
        ),
    ] {
        let r = redact(text, Some(path));
        assert_eq!(r.count, 0, "{path}: {}", r.text);
    }
}

/// Lock files' integrity hashes are digests of published packages, not secrets: left alone.
#[test]
fn lock_file_hashes_are_not_secrets() {
    let cargo = "[[package]]\nname = \"regex\"\nversion = \"1.11.1\"\nchecksum = \"b544ef1b4eac5dc2db33ea63606ae9ffcfac26c1416a2806ae0bf5f56b201191\"\n";
    let npm = "\"node_modules/jsonwebtoken\": {\n  \"version\": \"9.0.2\",\n  \"integrity\": \"sha512-PRp66vJ865SSqOlgqS8hujT5U4AOgMfhrwYIuIhfKaoSCZcirrmASQr8CX7cUg+RMih+hgznrjp99o+W4pJLHQ==\",\n  \"dependencies\": { \"jws\": \"^3.2.2\" }\n}";
    assert_eq!(redact(cargo, Some("Cargo.lock")).count, 0);
    assert_eq!(redact(npm, Some("package-lock.json")).count, 0);
    assert_eq!(redact(npm, Some("web/package.json")).count, 0);
}

/// Zero false positives on ordinary source: this repository's own `src/` and `tests/` (the
/// planted corpus aside) are read as the files they are, and nothing is redacted.
#[test]
fn this_repository_sources_have_no_secrets() {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.ends_with("fixtures/secrets") {
                continue;
            }
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    walk(&root.join("src"), &mut files);
    walk(&root.join("tests"), &mut files);
    // Tests that plant a fake secret on purpose, with what they plant: true positives.
    let planted: &[(&str, &str)] = &[
        ("src/agents/error.rs", r#"{"anthropic-key": 1}"#),
        (
            "tests/artifact.rs",
            // Its PEM block is a format string (`{pem_body}`), no key.
            r#"{"aws-access-key": 1, "url-credential": 1}"#,
        ),
        ("tests/backends.rs", r#"{"openai-key": 1}"#),
        ("src/sandbox/export_tests.rs", r#"{"anthropic-key": 1}"#),
        ("tests/sandbox.rs", r#"{"anthropic-key": 1}"#),
        // A reviewer's answer that quotes the diff line committing a (made-up) Stripe key.
        (
            "tests/fixtures/answers/tuned/holdout-w7/gitlab-duo/mr-thread-critical-in-prose.md",
            r#"{"stripe-key": 1}"#,
        ),
        // Look-alikes for the injection detector, one a test password and one a JWT.
        (
            "tests/fixtures/injection/negative.tsv",
            r#"{"jwt": 1, "password": 1}"#,
        ),
    ];
    let mut hits = Vec::new();
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        let rel = f.strip_prefix(root).unwrap().display().to_string();
        // The redactor's own tests quote secrets on purpose.
        if rel.starts_with("src/redact/") {
            continue;
        }
        let r = redact(&text, Some(&rel));
        let expected = planted.iter().find(|(p, _)| *p == rel).map(|(_, k)| *k);
        if r.count > 0 && expected != Some(format!("{:?}", r.kinds).as_str()) {
            let changed: Vec<_> = r
                .text
                .lines()
                .filter(|l| l.contains("[REDACTED:"))
                .take(3)
                .collect();
            hits.push(format!("{rel}: {:?} {changed:?}", r.kinds));
        }
    }
    assert!(files.len() > 100, "{}", files.len());
    assert!(
        hits.is_empty(),
        "{} files with hits:\n{}",
        hits.len(),
        hits.join("\n")
    );
}
