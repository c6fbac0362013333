//! `git debate hook install|uninstall|run`: a second opinion on the staged change before each
//! commit.
//!
//! The installed hook is a small POSIX shell script that runs any hook that was there before
//! (it is kept beside it, never overwritten) and then `git debate hook run`. That command must
//! never make committing painful: it returns at once when nothing is staged or the change is only
//! whitespace, reuses its verdict for a staged tree it already reviewed (an amend of the same
//! content costs nothing), and lets the commit through with a warning when no model can be asked,
//! unless `debate.hook.strict` is set. It blocks only on unresolved findings at or above its
//! `--fail-on` (default p1); `git commit --no-verify` skips it as it skips every hook.

use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

use anyhow::{Context, Result};

use crate::cli::{FailOnArg, HookAction, HookArgs, HookRunArgs, ReviewArgs};
use crate::error::{Outcome, UsageError};
use crate::git::Staged;

/// Marks a hook file as ours.
const MARKER: &str = "# installed by git-debate";
/// Where a hook that was already there is kept, and run from.
const PREVIOUS: &str = "pre-commit.before-git-debate";

pub fn run(args: &HookArgs) -> Result<Outcome> {
    match &args.action {
        HookAction::Install(a) => install(&a.run, a.force),
        HookAction::Uninstall => uninstall(),
        HookAction::Run(a) => check(a),
    }
}

fn repo() -> Result<crate::git::Repo> {
    crate::git::repo::discover()?.ok_or_else(|| {
        UsageError::new("not in a git repository: run `git debate hook` inside the repository")
            .into()
    })
}

/// The hooks folder git uses: `core.hooksPath` (relative to the work tree), else the common git
/// dir's `hooks`, which linked worktrees share.
fn hooks_dir(repo: &crate::git::Repo) -> Result<PathBuf> {
    let configured = repo
        .config_string("core.hooksPath")
        .filter(|p| !p.is_empty());
    Ok(match configured {
        Some(p) => {
            let p = crate::settings::expand_home(&p);
            if p.is_absolute() {
                p
            } else {
                crate::git::repo::workdir(repo, "a relative core.hooksPath")?.join(p)
            }
        }
        None => repo.commondir().join("hooks"),
    })
}

fn fail_on_word(f: Option<FailOnArg>) -> &'static str {
    match f {
        Some(FailOnArg::P2) => "p2",
        Some(FailOnArg::P3) => "p3",
        Some(FailOnArg::Never) => "never",
        _ => "p1",
    }
}

/// `'...'` for sh.
fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

fn script(run: &HookRunArgs) -> Result<String> {
    let exe = std::env::current_exe().context("cannot find the git-debate executable")?;
    let args = format!(
        "hook run --fail-on {} --max-rounds {}",
        fail_on_word(run.fail_on),
        run.max_rounds.unwrap_or(1)
    );
    Ok(format!(
        "#!/bin/sh\n{MARKER}: a second opinion on the staged change before each commit.\n\
         # Remove it with `git debate hook uninstall`, which puts back any hook that was here.\n\
         # Skip it once with `git commit --no-verify` or GIT_DEBATE_SKIP=1.\n\
         previous=\"$(dirname \"$0\")/{PREVIOUS}\"\n\
         if [ -x \"$previous\" ]; then \"$previous\" \"$@\" || exit $?; fi\n\
         [ \"${{GIT_DEBATE_SKIP:-}}\" = 1 ] && exit 0\n\
         exe={}\n\
         if [ -x \"$exe\" ]; then exec \"$exe\" {args}; fi\n\
         exec git-debate {args}\n",
        sh_quote(&exe.to_string_lossy())
    ))
}

fn install(run: &HookRunArgs, force: bool) -> Result<Outcome> {
    let repo = repo()?;
    let dir = hooks_dir(&repo)?;
    std::fs::create_dir_all(&dir)
        .with_context(|| format!("cannot create the hooks folder {}", dir.display()))?;
    let hook = dir.join("pre-commit");
    let text = script(run)?;
    match std::fs::read(&hook) {
        Ok(old) if String::from_utf8_lossy(&old).contains(MARKER) => {
            if old == text.as_bytes() {
                crate::outln!(
                    "git debate: the pre-commit hook is already installed in {}",
                    hook.display()
                );
                return Ok(Outcome::Success);
            }
        }
        Ok(_) => {
            let previous = dir.join(PREVIOUS);
            if previous.exists() && !force {
                crate::usage!(
                    "{} exists and {} too, so the current hook cannot be kept beside ours; \
                     move one of them away, or pass --force to replace the kept one",
                    hook.display(),
                    previous.display()
                );
            }
            std::fs::rename(&hook, &previous).with_context(|| {
                format!("cannot keep the existing hook as {}", previous.display())
            })?;
            crate::outln!(
                "git debate: kept the existing pre-commit hook as {}; it still runs first",
                previous.display()
            );
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", hook.display())),
    }
    crate::store::write_atomic(&hook, text.as_bytes())?;
    std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755))
        .with_context(|| format!("cannot make {} executable", hook.display()))?;
    crate::outln!(
        "git debate: installed the pre-commit hook in {}",
        hook.display()
    );
    Ok(Outcome::Success)
}

