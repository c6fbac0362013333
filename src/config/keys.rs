//! The table of `debate.*` git config keys: one row per review option.
//!
//! Keeping every key, its default and its one-line doc in one table means the parser
//! (`config/mod.rs`), the environment variable names and the CONFIGURATION section of the man page
//! cannot drift apart; a test checks that the man page lists every row.

/// How a key's value is parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// One of a fixed set of lowercase words.
    Enum(&'static [&'static str]),
    /// An unsigned integer in an inclusive range.
    Int(u64, u64),
    /// A positive decimal number (an amount of money).
    Decimal,
    /// git's booleans: true/yes/on/1, false/no/off/0, or a key without a value (true).
    Bool,
    /// Free text.
    Text,
    /// A filesystem path; `~/` is expanded.
    Path,
}

/// One review option's config key.
#[derive(Debug, Clone, Copy)]
pub struct Key {
    /// The part after `debate.`, camelCase as users write it.
    pub name: &'static str,
    /// The long flag that sets the same value.
    pub flag: &'static str,
    pub kind: Kind,
    /// Shown in the man page; `-` when there is no default.
    pub default: &'static str,
    pub doc: &'static str,
    /// Names a program, its arguments or a place we write to, or decides what we delete:
    /// honoured only from layers the user controls, never from a committed `.gitdebate` (a cloned
    /// repository must not choose what we execute, overwrite or remove).
    pub user_only: bool,
}

pub const TARGETS: &[&str] = &["auto", "code", "proposal", "mixed"];
pub const MODES: &[&str] = &["auto", "manual"];
pub const INTENSITIES: &[&str] = &["quick", "standard", "extensive"];
pub const EFFORTS: &[&str] = &["low", "medium", "high", "max"];
pub const FORMATS: &[&str] = &["text", "markdown", "json", "sarif", "rdjson", "github"];
pub const FAIL_ON: &[&str] = &["p1", "p2", "p3", "never"];
pub const WORKSPACES: &[&str] = &["export", "worktree"];
pub const REVIEWER_TOOLS: &[&str] = &["default", "none"];
pub const CHUNKING: &[&str] = &["auto", "always", "never"];

