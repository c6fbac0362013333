//! From a backend name (`claude`, `kiro`, `exec:llm -m x`, `openai:llama3`, `acp:my-agent`) and
//! the settings to a ready [`Backend`]: program path, model, reasoning, extra arguments and family.
//!
//! Per-backend git config lives under `debate.<backend>.*`: `model`, `family`, `effort<Level>`
//! (replaces the effort table's model), `maxAttempts` (gemini: failed attempts before it is
//! stopped), and the user-only `command` (a non-default binary) and
//! `args` (extra flags, split like shell words). For `openai:` also `baseUrl`; for `exec:` `family`.
//! `transport` (`cli` or `acp`, user-only) switches an agent to its ACP server ([`crate::agents::acp`]),
//! whose program `acpCommand` may replace; `kiro` and `acp:<command>` speak only ACP.

use std::path::PathBuf;

use anyhow::Result;

use crate::agents::acp::agents::{acp_agent, AcpAgent};
use crate::agents::acp::AcpBackend;
pub use crate::agents::agent::host::{version, which};
use crate::agents::agent::{AgentBackend, AgentSpec, CallOptions};
use crate::agents::exec::{split_words, ExecBackend};
use crate::agents::openai::OpenAiBackend;
use crate::agents::{effort, Backend, Family};
use crate::choices::{Effort, Transport};
use crate::settings::Settings;

/// The agent CLIs, in the order used to pick a default author.
pub static AGENTS: [&AgentSpec; 6] = [
    &crate::agents::claude::SPEC,
    &crate::agents::codex::SPEC,
    &crate::agents::gemini::SPEC,
    &crate::agents::qwen::SPEC,
    &crate::agents::copilot::SPEC,
    &crate::agents::opencode::SPEC,
];

/// The order a reviewer is picked in: the first installed one of another family than the author.
/// kiro (ACP only) comes last.
pub const REVIEWER_ORDER: [&str; 7] = [
    "codex", "claude", "gemini", "qwen", "copilot", "opencode", "kiro",
];

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

/// Builds the backend `name` for `role`, its answers redacted (see [`crate::agents::redacting`]). An
/// unknown name is a usage error listing the known ones.
pub fn build(name: &str, role: Option<Role>, settings: &Settings) -> Result<Box<dyn Backend>> {
    let inner = build_unredacted(name, role, settings)?;
    Ok(Box::new(crate::agents::redacting::Redacting(inner)))
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
    let effort = settings.effort;
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
            .unwrap_or_else(|| crate::agents::openai::default_base_url().to_string());
        let key = std::env::var("OPENAI_API_KEY")
            .ok()
            .filter(|s| !s.is_empty());
        let family =
            var(settings, "openai", "family").map_or_else(|| Family::of_model(&model), Family::new);
        return Ok(Box::new(OpenAiBackend::new(model, base, key, family)));
    }
    if let Some(line) = name.strip_prefix("acp:") {
        return Ok(Box::new(acp_command(
            name, line, role_model, effort, settings,
        )?));
    }
    let cli = transport(name, settings)? == Transport::Cli;
    let Some(spec) = agent(name).filter(|_| cli) else {
        let Some(acp) = acp_agent(name) else {
            crate::usage!(
                "unknown backend {name:?}: use one of {}, kiro, exec:<command>, openai:<model> or \
                 acp:<command>",
                AGENTS.map(|s| s.name).join(", ")
            );
        };
        return Ok(Box::new(acp_backend(acp, role_model, effort, settings)?));
    };
    let table = effort.map(|e| (e, effort::setting(spec.name, e)));
    let model = model_of(spec.name, role_model, effort, settings)?;
    // The effort's own flags first, so the user's `debate.<name>.args` can override them.
    let mut extra_args: Vec<String> = table
        .map(|(_, row)| row.args.iter().map(|a| a.to_string()).collect())
        .unwrap_or_default();
    extra_args.extend(extra_args_of(spec.name, settings)?);
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

/// The agents a topic debate speaks to over ACP when they have it (the debate prefers the ACP
/// transport where it is available): those whose ACP mode was checked against the real package to
/// answer and to apply the model asked for (codex-acp echoes its `model` option, gemini reports
/// the answering model, qwen and opencode echo theirs; see `tests/fixtures/acp/README.md`), with
/// the oldest version of a built-in server that was checked. claude's adapter takes model
/// aliases only and copilot's ACP server has no model setting: those stay on their CLI.
pub const ACP_PREFERRED: &[(&str, Option<&str>)] = &[
    ("codex", None),
    ("gemini", Some("0.61.0")),
    ("qwen", Some("0.15.10")),
    ("opencode", Some("1.18.33")),
];

/// Whether a debate speaks to `name` over ACP: it is one of [`ACP_PREFERRED`],
/// `debate.<name>.transport` does not choose, its ACP program is installed, and a built-in
/// server is at least the version checked.
pub fn prefers_acp(name: &str, settings: &Settings) -> bool {
    let Some((_, min)) = ACP_PREFERRED
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
    else {
        return false;
    };
    if var(settings, name, "transport").is_some() {
        return false;
    }
    let Some(a) = acp_agent(name) else {
        return false;
    };
    let program = acp_program(a, settings);
    if !program.is_file() {
        return false;
    }
    match min {
        None => true,
        Some(min) => version(&program).is_some_and(|v| at_least(&v, min)),
    }
}

/// Builds `name` as [`build`] does, over ACP where [`prefers_acp`] says so.
pub fn build_preferring_acp(
    name: &str,
    role: Option<Role>,
    settings: &Settings,
) -> Result<Box<dyn Backend>> {
    if !prefers_acp(name, settings) {
        return build(name, role, settings);
    }
    let mut acp = settings.clone();
    acp.backend_vars.insert(
        format!("{}.transport", name.to_ascii_lowercase()),
        "acp".into(),
    );
    build(name, role, &acp)
}

