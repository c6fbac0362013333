//! The chaired panel end to end (seed 002): debaters on claude, codex and gemini, the chair on
//! qwen (the launcher), the audience, reporter and assessor on their own backends — all the fake
//! agent (see `common::panel`).

use serde_json::{json, Value};

use crate::common::panel::*;
use crate::common::read_json;
use crate::common::TestEnv;

#[test]
fn a_three_debater_panel_follows_the_seed_phases_log_and_outputs() {
    let env = TestEnv::with_committed_add();
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
    assert_eq!(
        log[0]["content"],
        "Debate session initialised. Chair is ready. Debaters: alice, bob, carol"
    );
    let ready = position(
        &log,
        "All agents confirmed ready. Beginning Phase 1: Opening Statements. Topic: Should we",
    );
    let p1 = position(
        &log,
        "Phase 1 complete. Opening statements delivered. Proceeding to Phase 2.",
    );
    let r1 = position(&log, "Round 1 of 2 beginning.");
    let r2 = position(&log, "Round 2 of 2 beginning.");
    let pre3 = position(&log, "Pre-Phase-3 review: The following points remain unresolved entering the closing round:\n1. failover under load");
    let p3 = position(
        &log,
        "Phase 3 complete. Closing statements delivered. Proceeding to Phase 4.",
    );
    let end = position(
        &log,
        "Debate concluded. Outcome: bob_wins. Reason: the only verified sources",
    );
    assert!(ready < p1 && p1 < r1 && r1 < r2 && r2 < pre3 && pre3 < p3 && p3 < end);
    assert_eq!(log[r1]["phase"], "rebuttal");
    assert_eq!(said(&log, "opening_statement"), ["alice", "bob", "carol"]);
    assert_eq!(
        said(&log, "closing_statement"),
        ["carol", "bob", "alice"],
        "closings in reverse order"
    );
    assert!(kinds_of(&log, "closing_statement")
        .iter()
        .all(|e| e["seq"].as_u64().unwrap() as usize > pre3));
    // The verifier relay line once per round, after that round's turns.
    let relays: Vec<usize> = log
        .iter()
        .enumerate()
        .filter(|(_, e)| {
            e["content"]
                .as_str()
                .unwrap()
                .starts_with("Verifier findings relayed this round: ")
        })
        .map(|(i, _)| i)
        .collect();
    assert_eq!(relays.len(), 2);
    assert!(r1 < relays[0] && relays[0] < r2 && r2 < relays[1] && relays[1] < pre3);
    // Entry types in the rounds: new_point, rebuttal (to alice's opening), conjecture.
    let round1: Vec<(&str, &str)> = log[r1..r2]
        .iter()
        .filter(|e| e["phase"] == "rebuttal" && e["speaker"] != "chair")
        .map(|e| (e["speaker"].as_str().unwrap(), e["type"].as_str().unwrap()))
        .collect();
    assert_eq!(
        round1,
        [
            ("alice", "new_point"),
            ("bob", "rebuttal"),
            ("carol", "conjecture")
        ]
    );
    let bob_r1 = kinds_of(&log, "rebuttal")[0];
    assert_eq!(bob_r1["rebuttal_to_seq"], 2);
    assert_eq!(
        log[2]["content"],
        "OPENING alice: see `src/lib.rs:2` and `src/ghost.rs`."
    );
    assert_eq!(
        kinds_of(&log, "conjecture")[0]["content"],
        "[CONJECTURE] R1 carol"
    );
    // The new framework: a chair note, relayed to the next speakers of that round.
    let fw = position(
        &log,
        "Note: alice introduced the following analytical framework at seq",
    );
    assert!(log[fw]["content"]
        .as_str()
        .unwrap()
        .contains("CAP theorem — consistency against availability"));
    let cue = |cli: &str, marker: &str| -> String {
        env.fake_calls(cli)
            .iter()
            .map(|c| c["prompt"].as_str().unwrap().to_string())
            .find(|p| p.contains(marker))
            .unwrap_or_else(|| panic!("no {marker} call"))
    };
    assert!(cue("codex", "Round 1 — Your turn, bob.")
        .contains("introduced the following analytical framework"));
    // Verification: verified, fabricated (redacted), unreliable (ruled on), unverifiable.
    let checks: Vec<Value> = kinds_of(&log, "verification_result")
        .iter()
        .map(|e| serde_json::from_str(e["content"].as_str().unwrap()).unwrap())
        .collect();
    let status = |src: &str| {
        checks
            .iter()
            .find(|c| c["url"] == src)
            .unwrap_or_else(|| panic!("{src} unchecked"))["status"]
            .clone()
    };
    assert_eq!(status("src/lib.rs:2"), "verified");
    assert_eq!(status("src/ghost.rs"), "fabricated");
    assert_eq!(status("src/lib.rs:99"), "unreliable");
    assert_eq!(status("https://example.com/pg"), "unverifiable");
    assert_eq!(said(&log, "redaction"), ["chair"]);
    assert_eq!(s["redactions"], 1);
    let ruling = log
        .iter()
        .find(|e| e["type"] == "ruling" && e["content"].as_str().unwrap().contains("unreliable"))
        .unwrap();
    assert!(
        ruling["content"]
            .as_str()
            .unwrap()
            .starts_with("Ruling on seq "),
        "{ruling}"
    );
    assert!(
        log[relays[0]]["content"]
            .as_str()
            .unwrap()
            .contains("fabricated")
            || log[p1..relays[0]].iter().any(|e| e["type"] == "redaction")
    );
    // Bob is warned about his unreliable source at his next turn; alice about her redaction.
    assert!(cue("codex", "Round 1 — Your turn, bob.").contains("is unreliable"));
    assert!(cue("claude", "Round 1 — Your turn, alice.").contains("REDACTED: seq 2 (alice)"));
    // Audience: named questions (at most 2, only to debaters), relayed to bob only.
    let qs = kinds_of(&log, "audience_question");
    assert_eq!(qs.len(), 1);
    assert_eq!(qs[0]["content"], "Q: bob: What about failover?");
    assert_eq!(qs[0]["speaker"], "chair");
    assert!(cue("codex", "Round 2 — Your turn, bob.")
        .contains("An audience question for you: What about failover?"));
    assert!(!cue("claude", "Round 2 — Your turn, alice.").contains("An audience question for you"));
    assert!(cue("gemini", "Closing Statements. carol,").contains("failover under load"));
    // The audience's conclusion comes after the chair's.
    let last = log.last().unwrap();
    assert_eq!(
        (last["type"].as_str(), last["speaker"].as_str()),
        (Some("audience_conclusion"), Some("audience"))
    );
    // The chair's neutrality rules are in every chair prompt.
    let chair_calls: Vec<String> = env
        .fake_calls("qwen")
        .iter()
        .map(|c| c["prompt"].as_str().unwrap().to_string())
        .filter(|p| p.contains("neutral chair"))
        .collect();
    assert!(chair_calls.len() >= 3);
    assert!(chair_calls
        .iter()
        .all(|p| p.contains("never express an opinion on the topic")));

    // Outputs.
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap_or_else(|_| panic!("{f}"));
    let transcript = read("transcript.md");
    assert!(transcript.contains("[FACT-CHECK]"));
    assert!(transcript.contains("[REDACTED — a cited source does not exist; see the ruling at seq"));
    assert!(transcript.contains("## Audience conclusion"));
    assert!(transcript.contains("| Openings | seq 2–"), "{transcript}");
    assert!(transcript.contains(&format!("| Round 2 | seq {r2}–")));
    let rulings = &transcript[transcript.find("\n## Chair Rulings\n").unwrap()..];
    assert!(rulings.contains("is unreliable") && rulings.contains("\n## Redactions\n\n- [seq"));
    let summary = read("summary.md");
    assert!(
        summary.contains("REPORTER ACCOUNT: bob argued failover."),
        "{summary}"
    );
    assert!(
        summary.contains("### Audience Perspective [seq")
            && summary.contains("AUDIENCE: bob's [seq 4] persuaded me.")
    );
    let vr = read("verifier-report.md");
    assert!(
        vr.contains("| `src/lib.rs:99` | location | unreliable |"),
        "{vr}"
    );
    assert!(vr.contains("- fabricated: 1"));
    assert!(read("blog-post.md").contains("Proponents argue"));
    assert!(read("assessor-report.md").contains("Overall rating: Good."));
    // The assessor ran after the reporter and read what it wrote.
    let assessor = cue("opencode", "You are the assessor");
    assert!(
        assessor.contains("REPORTER ACCOUNT: bob argued failover.")
            && assessor.contains("Proponents argue")
    );
    assert!(!["qwen", "claude", "codex", "gemini"].iter().any(|cli| env
        .fake_calls(cli)
        .iter()
        .any(|c| c["prompt"]
            .as_str()
            .unwrap()
            .contains("You are the verifier"))));
    let meta = read_json(&dir.join("metadata.json"));
    assert_eq!(meta["kind"], "panel");
    assert_eq!(meta["outcome"], "bob_wins");
    assert_eq!(meta["lineup"][1]["backend"], "codex");
    assert_eq!(meta["lineup"][1]["family"], "openai");
    assert_eq!(meta["roles"]["chair"]["backend"], "qwen");
    for r in ["audience", "reporter", "assessor"] {
        assert_ne!(
            meta["roles"][r]["family"], meta["roles"]["chair"]["family"],
            "{r}"
        );
    }
    let calls = meta["timings"]["calls"].as_array().unwrap();
    assert!(calls
        .iter()
        .any(|c| c["role"] == "assessor" && c["ok"] == true));
    assert!(calls
        .iter()
        .any(|c| c["speaker"] == "alice" && c["step"] == "round 2" && c["ms"].is_u64()));
    assert!(meta["timings"]["elapsed_ms"].is_u64());
}

