use super::*;

fn section(path: &str, hunks: usize, hunk_bytes: usize) -> String {
    let mut s = format!("diff --git a/{path} b/{path}\n--- a/{path}\n+++ b/{path}\n");
    for h in 0..hunks {
        s.push_str(&format!("@@ -{0},1 +{0},1 @@\n", h * 100 + 1));
        let line = format!("+{}\n", "x".repeat(19));
        for _ in 0..hunk_bytes / line.len() {
            s.push_str(&line);
        }
    }
    s
}

fn doc(files: &[(&str, usize, usize)]) -> DiffDoc {
    let diff: String = files.iter().map(|(p, h, b)| section(p, *h, *b)).collect();
    DiffDoc::parse(&format!("# Change\n\n## Files (x)\n\n```diff\n{diff}```\n")).unwrap()
}

fn chunk_files(d: &DiffDoc, p: &Plan) -> Vec<Vec<String>> {
    p.chunks.iter().map(|c| files(d, c)).collect()
}

#[test]
fn stems_and_modules() {
    for (p, stem) in [
        ("src/parse.rs", "parse"),
        ("tests/parse.rs", "parse"),
        ("pkg/parse_test.go", "parse"),
        ("test/test_parse.py", "parse"),
        ("web/parse.spec.ts", "parse"),
        ("src/test/java/a/ParseTest.java", "Parse"),
    ] {
        assert_eq!(stem_of(p), stem, "{p}");
    }
    assert_eq!(module_of("src/main/java/a/Parse.java"), "a");
    assert_eq!(module_of("src/test/java/a/ParseTest.java"), "a");
    assert_eq!(module_of("crates/x/src/lib.rs"), "crates/x");
    assert_eq!(module_of("README.md"), "");
}

#[test]
fn a_file_travels_with_its_tests_and_modules_stay_whole() {
    let d = doc(&[
        ("a/one.rs", 1, 400),
        ("b/two.rs", 1, 400),
        ("src/parse.rs", 1, 400),
        ("tests/parse.rs", 1, 400),
        ("zz/other.rs", 1, 400),
    ]);
    let all: Vec<usize> = (0..d.sections.len()).collect();
    let plan = plan(&d, &all, 1100, 10);
    let chunks = chunk_files(&d, &plan);
    assert!(
        chunks
            .iter()
            .any(|c| c.contains(&"src/parse.rs".to_string())
                && c.contains(&"tests/parse.rs".to_string())),
        "{chunks:?}"
    );
    // Every file exactly once, nothing unfit.
    let mut seen: Vec<String> = chunks.concat();
    seen.sort();
    assert_eq!(seen.len(), 5);
    seen.dedup();
    assert_eq!(seen.len(), 5);
    assert!(plan.unfit.is_empty());
    assert!(plan.chunks.iter().all(|c| c.bytes <= 1100));
}

#[test]
fn only_a_file_bigger_than_a_chunk_is_cut_and_only_between_hunks() {
    let d = doc(&[("big.rs", 6, 400), ("small.rs", 1, 100)]);
    let plan = plan(&d, &[0, 1], 1000, 10);
    let big: Vec<&Part> = plan
        .chunks
        .iter()
        .flat_map(|c| &c.parts)
        .filter(|p| p.section == 0)
        .collect();
    assert!(big.len() >= 3, "{plan:?}");
    let covered: Vec<usize> = big.iter().flat_map(|p| p.hunks.clone()).collect();
    assert_eq!(covered, (0..6).collect::<Vec<_>>());
    let text = render(&d, &plan.chunks[0], 0, plan.chunks.len());
    assert!(
        text.contains("hunks 1-2 of 6: the rest is in another part"),
        "{text}"
    );
    assert!(text.contains("--- a/big.rs"));
    assert!(plan.unfit.is_empty());
}

#[test]
fn what_does_not_fit_is_named() {
    // One hunk bigger than a chunk is clipped, and files past the chunk limit are listed.
    let d = doc(&[
        ("huge.rs", 1, 5000),
        ("a.rs", 1, 900),
        ("b.rs", 1, 900),
        ("c.rs", 1, 900),
    ]);
    let plan = plan(&d, &[0, 1, 2, 3], 1024, 2);
    assert_eq!(plan.chunks.len(), 2);
    let reasons: Vec<String> = plan
        .unfit
        .iter()
        .map(|n| format!("{}: {}", n.path, n.reason))
        .collect();
    assert!(
        reasons
            .iter()
            .any(|r| r.starts_with("huge.rs: hunk 1 of 1 clipped")),
        "{reasons:?}"
    );
    assert!(
        reasons.iter().any(|r| r.contains("more than 2 chunks")),
        "{reasons:?}"
    );
    let plan = crate::change::chunks::plan(&d, &[0, 1, 2, 3], 1024, 10);
    let huge = plan
        .chunks
        .iter()
        .position(|c| c.parts[0].section == 0)
        .unwrap();
    let text = render(&d, &plan.chunks[huge], huge, plan.chunks.len());
    assert!(
        text.contains("[git-debate: the rest of this hunk is left out]"),
        "{text}"
    );
    assert!(text.len() < 1024 + 700, "{}", text.len());
}

#[test]
fn a_chunk_names_the_other_files_by_folder() {
    let d = doc(&[("a/x.rs", 1, 100), ("b/y.rs", 1, 100), ("b/z.rs", 1, 100)]);
    let plan = plan(&d, &[0], 1 << 20, 10);
    let text = render(&d, &plan.chunks[0], 0, 3);
    assert!(text.starts_with("# Change\n\n## Part 1 of 3"), "{text}");
    assert!(text.contains("- a/x.rs (+"));
    assert!(text.contains("- b/ (2 files)"));
    assert!(!text.contains("+++ b/b/y.rs"));
}
