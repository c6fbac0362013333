//! Reading `debate.*` values from every configuration layer, each value tagged with where it came
//! from.
//!
//! We read the layers ourselves instead of taking libgit2's merged view because the precedence we
//! promise has a layer git does not know (the committed `.gitdebate`, between global and local) and
//! one libgit2 ignores (`git -c`, passed to subcommands in `GIT_CONFIG_PARAMETERS`), and because
//! the origin decides whether a program-naming key may be honoured at all.

use std::collections::BTreeMap;
use std::env;
use std::fmt;
use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};

use crate::error::UsageError;

/// Configuration layers, lowest precedence first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Layer {
    Default,
    System,
    Global,
    /// The committed `.gitdebate` at the repository root: shared, so not trusted to name programs.
    Repo,
    Local,
    /// `git -c key=value debate ...`
    Command,
    Env,
    Flag,
}

impl Layer {
    /// Layers whose content the user wrote themselves (or typed), as opposed to a file that came
    /// with a clone.
    pub fn user_controlled(self) -> bool {
        self != Layer::Repo
    }
}

/// One value with its origin, for precedence and for error messages that say where to fix it.
#[derive(Debug, Clone)]
pub struct RawValue {
    pub value: String,
    pub layer: Layer,
    /// A file path, `GIT_CONFIG_PARAMETERS`, an env var name or a flag.
    pub origin: String,
}

impl fmt::Display for RawValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.origin)
    }
}

/// All `debate.*` values, keyed by the normalized key (section and variable lowercased, as git
/// compares them; a subsection keeps its case). Each list is in increasing precedence.
#[derive(Debug, Default)]
pub struct Layers {
    values: BTreeMap<String, Vec<RawValue>>,
}

/// A repository's folders, as [`Layers::load`] reads its settings from them.
#[derive(Debug, Clone, Copy)]
pub struct RepoDirs<'a> {
    /// The git dir (a linked worktree's own).
    pub git_dir: &'a Path,
    /// The git dir every linked worktree shares.
    pub common_dir: &'a Path,
    /// The top of the work tree; `None` in a bare repository.
    pub work_tree: Option<&'a Path>,
}

impl Layers {
    pub fn push(&mut self, key: &str, value: String, layer: Layer, origin: String) {
        let key = normalize_key(key);
        if !key.starts_with("debate.") {
            return;
        }
        let list = self.values.entry(key).or_default();
        list.push(RawValue {
            value,
            layer,
            origin,
        });
        // Stable sort keeps file order inside one layer (last one wins, as in git).
        list.sort_by_key(|v| v.layer);
    }

    /// The winning value of `key`: the last one of the highest layer.
    pub fn get(&self, key: &str) -> Option<&RawValue> {
        self.values.get(&normalize_key(key)).and_then(|l| l.last())
    }

