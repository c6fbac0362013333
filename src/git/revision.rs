//! Finding the commits a scope names, as `git rev-parse` finds them.
//!
//! libgit2's revparse knows every revspec git knows, with one gap that users hit: a short id that
//! several objects start with. libgit2 then fails with an error about pack offsets; git, asked
//! for a commit (`git rev-parse 00e50^{commit}`, `git log 00e50`), takes the one commit among
//! them, and when there are several commits lists them. A scope always wants a commit, so we do
//! what git does, and say what a short id names when it names no commit at all.

use anyhow::Result;
use git2::{Commit, ErrorCode, ObjectType, Oid, Repository};

use crate::error::UsageError;
use crate::git::repo;

/// git does not look up a hex prefix shorter than this (`core.abbrev`'s minimum).
pub(super) const MIN_PREFIX: usize = 4;
/// How many candidates an ambiguity error lists (git lists all; a list of hundreds helps no one).
pub(super) const LISTED: usize = 10;

/// Whether `id` is where a shallow clone's history was cut (listed in `<git dir>/shallow`): it
/// has parents, they were just not fetched, so it is not a root commit.
pub(super) fn shallow_boundary(common_dir: &std::path::Path, id: &str) -> bool {
    let file = common_dir.join("shallow");
    crate::sys::file_io::read_regular(&file, 16 << 20).is_ok_and(|bytes| {
        String::from_utf8_lossy(&bytes)
            .lines()
            .any(|l| l.trim() == id)
    })
}

/// Any revspec git accepts, peeled to a commit; an unknown rev is the user's input to fix.
pub(super) fn find_commit<'r>(repo: &'r Repository, rev: &str, scope: &str) -> Result<Commit<'r>> {
    let obj = match repo.revparse_single(rev) {
        Ok(obj) => obj,
        Err(_) if rev.starts_with("HEAD") && repo::head_commit(repo)?.is_none() => {
            crate::usage!(
                "--scope {scope}: {rev} has no commits yet ({})",
                repo::head_name(repo)
            )
        }
        // Not found is final (libgit2 looked the prefix up); an ambiguous one is looked at again.
        Err(e) => match short_id(rev).filter(|_| e.code() != ErrorCode::NotFound) {
            Some((prefix, rest)) => by_prefix(repo, prefix, rest, scope, &e)?,
            None => unknown(rev, scope, &e)?,
        },
    };
    let kind = obj.kind();
    obj.peel_to_commit().map_err(|_| {
        let what = kind.map_or("an object".to_string(), |k| format!("a {k}"));
        not_a_commit(scope, rev, &what)
    })
}

/// `rev` names `what` (`a blob`), not a commit.
pub(super) fn not_a_commit(scope: &str, rev: &str, what: &str) -> anyhow::Error {
    UsageError::new(format!(
        "--scope {scope}: '{rev}' names {what}, not a commit; check `git log --oneline --all`"
    ))
    .into()
}

/// A hex prefix shorter than git looks up.
pub(super) fn too_short(scope: &str, prefix: &str) -> anyhow::Error {
    UsageError::new(format!(
        "--scope {scope}: '{prefix}' is too short for a commit id (git needs at least \
         {MIN_PREFIX} hex digits) and names no branch or tag; check `git log --oneline --all`"
    ))
    .into()
}

/// A prefix only objects other than commits have (`names`: `<id> (<type>)`, at most [`LISTED`]).
pub(super) fn only_non_commits(scope: &str, prefix: &str, names: &[String]) -> anyhow::Error {
    UsageError::new(format!(
        "--scope {scope}: '{prefix}' names no commit, only {}; check `git log --oneline --all`",
        names.join(", ")
    ))
    .into()
}

/// A prefix `total` commits have (`lines`: `  <id> <date> <subject>`, at most [`LISTED`]).
pub(super) fn ambiguous(
    scope: &str,
    prefix: &str,
    total: usize,
    lines: &[String],
) -> anyhow::Error {
    let mut lines = lines.to_vec();
    if total > LISTED {
        lines.push(format!("  ... and {} more", total - LISTED));
    }
    UsageError::new(format!(
        "--scope {scope}: the short id '{prefix}' is ambiguous: {total} commits start with it; \
         give more digits:\n{}",
        lines.join("\n")
    ))
    .into()
}

/// A revision nothing has, and why.
pub(super) fn unknown_revision(scope: &str, rev: &str, why: &str) -> anyhow::Error {
    UsageError::new(format!(
        "--scope {scope}: unknown revision '{rev}' ({why}); check `git log --oneline --all`"
    ))
    .into()
}

/// `abc1234~2` -> (`abc1234`, `~2`): a leading run of hex digits long enough to be a short id,
/// and the rest of the revspec (empty, or a `~`/`^` suffix).
pub(super) fn short_id(rev: &str) -> Option<(&str, &str)> {
    let end = rev
        .find(|c: char| !c.is_ascii_hexdigit())
        .unwrap_or(rev.len());
    let (prefix, rest) = rev.split_at(end);
    let suffix_ok = rest.is_empty() || rest.starts_with('~') || rest.starts_with('^');
    (prefix.len() < 40 && !prefix.is_empty() && suffix_ok).then_some((prefix, rest))
}

