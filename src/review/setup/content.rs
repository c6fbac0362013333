//! What to review when it is given rather than found in git: CONTENT, `--artifact-file`,
//! standard input and `--scope file:`.
//!
//! CONTENT is read the way a user means it. `git debate docs/design.md` names a file, so the file
//! is reviewed (said on stderr), never the 14-byte string. A bare word that is a near miss of a
//! command (`git debate sesions`) is a typo, so it is an error with a suggestion, never a paid
//! review of that word; so is a word shaped like a path to a file that does not exist. Text that
//! is meant as text still works: anything with a space, several lines, or standard input.

use std::path::Path;

use anyhow::Result;
use clap::CommandFactory as _;

use crate::change::{read, TextInput};
use crate::review::setup::What;

/// File names CONTENT is taken to be a path by, when no such file exists (a typo of one).
const PATH_ENDINGS: &[&str] = &[
    ".md",
    ".markdown",
    ".txt",
    ".rst",
    ".adoc",
    ".rs",
    ".py",
    ".go",
    ".js",
    ".ts",
    ".java",
    ".c",
    ".h",
    ".cc",
    ".cpp",
    ".rb",
    ".php",
    ".sh",
    ".toml",
    ".yaml",
    ".yml",
    ".json",
    ".diff",
    ".patch",
];

/// CONTENT as a file (the file's text), a refusal (a typo), or `None`: text to review as given.
fn positional(
    content: &str,
    repo: Option<&crate::git::Repo>,
    cwd: &Path,
    cap: u64,
) -> Result<Option<TextInput>> {
    let word = content.trim();
    if word.is_empty() || word.contains(char::is_whitespace) || word.len() > 4096 {
        return Ok(None);
    }
    let path = cwd.join(word);
    if path.is_file() {
        // Inside the work tree by the name given, not by where it leads: a committed symlink
        // to `~/.bash_history` is a path in the repository, and `file:`'s rule (the real file
        // must be in the work tree too) then refuses it. One rule for both.
        let inside = repo.and_then(|r| r.workdir()).is_some_and(|root| {
            let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
            let base = cwd.canonicalize().unwrap_or_else(|_| cwd.to_path_buf());
            lexical(&base.join(word)).starts_with(root)
        });
        let input = if inside || repo.is_none() {
            crate::errln!(
                "note: reviewing the file {word} (as --scope file:{word}); to review the words \
                 themselves, pass them on standard input: echo '{word}' | git debate -"
            );
            read::file_scope(repo, word, cwd, cap)?
        } else {
            crate::errln!("note: reviewing the file {word} (as --artifact-file {word})");
            let bytes = crate::sys::file_io::read_regular(&path, cap)
                .map_err(|e| read::refused(&format!("the file {word}"), e))?;
            TextInput::from_bytes(bytes, word.to_string(), Some(word.to_string()))
        };
        return Ok(Some(input));
    }
    if path.is_dir() {
        crate::usage!(
            "{word} is a directory; review changes under it with --scope, or name a file"
        );
    }
    if let Some(command) = near_command(word) {
        crate::usage!(
            "`{word}` is not a git debate command; did you mean `git debate {command}`? (to \
             review the word itself, pass it on standard input)"
        );
    }
    let lower = word.to_ascii_lowercase();
    if word.contains('/') || PATH_ENDINGS.iter().any(|e| lower.ends_with(e)) {
        crate::usage!(
            "no such file: {word}; name an existing file, or pass text on standard input to \
             review it as text"
        );
    }
    Ok(None)
}

/// `path` with `.` and `..` resolved by name only, links not followed: where the user pointed.
fn lexical(path: &Path) -> std::path::PathBuf {
    use std::path::Component;
    let mut out = std::path::PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// The command `word` most likely meant: one edit or two away, or a prefix of at least three
/// letters.
fn near_command(word: &str) -> Option<String> {
    if !word.chars().all(|c| c.is_ascii_alphabetic() || c == '-') {
        return None;
    }
    let word = word.to_ascii_lowercase();
    let cli = crate::cli::Cli::command();
    let names: Vec<String> = cli
        .get_subcommands()
        .flat_map(|c| {
            std::iter::once(c.get_name().to_string()).chain(c.get_all_aliases().map(String::from))
        })
        .chain(["help".to_string()])
        .collect();
    names
        .iter()
        .map(|n| (distance(&word, n), n))
        .filter(|(d, n)| {
            *d <= if n.len() > 4 { 2 } else { 1 } || (word.len() >= 3 && n.starts_with(&word))
        })
        .min()
        .map(|(_, n)| n.clone())
}

/// Edit distance with swapped neighbours as one edit (`shwo` is one from `show`); small inputs.
fn distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

/// CONTENT or `--artifact-file`; `-` in either reads standard input. CONTENT that names a file
/// is that file; a bare word that looks like a mistyped command is refused (see
/// [`positional`]).
pub fn explicit(
    args: &What,
    cap: u64,
    repo: Option<&crate::git::Repo>,
    cwd: &Path,
) -> Result<Option<TextInput>> {
    if let Some(content) = &args.content {
        if content == "-" {
            return Ok(Some(read::stdin(cap)?));
        }
        if let Some(input) = positional(content, repo, cwd, cap)? {
            return Ok(Some(input));
        }
        return Ok(Some(TextInput {
            text: content.clone(),
            origin: "argument".into(),
            path_hint: None,
            lossy: false,
        }));
    }
    let Some(path) = &args.artifact_file else {
        return Ok(None);
    };
    if path == Path::new("-") {
        return Ok(Some(read::stdin(cap)?));
    }
    let bytes = crate::sys::file_io::read_regular(path, cap)
        .map_err(|e| read::refused(&format!("--artifact-file {}", path.display()), e))?;
    let input = TextInput::from_bytes(
        bytes,
        path.display().to_string(),
        Some(path.display().to_string()),
    );
    if input.text.trim().is_empty() {
        crate::usage!(
            "--artifact-file {} is empty; nothing to review",
            path.display()
        );
    }
    Ok(Some(input))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_misses_of_commands_are_caught_and_words_are_not() {
        assert_eq!(near_command("sesions").as_deref(), Some("sessions"));
        assert_eq!(near_command("shw").as_deref(), Some("show"));
        assert_eq!(near_command("resum").as_deref(), Some("resume"));
        assert_eq!(near_command("backend").as_deref(), Some("backends"));
        assert_eq!(near_command("HOOK").as_deref(), Some("hook"));
        for word in ["refactoring", "x=1;y=2", "performance", "sh"] {
            assert_eq!(near_command(word), None, "{word}");
        }
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("shwo", "show"), 1);
    }
}
