//! Settings: built-in defaults, git config layers, the environment and flags merged into one
//! [`Settings`] value.
//!
//! Everything after this point reads `Settings`, never clap or git config, so precedence is decided
//! in exactly one place. A value that does not parse is an error naming the key and where it was
//! set; it never silently falls back to the default.

pub mod keys;
pub mod layers;
pub mod manual;

use std::path::PathBuf;

use anyhow::Result;
use clap::ValueEnum;
use serde::Serialize;

use crate::cli::ReviewArgs;
use crate::error::UsageError;
use keys::{Kind, KEYS};
pub use layers::{Layer, Layers, RepoDirs};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TargetSetting {
    Auto,
    Code,
    Proposal,
    Mixed,
}

/// Everything a review needs to know about how to run, after precedence was applied.
#[derive(Debug, Clone, Serialize)]
pub struct Settings {
    pub target: TargetSetting,
    pub scope: Option<String>,
    pub intensity: String,
    pub max_rounds: u32,
    pub mode: String,
    pub budget_minutes: u64,
    pub budget_tokens: Option<u64>,
    pub budget_usd: Option<f64>,
    pub backend_timeout_seconds: u64,
    pub backend_idle_seconds: u64,
    pub skip_materialize_opposite: bool,
    pub state_dir: Option<PathBuf>,
    pub author: Option<String>,
    pub reviewer: Option<String>,
    /// Who restates unreadable answers: `author` (default), `reviewer` or a backend name.
    pub normalizer: Option<String>,
    /// Who reviews when the reviewer never answers.
    pub fallback_reviewer: Option<String>,
    pub effort: Option<String>,
    pub model_author: Option<String>,
    pub model_reviewer: Option<String>,
    pub format: String,
    pub output: Option<PathBuf>,
    pub fail_on: String,
    pub max_artifact_bytes: u64,
    /// `auto`, `always` or `never`: see [`keys::CHUNKING`].
    pub chunk: String,
    pub concurrency: usize,
    pub max_chunks: usize,
    /// `None`: not set, so git's `diff.context` (3 when unset) applies.
    pub context_lines: Option<u32>,
    pub dry_run: bool,
    /// `base:` scopes are reviewed as `--since last`.
    pub incremental: bool,
    /// Sessions kept after a run (0: no limit).
    pub keep_sessions: u64,
    /// Days a session is kept after a run (0: no limit).
    pub keep_days: u64,
    pub allow_same_family: bool,
    /// `export` (default): the models run in a redacted copy of the reviewed revision;
    /// `worktree`: in the work tree.
    pub reviewer_workspace: String,
    /// `none`: the reviewer runs with no tools; `default`: with its read-only tools.
    pub reviewer_tools: String,
    /// `debate.<backend>.<variable>` values (`claude.model`, `openai.baseurl`), keyed by backend
    /// and variable in lowercase, after the `.gitdebate` filter.
    pub backend_vars: std::collections::BTreeMap<String, String>,
    /// Where each non-default value came from (a flag, a file, a variable), for "why" messages.
    #[serde(skip)]
    pub origins: std::collections::BTreeMap<&'static str, String>,
    /// Which layer each non-default value came from (key name -> layer), for the metadata.
    pub sources: std::collections::BTreeMap<&'static str, Layer>,
    /// Ignored keys and overridden presets, said once on stderr.
    #[serde(skip)]
    pub warnings: Vec<String>,
}

/// rounds, budget minutes, timeout seconds of each `--intensity` preset (the seed script's values).
fn intensity_preset(name: &str) -> (u64, u64, u64) {
    match name {
        "quick" => (1, 10, 180),
        "extensive" => (5, 40, 900),
        _ => (3, 20, 600),
    }
}

