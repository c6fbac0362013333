//! A fake agent CLI for tests, scripted per test (built only with the `test-fakes` feature).
//!
//! Tests install this binary under the names of the real CLIs (`claude`, `codex`, ...) in a
//! temporary PATH directory. Each run reads `$FAKE_AGENT_DIR/<name>.json`, a list of steps (the
//! n-th run of `<name>` takes step n; the last repeats), records what it received (argv, prompt,
//! cwd, environment) as one line of `$FAKE_AGENT_DIR/<name>.calls.jsonl`, and answers in the output
//! format of the CLI it poses as, with the envelopes recorded from the real CLIs. Step fields (all
//! optional): `answer`, `model`, `input_tokens`, `output_tokens`, `error: {status, message}`,
//! `stdout`/`stderr` (raw, replacing the formatted output), `exit`, `delay_ms`,
//! `delay_per_kib_ms` (more per KiB of prompt: a model's time grows with its input), `hang` (sleep
//! forever), `sleeper` (also start a child that sleeps, to prove the group is killed), `detached`
//! (also start, in a session of its own as `setsid` would, a child that sleeps holding our stdout
//! and stderr open: no group kill reaches it, and its pipes never close by themselves), `huge`
//! (bytes of filler on stdout), `touch` (write this file in the cwd: a "read-only" violation),
//! `exec` (run this argv and print its stdout: to be a parent process of git-debate), `trickle`
//! (`{lines, every_ms, stream}`: print these lines one at a time, `every_ms` apart, on `stdout`
//! (default) or `stderr` before answering: a long streamed answer, or gemini's retry reports;
//! `count` repeats a stream event line instead of `lines`; `needs_env` (`{VAR: text}`) prints
//! them only when each VAR contains its text, and is silent for as long otherwise, as codex
//! prints its tracing lines only when `RUST_LOG` asks for them), `ignore_term` (with `hang`: survive
//! SIGTERM, writing `<name>.term` when one comes), `format` (`raw` or a CLI name; default: the
//! name it runs as), `read` (paths to read from its cwd and report in the answer, with the cwd),
//! `rendezvous` (`{tag, wait_ms}`: wait for another call with the same tag, answer ` [met]` or
//! ` [alone]`: proves two calls overlapped), `when` (`[{contains, ...fields}]`: the
//! first entry whose `contains` text is in the prompt adds its fields to the step), `structured`
//! (the object a model gives
//! when the CLI was run with its schema flag: claude's `structured_output`, qwen's
//! `structured_result`, codex's final message), `signal` (`SEGV`, `KILL` or `ABRT`: after its
//! output, die by that signal, as a crash would), `no_schema_flag` (answer like an older CLI that
//! does not know `--json-schema`/`--output-schema`: a usage error). Given `--output-schema FILE`,
//! it records the file's content as `schema_file` (the file exists only during the call).
#![allow(clippy::print_stdout, clippy::print_stderr)] // a tool of its own: its output is the point
#![deny(unsafe_code)]

use std::io::{Read as _, Write as _};
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{json, Value};

