//! `git debate waive` and `git debate waivers`: a team's decisions that a finding does not
//! apply, kept in the committed `.gitdebate-waivers`.

use clap::Args;

use super::groups::StoreArgs;
use super::sessions::ListFormat;

#[derive(Debug, Args)]
pub struct WaiveArgs {
    /// The finding: `<session>:F2` (a session id or a unique prefix of one), `last:F2`, or `F2`
    /// (of the last session).
    #[arg(value_name = "FINDING")]
    pub finding: String,
    /// Why it does not apply here; required, and kept in the file for whoever reviews it.
    #[arg(long, value_name = "TEXT")]
    pub reason: Option<String>,
    /// From this day (YYYY-MM-DD, UTC) on the waiver no longer applies and the finding counts
    /// again.
    #[arg(long, value_name = "YYYY-MM-DD")]
    pub expires: Option<String>,
    #[command(flatten)]
    pub store: StoreArgs,
}

#[derive(Debug, Args)]
pub struct WaiversArgs {
    /// Output format.
    #[arg(long, value_enum, default_value_t = ListFormat::Text)]
    pub format: ListFormat,
}
