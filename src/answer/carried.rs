//! What a reviewer says of the findings carried from an earlier review (incremental review):
//! fixed, still open, or no longer applicable, one per finding id.
//!
//! The answer is untrusted text in whatever shape the model chose: `- F3: fixed — …` lines, a
//! table, `**F3** still open`, a `"carried": [{"id": "F3", "status": "fixed"}]` list in its JSON,
//! or lines inside a JSON string (the `summary` of a schema-enforced answer). Only ids we asked
//! about count; a line naming two of them says nothing certain and is skipped; an id given two
//! different statuses is ambiguous and reported as such, so the caller keeps it open.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::answer::vocab::{normalise, Carried};

/// What the answer said about each asked id.
#[derive(Debug, Default, PartialEq)]
pub struct Said {
    pub status: BTreeMap<String, Carried>,
    /// Ids given contradictory statuses.
    pub ambiguous: Vec<String>,
}

/// Reads the statuses of the asked `(id, title)` findings. A line that repeats a finding's title
/// after its id (`F3: unresolved promise in the handler — fixed`) is read past the title, so a
/// status word inside the title is not taken for the reviewer's word.
pub fn read(text: &str, asked: &[(String, String)]) -> Said {
    let prepared = crate::answer::prepare::prepare(text);
    let mut found: Vec<(String, Carried)> = Vec::new();
    // A finding named on a line of its own (`### F1: unwrap panics`), whose status follows on a
    // labelled line (`**Status:** Fixed`) before the next finding is named.
    let mut pending: Option<String> = None;
    for line in prepared.lines() {
        match (named(line, asked), from_line(line, asked)) {
            (_, Some(said)) => {
                pending = None;
                found.push(said);
            }
            (Some(id), None) => pending = Some(id),
            (None, None) => {
                if let Some(st) = pending.as_ref().and_then(|_| labelled(line)) {
                    found.push((pending.take().expect("checked"), st));
                }
            }
        }
    }
    for v in crate::answer::json::json_blocks(&prepared) {
        from_json(&v, asked, &mut found);
    }
    let mut said = Said::default();
    for (id, st) in found {
        if said.ambiguous.contains(&id) {
            continue;
        }
        match said.status.get(&id) {
            Some(old) if *old != st => {
                said.status.remove(&id);
                said.ambiguous.push(id);
            }
            _ => {
                said.status.insert(id, st);
            }
        }
    }
    said
}

/// Words that introduce a status on a line of its own.
const STATUS_LABELS: &[&str] = &["status", "state", "verdict", "resolution", "outcome"];

/// The status of a `Status: fixed` line (the label first, then the phrase).
fn labelled(line: &str) -> Option<Carried> {
    let words: Vec<String> = normalise(line).split(' ').map(str::to_string).collect();
    let first = words.first()?;
    STATUS_LABELS
        .contains(&first.as_str())
        .then(|| status_in(&words[1..]))
        .flatten()
}

/// The one asked id a line names, if it names exactly one.
fn named(line: &str, asked: &[(String, String)]) -> Option<String> {
    let mut ids = normalise(line)
        .split(' ')
        .filter_map(|w| asked.iter().find(|(a, _)| a.eq_ignore_ascii_case(w)))
        .map(|(a, _)| a.clone())
        .collect::<Vec<_>>();
    ids.dedup();
    (ids.len() == 1).then(|| ids.remove(0))
}

/// The one asked id a line names and the first status phrase after it.
fn from_line(line: &str, asked: &[(String, String)]) -> Option<(String, Carried)> {
    let (id, rest) = named_once(line, asked)?;
    status_in(&rest).map(|s| (id, s))
}

/// The one asked id (`asked`: id and title) a line names, and its normalised words after the id
/// and after the title when the line repeats it (a severity label may come between). A line
/// naming no asked id, or several, names none: its words cannot be given to one finding.
pub(crate) fn named_once(line: &str, asked: &[(String, String)]) -> Option<(String, Vec<String>)> {
    let words: Vec<String> = normalise(line)
        .split(' ')
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    let named: Vec<usize> = words
        .iter()
        .enumerate()
        .filter(|(_, w)| asked.iter().any(|(a, _)| a.eq_ignore_ascii_case(w)))
        .map(|(i, _)| i)
        .collect();
    let [at] = named[..] else { return None };
    let (id, title) = asked
        .iter()
        .find(|(a, _)| a.eq_ignore_ascii_case(&words[at]))?;
    let rest = &words[at + 1..];
    let title = normalise(title);
    let title: Vec<&str> = title.split(' ').filter(|w| !w.is_empty()).collect();
    let skip = (0..=rest.len().min(2))
        .find(|&i| {
            !title.is_empty()
                && rest.len() >= i + title.len()
                && rest[i..i + title.len()]
                    .iter()
                    .zip(&title)
                    .all(|(a, b)| a == b)
        })
        .map_or(0, |i| i + title.len());
    Some((id.clone(), rest[skip..].to_vec()))
}

// (Statuses are read by the vocabulary, so that the JSON reader can read them too without
// depending on this module.)
use crate::answer::vocab::status_in;
pub(crate) use crate::answer::vocab::status_word;