/// Every review option. Order is the order of the man page.
pub const KEYS: &[Key] = &[
    Key {
        name: "target",
        flag: "--target",
        kind: Kind::Enum(TARGETS),
        default: "auto",
        doc: "What kind of review: code, proposal, mixed or auto.",
        user_only: false,
    },
    Key {
        name: "scope",
        flag: "--scope",
        kind: Kind::Text,
        default: "-",
        doc: "Which change to review when none is given (uncommitted changes when unset).",
        user_only: false,
    },
    Key {
        name: "intensity",
        flag: "--intensity",
        kind: Kind::Enum(INTENSITIES),
        default: "standard",
        doc: "Preset for maxRounds, budgetMinutes and backendTimeoutSeconds.",
        user_only: false,
    },
    Key {
        name: "maxRounds",
        flag: "--max-rounds",
        kind: Kind::Int(1, 5),
        default: "3",
        doc: "Maximum critique rounds, 1..5.",
        user_only: false,
    },
    Key {
        name: "mode",
        flag: "--mode",
        kind: Kind::Enum(MODES),
        default: "auto",
        doc: "auto takes the judge's recommendation; manual asks on the terminal.",
        user_only: false,
    },
    Key {
        name: "budgetMinutes",
        flag: "--budget-minutes",
        kind: Kind::Int(1, 24 * 60),
        default: "20",
        doc: "Wall-clock budget of a session, in minutes.",
        user_only: false,
    },
    Key {
        name: "budgetTokens",
        flag: "--budget-tokens",
        kind: Kind::Int(1, 1 << 40),
        default: "-",
        doc: "Stop before a round once this many tokens were used (all backends; 4 chars per token where a CLI reports none).",
        user_only: false,
    },
    Key {
        name: "budgetUsd",
        flag: "--budget-usd",
        kind: Kind::Decimal,
        default: "-",
        doc: "Stop before a round once the reported cost reaches this many US dollars.",
        user_only: false,
    },
    Key {
        name: "backendTimeoutSeconds",
        flag: "--backend-timeout-seconds",
        kind: Kind::Int(1, 24 * 3600),
        default: "600",
        doc: "Timeout of one model call, in seconds.",
        user_only: false,
    },
    Key {
        name: "backendIdleSeconds",
        flag: "--backend-idle-seconds",
        kind: Kind::Int(1, 24 * 3600),
        default: "300",
        doc: "Kill a model call that prints nothing for this long, in seconds.",
        user_only: false,
    },
    Key {
        name: "skipMaterializeOpposite",
        flag: "--skip-materialize-opposite",
        kind: Kind::Bool,
        default: "false",
        doc: "On decision B, do not have the author write the reviewer's version.",
        user_only: false,
    },
    Key {
        name: "stateDir",
        flag: "--state-dir",
        kind: Kind::Path,
        default: "<git common dir>/review-loop",
        doc: "Where sessions are stored.",
        user_only: true,
    },
    Key {
        name: "author",
        flag: "--author",
        kind: Kind::Text,
        default: "detected",
        doc: "Backend of the home model (judge, rebuttals, compromises).",
        user_only: false,
    },
    Key {
        name: "reviewer",
        flag: "--reviewer",
        kind: Kind::Text,
        default: "routed",
        doc: "Backend of the opposite model that critiques.",
        user_only: false,
    },
    Key {
        name: "normalizer",
        flag: "--normalizer",
        kind: Kind::Text,
        default: "the author",
        doc: "Backend that restates an answer the reader cannot structure (`reviewer`, `author` or a backend name).",
        user_only: false,
    },
    Key {
        name: "fallbackReviewer",
        flag: "--fallback-reviewer",
        kind: Kind::Text,
        default: "-",
        doc: "Backend that reviews when the reviewer never answers (e.g. openai:<model> on a local server); the report names it. Unset: such a review is not evaluated (exit 3).",
        user_only: false,
    },
    Key {
        name: "reviewerWorkspace",
        flag: "--reviewer-workspace",
        kind: Kind::Enum(WORKSPACES),
        default: "export",
        doc: "Where the models run: a redacted copy of the reviewed revision (export) or the work tree itself (worktree: their tools can read ignored and untracked files).",
        // A cloned repository must not widen what the models can read.
        user_only: true,
    },
    Key {
        name: "reviewerTools",
        flag: "--reviewer-tools",
        kind: Kind::Enum(REVIEWER_TOOLS),
        default: "default",
        doc: "none runs the reviewer with no tools at all (prompt only) where its CLI allows it (all but opencode).",
        user_only: false,
    },
    Key {
        name: "allowSameFamily",
        flag: "--allow-same-family",
        kind: Kind::Bool,
        default: "false",
        doc: "Allow author and reviewer of the same model family.",
        user_only: false,
    },
    Key {
        name: "effort",
        flag: "--effort",
        kind: Kind::Enum(EFFORTS),
        default: "-",
        doc: "Reasoning effort: low, medium, high or max.",
        user_only: false,
    },
    Key {
        name: "modelAuthor",
        flag: "--model-author",
        kind: Kind::Text,
        default: "-",
        doc: "Model of the author backend.",
        user_only: false,
    },
    Key {
        name: "modelReviewer",
        flag: "--model-reviewer",
        kind: Kind::Text,
        default: "-",
        doc: "Model of the reviewer backend.",
        user_only: false,
    },
    Key {
        name: "format",
        flag: "--format",
        kind: Kind::Enum(FORMATS),
        default: "text",
        doc: "Report format: text, markdown, json, sarif, rdjson (reviewdog) or github (annotations).",
        user_only: false,
    },
    Key {
        name: "output",
        flag: "--output",
        kind: Kind::Path,
        default: "-",
        doc: "Write the report to this file instead of standard output (replaced whole; a symbolic link, FIFO, device or folder is refused).",
        user_only: true,
    },
    Key {
        name: "failOn",
        flag: "--fail-on",
        kind: Kind::Enum(FAIL_ON),
        default: "never",
        doc: "Exit 1 when unresolved findings at or above this severity remain.",
        user_only: false,
    },
    Key {
        name: "maxArtifactBytes",
        flag: "--max-artifact-bytes",
        kind: Kind::Int(1024, 64 << 20),
        default: "262144",
        doc: "Size budget of the artifact sent to a model; what does not fit is listed.",
        user_only: false,
    },
    Key {
        name: "chunk",
        flag: "--chunk",
        kind: Kind::Enum(CHUNKING),
        default: "auto",
        doc: "Review a change in chunks at once: when it exceeds maxArtifactBytes (auto), always, or never (cut it to the budget).",
        user_only: false,
    },
    Key {
        name: "concurrency",
        flag: "--concurrency",
        kind: Kind::Int(1, 16),
        default: "3",
        doc: "Most model calls in flight at once (chunks, the two halves of a mixed document).",
        user_only: false,
    },
    Key {
        name: "maxChunks",
        flag: "--max-chunks",
        kind: Kind::Int(1, 1000),
        default: "16",
        doc: "Most chunks one change is cut into; files past them are listed as not reviewed.",
        user_only: false,
    },
    Key {
        name: "contextLines",
        flag: "--context-lines",
        kind: Kind::Int(0, 1000),
        default: "3",
        doc: "Lines of context around each change.",
        user_only: false,
    },
    Key {
        name: "keepSessions",
        flag: "sessions --prune --keep",
        kind: Kind::Int(0, 1_000_000),
        default: "1000",
        doc: "Sessions kept after each run that makes one (the oldest go first; 0: no limit). The hook's also meet debate.hook.keepSessions (default 100).",
        // A cloned repository must not decide what of the user's history we delete.
        user_only: true,
    },
    Key {
        name: "keepDays",
        flag: "sessions --prune --older-than",
        kind: Kind::Int(0, 365_000),
        default: "90",
        doc: "Sessions older than this many days are removed after each run that makes one (0: no limit). The hook's also meet debate.hook.keepDays (default 30).",
        user_only: true,
    },
    Key {
        name: "incremental",
        flag: "--incremental",
        kind: Kind::Bool,
        default: "false",
        doc: "Review base: scopes only where they changed since the last finished review of the same scope, carrying its open findings (as --since last).",
        user_only: false,
    },
    Key {
        name: "dryRun",
        flag: "--dry-run",
        kind: Kind::Bool,
        default: "false",
        doc: "Build and store the artifact, call no model.",
        user_only: false,
    },
];