#[test]
fn the_support_roles_come_from_flags_or_the_panel_section_and_a_clone_cannot_pick_programs() {
    let env = TestEnv::with_committed_add();
    // A long turn: later cues keep it whole for its author and within its round only.
    let long = format!("TYPE: new_point\n{} END-OF-LONG", "word ".repeat(400));
    fakes(
        &env,
        &[("Round 1 — Your turn, alice.", json!({ "answer": long }))],
    );
    env.git(&["config", "debate.panel.reporter", "gemini"]);
    env.write(
        ".gitdebate",
        "[debate \"panel\"]\n\taudience = exec:./evil\n",
    );
    let run = env
        .run_full(
            &panel_args(&["--yes", "--assessor", "claude"]),
            "",
            &[("GIT_DEBATE_LAUNCHER", Some("qwen"))],
        )
        .ok();
    assert!(
        run.stderr.contains("ignoring debate.panel.audience"),
        "{}",
        run.stderr
    );
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    let meta = read_json(
        &std::path::PathBuf::from(s["session_dir"].as_str().unwrap()).join("metadata.json"),
    );
    assert_eq!(meta["roles"]["reporter"]["backend"], "gemini");
    assert_eq!(meta["roles"]["assessor"]["backend"], "claude");
    // The default: the installed CLI no debater uses.
    assert_eq!(meta["roles"]["audience"]["backend"], "opencode");
    let asked = |cli: &str, what: &str| {
        env.fake_calls(cli)
            .iter()
            .any(|c| c["prompt"].as_str().unwrap().contains(what))
    };
    assert!(
        asked("gemini", "Write the body of summary.md")
            && !asked("qwen", "Write the body of summary.md")
    );
    assert!(asked("claude", "You are the assessor") && !asked("qwen", "You are the assessor"));
    assert!(asked("opencode", "You are the audience") && !asked("qwen", "You are the audience"));
    let cue = |cli: &str, marker: &str| {
        env.fake_calls(cli)
            .iter()
            .map(|c| c["prompt"].as_str().unwrap().to_string())
            .find(|p| p.contains(marker))
            .unwrap()
    };
    assert!(cue("codex", "Round 1 — Your turn, bob.").contains("END-OF-LONG"));
    assert!(cue("claude", "Round 2 — Your turn, alice.").contains("END-OF-LONG"));
    let later = cue("codex", "Round 2 — Your turn, bob.");
    assert!(
        !later.contains("END-OF-LONG") && later.contains(" …\n"),
        "{later}"
    );
}

