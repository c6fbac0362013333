//! What a reviewer says of its own findings that the author's judge disputed: it holds one (with
//! its evidence), withdraws it, or lowers it to another level, one reply per finding id.
//!
//! The answer is untrusted text in whatever shape the model chose: `- F3: hold — …` lines under a
//! `## Disputed findings` heading, `**F3** withdrawn`, `F3: lower to P2 — …`, a table row, a
//! heading naming the finding with a labelled `Answer: hold` line after it, a
//! `"disputes": [{"id": "F3", "answer": "hold"}]` list in its JSON, or such lines inside a JSON
//! string (the `summary` of a schema-enforced answer). Only ids we asked about count; a line naming
//! two of them says nothing certain and is skipped; an id given two different replies is ambiguous,
//! and the caller treats it as held (only a clear word withdraws a finding). A withdrawal word after
//! a negation ("I do not withdraw F3") is a hold.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::answer::vocab::{normalise, parse_severity};
use crate::findings::Severity;

/// The reviewer's answer to one dispute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reply {
    /// It stands as raised.
    Hold,
    /// The reviewer takes it back (wrong, fixed, or no longer applicable).
    Withdraw,
    /// It stands at this lower level.
    Lower(Severity),
    /// It stands, at the level the reviewer names with it (`F2 stands, P1`, `"status": "held",
    /// "severity": "P0"`): the reviewer's level, higher than raised or not.
    HoldAt(Severity),
}

impl Reply {
    /// Does the finding stand (held, at its level or another)?
    pub fn holds(self) -> bool {
        matches!(self, Reply::Hold | Reply::HoldAt(_) | Reply::Lower(_))
    }
}

/// What the answer said about each asked id: the reply and the reviewer's words after it.
#[derive(Debug, Default, PartialEq)]
pub struct Replies {
    pub said: BTreeMap<String, (Reply, String)>,
    /// Ids given contradictory replies.
    pub ambiguous: Vec<String>,
}

impl Replies {
    /// Adds the replies of another answer of the same round (a chunk, a half): an id the two
    /// answer differently is ambiguous.
    pub fn merge(&mut self, other: Replies) {
        for id in other.ambiguous {
            self.said.remove(&id);
            if !self.ambiguous.contains(&id) {
                self.ambiguous.push(id);
            }
        }
        for (id, (reply, words)) in other.said {
            if self.ambiguous.contains(&id) {
                continue;
            }
            match self.said.get(&id) {
                Some((old, _)) if *old != reply => {
                    self.said.remove(&id);
                    self.ambiguous.push(id);
                }
                Some(_) => {}
                None => {
                    self.said.insert(id, (reply, words));
                }
            }
        }
    }
}

/// Headings under which a reviewer answers the disputes; [`without_section`] cuts them out of
/// the text the finding reader sees, so a reply is not read as a new finding.
const SECTION_NAMES: &[&str] = &[
    "disputed findings",
    "disputes",
    "disputed",
    "replies to the author",
    "reply to the author",
    "response to the author",
    "responses to the judge",
    "response to the judge",
];

/// Phrases that hold a finding.
const HOLD: &[&str] = &[
    "hold",
    "holds",
    "held",
    "i hold",
    "maintain",
    "maintained",
    "stand by",
    "stands",
    "still stands",
    "still valid",
    "still holds",
    "still applies",
    "still open",
    "keep",
    "kept",
    "disagree",
    "reject the ruling",
    "not withdrawn",
    "not conceded",
];

/// Phrases that hold a finding wherever they stand in the reply.
const STRONG_HOLD: &[&str] = &[
    "hold",
    "i hold",
    "maintain",
    "stand by",
    "still stands",
    "still valid",
    "still holds",
    "still applies",
    "not withdrawn",
    "not conceded",
];

/// Phrases that withdraw it.
const WITHDRAW: &[&str] = &[
    "withdraw",
    "withdrawn",
    "withdrawing",
    "retract",
    "retracted",
    "concede",
    "conceded",
    "drop",
    "dropped",
    "agree",
    "agreed",
    "i was wrong",
    "resolved",
    "fixed",
    "addressed",
    "no longer applies",
    "not applicable",
    "no longer applicable",
];

/// Words that introduce a lower level (`lower to P2`, `downgrade it to minor`).
const LOWER: &[&str] = &[
    "lower",
    "lowered",
    "lowering",
    "downgrade",
    "downgraded",
    "demote",
    "reduce",
    "reduced",
];

/// Words that turn the reply after them around (`do not withdraw`, `won't concede`).
const NEGATIONS: &[&str] = &["not", "no", "never", "nor", "cannot", "t"];

/// Labels of a reply on a line of its own, after a heading that names the finding.
const LABELS: &[&str] = &[
    "answer", "reply", "response", "decision", "status", "position",
];

