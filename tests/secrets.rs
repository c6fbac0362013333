//! Secrets, both ways, end to end: the planted corpus (tests/fixtures/secrets/corpus.tsv) in every
//! scope git-debate reviews never reaches a session file or the terminal, and a reviewer that
//! quotes a secret in its answer leaks it nowhere either (not into the judge's prompt).

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::json;

use crate::common::{all_files, Run, TestEnv};

struct Planted {
    scope: String,
    path: String,
    kind: String,
    secret: String,
    text: String,
}

/// The corpus, each secret joined from its two halves (the file itself is not a leak).
fn corpus() -> Vec<Planted> {
    include_str!("fixtures/secrets/corpus.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            let secret = c[3].replace("%%", "");
            Planted {
                scope: c[0].into(),
                path: c[1].replace("{S}", &secret),
                kind: c[2].into(),
                text: c[4].replace("\\n", "\n").replace("{S}", &secret),
                secret,
            }
        })
        .collect()
}

/// Lines per file, so several planted lines can share a file.
fn files_of<'a>(items: impl Iterator<Item = &'a Planted>) -> BTreeMap<String, String> {
    let mut files: BTreeMap<String, String> = BTreeMap::new();
    for p in items {
        let body = files.entry(p.path.clone()).or_default();
        body.push_str(&p.text);
        body.push('\n');
    }
    files
}

/// Everything a run left: its session folder's files, its stdout and its stderr.
fn everything(run: &Run) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = all_files(&run.session_dir())
        .into_iter()
        .map(|(p, b)| {
            (
                p.display().to_string(),
                String::from_utf8_lossy(&b).into_owned(),
            )
        })
        .collect();
    out.push(("stdout".into(), run.stdout.clone()));
    out.push(("stderr".into(), run.stderr.clone()));
    out
}

#[test]
fn planted_secrets_in_every_scope_are_caught() {
    let env = TestEnv::with_repo();
    let all = corpus();
    fn of<'a>(all: &'a [Planted], scopes: &'a [&str]) -> impl Iterator<Item = &'a Planted> {
        all.iter()
            .filter(move |p| scopes.contains(&p.scope.as_str()))
    }
    assert!(all.len() >= 60, "{}", all.len());
    let kinds: std::collections::BTreeSet<_> = all.iter().map(|p| p.kind.as_str()).collect();
    assert!(kinds.len() >= 25, "{}", kinds.len());

    // The tracked files that will be modified, committed first with nothing in them.
    for path in files_of(of(&all, &["uncommitted"])).keys() {
        env.write(path, "nothing yet\n");
    }
    env.commit_all("base");
    // HEAD: committed files, files whose names hold a secret, a message holding secrets.
    for (path, body) in files_of(of(&all, &["commit", "name"])) {
        env.write(&path, &body);
    }
    let message: Vec<&str> = of(&all, &["message"]).map(|p| p.text.as_str()).collect();
    env.commit_all(&message.join("\n"));
    for (path, body) in files_of(of(&all, &["staged"])) {
        env.write(&path, &body);
        env.git(&["add", &path]);
    }
    for (path, body) in files_of(of(&all, &["uncommitted", "untracked"])) {
        env.write(&path, &body);
    }
    for (path, body) in files_of(of(&all, &["file"])) {
        env.write(&path, &body);
    }

    let mut runs: Vec<(Vec<&str>, Run)> = Vec::new();
    for (scope, covers) in [
        ("commit:HEAD", vec!["commit", "name", "message"]),
        ("staged", vec!["staged"]),
        ("uncommitted", vec!["staged", "uncommitted", "untracked"]),
    ] {
        runs.push((covers, env.run(&["--dry-run", "--scope", scope]).ok()));
    }
    for path in files_of(of(&all, &["file"])).keys() {
        let scope = format!("file:{path}");
        runs.push((
            vec!["file"],
            env.run(&["--dry-run", "--scope", &scope]).ok(),
        ));
    }

    // Caught: absent from everything every run left; and each secret's own scope saw its file
    // (the artifact names it), so absence is not just a file left out.
    let mut by_kind: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut leaks = Vec::new();
    for p in &all {
        let covering: Vec<&Run> = runs
            .iter()
            .filter(|(c, _)| c.contains(&p.scope.as_str()))
            .map(|(_, r)| r)
            .collect();
        assert!(!covering.is_empty(), "no run covers {}", p.scope);
        let leaked: Vec<String> = runs
            .iter()
            .flat_map(|(_, r)| everything(r))
            .filter(|(_, text)| text.contains(&p.secret))
            .map(|(name, _)| name)
            .collect();
        let e = by_kind.entry(p.kind.as_str()).or_default();
        e.1 += 1;
        if leaked.is_empty() {
            e.0 += 1;
        } else {
            leaks.push(format!(
                "{} ({} in {}) -> {leaked:?}",
                p.kind, p.scope, p.path
            ));
        }
    }
    let caught: usize = by_kind.values().map(|(c, _)| c).sum();
    let report: Vec<String> = by_kind
        .iter()
        .map(|(k, (c, n))| format!("{k} {c}/{n}"))
        .collect();
    println!("caught {caught}/{}: {}", all.len(), report.join(", "));
    assert!(
        caught * 100 >= all.len() * 95,
        "{caught}/{}: {leaks:#?}",
        all.len()
    );
    assert!(leaks.is_empty(), "leaked: {leaks:#?}");
    // The commit run reports what it hid, by kind, and names no file by its secret.
    let meta = runs[0].1.metadata();
    assert!(
        meta["redactions"]["count"].as_u64().unwrap() >= 30,
        "{meta}"
    );
    assert!(
        meta["redactions"]["kinds"]["github-token"]
            .as_u64()
            .unwrap()
            >= 2
    );
}

