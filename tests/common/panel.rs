//! Helpers for the panel tests: one fake script for every role (the fake answers by what the
//! prompt asks, so no test depends on which role runs on which CLI or on call order), the run,
//! and seed 002's log schema checked field by field.

use serde_json::{json, Value};

use crate::common::TestEnv;

pub fn block(v: Value) -> String {
    format!("```json\n{v}\n```")
}

/// One script for every fake: the first case whose text is in the prompt answers; `extra` cases
/// come first (a test's failures and delays).
pub fn script(extra: &[(&str, Value)]) -> Value {
    let mut cases: Vec<Value> = Vec::new();
    let mut add = |contains: &str, step: Value| {
        let mut o = step.as_object().cloned().unwrap_or_default();
        o.insert("contains".into(), contains.into());
        cases.push(Value::Object(o));
    };
    for (c, s) in extra {
        add(c, s.clone());
    }
    let a = |t: &str| json!({"answer": t});
    add(
        "You are the assessor",
        a("Overall rating: Good. The reporter was accurate."),
    );
    add(
        "Write the body of summary.md",
        a("REPORTER ACCOUNT: bob argued failover."),
    );
    add(
        "Write blog-post.md",
        a("# Queues in Postgres\n\nProponents argue..."),
    );
    add("running notes on this entry", a("a neutral note"));
    add(
        "Round 1 complete. Any questions",
        a("Q: bob: What about failover?\nQ: nobody: ignored"),
    );
    add("Any questions for the debaters?", a("no questions"));
    add(
        "Please share your conclusions on the topic",
        a("AUDIENCE: bob's [seq 4] persuaded me."),
    );
    add(
        "Propose for each",
        a(&block(json!([
            {"name": "alice", "persona": "a database purist", "position": "switch", "incentives": "purity"},
            {"name": "bob", "persona": "an SRE", "position": "keep Redis", "incentives": "sleep"},
            {"name": "carol", "persona": "a pragmatic architect", "position": "keep both", "incentives": "ship fast"}
        ]))),
    );
    add(
        "Prepare the next round",
        a(&block(json!({"continue": true}))),
    );
    add(
        "Before the closing statements",
        a("1. failover under load — [seq 4]"),
    );
    add(
        "Phase 4 — Conclusion.",
        a(&block(
            json!({"outcome": "bob_wins", "reason": "the only verified sources"}),
        )),
    );
    add(
        "Opening Statements. alice,",
        a("OPENING alice: see `src/lib.rs:2` and `src/ghost.rs`."),
    );
    add(
        "Opening Statements. bob,",
        a("OPENING bob: https://example.com/pg and src/lib.rs:99"),
    );
    add("Opening Statements. carol,", a("OPENING carol"));
    add(
        "Round 1 — Your turn, alice.",
        a("TYPE: new_point\nFRAMEWORK: CAP theorem — consistency against availability\nR1 alice"),
    );
    add(
        "Round 1 — Your turn, bob.",
        a("TYPE: rebuttal to [seq 2]\nR1 bob"),
    );
    add(
        "Round 1 — Your turn, carol.",
        a("TYPE: conjecture\nR1 carol"),
    );
    for who in ["alice", "bob", "carol"] {
        add(
            &format!("Closing Statements. {who},"),
            a(&format!("CLOSING {who}")),
        );
    }
    json!({"answer": "R-later", "when": cases})
}

/// The same script on the chair's CLI, the debaters' and opencode's (the one CLI no debater
/// uses, where the support roles go).
pub fn fakes(env: &TestEnv, extra: &[(&str, Value)]) {
    for cli in ["qwen", "claude", "codex", "gemini", "opencode"] {
        env.fake(cli, script(extra));
    }
    cli_transport(env);
}

/// The fake agent speaks the CLIs' formats, not ACP: a debate, which prefers the ACP servers
/// built into gemini, qwen and opencode, is told to use their command lines.
pub fn cli_transport(env: &TestEnv) {
    for cli in ["gemini", "qwen", "opencode"] {
        env.git(&[
            "config",
            "--global",
            &format!("debate.{cli}.transport"),
            "cli",
        ]);
    }
}

pub fn panel_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec![
        "topic",
        "Should we replace Redis with Postgres LISTEN/NOTIFY?",
        "--debater",
        "alice=claude:a database purist",
        "--debater",
        "bob=codex:an SRE who carries the pager",
        "--debater",
        "carol=gemini",
        "--min-rounds",
        "1",
        "--format",
        "json",
    ];
    if !extra.contains(&"--max-rounds") {
        v.extend(["--max-rounds", "2"]);
    }
    v.extend_from_slice(extra);
    v
}

pub fn run_panel(env: &TestEnv, extra: &[&str]) -> (Value, std::path::PathBuf) {
    let run = env
        .run_full(
            &panel_args(extra),
            "",
            &[("GIT_DEBATE_LAUNCHER", Some("qwen"))],
        )
        .ok();
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    let dir = std::path::PathBuf::from(s["session_dir"].as_str().unwrap());
    (s, dir)
}

