//! Topic debates: a proposer and a challenger of different model families argue a question for a
//! few rounds, and the orchestrating (author) model judges the debate.
//!
//! Seeds 001/003, with two things done better: every repository citation is checked at HEAD and
//! the marks travel with the transcript ([`citations`]), and every failure follows seed 001's
//! error table exactly (proposer fails in round 1: abort; challenger fails in round 1: the
//! proposer's uncontested position with a warning; later: synthesise from the completed rounds).
//! From round 3 the rounds before the last are replaced by the orchestrator's summary, so prompts
//! stay bounded.

pub mod citations;
pub mod panel;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Result;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::backend::{signals, Backend, BackendError, ErrorKind, Request, Usage};
use crate::config::Settings;
use crate::protocol::Template;
use crate::session::{self, Session};
use citations::{Checker, Citation};

/// One turn of the debate, as logged in `debate-log.jsonl`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Exchange {
    pub seq: u32,
    pub round: u32,
    /// `proposer` or `challenger`.
    pub role: String,
    pub tool: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    pub response: String,
    pub citations: Vec<Citation>,
    pub duration_ms: u64,
    pub usage: Usage,
    pub timestamp: String,
}

/// The orchestrator's judgement.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Verdict {
    /// `proposer` or `challenger`; `None` when the judge would not pick (noted).
    pub winner: Option<String>,
    pub reasoning: String,
    pub quality: Value,
    pub agreements: Vec<String>,
    pub disagreements: Vec<String>,
    pub unresolved: Vec<String>,
    pub recommendation: String,
}

/// How a debate ended.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    /// `completed`, `aborted` or `interrupted`.
    pub status: String,
    pub rounds_completed: u32,
    pub exchanges: Vec<Exchange>,
    pub verdict: Option<Verdict>,
    /// The seed's `[WARN]` / `[ERROR]` lines.
    pub notes: Vec<String>,
    pub duration_ms: u64,
}

pub struct Duel<'a> {
    pub session: &'a Session,
    pub settings: &'a Settings,
    pub topic: String,
    pub proposer: Box<dyn Backend>,
    pub challenger: Box<dyn Backend>,
    /// Writes the summaries and the verdict (the author side).
    pub orchestrator: Box<dyn Backend>,
    pub rounds: u32,
    pub workspace: PathBuf,
    /// A change the debate is grounded in (`--scope`), as shared context.
    pub context: Option<String>,
    pub templates: Option<PathBuf>,
    pub checker: Checker,
    /// Turns already taken (a resumed debate goes on from the next one).
    pub resume: Vec<Exchange>,
}