impl Settings {
    /// Merges `layers` (files and `git -c`), the `GIT_DEBATE_*` environment and `args`.
    pub fn resolve(mut layers: Layers, args: &ReviewArgs) -> Result<Settings> {
        for key in KEYS {
            if let Ok(v) = std::env::var(keys::env_name(key.name)) {
                layers.push(
                    &format!("debate.{}", key.name),
                    v,
                    Layer::Env,
                    keys::env_name(key.name),
                );
            }
        }
        for (name, value) in flag_values(args) {
            let flag = KEYS
                .iter()
                .find(|k| k.name == name)
                .map_or(name, |k| k.flag);
            layers.push(
                &format!("debate.{name}"),
                value,
                Layer::Flag,
                flag.to_string(),
            );
        }
        let warnings = drop_untrusted(&mut layers);
        // `[debate "Gemini"]` and `[debate "gemini"]` name one backend: of the spellings, the
        // value from the highest layer wins (not the one that sorts last).
        let mut best: std::collections::BTreeMap<String, &layers::RawValue> = Default::default();
        for (key, values) in layers.iter() {
            let Some((sub, var)) = key.strip_prefix("debate.").and_then(|r| r.rsplit_once('.'))
            else {
                continue;
            };
            let Some(value) = values.last() else { continue };
            let name = format!("{}.{}", sub.to_ascii_lowercase(), var.to_ascii_lowercase());
            if best.get(&name).is_none_or(|b| b.layer <= value.layer) {
                best.insert(name, value);
            }
        }
        let backend_vars = best
            .into_iter()
            .map(|(name, v)| (name, v.value.trim().to_string()))
            .collect();
        let mut r = Resolver {
            layers: &layers,
            sources: Default::default(),
            origins: Default::default(),
            warnings,
        };

        let intensity = r.get("intensity")?.unwrap_or_else(|| "standard".into());
        let intensity_layer = r.layer("intensity");
        let (rounds, budget, timeout) = intensity_preset(&intensity);
        // A preset sets three values at its own layer; an explicit key beats it only from the
        // same or a higher layer, so `--intensity quick` overrides `debate.maxRounds` in config
        // while `--max-rounds 2 --intensity quick` keeps 2 rounds.
        let preset = |r: &mut Resolver, key: &'static str, preset: u64| -> Result<u64> {
            match (r.layer(key), intensity_layer) {
                (Some(kl), Some(il)) if kl < il => Ok(preset),
                (Some(kl), Some(il)) => {
                    if kl == Layer::Flag && il == Layer::Flag {
                        r.warnings.push(format!(
                            "note: {} overrides the {intensity} preset's value {preset}",
                            KEYS.iter().find(|k| k.name == key).map_or(key, |k| k.flag)
                        ));
                    }
                    Ok(r.int(key)?.unwrap_or(preset))
                }
                (Some(_), None) => Ok(r.int(key)?.unwrap_or(preset)),
                (None, _) => Ok(preset),
            }
        };
        let max_rounds = preset(&mut r, "maxRounds", rounds)? as u32;
        let budget_minutes = preset(&mut r, "budgetMinutes", budget)?;
        let backend_timeout_seconds = preset(&mut r, "backendTimeoutSeconds", timeout)?;

        let target = match r.get("target")?.as_deref() {
            Some("code") => TargetSetting::Code,
            Some("proposal") => TargetSetting::Proposal,
            Some("mixed") => TargetSetting::Mixed,
            _ => TargetSetting::Auto,
        };
        Ok(Settings {
            target,
            scope: r.get("scope")?,
            intensity,
            max_rounds,
            mode: r.get("mode")?.unwrap_or_else(|| "auto".into()),
            budget_minutes,
            budget_tokens: r.int("budgetTokens")?,
            budget_usd: r.get("budgetUsd")?.map(|v| v.parse().expect("validated")),
            backend_timeout_seconds,
            backend_idle_seconds: r.int("backendIdleSeconds")?.unwrap_or(300),
            skip_materialize_opposite: r.bool("skipMaterializeOpposite")?.unwrap_or(false),
            state_dir: r.get("stateDir")?.map(|p| expand_home(&p)),
            author: r.get("author")?,
            reviewer: r.get("reviewer")?,
            normalizer: r.get("normalizer")?,
            fallback_reviewer: r.get("fallbackReviewer")?,
            effort: r.get("effort")?,
            model_author: r.get("modelAuthor")?,
            model_reviewer: r.get("modelReviewer")?,
            format: r.get("format")?.unwrap_or_else(|| "text".into()),
            output: r.get("output")?.map(|p| expand_home(&p)),
            fail_on: r.get("failOn")?.unwrap_or_else(|| "never".into()),
            max_artifact_bytes: r.int("maxArtifactBytes")?.unwrap_or(262_144),
            chunk: r.get("chunk")?.unwrap_or_else(|| "auto".into()),
            concurrency: r.int("concurrency")?.unwrap_or(3) as usize,
            max_chunks: r.int("maxChunks")?.unwrap_or(16) as usize,
            context_lines: r.int("contextLines")?.map(|n| n as u32),
            dry_run: r.bool("dryRun")?.unwrap_or(false),
            incremental: r.bool("incremental")?.unwrap_or(false),
            keep_sessions: r.int("keepSessions")?.unwrap_or(1000),
            keep_days: r.int("keepDays")?.unwrap_or(90),
            allow_same_family: r.bool("allowSameFamily")?.unwrap_or(false),
            reviewer_workspace: r
                .get("reviewerWorkspace")?
                .unwrap_or_else(|| "export".into()),
            reviewer_tools: r.get("reviewerTools")?.unwrap_or_else(|| "default".into()),
            backend_vars,
            origins: r.origins,
            sources: r.sources,
            warnings: r.warnings,
        })
    }
}

