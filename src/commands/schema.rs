//! `git debate schema [cr|peer-review|judge|report]`: the JSON Schema of a protocol's answer, as
//! shipped in `references/schemas/` and handed to the CLIs that can enforce one; or of the
//! review report `--format json` prints, made from the report's own types so it cannot drift.

use anyhow::Result;

use crate::answer::Protocol;
use crate::cli::{ProtocolArg, SchemaArgs};
use crate::error::Outcome;

pub fn run(args: &SchemaArgs) -> Result<Outcome> {
    let protocol = match args.protocol {
        ProtocolArg::Cr => Protocol::Cr,
        ProtocolArg::PeerReview => Protocol::PeerReview,
        ProtocolArg::Judge => Protocol::Judge,
        ProtocolArg::Report => {
            let schema = crate::store::summary::report_schema();
            crate::ui::terminal::out(&format!("{schema}\n"))?;
            return Ok(Outcome::Success);
        }
    };
    crate::ui::terminal::out(protocol.schema_text())?;
    Ok(Outcome::Success)
}