impl Duel<'_> {
    pub fn run(mut self) -> Result<Outcome> {
        let started = Instant::now();
        signals::graceful();
        let mut ex: Vec<Exchange> = std::mem::take(&mut self.resume);
        let done = ex.len();
        let mut notes = Vec::new();
        let mut failures: Vec<BackendError> = Vec::new();
        let mut summary: Option<String> = None;
        let mut aborted = false;
        let context = self
            .context
            .as_deref()
            .map(|c| {
                format!(
                    "\n{}",
                    crate::protocol::fence::wrap("SHARED CONTEXT: the change under discussion", c)
                )
            })
            .unwrap_or_default();
        let mut rounds_completed = 0;
        'rounds: for n in 1..=self.rounds {
            if n >= 3 {
                summary = Some(self.summarize(&ex, n, started));
            }
            for (turn, role) in ["proposer", "challenger"].into_iter().enumerate() {
                if ((n - 1) * 2) as usize + turn < done {
                    continue;
                }
                if signals::interrupted() {
                    break 'rounds;
                }
                let prompt = self.prompt(n, role, &ex, summary.as_deref(), &context)?;
                let backend = if role == "proposer" {
                    &self.proposer
                } else {
                    &self.challenger
                };
                let req = self.request(&prompt, started);
                let t = Instant::now();
                match backend.ask(&req) {
                    Ok(a) => {
                        let entry = Exchange {
                            seq: ex.len() as u32 + 1,
                            round: n,
                            role: role.to_string(),
                            tool: backend.name().to_string(),
                            model: a.model.clone(),
                            citations: self.checker.check(&a.text),
                            response: a.text,
                            duration_ms: t.elapsed().as_millis() as u64,
                            usage: a.usage,
                            timestamp: session::rfc3339(session::now_utc()),
                        };
                        self.log(&entry)?;
                        ex.push(entry);
                    }
                    Err(e) => {
                        if e.kind == ErrorKind::Interrupted || signals::interrupted() {
                            break 'rounds;
                        }
                        // Seed 001's error table.
                        match (n, role) {
                            (1, "proposer") => {
                                notes.push(format!(
                                    "[ERROR] Debate aborted: the proposer failed in round 1: {e}"
                                ));
                                aborted = true;
                            }
                            (1, _) => notes.push(format!(
                                "[WARN] Challenger failed. Showing proposer's uncontested position. ({e})"
                            )),
                            _ => notes.push(format!(
                                "[WARN] Round {n} is incomplete: the {role} failed ({e}); synthesized from the completed rounds"
                            )),
                        }
                        failures.push(e);
                        break 'rounds;
                    }
                }
            }
            rounds_completed = n;
        }
        if ex.is_empty() && !failures.is_empty() {
            notes.push(if failures.iter().all(|f| f.kind == ErrorKind::Timeout) {
                "[ERROR] Debate failed: all tool invocations timed out.".into()
            } else {
                "[ERROR] Debate failed: no successful exchanges were recorded.".into()
            });
        }
        let interrupted = signals::interrupted();
        let verdict = if ex.is_empty() || interrupted {
            None
        } else {
            self.synthesize(&ex, started, &mut notes)
        };
        let status = if interrupted {
            "interrupted"
        } else if aborted || ex.is_empty() {
            "aborted"
        } else {
            "completed"
        };
        Ok(Outcome {
            status: status.into(),
            rounds_completed,
            exchanges: ex,
            verdict,
            notes,
            duration_ms: started.elapsed().as_millis() as u64,
        })
    }

    fn request<'p>(&self, prompt: &'p str, started: Instant) -> Request<'p> {
        request(self.settings, &self.workspace, prompt, started)
    }

    fn log(&self, e: &Exchange) -> Result<()> {
        self.session.append_json_line("debate-log.jsonl", e)
    }

    /// The prompt for `role` in round `n`: the last opposing turn in full with its checked
    /// citations, earlier turns in full (rounds 1-2) or summarised (from round 3).
    fn prompt(
        &self,
        n: u32,
        role: &str,
        ex: &[Exchange],
        summary: Option<&str>,
        context: &str,
    ) -> Result<String> {
        let last = ex.last();
        let (template, history_upto) = match (n, role) {
            (1, "proposer") => (Template::DebateOpening, 0),
            (1, _) => (Template::DebateChallenge, 0),
            (_, "proposer") => (Template::DebateDefense, ex.len().saturating_sub(1)),
            _ => (Template::DebateFollowup, ex.len().saturating_sub(1)),
        };
        let mut history = String::new();
        if history_upto > 0 {
            let from_round = if n >= 3 { n - 1 } else { 1 };
            if let Some(s) = summary.filter(|_| n >= 3) {
                history.push_str(&format!("Summary of rounds 1-{}:\n{s}\n\n", n - 2));
            }
            let earlier: Vec<&Exchange> = ex[..history_upto]
                .iter()
                .filter(|e| e.round >= from_round)
                .collect();
            if !earlier.is_empty() {
                history.push_str("Previous exchanges:\n");
                for e in earlier {
                    history.push_str(&format!(
                        "Round {} - {} ({}):\n{}\n{}\n",
                        e.round,
                        title(&e.role),
                        e.tool,
                        e.response.trim(),
                        citations::block(&e.citations)
                    ));
                }
            }
        }
        if !history.is_empty() {
            history = crate::protocol::fence::wrap("EARLIER ROUNDS", &history);
        }
        let round = n.to_string();
        let previous = (n - 1).to_string();
        let last_text = last
            .map(|e| e.response.trim().to_string())
            .unwrap_or_default();
        let marks = last
            .map(|e| citations::block(&e.citations))
            .unwrap_or_default();
        template.render(
            self.templates.as_deref(),
            &[
                ("topic", self.topic.as_str()),
                ("context", context),
                ("proposer", self.proposer.name()),
                ("round", &round),
                ("previous", &previous),
                ("history", &history),
                ("last", &last_text),
                ("citations", &marks),
            ],
        )
    }

    /// Rounds 1..n-2 summarised by the orchestrator, concessions verbatim; a plain digest when it
    /// cannot.
    fn summarize(&self, ex: &[Exchange], n: u32, started: Instant) -> String {
        let old: String = ex
            .iter()
            .filter(|e| e.round <= n - 2)
            .map(|e| {
                format!(
                    "Round {} - {} ({}):\n{}\n",
                    e.round,
                    title(&e.role),
                    e.tool,
                    e.response.trim()
                )
            })
            .collect();
        let fallback: String = old.chars().take(4000).collect();
        let Ok(prompt) = Template::Summarize.render(self.templates.as_deref(), &[("rounds", &old)])
        else {
            return fallback;
        };
        match self.orchestrator.ask(&self.request(&prompt, started)) {
            Ok(a) => {
                let s: String = a.text.trim().chars().take(4000).collect();
                let _ = self.session.write("context-summary.md", s.as_bytes());
                s
            }
            Err(_) => fallback,
        }
    }

    fn synthesize(
        &self,
        ex: &[Exchange],
        started: Instant,
        notes: &mut Vec<String>,
    ) -> Option<Verdict> {
        let transcript = transcript(&self.topic, ex, &[]);
        let prompt = Template::DebateSynthesis
            .render(
                self.templates.as_deref(),
                &[("topic", self.topic.as_str()), ("transcript", &transcript)],
            )
            .ok()?;
        match self.orchestrator.ask(&self.request(&prompt, started)) {
            Ok(a) => {
                let _ = self.session.write("synthesis.md", a.text.as_bytes());
                let v = parse_verdict(&a.text);
                if v.winner.is_none() {
                    notes.push("[WARN] The judge did not pick a side.".into());
                }
                Some(v)
            }
            Err(e) => {
                notes.push(format!(
                    "[WARN] The synthesis failed ({e}); the transcript stands without a verdict."
                ));
                None
            }
        }
    }
}