/// A short id that libgit2 could not resolve: the one commit it names (git's choice when a commit
/// is wanted), or an error that says why there is none.
fn by_prefix<'r>(
    repo: &'r Repository,
    prefix: &str,
    rest: &str,
    scope: &str,
    e: &git2::Error,
) -> Result<git2::Object<'r>> {
    if prefix.len() < MIN_PREFIX {
        return Err(too_short(scope, prefix));
    }
    let found = objects_starting_with(repo, prefix)?;
    let commits: Vec<&(Oid, ObjectType, Option<Oid>)> =
        found.iter().filter(|(_, _, c)| c.is_some()).collect();
    match commits.as_slice() {
        [(_, _, Some(commit))] => {
            let full = format!("{commit}{rest}");
            repo.revparse_single(&full)
                .or_else(|e| unknown(&full, scope, &e))
        }
        [] if found.is_empty() => unknown(&format!("{prefix}{rest}"), scope, e),
        [] => {
            let names: Vec<String> = found
                .iter()
                .take(LISTED)
                .map(|(id, kind, _)| format!("{} ({kind})", &id.to_string()[..10]))
                .collect();
            Err(only_non_commits(scope, prefix, &names))
        }
        many => {
            let mut lines = Vec::new();
            for (id, _, commit) in many.iter().take(LISTED) {
                let c = commit.and_then(|c| repo.find_commit(c).ok());
                let subject = c
                    .as_ref()
                    .and_then(|c| c.summary().ok().flatten())
                    .unwrap_or("")
                    .to_string();
                let date = c.map(|c| day(c.time().seconds())).unwrap_or_default();
                lines.push(format!("  {} {date} {subject}", &id.to_string()[..10]));
            }
            Err(ambiguous(scope, prefix, many.len(), &lines))
        }
    }
}

/// Every object whose id starts with the hex `prefix`, with its type and, for a commit or a tag
/// of one, the commit. One pass over the object database: only taken when libgit2 gave up.
fn objects_starting_with(
    repo: &Repository,
    prefix: &str,
) -> Result<Vec<(Oid, ObjectType, Option<Oid>)>> {
    let prefix = prefix.to_ascii_lowercase();
    let odb = repo.odb()?;
    let mut ids = Vec::new();
    odb.foreach(|id| {
        if hex_starts_with(id, &prefix) && !ids.contains(id) {
            ids.push(*id);
        }
        true
    })?;
    ids.sort();
    Ok(ids
        .into_iter()
        .filter_map(|id| {
            let obj = repo.find_object(id, None).ok()?;
            let kind = obj.kind()?;
            let commit = match kind {
                ObjectType::Commit | ObjectType::Tag => obj.peel_to_commit().ok().map(|c| c.id()),
                _ => None,
            };
            Some((id, kind, commit))
        })
        .collect())
}

/// Whether `id`'s hex form starts with `prefix` (lower-case hex), without formatting every id.
fn hex_starts_with(id: &Oid, prefix: &str) -> bool {
    let bytes = id.as_bytes();
    prefix.bytes().enumerate().all(|(i, want)| {
        let nibble = if i % 2 == 0 {
            bytes[i / 2] >> 4
        } else {
            bytes[i / 2] & 0xf
        };
        b"0123456789abcdef"[nibble as usize] == want
    })
}

/// A commit's date as git's ambiguity hint writes it (`2025-05-29`).
pub(super) fn day(seconds: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp(seconds)
        .ok()
        .and_then(|t| {
            t.format(time::macros::format_description!("[year]-[month]-[day]"))
                .ok()
        })
        .unwrap_or_default()
}

fn unknown<T>(rev: &str, scope: &str, e: &git2::Error) -> Result<T> {
    let why = match e.code() {
        ErrorCode::NotFound => NO_NAME.to_string(),
        _ => e.message().to_string(),
    };
    Err(unknown_revision(scope, rev, &why))
}

/// Why a revision is unknown, when nothing has its name.
pub(super) const NO_NAME: &str = "no branch, tag or commit has that name";

/// `base:main` in a CI checkout often has only `origin/main`; git's own DWIM does not look there,
/// but a reviewer of a pull request means exactly that branch.
pub(super) fn find_base<'r>(repo: &'r Repository, branch: &str) -> Result<(Commit<'r>, String)> {
    let scope = format!("base:{branch}");
    if repo.revparse_single(branch).is_err() {
        let remote = format!("origin/{branch}");
        if let Ok(obj) = repo.revparse_single(&remote) {
            if let Ok(c) = obj.peel_to_commit() {
                return Ok((c, remote));
            }
        }
        // A CI checkout is shallow and holds only the pull request's commit: the base was
        // never fetched, which `git log --all` cannot show.
        if repo.is_shallow() {
            crate::usage!(
                "--scope {scope}: {branch} is not in this shallow clone (a CI checkout fetches \
                 only the commit it builds); fetch it first: git fetch --deepen=200 origin \
                 {branch}:refs/remotes/origin/{branch}"
            );
        }
    }
    Ok((find_commit(repo, branch, &scope)?, branch.to_string()))
}

pub(super) fn merge_base(
    repo: &Repository,
    a: Oid,
    b: Oid,
    a_name: &str,
    b_name: &str,
) -> Result<Oid> {
    match repo.merge_base(a, b) {
        Ok(oid) => Ok(oid),
        Err(e) if e.code() == git2::ErrorCode::NotFound => {
            Err(no_merge_base(repo.is_shallow(), a_name, b_name))
        }
        Err(e) => Err(anyhow::Error::new(e).context("cannot compute the merge-base")),
    }
}

/// Two sides without a merge-base: what to do about it.
pub(super) fn no_merge_base(shallow: bool, a_name: &str, b_name: &str) -> anyhow::Error {
    UsageError::new(if shallow {
        format!(
            "no merge-base between {a_name} and {b_name}: this clone is shallow; deepen it \
             (git fetch --unshallow, or --deepen=<n>) and retry"
        )
    } else {
        format!(
            "no merge-base between {a_name} and {b_name}: they share no history; use \
             range:{a_name}..{b_name}"
        )
    })
    .into()
}
