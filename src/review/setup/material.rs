//! What to review: CONTENT, `--artifact-file` or standard input ([`super::content`]),
//! `--last-message`, a `--scope` (`file:` read whole, anything else resolved in git), or, when
//! the default scope holds no changes, the launching agent's last message; else nothing, said with
//! what to do instead.

use std::path::Path;

use anyhow::Result;

use crate::git::{self, Scope};
use crate::review::setup::last_message::{LastMessage, Origin};
use crate::review::setup::{content, Source, What};
use crate::settings::Settings;

/// The material found.
pub enum Found {
    /// This, and the agent message it came from when it is one.
    Source(Box<Source>, Option<Origin>),
    /// Nothing to review: the line that says so and what to do.
    Nothing(String),
}

/// Finds the material, in order: `--last-message`, explicit content, the scope.
pub fn find(
    repo: Option<&crate::git::Repo>,
    what: &What,
    settings: &Settings,
    cwd: &Path,
    messages: &dyn LastMessage,
) -> Result<Found> {
    let cap = crate::sys::file_io::review_cap(settings.max_artifact_bytes);
    let root = repo.and_then(|r| r.workdir()).map(Path::to_path_buf);
    if what.last_message {
        let (input, origin) = messages.asked(settings, cwd, root.as_deref())?;
        return Ok(Found::Source(Box::new(Source::Text(input)), Some(origin)));
    }
    let worded = revision_word(what, repo, settings, cwd)?;
    if worded.is_none() {
        if let Some(input) = content::explicit(what, cap, repo, cwd)? {
            return Ok(Found::Source(Box::new(Source::Text(input)), None));
        }
    }
    let given = match worded {
        Some(scope) => Some(scope),
        None => settings.scope.as_deref().map(Scope::parse).transpose()?,
    };
    if !what.paths.is_empty() && matches!(given, Some(Scope::File(_))) {
        crate::usage!("pathspecs after -- limit a change; --scope file: already names one file");
    }
    let (given, repo) = match (given, repo) {
        (Some(Scope::File(p)), repo) => {
            let input = crate::change::read::file_scope(repo, &p, cwd, cap)?;
            return Ok(Found::Source(Box::new(Source::Text(input)), None));
        }
        (_, None) => crate::usage!(
            "not in a git repository: pass content as an argument, --artifact-file PATH, \
             `-` for standard input, or --scope file:<path>"
        ),
        (given, Some(repo)) => (given, repo),
    };
    let explicit = given.is_some();
    let scope = given.unwrap_or(Scope::Uncommitted);
    let mut change = git::resolve(repo, &scope, settings.context_lines)?;
    git::limit_to_paths(&mut change, &what.paths, &prefix(repo, cwd))?;
    // The launching agent's last answer, when nothing changed and no scope was asked for.
    let instead = (change.files.is_empty() && !explicit)
        .then(|| messages.instead(settings, cwd, root.as_deref()))
        .flatten();
    Ok(match instead {
        Some((input, origin)) => Found::Source(Box::new(Source::Text(input)), Some(origin)),
        None if change.files.is_empty() => Found::Nothing(nothing_to_review(&scope, explicit)),
        None => Found::Source(Box::new(Source::Change { scope, change }), None),
    })
}

/// CONTENT that git reads as a revision (`HEAD~1`, a branch, `a..b`): the scope git would mean,
/// said on stderr. A file of that name is a file; with `--scope` too, the user meant one of them.
fn revision_word(
    what: &What,
    repo: Option<&git::Repo>,
    settings: &Settings,
    cwd: &Path,
) -> Result<Option<Scope>> {
    let (Some(word), Some(repo)) = (what.content.as_deref(), repo) else {
        return Ok(None);
    };
    if word == "-" || cwd.join(word.trim()).exists() {
        return Ok(None);
    }
    let Some(scope) = git::scope_of_word(repo, word) else {
        return Ok(None);
    };
    if let Some(given) = &settings.scope {
        crate::usage!(
            "`{word}` names a revision ({scope}) and --scope {given} is given too; keep one \
             (to review the word itself, pass it on standard input)"
        );
    }
    crate::errln!(
        "note: reviewing {} (as --scope {scope}); to review the words themselves, pass them on \
         standard input: echo '{word}' | git debate -",
        git::described_scope(&scope)
    );
    Ok(Some(scope))
}

/// The current directory relative to the work tree's root, with a trailing `/` (`""` at the
/// root or outside it), for pathspecs.
fn prefix(repo: &git::Repo, cwd: &Path) -> String {
    let Some(root) = repo.workdir() else {
        return String::new();
    };
    let canon = |p: &Path| p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    match canon(cwd).strip_prefix(canon(root)) {
        Ok(rel) if !rel.as_os_str().is_empty() => {
            format!("{}/", rel.to_string_lossy().replace('\\', "/"))
        }
        _ => String::new(),
    }
}

fn nothing_to_review(scope: &Scope, explicit: bool) -> String {
    if explicit {
        format!("nothing to review: --scope {scope} contains no changes")
    } else {
        "nothing to review: no uncommitted changes (staged, unstaged or untracked).\n\
         hint: review a commit with --scope commit:HEAD, a branch with --scope base:main, \
         or pass content (an argument, --artifact-file PATH, or - for stdin)"
            .to_string()
    }
}
