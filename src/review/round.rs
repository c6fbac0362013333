//! One round of the loop: the reviewer's calls (one, two halves, or the chunks), their answers
//! read (and restated where the reader could not read them whole) and merged, ids assigned across
//! rounds, the disputes of the round before settled with the reviewer's replies, the author's
//! judgement, the round's letter, and the author's step for it. Nothing of a round that a
//! reviewer or Ctrl-C cut short is recorded, so a resumed session runs it again.

use std::collections::BTreeMap;
use std::time::Instant;

use anyhow::Result;

use crate::agents::redacting::REDACTED_NOTE;
use crate::agents::{Answer, BackendError};
use crate::answer::dispute::Replies;
use crate::answer::judge::{self, Judged, Judgement, Rejoinder};
use crate::change::budget::Note;
use crate::findings::{Finding, Source};
use crate::review::chunked::Job;
use crate::review::record::{Call, ChunkRecord, Repair, Round, Withdrawn};
use crate::review::{
    consensus, decision, disputes, interrupted, kept, matching, steps, Review, State,
};
use crate::sys::signals;

/// The disputes one reviewer was asked about: `(id, title)`.
type Asked = Vec<(String, String)>;

/// What the reviewer said this round, all its answers read.
struct Heard {
    calls: Vec<Call>,
    /// The restaters' calls (after the review calls in the record).
    restate_calls: Vec<Call>,
    /// The answers as they came, for `round-<n>-critique.md`.
    text: String,
    findings: Vec<Finding>,
    missing: Vec<String>,
    /// Every answer approves as a whole.
    agreement: bool,
    notes: Vec<String>,
    first_error: Option<BackendError>,
    chunks: Vec<ChunkRecord>,
    recommendation: Option<String>,
    repairs: Vec<Repair>,
    replies: Replies,
    /// Each reviewer's replies apart, in a review by several (a withdrawal is its own vote's).
    seat_replies: Vec<consensus::SeatReplies>,
    /// Disputed findings the reviewer withdrew.
    withdrawn: Vec<Withdrawn>,
    /// In a review by several: who answered.
    seats: Vec<crate::store::round::Seat>,
}

/// What the judge made of the round's findings.
struct Ruled {
    judged: Vec<Judged>,
    judgement: Option<Judgement>,
    unknown: Vec<String>,
}

