//! Where the models run: a curious reviewer (the fake agent reading files with its "tools") finds
//! no ignored, untracked or outside file and only redacted copies of tracked ones; the opt-out
//! runs in the work tree; `--reviewer-tools none` and claude's deny rules reach the command line.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::common::{all_files, argv, Run, TestEnv};

const ENV_SECRET: &str = "plain-envsecret-1111";
const UNTRACKED_SECRET: &str = "untracked-notes-2222";
const OUTSIDE_SECRET: &str = "outside-parent-3333";
const KEY: &str = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789";

/// A staged bug, a tracked file with a key, an ignored `.env`, an untracked file, and a file in
/// the repository's parent directory.
fn setup() -> TestEnv {
    let env = TestEnv::with_repo();
    env.write(".gitignore", ".env\n");
    env.write("config.rs", &format!("const KEY: &str = \"{KEY}\";\n"));
    env.write("lib.rs", "fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n");
    env.commit_all("add");
    env.write("lib.rs", "fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n");
    env.git(&["add", "lib.rs"]);
    env.write(".env", &format!("TOKEN={ENV_SECRET}\n"));
    env.write("notes.txt", &format!("{UNTRACKED_SECRET}\n"));
    std::fs::write(env.root.join("outside.txt"), OUTSIDE_SECRET).unwrap();
    std::fs::create_dir_all(env.root.join("tmp")).unwrap();
    env
}

fn curious(env: &TestEnv) {
    let read = json!([".env", "notes.txt", "../outside.txt", "config.rs", "lib.rs"]);
    env.fake(
        "codex",
        json!({"answer": "Looks fine.\n\n```json\n{\"verdict\": \"approve\", \"findings\": []}\n```", "read": read}),
    );
    env.fake("claude", json!({"answer": "ok", "read": read}));
}

fn run(env: &TestEnv, args: &[&str]) -> Run {
    let tmp = env.root.join("tmp");
    let mut all = vec!["--scope", "staged"];
    all.extend(args);
    env.run_full(
        &all,
        "",
        &[
            ("GIT_DEBATE_LAUNCHER", Some("claude")),
            ("TMPDIR", tmp.to_str()),
        ],
    )
}

fn cwd(call: &Value) -> PathBuf {
    PathBuf::from(call["cwd"].as_str().unwrap())
}

