//! Several reviewers and the failover chain, as written: the list syntax of `debate.reviewer`
//! (a chain), `debate.reviewers` (backends, a number, or both) and `debate.fallbackReviewer`.
//!
//! Routing ([`crate::agents::routing`]) seats the reviewers these lists name, and fills a
//! `--reviewers N` from the installed backends.

use anyhow::Result;

use crate::agents::registry::REVIEWER_ORDER;
use crate::error::UsageError;
use crate::settings::Settings;

/// Where a backend name may start in a list: an `exec:` command may hold a comma of its own, so
/// a piece that starts with none of these belongs to the piece before it.
const PREFIXES: &[&str] = &["exec:", "openai:", "acp:"];

/// The backends of a comma list (`codex,gemini`), in order; `exec:tool --x a,b` stays whole.
pub fn backend_list(value: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for piece in value.split(',') {
        let word = piece.trim();
        let starts = REVIEWER_ORDER.iter().any(|n| n.eq_ignore_ascii_case(word))
            || word.parse::<u32>().is_ok()
            || PREFIXES
                .iter()
                .any(|p| word.len() >= p.len() && word[..p.len()].eq_ignore_ascii_case(p));
        match out.last_mut() {
            Some(last) if !starts && !word.is_empty() => {
                last.push(',');
                last.push_str(piece);
            }
            _ if word.is_empty() => {}
            _ => out.push(word.to_string()),
        }
    }
    out
}

/// `debate.reviewers` read: the backends it names and the number of reviewers it asks for (the
/// named ones count towards it).
pub fn wanted(settings: &Settings) -> Result<(Vec<String>, usize)> {
    let Some(value) = settings.reviewers.as_deref() else {
        return Ok((Vec::new(), 0));
    };
    let mut named = Vec::new();
    let mut count = 0;
    for piece in backend_list(value) {
        match piece.parse::<usize>() {
            Ok(n) if (1..=8).contains(&n) => count = n,
            Ok(_) => {
                return Err(UsageError::new(format!(
                    "bad value for debate.reviewers = {value:?}: a number of reviewers is 1 to 8"
                ))
                .into())
            }
            Err(_) if named.contains(&piece) => {
                return Err(UsageError::new(format!(
                    "debate.reviewers names {piece} twice; name each reviewer once"
                ))
                .into())
            }
            Err(_) => named.push(piece),
        }
    }
    let count = count.max(named.len());
    Ok((named, count))
}

/// The failover chain after the reviewer: the rest of a `debate.reviewer` list, then
/// `debate.fallbackReviewer` (a list too), each once.
pub fn chain(settings: &Settings) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let rest = settings
        .reviewer
        .as_deref()
        .map(backend_list)
        .unwrap_or_default();
    let fallbacks = settings
        .fallback_reviewer
        .as_deref()
        .map(backend_list)
        .unwrap_or_default();
    for name in rest.into_iter().skip(1).chain(fallbacks) {
        if !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_split_on_commas_but_keep_a_commands_own() {
        assert_eq!(backend_list("codex, gemini"), ["codex", "gemini"]);
        assert_eq!(
            backend_list("exec:tool --x a,b,qwen"),
            ["exec:tool --x a,b", "qwen"]
        );
        assert_eq!(backend_list("codex,3"), ["codex", "3"]);
        assert_eq!(backend_list("openai:m,,"), ["openai:m"]);
    }
}