impl Review<'_> {
    /// One round. The outer `Result` is an I/O failure; the inner error a reviewer that did not
    /// answer (nothing of the round is kept then).
    pub(super) fn round(
        &mut self,
        n: u32,
        st: &mut State,
        started: Instant,
    ) -> Result<std::result::Result<(), BackendError>> {
        let round_started = Instant::now();
        let open: Vec<Judged> = disputes::open(st.rounds.last())
            .into_iter()
            .cloned()
            .collect();
        let open: Vec<&Judged> = open.iter().collect();
        let (jobs, asked, unfit) = self.all_jobs(n, st, &open)?;
        for u in &unfit {
            if !st.coverage.unfit.contains(u) {
                st.coverage.unfit.push(u.clone());
            }
        }
        let mut results = self.review_all(n, &jobs, started);
        if st.rounds.is_empty() {
            let stood_in = self.stand_ins(n, &jobs, &mut results, started);
            st.stood_in.extend(stood_in);
        }
        let mut seats = self.seat_records(&jobs, &results);
        // Who a stand-in replaced stays said in every round it reviews.
        for (k, passed) in &st.stood_in {
            seats[*k].instead_of.clone_from(passed);
        }
        let all_failed = if self.is_panel() {
            !self.enough(&seats)
        } else {
            results.iter().all(|(r, _)| r.is_err())
        };
        let mut heard = self.hear(n, &jobs, &results, started, &asked)?;
        heard.notes.extend(consensus::failed_notes(&seats));
        st.seats.clone_from(&seats);
        heard.seats = seats;
        st.coverage.record(&heard.chunks);
        st.coverage.revised.clear();
        if let Some(e) = heard.first_error.clone().filter(|_| all_failed) {
            self.session.write(
                &format!("round-{n}-critique.md"),
                format!("<!-- the reviewer failed -->\n{e}\n").as_bytes(),
            )?;
            return Ok(Err(e));
        }
        heard.agreement &= heard.first_error.is_none();
        self.session
            .write(&format!("round-{n}-critique.md"), heard.text.as_bytes())?;
        let (findings, new_ids, rejoinders) = self.identify(n, st, &mut heard, &open);
        let ruled = self.rule(n, st, findings, &rejoinders, &mut heard, started)?;
        if signals::interrupted() {
            // A round cut short is not recorded: resuming runs it again.
            return Ok(Err(interrupted(self.author.name())));
        }
        let mut round = self.choose(n, st, heard, ruled, new_ids, unfit)?;
        if round.agreement {
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

    /// Every reviewer's calls of round `n`, the disputes each is asked about (by seat), and what
    /// did not fit; the prompts go to `round-<n>-input.md` (one section per reviewer when
    /// several review).
    fn all_jobs(
        &self,
        n: u32,
        st: &State,
        open: &[&Judged],
    ) -> Result<(Vec<Job>, Vec<Asked>, Vec<Note>)> {
        let (mut jobs, mut asked, mut input, mut unfit) =
            (Vec::new(), Vec::new(), String::new(), Vec::new());
        for (k, who) in self.seats().into_iter().enumerate() {
            let mine = consensus::disputes_for(open, who.name(), self.is_panel());
            let mut context = steps::context(
                n,
                st.summary.as_deref(),
                st.rounds.last(),
                st.rebuttal.as_deref(),
                st.version,
                self.is_panel().then(|| who.name()),
            );
            context.push_str(&disputes::prompt(&mine));
            if let (1, Some(plan)) = (n, &self.incremental) {
                context.push_str(&crate::review::incremental::context(plan));
            }
            let (seat_jobs, seat_input, seat_unfit) = self.jobs(n, st, &context)?;
            if self.is_panel() {
                input.push_str(&format!("<!-- reviewer {} -->\n", who.name()));
            }
            input.push_str(&seat_input);
            if k == 0 {
                unfit = seat_unfit;
            }
            jobs.extend(seat_jobs.into_iter().map(|j| Job { seat: k, ..j }));
            asked.push(disputes::asked(&mine));
        }
        self.session
            .write(&format!("round-{n}-input.md"), input.as_bytes())?;
        Ok((jobs, asked, unfit))
    }

    /// Every answer of the round read: findings, notes, calls and the replies to disputes
    /// (`asked`: the disputes each seat was asked about).
    fn hear(
        &self,
        n: u32,
        jobs: &[Job],
        results: &[(std::result::Result<Answer, BackendError>, u64)],
        started: Instant,
        asked: &[Asked],
    ) -> Result<Heard> {
        let mut h = Heard {
            calls: Vec::new(),
            restate_calls: Vec::new(),
            text: String::new(),
            findings: Vec::new(),
            missing: Vec::new(),
            agreement: true,
            notes: Vec::new(),
            first_error: None,
            chunks: Vec::new(),
            recommendation: None,
            repairs: Vec::new(),
            replies: Replies::default(),
            seat_replies: Vec::new(),
            withdrawn: Vec::new(),
            seats: Vec::new(),
        };
        let per_seat = jobs.len() / self.seats().len();
        for (job, (result, ms)) in jobs.iter().zip(results) {
            let label = job.label(per_seat);
            let who = self.seat(job.seat);
            h.calls.push(Call::of(
                "review",
                who.name(),
                label.as_deref(),
                &job.prompt,
                result,
                *ms,
            ));
            if let Some((k, files)) = &job.chunk {
                h.chunks.push(ChunkRecord {
                    chunk: *k,
                    files: files.clone(),
                    reviewed: result.is_ok(),
                    error: result.as_ref().err().map(|e| e.to_string()),
                });
            }
            match result {
                Ok(a) => {
                    let asked = &asked[job.seat];
                    self.heard_answer(n, job, label.as_deref(), a, started, asked, &mut h)?;
                }
                Err(e) => {
                    h.first_error.get_or_insert_with(|| e.clone());
                    if self.is_panel() {
                        // A reviewer that failed whole is one note of its own (see
                        // [`consensus::failed_notes`]); another may have reviewed this chunk.
                        let answered = jobs
                            .iter()
                            .zip(results)
                            .any(|(j, (r, _))| j.seat == job.seat && r.is_ok());
                        if answered {
                            let what = label.clone().unwrap_or_else(|| "whole".into());
                            h.notes
                                .push(format!("{}'s {what} review failed: {e}", who.name()));
                        }
                        continue;
                    }
                    let what = match &job.chunk {
                        Some((_, files)) => format!(
                            "{} ({} files, not evaluated: {})",
                            label.as_deref().unwrap_or("chunk"),
                            files.len(),
                            crate::ui::terminal::clean_line(&files.join(", "))
                        ),
                        None => label.clone().unwrap_or_else(|| "whole".into()),
                    };
                    h.notes.push(format!("the {what} review failed: {e}"));
                }
            }
        }
        h.calls.append(&mut h.restate_calls);
        Ok(h)
    }

    /// One answer: kept for the critique file, read, and its findings added.
    #[allow(clippy::too_many_arguments)]
    fn heard_answer(
        &self,
        n: u32,
        job: &Job,
        label: Option<&str>,
        a: &Answer,
        started: Instant,
        asked: &[(String, String)],
        h: &mut Heard,
    ) -> Result<()> {
        let who = self.seat(job.seat);
        if self.is_panel() {
            h.text
                .push_str(&format!("<!-- reviewer {} -->\n", who.name()));
        }
        if let Some(l) = label {
            h.text.push_str(&format!("<!-- {l} review -->\n"));
        }
        h.text.push_str(&a.text);
        h.text.push('\n');
        if let Some(v) = &a.structured {
            // What the CLI returned as the schema object, as it was read.
            h.text.push_str(&format!(
                "\n<!-- the schema object -->\n```json\n{}\n```\n",
                serde_json::to_string_pretty(v)?
            ));
        }
        let read = self.read_answer(who, n, (job.segment, label), a, started, asked)?;
        if let Some(last) = h.calls.last_mut() {
            last.read = Some(read.critique.format.to_string());
        }
        h.restate_calls.extend(read.call);
        h.repairs.extend(read.repair);
        h.notes.extend(read.notes);
        if self.is_panel() {
            let mine = Replies {
                said: read.replies.said.clone(),
                ambiguous: read.replies.ambiguous.clone(),
            };
            let agrees = read.critique.agreement;
            match h.seat_replies.iter_mut().find(|r| r.reviewer == who.name()) {
                Some(r) => {
                    r.replies.merge(mine);
                    r.agreement &= agrees;
                }
                None => h.seat_replies.push(consensus::SeatReplies {
                    reviewer: who.name().to_string(),
                    replies: mine,
                    agreement: agrees,
                }),
            }
        }
        h.replies.merge(read.replies);
        let c = read.critique;
        h.agreement &= c.agreement;
        h.missing.extend(c.missing_alternatives);
        h.recommendation = h.recommendation.take().or(c.recommendation);
        h.findings.extend(c.findings.into_iter().map(|mut f| {
            f.segment = job.segment.map(str::to_string);
            f.chunk = job.chunk.as_ref().map(|(k, _)| *k);
            self.tag(who, f)
        }));
        Ok(())
    }

    /// The round's findings with their ids (a finding raised before keeps its id), the ids first
    /// raised now, and the disputes of the round before settled: the findings the reviewer did
    /// not withdraw come back, with what it answered.
    fn identify(
        &self,
        n: u32,
        st: &mut State,
        heard: &mut Heard,
        open: &[&Judged],
    ) -> (Vec<Finding>, Vec<String>, BTreeMap<String, Rejoinder>) {
        let mut findings = std::mem::take(&mut heard.findings);
        let holds = open.iter().any(|j| {
            !matches!(
                heard.replies.said.get(&j.finding.id),
                Some((crate::answer::dispute::Reply::Withdraw, _))
            )
        });
        // A verdict that objects with no finding named is explained by the disputed findings
        // the reviewer keeps: those are its objection, not one more finding.
        if holds && findings.iter().any(|f| f.source == Source::Verdict) {
            findings.retain(|f| f.source != Source::Verdict);
            heard.notes.push(
                "the reviewer's objection names no new finding: it stands by the disputed \
                 findings it did not withdraw"
                    .into(),
            );
        }
        if let Some(idx) = &self.locations {
            idx.check_all(&mut findings, self.repo_dir.as_deref());
        }
        let merged = matching::merge_duplicates(&mut findings, Some(&self.workspace));
        if merged > 0 {
            heard.notes.push(format!(
                "{merged} findings raised by more than one chunk were merged"
            ));
        }
        if self.is_panel() {
            let merged = matching::merge_reviewers(&mut findings, Some(&self.workspace));
            if merged > 0 {
                heard.notes.push(format!(
                    "{merged} findings raised by more than one reviewer were merged"
                ));
            }
        }
        let new = st.ledger.assign(n, &mut findings, Some(&self.workspace));
        let new_ids: Vec<String> = findings
            .iter()
            .zip(&new)
            .filter(|(_, new)| **new)
            .map(|(f, _)| f.id.clone())
            .collect();
        let changes = consensus::own_replies(open, &heard.seat_replies, &mut heard.replies);
        let mut settled = disputes::settle(n, open, &heard.replies, &findings, heard.agreement);
        heard.notes.extend(settled.notes);
        heard
            .notes
            .extend(consensus::apply_votes(&mut settled.back, &changes));
        heard.agreement &= settled.back.is_empty();
        for f in &settled.back {
            st.ledger.seen(n, &f.id);
        }
        findings.extend(settled.back);
        heard.withdrawn = settled.withdrawn;
        (findings, new_ids, settled.rejoinders)
    }

    /// The judge's rulings on `findings` (none when the reviewer agreed or raised nothing), with
    /// ids for the findings it added and the ids it ruled on that are not in the round.
    fn rule(
        &self,
        n: u32,
        st: &mut State,
        findings: Vec<Finding>,
        rejoinders: &BTreeMap<String, Rejoinder>,
        heard: &mut Heard,
        started: Instant,
    ) -> Result<Ruled> {
        if heard.agreement || findings.is_empty() {
            return Ok(Ruled {
                judged: judge::apply(&findings, &Default::default()),
                judgement: None,
                unknown: Vec::new(),
            });
        }
        let shown = self.pointed(&st.text, &findings);
        let (mut j, call, note) = self.judge(n, &shown, &findings, rejoinders, started)?;
        heard.calls.push(call);
        heard.notes.extend(note);
        // The judge's own findings get ids, so they can be carried, matched and cited.
        st.ledger.assign(n, &mut j.added, Some(&self.workspace));
        // Rulings on ids outside the round are already notes (said with the judge's call).
        let unknown = j.outside.clone();
        let mut judged = judge::apply(&findings, &j);
        for jd in judged.iter_mut().filter(|jd| !jd.from_judge) {
            jd.rejoinder = rejoinders.get(&jd.finding.id).cloned();
        }
        Ok(Ruled {
            judged,
            judgement: Some(j),
            unknown,
        })
    }

    /// The round's record with its letter: the rubric's and the judge's heard together (see
    /// [`decision`]), or the user's in manual mode.
    fn choose(
        &self,
        n: u32,
        st: &State,
        heard: Heard,
        ruled: Ruled,
        new_ids: Vec<String>,
        unfit: Vec<crate::change::budget::Note>,
    ) -> Result<Round> {
        let mut heard = heard;
        // What was redacted from an answer is said in the round's notes, so the report says it.
        let redacted: Vec<String> = heard
            .calls
            .iter()
            .flat_map(|c| {
                c.notes
                    .iter()
                    .filter(|n| n.starts_with(REDACTED_NOTE))
                    .map(move |n| format!("{}'s answer: {n}", c.backend))
            })
            .collect();
        heard.notes.extend(redacted);
        let (rubric, rubric_reason) = judge::rubric(&ruled.judged);
        let judge_choice = ruled.judgement.as_ref().and_then(|j| j.recommendation);
        let disputed_blockers = ruled
            .judged
            .iter()
            .filter(|j| j.disputed() && j.reviewer_severity().rank() <= 1)
            .count();
        let choice = decision::choose(
            (rubric, &rubric_reason),
            judge_choice,
            disputed_blockers,
            n < self.settings.max_rounds,
        );
        let agreement = heard.agreement;
        let mut round = Round {
            round: n,
            version: st.version,
            findings: ruled.judged,
            new_ids,
            missing_alternatives: heard.missing,
            reviewer_recommendation: heard.recommendation,
            agreement,
            rubric,
            rubric_reason,
            judge_choice,
            judge_reason: ruled.judgement.map(|j| j.reason).unwrap_or_default(),
            choice: choice.letter,
            decided_by: if agreement { "guard" } else { "auto" }.to_string(),
            choice_from: if agreement {
                String::new()
            } else {
                choice.from.to_string()
            },
            choice_reason: if agreement {
                String::new()
            } else {
                choice.reason
            },
            withdrawn: heard.withdrawn,
            unknown_rulings: ruled.unknown,
            repairs: heard.repairs,
            notes: heard.notes,
            calls: heard.calls,
            chunks: heard.chunks,
            unfit,
            revised: Vec::new(),
            reviewers: heard.seats,
            duration_ms: 0,
        };
        if let (false, Some(t)) = (agreement, &self.terminal) {
            let mut t = t.lock().expect("terminal lock");
            round.choice = t.choose(&round)?;
            round.decided_by = "user".to_string();
        }
        Ok(round)
    }
}
