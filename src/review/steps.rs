//! The author's side of a round: judging the critique, applying the decision (materialise the
//! reviewer's version, write a compromise, write a rebuttal), and summarising old rounds so the
//! prompt stays bounded.
//!
//! A failed author call never loses the round: the judge falls back to the rubric on unruled
//! findings and a failed rebuttal uses a fixed request for evidence (both noted in the round
//! record). A compromise or the reviewer's version that could not be written has no stand-in, so
//! it stops the session as `failed`, naming the step, with the last good version kept as the
//! final one: never a "Compromise" that nobody wrote. An author call cut short by Ctrl-C is no
//! failure: the round is discarded and the session is interrupted.

use std::collections::BTreeMap;
use std::time::Instant;

use anyhow::Result;

use crate::agents::{Answer, BackendError};
use crate::answer::judge::{self, Judged, Judgement, Rejoinder, Rejoined};
use crate::answer::Protocol;
use crate::change::markdown::Target;
use crate::findings::Finding;
use crate::prompts::Template;
use crate::review::lean::{Shown, SUBSET_NOTE};
use crate::review::record::{Call, Round};
use crate::review::{PatchBase, Review, State};

/// Said for the author when it could not write a rebuttal.
const FALLBACK_REBUTTAL: &str = "The author asks the reviewer to re-examine the remaining \
findings with concrete evidence (path:line, a reproducing input or a measurement) and to say \
which of them the current version resolves.";

/// Earlier rounds as the reviewer sees them from round 2 on: the summary of everything before
/// the last round, the last round in full (findings with the author's rulings), the rebuttal, and
/// which version is under review. `seat`: in a review by several, the reviewer it is for, who is
/// shown its own findings apart from the others' ([`crate::review::consensus::split`]).
pub(super) fn context(
    n: u32,
    summary: Option<&str>,
    last: Option<&Round>,
    rebuttal: Option<&str>,
    version: u32,
    seat: Option<&str>,
) -> String {
    let Some(last) = last else {
        return String::new();
    };
    let mut s = String::new();
    if let Some(sum) = summary {
        s.push_str(&format!(
            "Summary of rounds 1-{}:\n{sum}\n\n",
            last.round - 1
        ));
    }
    let (mine, others) = match seat {
        Some(who) => crate::review::consensus::split(&last.findings, who),
        None => (last.findings.clone(), Vec::new()),
    };
    s.push_str(&format!(
        "Round {}: your findings and the author's rulings:\n{}",
        last.round,
        judged_list(&mine)
    ));
    if !others.is_empty() {
        s.push_str(&format!(
            "\nRound {}: raised by another reviewer, with the author's rulings:\n{}",
            last.round,
            judged_list(&others)
        ));
    }
    if let Some(r) = rebuttal {
        s.push_str(&format!("\nThe author's rebuttal:\n{r}\n"));
    }
    // What the models wrote is fenced as data; our own lines follow outside the fence.
    let mut s = format!(
        "\n{}",
        crate::prompts::fence::wrap(&format!("EARLIER ROUNDS (this is round {n})"), &s)
    );
    if version > last.version {
        s.push_str(&format!(
            "\nThe artifact below is version {version}, revised by the author after round {}.\n",
            last.round
        ));
    }
    s.push_str(
        "Say which earlier findings are resolved, raise new problems, and do not repeat findings \
         the author has addressed.\n",
    );
    if !others.is_empty() {
        s.push_str(crate::review::consensus::ASK_OTHERS);
    }
    s
}

/// Findings with the judge's rulings, one per line.
fn judged_list(judged: &[Judged]) -> String {
    judged
        .iter()
        .map(|j| {
            let reason = j
                .ruling
                .as_ref()
                .map(|r| r.reason.as_str())
                .filter(|r| !r.is_empty())
                .map(|r| format!(": {r}"))
                .unwrap_or_default();
            format!(
                "- [{}] {} {} — judged {}{reason}\n",
                j.finding.id,
                j.severity().label(),
                one_line(&j.finding),
                j.verdict_label()
            )
        })
        .collect()
}

/// What the reviewer answered to the judge's dispute of a finding, for the next judge.
fn rejoinder_line(r: &Rejoinder) -> String {
    let words = if r.words.is_empty() {
        String::new()
    } else {
        format!(": {}", r.words)
    };
    match r.reply {
        Rejoined::Held => format!(
            " — disputed in round {} ({}); the reviewer holds it{words}",
            r.round, r.ruling
        ),
        Rejoined::Silent => format!(
            " — disputed in round {} ({}); the reviewer did not answer, so it stands as raised",
            r.round, r.ruling
        ),
        Rejoined::Lowered => format!(
            " — disputed in round {} ({}); the reviewer lowered it from {}{words}",
            r.round,
            r.ruling,
            r.from.map_or("its level", |s| s.describe())
        ),
    }
}

