//! GitLab Code Quality (`--format codequality`): the JSON array GitLab reads from a job's
//! `artifacts:reports:codequality` file and shows in the merge request's Code Quality widget.
//!
//! GitLab reads a subset of the Code Climate issue format; each entry here has exactly the fields
//! its documentation lists: `description`, `check_name`, `fingerprint`, `severity` (`info`,
//! `minor`, `major`, `critical` or `blocker`), `location.path` and `location.lines.begin`. One entry
//! per unresolved finding that has a place ([`crate::report::ci::place`]: its own verified
//! position, or line 1 of the one file reviewed); the fingerprint is SARIF's, stable across runs.
//! Findings without a place are left out (GitLab drops a report at its first invalid entry) and
//! counted on stderr, where "not evaluated" is said too.

use serde::Serialize;

use crate::findings::Severity;
use crate::report::ci::{fingerprint, message, place};
use crate::report::Report;

/// The report: its entries, serialised as a bare array.
#[derive(Serialize)]
#[serde(transparent)]
pub struct CodeQuality {
    entries: Vec<Entry>,
    /// Findings left out for want of a place; not serialised.
    #[serde(skip)]
    pub unplaced: usize,
}

#[derive(Serialize)]
struct Entry {
    description: String,
    check_name: String,
    fingerprint: String,
    severity: &'static str,
    location: Location,
}

#[derive(Serialize)]
struct Location {
    path: String,
    lines: Lines,
}

#[derive(Serialize)]
struct Lines {
    begin: u64,
}

/// GitLab's severity of each of ours: P0 blocker, P1 critical, P2 major, P3 minor; a finding
/// nobody classified may be a blocker, so it is critical (it fails every `--fail-on` level too).
const SEVERITIES: &[(Severity, &str)] = &[
    (Severity::P0, "blocker"),
    (Severity::P1, "critical"),
    (Severity::P2, "major"),
    (Severity::P3, "minor"),
    (Severity::Unclassified, "critical"),
];

/// GitLab's severity of a finding ([`SEVERITIES`]).
pub fn severity(s: Severity) -> &'static str {
    SEVERITIES
        .iter()
        .find(|(ours, _)| *ours == s)
        .map_or("critical", |(_, theirs)| theirs)
}

pub fn codequality(r: &Report) -> CodeQuality {
    let mut entries = Vec::new();
    let mut unplaced = 0;
    let mut seen = std::collections::HashSet::new();
    for i in &r.unresolved {
        let Some((path, begin, _)) = place(r, i) else {
            unplaced += 1;
            continue;
        };
        // GitLab shows one issue per fingerprint: two findings that would share one (the same
        // title in the same file, no code around them) are told apart by their order.
        let mut print = fingerprint(i);
        let mut n = 1u32;
        while !seen.insert(print.clone()) {
            n += 1;
            print = sha1_smol::Sha1::from(format!("{}\0{n}", fingerprint(i)))
                .digest()
                .to_string();
        }
        entries.push(Entry {
            description: message(i),
            check_name: format!("git-debate/{}", i.severity.label()),
            fingerprint: print,
            severity: severity(i.severity),
            location: Location {
                path,
                lines: Lines { begin },
            },
        });
    }
    CodeQuality { entries, unplaced }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    /// The fields GitLab's documentation lists for a Code Quality issue, and nothing else.
    fn check_gitlab_fields(e: &Value) {
        let keys: Vec<&str> = e.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "check_name",
                "description",
                "fingerprint",
                "location",
                "severity"
            ],
            "{e}"
        );
        for key in ["description", "check_name", "fingerprint"] {
            assert!(e[key].as_str().is_some_and(|s| !s.is_empty()), "{key}: {e}");
        }
        assert!(["info", "minor", "major", "critical", "blocker"]
            .contains(&e["severity"].as_str().unwrap()));
        assert!(e["location"]["path"]
            .as_str()
            .is_some_and(|p| !p.is_empty()));
        assert!(e["location"]["lines"]["begin"].as_u64().unwrap() >= 1);
    }

    fn at(path: &str, line: u32) -> Value {
        json!({"path": path, "start_line": line, "check": "verified"})
    }

    #[test]
    fn every_placed_finding_is_an_issue_with_gitlabs_fields() {
        let r = crate::report::sample::report(
            json!([
                {"severity": "P0", "title": "drops the table", "location": at("db.sql", 3)},
                {"severity": "P1", "title": "wrong sum", "location": at("a.rs", 7)},
                {"severity": "P2", "title": "slow", "location": at("a.rs", 9)},
                {"severity": "P3", "title": "nit", "location": at("b.rs", 1)},
                {"severity": "unclassified", "title": "unsure", "location": at("b.rs", 2)},
                {"severity": "P2", "title": "no tests anywhere"},
                {"severity": "P2", "title": "invented", "location": {"path": "x.rs", "start_line": 4, "check": "not-found"}},
            ]),
            None,
        );
        let cq = codequality(&r);
        assert_eq!(cq.unplaced, 2, "no place, or a place not in the change");
        let v = serde_json::to_value(&cq).unwrap();
        let entries = v.as_array().expect("a bare array");
        assert_eq!(entries.len(), 5);
        entries.iter().for_each(check_gitlab_fields);
        let sev: Vec<&str> = entries
            .iter()
            .map(|e| e["severity"].as_str().unwrap())
            .collect();
        assert_eq!(sev, ["blocker", "critical", "major", "minor", "critical"]);
        assert_eq!(entries[1]["check_name"], "git-debate/P1");
        assert_eq!(entries[1]["location"]["path"], "a.rs");
        assert_eq!(entries[1]["location"]["lines"]["begin"], 7);
        assert!(entries[1]["description"]
            .as_str()
            .unwrap()
            .contains("wrong sum"));
    }

    #[test]
    fn a_one_file_review_places_every_finding_and_fingerprints_are_unique() {
        let r = crate::report::sample::report(
            json!([
                {"severity": "P2", "title": "no tests"},
                {"severity": "P2", "title": "no tests"},
                {"severity": "P3", "title": "typo", "location": at("a.rs", 2)},
            ]),
            Some("a.rs"),
        );
        let cq = codequality(&r);
        assert_eq!(cq.unplaced, 0);
        let v = serde_json::to_value(&cq).unwrap();
        let entries = v.as_array().unwrap();
        entries.iter().for_each(check_gitlab_fields);
        assert_eq!(entries[0]["location"]["lines"]["begin"], 1);
        let prints: std::collections::HashSet<&str> = entries
            .iter()
            .map(|e| e["fingerprint"].as_str().unwrap())
            .collect();
        assert_eq!(prints.len(), 3, "GitLab keeps one issue per fingerprint");
        // Stable: the same report gives the same fingerprints.
        assert_eq!(v, serde_json::to_value(codequality(&r)).unwrap());
    }
}
