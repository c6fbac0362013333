//! Unit tests of pruning: ages, creation times and which sessions the limits pick.

use super::*;
use crate::store::index::Entry;

const TREE: &str = "0123456789abcdef0123456789abcdef01234567";

fn row(id: &str, created: &str, hook: bool) -> Row {
    Row {
        id: id.into(),
        dir: PathBuf::from(id),
        entry: Ok(Entry {
            id: id.into(),
            created_at: Some(created.into()),
            target: None,
            status: Some("completed".into()),
            scope: "staged".into(),
            head: None,
            hook: hook.then(|| format!("{TREE}-p1-1")),
        }),
    }
}

fn now() -> time::OffsetDateTime {
    datetime("20260301-000000").unwrap()
}

#[test]
fn ages_are_worded_in_days_else_hours() {
    assert_eq!(age_words(DAY), "1 day");
    assert_eq!(age_words(36 * 3600), "36 hours");
}

#[test]
fn creation_comes_from_the_metadata_else_the_id() {
    let r = row(
        "debate-20200101-000000-000-0000001",
        "2026-02-03T04:05:06Z",
        false,
    );
    assert_eq!(created(&r), datetime("20260203-040506"));
    let mut r = row("debate-20200101-102030-000-0000001", "garbage", false);
    assert_eq!(created(&r), datetime("20200101-102030"));
    r.entry = Err("corrupt".into());
    assert_eq!(created(&r), datetime("20200101-102030"));
    r.id = "debate-x".into();
    assert_eq!(created(&r), None);
}

#[test]
fn limits_by_count_and_age_and_the_hooks_own() {
    let rows = [
        row("debate-6", "2026-02-28T00:00:00Z", true),
        row("debate-5", "2026-02-27T00:00:00Z", false),
        row("debate-4", "2026-02-26T00:00:00Z", true),
        row("debate-3", "2026-02-01T00:00:00Z", false),
        row("debate-2", "2026-01-01T00:00:00Z", true),
        row("debate-1", "2025-01-01T00:00:00Z", false),
    ];
    let ids = |p: &Policy| -> Vec<(String, Why)> {
        candidates(&rows, p, now())
            .into_iter()
            .map(|(i, w)| (rows[i].id.clone(), w))
            .collect()
    };
    let keep = |keep, days: Option<u64>| Limits {
        keep,
        max_age: days.map(|d| d * DAY),
    };
    assert!(ids(&Policy::default()).is_empty());
    let p = Policy {
        all: keep(Some(4), Some(90)),
        hook: Limits::default(),
    };
    assert_eq!(
        ids(&p),
        [
            ("debate-2".into(), Why::Count(4)),
            ("debate-1".into(), Why::Count(4))
        ]
    );
    let p = Policy {
        all: keep(None, Some(30)),
        hook: keep(Some(1), Some(2)),
    };
    assert_eq!(
        ids(&p),
        [
            ("debate-4".into(), Why::HookCount(1)),
            ("debate-2".into(), Why::Age(30 * DAY)),
            ("debate-1".into(), Why::Age(30 * DAY))
        ]
    );
    let p = Policy {
        all: Limits::default(),
        hook: keep(None, Some(2)),
    };
    assert_eq!(
        ids(&p),
        [
            ("debate-4".into(), Why::HookAge(2 * DAY)),
            ("debate-2".into(), Why::HookAge(2 * DAY))
        ]
    );
    // --keep 0: everything.
    let p = Policy {
        all: keep(Some(0), None),
        hook: Limits::default(),
    };
    assert_eq!(ids(&p).len(), 6);
}
