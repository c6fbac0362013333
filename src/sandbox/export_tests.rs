#![allow(clippy::print_stdout)] // a measurement is printed
use super::*;
use crate::git::Repo;
use std::os::unix::fs::MetadataExt as _;
use std::process::Command;

const KEY: &str = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789";

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "git {args:?}");
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// A repository with a tracked file holding a key, an ignored `.env`, an untracked file, a
/// binary file, an executable, and symlinks inside and out of the tree.
fn repo(d: &Path) -> Repository {
    git(d, &["init", "-q"]);
    std::fs::write(d.join(".gitignore"), ".env\n").unwrap();
    std::fs::write(d.join(".env"), "IGNORED=ignored-secret\n").unwrap();
    std::fs::create_dir(d.join("src")).unwrap();
    std::fs::write(
        d.join("src/lib.rs"),
        format!("const K: &str = \"{KEY}\";\n"),
    )
    .unwrap();
    std::fs::write(d.join("blob.bin"), b"\0\x01binary").unwrap();
    std::fs::write(d.join("run.sh"), "echo hi\n").unwrap();
    std::fs::set_permissions(d.join("run.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::os::unix::fs::symlink("src/lib.rs", d.join("inside")).unwrap();
    std::os::unix::fs::symlink("../outside.txt", d.join("escape")).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", d.join("absolute")).unwrap();
    git(d, &["add", "."]);
    git(d, &["commit", "-qm", "init"]);
    std::fs::write(d.join("untracked.txt"), "untracked-content\n").unwrap();
    Repository::open(d).unwrap()
}

fn listing(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let rel = e.path().strip_prefix(root).unwrap().display().to_string();
            if e.file_type().unwrap().is_dir() {
                stack.push(e.path());
            }
            out.push(rel);
        }
    }
    out.sort();
    out
}

#[test]
fn a_commit_exports_tracked_files_redacted_without_ignored_untracked_or_git() {
    let tmp = tempfile::tempdir().unwrap();
    let r = repo(tmp.path());
    let tree = r.head().unwrap().peel_to_tree().unwrap().id().to_string();
    let ex = create(
        Some(&Repo::from_libgit2(Repository::open(r.path()).unwrap())),
        &Source::Tree(tree),
    )
    .unwrap();
    // No binary file (the redactor reads text), no link of any kind.
    assert_eq!(
        listing(&ex.tree),
        [".gitignore", "run.sh", "src", "src/lib.rs"]
    );
    let lib = std::fs::read_to_string(ex.tree.join("src/lib.rs")).unwrap();
    assert!(!lib.contains(KEY) && lib.contains("[REDACTED:"), "{lib}");
    let mode = std::fs::metadata(ex.tree.join("run.sh"))
        .unwrap()
        .permissions()
        .mode();
    assert!(mode & 0o100 != 0, "{mode:o}");
    assert!(!ex.tree.starts_with(tmp.path()));
    assert_eq!(ex.tree.file_name(), tmp.path().file_name());
}

#[test]
fn the_work_tree_export_takes_edits_and_the_listed_untracked_files_only() {
    let tmp = tempfile::tempdir().unwrap();
    let r = repo(tmp.path());
    std::fs::write(tmp.path().join("run.sh"), "echo edited\n").unwrap();
    std::fs::write(tmp.path().join("other.txt"), "not listed\n").unwrap();
    let ex = create(
        Some(&Repo::from_libgit2(Repository::open(r.path()).unwrap())),
        &Source::WorkTree {
            untracked: vec!["untracked.txt".into()],
        },
    )
    .unwrap();
    let files = listing(&ex.tree);
    assert!(files.contains(&"untracked.txt".to_string()), "{files:?}");
    for absent in [
        ".env",
        "other.txt",
        ".git",
        "escape",
        "absolute",
        "inside",
        "blob.bin",
    ] {
        assert!(!files.contains(&absent.to_string()), "{absent}: {files:?}");
    }
    assert_eq!(
        std::fs::read_to_string(ex.tree.join("run.sh")).unwrap(),
        "echo edited\n"
    );
    assert!(!std::fs::read_to_string(ex.tree.join("src/lib.rs"))
        .unwrap()
        .contains(KEY));
}