fn main() {
    let argv: Vec<String> = std::env::args().collect();
    if argv.get(1).map(String::as_str) == Some("--setsid") {
        // `--setsid PROGRAM ARGS...`: PROGRAM in a session of its own, as `setsid` starts it
        // (what `detached` leaves behind). Not a group leader, so the call cannot fail.
        rustix::process::setsid().expect("setsid");
        let err = Command::new(&argv[2]).args(&argv[3..]).exec();
        panic!("cannot run {}: {err}", argv[2]);
    }
    let name = Path::new(&argv[0])
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if argv.get(1).map(String::as_str) == Some("--version") {
        // Counted, so a test can see whether the version was asked again.
        if let Some(dir) = std::env::var_os("FAKE_AGENT_DIR") {
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(PathBuf::from(dir).join(format!("{name}.version-calls")))
                .expect("version calls file");
            writeln!(f, "--version").expect("write");
        }
        println!("{name} 9.8.7 (fake)");
        return;
    }
    let dir = PathBuf::from(std::env::var_os("FAKE_AGENT_DIR").expect("FAKE_AGENT_DIR is set"));
    let mut prompt = Vec::new();
    std::io::stdin().read_to_end(&mut prompt).expect("stdin");
    let prompt = String::from_utf8_lossy(&prompt).into_owned();

    // Concurrent runs (a mixed review) take turns, so each gets its own step and record line.
    let lock = std::fs::File::create(dir.join(format!("{name}.lock"))).expect("lock file");
    lock.lock().expect("flock");
    let n = next_count(&dir, &name);
    record(&dir, &name, &argv, &prompt);
    drop(lock);
    let mut step = load_step(&dir, &name, n);
    when_prompt(&mut step, &prompt);
    read_files(&mut step);
    rendezvous(&mut step, &dir);
    let get = |k: &str| step.get(k);
    let schema_flag = argv
        .iter()
        .position(|a| a == "--json-schema" || a == "--output-schema");
    if let (Some(i), Some(true)) = (schema_flag, get("no_schema_flag").and_then(Value::as_bool)) {
        // What an older claude says (recorded: tests/fixtures/claude/schema-flag-rejected).
        eprintln!("error: unknown option '{}'", argv[i]);
        std::process::exit(1);
    }

    // A model's time grows with its input: `delay_per_kib_ms` more per KiB of prompt.
    if let Some(ms) = get("delay_per_kib_ms").and_then(Value::as_u64) {
        std::thread::sleep(Duration::from_millis(ms * prompt.len() as u64 / 1024));
    }
    if let Some(ms) = get("delay_ms").and_then(Value::as_u64) {
        std::thread::sleep(Duration::from_millis(ms));
    }
    if let Some(file) = get("touch").and_then(Value::as_str) {
        std::fs::write(file, "written by a read-only reviewer\n").expect("touch");
    }
    leave_behind(&step, &dir, &name);
    if let Some(t) = get("trickle") {
        trickle(t);
    }
    if get("hang").and_then(Value::as_bool) == Some(true) {
        hang(&step, &dir, &name);
    }
    let mut out = std::io::stdout().lock();
    if let Some(bytes) = get("huge").and_then(Value::as_u64) {
        let line = "x".repeat(1023) + "\n";
        for _ in 0..bytes / 1024 {
            if out.write_all(line.as_bytes()).is_err() {
                std::process::exit(141);
            }
        }
        std::process::exit(0);
    }
    if let Some(args) = get("exec").and_then(Value::as_array) {
        let args: Vec<&str> = args.iter().filter_map(Value::as_str).collect();
        let o = Command::new(args[0])
            .args(&args[1..])
            .stdin(Stdio::null())
            .output()
            .expect("exec");
        out.write_all(&o.stdout).unwrap();
        std::io::stderr().write_all(&o.stderr).unwrap();
        std::process::exit(o.status.code().unwrap_or(1));
    }

    let format = get("format")
        .and_then(Value::as_str)
        .unwrap_or(&name)
        .to_string();
    let structured = schema_flag.and(get("structured")).cloned();
    let (stdout, stderr, code) = render(&format, &step, structured.as_ref());
    // Run with the streaming flags, answer in lines as the real CLIs do.
    let stdout = if argv.iter().any(|a| a == "stream-json") {
        streamed(&format, stdout)
    } else {
        stdout
    };
    let stdout = get("stdout")
        .and_then(Value::as_str)
        .map_or(stdout, str::to_string);
    let stderr = get("stderr")
        .and_then(Value::as_str)
        .map_or(stderr, str::to_string);
    let code = get("exit")
        .and_then(Value::as_i64)
        .map_or(code, |c| c as i32);
    out.write_all(stdout.as_bytes()).unwrap();
    out.flush().unwrap();
    std::io::stderr().write_all(stderr.as_bytes()).unwrap();
    if let Some(sig) = get("signal").and_then(Value::as_str) {
        die_by(sig);
    }
    std::process::exit(code);
}

/// The `sleeper` and `detached` steps: children left running, to prove the group kill and the
/// sweep reach them. Each one's pid goes to `<name>.<step>.pid`.
fn leave_behind(step: &Value, dir: &Path, name: &str) {
    let on = |k: &str| step.get(k).and_then(Value::as_bool) == Some(true);
    if on("sleeper") {
        // In our process group: the group kill must reach it.
        let mut cmd = Command::new("sleep");
        cmd.arg("600").stdin(Stdio::null());
        record_pid(cmd, &dir.join(format!("{name}.sleeper.pid")));
    }
    if on("detached") {
        // In a session of its own, holding our stdout and stderr: only the sweep reaches it.
        let mut cmd = Command::new(std::env::current_exe().expect("own path"));
        cmd.args(["--setsid", "sleep", "600"]).stdin(Stdio::null());
        record_pid(cmd, &dir.join(format!("{name}.detached.pid")));
    }
}