/// Reads the replies to the asked `(id, title)` findings in `text` and, when the CLI enforced a
/// schema, in its object.
pub fn read(text: &str, structured: Option<&Value>, asked: &[(String, String)]) -> Replies {
    let prepared = crate::answer::prepare::prepare(text);
    let mut found: Vec<(String, Reply, String)> = Vec::new();
    let mut pending: Option<String> = None;
    for line in prepared.lines() {
        match (named(line, asked), from_line(line, asked)) {
            (_, Some(said)) => {
                pending = None;
                found.push(said);
            }
            (Some(id), None) => pending = Some(id),
            (None, None) => {
                if let Some((reply, words)) = pending.as_ref().and_then(|_| labelled(line)) {
                    found.push((pending.take().expect("checked"), reply, words));
                }
            }
        }
    }
    for v in crate::answer::json::json_blocks(&prepared)
        .iter()
        .chain(structured)
    {
        from_json(v, asked, &mut found);
    }
    let mut out = Replies::default();
    for (id, reply, words) in found {
        if out.ambiguous.contains(&id) {
            continue;
        }
        match out.said.get(&id) {
            Some((old, _)) if *old != reply => {
                out.said.remove(&id);
                out.ambiguous.push(id);
            }
            Some(_) => {}
            None => {
                out.said.insert(id, (reply, words));
            }
        }
    }
    out
}

/// `text` without its disputes section (a heading from [`SECTION_NAMES`] and everything up to the
/// next heading of the same or a higher level, or to a JSON block; headings inside code blocks do
/// not count).
pub fn without_section(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut cut: Option<usize> = None;
    let mut fence: Option<&str> = None;
    for line in text.split_inclusive('\n') {
        let t = line.trim_start();
        let opens = ["```", "~~~"].into_iter().find(|f| t.starts_with(f));
        match (fence, opens) {
            (Some(f), Some(o)) if f == o => fence = None,
            (None, Some(o)) => {
                fence = Some(o);
                // A JSON block after the replies is the answer's own, not a reply.
                if t[3..].trim_start().to_ascii_lowercase().starts_with("json") {
                    cut = None;
                }
            }
            _ => {}
        }
        let level = if fence.is_some() || opens.is_some() {
            None
        } else {
            heading_level(line)
        };
        if let (Some(at), Some(l)) = (cut, level) {
            if l <= at {
                cut = None;
            }
        }
        if cut.is_none() {
            if let Some(l) = level {
                let name = normalise(line);
                if SECTION_NAMES.iter().any(|s| name.starts_with(s)) {
                    cut = Some(l);
                    continue;
                }
            }
            out.push_str(line);
        }
    }
    out
}

/// The level of a markdown heading line (`## x` is 2), or of a bold line alone (`**Disputes**`,
/// read as level 6 so any real heading ends it).
fn heading_level(line: &str) -> Option<usize> {
    let t = line.trim();
    let hashes = t.chars().take_while(|c| *c == '#').count();
    if (1..=6).contains(&hashes) && t[hashes..].starts_with(' ') {
        return Some(hashes);
    }
    (t.len() > 4 && t.starts_with("**") && t.ends_with("**")).then_some(6)
}

/// The one asked id a line names, if it names exactly one.
fn named(line: &str, asked: &[(String, String)]) -> Option<String> {
    let mut ids: Vec<String> = normalise(line)
        .split(' ')
        .filter_map(|w| asked.iter().find(|(a, _)| a.eq_ignore_ascii_case(w)))
        .map(|(a, _)| a.clone())
        .collect();
    ids.dedup();
    (ids.len() == 1).then(|| ids.remove(0))
}

/// The one asked id a line names and the reply after it, with the line's words after the reply.
fn from_line(line: &str, asked: &[(String, String)]) -> Option<(String, Reply, String)> {
    let (id, rest) = crate::answer::carried::named_once(line, asked)?;
    let reply = reply_in(&rest)?;
    let words = words_after(line, &id.to_ascii_lowercase());
    Some((id, reply, words))
}

/// The reviewer's own words on a reply line: what follows the id, without the markup around it.
fn words_after(line: &str, id: &str) -> String {
    let lower = line.to_ascii_lowercase();
    let from = lower.find(id).map_or(0, |i| i + id.len());
    line[from..]
        .trim_start_matches(|c: char| !c.is_alphanumeric())
        .trim()
        .trim_end_matches(['|', '*'])
        .trim()
        .to_string()
}

