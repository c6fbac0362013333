//! The earlier review an incremental review continues: found in the session store by scope and
//! reviewed head (the index holds both), and read back — the files it reviewed and the findings
//! it left open (its report's unresolved list, carried-open ones included).

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde_json::Value;

use crate::findings::Finding;
use crate::store::{catalog, files, index};

/// A finished review of a commit.
#[derive(Debug, Clone)]
pub struct Previous {
    pub id: String,
    pub dir: PathBuf,
    /// The commit it reviewed.
    pub head: String,
    /// Its scope, as the user would type it.
    pub scope: String,
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
    let json = |name: &str| -> std::result::Result<Value, String> {
        let bytes =
            files::read(&dir.join(name)).map_err(|_| format!("the session has no {name}"))?;
        serde_json::from_slice(&bytes).map_err(|_| format!("its {name} is not valid JSON"))
    };
    let meta = json("metadata.json")?;
    let scope = meta["scope"]["effective"]
        .as_str()
        .unwrap_or("?")
        .to_string();
    let head = meta["scope"]["resolved"]["head"]
        .as_str()
        .filter(|h| index::is_sha(h))
        .ok_or_else(|| format!("that session reviewed no commit (scope {scope})"))?
        .to_string();
    let summary = json("summary.json").map_err(|_| {
        format!(
            "that session has no report (status {})",
            meta["status"].as_str().unwrap_or("unknown")
        )
    })?;
    if summary["evaluated"].as_bool() != Some(true) {
        return Err("that session's reviewer never answered: nothing was reviewed".into());
    }
    // The whole change's files (an incremental review's own `files` are only its delta).
    let listed = &meta["incremental"]["change_files"];
    if let Some(all) = listed.as_array() {
        let files = all
            .iter()
            .filter_map(Value::as_str)
            .map(String::from)
            .collect();
        return finish_load(id, dir, head, scope, files, &summary);
    }
    let files = meta["files"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|f| [f["path"].as_str(), f["old_path"].as_str()])
        .flatten()
        .map(String::from)
        .collect();
    finish_load(id, dir, head, scope, files, &summary)
}

fn finish_load(
    id: &str,
    dir: &Path,
    head: String,
    scope: String,
    files: Vec<String>,
    summary: &Value,
) -> std::result::Result<Previous, String> {
    let open = summary["unresolved"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|i| serde_json::from_value::<Finding>(i.clone()).ok())
        .filter(|f| !f.id.is_empty())
        .collect();
    // Its own findings, the ones it carried, and the ids its own predecessors had given.
    let last_id = [
        &summary["findings"],
        &summary["unresolved"],
        &summary["incremental"]["carried"],
    ]
    .into_iter()
    .flat_map(|list| list.as_array().into_iter().flatten())
    .filter_map(|i| i["id"].as_str()?.strip_prefix('F')?.parse::<usize>().ok())
    .chain(crate::review::incremental::load(dir).map(|p| p.last_id))
    .max()
    .unwrap_or(0);
    Ok(Previous {
        last_id,
        id: id.to_string(),
        dir: dir.to_path_buf(),
        head,
        scope,
        files,
        open,
    })
}
