//! The structured-output recordings of the real CLIs (`tests/fixtures/STRUCTURED-OUTPUT.md`)
//! replayed through the adapter: where the object is, what happens when the model answers in
//! text or breaks the schema, and what an older CLI without the flag says. It sits above the
//! agent layer because it names every adapter's spec, which the shared layer must not.

use std::path::PathBuf;
use std::time::Duration;

use crate::agents::agent::{AgentBackend, CallOptions, Retry};
use crate::agents::fixtures::recorded;
use crate::agents::{Answer, BackendError, ErrorKind, Request};
use crate::answer::Protocol;

fn backend(cli: &str) -> AgentBackend {
    let spec = match cli {
        "claude" => &crate::agents::claude::SPEC,
        "codex" => &crate::agents::codex::SPEC,
        "qwen" => &crate::agents::qwen::SPEC,
        "gemini" => &crate::agents::gemini::SPEC,
        "opencode" => &crate::agents::opencode::SPEC,
        _ => &crate::agents::copilot::SPEC,
    };
    AgentBackend::new(spec, PathBuf::from(cli), CallOptions::default())
}

fn replay(cli: &str, scenario: &str, p: Protocol) -> Result<Answer, (BackendError, Option<Retry>)> {
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
