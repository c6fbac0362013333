//! `git debate [OPTIONS] [CONTENT]`: resolve what to review, build and store the artifact, and
//! (from the review-loop work on) run the critique loop. `--dry-run` stops before any model call.

use std::path::Path;

use anyhow::{Context, Result};
use serde_json::json;

use crate::artifact::{self, Artifact, TextInput};
use crate::backend::registry::{self, Role};
use crate::backend::routing::{self, Route, World};
use crate::backend::Backend;
use crate::cli::ReviewArgs;
use crate::config::{Layers, Settings};
use crate::error::{Outcome, UsageError};
use crate::report;
use crate::review::locations::{LocationIndex, Revision};
use crate::review::{PatchBase, Review};
use crate::scope::{self, Change, Scope};
use crate::session::{self, Session};

/// What the artifact was built from.
enum Source {
    Text(TextInput),
    Change { scope: Scope, change: Change },
}

pub fn run(args: &ReviewArgs) -> Result<Outcome> {
    run_in(crate::repo::discover()?, args)
}

/// [`run`] with the repository already open (the pre-commit hook opened it for its fast paths;
/// one handle per run, and its object cache, serve the whole review).
pub(crate) fn run_in(repo: Option<git2::Repository>, args: &ReviewArgs) -> Result<Outcome> {
    let mut settings = Settings::resolve(Layers::load(repo.as_ref())?, args)?;
    for w in &settings.warnings {
        crate::errln!("{w}");
    }
    if let Some(p) = &settings.output {
        crate::output::check(p)?;
    }
    let cwd = std::env::current_dir().context("cannot read the current directory")?;

    let cap = crate::files::review_cap(settings.max_artifact_bytes);
    let source = match explicit_content(args, cap)? {
        Some(input) => Source::Text(input),
        None => {
            let given = settings.scope.as_deref().map(Scope::parse).transpose()?;
            match (given, repo.as_ref()) {
                (Some(Scope::File(p)), repo) => Source::Text(read_file_scope(repo, &p, &cwd, cap)?),
                (_, None) => crate::usage!(
                    "not in a git repository: pass content as an argument, --artifact-file PATH, \
                     `-` for standard input, or --scope file:<path>"
                ),
                (given, Some(repo)) => {
                    let explicit = given.is_some();
                    let scope = given.unwrap_or(Scope::Uncommitted);
                    let change = scope::resolve(repo, &scope, settings.context_lines)?;
                    if change.files.is_empty() {
                        crate::outln!("{}", nothing_to_review(&scope, explicit));
                        return Ok(Outcome::Success);
                    }
                    Source::Change { scope, change }
                }
            }
        }
    };

    let artifact = match &source {
        Source::Text(input) => {
            artifact::from_text(input, settings.target, settings.max_artifact_bytes)
        }
        Source::Change { scope, change } => artifact::from_change(
            change,
            &scope.to_string(),
            settings.target,
            settings.max_artifact_bytes,
        ),
    };

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

    let base = session::base_dir(repo.as_ref(), settings.state_dir.as_deref(), &cwd);
    let session = Session::create(&base)?;
    let artifact_path = session.write("artifact.md", artifact.text.as_bytes())?;
    let workspace = repo
        .as_ref()
        .and_then(|r| r.workdir().map(Path::to_path_buf))
        .unwrap_or_else(|| cwd.clone());
    let meta = metadata(&session, &source, &artifact, &settings, &workspace, &route);
    session.write_json("metadata.json", &meta)?;
    let templates = base.join("templates");
    let snippet = matches!(source, Source::Text(_));
    // The round-1 prompts, so a dry run shows exactly what would be sent.
    let (_, input) =
        crate::review::prompts(&artifact, &artifact.text, "", Some(&templates), snippet)?;
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
                Some(path) => crate::output::write(path, text.as_bytes())?,
                None => crate::terminal::out_json(&text)?,
            }
            return Ok(Outcome::Success);
        }
        let text = summary(&session, &source, &artifact, &artifact_path);
        crate::terminal::out(&crate::redact::redact(&text, None).text)?;
        return Ok(Outcome::Success);
    };
    let route = route?;
    // Removed when it goes out of scope at the end of this function, also on an error.
    let (_export, sandbox) = crate::review::export::prepare(
        repo.as_ref(),
        &match &source {
            Source::Change { change, .. } => crate::review::export::Source::of_change(change),
            Source::Text(_) => crate::review::export::Source::Empty,
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
    let outcome = Review {
        session: &session,
        settings: &settings,
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

/// Writes `summary.md` and `summary.json`, prints the report, and picks the exit code. Shared
/// with `resume`.
pub(crate) fn conclude(
    session: &Session,
    settings: &Settings,
    outcome: &crate::review::Outcome,
    target: crate::artifact::markdown::Target,
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
            code: target != crate::artifact::markdown::Target::Proposal,
            single_file: session::files::read(&session.dir.join("locations.json"))
                .ok()
                .and_then(|b| serde_json::from_slice::<LocationIndex>(&b).ok())
                .and_then(|i| i.single_file),
        },
    );
    session.write("summary.md", report::markdown(&report).as_bytes())?;
    session.write_json("summary.json", &report)?;
    emit(settings, &report)?;
    Ok(match report.status.as_str() {
        "interrupted" => Outcome::Interrupted,
        "unavailable" => Outcome::Unavailable,
        _ if report.gate.failed => Outcome::GateFailed,
        _ => Outcome::Success,
    })
}

/// `CI` is set (every major CI system sets it) and standard input is not a terminal.
fn in_ci() -> bool {
    use std::io::IsTerminal;
    std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false" && v != "0")
        && !std::io::stdin().is_terminal()
}

/// The report in the chosen format, on standard output or in `--output`.
fn emit(settings: &Settings, report: &report::Report) -> Result<()> {
    let to_file = settings.output.is_some();
    let color = !to_file && report::use_color(crate::terminal::stdout_is_terminal());
    // The JSON formats keep the data exact (escaped where a terminal would act on it); the
    // others are rendered from cleaned text (see `crate::terminal`).
    let json = |v: String| crate::terminal::json(&(v + "\n")).into_owned();
    let text = match settings.format.as_str() {
        "json" => json(serde_json::to_string_pretty(report)?),
        "markdown" => report::markdown(report),
        "sarif" => json(serde_json::to_string_pretty(&report::ci::sarif(report))?),
        "rdjson" => json(serde_json::to_string_pretty(&report::ci::rdjson(report))?),
        "github" => {
            if let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY") {
                use std::io::Write;
                let mut f = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&path)
                    .with_context(|| {
                        format!(
                            "cannot write the job summary {}",
                            Path::new(&path).display()
                        )
                    })?;
                f.write_all(report::markdown(report).as_bytes())?;
            }
            report::ci::github(report)
        }
        _ => report::text(report, color),
    };
    // A machine format piped into another tool (reviewdog, an upload) must not make "not
    // evaluated" look like "nothing found": say it where a person sees it too.
    if !report.evaluated && (settings.format != "text" || to_file) {
        crate::errln!(
            "git debate: the review was not evaluated (exit 3): {}",
            report
                .error
                .as_deref()
                .unwrap_or("the reviewer never answered")
        );
    }
    match &settings.output {
        Some(path) => crate::output::write(path, text.as_bytes()),
        None if color => Ok(crate::terminal::out_coloured(&text)?),
        None if settings.format == "github" => Ok(crate::terminal::out_commands(&text)?),
        None => Ok(crate::terminal::out(&text)?),
    }
}

