//! What `git debate show` reads of a stored session: its summary, its artifact, one round's
//! files. Every file may be missing or damaged (a dry run has no summary, an interrupted run no
//! round), so each comes back as what could be read.

use serde_json::Value;

use crate::store::{files, Stored};

/// The session's report and artifact, as far as they can be read.
pub struct Contents {
    pub summary_md: Option<String>,
    pub summary_json: Option<Value>,
    /// The artifact, or why it cannot be read.
    pub artifact: Result<String, String>,
}

/// One round's files.
pub struct RoundFiles {
    pub record: Option<Value>,
    pub input: Option<String>,
    pub critique: Option<String>,
    pub judge: Option<String>,
}

impl Stored {
    fn text(&self, name: &str) -> Option<String> {
        files::read_to_string(&self.dir.join(name)).ok()
    }

    pub fn contents(&self) -> Contents {
        Contents {
            summary_md: self.text("summary.md"),
            summary_json: self
                .text("summary.json")
                .and_then(|t| serde_json::from_str(&t).ok()),
            artifact: match files::read(&self.dir.join("artifact.md")) {
                Ok(b) => Ok(String::from_utf8_lossy(&b).into_owned()),
                Err(e) => Err(format!("artifact.md unreadable: {e}")),
            },
        }
    }

    /// Round `n`'s record, prompt, critique and judgement.
    pub fn round(&self, n: u32) -> RoundFiles {
        RoundFiles {
            record: self
                .text(&format!("round-{n}.json"))
                .and_then(|t| serde_json::from_str(&t).ok()),
            input: self.text(&format!("round-{n}-input.md")),
            critique: self.text(&format!("round-{n}-critique.md")),
            judge: self.text(&format!("round-{n}-judge.md")),
        }
    }

    /// How many rounds the metadata records (0 when it cannot be read).
    pub fn rounds(&self) -> u64 {
        self.metadata
            .as_ref()
            .ok()
            .and_then(|m| m["rounds"].as_u64())
            .unwrap_or(0)
    }
}
