//! Explicit content, target detection, the size budget and secret redaction.

use crate::common::{all_files, paths, TestEnv};

const DESIGN_DOC: &str = "# Queue redesign\n\nSome context about why.\n\n## Design\n\nWe replace Redis with Postgres LISTEN/NOTIFY because it removes a service.\n\n### Storage\n\nRows are kept for a week.\n\n```sql\nCREATE TABLE jobs (id bigserial primary key, payload jsonb);\n```\n\n## Alternatives\n\nKeep Redis.\n";

#[test]
fn explicit_content_wins_over_uncommitted_changes() {
    let env = TestEnv::with_repo();
    env.write("dirty.txt", "uncommitted\n");
    let run = env
        .run(&[
            "--dry-run",
            "--scope",
            "uncommitted",
            "Should we cache this call?",
        ])
        .ok();
    let meta = run.metadata();
    assert_eq!(meta["source"]["kind"], "content");
    assert_eq!(meta["target"], "proposal");
    assert_eq!(run.artifact(), "Should we cache this call?");
}

#[test]
fn artifact_file_and_stdin() {
    let env = TestEnv::with_repo();
    env.write("plan.md", DESIGN_DOC);
    let run = env.run(&["--dry-run", "--artifact-file", "plan.md"]).ok();
    assert_eq!(run.artifact(), DESIGN_DOC);
    assert_eq!(run.metadata()["source"]["origin"], "plan.md");
    let run = env.run_stdin(&["--dry-run", "-"], DESIGN_DOC).ok();
    assert_eq!(run.metadata()["source"]["origin"], "stdin");
    assert_eq!(run.artifact(), DESIGN_DOC);
    let run = env
        .run_stdin(&["--dry-run", "--artifact-file", "-"], "fn main() {}\n")
        .ok();
    assert_eq!(run.metadata()["source"]["origin"], "stdin");
    let run = env.run_stdin(&["--dry-run", "-"], "  \n").fails(2);
    assert!(
        run.stderr.contains("standard input was empty"),
        "{}",
        run.stderr
    );
    let run = env
        .run(&["--dry-run", "--artifact-file", "nope.md"])
        .fails(2);
    assert!(
        run.stderr.contains("cannot read --artifact-file nope.md"),
        "{}",
        run.stderr
    );
}

#[test]
fn targets_are_detected_from_content() {
    let env = TestEnv::with_repo();
    let cases = [
        ("diff --git a/x.rs b/x.rs\n--- a/x.rs\n+++ b/x.rs\n@@ -1 +1 @@\n-a\n+b\n", "code"),
        ("Here is the fix:\n\n```rust\nfn main() {\n    println!(\"hi\");\n}\n```\n", "code"),
        ("# RFC: retries\n\n## Proposal\n\nRetry three times with jitter.\n\n## Decision\n\nPending.\n", "proposal"),
        (DESIGN_DOC, "mixed"),
        ("Is a monorepo better for us than many repositories?", "proposal"),
    ];
    for (text, want) in cases {
        let meta = env.run(&["--dry-run", text]).ok().metadata();
        assert_eq!(meta["target"], want, "{text}");
        assert!(!meta["target_reasons"].as_array().unwrap().is_empty());
    }
    // --target overrides detection.
    let meta = env
        .run(&["--dry-run", "--target", "code", "just words"])
        .ok()
        .metadata();
    assert_eq!(meta["target"], "code");
}

#[test]
fn mixed_artifacts_are_split_into_ordered_segments_with_heading_paths() {
    let env = TestEnv::with_repo();
    let run = env.run(&["--dry-run", DESIGN_DOC]).ok();
    let meta = run.metadata();
    let segs = meta["segments"].as_array().unwrap();
    assert!(segs.len() >= 3, "{meta}");
    let code: Vec<_> = segs.iter().filter(|s| s["kind"] == "code").collect();
    assert_eq!(code.len(), 1);
    assert_eq!(
        code[0]["heading_path"],
        serde_json::json!(["Queue redesign", "Design", "Storage"])
    );
    // The segments tile the artifact in order.
    let mut at = 0;
    for s in segs {
        assert_eq!(s["start"].as_u64().unwrap() as usize, at);
        at = s["end"].as_u64().unwrap() as usize;
    }
    assert_eq!(at, DESIGN_DOC.len());
    assert!(run.stdout.contains("segments:"), "{}", run.stdout);
}

