//! What `git debate show` prints of a stored session: the session as stored (JSON), its
//! metadata lines, and one round's record, critique and judgement. Rendered from the store's
//! records only, like every other output.

use anyhow::Result;
use serde::Serialize;

use crate::store;
use crate::store::metadata::Metadata;
use crate::store::round::Round;
use crate::store::sorted_json;
use crate::store::summary::OfKind;

/// The session as text (its metadata, then its summary or artifact) or as JSON (as stored, every
/// object's keys sorted, as it has always been printed).
pub fn session(s: &store::Stored, json: bool) -> Result<String> {
    let c = s.contents();
    let mut out = String::new();
    if json {
        let v = Shown {
            id: &s.id,
            path: &s.dir,
            metadata: s.metadata.as_ref().ok(),
            metadata_error: s.metadata.as_ref().err(),
            artifact: c.artifact.as_ref().ok(),
            artifact_error: c.artifact.as_ref().err(),
            summary: c.summary.as_ref(),
        };
        out.push_str(&String::from_utf8_lossy(&sorted_json(&v)?));
        return Ok(out);
    }
    out.push_str(&format!("# Session {}\n\n", s.id));
    match &s.metadata {
        Ok(m) => out.push_str(&metadata_lines(m, &s.dir)),
        Err(e) => out.push_str(&format!("metadata: {e}\n")),
    }
    // A review shows its summary; a dry run its artifact.
    match (&c.summary_md, &c.artifact) {
        (Some(summary), _) => out.push_str(&format!("\n{summary}")),
        (None, Ok(text)) => out.push_str(&format!("\n{text}")),
        (None, Err(e)) => out.push_str(&format!("\nartifact: {e}\n")),
    }
    Ok(out)
}

/// Round `n` of a session, as text or JSON; `None` when the session has no such round.
pub fn round(s: &store::Stored, n: u32, json: bool) -> Result<Option<String>> {
    let r = s.round(n);
    if r.record.is_none() && r.critique.is_none() {
        return Ok(None);
    }
    let mut out = String::new();
    if json {
        let v = ShownRound {
            id: &s.id,
            round: n,
            record: r.record.as_ref(),
            input: r.input.as_ref(),
            critique: r.critique.as_ref(),
            judge: r.judge.as_ref(),
        };
        out.push_str(&String::from_utf8_lossy(&sorted_json(&v)?));
        return Ok(Some(out));
    }
    out.push_str(&format!("# Session {}, round {n}\n\n", s.id));
    if let Some(r) = &r.record {
        out.push_str(&format!(
            "choice: {} ({}); rubric: {} ({})\n",
            r.choice, r.decided_by, r.rubric, r.rubric_reason
        ));
        if !r.choice_from.is_empty() {
            out.push_str(&format!(
                "judge: {}; the final letter is the {}'s: {}\n",
                r.judge_choice.map_or("none".to_string(), String::from),
                r.choice_from,
                r.choice_reason
            ));
        }
    }
    for (title, text) in [("Critique", &r.critique), ("Judge", &r.judge)] {
        if let Some(t) = text {
            out.push_str(&format!("\n## {title}\n\n{}\n", t.trim_end()));
        }
    }
    Ok(Some(out))
}

/// `show --format json`: the session as stored (every object's keys sorted, as it has always
/// been printed).
#[derive(Serialize)]
struct Shown<'a> {
    id: &'a str,
    path: &'a std::path::Path,
    metadata: Option<&'a Metadata>,
    metadata_error: Option<&'a String>,
    artifact: Option<&'a String>,
    artifact_error: Option<&'a String>,
    summary: Option<&'a OfKind>,
}

/// `show ID --round N --format json`.
#[derive(Serialize)]
struct ShownRound<'a> {
    id: &'a str,
    round: u32,
    record: Option<&'a Round>,
    input: Option<&'a String>,
    critique: Option<&'a String>,
    judge: Option<&'a String>,
}

/// The metadata as `show` prints it: status, creation, target, what was reviewed, redactions.
fn metadata_lines(m: &Metadata, dir: &std::path::Path) -> String {
    let c = m.common();
    let or_unknown = |v: Option<&str>| v.unwrap_or("?").to_string();
    let mut out = format!(
        "status: {}\ncreated_at: {}\ntarget: {}\n",
        or_unknown(Some(c.status.as_str()).filter(|s| !s.is_empty())),
        or_unknown(c.created_at.as_deref()),
        or_unknown(c.target.as_deref())
    );
    let review = match m {
        Metadata::Review(r) => Some(r),
        _ => None,
    };
    if let Some(desc) = review
        .and_then(|r| r.scope.resolved.as_ref())
        .map(|r| r.description.as_str())
    {
        out.push_str(&format!("scope: {desc}\n"));
    }
    // A debate records no redaction count of its own (its topic was redacted when given).
    let count = review.map_or("null".to_string(), |r| r.redactions.count.to_string());
    out.push_str(&format!("redactions: {count}\n"));
    out.push_str(&format!("path: {}\n", dir.display()));
    out
}
