//! `git debate install-man`: puts the manual page where `git debate --help` finds it.
//!
//! `git debate --help` is git running `man git-debate`, and man-db searches `../share/man` (and
//! `../man`) beside every folder on PATH. So the page goes beside the running binary: for
//! `cargo install` that is `~/.cargo/share/man/man1/`, found with no MANPATH set, where the usual
//! `~/.local/share/man` is not searched unless `~/.local/bin` is on PATH. The page is built into
//! the binary, so it always matches the version that installs it.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, Result};

use crate::cli::InstallManArgs;
use crate::error::Outcome;

const PAGE: &str = include_str!("../../man/git-debate.1");

pub fn run(args: &InstallManArgs) -> Result<Outcome> {
    let root = match &args.dir {
        Some(d) => d.clone(),
        None => beside_binary()?,
    };
    let dir = root.join("man1");
    std::fs::create_dir_all(&dir)
        .with_context(|| format!("cannot create {}; choose another with --dir", dir.display()))?;
    let page = dir.join("git-debate.1");
    crate::report::output::write(&page, PAGE.as_bytes())?;
    crate::outln!("installed the manual page as {}", page.display());
    match found_by_man() {
        Some(p) if same_file(&p, &page) => {
            crate::outln!("`git debate --help` and `man git-debate` show it");
        }
        Some(p) => crate::outln!(
            "note: `man git-debate` finds another page first: {}",
            p.display()
        ),
        None => crate::outln!(
            "note: `man` does not search {} here; add it to MANPATH (e.g. \
             export MANPATH=\"{}:\")",
            root.display(),
            root.display()
        ),
    }
    Ok(Outcome::Success)
}

/// `<folder of the binary>/../share/man`.
fn beside_binary() -> Result<PathBuf> {
    let exe = std::env::current_exe().context("cannot find the running binary")?;
    let exe = exe.canonicalize().unwrap_or(exe);
    let bin = exe.parent().context("the binary has no folder")?;
    Ok(bin.parent().unwrap_or(bin).join("share").join("man"))
}

/// Where `man -w git-debate` finds the page, if `man` is installed and finds one.
fn found_by_man() -> Option<PathBuf> {
    let out = std::process::Command::new("man")
        .args(["-w", "git-debate"])
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8(out.stdout).ok()?;
    let first = text.lines().next()?.trim();
    (out.status.success() && !first.is_empty()).then(|| PathBuf::from(first))
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}
