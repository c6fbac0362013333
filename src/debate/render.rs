//! A finished duel on paper: the transcript, the summary in the duel's synthesis format (every
//! field of it, with tool and model per side and a Rigor line that says what was really checked),
//! and the `last-debate.json` state record.

use serde_json::Value;

use crate::debate::{citations, title, DebateOutcome, Exchange};
use crate::store;
use crate::store::debate::{LastDebate, LastExchange, LastVerdict, Tool};

/// The debate as markdown, with each turn's checked citations.
pub fn transcript(topic: &str, ex: &[Exchange], notes: &[String]) -> String {
    let mut s = format!("# Debate: {topic}\n");
    for e in ex {
        s.push_str(&format!(
            "\n## Round {} - {} ({}{})\n\n{}\n",
            e.round,
            title(&e.role),
            e.tool,
            e.model
                .as_deref()
                .map(|m| format!(", {m}"))
                .unwrap_or_default(),
            e.response.trim()
        ));
        let b = citations::block(&e.citations);
        if !b.is_empty() {
            s.push_str(&format!("\n{b}"));
        }
    }
    for n in notes {
        s.push_str(&format!("\n{n}\n"));
    }
    s
}

/// The duel's quality dimensions, as the judge's JSON names them and as the summary shows
/// them.
const QUALITY: &[(&str, &str)] = &[
    ("genuine_disagreement", "Genuine disagreement"),
    ("evidence_quality", "Evidence quality"),
    ("challenge_depth", "Challenge depth"),
];

/// The summary in markdown (`summary.md`, and the text report), in the duel's synthesis layout.
pub fn summary_markdown(id: &str, topic: &str, o: &DebateOutcome, rounds: u32) -> String {
    let all: Vec<&citations::Citation> = o
        .exchanges
        .iter()
        .flat_map(|e| e.citations.iter())
        .collect();
    let count = |st: citations::Status| all.iter().filter(|c| c.status == st).count();
    let (verified, missing, unreliable, unverifiable) = (
        count(citations::Status::Verified),
        count(citations::Status::NotFound),
        count(citations::Status::Unreliable),
        count(citations::Status::Unverifiable),
    );
    let mut s = format!("## Debate Summary\n\n**Topic**: {topic}\n");
    s.push_str(&format!("**Proposer**: {}\n", o.proposer.label()));
    s.push_str(&format!("**Challenger**: {}\n", o.challenger.label()));
    s.push_str(&format!(
        "**Judge**: {}{}\n",
        o.judge.label(),
        o.judge
            .why
            .as_deref()
            .map(|w| format!(" — {w}"))
            .unwrap_or_default()
    ));
    s.push_str(&format!(
        "**Rounds**: {} of {rounds} · Status: {}\n",
        o.rounds_completed, o.status
    ));
    s.push_str(&format!(
        "**Rigor**: Structured perspective comparison (prompt-enforced adversarial rules; \
         repository citations checked by the tool against {}: {verified} verified, {missing} not \
         found, {unreliable} unreliable, {unverifiable} unverifiable)\n",
        if o.checked_at.is_empty() {
            "HEAD"
        } else {
            &o.checked_at
        }
    ));
    s.push_str(&format!("Session: {id}\n"));
    for n in &o.notes {
        s.push_str(&format!("\n{n}\n"));
    }
    if o.status == "uncontested" {
        if let Some(e) = o.exchanges.iter().find(|e| e.role == "proposer") {
            s.push_str(&format!(
                "\n### Proposer's uncontested position ({})\n\n{}\n",
                e.tool,
                e.response.trim()
            ));
        }
        s.push_str(
            "\n### Verdict\nNone: the challenger never answered, so nothing was contested.\n",
        );
    }
    if let Some(v) = &o.verdict {
        s.push_str(&verdict_markdown(o, v));
    }
    s.push_str(&format!(
        "\n### Evidence\n- citations: {verified} verified, {missing} not found, {unreliable} \
         unreliable, {unverifiable} unverifiable\n"
    ));
    for c in all.iter().filter(|c| {
        matches!(
            c.status,
            citations::Status::NotFound | citations::Status::Unreliable
        )
    }) {
        s.push_str(&format!(
            "- {}: `{}` {}\n",
            c.status.mark().to_ascii_lowercase(),
            c.cited,
            c.detail
        ));
    }
    s
}