#[test]
fn a_verifier_model_judges_only_what_the_tool_cannot_check() {
    let env = TestEnv::with_committed_add();
    let verdict = json!([{"url": "https://example.com/pg", "status": "unreliable", "explanation": "a placeholder domain"}]);
    fakes(
        &env,
        &[(
            "You are the verifier of a panel debate",
            json!({"answer": block(verdict)}),
        )],
    );
    let (_, dir) = run_panel(&env, &["--yes", "--verifier", "gemini"]);
    let log = read_log(&dir);
    check_schema(&log, &["alice", "bob", "carol"]);
    let checks: Vec<Value> = kinds_of(&log, "verification_result")
        .iter()
        .map(|e| serde_json::from_str(e["content"].as_str().unwrap()).unwrap())
        .collect();
    let url = checks
        .iter()
        .find(|c| c["url"] == "https://example.com/pg")
        .unwrap();
    assert_eq!(url["status"], "unreliable");
    assert_eq!(
        url["explanation"],
        "model check (gemini): a placeholder domain"
    );
    assert!(log.iter().any(|e| e["type"] == "ruling"
        && e["content"]
            .as_str()
            .unwrap()
            .contains("the source `https://example.com/pg` is unreliable")));
    // The tool's own marks stand: the model is asked about the URL only.
    assert_eq!(
        checks.iter().find(|c| c["url"] == "src/ghost.rs").unwrap()["status"],
        "fabricated"
    );
    let asked: Vec<String> = env
        .fake_calls("gemini")
        .iter()
        .map(|c| c["prompt"].as_str().unwrap().to_string())
        .filter(|p| p.contains("You are the verifier of a panel debate"))
        .collect();
    assert_eq!(asked.len(), 1, "one entry cites a URL");
    assert!(
        asked[0].contains("Sources: https://example.com/pg\n"),
        "{}",
        asked[0]
    );
    let meta = read_json(&dir.join("metadata.json"));
    assert_eq!(
        meta["roles"]["verifier"]["model_check"]["backend"],
        "gemini"
    );
    for cli in ["qwen", "claude", "codex"] {
        assert!(!env.fake_calls(cli).iter().any(|c| c["prompt"]
            .as_str()
            .unwrap()
            .contains("You are the verifier")));
    }
}

