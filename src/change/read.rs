//! Reading what is to be reviewed or discussed from a file or standard input: bounded (a size
//! cap, regular files only, no binary), inside the work tree when a scope names the file, and
//! refused with one line that says what to do.

use std::path::Path;

use anyhow::{Context as _, Result};

use crate::change::TextInput;
use crate::error::UsageError;

/// One line about a refused read of `what`, with what to do about the size cap.
pub fn refused(what: &str, e: crate::sys::file_io::Refusal) -> UsageError {
    use crate::sys::file_io::Refusal;
    UsageError::new(match e {
        Refusal::Io(e) => format!("cannot read {what}: {e}"),
        Refusal::TooLarge(_) => format!(
            "{what} {e} (64 × --max-artifact-bytes, at least 16 MiB); \
             review a part of it, or raise --max-artifact-bytes"
        ),
        e => format!("{what} {e}; name a file"),
    })
}

/// Standard input, as the text to review (`-`).
pub fn stdin(cap: u64) -> Result<TextInput> {
    let bytes = crate::sys::file_io::read_capped(std::io::stdin().lock(), cap)
        .map_err(|e| refused("standard input", e))?;
    let input = TextInput::from_bytes(bytes, "stdin".into(), None);
    if input.text.trim().is_empty() {
        crate::usage!("standard input was empty; nothing to review");
    }
    Ok(input)
}

/// `file:<path>`: the whole file. Inside a work tree the file must belong to it (the scope names
/// part of this repository); elsewhere any readable file will do.
pub fn file_scope(
    repo: Option<&crate::git::Repo>,
    given: &str,
    cwd: &Path,
    cap: u64,
) -> Result<TextInput> {
    let path = cwd.join(given);
    let meta = std::fs::metadata(&path).map_err(|_| {
        UsageError::new(format!(
            "--scope file:{given}: no such file ({})",
            path.display()
        ))
    })?;
    if meta.is_dir() {
        crate::usage!("--scope file:{given} is a directory; name a file");
    }
    if !meta.is_file() {
        crate::usage!(
            "--scope file:{given} is {}, not a regular file; name a file",
            crate::sys::file_io::kind(&meta.file_type())
        );
    }
    let real = path
        .canonicalize()
        .with_context(|| format!("cannot resolve {}", path.display()))?;
    let mut hint = given.to_string();
    if let Some(root) = repo.and_then(|r| r.workdir()) {
        let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
        match real.strip_prefix(&root) {
            Ok(rel) => hint = rel.to_string_lossy().into_owned(),
            Err(_) => crate::usage!(
                "--scope file:{given} is outside the work tree {}; use --artifact-file {given} to review it anyway",
                root.display()
            ),
        }
    }
    let bytes = crate::sys::file_io::read_regular(&real, cap)
        .map_err(|e| refused(&format!("--scope file:{given}"), e))?;
    if bytes[..bytes.len().min(8000)].contains(&0) {
        crate::usage!("--scope file:{given} is a binary file; there is no text to review");
    }
    let input = TextInput::from_bytes(bytes, format!("file:{hint}"), Some(hint));
    if input.text.trim().is_empty() {
        crate::usage!("--scope file:{given} is empty; nothing to review");
    }
    Ok(input)
}
