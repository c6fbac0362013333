//! What a model CLI may read: where it runs, which paths its own permission rules refuse, and how
//! each CLI is run with no tools at all (`debate.reviewerTools = none`).
//!
//! The CLIs' read-only modes stop writes, not reads: recorded against a fake model server
//! (a model scripted to read `<repo>/.env`, an untracked file and a file outside the working
//! directory), claude, qwen and copilot read everything under their working directory, ignored
//! files included, codex's read-only sandbox read all three and anything else on the disk, and
//! gemini read the untracked file. So a review runs its CLIs in a redacted export
//! (`review::export`), claude also gets deny rules for the repository and the home directory, and
//! `reviewerTools = none` switches tools off where the CLI has a switch that really removes them
//! (each row below was checked: the model's request offered no file-reading tool afterwards).

use std::path::{Path, PathBuf};

/// Where and how one call is confined. The default confines nothing (the call runs in the
/// request's `cwd` with the CLI's usual read-only tools).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sandbox {
    /// Run here instead of the request's `cwd` (the export of the reviewed revision).
    pub dir: Option<PathBuf>,
    /// A private directory of ours for files a CLI needs (gemini's policy file).
    pub scratch: Option<PathBuf>,
    /// Paths the CLI's own permission rules must refuse, where it has such rules (claude).
    pub deny: Vec<PathBuf>,
    /// Run with no tools at all: the prompt only.
    pub no_tools: bool,
}

/// How a CLI is run with no tools.
#[derive(Debug, Clone, Copy)]
enum NoTools {
    /// Append these arguments.
    Args(&'static [&'static str]),
    /// Give this flag this value, replacing the value it already has (a second `--tools ""`
    /// after `--tools Read,Grep,Glob` left claude's tools on).
    Set(&'static str, &'static str),
    /// Replace the argument that starts with the first word by the second (copilot's
    /// `--available-tools=view,rg,glob` is one word).
    Word(&'static str, &'static str),
    /// Write `content` to `file` in the scratch directory and pass it after `flag`.
    File {
        flag: &'static str,
        file: &'static str,
        content: &'static str,
    },
    /// No switch was found that removes its file tools.
    Unsupported,
}

/// One row per agent CLI, verified by running the real CLI against a fake model server (see the
/// README).
const NO_TOOLS: &[(&str, NoTools)] = &[
    ("claude", NoTools::Set("--tools", "")),
    (
        "codex",
        NoTools::Args(&[
            "-c",
            "features.shell_tool=false",
            "-c",
            "features.unified_exec=false",
            "-c",
            "web_search=disabled",
        ]),
    ),
    (
        "gemini",
        NoTools::File {
            flag: "--policy",
            file: "gemini-no-tools.toml",
            content: "[[rule]]\ntoolName = \"*\"\ndecision = \"deny\"\npriority = 999\n",
        },
    ),
    (
        "qwen",
        NoTools::Args(&[
            "--exclude-tools",
            "read_file,grep_search,glob,list_directory,tool_search,agent,skill,web_fetch,\
             todo_write,task_stop,send_message",
        ]),
    ),
    (
        "copilot",
        NoTools::Word("--available-tools=", "--available-tools=none"),
    ),
    ("opencode", NoTools::Unsupported),
];

/// Variables that would point a CLI (or the git it runs) back at the user's repository.
pub const REPO_VARS: &[&str] = &[
    "OLDPWD",
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_COMMON_DIR",
    "GIT_PREFIX",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
];

/// Says on stderr, once per run, that a confinement could not be applied.
pub fn warn_once(why: &str) {
    static WARNED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if !WARNED.swap(true, std::sync::atomic::Ordering::Relaxed) {
        crate::errln!("warning: {why}; it keeps its read-only tools (in the export of the change)");
    }
}

/// Whether `cli` has a verified way to run without tools.
pub fn can_disable_tools(cli: &str) -> bool {
    NO_TOOLS
        .iter()
        .any(|(n, t)| *n == cli && !matches!(t, NoTools::Unsupported))
}

/// Adds `cli`'s confinement to its arguments (before a trailing `-`, which must stay last).
/// `Err` names what could not be done (the call still runs, in the export, with its tools).
pub fn apply(cli: &str, args: &mut Vec<String>, sandbox: &Sandbox) -> Result<(), String> {
    let mut extra: Vec<String> = Vec::new();
    if cli == "claude" && !sandbox.deny.is_empty() {
        extra.extend(["--settings".to_string(), claude_deny(&sandbox.deny)]);
    }
    let mut problem = Ok(());
    if sandbox.no_tools {
        match NO_TOOLS.iter().find(|(n, _)| *n == cli).map(|(_, t)| *t) {
            Some(NoTools::Args(a)) => extra.extend(a.iter().map(|s| s.to_string())),
            Some(NoTools::Set(flag, value)) => match args.iter().position(|a| a == flag) {
                Some(i) if i + 1 < args.len() => args[i + 1] = value.to_string(),
                _ => extra.extend([flag.to_string(), value.to_string()]),
            },
            Some(NoTools::Word(prefix, word)) => {
                match args.iter().position(|a| a.starts_with(prefix)) {
                    Some(i) => args[i] = word.to_string(),
                    None => extra.push(word.to_string()),
                }
            }
            Some(NoTools::File {
                flag,
                file,
                content,
            }) => match &sandbox.scratch {
                Some(dir) if std::fs::write(dir.join(file), content).is_ok() => {
                    extra.extend([flag.to_string(), dir.join(file).display().to_string()]);
                }
                _ => problem = Err(format!("{cli}: no private directory for its {flag} file")),
            },
            Some(NoTools::Unsupported) | None => {
                problem = Err(format!("{cli} has no switch that removes its file tools"));
            }
        }
    }
    let at = if args.last().map(String::as_str) == Some("-") {
        args.len() - 1
    } else {
        args.len()
    };
    args.splice(at..at, extra);
    problem
}