    /// Every key that was set anywhere, for the security filter.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &Vec<RawValue>)> {
        self.values.iter()
    }

    /// Drops every value of `key` that came from `layer`.
    pub fn remove_layer(&mut self, key: &str, layer: Layer) {
        if let Some(list) = self.values.get_mut(key) {
            list.retain(|v| v.layer != layer);
        }
    }

    /// Reads every file and environment layer. `repo` gives `.git/config` and `.gitdebate`.
    pub fn load(repo: Option<RepoDirs>) -> Result<Layers> {
        let mut layers = Layers::default();
        if !env_flag("GIT_CONFIG_NOSYSTEM") {
            let system = env::var_os("GIT_CONFIG_SYSTEM")
                .map(PathBuf::from)
                .or_else(|| git2::Config::find_system().ok());
            if let Some(p) = system {
                layers.read_file(&p, Layer::System)?;
            }
        }
        for p in global_files() {
            layers.read_file(&p, Layer::Global)?;
        }
        if let Some(repo) = repo {
            if let Some(workdir) = repo.work_tree {
                layers.read_file(&workdir.join(".gitdebate"), Layer::Repo)?;
            }
            let local = repo.common_dir.join("config");
            layers.read_file(&local, Layer::Local)?;
            // A worktree's own settings beat the shared ones, but git reads them only when
            // extensions.worktreeConfig is on.
            let per_worktree = git2::Config::open(&local)
                .and_then(|c| c.get_bool("extensions.worktreeconfig"))
                .unwrap_or(false);
            if per_worktree {
                layers.read_file(&repo.git_dir.join("config.worktree"), Layer::Local)?;
            }
        }
        layers.read_command_line()?;
        Ok(layers)
    }

    /// The `debate.*` values of one file, as of `layer` (a committed `.gitdebate` of another
    /// version than the work tree's).
    pub fn of_file(path: &Path, layer: Layer) -> Result<Layers> {
        let mut layers = Layers::default();
        layers.read_file(path, layer)?;
        Ok(layers)
    }

    fn read_file(&mut self, path: &Path, layer: Layer) -> Result<()> {
        if !path.is_file() {
            return Ok(());
        }
        let cfg = git2::Config::open(path).map_err(|e| {
            UsageError::new(format!(
                "cannot read config file {}: {}; fix its syntax",
                path.display(),
                e.message()
            ))
        })?;
        let mut entries = cfg
            .entries(Some("^debate\\."))
            .with_context(|| format!("reading {}", path.display()))?;
        while let Some(entry) = entries.next() {
            let entry = entry.with_context(|| format!("reading {}", path.display()))?;
            let Ok(name) = entry.name() else { continue };
            // A bare `key` line without `=` is a boolean true in git.
            let value = if entry.has_value() {
                String::from_utf8_lossy(entry.value_bytes()).into_owned()
            } else {
                "true".to_string()
            };
            self.push(name, value, layer, path.display().to_string());
        }
        Ok(())
    }

    /// `git -c a.b=c debate` hands the values to us in `GIT_CONFIG_PARAMETERS` (and users may
    /// set `GIT_CONFIG_COUNT` pairs). libgit2 reads neither.
    fn read_command_line(&mut self) -> Result<()> {
        for (key, value, origin) in command_line()? {
            self.push(&key, value, Layer::Command, origin.into());
        }
        Ok(())
    }
}

/// The values given on git's command line, in the order git applies them (a later one wins):
/// the `GIT_CONFIG_COUNT` pairs, then `GIT_CONFIG_PARAMETERS` (`git -c`, `git --config-env`), each
/// with the variable it came from. A key given alone means true, as in git.
pub fn command_line() -> Result<Vec<(String, String, &'static str)>> {
    let mut out = Vec::new();
    if let Ok(count) = env::var("GIT_CONFIG_COUNT") {
        // git stops on a count that is not a number; read as 0, it would drop every pair unseen.
        if !count.is_empty() && count.parse::<usize>().is_err() {
            return Err(
                UsageError::new(format!("GIT_CONFIG_COUNT={count:?} is not a number")).into(),
            );
        }
    }
    for (key, value) in &git_config_env::ConfigEnv::new() {
        out.push((key.into_owned(), value.into_owned(), "GIT_CONFIG_COUNT"));
    }
    if let Ok(params) = env::var("GIT_CONFIG_PARAMETERS") {
        for (key, value) in parse_config_parameters(&params)
            .map_err(|e| UsageError::new(format!("cannot parse GIT_CONFIG_PARAMETERS: {e}")))?
        {
            out.push((key, value.unwrap_or_else(|| "true".into()), "git -c"));
        }
    }
    Ok(out)
}

