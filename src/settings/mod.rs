//! Settings: built-in defaults, git config layers, the environment and flags merged into one
//! [`Settings`] value.
//!
//! Everything after this point reads `Settings`, never clap or git config, so precedence is decided
//! in exactly one place. A value that does not parse is an error naming the key and where it was
//! set; it never silently falls back to the default. What the command line says comes in as
//! [`Overrides`], a plain struct each command fills from its own flags, so the settings know
//! nothing of clap and every command (and every test) asks for settings the same way.

pub mod keys;
pub mod layers;
pub mod manual;
pub mod output;

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::Result;
use serde::Serialize;

use crate::choices::{
    Choice, Chunking, Consensus, Effort, FailOn, Format, Intensity, Mode, TargetSetting, Tools,
    Workspace,
};
use crate::error::UsageError;
use keys::{Kind, KEYS};
pub use layers::{Layer, Layers, RepoDirs};

/// What a command's flags say. Each `Some` is a value given on the command line (or, for
/// `resume`, kept from the session) and is applied at the flag layer, above every config file and
/// the environment; `None` leaves the key to them and to the default.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    pub target: Option<TargetSetting>,
    pub scope: Option<String>,
    pub intensity: Option<Intensity>,
    pub max_rounds: Option<u32>,
    pub mode: Option<Mode>,
    pub budget_minutes: Option<u64>,
    pub budget_tokens: Option<u64>,
    pub budget_usd: Option<f64>,
    pub backend_timeout_seconds: Option<u64>,
    pub backend_idle_seconds: Option<u64>,
    pub skip_materialize_opposite: Option<bool>,
    pub state_dir: Option<PathBuf>,
    pub author: Option<String>,
    pub reviewer: Option<String>,
    /// `--reviewer` given more than once, or `--reviewers N`: `debate.reviewers` in config syntax.
    pub reviewers: Option<String>,
    pub consensus: Option<Consensus>,
    pub normalizer: Option<String>,
    pub fallback_reviewer: Option<String>,
    pub reviewer_workspace: Option<Workspace>,
    pub reviewer_tools: Option<Tools>,
    pub allow_same_family: Option<bool>,
    pub allow_partial: Option<bool>,
    pub effort: Option<Effort>,
    pub model_author: Option<String>,
    pub model_reviewer: Option<String>,
    pub format: Option<Format>,
    pub output: Option<PathBuf>,
    pub fail_on: Option<FailOn>,
    pub trust_judge: Option<bool>,
    pub max_artifact_bytes: Option<u64>,
    pub context_lines: Option<u32>,
    pub chunk: Option<Chunking>,
    pub concurrency: Option<u64>,
    pub max_chunks: Option<u64>,
    pub dry_run: Option<bool>,
    pub incremental: Option<bool>,
    /// `--no-instructions` (false) or `--read-instructions` (true).
    pub read_instructions: Option<bool>,
    /// `--force`: `--output` may replace a tracked file or one the review reads.
    pub force_output: bool,
}

/// Everything a review needs to know about how to run, after precedence was applied.
#[derive(Debug, Clone, Serialize)]
pub struct Settings {
    pub target: TargetSetting,
    pub scope: Option<String>,
    pub intensity: Intensity,
    pub max_rounds: u32,
    pub mode: Mode,
    pub budget_minutes: u64,
    pub budget_tokens: Option<u64>,
    pub budget_usd: Option<f64>,
    pub backend_timeout_seconds: u64,
    pub backend_idle_seconds: u64,
    pub skip_materialize_opposite: bool,
    pub state_dir: Option<PathBuf>,
    pub author: Option<String>,
    pub reviewer: Option<String>,
    /// `debate.reviewers`: several reviewers (backends, a number, or both), as written.
    pub reviewers: Option<String>,
    /// With several reviewers, which findings the gate counts.
    pub consensus: Consensus,
    /// Who restates an answer the reader cannot read whole: `reviewer` (default), `author` or a
    /// backend name.
    pub normalizer: Option<String>,
    /// Who reviews when the reviewer never answers.
    pub fallback_reviewer: Option<String>,
    pub effort: Option<Effort>,
    pub model_author: Option<String>,
    pub model_reviewer: Option<String>,
    pub format: Format,
    pub output: Option<PathBuf>,
    /// `--force` (command line only): `--output` may replace a tracked file or one the review
    /// reads.
    pub force_output: bool,
    pub fail_on: FailOn,
    /// The judge's ruling decides whether a finding it disputes counts for the gate
    /// (`debate.gate.trustJudge`); by default the reviewer's word does.
    pub trust_judge: bool,
    pub max_artifact_bytes: u64,
    pub chunk: Chunking,
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
    /// Files not evaluated (past `maxChunks`, or in a failed chunk) do not make the exit 3.
    pub allow_partial: bool,
    /// Where the models run: a redacted copy of the reviewed revision, or the work tree.
    pub reviewer_workspace: Workspace,
    /// Whether the reviewer keeps its read-only tools.
    pub reviewer_tools: Tools,
    /// `debate.redact.rules`: a file of the user's own token formats, added to the built-in ones
    /// (user-only: never from a committed `.gitdebate`).
    pub redact_rules: Option<PathBuf>,
    /// Whether the repository's review instructions are sent (`debate.readInstructions`).
    pub read_instructions: bool,
    /// `debate.instructions`: a file of review instructions, and whether the layer it came from
    /// is one the user controls (only then may it name a file outside the repository).
    pub instructions: Option<InstructionsFile>,
    /// `[debate "path:<glob>"] instructions = ...` sections, in file order, lowest layer first.
    #[serde(skip)]
    pub path_instructions: Vec<PathInstructions>,
    /// `debate.<backend>.<variable>` values (`claude.model`, `openai.baseurl`), keyed by backend
    /// and variable in lowercase, after the `.gitdebate` filter.
    pub backend_vars: BTreeMap<String, String>,
    /// Where each non-default value came from (a flag, a file, a variable), for "why" messages.
    #[serde(skip)]
    pub origins: BTreeMap<&'static str, String>,
    /// Which layer each non-default value came from (key name -> layer), for the metadata.
    pub sources: BTreeMap<&'static str, Layer>,
    /// Ignored keys and overridden presets, said once on stderr.
    #[serde(skip)]
    pub warnings: Vec<String>,
}

