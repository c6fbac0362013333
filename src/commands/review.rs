//! `git debate [OPTIONS] [CONTENT]`: resolve what to review, build and store the artifact, and
//! (from the review-loop work on) run the critique loop. `--dry-run` stops before any model call.

use std::path::Path;

use anyhow::{Context, Result};
use serde_json::json;

use crate::agents::registry::{self, Role};
use crate::agents::routing::{self, World};
use crate::agents::Backend;
use crate::change::{self, TextInput};
use crate::cli::ReviewArgs;
use crate::commands::review_record::{chunk_plan, chunk_summary, metadata, summary, wants_chunks};
use crate::commands::{content, last_message, review_since};
use crate::error::Outcome;
use crate::git::{self, Change, Scope};
use crate::report;
use crate::review::incremental;
use crate::review::locations::{LocationIndex, Revision};
use crate::review::{Chunking, PatchBase, Review};
use crate::settings::{Layers, Settings};
use crate::store::{self, Session};

/// What the artifact was built from.
pub(super) enum Source {
    Text(TextInput),
    Change { scope: Scope, change: Change },
}

pub fn run(args: &ReviewArgs) -> Result<Outcome> {
    run_in(crate::git::repo::discover()?, args)
}

/// [`run`] with the repository already open (the pre-commit hook opened it for its fast paths;
/// one handle per run, and its object cache, serve the whole review).
pub(crate) fn run_in(repo: Option<crate::git::Repo>, args: &ReviewArgs) -> Result<Outcome> {
    let mut settings = Settings::resolve(
        Layers::load(repo.as_ref().map(crate::git::Repo::dirs))?,
        args,
    )?;
    // Unless ours is set, git's `diff.context` (as the record shows).
    settings
        .context_lines
        .get_or_insert_with(|| git::context_lines(repo.as_ref()));
    for w in &settings.warnings {
        crate::errln!("{w}");
    }
    if let Some(p) = &settings.output {
        crate::report::output::check(p)?;
    }
    let cwd = std::env::current_dir().context("cannot read the current directory")?;

    let cap = crate::sys::files::review_cap(settings.max_artifact_bytes);
    let root = repo
        .as_ref()
        .and_then(|r| r.workdir())
        .map(Path::to_path_buf);
    // The launching agent's last answer: asked for, or (below) when nothing changed.
    let mut from_message: Option<last_message::Origin> = None;
    let explicit_content = if args.last_message {
        let (input, origin) = last_message::asked(&settings, &cwd, root.as_deref())?;
        from_message = Some(origin);
        Some(input)
    } else {
        content::explicit(args, cap, repo.as_ref(), &cwd)?
    };
    let mut source = match explicit_content {
        Some(input) => Source::Text(input),
        None => {
            let given = settings.scope.as_deref().map(Scope::parse).transpose()?;
            match (given, repo.as_ref()) {
                (Some(Scope::File(p)), repo) => {
                    Source::Text(content::read_file_scope(repo, &p, &cwd, cap)?)
                }
                (_, None) => crate::usage!(
                    "not in a git repository: pass content as an argument, --artifact-file PATH, \
                     `-` for standard input, or --scope file:<path>"
                ),
                (given, Some(repo)) => {
                    let explicit = given.is_some();
                    let scope = given.unwrap_or(Scope::Uncommitted);
                    let change = git::resolve(repo, &scope, settings.context_lines)?;
                    let instead = (change.files.is_empty() && !explicit)
                        .then(|| last_message::instead(&settings, &cwd, root.as_deref()))
                        .flatten();
                    match instead {
                        Some((input, origin)) => {
                            from_message = Some(origin);
                            Source::Text(input)
                        }
                        None if change.files.is_empty() => {
                            crate::outln!("{}", nothing_to_review(&scope, explicit));
                            return Ok(Outcome::Success);
                        }
                        None => Source::Change { scope, change },
                    }
                }
            }
        }
    };

    let base = store::base_dir(repo.as_ref(), settings.state_dir.as_deref(), &cwd);
    // `--since` (or debate.incremental for base: scopes): only the delta is reviewed.
    let inc_plan = match review_since::prepare(args, &settings, &mut source, repo.as_ref(), &base)?
    {
        review_since::Next::Review(plan) => plan,
        review_since::Next::Done(outcome) => return Ok(outcome),
    };

    let mut artifact = match &source {
        Source::Text(input) => {
            let mut a = change::from_text(input, settings.target, settings.max_artifact_bytes);
            if let Some(origin) = &from_message {
                last_message::note_target(
                    &mut a,
                    origin,
                    &settings,
                    last_message::chars(&input.text),
                );
            }
            a
        }
        Source::Change { scope, change } => change::from_change(
            change,
            &scope.to_string(),
            settings.target,
            settings.max_artifact_bytes,
        ),
    };
    // A change bigger than one prompt is reviewed in chunks at once: the artifact then holds all
    // of it that fits in the chunks.
    let chunking = match &source {
        Source::Change { scope, change } if wants_chunks(&settings, &artifact) => {
            artifact = change::from_change(
                change,
                &scope.to_string(),
                settings.target,
                settings
                    .max_artifact_bytes
                    .saturating_mul(settings.max_chunks as u64),
            );
            Some(Chunking {
                budget: settings.max_artifact_bytes as usize,
                max_chunks: settings.max_chunks,
            })
        }
        _ => None,
    };

    // Low confidence or a mixed document: a person at a terminal is asked (seed 004).
    if let Source::Text(input) = &source {
        match crate::commands::confirm::target(artifact, input, &settings)? {
            crate::commands::confirm::Answer::Review(a) => artifact = *a,
            crate::commands::confirm::Answer::Cancel => {
                crate::errln!("cancelled: nothing was reviewed");
                return Ok(Outcome::Success);
            }
        }
    }
    // In CI nobody can answer: manual mode (e.g. from a global config) becomes auto.
    if settings.mode == "manual" && !settings.dry_run && in_ci() {
        crate::errln!("note: CI detected and no terminal: --mode manual runs as --mode auto");
        settings.mode = "auto".into();
    }
    // Manual mode must be able to ask before anything is spent.
    let terminal = (settings.mode == "manual" && !settings.dry_run)
        .then(crate::review::manual::Terminal::open)
        .transpose()?;

    // Who plays which side. A dry run records the decision (or why there is none) and goes on;
    // a real run cannot start without both sides, and checks their names before any call.
    let route = World::with(&settings, |w| routing::route(&settings, w));
    let sides = match (&route, settings.dry_run) {
        (_, true) => None,
        (Err(_), false) => return Err(route.expect_err("an error")),
        (Ok(r), false) => {
            for n in &r.notes {
                crate::errln!("{n}");
            }
            Some((
                registry::build(&r.author.backend, Some(Role::Author), &settings)?,
                registry::build(&r.reviewer.backend, Some(Role::Reviewer), &settings)?,
            ))
        }
    };

    let session = Session::create(&base)?;
    let artifact_path = session.write("artifact.md", artifact.text.as_bytes())?;
    let workspace = repo
        .as_ref()
        .and_then(|r| r.workdir().map(Path::to_path_buf))
        .unwrap_or_else(|| cwd.clone());
    let mut meta = metadata(
        &session,
        (&source, from_message.as_ref()),
        &artifact,
        &settings,
        &workspace,
        &route,
    );
    let plan = chunking.and_then(|c| chunk_plan(&artifact, c));
    if let (Some(c), Some(plan)) = (chunking, &plan) {
        meta["chunking"] = json!({"budget": c.budget, "max_chunks": c.max_chunks});
        meta["chunks"] = serde_json::to_value(&plan.0)?;
        meta["unfit"] = serde_json::to_value(&plan.1)?;
        crate::redact::redact_json(&mut meta);
    }
    let inc_plan = review_since::record(&session, &mut meta, inc_plan)?;
    if let Some(key) = &args.hook_cache {
        // A hook session: pruned sooner, and kept with its verdict while its tree is staged.
        meta["hook"] = json!({ "cache": key });
    }
    session.write_json("metadata.json", &meta)?;
    let templates = base.join("templates");
    let snippet = matches!(source, Source::Text(_));
    // The round-1 prompts, so a dry run shows exactly what would be sent.
    let context = inc_plan
        .as_ref()
        .map(incremental::context)
        .unwrap_or_default();
    let (_, input) = crate::prompts::review::prompts(
        &artifact,
        &artifact.text,
        &context,
        Some(&templates),
        snippet,
    )?;
    session.write("round-1-input.md", input.as_bytes())?;
    let Some((author, reviewer)) = sides else {
        if settings.format == "json" {
            // What a pipeline reads: the session and everything stored about it (`metadata`
            // redacted it already).
            let report = serde_json::json!({
                "dry_run": true,
                "evaluated": false,
                "session": session.id,
                "session_dir": session.dir,
                "artifact": artifact_path,
                "metadata": meta,
            });
            let text = serde_json::to_string_pretty(&report)? + "\n";
            match &settings.output {
                Some(path) => crate::report::output::write(path, text.as_bytes())?,
                None => crate::ui::terminal::out_json(&text)?,
            }
            return Ok(Outcome::Success);
        }
        let mut text = summary(
            &session,
            (&source, from_message.as_ref()),
            &artifact,
            &artifact_path,
        );
        if let Some((chunks, unfit)) = &plan {
            text.push_str(&chunk_summary(chunks, unfit, settings.concurrency));
        }
        crate::ui::terminal::out(&crate::redact::redact(&text, None).text)?;
        return Ok(Outcome::Success);
    };
    let route = route?;
    // Removed when it goes out of scope at the end of this function, also on an error.
    let (_export, sandbox) = crate::sandbox::export::prepare(
        repo.as_ref(),
        &match &source {
            Source::Change { change, .. } => crate::sandbox::export::Source::of_change(change),
            Source::Text(_) => crate::sandbox::export::Source::Empty,
        },
        &settings,
    )?;
    let patch_base = match &source {
        Source::Change { change, .. } => match &change.head {
            Some(sha) => PatchBase::Commit(sha.clone()),
            None => PatchBase::WorkTree,
        },
        Source::Text(_) => PatchBase::None,
    };
    let locations = match &source {
        Source::Change { change, .. } => Some(LocationIndex::from_change(
            change,
            match (&change.head, &change.index_tree) {
                (Some(sha), _) => Revision::Commit(sha.clone()),
                (None, Some(tree)) => Revision::Tree(tree.clone()),
                (None, None) => Revision::WorkTree,
            },
        )),
        Source::Text(input) => input
            .path_hint
            .as_deref()
            .filter(|_| input.origin.starts_with("file:"))
            .map(|p| LocationIndex::whole_file(p, &input.text)),
    };
    if let Some(idx) = &locations {
        session.write_json("locations.json", idx)?;
    }
    let fallback = fallback_reviewer(&settings, author.as_ref(), &route.reviewer.backend)?;
    let outcome = Review {
        session: &session,
        settings: &settings,
        fallback,
        normalizer: normalizer(&settings, &route.author.backend, &route.reviewer.backend)?,
        author,
        reviewer,
        artifact: &artifact,
        workspace: workspace.clone(),
        repo_dir: repo.as_ref().map(|r| r.path().to_path_buf()),
        patch_base,
        templates: Some(templates),
        snippet,
        metadata: meta,
        terminal: terminal.map(std::sync::Mutex::new),
        resume: None,
        budget_override: None,
        locations,
        sandbox,
        chunking,
        incremental: inc_plan,
    }
    .run()?;
    conclude(
        &session,
        &settings,
        &outcome,
        artifact.target,
        &route.author.backend,
        &route.reviewer.backend,
    )
}

