//! A scope resolved by asking git: its sides with `git rev-parse`, `git merge-base`,
//! `git cat-file`, `git log` and `git write-tree`, its diff with `git diff`, read back by
//! [`crate::git::printed`].
//!
//! The diff is `git diff` as a user runs it, settings and attributes and all (the algorithm,
//! textconv and function-name drivers, `diff.context`, `diff.renames`, sparse checkouts, a
//! partial clone's blobs fetched as git fetches them), with only what would make its output
//! unreadable turned off: colour, external diff tools, submodule logs, `diff.relative`. For
//! `uncommitted`, the untracked files are added to a temporary copy of the index as intents
//! (`git add -N`), so `git diff HEAD` shows them as new files and pairs one that is a moved
//! tracked file as a rename, as a libgit2 diff of the work tree does; the real index is not
//! touched.

use std::collections::HashSet;

use anyhow::{Context as _, Result};

use crate::git::command::{text, Git};
use crate::git::repo::Repo;
use crate::git::revision::{self, no_merge_base, shallow_boundary};
use crate::git::sides::{
    commit_words, head_words, info, range_names, range_words, New, Sides, MAX_COMMITS,
};
use crate::git::{Change, CommitInfo, FileChange, Scope};

/// HEAD: its commit (`None` on an unborn branch) and its name for messages.
struct Head {
    id: Option<String>,
    name: String,
}

fn head(git: &Git) -> Result<Head> {
    let id = git.answer(&["rev-parse", "--verify", "--quiet", "HEAD^{commit}"])?;
    let id = id.ok.then(|| text(id.stdout));
    let branch = git.answer(&["symbolic-ref", "--quiet", "--short", "HEAD"])?;
    let name = match (branch.ok, &id) {
        (true, Some(_)) => text(branch.stdout),
        (true, None) => format!("unborn branch {}", text(branch.stdout)),
        (false, Some(id)) => format!("detached at {}", &id[..7]),
        (false, None) => "HEAD".to_string(),
    };
    Ok(Head { id, name })
}

/// The sides of `scope`, found by asking git.
pub(super) fn sides(repo: &Repo, scope: &Scope) -> Result<Sides> {
    let git = repo.git();
    let head = head(&git)?;
    let head_desc = || head_words(head.id.as_deref(), &head.name);
    let mut change = Change {
        base: head.id.clone(),
        ..Change::default()
    };
    let label = scope.to_string();
    let (old, new) = match scope {
        Scope::Uncommitted => {
            change.description = format!(
                "{} -> index + work tree (incl. untracked files)",
                head_desc()
            );
            (head.id.clone(), New::WorkTree)
        }
        Scope::Staged => {
            if !git.output(&["ls-files", "--unmerged", "-z"])?.is_empty() {
                crate::usage!(
                    "the index has unresolved merge conflicts; resolve them (git add) before reviewing --scope staged"
                );
            }
            let tree = text(git.output(&["write-tree"])?);
            change.description = format!("{} -> index (tree {})", head_desc(), &tree[..7]);
            change.index_tree = Some(tree);
            (head.id.clone(), New::Index)
        }
        Scope::Commit(rev) => {
            let id = commit_id(&git, &head, rev, &label)?;
            let (parents, message) = commit(&git, &id)?;
            let parent = parents.first().cloned();
            let shallow = parent.is_none() && shallow_boundary(repo.commondir(), &id);
            change.base = parent.clone();
            change.head = Some(id.clone());
            change.description = commit_words(&id, parent.as_deref(), parents.len(), shallow);
            change.commits = vec![info(id.clone(), &message)];
            (parent, New::Commit(id))
        }
        Scope::Base(branch) => {
            let Some(head_id) = head.id.clone() else {
                crate::usage!("--scope base:{branch} needs a commit on HEAD, but the branch has no commits yet")
            };
            let (base_id, base_name) = find_base(&git, &head, branch)?;
            let mb = merge_base(&git, &base_id, &head_id, &base_name, "HEAD")?;
            change.base = Some(mb.clone());
            change.merge_base = Some(mb.clone());
            change.head = Some(head_id.clone());
            change.description = format!(
                "merge-base {} of {base_name} and HEAD -> {}",
                &mb[..7],
                head_desc()
            );
            change.commits = commits_between(&git, &mb, &head_id)?;
            (Some(mb), New::Commit(head_id))
        }
        Scope::Range {
            from,
            to,
            three_dots,
        } => {
            let (from, to) = range_names(from, to);
            let a = commit_id(&git, &head, &from, &label)?;
            let b = commit_id(&git, &head, &to, &label)?;
            let old = if *three_dots {
                let mb = merge_base(&git, &a, &b, &from, &to)?;
                change.merge_base = Some(mb.clone());
                mb
            } else {
                a.clone()
            };
            change.base = Some(old.clone());
            change.head = Some(b.clone());
            change.description = range_words(&from, &to, &a, &old, &b, *three_dots);
            change.commits = commits_between(&git, &old, &b)?;
            (Some(old), New::Commit(b))
        }
        Scope::File(_) => unreachable!("file: scopes are read by the artifact builder"),
    };
    Ok(Sides {
        change,
        old,
        new,
        index: None,
    })
}