impl Settings {
    /// The settings of a run that writes a report: every layer of `repo` (or, outside one, the
    /// user's and the environment's) with `overrides` on top, the warnings said on stderr, and an
    /// `--output` destination checked before any work is done for it.
    pub fn for_run(repo: Option<RepoDirs>, overrides: &Overrides) -> Result<Settings> {
        let settings = Settings::load(repo, overrides)?;
        if let Some(p) = &settings.output {
            output::check(p)?;
        }
        Ok(settings)
    }

    /// Every layer of `repo` with `overrides` on top, the warnings said on stderr.
    pub fn load(repo: Option<RepoDirs>, overrides: &Overrides) -> Result<Settings> {
        let settings = Settings::resolve(Layers::load(repo)?, overrides)?;
        for w in &settings.warnings {
            crate::errln!("{w}");
        }
        Ok(settings)
    }

    /// Merges `layers` (files and `git -c`), the `GIT_DEBATE_*` environment and `overrides`.
    pub fn resolve(mut layers: Layers, overrides: &Overrides) -> Result<Settings> {
        push_env_and_flags(&mut layers, overrides);
        let warnings = drop_untrusted(&mut layers);
        let backend_vars = backend_vars(&layers);
        let mut r = Resolver {
            layers: &layers,
            sources: Default::default(),
            origins: Default::default(),
            warnings,
        };
        let intensity = r.choice("intensity")?.unwrap_or(Intensity::Standard);
        let (max_rounds, budget_minutes, backend_timeout_seconds) = r.presets(intensity)?;
        Ok(Settings {
            target: r.choice("target")?.unwrap_or(TargetSetting::Auto),
            scope: r.get("scope")?,
            intensity,
            max_rounds,
            mode: r.choice("mode")?.unwrap_or(Mode::Auto),
            budget_minutes,
            budget_tokens: r.int("budgetTokens")?,
            budget_usd: r.get("budgetUsd")?.map(|v| v.parse().expect("validated")),
            backend_timeout_seconds,
            backend_idle_seconds: r.int("backendIdleSeconds")?.unwrap_or(300),
            skip_materialize_opposite: r.bool("skipMaterializeOpposite")?.unwrap_or(false),
            state_dir: r.get("stateDir")?.map(|p| expand_home(&p)),
            author: r.get("author")?,
            reviewer: r.get("reviewer")?,
            reviewers: r.get("reviewers")?,
            consensus: r.choice("consensus")?.unwrap_or(Consensus::Any),
            normalizer: r.get("normalizer")?,
            fallback_reviewer: r.get("fallbackReviewer")?,
            effort: r.choice("effort")?,
            model_author: r.get("modelAuthor")?,
            model_reviewer: r.get("modelReviewer")?,
            format: r.choice("format")?.unwrap_or(Format::Text),
            output: r.get("output")?.map(|p| expand_home(&p)),
            force_output: overrides.force_output,
            fail_on: r.choice("failOn")?.unwrap_or(FailOn::Never),
            trust_judge: r.bool("gate.trustJudge")?.unwrap_or(false),
            max_artifact_bytes: r.int("maxArtifactBytes")?.unwrap_or(262_144),
            chunk: r.choice("chunk")?.unwrap_or(Chunking::Auto),
            concurrency: r.int("concurrency")?.unwrap_or(3) as usize,
            max_chunks: r.int("maxChunks")?.unwrap_or(16) as usize,
            context_lines: r.int("contextLines")?.map(|n| n as u32),
            dry_run: r.bool("dryRun")?.unwrap_or(false),
            incremental: r.bool("incremental")?.unwrap_or(false),
            keep_sessions: r.int("keepSessions")?.unwrap_or(1000),
            keep_days: r.int("keepDays")?.unwrap_or(90),
            allow_same_family: r.bool("allowSameFamily")?.unwrap_or(false),
            allow_partial: r.bool("allowPartial")?.unwrap_or(false),
            reviewer_workspace: r.choice("reviewerWorkspace")?.unwrap_or(Workspace::Export),
            reviewer_tools: r.choice("reviewerTools")?.unwrap_or(Tools::Default),
            redact_rules: backend_vars.get("redact.rules").map(|p| expand_home(p)),
            read_instructions: r.bool("readInstructions")?.unwrap_or(true),
            instructions: r.get("instructions")?.map(|path| InstructionsFile {
                path,
                user_controlled: layers
                    .get("debate.instructions")
                    .is_some_and(|v| v.layer.user_controlled()),
            }),
            path_instructions: path_instructions(&layers),
            backend_vars,
            origins: r.origins,
            sources: r.sources,
            warnings: r.warnings,
        })
    }

