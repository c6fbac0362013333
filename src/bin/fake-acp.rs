//! A fake ACP agent for tests, scripted per test (built only with the `test-fakes` feature).
//!
//! Tests install this binary under an ACP agent's program name (`kiro-cli`, `gemini`,
//! `claude-agent-acp`, any `acp:` command) in a temporary PATH directory. Each run reads
//! `$FAKE_AGENT_DIR/<name>.acp.json`, one scenario or a list (the n-th run takes the n-th; the last
//! repeats), speaks JSON-RPC 2.0 over stdio like the recorded agents (`tests/fixtures/acp/`), logs
//! every line both ways to `<name>.acp.jsonl` and one summary line per run to
//! `<name>.acp-calls.jsonl` (argv, cwd, the prompt text, the settings it was given, how each of
//! its own requests was answered).
//!
//! Scenario fields (all optional): `answer` (default "ACP answer"), `chunks` (how many
//! `agent_message_chunk`s carry it, default 3), `session` (merged into the `session/new` result;
//! default: a `mode` option with `read-only`, a `model` option `fake-model-a`/`fake-model-b`, a
//! `thought_level` option low/medium/high), `report_model` (true: the prompt result's
//! `_meta.quota.model_usage` names the current model; a string: names that one), `usage`
//! (the prompt result's `usage`), `qwen_usage` (usage on the last chunk's `_meta`, as qwen does),
//! `echo` (false: `set_config_option` answers `{}` instead of the options), `garbage` (lines
//! printed before the first answer), `quit` (exit after the garbage, answering nothing), `flood` (that many `tool_call_update` notifications before
//! the answer), `permission` (`{kind, title}`: ask `session/request_permission` mid-prompt),
//! `write_request` (ask `fs/write_text_file` mid-prompt), `error` (`{method, code, message}`: answer
//! that method with an error), `hang` (after the prompt arrives, sleep for ever; with a child
//! `sleep` whose pid goes to `<name>.sleeper.pid`, its own to `<name>.pid`), `exit` (`{code, stderr}`: after the first
//! chunk, print `stderr` and exit), `stop_reason`, `stdout_after` (a line printed after the prompt
//! result).
#![allow(clippy::print_stdout, clippy::print_stderr)] // a tool of its own: its output is the point
#![deny(unsafe_code)]

use std::io::{BufRead as _, Write as _};
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

struct Agent {
    dir: PathBuf,
    name: String,
    scenario: Value,
    out: std::io::Stdout,
    lines: std::io::Lines<std::io::StdinLock<'static>>,
    record: Value,
    config: Value,
}

