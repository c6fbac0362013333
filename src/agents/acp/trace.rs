//! `GIT_DEBATE_ACP_TRACE=FILE`: every JSON-RPC line of a conversation, both ways, appended to
//! FILE as `{"dir": "out"|"in", "line": ...}` (the format of `tests/fixtures/acp/`). For
//! recording a real agent and for debugging one; it holds the prompt, so only the user's own
//! environment turns it on.

use std::io::Write as _;

use serde_json::json;

use crate::sys::runner::Talk;

/// The variable naming the trace file.
pub const TRACE_VAR: &str = "GIT_DEBATE_ACP_TRACE";

/// A conversation whose lines are also written to a file.
pub struct Traced<'a> {
    pub inner: &'a mut dyn Talk,
    pub file: std::fs::File,
}

impl Traced<'_> {
    /// The trace file named by [`TRACE_VAR`], opened for appending.
    pub fn file() -> Option<std::fs::File> {
        let path = std::env::var_os(TRACE_VAR).filter(|p| !p.is_empty())?;
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .ok()
    }

    fn write(&mut self, dir: &str, bytes: &[u8]) {
        for line in bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
            let line = String::from_utf8_lossy(line);
            // A trace that cannot be written must not fail the call.
            let _ = writeln!(self.file, "{}", json!({"dir": dir, "line": line}));
        }
    }
}

impl Talk for Traced<'_> {
    fn open(&mut self) -> Vec<u8> {
        let out = self.inner.open();
        self.write("out", &out);
        out
    }
    fn hear(&mut self, line: &[u8]) -> Vec<u8> {
        self.write("in", line);
        let out = self.inner.hear(line);
        self.write("out", &out);
        out
    }
    fn done(&self) -> bool {
        self.inner.done()
    }
}