/// Last words of a variable name that decide where data or credentials go (`debate.openai.baseUrl`,
/// a future `debate.<backend>.headers`, a proxy): a cloned repository must not point our requests,
/// and the API key they carry, at its own server.
const DESTINATION_SUFFIXES: &[&str] = &[
    "url", "uri", "endpoint", "host", "header", "headers", "proxy", "apikey", "token",
];

/// Keys whose value is a backend name (`exec:<command>`, `openai:<model>` or an agent CLI).
pub const BACKEND_VALUED: &[&str] = &[
    "author",
    "reviewer",
    "normalizer",
    "fallbackreviewer",
    "panel.audience",
    "panel.reporter",
    "panel.assessor",
    "panel.verifier",
];

/// The `[debate "panel"]` section (seed 002's chaired panel): key, what it sets. The role keys
/// name backends, so a committed `.gitdebate` may not make them `exec:`/`openai:` (see
/// [`BACKEND_VALUED`]).
pub const PANEL_KEYS: &[(&str, &str)] = &[
    ("audience", "who asks the audience's questions and gives its conclusion (--audience; default: a family other than the chair's)"),
    ("reporter", "who keeps running notes and writes summary.md and blog-post.md (--reporter; same default)"),
    ("assessor", "who grades the run after the reporter, in assessor-report.md (--assessor; same default)"),
    ("verifier", "a model that also judges the sources the tool cannot check, such as URLs (--verifier; default none)"),
    ("budgetMinutes", "the panel's soft time budget in minutes, decimals allowed (default 30; --budget-minutes wins)"),
];

