//! The user's prompt templates, beside the sessions (`<store>/templates/<name>.md`): a file there
//! replaces the built-in template of that name ([`crate::prompts`] has the built-ins).

use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};

/// The templates' folder of the store `base`.
pub fn dir(base: &Path) -> PathBuf {
    base.join("templates")
}

/// The override of template `file` in `dir`, if the user put one there. The user's own file, so
/// a link to it is followed.
pub fn read(dir: &Path, file: &str) -> Result<Option<String>> {
    let p = dir.join(file);
    if !p.is_file() {
        return Ok(None);
    }
    std::fs::read_to_string(&p)
        .map(Some)
        .with_context(|| format!("cannot read template {}", p.display()))
}
