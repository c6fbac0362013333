//! `commit:<rev>` finds what `git rev-parse <rev>^{commit}` finds, including a short id that other
//! objects share, in a packed repository (where libgit2 alone fails with a pack error).

use crate::common::TestEnv;

/// The id git gives `kind` holding `body` (git's object id: SHA-1 of a header and the body).
fn object_id(kind: &str, body: &[u8]) -> String {
    let mut h = sha1_smol::Sha1::new();
    h.update(format!("{kind} {}\0", body.len()).as_bytes());
    h.update(body);
    h.digest().to_string()
}

/// The first body made by `make(n)` whose object id starts with `prefix`, written to the
/// repository with `git hash-object`; returns its id.
fn write_with_prefix(
    env: &TestEnv,
    kind: &str,
    prefix: &str,
    make: impl Fn(u32) -> String,
) -> String {
    let n = (0..)
        .find(|n| object_id(kind, make(*n).as_bytes()).starts_with(prefix))
        .unwrap();
    env.write("../object.txt", &make(n));
    let path = env.root.join("object.txt");
    let id = env.git(&["hash-object", "-t", kind, "-w", path.to_str().unwrap()]);
    assert!(id.starts_with(prefix), "{id}");
    id
}

fn resolved(env: &TestEnv, rev: &str) -> String {
    let run = env
        .run(&["--dry-run", "--scope", &format!("commit:{rev}")])
        .ok();
    run.metadata()["scope"]["resolved"]["head"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn a_short_id_resolves_as_git_rev_parse_resolves_it() {
    let env = TestEnv::with_repo();
    env.write("a.txt", "second\n");
    let commit = env.commit_all("second");
    let prefix = &commit[..4];
    // A blob that starts with the same four digits: git takes the commit when a commit is wanted.
    let blob = write_with_prefix(&env, "blob", prefix, |n| format!("blob number {n}\n"));
    env.git(&["gc", "-q"]);
    assert_eq!(
        env.git(&["rev-parse", &format!("{prefix}^{{commit}}")]),
        commit
    );
    assert_eq!(resolved(&env, prefix), commit);
    assert_eq!(
        resolved(&env, &format!("{prefix}^")),
        env.git(&["rev-parse", "HEAD~1"])
    );

    // A prefix only the blob has: said so, by type.
    let only_blob = &blob[..12];
    let run = env
        .run(&["--dry-run", "--scope", &format!("commit:{only_blob}")])
        .fails(2);
    assert!(
        run.stderr
            .contains(&format!("'{only_blob}' names a blob, not a commit")),
        "{}",
        run.stderr
    );

    // A second commit with the same four digits: ambiguous, as git says, with both listed.
    let tree = env.git(&["rev-parse", "HEAD^{tree}"]);
    let other = write_with_prefix(&env, "commit", prefix, |n| {
        format!(
            "tree {tree}\nauthor A <a@example.com> 1700000000 +0000\n\
             committer A <a@example.com> 1700000000 +0000\n\nanother commit {n}\n"
        )
    });
    env.git(&["gc", "-q"]);
    // git too refuses to pick one.
    let git = env.git_run(&[
        "rev-parse",
        "--verify",
        "-q",
        &format!("{prefix}^{{commit}}"),
    ]);
    assert_ne!(git.code, 0);
    let run = env
        .run(&["--dry-run", "--scope", &format!("commit:{prefix}")])
        .fails(2);
    for want in [
        format!("'{prefix}' is ambiguous: 2 commits"),
        commit[..10].to_string(),
        other[..10].to_string(),
        "2023-11-14 another commit".to_string(),
    ] {
        assert!(run.stderr.contains(&want), "{want}: {}", run.stderr);
    }
    // One more digit tells them apart, as for git.
    let longer = (5..40)
        .map(|n| &commit[..n])
        .find(|p| !other.starts_with(p))
        .unwrap();
    assert_eq!(resolved(&env, longer), commit);
}

#[test]
fn an_unknown_or_too_short_id_is_one_clear_line() {
    let env = TestEnv::with_repo();
    env.git(&["gc", "-q"]);
    let head = env.git(&["rev-parse", "HEAD"]);
    // A prefix no object has: flip the first digit of HEAD's id.
    let flipped = format!(
        "{}{}",
        if head.starts_with('f') { "0" } else { "f" },
        &head[1..7]
    );
    let run = env
        .run(&["--dry-run", "--scope", &format!("commit:{flipped}")])
        .fails(2);
    assert!(
        run.stderr
            .contains(&format!("unknown revision '{flipped}'"))
            && run.stderr.contains("git log --oneline --all")
            && run.stderr.trim().lines().count() == 1,
        "{}",
        run.stderr
    );
    let run = env.run(&["--dry-run", "--scope", "commit:ab"]).fails(2);
    assert!(run.stderr.contains("too short"), "{}", run.stderr);
}
