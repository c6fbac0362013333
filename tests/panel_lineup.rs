//! Who is on a panel and how it shows: the default lineup from a topic alone, head counts and
//! personas in `--panel`, the lineup edited at the terminal, a panel resumed after Ctrl-C, the
//! progress line, and the calls that run beside each other.

use serde_json::{json, Value};

use crate::common::panel::*;
use crate::common::{read_json, run_on_tty, TestEnv};

fn meta_of(stdout: &str) -> Value {
    let s: Value = serde_json::from_str(stdout).unwrap();
    read_json(&std::path::PathBuf::from(s["session_dir"].as_str().unwrap()).join("metadata.json"))
}

fn topic_only<'a>(extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec![
        "topic",
        "Should we replace Redis with Postgres LISTEN/NOTIFY?",
        "--min-rounds",
        "1",
        "--max-rounds",
        "1",
        "--format",
        "json",
    ];
    v.extend_from_slice(extra);
    v
}

#[test]
fn a_topic_alone_gets_three_debaters_across_families_and_head_counts_and_personas_work() {
    let env = TestEnv::with_committed_add();
    fakes(&env, &[]);
    let launch = [("GIT_DEBATE_LAUNCHER", Some("qwen"))];
    let run = env
        .run_full(&topic_only(&["--yes", "--panel"]), "", &launch)
        .ok();
    let meta = meta_of(&run.stdout);
    let lineup: Vec<(&str, &str)> = meta["lineup"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["name"].as_str().unwrap(), d["backend"].as_str().unwrap()))
        .collect();
    // Every family but the chair's (qwen) once, in the order a reviewer is picked.
    assert_eq!(
        lineup,
        [("alice", "codex"), ("bob", "claude"), ("carol", "gemini")]
    );
    assert_eq!(meta["lineup"][2]["position"], "keep both");
    assert!(run.stderr.contains("the lineup:"), "{}", run.stderr);

    let run = env
        .run_full(
            &topic_only(&["--yes", "--panel", "2 debaters"]),
            "",
            &launch,
        )
        .ok();
    assert_eq!(meta_of(&run.stdout)["lineup"].as_array().unwrap().len(), 2);
    let run = env
        .run_full(
            &topic_only(&[
                "--yes",
                "--panel",
                "a venture capitalist, a labour economist and an SRE",
            ]),
            "",
            &launch,
        )
        .ok();
    let meta = meta_of(&run.stdout);
    let names: Vec<&str> = meta["lineup"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["venture-capitalist", "labour-economist", "sre"]);
    assert_eq!(meta["lineup"][1]["persona"], "a labour economist");
    assert_eq!(
        meta["lineup"][1]["position"], "keep Redis",
        "the chair's proposal, by position"
    );
    let run = env
        .run_full(
            &topic_only(&["--yes", "--panel", "twelve voices"]),
            "",
            &launch,
        )
        .fails(2);
    assert!(run.stderr.contains("bad --panel"), "{}", run.stderr);
}

