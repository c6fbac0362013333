//! `debate-log.jsonl`, the record of a panel: one JSON object per line with `seq` (dense,
//! from 0), `timestamp`, `phase`, `speaker`, `type`, `content` and, when they apply, `sources`,
//! `rebuttal_to_seq` and `target_seq` (omitted when empty, so the file matches the established
//! panel-log format).
//!
//! Also here: how a debater's answer says what kind of entry it is (`new_point`, `rebuttal` with
//! the seq it answers, `conjecture`) and whether it brings in a new analytical framework.

use crate::debate::citations::Citation;
pub use crate::store::debate::{Entry, Source};
use crate::store::{self, Session};
use anyhow::Result;

/// What a debater may log in a round.
pub const ROUND_TYPES: &[&str] = &["new_point", "rebuttal", "conjecture"];

/// The log in memory and on disk: every push is appended to the session's file at once, so an
/// interrupted panel can be resumed from it.
pub struct Log<'a> {
    pub session: &'a Session,
    pub entries: Vec<Entry>,
}

/// What a new entry says besides its text.
#[derive(Debug, Default, Clone)]
pub struct Extra {
    pub sources: Option<Vec<Citation>>,
    pub rebuttal_to: Option<u32>,
    pub target: Option<u32>,
}

impl Log<'_> {
    pub fn push(&mut self, phase: &str, speaker: &str, kind: &str, content: &str) -> Result<u32> {
        self.push_with(phase, speaker, kind, content, Extra::default())
    }

    pub fn push_with(
        &mut self,
        phase: &str,
        speaker: &str,
        kind: &str,
        content: &str,
        extra: Extra,
    ) -> Result<u32> {
        let e = Entry {
            seq: self.entries.len() as u32,
            timestamp: store::rfc3339(store::now_utc()),
            phase: phase.into(),
            speaker: speaker.into(),
            kind: kind.into(),
            content: content.into(),
            sources: extra
                .sources
                .map(|v| v.into_iter().map(Source::from).collect()),
            rebuttal_to_seq: extra.rebuttal_to,
            target_seq: extra.target,
        };
        self.session.append_to_log(&e)?;
        let seq = e.seq;
        self.entries.push(e);
        Ok(seq)
    }

    /// Whether `speaker` logged an entry of one of `kinds` at or after `after`.
    pub fn did(&self, speaker: &str, kinds: &[&str], after: u32) -> bool {
        self.entries
            .iter()
            .any(|e| e.speaker == speaker && kinds.contains(&e.kind.as_str()) && e.seq >= after)
    }

    /// The chair's announcement that starts with `prefix`, if logged.
    pub fn announced(&self, prefix: &str) -> Option<&Entry> {
        self.entries
            .iter()
            .find(|e| e.speaker == "chair" && e.content.starts_with(prefix))
    }

    /// The seqs of the round-start announcements, in order.
    pub fn round_starts(&self) -> Vec<u32> {
        self.entries
            .iter()
            .filter(|e| e.kind == "announcement" && e.phase == "rebuttal")
            .map(|e| e.seq)
            .collect()
    }
}

/// The notice that stands for entry `seq` once a redaction has struck it from the record: its
/// words are never passed on after that, only the fact and the ruling's seq.
pub fn struck(log: &[Entry], seq: u32) -> Option<String> {
    log.iter()
        .find(|r| r.kind == "redaction" && r.target_seq == Some(seq))
        .map(|r| {
            format!(
                "[STRUCK FROM THE RECORD by the chair's redaction at seq {}: a cited source does \
                 not exist. Its content is not shown and may not be relied on.]",
                r.seq
            )
        })
}

/// A debater's turn read from its answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Turn {
    /// `new_point`, `rebuttal` or `conjecture` (in rounds).
    pub kind: String,
    pub rebuttal_to: Option<u32>,
    /// A new analytical framework it introduces, if it says so.
    pub framework: Option<String>,
    /// The text without the header lines.
    pub content: String,
}

