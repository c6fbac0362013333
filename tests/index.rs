//! The session index end to end: `sessions` lists from it, it is repaired from the folders when
//! it is wrong or gone (and the listing never changes), and concurrent runs keep it whole.

use crate::common::TestEnv;

fn env_with_change() -> TestEnv {
    let env = TestEnv::with_repo();
    env.write("a.txt", "change\n");
    env
}

#[test]
fn the_index_is_repaired_from_the_folders_and_the_listing_never_changes() {
    let env = env_with_change();
    let all = env.dry_runs(3);
    let text = env.run(&["sessions"]).ok().stdout;
    let json = env.run(&["sessions", "--format", "json"]).ok().stdout;
    assert_eq!(text.lines().count(), 3);
    assert_eq!(env.session_index().len(), 3);
    let index = env.store().join("sessions-index");
    let same = |why: &str| {
        assert_eq!(env.run(&["sessions"]).ok().stdout, text, "{why}");
        assert_eq!(
            env.run(&["sessions", "--format", "json"]).ok().stdout,
            json,
            "{why}"
        );
        assert_eq!(env.session_index().len(), 3, "{why}");
    };
    std::fs::write(&index, "garbage\n").unwrap();
    same("after the index was overwritten");
    let mut torn = std::fs::read_to_string(&index).unwrap();
    torn.insert_str(torn.len() - 20, "\n{\"id\": 3}\n");
    std::fs::write(&index, torn).unwrap();
    same("after a line was damaged");
    std::fs::remove_file(&index).unwrap();
    same("after the index was deleted");
    std::fs::remove_file(&index).unwrap();
    std::os::unix::fs::symlink("/dev/zero", &index).unwrap();
    same("after the index became a link to /dev/zero");
    assert!(!std::fs::symlink_metadata(&index)
        .unwrap()
        .file_type()
        .is_symlink());

    // A folder deleted by hand leaves the listing and the index.
    std::fs::remove_dir_all(env.store().join(&all[1])).unwrap();
    let listed = env.run(&["sessions"]).ok().stdout;
    assert_eq!(listed.lines().count(), 2);
    assert!(!listed.contains(&all[1]));
    assert_eq!(env.session_index().len(), 2);
    // One copied in (or left by an older version) joins them.
    env.plant_old_session("debate-20200101-000000-000-0000001", "2020-01-01T00:00:00Z");
    let listed = env.run(&["sessions"]).ok().stdout;
    assert!(
        listed.ends_with(
            "debate-20200101-000000-000-0000001  2020-01-01T00:00:00Z  code      staged                    completed\n"
        ),
        "{listed}"
    );
    assert_eq!(env.session_index().len(), 3);
}

#[test]
fn concurrent_runs_keep_the_index_whole() {
    let env = env_with_change();
    env.dry_runs(1);
    let children: Vec<_> = (0..8)
        .map(|i| {
            env.cmd_in(&env.repo)
                .args(["--dry-run", &format!("proposal {i}")])
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    // Read as it is, before any listing could repair it.
    let known = env.session_index();
    let all = env.session_ids();
    assert_eq!(all.len(), 9);
    for id in &all {
        assert_eq!(known[id]["status"], "dry-run", "{id}: {known:?}");
    }
    assert_eq!(known.len(), 9);
}
