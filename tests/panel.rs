//! The chaired panel end to end (seed 002): debaters on claude, codex and gemini, the chair on
//! qwen (the launcher), the audience, reporter and assessor on their own backends — all the fake
//! agent, which answers by what the prompt asks (`when`), so a test does not depend on which
//! role runs on which CLI or in which order calls come.

use serde_json::{json, Value};

use crate::common::{read_json, TestEnv};

fn block(v: Value) -> String {
    format!("```json\n{v}\n```")
}

/// One script for every fake: the first case whose text is in the prompt answers; `extra` cases
/// come first (a test's failures and delays).
fn script(extra: &[(&str, Value)]) -> Value {
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
    add("You are the assessor", a("Overall rating: Good. The reporter was accurate."));
    add("Write the body of summary.md", a("REPORTER ACCOUNT: bob argued failover."));
    add("Write blog-post.md", a("# Queues in Postgres\n\nProponents argue..."));
    add("running notes on this entry", a("a neutral note"));
    add("Round 1 complete. Any questions", a("Q: bob: What about failover?\nQ: nobody: ignored"));
    add("Any questions for the debaters?", a("no questions"));
    add("Please share your conclusions on the topic", a("AUDIENCE: bob's [seq 4] persuaded me."));
    add("Propose for each", a(&block(json!([
        {"name": "alice", "persona": "a database purist", "position": "switch", "incentives": "purity"},
        {"name": "bob", "persona": "an SRE", "position": "keep Redis", "incentives": "sleep"},
        {"name": "carol", "persona": "a pragmatic architect", "position": "keep both", "incentives": "ship fast"}
    ]))));
    add("Prepare the next round", a(&block(json!({"continue": true}))));
    add("Before the closing statements", a("1. failover under load — [seq 4]"));
    add("Phase 4 — Conclusion.", a(&block(json!({"outcome": "bob_wins", "reason": "the only verified sources"}))));
    add("Opening Statements. alice,", a("OPENING alice: see `src/lib.rs:2` and `src/ghost.rs`."));
    add("Opening Statements. bob,", a("OPENING bob: https://example.com/pg and src/lib.rs:99"));
    add("Opening Statements. carol,", a("OPENING carol"));
    add("Round 1 — Your turn, alice.", a("TYPE: new_point\nFRAMEWORK: CAP theorem — consistency against availability\nR1 alice"));
    add("Round 1 — Your turn, bob.", a("TYPE: rebuttal to [seq 2]\nR1 bob"));
    add("Round 1 — Your turn, carol.", a("TYPE: conjecture\nR1 carol"));
    for who in ["alice", "bob", "carol"] {
        add(&format!("Closing Statements. {who},"), a(&format!("CLOSING {who}")));
    }
    json!({"answer": "R-later", "when": cases})
}

fn setup() -> TestEnv {
    let env = TestEnv::with_repo();
    env.write(
        "src/lib.rs",
        "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n",
    );
    env.commit_all("lib");
    env
}

/// The same script on the chair's CLI and the debaters'.
fn fakes(env: &TestEnv, extra: &[(&str, Value)]) {
    for cli in ["qwen", "claude", "codex", "gemini"] {
        env.fake(cli, script(extra));
    }
}

fn panel_args<'a>(extra: &[&'a str]) -> Vec<&'a str> {
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

fn run_panel(env: &TestEnv, extra: &[&str]) -> (Value, std::path::PathBuf) {
    let run = env
        .run_full(&panel_args(extra), "", &[("GIT_DEBATE_LAUNCHER", Some("qwen"))])
        .ok();
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    let dir = std::path::PathBuf::from(s["session_dir"].as_str().unwrap());
    (s, dir)
}

