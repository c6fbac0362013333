//! The report as people read it: every text field made safe to print before a human-readable
//! format (text, markdown, GitHub annotations) is rendered from it.
//!
//! Titles, paths, reasons and decisions come from model answers, file names and commit
//! messages. Each is one line in every human format, so a newline or escape sequence in it is
//! shown (`␊`, `␛`) rather than allowed to fake a line of ours or act on the terminal; bodies and
//! suggested actions may span lines and keep their newlines. The JSON formats are rendered from
//! the exact report instead (see `crate::ui::terminal::json`).

use std::path::{Path, PathBuf};

use crate::report::{Item, JudgeLine, Report, WithdrawnItem};
use crate::ui::terminal::{clean, clean_line};

fn line(s: &str) -> String {
    clean_line(s).into_owned()
}

fn text(s: &str) -> String {
    clean(s).into_owned()
}

fn path(p: &Path) -> PathBuf {
    match p.to_str() {
        Some(s) if clean_line(s) == s => p.to_path_buf(),
        _ => PathBuf::from(line(&p.to_string_lossy())),
    }
}

impl Item {
    fn for_display(&self) -> Item {
        let mut i = self.clone();
        i.id = line(&i.id);
        i.title = line(&i.title);
        i.evidence = i.evidence.as_deref().map(line);
        if let Some(l) = &mut i.location {
            l.path = line(&l.path);
        }
        i.body = text(&i.body);
        i.action = i.action.as_deref().map(text);
        i.segment = i.segment.as_deref().map(line);
        i.reason = line(&i.reason);
        if let Some(w) = &mut i.waiver {
            w.reason = line(&w.reason);
            w.by = line(&w.by);
            w.finding = line(&w.finding);
            w.title = line(&w.title);
        }
        if let Some(d) = &mut i.dispute {
            d.judge_reason = line(&d.judge_reason);
            d.reviewer_words = line(&d.reviewer_words);
        }
        i
    }
}

impl WithdrawnItem {
    fn for_display(&self) -> WithdrawnItem {
        WithdrawnItem {
            id: line(&self.id),
            title: line(&self.title),
            ruling: line(&self.ruling),
            words: line(&self.words),
            ..self.clone()
        }
    }
}

impl JudgeLine {
    fn for_display(&self) -> JudgeLine {
        JudgeLine {
            decided_by: line(&self.decided_by),
            reason: line(&self.reason),
            judge_reason: line(&self.judge_reason),
            from: line(&self.from),
            why: line(&self.why),
            ..self.clone()
        }
    }
}

impl Report {
    /// A copy with every field safe to print (see the module documentation).
    pub fn for_display(&self) -> Report {
        let lines = |v: &[String]| v.iter().map(|s| line(s)).collect::<Vec<_>>();
        Report {
            session: line(&self.session),
            session_dir: path(&self.session_dir),
            target: line(&self.target),
            author: line(&self.author),
            reviewer: line(&self.reviewer),
            status: line(&self.status),
            stop_reason: line(&self.stop_reason),
            final_decision: line(&self.final_decision),
            final_artifact: path(&self.final_artifact),
            final_patch: self.final_patch.as_deref().map(path),
            patch_check: self.patch_check.as_deref().map(line),
            findings: self.findings.iter().map(Item::for_display).collect(),
            judge_history: self
                .judge_history
                .iter()
                .map(JudgeLine::for_display)
                .collect(),
            unresolved: self.unresolved.iter().map(Item::for_display).collect(),
            waived: self.waived.iter().map(Item::for_display).collect(),
            waiver_notes: lines(&self.waiver_notes),
            withdrawn: self
                .withdrawn
                .iter()
                .map(WithdrawnItem::for_display)
                .collect(),
            notes: lines(&self.notes),
            missing_alternatives: lines(&self.missing_alternatives),
            reviewer_recommendation: self.reviewer_recommendation.as_deref().map(line),
            next_actions: lines(&self.next_actions),
            usage: self
                .usage
                .iter()
                .map(|(k, v)| (line(k), v.clone()))
                .collect(),
            gate: crate::report::Gate {
                blocking: lines(&self.gate.blocking),
                ..self.gate.clone()
            },
            error: self.error.as_deref().map(line),
            coverage: self.coverage.as_ref().map(|c| c.for_display()),
            fallback: self.fallback.as_ref().map(|f| crate::review::Fallback {
                reviewer: line(&f.reviewer),
                instead_of: line(&f.instead_of),
                because: line(&f.because),
                also_failed: f
                    .also_failed
                    .iter()
                    .map(|p| crate::store::call::PassedOver {
                        reviewer: line(&p.reviewer),
                        because: line(&p.because),
                    })
                    .collect(),
            }),
            reviewers: self
                .reviewers
                .as_ref()
                .map(|v| crate::store::summary::Reviewers {
                    seats: v
                        .seats
                        .iter()
                        .map(|s| crate::store::round::Seat {
                            reviewer: line(&s.reviewer),
                            family: line(&s.family),
                            error: s.error.as_deref().map(line),
                            instead_of: s
                                .instead_of
                                .iter()
                                .map(|p| crate::store::call::PassedOver {
                                    reviewer: line(&p.reviewer),
                                    because: line(&p.because),
                                })
                                .collect(),
                            ..s.clone()
                        })
                        .collect(),
                    ..v.clone()
                }),
            single_file: self.single_file.as_deref().map(line),
            ..self.clone()
        }
    }
}
