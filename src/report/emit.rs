//! Printing a report: one place that renders each format and decides where it goes, for a
//! review that just ended and for `git debate show ID --format ...` alike.

use std::path::Path;

use anyhow::{Context as _, Result};

use crate::choices::Format;
use crate::report::Report;

/// `report` in `format`, on standard output or in `output`.
pub fn print(format: Format, report: &Report, output: Option<&Path>) -> Result<()> {
    let to_file = output.is_some();
    let color = !to_file && crate::report::use_color(crate::ui::terminal::stdout_is_terminal());
    // The JSON formats keep the data exact (escaped where a terminal would act on it); the
    // others are rendered from cleaned text (see `crate::ui::terminal`).
    let json = |v: Vec<u8>| crate::ui::terminal::json(&String::from_utf8_lossy(&v)).into_owned();
    let text = match format {
        Format::Json => json(serde_json::to_vec_pretty(report).map(|mut b| {
            b.push(b'\n');
            b
        })?),
        Format::Markdown => crate::report::markdown(report),
        // Keys sorted at every depth, as these have always been printed.
        Format::Sarif => json(crate::store::sorted_json(&crate::report::ci::sarif(
            report,
        ))?),
        Format::Rdjson => {
            let rd = crate::report::ci::rdjson(report);
            unplaced(rd.unplaced, "rdjson");
            json(crate::store::sorted_json(&rd)?)
        }
        Format::Codequality => {
            let cq = crate::report::codequality::codequality(report);
            unplaced(cq.unplaced, "Code Quality report");
            json(crate::store::sorted_json(&cq)?)
        }
        Format::Github => {
            if let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY") {
                use std::io::Write as _;
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
                f.write_all(crate::report::markdown(report).as_bytes())?;
            }
            crate::report::ci::github(report)
        }
        Format::Text => crate::report::text(report, color),
    };
    // A machine format piped into another tool (reviewdog, an upload) must not make "not
    // evaluated" look like "nothing found": say it where a person sees it too.
    // Text piped into a file or a pager: its `error:` line is said where a person sees it too.
    let piped_text =
        format == Format::Text && !to_file && !crate::ui::terminal::stdout_is_terminal();
    if let Some(e) = report
        .error
        .as_deref()
        .filter(|_| piped_text && report.evaluated)
    {
        crate::errln!("git debate: error: {e}");
    }
    if !report.evaluated && (format != Format::Text || to_file || piped_text) {
        crate::errln!(
            "git debate: the review was not evaluated (exit 3): {}",
            report
                .error
                .as_deref()
                .unwrap_or("the reviewer never answered")
        );
    }
    match output {
        Some(path) => crate::report::output::write(path, text.as_bytes()),
        None if color => Ok(crate::ui::terminal::out_coloured(&text)?),
        None if format == Format::Github => Ok(crate::ui::terminal::out_commands(&text)?),
        None => Ok(crate::ui::terminal::out(&text)?),
    }
}

/// Says on stderr how many findings a format had no place for (they are in the markdown
/// summary and the JSON report).
fn unplaced(n: usize, format: &str) {
    if n > 0 {
        crate::errln!(
            "git debate: {n} finding(s) with no place in the reviewed change are not in the \
             {format} (see `git debate show last --format markdown`)"
        );
    }
}