/// The commit `rev` names, as `git rev-parse <rev>^{commit}` finds it; a short id that several
/// objects start with is the one commit among them (as libgit2's resolution has it, see
/// [`crate::git::revision`]), with the same messages when there is none or several.
fn commit_id(git: &Git, head: &Head, rev: &str, scope: &str) -> Result<String> {
    let peeled = |rev: &str| -> Result<Option<String>> {
        let spec = format!("{rev}^{{commit}}");
        let a = git.answer(&[
            "rev-parse",
            "--verify",
            "--quiet",
            "--end-of-options",
            &spec,
        ])?;
        Ok(a.ok.then(|| text(a.stdout)))
    };
    if let Some(id) = peeled(rev)? {
        return Ok(id);
    }
    if rev.starts_with("HEAD") && head.id.is_none() {
        crate::usage!("--scope {scope}: {rev} has no commits yet ({})", head.name)
    }
    // It names something, just not a commit.
    let named = git.answer(&["rev-parse", "--verify", "--quiet", "--end-of-options", rev])?;
    if named.ok {
        let kind = text(git.output(&["cat-file", "-t", &text(named.stdout)])?);
        return Err(revision::not_a_commit(scope, rev, &format!("a {kind}")));
    }
    let Some((prefix, rest)) = revision::short_id(rev) else {
        return Err(revision::unknown_revision(scope, rev, revision::NO_NAME));
    };
    if prefix.len() < revision::MIN_PREFIX {
        return Err(revision::too_short(scope, prefix));
    }
    let found = objects_starting_with(git, prefix)?;
    let commits: Vec<&(String, String)> = found.iter().filter(|(_, k)| k == "commit").collect();
    match commits.as_slice() {
        [(id, _)] => match peeled(&format!("{id}{rest}"))? {
            Some(id) => Ok(id),
            None => Err(revision::unknown_revision(scope, rev, revision::NO_NAME)),
        },
        [] if found.is_empty() => Err(revision::unknown_revision(scope, rev, revision::NO_NAME)),
        [] => {
            let names: Vec<String> = found
                .iter()
                .take(revision::LISTED)
                .map(|(id, kind)| format!("{} ({kind})", &id[..10]))
                .collect();
            Err(revision::only_non_commits(scope, prefix, &names))
        }
        many => {
            let ids: Vec<&str> = many
                .iter()
                .take(revision::LISTED)
                .map(|(id, _)| id.as_str())
                .collect();
            let mut args = vec!["log", "--no-walk=unsorted", "--format=%H %ct %s"];
            args.extend(ids.iter().copied());
            let out = String::from_utf8_lossy(&git.output(&args)?).into_owned();
            let lines: Vec<String> = out
                .lines()
                .filter_map(|l| {
                    let (id, rest) = l.split_once(' ')?;
                    let (time, subject) = rest.split_once(' ').unwrap_or((rest, ""));
                    let day = revision::day(time.parse().ok()?);
                    Some(format!("  {} {day} {subject}", &id[..10]))
                })
                .collect();
            Err(revision::ambiguous(scope, prefix, many.len(), &lines))
        }
    }
}

