//! From a backend name (`claude`, `exec:llm -m x`, `openai:llama3`) and the settings to a ready
//! [`Backend`]: program path, model, reasoning, extra arguments and family.
//!
//! Per-backend git config lives under `debate.<backend>.*`: `model`, `family`, `effort<Level>`
//! (replaces the effort table's model), `maxAttempts` (gemini: failed attempts before it is
//! stopped), and the user-only `command` (a non-default binary) and
//! `args` (extra flags, split like shell words). For `openai:` also `baseUrl`; for `exec:` `family`.

use std::path::PathBuf;

use anyhow::Result;

pub use super::agent::host::{version, which};
use super::agent::{AgentBackend, AgentSpec, CallOptions};
use super::exec::{split_words, ExecBackend};
use super::openai::OpenAiBackend;
use super::{effort, Backend, Effort, Family};
use crate::config::Settings;

/// The agent CLIs, in the order used to pick a default author.
pub static AGENTS: [&AgentSpec; 6] = [
    &super::claude::SPEC,
    &super::codex::SPEC,
    &super::gemini::SPEC,
    &super::qwen::SPEC,
    &super::copilot::SPEC,
    &super::opencode::SPEC,
];

/// The order a reviewer is picked in: the first installed one of another family than the author.
pub const REVIEWER_ORDER: [&str; 6] = ["codex", "claude", "gemini", "qwen", "copilot", "opencode"];

pub fn agent(name: &str) -> Option<&'static AgentSpec> {
    AGENTS
        .iter()
        .copied()
        .find(|s| s.name.eq_ignore_ascii_case(name))
}

/// `debate.<backend>.<var>` from the settings (var is compared case-insensitively, as git does).
pub fn var<'a>(settings: &'a Settings, backend: &str, var: &str) -> Option<&'a str> {
    settings
        .backend_vars
        .get(&format!(
            "{}.{}",
            backend.to_ascii_lowercase(),
            var.to_ascii_lowercase()
        ))
        .map(String::as_str)
}

/// Which role a backend plays, for the per-role model flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Author,
    Reviewer,
}

/// Builds the backend `name` for `role`, its answers redacted (see [`super::redacting`]). An
/// unknown name is a usage error listing the known ones.
pub fn build(name: &str, role: Option<Role>, settings: &Settings) -> Result<Box<dyn Backend>> {
    let inner = build_unredacted(name, role, settings)?;
    Ok(Box::new(super::redacting::Redacting(inner)))
}

fn build_unredacted(
    name: &str,
    role: Option<Role>,
    settings: &Settings,
) -> Result<Box<dyn Backend>> {
    let role_model = match role {
        Some(Role::Author) => settings.model_author.clone(),
        Some(Role::Reviewer) => settings.model_reviewer.clone(),
        None => None,
    };
    let effort = settings.effort.as_deref().and_then(Effort::parse);
    if let Some(line) = name.strip_prefix("exec:") {
        let family = var(settings, "exec", "family").map_or_else(Family::unknown, Family::new);
        let b = ExecBackend::new(line, family)
            .map_err(|e| crate::error::UsageError::new(format!("bad backend {name:?}: {e}")))?;
        return Ok(Box::new(b));
    }
    if let Some(model) = name.strip_prefix("openai:") {
        let model = role_model.unwrap_or_else(|| model.trim().to_string());
        if model.is_empty() {
            crate::usage!("openai: needs a model, e.g. openai:gpt-4o or openai:llama3.1");
        }
        let base = var(settings, "openai", "baseUrl")
            .map(str::to_string)
            .or_else(|| {
                std::env::var("OPENAI_BASE_URL")
                    .ok()
                    .filter(|s| !s.is_empty())
            })
            .unwrap_or_else(|| super::openai::default_base_url().to_string());
        let key = std::env::var("OPENAI_API_KEY")
            .ok()
            .filter(|s| !s.is_empty());
        let family =
            var(settings, "openai", "family").map_or_else(|| Family::of_model(&model), Family::new);
        return Ok(Box::new(OpenAiBackend::new(model, base, key, family)));
    }
    let Some(spec) = agent(name) else {
        crate::usage!(
            "unknown backend {name:?}: use one of {}, exec:<command> or openai:<model>",
            AGENTS.map(|s| s.name).join(", ")
        );
    };
    let table = effort.map(|e| (e, effort::setting(spec.name, e)));
    let model = role_model
        .or_else(|| var(settings, spec.name, "model").map(str::to_string))
        .or_else(|| {
            let (e, row) = table?;
            var(settings, spec.name, &effort::config_name(e))
                .map(str::to_string)
                .or(row.model.map(str::to_string))
        });
    if let Some(m) = &model {
        check_model(spec.name, m)?;
    }
    let extra_args = match var(settings, spec.name, "args") {
        Some(a) => split_words(a).map_err(|e| {
            crate::error::UsageError::new(format!("bad debate.{}.args: {e}", spec.name))
        })?,
        None => Vec::new(),
    };
    let max_attempts = match var(settings, spec.name, "maxAttempts") {
        Some(v) => Some(v.parse::<u32>().ok().filter(|n| *n >= 1).ok_or_else(|| {
            crate::error::UsageError::new(format!(
                "bad debate.{}.maxAttempts {v:?}: use a whole number of at least 1",
                spec.name
            ))
        })?),
        None => None,
    };
    let options = CallOptions {
        model,
        reasoning: table.and_then(|(_, row)| row.reasoning.map(str::to_string)),
        extra_args,
        max_attempts,
    };
    let program = program_of(spec, settings);
    let mut backend = AgentBackend::new(spec, program, options);
    if let Some(f) = var(settings, spec.name, "family") {
        backend.family = Family::new(f);
    }
    Ok(Box::new(backend))
}

/// A model name goes on the CLI's command line after `--model`/`-m`: one that starts with `-` or
/// holds a space would be read as a flag of its own (`-m --include-directories=/` gives gemini's
/// yargs an empty model and a new workspace root), and a model may come from a committed
/// `.gitdebate`. Real model names are letters, digits and `.-_:/@+`.
fn check_model(backend: &str, model: &str) -> Result<()> {
    let ok = !model.is_empty()
        && !model.starts_with('-')
        && model
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || ".-_:/@+".contains(c));
    if !ok {
        crate::usage!(
            "bad model {model:?} for {backend}: a model name is letters, digits and .-_:/@+ and \
             does not start with '-' (set by --model-*, debate.modelReviewer/modelAuthor or \
             debate.{backend}.model)"
        );
    }
    Ok(())
}

/// The program of an agent: `debate.<name>.command`, else its name on PATH (else the bare name,
/// which fails as not-installed when run).
pub fn program_of(spec: &AgentSpec, settings: &Settings) -> PathBuf {
    let configured = var(settings, spec.name, "command").map(crate::config::expand_home);
    let name = configured.unwrap_or_else(|| PathBuf::from(spec.name));
    which(&name.to_string_lossy()).unwrap_or(name)
}

/// Whether the backend `name` can run here: its program exists (HTTP backends always can try).
pub fn installed(name: &str, settings: &Settings) -> Option<PathBuf> {
    if name.starts_with("openai:") {
        return Some(PathBuf::from("(http)"));
    }
    if let Some(line) = name.strip_prefix("exec:") {
        let words = split_words(line).ok()?;
        return which(words.first()?);
    }
    let spec = agent(name)?;
    let p = program_of(spec, settings);
    p.is_file().then_some(p)
}