/// CONTENT or `--artifact-file`; `-` in either reads standard input.
fn explicit_content(args: &ReviewArgs, cap: u64) -> Result<Option<TextInput>> {
    if let Some(content) = &args.content {
        if content == "-" {
            return Ok(Some(read_stdin(cap)?));
        }
        return Ok(Some(TextInput {
            text: content.clone(),
            origin: "argument".into(),
            path_hint: None,
            lossy: false,
        }));
    }
    let Some(path) = &args.artifact_file else {
        return Ok(None);
    };
    if path == Path::new("-") {
        return Ok(Some(read_stdin(cap)?));
    }
    let bytes = crate::files::read_regular(path, cap)
        .map_err(|e| refused(&format!("--artifact-file {}", path.display()), e))?;
    let input = TextInput::from_bytes(
        bytes,
        path.display().to_string(),
        Some(path.display().to_string()),
    );
    if input.text.trim().is_empty() {
        crate::usage!(
            "--artifact-file {} is empty; nothing to review",
            path.display()
        );
    }
    Ok(Some(input))
}

/// One line about a refused read of `what`, with what to do about the size cap.
fn refused(what: &str, e: crate::files::Refusal) -> UsageError {
    use crate::files::Refusal;
    UsageError::new(match e {
        Refusal::Io(e) => format!("cannot read {what}: {e}"),
        Refusal::TooLarge(_) => format!(
            "{what} {e} (64 × --max-artifact-bytes, at least 16 MiB); \
             review a part of it, or raise --max-artifact-bytes"
        ),
        e => format!("{what} {e}; name a file"),
    })
}