#[test]
fn names_that_are_not_utf8_are_copied_as_they_are() {
    use std::os::unix::ffi::OsStrExt as _;
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let r = repo(d);
    let name = |b: &[u8]| PathBuf::from(std::ffi::OsStr::from_bytes(b));
    std::fs::create_dir(d.join(name(b"dir\xe9"))).unwrap();
    std::fs::write(d.join(name(b"dir\xe9/f\xe8.txt")), "in a Latin-1 folder\n").unwrap();
    git(d, &["add", "."]);
    git(d, &["commit", "-qm", "latin-1"]);
    // Untracked, named as the change names it.
    std::fs::write(d.join(name(b"new\xff.txt")), "untracked\n").unwrap();
    let head = git(d, &["rev-parse", "HEAD"]);
    let ex = create(
        Some(&Repo::from_libgit2(Repository::open(r.path()).unwrap())),
        &Source::Tree(head),
    )
    .unwrap();
    let copied = ex.tree.join(name(b"dir\xe9/f\xe8.txt"));
    assert_eq!(
        std::fs::read_to_string(copied).unwrap(),
        "in a Latin-1 folder\n"
    );
    let untracked = crate::git::name_of(b"new\xff.txt");
    let ex = create(
        Some(&Repo::from_libgit2(Repository::open(r.path()).unwrap())),
        &Source::WorkTree {
            untracked: vec![untracked],
        },
    )
    .unwrap();
    assert!(ex.tree.join(name(b"dir\xe9/f\xe8.txt")).is_file());
    assert!(ex.tree.join(name(b"new\xff.txt")).is_file());
}

#[test]
fn the_index_export_ignores_unstaged_edits() {
    let tmp = tempfile::tempdir().unwrap();
    let r = repo(tmp.path());
    std::fs::write(tmp.path().join("run.sh"), "echo staged\n").unwrap();
    git(tmp.path(), &["add", "run.sh"]);
    std::fs::write(tmp.path().join("run.sh"), "echo unstaged\n").unwrap();
    let tree = git(tmp.path(), &["write-tree"]);
    let ex = create(
        Some(&Repo::from_libgit2(Repository::open(r.path()).unwrap())),
        &Source::Tree(tree),
    )
    .unwrap();
    assert_eq!(
        std::fs::read_to_string(ex.tree.join("run.sh")).unwrap(),
        "echo staged\n"
    );
}

#[test]
fn a_directory_symlink_in_the_work_tree_is_not_followed() {
    let tmp = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("lib.rs"), "outside secret\n").unwrap();
    let r = repo(tmp.path());
    // `src/` was tracked as a directory; now it points elsewhere.
    std::fs::remove_dir_all(tmp.path().join("src")).unwrap();
    std::os::unix::fs::symlink(outside.path(), tmp.path().join("src")).unwrap();
    let ex = create(
        Some(&Repo::from_libgit2(Repository::open(r.path()).unwrap())),
        &Source::WorkTree { untracked: vec![] },
    )
    .unwrap();
    assert!(!ex.tree.join("src/lib.rs").exists());
}

#[test]
fn it_is_removed_when_dropped_and_empty_for_text() {
    let ex = create(None, &Source::Empty).unwrap();
    let (scratch, tree) = (ex.scratch.clone(), ex.tree.clone());
    assert!(tree.is_dir() && listing(&tree).is_empty());
    let mode = std::fs::metadata(&scratch).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o700);
    drop(ex);
    assert!(!scratch.exists());
}

/// A crafted tree (written with `git mktree`, as a hostile remote could send it): a chain of
/// relative links that would climb to `/` and then into the repository's `.git` through
/// `/proc/self/cwd`, a file hidden behind a NUL byte, a file too big to copy, and a path repeated.
#[test]
fn a_crafted_tree_cannot_lead_out_of_the_export_or_smuggle_a_secret() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    git(d, &["init", "-q"]);
    let blob = |content: &[u8]| {
        let path = d.join("blob.tmp");
        std::fs::write(&path, content).unwrap();
        git(d, &["hash-object", "-w", path.to_str().unwrap()])
    };
    let up = blob(b"../..");
    let esc = blob(format!("d/e/up/d/e/up{}", "/..".repeat(9)).as_bytes());
    let hook = blob(b"esc/proc/self/cwd/.git");
    let nul = blob(format!("#\0\nTOKEN=\"{KEY}\"\n").as_bytes());
    let big = blob(&vec![b'a'; (MAX_FILE + 1) as usize]);
    let ok = blob(b"fine\n");
    let mktree = |entries: &str| {
        let mut child = std::process::Command::new("git")
            .args(["mktree", "--missing"])
            .current_dir(d)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write as _;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(entries.as_bytes())
            .unwrap();
        let out = child.wait_with_output().unwrap();
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    };
    let e = mktree(&format!("120000 blob {up}\tup\n"));
    let dd = mktree(&format!("040000 tree {e}\te\n"));
    let root = mktree(&format!(
        "040000 tree {dd}\td\n120000 blob {esc}\tesc\n120000 blob {hook}\tg\n\
         100644 blob {nul}\tsettings.py\n100644 blob {big}\tbig.txt\n100644 blob {ok}\tok.txt\n"
    ));
    let r = Repository::open(d).unwrap();
    let ex = create(
        Some(&Repo::from_libgit2(Repository::open(r.path()).unwrap())),
        &Source::Tree(root),
    )
    .unwrap();
    assert_eq!(listing(&ex.tree), ["ok.txt"]);
    assert!(!d.join(".git/hooks/pre-commit").exists());
}