#[test]
fn the_lineup_is_edited_at_the_terminal_before_the_panel_starts() {
    let env = TestEnv::with_committed_add();
    fakes(&env, &[]);
    let typed = "frobnicate\nremove 3\nremove 1\nedit 1\nskeptic\n\nA skeptic\n\n\nadd\ndave\ngemini\na data engineer\nmaybe\nlatency\naccept\n";
    let (run, shown) = run_on_tty(
        &env,
        &topic_only(&["--panel"]),
        "",
        Some(typed),
        false,
        "qwen",
    );
    let run = run.ok();
    assert!(shown.contains("The chair proposes this lineup"), "{shown}");
    assert!(
        shown.contains("Accept, edit N, add, remove N, or quit?"),
        "{shown}"
    );
    assert!(
        shown.contains("answer accept, edit N, add, remove N or quit"),
        "{shown}"
    );
    assert!(
        shown.contains("a panel needs at least 2 debaters"),
        "{shown}"
    );
    let meta = meta_of(&run.stdout);
    let lineup: Vec<(&str, &str, &str)> = meta["lineup"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["name"].as_str().unwrap(),
                d["backend"].as_str().unwrap(),
                d["persona"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        lineup,
        [
            ("skeptic", "codex", "A skeptic"),
            ("bob", "claude", "an SRE"),
            ("dave", "gemini", "a data engineer")
        ]
    );
    assert_eq!(
        meta["lineup"][0]["position"], "switch",
        "kept when left empty"
    );
    // The edited lineup is the one that debates.
    assert!(env.fake_calls("gemini").iter().any(|c| c["prompt"]
        .as_str()
        .unwrap()
        .contains("Opening Statements. dave,")));
    // Declined: nothing runs.
    let (run, _) = run_on_tty(
        &env,
        &topic_only(&["--panel"]),
        "",
        Some("quit\n"),
        false,
        "qwen",
    );
    let run = run.fails(2);
    assert!(run.stderr.contains("lineup declined"), "{}", run.stderr);
}

#[test]
fn a_proposed_lineup_needs_yes_or_a_terminal_and_bad_specs_are_usage_errors() {
    let env = TestEnv::with_committed_add();
    fakes(&env, &[]);
    let (run, _) = run_on_tty(&env, &panel_args(&[]), "", None, false, "qwen");
    let run = run.fails(2);
    assert!(run.stderr.contains("pass --yes"), "{}", run.stderr);
    let run = env
        .run(&["topic", "x?", "--debater", "only=claude"])
        .fails(2);
    assert!(run.stderr.contains("at least 2 debaters"), "{}", run.stderr);
    let run = env
        .run(&[
            "topic",
            "x?",
            "--debater",
            "a b=claude",
            "--debater",
            "c=codex",
        ])
        .fails(2);
    assert!(run.stderr.contains("bad --debater"), "{}", run.stderr);
}

#[test]
fn an_interrupted_panel_resumes_where_it_stopped() {
    let env = TestEnv::with_committed_add();
    let lineup = env.root.join("lineup.json");
    std::fs::write(
        &lineup,
        json!([
            {"name": "alice", "backend": "claude", "persona": "purist", "position": "switch", "incentives": "x"},
            {"name": "bob", "backend": "codex", "persona": "sre", "position": "keep", "incentives": "y"},
            {"name": "carol", "backend": "gemini", "persona": "pm", "position": "both", "incentives": "z"}
        ])
        .to_string(),
    )
    .unwrap();
    let stop = (
        "Prepare the next round",
        json!({"answer": block(json!({"continue": false}))}),
    );
    fakes(
        &env,
        &[
            ("Round 1 — Your turn, bob.", json!({"hang": true})),
            stop.clone(),
        ],
    );
    let args = [
        "topic",
        "Redis?",
        "--panel",
        lineup.to_str().unwrap(),
        "--min-rounds",
        "1",
        "--max-rounds",
        "2",
    ];
    env.interrupt_when(&args, "qwen", "codex.pid").fails(130);

    fakes(&env, &[stop]);
    // A session file does not choose what runs: a recorded role naming a program is refused.
    let id = env.session_ids().remove(0);
    let meta_path = env.store().join(&id).join("metadata.json");
    let good = std::fs::read_to_string(&meta_path).unwrap();
    let mut bad: Value = serde_json::from_str(&good).unwrap();
    bad["roles"]["audience"]["backend"] = "exec:./evil".into();
    std::fs::write(&meta_path, bad.to_string()).unwrap();
    let run = env.run_full(&["resume", "last"], "", &[]).fails(2);
    assert!(run.stderr.contains("as its audience"), "{}", run.stderr);
    std::fs::write(&meta_path, good).unwrap();
    let run = env
        .run_full(&["resume", "last", "--format", "json"], "", &[])
        .ok();
    let s: Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(s["status"], "completed", "{s}");
    assert_eq!(s["outcome"], "bob_wins");
    let entries = s["entries"].as_array().unwrap();
    let said: Vec<String> = entries
        .iter()
        .filter(|e| {
            e["speaker"] != "chair"
                && ["opening", "rebuttal", "closing"].contains(&e["phase"].as_str().unwrap())
        })
        .map(|e| {
            e["content"]
                .as_str()
                .unwrap()
                .split(':')
                .next()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(
        said,
        [
            "OPENING alice",
            "OPENING bob",
            "OPENING carol",
            "R1 alice",
            "R1 bob",
            "[CONJECTURE] R1 carol",
            "CLOSING carol",
            "CLOSING bob",
            "CLOSING alice"
        ]
    );
    let count = |c: &str| {
        entries
            .iter()
            .filter(|e| e["content"].as_str().unwrap().starts_with(c))
            .count()
    };
    assert_eq!(
        count("Round 1 of 2 beginning."),
        1,
        "round 1 was announced again"
    );
    assert_eq!(count("Debate concluded."), 1);
    assert_eq!(
        count("Ruling: bob did not deliver"),
        0,
        "Ctrl-C is not a forfeit"
    );
    check_schema(
        &serde_json::from_value::<Vec<Value>>(s["entries"].clone()).unwrap(),
        &["alice", "bob", "carol"],
    );
}

#[test]
fn the_progress_line_says_who_is_speaking_in_which_round() {
    let env = TestEnv::with_committed_add();
    fakes(
        &env,
        &[(
            "Round 1 — Your turn, bob.",
            json!({"answer": "R1 bob", "delay_ms": 700}),
        )],
    );
    let (run, shown) = run_on_tty(
        &env,
        &panel_args(&["--yes", "--max-rounds", "1"]),
        "",
        Some(""),
        true,
        "qwen",
    );
    run.ok();
    assert!(
        shown.contains("· round 1/1 · bob (codex) speaking · 0s"),
        "{shown:?}"
    );
    assert!(shown.contains("  panel 0:0"), "{shown:?}");
}

/// Counts the fake's `<tag>.<pid>.met` files: 2 when two calls overlapped, 1 when one came
/// after the other.
fn met(env: &TestEnv, tag: &str) -> usize {
    std::fs::read_dir(env.root.join("fake"))
        .unwrap()
        .flatten()
        .filter(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            n.starts_with(&format!("{tag}.")) && n.ends_with(".met")
        })
        .count()
}

#[test]
fn notes_run_beside_the_next_turn_and_questions_beside_the_chair_unless_concurrency_is_1() {
    for (concurrency, together) in [("2", 2), ("1", 1)] {
        let env = TestEnv::with_committed_add();
        let meet = |tag: &str, answer: &str| json!({"answer": answer, "rendezvous": {"tag": tag, "wait_ms": 3000}});
        fakes(
            &env,
            &[
                // The reporter's note on alice's round-1 entry, and bob's turn after it.
                ("] alice | new_point\n", meet("turn", "noted")),
                (
                    "Round 1 — Your turn, bob.",
                    meet("turn", "TYPE: new_point\nR1 bob"),
                ),
                // The audience's questions, and the chair preparing round 2.
                (
                    "Round 1 complete. Any questions",
                    meet("between", "no questions"),
                ),
                (
                    "Prepare the next round",
                    meet("between", &block(json!({"continue": false}))),
                ),
            ],
        );
        let run = env
            .run_full(
                &panel_args(&["--yes"]),
                "",
                &[
                    ("GIT_DEBATE_LAUNCHER", Some("qwen")),
                    ("GIT_DEBATE_CONCURRENCY", Some(concurrency)),
                ],
            )
            .ok();
        let s: Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(s["status"], "completed");
        assert_eq!(
            met(&env, "turn"),
            together,
            "concurrency {concurrency}: note beside the turn"
        );
        assert_eq!(
            met(&env, "between"),
            together,
            "concurrency {concurrency}: audience beside the chair"
        );
    }
}

#[test]
fn a_chair_that_cannot_propose_the_lineup_stops_before_anything_runs() {
    let env = TestEnv::with_committed_add();
    fakes(
        &env,
        &[(
            "Propose for each",
            json!({"error": {"status": 500, "message": "boom"}}),
        )],
    );
    let run = env
        .run_full(
            &topic_only(&["--yes", "--panel"]),
            "",
            &[("GIT_DEBATE_LAUNCHER", Some("qwen"))],
        )
        .fails(3);
    assert!(
        run.stderr
            .contains("the chair could not propose the lineup"),
        "{}",
        run.stderr
    );
    assert_eq!(env.session_count(), 0, "no session was started");
}