#[test]
fn a_curious_reviewer_reads_nothing_we_redacted_and_never_runs_in_the_repository() {
    let env = setup();
    curious(&env);
    let run = run(&env, &[]).ok();
    let calls = env.fake_calls("codex");
    assert!(!calls.is_empty());
    let session = env.store();
    let stored: Vec<(PathBuf, Vec<u8>)> = all_files(&session);
    let critique = stored
        .iter()
        .find(|(p, _)| p.ends_with("round-1-critique.md"))
        .map(|(_, b)| String::from_utf8_lossy(b).into_owned())
        .expect("critique stored");
    // It did read: the staged version, and the tracked file as the artifact shows it, redacted.
    assert!(critique.contains("READ lib.rs: fn add"), "{critique}");
    assert!(critique.contains("a - b"), "{critique}");
    assert!(critique.contains("READ config.rs: const KEY"), "{critique}");
    for secret in [ENV_SECRET, UNTRACKED_SECRET, OUTSIDE_SECRET, KEY] {
        for (p, bytes) in &stored {
            assert!(
                !String::from_utf8_lossy(bytes).contains(secret),
                "{secret} reached {}",
                p.display()
            );
        }
        assert!(!run.stdout.contains(secret) && !run.stderr.contains(secret));
    }
    // Every model call, reviewer and author, ran in the export: not the repository, not inside
    // it, with PWD saying so, and the export is gone afterwards.
    for call in calls.iter().chain(&env.fake_calls("claude")) {
        let dir = cwd(call);
        assert!(!dir.starts_with(&env.repo), "{}", dir.display());
        assert!(dir.starts_with(env.root.join("tmp")), "{}", dir.display());
        assert_eq!(call["env"]["PWD"].as_str(), dir.to_str());
        assert!(!dir.exists(), "{} left behind", dir.display());
    }
    // Only the export cache stays (redacted files, read-only, outside the repository).
    let left: Vec<_> = std::fs::read_dir(env.root.join("tmp"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with("git-debate-cache-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    let cache = cached(&env);
    assert!(!cache.is_empty());
    for (name, _, text) in cache {
        for secret in [KEY, ENV_SECRET, UNTRACKED_SECRET, OUTSIDE_SECRET] {
            assert!(!text.contains(secret), "{name}: {text}");
        }
    }
}

#[test]
fn the_worktree_opt_out_runs_in_the_repository_as_before() {
    let env = setup();
    curious(&env);
    env.git(&["config", "debate.reviewerWorkspace", "worktree"]);
    run(&env, &[]).ok();
    let call = &env.fake_calls("codex")[0];
    assert_eq!(cwd(call), env.repo);
    // There the reviewer's tools do read the ignored file and the folder above: why export is
    // the default. (Its answer is still redacted on the way in, so the value is not stored.)
    let critique = all_files(&env.store())
        .into_iter()
        .find(|(p, _)| p.ends_with("round-1-critique.md"))
        .unwrap()
        .1;
    let critique = String::from_utf8_lossy(&critique);
    assert!(critique.contains(OUTSIDE_SECRET), "{critique}");
    assert!(
        critique.contains("READ .env: TOKEN=[REDACTED:"),
        "{critique}"
    );
    assert!(!critique.contains(ENV_SECRET), "{critique}");
}

#[test]
fn a_committed_gitdebate_cannot_send_the_reviewer_back_into_the_work_tree() {
    let env = setup();
    curious(&env);
    env.write(".gitdebate", "[debate]\n\treviewerWorkspace = worktree\n");
    let run = run(&env, &[]).ok();
    assert!(
        run.stderr.contains("ignoring debate.reviewerworkspace"),
        "{}",
        run.stderr
    );
    assert!(!cwd(&env.fake_calls("codex")[0]).starts_with(&env.repo));
}

#[test]
fn reviewer_tools_none_switches_the_reviewers_tools_off_and_claude_denies_the_repository() {
    let env = setup();
    curious(&env);
    // A finding, so the author is asked to judge it.
    let finding = json!({"verdict": "revise", "findings": [{"severity": "P1", "title": "add() subtracts", "evidence": "lib.rs:2", "body": "a - b"}]});
    env.fake(
        "codex",
        json!({"answer": format!("```json\n{finding}\n```")}),
    );
    run(&env, &["--reviewer-tools", "none"]);
    let reviewer = argv(&env.fake_calls("codex")[0]);
    assert!(
        reviewer
            .windows(2)
            .any(|w| w == ["-c", "features.shell_tool=false"]),
        "{reviewer:?}"
    );
    assert_eq!(reviewer.last().map(String::as_str), Some("-"));
    // The author keeps its read-only tools, confined by deny rules on the repository and HOME.
    let author = argv(&env.fake_calls("claude")[0]);
    let tools = author.iter().position(|a| a == "--tools").unwrap();
    assert_eq!(author[tools + 1], "Read,Grep,Glob");
    let settings = author.iter().position(|a| a == "--settings").unwrap();
    let deny: Value = serde_json::from_str(&author[settings + 1]).unwrap();
    let rules: Vec<&str> = deny["permissions"]["deny"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    let rule = |p: &Path| format!("Read(/{}/**)", p.display());
    assert!(rules.contains(&rule(&env.repo).as_str()), "{rules:?}");
    assert!(rules.contains(&rule(&env.home).as_str()), "{rules:?}");
}

#[test]
fn a_temp_dir_under_home_does_not_put_the_export_where_claude_may_read() {
    // claude's deny rules guard the home directory; an export inside it would lift that guard.
    let env = setup();
    curious(&env);
    let tmp = env.home.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    env.run_full(
        &["--scope", "staged"],
        "",
        &[
            ("GIT_DEBATE_LAUNCHER", Some("codex")),
            ("TMPDIR", tmp.to_str()),
        ],
    )
    .ok();
    let call = &env.fake_calls("claude")[0];
    let reviewer = cwd(call);
    assert!(!reviewer.starts_with(&env.home), "{}", reviewer.display());
    assert!(
        reviewer.to_string_lossy().starts_with("/tmp/git-debate-"),
        "{}",
        reviewer.display()
    );
    let home = env.home.canonicalize().unwrap();
    let args = argv(call).join(" ");
    assert!(
        args.contains(&format!("Read(/{}/**)", home.display())),
        "{args}"
    );
}

/// The entries of the export cache under the test's TMPDIR, by name, with their inode and text.
fn cached(env: &TestEnv) -> Vec<(String, u64, String)> {
    use std::os::unix::fs::MetadataExt as _;
    let mut out = Vec::new();
    let Ok(roots) = std::fs::read_dir(env.root.join("tmp")) else {
        return out;
    };
    for root in roots.flatten() {
        if !root
            .file_name()
            .to_string_lossy()
            .starts_with("git-debate-cache-")
        {
            continue;
        }
        for build in std::fs::read_dir(root.path()).unwrap().flatten() {
            for e in std::fs::read_dir(build.path()).unwrap().flatten() {
                // The kept exports' folder beside the entries (their links are the entries').
                if e.file_type().unwrap().is_dir() {
                    continue;
                }
                let ino = e.metadata().unwrap().ino();
                let text = String::from_utf8_lossy(&std::fs::read(e.path()).unwrap()).into_owned();
                out.push((e.file_name().to_string_lossy().into_owned(), ino, text));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn a_tool_less_reviewer_runs_in_an_empty_folder_and_a_clean_review_exports_nothing() {
    let env = setup();
    curious(&env);
    run(&env, &["--reviewer-tools", "none"]).ok();
    let calls = env.fake_calls("codex");
    let dir = cwd(&calls[0]);
    assert!(dir.ends_with("tree/review"), "{dir:?}");
    assert!(!dir.starts_with(&env.repo));
    let prompt = calls[0]["prompt"].as_str().unwrap();
    assert!(!prompt.contains(KEY));
    // The reviewer approved, so no call could read files: no export, no cache.
    assert!(env.fake_calls("claude").is_empty() || cached(&env).is_empty());
    assert!(cached(&env).is_empty(), "{:?}", cached(&env));
}

#[test]
fn the_next_review_of_the_same_tree_links_the_cached_export_instead_of_redacting_again() {
    let env = setup();
    curious(&env);
    run(&env, &[]).ok();
    let first = cached(&env);
    // The staged tree's files.
    assert!(first.len() >= 3, "{first:?}");
    run(&env, &[]).ok();
    // The same entries, the same inodes: nothing was written again.
    assert_eq!(cached(&env), first);
    let calls = env.fake_calls("codex");
    let critique = calls.len();
    assert!(critique >= 2);
    // The second run's reviewer still read the redacted copy.
    let session_files = all_files(&env.store());
    let redacted = session_files.iter().any(|(p, b)| {
        p.ends_with("round-1-critique.md")
            && String::from_utf8_lossy(b).contains("READ config.rs: const KEY: &str = \"[REDACTED:")
    });
    assert!(redacted);
}

#[test]
fn pruning_the_sessions_empties_the_export_cache() {
    let env = setup();
    curious(&env);
    run(&env, &[]).ok();
    assert!(!cached(&env).is_empty());
    let tmp = env.root.join("tmp");
    let args = ["sessions", "--prune", "--keep", "5"];
    env.run_full(&args, "", &[("TMPDIR", tmp.to_str())]).ok();
    assert!(cached(&env).is_empty());
    // The kept exports went with the entries they link.
    let left: Vec<_> = std::fs::read_dir(&tmp)
        .unwrap()
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("git-debate-cache-")
        })
        .collect();
    assert!(left.is_empty(), "{left:?}");
}
