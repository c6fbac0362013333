//! The git settings that shape a diff (`diff.renames`, `diff.algorithm`, `core.autocrlf`, …), read
//! as git reads them, `git -c` included.
//!
//! libgit2 reads the config files but not the values `git -c key=value debate` passes down in
//! `GIT_CONFIG_PARAMETERS` (or `GIT_CONFIG_COUNT` pairs), so `git -c diff.renames=false debate`
//! would have been ignored where `git -c diff.renames=false diff` is not. Those values win, as in
//! git; the files come next.

use git2::Repository;

use crate::settings::layers::{normalize_key, parse_config_parameters};

/// The value of `key`: the last one given with `git -c`, else the repository's config.
pub(super) fn string(repo: &Repository, key: &str) -> Option<String> {
    command_line(key).or_else(|| repo.config().ok()?.get_string(key).ok())
}

/// [`string`] from a configuration already opened (`None`: only `git -c` values).
pub(super) fn value(cfg: Option<&git2::Config>, key: &str) -> Option<String> {
    command_line(key).or_else(|| cfg?.get_string(key).ok())
}

/// A boolean as git spells them; `None` when unset or not a boolean.
pub(super) fn boolean(repo: &Repository, key: &str) -> Option<bool> {
    string(repo, key).and_then(|v| crate::settings::parse_bool(v.trim()))
}

/// An integer (git's `k`, `m`, `g` suffixes included); `None` when unset or not a number.
pub(super) fn integer(repo: &Repository, key: &str) -> Option<i64> {
    integer_in(repo.config().ok().as_ref(), key)
}

/// [`integer`] from a configuration already opened.
pub(super) fn integer_in(cfg: Option<&git2::Config>, key: &str) -> Option<i64> {
    let v = value(cfg, key)?;
    let v = v.trim().to_ascii_lowercase();
    let (digits, factor) = match v.chars().last()? {
        'k' => (&v[..v.len() - 1], 1 << 10),
        'm' => (&v[..v.len() - 1], 1 << 20),
        'g' => (&v[..v.len() - 1], 1 << 30),
        _ => (v.as_str(), 1),
    };
    digits.parse::<i64>().ok()?.checked_mul(factor)
}

fn command_line(key: &str) -> Option<String> {
    let want = normalize_key(key);
    let mut found = None;
    if let Some(pairs) = std::env::var("GIT_CONFIG_PARAMETERS")
        .ok()
        .and_then(|p| parse_config_parameters(&p).ok())
    {
        for (k, v) in pairs {
            if normalize_key(&k) == want {
                // A key alone means true.
                found = Some(v.unwrap_or_else(|| "true".into()));
            }
        }
    }
    let count: usize = std::env::var("GIT_CONFIG_COUNT")
        .ok()
        .and_then(|c| c.trim().parse().ok())
        .unwrap_or(0);
    for i in 0..count {
        let k = std::env::var(format!("GIT_CONFIG_KEY_{i}")).unwrap_or_default();
        if normalize_key(&k) == want {
            found = Some(std::env::var(format!("GIT_CONFIG_VALUE_{i}")).unwrap_or_default());
        }
    }
    found
}
