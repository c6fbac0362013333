use super::*;
use crate::findings::{Finding, Location, Severity};

/// Our own artifact layout: a title, a file list, the fenced diff, the list of what was not sent.
const ARTIFACT: &str = "# Change under review: commit:abc\n\nfix parsing\n\n## Files (3 changed, +4 -2)\n\n\
- M src/parse.rs (+2 -1)\n- A docs/new file.md (+1 -0)\n- R old.rs -> new.rs (+1 -1)\n\n## Diff\n\n```diff\n\
diff --git a/src/parse.rs b/src/parse.rs\nindex 1..2 100644\n--- a/src/parse.rs\n+++ b/src/parse.rs\n\
@@ -1,3 +1,3 @@\n fn a() {}\n-fn b() {}\n+fn b() { 1 }\n fn c() {}\n@@ -40,2 +40,3 @@\n x\n+y\n z\n\
diff --git a/docs/new file.md b/docs/new file.md\nnew file mode 100644\n--- /dev/null\n+++ b/docs/new file.md\t\n@@ -0,0 +1 @@\n+hello\n\
diff --git a/old.rs b/new.rs\nsimilarity index 90%\nrename from old.rs\nrename to new.rs\n--- a/old.rs\n+++ b/new.rs\n@@ -5 +5 @@\n-a\n+b\n\
```\n\n## Not included in full\n\n- img.png: binary; content not sent\n";

fn finding(path: &str, line: Option<u32>) -> Finding {
    let mut f = Finding::new(Severity::P2, "t");
    f.location = Some(Location::new(path, line, None));
    f
}

#[test]
fn our_artifact_splits_into_files_and_renders_back_byte_for_byte() {
    let doc = DiffDoc::parse(ARTIFACT).unwrap();
    let paths: Vec<_> = doc.sections.iter().map(|s| s.path.as_str()).collect();
    assert_eq!(paths, ["src/parse.rs", "docs/new file.md", "new.rs"]);
    assert_eq!(doc.sections[2].old_path.as_deref(), Some("old.rs"));
    assert!(doc.head.ends_with("```diff\n"));
    assert!(doc.tail.starts_with("```\n\n## Not included"));
    assert_eq!(doc.render(), ARTIFACT);
    assert_eq!(doc.sections[0].counts(), (2, 1));
    let h = doc.sections[0].hunks();
    assert_eq!((h[1].new_start, h[1].new_len), (40, 3));
    assert_eq!(doc.find("old.rs"), Some(2));
    assert!(DiffDoc::parse("# A design\n\nNo diff here.\n").is_none());
}

#[test]
fn a_revision_replaces_its_files_and_keeps_the_others() {
    let mut doc = DiffDoc::parse(ARTIFACT).unwrap();
    // A model's answer: a fenced diff without `diff --git` lines, plus a new file.
    let revision = "Here:\n```diff\n--- a/src/parse.rs\n+++ b/src/parse.rs\n@@ -1,3 +1,3 @@\n fn a() {}\n-fn b() {}\n+fn b() { 2 }\n fn c() {}\n\
--- /dev/null\n+++ b/src/extra.rs\n@@ -0,0 +1 @@\n+fn extra() {}\n```\nDone.\n";
    let touched = doc.merge(revision).unwrap();
    assert_eq!(touched, ["src/parse.rs", "src/extra.rs"]);
    let text = doc.render();
    assert!(text.contains("+fn b() { 2 }") && !text.contains("+fn b() { 1 }"));
    assert!(text.contains("+hello") && text.contains("rename to new.rs"));
    assert!(text.contains("+fn extra() {}"));
    assert!(text.ends_with("- img.png: binary; content not sent\n"));
    assert!(doc.merge("I could not do it.").is_none());
}

#[test]
fn the_judge_sees_the_file_list_and_only_the_hunks_findings_point_at() {
    let doc = DiffDoc::parse(ARTIFACT).unwrap();
    let out = pointed(&doc, &[finding("src/parse.rs", Some(41))], 1 << 20);
    assert!(out.contains("- docs/new file.md (+1 -0)"), "{out}");
    assert!(out.contains("@@ -40,2 +40,3 @@") && out.contains("+y"));
    assert!(!out.contains("fn b()"), "the other hunk is left out: {out}");
    assert!(!out.contains("+hello"));
    // A line outside every hunk still shows the nearest one; no line shows the file's hunks.
    let out = pointed(&doc, &[finding("new.rs", Some(90))], 1 << 20);
    assert!(out.contains("rename from old.rs") && out.contains("+b"));
    let out = pointed(&doc, &[finding("./src/parse.rs", None)], 1 << 20);
    assert!(out.contains("fn b()") && out.contains("+y"));
    // Nothing located: the list alone.
    let out = pointed(&doc, &[Finding::new(Severity::P1, "design")], 1 << 20);
    assert!(out.contains("no finding points at a changed file"));
    // The cap holds, and says what it left out.
    let out = pointed(&doc, &[finding("src/parse.rs", None)], 10);
    assert!(out.contains("more hunks left out"), "{out}");
}
