//! Reviewing the launching agent's last message, read from the transcript it keeps, with the
//! transcripts recorded from the real CLIs (tests/fixtures/transcripts) placed in a temp HOME.

use std::path::{Path, PathBuf};

use serde_json::json;

use crate::common::{Run, TestEnv};

/// The recorded project folder, and the name claude and qwen give its folder.
const RECORDED: &str = "/home/dev/project";
const RECORDED_SLUG: &str = "-home-dev-project";

fn fixtures(agent: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/transcripts")
        .join(agent)
}

fn slug(p: &Path) -> String {
    p.to_string_lossy()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

/// Copies `from` into `to`, as if the agent had run in `project`: the recorded folder's path is
/// replaced in names and contents.
fn copy_as(from: &Path, to: &Path, project: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let name = e
            .file_name()
            .to_string_lossy()
            .replace(RECORDED_SLUG, &slug(project));
        if e.file_type().unwrap().is_dir() {
            copy_as(&e.path(), &to.join(name), project);
        } else {
            let text = std::fs::read_to_string(e.path()).unwrap();
            let text = text.replace(RECORDED, &project.display().to_string());
            std::fs::write(to.join(name), text).unwrap();
        }
    }
}

/// `agent`'s recorded transcript in the test's HOME, as if recorded in the test's repository.
fn recorded(env: &TestEnv, agent: &str) {
    copy_as(&fixtures(agent), &env.home, &env.repo);
}

/// `git debate args` as run by `agent` from inside its session (its shell marker set).
fn from_inside(env: &TestEnv, agent: &str, marker: &str, args: &[&str]) -> Run {
    env.run_full(
        args,
        "",
        &[("GIT_DEBATE_LAUNCHER", Some(agent)), (marker, Some("1"))],
    )
}

const DESIGN: &str = "## Design\n\nStream the input instead of buffering it";

/// The design answer was reviewed, and everything says where it came from.
fn reviewed_design(run: &Run, agent: &str, file_part: &str) {
    assert!(
        run.stdout
            .contains(&format!("source:     {agent}'s last message")),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("from:       "), "{}", run.stdout);
    assert!(run.stdout.contains(file_part), "{}", run.stdout);
    assert!(run.stdout.contains("target:     mixed"), "{}", run.stdout);
    assert!(
        run.stderr
            .contains(&format!("reviewing {agent}'s last message from")),
        "{}",
        run.stderr
    );
    assert!(run.artifact().starts_with(DESIGN), "{}", run.artifact());
    let source = &run.metadata()["source"];
    assert_eq!(source["kind"], "last-message");
    assert_eq!(source["agent"], agent);
    assert!(source["file"].as_str().unwrap().contains(file_part));
    assert!(!source["message"].as_str().unwrap().is_empty());
}

#[test]
fn each_agents_recorded_transcript_gives_its_last_answer() {
    for (agent, marker, file_part) in [
        ("claude", "CLAUDECODE", "/.claude/projects/"),
        (
            "codex",
            "CODEX_SANDBOX",
            "/.codex/sessions/2026/11/23/rollout-",
        ),
        (
            "gemini",
            "GEMINI_CLI",
            "/.gemini/tmp/project/chats/session-",
        ),
        ("qwen", "QWEN_CODE", "/.qwen/projects/"),
        ("copilot", "COPILOT_CLI", "/.copilot/session-state/"),
    ] {
        let env = TestEnv::with_repo();
        recorded(&env, agent);
        let run = from_inside(&env, agent, marker, &["--last-message", "--dry-run"]).ok();
        reviewed_design(&run, agent, file_part);
    }
}

