//! `--mode manual`: after each judged round, the user picks A–E on the terminal.
//!
//! Choices are read from the terminal device (`/dev/tty`), not standard input, because standard
//! input may have carried the artifact (`git debate - < proposal.md`) and is at its end; reading
//! stdin would find nothing and silently make the review automatic. Without a terminal (hooks,
//! CI) manual mode is a usage error before any model is called, never a hang.

use std::fs::{File, OpenOptions};
use std::io::{BufRead as _, BufReader, Write as _};

use anyhow::Result;

use crate::error::UsageError;
use crate::review::record::Round;

pub struct Terminal {
    out: File,
    input: BufReader<File>,
}

impl Terminal {
    pub fn open() -> Result<Terminal> {
        let tty = OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/tty")
            .map_err(|e| {
                UsageError::new(format!(
                    "--mode manual needs a terminal to ask on, and /dev/tty cannot be opened ({e}); \
                     use --mode auto in hooks and CI"
                ))
            })?;
        Ok(Terminal {
            input: BufReader::new(tty.try_clone()?),
            out: tty,
        })
    }

    /// Shows the round and asks for a choice; an empty answer (or the end of input) takes the
    /// recommendation.
    pub fn choose(&mut self, round: &Round) -> Result<char> {
        let mut s = format!("\n=== Round {} ===\n", round.round);
        for j in &round.findings {
            s.push_str(&format!(
                "  {} [{}] {}{} — {}\n",
                j.severity().label(),
                j.finding.id,
                crate::ui::terminal::clean_line(&j.finding.title),
                j.finding
                    .evidence
                    .as_deref()
                    .map(|e| format!(" ({})", crate::ui::terminal::clean_line(e)))
                    .unwrap_or_default(),
                j.verdict_label()
            ));
            // Why it matters and what to do: a choice needs more than titles.
            let f = &j.finding;
            if !f.body.is_empty() {
                s.push_str(&format!(
                    "      why: {}\n",
                    crate::ui::terminal::clean_line(&f.body)
                ));
            }
            if let Some(a) = &f.action {
                s.push_str(&format!(
                    "      fix: {}\n",
                    crate::ui::terminal::clean_line(a)
                ));
            }
        }
        s.push_str(&format!(
            "Recommendation: {} ({})",
            round.rubric, round.rubric_reason
        ));
        if let Some(l) = round.judge_choice.filter(|l| *l != round.rubric) {
            s.push_str(&format!("; the judge said {l}"));
        }
        s.push_str(
            "\n  A keep the original   B accept the reviewer's version   C write a compromise\n  \
             D rebut and continue   E stop\n",
        );
        // Titles and reasons come from the models: shown, never acted on by the terminal.
        self.out
            .write_all(crate::ui::terminal::clean(&s).as_bytes())?;
        for _ in 0..3 {
            write!(self.out, "Choose [A/B/C/D/E] (default {}): ", round.rubric)?;
            self.out.flush()?;
            let mut line = String::new();
            if self.input.read_line(&mut line)? == 0 {
                writeln!(self.out)?;
                return Ok(round.rubric);
            }
            let t = line.trim().to_ascii_uppercase();
            if t.is_empty() {
                return Ok(round.rubric);
            }
            if let Some(c) = t.chars().next().filter(|c| ('A'..='E').contains(c)) {
                if t.len() == 1 {
                    return Ok(c);
                }
            }
            writeln!(self.out, "Please answer A, B, C, D or E.")?;
        }
        writeln!(self.out, "Taking the recommendation, {}.", round.rubric)?;
        Ok(round.rubric)
    }
}
