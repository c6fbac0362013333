//! Unit tests of routing: each detection path and pick, with the world (environment, processes, what is installed) given as data.

use super::*;
use crate::settings::{Layers, Overrides};

fn settings(args: Overrides) -> Settings {
    Settings::resolve(Layers::default(), &args).unwrap()
}

fn family(name: &str, _: Role) -> Family {
    match name {
        "claude" => Family::anthropic(),
        "codex" | "copilot" => Family::openai(),
        "gemini" => Family::google(),
        "qwen" => Family::qwen(),
        n if n.starts_with("openai:") => Family::of_model(&n[7..]),
        _ => Family::unknown(),
    }
}

fn with_world<T>(
    vars: &[(&str, &str)],
    parents: Vec<Ancestor>,
    installed: &[&str],
    f: impl FnOnce(&World) -> T,
) -> T {
    let var = |k: &str| {
        vars.iter()
            .find(|(n, _)| *n == k)
            .map(|(_, v)| v.to_string())
    };
    let anc = move || parents.clone();
    let inst = |n: &str| installed.contains(&n);
    f(&World {
        var: &var,
        ancestors: &anc,
        installed: &inst,
        family: &family,
    })
}

#[test]
fn the_judge_is_a_third_family_else_the_orchestrating_author() {
    let s = settings(Overrides::default());
    let side = |b: &str, f: Family| Pick {
        backend: b.into(),
        family: f,
        why: String::new(),
    };
    let (p, c) = (
        side("claude", Family::anthropic()),
        side("codex", Family::openai()),
    );
    let judge = |installed: &[&str], given: Option<&str>| {
        with_world(
            &[("GIT_DEBATE_LAUNCHER", "claude")],
            vec![],
            installed,
            |w| pick_judge(&s, w, [&p, &c], given).unwrap(),
        )
    };
    let j = judge(&["claude", "codex", "copilot", "gemini"], None);
    assert_eq!(j.backend, "gemini");
    assert!(j.why.contains("third family (google)"), "{}", j.why);
    // copilot is openai's, like the challenger: no third family.
    let j = judge(&["claude", "codex", "copilot"], None);
    assert_eq!(j.backend, "claude");
    assert!(j.why.contains("orchestrating author"), "{}", j.why);
    let j = judge(&["claude", "codex", "gemini"], Some("codex"));
    assert_eq!(
        (j.backend.as_str(), j.why.as_str()),
        ("codex", "--judge was given")
    );
}

#[test]
fn launcher_from_environment_markers() {
    for (var, agent) in [
        ("CLAUDECODE", "claude"),
        ("CODEX_THREAD_ID", "codex"),
        ("GEMINI_CLI", "gemini"),
        ("QWEN_CODE", "qwen"),
        ("COPILOT_CLI", "copilot"),
        ("OPENCODE", "opencode"),
    ] {
        let got = with_world(&[(var, "1")], vec![], &[], detect_launcher).unwrap();
        assert_eq!(got.0, agent, "{var}");
        assert!(got.1.contains(var), "{}", got.1);
    }
}

#[test]
fn launcher_from_the_process_chain() {
    let chain = vec![
        Ancestor {
            pid: 10,
            comm: "git".into(),
            argv: vec!["git".into(), "debate".into()],
        },
        Ancestor {
            pid: 9,
            comm: "bash".into(),
            argv: vec!["/bin/bash".into()],
        },
        Ancestor {
            pid: 8,
            comm: "node".into(),
            argv: vec![
                "node".into(),
                "/usr/lib/node_modules/@google/gemini-cli/dist/index.js".into(),
            ],
        },
    ];
    let got = with_world(&[], chain, &[], detect_launcher).unwrap();
    assert_eq!(got.0, "gemini");
    assert!(got.1.contains("parent process 8"), "{}", got.1);

    let native = vec![Ancestor {
        pid: 5,
        comm: "codex".into(),
        argv: vec!["/opt/codex/bin/codex".into(), "exec".into()],
    }];
    assert_eq!(
        with_world(&[], native, &[], detect_launcher).unwrap().0,
        "codex"
    );
    assert!(with_world(&[], vec![], &[], detect_launcher).is_none());
}

#[test]
fn the_launcher_variable_overrides_or_disables_detection() {
    let chain = || {
        vec![Ancestor {
            pid: 5,
            comm: "claude".into(),
            argv: vec!["claude".into()],
        }]
    };
    let off = with_world(
        &[("GIT_DEBATE_LAUNCHER", "none"), ("CLAUDECODE", "1")],
        chain(),
        &[],
        detect_launcher,
    );
    assert!(off.is_none());
    let forced = with_world(
        &[("GIT_DEBATE_LAUNCHER", "qwen")],
        chain(),
        &[],
        detect_launcher,
    )
    .unwrap();
    assert_eq!(forced.0, "qwen");
}

#[test]
fn reviewer_is_the_first_installed_other_family() {
    let s = settings(Overrides::default());
    let r = with_world(&[("CLAUDECODE", "1")], vec![], &["claude", "gemini"], |w| {
        route(&s, w)
    })
    .unwrap();
    assert_eq!(
        (r.author.backend.as_str(), r.reviewer.backend.as_str()),
        ("claude", "gemini")
    );
    // codex comes first in the order when installed.
    let r = with_world(
        &[("CLAUDECODE", "1")],
        vec![],
        &["claude", "gemini", "codex"],
        |w| route(&s, w),
    )
    .unwrap();
    assert_eq!(r.reviewer.backend, "codex");
    // Launched by codex: copilot (openai by default here) is skipped as the same family.
    let r = with_world(
        &[("CODEX_SANDBOX", "seatbelt")],
        vec![],
        &["codex", "copilot", "qwen"],
        |w| route(&s, w),
    )
    .unwrap();
    assert_eq!(r.reviewer.backend, "qwen");
}

