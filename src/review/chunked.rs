//! What the reviewer is sent in a round: one prompt (two for a mixed document), or for a change
//! too big for one prompt, one prompt per chunk, all run at once through
//! [`crate::sys::schedule::bounded`].
//!
//! The first round reviews every file. Later rounds re-review only what can have moved: the files
//! the author revised, the files the standing findings point at (for a finding with no file, the
//! files of the chunk that raised it), and any file whose chunk failed before. A file whose chunk
//! never got an answer is reported as not evaluated, which the gate never counts as passed.

use std::collections::BTreeSet;

use anyhow::Result;

use crate::change::budget::Note;
use crate::change::chunks;
use crate::change::sections::DiffDoc;
use crate::prompts::Template;
use crate::review::record::ChunkRecord;
use crate::review::{Review, State};
use crate::{
    agents::{Answer, BackendError},
    sys::signals,
};

/// A chunked review's limits (`debate.maxArtifactBytes` per chunk, `debate.maxChunks`).
#[derive(Debug, Clone, Copy)]
pub struct Chunking {
    pub budget: usize,
    pub max_chunks: usize,
}

/// One reviewer call of a round.
pub(super) struct Job {
    /// `code`/`proposal` for the halves of a mixed document.
    pub segment: Option<&'static str>,
    /// The chunk (from 1) and its files, in a chunked review.
    pub chunk: Option<(u32, Vec<String>)>,
    pub prompt: String,
    /// Whose call it is: 0 the reviewer, then the others of a review by several.
    pub seat: usize,
}

impl Job {
    /// How the call is named in the record and in notes.
    pub fn label(&self, of: usize) -> Option<String> {
        match (&self.chunk, self.segment) {
            (Some((k, _)), _) => Some(format!("chunk {k}/{of}")),
            (None, s) => s.map(str::to_string),
        }
    }
}

/// Which files a chunked review has covered so far.
#[derive(Debug, Default, Clone)]
pub(super) struct Coverage {
    /// Reviewed in some round.
    pub reviewed: BTreeSet<String>,
    /// In a chunk whose call failed.
    pub failed: BTreeSet<String>,
    /// Revised by the author since the last review.
    pub revised: BTreeSet<String>,
    pub unfit: Vec<Note>,
}

impl Coverage {
    /// Rebuilt from the rounds of a resumed session.
    pub fn of(rounds: &[crate::review::record::Round]) -> Coverage {
        let mut c = Coverage::default();
        if let Some(last) = rounds.last() {
            c.revised.extend(last.revised.iter().cloned());
        }
        for r in rounds {
            c.record(&r.chunks);
            for u in &r.unfit {
                if !c.unfit.contains(u) {
                    c.unfit.push(u.clone());
                }
            }
        }
        c
    }

    pub fn record(&mut self, chunks: &[ChunkRecord]) {
        for ch in chunks {
            let set = if ch.reviewed {
                &mut self.reviewed
            } else {
                &mut self.failed
            };
            set.extend(ch.files.iter().cloned());
        }
    }

    /// Files of failed chunks, and files left out whole (past `debate.maxChunks`, or past what
    /// all the chunks together could hold), that no chunk reviewed.
    pub fn not_evaluated(&self) -> Vec<String> {
        let omitted = self.unfit.iter().filter(|n| n.omitted).map(|n| &n.path);
        let mut all: BTreeSet<&String> = self.failed.iter().chain(omitted).collect();
        all.retain(|f| !self.reviewed.contains(*f));
        all.into_iter().cloned().collect()
    }
}