/// The verdict's sections of the summary: the winner and why, the debate's quality, agreements,
/// disagreements, unresolved questions and the recommendation.
fn verdict_markdown(o: &DebateOutcome, v: &crate::debate::Verdict) -> String {
    let mut s = String::new();
    let tool_of = |role: &str| {
        if role == "proposer" {
            &o.proposer.tool
        } else {
            &o.challenger.tool
        }
    };
    s.push_str("\n### Verdict\n");
    match &v.winner {
        Some(w) => s.push_str(&format!(
            "**Winner**: {w} ({})\n\n{} had the stronger argument because: {}\n",
            tool_of(w),
            tool_of(w),
            v.reasoning
        )),
        None => s.push_str(&format!(
            "**Winner**: undecided — the judge named no side{}\n\n{}\n",
            if v.asked > 1 {
                ", even when asked again"
            } else {
                ""
            },
            v.reasoning
        )),
    }
    s.push_str("\n### Debate Quality\n");
    for (key, label) in QUALITY {
        let rating = v
            .quality
            .get(key)
            .and_then(Value::as_str)
            .unwrap_or("not rated");
        s.push_str(&format!("- **{label}**: {rating}\n"));
    }
    for (title, items) in [
        ("Key Agreements", &v.agreements),
        ("Key Disagreements", &v.disagreements),
        ("Unresolved Questions", &v.unresolved),
    ] {
        s.push_str(&format!("\n### {title}\n"));
        if items.is_empty() {
            s.push_str("- none\n");
        }
        for i in items {
            s.push_str(&format!("- {i}\n"));
        }
    }
    let rec = if v.recommendation.is_empty() {
        "none given"
    } else {
        &v.recommendation
    };
    s.push_str(&format!("\n### Recommendation\n{rec}\n"));
    s
}

/// The duel's state record, kept as `last-debate.json` in the store. `winner` is the winning
/// tool, not the role; `winner_role` says which side that was.
pub fn state_record(
    id: &str,
    topic: &str,
    o: &DebateOutcome,
    rounds: u32,
    effort: Option<&str>,
) -> LastDebate {
    let winner_tool = o
        .verdict
        .as_ref()
        .and_then(|v| v.winner.as_deref())
        .map(|w| {
            if w == "proposer" {
                o.proposer.tool.clone()
            } else {
                o.challenger.tool.clone()
            }
        });
    let tool = |s: &crate::debate::Seat| Tool {
        tool: s.tool.clone(),
        model: s.model.clone(),
    };
    LastDebate {
        id: id.to_string(),
        topic: topic.to_string(),
        proposer: tool(&o.proposer),
        challenger: tool(&o.challenger),
        judge: tool(&o.judge),
        effort: effort.map(String::from),
        rounds_completed: o.rounds_completed,
        max_rounds: rounds,
        status: o.status.clone(),
        exchanges: o
            .exchanges
            .iter()
            .map(|e| LastExchange {
                round: e.round,
                role: e.role.clone(),
                tool: e.tool.clone(),
                response: e.response.clone(),
                duration_ms: e.duration_ms,
            })
            .collect(),
        verdict: o.verdict.as_ref().map(|v| LastVerdict {
            winner: winner_tool,
            winner_role: v.winner.clone(),
            reasoning: v.reasoning.clone(),
            agreements: v.agreements.clone(),
            disagreements: v.disagreements.clone(),
            recommendation: v.recommendation.clone(),
        }),
        timestamp: store::rfc3339(store::now_utc()),
    }
}
