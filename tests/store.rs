//! The session store: ids, atomic writes, `sessions` and `show`, and damaged sessions.

use crate::common::{read_json, TestEnv};

fn env_with_change() -> TestEnv {
    let env = TestEnv::with_repo();
    env.write("a.txt", "change\n");
    env
}

#[test]
fn metadata_is_versioned_and_complete() {
    let env = env_with_change();
    let run = env.run(&["--dry-run"]).ok();
    let meta = run.metadata();
    assert_eq!(meta["version"], 1);
    assert_eq!(
        meta["id"],
        run.session_dir().file_name().unwrap().to_str().unwrap()
    );
    for key in [
        "created_at",
        "updated_at",
        "target",
        "scope",
        "settings",
        "redactions",
        "truncation",
        "workspace",
    ] {
        assert!(!meta[key].is_null(), "{key} missing: {meta}");
    }
    assert_eq!(meta["scope"]["resolved"]["head"], serde_json::Value::Null);
    assert_eq!(
        meta["scope"]["resolved"]["base"],
        env.git(&["rev-parse", "HEAD"])
    );
    // Only these files (the round-1 prompt shows what would be sent), no temp files left
    // behind, and nothing staged by us.
    let mut names: Vec<_> = std::fs::read_dir(run.session_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        ["artifact.md", "lock", "metadata.json", "round-1-input.md"]
    );
    assert_eq!(env.git(&["status", "--porcelain"]), "?? a.txt");
}

#[test]
fn concurrent_runs_never_share_a_session() {
    let env = env_with_change();
    let children: Vec<_> = (0..8)
        .map(|_| {
            env.cmd_in(&env.repo)
                .arg("--dry-run")
                .stdout(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for c in children {
        assert!(c.wait_with_output().unwrap().status.success());
    }
    let list = env.run(&["sessions", "--format", "json"]).ok();
    let rows: Vec<serde_json::Value> = serde_json::from_str(&list.stdout).unwrap();
    assert_eq!(rows.len(), 8);
    let mut ids: Vec<_> = rows
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect();
    ids.dedup();
    assert_eq!(ids.len(), 8);
    for r in &rows {
        assert_eq!(r["status"], "dry-run");
    }
}

#[test]
fn sessions_lists_newest_first_and_show_prints_one() {
    let env = env_with_change();
    let first = env.run(&["--dry-run"]).ok();
    std::thread::sleep(std::time::Duration::from_millis(5));
    let second = env
        .run(&["--dry-run", "--target", "proposal", "a proposal text"])
        .ok();
    let id1 = first.metadata()["id"].as_str().unwrap().to_string();
    let id2 = second.metadata()["id"].as_str().unwrap().to_string();
    let list = env.run(&["sessions"]).ok();
    let lines: Vec<_> = list.stdout.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(
        lines[0].starts_with(&id2)
            && lines[0].contains("proposal")
            && lines[0].contains("content (argument)"),
        "{}",
        list.stdout
    );
    assert!(
        lines[1].starts_with(&id1)
            && lines[1].contains("uncommitted")
            && lines[1].contains("dry-run"),
        "{}",
        list.stdout
    );

    let show = env.run(&["show"]).ok();
    assert!(
        show.stdout.contains(&id2) && show.stdout.contains("a proposal text"),
        "{}",
        show.stdout
    );
    let show = env.run(&["show", &id1]).ok();
    assert!(show.stdout.contains("+change"), "{}", show.stdout);
    // A unique prefix without `debate-` works too.
    let prefix = &id1["debate-".len()..id1.len() - 1];
    if !id2.starts_with(&format!("debate-{prefix}")) {
        env.run(&["show", prefix]).ok();
    }
    let json = env.run(&["show", "last", "--format", "json"]).ok();
    let v: serde_json::Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(v["id"], id2.as_str());
    assert_eq!(v["artifact"], "a proposal text");
    assert_eq!(v["metadata"]["target"], "proposal");
    let run = env.run(&["show", "debate-nope"]).fails(2);
    assert!(
        run.stderr.contains("no session 'debate-nope'"),
        "{}",
        run.stderr
    );
}

#[test]
fn damaged_sessions_are_reported_not_panicked_on() {
    let env = env_with_change();
    let good = env.run(&["--dry-run"]).ok();
    let store = env.store();
    std::fs::create_dir_all(store.join("debate-29990101-000000-000-1")).unwrap();
    std::fs::create_dir_all(store.join("debate-29990101-000000-000-2")).unwrap();
    std::fs::write(
        store.join("debate-29990101-000000-000-2/metadata.json"),
        "{\"version\": 1, \"sta",
    )
    .unwrap();
    let list = env.run(&["sessions"]).ok();
    assert!(
        list.stdout
            .contains("debate-29990101-000000-000-1  incomplete"),
        "{}",
        list.stdout
    );
    assert!(
        list.stdout
            .contains("debate-29990101-000000-000-2  corrupt metadata.json"),
        "{}",
        list.stdout
    );
    assert!(list
        .stdout
        .contains(good.metadata()["id"].as_str().unwrap()));
    let json = env.run(&["sessions", "--format", "json"]).ok();
    assert!(json.stdout.contains("\"corrupt\""));
    let show = env.run(&["show", "debate-29990101-000000-000-2"]).fails(4);
    assert!(
        show.stderr.contains("is damaged") && !show.stderr.contains("panicked"),
        "{}",
        show.stderr
    );
    let show = env.run(&["show", "last"]).fails(4);
    assert!(
        show.stdout.contains("corrupt metadata.json"),
        "{}",
        show.stdout
    );
    let show = env.run(&["show", "debate-29990101-000000-000-1"]).fails(4);
    assert!(show.stdout.contains("incomplete"), "{}", show.stdout);
    let show = env.run(&["show", "debate-2999"]).fails(2);
    assert!(show.stderr.contains("ambiguous"), "{}", show.stderr);
}

#[test]
fn state_dir_flag_overrides_the_store() {
    let env = env_with_change();
    let dir = env.root.join("elsewhere");
    let run = env
        .run(&["--dry-run", "--state-dir", dir.to_str().unwrap()])
        .ok();
    assert!(run.session_dir().starts_with(&dir));
    assert_eq!(env.session_count(), 0);
    let list = env
        .run(&["sessions", "--state-dir", dir.to_str().unwrap()])
        .ok();
    assert_eq!(list.stdout.lines().count(), 1);
    let meta = read_json(&run.session_dir().join("metadata.json"));
    assert_eq!(meta["status"], "dry-run");
}

#[test]
fn empty_store_is_not_an_error_for_sessions_but_is_for_show() {
    let env = TestEnv::with_repo();
    let list = env.run(&["sessions"]).ok();
    assert!(list.stdout.is_empty());
    assert!(list.stderr.contains("no sessions"), "{}", list.stderr);
    let show = env.run(&["show"]).fails(2);
    assert!(show.stderr.contains("no sessions"), "{}", show.stderr);
}

#[test]
fn a_dry_run_speaks_json_when_asked() {
    let env = TestEnv::with_repo();
    env.write("a.txt", "changed\n");
    let run = env.run(&["--dry-run", "--format", "json"]).ok();
    let v: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON on stdout");
    assert_eq!(v["dry_run"], true);
    assert_eq!(v["evaluated"], false);
    assert!(v["session"].as_str().unwrap().starts_with("debate-"));
    assert!(std::path::Path::new(v["artifact"].as_str().unwrap()).is_file());
    let stored =
        read_json(&std::path::Path::new(v["session_dir"].as_str().unwrap()).join("metadata.json"));
    assert_eq!(v["metadata"], stored);
}
