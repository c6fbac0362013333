//! The review loop's own overhead per round, with instant in-process backends.
//!
//! Why: a round is dominated by model calls (seconds to minutes), so what `git debate` adds around
//! them — rendering prompts, parsing critiques, matching findings across rounds, applying the
//! rubric, writing the session files atomically — must stay negligible. This benchmark replaces
//! both models with backends that answer instantly and measures everything else.
//!
//! Each run reviews a 400-line generated diff for 5 rounds (`--max-rounds 5`): the reviewer returns
//! 12 findings per round in JSON (a new one every round, so the loop never converges early), the
//! author judges them all valid and writes a compromise (decision C), and from round 3 it also
//! summarises. Per run: 5 rounds, 5 reviews, 5 judgements, 5 compromises, 3 summaries, all files
//! written. `BENCH_ITERS` runs (default 20); min / median / max per round are printed.
//!
//! A second row runs one round with one reviewer whose review takes 300 ms, then with two whose
//! reviews take 300 ms and 200 ms: they run at once, so the second costs next to nothing, not its
//! 200 ms.
//!
//! A third row measures what the process runner adds to every model call: a program that answers
//! at once (`sh -c 'echo answer'`), from spawn to reaped, `BENCH_CALLS` times (default 50). A
//! real call lasts seconds; this part must stay far below a millisecond or two.
//!
//! ```text
//! cargo bench --bench review_loop
//! ```
#![allow(clippy::print_stdout, clippy::print_stderr)] // a tool of its own: its output is the point

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use git_debate::{
    artifact_from_text, Answer, Artifact, Backend, BackendError, Call, Family, Invocation, Layers,
    Overrides, PatchBase, Request, Restater, Review, Session, Settings, TargetSetting, TextInput,
};

/// Answers instantly (or after `delay` when reviewing): critiques when reviewing, rulings when
/// judging, text otherwise.
struct Instant_ {
    name: &'static str,
    family: Family,
    calls: AtomicUsize,
    delay: Duration,
}

impl Instant_ {
    fn new(name: &'static str, family: Family) -> Instant_ {
        Instant_ {
            name,
            family,
            calls: AtomicUsize::new(0),
            delay: Duration::ZERO,
        }
    }
}

