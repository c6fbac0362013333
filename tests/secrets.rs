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

/// Every file of the session a run's stdout names, its stdout and its stderr.
fn session_of(run: &crate::common::Run) -> Vec<(String, String)> {
    let session = run
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("session: "))
        .unwrap_or_else(|| panic!("no session line:\n{}\n{}", run.stdout, run.stderr))
        .trim()
        .to_string();
    let mut seen: Vec<(String, String)> = all_files(Path::new(&session))
        .into_iter()
        .map(|(p, b)| {
            let name = p.strip_prefix(&session).unwrap_or(&p).display().to_string();
            (name, String::from_utf8_lossy(&b).into_owned())
        })
        .collect();
    seen.push(("stdout".into(), run.stdout.clone()));
    seen.push(("stderr".into(), run.stderr.clone()));
    seen
}

fn assert_nowhere(seen: &[(String, String)], secrets: &[&str]) {
    for (name, text) in seen {
        for s in secrets {
            assert!(!text.contains(s), "{s} leaked into {name}:\n{text}");
        }
    }
}

/// Split so this file is no leak.
fn anthropic_key() -> String {
    ["sk-ant-api03-", "Qm9vZ3VzS2V5Rm9yVGVzdHM1_xK2pL9mW4"].concat()
}

/// A JSON file whose secrets follow a `\n` or `\t` escape or sit in a JSON-escaped URL, reviewed
/// as an `--artifact-file`: each is redacted, and the escapes around them are kept.
#[test]
fn secrets_behind_json_escapes_in_an_artifact_are_redacted() {
    let env = TestEnv::with_repo();
    let key = anthropic_key();
    let pat = ["github_pat_11YD", "RUTQCOWYUC4E3JUXES_C4T0cPB87QBmCvcm"].concat();
    let pw = ["DwxWTJy3", "HTrhkcJh843xKz"].concat();
    let json = format!(
        r#"{{"msg":"env scan. Found:\n{key}\nin /proc/1/environ","note":"token:\t{pat}","mirror":"https:\/\/svc-sync:{pw}@registry.example.net\/v2\/"}}"#
    );
    env.write("scan.json", &format!("{json}\n"));
    let run = env.run(&["--dry-run", "--artifact-file", "scan.json"]).ok();
    let meta = run.metadata();
    assert_eq!(meta["redactions"]["count"], 3, "{meta}");
    let artifact = run.artifact();
    for (marker, around) in [
        (
            "[REDACTED:anthropic-key]",
            r"Found:\n[REDACTED:anthropic-key]\nin ",
        ),
        (
            "[REDACTED:github-token]",
            r#"token:\t[REDACTED:github-token]""#,
        ),
        (
            "[REDACTED:url-credential]",
            r"https:\/\/svc-sync:[REDACTED:url-credential]@",
        ),
    ] {
        assert!(artifact.contains(around), "{marker}: {artifact}");
    }
    assert!(
        run.stdout.contains("redactions: 3 secret(s)"),
        "{}",
        run.stdout
    );
    let mut seen = everything(&run);
    seen.push(("artifact".into(), artifact));
    assert_nowhere(&seen, &[&key, &pat, &pw]);
}