/// Reads the header lines a round answer starts with (`TYPE: rebuttal to [seq 4]`,
/// `FRAMEWORK: ...`). Without a `TYPE` line an answer that cites `[seq N]` of `others` is a
/// rebuttal of the first one, otherwise a new point. A conjecture's content starts with
/// `[CONJECTURE]`, so it is never read as a claim with evidence.
pub fn read_turn(text: &str, others: &[u32]) -> Turn {
    let mut kind: Option<String> = None;
    let mut rebuttal_to = None;
    let mut framework = None;
    let mut body = Vec::new();
    for line in text.lines() {
        let t = line.trim();
        let upper = t.to_ascii_uppercase();
        if body.is_empty() && upper.starts_with("TYPE:") {
            let v = t[5..].trim().to_ascii_lowercase();
            let k = ROUND_TYPES
                .iter()
                .find(|k| v.starts_with(*k) || v.starts_with(&k.replace('_', " ")));
            kind = k.map(|k| k.to_string());
            rebuttal_to = first_seq(&v);
        } else if body.is_empty() && upper.starts_with("FRAMEWORK:") {
            let v = t[10..].trim();
            if !v.is_empty() && !v.eq_ignore_ascii_case("none") {
                framework = Some(v.to_string());
            }
        } else if !(body.is_empty() && t.is_empty()) {
            body.push(line);
        }
    }
    let mut content = body.join("\n").trim().to_string();
    if kind.is_none() && content.starts_with("[CONJECTURE]") {
        kind = Some("conjecture".into());
    }
    let kind = match kind {
        Some(k) => k,
        None => {
            rebuttal_to = seqs(&content).into_iter().find(|s| others.contains(s));
            if rebuttal_to.is_some() {
                "rebuttal".into()
            } else {
                "new_point".into()
            }
        }
    };
    if kind == "rebuttal" && rebuttal_to.is_none_or(|s| !others.contains(&s)) {
        rebuttal_to = seqs(&content).into_iter().find(|s| others.contains(s));
    }
    if kind != "rebuttal" {
        rebuttal_to = None;
    }
    if kind == "conjecture" && !content.starts_with("[CONJECTURE]") {
        content = format!("[CONJECTURE] {content}");
    }
    Turn {
        kind,
        rebuttal_to,
        framework,
        content,
    }
}

/// Every `seq N` / `[seq N]` reference, in order.
fn seqs(text: &str) -> Vec<u32> {
    let lower = text.to_ascii_lowercase();
    lower
        .match_indices("seq")
        .filter_map(|(i, _)| {
            let rest = lower[i + 3..].trim_start_matches([' ', '#']);
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        })
        .collect()
}

fn first_seq(text: &str) -> Option<u32> {
    seqs(text).into_iter().next()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turn_headers() {
        let t = read_turn(
            "TYPE: rebuttal to [seq 4]\nFRAMEWORK: none\n\nNo: see `x`.",
            &[4, 5],
        );
        assert_eq!(
            (
                t.kind.as_str(),
                t.rebuttal_to,
                t.framework,
                t.content.as_str()
            ),
            ("rebuttal", Some(4), None, "No: see `x`.")
        );
        let t = read_turn(
            "TYPE: conjecture\nFRAMEWORK: Jevons paradox — cheaper use, more use\nIt may grow.",
            &[],
        );
        assert_eq!(t.kind, "conjecture");
        assert_eq!(t.content, "[CONJECTURE] It may grow.");
        assert_eq!(
            t.framework.as_deref(),
            Some("Jevons paradox — cheaper use, more use")
        );
        let t = read_turn("As [seq 9] said, and [seq 2] is wrong", &[2]);
        assert_eq!((t.kind.as_str(), t.rebuttal_to), ("rebuttal", Some(2)));
        let t = read_turn("A fresh idea.", &[2]);
        assert_eq!((t.kind.as_str(), t.rebuttal_to), ("new_point", None));
        // A rebuttal of its own entry (or of nothing) names the first other entry it cites.
        let t = read_turn("TYPE: rebuttal to seq 7\nsee seq 3", &[3]);
        assert_eq!(t.rebuttal_to, Some(3));
    }
}