#[test]
fn opencodes_sessions_come_from_its_own_export() {
    let env = TestEnv::with_repo();
    let read = |f: &str| {
        std::fs::read_to_string(fixtures("opencode").join(f))
            .unwrap()
            .replace(RECORDED, &env.repo.display().to_string())
    };
    env.fake(
        "opencode",
        json!([
            {"format": "raw", "stdout": read("session-list.json")},
            {"format": "raw", "stdout": read("export.json")},
        ]),
    );
    let run = from_inside(
        &env,
        "opencode",
        "OPENCODE",
        &["--last-message", "--dry-run"],
    )
    .ok();
    reviewed_design(&run, "opencode", "opencode session ses_");
    let calls = env.fake_calls("opencode");
    let argv = |i: usize| crate::common::argv(&calls[i])[1..].join(" ");
    assert_eq!(argv(0), "session list --format json");
    assert!(argv(1).starts_with("export ses_"), "{}", argv(1));
}

#[test]
fn an_agent_with_nothing_changed_gets_its_last_message_reviewed() {
    let env = TestEnv::with_repo();
    recorded(&env, "claude");
    let run = from_inside(&env, "claude", "CLAUDECODE", &["--dry-run"]).ok();
    reviewed_design(&run, "claude", "/.claude/projects/");
    assert!(
        run.stderr.contains("(message msg_") && run.stderr.contains(": no uncommitted changes"),
        "{}",
        run.stderr
    );
    assert_eq!(run.metadata()["source"]["why"], "nothing-to-review");

    // A change is what an agent's plain `git debate` reviews when there is one.
    env.write("lib.rs", "fn f() {}\n");
    let run = from_inside(&env, "claude", "CLAUDECODE", &["--dry-run"]).ok();
    assert!(run.stdout.contains("lib.rs"), "{}", run.stdout);
    assert_eq!(run.metadata()["source"]["kind"], "scope");

    // The pre-commit hook never reviews a message.
    let run = from_inside(&env, "claude", "CLAUDECODE", &["hook", "run"]).ok();
    assert!(!run.stderr.contains("last message"), "{}", run.stderr);
    assert_eq!(env.session_count(), 2);

    // An explicit scope with nothing in it is just that.
    env.commit_all("f");
    let run = from_inside(&env, "claude", "CLAUDECODE", &["--scope", "staged"]).ok();
    assert!(run.stdout.contains("nothing to review"), "{}", run.stdout);
    assert_eq!(env.session_count(), 2);
}

#[test]
fn without_an_agent_nothing_to_review_stays_nothing_and_the_flag_says_what_to_do() {
    let env = TestEnv::with_repo();
    recorded(&env, "claude");
    let run = env.run(&["--dry-run"]).ok();
    assert!(run.stdout.contains("nothing to review"), "{}", run.stdout);
    assert!(!run.stderr.contains("last message"), "{}", run.stderr);
    let run = env.run(&["--last-message", "--dry-run"]).fails(2);
    assert!(
        run.stderr.contains("no launching agent detected")
            && run.stderr.contains("GIT_DEBATE_LAUNCHER=<claude|codex|"),
        "{}",
        run.stderr
    );
    assert_eq!(env.session_count(), 0);
}

#[test]
fn no_transcript_or_only_another_projects_is_an_error_naming_where_it_looked() {
    let env = TestEnv::with_repo();
    let run = env
        .run_from_claude(&["--last-message", "--dry-run"])
        .fails(2);
    assert!(
        run.stderr.contains("no claude transcripts")
            && run.stderr.contains("/home/.claude does not exist"),
        "{}",
        run.stderr
    );
    // Launched by an agent with nothing to review: the old answer, and why not the message.
    let run = env.run_from_claude(&["--dry-run"]).ok();
    assert!(run.stdout.contains("nothing to review"), "{}", run.stdout);
    assert!(
        run.stderr
            .contains("note: the launching agent's last message was not reviewed"),
        "{}",
        run.stderr
    );

    // Transcripts of another project (the recorded folder, not this repository) are not read.
    for agent in ["claude", "codex", "copilot"] {
        copy_as(&fixtures(agent), &env.home, Path::new(RECORDED));
        let run = env
            .run_full(
                &["--last-message", "--dry-run"],
                "",
                &[("GIT_DEBATE_LAUNCHER", Some(agent))],
            )
            .fails(2);
        assert!(
            run.stderr.contains(&format!(
                "no {agent} transcript for this project ({}",
                env.repo.display()
            )),
            "{agent}: {}",
            run.stderr
        );
        assert!(!run.stderr.contains("Design"), "{}", run.stderr);
    }
    assert_eq!(env.session_count(), 0);
}

