//! Asking the person at the terminal: whether there is one to ask, a one-word choice on standard
//! input, and a dialogue on the terminal device itself.
//!
//! A question is only ever put to a person: standard input and standard error on a terminal, and
//! not in CI, where nobody can answer and a prompt would hang the job. A dialogue that must work
//! when standard input carried the content (`git debate - < proposal.md`) talks to `/dev/tty`
//! instead. What is asked is cleaned like everything else we print (see [`crate::ui::terminal`]).

use std::fs::File;
use std::io::{BufRead as _, BufReader, IsTerminal as _, Write as _};

use anyhow::Result;

use crate::error::UsageError;

/// `CI` is set (every major CI system sets it) and standard input is not a terminal.
pub fn in_ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false" && v != "0")
        && !std::io::stdin().is_terminal()
}

/// Someone can answer a question: standard input and standard error on a terminal, not in CI.
pub fn person_present() -> bool {
    std::io::stdin().is_terminal() && crate::ui::terminal::stderr_is_terminal() && !in_ci()
}

/// What came back from [`choose`].
pub enum Reply<T> {
    /// One of the choices' words.
    Chose(T),
    /// `n` or `no`.
    No,
    /// No usable answer: the end of input, or three answers that were none of the choices.
    Unanswered,
}

/// Asks `question` on standard error and reads the answer from standard input, up to three
/// times; a word is matched (case-insensitively, trimmed) against `choices`.
pub fn choose<T: Clone>(question: &str, choices: &[(&str, T)]) -> Result<Reply<T>> {
    let stdin = std::io::stdin();
    let mut lines = stdin.lock();
    for _ in 0..3 {
        crate::ui::terminal::prompt(question)?;
        let mut line = String::new();
        if lines.read_line(&mut line)? == 0 {
            break;
        }
        let word = line.trim().to_ascii_lowercase();
        if word == "n" || word == "no" {
            return Ok(Reply::No);
        }
        if let Some((_, choice)) = choices.iter().find(|(w, _)| *w == word) {
            return Ok(Reply::Chose(choice.clone()));
        }
    }
    Ok(Reply::Unanswered)
}

/// A dialogue on the controlling terminal (`/dev/tty`).
pub struct Tty {
    out: File,
    input: BufReader<File>,
}

impl Tty {
    /// Opens the terminal; without one, `missing` is the usage error that says what to do.
    pub fn open(missing: &str) -> Result<Tty> {
        let tty = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/tty")
            .map_err(|_| UsageError::new(missing))?;
        Ok(Tty {
            input: BufReader::new(tty.try_clone()?),
            out: tty,
        })
    }

    /// Shows `question` (cleaned: it may hold a model's words) and reads one line, trimmed;
    /// `None` at the end of input.
    pub fn ask(&mut self, question: &str) -> Result<Option<String>> {
        write!(self.out, "{}", crate::ui::terminal::clean(question))?;
        self.out.flush()?;
        let mut line = String::new();
        if self.input.read_line(&mut line)? == 0 {
            return Ok(None);
        }
        Ok(Some(line.trim().to_string()))
    }

    /// One line to the person, cleaned.
    pub fn say(&mut self, line: &str) -> Result<()> {
        writeln!(self.out, "{}", crate::ui::terminal::clean(line))?;
        Ok(())
    }
}