/// Backend prefixes that run a program we do not know (`exec:`, `acp:`) or send the change to a
/// server with the user's API key (`openai:`): never chosen by a committed `.gitdebate`.
pub const UNTRUSTED_BACKEND_PREFIXES: &[&str] = &["exec:", "openai:", "acp:"];

/// Variables (after `debate.`) that name programs, arguments, templates, servers or credentials,
/// for any backend subsection: `debate.<backend>.command`, `debate.<backend>.args`,
/// `debate.exec.*`, `debate.templatesDir`, `debate.openai.baseUrl`. They are never read from a
/// committed `.gitdebate`.
pub fn is_user_only(full_key: &str) -> bool {
    let Some(rest) = full_key.strip_prefix("debate.") else {
        return false;
    };
    if let Some(key) = KEYS.iter().find(|k| k.name.eq_ignore_ascii_case(rest)) {
        return key.user_only;
    }
    let lower = rest.to_ascii_lowercase();
    let var = lower.rsplit('.').next().unwrap_or(&lower);
    lower == "templatesdir"
        // `debate.hook.keepSessions`: how much of the user's history is deleted.
        || var == "keepsessions"
        || var == "keepdays"
        || lower.starts_with("exec.")
        || lower.ends_with(".command")
        || lower.ends_with(".acpcommand")
        || lower.ends_with(".args")
        // `debate.<backend>.transport` chooses the program run (an ACP adapter, `gemini --acp`).
        || lower.ends_with(".transport")
        || lower.starts_with("acp.")
        || lower.ends_with(".templatesdir")
        || DESTINATION_SUFFIXES.iter().any(|s| var.ends_with(s))
}

/// Whether a `.gitdebate` value of `key` may stand. Besides [`is_user_only`] keys, a shared file
/// may not name an `exec:`/`openai:` backend, nor a scope that reads a local file: `scope =
/// file:.env` would send a gitignored secret along with the review. Scopes made of git's own
/// objects (uncommitted, staged, commit:, base:, range:) only choose which change is reviewed.
pub fn repo_may_set(full_key: &str, value: &str) -> bool {
    if is_user_only(full_key) {
        return false;
    }
    let Some(rest) = full_key.strip_prefix("debate.") else {
        return true;
    };
    let rest = rest.to_ascii_lowercase();
    let value = value.trim();
    if BACKEND_VALUED.contains(&rest.as_str()) {
        return !UNTRUSTED_BACKEND_PREFIXES
            .iter()
            .any(|p| value.len() >= p.len() && value[..p.len()].eq_ignore_ascii_case(p));
    }
    if rest == "scope" {
        let lower = value.to_ascii_lowercase();
        return ["uncommitted", "staged"].contains(&lower.as_str())
            || ["commit:", "base:", "range:"]
                .iter()
                .any(|p| lower.starts_with(p));
    }
    true
}

/// `maxRounds` -> `GIT_DEBATE_MAX_ROUNDS`.
pub fn env_name(name: &str) -> String {
    let mut out = String::from("GIT_DEBATE_");
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}

