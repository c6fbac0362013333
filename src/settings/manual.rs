//! The manual's sections that come from the key tables (CONFIGURATION, the backend, hook, topic
//! and panel keys, FILES, ENVIRONMENT, EXAMPLES, EXIT STATUS): `--help` and the man page print
//! exactly the keys the parser knows, and a test checks the man page lists every row.

use crate::settings::keys::*;

/// The CONFIGURATION, FILES, ENVIRONMENT and EXIT STATUS sections of `--help` and the man page,
/// generated from [`KEYS`] so the manual lists exactly the keys the parser knows.
pub fn manual_sections() -> String {
    let mut s = String::from("CONFIGURATION:\n");
    s.push_str(
        "  Every option has a git config key. Precedence, lowest first: built-in defaults < \
system config < global config < the repository's committed .gitdebate file (git-config syntax) < \
.git/config < git -c < GIT_DEBATE_* environment < flags. Keys that name programs, arguments or \
paths we write to, what we delete, or whether the gate passes (marked *) are never read from \
.gitdebate; neither are \
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
    s.push_str(
        "\nREDACT KEYS:\n  \
debate.redact.rules*  a TOML file of your own token formats ([[rule]] with id, regex, optional \
keywords), redacted as [REDACTED:<id>] besides the built-in ones\n",
    );
    s.push_str(
        "\nINSTRUCTION KEYS:\n  \
debate.path:<glob>.instructions  review instructions for the files the glob matches, as \
[debate \"path:src/db/**\"] instructions = ...; sent like AGENTS.md (see readInstructions)\n",
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
.gitdebate-waivers  committed waivers ([[waiver]] tables: fingerprint, reason, by, at, \
expires), written by `git debate waive`, read from the reviewed version.\n  \
AGENTS.md, CLAUDE.md, .github/copilot-instructions.md, .github/instructions/*.instructions.md  \
the repository's review instructions, read from the reviewed version.\n  \
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