/// `cargo test --release --lib export_speed -- --ignored --nocapture`: a 10,000-file repository
/// exported from a commit and from the work tree (numbers in the README).
#[test]
#[ignore]
fn export_speed() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    git(d, &["init", "-q"]);
    for i in 0..10_000 {
        let dir = d.join(format!("m{}", i % 100));
        std::fs::create_dir_all(&dir).unwrap();
        let body = format!("pub fn f{i}() -> u32 {{\n    {i}\n}}\n").repeat(40);
        std::fs::write(dir.join(format!("f{i}.rs")), body).unwrap();
    }
    git(d, &["add", "."]);
    git(d, &["commit", "-qm", "big"]);
    let r = Repository::open(d).unwrap();
    let head = r.head().unwrap().target().unwrap().to_string();
    for (what, source) in [
        ("commit", Source::Tree(head)),
        ("work tree", Source::WorkTree { untracked: vec![] }),
    ] {
        let t = std::time::Instant::now();
        let ex = create(
            Some(&Repo::from_libgit2(Repository::open(r.path()).unwrap())),
            &source,
        )
        .unwrap();
        println!("{what}: {} files in {:?}", ex.files, t.elapsed());
    }
}

fn settings(tools: Tools) -> crate::settings::Settings {
    let mut s = crate::settings::Settings::resolve(
        crate::settings::Layers::default(),
        &crate::settings::Overrides::default(),
    )
    .unwrap();
    s.reviewer_tools = tools;
    s
}

/// Content no earlier run of this test binary stored, so the cache starts cold for it.
fn fresh(label: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("// {label} {nanos} {}\n", std::process::id())
}

/// A repository of `n` files whose content this run alone has, committed; its tree id.
fn many(d: &Path, n: usize) -> (Repo, String) {
    git(d, &["init", "-q"]);
    let salt = fresh("many");
    for i in 0..n {
        std::fs::write(
            d.join(format!("f{i}.rs")),
            format!("{salt}fn f{i}() {{}}\n"),
        )
        .unwrap();
    }
    std::fs::write(
        d.join("key.rs"),
        format!("{salt}const K: &str = \"{KEY}\";\n"),
    )
    .unwrap();
    git(d, &["add", "."]);
    git(d, &["commit", "-qm", "init"]);
    let r = Repository::open(d).unwrap();
    let tree = r.head().unwrap().peel_to_tree().unwrap().id().to_string();
    (Repo::from_libgit2(r), tree)
}

#[test]
fn a_reviewer_without_tools_never_makes_the_export() {
    let tmp = tempfile::tempdir().unwrap();
    let (r, tree) = many(tmp.path(), 3);
    let p = prepare(Some(&r), &Source::Tree(tree), &settings(Tools::None)).unwrap();
    let lazy = p.lazy.as_ref().unwrap();
    // A tool-less reviewer's calls (every one of a clean review) run in an empty folder.
    for _ in 0..3 {
        let sb = lazy.sandbox(false, true);
        assert!(sb.no_tools);
        let dir = sb.dir.unwrap();
        assert!(dir.is_dir() && listing(&dir).is_empty(), "{dir:?}");
        assert!(!dir.starts_with(tmp.path()));
    }
    assert!(!lazy.exported());
}