impl Review<'_> {
    /// The reviewer calls of round `n`, the same prompts as one document for
    /// `round-<n>-input.md`, and what did not fit.
    pub(super) fn jobs(
        &self,
        n: u32,
        st: &State,
        context: &str,
    ) -> Result<(Vec<Job>, String, Vec<Note>)> {
        let chunked = self
            .chunking
            .and_then(|c| DiffDoc::parse(&st.text).map(|d| (c, d)));
        let Some((limits, doc)) = chunked else {
            let (prompts, input) = crate::prompts::review::prompts(
                self.artifact,
                &st.text,
                context,
                self.templates.as_deref(),
                self.snippet,
            )?;
            let jobs = prompts
                .into_iter()
                .map(|(segment, prompt)| Job {
                    segment,
                    chunk: None,
                    prompt,
                    seat: 0,
                })
                .collect();
            return Ok((jobs, input, Vec::new()));
        };
        let include = review_set(&doc, st, n);
        let plan = chunks::plan(&doc, &include, limits.budget, limits.max_chunks);
        let total = plan.chunks.len();
        let mut jobs = Vec::new();
        let mut input = String::new();
        let context = if n > 1 && include.len() < doc.sections.len() {
            format!(
                "{context}This round re-reviews only the files revised or still in question ({} \
                 of {}); the others were reviewed in earlier rounds.\n",
                include.len(),
                doc.sections.len()
            )
        } else {
            context.to_string()
        };
        for (k, chunk) in plan.chunks.iter().enumerate() {
            let text = chunks::render(&doc, chunk, k, total);
            // The note names only what this chunk shows (and the commit messages).
            let files = chunks::files(&doc, chunk);
            let here: Vec<_> = self
                .artifact
                .injections
                .iter()
                .filter(|f| files.contains(&f.path) || f.path.starts_with("commit "))
                .cloned()
                .collect();
            let note = crate::injection::prompt_note(&here);
            let prompt = Template::Cr.render(
                self.templates.as_deref(),
                &[
                    ("artifact", text.as_str()),
                    ("context", &context),
                    ("snippet_note", ""),
                    ("injection_note", &note),
                    (
                        "instructions",
                        &crate::prompts::instructions(&self.artifact.instructions.text),
                    ),
                ],
            )?;
            input.push_str(&format!("<!-- chunk {}/{total} -->\n{prompt}\n", k + 1));
            jobs.push(Job {
                segment: None,
                chunk: Some((k as u32 + 1, chunks::files(&doc, chunk))),
                prompt,
                seat: 0,
            });
        }
        Ok((jobs, input, plan.unfit))
    }
}

impl Review<'_> {
    /// Runs the round's reviewer calls, at most `debate.concurrency` at once, each under the
    /// same timeouts, budget and Ctrl-C handling as a single call (its timeout is taken when it
    /// starts, from the budget left then). Results are in the order of `jobs`, with each call's
    /// wall time.
    pub(super) fn review_all(
        &self,
        n: u32,
        jobs: &[Job],
        started: std::time::Instant,
    ) -> Vec<(std::result::Result<Answer, BackendError>, u64)> {
        let seats = self.seats().len();
        let what = match (jobs.len() / seats, seats) {
            (1, 1) => "review".to_string(),
            (_, 1) => "review (both halves)".to_string(),
            _ => format!("review ({seats} reviewers)"),
        };
        let names: Vec<&str> = self.seats().iter().map(|b| b.name()).collect();
        let names = names.join(" + ");
        // Every chunk at once up to `debate.concurrency`: the fewest model waits the ceiling
        // allows. The progress line names the newest chunk started ("chunk 4/7").
        let begun = std::sync::atomic::AtomicUsize::new(0);
        let calls = || {
            crate::sys::schedule::bounded(
                self.settings.concurrency,
                jobs.iter().collect(),
                |_, job| {
                    begun.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let t = std::time::Instant::now();
                    let who = self.seat(job.seat);
                    if signals::interrupted() {
                        return (Err(crate::review::interrupted(who.name())), 0);
                    }
                    let protocol =
                        crate::review::reading::protocol_of(job.segment, self.artifact.target);
                    let req = self.request(
                        who,
                        self.sandbox.no_tools,
                        &job.prompt,
                        started,
                        Some(protocol),
                    );
                    let r = who.ask(&req);
                    (r, t.elapsed().as_millis() as u64)
                },
            )
        };
        let round = (n, self.settings.max_rounds);
        if jobs.len() > 1 && jobs[0].chunk.is_some() {
            crate::ui::progress::with_chunk_progress(&names, round, (&begun, jobs.len()), calls)
        } else {
            crate::ui::progress::with_progress(&names, round, &what, calls)
        }
    }
}

/// The sections round `n` reviews (indices into `doc`).
fn review_set(doc: &DiffDoc, st: &State, n: u32) -> Vec<usize> {
    let all: Vec<usize> = (0..doc.sections.len()).collect();
    let Some(last) = st.rounds.last().filter(|_| n > 1) else {
        return all;
    };
    let cov = &st.coverage;
    let mut want: BTreeSet<usize> = BTreeSet::new();
    for (i, s) in doc.sections.iter().enumerate() {
        if cov.revised.contains(&s.path) || !cov.reviewed.contains(&s.path) {
            want.insert(i);
        }
    }
    for j in last.findings.iter().filter(|j| j.stands() || j.disputed()) {
        let f = &j.finding;
        match f.location.as_ref().and_then(|l| doc.find(&l.path)) {
            Some(i) => {
                want.insert(i);
            }
            None => {
                let files = last
                    .chunks
                    .iter()
                    .filter(|c| Some(c.chunk) == f.chunk)
                    .flat_map(|c| &c.files);
                want.extend(files.filter_map(|p| doc.find(p)));
            }
        }
    }
    if want.is_empty() {
        all
    } else {
        want.into_iter().collect()
    }
}
