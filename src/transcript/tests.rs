//! Each reader on the transcripts recorded from the real CLIs, and the rules for picking the
//! answer. The recordings stop while the agent runs a command (as when it runs `git debate`):
//! turns were a plain answer, a tool call and its answer, a design with code, then the call.

use std::path::{Path, PathBuf};

use super::*;

const DESIGN_START: &str = "## Design\n\nStream the input instead of buffering it";

fn fixtures(agent: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/transcripts")
        .join(agent)
}

fn lookup_in(home: PathBuf, turn_open: bool) -> impl Fn(&str) -> Result<Message, String> {
    move |name| {
        let home = home.display().to_string();
        let var = |k: &str| (k == "HOME").then(|| home.clone());
        find(
            agent(name).unwrap(),
            &Lookup {
                var: &var,
                project: vec![PathBuf::from("/home/dev/project")],
                turn_open,
            },
        )
    }
}

#[test]
fn every_recorded_transcript_gives_the_design_answer() {
    for name in ["claude", "codex", "gemini", "qwen", "copilot"] {
        let m = lookup_in(fixtures(name), true)(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(m.text.starts_with(DESIGN_START), "{name}: {}", m.text);
        assert!(m.text.contains("```rust\nfn tokens"), "{name}");
        assert!(!m.id.is_empty(), "{name}");
        assert!(
            m.file.contains(&fixtures(name).display().to_string()),
            "{name}"
        );
    }
}

#[test]
fn a_finished_looking_turn_counts_unless_we_run_inside_it() {
    // Gemini writes a message's tool calls only once they finish, so while it runs us its newest
    // message looks like a finished answer; only knowing we run inside its turn tells.
    let m = lookup_in(fixtures("gemini"), false)("gemini").unwrap();
    assert_eq!(m.text, "I will ask for a second opinion with git debate.\n");
    // The others show the pending call.
    for name in ["claude", "codex", "qwen", "copilot"] {
        let m = lookup_in(fixtures(name), false)(name).unwrap();
        assert!(m.text.starts_with(DESIGN_START), "{name}");
    }
}

#[test]
fn copilot_may_not_have_written_the_running_turn_yet() {
    // Seen live: while copilot ran `git debate`, its events file still ended with the previous
    // turn. That turn's answer is the last one, even though we run inside a newer turn.
    let tmp = edited("copilot", |t| {
        let end = t.find("I will ask for a second opinion").unwrap();
        let end = t[..end].rfind("{\"type\":\"user.message\"").unwrap();
        t[..end].to_string()
    });
    let m = lookup_in(tmp.path().into(), true)("copilot").unwrap();
    assert!(m.text.starts_with(DESIGN_START), "{}", m.text);
}

#[test]
fn the_opencode_export_reads_the_same() {
    let text = std::fs::read_to_string(fixtures("opencode").join("export.json")).unwrap();
    let parsed = Format::OpencodeExport.events(&text);
    let (id, answer) = last_answer(&parsed.events, true).unwrap();
    assert!(answer.starts_with(DESIGN_START));
    assert!(id.starts_with("msg_"));
}

#[test]
fn narration_before_a_tool_is_not_an_answer_and_texts_in_a_row_are_one() {
    let t = |id: &str, text: &str| Event::Text {
        id: id.into(),
        text: text.into(),
    };
    let events = vec![
        Event::Prompt,
        t("a", "Let me look."),
        Event::Tool,
        Event::Tool,
        t("b", "Part one."),
        t("b", "Part two."),
        Event::Prompt,
        t("c", "Checking."),
        Event::Tool,
    ];
    let want = Some(("b".to_string(), "Part one.\n\nPart two.\n".to_string()));
    assert_eq!(last_answer(&events, false), want);
    assert_eq!(last_answer(&events, true), want);
    let finished = [&events[..], &[t("d", "All done.")]].concat();
    assert_eq!(last_answer(&finished, false).unwrap().1, "All done.\n");
    assert_eq!(last_answer(&finished, true), want);
    assert_eq!(last_answer(&[Event::Prompt, Event::Tool], false), None);
}

/// A copy of `agent`'s recording in a temp HOME, with `edit` applied to its transcript.
fn edited(agent: &str, edit: impl Fn(&str) -> String) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    copy_tree(&fixtures(agent), tmp.path(), &edit);
    tmp
}

