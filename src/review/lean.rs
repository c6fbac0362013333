//! Tokens go to findings: after the review, the author's calls are sent what they act on, not
//! the whole change again.
//!
//! The judge and the rebuttal get the file list and the hunks the findings point at; the
//! compromise and the reviewer's version get the files the standing findings touch, and their
//! answer is merged back file by file into the version of the whole change. A document that is
//! not a per-file diff (a design, a file scope) is small and sent whole, as before.

use crate::answer::judge::Judged;
use crate::change::markdown::Target;
use crate::change::sections::{self, DiffDoc, Section};
use crate::findings::Finding;
use crate::review::Review;

/// What an author call about the change is shown.
pub(super) struct Shown {
    pub text: String,
    /// Only some files of the change are shown: the answer covers only them.
    pub subset: bool,
}

impl Review<'_> {
    fn doc(&self, text: &str) -> Option<DiffDoc> {
        (self.artifact.target == Target::Code)
            .then(|| DiffDoc::parse(text))
            .flatten()
    }

    fn cap(&self) -> usize {
        self.settings.max_artifact_bytes as usize
    }

    /// For the judge and the rebuttal: the hunks `findings` point at, with the file list.
    pub(super) fn pointed(&self, text: &str, findings: &[Finding]) -> String {
        match self.doc(text) {
            Some(doc) => format!(
                "Only the parts of the change the findings point at are shown; every changed \
                 file is listed, and you may read the repository for more.\n\n{}",
                sections::pointed(&doc, findings, self.cap())
            ),
            None => text.to_string(),
        }
    }

    /// For the compromise and the reviewer's version: the files the standing findings touch.
    pub(super) fn touched(&self, text: &str, judged: &[Judged]) -> Shown {
        let whole = || Shown {
            text: text.to_string(),
            subset: false,
        };
        let Some(doc) = self.doc(text) else {
            return whole();
        };
        let standing: Vec<&Finding> = judged
            .iter()
            .filter(|j| j.stands())
            .map(|j| &j.finding)
            .collect();
        let places: Vec<Option<usize>> = standing
            .iter()
            .map(|f| f.location.as_ref().and_then(|l| doc.find(&l.path)))
            .collect();
        let mut picked: Vec<usize> = places.iter().flatten().copied().collect();
        picked.sort_unstable();
        picked.dedup();
        // A standing finding with no file may concern any of them: a change that fits one
        // prompt is then shown whole; a bigger one by its file list, as the judge saw it.
        let unplaced = places.contains(&None);
        if picked.is_empty() || (unplaced && text.len() <= self.cap()) {
            if text.len() <= self.cap() {
                return whole();
            }
            let owned: Vec<Finding> = standing.into_iter().cloned().collect();
            return Shown {
                text: self.pointed(text, &owned),
                subset: true,
            };
        }
        if picked.len() == doc.sections.len() {
            return whole();
        }
        let files: Vec<&Section> = picked.iter().map(|&i| &doc.sections[i]).collect();
        let body: String = files.iter().map(|s| s.text.as_str()).collect();
        let fence = crate::change::fence_for(&body);
        Shown {
            text: format!(
                "The {} files the findings touch, of the {} the change holds:\n\n{fence}diff\n\
                 {body}{fence}\n",
                files.len(),
                doc.sections.len()
            ),
            subset: true,
        }
    }

    /// The next version of the whole change from an author's revised diff: its files replace
    /// theirs, the others stay. Returns the text and the files revised; `None` when either side
    /// is no per-file diff (the answer is then the next version, as for a document).
    pub(super) fn merged(&self, current: &str, answer: &str) -> Option<(String, Vec<String>)> {
        let mut doc = self.doc(current)?;
        let revised = doc.merge(answer)?;
        Some((doc.render(), revised))
    }
}

/// The sentence added to the format note when only some files were shown.
pub(super) const SUBSET_NOTE: &str = " Only the files the findings touch are shown: output the \
revised diff of those files only; the other files of the change stay as they are.";