/// A claude transcript of this repository holding `lines`.
fn claude_transcript(env: &TestEnv, lines: &[serde_json::Value]) -> PathBuf {
    let dir = env.home.join(".claude/projects").join(slug(&env.repo));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("0001.jsonl");
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&file, text).unwrap();
    file
}

fn said(env: &TestEnv, id: &str, text: &str) -> Vec<serde_json::Value> {
    let cwd = env.repo.display().to_string();
    vec![
        json!({"type": "user", "cwd": cwd, "message": {"role": "user", "content": "Well?"}}),
        json!({"type": "assistant", "cwd": cwd, "message": {"id": id, "role": "assistant",
            "content": [{"type": "thinking", "thinking": "hidden"}, {"type": "text", "text": text}]}}),
    ]
}

#[test]
fn a_malformed_transcript_is_an_error() {
    let env = TestEnv::with_repo();
    let file = claude_transcript(&env, &[]);
    std::fs::write(&file, "{not json\n\u{0}\u{0}\n").unwrap();
    let run = env
        .run_from_claude(&["--last-message", "--dry-run"])
        .fails(2);
    assert!(
        run.stderr
            .contains("is not a claude transcript (2 lines could not be read)"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_secret_in_the_message_is_redacted_like_any_artifact() {
    let env = TestEnv::with_repo();
    let key = ["sk_live_", "Qm9vZ3VzS2V5Rm9yVGVzdHM1"].concat();
    claude_transcript(
        &env,
        &said(
            &env,
            "msg_1",
            &format!("Set STRIPE_KEY={key} and restart the worker."),
        ),
    );
    let run = env.run_from_claude(&["--last-message", "--dry-run"]).ok();
    assert!(
        run.stdout.contains("redactions: 1 secret"),
        "{}",
        run.stdout
    );
    for (path, bytes) in crate::common::all_files(&env.store()) {
        let text = String::from_utf8_lossy(&bytes);
        assert!(!text.contains(&key), "{} holds the key", path.display());
    }
    assert!(!run.stdout.contains(&key) && !run.stderr.contains(&key));
    assert!(run.artifact().contains("restart the worker"));
}

#[test]
fn short_plain_text_is_the_whole_message_and_long_plain_text_only_when_asked() {
    let env = TestEnv::with_repo();
    claude_transcript(&env, &said(&env, "msg_short", "Use a bounded queue here."));
    let run = env.run_from_claude(&["--dry-run"]).ok();
    assert!(
        run.stdout.contains("target:     proposal (")
            && run
                .stdout
                .contains("short plain text (25 characters): the whole message"),
        "{}",
        run.stdout
    );
    assert_eq!(run.artifact(), "Use a bounded queue here.\n");

    let long = "The queue should stay bounded because producers outrun consumers. ".repeat(40);
    claude_transcript(&env, &said(&env, "msg_long", &long));
    let run = env.run_from_claude(&["--dry-run"]).ok();
    assert!(run.stdout.contains("nothing to review"), "{}", run.stdout);
    assert!(
        run.stderr
            .contains("plain text with no code or proposal sections")
            && run.stderr.contains("--last-message"),
        "{}",
        run.stderr
    );
    let run = env.run_from_claude(&["--last-message", "--dry-run"]).ok();
    assert!(
        run.stdout.contains("the whole message, as asked"),
        "{}",
        run.stdout
    );
}
