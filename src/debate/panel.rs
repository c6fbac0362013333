//! The chaired panel (seed 002): two or more debaters with personas argue a topic through
//! openings, rebuttal rounds, audience questions and closings; the chair (the author model)
//! moderates and declares `<name>_wins`, `draw` or `void`.
//!
//! The seed's verifier never logged a result in its one recorded run; here verification is done
//! by the tool after every entry, for every cited source (repository citations checked at HEAD,
//! URLs marked unverifiable offline), and a citation that does not exist is redacted by a chair
//! ruling. Every entry goes to `debate-log.jsonl` with the seed's fields.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Result;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::citations::{self, Checker, Status};
use crate::backend::{signals, Backend, Request};
use crate::config::Settings;
use crate::protocol::read::json::json_blocks;
use crate::session::{self, Session};

/// An entry not verified yet: its seq and its text. It is verified beside the next speaker's
/// turn (see [`crate::schedule::beside`]), or at the end of its phase.
type Pending = (u32, String);

/// One panellist.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Debater {
    /// A slug: letters, digits and hyphens; the `speaker` in the log.
    pub name: String,
    pub backend: String,
    #[serde(default)]
    pub persona: String,
    #[serde(default)]
    pub position: String,
    #[serde(default)]
    pub incentives: String,
}

/// One line of `debate-log.jsonl`.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Entry {
    pub seq: u32,
    pub timestamp: String,
    /// `system`, `opening`, `rebuttal` or `closing`.
    pub phase: String,
    pub speaker: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub content: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sources: Option<Vec<citations::Citation>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_seq: Option<u32>,
}

pub struct Panel<'a> {
    pub session: &'a Session,
    pub settings: &'a Settings,
    pub topic: String,
    pub debaters: Vec<(Debater, Box<dyn Backend>)>,
    pub chair: Box<dyn Backend>,
    pub min_rounds: u32,
    pub max_rounds: u32,
    pub workspace: PathBuf,
    pub context: Option<String>,
    pub checker: Checker,
    /// The log of an interrupted panel: finished steps are skipped.
    pub resume: Vec<Entry>,
}

#[derive(Debug, Clone, Serialize)]
pub struct PanelOutcome {
    pub status: String,
    /// `<name>_wins`, `draw` or `void`.
    pub outcome: String,
    pub reason: String,
    pub rounds: u32,
    pub entries: Vec<Entry>,
    pub redactions: u32,
    pub notes: Vec<String>,
}