#[test]
fn every_call_that_reads_files_shares_one_export() {
    let tmp = tempfile::tempdir().unwrap();
    let (r, tree) = many(tmp.path(), 3);
    let p = prepare(Some(&r), &Source::Tree(tree), &settings(Tools::Default)).unwrap();
    let lazy = p.lazy.as_ref().unwrap();
    assert!(
        !lazy.exported(),
        "nothing is exported before a call needs it"
    );
    let dirs: Vec<PathBuf> = std::thread::scope(|s| {
        let calls: Vec<_> = (0..4)
            .map(|_| s.spawn(|| lazy.sandbox(true, false).dir.unwrap()))
            .collect();
        calls.into_iter().map(|c| c.join().unwrap()).collect()
    });
    assert!(dirs.iter().all(|d| d == &dirs[0]));
    assert!(lazy.exported());
    assert_eq!(lazy.export().unwrap().files, 4);
    let key = std::fs::read_to_string(dirs[0].join("key.rs")).unwrap();
    assert!(!key.contains(KEY) && key.contains("[REDACTED:"), "{key}");
}

#[test]
fn a_second_export_of_a_tree_reads_nothing_and_links_the_first_ones_files() {
    let tmp = tempfile::tempdir().unwrap();
    let (r, tree) = many(tmp.path(), 20);
    let first = create(Some(&r), &Source::Tree(tree.clone())).unwrap();
    let second = create(Some(&r), &Source::Tree(tree)).unwrap();
    assert_eq!((first.files, second.files), (21, 21));
    assert_eq!(first.redacted, 21, "a cold cache redacts every file");
    assert_eq!(second.redacted, 0, "a warm one none");
    let ino = |e: &Export, f: &str| std::fs::metadata(e.tree.join(f)).unwrap().ino();
    assert_eq!(
        ino(&first, "f3.rs"),
        ino(&second, "f3.rs"),
        "hard-linked, not copied"
    );
    // Still redacted, and read-only: a reviewer cannot edit the shared file.
    let key = std::fs::read_to_string(second.tree.join("key.rs")).unwrap();
    assert!(!key.contains(KEY) && key.contains("[REDACTED:"), "{key}");
    let mode = std::fs::metadata(second.tree.join("f3.rs")).unwrap().mode();
    assert_eq!(mode & 0o777, 0o400, "{mode:o}");
    // The store is beside the exports, outside the repository.
    assert!(!first.scratch.starts_with(tmp.path()));
}

#[test]
fn only_what_changed_since_a_cached_export_is_redacted_again() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let (r, tree) = many(d, 20);
    drop(create(Some(&r), &Source::Tree(tree)).unwrap());
    std::fs::write(d.join("f7.rs"), fresh("edited")).unwrap();
    git(d, &["commit", "-qam", "edit"]);
    let head = r.libgit2().unwrap().head().unwrap();
    let tree = head.peel_to_tree().unwrap().id().to_string();
    let next = create(Some(&r), &Source::Tree(tree)).unwrap();
    assert_eq!((next.files, next.redacted), (21, 1));
    assert!(std::fs::read_to_string(next.tree.join("f7.rs"))
        .unwrap()
        .contains("edited"));
    // The work tree's export keys its files by their content the same way.
    let wt = create(Some(&r), &Source::WorkTree { untracked: vec![] }).unwrap();
    assert_eq!((wt.files, wt.redacted), (21, 0));
    std::fs::write(d.join("f8.rs"), fresh("dirty")).unwrap();
    let wt = create(Some(&r), &Source::WorkTree { untracked: vec![] }).unwrap();
    assert_eq!((wt.files, wt.redacted), (21, 1));
}

#[test]
fn a_binary_file_stays_out_of_a_cached_export_too() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    git(d, &["init", "-q"]);
    let mut bin = fresh("bin").into_bytes();
    bin.extend_from_slice(b"\0secret");
    std::fs::write(d.join("blob.bin"), &bin).unwrap();
    git(d, &["add", "."]);
    git(d, &["commit", "-qm", "init"]);
    let r = Repository::open(d).unwrap();
    let tree = r.head().unwrap().peel_to_tree().unwrap().id().to_string();
    let r = Repo::from_libgit2(r);
    for _ in 0..2 {
        let ex = create(Some(&r), &Source::Tree(tree.clone())).unwrap();
        assert_eq!(ex.files, 0);
        assert!(listing(&ex.tree).is_empty());
    }
}

/// Every file of an export: its path, mode and content.
fn contents(root: &Path) -> Vec<(String, u32, Vec<u8>)> {
    listing(root)
        .into_iter()
        .map(|rel| {
            let p = root.join(&rel);
            let m = std::fs::symlink_metadata(&p).unwrap();
            let bytes = if m.is_file() {
                std::fs::read(&p).unwrap()
            } else {
                Vec::new()
            };
            (rel, m.mode(), bytes)
        })
        .collect()
}

fn head_tree(r: &Repo) -> String {
    let head = r.libgit2().unwrap().head().unwrap();
    head.peel_to_tree().unwrap().id().to_string()
}

