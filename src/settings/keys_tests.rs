//! Unit tests of the key table: environment names, what a committed `.gitdebate` may set.

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
        "debate.redact.rules",
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
        ("debate.reviewer", "codex, exec:./x"),
        ("debate.reviewers", "gemini,openai:qwen"),
        ("debate.fallbackReviewer", "gemini,acp:x"),
        ("debate.scope", "file:.env"),
        ("debate.scope", "File:secrets"),
        ("debate.openai.baseUrl", "http://example.invalid"),
        ("debate.instructions", "/etc/passwd"),
        ("debate.instructions", "~/.ssh/id_rsa"),
        ("debate.instructions", "../outside.md"),
    ] {
        assert!(!repo_may_set(k, v), "{k} = {v}");
    }
    for (k, v) in [
        ("debate.reviewer", "codex"),
        ("debate.reviewer", "kiro"),
        ("debate.reviewer", "codex,gemini"),
        ("debate.reviewers", "codex,gemini,3"),
        ("debate.scope", "base:main"),
        ("debate.scope", "staged"),
        ("debate.scope", "range:a..b"),
        ("debate.maxRounds", "2"),
        ("debate.instructions", "docs/review.md"),
        ("debate.readInstructions", "false"),
    ] {
        assert!(repo_may_set(k, v), "{k} = {v}");
    }
}