fn read_stdin(cap: u64) -> Result<TextInput> {
    let bytes = crate::files::read_capped(std::io::stdin().lock(), cap)
        .map_err(|e| refused("standard input", e))?;
    let input = TextInput::from_bytes(bytes, "stdin".into(), None);
    if input.text.trim().is_empty() {
        crate::usage!("standard input was empty; nothing to review");
    }
    Ok(input)
}

/// `file:<path>`: the whole file. Inside a work tree the file must belong to it (the scope names
/// part of this repository); elsewhere any readable file will do.
pub(crate) fn read_file_scope(
    repo: Option<&git2::Repository>,
    given: &str,
    cwd: &Path,
    cap: u64,
) -> Result<TextInput> {
    let path = cwd.join(given);
    let meta = std::fs::metadata(&path).map_err(|_| {
        UsageError::new(format!(
            "--scope file:{given}: no such file ({})",
            path.display()
        ))
    })?;
    if meta.is_dir() {
        crate::usage!("--scope file:{given} is a directory; name a file");
    }
    if !meta.is_file() {
        crate::usage!(
            "--scope file:{given} is {}, not a regular file; name a file",
            crate::files::kind(&meta.file_type())
        );
    }
    let real = path
        .canonicalize()
        .with_context(|| format!("cannot resolve {}", path.display()))?;
    let mut hint = given.to_string();
    if let Some(root) = repo.and_then(|r| r.workdir()) {
        let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
        match real.strip_prefix(&root) {
            Ok(rel) => hint = rel.to_string_lossy().into_owned(),
            Err(_) => crate::usage!(
                "--scope file:{given} is outside the work tree {}; use --artifact-file {given} to review it anyway",
                root.display()
            ),
        }
    }
    let bytes = crate::files::read_regular(&real, cap)
        .map_err(|e| refused(&format!("--scope file:{given}"), e))?;
    if bytes[..bytes.len().min(8000)].contains(&0) {
        crate::usage!("--scope file:{given} is a binary file; there is no text to review");
    }
    let input = TextInput::from_bytes(bytes, format!("file:{hint}"), Some(hint));
    if input.text.trim().is_empty() {
        crate::usage!("--scope file:{given} is empty; nothing to review");
    }
    Ok(input)
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

fn metadata(
    session: &Session,
    source: &Source,
    artifact: &Artifact,
    settings: &Settings,
    workspace: &Path,
    route: &Result<Route>,
) -> serde_json::Value {
    let now = session::rfc3339(session::now_utc());
    let (source_json, scope_json, files, commits) = match source {
        Source::Text(t) => (
            json!({"kind": "content", "origin": t.origin}),
            json!({"given": settings.scope, "resolved": null}),
            json!([]),
            json!([]),
        ),
        Source::Change { scope, change } => (
            json!({"kind": "scope"}),
            json!({
                "given": settings.scope,
                "effective": scope.to_string(),
                "resolved": {
                    "base": change.base, "head": change.head, "merge_base": change.merge_base,
                    "index_tree": change.index_tree, "description": change.description,
                },
            }),
            serde_json::Value::Array(
                change
                    .files
                    .iter()
                    .map(|f| {
                        json!({
                            "path": f.path, "old_path": f.old_path, "status": f.status,
                            "additions": f.additions, "deletions": f.deletions, "binary": f.binary,
                            "too_large": f.too_large, "lossy": f.lossy, "submodule": f.submodule,
                        })
                    })
                    .collect(),
            ),
            serde_json::Value::Array(
                change
                    .commits
                    .iter()
                    .map(|c| json!({"sha": c.sha, "subject": c.subject}))
                    .collect(),
            ),
        ),
    };
    // File names, commit subjects and the given scope can hold secrets too.
    let mut meta = json!({
        "version": session::METADATA_VERSION,
        "id": session.id,
        "status": if settings.dry_run { "dry-run" } else { "running" },
        "created_at": now,
        "updated_at": now,
        "tool_version": env!("CARGO_PKG_VERSION"),
        "workspace": workspace.display().to_string(),
        "target": artifact.target,
        "target_reasons": artifact.target_reasons,
        "source": source_json,
        "scope": scope_json,
        "files": files,
        "commits": commits,
        "segments": artifact.segments,
        "redactions": artifact.redactions,
        "truncation": artifact.truncation,
        "lossy": artifact.lossy,
        "artifact_bytes": artifact.text.len(),
        "settings": settings,
        "route": route.as_ref().ok(),
        "route_error": route.as_ref().err().map(|e| e.to_string()),
    });
    crate::redact::redact_json(&mut meta);
    meta
}

/// The dry-run report: what would be reviewed, and where it was stored.
fn summary(session: &Session, source: &Source, a: &Artifact, artifact_path: &Path) -> String {
    let mut s = String::from("git debate: dry run, no model was called\n");
    s.push_str(&format!("session:    {}\n", session.id));
    s.push_str(&format!(
        "target:     {} ({})\n",
        serde_json::to_value(a.target)
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default(),
        a.target_reasons.join("; ")
    ));
    match source {
        Source::Text(t) => {
            s.push_str(&format!(
                "source:     {} ({} bytes)\n",
                t.origin,
                t.text.len()
            ));
        }
        Source::Change { scope, change } => {
            s.push_str(&format!("scope:      {scope}: {}\n", change.description));
            if !change.commits.is_empty() {
                s.push_str(&format!("commits:    {}\n", change.commits.len()));
            }
            s.push_str(&format!(
                "files:      {} changed, +{} -{}\n",
                change.files.len(),
                change.additions(),
                change.deletions()
            ));
            for f in &change.files {
                s.push_str(&format!("  {}\n", artifact::file_line(f)));
            }
        }
    }
    if !a.segments.is_empty() {
        s.push_str(&format!("segments:   {}\n", a.segments.len()));
        for seg in &a.segments {
            let kind = if seg.kind == artifact::SegmentKind::Code {
                "code"
            } else {
                "proposal"
            };
            let path = if seg.heading_path.is_empty() {
                "(top)".to_string()
            } else {
                seg.heading_path.join(" > ")
            };
            s.push_str(&format!(
                "  {kind:<8} {path} ({} bytes)\n",
                seg.end - seg.start
            ));
        }
    }
    if a.redactions.count == 0 {
        s.push_str("redactions: none\n");
    } else {
        let kinds: Vec<String> = a
            .redactions
            .kinds
            .iter()
            .map(|(k, n)| format!("{k}: {n}"))
            .collect();
        s.push_str(&format!(
            "redactions: {} secret(s) replaced before storing ({})\n",
            a.redactions.count,
            kinds.join(", ")
        ));
    }
    if a.lossy {
        s.push_str("encoding:   some text was not UTF-8 and is shown lossily\n");
    }
    let t = &a.truncation;
    if t.cut_anything() {
        s.push_str(&format!(
            "truncation: kept {} of {} bytes (budget {}):\n",
            t.kept_bytes, t.content_bytes, t.budget_bytes
        ));
        for n in t.omitted.iter().chain(&t.clipped) {
            s.push_str(&format!("  {}: {}\n", n.path, n.reason));
        }
    } else {
        s.push_str(&format!(
            "truncation: none ({} of {} bytes budget)\n",
            t.kept_bytes, t.budget_bytes
        ));
    }
    for n in &t.not_sent {
        s.push_str(&format!("not sent:   {}: {}\n", n.path, n.reason));
    }
    s.push_str(&format!("artifact:   {}\n", artifact_path.display()));
    s
}
