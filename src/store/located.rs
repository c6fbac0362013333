//! Which store an invocation reads: `--state-dir`, `debate.stateDir`, or the default place for
//! this repository (or, outside one, for this folder). Listing, showing, pruning and the prune
//! after every run all find the store the same way, so they always agree on where sessions are.

use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::settings::{Layers, Overrides, Settings};

/// The store an invocation reads, with the repository and settings it was found from (pruning
/// needs both: the configured limits, and the staged trees the hook's sessions are kept for).
pub struct Located {
    pub base: PathBuf,
    pub repo: Option<crate::git::Repo>,
    pub settings: Settings,
}

/// The store for `state_dir` (the flag), else the configured or default one.
pub fn locate(state_dir: Option<&Path>) -> Result<Located> {
    let repo = crate::git::repo::discover()?;
    let flags = Overrides {
        state_dir: state_dir.map(Into::into),
        ..Default::default()
    };
    let settings = Settings::resolve(
        Layers::load(repo.as_ref().map(crate::git::Repo::dirs))?,
        &flags,
    )?;
    let cwd = std::env::current_dir()?;
    let base = crate::store::base_dir(repo.as_ref(), settings.state_dir.as_deref(), &cwd);
    Ok(Located {
        base,
        repo,
        settings,
    })
}

/// Only the store's folder.
pub fn dir(state_dir: Option<&Path>) -> Result<PathBuf> {
    Ok(locate(state_dir)?.base)
}