    /// A boolean `debate.<section>.<variable>` outside the review's own keys (`hook.strict`),
    /// `None` when unset; a value that is not one of git's booleans is an error naming the key.
    pub fn var_bool(&self, name: &str) -> Result<Option<bool>> {
        let Some(v) = self.backend_vars.get(&name.to_ascii_lowercase()) else {
            return Ok(None);
        };
        match parse_bool(v) {
            Some(b) => Ok(Some(b)),
            None => Err(UsageError::new(format!(
                "bad value for debate.{name} = {v:?}: expected true or false"
            ))
            .into()),
        }
    }
}

/// `debate.instructions` as set.
#[derive(Debug, Clone, Serialize)]
pub struct InstructionsFile {
    pub path: String,
    /// Set in a layer the user controls (not a committed `.gitdebate`).
    pub user_controlled: bool,
}

/// One `[debate "path:<glob>"]` section's `instructions`: plain text for the files the glob
/// matches.
#[derive(Debug, Clone)]
pub struct PathInstructions {
    pub glob: String,
    pub text: String,
    /// The file it was set in.
    pub origin: String,
    /// Set in a layer the user controls (not a committed `.gitdebate`).
    pub user_controlled: bool,
}

/// Every `debate.path:<glob>.instructions` value, the glob as written (its case kept).
pub fn path_instructions(layers: &Layers) -> Vec<PathInstructions> {
    let mut out = Vec::new();
    for (key, values) in layers.iter() {
        let Some(glob) = key
            .strip_prefix("debate.path:")
            .and_then(|r| r.strip_suffix(".instructions"))
        else {
            continue;
        };
        for v in values {
            out.push(PathInstructions {
                glob: glob.to_string(),
                text: v.value.clone(),
                origin: v.origin.clone(),
                user_controlled: v.layer.user_controlled(),
            });
        }
    }
    out
}