/// Seed 002 checks each source once per debate: a source cited again is logged as a
/// re-confirmation of the first check, and the verifier model is not asked twice.
#[test]
fn a_source_cited_again_is_a_re_confirmation_not_a_second_model_check() {
    let env = TestEnv::with_committed_add();
    let verdict = json!([{"url": "https://example.com/pg", "status": "unreliable", "explanation": "a placeholder domain"}]);
    fakes(
        &env,
        &[
            (
                "You are the verifier of a panel debate",
                json!({"answer": block(verdict)}),
            ),
            (
                "Closing Statements. bob,",
                json!({"answer": "CLOSING bob: as https://example.com/pg shows"}),
            ),
        ],
    );
    let (_, dir) = run_panel(&env, &["--yes", "--verifier", "gemini"]);
    let log = read_log(&dir);
    check_schema(&log, &["alice", "bob", "carol"]);
    let asked = env
        .fake_calls("gemini")
        .iter()
        .filter(|c| {
            c["prompt"]
                .as_str()
                .unwrap()
                .contains("You are the verifier of a panel debate")
        })
        .count();
    assert_eq!(asked, 1, "the URL is judged once");
    let checks: Vec<Value> = kinds_of(&log, "verification_result")
        .iter()
        .map(|e| serde_json::from_str(e["content"].as_str().unwrap()).unwrap())
        .filter(|c: &Value| c["url"] == "https://example.com/pg")
        .collect();
    assert_eq!(checks.len(), 2, "{checks:?}");
    assert_eq!(checks[1]["status"], "unreliable");
    let first = checks[0]["verified_seq"].as_u64().unwrap();
    assert_eq!(
        checks[1]["explanation"],
        format!("re-confirmation of the check at seq {first}: model check (gemini): a placeholder domain")
    );
}