fn main() {
    let argv: Vec<String> = std::env::args().collect();
    let name = Path::new(&argv[0])
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if argv.get(1).map(String::as_str) == Some("--version") {
        println!("{name} 1.2.3 (fake acp)");
        return;
    }
    let dir = PathBuf::from(std::env::var_os("FAKE_AGENT_DIR").expect("FAKE_AGENT_DIR is set"));
    let scenario = scenario(&dir, &name);
    let mut config = json!({
        "configOptions": [
            {"id": "mode", "name": "Mode", "category": "mode", "type": "select",
             "currentValue": "default",
             "options": [{"value": "default", "name": "Default"}, {"value": "read-only", "name": "Read Only"}]},
            {"id": "model", "name": "Model", "category": "model", "type": "select",
             "currentValue": "fake-model-a",
             "options": [{"value": "fake-model-a", "name": "A"}, {"value": "fake-model-b", "name": "B"}]},
            {"id": "effort", "name": "Effort", "category": "thought_level", "type": "select",
             "currentValue": "medium",
             "options": [{"value": "low", "name": "Low"}, {"value": "medium", "name": "Medium"}, {"value": "high", "name": "High"}]}
        ]
    });
    if let Some(extra) = scenario.get("session").and_then(Value::as_object) {
        for (k, v) in extra {
            config[k] = v.clone();
        }
    }
    let mut agent = Agent {
        record: json!({"argv": argv[1..], "cwd": std::env::current_dir().unwrap(), "set": [], "answers": []}),
        dir,
        name,
        scenario,
        out: std::io::stdout(),
        lines: std::io::stdin().lock().lines(),
        config,
    };
    for g in agent.list("garbage") {
        agent.raw(g.as_str().unwrap_or(""));
    }
    if agent.scenario["quit"] == json!(true) {
        agent.save();
        return;
    }
    while let Some(msg) = agent.read() {
        let (Some(id), Some(method)) = (msg.get("id").cloned(), msg["method"].as_str()) else {
            continue;
        };
        let method = method.to_string();
        if agent.scenario["error"]["method"].as_str() == Some(method.as_str()) {
            let e = &agent.scenario["error"];
            let err =
                json!({"code": e["code"].as_i64().unwrap_or(-32603), "message": e["message"]});
            agent.send(json!({"jsonrpc": "2.0", "id": id, "error": err}));
            continue;
        }
        let params = msg["params"].clone();
        let result = match method.as_str() {
            "initialize" => json!({
                "protocolVersion": 1,
                "agentInfo": {"name": agent.name, "version": "1.2.3"},
                "agentCapabilities": {"loadSession": false}
            }),
            "session/new" => {
                agent.record["session_cwd"] = params["cwd"].clone();
                let mut r = agent.config.clone();
                r["sessionId"] = json!("fake-session-1");
                r
            }
            "session/set_config_option" | "session/set_mode" | "session/set_model" => {
                agent.record["set"]
                    .as_array_mut()
                    .unwrap()
                    .push(json!({"method": method, "params": params}));
                agent.apply(&method, &params)
            }
            "session/prompt" => {
                agent.record["prompt"] = params["prompt"][0]["text"].clone();
                agent.prompt(&id);
                agent.save();
                continue;
            }
            _ => {
                agent.send(json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "method not found"}}));
                continue;
            }
        };
        agent.send(json!({"jsonrpc": "2.0", "id": id, "result": result}));
    }
    if agent.record.get("prompt").is_none() {
        // A run that never got its prompt (a refused setting ended it) is recorded too.
        agent.save();
    }
}

fn scenario(dir: &Path, name: &str) -> Value {
    let text = std::fs::read_to_string(dir.join(format!("{name}.acp.json"))).unwrap_or_default();
    let v: Value = serde_json::from_str(&text).unwrap_or(json!({}));
    let Some(list) = v.as_array() else { return v };
    let counter = dir.join(format!("{name}.acp-runs"));
    let n: usize = std::fs::read_to_string(&counter)
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0);
    std::fs::write(&counter, (n + 1).to_string()).unwrap();
    list.get(n.min(list.len().saturating_sub(1)))
        .cloned()
        .unwrap_or(json!({}))
}

impl Agent {
    fn list(&self, key: &str) -> Vec<Value> {
        self.scenario[key].as_array().cloned().unwrap_or_default()
    }

