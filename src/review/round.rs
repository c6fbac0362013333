//! One round of the loop: the reviewer's calls (one, two halves, or the chunks), their answers
//! read and merged, ids assigned across rounds, the author's judgement, the rubric, and the
//! author's step for the decision. Nothing of a round that a reviewer or Ctrl-C cut short is
//! recorded, so a resumed session runs it again.

use std::time::Instant;

use anyhow::Result;

use crate::agents::redacting::REDACTED_NOTE;
use crate::answer::judge;
use crate::findings::Finding;
use crate::review::record::{Call, ChunkRecord, Round};
use crate::review::{interrupted, kept, matching, steps, Review, State};
use crate::{agents::BackendError, sys::signals};

impl Review<'_> {
    /// One round. The outer `Result` is an I/O failure; the inner error a reviewer that did not
    /// answer (nothing of the round is kept then).
    pub(super) fn round(
        &self,
        n: u32,
        st: &mut State,
        started: Instant,
    ) -> Result<std::result::Result<(), BackendError>> {
        let round_started = Instant::now();
        let mut context = steps::context(
            n,
            st.summary.as_deref(),
            st.rounds.last(),
            st.rebuttal.as_deref(),
            st.version,
        );
        if let (1, Some(plan)) = (n, &self.incremental) {
            context.push_str(&crate::review::incremental::context(plan));
        }
        let (jobs, input, unfit) = self.jobs(n, st, &context)?;
        self.session
            .write(&format!("round-{n}-input.md"), input.as_bytes())?;
        for u in &unfit {
            if !st.coverage.unfit.contains(u) {
                st.coverage.unfit.push(u.clone());
            }
        }
        let results = self.review_all(n, &jobs, started);
        let mut calls = Vec::new();
        let mut critique_text = String::new();
        let mut findings: Vec<Finding> = Vec::new();
        let mut missing = Vec::new();
        let mut agreement = true;
        let mut notes = Vec::new();
        let mut normaliser_calls = Vec::new();
        let mut first_error = None;
        let mut chunks = Vec::new();
        let mut recommendation = None;
        for (job, (result, ms)) in jobs.iter().zip(&results) {
            let label = job.label(jobs.len());
            calls.push(Call::of(
                "review",
                self.reviewer.name(),
                label.as_deref(),
                &job.prompt,
                result,
                *ms,
            ));
            if let Some((k, files)) = &job.chunk {
                chunks.push(ChunkRecord {
                    chunk: *k,
                    files: files.clone(),
                    reviewed: result.is_ok(),
                    error: result.as_ref().err().map(|e| e.to_string()),
                });
            }
            match result {
                Ok(a) => {
                    if let Some(l) = &label {
                        critique_text.push_str(&format!("<!-- {l} review -->\n"));
                    }
                    critique_text.push_str(&a.text);
                    critique_text.push('\n');
                    if let Some(v) = &a.structured {
                        // What the CLI returned as the schema object, as it was read.
                        critique_text.push_str(&format!(
                            "\n<!-- the schema object -->\n```json\n{}\n```\n",
                            serde_json::to_string_pretty(v)?
                        ));
                    }
                    let (c, call, read_notes) = self.read_answer(n, job.segment, a, started)?;
                    if let Some(last) = calls.last_mut() {
                        last.read = Some(c.format.to_string());
                    }
                    normaliser_calls.extend(call);
                    notes.extend(read_notes);
                    agreement &= c.agreement;
                    missing.extend(c.missing_alternatives);
                    recommendation = recommendation.or(c.recommendation);
                    findings.extend(c.findings.into_iter().map(|mut f| {
                        f.segment = job.segment.map(str::to_string);
                        f.chunk = job.chunk.as_ref().map(|(k, _)| *k);
                        f
                    }));
                }
                Err(e) => {
                    let what = match &job.chunk {
                        Some((_, files)) => format!(
                            "{} ({} files, not evaluated: {})",
                            label.as_deref().unwrap_or("chunk"),
                            files.len(),
                            crate::ui::terminal::clean_line(&files.join(", "))
                        ),
                        None => label.clone().unwrap_or_else(|| "whole".into()),
                    };
                    notes.push(format!("the {what} review failed: {e}"));
                    first_error.get_or_insert_with(|| e.clone());
                }
            }
        }
        st.coverage.record(&chunks);
        st.coverage.revised.clear();
        calls.extend(normaliser_calls);
        if results.iter().all(|(r, _)| r.is_err()) {
            let e = first_error.expect("at least one call");
            self.session.write(
                &format!("round-{n}-critique.md"),
                format!("<!-- the reviewer failed -->\n{e}\n").as_bytes(),
            )?;
            return Ok(Err(e));
        }
        agreement &= first_error.is_none();
        self.session
            .write(&format!("round-{n}-critique.md"), critique_text.as_bytes())?;
        if let Some(idx) = &self.locations {
            idx.check_all(&mut findings, self.repo_dir.as_deref());
        }
        let merged = matching::merge_duplicates(&mut findings, Some(&self.workspace));
        if merged > 0 {
            notes.push(format!(
                "{merged} findings raised by more than one chunk were merged"
            ));
        }
        let new = st.ledger.assign(n, &mut findings, Some(&self.workspace));
        let new_ids: Vec<String> = findings
            .iter()
            .zip(&new)
            .filter(|(_, new)| **new)
            .map(|(f, _)| f.id.clone())
            .collect();

        // Agreement (or nothing raised) ends the round without a judge: nothing to rule on.
        let (judged, judgement) = if agreement || findings.is_empty() {
            (judge::apply(&findings, &Default::default()), None)
        } else {
            let shown = self.pointed(&st.text, &findings);
            let (j, call, note) = self.judge(n, &shown, &findings, started)?;
            calls.push(call);
            notes.extend(note);
            (judge::apply(&findings, &j), Some(j))
        };
        if signals::interrupted() {
            // A round cut short is not recorded: resuming runs it again.
            return Ok(Err(interrupted(self.author.name())));
        }
        let (rubric, rubric_reason) = judge::rubric(&judged);
        // What was redacted from an answer is said in the round's notes, so the report says it.
        for call in &calls {
            for n in call.notes.iter().filter(|n| n.starts_with(REDACTED_NOTE)) {
                notes.push(format!("{}'s answer: {n}", call.backend));
            }
        }
        let mut round = Round {
            round: n,
            version: st.version,
            findings: judged,
            new_ids,
            missing_alternatives: missing,
            reviewer_recommendation: recommendation,
            agreement,
            rubric,
            rubric_reason,
            judge_choice: judgement.as_ref().and_then(|j| j.recommendation),
            judge_reason: judgement.map(|j| j.reason).unwrap_or_default(),
            choice: rubric,
            decided_by: if agreement { "guard" } else { "auto" }.to_string(),
            notes,
            calls,
            chunks,
            unfit,
            revised: Vec::new(),
            duration_ms: 0,
        };
        if let (false, Some(t)) = (agreement, &self.terminal) {
            let mut t = t.lock().expect("terminal lock");
            round.choice = t.choose(&round)?;
            round.decided_by = "user".to_string();
        }
        if agreement {
            round.choice = 'A';
            st.stop_reason = Some(format!("the reviewer agreed in round {n}"));
            st.final_decision = Some(kept(st.version));
            st.converged = true;
        } else if !self.decide(&mut round, st, started)? {
            // Ctrl-C cut the author's step short: as for the judge, the round is run again.
            return Ok(Err(interrupted(self.author.name())));
        }
        round.duration_ms = round_started.elapsed().as_millis() as u64;
        self.session.write_round(&round)?;
        st.rounds.push(round);
        Ok(Ok(()))
    }
}
