//! opencode's sessions, asked of opencode itself.
//!
//! opencode keeps its sessions in a SQLite database (`~/.local/share/opencode/opencode.db`, with
//! a write-ahead log, beside account tokens), not in files a reader could follow. Its own
//! `opencode session list --format json` and `opencode export <id>` print them as JSON, and the
//! CLI is there whenever opencode launched us; so those are run (in the project's folder, with a
//! deadline, output bounded) rather than the database opened behind its back.

use std::path::PathBuf;
use std::time::Duration;

use serde_json::Value;

use crate::sys::runner::{Call, Ending, Invocation};
use crate::transcript::{Event, Format, Lookup};

/// How long one opencode command may take (it starts in a few seconds).
const DEADLINE: Duration = Duration::from_secs(60);

/// The newest opencode session of this project, exported, as events.
pub fn events(lookup: &Lookup) -> Result<(String, Vec<Event>), String> {
    let here = lookup.project.first().cloned().unwrap_or_default();
    let list = run(&["session", "list", "--format", "json"], &here)?;
    let sessions: Vec<Value> = serde_json::from_slice(&list).map_err(|_| {
        "`opencode session list --format json` did not print a JSON list".to_string()
    })?;
    let newest = sessions
        .iter()
        .filter(|s| {
            let dir = s["directory"].as_str().unwrap_or("");
            lookup.project.contains(&PathBuf::from(dir))
        })
        .max_by_key(|s| s["updated"].as_i64().unwrap_or(0))
        .ok_or_else(|| {
            format!(
                "no opencode session for this project ({}): `opencode session list` shows {} \
                 session(s), none started here",
                here.display(),
                sessions.len()
            )
        })?;
    let id = newest["id"].as_str().unwrap_or("");
    if id.is_empty() || id.starts_with('-') {
        return Err("`opencode session list` gave a session without a usable id".into());
    }
    let doc = run(&["export", id], &here)?;
    let parsed = Format::OpencodeExport.events(&String::from_utf8_lossy(&doc));
    if parsed.records == 0 {
        return Err(format!("`opencode export {id}` did not print a session"));
    }
    Ok((format!("opencode session {id}"), parsed.events))
}

/// opencode's standard output for `args`, or one line on why not.
fn run(args: &[&str], cwd: &std::path::Path) -> Result<Vec<u8>, String> {
    let shown = format!("opencode {}", args.join(" "));
    let done = Call::spawn(&Invocation {
        program: PathBuf::from("opencode"),
        args: args.iter().map(|a| a.to_string()).collect(),
        env: Vec::new(),
        env_remove: Vec::new(),
        cwd: Some(cwd.to_path_buf()),
        stdin: Vec::new(),
        timeout: DEADLINE,
        idle_timeout: DEADLINE,
        watch: None,
        heartbeat: None,
    })
    .and_then(Call::wait)
    .map_err(|e| format!("cannot run `{shown}` to read opencode's sessions: {e:#}"))?;
    match done.ending {
        Ending::Exited(s) if s.success() => Ok(done.stdout),
        Ending::Exited(s) => Err(format!(
            "`{shown}` failed ({s}): {}",
            String::from_utf8_lossy(&done.stderr)
                .lines()
                .last()
                .unwrap_or("")
        )),
        _ => Err(format!(
            "`{shown}` did not finish in {} s",
            DEADLINE.as_secs()
        )),
    }
}