fn uninstall() -> Result<Outcome> {
    let repo = repo()?;
    let dir = hooks_dir(&repo)?;
    let hook = dir.join("pre-commit");
    match std::fs::read(&hook) {
        Ok(text) if String::from_utf8_lossy(&text).contains(MARKER) => {}
        Ok(_) => crate::usage!(
            "{} was not installed by git debate; it is left alone",
            hook.display()
        ),
        Err(_) => {
            crate::outln!(
                "git debate: no pre-commit hook of ours in {}",
                dir.display()
            );
            return Ok(Outcome::Success);
        }
    }
    std::fs::remove_file(&hook).with_context(|| format!("cannot remove {}", hook.display()))?;
    let previous = dir.join(PREVIOUS);
    if previous.exists() {
        std::fs::rename(&previous, &hook)
            .with_context(|| format!("cannot restore {}", hook.display()))?;
        crate::outln!("git debate: removed the hook and restored the one that was there before");
    } else {
        crate::outln!(
            "git debate: removed the pre-commit hook from {}",
            dir.display()
        );
    }
    Ok(Outcome::Success)
}

fn check(a: &HookRunArgs) -> Result<Outcome> {
    if std::env::var("GIT_DEBATE_SKIP").ok().as_deref() == Some("1") {
        return Ok(Outcome::Success);
    }
    let repo = repo()?;
    let tree = match crate::git::staged(&repo)? {
        Staged::Nothing => return Ok(Outcome::Success),
        Staged::WhitespaceOnly => {
            crate::errln!("git debate: only whitespace is staged; no review");
            return Ok(Outcome::Success);
        }
        Staged::Tree(t) => t,
    };
    let fail_on = fail_on_word(a.fail_on);
    let max_rounds = a.max_rounds.unwrap_or(1);
    let key = format!("{tree}-{fail_on}-{max_rounds}");
    let cache = crate::git::repo::session_base(&repo)
        .join("hook-cache")
        .join(&key);
    if let Some(code) = std::fs::read_to_string(&cache)
        .ok()
        .filter(|_| !tree.is_empty())
    {
        let blocked = code.trim() == "1";
        crate::errln!(
            "git debate: this staged tree was reviewed before: {}",
            if blocked {
                "blocked (see `git debate show last`)"
            } else {
                "passed"
            }
        );
        return Ok(if blocked {
            Outcome::GateFailed
        } else {
            Outcome::Success
        });
    }
    let strict = crate::settings::Settings::resolve(
        crate::settings::Layers::load(Some(repo.dirs()))?,
        &ReviewArgs::default(),
    )?
    .backend_vars
    .get("hook.strict")
    .and_then(|v| crate::settings::parse_bool(v))
    .unwrap_or(false);
    let review = crate::commands::review::run_in(
        Some(repo),
        &ReviewArgs {
            scope: Some("staged".into()),
            fail_on: Some(a.fail_on.unwrap_or(FailOnArg::P1)),
            max_rounds: Some(max_rounds),
            mode: Some(crate::cli::ModeArg::Auto),
            // Recorded in the session: pruning keeps it (and this cache entry) while the tree is
            // staged.
            hook_cache: (!tree.is_empty()).then(|| key.clone()),
            ..Default::default()
        },
    );
    let verdict = match review {
        Ok(Outcome::GateFailed) => {
            crate::errln!(
                "git debate: commit blocked: unresolved findings at or above {}; fix them, or \
                 commit with --no-verify to skip this check",
                fail_on.to_uppercase()
            );
            Outcome::GateFailed
        }
        Ok(Outcome::Success) => Outcome::Success,
        Ok(Outcome::Interrupted) => return Ok(Outcome::Interrupted),
        // No model answered (missing, logged out, down): not the commit's fault.
        Ok(Outcome::Unavailable) => return unavailable(strict, "the reviewer did not answer"),
        Err(e) if e.chain().any(|c| c.is::<UsageError>()) => return Err(e),
        Err(e) => return unavailable(strict, &format!("{e:#}")),
    };
    if let Some(parent) = cache.parent() {
        let _ = std::fs::create_dir_all(parent);
    }
    let code = if verdict == Outcome::GateFailed {
        "1"
    } else {
        "0"
    };
    let _ = crate::store::write_atomic(&cache, code.as_bytes());
    Ok(verdict)
}

fn unavailable(strict: bool, why: &str) -> Result<Outcome> {
    if strict {
        crate::errln!(
            "git debate: commit blocked: no second opinion ({why}) and debate.hook.strict is set"
        );
        return Ok(Outcome::GateFailed);
    }
    crate::errln!(
        "warning: git debate: no second opinion for this commit ({why}); committing anyway \
         (set debate.hook.strict=true to block instead)"
    );
    Ok(Outcome::Success)
}