impl Panel<'_> {
    pub fn run(mut self) -> Result<PanelOutcome> {
        let started = Instant::now();
        signals::graceful();
        let mut log: Vec<Entry> = std::mem::take(&mut self.resume);
        let resumed = !log.is_empty();
        let mut notes = Vec::new();
        let mut pending: Vec<Pending> = Vec::new();
        let did = |log: &[Entry], speaker: &str, kind: &str, after: u32| {
            log.iter()
                .any(|e| e.speaker == speaker && e.kind == kind && e.seq >= after)
        };
        let announcements = |log: &[Entry]| -> Vec<u32> {
            log.iter()
                .filter(|e| e.kind == "announcement" && e.phase == "rebuttal")
                .map(|e| e.seq)
                .collect()
        };
        let started_rounds = announcements(&log).len() as u32;
        let lineup: Vec<String> = self
            .debaters
            .iter()
            .map(|(d, b)| {
                format!(
                    "{} ({}): {}; position: {}",
                    d.name,
                    b.name(),
                    d.persona,
                    d.position
                )
            })
            .collect();
        if !resumed {
            self.push(
                &mut log,
                "system",
                "chair",
                "setup",
                &format!("Topic: {}\nLineup:\n{}", self.topic, lineup.join("\n")),
                None,
            )?;
        }

        // Openings, in lineup order.
        for (d, b) in &self.debaters {
            if did(&log, &d.name, "opening_statement", 0) {
                continue;
            }
            let cue = self.cue(d, "opening", &log, "Give your opening statement.", started);
            if !self.speak(
                &mut log,
                d,
                b.as_ref(),
                "opening",
                "opening_statement",
                &cue,
                started,
                &mut notes,
                &mut pending,
            )? {
                break;
            }
        }
        // Rebuttal rounds.
        let mut rounds = started_rounds;
        let mut questions: Vec<(String, String)> = Vec::new();
        let closing_started = log.iter().any(|e| {
            e.kind == "announcement" && e.content.starts_with("Unresolved before closings")
        });
        for r in 1..=self.max_rounds {
            if signals::interrupted() || self.spoken(&log) == 0 || closing_started {
                break;
            }
            rounds = r;
            if r < started_rounds {
                continue;
            }
            let round_start = if r == started_rounds {
                // Resuming inside this round: the questions asked for it, and who already spoke.
                let marks = announcements(&log);
                let from = (r as usize)
                    .checked_sub(2)
                    .and_then(|i| marks.get(i).copied())
                    .unwrap_or(0);
                let to = marks[r as usize - 1];
                questions = log
                    .iter()
                    .filter(|e| e.kind == "audience_question" && e.seq > from && e.seq < to)
                    .filter_map(|e| {
                        let (to, q) = e.content.strip_prefix("Q: ")?.split_once(": ")?;
                        Some((to.to_string(), q.to_string()))
                    })
                    .collect();
                to
            } else {
                self.push(
                    &mut log,
                    "rebuttal",
                    "chair",
                    "announcement",
                    &format!("Round {r} of {} beginning.", self.max_rounds),
                    None,
                )?
            };
            for (d, b) in &self.debaters {
                if did(&log, &d.name, "rebuttal", round_start) {
                    continue;
                }
                let asked: Vec<&str> = questions
                    .iter()
                    .filter(|(to, _)| *to == d.name)
                    .map(|(_, q)| q.as_str())
                    .collect();
                let mut ask = "Respond to the strongest points against your position so far (rebuttal), or make a new point. Refer to entries by [seq N].".to_string();
                for q in asked {
                    ask.push_str(&format!("\nAn audience question for you: {q}"));
                }
                let cue = self.cue(d, "rebuttal", &log, &ask, started);
                self.speak(
                    &mut log,
                    d,
                    b.as_ref(),
                    "rebuttal",
                    "rebuttal",
                    &cue,
                    started,
                    &mut notes,
                    &mut pending,
                )?;
            }
            self.drain(&mut log, &mut pending)?;
            // The audience (relayed by the chair) and the finish test.
            let (qs, go_on) = self.audience(&log, started);
            questions = qs;
            for (to, q) in &questions {
                self.push(
                    &mut log,
                    "rebuttal",
                    "audience",
                    "audience_question",
                    &format!("Q: {to}: {q}"),
                    None,
                )?;
            }
            let over_budget =
                started.elapsed() >= Duration::from_secs(self.settings.budget_minutes * 60);
            if r >= self.min_rounds && (!go_on || over_budget) {
                break;
            }
        }
        self.drain(&mut log, &mut pending)?;
        // Unresolved points, then closings in reverse order.
        if self.spoken(&log) > 0 && !signals::interrupted() {
            let earlier = log.iter().find_map(|e| {
                (e.kind == "announcement")
                    .then(|| e.content.strip_prefix("Unresolved before closings:\n"))
                    .flatten()
                    .map(str::to_string)
            });
            let points = match earlier {
                Some(p) => p,
                None => {
                    let points = self
                        .chair_text(
                            &format!("{}\n\nList 1 to 3 unresolved points of this debate, one per line, with [seq N] references. No preamble.", self.digest(&log)),
                            started,
                        )
                        .unwrap_or_else(|| "The points still disputed in the rebuttals.".into());
                    self.push(
                        &mut log,
                        "system",
                        "chair",
                        "announcement",
                        &format!("Unresolved before closings:\n{points}"),
                        None,
                    )?;
                    points
                }
            };
            for (d, b) in self.debaters.iter().rev() {
                if did(&log, &d.name, "closing_statement", 0) {
                    continue;
                }
                let cue = self.cue(d, "closing", &log, &format!("Give your closing statement. No new claims or statistics. Address these unresolved points:\n{points}"), started);
                self.speak(
                    &mut log,
                    d,
                    b.as_ref(),
                    "closing",
                    "closing_statement",
                    &cue,
                    started,
                    &mut notes,
                    &mut pending,
                )?;
            }
        }
        self.drain(&mut log, &mut pending)?;
        // Conclusion.
        let redactions = log.iter().filter(|e| e.kind == "redaction").count() as u32;
        let (outcome, reason) = if signals::interrupted() {
            ("void".to_string(), "interrupted".to_string())
        } else if self.spoken(&log) == 0 {
            ("void".to_string(), "no debater spoke".to_string())
        } else {
            self.conclude(&log, redactions, started)
        };
        self.push(
            &mut log,
            "system",
            "chair",
            "conclusion",
            &format!("Outcome: {outcome}. Reason: {reason}"),
            None,
        )?;
        if !signals::interrupted() {
            let assessment = self
                .chair_text(
                    &format!("{}\n\nAssess how this debate was run. Give an overall rating (Excellent, Good, Adequate or Poor) with justification; for the chair and each debater: strengths, gaps, suggestions; then 3 to 5 improvements to how the debate was executed. Markdown.", self.digest(&log)),
                    started,
                )
                .unwrap_or_else(|| "The assessment could not be written (the chair did not answer).".into());
            self.session.write(
                "assessor-report.md",
                format!("# Assessor report\n\n{assessment}\n").as_bytes(),
            )?;
        }
        Ok(PanelOutcome {
            status: if signals::interrupted() {
                "interrupted".into()
            } else if self.spoken(&log) == 0 {
                "aborted".into()
            } else {
                "completed".into()
            },
            outcome,
            reason,
            rounds,
            entries: log,
            redactions,
            notes,
        })
    }

    /// How many debater entries there are.
    fn spoken(&self, log: &[Entry]) -> usize {
        log.iter()
            .filter(|e| self.debaters.iter().any(|(d, _)| d.name == e.speaker))
            .count()
    }

    fn request<'p>(&self, prompt: &'p str, started: Instant) -> Request<'p> {
        super::request(self.settings, &self.workspace, prompt, started)
    }

    fn push(
        &self,
        log: &mut Vec<Entry>,
        phase: &str,
        speaker: &str,
        kind: &str,
        content: &str,
        target: Option<u32>,
    ) -> Result<u32> {
        self.push_entry(log, phase, speaker, kind, content, None, target)
    }

    #[allow(clippy::too_many_arguments)]
    fn push_entry(
        &self,
        log: &mut Vec<Entry>,
        phase: &str,
        speaker: &str,
        kind: &str,
        content: &str,
        sources: Option<Vec<citations::Citation>>,
        target: Option<u32>,
    ) -> Result<u32> {
        let e = Entry {
            seq: log.len() as u32,
            timestamp: session::rfc3339(session::now_utc()),
            phase: phase.into(),
            speaker: speaker.into(),
            kind: kind.into(),
            content: content.into(),
            sources,
            target_seq: target,
        };
        self.session.append_json_line("debate-log.jsonl", &e)?;
        let seq = e.seq;
        log.push(e);
        Ok(seq)
    }

    /// A debater's cue: persona, the topic, what was said (earlier rounds in brief, this phase in
    /// full), the verifier's flags on its own entries, and the task.
    fn cue(
        &self,
        d: &Debater,
        phase: &str,
        log: &[Entry],
        task: &str,
        _started: Instant,
    ) -> String {
        let mut s = format!(
            "You are {}, a debater on a panel. Persona: {}. Starting position: {}. Incentives: {}.\n\
             Topic: {}\n\nRules: back every factual claim with evidence you can cite (a path or \
             `path:line` in this repository, a code pattern in backticks, a URL); the tool checks \
             every citation and a citation that does not exist is redacted and counts against you. \
             Concede facts when wrong. Do not modify any file.\n",
            d.name, d.persona, d.position, d.incentives, self.topic
        );
        if let Some(c) = &self.context {
            s.push('\n');
            s.push_str(&crate::protocol::fence::wrap("SHARED CONTEXT", c));
        }
        // The log holds every debater's words: data for this debater, fenced like any material.
        let mut so_far = String::new();
        let current_phase_start = log
            .iter()
            .rposition(|e| e.kind == "announcement" && e.phase == phase)
            .unwrap_or(0);
        for e in log.iter().filter(|e| e.kind != "verification_result") {
            let full = e.seq as usize >= current_phase_start || e.kind == "opening_statement";
            let body = if full {
                e.content.clone()
            } else {
                e.content.chars().take(300).collect::<String>() + " …"
            };
            so_far.push_str(&format!(
                "[seq {}] {} | {} | {}\n{}\n\n",
                e.seq,
                e.phase,
                e.speaker,
                e.kind,
                body.trim()
            ));
        }
        // The chair's redactions of this debater's entries.
        let mine: Vec<u32> = log
            .iter()
            .filter(|e| e.speaker == d.name)
            .map(|e| e.seq)
            .collect();
        let flags: Vec<String> = log
            .iter()
            .filter(|e| e.kind == "redaction" && e.target_seq.is_some_and(|t| mine.contains(&t)))
            .map(|e| e.content.clone())
            .collect();
        if !flags.is_empty() {
            so_far.push_str(&format!(
                "Verifier flags on your entries:\n{}\n",
                flags.join("\n")
            ));
        }
        s.push('\n');
        s.push_str(&crate::protocol::fence::wrap("THE DEBATE SO FAR", &so_far));
        s.push_str(&format!("\nYour task: {task}\n"));
        s
    }

    /// One debater turn, verified and logged. `false` when the debater failed (noted).
    #[allow(clippy::too_many_arguments)]
    fn speak(
        &self,
        log: &mut Vec<Entry>,
        d: &Debater,
        b: &dyn Backend,
        phase: &str,
        kind: &str,
        cue: &str,
        started: Instant,
        notes: &mut Vec<String>,
        pending: &mut Vec<Pending>,
    ) -> Result<bool> {
        // Earlier entries are verified while this debater speaks.
        let unchecked = std::mem::take(pending);
        let (result, checked) = crate::schedule::beside(
            self.settings.concurrency,
            || b.ask(&self.request(cue, started)),
            || self.verify(unchecked),
        );
        self.log_checked(log, checked)?;
        match result {
            Ok(a) => {
                let text = a.text.trim().to_string();
                let seq = self.push_entry(
                    log,
                    phase,
                    &d.name,
                    kind,
                    &text,
                    Some(citations::unchecked(&text)),
                    None,
                )?;
                pending.push((seq, text));
                Ok(true)
            }
            Err(e) => {
                notes.push(format!(
                    "[WARN] {} ({}) failed in the {phase}: {e}",
                    d.name,
                    b.name()
                ));
                self.push(
                    log,
                    "system",
                    "chair",
                    "ruling",
                    &format!(
                        "{} did not answer in the {phase} ({})",
                        d.name,
                        e.kind.label()
                    ),
                    None,
                )?;
                Ok(false)
            }
        }
    }

    /// Verifies and logs every entry not verified yet (at the end of a phase).
    fn drain(&self, log: &mut Vec<Entry>, pending: &mut Vec<Pending>) -> Result<()> {
        let checked = self.verify(std::mem::take(pending));
        self.log_checked(log, checked)
    }

    /// Each entry's cited sources, checked.
    fn verify(&self, entries: Vec<Pending>) -> Vec<(u32, Vec<citations::Citation>)> {
        entries
            .into_iter()
            .map(|(seq, text)| (seq, self.checker.check(&text)))
            .collect()
    }

    /// One `verification_result` per cited source, and a chair redaction for each that does not
    /// exist.
    fn log_checked(
        &self,
        log: &mut Vec<Entry>,
        checked: Vec<(u32, Vec<citations::Citation>)>,
    ) -> Result<()> {
        for (seq, sources) in checked {
            for c in &sources {
                let result = json!({"verified_seq": seq, "source": c.cited, "status": c.status, "explanation": c.detail});
                self.push(
                    log,
                    "system",
                    "verifier",
                    "verification_result",
                    &result.to_string(),
                    Some(seq),
                )?;
                if c.status == Status::NotFound {
                    self.push(
                        log,
                        "system",
                        "chair",
                        "redaction",
                        &format!(
                            "[REDACTED — `{}` cited in seq {seq} does not exist: {}]",
                            c.cited, c.detail
                        ),
                        Some(seq),
                    )?;
                }
            }
        }
        Ok(())
    }

    fn chair_text(&self, prompt: &str, started: Instant) -> Option<String> {
        self.chair
            .ask(&self.request(prompt, started))
            .ok()
            .map(|a| a.text.trim().to_string())
    }

    /// The log in short, for the chair's own calls.
    fn digest(&self, log: &[Entry]) -> String {
        let mut s = format!("Topic: {}\n", self.topic);
        for e in log.iter().filter(|e| e.kind != "verification_result") {
            s.push_str(&format!(
                "[seq {}] {} | {} | {}: {}\n",
                e.seq,
                e.phase,
                e.speaker,
                e.kind,
                e.content.chars().take(1500).collect::<String>()
            ));
        }
        s
    }

    /// 0–2 audience questions for named debaters, and whether the debate should go on.
    fn audience(&self, log: &[Entry], started: Instant) -> (Vec<(String, String)>, bool) {
        let names: Vec<&str> = self.debaters.iter().map(|(d, _)| d.name.as_str()).collect();
        let prompt = format!(
            "{}\n\nYou chair this debate and relay the audience. Ask 0 to 2 short clarifying \
             questions to named debaters ({}), and say whether another round would add anything. \
             Answer with ONE fenced json block: {{\"questions\": [{{\"to\": \"name\", \"question\": \"...\"}}], \"continue\": true}}",
            self.digest(log),
            names.join(", ")
        );
        let Some(text) = self.chair_text(&prompt, started) else {
            return (Vec::new(), true);
        };
        let Some(v) = json_blocks(&text)
            .into_iter()
            .rev()
            .find(|v| v.get("questions").is_some() || v.get("continue").is_some())
        else {
            return (Vec::new(), true);
        };
        let qs = v["questions"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|q| {
                        Some((
                            q["to"].as_str()?.to_string(),
                            q["question"].as_str()?.to_string(),
                        ))
                    })
                    .filter(|(to, _)| names.contains(&to.as_str()))
                    .take(2)
                    .collect()
            })
            .unwrap_or_default();
        (qs, v["continue"].as_bool().unwrap_or(true))
    }

    /// The chair's outcome: `<name>_wins`, `draw` or `void`, with the reason.
    fn conclude(&self, log: &[Entry], redactions: u32, started: Instant) -> (String, String) {
        let names: Vec<&str> = self.debaters.iter().map(|(d, _)| d.name.as_str()).collect();
        let prompt =
            format!(
            "{}\n\nRedactions for citations that do not exist: {redactions}. Judge the debate: \
             sourced arguments, rebuttals against all others, verification results (a fabricated \
             citation is a severe penalty), rule adherence, persona consistency. The outcome is \
             one of {} , \"draw\" or \"void\" (cannot be fairly concluded). Answer with ONE fenced \
             json block: {{\"outcome\": \"...\", \"reason\": \"...\"}}",
            self.digest(log),
            names.iter().map(|n| format!("\"{n}_wins\"")).collect::<Vec<_>>().join(", ")
        );
        let Some(text) = self.chair_text(&prompt, started) else {
            return (
                "void".into(),
                "the chair could not conclude (no answer)".into(),
            );
        };
        let v: Value = json_blocks(&text)
            .into_iter()
            .rev()
            .find(|v| v.get("outcome").is_some())
            .unwrap_or(Value::Null);
        let outcome = v["outcome"].as_str().unwrap_or("").trim().to_string();
        let valid = outcome == "draw"
            || outcome == "void"
            || names.iter().any(|n| outcome == format!("{n}_wins"));
        let reason = v["reason"].as_str().unwrap_or(text.trim()).to_string();
        if valid {
            (outcome, reason)
        } else {
            (
                "void".into(),
                format!(
                    "the chair's outcome {outcome:?} is not one of the allowed values; {reason}"
                ),
            )
        }
    }
}

