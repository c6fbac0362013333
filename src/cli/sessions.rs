//! `git debate sessions` and `git debate show`: the stored sessions.

use clap::{Args, ValueEnum};

use super::groups::StoreArgs;

#[derive(Debug, Args)]
pub struct SessionsArgs {
    #[command(flatten)]
    pub store: StoreArgs,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ListFormat::Text)]
    pub format: ListFormat,
    /// Remove old sessions: beyond --keep and --older-than if given, else beyond the configured
    /// limits (debate.keepSessions, debate.keepDays and the hook's own).
    #[arg(long)]
    pub prune: bool,
    /// With --prune: keep only the newest N sessions.
    #[arg(long, value_name = "N", requires = "prune")]
    pub keep: Option<usize>,
    /// With --prune: remove sessions older than AGE: 30d, 12h, 2w (a bare number is days).
    #[arg(long, value_name = "AGE", requires = "prune", value_parser = parse_age)]
    pub older_than: Option<u64>,
    /// With --prune: list what would be removed, and remove nothing.
    #[arg(long, requires = "prune")]
    pub dry_run: bool,
}

#[derive(Debug, Args)]
pub struct ShowArgs {
    /// Session id (or a unique prefix of one), or `last` for the newest.
    #[arg(value_name = "ID", default_value = "last")]
    pub id: String,
    /// Show one round: its choice, the critique and the judgement.
    #[arg(long, value_name = "N")]
    pub round: Option<u32>,
    #[command(flatten)]
    pub store: StoreArgs,
    /// Output format. `markdown`, `sarif`, `rdjson`, `github` and `codequality` re-emit a finished
    /// review's report exactly as the review would have printed it (no model is called), so CI can
    /// upload what a hook or an earlier step produced.
    #[arg(long, value_enum, default_value_t = ShowFormat::Text)]
    pub format: ShowFormat,
}

#[derive(Debug, Args)]
pub struct PostArgs {
    /// Session id (or a unique prefix of one), or `last` for the newest.
    #[arg(value_name = "ID", default_value = "last")]
    pub id: String,
    /// The repository, OWNER/NAME (default $GITHUB_REPOSITORY).
    #[arg(long, value_name = "OWNER/NAME")]
    pub repo: Option<String>,
    /// The pull request's number (default: from $GITHUB_REF, refs/pull/N/merge).
    #[arg(long, value_name = "N")]
    pub pr: Option<u64>,
    /// The commit the line comments are on (default: the pull request's newest).
    #[arg(long, value_name = "SHA")]
    pub commit: Option<String>,
    #[command(flatten)]
    pub store: StoreArgs,
}

/// The plain listings' formats (sessions, backends, ask).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    Text,
    Json,
}

/// `show --format`: a session's own views, or a finished review's report re-emitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ShowFormat {
    /// The session's metadata and its summary (or the artifact of a dry run).
    Text,
    /// Everything stored: metadata, artifact and the JSON report.
    Json,
    Markdown,
    Sarif,
    Rdjson,
    Github,
    Codequality,
}

/// Seconds in a day, the unit of a bare `--older-than` number.
const DAY: u64 = 24 * 3600;

/// `30d`, `12h`, `2w`, or a number of days, as seconds (`--older-than`).
pub fn parse_age(s: &str) -> Result<u64, String> {
    let s = s.trim();
    let (digits, unit) = match s.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => (&s[..i], &s[i..]),
        None => (s, "d"),
    };
    let unit = match unit {
        "h" => 3600,
        "d" => DAY,
        "w" => 7 * DAY,
        _ => return Err(format!("{s:?} is not an age: write it as 30d, 12h or 2w")),
    };
    digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(unit))
        .filter(|secs| *secs <= 1000 * 365 * DAY)
        .ok_or_else(|| format!("{s:?} is not an age: write it as 30d, 12h or 2w"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_parse_in_hours_days_and_weeks() {
        assert_eq!(parse_age("12h"), Ok(12 * 3600));
        assert_eq!(parse_age("30d"), Ok(30 * DAY));
        assert_eq!(parse_age("30"), Ok(30 * DAY));
        assert_eq!(parse_age("2w"), Ok(14 * DAY));
        for bad in ["", "d", "3m", "-1d", "1.5d", "99999999999999999999d"] {
            assert!(parse_age(bad).is_err(), "{bad}");
        }
    }
}
