//! Prints how the answer reader reads a reviewer's answer: each finding's severity, place and
//! title, the approval flag and the reader's doubts. A tool for looking at one answer while
//! working on the reader (the corpora's scores say how often it is right; this says why not).
//!
//! Usage: `cargo run --example read_answer -- <answer.md>...`.
#![allow(clippy::print_stdout, clippy::print_stderr)] // a tool of its own: its output is the point

use git_debate::{read_answer, Protocol, Roots};

fn main() {
    let roots = Roots::default();
    for path in std::env::args().skip(1) {
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{path}: {e}");
                std::process::exit(2);
            }
        };
        let r = read_answer(&text, None, Protocol::Cr, &roots);
        let c = &r.critique;
        println!(
            "== {path}: {} finding(s), approval {}, structured {}, format {}",
            c.findings.len(),
            c.agreement,
            r.structured,
            c.format
        );
        for f in &c.findings {
            let place = f.location.as_ref().map_or("-".to_string(), |l| {
                format!(
                    "{}:{}",
                    l.path,
                    l.start_line.map_or("-".into(), |n| n.to_string())
                )
            });
            let title: String = f.title.chars().take(90).collect();
            println!(
                "  {:<12} {:<40} {} [{:?}]",
                format!("{:?}", f.severity),
                place,
                title,
                f.source
            );
            if std::env::var_os("BODY").is_some() {
                println!("      body: {:?}", f.body);
            }
        }
        for d in &r.doubts {
            println!("  doubt: {d:?}");
        }
    }
}