#[test]
fn no_launcher_means_the_first_installed_author() {
    let s = settings(Overrides::default());
    let r = with_world(&[], vec![], &["gemini", "codex"], |w| route(&s, w)).unwrap();
    assert_eq!(r.author.backend, "codex");
    assert_eq!(r.reviewer.backend, "gemini");
    assert!(r.author.why.contains("first installed"));
}

#[test]
fn explicit_choices_win_and_same_family_is_refused() {
    let s = settings(Overrides {
        author: Some("codex".into()),
        reviewer: Some("copilot".into()),
        ..Default::default()
    });
    let err = with_world(&[("CLAUDECODE", "1")], vec![], &["claude"], |w| {
        route(&s, w)
    })
    .unwrap_err();
    let msg = err.to_string();
    assert!(err.is::<UsageError>(), "{msg}");
    assert!(
        msg.contains("both openai") && msg.contains("--allow-same-family"),
        "{msg}"
    );

    let s = settings(Overrides {
        author: Some("codex".into()),
        reviewer: Some("copilot".into()),
        allow_same_family: Some(true),
        ..Default::default()
    });
    let r = with_world(&[], vec![], &[], |w| route(&s, w)).unwrap();
    assert_eq!(r.author.why, "--author was given");
    assert!(r.notes.iter().any(|n| n.contains("both openai")));
}

#[test]
fn nothing_installed_says_what_to_install() {
    let s = settings(Overrides::default());
    let err = with_world(&[], vec![], &[], |w| route(&s, w)).unwrap_err();
    assert!(err.is::<Unavailable>());
    let msg = err.to_string();
    assert!(
        msg.contains("npm install -g @anthropic-ai/claude-code"),
        "{msg}"
    );
    assert!(msg.contains("exec:") && msg.contains("openai:"), "{msg}");

    // Only one family installed: says so, and how to get out.
    let err = with_world(&[], vec![], &["claude"], |w| route(&s, w)).unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("other than anthropic") && msg.contains("installed: claude"),
        "{msg}"
    );
}

#[test]
fn unknown_families_are_noted_and_never_auto_picked() {
    let s = settings(Overrides {
        reviewer: Some("exec:my-model".into()),
        ..Default::default()
    });
    let r = with_world(&[("CLAUDECODE", "1")], vec![], &["claude"], |w| {
        route(&s, w)
    })
    .unwrap();
    assert_eq!(r.reviewer.backend, "exec:my-model");
    assert!(r.notes[0].contains("debate.exec.family"), "{:?}", r.notes);
}

#[test]
fn several_reviewers_are_the_named_ones_then_the_next_installed_families() {
    let installed = ["claude", "codex", "copilot", "gemini", "qwen"];
    let route_with = |o: Overrides| {
        let s = settings(Overrides {
            author: Some("claude".into()),
            ..o
        });
        with_world(&[], vec![], &installed, |w| route(&s, w))
    };
    // `--reviewers 3`: codex, then gemini and qwen; copilot is openai's like codex.
    let r = route_with(Overrides {
        reviewers: Some("3".into()),
        ..Overrides::default()
    })
    .unwrap();
    assert_eq!(r.reviewer.backend, "codex");
    let others: Vec<&str> = r.others.iter().map(|p| p.backend.as_str()).collect();
    assert_eq!(others, ["gemini", "qwen"]);
    // Named first (`--reviewer qwen --reviewers 2`), then filled in routing order.
    let r = route_with(Overrides {
        reviewer: Some("qwen".into()),
        reviewers: Some("qwen,2".into()),
        ..Overrides::default()
    })
    .unwrap();
    assert_eq!(r.reviewer.backend, "qwen");
    assert_eq!(r.others[0].backend, "codex");
    // More than the families installed: as many as there are, said in a note.
    let r = route_with(Overrides {
        reviewers: Some("5".into()),
        ..Overrides::default()
    })
    .unwrap();
    assert_eq!(r.others.len(), 2);
    assert!(r
        .notes
        .iter()
        .any(|n| n.contains("5 reviewers were asked for")));
    // A number out of range, or a reviewer named twice, is an error naming the key.
    for bad in ["0", "9", "codex,codex"] {
        let e = route_with(Overrides {
            reviewers: Some(bad.into()),
            ..Overrides::default()
        })
        .unwrap_err();
        assert!(e.to_string().contains("debate.reviewers"), "{bad}: {e}");
    }
    // A named reviewer of the author's family is refused.
    let e = route_with(Overrides {
        reviewers: Some("codex,claude".into()),
        ..Overrides::default()
    })
    .unwrap_err();
    assert!(e.to_string().contains("like the author claude"), "{e}");
    // One reviewer with a chain: the head reviews, the rest and the fallbacks follow in order.
    let r = route_with(Overrides {
        reviewer: Some("codex, gemini".into()),
        fallback_reviewer: Some("qwen,gemini".into()),
        ..Overrides::default()
    })
    .unwrap();
    assert_eq!(r.reviewer.backend, "codex");
    assert!(r.others.is_empty());
    assert_eq!(r.chain, ["gemini", "qwen"]);
}
