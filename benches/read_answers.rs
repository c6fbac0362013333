//! How long the reader takes on an answer, over every answer of the tuned corpora.
//!
//! Why: the reader runs on every critique and every judge ruling, and it is a pipeline of many
//! passes (unwrapping, JSON, XML, markdown structure, locations, vocabularies). Next to a model
//! call it must stay negligible, also on the largest answers. Each answer of
//! `tests/fixtures/answers/tuned/*/` is read `BENCH_ITERS` times (default 20); printed: the median time
//! per answer over the corpus, the slowest answer's median, and the total for one pass.
//!
//! ```text
//! cargo bench --bench read_answers
//! ```
#![allow(clippy::print_stdout, clippy::print_stderr)] // a tool of its own: its output is the point

use std::path::Path;
use std::time::{Duration, Instant};

use git_debate::{raw_blocks, read_answer, Protocol, Roots};

fn main() {
    let iters: usize = std::env::var("BENCH_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/answers/tuned");
    let mut answers: Vec<(String, String)> = Vec::new();
    for corpus in ["base", "holdout-w2", "fresh-w2", "blind-w2", "dev-w3"] {
        for family in std::fs::read_dir(root.join(corpus)).expect("corpus") {
            let family = family.expect("entry").path();
            if !family.is_dir() {
                continue;
            }
            for f in std::fs::read_dir(&family).expect("family") {
                let p = f.expect("entry").path();
                if p.extension().is_some_and(|e| e == "md") {
                    let text = std::fs::read_to_string(&p).expect("answer");
                    answers.push((p.display().to_string(), text));
                }
            }
        }
    }
    let roots = Roots::default();
    let mut medians: Vec<(Duration, usize, &str)> = Vec::new();
    for (name, text) in &answers {
        let mut times: Vec<Duration> = (0..iters)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(read_answer(text, None, Protocol::Cr, &roots));
                t.elapsed()
            })
            .collect();
        times.sort();
        medians.push((times[times.len() / 2], text.len(), name));
    }
    medians.sort();
    let total: Duration = medians.iter().map(|m| m.0).sum();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let (slow, bytes, name) = medians.last().expect("answers");
    println!("| reading | answers | median per answer (ms) | slowest answer (ms, bytes) | one pass over all (ms) |");
    println!("|---|---:|---:|---:|---:|");
    println!(
        "| `protocol::read::read` | {} | {:.3} | {:.3} ({} B) | {:.1} |",
        medians.len(),
        ms(medians[medians.len() / 2].0),
        ms(*slow),
        bytes,
        ms(total)
    );
    eprintln!("slowest: {name}");
    // One very long answer: every answer of the corpora, one after another (a model that
    // rambles, or a review of a huge change). Reading must stay near-linear in its length.
    let repeat: usize = std::env::var("BENCH_REPEAT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let all: String = answers
        .iter()
        .map(|(_, t)| t.as_str())
        .collect::<Vec<_>>()
        .join("\n\n---\n\n")
        .repeat(repeat);
    let t = Instant::now();
    let r = read_answer(&all, None, Protocol::Cr, &roots);
    println!(
        "| `protocol::read::read`, all answers as one | 1 ({} KB) | {:.1} | | {} findings |",
        all.len() / 1024,
        ms(t.elapsed()),
        r.critique.findings.len()
    );
    // The worst prose: 16 MB with no structure and a `path:line` every few words (what made the
    // reader quadratic). It is read up to `READ_CAP`, as the note says; the raw
    // fallback reads the same part.
    let worst = worst_prose(16 << 20);
    let t = Instant::now();
    let r = read_answer(&worst, None, Protocol::Cr, &roots);
    let read_ms = ms(t.elapsed());
    let t = Instant::now();
    let raw = raw_blocks(&worst, &roots);
    println!(
        "| worst prose, 16 MB | 1 | {:.1} (read) + {:.1} (raw blocks) | | {} notes, {} raw blocks |",
        read_ms,
        ms(t.elapsed()),
        r.notes.len(),
        raw.findings.len()
    );
}

/// Unstructured prose of about `n` bytes with a `path:line` reference every few words.
fn worst_prose(n: usize) -> String {
    let words = [
        "the", "handler", "reads", "value", "twice", "and", "then", "cache", "is", "stale", "so",
        "we", "should", "check", "again",
    ];
    let mut s = String::with_capacity(n + 64);
    let mut i: u64 = 7;
    while s.len() < n {
        i = i
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        s.push_str(words[(i >> 33) as usize % words.len()]);
        if matches!((i >> 20) % 7, 0) {
            s.push_str(&format!(
                " src/mod_{}/file_{}.rs:{}",
                (i >> 40) % 50,
                (i >> 24) % 90,
                (i >> 12) % 900
            ));
        }
        s.push(if matches!((i >> 16) % 13, 0) {
            '.'
        } else {
            ' '
        });
        if matches!((i >> 8) % 97, 0) {
            s.push_str("\n\n");
        } else if matches!((i >> 10) % 31, 0) {
            s.push('\n');
        }
    }
    s
}
