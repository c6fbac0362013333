//! Opt-in: the real agents' ACP modes, driven through `git debate ask` with
//! `debate.<cli>.transport = acp` against the fake model server of the harness (no network, no
//! account).
//!
//! Skipped unless `GIT_DEBATE_REAL_CLIS=1` and `GIT_DEBATE_HARNESS` names a harness directory
//! with `fake_llm.py` and, in `node_modules/.bin`, the CLIs plus the two ACP adapters
//! (`npm install @agentclientprotocol/claude-agent-acp @zed-industries/codex-acp` there).
//! `GIT_DEBATE_REAL_CLIS_ONLY=gemini,qwen` limits the agents; `GIT_DEBATE_ACP_RECORD=DIR` writes
//! each conversation to `DIR/<cli>.jsonl` (how `tests/fixtures/acp/` was recorded). Each agent
//! answers once, with the model we set confirmed where it can be, and fails once with a 401,
//! which must come back as `not-authenticated`.

use std::time::Instant;

use crate::common::TestEnv;
use crate::real_clis::{ask_real, harness_for, server, setup, ANSWER};

#[test]
fn the_real_agents_answer_over_acp() {
    let Some((harness, clis)) =
        harness_for(&["claude", "codex", "gemini", "qwen", "copilot", "opencode"])
    else {
        return;
    };
    let record = std::env::var("GIT_DEBATE_ACP_RECORD").ok();
    let mut failures = Vec::new();
    for cli in clis {
        for fail in [None, Some("401")] {
            let env = TestEnv::with_repo();
            let srv = server(&harness, &env.root, fail);
            let mut vars = setup(&env, cli, &srv.url);
            env.git(&["config", &format!("debate.{cli}.transport"), "acp"]);
            if cli == "qwen" {
                // qwen lists it as `$runtime|openai|qwen3-coder-plus(openai)`.
                env.git(&["config", "debate.qwen.model", "qwen3-coder-plus"]);
            }
            if let Some(dir) = &record {
                let suffix = fail.map_or(String::new(), |f| format!("-{f}"));
                vars.push((
                    "GIT_DEBATE_ACP_TRACE".into(),
                    format!("{dir}/{cli}{suffix}.jsonl"),
                ));
            }
            let started = Instant::now();
            let (code, answer, stderr) = ask_real(&env, &harness, cli, &vars);
            let took = started.elapsed();
            // The model we set, as the agent confirmed it (copilot's ACP server has no model
            // setting; claude's answers under the alias's model, checked by the note).
            let confirmed = match cli {
                "codex" => answer["model"] == "gpt-5.5",
                "gemini" => answer["model"] == "gemini-2.5-pro",
                "opencode" => answer["model"] == "fakellm/fake-model",
                "qwen" => answer["model"]
                    .as_str()
                    .is_some_and(|m| m.contains("qwen3-coder-plus")),
                "claude" => answer["notes"]
                    .to_string()
                    .contains("set to \\\"sonnet\\\""),
                // No model setting over ACP: the model asked for is not recorded as the one
                // that answered.
                "copilot" => answer["model"].is_null() && answer["transport"] == "acp",
                _ => true,
            };
            let ok = match fail {
                None => {
                    code == 0
                        && answer["text"] == ANSWER
                        && answer["cli_version"].is_string()
                        && confirmed
                }
                // opencode's ACP error carries the provider's words only ("Internal error:
                // fake_llm simulated 401", data {errorName: APIError}), not the status its CLI
                // mode reports: without auth wording it reads as the provider failing.
                Some(_) if cli == "opencode" => {
                    code == 3 && stderr.contains("opencode failed (server-error)")
                }
                Some(_) => {
                    code == 3 && stderr.contains(&format!("{cli} failed (not-authenticated)"))
                }
            };
            eprintln!(
                "{cli} {fail:?}: exit {code} in {took:.1?}: model {} notes {} {}",
                answer["model"],
                answer["notes"],
                stderr.trim()
            );
            if !ok {
                failures.push(format!(
                    "{cli} {fail:?}: exit {code}, answer {answer}, stderr {stderr}"
                ));
            }
            assert!(
                !stderr.contains("changed the repository"),
                "{cli}: {stderr}"
            );
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// A topic duel against the real agents: claude proposes on its CLI and each challenger runs over
/// ACP where a debate prefers it (codex through codex-acp, gemini, qwen, opencode) and on its CLI
/// where it does not (copilot); the transport and the model that answered are recorded.
#[test]
fn the_real_agents_debate_over_acp_where_it_is_verified() {
    let Some((harness, clis)) = harness_for(&["codex", "gemini", "qwen", "opencode", "copilot"])
    else {
        return;
    };
    let mut failures = Vec::new();
    for cli in clis {
        let env = TestEnv::with_repo();
        let srv = server(&harness, &env.root, None);
        let mut vars = setup(&env, "claude", &srv.url);
        vars.extend(setup(&env, cli, &srv.url));
        if cli == "qwen" {
            env.git(&["config", "debate.qwen.model", "qwen3-coder-plus"]);
        }
        let started = Instant::now();
        let (code, s, stderr) = topic_real(&env, &harness, cli, &vars);
        let ex = &s["exchanges"];
        let (transport, model) = (&ex[1]["transport"], &ex[1]["model"]);
        eprintln!(
            "{cli}: exit {code} in {:.1?}: proposer {} {}, challenger {transport} {model}",
            started.elapsed(),
            ex[0]["transport"],
            ex[0]["model"]
        );
        let want_acp = cli != "copilot";
        let model_ok = match cli {
            "codex" => model == "gpt-5.5",
            "gemini" => model == "gemini-2.5-pro",
            "opencode" => model == "fakellm/fake-model",
            "qwen" => model
                .as_str()
                .is_some_and(|m| m.contains("qwen3-coder-plus")),
            _ => true,
        };
        let ok = code == 0
            && ex[0]["transport"] == "cli"
            && *transport == if want_acp { "acp" } else { "cli" }
            && model_ok;
        if !ok {
            failures.push(format!("{cli}: exit {code}, {s}, {stderr}"));
        }
        assert!(
            !stderr.contains("changed the repository"),
            "{cli}: {stderr}"
        );
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

fn topic_real(
    env: &TestEnv,
    harness: &std::path::Path,
    challenger: &str,
    vars: &[(String, String)],
) -> (i32, serde_json::Value, String) {
    let mut cmd = env.cmd_in(&env.repo);
    let path = format!(
        "{}:{}",
        harness.join("node_modules/.bin").display(),
        env.path()
    );
    std::fs::create_dir_all(env.home.join("tmp")).unwrap();
    cmd.env("PATH", path)
        .env("TMPDIR", env.home.join("tmp"))
        .env("TERM", "dumb")
        .env("NO_COLOR", "1")
        .args([
            "topic",
            "Review this change: should add() saturate?",
            "--proposer",
            "claude",
            "--challenger",
            challenger,
            "--judge",
            "claude",
            "--rounds",
            "1",
            "--allow-same-family",
            "--backend-timeout-seconds",
            "90",
            "--format",
            "json",
        ]);
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    (
        out.status.code().unwrap_or(-1),
        serde_json::from_str(&stdout).unwrap_or(serde_json::Value::Null),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
