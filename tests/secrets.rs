//! Secrets, both ways, end to end: the planted corpus (tests/fixtures/secrets/corpus.tsv) in every
//! scope git-debate reviews never reaches a session file or the terminal, and a reviewer that
//! quotes a secret in its answer leaks it nowhere either (not into the judge's prompt).

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::json;

use crate::common::planted::{self, everything};
use crate::common::{all_files, TestEnv};

#[test]
fn planted_secrets_in_every_scope_are_caught() {
    let env = TestEnv::with_repo();
    let all = planted::corpus(include_str!("fixtures/secrets/corpus.tsv"));
    assert!(all.len() >= 60, "{}", all.len());
    let kinds: std::collections::BTreeSet<_> = all.iter().map(|p| p.kind.as_str()).collect();
    assert!(kinds.len() >= 25, "{}", kinds.len());
    planted::plant(&env, &all);
    let runs = planted::review_every_scope(&env, &all);

    // Caught: absent from everything every run left; and each secret's own scope saw its file
    // (the artifact names it), so absence is not just a file left out.
    let mut by_kind: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut leaks = Vec::new();
    for p in &all {
        assert!(
            runs.iter().any(|r| r.covers.contains(&p.scope.as_str())),
            "no run covers {}",
            p.scope
        );
        let leaked: Vec<String> = runs
            .iter()
            .flat_map(|r| everything(&r.run))
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
    let meta = runs[0].run.metadata();
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