fn read_log(dir: &std::path::Path) -> Vec<Value> {
    std::fs::read_to_string(dir.join("debate-log.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn kinds_of<'a>(log: &'a [Value], kind: &str) -> Vec<&'a Value> {
    log.iter().filter(|e| e["type"] == kind).collect()
}

fn said(log: &[Value], kind: &str) -> Vec<String> {
    kinds_of(log, kind)
        .iter()
        .map(|e| e["speaker"].as_str().unwrap().to_string())
        .collect()
}

fn position(log: &[Value], starts: &str) -> usize {
    log.iter()
        .position(|e| e["content"].as_str().unwrap().starts_with(starts))
        .unwrap_or_else(|| panic!("no entry starts with {starts:?}"))
}

/// Every line of the log against seed 002's schema, field by field.
fn check_schema(log: &[Value], debaters: &[&str]) {
    let ts = regex::Regex::new(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$").unwrap();
    for (i, e) in log.iter().enumerate() {
        let o = e.as_object().unwrap();
        for k in o.keys() {
            assert!(
                ["seq", "timestamp", "phase", "speaker", "type", "content", "sources", "rebuttal_to_seq", "target_seq"]
                    .contains(&k.as_str()),
                "unexpected field {k} in {e}"
            );
        }
        assert_eq!(e["seq"], i, "seq is 0-based and dense");
        assert!(ts.is_match(e["timestamp"].as_str().unwrap()), "{e}");
        let phase = e["phase"].as_str().unwrap();
        assert!(["system", "opening", "rebuttal", "closing"].contains(&phase), "{e}");
        assert!(e["content"].is_string(), "{e}");
        let speaker = e["speaker"].as_str().unwrap();
        let kind = e["type"].as_str().unwrap();
        let allowed: &[&str] = match speaker {
            "chair" => &["setup", "announcement", "ruling", "redaction", "conclusion", "audience_question"],
            "verifier" => &["verification_result"],
            "audience" => &["audience_conclusion"],
            s if debaters.contains(&s) => &["opening_statement", "new_point", "rebuttal", "conjecture", "closing_statement"],
            s => panic!("unknown speaker {s} in {e}"),
        };
        assert!(allowed.contains(&kind), "{speaker} may not log {kind}: {e}");
        let phase_of = match kind {
            "opening_statement" => "opening",
            "new_point" | "rebuttal" | "conjecture" | "audience_question" => "rebuttal",
            "closing_statement" => "closing",
            "announcement" => phase,
            _ => "system",
        };
        assert_eq!(phase, phase_of, "{e}");
        assert_eq!(e.get("sources").is_some(), debaters.contains(&speaker), "sources on debater entries only: {e}");
        if let Some(src) = e.get("sources") {
            for c in src.as_array().unwrap() {
                assert!(c["cited"].is_string() && c["kind"].is_string() && c["status"].is_string(), "{c}");
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
            assert!(["verification_result", "redaction", "ruling"].contains(&kind), "{e}");
        }
        if kind == "verification_result" {
            let c: Value = serde_json::from_str(e["content"].as_str().unwrap()).unwrap();
            assert_eq!(c["verified_seq"], e["target_seq"], "{e}");
            assert!(c["url"].is_string() && c["explanation"].is_string(), "{e}");
            assert!(["verified", "unreliable", "fabricated", "unverifiable"].contains(&c["status"].as_str().unwrap()), "{e}");
        }
        if kind == "conjecture" {
            assert!(e["content"].as_str().unwrap().starts_with("[CONJECTURE]"), "{e}");
        }
    }
}

#[test]
fn a_three_debater_panel_follows_the_seed_phases_log_and_outputs() {
    let env = setup();
    fakes(&env, &[]);
    let (s, dir) = run_panel(&env, &["--yes", "--blog"]);
    assert_eq!(s["status"], "completed", "{s}");
    assert_eq!(s["outcome"], "bob_wins");
    assert_eq!(s["rounds"], 2);
    assert_eq!(s["debaters"][2]["persona"], "a pragmatic architect");
    let log = read_log(&dir);
    check_schema(&log, &["alice", "bob", "carol"]);

    // Phases and announcements, in the seed's order.
    assert_eq!(log[0]["type"], "setup");
    assert_eq!(log[0]["content"], "Debate session initialised. Chair is ready. Debaters: alice, bob, carol");
    let ready = position(&log, "All agents confirmed ready. Beginning Phase 1: Opening Statements. Topic: Should we");
    let p1 = position(&log, "Phase 1 complete. Opening statements delivered. Proceeding to Phase 2.");
    let r1 = position(&log, "Round 1 of 2 beginning.");
    let r2 = position(&log, "Round 2 of 2 beginning.");
    let pre3 = position(&log, "Pre-Phase-3 review: The following points remain unresolved entering the closing round:\n1. failover under load");
    let p3 = position(&log, "Phase 3 complete. Closing statements delivered. Proceeding to Phase 4.");
    let end = position(&log, "Debate concluded. Outcome: bob_wins. Reason: the only verified sources");
    assert!(ready < p1 && p1 < r1 && r1 < r2 && r2 < pre3 && pre3 < p3 && p3 < end);
    assert_eq!(log[r1]["phase"], "rebuttal");
    assert_eq!(said(&log, "opening_statement"), ["alice", "bob", "carol"]);
    assert_eq!(said(&log, "closing_statement"), ["carol", "bob", "alice"], "closings in reverse order");
    assert!(kinds_of(&log, "closing_statement").iter().all(|e| e["seq"].as_u64().unwrap() as usize > pre3));
    // The verifier relay line once per round, after that round's turns.
    let relays: Vec<usize> = log.iter().enumerate().filter(|(_, e)| e["content"].as_str().unwrap().starts_with("Verifier findings relayed this round: ")).map(|(i, _)| i).collect();
    assert_eq!(relays.len(), 2);
    assert!(r1 < relays[0] && relays[0] < r2 && r2 < relays[1] && relays[1] < pre3);
    // Entry types in the rounds: new_point, rebuttal (to alice's opening), conjecture.
    let round1: Vec<(&str, &str)> = log[r1..r2].iter().filter(|e| e["phase"] == "rebuttal" && e["speaker"] != "chair").map(|e| (e["speaker"].as_str().unwrap(), e["type"].as_str().unwrap())).collect();
    assert_eq!(round1, [("alice", "new_point"), ("bob", "rebuttal"), ("carol", "conjecture")]);
    let bob_r1 = kinds_of(&log, "rebuttal")[0];
    assert_eq!(bob_r1["rebuttal_to_seq"], 2);
    assert_eq!(log[2]["content"], "OPENING alice: see `src/lib.rs:2` and `src/ghost.rs`.");
    assert_eq!(kinds_of(&log, "conjecture")[0]["content"], "[CONJECTURE] R1 carol");
    // The new framework: a chair note, relayed to the next speakers of that round.
    let fw = position(&log, "Note: alice introduced the following analytical framework at seq");
    assert!(log[fw]["content"].as_str().unwrap().contains("CAP theorem — consistency against availability"));
    let cue = |cli: &str, marker: &str| -> String {
        env.fake_calls(cli).iter().map(|c| c["prompt"].as_str().unwrap().to_string()).find(|p| p.contains(marker)).unwrap_or_else(|| panic!("no {marker} call"))
    };
    assert!(cue("codex", "Round 1 — Your turn, bob.").contains("introduced the following analytical framework"));
    // Verification: verified, fabricated (redacted), unreliable (ruled on), unverifiable.
    let checks: Vec<Value> = kinds_of(&log, "verification_result").iter().map(|e| serde_json::from_str(e["content"].as_str().unwrap()).unwrap()).collect();
    let status = |src: &str| checks.iter().find(|c| c["url"] == src).unwrap_or_else(|| panic!("{src} unchecked"))["status"].clone();
    assert_eq!(status("src/lib.rs:2"), "verified");
    assert_eq!(status("src/ghost.rs"), "fabricated");
    assert_eq!(status("src/lib.rs:99"), "unreliable");
    assert_eq!(status("https://example.com/pg"), "unverifiable");
    assert_eq!(said(&log, "redaction"), ["chair"]);
    assert_eq!(s["redactions"], 1);
    let ruling = log.iter().find(|e| e["type"] == "ruling" && e["content"].as_str().unwrap().contains("unreliable")).unwrap();
    assert!(ruling["content"].as_str().unwrap().starts_with("Ruling on seq "), "{ruling}");
    assert!(log[relays[0]]["content"].as_str().unwrap().contains("fabricated") || log[p1..relays[0]].iter().any(|e| e["type"] == "redaction"));
    // Bob is warned about his unreliable source at his next turn; alice about her redaction.
    assert!(cue("codex", "Round 1 — Your turn, bob.").contains("is unreliable"));
    assert!(cue("claude", "Round 1 — Your turn, alice.").contains("REDACTED: seq 2 (alice)"));
    // Audience: named questions (at most 2, only to debaters), relayed to bob only.
    let qs = kinds_of(&log, "audience_question");
    assert_eq!(qs.len(), 1);
    assert_eq!(qs[0]["content"], "Q: bob: What about failover?");
    assert_eq!(qs[0]["speaker"], "chair");
    assert!(cue("codex", "Round 2 — Your turn, bob.").contains("An audience question for you: What about failover?"));
    assert!(!cue("claude", "Round 2 — Your turn, alice.").contains("An audience question for you"));
    assert!(cue("gemini", "Closing Statements. carol,").contains("failover under load"));
    // The audience's conclusion comes after the chair's.
    let last = log.last().unwrap();
    assert_eq!((last["type"].as_str(), last["speaker"].as_str()), (Some("audience_conclusion"), Some("audience")));
    // The chair's neutrality rules are in every chair prompt.
    let chair_calls: Vec<String> = env.fake_calls("qwen").iter().map(|c| c["prompt"].as_str().unwrap().to_string()).filter(|p| p.contains("neutral chair")).collect();
    assert!(chair_calls.len() >= 3);
    assert!(chair_calls.iter().all(|p| p.contains("never express an opinion on the topic")));

    // Outputs.
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap_or_else(|_| panic!("{f}"));
    let transcript = read("transcript.md");
    assert!(transcript.contains("[FACT-CHECK]"));
    assert!(transcript.contains("[REDACTED — a cited source does not exist; see the ruling at seq"));
    assert!(transcript.contains("## Audience conclusion"));
    let summary = read("summary.md");
    assert!(summary.contains("REPORTER ACCOUNT: bob argued failover."), "{summary}");
    assert!(summary.contains("### Audience Perspective [seq") && summary.contains("AUDIENCE: bob's [seq 4] persuaded me."));
    let vr = read("verifier-report.md");
    assert!(vr.contains("| `src/lib.rs:99` | location | unreliable |"), "{vr}");
    assert!(vr.contains("- fabricated: 1"));
    assert!(read("blog-post.md").contains("Proponents argue"));
    assert!(read("assessor-report.md").contains("Overall rating: Good."));
    // The assessor ran after the reporter and read what it wrote.
    let assessor = cue("codex", "You are the assessor");
    assert!(assessor.contains("REPORTER ACCOUNT: bob argued failover.") && assessor.contains("Proponents argue"));
    let meta = read_json(&dir.join("metadata.json"));
    assert_eq!(meta["kind"], "panel");
    assert_eq!(meta["outcome"], "bob_wins");
    assert_eq!(meta["lineup"][1]["backend"], "codex");
    assert_eq!(meta["lineup"][1]["family"], "openai");
    assert_eq!(meta["roles"]["chair"]["backend"], "qwen");
    for r in ["audience", "reporter", "assessor"] {
        assert_ne!(meta["roles"][r]["family"], meta["roles"]["chair"]["family"], "{r}");
    }
    let calls = meta["timings"]["calls"].as_array().unwrap();
    assert!(calls.iter().any(|c| c["role"] == "assessor" && c["ok"] == true));
    assert!(calls.iter().any(|c| c["speaker"] == "alice" && c["step"] == "round 2" && c["ms"].is_u64()));
    assert!(meta["timings"]["elapsed_ms"].is_u64());
}

#[test]
fn the_support_roles_come_from_flags_or_the_panel_section_and_a_clone_cannot_pick_programs() {
    let env = setup();
    fakes(&env, &[]);
    env.git(&["config", "debate.panel.reporter", "gemini"]);
    env.write(".gitdebate", "[debate \"panel\"]\n\taudience = exec:./evil\n");
    let run = env
        .run_full(&panel_args(&["--yes", "--assessor", "claude"]), "", &[("GIT_DEBATE_LAUNCHER", Some("qwen"))])
        .ok();
    assert!(run.stderr.contains("ignoring debate.panel.audience"), "{}", run.stderr);
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    let meta = read_json(&std::path::PathBuf::from(s["session_dir"].as_str().unwrap()).join("metadata.json"));
    assert_eq!(meta["roles"]["reporter"]["backend"], "gemini");
    assert_eq!(meta["roles"]["assessor"]["backend"], "claude");
    // The default: the first installed CLI of a family other than the chair's.
    assert_eq!(meta["roles"]["audience"]["backend"], "codex");
    let asked = |cli: &str, what: &str| env.fake_calls(cli).iter().any(|c| c["prompt"].as_str().unwrap().contains(what));
    assert!(asked("gemini", "Write the body of summary.md") && !asked("qwen", "Write the body of summary.md"));
    assert!(asked("claude", "You are the assessor") && !asked("qwen", "You are the assessor"));
    assert!(asked("codex", "You are the audience") && !asked("qwen", "You are the audience"));
}

#[test]
fn a_failure_stops_no_one_else_in_any_phase_or_role() {
    let env = setup();
    let fail = json!({"error": {"status": 500, "message": "boom"}});
    fakes(
        &env,
        &[
            ("Opening Statements. alice,", fail.clone()),
            ("Round 1 — Your turn, bob.", fail.clone()),
            ("Closing Statements. carol,", fail.clone()),
            ("Any questions for the debaters?", fail.clone()),
            ("Write the body of summary.md", fail.clone()),
            ("You are the assessor", fail.clone()),
        ],
    );
    let (s, dir) = run_panel(&env, &["--yes"]);
    assert_eq!(s["status"], "completed");
    assert_eq!(s["outcome"], "bob_wins", "the chair still concludes");
    let log = read_log(&dir);
    check_schema(&log, &["alice", "bob", "carol"]);
    assert_eq!(said(&log, "opening_statement"), ["bob", "carol"], "later debaters still open");
    assert_eq!(said(&log, "closing_statement"), ["bob", "alice"]);
    let rulings: Vec<&str> = kinds_of(&log, "ruling").iter().map(|e| e["content"].as_str().unwrap()).collect();
    for r in [
        "Ruling: alice did not deliver a turn in the opening",
        "Ruling: bob did not deliver a turn in the rebuttal",
        "Ruling: carol did not deliver a turn in the closing",
        "Ruling: the audience did not answer after round 1",
    ] {
        assert!(rulings.iter().any(|x| x.starts_with(r)), "{r}: {rulings:?}");
    }
    // Round 1 went on after bob: carol spoke; round 2 had all three.
    let r1 = position(&log, "Round 1 of 2 beginning.");
    let r2 = position(&log, "Round 2 of 2 beginning.");
    let in_round = |a: usize, b: usize| -> Vec<&str> { log[a..b].iter().filter(|e| e["phase"] == "rebuttal" && e["speaker"] != "chair").map(|e| e["speaker"].as_str().unwrap()).collect() };
    assert_eq!(in_round(r1, r2), ["alice", "carol"]);
    assert_eq!(in_round(r2, log.len()), ["alice", "bob", "carol"]);
    let notes = s["notes"].as_array().unwrap();
    for n in ["alice (claude) failed in the opening", "the reporter", "the assessor"] {
        assert!(notes.iter().any(|x| x.as_str().unwrap().contains(n)), "{n}: {notes:?}");
    }
    assert!(std::fs::read_to_string(dir.join("assessor-report.md")).unwrap().contains("could not be written"));
    assert!(std::fs::read_to_string(dir.join("summary.md")).unwrap().contains("### Outcome"));
}

#[test]
fn a_chair_that_cannot_conclude_makes_the_panel_void_and_nothing_else_does() {
    let env = setup();
    let fail = json!({"error": {"status": 500, "message": "boom"}});
    fakes(&env, &[("Phase 4 — Conclusion.", fail.clone()), ("Before the closing statements", fail)]);
    let (s, dir) = run_panel(&env, &["--yes", "--blog"]);
    assert_eq!(s["outcome"], "void");
    let log = read_log(&dir);
    assert_eq!(said(&log, "closing_statement"), ["carol", "bob", "alice"]);
    assert!(log.iter().any(|e| e["content"].as_str().unwrap().starts_with("Pre-Phase-3 review:")));
    assert!(log.iter().any(|e| e["content"] == "Debate concluded. Outcome: void. Reason: the chair could not conclude (no answer)"));
    // A void debate gets no blog post even when asked.
    assert!(!dir.join("blog-post.md").exists());
}

#[test]
fn when_time_runs_out_in_round_2_the_closings_and_the_conclusion_still_arrive() {
    let env = setup();
    // 12 seconds of budget; alice's round-2 turn would take a minute.
    env.git(&["config", "debate.panel.budgetMinutes", "0.2"]);
    fakes(&env, &[("Round 2 — Your turn, alice.", json!({"answer": "too late", "delay_ms": 60000}))]);
    let (s, dir) = run_panel(&env, &["--yes", "--max-rounds", "3"]);
    assert_eq!(s["status"], "completed");
    assert_eq!(s["outcome"], "bob_wins");
    assert_eq!(s["budget_spent"], true);
    assert_eq!(s["rounds"], 2);
    let log = read_log(&dir);
    check_schema(&log, &["alice", "bob", "carol"]);
    let r2 = position(&log, "Round 2 of 3 beginning.");
    assert!(!log.iter().any(|e| e["content"].as_str().unwrap().starts_with("Round 3")));
    let ruling = position(&log, "Ruling: alice did not deliver a turn in the rebuttal");
    assert!(ruling > r2 && log[ruling]["content"].as_str().unwrap().contains("the time budget ran out"));
    assert_eq!(said(&log, "closing_statement"), ["carol", "bob", "alice"]);
    assert!(log.iter().any(|e| e["type"] == "conclusion"));
    assert_eq!(log.last().unwrap()["type"], "audience_conclusion");
    let notes = s["notes"].as_array().unwrap();
    assert!(notes.iter().any(|n| n.as_str().unwrap().contains("the time budget (debate.panel.budgetMinutes) ran out")), "{notes:?}");
}

#[test]
fn an_outcome_outside_the_allowed_values_is_void() {
    let env = setup();
    fakes(&env, &[("Phase 4 — Conclusion.", json!({"answer": block(json!({"outcome": "affirmative_wins", "reason": "r"}))}))]);
    let (s, _) = run_panel(&env, &["--yes"]);
    assert_eq!(s["outcome"], "void");
}
