//! The recorded runs of the real CLIs against a fake model server (kept in
//! `tests/fixtures/<cli>/`), read as files and as the process runner would have returned them.
//!
//! Kept apart from [`crate::agents::replays`], which runs them through the adapters and so names
//! gemini's retry reader: that reader's own tests read recordings too.

use std::os::unix::process::ExitStatusExt as _;
use std::path::PathBuf;
use std::process::ExitStatus;
use std::time::Duration;

use crate::sys::runner::{Ending, Finished};

fn dir(cli: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(cli)
}

pub fn read(cli: &str, file: &str) -> String {
    let p = dir(cli).join(file);
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Every scenario recorded for `cli` (the names of its `*.meta.json` files).
pub fn scenarios(cli: &str) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir(cli))
        .unwrap()
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            name.strip_suffix(".meta.json").map(str::to_string)
        })
        .collect();
    v.sort();
    v
}

/// A recorded run as the process runner would have returned it: a run that had to be
/// killed while it was recorded (exit 124, `timed_out`) is our wall-clock timeout.
pub fn recorded(cli: &str, scenario: &str) -> Finished {
    let meta: serde_json::Value =
        serde_json::from_str(&read(cli, &format!("{scenario}.meta.json"))).unwrap();
    let code = meta["exit_code"].as_i64().expect("exit_code") as i32;
    let ending = if meta["timed_out"].as_bool() == Some(true) {
        Ending::TimedOut
    } else {
        Ending::Exited(ExitStatus::from_raw(code << 8))
    };
    Finished {
        ending,
        stdout: read(cli, &format!("{scenario}.stdout")).into_bytes(),
        stderr: read(cli, &format!("{scenario}.stderr")).into_bytes(),
        dropped: 0,
        duration: Duration::from_secs(1),
        blind_pauses: 0,
    }
}

/// The answer every `ok` recording carries.
pub const OK_ANSWER: &str = "FAKE-ANSWER: No, add() subtracts; it should return a + b.";
