//! Opt-in: the six real agent CLIs, driven through `git debate ask` against the fake model server
//! of the harness (no network, no account).
//!
//! Skipped unless `GIT_DEBATE_REAL_CLIS=1` and `GIT_DEBATE_HARNESS` names a harness directory
//! with `fake_llm.py` and the CLIs installed (`npm install` there puts them in
//! `node_modules/.bin`). Each CLI answers once and fails once with a 401, which must come back
//! as `not-authenticated` quickly (our retry bounds work on the real programs); and claude, codex
//! and qwen review a change with their structured-output flag, the server answering with the
//! schema's object as a real model would (a tool call for claude and qwen, the message for codex).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::TestEnv;

pub(crate) const ANSWER: &str = "FAKE-ANSWER: No, add() subtracts; it should return a + b.";

/// The harness and which of `clis` to run (`GIT_DEBATE_REAL_CLIS_ONLY=gemini,qwen` limits them);
/// `None`, with a line saying how to run it, when the opt-in variables are not set.
pub(crate) fn harness_for(clis: &[&'static str]) -> Option<(PathBuf, Vec<&'static str>)> {
    let Some(harness) = harness() else {
        eprintln!("skipped: set GIT_DEBATE_REAL_CLIS=1 and GIT_DEBATE_HARNESS=<harness dir>");
        return None;
    };
    let only = std::env::var("GIT_DEBATE_REAL_CLIS_ONLY").ok();
    let picked = clis
        .iter()
        .copied()
        .filter(|cli| {
            only.as_deref()
                .is_none_or(|o| o.split(',').any(|x| x == *cli))
        })
        .collect();
    Some((harness, picked))
}

pub(crate) fn harness() -> Option<PathBuf> {
    if std::env::var("GIT_DEBATE_REAL_CLIS").ok().as_deref() != Some("1") {
        return None;
    }
    let dir = PathBuf::from(std::env::var_os("GIT_DEBATE_HARNESS")?);
    (dir.join("fake_llm.py").is_file() && dir.join("node_modules/.bin").is_dir()).then_some(dir)
}

pub(crate) struct Server {
    child: Child,
    pub(crate) url: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub(crate) fn server(harness: &Path, dir: &Path, fail: Option<&str>) -> Server {
    let rules = serde_json::json!({"default": "FAKE-DEFAULT-REPLY", "rules": [
        {"match": "Review this change", "reply": ANSWER},
        {"match": "CHANGE UNDER REVIEW", "reply": STRUCTURED.to_string()},
    ]});
    serve_rules(harness, dir, fail, &rules)
}

/// The schema object the server gives a review prompt: one P1 at `lib.rs:2`.
const STRUCTURED: &str = r#"{"verdict":"revise","summary":"The sign is wrong.","findings":[{"severity":"P1","title":"add() subtracts its second argument","file":"lib.rs","start_line":2,"end_line":2,"body":"a - b where a + b is meant","action":"return a + b"}]}"#;

fn serve_rules(harness: &Path, dir: &Path, fail: Option<&str>, rules_json: &Value) -> Server {
    let rules = dir.join("rules.json");
    std::fs::write(&rules, rules_json.to_string()).unwrap();
    let port_file = dir.join("port");
    let _ = std::fs::remove_file(&port_file);
    let mut cmd = Command::new("python3");
    cmd.arg(harness.join("fake_llm.py"))
        .args(["--port", "0", "--port-file"])
        .arg(&port_file)
        .arg("--rules")
        .arg(&rules)
        .args(["--lifetime", "600", "--log"])
        // Its default log is `logs/requests.jsonl` under the current directory: our checkout.
        .arg(dir.join("requests.jsonl"))
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if let Some(f) = fail {
        cmd.args(["--fail", f]);
    }
    let child = cmd.spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    let port = loop {
        if let Some(p) = std::fs::read_to_string(&port_file)
            .ok()
            .filter(|s| !s.trim().is_empty())
        {
            break p.trim().to_string();
        }
        assert!(Instant::now() < deadline, "fake_llm.py did not start");
        std::thread::sleep(Duration::from_millis(50));
    };
    Server {
        child,
        url: format!("http://127.0.0.1:{port}"),
    }
}

/// The environment and git config that point `cli` at the fake server, as in REAL-CLIS.md.
pub(crate) fn setup(env: &TestEnv, cli: &str, url: &str) -> Vec<(String, String)> {
    let kv = |k: &str, v: &str| (k.to_string(), v.to_string());
    match cli {
        "claude" => {
            env.git(&["config", "debate.claude.model", "claude-sonnet-4-5"]);
            vec![kv("ANTHROPIC_BASE_URL", url), kv("ANTHROPIC_API_KEY", "x")]
        }
        "codex" => {
            env.git(&["config", "debate.codex.model", "gpt-5.5"]);
            let p = "model_providers.fakellm";
            env.git(&[
                "config",
                "debate.codex.args",
                &format!(
                    "-c model_provider=fakellm -c {p}.name=fake_llm -c {p}.base_url={url}/v1 \
                     -c {p}.wire_api=responses -c {p}.env_key=FAKE_LLM_API_KEY \
                     -c {p}.request_max_retries=1 -c {p}.stream_max_retries=1"
                ),
            ]);
            vec![kv("FAKE_LLM_API_KEY", "x")]
        }
        "gemini" => {
            let settings = env.home.join(".gemini/settings.json");
            std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
            std::fs::write(
                settings,
                r#"{"security":{"auth":{"selectedType":"gemini-api-key"}},"general":{"maxAttempts":1}}"#,
            )
            .unwrap();
            env.git(&["config", "debate.gemini.model", "gemini-2.5-pro"]);
            vec![kv("GOOGLE_GEMINI_BASE_URL", url), kv("GEMINI_API_KEY", "x")]
        }
        "opencode" => {
            env.git(&["config", "debate.opencode.model", "fakellm/fake-model"]);
            let config = format!(
                r#"{{"provider":{{"fakellm":{{"npm":"@ai-sdk/openai-compatible","options":{{"baseURL":"{url}/v1","apiKey":"x"}},"models":{{"fake-model":{{}}}}}}}},"model":"fakellm/fake-model","share":"disabled"}}"#
            );
            vec![kv("OPENCODE_CONFIG_CONTENT", &config)]
        }
        "copilot" => vec![
            kv("COPILOT_OFFLINE", "true"),
            kv("COPILOT_PROVIDER_BASE_URL", &format!("{url}/v1")),
            kv("COPILOT_PROVIDER_API_KEY", "x"),
            kv("COPILOT_MODEL", "gpt-5.5"),
        ],
        "qwen" => {
            env.git(&["config", "debate.qwen.args", "--auth-type openai"]);
            vec![
                kv("OPENAI_API_KEY", "x"),
                kv("OPENAI_BASE_URL", &format!("{url}/v1")),
                kv("OPENAI_MODEL", "qwen3-coder-plus"),
            ]
        }
        other => panic!("{other}"),
    }
}

pub(crate) fn ask_real(
    env: &TestEnv,
    harness: &Path,
    cli: &str,
    vars: &[(String, String)],
) -> (i32, Value, String) {
    let mut cmd = env.cmd_in(&env.repo);
    let path = format!(
        "{}:{}",
        harness.join("node_modules/.bin").display(),
        env.path()
    );
    cmd.env("PATH", path)
        .env("TMPDIR", env.home.join("tmp"))
        .env("TERM", "dumb")
        .env("NO_COLOR", "1")
        .args([
            "ask",
            "--format",
            "json",
            "--backend",
            cli,
            "--backend-timeout-seconds",
            "60",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    std::fs::create_dir_all(env.home.join("tmp")).unwrap();
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap();
    {
        use std::io::Write as _;
        let mut stdin = child.stdin.take().unwrap();
        stdin
            .write_all(b"Review this change: add() returns a - b. Is it right?\n")
            .unwrap();
    }
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (
        out.status.code().unwrap_or(-1),
        serde_json::from_str(&stdout).unwrap_or(Value::Null),
        stderr,
    )
}

#[test]
fn the_real_clis_answer_and_fail_as_recorded() {
    let Some((harness, clis)) =
        harness_for(&["claude", "codex", "gemini", "qwen", "copilot", "opencode"])
    else {
        return;
    };
    let mut failures = Vec::new();
    for cli in clis {
        for fail in [None, Some("401")] {
            let env = TestEnv::with_repo();
            let srv = server(&harness, &env.root, fail);
            let vars = setup(&env, cli, &srv.url);
            let started = Instant::now();
            let (code, answer, stderr) = ask_real(&env, &harness, cli, &vars);
            let took = started.elapsed();
            let ok = match fail {
                None => code == 0 && answer["text"] == ANSWER,
                Some(_) => {
                    code == 3 && stderr.contains(&format!("{cli} failed (not-authenticated)"))
                }
            };
            eprintln!(
                "{cli} {fail:?}: exit {code} in {took:.1?}: {}",
                stderr.trim()
            );
            if !ok {
                failures.push(format!(
                    "{cli} {fail:?}: exit {code}, answer {answer}, stderr {stderr}"
                ));
            }
            // Nothing a read-only reviewer should leave behind.
            assert!(
                !stderr.contains("changed the repository"),
                "{cli}: {stderr}"
            );
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn the_real_clis_give_the_schema_object_of_a_review() {
    let Some((harness, clis)) = harness_for(&["claude", "codex", "qwen"]) else {
        return;
    };
    let mut failures = Vec::new();
    for cli in clis {
        let env = TestEnv::with_repo();
        env.write("lib.rs", "fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n");
        env.commit_all("add");
        env.write("lib.rs", "fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n");
        let srv = server(&harness, &env.root, None);
        let vars = setup(&env, cli, &srv.url);
        // The author (judge) is the fake agent posing as gemini; the reviewer is the real CLI.
        env.fake(
            "gemini",
            serde_json::json!({"answer": "```json\n{\"classifications\": [], \"added\": [], \"recommendation\": \"D\", \"reason\": \"\"}\n```"}),
        );
        let mut cmd = env.cmd_in(&env.repo);
        let path = format!(
            "{}:{}",
            env.root.join("bin").display(),
            harness.join("node_modules/.bin").display()
        );
        std::fs::create_dir_all(env.home.join("tmp")).unwrap();
        cmd.env("PATH", format!("{path}:{}", env.path()))
            .env("TMPDIR", env.home.join("tmp"))
            .env("TERM", "dumb")
            .env("NO_COLOR", "1")
            .args([
                "--author",
                "gemini",
                "--reviewer",
                cli,
                "--max-rounds",
                "1",
                "--fail-on",
                "p1",
                "--format",
                "json",
                "--backend-timeout-seconds",
                "90",
            ])
            .stdin(Stdio::null());
        for (k, v) in &vars {
            cmd.env(k, v);
        }
        let out = cmd.output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let report: Value = serde_json::from_str(&stdout).unwrap_or(Value::Null);
        let dir = PathBuf::from(report["session_dir"].as_str().unwrap_or(""));
        let round: Value = std::fs::read(dir.join("round-1.json"))
            .ok()
            .and_then(|b| serde_json::from_slice(&b).ok())
            .unwrap_or(Value::Null);
        let f = &report["findings"][0];
        let ok = out.status.code() == Some(1)
            && f["source"] == "schema"
            && f["severity"] == "P1"
            && f["location"]["check"] == "verified"
            && round["calls"][0]["output"]["mode"] == "schema";
        eprintln!(
            "{cli} schema review: exit {:?}, finding {f}",
            out.status.code()
        );
        if !ok {
            failures.push(format!(
                "{cli}: exit {:?}\n{stdout}\n{stderr}\n{round}",
                out.status.code()
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The real claude and codex as reviewers whose model reads `.env` (gitignored), an untracked
/// file and `../outside.txt` with the CLI's own tools (`tests/fixtures/real-clis/tool_llm.py`
/// scripts the tool calls): nothing of those files reaches the model, because the CLI runs in the
/// export of the reviewed revision.
#[test]
fn the_real_reviewers_read_no_ignored_untracked_or_outside_file() {
    let Some(harness) = harness() else {
        eprintln!("skipped: set GIT_DEBATE_REAL_CLIS=1 and GIT_DEBATE_HARNESS=<harness dir>");
        return;
    };
    let secrets = ["envsecret-1111", "untracked-2222", "outside-3333"];
    let mut failures = Vec::new();
    for cli in ["claude", "codex"] {
        let env = TestEnv::with_repo();
        env.write(".gitignore", ".env\n");
        env.write("lib.rs", "fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n");
        env.commit_all("add");
        env.write("lib.rs", "fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n");
        env.git(&["add", "lib.rs"]);
        env.write(".env", &format!("TOKEN={}\n", secrets[0]));
        env.write("notes.txt", secrets[1]);
        std::fs::write(env.root.join("outside.txt"), secrets[2]).unwrap();
        // claude's Read takes absolute paths: the ones a model would guess from the repository.
        let reads: Vec<String> = match cli {
            "claude" => vec![
                env.repo.join(".env").display().to_string(),
                env.repo.join("notes.txt").display().to_string(),
                env.root.join("outside.txt").display().to_string(),
            ],
            _ => vec![".env".into(), "notes.txt".into(), "../outside.txt".into()],
        };
        let rules = serde_json::json!({"default": "Looks fine.", "rules": [
            {"match": "a - b", "reads": reads, "reply": "READ-RESULTS"},
        ]});
        std::fs::write(env.root.join("rules.json"), rules.to_string()).unwrap();
        let port_file = env.root.join("port");
        let tool_llm = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/real-clis/tool_llm.py"
        );
        let child = Command::new("python3")
            .arg(tool_llm)
            .arg(&harness)
            .args(["--port", "0", "--port-file"])
            .arg(&port_file)
            .arg("--rules")
            .arg(env.root.join("rules.json"))
            .args(["--lifetime", "600", "--log"])
            .arg(env.root.join("requests.jsonl"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::fs::read_to_string(&port_file).map_or(true, |p| p.trim().is_empty()) {
            assert!(Instant::now() < deadline, "tool_llm.py did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        let port = std::fs::read_to_string(&port_file).unwrap();
        let srv = Server {
            child,
            url: format!("http://127.0.0.1:{}", port.trim()),
        };
        let vars = setup(&env, cli, &srv.url);
        env.fake("gemini", serde_json::json!({"answer": "ok"}));
        let mut cmd = env.cmd_in(&env.repo);
        let path = format!(
            "{}:{}",
            env.root.join("bin").display(),
            harness.join("node_modules/.bin").display()
        );
        std::fs::create_dir_all(env.home.join("tmp")).unwrap();
        cmd.env("PATH", format!("{path}:{}", env.path()))
            .env("TMPDIR", env.home.join("tmp"))
            .env("TERM", "dumb")
            .env("NO_COLOR", "1")
            .args(["--scope", "staged", "--author", "gemini", "--reviewer", cli])
            .args(["--max-rounds", "1", "--backend-timeout-seconds", "90"])
            .stdin(Stdio::null());
        for (k, v) in &vars {
            cmd.env(k, v);
        }
        let out = cmd.output().unwrap();
        let log = std::fs::read_to_string(env.root.join("requests.jsonl")).unwrap_or_default();
        let asked = log.matches("\"reads\": {").count();
        let leaked: Vec<&str> = secrets
            .iter()
            .copied()
            .filter(|s| log.contains(s))
            .collect();
        eprintln!("{cli}: {asked} reads asked, leaked {leaked:?}");
        if asked == 0 || !leaked.is_empty() {
            failures.push(format!(
                "{cli}: {asked} reads, leaked {leaked:?}\n{}\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        drop(srv);
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The real codex and gemini as two reviewers of one change against the harness's fake model
/// server: both raise the same P1, which the report merges with both votes ("codex + gemini").
#[test]
fn the_real_codex_and_gemini_review_as_two_reviewers() {
    let Some((harness, clis)) = harness_for(&["codex", "gemini"]) else {
        return;
    };
    if clis.len() < 2 {
        eprintln!("skipped: two reviewers need both codex and gemini");
        return;
    }
    let env = TestEnv::with_repo();
    env.write("lib.rs", "fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n");
    env.commit_all("add");
    env.write("lib.rs", "fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n");
    let srv = server(&harness, &env.root, None);
    let mut vars = setup(&env, "codex", &srv.url);
    vars.extend(setup(&env, "gemini", &srv.url));
    // The author (judge) is the fake agent posing as claude.
    env.fake(
        "claude",
        serde_json::json!({"answer": "```json\n{\"classifications\": [], \"added\": [], \"recommendation\": \"D\", \"reason\": \"\"}\n```"}),
    );
    let mut cmd = env.cmd_in(&env.repo);
    let path = format!(
        "{}:{}",
        env.root.join("bin").display(),
        harness.join("node_modules/.bin").display()
    );
    std::fs::create_dir_all(env.home.join("tmp")).unwrap();
    cmd.env("PATH", format!("{path}:{}", env.path()))
        .env("TMPDIR", env.home.join("tmp"))
        .env("TERM", "dumb")
        .env("NO_COLOR", "1")
        .args([
            "--author",
            "claude",
            "--reviewer",
            "codex",
            "--reviewer",
            "gemini",
        ])
        .args(["--max-rounds", "1", "--fail-on", "p1", "--format", "json"])
        .args(["--backend-timeout-seconds", "90"])
        .stdin(Stdio::null());
    for (k, v) in &vars {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let report: Value = serde_json::from_str(&stdout).unwrap_or(Value::Null);
    let f = &report["findings"][0];
    eprintln!("two reviewers: exit {:?}, finding {f}", out.status.code());
    assert!(
        out.status.code() == Some(1)
            && f["severity"] == "P1"
            && f["votes"]["by"] == "codex + gemini"
            && report["reviewers"]["seats"].as_array().map(Vec::len) == Some(2),
        "exit {:?}\n{stdout}\n{stderr}",
        out.status.code()
    );
}