/// A debate call: the per-call timeout, never beyond what is left of the debate's budget.
pub fn request<'p>(
    settings: &Settings,
    workspace: &std::path::Path,
    prompt: &'p str,
    started: Instant,
) -> Request<'p> {
    let left = Duration::from_secs(settings.budget_minutes * 60).saturating_sub(started.elapsed());
    Request {
        prompt,
        cwd: Some(workspace.to_path_buf()),
        timeout: Duration::from_secs(settings.backend_timeout_seconds)
            .min(left)
            .max(Duration::from_secs(1)),
        idle_timeout: Duration::from_secs(settings.backend_idle_seconds),
        schema: None,
        sandbox: Default::default(),
    }
}

fn title(role: &str) -> &'static str {
    if role == "proposer" {
        "Proposer"
    } else {
        "Challenger"
    }
}

/// Reads the synthesis: its JSON block, else the markdown as the reasoning.
pub fn parse_verdict(text: &str) -> Verdict {
    let block = crate::protocol::read::json::json_blocks(text)
        .into_iter()
        .rev()
        .find(|v| v.get("winner").is_some() || v.get("reasoning").is_some());
    let Some(v) = block else {
        let lower = text.to_ascii_lowercase();
        let winner = match (
            lower.contains("proposer wins") || lower.contains("winner: proposer"),
            lower.contains("challenger wins") || lower.contains("winner: challenger"),
        ) {
            (true, false) => Some("proposer".to_string()),
            (false, true) => Some("challenger".to_string()),
            _ => None,
        };
        return Verdict {
            winner,
            reasoning: text.trim().to_string(),
            ..Default::default()
        };
    };
    let list = |k: &str| -> Vec<String> {
        v.get(k)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    let text_of = |k: &str| {
        v.get(k)
            .and_then(Value::as_str)
            .unwrap_or("")
            .trim()
            .to_string()
    };
    let winner = text_of("winner").to_ascii_lowercase();
    Verdict {
        winner: ["proposer", "challenger"]
            .iter()
            .find(|w| winner.contains(*w))
            .map(|w| w.to_string()),
        reasoning: text_of("reasoning"),
        quality: v.get("quality").cloned().unwrap_or(Value::Null),
        agreements: list("agreements"),
        disagreements: list("disagreements"),
        unresolved: list("unresolved"),
        recommendation: text_of("recommendation"),
    }
}

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

/// The summary in markdown (`summary.md`, and the text report).
pub fn summary_markdown(id: &str, topic: &str, o: &Outcome, rounds: u32) -> String {
    let mut s = format!("## Debate Summary\n\nSession: {id}\nTopic: {topic}\n");
    let who = |role: &str| {
        o.exchanges
            .iter()
            .find(|e| e.role == role)
            .map(|e| {
                format!(
                    "{}{}",
                    e.tool,
                    e.model
                        .as_deref()
                        .map(|m| format!(" ({m})"))
                        .unwrap_or_default()
                )
            })
            .unwrap_or_else(|| "-".into())
    };
    s.push_str(&format!(
        "Proposer: {} · Challenger: {}\nRounds: {} of {rounds} · Status: {}\n",
        who("proposer"),
        who("challenger"),
        o.rounds_completed,
        o.status
    ));
    for n in &o.notes {
        s.push_str(&format!("\n{n}\n"));
    }
    if let Some(v) = &o.verdict {
        s.push_str(&format!(
            "\n### Verdict\n- Winner: {}\n- {}\n",
            v.winner.as_deref().unwrap_or("no side picked"),
            v.reasoning
        ));
        if let Some(q) = v.quality.as_object() {
            s.push_str("\n### Debate Quality\n");
            for (k, val) in q {
                s.push_str(&format!(
                    "- {}: {}\n",
                    k.replace('_', " "),
                    val.as_str().unwrap_or("-")
                ));
            }
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
        s.push_str(&format!("\n### Recommendation\n{}\n", v.recommendation));
    }
    let all: Vec<&Citation> = o
        .exchanges
        .iter()
        .flat_map(|e| e.citations.iter())
        .collect();
    let count = |st: citations::Status| all.iter().filter(|c| c.status == st).count();
    s.push_str(&format!(
        "\n### Evidence\n- citations: {} verified, {} not found, {} unverifiable\n",
        count(citations::Status::Verified),
        count(citations::Status::NotFound),
        count(citations::Status::Unverifiable)
    ));
    for c in all
        .iter()
        .filter(|c| c.status == citations::Status::NotFound)
    {
        s.push_str(&format!("- not found: `{}` {}\n", c.cited, c.detail));
    }
    s
}

/// The seed's state record, kept as `last-debate.json` in the store.
pub fn state_record(
    id: &str,
    topic: &str,
    o: &Outcome,
    rounds: u32,
    effort: Option<&str>,
    sides: [(&str, Option<&str>); 2],
) -> Value {
    json!({
        "id": id,
        "topic": topic,
        "proposer": {"tool": sides[0].0, "model": sides[0].1},
        "challenger": {"tool": sides[1].0, "model": sides[1].1},
        "effort": effort,
        "rounds_completed": o.rounds_completed,
        "max_rounds": rounds,
        "status": o.status,
        "exchanges": o.exchanges.iter().map(|e| json!({
            "round": e.round, "role": e.role, "tool": e.tool, "response": e.response,
            "duration_ms": e.duration_ms,
        })).collect::<Vec<_>>(),
        "verdict": o.verdict.as_ref().map(|v| json!({
            "winner": v.winner, "reasoning": v.reasoning, "agreements": v.agreements,
            "disagreements": v.disagreements, "recommendation": v.recommendation,
        })),
        "timestamp": session::rfc3339(session::now_utc()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_from_json_or_prose() {
        let v = parse_verdict("Verdict.\n```json\n{\"winner\":\"Challenger\",\"reasoning\":\"better evidence\",\"agreements\":[\"a\"],\"recommendation\":\"keep Redis\"}\n```");
        assert_eq!(v.winner.as_deref(), Some("challenger"));
        assert_eq!(v.agreements, ["a"]);
        let v = parse_verdict("The proposer wins on evidence.");
        assert_eq!(v.winner.as_deref(), Some("proposer"));
        assert!(parse_verdict("Both made fair points.").winner.is_none());
    }
}