/// The CONFIGURATION, FILES, ENVIRONMENT and EXIT STATUS sections of `--help` and the man page,
/// generated from [`KEYS`] so the manual lists exactly the keys the parser knows.
pub fn manual_sections() -> String {
    let mut s = String::from("CONFIGURATION:\n");
    s.push_str(
        "  Every option has a git config key. Precedence, lowest first: built-in defaults < \
system config < global config < the repository's committed .gitdebate file (git-config syntax) < \
.git/config < git -c < GIT_DEBATE_* environment < flags. Keys that name programs, arguments or \
paths we write to or what we delete (marked *) are never read from .gitdebate; neither are \
servers, headers or credentials (debate.openai.baseUrl, any *Url or *Headers key), exec:, acp: \
and openai: backends, nor a file: scope.\n\n",
    );
    for k in KEYS {
        let star = if k.user_only { "*" } else { "" };
        s.push_str(&format!(
            "  debate.{}{star} (default: {}; {}; {})\n      {}\n",
            k.name,
            k.default,
            k.flag,
            env_name(k.name),
            k.doc
        ));
    }
    s.push_str(
        "\nBACKEND KEYS:\n  \
debate.<backend>.model  the model of that backend (claude, codex, gemini, qwen, copilot, opencode, kiro)\n  \
debate.<backend>.effort<Level>  replaces the --effort table's model, e.g. debate.claude.effortHigh\n  \
debate.<backend>.family  its model family, for routing (anthropic, openai, google, qwen, ...)\n  \
debate.<backend>.command*  a non-default path of its program\n  \
debate.<backend>.args*  extra flags, split like shell words (no shell runs them)\n  \
debate.<backend>.transport*  cli (default) or acp: speak the Agent Client Protocol to it (kiro: acp only)\n  \
debate.<backend>.acpCommand*  the program of its ACP mode (claude-agent-acp, codex-acp, ...)\n  \
debate.acp.family*, debate.acp.model*  family and model of acp:<command> backends\n  \
debate.exec.family*  the family of exec:<command> backends (default unknown)\n  \
debate.openai.baseUrl  server of openai:<model> (else OPENAI_BASE_URL, else api.openai.com)\n",
    );
    s.push_str(
        "\nHOOK KEYS:\n  \
debate.hook.strict  block the commit when no model answers (default false)\n  \
debate.hook.keepSessions*  the hook's sessions kept (default 100; 0: no limit)\n  \
debate.hook.keepDays*  the hook's sessions older than this many days are removed (default 30)\n  \
A hook session whose tree is staged in a work tree is kept, and so is its cached verdict.\n",
    );
    s.push_str("\nPANEL KEYS:\n");
    for (k, doc) in PANEL_KEYS {
        s.push_str(&format!("  debate.panel.{k}  {doc}\n"));
    }
    s.push_str(
        "\nTOPIC KEYS:\n  \
debate.topic.budgetMinutes  wall-clock budget of a topic debate, verdict included, in minutes \
(fractions allowed; default 60; --budget-minutes); the verdict's share (one call, at most a \
quarter) is kept back from the turns\n",
    );
    s.push_str(
        "\nFILES:\n  <git common dir>/review-loop/<id>/  one folder per session (artifact.md, \
metadata.json, ...); shared by linked worktrees; never staged.\n  \
$XDG_STATE_HOME/debate/<workspace>/review-loop/  the same outside a git repository.\n  \
.gitdebate  committed settings at the repository root, in git-config syntax.\n  \
<git common dir>/review-loop/sessions-index  one line per session, for listing and pruning; \
rebuilt from the folders when missing or wrong.\n  \
$XDG_CACHE_HOME/git-debate/versions  each CLI's version, asked once per installed binary.\n  \
~/.claude/projects, ~/.codex/sessions, ~/.gemini/tmp, ~/.qwen/projects, ~/.copilot/session-state  \
read (never written) for the launching agent's last message (--last-message).\n",
    );
    s.push_str(
        "\nENVIRONMENT:\n  GIT_DEBATE_<KEY>  any key above, e.g. GIT_DEBATE_MAX_ROUNDS=2.\n  \
GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT  set by `git -c key=value debate`; honoured.\n  \
GIT_DIR, GIT_WORK_TREE  select the repository as for git.\n  \
GIT_DEBATE_LAUNCHER  the agent that launched us (claude, codex, ...), or none: overrides detection\n  \
CLAUDE_CONFIG_DIR, CODEX_HOME, COPILOT_HOME  where those agents keep transcripts, if moved\n  \
OPENAI_API_KEY, OPENAI_BASE_URL  used by openai:<model>\n  \
GIT_DEBATE_ACP_TRACE  a file that gets every JSON-RPC line of each ACP conversation (it holds the prompt)\n",
    );
    s.push_str(
        "\nEXAMPLES:\n  \
git debate                                  review your uncommitted work\n  \
git debate --scope commit:HEAD              review the last commit\n  \
git debate --scope base:main --fail-on p1   a pre-merge gate: exit 1 on an unresolved P1\n  \
git debate --format sarif --scope base:main > review.sarif   for code scanning\n  \
git debate --mode manual design.md          review a design document, choosing A-E yourself\n  \
git debate --last-message                   review the launching agent's last answer\n  \
git debate hook install                     a second opinion before every commit\n  \
git debate backends                         which models would review, and why\n  \
echo 'Is this safe?' | git debate ask --backend codex   one question to one backend\n  \
git debate resume last --max-rounds 5       continue an unfinished review\n",
    );
    s.push_str(
        "\nEXIT STATUS:\n  0  done; nothing at or above --fail-on (also: nothing to review, --dry-run)\n  \
1  the gate failed: unresolved findings at or above --fail-on\n  \
2  usage or bad input (unknown rev, malformed scope, bad config value, ...)\n  \
3  not evaluated: the reviewer never answered, or a chunk's files were never reviewed\n  \
4  other runtime error\n  \
130  interrupted\n",
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_names_are_screaming_snake() {
        assert_eq!(env_name("maxRounds"), "GIT_DEBATE_MAX_ROUNDS");
        assert_eq!(env_name("target"), "GIT_DEBATE_TARGET");
        assert_eq!(
            env_name("backendTimeoutSeconds"),
            "GIT_DEBATE_BACKEND_TIMEOUT_SECONDS"
        );
    }

    #[test]
    fn program_keys_are_user_only() {
        for k in [
            "debate.claude.command",
            "debate.codex.args",
            "debate.exec.family",
            "debate.stateDir",
            "debate.templatesDir",
            "debate.output",
            "debate.openai.baseUrl",
            "debate.openai.headers",
            "debate.gemini.endpoint",
            "debate.openai.apiKey",
            "debate.proxy",
            "debate.keepSessions",
            "debate.keepDays",
            "debate.hook.keepSessions",
            "debate.hook.keepDays",
            "debate.gemini.transport",
            "debate.Claude.Transport",
            "debate.claude.acpCommand",
            "debate.acp.family",
            "debate.acp.model",
        ] {
            assert!(is_user_only(k), "{k}");
        }
        for k in ["debate.maxRounds", "debate.claude.model", "debate.target"] {
            assert!(!is_user_only(k), "{k}");
        }
    }

    #[test]
    fn a_shared_file_may_choose_the_change_but_not_programs_servers_or_files() {
        for (k, v) in [
            ("debate.reviewer", "openai:gpt-4o"),
            ("debate.reviewer", " OpenAI:gpt-4o"),
            ("debate.author", "exec:./x"),
            ("debate.normalizer", "exec:x"),
            ("debate.reviewer", "acp:./evil-agent"),
            ("debate.author", "ACP:x"),
            ("debate.fallbackReviewer", "openai:qwen"),
            ("debate.scope", "file:.env"),
            ("debate.scope", "File:secrets"),
            ("debate.openai.baseUrl", "http://example.invalid"),
        ] {
            assert!(!repo_may_set(k, v), "{k} = {v}");
        }
        for (k, v) in [
            ("debate.reviewer", "codex"),
            ("debate.reviewer", "kiro"),
            ("debate.scope", "base:main"),
            ("debate.scope", "staged"),
            ("debate.scope", "range:a..b"),
            ("debate.maxRounds", "2"),
        ] {
            assert!(repo_may_set(k, v), "{k} = {v}");
        }
    }
}