/// Adds the `GIT_DEBATE_*` environment and the flags as the two top layers.
fn push_env_and_flags(layers: &mut Layers, overrides: &Overrides) {
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
    for (name, value) in flag_values(overrides) {
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
}

/// The `debate.<backend>.<variable>` values. `[debate "Gemini"]` and `[debate "gemini"]` name
/// one backend: of the spellings, the value from the highest layer wins (not the one that sorts
/// last).
fn backend_vars(layers: &Layers) -> BTreeMap<String, String> {
    let mut best: BTreeMap<String, &layers::RawValue> = Default::default();
    for (key, values) in layers.iter() {
        let Some((sub, var)) = key.strip_prefix("debate.").and_then(|r| r.rsplit_once('.')) else {
            continue;
        };
        let Some(value) = values.last() else { continue };
        let name = format!("{}.{}", sub.to_ascii_lowercase(), var.to_ascii_lowercase());
        if best.get(&name).is_none_or(|b| b.layer <= value.layer) {
            best.insert(name, value);
        }
    }
    best.into_iter()
        .map(|(name, v)| (name, v.value.trim().to_string()))
        .collect()
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

/// The overrides, as `(key name, value)` in config syntax, so they go through the same parser and
/// precedence as every other layer.
fn flag_values(o: &Overrides) -> Vec<(&'static str, String)> {
    let word = |v: Option<&'static str>| v.map(str::to_string);
    let num = |v: Option<u64>| v.map(|n| n.to_string());
    let path = |p: &Option<PathBuf>| p.as_ref().map(|p| p.display().to_string());
    let all: [(&'static str, Option<String>); 37] = [
        ("target", word(o.target.map(Choice::name))),
        ("scope", o.scope.clone()),
        ("intensity", word(o.intensity.map(Choice::name))),
        ("maxRounds", num(o.max_rounds.map(u64::from))),
        ("mode", word(o.mode.map(Choice::name))),
        ("budgetMinutes", num(o.budget_minutes)),
        ("budgetTokens", num(o.budget_tokens)),
        ("budgetUsd", o.budget_usd.map(|v| v.to_string())),
        ("backendTimeoutSeconds", num(o.backend_timeout_seconds)),
        ("backendIdleSeconds", num(o.backend_idle_seconds)),
        ("stateDir", path(&o.state_dir)),
        ("author", o.author.clone()),
        ("reviewer", o.reviewer.clone()),
        ("reviewers", o.reviewers.clone()),
        ("consensus", word(o.consensus.map(Choice::name))),
        ("normalizer", o.normalizer.clone()),
        ("fallbackReviewer", o.fallback_reviewer.clone()),
        (
            "reviewerWorkspace",
            word(o.reviewer_workspace.map(Choice::name)),
        ),
        ("reviewerTools", word(o.reviewer_tools.map(Choice::name))),
        ("effort", word(o.effort.map(Choice::name))),
        ("modelAuthor", o.model_author.clone()),
        ("modelReviewer", o.model_reviewer.clone()),
        ("format", word(o.format.map(Choice::name))),
        ("output", path(&o.output)),
        ("failOn", word(o.fail_on.map(Choice::name))),
        ("gate.trustJudge", o.trust_judge.map(|b| b.to_string())),
        ("maxArtifactBytes", num(o.max_artifact_bytes)),
        ("contextLines", num(o.context_lines.map(u64::from))),
        ("chunk", word(o.chunk.map(Choice::name))),
        ("concurrency", num(o.concurrency)),
        ("maxChunks", num(o.max_chunks)),
        (
            "skipMaterializeOpposite",
            o.skip_materialize_opposite.map(|b| b.to_string()),
        ),
        ("dryRun", o.dry_run.map(|b| b.to_string())),
        ("incremental", o.incremental.map(|b| b.to_string())),
        (
            "readInstructions",
            o.read_instructions.map(|b| b.to_string()),
        ),
        (
            "allowSameFamily",
            o.allow_same_family.map(|b| b.to_string()),
        ),
        ("allowPartial", o.allow_partial.map(|b| b.to_string())),
    ];
    all.into_iter()
        .filter_map(|(name, v)| v.map(|v| (name, v)))
        .collect()
}

struct Resolver<'a> {
    layers: &'a Layers,
    sources: BTreeMap<&'static str, Layer>,
    origins: BTreeMap<&'static str, String>,
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

    /// A vocabulary key's variant; [`Resolver::get`] has checked the word against its names.
    fn choice<T: Choice>(&mut self, name: &'static str) -> Result<Option<T>> {
        Ok(self
            .get(name)?
            .map(|v| T::parse(&v).expect("validated against the vocabulary")))
    }

    /// Rounds, budget minutes and timeout seconds. A preset sets three values at its own layer;
    /// an explicit key beats it only from the same or a higher layer, so `--intensity quick`
    /// overrides `debate.maxRounds` in config while `--max-rounds 2 --intensity quick` keeps 2
    /// rounds.
    fn presets(&mut self, intensity: Intensity) -> Result<(u32, u64, u64)> {
        let intensity_layer = self.layer("intensity");
        let (rounds, budget, timeout) = intensity.preset();
        let mut preset = |key: &'static str, preset: u64| -> Result<u64> {
            match (self.layer(key), intensity_layer) {
                (Some(kl), Some(il)) if kl < il => Ok(preset),
                (Some(kl), Some(il)) => {
                    if kl == Layer::Flag && il == Layer::Flag {
                        self.warnings.push(format!(
                            "note: {} overrides the {intensity} preset's value {preset}",
                            Self::key(key).flag
                        ));
                    }
                    Ok(self.int(key)?.unwrap_or(preset))
                }
                (Some(_), None) => Ok(self.int(key)?.unwrap_or(preset)),
                (None, _) => Ok(preset),
            }
        };
        Ok((
            preset("maxRounds", rounds)? as u32,
            preset("budgetMinutes", budget)?,
            preset("backendTimeoutSeconds", timeout)?,
        ))
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

#[cfg(test)]
mod tests;