/// Starts `cmd`, deliberately never waited for, and writes its pid to `file`.
fn record_pid(mut cmd: Command, file: &Path) {
    #[allow(clippy::zombie_processes)]
    let child = cmd.spawn().expect("a child to leave behind");
    std::fs::write(file, child.id().to_string()).expect("pid file");
}

/// The `hang` step: writes `<name>.pid` and never answers (with `ignore_term`, not even to
/// SIGTERM).
fn hang(step: &Value, dir: &Path, name: &str) -> ! {
    let pid_file = dir.join(format!("{name}.pid"));
    if step.get("ignore_term").and_then(Value::as_bool) == Some(true) {
        ignore_term(&dir.join(format!("{name}.term")), &pid_file);
    }
    std::fs::write(pid_file, std::process::id().to_string()).expect("pid file");
    loop {
        std::thread::sleep(Duration::from_secs(60));
    }
}

/// Ends this process by signal `name` (`SEGV`, `KILL`, `ABRT`), as a crash or an outside kill
/// would, without leaving a core file in the test's folder.
fn die_by(name: &str) -> ! {
    use rustix::process::{Resource, Rlimit, Signal};
    let sig = match name {
        "SEGV" => Signal::SEGV,
        "KILL" => Signal::KILL,
        "ABRT" => Signal::ABORT,
        other => panic!("no such signal in the fake: {other}"),
    };
    let core = rustix::process::getrlimit(Resource::Core);
    let no_core = Rlimit {
        current: Some(0),
        maximum: core.maximum,
    };
    rustix::process::setrlimit(Resource::Core, no_core).expect("no core file");
    // Rust's own SIGSEGV handler (for stack overflows) takes the first one, finds no fault to
    // explain, restores the default action and returns: the next one is fatal.
    loop {
        rustix::process::kill_process(rustix::process::getpid(), sig).expect("kill");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// A `rendezvous` step (`{tag, wait_ms}`) proves two calls overlap without timing them: it
/// leaves `<tag>.<pid>` in the state folder, waits up to `wait_ms` (default 3000) for another
/// process's `<tag>.*`, and ends its answer with ` [met]` or ` [alone]` (and, when it met one,
/// leaves `<tag>.<pid>.met`).
fn rendezvous(step: &mut Value, dir: &Path) {
    let Some(r) = step.get("rendezvous").cloned() else {
        return;
    };
    let tag = r["tag"].as_str().unwrap_or("meet").to_string();
    let wait = Duration::from_millis(r["wait_ms"].as_u64().unwrap_or(3000));
    let mine = format!("{tag}.{}", std::process::id());
    std::fs::write(dir.join(&mine), "").expect("rendezvous file");
    let started = std::time::Instant::now();
    let met = loop {
        let other = std::fs::read_dir(dir)
            .expect("state dir")
            .flatten()
            .any(|e| {
                let n = e.file_name().to_string_lossy().into_owned();
                n.starts_with(&format!("{tag}.")) && n != mine && !n.ends_with(".met")
            });
        if other || started.elapsed() >= wait {
            break other;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    if met {
        std::fs::write(dir.join(format!("{mine}.met")), "").expect("met file");
    }
    let answer = step.get("answer").and_then(Value::as_str).unwrap_or("");
    let mark = if met { " [met]" } else { " [alone]" };
    step["answer"] = Value::String(format!("{answer}{mark}"));
}

/// A `read` step is a curious reviewer: it reads each path (relative to its cwd) as its tools
/// would and reports in its answer what it found, and where it ran.
fn read_files(step: &mut Value) {
    let Some(paths) = step.get("read").and_then(Value::as_array).cloned() else {
        return;
    };
    let mut report = format!(
        "\n\nCWD {}\n",
        std::env::current_dir().map_or("?".into(), |d| d.display().to_string())
    );
    for p in paths.iter().filter_map(Value::as_str) {
        let found = std::fs::read_to_string(p).unwrap_or_else(|e| format!("unreadable: {e}"));
        report.push_str(&format!("READ {p}: {found}\n"));
    }
    let answer = step.get("answer").and_then(Value::as_str).unwrap_or("");
    step["answer"] = Value::String(format!("{answer}{report}"));
}

/// Survives SIGTERM (as a CLI busy in a tool call might), and says when one came by writing
/// `marker`; never returns (SIGKILL ends it). A shell that traps the signal takes this process's
/// place (same pid), so no handler of ours is needed; it writes `pid_file` once the trap is set,
/// so a test that waits for it never signals too early.
fn ignore_term(marker: &Path, pid_file: &Path) -> ! {
    let script = r#"trap 'echo SIGTERM > "$1"' TERM; echo $$ > "$2"; while :; do sleep 0.02; done"#;
    let err = Command::new("sh")
        .args(["-c", script, "sh"])
        .arg(marker)
        .arg(pid_file)
        .exec();
    panic!("cannot run sh: {err}");
}

/// Prints `lines` (or `count` stream events) one by one, `every_ms` apart, flushing each (unless
/// `needs_env` says the environment does not ask for them).
fn trickle(t: &Value) {
    let every = Duration::from_millis(t.get("every_ms").and_then(Value::as_u64).unwrap_or(100));
    let lines: Vec<String> = match t.get("lines").and_then(Value::as_array) {
        Some(l) => l
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_string)
            .collect(),
        None => {
            let n = t.get("count").and_then(Value::as_u64).unwrap_or(5);
            let event = json!({"type":"stream_event","event":{"type":"ping"}}).to_string();
            vec![event; n as usize]
        }
    };
    let to_stderr = t.get("stream").and_then(Value::as_str) == Some("stderr");
    let wanted = t
        .get("needs_env")
        .and_then(Value::as_object)
        .is_none_or(|vars| {
            vars.iter().all(|(k, text)| {
                let text = text.as_str().unwrap_or_default();
                std::env::var(k).is_ok_and(|v| v.contains(text))
            })
        });
    // Unwanted, the same time passes in silence.
    for line in lines {
        if wanted && to_stderr {
            eprintln!("{line}");
        } else if wanted {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{line}");
            let _ = out.flush();
        }
        std::thread::sleep(every);
    }
}

/// `stdout` as the CLI prints it under `stream-json`: claude's result object as one line after an
/// init line, qwen's array as lines, gemini's object as init, one delta and a result event.
fn streamed(format: &str, stdout: String) -> String {
    let Ok(v) = serde_json::from_str::<Value>(&stdout) else {
        return stdout;
    };
    let init = json!({"type":"system","subtype":"init","model":"fake-model"});
    let lines = |v: &[Value]| v.iter().map(|v| format!("{v}\n")).collect::<String>();
    match (format, v) {
        ("claude", v) => lines(&[init, v]),
        ("qwen", Value::Array(items)) => lines(&items),
        ("gemini", v) if v.get("response").is_some() => {
            let model = v["stats"]["models"]
                .as_object()
                .and_then(|m| m.keys().next().cloned())
                .unwrap_or_default();
            let tokens = &v["stats"]["models"][&model]["tokens"];
            lines(&[
                json!({"type":"init","session_id":"s","model":"auto"}),
                json!({"type":"message","role":"assistant","content":v["response"],"delta":true}),
                json!({"type":"result","status":"success","stats":{"input_tokens":tokens["input"],
                    "output_tokens":tokens["candidates"],"cached":0,"models":{model:{"total_tokens":1}}}}),
            ])
        }
        (_, v) => format!("{v}\n"),
    }
}

/// The run number of `name` (0-based), kept in a counter file.
fn next_count(dir: &Path, name: &str) -> usize {
    let path = dir.join(format!("{name}.count"));
    let n = std::fs::read_to_string(&path)
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(0usize);
    std::fs::write(&path, (n + 1).to_string()).expect("counter");
    n
}

fn load_step(dir: &Path, name: &str, n: usize) -> Value {
    let path = dir.join(format!("{name}.json"));
    let script: Value = std::fs::read(&path)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_else(|| json!([{"answer": "FAKE-ANSWER"}]));
    let steps = script.as_array().cloned().unwrap_or_else(|| vec![script]);
    steps
        .get(n)
        .or(steps.last())
        .cloned()
        .unwrap_or_else(|| json!({}))
}

/// `when: [{contains, ...fields}]`: the first entry whose text the prompt contains lends the step
/// its fields (a reviewer that answers each chunk of a big change about that chunk's files).
fn when_prompt(step: &mut Value, prompt: &str) {
    let Some(cases) = step.get("when").and_then(Value::as_array).cloned() else {
        return;
    };
    let hit = cases.iter().find(|c| {
        c.get("contains")
            .and_then(Value::as_str)
            .is_some_and(|t| prompt.contains(t))
    });
    if let (Some(Value::Object(fields)), Some(obj)) = (hit, step.as_object_mut()) {
        for (k, v) in fields {
            obj.insert(k.clone(), v.clone());
        }
    }
}

fn record(dir: &Path, name: &str, argv: &[String], prompt: &str) {
    let env: serde_json::Map<String, Value> = std::env::vars()
        .map(|(k, v)| (k, Value::String(v)))
        .collect();
    let schema_file = argv
        .iter()
        .position(|a| a == "--output-schema")
        .and_then(|i| argv.get(i + 1))
        .and_then(|f| std::fs::read_to_string(f).ok());
    let line = json!({
        "argv": argv,
        "prompt": prompt,
        "cwd": std::env::current_dir().ok(),
        "env": env,
        "schema_file": schema_file,
    });
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join(format!("{name}.calls.jsonl")))
        .expect("record");
    f.write_all(format!("{line}\n").as_bytes()).expect("record");
}

/// stdout, stderr and exit code in the format of the CLI named `format`, shaped like the real
/// CLIs' recorded outputs (`tests/fixtures/<cli>/`).
fn render(format: &str, step: &Value, structured: Option<&Value>) -> (String, String, i32) {
    let compact = structured.map(Value::to_string);
    let answer = compact.as_deref().unwrap_or_else(|| {
        step.get("answer")
            .and_then(Value::as_str)
            .unwrap_or("FAKE-ANSWER")
    });
    let model = step
        .get("model")
        .and_then(Value::as_str)
        .unwrap_or("fake-model");
    let input = step
        .get("input_tokens")
        .and_then(Value::as_u64)
        .unwrap_or(100);
    let output = step
        .get("output_tokens")
        .and_then(Value::as_u64)
        .unwrap_or(10);
    let error = step.get("error").map(|e| {
        (
            e.get("status").and_then(Value::as_u64).unwrap_or(500),
            e.get("message")
                .and_then(Value::as_str)
                .unwrap_or("fake failure")
                .to_string(),
        )
    });
    let r = Reply {
        answer,
        model,
        input,
        output,
        structured,
    };
    match format {
        "claude" => claude(&r, error),
        "codex" => codex(&r, error),
        "gemini" => gemini(&r, error),
        "opencode" => opencode(&r, error),
        "copilot" => copilot(&r, error),
        "qwen" => qwen(&r, error),
        _ => match error {
            None => (format!("{answer}\n"), String::new(), 0),
            Some((status, msg)) => (String::new(), format!("error {status}: {msg}\n"), 1),
        },
    }
}

/// What a step answers with, as [`render`] reads it for the CLI-shaped outputs.
#[derive(Clone, Copy)]
struct Reply<'a> {
    answer: &'a str,
    model: &'a str,
    input: u64,
    output: u64,
    structured: Option<&'a Value>,
}

/// A step's failure, if it fails: the HTTP status and message the CLI reports.
type Failure = Option<(u64, String)>;

/// JSON lines, one value per line.
fn lines(v: &[Value]) -> String {
    v.iter().map(|v| format!("{v}\n")).collect::<String>()
}

/// Claude Code's `--output-format json` result.
fn claude(r: &Reply, error: Failure) -> (String, String, i32) {
    let Reply {
        answer,
        model,
        input,
        output,
        structured,
    } = *r;
    match error {
        None => {
            let mut v = json!({"type":"result","subtype":"success","is_error":false,"api_error_status":null,
                "duration_ms":5,"duration_api_ms":3,"result":answer,"total_cost_usd":0.001,
                "usage":{"input_tokens":input,"output_tokens":output,"cache_read_input_tokens":0},
                "modelUsage":{model:{"inputTokens":input,"outputTokens":output}}});
            if let Some(s) = structured {
                v["structured_output"] = s.clone();
            }
            (v.to_string(), String::new(), 0)
        }
        Some((status, msg)) => (
            json!({"type":"result","subtype":"success","is_error":true,"api_error_status":status,
                "result":format!("API Error: {status} {msg}")})
            .to_string(),
            String::new(),
            1,
        ),
    }
}

/// Codex's `exec --json` event lines.
fn codex(r: &Reply, error: Failure) -> (String, String, i32) {
    let Reply {
        answer,
        input,
        output,
        ..
    } = *r;
    match error {
        None => (
            lines(&[
                json!({"type":"thread.started","thread_id":"t"}),
                json!({"type":"turn.started"}),
                json!({"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":answer}}),
                json!({"type":"turn.completed","usage":{"input_tokens":input,"cached_input_tokens":0,"output_tokens":output}}),
            ]),
            String::new(),
            0,
        ),
        Some((status, msg)) => {
            let m = format!("unexpected status {status}: {msg}");
            (
                lines(&[
                    json!({"type":"thread.started","thread_id":"t"}),
                    json!({"type":"error","message":format!("Reconnecting... 1/1 ({m})")}),
                    json!({"type":"turn.failed","error":{"message":m}}),
                ]),
                String::new(),
                1,
            )
        }
    }
}