/// `transcript.md`: every entry in seq order, verification results as fact-checks, redactions
/// applied.
pub fn transcript(topic: &str, o: &PanelOutcome) -> String {
    let mut s = format!(
        "# Panel debate: {topic}\n\nOutcome: {} ({}) after {} round(s)\n",
        o.outcome, o.reason, o.rounds
    );
    let redacted: Vec<u32> = o
        .entries
        .iter()
        .filter(|e| e.kind == "redaction")
        .filter_map(|e| e.target_seq)
        .collect();
    for e in &o.entries {
        if e.kind == "verification_result" {
            s.push_str(&format!(
                "\n#### [FACT-CHECK] seq {}: {}\n",
                e.target_seq.unwrap_or(0),
                e.content
            ));
            continue;
        }
        s.push_str(&format!(
            "\n### [seq {}] {} | {} | {}\n_{}_\n\n{}\n",
            e.seq, e.phase, e.speaker, e.kind, e.timestamp, e.content
        ));
        if redacted.contains(&e.seq) {
            s.push_str("\n> Parts of this entry cite sources that do not exist; see the redactions below.\n");
        }
    }
    s
}

/// `summary.md` of a panel.
pub fn summary(id: &str, topic: &str, debaters: &[Debater], o: &PanelOutcome) -> String {
    let mut s = format!("## Panel Debate Summary\n\nSession: {id}\nTopic: {topic}\nStatus: {}\nRounds: {}\n\n### Debaters\n", o.status, o.rounds);
    for d in debaters {
        let entries = o.entries.iter().filter(|e| e.speaker == d.name).count();
        s.push_str(&format!(
            "- {} ({}): {} — position: {} ({entries} entries)\n",
            d.name, d.backend, d.persona, d.position
        ));
    }
    let count = |st: Status| {
        o.entries
            .iter()
            .filter(|e| e.kind == "verification_result")
            .filter(|e| {
                e.content.contains(&format!(
                    "\"status\":\"{}\"",
                    serde_json::to_value(st).unwrap().as_str().unwrap()
                ))
            })
            .count()
    };
    s.push_str(&format!(
        "\n### Verification\n- {} verified, {} not found (redacted), {} unverifiable offline\n",
        count(Status::Verified),
        count(Status::NotFound),
        count(Status::Unverifiable)
    ));
    s.push_str(&format!("\n### Outcome\n- {}\n- {}\n", o.outcome, o.reason));
    for n in &o.notes {
        s.push_str(&format!("\n{n}\n"));
    }
    s
}
