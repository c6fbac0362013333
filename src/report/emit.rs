//! Printing a report: one place that renders each format and decides where it goes, for a
//! review that just ended and for `git debate show ID --format ...` alike.

use std::path::Path;

use anyhow::{Context, Result};

use super::Report;

/// `report` in `format` (`text`, `json`, `markdown`, `sarif`, `rdjson`, `github`), on standard
/// output or in `output`.
pub fn print(format: &str, report: &Report, output: Option<&Path>) -> Result<()> {
    let to_file = output.is_some();
    let color = !to_file && super::use_color(crate::terminal::stdout_is_terminal());
    // The JSON formats keep the data exact (escaped where a terminal would act on it); the
    // others are rendered from cleaned text (see `crate::terminal`).
    let json = |v: String| crate::terminal::json(&(v + "\n")).into_owned();
    let text = match format {
        "json" => json(serde_json::to_string_pretty(report)?),
        "markdown" => super::markdown(report),
        "sarif" => json(serde_json::to_string_pretty(&super::ci::sarif(report))?),
        "rdjson" => json(serde_json::to_string_pretty(&super::ci::rdjson(report))?),
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
                f.write_all(super::markdown(report).as_bytes())?;
            }
            super::ci::github(report)
        }
        _ => super::text(report, color),
    };
    // A machine format piped into another tool (reviewdog, an upload) must not make "not
    // evaluated" look like "nothing found": say it where a person sees it too.
    if !report.evaluated && (format != "text" || to_file) {
        crate::errln!(
            "git debate: the review was not evaluated (exit 3): {}",
            report
                .error
                .as_deref()
                .unwrap_or("the reviewer never answered")
        );
    }
    match output {
        Some(path) => crate::output::write(path, text.as_bytes()),
        None if color => Ok(crate::terminal::out_coloured(&text)?),
        None if format == "github" => Ok(crate::terminal::out_commands(&text)?),
        None => Ok(crate::terminal::out(&text)?),
    }
}
