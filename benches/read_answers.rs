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

use std::path::Path;
use std::time::{Duration, Instant};

use git_debate::answer::{self, Protocol, Roots};

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
                std::hint::black_box(answer::read(text, None, Protocol::Cr, &roots));
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
    let r = answer::read(&all, None, Protocol::Cr, &roots);
    println!(
        "| `protocol::read::read`, all answers as one | 1 ({} KB) | {:.1} | | {} findings |",
        all.len() / 1024,
        ms(t.elapsed()),
        r.critique.findings.len()
    );
}