/// Gemini CLI's `--output-format json` document (its error on stderr).
fn gemini(r: &Reply, error: Failure) -> (String, String, i32) {
    let Reply {
        answer,
        model,
        input,
        output,
        ..
    } = *r;
    match error {
        None => (
            serde_json::to_string_pretty(&json!({"session_id":"s","response":answer,
                "stats":{"models":{model:{"api":{"totalRequests":1,"totalLatencyMs":3},
                "tokens":{"input":input,"prompt":input,"candidates":output,"cached":0},
                "roles":{"main":{"totalRequests":1}}}}}}))
            .unwrap()
                + "\n",
            String::new(),
            0,
        ),
        Some((status, msg)) => (
            String::new(),
            format!(
                "Error when talking to Gemini API\n    at fake (fake.js:1:1)\n{}\n",
                serde_json::to_string_pretty(&json!({"session_id":"s","error":{"type":"Error",
                    "message":json!({"error":{"code":status,"message":msg}}).to_string(),
                    "code":status}}))
                .unwrap()
            ),
            (status & 0xff) as i32,
        ),
    }
}

/// opencode's `run --format json` event lines.
fn opencode(r: &Reply, error: Failure) -> (String, String, i32) {
    let Reply {
        answer,
        input,
        output,
        ..
    } = *r;
    match error {
        None => (
            lines(&[
                json!({"type":"step_start","sessionID":"s","part":{"type":"step-start"}}),
                json!({"type":"text","sessionID":"s","part":{"type":"text","text":answer}}),
                json!({"type":"step_finish","sessionID":"s","part":{"type":"step-finish","reason":"stop",
                    "tokens":{"input":input,"output":output,"reasoning":0,"cache":{"write":0,"read":0}},"cost":0}}),
            ]),
            String::new(),
            0,
        ),
        Some((status, msg)) => (
            lines(&[
                json!({"type":"error","sessionID":"s","error":{"name":"APIError",
                "data":{"message":msg,"statusCode":status,"isRetryable":false}}}),
            ]),
            String::new(),
            1,
        ),
    }
}