#[test]
fn a_reviewer_quoting_a_secret_leaks_it_nowhere() {
    let env = TestEnv::with_subtraction_bug();
    let key = ["sk_live_", "Qm9vZ3VzS2V5Rm9yVGVzdHM1"].concat();
    let file = ["ghp_", "0123456789abcdefghijABCDEFGHIJ012345"].concat();
    // The reviewer read a gitignored file on its own and quotes it, in prose and in a finding.
    let findings = json!({"verdict": "revise", "findings": [{
        "severity": "P1", "title": format!("The Stripe key {key} is live"),
        "evidence": "lib.rs:2", "body": format!("config/.env has STRIPE={key}; see keys/{file}.txt"),
    }]});
    env.fake(
        "codex",
        json!({"answer": format!("I looked at .env: STRIPE_KEY={key}\n\n```json\n{findings}\n```\n")}),
    );
    let judge = json!({"classifications": [{"id": "F1", "verdict": "valid", "reason": "ok"}], "recommendation": "D", "reason": "r"});
    env.fake(
        "claude",
        json!([{"answer": format!("```json\n{judge}\n```")}, {"answer": "No change."}]),
    );
    let run = env.run_from_claude(&[]);
    assert!(
        run.code == 0 || run.code == 1,
        "{}\n{}",
        run.stdout,
        run.stderr
    );
    let session = run
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("session: "))
        .unwrap_or_else(|| panic!("no session line:\n{}\n{}", run.stdout, run.stderr))
        .trim()
        .to_string();
    let mut seen = all_files(Path::new(&session));
    seen.push(("stdout".into(), run.stdout.clone().into_bytes()));
    seen.push(("stderr".into(), run.stderr.clone().into_bytes()));
    for call in env.fake_calls("claude") {
        seen.push((
            "claude prompt".into(),
            call["prompt"].to_string().into_bytes(),
        ));
    }
    assert!(seen.len() > 4, "{seen:?}");
    for (name, bytes) in &seen {
        let text = String::from_utf8_lossy(bytes);
        for secret in [&key, &file] {
            assert!(
                !text.contains(secret.as_str()),
                "{secret} leaked into {}",
                Path::new(name).display()
            );
        }
    }
    // The judge still saw the finding, with the secret replaced.
    let judged = env.fake_calls("claude")[0]["prompt"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(judged.contains("[REDACTED:stripe-key]"), "{judged}");
}