fn one_line(f: &Finding) -> String {
    let mut s = f.title.clone();
    if let Some(w) = f.where_() {
        s.push_str(&format!(" ({w})"));
    }
    if !f.body.is_empty() {
        s.push_str(&format!(" — {}", f.body));
    }
    if let Some(a) = &f.action {
        s.push_str(&format!(" — action: {a}"));
    }
    s
}

impl Review<'_> {
    /// One call to the author model.
    fn author_call(
        &self,
        n: u32,
        purpose: &'static str,
        template: Template,
        vars: &[(&str, &str)],
        started: Instant,
    ) -> Result<(std::result::Result<Answer, BackendError>, Call)> {
        let prompt = template.render(self.templates.as_deref(), vars)?;
        let schema = (template == Template::Judge).then_some(Protocol::Judge);
        let req = self.request(self.author.as_ref(), false, &prompt, started, schema);
        let t = Instant::now();
        let r = crate::ui::progress::with_progress(
            self.author.name(),
            (n, self.settings.max_rounds),
            purpose,
            || self.author.ask(&req),
        );
        let call = Call::of(
            purpose,
            self.author.name(),
            None,
            &prompt,
            &r,
            t.elapsed().as_millis() as u64,
        );
        Ok((r, call))
    }

    /// Asks the author to rule on `findings`; a failure leaves them unruled (they then count as
    /// valid) and says so.
    pub(super) fn judge(
        &self,
        n: u32,
        text: &str,
        findings: &[Finding],
        rejoinders: &BTreeMap<String, Rejoinder>,
        started: Instant,
    ) -> Result<(Judgement, Call, Option<String>)> {
        let list: String = findings
            .iter()
            .map(|f| {
                // With several reviewers, who raised it and at which level.
                let votes = match f.raised_by.as_slice() {
                    [] => String::new(),
                    v => format!(
                        " — raised by {}",
                        v.iter()
                            .map(|v| format!("{} ({})", v.reviewer, v.severity.describe()))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                };
                format!(
                    "- [{}] {} {}{votes}{}\n",
                    f.id,
                    f.severity.describe(),
                    one_line(f),
                    rejoinders
                        .get(&f.id)
                        .map(rejoinder_line)
                        .unwrap_or_default()
                )
            })
            .collect();
        let list = if list.is_empty() {
            "(the reviewer raised no findings)\n".to_string()
        } else {
            list
        };
        let (r, call) = self.author_call(
            n,
            "judge",
            Template::Judge,
            &[
                ("findings", &list),
                ("artifact", text),
                ("rubric", crate::prompts::JUDGE_ANALYSIS),
                (
                    "instructions",
                    &crate::prompts::instructions(&self.artifact.instructions.text),
                ),
            ],
            started,
        )?;
        Ok(match r {
            Ok(a) => {
                self.session
                    .write(&format!("round-{n}-judge.md"), a.text.as_bytes())?;
                let ids: Vec<String> = findings.iter().map(|f| f.id.clone()).collect();
                let j = judge::parse_round(&a.text, a.structured.as_ref(), &self.roots(), &ids);
                // Unread rulings are no rulings: said exactly like a failed judge.
                let unread = (!j.readable && !findings.is_empty()).then(|| {
                    "the judge's answer could not be read; the rubric was applied to the unruled \
                     findings"
                        .to_string()
                });
                // What was read but not applied (an id outside the round, a verdict that
                // could not be read) is said too.
                let note = unread
                    .into_iter()
                    .chain(j.notes.iter().cloned())
                    .reduce(|a, b| format!("{a}; {b}"));
                (j, call, note)
            }
            Err(e) => {
                self.session.write(
                    &format!("round-{n}-judge.md"),
                    format!("<!-- the judge failed -->\n{e}\n").as_bytes(),
                )?;
                (
                    Judgement::default(),
                    call,
                    Some(format!(
                        "the judge failed ({e}); the rubric was applied to the unruled findings"
                    )),
                )
            }
        })
    }

    /// Applies the round's choice and the no-new-findings guard. `false` when Ctrl-C cut the
    /// author's call short (the round is then not to be recorded).
    pub(super) fn decide(
        &self,
        round: &mut Round,
        st: &mut State,
        started: Instant,
    ) -> Result<bool> {
        let n = round.round;
        let done = match round.choice {
            'A' => {
                keep(n, st);
                true
            }
            'B' => self.accept_opposite(round, st, started)?,
            'C' => self.compromise(round, st, started)?,
            'D' => self.rebut(round, st, started)?,
            _ => {
                st.final_decision = Some(if round.decided_by == "user" {
                    "Stopped by user".into()
                } else {
                    "Stopped".into()
                });
                st.stop_reason = Some(format!("decision E in round {n}: stop"));
                true
            }
        };
        if !done {
            return Ok(false);
        }
        if matches!(round.choice, 'C' | 'D') && st.stop_reason.is_none() {
            let quiet = round.new_serious() == 0
                && st.rounds.last().is_some_and(|prev| prev.new_serious() == 0);
            if quiet {
                st.stop_reason = Some(format!("no new P1/P2 findings in rounds {} and {n}", n - 1));
                // Not while a finding the judge disputed stands: the two sides still disagree.
                st.converged = !round.findings.iter().any(|j| j.disputed());
            }
        }
        Ok(true)
    }

    /// What the author is told about the form of a version it writes.
    fn format_note(&self, subset: bool) -> String {
        let note = match self.artifact.target {
            Target::Code => {
                "The artifact is a code change. Output the revised change as a unified diff (as \
                 `git diff` prints it, paths relative to the repository root)."
            }
            _ => "Output the complete revised document in markdown.",
        };
        note.to_string() + if subset { SUBSET_NOTE } else { "" }
    }

    /// Decision B: the author writes the reviewer's version (for code, a patch checked to apply,
    /// never applied). `false` when Ctrl-C cut the call short.
    fn accept_opposite(&self, round: &mut Round, st: &mut State, started: Instant) -> Result<bool> {
        let n = round.round;
        st.converged = true;
        st.stop_reason = Some(format!(
            "decision B in round {n}: accept the reviewer's version"
        ));
        if self.settings.skip_materialize_opposite {
            st.final_decision = Some("Accept Opposite (materialization skipped)".into());
            return Ok(true);
        }
        let (r, _) =
            self.ask_version(round, st, ("materialize", Template::Materialize), started)?;
        if cut_short(&r) {
            return Ok(false);
        }
        match r {
            Ok(a) if self.artifact.target == Target::Code => {
                let patch = extract_diff(&a.text);
                let check = self.check_patch(&patch);
                st.final_patch = Some((patch, Some(check)));
                st.final_decision = Some("Accept Opposite".into());
            }
            Ok(a) => {
                st.text = strip_fence(&a.text);
                st.version += 1;
                st.final_decision = Some("Accept Opposite".into());
            }
            Err(e) => {
                round
                    .notes
                    .push(format!("writing the reviewer's version failed: {e}"));
                self.author_failed(st, n, "writing the reviewer's version", &e);
            }
        }
        Ok(true)
    }

    /// Asks the author for a version (the reviewer's, or a compromise), shown the round's
    /// findings and the parts of the artifact they touch; the call goes into the round.
    fn ask_version(
        &self,
        round: &mut Round,
        st: &State,
        (purpose, template): (&'static str, Template),
        started: Instant,
    ) -> Result<(std::result::Result<Answer, BackendError>, Shown)> {
        let shown = self.touched(&st.text, &round.findings);
        let (r, call) = self.author_call(
            round.round,
            purpose,
            template,
            &[
                ("findings", &judged_list(&round.findings)),
                ("artifact", &shown.text),
                ("format_note", &self.format_note(shown.subset)),
            ],
            started,
        )?;
        round.calls.push(call);
        Ok((r, shown))
    }

    /// Decision C: the author writes a compromise, which the next round reviews. `false` when
    /// Ctrl-C cut the call short.
    fn compromise(&self, round: &mut Round, st: &mut State, started: Instant) -> Result<bool> {
        let n = round.round;
        let (r, shown) =
            self.ask_version(round, st, ("compromise", Template::Compromise), started)?;
        if cut_short(&r) {
            return Ok(false);
        }
        let a = match r {
            Ok(a) => a,
            Err(e) => {
                round.notes.push(format!(
                    "the compromise failed ({e}); the current version is kept"
                ));
                self.author_failed(st, n, "the compromise", &e);
                return Ok(true);
            }
        };
        // An answer that is not a version ("LGTM", a flood of one character) never becomes
        // the text under review, nor the final one.
        if let Some(why) = super::version_check::rejects(self.artifact.target, &shown.text, &a.text)
        {
            round.notes.push(format!(
                "the compromise is not a version of what it revises ({why}); the current version \
                 is kept"
            ));
            let why = format!("its answer is not a version of what it revises: {why}");
            self.author_failed(st, n, "the compromise", &why);
            return Ok(true);
        }
        match self.merged(&st.text, &a.text) {
            Some((text, revised)) => {
                st.text = text;
                st.coverage.revised.extend(revised.iter().cloned());
                round.revised = revised;
            }
            None if shown.subset => {
                // Shown some files, it answered with no per-file diff: its text cannot stand
                // for the whole change.
                round.notes.push(
                    "the compromise held no per-file diff; it is kept beside the current version"
                        .into(),
                );
                st.text.push_str(&format!(
                    "\n## The author's revision (not a per-file diff)\n\n{}",
                    strip_fence(&a.text)
                ));
            }
            None => st.text = strip_fence(&a.text),
        }
        st.version += 1;
        self.session
            .write(&format!("artifact-v{}.md", st.version), st.text.as_bytes())?;
        st.rebuttal = None;
        Ok(true)
    }

    /// Decision D: the author's rebuttal goes to the next round (a fixed request for evidence
    /// when it fails). `false` when Ctrl-C cut the call short.
    fn rebut(&self, round: &mut Round, st: &mut State, started: Instant) -> Result<bool> {
        let n = round.round;
        let raised: Vec<_> = round.findings.iter().map(|j| j.finding.clone()).collect();
        let pointed = self.pointed(&st.text, &raised);
        let (r, call) = self.author_call(
            n,
            "rebuttal",
            Template::Rebuttal,
            &[
                ("findings", &judged_list(&round.findings)),
                ("artifact", &pointed),
            ],
            started,
        )?;
        round.calls.push(call);
        if cut_short(&r) {
            return Ok(false);
        }
        st.rebuttal = Some(match r {
            Ok(a) => a.text.trim().to_string(),
            Err(e) => {
                round.notes.push(format!(
                    "the rebuttal failed ({e}); a request for evidence was sent instead"
                ));
                FALLBACK_REBUTTAL.to_string()
            }
        });
        // Kept so a resumed session sends it with the next round.
        self.session.write(
            &format!("round-{n}-rebuttal.md"),
            st.rebuttal.as_deref().unwrap_or("").as_bytes(),
        )?;
        Ok(true)
    }

    /// Stops the session on an author step that has no stand-in: says which step failed, and
    /// keeps the current version (the last good one) as the final one.
    fn author_failed(&self, st: &mut State, n: u32, step: &str, e: &dyn std::fmt::Display) {
        st.failed = true;
        st.converged = false;
        st.final_decision = Some(format!("Stopped ({step} failed in round {n})"));
        st.stop_reason = Some(format!(
            "the author failed in round {n} ({step}): {e}; the last good version (v{}) is kept",
            st.version
        ));
    }

    /// From round 3 on, the rounds before the last are replaced by a summary the author writes
    /// (the previous summary plus the round that just left the window), so prompts stay bounded.
    pub(super) fn summarize(&self, st: &mut State, started: Instant) {
        self.summarize_inner(st, started);
        if let Some(s) = &st.summary {
            // Kept so a resumed session starts from the same context.
            let _ = self.session.write("context-summary.md", s.as_bytes());
        }
    }

    fn summarize_inner(&self, st: &mut State, started: Instant) {
        let Some(leaving) = st.rounds.iter().rev().nth(1) else {
            return;
        };
        let mut rounds = st
            .summary
            .clone()
            .map(|s| format!("{s}\n\n"))
            .unwrap_or_default();
        rounds.push_str(&format!(
            "Round {} (choice {}):\n{}",
            leaving.round,
            leaving.choice,
            judged_list(&leaving.findings)
        ));
        let fallback = rounds.chars().take(4000).collect::<String>();
        match self.author_call(
            leaving.round + 2,
            "summarize",
            Template::Summarize,
            &[("rounds", &rounds)],
            started,
        ) {
            Ok((Ok(a), call)) => {
                st.extra_calls.push(call);
                st.summary = Some(a.text.trim().chars().take(4000).collect());
            }
            Ok((Err(_), call)) => {
                st.extra_calls.push(call);
                st.summary = Some(fallback);
            }
            Err(_) => st.summary = Some(fallback),
        }
    }

    /// Whether `patch` applies to the reviewed state, in words for the report.
    fn check_patch(&self, patch: &str) -> String {
        let Some(dir) = &self.repo_dir else {
            return "not checked (no repository)".into();
        };
        let result = (|| -> std::result::Result<(), git2::Error> {
            let repo = git2::Repository::open(dir)?;
            let diff = git2::Diff::from_buffer(patch.as_bytes())?;
            match &self.patch_base {
                PatchBase::WorkTree => {
                    let mut opts = git2::ApplyOptions::new();
                    opts.check(true);
                    repo.apply(&diff, git2::ApplyLocation::WorkDir, Some(&mut opts))?;
                    // "Applies cleanly" only when git itself agrees: `git debate apply` uses it.
                    let Some(work_tree) = repo.workdir() else {
                        return Ok(());
                    };
                    match crate::git::apply::refused_by_git(dir, work_tree, patch) {
                        Ok(None) => Ok(()),
                        Ok(Some(why)) => Err(git2::Error::from_str(&format!("{why} (git apply)"))),
                        Err(e) => Err(git2::Error::from_str(&format!("{e:#}"))),
                    }
                }
                PatchBase::Commit(sha) => {
                    let tree = repo.find_commit(git2::Oid::from_str(sha)?)?.tree()?;
                    repo.apply_to_tree(&tree, &diff, None).map(|_| ())
                }
                PatchBase::None => Err(git2::Error::from_str("no base to apply to")),
            }
        })();
        match result {
            Ok(()) => "applies cleanly; not applied".into(),
            Err(e) => format!("does not apply: {}", e.message()),
        }
    }
}

/// Decision A: the current version is the final one.
fn keep(n: u32, st: &mut State) {
    st.final_decision = Some(crate::review::kept(st.version));
    st.stop_reason = Some(if st.version > 1 {
        format!(
            "decision A in round {n}: keep the current version (v{})",
            st.version
        )
    } else {
        format!("decision A in round {n}: keep the original")
    });
    st.converged = true;
}

/// Whether Ctrl-C ended this author call (as opposed to the author failing).
fn cut_short(r: &std::result::Result<Answer, BackendError>) -> bool {
    matches!(r, Err(e) if e.kind == crate::agents::ErrorKind::Interrupted)
        || (r.is_err() && crate::sys::signals::interrupted())
}

/// The diff in an answer: its ```diff (or ~~~patch) block if it has one, else the text from
/// the first `diff --git` or `--- ` line. Fences are the markdown model's.
fn extract_diff(text: &str) -> String {
    let doc = crate::markdown::Doc::parse(text);
    if let Some((_, c)) = doc
        .fenced()
        .find(|(_, c)| c.info.contains("diff") || c.info.contains("patch"))
    {
        return c.body.clone();
    }
    let start = text
        .find("diff --git")
        .or_else(|| text.find("\n--- ").map(|i| i + 1))
        .unwrap_or(0);
    let mut out = text[start..].trim_end().to_string();
    out.push('\n');
    out
}

/// An answer wrapped whole in one code fence, unwrapped.
fn strip_fence(text: &str) -> String {
    let t = text.trim();
    let doc = crate::markdown::Doc::parse(t);
    if let [b] = doc.blocks.as_slice() {
        if let crate::markdown::Kind::Code(c) = &b.kind {
            if c.fence.is_some() {
                return c.body.trim_end().to_string() + "\n";
            }
        }
    }
    let mut s = t.to_string();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diffs_are_found_in_answers() {
        let fenced = "Here it is:\n```diff\ndiff --git a/x b/x\n--- a/x\n+++ b/x\n```\nDone.";
        assert!(extract_diff(fenced).starts_with("diff --git a/x b/x\n--- a/x"));
        let bare = "Sure.\ndiff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n";
        assert!(extract_diff(bare).starts_with("diff --git"));
        assert_eq!(
            strip_fence("```markdown\n# Doc\nbody\n```"),
            "# Doc\nbody\n"
        );
        assert_eq!(strip_fence("# Doc\n"), "# Doc\n");
        // A tilde fence is a fence too, in both.
        assert_eq!(strip_fence("~~~md\n# Doc\n~~~"), "# Doc\n");
        assert!(extract_diff("~~~patch\n--- a/x\n+++ b/x\n~~~\n").starts_with("--- a/x"));
    }
}
