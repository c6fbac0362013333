//! How a topic debate's result is printed, duel or panel: the JSON report, or the summary with
//! the session's folder, and the exit code its status means.

use anyhow::Result;

use crate::choices::Format;
use crate::debate::Ended;
use crate::error::Outcome;
use crate::settings::Settings;

/// Prints a debate's result (the JSON report, or the summary) and picks the exit code: aborted
/// debates are "not evaluated" (3).
pub fn emit(settings: &Settings, ended: &Ended) -> Result<Outcome> {
    let json = settings.format == Format::Json;
    let text = if json {
        // Keys sorted at every depth, as `summary.json` holds them.
        let bytes = crate::store::sorted_json(&ended.report)?;
        crate::ui::terminal::json(&String::from_utf8_lossy(&bytes)).into_owned()
    } else {
        crate::ui::terminal::clean(&format!(
            "{}\nsession: {}\n",
            ended.summary,
            ended.session.dir.display()
        ))
        .into_owned()
    };
    match &settings.output {
        Some(p) => crate::report::output::write(p, text.as_bytes())?,
        None => crate::ui::terminal::out_trusted(text.as_bytes())?,
    }
    Ok(match ended.status.as_str() {
        "interrupted" => Outcome::Interrupted,
        // Nothing was debated: the challenger (like a reviewer) never answered.
        "aborted" | "uncontested" => Outcome::Unavailable,
        _ => Outcome::Success,
    })
}
