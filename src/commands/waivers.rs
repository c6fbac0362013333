//! `git debate waivers`: the waivers of the work tree's `.gitdebate-waivers`, active and
//! expired.

use anyhow::Result;

use crate::cli::{ListFormat, WaiversArgs};
use crate::error::Outcome;

pub fn run(args: &WaiversArgs) -> Result<Outcome> {
    let Some(repo) = crate::git::repo::discover()? else {
        crate::usage!("not in a git repository: waivers are kept in its work tree");
    };
    let listed = crate::waivers::listing(&repo)?;
    match args.format {
        ListFormat::Json => {
            let text = String::from_utf8_lossy(&crate::store::sorted_json(&listed)?).into_owned();
            crate::ui::terminal::out_json(&text)?;
        }
        ListFormat::Text => crate::ui::terminal::out(&crate::waivers::listing_text(&listed))?,
    }
    Ok(Outcome::Success)
}
