//! What `git debate show` reads of a stored session: its summary, its artifact, one round's
//! files. Every file may be missing or damaged (a dry run has no summary, an interrupted run no
//! round), so each comes back as what could be read.

use crate::store::metadata::Metadata;
use crate::store::round::Round;
use crate::store::summary::{DebateSummary, OfKind};
use crate::store::{folder, session_read, Stored};

/// The session's report and artifact, as far as they can be read.
pub struct Contents {
    pub summary_md: Option<String>,
    /// `summary.json`, read as the session's kind writes it (none when it is missing, damaged,
    /// or the metadata does not say the kind).
    pub summary: Option<OfKind>,
    /// The artifact, or why it cannot be read.
    pub artifact: Result<String, String>,
}

/// One round's files.
pub struct RoundFiles {
    pub record: Option<Round>,
    pub input: Option<String>,
    pub critique: Option<String>,
    pub judge: Option<String>,
}

impl Stored {
    fn text(&self, name: &str) -> Option<String> {
        session_read::read_to_string(&self.dir.join(name)).ok()
    }

    pub fn contents(&self) -> Contents {
        Contents {
            summary_md: self.text("summary.md"),
            summary: self.summary(),
            artifact: match session_read::read(&self.dir.join("artifact.md")) {
                Ok(b) => Ok(String::from_utf8_lossy(&b).into_owned()),
                Err(e) => Err(format!("artifact.md unreadable: {e}")),
            },
        }
    }

    fn summary(&self) -> Option<OfKind> {
        let dir = &self.dir;
        match self.metadata.as_ref().ok()? {
            Metadata::Review(_) => folder::summary(dir)
                .ok()?
                .map(|r| OfKind::Review(Box::new(r))),
            Metadata::Topic(_) => folder::summary(dir)
                .ok()?
                .map(|s| OfKind::Debate(DebateSummary::Duel(Box::new(s)))),
            Metadata::Panel(_) => folder::summary(dir)
                .ok()?
                .map(|s| OfKind::Debate(DebateSummary::Panel(Box::new(s)))),
        }
    }

    /// Round `n`'s record, prompt, critique and judgement.
    pub fn round(&self, n: u32) -> RoundFiles {
        RoundFiles {
            record: folder::round(&self.dir, n).ok().flatten(),
            input: self.text(&format!("round-{n}-input.md")),
            critique: self.text(&format!("round-{n}-critique.md")),
            judge: self.text(&format!("round-{n}-judge.md")),
        }
    }

    /// How many rounds the metadata records (0 when it cannot be read).
    pub fn rounds(&self) -> u64 {
        self.metadata.as_ref().map_or(0, Metadata::rounds)
    }
}
