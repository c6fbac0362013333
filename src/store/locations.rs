//! Where a review's finding locations are checked against (`locations.json`): the changed files
//! with their hunks' ranges, and the revision the rest is read from. Stored so `resume` checks
//! the same way and a stored report knows the single file reviewed; built and used by
//! [`crate::review::locations`].

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The index's file in a session folder.
pub const FILE: &str = "locations.json";

/// Where the reviewed version of a file lives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "id")]
pub enum Revision {
    Commit(String),
    Tree(String),
    WorkTree,
    None,
}

/// One changed file: the new-side ranges of its hunks (old-side for a deletion) and its length.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Changed {
    pub ranges: Vec<(u32, u32)>,
    /// Lines in the reviewed version, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<u32>,
    #[serde(default)]
    pub deleted: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LocationIndex {
    pub changed: BTreeMap<String, Changed>,
    pub revision: Revision,
    /// The one file under review, when the artifact is a single file (a `file:` scope or a
    /// one-file change): where a finding without a location is attached in SARIF.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub single_file: Option<String>,
}