/// Global config files in git's order: the XDG file, then `~/.gitconfig` (which wins).
/// `GIT_CONFIG_GLOBAL` replaces both, as in git.
fn global_files() -> Vec<PathBuf> {
    if let Some(p) = env::var_os("GIT_CONFIG_GLOBAL") {
        return vec![PathBuf::from(p)];
    }
    let mut out = Vec::new();
    let xdg = env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")));
    if let Some(x) = xdg {
        out.push(x.join("git").join("config"));
    }
    if let Some(h) = env::var_os("HOME") {
        out.push(PathBuf::from(h).join(".gitconfig"));
    }
    out
}

fn env_flag(name: &str) -> bool {
    env::var(name)
        .map(|v| matches!(v.to_ascii_lowercase().as_str(), "1" | "true" | "yes" | "on"))
        .unwrap_or(false)
}

/// Section and variable names are case-insensitive in git; a subsection is not.
pub fn normalize_key(key: &str) -> String {
    match (key.find('.'), key.rfind('.')) {
        (Some(first), Some(last)) if first != last => format!(
            "{}{}{}",
            key[..first].to_ascii_lowercase(),
            &key[first..last],
            key[last..].to_ascii_lowercase()
        ),
        _ => key.to_ascii_lowercase(),
    }
}

/// Parses git's `GIT_CONFIG_PARAMETERS`: single-quoted words (`'\''` for a quote inside one),
/// `'key'='value'` since git 2.31 and `'key=value'` before; a key alone means true (`None`).
pub fn parse_config_parameters(s: &str) -> Result<Vec<(String, Option<String>)>, String> {
    let mut entries = git_config_env::ConfigParametersIter::new(s.trim());
    let mut out = Vec::new();
    loop {
        let before = entries.clone();
        match entries.next() {
            Some((key, value)) => out.push((key.into_owned(), value.map(|v| v.into_owned()))),
            // The iterator stops at the first entry it cannot read, as it stops at the end: it
            // read everything only if nothing was left before its last step.
            None if before == git_config_env::ConfigParametersIter::new("") => return Ok(out),
            None => return Err("a quote is missing or misplaced".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_new_and_old_parameter_formats() {
        let got = parse_config_parameters(
            "'debate.maxrounds'='2' 'debate.dryRun' 'user.name=A B' 'x.y'='it'\\''s'",
        )
        .unwrap();
        assert_eq!(
            got,
            vec![
                ("debate.maxrounds".into(), Some("2".into())),
                ("debate.dryRun".into(), None),
                ("user.name".into(), Some("A B".into())),
                ("x.y".into(), Some("it's".into())),
            ]
        );
        assert!(parse_config_parameters("'unterminated").is_err());
    }

    #[test]
    fn a_bare_key_and_gits_escapes_read_as_git_writes_them() {
        // `git -c a.b` writes `'a.b'=` (true); git quotes `!` as `'\!'`.
        let got = parse_config_parameters("'a.b'= 'c.d'='x'\\!'y'").unwrap();
        assert_eq!(
            got,
            vec![("a.b".into(), None), ("c.d".into(), Some("x!y".into()))]
        );
        assert!(parse_config_parameters("'a.b'x").is_err());
        assert!(parse_config_parameters("  ").unwrap().is_empty());
    }

    #[test]
    fn keys_normalize_like_git() {
        assert_eq!(normalize_key("Debate.MaxRounds"), "debate.maxrounds");
        assert_eq!(
            normalize_key("debate.Claude.Command"),
            "debate.Claude.command"
        );
    }

    #[test]
    fn later_layers_win_and_file_order_is_kept() {
        let mut l = Layers::default();
        l.push("debate.maxRounds", "4".into(), Layer::Local, "a".into());
        l.push("debate.maxRounds", "2".into(), Layer::Global, "b".into());
        l.push("debate.maxRounds", "5".into(), Layer::Local, "c".into());
        assert_eq!(l.get("debate.maxrounds").unwrap().value, "5");
        l.remove_layer("debate.maxrounds", Layer::Local);
        assert_eq!(l.get("debate.maxrounds").unwrap().value, "2");
    }
}