/// A reviewer's answer that puts a key after a `\n` escape inside its JSON findings (as codex's
/// did): the key reaches no session file, no terminal line and not the author's prompt; the run
/// says on stderr that something was redacted from the reviewer's answer, and the round's record
/// and report count it.
#[test]
fn secrets_behind_json_escapes_in_an_answer_are_redacted_and_said() {
    let env = TestEnv::with_subtraction_bug();
    let key = anthropic_key();
    let findings = json!({"verdict": "revise", "findings": [{
        "severity": "P1", "title": "key", "evidence": "lib.rs:2",
        "body": format!("Found:\n{key}\nin the environment"),
    }]});
    // Serialised, the body's newlines are `\n` escapes: `"Found:\nsk-ant-…"`.
    let block = findings.to_string();
    assert!(block.contains(&format!("\\n{key}")), "{block}");
    let approve =
        "No remaining issues.\n\n```json\n{\"verdict\": \"approve\", \"findings\": []}\n```";
    env.fake(
        "codex",
        json!([{"answer": format!("```json\n{block}\n```\n")}, {"answer": approve}, {"answer": approve}]),
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
    let mut seen = session_of(&run);
    for call in env.fake_calls("claude") {
        seen.push(("claude prompt".into(), call["prompt"].to_string()));
    }
    assert_nowhere(&seen, &[&key]);
    let warning = "[WARN] Sensitive tokens were redacted from codex's answer (1: anthropic-key)";
    assert_eq!(run.stderr.matches(warning).count(), 1, "{}", run.stderr);
    let round = seen
        .iter()
        .find(|(n, _)| n.ends_with("round-1.json"))
        .map(|(_, t)| serde_json::from_str::<serde_json::Value>(t).unwrap())
        .expect("round-1.json");
    let review = round["calls"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["purpose"] == "review")
        .unwrap();
    assert_eq!(
        review["notes"],
        json!(["sensitive tokens redacted: 1 (anthropic-key)"]),
        "{round}"
    );
    assert!(
        run.stdout.contains(
            "note: round 1: codex's answer: sensitive tokens redacted: 1 (anthropic-key)"
        ),
        "{}",
        run.stdout
    );
    // The judge still read the finding, its key replaced.
    let judged = env.fake_calls("claude")[0]["prompt"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(judged.contains("[REDACTED:anthropic-key]"), "{judged}");
}

/// A secret in a changed file's name: redacted in the artifact, in `locations.json` (a finding
/// on that file still lines up with the change) and in the reviewer's copy of the revision,
/// where the file can be read under its redacted name.
#[test]
fn a_secret_in_a_file_name_is_redacted_everywhere() {
    let env = TestEnv::with_subtraction_bug();
    let token = ["ghp_", "0123456789abcdefghijABCDEFGHIJ012345"].concat();
    let name = format!("keys/{token}.txt");
    env.write(&name, "rotated monthly\n");
    env.git(&["add", "-A"]);
    let shown = "keys/[REDACTED:github-token].txt";
    let findings = json!({"verdict": "revise", "findings": [{
        "severity": "P2", "title": "a key file is committed", "file": shown, "start_line": 1,
        "body": "it should not be in the repository",
    }]});
    env.fake(
        "codex",
        json!({"answer": format!("```json\n{findings}\n```\n"), "read": [shown]}),
    );
    let judge = json!({"classifications": [{"id": "F1", "verdict": "valid", "reason": "ok"}], "recommendation": "D", "reason": "r"});
    env.fake(
        "claude",
        json!([{"answer": format!("```json\n{judge}\n```")}, {"answer": "No change."}]),
    );
    let run = env.run_from_claude(&["--scope", "staged"]);
    assert!(
        run.code == 0 || run.code == 1,
        "{}\n{}",
        run.stdout,
        run.stderr
    );
    let seen = session_of(&run);
    let locations = seen
        .iter()
        .find(|(n, _)| n.ends_with("locations.json"))
        .map(|(_, t)| t.clone())
        .expect("locations.json");
    assert!(locations.contains(shown), "{locations}");
    // The reviewer read the file under its redacted name in its copy, and found no other.
    let critique = seen
        .iter()
        .find(|(n, _)| n.ends_with("round-1-critique.md"))
        .map(|(_, t)| t.clone())
        .expect("critique");
    assert!(
        critique.contains(&format!("READ {shown}: rotated monthly")),
        "{critique}"
    );
    assert_nowhere(&seen, &[&token]);
    for call in env.fake_calls("codex") {
        assert!(!call["prompt"].to_string().contains(&token), "{call}");
    }
    // The finding on the redacted name is a verified location of the change.
    let round = seen
        .iter()
        .find(|(n, _)| n.ends_with("round-1.json"))
        .map(|(_, t)| t.clone())
        .expect("round-1.json");
    assert!(round.contains("\"verified\""), "{round}");
}

/// The user's own token formats (`debate.redact.rules`, a TOML file named in the user's own
/// configuration) are redacted besides the built-in ones; a committed `.gitdebate` cannot name
/// the file, and a file that does not parse stops the run and says where.
#[test]
fn the_users_own_rules_are_redacted_and_only_from_the_users_config() {
    let env = TestEnv::with_repo();
    let rules = env.home.join("redact-rules.toml");
    std::fs::write(
        &rules,
        "[[rule]]\nid = \"acme-token\"\nregex = '''acme_[a-z0-9]{16}'''\nkeywords = [\"acme_\"]\n",
    )
    .unwrap();
    let token = ["acme_", "q8vd2lkr9sxw4tzb"].concat();
    env.write("notes.md", &format!("the deploy uses {token} for now\n"));
    // From the repository's committed settings: ignored, with a warning.
    env.write(
        ".gitdebate",
        &format!("[debate \"redact\"]\n\trules = {}\n", rules.display()),
    );
    let run = env.run(&["--dry-run", "--artifact-file", "notes.md"]).ok();
    assert!(run.artifact().contains(&token), "{}", run.artifact());
    assert!(
        run.stderr.contains("ignoring debate.redact.rules"),
        "{}",
        run.stderr
    );
    // From the user's own configuration: used.
    env.git(&[
        "config",
        "--global",
        "debate.redact.rules",
        rules.to_str().unwrap(),
    ]);
    let run = env.run(&["--dry-run", "--artifact-file", "notes.md"]).ok();
    let artifact = run.artifact();
    assert!(
        artifact.contains("uses [REDACTED:acme-token] for now"),
        "{artifact}"
    );
    assert_eq!(run.metadata()["redactions"]["kinds"]["acme-token"], 1);
    assert_nowhere(&everything(&run), &[&token]);
    // A broken file stops the run before anything is sent, naming the file and the line.
    std::fs::write(&rules, "[[rule]]\nid = \"x\"\nregex = '''(unclosed'''\n").unwrap();
    let run = env.run(&["--dry-run", "--artifact-file", "notes.md"]);
    assert_ne!(run.code, 0, "{}", run.stdout);
    assert!(
        run.stderr.contains("redact-rules.toml") && run.stderr.contains("line 1"),
        "{}",
        run.stderr
    );
}
