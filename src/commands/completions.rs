//! `git debate completions SHELL`: completion scripts generated from the clap definitions.

use anyhow::Result;
use clap::CommandFactory;

use crate::cli::{Cli, CompletionsArgs};
use crate::error::Outcome;

/// git's bash completion looks for `_git_<subcommand>` when completing `git debate`; clap's script
/// only registers `git-debate`, so this shim hands the words over to it.
const BASH_GIT_SHIM: &str = r#"
# `git debate <TAB>`: git's completion calls _git_debate with the words after `git`.
_git_debate() {
    local cur="${COMP_WORDS[COMP_CWORD]}"
    COMP_WORDS=(git-debate "${COMP_WORDS[@]:2}")
    COMP_CWORD=$((COMP_CWORD - 1))
    _git-debate git-debate "$cur" "${COMP_WORDS[COMP_CWORD-1]}"
}
"#;

pub fn run(args: &CompletionsArgs) -> Result<Outcome> {
    let mut cmd = Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "git-debate", &mut out);
    if args.shell == clap_complete::Shell::Bash {
        out.extend_from_slice(BASH_GIT_SHIM.as_bytes());
    }
    crate::terminal::out_trusted(&out)?;
    Ok(Outcome::Success)
}
