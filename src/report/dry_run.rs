//! What a dry run shows: the session it recorded, what would be reviewed and how (the target and
//! why, the files or the source, redactions, truncation, the chunks), and for `--format json`
//! everything stored about it, for a pipeline to read.

use std::path::Path;

use anyhow::Result;

use crate::change::{self, Artifact};
use crate::choices::Format;
use crate::error::Outcome;
use crate::review::record::ChunkRecord;
use crate::review::setup::last_message::Origin;
use crate::review::setup::{DryRun, Source};
use crate::settings::Settings;
use crate::store::Session;

/// A dry run's `--format json` (every object's keys sorted, as it has always been printed).
#[derive(serde::Serialize)]
struct Json<'a> {
    dry_run: bool,
    evaluated: bool,
    session: &'a str,
    session_dir: &'a Path,
    artifact: &'a Path,
    metadata: &'a crate::store::metadata::Review,
}

/// Prints the dry run in the chosen format, on standard output or in `--output`.
pub fn print(d: &DryRun, settings: &Settings) -> Result<Outcome> {
    if settings.format == Format::Json {
        // What a pipeline reads: the session and everything stored about it (the metadata was
        // redacted when it was recorded).
        let report = Json {
            dry_run: true,
            evaluated: false,
            session: &d.session.id,
            session_dir: &d.session.dir,
            artifact: &d.artifact_path,
            metadata: &d.metadata,
        };
        let text = String::from_utf8_lossy(&crate::store::sorted_json(&report)?).into_owned();
        match &settings.output {
            Some(path) => crate::report::output::write(path, text.as_bytes())?,
            None => crate::ui::terminal::out_json(&text)?,
        }
        return Ok(Outcome::Success);
    }
    let mut text = summary(
        &d.session,
        (&d.source, d.from_message.as_ref()),
        &d.artifact,
        &d.artifact_path,
    );
    if !d.waivers.is_empty() {
        let today = crate::waivers::today();
        let expired = d.waivers.iter().filter(|w| w.expired(today)).count();
        text.push_str(&format!(
            "waivers:    {} in {} ({expired} expired)\n",
            d.waivers.len(),
            crate::waivers::FILE
        ));
    }
    if let Some((chunks, unfit)) = &d.chunks {
        text.push_str(&chunk_summary(chunks, unfit, settings.concurrency));
    }
    crate::ui::terminal::out(&crate::redact::redact(&text, None).text)?;
    Ok(Outcome::Success)
}

fn chunk_summary(chunks: &[ChunkRecord], unfit: &[change::budget::Note], at_once: usize) -> String {
    let mut s = format!(
        "chunks:     {} reviewed at once ({at_once} at a time)\n",
        chunks.len()
    );
    for c in chunks {
        let shown: Vec<&str> = c.files.iter().take(4).map(String::as_str).collect();
        let more = c.files.len().saturating_sub(shown.len());
        let more = if more > 0 {
            format!(", +{more} more")
        } else {
            String::new()
        };
        s.push_str(&format!(
            "  chunk {}: {} files ({}{more})\n",
            c.chunk,
            c.files.len(),
            shown.join(", ")
        ));
    }
    let (whole, partly): (Vec<_>, Vec<_>) = unfit.iter().cloned().partition(|n| n.omitted);
    if !whole.is_empty() {
        let mut files: Vec<&str> = whole.iter().map(|n| n.path.as_str()).collect();
        files.dedup();
        s.push_str(&format!(
            "not evaluated: {} files would not be reviewed (more than debate.maxChunks chunks, \
             or past the budget; the run would exit 3 unless --allow-partial): {}\n",
            files.len(),
            list(&files, 10)
        ));
    }
    for line in change::budget::note_lines(&partly) {
        s.push_str(&line);
        s.push('\n');
    }
    s
}

/// The dry-run report: what would be reviewed, and where it was stored.
fn summary(
    session: &Session,
    (source, from_message): (&Source, Option<&Origin>),
    a: &Artifact,
    artifact_path: &Path,
) -> String {
    let mut s = String::from("git debate: dry run, no model was called\n");
    s.push_str(&format!("session:    {}\n", session.id));
    s.push_str(&format!(
        "target:     {} ({}; {} confidence)\n",
        serde_json::to_value(a.target)
            .ok()
            .and_then(|v| v.as_str().map(String::from))
            .unwrap_or_default(),
        a.target_reasons.join("; "),
        a.confidence
    ));
    match source {
        Source::Text(t) => {
            s.push_str(&format!(
                "source:     {} ({} bytes)\n",
                t.origin,
                t.text.len()
            ));
            if let Some(o) = from_message {
                s.push_str(&format!("from:       {} (message {})\n", o.file, o.message));
            }
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
                s.push_str(&format!("  {}\n", change::file_line(f)));
            }
        }
    }
    for f in &a.injections {
        s.push_str(&format!("warning:    {} ({})\n", f.title(), f.what));
    }
    s.push_str(&format!("instructions: {}\n", a.instructions.record.line()));
    for n in &a.instructions.record.notes {
        s.push_str(&format!("  {n}\n"));
    }
    if !a.segments.is_empty() {
        s.push_str(&format!("segments:   {}\n", a.segments.len()));
        for seg in &a.segments {
            let kind = if seg.kind == change::SegmentKind::Code {
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
        let notes: Vec<_> = t.omitted.iter().chain(&t.clipped).cloned().collect();
        for line in change::budget::note_lines(&notes) {
            let line = line.strip_prefix("did not fit: ").unwrap_or(&line);
            s.push_str(&format!("  {line}\n"));
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

/// The first `max` of `items`, then how many more.
fn list(items: &[&str], max: usize) -> String {
    let mut s = items[..items.len().min(max)].join(", ");
    if items.len() > max {
        s.push_str(&format!(" and {} more", items.len() - max));
    }
    s
}
