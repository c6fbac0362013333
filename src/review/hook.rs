//! The pre-commit hook: a second opinion on the staged change before each commit.
//!
//! The installed hook is a small POSIX shell script that runs any hook that was there before
//! (it is kept beside it, never overwritten) and then `git debate hook run`. That command must
//! never make committing painful: it returns at once when nothing is staged or the change is only
//! whitespace, reuses its verdict for a staged tree it already reviewed (an amend of the same
//! content costs nothing), and lets the commit through with a warning when no model can be asked,
//! unless `debate.hook.strict` is set. It blocks only on unresolved findings at or above its
//! `--fail-on` (default p1); `git commit --no-verify` skips it as it skips every hook.

use std::os::unix::fs::PermissionsExt as _;
use std::path::PathBuf;

use anyhow::{Context as _, Result};

use crate::choices::{FailOn, Mode};
use crate::cli::HookRunArgs;
use crate::error::{Outcome, UsageError};
use crate::git::Staged;
use crate::review::setup::What;
use crate::settings::{Layers, Overrides, Settings};
use crate::store::hook_cache;

/// Marks a hook file as ours.
const MARKER: &str = "# installed by git-debate";
/// Where a hook that was already there is kept, and run from.
const PREVIOUS: &str = "pre-commit.before-git-debate";

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

/// `'...'` for sh.
fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

fn script(run: &HookRunArgs) -> Result<String> {
    let exe = std::env::current_exe().context("cannot find the git-debate executable")?;
    let args = format!(
        "hook run --fail-on {} --max-rounds {}",
        run.gate.fail_on.unwrap_or(FailOn::P1),
        run.rounds.max_rounds.unwrap_or(1)
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

/// Installs the hook, keeping any hook that was there beside it (`force`: replacing one kept
/// before).
pub fn install(run: &HookRunArgs, force: bool) -> Result<Outcome> {
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

/// Removes our hook and puts back the one it kept, if any.
pub fn uninstall() -> Result<Outcome> {
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

/// What a hook run does before any review.
pub enum Gate {
    /// Done without a review: nothing (or only whitespace) is staged, the run is skipped, or
    /// this staged tree was reviewed before.
    Done(Outcome),
    /// The staged change is to be reviewed in this repository.
    Review(crate::git::Repo, Pending),
}

/// A hook review to be run: the verdict is cached by the staged tree and the gate it ran with.
pub struct Pending {
    /// The verdict cache's key (empty tree: conflicts, not cached).
    key: String,
    tree: String,
    /// The verdict cache's folder.
    cache: PathBuf,
    fail_on: FailOn,
    max_rounds: u32,
    /// `debate.hook.strict`: block when no model can be asked.
    strict: bool,
}

/// The fast paths of `hook run`: they must never make committing painful.
pub fn before(a: &HookRunArgs) -> Result<Gate> {
    if std::env::var("GIT_DEBATE_SKIP").ok().as_deref() == Some("1") {
        return Ok(Gate::Done(Outcome::Success));
    }
    let repo = repo()?;
    let fail_on = a.gate.fail_on.unwrap_or(FailOn::P1);
    let max_rounds = a.rounds.max_rounds.unwrap_or(1);
    let cache = hook_cache::dir(&repo);
    // A tree with a verdict is answered before any diff is made: the commit retried after a
    // pass, or after a block the user chose to look at, costs a tree id and a file read.
    if let Some(tree) = crate::git::staged_tree(&repo) {
        if let Some(blocked) =
            hook_cache::verdict(&cache, &format!("{tree}-{fail_on}-{max_rounds}"))
        {
            return Ok(Gate::Done(cached(blocked)));
        }
    }
    let tree = match crate::git::staged(&repo)? {
        Staged::Nothing => return Ok(Gate::Done(Outcome::Success)),
        Staged::WhitespaceOnly => {
            crate::errln!("git debate: only whitespace is staged; no review");
            return Ok(Gate::Done(Outcome::Success));
        }
        Staged::Tree(t) => t,
    };
    let key = format!("{tree}-{fail_on}-{max_rounds}");
    if let Some(blocked) = hook_cache::verdict(&cache, &key).filter(|_| !tree.is_empty()) {
        return Ok(Gate::Done(cached(blocked)));
    }
    let strict = Settings::resolve(Layers::load(Some(repo.dirs()))?, &Overrides::default())?
        .var_bool("hook.strict")?
        .unwrap_or(false);
    let pending = Pending {
        key,
        tree,
        cache,
        fail_on,
        max_rounds,
        strict,
    };
    Ok(Gate::Review(repo, pending))
}

/// The verdict a tree was given before, said once.
fn cached(blocked: bool) -> Outcome {
    crate::errln!(
        "git debate: this staged tree was reviewed before: {}",
        if blocked {
            "blocked (see `git debate show last`)"
        } else {
            "passed"
        }
    );
    if blocked {
        Outcome::GateFailed
    } else {
        Outcome::Success
    }
}

impl Pending {
    /// The review the hook runs: the staged change, automatic, with the hook's gate.
    pub fn overrides(&self) -> Overrides {
        Overrides {
            scope: Some("staged".into()),
            fail_on: Some(self.fail_on),
            max_rounds: Some(self.max_rounds),
            mode: Some(Mode::Auto),
            ..Default::default()
        }
    }

    /// The staged change, with the cache key recorded in the session: pruning keeps the session
    /// (and this cache entry) while the tree is staged.
    pub fn what(&self) -> What {
        What {
            hook_cache: (!self.tree.is_empty()).then(|| self.key.clone()),
            ..Default::default()
        }
    }

    /// The commit's verdict from the review's: blocked only by findings at or above the gate; a
    /// review no model answered lets the commit through unless `debate.hook.strict` is set.
    pub fn after(self, review: Result<Outcome>) -> Result<Outcome> {
        let fail_on = self.fail_on.name();
        let verdict = match review {
            Ok(Outcome::GateFailed) => {
                crate::errln!(
                    "git debate: commit blocked: unresolved findings at or above {}; fix them, \
                     or commit with --no-verify to skip this check",
                    fail_on.to_uppercase()
                );
                Outcome::GateFailed
            }
            Ok(Outcome::Success) => Outcome::Success,
            Ok(Outcome::Interrupted) => return Ok(Outcome::Interrupted),
            // No model answered (missing, logged out, down): not the commit's fault.
            Ok(Outcome::Unavailable) => {
                return unavailable(self.strict, "the reviewer did not answer")
            }
            Err(e) if e.chain().any(|c| c.is::<UsageError>()) => return Err(e),
            Err(e) => return unavailable(self.strict, &format!("{e:#}")),
        };
        hook_cache::record(&self.cache, &self.key, verdict == Outcome::GateFailed);
        Ok(verdict)
    }
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
