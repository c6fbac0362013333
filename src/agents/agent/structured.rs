//! Structured output for the agent CLIs: the schema file a CLI reads (codex), an unknown flag
//! recognised in an older build's usage error, the object taken from a reply only when it
//! conforms, and the recorded runs of each CLI's schema flag.

use super::*;
use crate::answer::schema;

/// A schema written for a CLI that takes a file, removed when the call is over.
pub(super) struct SchemaFile(pub(super) PathBuf);

impl SchemaFile {
    pub(super) fn write(protocol: Protocol) -> std::io::Result<SchemaFile> {
        use std::io::Write as _;
        use std::sync::atomic::{AtomicU64, Ordering};
        // Unique within the process (parallel segment reviews write at once), and the time
        // against a stale file of an earlier process with the same id.
        static NEXT: AtomicU64 = AtomicU64::new(0);
        // (A run killed during a call leaves its file: the next run removes it.)
        crate::sys::scratch::sweep_temp_dir();
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let path = std::env::temp_dir().join(format!(
            "git-debate-{}-{}-{}-{nanos}.json",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed),
            protocol.name()
        ));
        // `create_new`: never through a link someone planted in a shared temp folder.
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)?;
        // Owned from here, so a failed write removes it too.
        let file = SchemaFile(path);
        f.write_all(protocol.schema_for_cli().to_string().as_bytes())?;
        Ok(file)
    }
}

impl Drop for SchemaFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Said once per CLI and process: the schema flag is not there, the prompt asks instead.
pub(super) fn say_once(name: &str, what: &str) {
    static SAID: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut said = SAID.lock().unwrap_or_else(|e| e.into_inner());
    let key = format!("{name}:{what}");
    if !said.contains(&key) {
        crate::errln!("note: {what}");
        said.push(key);
    }
}

/// Does the output say the flag is unknown (`unknown option '--json-schema'`, `Unknown
/// arguments: json-schema`, `unexpected argument '--output-schema'`)?
pub(super) fn rejects_flag(stdout: &str, stderr: &str, flag: &str) -> bool {
    let stem = flag.trim_start_matches('-').to_ascii_lowercase();
    [stderr, stdout].iter().any(|out| {
        out.lines().take(5).any(|l| {
            let l = l.to_ascii_lowercase();
            l.contains(&stem)
                && [
                    "unknown option",
                    "unknown argument",
                    "unexpected argument",
                    "unrecognized",
                    "no such option",
                ]
                .iter()
                .any(|w| l.contains(w))
        })
    })
}

/// The schema object of a reply — the CLI's structured field, or the whole text when that is
/// the JSON (codex) — kept only when it conforms to the protocol's schema.
pub fn structured_answer(
    reply: &Reply,
    protocol: Option<Protocol>,
    name: &str,
) -> (Option<serde_json::Value>, OutputMode) {
    let Some(p) = protocol else {
        return (None, OutputMode::prompt(None));
    };
    let candidate = reply.structured.clone().or_else(|| {
        if reply.text_is_not_the_object {
            return None;
        }
        crate::agents::parse::whole_json(&reply.text).filter(serde_json::Value::is_object)
    });
    match candidate {
        Some(v) => match schema::validate(&v, p.schema()) {
            Ok(()) => (Some(v), OutputMode::schema(None)),
            Err(why) => (
                None,
                OutputMode::prompt(Some(format!(
                    "{name} returned JSON that does not match the schema ({why}); its text was read"
                ))),
            ),
        },
        None => (
            None,
            OutputMode::prompt(Some(format!(
                "{name} returned no schema object; its text was read"
            ))),
        ),
    }
}