#[test]
fn size_budget_is_deterministic_and_every_cut_is_listed() {
    let env = TestEnv::with_repo();
    let big: String = (0..200)
        .map(|i| format!("fn f{i}() -> u32 {{ {i} }}\n"))
        .collect();
    for i in 0..6 {
        env.write(&format!("src/m{i}.rs"), &big);
    }
    env.write("Cargo.lock", &"[[package]]\nname = \"x\"\n".repeat(200));
    // Cut to the budget, as it is when chunking is off.
    let args = ["--dry-run", "--max-artifact-bytes", "12000", "--no-chunk"];
    let run = env.run(&args).ok();
    let meta = run.metadata();
    assert_eq!(paths(&meta).len(), 7);
    let t = &meta["truncation"];
    assert_eq!(t["budget_bytes"], 12000);
    assert!(t["kept_bytes"].as_u64().unwrap() <= 12000, "{t}");
    let omitted: Vec<_> = t["omitted"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["path"].as_str().unwrap().to_string())
        .collect();
    // The lock file gives way before code does.
    assert!(omitted.contains(&"Cargo.lock".to_string()), "{t}");
    assert!(!t["clipped"].as_array().unwrap().is_empty(), "{t}");
    let art = run.artifact();
    assert!(art.contains("## Not included in full"), "{art}");
    for p in &omitted {
        assert!(
            art.contains(&format!("- {p}: ")),
            "{p} not listed in artifact"
        );
        assert!(
            run.stdout.contains(&format!("  {p}: ")),
            "{p} not listed in summary"
        );
    }
    assert!(run.stdout.contains("truncation: kept"), "{}", run.stdout);
    // Same input, same cut.
    let again = env.run(&args).ok();
    assert_eq!(again.artifact(), art);
}

#[test]
fn oversized_explicit_content_is_clipped_with_a_note() {
    let env = TestEnv::with_repo();
    let text: String = (0..500)
        .map(|i| format!("line {i} of a long proposal\n"))
        .collect();
    env.write("long.md", &text);
    let run = env
        .run(&[
            "--dry-run",
            "--artifact-file",
            "long.md",
            "--max-artifact-bytes",
            "2048",
        ])
        .ok();
    let art = run.artifact();
    assert!(art.len() < 2400, "{}", art.len());
    assert!(
        art.contains("was left out to fit the 2048-byte budget"),
        "{art}"
    );
    assert_eq!(
        run.metadata()["truncation"]["clipped"][0]["path"],
        "long.md"
    );
}

#[test]
fn planted_secrets_never_reach_any_session_file() {
    let env = TestEnv::with_repo();
    let aws = "AKIAIOSFODNN7EXAMPLQ";
    let pem_body = "MIIEowIBAAKCAQEA7bq98kL1plantedPEMbody0123456789abcdef";
    env.write(
        "deploy.sh",
        &format!("export AWS_ACCESS_KEY_ID={aws}\necho deploying\n"),
    );
    env.write(
        "id_rsa",
        &format!("-----BEGIN RSA PRIVATE KEY-----\n{pem_body}\n-----END RSA PRIVATE KEY-----\n"),
    );
    env.write(
        ".env",
        "DATABASE_URL=postgres://app:hunter2hunter2@db/app\nPLAIN_ENV_VALUE=plantedenvvalue42\n",
    );
    env.commit_all(&format!("add deploy\n\nkey is {aws}"));
    let run = env.run(&["--dry-run", "--scope", "commit:HEAD"]).ok();
    for (path, bytes) in all_files(&run.session_dir()) {
        let text = String::from_utf8_lossy(&bytes);
        for secret in [aws, pem_body, "hunter2hunter2", "plantedenvvalue42"] {
            assert!(
                !text.contains(secret),
                "{secret} leaked into {}",
                path.display()
            );
        }
    }
    let meta = run.metadata();
    let count = meta["redactions"]["count"].as_u64().unwrap();
    assert!(count >= 4, "{meta}");
    assert!(
        run.stdout
            .contains(&format!("redactions: {count} secret(s)")),
        "{}",
        run.stdout
    );
    assert!(run.artifact().contains("[REDACTED:aws-access-key]"));
    assert!(!run.stdout.contains(aws));
    // The same for explicit content.
    let run = env
        .run(&["--dry-run", &format!("Use the key {aws} here")])
        .ok();
    assert!(!run.artifact().contains(aws));
    assert_eq!(run.metadata()["redactions"]["count"], 1);
}