/// The backend that restates unreadable answers: `None` for the author (the default), or the
/// reviewer or a named backend (`debate.normalizer`). Shared with `resume`.
pub(crate) fn normalizer(
    settings: &Settings,
    author: &str,
    reviewer: &str,
) -> Result<Option<Box<dyn Backend>>> {
    Ok(match settings.normalizer.as_deref().map(str::trim) {
        None | Some("") | Some("author") => None,
        Some("reviewer") => Some(registry::build(reviewer, Some(Role::Reviewer), settings)?),
        Some(name) if name == author => None,
        Some(name) => Some(registry::build(name, None, settings)?),
    })
}

/// `debate.fallbackReviewer`, built and checked before any call: another family than the
/// author's (unless `--allow-same-family`), and not the reviewer itself. Shared with `resume`.
pub(crate) fn fallback_reviewer(
    settings: &Settings,
    author: &dyn Backend,
    reviewer: &str,
) -> Result<Option<Box<dyn Backend>>> {
    let Some(name) = settings
        .fallback_reviewer
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
    else {
        return Ok(None);
    };
    if name == reviewer {
        crate::usage!(
            "debate.fallbackReviewer {name} is the reviewer itself; name another backend, or unset it"
        );
    }
    let fb = registry::build(name, Some(Role::Reviewer), settings)?;
    if fb.family() == author.family() && !fb.family().is_unknown() && !settings.allow_same_family {
        crate::usage!(
            "debate.fallbackReviewer {name} is a {} model like the author {}, so it would give no \
             second opinion; name a backend of another family, or pass --allow-same-family",
            fb.family(),
            author.name()
        );
    }
    Ok(Some(fb))
}

