//! The records read the files an earlier release wrote (`tests/fixtures/sessions-v1`, as that
//! release left them) and, written again, give back the same bytes: the shapes on disk did not
//! change when the records got their types.

use std::path::{Path, PathBuf};

use super::*;
use crate::store::debate::LastDebate;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sessions-v1")
}

/// The one session folder of the fixture `kind`.
fn session(kind: &str) -> PathBuf {
    let dir = fixtures().join(kind);
    std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.is_dir())
        .unwrap_or_else(|| panic!("no session in {}", dir.display()))
}

fn text(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap()
}

/// `record` written as its file is.
fn written<R: Record>(record: &R) -> String {
    String::from_utf8(encode(record).unwrap()).unwrap()
}

#[test]
fn every_record_of_an_earlier_release_reads_and_writes_back_the_same_bytes() {
    for kind in ["review", "duel", "duel-done", "panel"] {
        let dir = session(kind);
        let m = metadata(&dir).unwrap_or_else(|e| panic!("{kind}: {e}"));
        assert_eq!(
            String::from_utf8(m.to_json().unwrap()).unwrap(),
            text(&dir, metadata::FILE),
            "{kind}: metadata.json"
        );
        let summary_json = text(&dir, summary::FILE);
        let again = match &m {
            Metadata::Review(_) => written(&summary::<Report>(&dir).unwrap().unwrap()),
            Metadata::Topic(_) => written(&summary::<DuelSummary>(&dir).unwrap().unwrap()),
            Metadata::Panel(_) => written(&summary::<PanelSummary>(&dir).unwrap().unwrap()),
        };
        assert_eq!(again, summary_json, "{kind}: summary.json");
        if !matches!(m, Metadata::Review(_)) {
            let lines: Vec<String> = match &m {
                Metadata::Topic(_) => log::<Exchange>(&dir)
                    .unwrap()
                    .iter()
                    .map(|l| serde_json::to_string(l).unwrap())
                    .collect(),
                _ => log::<Entry>(&dir)
                    .unwrap()
                    .iter()
                    .map(|l| serde_json::to_string(l).unwrap())
                    .collect(),
            };
            assert_eq!(
                lines.join("\n") + "\n",
                text(&dir, debate::LOG),
                "{kind}: debate-log.jsonl"
            );
        }
    }
    let review = session("review");
    let rounds = rounds(&review).unwrap();
    assert_eq!(rounds.len(), 1);
    assert_eq!(written(&rounds[0]), text(&review, &round_file(1)));
    let index = locations(&review).unwrap().unwrap();
    assert_eq!(written(&index), text(&review, locations::FILE));
    let last: LastDebate =
        serde_json::from_str(&text(&fixtures().join("duel-done"), debate::LAST_DEBATE)).unwrap();
    let again = serde_json::to_string_pretty(&serde_json::to_value(&last).unwrap()).unwrap();
    assert_eq!(
        again,
        text(&fixtures().join("duel-done"), debate::LAST_DEBATE)
    );
}

#[test]
fn a_damaged_record_is_named_with_its_field_and_line() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(
        dir.join(metadata::FILE),
        "{\n  \"version\": 1,\n  \"kind\": \"topic\",\n  \"status\": \"running\"\n}\n",
    )
    .unwrap();
    let e = metadata(dir).unwrap_err().to_string();
    assert_eq!(e, "metadata.json: missing field `topic` at line 5 column 1");
    std::fs::write(dir.join(metadata::FILE), "{\"status\": \"done\"}").unwrap();
    let e = metadata(dir).unwrap_err().to_string();
    assert_eq!(
        e,
        "metadata.json: missing field `version` at line 1 column 18"
    );
    std::fs::write(
        dir.join(metadata::FILE),
        "{\"version\": 1, \"status\": \"done\", \"source\": {\"kind\": 5}}",
    )
    .unwrap();
    let e = metadata(dir).unwrap_err().to_string();
    assert!(
        e.starts_with("metadata.json: invalid type: integer `5`"),
        "{e}"
    );
    std::fs::write(
        dir.join(metadata::FILE),
        "{\"version\": 2, \"status\": \"x\"}",
    )
    .unwrap();
    let e = metadata(dir).unwrap_err().to_string();
    assert_eq!(
        e,
        "metadata.json: version 2 is newer than this git-debate reads (version 1); the release \
         that wrote it reads it"
    );
    std::fs::write(dir.join(round_file(1)), "{\"round\": 1}").unwrap();
    let e = rounds(dir).unwrap_err().to_string();
    assert!(
        e.starts_with("round-1.json: missing field `version`"),
        "{e}"
    );
    assert!(round(dir, 2).unwrap().is_none());
}
