//! How every diff of a change is made and read: the size cap, git's diff options, and a
//! libgit2 patch turned into [`Hunk`]s.
//!
//! Resolving a scope, pairing renames, splitting type changes and diffing files on many cores all
//! make diffs that must look like `git diff`'s, so they share these here rather than reach into
//! one another.

use anyhow::Result;
use git2::{DiffOptions, Patch, Repository};

use crate::git::gitconfig;
use crate::git::{FileChange, Hunk};

/// Files bigger than this are not loaded into memory; they are listed as too large.
pub(super) const MAX_FILE_BYTES: u64 = 4 << 20;

/// The hunks `git diff` would show: git slides an ambiguous block of added or removed lines to
/// where the indentation says a block begins (`diff.indentHeuristic`, on by default since git
/// 2.14); libgit2 does not unless asked, and its hunks then differ from git's in some 9 % of real
/// commits. `diff.algorithm` is honoured where libgit2 has it (patience, minimal; libgit2 has no
/// histogram, so a histogram diff is asked of git, see [`crate::git::route`]).
pub(super) fn like_git_diff(repo: &Repository, opts: &mut DiffOptions) {
    let heuristic = gitconfig::boolean(repo, "diff.indentHeuristic").unwrap_or(true);
    opts.indent_heuristic(heuristic);
    // `diff.interHunkContext`: hunks this close are shown as one, as in git.
    if let Some(n) =
        gitconfig::integer(repo, "diff.interHunkContext").and_then(|n| u32::try_from(n).ok())
    {
        opts.interhunk_lines(n);
    }
    match gitconfig::string(repo, "diff.algorithm")
        .map(|a| a.trim().to_ascii_lowercase())
        .as_deref()
    {
        Some("patience") => {
            opts.patience(true);
        }
        Some("minimal") => {
            opts.minimal(true);
        }
        _ => {}
    }
}

/// Lines of context around a change: ours when given (`debate.contextLines`,
/// `--context-lines`), else git's `diff.context`, else git's default, 3.
pub(super) fn context_lines(repo: &Repository, ours: Option<u32>) -> u32 {
    ours.or_else(|| gitconfig::integer(repo, "diff.context").and_then(|n| u32::try_from(n).ok()))
        .unwrap_or(3)
}

/// Appends the hunks of `patch` to `fc` as git prints them, counting added and removed lines and
/// flagging text that was not UTF-8.
pub(super) fn read_hunks(patch: &Patch, fc: &mut FileChange) -> Result<()> {
    for h in 0..patch.num_hunks() {
        let (hunk, n) = patch.hunk(h)?;
        let header = hunk_header(hunk.header());
        let mut lines = Vec::with_capacity(n);
        for l in 0..n {
            let line = patch.line_in_hunk(h, l)?;
            let origin = line.origin();
            match origin {
                '+' => fc.additions += 1,
                '-' => fc.deletions += 1,
                // libgit2's end-of-file markers: render them the way git does.
                '=' | '>' | '<' => {
                    lines.push("\\ No newline at end of file".to_string());
                    continue;
                }
                _ => {}
            }
            let content = line.content();
            // The newline ends the line; a carriage return before it is content, as in git
            // (stripping it made an LF -> CRLF conversion look like identical -/+ lines).
            let content = content.strip_suffix(b"\n").unwrap_or(content);
            // One allocation per line, the origin and the text copied into it once.
            let text = String::from_utf8_lossy(content);
            fc.lossy |= matches!(text, std::borrow::Cow::Owned(_));
            let mut line = String::with_capacity(text.len() + 1);
            line.push(origin);
            line.push_str(&text);
            lines.push(line);
        }
        fc.hunks.push(Hunk { header, lines });
    }
    Ok(())
}

/// A hunk header as git prints it. libgit2 trims a function line's trailing whitespace before
/// cutting it to 80 bytes, git after (so git never ends one in a blank where libgit2 can): the
/// blanks git trims (space, tab, CR, LF) are trimmed here too, and nothing else (a trailing
/// no-break space or form feed is part of git's header).
pub(super) fn hunk_header(raw: &[u8]) -> String {
    let end = raw
        .iter()
        .rposition(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
        .map_or(0, |i| i + 1);
    String::from_utf8_lossy(&raw[..end]).into_owned()
}