/// A `Answer: hold — …` line (the label first, then the reply).
fn labelled(line: &str) -> Option<(Reply, String)> {
    let words: Vec<String> = normalise(line).split(' ').map(str::to_string).collect();
    let first = words.first()?;
    if !LABELS.contains(&first.as_str()) {
        return None;
    }
    let reply = reply_in(&words[1..])?;
    let words = line
        .split_once(':')
        .map_or(line, |(_, r)| r)
        .trim()
        .to_string();
    Some((reply, words))
}

/// The reply in `words`: the first reply phrase (a lowering is a lower word with a level within
/// four words after it; a withdrawal after a negation is a hold), except that a withdrawal followed
/// by an explicit hold (`agree it is rare, but I hold it`) is a hold. Words that only hold as the
/// first phrase (`held`, `keep`) are evidence later on ("the lock is held by the caller").
fn reply_in(words: &[String]) -> Option<Reply> {
    let starts = |i: usize, p: &str| {
        let p: Vec<&str> = p.split(' ').collect();
        words.len() - i >= p.len() && words[i..i + p.len()].iter().zip(&p).all(|(a, b)| a == b)
    };
    // `not`, `never`, and the `t` of `don't`, `won't`, `can't` once normalised.
    let negated = |i: usize| {
        words[i.saturating_sub(2)..i]
            .iter()
            .any(|w| NEGATIONS.contains(&w.as_str()))
    };
    let mut first = None;
    for i in 0..words.len() {
        if LOWER.contains(&words[i].as_str()) && !negated(i) {
            let level = words[i + 1..]
                .iter()
                .take(4)
                .find_map(|w| parse_severity(w).filter(|s| *s != Severity::Unclassified));
            if let Some(s) = level {
                first.get_or_insert(Reply::Lower(s));
                continue;
            }
        }
        let h = HOLD.iter().filter(|p| starts(i, p)).map(|p| p.len()).max();
        let hold_words = HOLD
            .iter()
            .filter(|p| starts(i, p))
            .map(|p| p.split(' ').count())
            .max()
            .unwrap_or(0);
        let w = WITHDRAW
            .iter()
            .filter(|p| starts(i, p))
            .map(|p| p.len())
            .max();
        let reply = match (h, w) {
            (None, None) => continue,
            (Some(h), Some(w)) if w > h && !negated(i) => Reply::Withdraw,
            (None, Some(_)) if !negated(i) => Reply::Withdraw,
            _ => {
                // (A level right after the hold is the level it stands at: `stands, P1`.)
                let level = words[i + hold_words..]
                    .iter()
                    .take(3)
                    .find_map(|w| parse_severity(w).filter(|s| *s != Severity::Unclassified));
                level.map_or(Reply::Hold, Reply::HoldAt)
            }
        };
        match first {
            None => first = Some(reply),
            Some(Reply::Withdraw)
                if matches!(reply, Reply::Hold | Reply::HoldAt(_))
                    && STRONG_HOLD.iter().any(|p| starts(i, p)) =>
            {
                return Some(reply)
            }
            _ => {}
        }
    }
    first
}