/// Copies `from` to `to`, passing each transcript (`.jsonl`) through `edit`.
fn copy_tree(from: &Path, to: &Path, edit: &dyn Fn(&str) -> String) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &target, edit);
        } else if target.extension().is_some_and(|x| x == "jsonl") {
            let text = std::fs::read_to_string(e.path()).unwrap();
            std::fs::write(target, edit(&text)).unwrap();
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

#[test]
fn broken_lines_are_skipped_and_a_file_of_them_is_refused() {
    let tmp = edited("claude", |t| {
        t.replacen(
            '\n',
            "\n{\"type\": \"assistant\", cut off\n\u{0}\u{1}garbage\n",
            3,
        )
    });
    let m = lookup_in(tmp.path().into(), true)("claude").unwrap();
    assert!(m.text.starts_with(DESIGN_START));

    let tmp = edited("claude", |t| t.lines().map(|_| "not json\n").collect());
    let e = lookup_in(tmp.path().into(), true)("claude").unwrap_err();
    assert!(e.contains("is not a claude transcript"), "{e}");
    assert!(e.contains("lines could not be read"), "{e}");
}

#[test]
fn a_transcript_under_our_slug_but_from_another_folder_is_refused() {
    // `/home/dev-project` has the same slug as `/home/dev/project`.
    let tmp = edited("claude", |t| {
        t.replace("/home/dev/project", "/home/dev-project")
    });
    let e = lookup_in(tmp.path().into(), true)("claude").unwrap_err();
    assert!(e.contains("belongs to /home/dev-project"), "{e}");
}

#[test]
fn missing_folders_and_other_projects_say_where_they_looked() {
    let tmp = tempfile::tempdir().unwrap();
    let e = lookup_in(tmp.path().into(), true)("codex").unwrap_err();
    assert!(
        e.contains("no codex transcripts") && e.contains(".codex does not exist"),
        "{e}"
    );
    let e = lookup_in(fixtures("claude"), true)("qwen").unwrap_err();
    assert!(e.contains(".qwen does not exist"), "{e}");
    // The recorded codex session ran in /home/dev/project, not here.
    let home = fixtures("codex").display().to_string();
    let var = |k: &str| (k == "HOME").then(|| home.clone());
    let e = find(
        agent("codex").unwrap(),
        &Lookup {
            var: &var,
            project: vec![PathBuf::from("/elsewhere")],
            turn_open: true,
        },
    )
    .unwrap_err();
    assert!(
        e.contains("no codex transcript for this project (/elsewhere)"),
        "{e}"
    );
}

#[test]
fn links_inside_the_agents_folder_are_not_followed() {
    let tmp = tempfile::tempdir().unwrap();
    let outside = tmp.path().join("outside");
    copy_tree(&fixtures("claude"), &outside, &|t| t.to_string());
    let projects = tmp.path().join("home/.claude/projects");
    std::fs::create_dir_all(&projects).unwrap();
    std::os::unix::fs::symlink(
        outside.join(".claude/projects/-home-dev-project"),
        projects.join("-home-dev-project"),
    )
    .unwrap();
    let e = lookup_in(tmp.path().join("home"), true)("claude").unwrap_err();
    assert!(e.contains("no claude transcript for this project"), "{e}");
}

#[test]
fn the_project_is_this_folder_and_those_above_it_in_the_repository() {
    let dirs = project_dirs(Path::new("/r/a/b"), Some(Path::new("/r")));
    assert_eq!(dirs, ["/r/a/b", "/r/a", "/r"].map(PathBuf::from));
    assert_eq!(
        project_dirs(Path::new("/x/y"), None),
        [PathBuf::from("/x/y")]
    );
    assert_eq!(
        locate::slug(Path::new("/tmp/my_proj.v2 x")),
        "-tmp-my-proj-v2-x"
    );
    let head = r#"{"payload":{"text":"say \"cwd\":\"/no\"","cwd":"/home/dev/project","more":"#;
    assert_eq!(
        locate::first_string_field(head, "cwd").as_deref(),
        Some("/home/dev/project")
    );
}

#[test]
fn only_the_tail_of_a_long_transcript_is_read() {
    // Older turns beyond the tail are never read; the newest answer is in it.
    let tmp = edited("claude", |t| {
        let filler =
            "{\"type\":\"progress\",\"data\":\"".to_string() + &"x".repeat(1 << 20) + "\"}\n";
        filler.repeat((TAIL_BYTES >> 20) as usize + 1) + t
    });
    let m = lookup_in(tmp.path().into(), true)("claude").unwrap();
    assert!(m.text.starts_with(DESIGN_START));
}

#[test]
fn the_running_sessions_transcript_wins_over_a_newer_one() {
    let tmp = edited("claude", |t| t.to_string());
    let dir = tmp.path().join(".claude/projects/-home-dev-project");
    let other = dir.join("ffffffff-0000-4000-8000-000000000000.jsonl");
    let line = r#"{"type":"assistant","cwd":"/home/dev/project","message":{"id":"msg_other","content":[{"type":"text","text":"Another session's answer."}]}}"#;
    std::fs::write(&other, format!("{line}\n")).unwrap();
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(60);
    std::fs::File::options()
        .write(true)
        .open(&other)
        .unwrap()
        .set_modified(later)
        .unwrap();
    let home = tmp.path().display().to_string();
    let with = |session: Option<&str>| {
        let var = |k: &str| match k {
            "HOME" => Some(home.clone()),
            "CLAUDE_CODE_SESSION_ID" => session.map(String::from),
            _ => None,
        };
        find(
            agent("claude").unwrap(),
            &Lookup {
                var: &var,
                project: vec![PathBuf::from("/home/dev/project")],
                turn_open: true,
            },
        )
        .unwrap()
    };
    assert_eq!(with(None).text, "Another session's answer.\n");
    let m = with(Some("de76a6a7-2d46-42de-bce3-2a28573b9821"));
    assert!(m.text.starts_with(DESIGN_START), "{}", m.text);
}

#[test]
fn a_long_project_path_is_found_by_its_prefix_and_its_recorded_folder() {
    let deep = format!("/home/dev/{}", "nested-folder/".repeat(20));
    let deep = deep.trim_end_matches('/');
    let name = locate::slug(Path::new(deep));
    assert!(name.len() > 200);
    let tmp = tempfile::tempdir().unwrap();
    let projects = tmp.path().join(".claude/projects");
    let line = |cwd: &str, text: &str| {
        format!(
            "{{\"type\":\"assistant\",\"cwd\":\"{cwd}\",\"message\":{{\"id\":\"m\",\"content\":[{{\"type\":\"text\",\"text\":\"{text}\"}}]}}}}\n"
        )
    };
    // Claude's own hash suffix, and (looked at first) a twin: another long path, same prefix.
    for (suffix, cwd, text) in [
        ("-1x2y3z", deep.to_string(), "Ours."),
        ("-0q8r7s", format!("{deep}-other"), "Theirs."),
    ] {
        let d = projects.join(format!("{}{suffix}", &name[..200]));
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("s.jsonl"), line(&cwd, text)).unwrap();
    }
    let home = tmp.path().display().to_string();
    let var = |k: &str| (k == "HOME").then(|| home.clone());
    let m = find(
        agent("claude").unwrap(),
        &Lookup {
            var: &var,
            project: vec![PathBuf::from(deep)],
            turn_open: true,
        },
    )
    .unwrap();
    assert_eq!(m.text, "Ours.\n");
}

#[test]
fn older_codex_rollouts_had_the_prompt_only_as_an_event() {
    let lines = [
        r#"{"type":"event_msg","payload":{"type":"user_message","message":"Plan it."}}"#,
        r#"{"type":"response_item","payload":{"type":"message","role":"assistant","id":"m1","content":[{"type":"output_text","text":"The plan."}]}}"#,
        r#"{"type":"event_msg","payload":{"type":"user_message","message":"Debate it."}}"#,
        r#"{"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Running the debate."}]}}"#,
        r#"{"type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{}"}}"#,
    ];
    let parsed = Format::Codex.events(&lines.join("\n"));
    assert_eq!(
        last_answer(&parsed.events, false),
        Some(("m1".to_string(), "The plan.\n".to_string()))
    );
}
