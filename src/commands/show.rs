//! `git debate show [ID|last]`: print a stored session's artifact and metadata.

use anyhow::Result;

use crate::choices::Format;
use crate::cli::{ShowArgs, ShowFormat};
use crate::error::Outcome;
use crate::store;

pub fn run(args: &ShowArgs) -> Result<Outcome> {
    let base = store::located::dir(args.store.state_dir.as_deref())?;
    let s = store::find(&base, &args.id)?;
    if let Some(n) = args.round {
        return show_round(&s, n, args.format);
    }
    let report_format = match args.format {
        ShowFormat::Text | ShowFormat::Json => None,
        ShowFormat::Markdown => Some(Format::Markdown),
        ShowFormat::Sarif => Some(Format::Sarif),
        ShowFormat::Rdjson => Some(Format::Rdjson),
        ShowFormat::Github => Some(Format::Github),
        ShowFormat::Codequality => Some(Format::Codequality),
    };
    if let Some(format) = report_format {
        let report = crate::report::stored::load(&s.id, &s.dir)
            .map_err(|e| crate::error::UsageError::new(e.to_string()))?;
        crate::report::emit::print(format, &report, None)?;
        return Ok(Outcome::Success);
    }
    let text = crate::report::session_view::session(&s, matches!(args.format, ShowFormat::Json))?;
    crate::ui::terminal::out(&text)?;
    // A damaged session is shown as far as it can be, then reported as an error.
    let c = s.contents();
    if let Err(e) = s.metadata.as_ref().and(c.artifact.as_ref().map(|_| ())) {
        anyhow::bail!("session {} is damaged: {e}", s.id);
    }
    Ok(Outcome::Success)
}

/// `show ID --round N`: the round's record, critique and judgement.
fn show_round(s: &store::Stored, n: u32, format: ShowFormat) -> Result<Outcome> {
    if !matches!(format, ShowFormat::Text | ShowFormat::Json) {
        crate::usage!(
            "--round shows one round as text or json; drop --round to re-emit the report"
        );
    }
    let Some(text) = crate::report::session_view::round(s, n, format == ShowFormat::Json)? else {
        crate::usage!(
            "session {} has no round {n} (it has {}); see `git debate show {}`",
            s.id,
            s.rounds(),
            s.id
        );
    };
    crate::ui::terminal::out(&text)?;
    Ok(Outcome::Success)
}