/// Removes what a committed `.gitdebate` may not decide (programs, servers, credentials, local
/// files: [`keys::repo_may_set`]), returning one warning per ignored key. Values a `.gitdebate`
/// pulls in through `include.path`/`includeIf` are read as part of it, so they are judged alike.
fn drop_untrusted(layers: &mut Layers) -> Vec<String> {
    let mut drop = Vec::new();
    for (key, values) in layers.iter() {
        for v in values.iter().filter(|v| !v.layer.user_controlled()) {
            if !keys::repo_may_set(key, &v.value) {
                drop.push((key.clone(), v.origin.clone()));
            }
        }
    }
    drop.dedup();
    drop.into_iter()
        .map(|(key, origin)| {
            layers.remove_layer(&key, Layer::Repo);
            format!(
                "warning: ignoring {key} from {origin}: a committed .gitdebate may not choose programs, \
                 servers, credentials, local files or what is deleted; set it with `git config` \
                 if you trust it"
            )
        })
        .collect()
}

/// The flags the user typed, as `(key name, value)` in config syntax, so they go through the same
/// parser and precedence as every other layer.
fn flag_values(a: &ReviewArgs) -> Vec<(&'static str, String)> {
    fn word<T: ValueEnum>(v: &T) -> String {
        v.to_possible_value()
            .map(|p| p.get_name().to_string())
            .unwrap_or_default()
    }
    let mut out = Vec::new();
    let mut text = |name: &'static str, v: Option<String>| {
        if let Some(v) = v {
            out.push((name, v));
        }
    };
    text("target", a.target.as_ref().map(word));
    text("scope", a.scope.clone());
    text("intensity", a.intensity.as_ref().map(word));
    text("maxRounds", a.max_rounds.map(|v| v.to_string()));
    text("mode", a.mode.as_ref().map(word));
    text("budgetMinutes", a.budget_minutes.map(|v| v.to_string()));
    text("budgetTokens", a.budget_tokens.map(|v| v.to_string()));
    text("budgetUsd", a.budget_usd.map(|v| v.to_string()));
    text(
        "backendTimeoutSeconds",
        a.backend_timeout_seconds.map(|v| v.to_string()),
    );
    text(
        "backendIdleSeconds",
        a.backend_idle_seconds.map(|v| v.to_string()),
    );
    text(
        "stateDir",
        a.state_dir.as_ref().map(|p| p.display().to_string()),
    );
    text("author", a.author.clone());
    text("reviewer", a.reviewer.clone());
    text("normalizer", a.normalizer.clone());
    text("fallbackReviewer", a.fallback_reviewer.clone());
    text("reviewerWorkspace", a.reviewer_workspace.clone());
    text("reviewerTools", a.reviewer_tools.clone());
    text("effort", a.effort.as_ref().map(word));
    text("modelAuthor", a.model_author.clone());
    text("modelReviewer", a.model_reviewer.clone());
    text("format", a.format.as_ref().map(word));
    text("output", a.output.as_ref().map(|p| p.display().to_string()));
    text("failOn", a.fail_on.as_ref().map(word));
    text(
        "maxArtifactBytes",
        a.max_artifact_bytes.map(|v| v.to_string()),
    );
    text("contextLines", a.context_lines.map(|v| v.to_string()));
    text(
        "chunk",
        (a.chunk || a.no_chunk).then(|| if a.chunk { "always" } else { "never" }.into()),
    );
    text("concurrency", a.concurrency.map(|v| v.to_string()));
    text("maxChunks", a.max_chunks.map(|v| v.to_string()));
    let tri = |on: bool, off: bool| (on || off).then(|| on.to_string());
    text(
        "skipMaterializeOpposite",
        tri(a.skip_materialize_opposite, a.no_skip_materialize_opposite),
    );
    text("dryRun", tri(a.dry_run, a.no_dry_run));
    text("incremental", tri(a.incremental, a.no_incremental));
    text(
        "allowSameFamily",
        tri(a.allow_same_family, a.no_allow_same_family),
    );
    out
}