impl Backend for Instant_ {
    fn name(&self) -> &str {
        self.name
    }
    fn family(&self) -> &Family {
        &self.family
    }
    fn model(&self) -> Option<&str> {
        None
    }
    fn describe(&self) -> String {
        "in-process".into()
    }
    fn ask(&self, req: &Request) -> Result<Answer, BackendError> {
        let n = self.calls.fetch_add(1, Ordering::Relaxed);
        let text = if req.prompt.contains(" BEGIN CHANGE UNDER REVIEW\n") {
            std::thread::sleep(self.delay);
            let findings: Vec<String> = (0..12)
                .map(|i| {
                    let title = if i == 0 {
                        // Words of their own each round, so it is a new finding every time.
                        const W: [&str; 12] = ["overflow", "deadlock", "leak", "injection", "race",
                            "panic", "truncation", "encoding", "timeout", "retry", "cache", "quota"];
                        format!("{} {} {}", W[n % 12], W[(n + 5) % 12], W[(n + 7) % 12])
                    } else {
                        format!("recurring issue number {i} about naming and error handling")
                    };
                    let body = if i == 0 { title.clone() } else { format!("because of reason {i}") };
                    format!(
                        r#"{{"severity":"P{}","title":"{title}","evidence":"src/f{i}.rs:{}","body":"{body}","action":"change {i}"}}"#,
                        1 + i % 3,
                        if i == 0 { 100 + n } else { 10 + i }
                    )
                })
                .collect();
            format!(
                "## Review\n\n```json\n{{\"verdict\":\"revise\",\"findings\":[{}]}}\n```\n",
                findings.join(",")
            )
        } else if req.prompt.contains(" BEGIN FINDINGS\n") {
            let rulings: Vec<String> = (1..=40)
                .map(|i| {
                    format!(r#"{{"id":"F{i}","verdict":"valid","severity":"P2","reason":"ok"}}"#)
                })
                .collect();
            format!(
                "```json\n{{\"classifications\":[{}],\"recommendation\":\"C\"}}\n```",
                rulings.join(",")
            )
        } else {
            // A compromise must be a version of what it revises (a unified diff of the same
            // file), or the loop stops the session as failed.
            diff(200).replace("compute_checked(0)", &format!("compute_checked({n})"))
        };
        Ok(Answer::plain(self.name, text))
    }
}

fn diff(lines: usize) -> String {
    let mut s =
        String::from("diff --git a/src/lib.rs b/src/lib.rs\n--- a/src/lib.rs\n+++ b/src/lib.rs\n");
    s.push_str(&format!("@@ -1,{lines} +1,{lines} @@\n"));
    for i in 0..lines {
        s.push_str(&format!(
            "-    let v{i} = compute({i});\n+    let v{i} = compute_checked({i})?;\n"
        ));
    }
    s
}

fn main() {
    let iters: usize = std::env::var("BENCH_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    let tmp = tempfile::tempdir().expect("temp dir");
    let settings = Settings::resolve(
        Layers::default(),
        &Overrides {
            max_rounds: Some(5),
            ..Default::default()
        },
    )
    .expect("settings");
    let input = TextInput {
        text: diff(200),
        origin: "bench".into(),
        path_hint: None,
        lossy: false,
    };
    let art = artifact_from_text(&input, TargetSetting::Code, 1 << 20);
    let mut per_round = Vec::new();
    for _ in 0..iters {
        let session = Session::create(tmp.path()).expect("session");
        session.write("artifact.md", art.text.as_bytes()).unwrap();
        let started = Instant::now();
        let outcome = Review {
            session: &session,
            settings: &settings,
            author: Box::new(Instant_::new("author", Family::anthropic())),
            reviewer: Box::new(Instant_::new("reviewer", Family::openai())),
            artifact: &art,
            workspace: tmp.path().to_path_buf(),
            repo_dir: None,
            patch_base: PatchBase::None,
            templates: None,
            snippet: false,
            metadata: Default::default(),
            terminal: None,
            resume: None,
            incremental: None,
            sandbox: Default::default(),
            exports: None,
            budget_override: None,
            normalizer: Restater::Reviewer,
            locations: None,
            chunking: None,
            fallback: Vec::new(),
            others: Vec::new(),
        }
        .run()
        .expect("review");
        assert_eq!(outcome.rounds.len(), 5, "{}", outcome.stop_reason);
        per_round.push(started.elapsed() / 5);
    }
    per_round.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!("| operation | min (ms) | median (ms) | max (ms) |");
    println!("|---|---:|---:|---:|");
    println!(
        "| review loop, one round (12 findings, judge, compromise, files) | {:.2} | {:.2} | {:.2} |",
        ms(per_round[0]),
        ms(per_round[per_round.len() / 2]),
        ms(per_round[per_round.len() - 1])
    );
    two_reviewers(&art, tmp.path());
    let calls = process_calls();
    println!(
        "| one process call answering at once, spawn to reaped | {:.2} | {:.2} | {:.2} |",
        ms(calls[0]),
        ms(calls[calls.len() / 2]),
        ms(calls[calls.len() - 1])
    );
}

/// One round with one reviewer whose review takes 300 ms, then with two whose reviews take 200 ms
/// and 300 ms: they run at once, so the second reviewer should add next to nothing, never its
/// 200 ms. Prints the medians of `BENCH_ITERS` rounds (at most 10) of both, and the difference.
fn two_reviewers(art: &Artifact, dir: &std::path::Path) {
    let iters: usize = std::env::var("BENCH_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10)
        .clamp(1, 10);
    let settings = Settings::resolve(
        Layers::default(),
        &Overrides {
            max_rounds: Some(1),
            ..Default::default()
        },
    )
    .expect("settings");
    let slow = |name, family, ms| -> Box<dyn Backend> {
        Box::new(Instant_ {
            delay: Duration::from_millis(ms),
            ..Instant_::new(name, family)
        })
    };
    let round = |two: bool| -> Duration {
        let session = Session::create(dir).expect("session");
        session.write("artifact.md", art.text.as_bytes()).unwrap();
        let started = Instant::now();
        Review {
            session: &session,
            settings: &settings,
            author: Box::new(Instant_::new("author", Family::anthropic())),
            reviewer: slow("gemini", Family::google(), 300),
            others: if two {
                vec![slow("codex", Family::openai(), 200)]
            } else {
                Vec::new()
            },
            artifact: art,
            workspace: dir.to_path_buf(),
            repo_dir: None,
            patch_base: PatchBase::None,
            templates: None,
            snippet: false,
            metadata: Default::default(),
            terminal: None,
            resume: None,
            incremental: None,
            sandbox: Default::default(),
            exports: None,
            budget_override: None,
            normalizer: Restater::Reviewer,
            locations: None,
            chunking: None,
            fallback: Vec::new(),
        }
        .run()
        .expect("review");
        started.elapsed()
    };
    let median = |two: bool| {
        let mut took: Vec<Duration> = (0..iters).map(|_| round(two)).collect();
        took.sort();
        took[took.len() / 2]
    };
    let (one, two) = (median(false), median(true));
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "| one round, one reviewer of 300 ms; then two, of 300 ms and 200 ms at once (median) | {:.1} | {:.1} ({:+.1} %) | - |",
        ms(one),
        ms(two),
        (two.as_secs_f64() / one.as_secs_f64() - 1.0) * 100.0
    );
}

/// Durations of `BENCH_CALLS` runs of a program that prints one line and exits, sorted.
fn process_calls() -> Vec<Duration> {
    let n: usize = std::env::var("BENCH_CALLS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(50);
    let mut took: Vec<Duration> = (0..n)
        .map(|_| {
            let started = Instant::now();
            let done = Call::spawn(&Invocation {
                program: "sh".into(),
                args: vec!["-c".into(), "echo answer".into()],
                env: vec![],
                env_remove: vec![],
                cwd: None,
                stdin: vec![],
                timeout: Duration::from_secs(30),
                idle_timeout: Duration::from_secs(30),
                watch: None,
                heartbeat: None,
            })
            .and_then(Call::wait)
            .expect("sh runs");
            assert_eq!(done.stdout, b"answer\n");
            started.elapsed()
        })
        .collect();
    took.sort();
    took
}