/// `{"id": "F3", "answer": "hold", "severity": "P2", "evidence": "…"}` objects anywhere in a JSON
/// value, and reply lines inside its strings.
fn from_json(v: &Value, asked: &[(String, String)], out: &mut Vec<(String, Reply, String)>) {
    match v {
        Value::Object(m) => {
            let id = m.get("id").and_then(Value::as_str);
            let answer = [
                "answer", "reply", "response", "decision", "position", "status",
            ]
            .iter()
            .find_map(|k| m.get(*k).and_then(Value::as_str));
            if let (Some(id), Some(answer)) = (id, answer) {
                let asked_id = asked
                    .iter()
                    .find(|(a, _)| a.eq_ignore_ascii_case(id.trim()))
                    .map(|(a, _)| a.clone());
                let words: Vec<String> = normalise(answer).split(' ').map(str::to_string).collect();
                let level = m
                    .get("severity")
                    .and_then(Value::as_str)
                    .and_then(parse_severity)
                    .filter(|s| *s != Severity::Unclassified);
                let lowering = words.iter().any(|w| LOWER.contains(&w.as_str()));
                let reply = match (reply_in(&words), level) {
                    (None, Some(s)) if lowering => Some(Reply::Lower(s)),
                    // (Held with a level of its own: the reviewer's level.)
                    (Some(Reply::Hold | Reply::HoldAt(_)), Some(s)) => Some(Reply::HoldAt(s)),
                    (r, _) => r,
                };
                if let (Some(a), Some(reply)) = (asked_id, reply) {
                    let said = ["evidence", "reason", "why", "body", "explanation"]
                        .iter()
                        .find_map(|k| m.get(*k).and_then(Value::as_str))
                        .unwrap_or("")
                        .trim()
                        .to_string();
                    out.push((a, reply, said));
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

    fn asked() -> Vec<(String, String)> {
        [
            ("F1", "SQL built by concatenation"),
            ("F2", "token logged"),
            ("F3", "unbounded retry"),
            ("F4", "race on the cache"),
        ]
        .map(|(a, t)| (a.to_string(), t.to_string()))
        .to_vec()
    }

    #[test]
    fn the_shapes_reviewers_use_are_read() {
        let answer = "## Disputed findings\n\
            - F1: hold — `search()` still pastes `q` into the query at lib.rs:2\n\
            | **F2** | withdrawn | the author is right, it is redacted |\n\
            * F3 — lower to P3: the retries are capped by the caller\n\
            Nothing about the fourth.\n";
        let r = read(answer, None, &asked());
        assert_eq!(r.said["F1"].0, Reply::Hold);
        assert!(r.said["F1"].1.contains("lib.rs:2"), "{:?}", r.said["F1"]);
        assert_eq!(r.said["F2"].0, Reply::Withdraw);
        assert_eq!(r.said["F3"].0, Reply::Lower(Severity::P3));
        assert!(!r.said.contains_key("F4"));
    }

    #[test]
    fn a_hold_with_a_level_stands_at_the_reviewers_level() {
        let r = read(
            "F2 stands, P1: the offset still moves before the PUT succeeds.\nF3: hold\n",
            None,
            &asked(),
        );
        assert_eq!(r.said["F2"].0, Reply::HoldAt(Severity::P1));
        assert_eq!(r.said["F3"].0, Reply::Hold);
        let json = serde_json::json!({"rulings": [
            {"id": "F1", "status": "held", "severity": "P0", "comment": "still unescaped"},
            {"id": "F4", "status": "fixed"}
        ]});
        let r = read("", Some(&json), &asked());
        assert_eq!(r.said["F1"].0, Reply::HoldAt(Severity::P0));
        assert_eq!(r.said["F4"].0, Reply::Withdraw);
    }

    #[test]
    fn a_negated_withdrawal_holds_and_contradictions_are_ambiguous() {
        let r = read(
            "F1: I do not withdraw this; the input is user-controlled.\nF2: hold\n\nLater: F2 \
             withdrawn.\n",
            None,
            &asked(),
        );
        assert_eq!(r.said["F1"].0, Reply::Hold);
        assert_eq!(r.ambiguous, ["F2"]);
        // The title repeated after the id is read past: "retry" is not a reply, "agree" is.
        let r = read(
            "- F3 unbounded retry — agree, the caller caps it\n",
            None,
            &asked(),
        );
        assert_eq!(r.said["F3"].0, Reply::Withdraw);
        // The first word is the reply; "held" later is evidence, an explicit hold is not.
        let r = read(
            "- F1: withdraw — the lock is held by the caller\n- F2: agree it is rare, but I \
             hold it: one log line is enough\n",
            None,
            &asked(),
        );
        assert_eq!(r.said["F1"].0, Reply::Withdraw);
        assert_eq!(r.said["F2"].0, Reply::Hold);
    }

    #[test]
    fn json_lists_schema_summaries_and_labelled_lines() {
        let answer = "```json\n{\"verdict\":\"revise\",\"summary\":\"F4: still valid — two writers\",\
            \"findings\":[],\"disputes\":[{\"id\":\"F1\",\"answer\":\"lower\",\"severity\":\"P2\",\
            \"evidence\":\"only admins reach it\"}]}\n```\n### F2\nAnswer: withdraw — it is redacted\n";
        let r = read(answer, None, &asked());
        assert_eq!(
            r.said["F1"],
            (Reply::Lower(Severity::P2), "only admins reach it".into())
        );
        assert_eq!(r.said["F4"].0, Reply::Hold);
        assert_eq!(r.said["F2"].0, Reply::Withdraw);
        let structured = serde_json::json!({"summary": "F3: withdrawn, capped by the caller"});
        let r = read("", Some(&structured), &asked());
        assert_eq!(r.said["F3"].0, Reply::Withdraw);
    }

    #[test]
    fn the_section_is_cut_out_for_the_finding_reader() {
        let answer = "## P1 - Must Fix\n- New: overflow — lib.rs:9\n\n## Disputed findings\n\
            - F1: hold — lib.rs:2\n```rust\n# not a heading\n```\n\n## P3 - Nice to Have\n\
            - naming\n## Disputes\n- F2: withdraw\n```json\n{\"verdict\": \"revise\"}\n```\n";
        let cut = without_section(answer);
        assert!(!cut.contains("F1: hold") && !cut.contains("F2"), "{cut}");
        assert!(!cut.contains("not a heading"), "{cut}");
        assert!(cut.contains("overflow") && cut.contains("naming"), "{cut}");
        assert!(cut.contains("\"verdict\""), "{cut}");
    }
}