struct Resolver<'a> {
    layers: &'a Layers,
    sources: std::collections::BTreeMap<&'static str, Layer>,
    origins: std::collections::BTreeMap<&'static str, String>,
    warnings: Vec<String>,
}

impl Resolver<'_> {
    fn key(name: &str) -> &'static keys::Key {
        KEYS.iter()
            .find(|k| k.name == name)
            .expect("key is in the table")
    }

    fn layer(&self, name: &str) -> Option<Layer> {
        self.layers.get(&format!("debate.{name}")).map(|v| v.layer)
    }

    /// The winning value, validated against the key's kind.
    fn get(&mut self, name: &'static str) -> Result<Option<String>> {
        let key = Self::key(name);
        let Some(raw) = self.layers.get(&format!("debate.{name}")) else {
            return Ok(None);
        };
        self.sources.insert(key.name, raw.layer);
        self.origins.insert(
            key.name,
            if raw.layer == Layer::Flag {
                key.flag.to_string()
            } else {
                raw.origin.clone()
            },
        );
        let bad = |expected: String| -> anyhow::Error {
            let place = if raw.layer == Layer::Flag {
                format!("{} {:?}", key.flag, raw.value)
            } else {
                format!(
                    "debate.{} = {:?} (from {})",
                    key.name, raw.value, raw.origin
                )
            };
            UsageError::new(format!("bad value for {place}: expected {expected}")).into()
        };
        let v = raw.value.trim();
        match key.kind {
            Kind::Enum(words) => {
                let lower = v.to_ascii_lowercase();
                if !words.contains(&lower.as_str()) {
                    return Err(bad(words.join(", ")));
                }
                Ok(Some(lower))
            }
            Kind::Int(min, max) => match v.parse::<u64>() {
                Ok(n) if (min..=max).contains(&n) => Ok(Some(n.to_string())),
                _ => Err(bad(format!("a whole number from {min} to {max}"))),
            },
            Kind::Decimal => match v.parse::<f64>() {
                Ok(x) if x.is_finite() && x > 0.0 => Ok(Some(v.to_string())),
                _ => Err(bad("a positive number, e.g. 0.50".into())),
            },
            Kind::Bool => match parse_bool(v) {
                Some(b) => Ok(Some(b.to_string())),
                None => Err(bad("true or false".into())),
            },
            Kind::Text | Kind::Path => {
                if v.is_empty() {
                    return Err(bad("a non-empty value".into()));
                }
                Ok(Some(v.to_string()))
            }
        }
    }

    fn int(&mut self, name: &'static str) -> Result<Option<u64>> {
        Ok(self.get(name)?.map(|v| v.parse().expect("validated")))
    }

    fn bool(&mut self, name: &'static str) -> Result<Option<bool>> {
        Ok(self.get(name)?.map(|v| v == "true"))
    }
}

/// git's boolean spellings.
pub fn parse_bool(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" | "1" | "" => Some(true),
        "false" | "no" | "off" | "0" => Some(false),
        _ => None,
    }
}

/// `~/x` as `$HOME/x`, as git does for path values.
pub fn expand_home(p: &str) -> PathBuf {
    match (p.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => PathBuf::from(home).join(rest),
        _ => PathBuf::from(p),
    }
}