/// Copilot CLI's JSON event lines.
fn copilot(r: &Reply, error: Failure) -> (String, String, i32) {
    let Reply { answer, model, .. } = *r;
    match error {
        None => (
            lines(&[
                json!({"type":"assistant.message","data":{"model":model,"content":answer,"toolRequests":[]}}),
                json!({"type":"result","sessionId":"s","exitCode":0,"usage":{"totalApiDurationMs":3}}),
            ]),
            String::new(),
            0,
        ),
        Some((status, msg)) => (
            lines(&[
                json!({"type":"session.error","data":{"errorType":"query","message":msg,"statusCode":status}}),
                json!({"type":"result","sessionId":"s","exitCode":1}),
            ]),
            String::new(),
            1,
        ),
    }
}

/// Qwen Code's JSON result list; it reports API failures as a successful result.
fn qwen(r: &Reply, error: Failure) -> (String, String, i32) {
    let Reply {
        answer,
        model,
        input,
        output,
        structured,
    } = *r;
    let (result, usage) = match &error {
        None => (
            answer.to_string(),
            json!({"input_tokens":input,"output_tokens":output}),
        ),
        // qwen reports API failures as a successful result, exit 0.
        Some((status, msg)) => (format!("[API Error: {status} {msg}]"), json!({})),
    };
    let mut v = json!([
        {"type":"system","subtype":"init","model":model},
        {"type":"result","subtype":"success","is_error":false,"result":result,"usage":usage,"duration_api_ms":3},
    ]);
    if let (Some(s), None) = (structured, &error) {
        v[1]["structured_result"] = s.clone();
    }
    (v.to_string(), String::new(), 0)
}