/// Writes `summary.md` and `summary.json`, prints the report, and picks the exit code. Shared
/// with `resume`.
pub(crate) fn conclude(
    session: &Session,
    settings: &Settings,
    outcome: &crate::review::Outcome,
    target: crate::change::markdown::Target,
    author: &str,
    reviewer: &str,
) -> Result<Outcome> {
    let report = report::build(
        outcome,
        &report::Context {
            session: &session.id,
            session_dir: session.dir.clone(),
            target: serde_json::to_value(target)?
                .as_str()
                .unwrap_or("code")
                .to_string(),
            author: author.to_string(),
            reviewer: reviewer.to_string(),
            fail_on: &settings.fail_on,
            code: target != crate::change::markdown::Target::Proposal,
            single_file: store::files::read(&session.dir.join("locations.json"))
                .ok()
                .and_then(|b| serde_json::from_slice::<LocationIndex>(&b).ok())
                .and_then(|i| i.single_file),
        },
    );
    let mut report = report;
    report.add_session_incremental(
        &session.dir,
        &settings.fail_on,
        target != crate::change::markdown::Target::Proposal,
    );
    session.write("summary.md", report::markdown(&report).as_bytes())?;
    session.write_json("summary.json", &report)?;
    emit(settings, &report)?;
    Ok(match report.status.as_str() {
        "interrupted" => Outcome::Interrupted,
        "unavailable" => Outcome::Unavailable,
        _ if report.gate.failed => Outcome::GateFailed,
        // Files whose chunk never got an answer were not evaluated: never a pass.
        _ if report
            .coverage
            .as_ref()
            .is_some_and(|c| !c.not_evaluated.is_empty()) =>
        {
            Outcome::Unavailable
        }
        _ => Outcome::Success,
    })
}

/// `CI` is set (every major CI system sets it) and standard input is not a terminal.
pub(crate) fn in_ci() -> bool {
    use std::io::IsTerminal;
    std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false" && v != "0")
        && !std::io::stdin().is_terminal()
}

/// The report in the chosen format, on standard output or in `--output`.
fn emit(settings: &Settings, report: &report::Report) -> Result<()> {
    report::emit::print(&settings.format, report, settings.output.as_deref())
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