/// Whether dotted version `v` is `min` or later (numbers compared part by part).
fn at_least(v: &str, min: &str) -> bool {
    let parts = |s: &str| -> Vec<u64> {
        s.split(['.', '-', '+'])
            .map_while(|p| p.parse().ok())
            .collect()
    };
    parts(v) >= parts(min)
}

/// The model of agent `name`: the role's flag, `debate.<name>.model`, `debate.<name>.effort<Level>`,
/// else the effort table's (none: the agent's default).
fn model_of(
    name: &str,
    role_model: Option<String>,
    effort: Option<Effort>,
    settings: &Settings,
) -> Result<Option<String>> {
    let model = role_model
        .or_else(|| var(settings, name, "model").map(str::to_string))
        .or_else(|| {
            let e = effort?;
            var(settings, name, &effort::config_name(e))
                .map(str::to_string)
                .or(effort::setting(name, e).model.map(str::to_string))
        });
    if let Some(m) = &model {
        check_model(name, m)?;
    }
    Ok(model)
}

/// `debate.<name>.args`, split like shell words.
fn extra_args_of(name: &str, settings: &Settings) -> Result<Vec<String>> {
    Ok(match var(settings, name, "args") {
        Some(a) => split_words(a)
            .map_err(|e| crate::error::UsageError::new(format!("bad debate.{name}.args: {e}")))?,
        None => Vec::new(),
    })
}

/// `debate.<name>.transport` (default `cli`; kiro has only `acp`).
pub fn transport(name: &str, settings: &Settings) -> Result<Transport> {
    let only_acp = agent(name).is_none() && acp_agent(name).is_some();
    let given = var(settings, name, "transport");
    match (given, given.and_then(Transport::parse)) {
        (None, _) if only_acp => Ok(Transport::Acp),
        (None, _) => Ok(Transport::Cli),
        (_, Some(Transport::Cli)) if only_acp => crate::usage!(
            "bad debate.{name}.transport \"cli\": {name} has no command-line mode, only acp"
        ),
        (_, Some(t)) => Ok(t),
        (Some(other), None) => crate::usage!(
            "bad debate.{name}.transport {other:?}: use cli (a command line, the default) or acp \
             (the Agent Client Protocol)"
        ),
    }
}

/// The program of an agent's ACP mode: `debate.<name>.acpCommand`; else, when the ACP server is
/// the CLI itself (gemini, qwen, opencode, copilot), `debate.<name>.command`; else its name on
/// PATH.
pub fn acp_program(a: &AcpAgent, settings: &Settings) -> PathBuf {
    let same_program = agent(a.name).is_some_and(|s| s.name == a.program);
    let configured = var(settings, a.name, "acpCommand")
        .or_else(|| var(settings, a.name, "command").filter(|_| same_program))
        .map(crate::settings::expand_home);
    let name = configured.unwrap_or_else(|| PathBuf::from(a.program));
    which(&name.to_string_lossy()).unwrap_or(name)
}

fn acp_backend(
    a: &'static AcpAgent,
    role_model: Option<String>,
    effort: Option<Effort>,
    settings: &Settings,
) -> Result<AcpBackend> {
    let model = model_of(a.name, role_model, effort, settings)?;
    let mut args: Vec<String> = a.args.iter().map(|s| s.to_string()).collect();
    args.extend(extra_args_of(a.name, settings)?);
    let family =
        var(settings, a.name, "family").map_or_else(|| a.family(model.as_deref()), Family::new);
    Ok(AcpBackend {
        name: a.name.to_string(),
        agent: Some(a),
        program: acp_program(a, settings),
        args,
        family,
        model,
        effort,
    })
}

/// `acp:<command>`: any ACP agent (user configuration only; see `UNTRUSTED_BACKEND_PREFIXES`).
/// Its model is the role's flag or `debate.acp.model`, its family `debate.acp.family`.
fn acp_command(
    name: &str,
    line: &str,
    role_model: Option<String>,
    effort: Option<Effort>,
    settings: &Settings,
) -> Result<AcpBackend> {
    let words = split_words(line)
        .map_err(|e| crate::error::UsageError::new(format!("bad backend {name:?}: {e}")))?;
    let Some((program, args)) = words.split_first() else {
        crate::usage!("acp: needs a command, e.g. acp:kiro-cli acp or 'acp:gemini --acp'");
    };
    let model = role_model.or_else(|| var(settings, "acp", "model").map(str::to_string));
    if let Some(m) = &model {
        check_model(name, m)?;
    }
    Ok(AcpBackend {
        name: name.to_string(),
        agent: None,
        program: which(program).unwrap_or_else(|| PathBuf::from(program)),
        args: args.to_vec(),
        family: var(settings, "acp", "family").map_or_else(Family::unknown, Family::new),
        model,
        effort,
    })
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
    let configured = var(settings, spec.name, "command").map(crate::settings::expand_home);
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
    if let Some(line) = name.strip_prefix("acp:") {
        let words = split_words(line).ok()?;
        return which(words.first()?);
    }
    let p = match (agent(name), transport(name, settings)) {
        (Some(spec), Ok(Transport::Cli)) => program_of(spec, settings),
        _ => acp_program(acp_agent(name)?, settings),
    };
    p.is_file().then_some(p)
}

#[cfg(test)]
mod acp_preference_tests {
    #[test]
    fn versions_compare_part_by_part() {
        assert!(super::at_least("0.61.0", "0.61.0"));
        assert!(super::at_least("0.100.1", "0.61.0"));
        assert!(!super::at_least("0.9.9", "0.61.0"));
        assert!(super::at_least("1.18.33-beta", "1.18.33"));
    }
}
