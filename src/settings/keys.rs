//! The table of `debate.*` git config keys: one row per review option.
//!
//! Keeping every key, its default and its one-line doc in one table means the parser
//! (`settings/mod.rs`), the environment variable names and the CONFIGURATION section of the man
//! page cannot drift apart; a test checks that the man page lists every row. A key that takes one
//! of a fixed set of words takes the spellings of its vocabulary in [`crate::choices`], the same
//! ones its flag and the session records use.

use crate::choices::{
    Chunking, Consensus, Effort, FailOn, Format, Intensity, Mode, TargetSetting, Tools, Workspace,
};

/// How a key's value is parsed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// One of a fixed set of lowercase words: a vocabulary's `NAMES` in
    /// [`crate::choices`].
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
    /// Names a program, its arguments or a place we write to, decides what we delete, or
    /// decides whether the gate passes: honoured only from layers the user controls, never from a
    /// committed `.gitdebate` (a cloned repository must not choose what we execute, overwrite or
    /// remove, nor weaken the gate it is checked by).
    pub user_only: bool,
}

/// Every review option. Order is the order of the man page.
pub const KEYS: &[Key] = &[
    Key {
        name: "target",
        flag: "--target",
        kind: Kind::Enum(TargetSetting::NAMES),
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
        kind: Kind::Enum(Intensity::NAMES),
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
        kind: Kind::Enum(Mode::NAMES),
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
        doc: "Backend of the opposite model that critiques; a comma list (`codex,gemini`) is a failover chain: when one never answers (not installed, not logged in, rate-limited, timed out), the next reviews.",
        user_only: false,
    },
    Key {
        name: "reviewers",
        flag: "--reviewers",
        kind: Kind::Text,
        default: "-",
        doc: "Several reviewers at once, one verdict: backends (`codex,gemini`), a number N (the N best installed families other than the author's, in routing order), or both (`codex,3`). `--reviewer` given on the command line replaces it.",
        user_only: false,
    },
    Key {
        name: "consensus",
        flag: "--consensus",
        kind: Kind::Enum(Consensus::NAMES),
        default: "any",
        doc: "With several reviewers, which findings the gate counts: any (one reviewer is enough), majority (more than half of those that answered) or all.",
        user_only: false,
    },
    Key {
        name: "normalizer",
        flag: "--normalizer",
        kind: Kind::Text,
        default: "reviewer",
        doc: "Who restates an answer the reader cannot read whole (`reviewer`: the reviewer restates its own answer; `author` or a backend name), checked against the answer both ways.",
        user_only: false,
    },
    Key {
        name: "fallbackReviewer",
        flag: "--fallback-reviewer",
        kind: Kind::Text,
        default: "-",
        doc: "Backend that reviews when the reviewer never answers (e.g. openai:<model> on a local server); a comma list is tried in order. The report names who answered and why the others did not. Unset: such a review is not evaluated (exit 3).",
        user_only: false,
    },
    Key {
        name: "reviewerWorkspace",
        flag: "--reviewer-workspace",
        kind: Kind::Enum(Workspace::NAMES),
        default: "export",
        doc: "Where the models run: a redacted copy of the reviewed revision (export) or the work tree itself (worktree: their tools can read ignored and untracked files).",
        // A cloned repository must not widen what the models can read.
        user_only: true,
    },
    Key {
        name: "reviewerTools",
        flag: "--reviewer-tools",
        kind: Kind::Enum(Tools::NAMES),
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
        kind: Kind::Enum(Effort::NAMES),
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
        kind: Kind::Enum(Format::NAMES),
        default: "text",
        doc: "Report format: text, markdown, json, sarif, rdjson (reviewdog), github (annotations) or codequality (GitLab).",
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
        kind: Kind::Enum(FailOn::NAMES),
        default: "never",
        doc: "Exit 1 when unresolved findings at or above this severity remain.",
        user_only: false,
    },
    Key {
        name: "gate.trustJudge",
        flag: "--trust-judge",
        kind: Kind::Bool,
        default: "false",
        doc: "Let the author's judge decide whether a finding it disputes counts for failOn; by default the reviewer's word decides (a finding counts at its level until the reviewer withdraws it).",
        // A cloned repository never chooses whether the gate passes.
        user_only: true,
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
        kind: Kind::Enum(Chunking::NAMES),
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
        doc: "Most chunks one change is cut into; files past them are listed as not evaluated.",
        user_only: false,
    },
    Key {
        name: "allowPartial",
        flag: "--allow-partial",
        kind: Kind::Bool,
        default: "false",
        doc: "Exit 0 although some files were not evaluated (past the chunks, or their chunk failed).",
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
        name: "readInstructions",
        flag: "--no-instructions",
        kind: Kind::Bool,
        default: "true",
        doc: "Send the repository's review instructions (AGENTS.md, CLAUDE.md, .github/copilot-instructions.md, .github/instructions/*.instructions.md, debate.instructions, [debate \"path:<glob>\"] instructions) with the change, as untrusted material; false leaves them out.",
        user_only: false,
    },
    Key {
        name: "instructions",
        flag: "config only",
        kind: Kind::Text,
        default: "-",
        doc: "A file of review instructions sent for every change: a path in the repository, read from the reviewed version; from your own config also an absolute or ~/ path.",
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
    "reviewers",
    "normalizer",
    "fallbackreviewer",
    "panel.audience",
    "panel.reporter",
    "panel.assessor",
    "panel.verifier",
];

/// The `[debate "panel"]` section (the chaired panel): key, what it sets. The role keys
/// name backends, so a committed `.gitdebate` may not make them `exec:`/`openai:` (see
/// [`BACKEND_VALUED`]).
pub const PANEL_KEYS: &[(&str, &str)] = &[
    ("audience", "who asks the audience's questions and gives its conclusion (--audience; default: an installed CLI no debater uses)"),
    ("reporter", "who keeps running notes and writes summary.md and blog-post.md (--reporter; same default)"),
    ("assessor", "who grades the run after the reporter, in assessor-report.md (--assessor; same default)"),
    ("verifier", "a model that also judges the sources the tool cannot check, such as URLs (--verifier; default none)"),
    ("budgetMinutes", "the panel's soft time budget in minutes, decimals allowed (default 30; --budget-minutes wins)"),
    ("minRounds", "rebuttal rounds before the chair may close (default 3; --min-rounds wins)"),
    ("maxRounds", "rebuttal rounds at most (default 8; --max-rounds wins)"),
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
        // `debate.redact.rules`: which local file we read.
        || lower == "redact.rules"
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
        // A list (`codex,gemini`: a chain, or several reviewers) is judged piece by piece: a
        // program hidden after a comma is still a program.
        return !value.split(',').map(str::trim).any(|piece| {
            UNTRUSTED_BACKEND_PREFIXES
                .iter()
                .any(|p| piece.len() >= p.len() && piece[..p.len()].eq_ignore_ascii_case(p))
        });
    }
    // A committed file names a file of the repository, never one of the machine's.
    if rest == "instructions" {
        return in_repository(value);
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

/// A path inside the repository: relative, made of plain names (no `..`, no `~`).
pub fn in_repository(path: &str) -> bool {
    let path = path.trim();
    !path.is_empty()
        && !path.starts_with('~')
        && std::path::Path::new(path).components().all(|c| {
            matches!(
                c,
                std::path::Component::Normal(_) | std::path::Component::CurDir
            )
        })
}

/// `maxRounds` -> `GIT_DEBATE_MAX_ROUNDS`, `gate.trustJudge` -> `GIT_DEBATE_GATE_TRUST_JUDGE`.
pub fn env_name(name: &str) -> String {
    let mut out = String::from("GIT_DEBATE_");
    for (i, c) in name.chars().enumerate() {
        if c == '.' {
            out.push('_');
            continue;
        }
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_uppercase());
    }
    out
}

#[cfg(test)]
#[path = "keys_tests.rs"]
mod tests;