pub fn read_log(dir: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("debate-log.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

pub fn kinds_of<'a>(log: &'a [Value], kind: &str) -> Vec<&'a Value> {
    log.iter().filter(|e| e["type"] == kind).collect()
}

pub fn said(log: &[Value], kind: &str) -> Vec<String> {
    kinds_of(log, kind)
        .iter()
        .map(|e| e["speaker"].as_str().unwrap().to_string())
        .collect()
}

pub fn position(log: &[Value], starts: &str) -> usize {
    log.iter()
        .position(|e| e["content"].as_str().unwrap().starts_with(starts))
        .unwrap_or_else(|| panic!("no entry starts with {starts:?}"))
}

/// Every line of the log against seed 002's schema, field by field.
pub fn check_schema(log: &[Value], debaters: &[&str]) {
    let ts = regex::Regex::new(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$").unwrap();
    for (i, e) in log.iter().enumerate() {
        let o = e.as_object().unwrap();
        for k in o.keys() {
            assert!(
                [
                    "seq",
                    "timestamp",
                    "phase",
                    "speaker",
                    "type",
                    "content",
                    "sources",
                    "rebuttal_to_seq",
                    "target_seq"
                ]
                .contains(&k.as_str()),
                "unexpected field {k} in {e}"
            );
        }
        assert_eq!(e["seq"], i, "seq is 0-based and dense");
        assert!(ts.is_match(e["timestamp"].as_str().unwrap()), "{e}");
        let phase = e["phase"].as_str().unwrap();
        assert!(
            ["system", "opening", "rebuttal", "closing"].contains(&phase),
            "{e}"
        );
        assert!(e["content"].is_string(), "{e}");
        let speaker = e["speaker"].as_str().unwrap();
        let kind = e["type"].as_str().unwrap();
        let allowed: &[&str] = match speaker {
            "chair" => &[
                "setup",
                "announcement",
                "ruling",
                "redaction",
                "conclusion",
                "audience_question",
            ],
            "verifier" => &["verification_result"],
            "audience" => &["audience_conclusion"],
            s if debaters.contains(&s) => &[
                "opening_statement",
                "new_point",
                "rebuttal",
                "conjecture",
                "closing_statement",
                "source_challenge",
                "clarification_request",
            ],
            s => panic!("unknown speaker {s} in {e}"),
        };
        assert!(allowed.contains(&kind), "{speaker} may not log {kind}: {e}");
        let phase_of = match kind {
            "opening_statement" => "opening",
            "new_point"
            | "rebuttal"
            | "conjecture"
            | "audience_question"
            | "source_challenge"
            | "clarification_request" => "rebuttal",
            "closing_statement" => "closing",
            "announcement" => phase,
            _ => "system",
        };
        assert_eq!(phase, phase_of, "{e}");
        assert_eq!(
            e.get("sources").is_some(),
            debaters.contains(&speaker),
            "sources on debater entries only: {e}"
        );
        if let Some(src) = e.get("sources") {
            for c in src.as_array().unwrap() {
                // Seed 002's `{url, title, accessed}`, and what the tool says of it.
                let keys: Vec<&str> = c.as_object().unwrap().keys().map(String::as_str).collect();
                assert_eq!(keys, ["accessed", "kind", "status", "title", "url"], "{c}");
                assert!(c["url"].is_string() && c["kind"].is_string(), "{c}");
                assert!(c["title"].is_null() && c["accessed"].is_null(), "{c}");
                assert_eq!(
                    c["status"], "unchecked",
                    "checked later, by the verifier: {c}"
                );
            }
        }
        match e.get("rebuttal_to_seq") {
            Some(t) => {
                assert_eq!(kind, "rebuttal", "{e}");
                let t = t.as_u64().unwrap() as usize;
                assert!(t < i, "{e}");
                let target = log[t]["speaker"].as_str().unwrap();
                assert!(debaters.contains(&target) && target != speaker, "{e}");
            }
            None => assert_ne!(kind, "rebuttal", "a rebuttal names what it answers: {e}"),
        }
        if let Some(t) = e.get("target_seq") {
            assert!((t.as_u64().unwrap() as usize) < i, "{e}");
            assert!(
                [
                    "verification_result",
                    "redaction",
                    "ruling",
                    "source_challenge"
                ]
                .contains(&kind),
                "{e}"
            );
        }
        if kind == "verification_result" {
            let c: Value = serde_json::from_str(e["content"].as_str().unwrap()).unwrap();
            assert_eq!(c["verified_seq"], e["target_seq"], "{e}");
            assert!(c["url"].is_string() && c["explanation"].is_string(), "{e}");
            assert!(
                ["verified", "unreliable", "fabricated", "unverifiable"]
                    .contains(&c["status"].as_str().unwrap()),
                "{e}"
            );
        }
        if kind == "conjecture" {
            assert!(
                e["content"].as_str().unwrap().starts_with("[CONJECTURE]"),
                "{e}"
            );
        }
    }
}
