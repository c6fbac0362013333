//! What a chunked review covered, as the report says it: its chunks and their files, the files
//! no chunk held, and the files whose chunk never got an answer. The last are "not evaluated":
//! the exit code and every CI format say so, so a pipeline never reads them as passed.

use crate::change::budget::Note;
use crate::review::record::ChunkRecord;
use crate::review::ReviewOutcome;
pub use crate::store::summary::Coverage;
use crate::ui::terminal::clean_line;

impl Coverage {
    /// `None` for a review that was not chunked.
    pub fn of(o: &ReviewOutcome) -> Option<Coverage> {
        let chunks = o
            .rounds
            .iter()
            .find(|r| !r.chunks.is_empty())
            .map(|r| r.chunks.clone())
            .unwrap_or_default();
        if chunks.is_empty() && o.not_evaluated.is_empty() && o.unfit.is_empty() {
            return None;
        }
        Some(Coverage {
            chunks,
            not_evaluated: o.not_evaluated.clone(),
            unfit: o.unfit.clone(),
        })
    }

    pub fn for_display(&self) -> Coverage {
        let line = |s: &str| clean_line(s).into_owned();
        Coverage {
            chunks: self
                .chunks
                .iter()
                .map(|c| ChunkRecord {
                    files: c.files.iter().map(|f| line(f)).collect(),
                    error: c.error.as_deref().map(line),
                    ..c.clone()
                })
                .collect(),
            not_evaluated: self.not_evaluated.iter().map(|f| line(f)).collect(),
            unfit: self
                .unfit
                .iter()
                .map(|n| Note {
                    path: line(&n.path),
                    reason: line(&n.reason),
                    omitted: n.omitted,
                })
                .collect(),
        }
    }

    /// One line that a CI log or annotation can carry.
    pub fn not_evaluated_line(&self) -> Option<String> {
        (!self.not_evaluated.is_empty()).then(|| {
            format!(
                "{} files were not evaluated (their chunk's review failed, or the change needed \
                 more than debate.maxChunks chunks), so this review does not pass them: {}",
                self.not_evaluated.len(),
                list(&self.not_evaluated, 10)
            )
        })
    }

    /// The lines of the text and markdown reports (a `- ` is put before each by markdown).
    pub fn lines(&self) -> Vec<String> {
        let mut out = Vec::new();
        if !self.chunks.is_empty() {
            let ok = self.chunks.iter().filter(|c| c.reviewed).count();
            out.push(format!(
                "reviewed in {} chunks at once ({ok} answered in round 1)",
                self.chunks.len()
            ));
            for c in &self.chunks {
                let state = match &c.error {
                    Some(e) => format!("failed: {e}"),
                    None if c.reviewed => "reviewed".into(),
                    None => "not reviewed".into(),
                };
                out.push(format!(
                    "chunk {} ({} files, {state}): {}",
                    c.chunk,
                    c.files.len(),
                    list(&c.files, 8)
                ));
            }
        }
        out.extend(self.not_evaluated_line());
        // A file not evaluated is named above already.
        let partly: Vec<Note> = self
            .unfit
            .iter()
            .filter(|n| !(n.omitted && self.not_evaluated.contains(&n.path)))
            .cloned()
            .collect();
        out.extend(crate::change::budget::note_lines(&partly));
        out
    }
}

/// The first `max` items, then how many more.
fn list(items: &[String], max: usize) -> String {
    let mut s = items
        .iter()
        .take(max)
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join(", ");
    if items.len() > max {
        s.push_str(&format!(" and {} more", items.len() - max));
    }
    s
}