/// Every object whose id starts with `prefix`, with its type, in id order.
fn objects_starting_with(git: &Git, prefix: &str) -> Result<Vec<(String, String)>> {
    let a = git.answer(&["rev-parse", &format!("--disambiguate={prefix}")])?;
    let mut ids: Vec<String> = String::from_utf8_lossy(&a.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    ids.sort();
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let input = ids.join("\n") + "\n";
    let out = git.output_with_input(
        &["cat-file", "--batch-check=%(objectname) %(objecttype)"],
        input.into_bytes(),
    )?;
    Ok(String::from_utf8_lossy(&out)
        .lines()
        .filter_map(|l| l.split_once(' '))
        .map(|(id, kind)| (id.to_string(), kind.to_string()))
        .collect())
}

/// A commit's parents (none at a shallow clone's boundary, as git sees it) and raw message.
fn commit(git: &Git, id: &str) -> Result<(Vec<String>, Vec<u8>)> {
    let parents = text(git.output(&["rev-list", "--parents", "--max-count=1", id, "--"])?)
        .split_whitespace()
        .skip(1)
        .map(str::to_string)
        .collect();
    let raw = git.output(&["cat-file", "commit", id])?;
    let split = raw
        .windows(2)
        .position(|w| w == b"\n\n")
        .map_or(raw.len(), |i| i + 2);
    Ok((parents, raw[split.min(raw.len())..].to_vec()))
}

/// `base:main` in a CI checkout often has only `origin/main` (see
/// [`crate::git::revision::find_base`]).
fn find_base(git: &Git, head: &Head, branch: &str) -> Result<(String, String)> {
    let scope = format!("base:{branch}");
    let quiet = |rev: &str| -> Result<Option<String>> {
        let spec = format!("{rev}^{{commit}}");
        let a = git.answer(&[
            "rev-parse",
            "--verify",
            "--quiet",
            "--end-of-options",
            &spec,
        ])?;
        Ok(a.ok.then(|| text(a.stdout)))
    };
    if quiet(branch)?.is_none() {
        let remote = format!("origin/{branch}");
        if let Some(id) = quiet(&remote)? {
            return Ok((id, remote));
        }
    }
    Ok((commit_id(git, head, branch, &scope)?, branch.to_string()))
}

fn merge_base(git: &Git, a: &str, b: &str, a_name: &str, b_name: &str) -> Result<String> {
    let out = git.answer(&["merge-base", a, b])?;
    if out.ok {
        return Ok(text(out.stdout));
    }
    if out.code == Some(1) && out.stderr.trim().is_empty() {
        let shallow = text(git.output(&["rev-parse", "--is-shallow-repository"])?) == "true";
        return Err(no_merge_base(shallow, a_name, b_name));
    }
    Err(anyhow::anyhow!(
        "`git merge-base` failed: {}; check that both sides exist",
        out.stderr.trim()
    ))
}

/// Commits reachable from `to` but not from `from`, newest first, at most [`MAX_COMMITS`].
fn commits_between(git: &Git, from: &str, to: &str) -> Result<Vec<CommitInfo>> {
    let max = format!("--max-count={MAX_COMMITS}");
    let not = format!("^{from}");
    let out = git.output(&[
        "log",
        "--no-show-signature",
        "--no-notes",
        "-z",
        "--date-order",
        "--format=%H%n%B",
        &max,
        to,
        &not,
        "--",
    ])?;
    Ok(out
        .split(|&b| b == 0)
        .filter(|r| !r.is_empty())
        .map(|r| {
            let nl = r.iter().position(|&b| b == b'\n').unwrap_or(r.len());
            let sha = String::from_utf8_lossy(&r[..nl]).into_owned();
            info(sha, r.get(nl + 1..).unwrap_or_default())
        })
        .collect())
}

/// The id of the empty tree in this repository's object format.
fn empty_tree(git: &Git) -> Result<String> {
    Ok(text(git.output(&[
        "hash-object",
        "-t",
        "tree",
        "--stdin",
    ])?))
}

/// `git diff` between the sides, read back into files; and, when git's rename search stopped at
/// `diff.renameLimit`, the limit it says would have been needed.
pub(super) fn diff(
    repo: &Repo,
    old: Option<&str>,
    new: &New,
    context_lines: Option<u32>,
) -> Result<(Vec<FileChange>, Option<usize>)> {
    diff_with(repo, old, new, context_lines, &[])
}

/// [`diff`] with more of `git diff`'s options.
pub(super) fn diff_with(
    repo: &Repo,
    old: Option<&str>,
    new: &New,
    context_lines: Option<u32>,
    more: &[&str],
) -> Result<(Vec<FileChange>, Option<usize>)> {
    let git = repo.git();
    let old = match old {
        Some(o) => o.to_string(),
        None => empty_tree(&git)?,
    };
    let mut args: Vec<String> = [
        "diff",
        "--no-color",
        "--no-ext-diff",
        "--submodule=short",
        "--no-relative",
        "--raw",
        "--numstat",
        "--patch",
        "-z",
        "--no-abbrev",
    ]
    .map(str::to_string)
    .to_vec();
    if let Some(n) = context_lines {
        args.push(format!("--unified={n}"));
    }
    args.extend(more.iter().map(|m| m.to_string()));
    let (git, untracked, _temporary) = match new {
        New::Commit(id) => {
            args.extend([old, id.clone()]);
            (git, HashSet::new(), None)
        }
        New::Index => {
            args.extend(["--cached".to_string(), old]);
            (git, HashSet::new(), None)
        }
        New::WorkTree => {
            args.push(old);
            with_untracked(repo, git)?
        }
    };
    args.push("--".into());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut reader = crate::git::printed::Reader::new(untracked);
    let stderr = git.stream(&args, &mut |line| reader.line(line))?;
    Ok((reader.finish()?, needed_rename_limit(&stderr)))
}

/// git's warning when its rename search stopped: "... set your diff.renameLimit variable to at
/// least N and retry the command".
fn needed_rename_limit(stderr: &str) -> Option<usize> {
    let at = stderr.find("renameLimit variable to at least ")?;
    stderr[at..]
        .split_whitespace()
        .nth(5)
        .and_then(|n| n.parse().ok())
}

/// A private folder, removed with everything in it when dropped.
struct Scratch(std::path::PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `git` for a work-tree diff that shows the untracked files too: with a temporary copy of the
/// index holding them as intents to add, when there are any. Returns that `git`, the untracked
/// paths, and the folder that holds the copy (removed when dropped).
fn with_untracked(repo: &Repo, git: Git) -> Result<(Git, HashSet<Vec<u8>>, Option<Scratch>)> {
    let out = git.output(&["ls-files", "-z", "--others", "--exclude-standard"])?;
    // A nested repository is listed as its folder (`dir/`): not a file to show.
    let paths: Vec<&[u8]> = out
        .split(|&b| b == 0)
        .filter(|p| !p.is_empty() && !p.ends_with(b"/"))
        .collect();
    if paths.is_empty() {
        return Ok((git, HashSet::new(), None));
    }
    let index = repo.index_file();
    // Room for the copy and the entries git adds to it.
    let room = std::fs::metadata(&index).map_or(0, |m| m.len()) * 2 + (1 << 20);
    let dir = Scratch(crate::sys::scratch::private_dir(repo.workdir(), room)?);
    let copy = dir.0.join("index");
    if index.is_file() {
        std::fs::copy(&index, &copy)
            .with_context(|| format!("cannot copy the index {}", index.display()))?;
    }
    let temp = git
        .with_env("GIT_INDEX_FILE", &copy.to_string_lossy())
        .with_env("GIT_LITERAL_PATHSPECS", "1");
    let mut list = Vec::new();
    for p in &paths {
        list.extend_from_slice(p);
        list.push(0);
    }
    // Written whole (not split into a shared index beside the real one's).
    temp.output_with_input(
        &[
            "-c",
            "core.splitIndex=false",
            "add",
            "--intent-to-add",
            "--sparse",
            "--pathspec-from-file=-",
            "--pathspec-file-nul",
        ],
        list,
    )
    .context("cannot list the untracked files for the diff")?;
    let untracked = paths.into_iter().map(<[u8]>::to_vec).collect();
    Ok((temp, untracked, Some(dir)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_limit_git_asks_for() {
        let said = "warning: exhaustive rename detection was skipped due to too many files.\n\
                    warning: you may want to set your diff.renameLimit variable to at least 1234 \
                    and retry the command.\n";
        assert_eq!(needed_rename_limit(said), Some(1234));
        assert_eq!(needed_rename_limit(""), None);
    }
}
