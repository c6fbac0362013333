//! What an incremental review sends: the change's files as they differ between the head the
//! earlier review saw and the new head — trees compared, not commit lists — and when that delta
//! means nothing, because the branch's history was rewritten.
//!
//! Restricting the tree difference to the files the change touches now is what keeps a rebase
//! incremental: what the rebase brought in from the base is in other files, and is left out (and
//! listed). A file both the base and the change touched shows the base's edits in it too.
//!
//! "History was rewritten" (a full review instead) means: the old head is not an ancestor of the
//! new one (so this is not a plain push), and either the old head is not in the repository any
//! more, or none of the files the earlier review saw are in the change now, or the trees differ
//! in the change's files by at least as many lines as the whole change has — then the delta is
//! no smaller than a full review and says little about what was already reviewed. A rebase onto
//! a newer base, even with conflicts resolved, changes few of the change's own lines and stays
//! incremental.

/// Why the delta from the old head cannot stand for the change, or `None` when it can.
/// `ancestor`: the old head is an ancestor of the new one; `old_files`: the files the earlier
/// review saw, when known; `paths`: the change's files now; `delta_lines` and `change_lines`:
/// lines added + removed in the delta and in the whole change.
pub fn rewritten(
    ancestor: bool,
    old_files: Option<&[String]>,
    paths: &[String],
    delta_lines: usize,
    change_lines: usize,
) -> Option<String> {
    if ancestor {
        return None;
    }
    if let Some(old) = old_files.filter(|o| !o.is_empty()) {
        if !old.iter().any(|f| paths.contains(f)) {
            return Some(
                "history was rewritten: the reviewed head is not an ancestor of the new one, and \
                 none of the files reviewed then are in the change now"
                    .into(),
            );
        }
    }
    if change_lines > 0 && delta_lines >= change_lines {
        return Some(format!(
            "history was rewritten: the reviewed head is not an ancestor of the new one, and its \
             tree differs from the new head's in the change's files by {delta_lines} lines, as \
             much as the whole change ({change_lines} lines)"
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(xs: &[&str]) -> Vec<String> {
        xs.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_push_is_never_a_rewrite() {
        assert_eq!(rewritten(true, Some(&v(&["x"])), &v(&["y"]), 500, 10), None);
    }

    #[test]
    fn a_rebase_that_keeps_the_change_is_incremental() {
        let files = v(&["src/a.rs", "src/b.rs"]);
        assert_eq!(rewritten(false, Some(&files), &files, 12, 1000), None);
        // Unknown earlier files (`--since REV`): the size alone decides.
        assert_eq!(rewritten(false, None, &files, 12, 1000), None);
    }

    #[test]
    fn other_files_or_a_delta_as_big_as_the_change_is_a_rewrite() {
        let why = rewritten(false, Some(&v(&["old.rs"])), &v(&["new.rs"]), 3, 100).unwrap();
        assert!(why.contains("none of the files"), "{why}");
        let files = v(&["a.rs"]);
        let why = rewritten(false, Some(&files), &files, 100, 100).unwrap();
        assert!(why.contains("100 lines"), "{why}");
    }
}
