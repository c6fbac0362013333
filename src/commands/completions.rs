//! `git debate completions SHELL`: completion scripts generated from the clap definitions, with
//! what `ui::completion` adds to them.

use crate::cli::CompletionsArgs;
use crate::error::Outcome;
use crate::ui::completion;
use anyhow::Result;

pub fn run(args: &CompletionsArgs) -> Result<Outcome> {
    let mut cmd = crate::flags::command();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "git-debate", &mut out);
    if args.shell == clap_complete::Shell::Bash {
        let flags = completion::backend_flags(&crate::flags::command());
        out = completion::bash(
            &String::from_utf8_lossy(&out),
            &flags,
            &crate::agents::registry::REVIEWER_ORDER,
        )
        .ok_or_else(|| anyhow::anyhow!("clap's bash script registers no completion function"))?
        .into_bytes();
    }
    let backends = &crate::agents::registry::REVIEWER_ORDER;
    if args.shell == clap_complete::Shell::Zsh {
        let script = completion::zsh_subcommands_first(&String::from_utf8_lossy(&out));
        out = completion::zsh_values(&script, backends).into_bytes();
    }
    if args.shell == clap_complete::Shell::Fish {
        let flags = completion::backend_flags(&crate::flags::command());
        out =
            completion::fish_values(&String::from_utf8_lossy(&out), &flags, backends).into_bytes();
    }
    crate::ui::terminal::out_trusted(&out)?;
    Ok(Outcome::Success)
}
