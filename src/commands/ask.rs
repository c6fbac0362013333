//! `git debate ask --backend B`: standard input to one backend, its answer and usage out.
//!
//! Small on purpose: it proves one adapter end to end (command line, environment, parser, errors,
//! timeouts) without the review loop, for users debugging their setup and for our tests.

use std::io::Read as _;
use std::time::Duration;

use anyhow::{Context as _, Result};

use crate::agents::{registry, Request};
use crate::cli::{AskArgs, ListFormat};
use crate::error::Outcome;
use crate::settings::{Overrides, Settings};

pub fn run(args: &AskArgs) -> Result<Outcome> {
    let repo = crate::git::repo::discover()?;
    let settings = Settings::load(
        repo.as_ref().map(crate::git::Repo::dirs),
        &Overrides::from(args),
    )?;
    crate::redact::use_rules_file(settings.redact_rules.as_deref())?;
    let backend = registry::build(&args.backend, Some(registry::Role::Reviewer), &settings)?;
    let mut prompt = String::new();
    std::io::stdin()
        .read_to_string(&mut prompt)
        .context("cannot read the prompt from standard input (it must be UTF-8)")?;
    if prompt.trim().is_empty() {
        crate::usage!("no prompt: pipe one on standard input, e.g. `echo 'Is 2+2=4?' | git debate ask --backend {}`", args.backend);
    }
    let cwd = match repo.as_ref().and_then(|r| r.workdir()) {
        Some(w) => w.to_path_buf(),
        None => std::env::current_dir().context("cannot read the current directory")?,
    };
    let answer = backend.ask(&Request {
        prompt: &prompt,
        cwd: Some(cwd),
        timeout: Duration::from_secs(settings.backend_timeout_seconds),
        idle_timeout: Duration::from_secs(settings.backend_idle_seconds),
        schema: None,
        sandbox: Default::default(),
    })?;
    match args.format {
        ListFormat::Json => {
            let mut out = serde_json::to_string_pretty(&answer)?;
            out.push('\n');
            crate::ui::terminal::out_json(&out)?;
        }
        ListFormat::Text => {
            crate::ui::terminal::out(&format!("{}\n", answer.text))?;
            crate::errln!("{}", usage_line(&answer));
        }
    }
    Ok(Outcome::Success)
}

/// `claude · claude-sonnet-4-5 · 8573 in / 14 out tokens · $0.0259 · 0.7 s`
pub fn usage_line(a: &crate::agents::Answer) -> String {
    let mut parts = vec![a.backend.clone()];
    if let Some(m) = &a.model {
        parts.push(m.clone());
    }
    parts.extend(a.usage.describe());
    parts.push(format!("{:.1} s", a.duration_ms as f64 / 1000.0));
    parts.join(" · ")
}