    fn log(&self, dir: &str, line: &str) {
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.dir.join(format!("{}.acp.jsonl", self.name)))
            .unwrap();
        writeln!(f, "{}", json!({"dir": dir, "line": line})).unwrap();
    }

    fn raw(&mut self, line: &str) {
        self.log("out", line);
        // A reader that went away (the call ended) is not our problem.
        let _ = writeln!(self.out, "{line}");
        let _ = self.out.flush();
    }

    fn send(&mut self, v: Value) {
        self.raw(&v.to_string());
    }

    fn read(&mut self) -> Option<Value> {
        loop {
            let line = self.lines.next()?.ok()?;
            self.log("in", &line);
            if let Ok(v) = serde_json::from_str::<Value>(&line) {
                return Some(v);
            }
        }
    }

    fn save(&self) {
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.dir.join(format!("{}.acp-calls.jsonl", self.name)))
            .unwrap();
        writeln!(f, "{}", self.record).unwrap();
    }

    /// A setting request: the option's new value, echoed like opencode and codex-acp do.
    fn apply(&mut self, method: &str, params: &Value) -> Value {
        let (id, value) = match method {
            "session/set_config_option" => (params["configId"].clone(), params["value"].clone()),
            "session/set_mode" => (json!("mode"), params["modeId"].clone()),
            _ => (json!("model"), params["modelId"].clone()),
        };
        if let Some(opts) = self.config["configOptions"].as_array_mut() {
            for o in opts.iter_mut().filter(|o| o["id"] == id) {
                o["currentValue"] = value.clone();
            }
        }
        if method == "session/set_model" {
            self.config["models"]["currentModelId"] = value;
        }
        if method != "session/set_config_option" || self.scenario["echo"] == json!(false) {
            return json!({});
        }
        json!({"configOptions": self.config["configOptions"]})
    }

    fn update(&mut self, update: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": "session/update",
            "params": {"sessionId": "fake-session-1", "update": update}}));
    }

    /// Asks the client something and waits for its answer, which goes into the record.
    fn ask(&mut self, id: &str, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        while let Some(msg) = self.read() {
            if msg["id"] == json!(id) {
                self.record["answers"].as_array_mut().unwrap().push(msg);
                return;
            }
        }
    }

    fn prompt(&mut self, id: &Value) {
        let s = self.scenario.clone();
        if s["hang"] == json!(true) {
            self.save();
            std::fs::write(
                self.dir.join(format!("{}.pid", self.name)),
                std::process::id().to_string(),
            )
            .unwrap();
            // Deliberately left running: the test checks that the process-group kill reaches it.
            #[allow(clippy::zombie_processes)]
            let child = std::process::Command::new("sleep")
                .arg("1000")
                .stdin(std::process::Stdio::null())
                .spawn()
                .unwrap();
            std::fs::write(
                self.dir.join(format!("{}.sleeper.pid", self.name)),
                child.id().to_string(),
            )
            .unwrap();
            loop {
                std::thread::sleep(std::time::Duration::from_secs(60));
            }
        }
        for i in 0..s["flood"].as_u64().unwrap_or(0) {
            self.update(json!({"sessionUpdate": "tool_call_update", "toolCallId": format!("t{i}"), "status": "in_progress"}));
        }
        if let Some(p) = s.get("permission") {
            self.ask(
                "perm-1",
                "session/request_permission",
                json!({
                    "sessionId": "fake-session-1",
                    "toolCall": {"toolCallId": "call-1", "title": p["title"], "kind": p["kind"]},
                    "options": [
                        {"optionId": "allow", "name": "Allow", "kind": "allow_once"},
                        {"optionId": "always", "name": "Always allow", "kind": "allow_always"},
                        {"optionId": "reject", "name": "Reject", "kind": "reject_once"}
                    ]
                }),
            );
        }
        if s["write_request"] == json!(true) {
            self.ask(
                "fs-1",
                "fs/write_text_file",
                json!({
                "sessionId": "fake-session-1", "path": "/tmp/evil.txt", "content": "x"}),
            );
        }
        let answer = s["answer"].as_str().unwrap_or("ACP answer").to_string();
        let n = s["chunks"].as_u64().unwrap_or(3).max(1) as usize;
        let chars: Vec<char> = answer.chars().collect();
        let size = chars.len().div_ceil(n).max(1);
        for (i, part) in chars.chunks(size).enumerate() {
            let text: String = part.iter().collect();
            self.update(json!({"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": text}}));
            if i == 0 {
                if let Some(e) = s.get("exit") {
                    eprintln!("{}", e["stderr"].as_str().unwrap_or(""));
                    self.save();
                    std::process::exit(e["code"].as_i64().unwrap_or(1) as i32);
                }
            }
        }
        if let Some(u) = s.get("qwen_usage") {
            self.update(json!({"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": ""}, "_meta": {"usage": u}}));
        }
        let mut result = json!({"stopReason": s["stop_reason"].as_str().unwrap_or("end_turn")});
        if let Some(u) = s.get("usage") {
            result["usage"] = u.clone();
        }
        let current = self.config["configOptions"]
            .as_array()
            .and_then(|a| a.iter().find(|o| o["category"] == "model"))
            .map(|o| o["currentValue"].clone())
            .or_else(|| self.config.pointer("/models/currentModelId").cloned());
        match &s["report_model"] {
            Value::Bool(true) => {
                result["_meta"] = json!({"quota": {"model_usage": [{"model": current}]}});
            }
            Value::String(m) => result["_meta"] = json!({"quota": {"model_usage": [{"model": m}]}}),
            _ => {}
        }
        self.send(json!({"jsonrpc": "2.0", "id": id, "result": result}));
        if let Some(l) = s["stdout_after"].as_str() {
            self.raw(l);
        }
    }
}
