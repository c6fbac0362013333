//! The reader never panics on a model's answer, however odd its text: every tuned answer is read
//! again after a mutation that breaks what a reader of byte offsets assumes (a letter of three
//! bytes after each bracket, colon or backtick; full-width digits; ideographic spaces; each line
//! in brackets; each line cut in the middle of a character run; a Korean level tag before each
//! line). A panic here is a crash of a review run on an answer a model really could give.
//!
//! By default a sample (every sixteenth answer, one mutation each, rotating) keeps the test short;
//! `ODD_ANSWERS=all` reads every answer under every mutation (run it with `--release`).

use std::path::{Path, PathBuf};

use git_debate::{raises_nothing, raw_blocks, Protocol, Roots};

type Mutation = fn(&str) -> String;

const MUTATIONS: &[(&str, Mutation)] = &[
    ("wide letter after punctuation", |t| {
        let mut out = String::with_capacity(t.len() * 2);
        for c in t.chars() {
            out.push(c);
            if "[]:`*#(|>-.".contains(c) {
                out.push('요');
            }
        }
        out
    }),
    ("full-width digits", |t| {
        t.chars()
            .map(|c| match c.to_digit(10) {
                Some(d) => char::from_u32(0xFF10 + d).unwrap_or(c),
                None => c,
            })
            .collect()
    }),
    ("ideographic spaces", |t| t.replace(' ', "\u{3000}")),
    ("each line in brackets", |t| {
        t.lines().map(|l| format!("[{l}]\n")).collect()
    }),
    ("each line cut short", |t| {
        t.lines()
            .map(|l| {
                let n = l.chars().count();
                let cut: String = l.chars().take(n / 2 + 1).collect();
                format!("{cut}é\n")
            })
            .collect()
    }),
    ("a level tag before each line", |t| {
        t.lines().map(|l| format!("[중요도: 낮음] {l}\n")).collect()
    }),
];

fn answers(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            answers(&p, out);
        } else if p.extension().is_some_and(|e| e == "md")
            && p.file_name().is_some_and(|n| n != "README.md")
        {
            out.push(p);
        }
    }
}

/// Reads `text` the way a review run does, raw blocks included.
fn read(text: &str) {
    let roots = Roots {
        roots: vec!["/home/dev/project/".into()],
    };
    let r = git_debate::read_answer(text, None, Protocol::Cr, &roots);
    if !r.structured && !raises_nothing(text, &roots) {
        let _ = raw_blocks(text, &roots);
    }
}

#[test]
fn no_answer_however_odd_makes_the_reader_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/answers");
    let mut files = Vec::new();
    answers(&root, &mut files);
    assert!(files.len() > 1000, "the answers moved: {}", files.len());
    let all = std::env::var("ODD_ANSWERS").is_ok_and(|v| v == "all");
    let mut failures = Vec::new();
    for (i, file) in files.iter().enumerate() {
        if !all && i % 16 != 0 {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        let chosen: Vec<&(&str, Mutation)> = if all {
            MUTATIONS.iter().collect()
        } else {
            vec![&MUTATIONS[(i / 16) % MUTATIONS.len()]]
        };
        for (name, mutate) in chosen {
            let odd = mutate(&text);
            if std::panic::catch_unwind(|| read(&odd)).is_err() {
                failures.push(format!("{} ({name})", file.display()));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "the reader panicked on {} answers:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
