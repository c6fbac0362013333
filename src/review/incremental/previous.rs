//! The earlier review an incremental review continues: found in the session store by scope and
//! reviewed head (the index holds both), and read back — the files it reviewed and the findings
//! it left open (its report's unresolved list, carried-open ones included).

use std::path::Path;

use anyhow::Result;

use crate::findings::Finding;
use crate::store::metadata::Metadata;
use crate::store::summary::{Item, Report};
use crate::store::{catalog, folder, index};

/// A finished review of a commit.
#[derive(Debug, Clone)]
pub struct Previous {
    pub id: String,
    /// The commit it reviewed.
    pub head: String,
    /// The paths of its change (both sides of renames).
    pub files: Vec<String>,
    /// What it left open.
    pub open: Vec<Finding>,
    /// The highest `F<n>` it gave.
    pub last_id: usize,
}

/// The newest finished review of `scope` (optionally: of the commit `head`).
pub fn latest(store: &Path, scope: &str, head: Option<&str>) -> Result<Option<Previous>> {
    Ok(finished(store, scope, head, 1)?.into_iter().next())
}

/// The finished reviews of `scope` (optionally: of the commit `head`), newest first, at most
/// `limit`.
pub fn finished(
    store: &Path,
    scope: &str,
    head: Option<&str>,
    limit: usize,
) -> Result<Vec<Previous>> {
    let mut out = Vec::new();
    for row in catalog::list(store)? {
        let Ok(e) = &row.entry else { continue };
        let finished = e.status.as_deref() == Some("completed");
        let same_head = head.is_none_or(|h| e.head.as_deref() == Some(h));
        if e.scope == scope && finished && e.head.is_some() && same_head {
            if let Ok(p) = load(&row.id, &row.dir) {
                out.push(p);
                if out.len() >= limit {
                    break;
                }
            }
        }
    }
    Ok(out)
}

/// The session `id`, which must be a finished review of a commit.
pub fn named(store: &Path, id: &str) -> Result<Previous> {
    let dir = store.join(id);
    if !index::is_id(id) || !dir.is_dir() {
        crate::usage!(
            "--since {id}: no such session in {}; `git debate sessions` lists them",
            store.display()
        );
    }
    match load(id, &dir) {
        Ok(p) => Ok(p),
        Err(why) => crate::usage!(
            "--since {id}: {why}; name a finished review of a base: or range: scope, or a revision"
        ),
    }
}

/// Reads a session folder, or says why it cannot be continued.
fn load(id: &str, dir: &Path) -> std::result::Result<Previous, String> {
    let meta = match folder::metadata(dir) {
        Ok(Metadata::Review(m)) => m,
        Ok(_) => return Err("that session is a debate, not a review".into()),
        Err(e) if e.is_missing() => return Err("the session has no metadata.json".into()),
        Err(e) => return Err(format!("its {e}")),
    };
    let scope = meta.scope.effective.clone().unwrap_or_else(|| "?".into());
    let head = meta
        .scope
        .resolved
        .as_ref()
        .and_then(|r| r.head.clone())
        .filter(|h| index::is_sha(h))
        .ok_or_else(|| format!("that session reviewed no commit (scope {scope})"))?;
    let summary: Report = match folder::summary(dir) {
        Ok(Some(s)) => s,
        Ok(None) => {
            return Err(format!(
                "that session has no report (status {})",
                Some(meta.common.status.as_str())
                    .filter(|s| !s.is_empty())
                    .unwrap_or("unknown")
            ))
        }
        Err(e) => return Err(format!("its {e}")),
    };
    if !summary.evaluated {
        return Err("that session's reviewer never answered: nothing was reviewed".into());
    }
    // The whole change's files (an incremental review's own `files` are only its delta).
    let files = match meta.incremental.and_then(|i| i.change_files) {
        Some(all) => all,
        None => meta
            .files
            .into_iter()
            .flat_map(|f| std::iter::once(f.path).chain(f.old_path))
            .collect(),
    };
    Ok(finish_load(id, dir, head, files, &summary))
}

fn finish_load(
    id: &str,
    dir: &Path,
    head: String,
    files: Vec<String>,
    summary: &Report,
) -> Previous {
    let open = summary
        .unresolved
        .iter()
        .map(Item::finding)
        // A possible prompt injection is found again in each review's own material, never
        // carried: its `I<n>` id would clash with the new review's.
        .filter(|f| !f.id.is_empty() && f.source != crate::findings::Source::Detector)
        .collect();
    // Its own findings, the ones it carried, and the ids its own predecessors had given.
    let carried = summary.incremental.iter().flat_map(|i| &i.carried);
    let last_id = summary
        .findings
        .iter()
        .chain(&summary.unresolved)
        .map(|i| i.id.as_str())
        .chain(carried.map(|c| c.id.as_str()))
        .filter_map(|id| id.strip_prefix('F')?.parse::<usize>().ok())
        .chain(crate::review::incremental::load(dir).map(|p| p.last_id))
        .max()
        .unwrap_or(0);
    Previous {
        last_id,
        id: id.to_string(),
        head,
        files,
        open,
    }
}
