//! `git debate schema [cr|peer-review|judge]`: the JSON Schema of a protocol's answer, as shipped
//! in `references/schemas/` and handed to the CLIs that can enforce one.

use anyhow::Result;

use crate::answer::Protocol;
use crate::cli::{ProtocolArg, SchemaArgs};
use crate::error::Outcome;

pub fn run(args: &SchemaArgs) -> Result<Outcome> {
    let protocol = match args.protocol {
        ProtocolArg::Cr => Protocol::Cr,
        ProtocolArg::PeerReview => Protocol::PeerReview,
        ProtocolArg::Judge => Protocol::Judge,
    };
    crate::ui::terminal::out(protocol.schema_text())?;
    Ok(Outcome::Success)
}
