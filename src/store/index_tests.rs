//! Unit tests of the index format: parsing, validation and appends.

use super::*;

const TREE: &str = "0123456789abcdef0123456789abcdef01234567";

fn entry(id: &str, status: &str) -> Entry {
    Entry {
        id: id.into(),
        created_at: Some("2026-01-01T00:00:00Z".into()),
        target: Some("code".into()),
        status: Some(status.into()),
        scope: "staged".into(),
        head: None,
        hook: None,
    }
}

#[test]
fn the_last_line_of_an_id_wins_and_a_torn_last_line_is_skipped() {
    let mut text = render([&entry("debate-1", "running"), &entry("debate-2", "dry-run")]);
    text.push_str(&entry("debate-1", "completed").line());
    text.push_str(r#"{"id":"debate-3","sco"#);
    let p = parse(text.as_bytes(), true);
    assert!(!p.bad);
    assert_eq!(p.lines, 4);
    assert_eq!(p.entries.len(), 2);
    assert_eq!(
        find(&p, "debate-1").unwrap().status.as_deref(),
        Some("completed")
    );
}

#[test]
fn anything_that_is_not_an_entry_makes_the_file_bad() {
    let good = render([&entry("debate-1", "running")]);
    assert!(!parse(good.as_bytes(), true).bad);
    assert!(parse(b"", true).bad, "no header");
    assert!(parse(b"{\"git-debate\":\"sessions-index\",\"version\":2}\n", true).bad);
    for line in [
        "not json",
        r#"{"id":"../../etc","scope":"x"}"#,
        r#"{"id":"debate-1/x","scope":"x"}"#,
        r#"{"id":"debate-1"}"#,
        r#"{"id":"debate-1","scope":"x","hook":"../../x"}"#,
        r#"[1,2]"#,
    ] {
        let text = format!("{good}{line}\n");
        assert!(parse(text.as_bytes(), true).bad, "{line}");
    }
    let long = format!(
        "{good}{}\n",
        entry(
            &format!("debate-{}", "1".repeat(100)),
            &"x".repeat(MAX_LINE)
        )
        .line()
    );
    assert!(parse(long.as_bytes(), true).bad);
    // An appended tail has no header.
    assert!(!parse(entry("debate-2", "x").line().as_bytes(), false).bad);
}

#[test]
fn an_entry_keeps_what_the_listing_prints() {
    let meta = serde_json::json!({"created_at": "2026-01-02T03:04:05Z", "target": "code",
        "status": "completed", "scope": {"given": null, "effective": "base:main"},
        "files": [{"path": "a"}], "hook": {"cache": format!("{TREE}-p1-1")}});
    let e = Entry::from_metadata("debate-1", meta.to_string().as_bytes()).unwrap();
    assert_eq!(e.scope, "base:main");
    assert_eq!(e.hook, Some(format!("{TREE}-p1-1")));
    let round_trip = parse(render([&e]).as_bytes(), true);
    assert_eq!(*find(&round_trip, "debate-1").unwrap(), e);

    let content = serde_json::json!({"source": {"kind": "content", "origin": "stdin"},
        "scope": {"given": null}, "hook": true});
    let e = Entry::from_metadata("debate-2", content.to_string().as_bytes()).unwrap();
    assert_eq!(
        (e.scope.as_str(), e.hook, e.status),
        ("content (stdin)", None, None)
    );
    let topic = serde_json::json!({"scope": null, "kind": "topic"});
    let e = Entry::from_metadata("debate-3", topic.to_string().as_bytes()).unwrap();
    assert_eq!(e.scope, "?");

    let e = Entry::from_metadata("debate-4", b"{\"version\": 1, \"sta").unwrap_err();
    assert!(e.starts_with("corrupt metadata.json: "), "{e}");
    let e = Entry::from_metadata("debate-4", b"[]").unwrap_err();
    assert!(e.starts_with("corrupt metadata.json"), "{e}");
    let e = Entry::from_metadata("debate-4", br#"{"status": 3}"#).unwrap_err();
    assert!(e.starts_with("corrupt metadata.json: "), "{e}");
}

#[test]
fn cache_keys_are_a_tree_a_gate_and_a_number() {
    assert!(is_cache_key(&format!("{TREE}-p1-1")));
    assert!(is_cache_key(&format!("{TREE}-never-5")));
    for bad in [
        format!("{TREE}-p1"),
        format!("{TREE}-p4-1"),
        format!("{TREE}-p1-1-x"),
        format!("{}-p1-1", TREE.to_uppercase()),
        "../../x-p1-1".to_string(),
        format!("{TREE}/-p1-1"),
    ] {
        assert!(!is_cache_key(&bad), "{bad}");
    }
}

#[test]
fn appends_go_only_to_an_index_that_exists_and_are_read_back() {
    let base = tempfile::tempdir().unwrap();
    let dir = base.path().join("debate-1");
    std::fs::create_dir(&dir).unwrap();
    let meta = br#"{"status":"running","scope":{"effective":"staged"}}"#;
    record(&dir, "debate-1", meta);
    assert!(read(base.path()).unwrap().is_none());
    std::fs::write(base.path().join(FILE), render([])).unwrap();
    record(&dir, "debate-1", meta);
    record(&dir, "debate-1", br#"{"status":"completed","scope":null}"#);
    let p = parse(&read(base.path()).unwrap().unwrap().bytes, true);
    assert!(!p.bad);
    assert_eq!(
        find(&p, "debate-1").unwrap().status.as_deref(),
        Some("completed")
    );
    // Metadata that is not ours to index drops the index instead of leaving it wrong.
    record(&dir, "debate-1", b"nonsense");
    assert!(read(base.path()).unwrap().is_none());
}

#[test]
fn the_reviewed_head_is_indexed_and_a_forged_one_makes_the_index_bad() {
    let meta =
        format!(r#"{{"scope": {{"effective": "base:main", "resolved": {{"head": "{TREE}"}}}}}}"#);
    let e = Entry::from_metadata("debate-1", meta.as_bytes()).unwrap();
    assert_eq!(e.head.as_deref(), Some(TREE));
    let odd = r#"{"scope": {"effective": "base:main", "resolved": {"head": "../x"}}}"#;
    assert_eq!(
        Entry::from_metadata("debate-1", odd.as_bytes())
            .unwrap()
            .head,
        None
    );
    let forged = format!(
        "{}{}\n",
        render([]),
        r#"{"id":"debate-2","scope":"x","head":"HEAD"}"#
    );
    assert!(parse(forged.as_bytes(), true).bad);
}

/// The entry of `id`, if the index has one.
fn find<'a>(p: &'a Parsed, id: &str) -> Option<&'a Entry> {
    p.entries.iter().find(|e| e.id == id)
}
