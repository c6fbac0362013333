//! Pathspecs after `--` limit any scope to the paths they match, as `git diff -- <paths>` does.
//!
//! git reads a pathspec relative to the current directory, and without magic its `*` also
//! matches `/` (`docs/*.md` matches `docs/a/b.md`); libgit2's pathspec matcher follows those
//! rules, so it is used rather than a glob crate with other ones. A rename is kept when either of
//! its names matches, as git keeps it.

use std::path::Path;

use anyhow::Result;
use git2::{Pathspec, PathspecFlags};

use crate::error::UsageError;
use crate::git::Change;

/// Keeps the files of `change` that `specs` match; `prefix` is the current directory relative to
/// the work tree's root (`""` at the root, `"src/"` below it). A pathspec matching nothing in the
/// change is an error naming it, so a typo is not a silent empty review.
pub fn limit(change: &mut Change, specs: &[String], prefix: &str) -> Result<()> {
    if specs.is_empty() {
        return Ok(());
    }
    let rooted: Vec<String> = specs.iter().map(|s| rooted(s, prefix)).collect();
    let all = Pathspec::new(rooted.iter().map(String::as_str))
        .map_err(|e| UsageError::new(format!("bad pathspec {specs:?}: {}", e.message())))?;
    let matches = |spec: &Pathspec, f: &crate::git::FileChange| {
        std::iter::once(&f.path)
            .chain(f.old_path.as_ref())
            .any(|p| spec.matches_path(Path::new(p), PathspecFlags::DEFAULT))
    };
    for (given, spec) in specs.iter().zip(&rooted) {
        let one = Pathspec::new([spec.as_str()])
            .map_err(|e| UsageError::new(format!("bad pathspec {given:?}: {}", e.message())))?;
        if !change.files.iter().any(|f| matches(&one, f)) {
            crate::usage!(
                "pathspec '{given}' matches no file of this change; check it with `git diff \
                 --stat -- {given}` against the same revisions"
            );
        }
    }
    change.files.retain(|f| matches(&all, f));
    change.description = format!("{} (limited to {})", change.description, specs.join(" "));
    Ok(())
}

/// A pathspec given below the root, as seen from the root: `lib.rs` in `src/` is `src/lib.rs`;
/// `:/x` and `:(top)x` are already from the root.
fn rooted(spec: &str, prefix: &str) -> String {
    if let Some(top) = spec.strip_prefix(":/") {
        return top.to_string();
    }
    let mut out = prefix.to_string();
    let mut rest = spec.strip_prefix("./").unwrap_or(spec);
    while let Some(up) = rest.strip_prefix("../") {
        rest = up;
        let trimmed = out.trim_end_matches('/');
        out = match trimmed.rfind('/') {
            Some(i) => trimmed[..=i].to_string(),
            None => String::new(),
        };
    }
    if rest == "." || rest.is_empty() {
        return if out.is_empty() { "*".into() } else { out };
    }
    out + rest
}

#[cfg(test)]
mod tests {
    use super::rooted;

    #[test]
    fn pathspecs_below_the_root_are_read_from_the_root() {
        assert_eq!(rooted("lib.rs", "src/"), "src/lib.rs");
        assert_eq!(rooted("./lib.rs", "src/"), "src/lib.rs");
        assert_eq!(rooted("../docs/*.md", "src/"), "docs/*.md");
        assert_eq!(rooted(":/docs", "src/a/"), "docs");
        assert_eq!(rooted(".", "src/"), "src/");
        assert_eq!(rooted(".", ""), "*");
        assert_eq!(rooted("docs/", ""), "docs/");
    }
}