/// claude's `--settings` JSON refusing reads under each path (the `Read(//abs/**)` form was
/// checked to refuse a read inside claude's own working directory, and to beat an allow rule).
fn claude_deny(paths: &[PathBuf]) -> String {
    let rules: Vec<String> = paths
        .iter()
        .map(|p| format!("Read(/{}/**)", p.display()))
        .collect();
    serde_json::json!({"permissions": {"deny": rules}}).to_string()
}

/// The paths a confined call should not read: the repository's work tree and git directory, and
/// the home directory (unless the export lies inside them).
pub fn deny_list(repo_dirs: &[&Path], export: &Path) -> Vec<PathBuf> {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    repo_dirs
        .iter()
        .map(|p| p.to_path_buf())
        .chain(home)
        .map(|p| p.canonicalize().unwrap_or(p))
        .filter(|p| p.is_absolute() && p != Path::new("/") && !export.starts_with(p))
        .fold(Vec::new(), |mut acc, p| {
            if !acc.contains(&p) {
                acc.push(p);
            }
            acc
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split(' ').map(String::from).collect()
    }

    #[test]
    fn no_tools_replaces_claudes_tool_list_and_keeps_a_trailing_dash_last() {
        let off = Sandbox {
            no_tools: true,
            ..Default::default()
        };
        let mut a = words("-p --tools Read,Grep,Glob --model m");
        apply("claude", &mut a, &off).unwrap();
        assert_eq!(a, ["-p", "--tools", "", "--model", "m"]);
        let mut a = words("exec --json -");
        apply("codex", &mut a, &off).unwrap();
        assert_eq!(a.last().unwrap(), "-");
        assert!(
            a.contains(&"features.shell_tool=false".to_string()),
            "{a:?}"
        );
        let mut a = words("-o json");
        assert!(apply("opencode", &mut a, &off).is_err());
        assert_eq!(a, words("-o json"));
        assert!(!can_disable_tools("opencode") && can_disable_tools("qwen"));
        let mut a = words("--allow-all-tools --available-tools=view,rg,glob");
        apply("copilot", &mut a, &off).unwrap();
        assert_eq!(a, words("--allow-all-tools --available-tools=none"));
    }

    #[test]
    fn gemini_gets_a_deny_all_policy_file_in_the_scratch_directory() {
        let tmp = tempfile::tempdir().unwrap();
        let sb = Sandbox {
            no_tools: true,
            scratch: Some(tmp.path().to_path_buf()),
            ..Default::default()
        };
        let mut a = words("-o json");
        apply("gemini", &mut a, &sb).unwrap();
        assert_eq!(a[2], "--policy");
        let policy = std::fs::read_to_string(&a[3]).unwrap();
        assert!(policy.contains("decision = \"deny\""), "{policy}");
        let mut a = words("-o json");
        let without = Sandbox {
            scratch: None,
            ..sb
        };
        assert!(apply("gemini", &mut a, &without).is_err());
    }

    #[test]
    fn claude_denies_reads_under_each_path_other_clis_get_nothing() {
        let sb = Sandbox {
            deny: vec![PathBuf::from("/work/my repo,x"), PathBuf::from("/home/u")],
            ..Default::default()
        };
        let mut a = words("-p");
        apply("claude", &mut a, &sb).unwrap();
        assert_eq!(a[1], "--settings");
        let v: serde_json::Value = serde_json::from_str(&a[2]).unwrap();
        assert_eq!(
            v["permissions"]["deny"],
            serde_json::json!(["Read(//work/my repo,x/**)", "Read(//home/u/**)"])
        );
        let mut a = words("exec -");
        apply("codex", &mut a, &sb).unwrap();
        assert_eq!(a, words("exec -"));
    }

    #[test]
    fn the_deny_list_spares_a_directory_holding_the_export() {
        let l = deny_list(
            &[
                Path::new("/nonexistent/repo"),
                Path::new("/nonexistent/repo"),
            ],
            Path::new("/tmp/git-debate-1-0/repo"),
        );
        assert_eq!(l[0], PathBuf::from("/nonexistent/repo"));
        assert_eq!(l.iter().filter(|p| p.ends_with("repo")).count(), 1);
        let l = deny_list(&[Path::new("/tmp")], Path::new("/tmp/git-debate-1-0/repo"));
        assert!(!l.contains(&PathBuf::from("/tmp")));
    }
}
