//! `exec:<command line>`: any program that reads the prompt on stdin and prints the answer
//! (`exec:ollama run qwen2.5-coder`, `exec:llm -m gpt-4o`).
//!
//! The command line is split into words as a POSIX shell would (quotes and backslashes), but no
//! shell runs it: no expansion, no pipes, no globbing, so nothing in it is interpreted twice. Its
//! family is unknown unless `debate.exec.family` says (a user-only key: a cloned repository cannot
//! point us at a program).

use std::path::PathBuf;

use crate::agents::agent::host;
use crate::agents::agent::{interpret, run_checked};
use crate::agents::error::generic_hint;
use crate::agents::{
    Answer, Backend, BackendError, Captured, ErrorKind, Failure, Family, Reply, Request,
};
use crate::sys::runner::Invocation;

pub struct ExecBackend {
    name: String,
    program: PathBuf,
    args: Vec<String>,
    family: Family,
}

impl ExecBackend {
    /// `line` is what follows `exec:`. The program is looked up on PATH when it has no `/`.
    pub fn new(line: &str, family: Family) -> Result<ExecBackend, String> {
        let words = split_words(line)?;
        let Some((program, args)) = words.split_first() else {
            return Err("exec: needs a command, e.g. exec:ollama run qwen2.5-coder".into());
        };
        let resolved = host::which(program).unwrap_or_else(|| PathBuf::from(program));
        Ok(ExecBackend {
            name: format!("exec:{}", line.trim()),
            program: resolved,
            args: args.to_vec(),
            family,
        })
    }
}

impl Backend for ExecBackend {
    fn name(&self) -> &str {
        &self.name
    }
    fn family(&self) -> &Family {
        &self.family
    }
    fn model(&self) -> Option<&str> {
        None
    }
    fn describe(&self) -> String {
        let mut words = vec![self.program.display().to_string()];
        words.extend(self.args.iter().cloned());
        words.push("< prompt".into());
        words.join(" ")
    }

    fn ask(&self, req: &Request) -> Result<Answer, BackendError> {
        let inv = Invocation {
            program: self.program.clone(),
            args: self.args.clone(),
            env: Vec::new(),
            // Claude Code's markers would stop a `claude` started through exec: too.
            env_remove: host::clean_env(),
            cwd: req.run_dir(),
            stdin: req.prompt.as_bytes().to_vec(),
            timeout: req.timeout,
            idle_timeout: req.idle_timeout,
            watch: None,
            heartbeat: None,
        };
        let hint = |k: ErrorKind| match k {
            ErrorKind::NotInstalled => format!(
                "`{}` was not found; check the command after exec:",
                self.program.display()
            ),
            k => generic_hint(k, req.timeout.as_secs()),
        };
        let err = |f: Failure| BackendError::new(&self.name, f, &hint);
        let (finished, changes) = run_checked(&self.name, &inv, req).map_err(err)?;
        let reply = interpret(&finished, parse, req).map_err(err)?;
        Ok(Answer {
            backend: self.name.clone(),
            text: reply.text,
            usage: reply.usage,
            model: None,
            duration_ms: finished.duration.as_millis() as u64,
            cli_version: None,
            tree_changes: changes,
            structured: None,
            output: crate::agents::OutputMode::prompt(None),
            notes: Vec::new(),
            transport: "cli",
            redactions: 0,
        })
    }
}

/// The answer is all of stdout; a non-zero exit is a failure described by stderr.
fn parse(c: &Captured) -> Result<Reply, Failure> {
    match c.code {
        Some(0) => Ok(Reply {
            text: c.stdout.trim_end().to_string(),
            ..Reply::default()
        }),
        code => {
            let said = c.stderr.trim();
            let msg = if said.is_empty() {
                "no error message".to_string()
            } else {
                said.lines().last().unwrap_or(said).to_string()
            };
            Err(Failure::classified(msg, None, code))
        }
    }
}

/// Splits `line` into words the way a POSIX shell does, without expanding anything (see
/// `shell_words::split`): whitespace separates words; '…' keeps everything literally; "…" keeps
/// everything but `\"`, `\\`, `\$` and `` \` ``; a backslash outside quotes keeps the next
/// character; a `#` that starts a word starts a comment.
pub fn split_words(line: &str) -> Result<Vec<String>, String> {
    let words = shell_words::split(line).map_err(|e| format!("{e} in {line:?}"))?;
    // A shell reads a final lone backslash as "the line goes on" and waits for more; shell-words
    // keeps it as a literal `\`, which would hand the program an argument nobody meant. An even
    // run of them is escaped backslashes and stands.
    if line.chars().rev().take_while(|c| *c == '\\').count() % 2 == 1 {
        return Err(format!("trailing backslash in {line:?}"));
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_split_like_a_shell() {
        let w = |s: &str| split_words(s).unwrap();
        assert_eq!(
            w("ollama run qwen2.5-coder"),
            ["ollama", "run", "qwen2.5-coder"]
        );
        assert_eq!(
            w("llm -m 'gpt 4o'  -s \"a \\\"b\\\" $HOME\""),
            ["llm", "-m", "gpt 4o", "-s", "a \"b\" $HOME"]
        );
        assert_eq!(w("a\\ b c''d \"\""), ["a b", "cd", ""]);
        assert_eq!(w("  "), Vec::<String>::new());
        assert_eq!(w("x; rm -rf /"), ["x;", "rm", "-rf", "/"]);
        assert!(split_words("llm 'oops").is_err());
        assert!(split_words("llm \"oops").is_err());
        assert!(split_words("llm \\").is_err());
    }

    #[test]
    fn a_word_starting_with_hash_is_a_comment_and_escaped_backslashes_stand() {
        let w = |s: &str| split_words(s).unwrap();
        assert_eq!(w("llm --tag x #comment"), ["llm", "--tag", "x"]);
        assert_eq!(w("llm a#b"), ["llm", "a#b"]);
        assert_eq!(w("a\\\\"), ["a\\"]);
    }

    #[test]
    fn stdout_is_the_answer_and_stderr_the_error() {
        let ok = parse(&Captured {
            stdout: "the answer\n\n",
            stderr: "progress…",
            code: Some(0),
        })
        .unwrap();
        assert_eq!(ok.text, "the answer");
        let err = parse(&Captured {
            stdout: "",
            stderr: "pulling manifest\nError: 429 Too Many Requests\n",
            code: Some(1),
        })
        .unwrap_err();
        assert_eq!(err.kind, ErrorKind::RateLimited);
    }
}
