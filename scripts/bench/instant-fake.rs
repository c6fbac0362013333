//! An agent CLI that answers at once, for the cost benchmarks (`scripts/seed-bench.sh`,
//! `scripts/cost-bench.sh`). Standalone: `rustc -O instant-fake.rs`, no crates.
//!
//! Installed as `codex` and `claude`. It reads the prompt from standard input (git-debate) or
//! the last argument (the seed script), answers in the output format of the CLI it poses as, and
//! appends one line to `$INSTANT_FAKE_DIR/calls.tsv`: its name, the CPU time it used itself (ns,
//! `CLOCK_PROCESS_CPUTIME_ID`, so the benchmark can take it out of the caller's), the prompt's
//! length and its first line of argv. `INSTANT_FAKE_MODE`: `p3` (default: the reviewer raises the
//! same P3 every round), `new-p2` (a new P2 every call: the loop never converges) or `approve`
//! (the reviewer approves: one call, as for a clean commit).

use std::io::{Read, Write};

#[repr(C)]
struct Timespec {
    sec: i64,
    nsec: i64,
}

extern "C" {
    fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
}

fn cpu_ns() -> u64 {
    let mut ts = Timespec { sec: 0, nsec: 0 };
    // CLOCK_PROCESS_CPUTIME_ID is 2 on Linux.
    let ok = unsafe { clock_gettime(2, &mut ts) } == 0;
    if ok {
        ts.sec as u64 * 1_000_000_000 + ts.nsec as u64
    } else {
        0
    }
}

fn main() {
    let argv: Vec<String> = std::env::args().collect();
    let name = argv[0].rsplit('/').next().unwrap_or("").to_string();
    if argv.get(1).map(String::as_str) == Some("--version") {
        println!("{name} 1.0.0 (instant fake)");
        return;
    }
    let seed = argv.get(1).map(String::as_str) == Some("review") || argv.iter().any(|a| a == "-p") && argv.len() == 3;
    let mut prompt = String::new();
    if argv.last().map(String::as_str) == Some("-") || !seed {
        let _ = std::io::stdin().read_to_string(&mut prompt);
    } else if let Some(p) = argv.last() {
        prompt = p.clone();
    }
    let dir = std::env::var("INSTANT_FAKE_DIR").unwrap_or_else(|_| "/tmp".into());
    let mode = std::env::var("INSTANT_FAKE_MODE").unwrap_or_else(|_| "p3".into());
    let calls = std::fs::read_to_string(format!("{dir}/calls.tsv"))
        .map(|s| s.lines().filter(|l| l.starts_with(&format!("{name}\t"))).count())
        .unwrap_or(0);
    if mode == "approve" && name == "codex" && !seed {
        // A clean change: the reviewer approves, and no other call is made.
        let text = "Looks right.\n\n```json\n{\"verdict\":\"approve\",\"findings\":[]}\n```\n";
        let mut so = std::io::stdout().lock();
        let _ = so.write_all(codex(text).as_bytes());
        let _ = so.flush();
        log(&dir, &name, prompt.len(), argv.get(1).cloned().unwrap_or_default());
        return;
    }
    let (sev, title) = if mode == "new-p2" {
        // Texts with no word in common, so each call's finding is a new one.
        const W: [&str; 8] = [
            "integer overflow wraps silently",
            "deadlock when locks nest",
            "memory leak per request",
            "SQL injection via name",
            "data race on counter",
            "panic on empty input",
            "truncation of long paths",
            "aliasing breaks borrowck",
        ];
        ("P2", W[calls % W.len()].to_string())
    } else {
        ("P3", "name the helper".to_string())
    };
    let out = if name == "codex" && seed {
        let head = if sev == "P2" { "## P2 - Should Fix" } else { "## P3 - Nice to Have" };
        format!("{head}\n- {title}: lib.rs:2\n\n## Recommended Decision\n- D\n")
    } else if name == "codex" {
        let text = format!(
            "Review.\n\n```json\n{{\"verdict\":\"revise\",\"findings\":[{{\"severity\":\"{sev}\",\
             \"title\":\"{title}\",\"file\":\"lib.rs\",\"start_line\":2,\"end_line\":2,\
             \"body\":\"{title}\",\"action\":\"check it\"}}]}}\n```\n"
        );
        codex(&text)
    } else if seed {
        "a - b\n".to_string()
    } else {
        claude(&author(&prompt))
    };
    let mut so = std::io::stdout().lock();
    let _ = so.write_all(out.as_bytes());
    let _ = so.flush();
    log(&dir, &name, prompt.len(), argv.get(1).cloned().unwrap_or_default());
}

/// One line of `calls.tsv`: who, its own CPU time, the prompt's length, its first argument.
fn log(dir: &str, name: &str, prompt: usize, first: String) {
    let line = format!("{name}\t{}\t{prompt}\t{first}\n", cpu_ns());
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(format!("{dir}/calls.tsv"))
    {
        let _ = f.write_all(line.as_bytes());
    }
}

/// The author's answer: rulings for every finding id the prompt names, else a one-line diff.
fn author(prompt: &str) -> String {
    if prompt.contains("classifications") {
        let mut ids: Vec<String> = Vec::new();
        let b = prompt.as_bytes();
        for i in 0..b.len().saturating_sub(2) {
            if b[i] == b'[' && b[i + 1] == b'F' {
                let digits: String = prompt[i + 2..].chars().take_while(|c| c.is_ascii_digit()).collect();
                if !digits.is_empty() && prompt[i + 2 + digits.len()..].starts_with(']') {
                    let id = format!("F{digits}");
                    if !ids.contains(&id) {
                        ids.push(id);
                    }
                }
            }
        }
        let list: Vec<String> = ids
            .iter()
            .map(|id| format!("{{\"id\":\"{id}\",\"verdict\":\"valid\",\"severity\":null,\"reason\":\"right\"}}"))
            .collect();
        return format!(
            "```json\n{{\"classifications\":[{}],\"added\":[],\"recommendation\":\"C\",\"reason\":\"r\"}}\n```",
            list.join(",")
        );
    }
    if prompt.contains("unified") {
        return "```diff\ndiff --git a/lib.rs b/lib.rs\n--- a/lib.rs\n+++ b/lib.rs\n@@ -1,3 +1,3 @@\n fn add(a: i32, b: i32) -> i32 {\n-    a - b\n+    a.wrapping_sub(b)\n }\n```\n".into();
    }
    "Summary: the reviewer raised one finding per round; all were addressed.".into()
}

fn esc(s: &str) -> String {
    let mut o = String::new();
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            c if (c as u32) < 0x20 => o.push_str(&format!("\\u{:04x}", c as u32)),
            c => o.push(c),
        }
    }
    o
}

fn codex(text: &str) -> String {
    format!(
        "{{\"type\":\"thread.started\",\"thread_id\":\"t\"}}\n{{\"type\":\"turn.started\"}}\n\
         {{\"type\":\"item.completed\",\"item\":{{\"id\":\"item_0\",\"type\":\"agent_message\",\"text\":\"{}\"}}}}\n\
         {{\"type\":\"turn.completed\",\"usage\":{{\"input_tokens\":100,\"cached_input_tokens\":0,\"output_tokens\":10}}}}\n",
        esc(text)
    )
}

fn claude(text: &str) -> String {
    format!(
        "{{\"type\":\"system\",\"subtype\":\"init\",\"model\":\"fake\"}}\n\
         {{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"duration_ms\":1,\"result\":\"{}\",\
         \"total_cost_usd\":0.001,\"usage\":{{\"input_tokens\":100,\"output_tokens\":10}}}}\n",
        esc(text)
    )
}
