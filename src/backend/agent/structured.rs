//! Structured output for the agent CLIs: the schema file a CLI reads (codex), an unknown flag
//! recognised in an older build's usage error, the object taken from a reply only when it
//! conforms, and the recorded runs of each CLI's schema flag.

use super::*;
use crate::protocol::read::schema;

/// A schema written for a CLI that takes a file, removed when the call is over.
pub(super) struct SchemaFile(pub(super) PathBuf);

impl SchemaFile {
    pub(super) fn write(protocol: Protocol) -> std::io::Result<SchemaFile> {
        use std::io::Write;
        use std::sync::atomic::{AtomicU64, Ordering};
        // Unique within the process (parallel segment reviews write at once), and the time
        // against a stale file of an earlier process with the same id.
        static NEXT: AtomicU64 = AtomicU64::new(0);
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
        crate::backend::parse::whole_json(&reply.text).filter(serde_json::Value::is_object)
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

#[cfg(test)]
mod schema_tests {
    //! The structured-output recordings of the real CLIs (`tests/fixtures/STRUCTURED-OUTPUT.md`)
    //! replayed through the adapter: where the object is, what happens when the model answers in
    //! text or breaks the schema, and what an older CLI without the flag says.
    use super::*;
    use crate::backend::parse::fixtures::recorded;
    use crate::protocol::read::Protocol;

    fn backend(cli: &str) -> AgentBackend {
        let spec = match cli {
            "claude" => &crate::backend::claude::SPEC,
            "codex" => &crate::backend::codex::SPEC,
            "qwen" => &crate::backend::qwen::SPEC,
            "gemini" => &crate::backend::gemini::SPEC,
            "opencode" => &crate::backend::opencode::SPEC,
            _ => &crate::backend::copilot::SPEC,
        };
        AgentBackend::new(spec, PathBuf::from(cli), CallOptions::default())
    }

    fn replay(
        cli: &str,
        scenario: &str,
        p: Protocol,
    ) -> Result<Answer, (BackendError, Option<Retry>)> {
        let req = Request {
            prompt: "",
            cwd: None,
            timeout: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(30),
            schema: Some(p),
            sandbox: Default::default(),
        };
        backend(cli).conclude(&recorded(cli, scenario), &req, Some(p))
    }

    #[test]
    fn the_schema_object_is_read_where_each_cli_puts_it() {
        for cli in ["claude", "codex", "qwen"] {
            let a = replay(cli, "schema-ok", Protocol::Cr).unwrap();
            assert_eq!(a.output.mode, "schema", "{cli}: {:?}", a.output);
            assert!(!a.output.fell_back);
            let v = a.structured.expect("object");
            assert_eq!(v["findings"].as_array().map(Vec::len), Some(2), "{cli}");
            let j = replay(cli, "schema-judge-ok", Protocol::Judge).unwrap();
            assert_eq!(j.output.mode, "schema", "{cli}");
            assert!(
                j.structured.unwrap().get("classifications").is_some(),
                "{cli}"
            );
        }
    }

    #[test]
    fn a_text_answer_under_a_schema_is_read_as_text_or_asked_again() {
        // claude exits 0 without `structured_output`; codex passes the text through.
        for cli in ["claude", "codex"] {
            for scenario in ["schema-nonconforming", "schema-mismatch"] {
                let a = replay(cli, scenario, Protocol::Cr).unwrap();
                assert_eq!(a.output.mode, "prompt", "{cli} {scenario}");
                assert!(a.structured.is_none(), "{cli} {scenario}");
                assert!(a.output.note.is_some(), "{cli} {scenario}");
            }
        }
        // claude ignores a draft 2020-12 `$schema` silently: the same, and why we strip it.
        let a = replay("claude", "schema-2020-12-ignored", Protocol::Cr).unwrap();
        assert_eq!(a.output.mode, "prompt");
        assert!(!Protocol::Cr
            .schema_for_cli()
            .to_string()
            .contains("$schema"));
        // qwen fails the call and drops the text: asked again without the schema.
        for scenario in ["schema-nonconforming", "schema-mismatch"] {
            let (_, retry) = replay("qwen", scenario, Protocol::Cr).unwrap_err();
            assert_eq!(retry, Some(Retry::Refused), "qwen {scenario}");
        }
    }

    #[test]
    fn an_older_cli_without_the_flag_is_recognised() {
        for cli in ["claude", "codex", "qwen"] {
            let (_, retry) = replay(cli, "schema-flag-rejected", Protocol::Cr).unwrap_err();
            assert_eq!(retry, Some(Retry::FlagRejected), "{cli}");
        }
        // Real failures are not mistaken for a rejected flag.
        let (e, retry) = replay("claude", "schema-401", Protocol::Cr).unwrap_err();
        assert_eq!((e.kind, retry), (ErrorKind::NotAuthenticated, None));
        let (_, retry) = replay("codex", "schema-file-missing", Protocol::Cr).unwrap_err();
        assert_eq!(retry, None);
    }

    #[test]
    fn the_flag_goes_before_the_stdin_marker() {
        let b = backend("codex");
        let a = b.args(Some("/tmp/s.json"));
        let n = a.len();
        assert_eq!(&a[n - 3..], ["--output-schema", "/tmp/s.json", "-"]);
        let c = backend("claude").args(Some("{}"));
        assert_eq!(&c[c.len() - 2..], ["--json-schema", "{}"]);
        assert_eq!(
            backend("gemini").args(Some("{}")),
            backend("gemini").args(None)
        );
    }
}