#[test]
fn the_next_export_of_a_repository_updates_the_last_one_as_a_fresh_export_would_be() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let (r, tree) = many(d, 6);
    for dir in ["a/b", "c"] {
        std::fs::create_dir_all(d.join(dir)).unwrap();
    }
    std::fs::write(d.join("a/b/only.rs"), fresh("only")).unwrap();
    std::fs::write(d.join("c/x.rs"), fresh("x")).unwrap();
    std::fs::write(d.join("tool.sh"), fresh("tool")).unwrap();
    git(d, &["add", "."]);
    git(d, &["commit", "-qm", "dirs"]);
    drop(create(Some(&r), &Source::Tree(tree)).unwrap());
    let first = create(Some(&r), &Source::Tree(head_tree(&r))).unwrap();
    assert!(
        first.updated,
        "the kept export of the first tree is brought up to date"
    );
    drop(first);
    // A deleted file whose folder empties, an added one, an edit, an executable bit, a folder
    // replaced by a file, a binary file and a link.
    git(d, &["rm", "-q", "a/b/only.rs", "f2.rs"]);
    std::fs::remove_dir_all(d.join("c")).unwrap();
    git(d, &["add", "-A"]);
    std::fs::write(d.join("c"), fresh("c is a file")).unwrap();
    std::fs::write(d.join("f1.rs"), fresh("edited")).unwrap();
    // (Content no earlier run wrote: redaction is cached per blob across runs.)
    std::fs::write(
        d.join("new.rs"),
        format!("const K: &str = \"{KEY}\";\n{}", fresh("new")),
    )
    .unwrap();
    std::fs::write(d.join("blob.bin"), b"\0bin").unwrap();
    std::fs::set_permissions(d.join("tool.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::os::unix::fs::symlink("f1.rs", d.join("link")).unwrap();
    git(d, &["add", "-A"]);
    git(d, &["commit", "-qm", "change"]);
    let tree = head_tree(&r);
    let updated = create(Some(&r), &Source::Tree(tree.clone())).unwrap();
    assert!(updated.updated);
    // The edit, the two new text files and the file whose bit changed (the bit is in the key).
    assert_eq!(updated.redacted, 4, "only what changed is read");
    // A second export while the first is alive is made afresh: the two must show the same.
    let fresh_one = create(Some(&r), &Source::Tree(tree)).unwrap();
    assert!(!fresh_one.updated);
    assert_eq!(contents(&updated.tree), contents(&fresh_one.tree));
    assert_eq!(updated.files, fresh_one.files);
    assert!(!updated.tree.join("a").exists(), "an emptied folder goes");
    let new = std::fs::read_to_string(updated.tree.join("new.rs")).unwrap();
    assert!(!new.contains(KEY) && new.contains("[REDACTED:"), "{new}");
}

#[test]
fn an_export_a_reviewer_added_to_is_not_kept() {
    let tmp = tempfile::tempdir().unwrap();
    let (r, tree) = many(tmp.path(), 3);
    let ex = create(Some(&r), &Source::Tree(tree.clone())).unwrap();
    // A reviewer starts well after the export is finished, and plants a file for the next one.
    std::thread::sleep(std::time::Duration::from_millis(30));
    std::fs::write(ex.tree.join("APPROVED.md"), "the last reviewer approved\n").unwrap();
    drop(ex);
    let next = create(Some(&r), &Source::Tree(tree)).unwrap();
    assert!(!next.updated);
    assert!(!next.tree.join("APPROVED.md").exists());
}

#[test]
fn a_kept_export_of_a_tree_the_repository_lost_is_made_afresh() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let (r, _) = many(d, 3);
    // A tree never written to the object database stands in for one pruned since.
    let gone = crate::sandbox::kept::Stamp {
        tree: "0123456789012345678901234567890123456789".into(),
        files: 1,
        bytes: 1,
    };
    let ex = create(Some(&r), &Source::Tree(head_tree(&r))).unwrap();
    let store = Store::open(ex.scratch.parent().unwrap()).unwrap();
    let slot = crate::sandbox::kept::slot(store.dir(), r.commondir());
    drop(ex);
    std::fs::write(
        slot.join("stamp"),
        format!("tree {}\nfiles 1\nbytes 1\n", gone.tree),
    )
    .unwrap();
    let next = create(Some(&r), &Source::Tree(head_tree(&r))).unwrap();
    assert!(!next.updated);
    assert_eq!(next.files, 4);
}