/// `{"id": "F3", "status": "fixed"}` objects anywhere in a JSON value, and status lines inside
/// its strings.
fn from_json(v: &Value, asked: &[(String, String)], out: &mut Vec<(String, Carried)>) {
    match v {
        Value::Object(m) => {
            let id = m.get("id").and_then(Value::as_str);
            let status = ["status", "state", "verdict"]
                .iter()
                .find_map(|k| m.get(*k).and_then(Value::as_str));
            if let (Some(id), Some(status)) = (id, status) {
                let words: Vec<String> = normalise(status).split(' ').map(str::to_string).collect();
                if let (Some(a), Some(st)) = (
                    asked
                        .iter()
                        .find(|(a, _)| a.eq_ignore_ascii_case(id.trim()))
                        .map(|(a, _)| a),
                    status_in(&words),
                ) {
                    out.push((a.clone(), st));
                    return;
                }
            }
            for x in m.values() {
                from_json(x, asked, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| from_json(x, asked, out)),
        Value::String(s) => out.extend(s.lines().filter_map(|l| from_line(l, asked))),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ids alone, without titles.
    fn read_ids(text: &str, ids: &[String]) -> Said {
        let untitled: Vec<(String, String)> =
            ids.iter().map(|a| (a.clone(), String::new())).collect();
        read(text, &untitled)
    }

    fn ids() -> Vec<String> {
        ["F1", "F2", "F3", "F4"].map(String::from).to_vec()
    }

    #[test]
    fn the_shapes_reviewers_use_are_read() {
        let answer = "## Carried findings\n\
            - F1: fixed — the loop now stops at len\n\
            | **F2** | still open | the token is still logged |\n\
            * F3 — no longer applicable: the cache is gone\n\
            Nothing about the fourth.\n";
        let s = read_ids(answer, &ids());
        assert_eq!(s.status["F1"], Carried::Fixed);
        assert_eq!(s.status["F2"], Carried::Open);
        assert_eq!(s.status["F3"], Carried::NotApplicable);
        assert!(!s.status.contains_key("F4"));
    }

    #[test]
    fn a_status_on_its_own_labelled_line_belongs_to_the_finding_named_above() {
        let answer = "### F1: unwrap panics on bad input\n\
            **Status:** Fixed\n\
            **Why:** parse returns an Option now.\n\n\
            ### F2 — the token is logged in clear\n\
            - Status: partially fixed, the debug line still prints it\n\n\
            ### F3 the cache grows\n\
            The whole module was deleted, fixed or not.\n\
            ### F4 stale lock\n\
            Verdict: n/a\n";
        let s = read_ids(answer, &ids());
        assert_eq!(s.status["F1"], Carried::Fixed);
        assert_eq!(
            s.status["F2"],
            Carried::Open,
            "partially fixed is not fixed"
        );
        assert!(
            !s.status.contains_key("F3"),
            "an unlabelled sentence is not a status"
        );
        assert_eq!(s.status["F4"], Carried::NotApplicable);
    }

    #[test]
    fn a_status_word_in_the_repeated_title_is_not_the_status() {
        let asked = [
            (
                "F1".to_string(),
                "Unresolved promise in the handler".to_string(),
            ),
            (
                "F2".to_string(),
                "Cache entries remain after logout".to_string(),
            ),
        ];
        let s = read(
            "- F1: Unresolved promise in the handler — fixed, it is awaited now\n\
             - F2 [P2] Cache entries remain after logout: not applicable, the cache is gone\n",
            &asked,
        );
        assert_eq!(s.status["F1"], Carried::Fixed);
        assert_eq!(s.status["F2"], Carried::NotApplicable);
        // Without the titles, the first status word is the title's.
        assert_eq!(
            read_ids("- F1: Unresolved promise in the handler — fixed\n", &ids()).status["F1"],
            Carried::Open
        );
    }

    #[test]
    fn not_fixed_is_open_and_the_first_phrase_after_the_id_wins() {
        let s = read_ids(
            "F1: not fixed, the earlier fix was reverted\nF2: open (partly resolved)\n",
            &ids(),
        );
        assert_eq!(s.status["F1"], Carried::Open);
        assert_eq!(s.status["F2"], Carried::Open);
    }

    #[test]
    fn json_lists_and_strings_inside_json_are_read() {
        let answer = "```json\n{\"verdict\": \"revise\", \"summary\": \"F2: fixed\", \
            \"carried\": [{\"id\": \"f1\", \"status\": \"Still open\"}], \"findings\": []}\n```";
        let s = read_ids(answer, &ids());
        assert_eq!(s.status["F1"], Carried::Open);
        assert_eq!(s.status["F2"], Carried::Fixed);
    }

    #[test]
    fn unknown_ids_two_ids_on_a_line_and_contradictions_say_nothing() {
        let s = read_ids(
            "F9: fixed\nF1 and F2: fixed\nF3: fixed\nF3: still open\n",
            &ids(),
        );
        assert!(s.status.is_empty(), "{s:?}");
        assert_eq!(s.ambiguous, ["F3"]);
    }
}
