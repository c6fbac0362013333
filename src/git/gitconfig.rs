//! The git settings that shape a diff (`diff.renames`, `diff.algorithm`, `core.autocrlf`, …), read
//! as git reads them, `git -c` included.
//!
//! libgit2 reads the config files but not the values `git -c key=value debate` passes down in
//! `GIT_CONFIG_PARAMETERS` (or `GIT_CONFIG_COUNT` pairs), so `git -c diff.renames=false debate`
//! would have been ignored where `git -c diff.renames=false diff` is not. Those values win, as in
//! git; the files come next.

use git2::Repository;

use crate::settings::layers::{command_line as command_line_values, normalize_key};

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

/// The last value of `key` given on git's command line. A malformed one is reported when the
/// settings are read; here it counts as unset.
fn command_line(key: &str) -> Option<String> {
    let want = normalize_key(key);
    command_line_values()
        .ok()?
        .into_iter()
        .rev()
        .find(|(k, ..)| normalize_key(k) == want)
        .map(|(_, v, _)| v)
}
