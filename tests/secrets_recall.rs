//! Recall on the blind corpora, end to end: secrets written from public formats by someone who had
//! not read the redactor (`tests/fixtures/secrets/blind.tsv`, `wave3.tsv`) are planted in every
//! scope git-debate reviews, and each one counts as caught only when it is in no session file and
//! not on the terminal. `wave3-clean.tsv` holds look-alikes that must come through untouched.
//!
//! Each test prints its report (per kind, every miss, what the reviewer got instead of each
//! caught secret): `cargo test --test cli secrets_recall -- --nocapture`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use crate::common::planted::{self, everything, Planted, ScopeRun};
use crate::common::TestEnv;

/// `(file, text)` of everything one run left.
type Seen = Vec<(String, String)>;

/// What a corpus run measured.
struct Recall {
    caught: usize,
    total: usize,
    by_kind: BTreeMap<String, (usize, usize)>,
    misses: Vec<String>,
    /// Items whose file was not in their scope's output at all.
    unseen: Vec<String>,
}

/// Plants `all`, reviews every scope, and measures which secrets stayed out of everything the
/// runs left.
fn measure(name: &str, all: &[Planted]) -> Recall {
    let env = TestEnv::with_repo();
    planted::plant(&env, all);
    let runs = planted::review_every_scope(&env, all);
    let artifacts: Vec<String> = runs.iter().map(|r| r.run.artifact()).collect();
    // BLIND_DUMP=<dir> keeps each run's artifact, to read what the reviewer would get.
    if let Some(dir) = std::env::var_os("BLIND_DUMP") {
        let dir = Path::new(&dir).join(name);
        std::fs::create_dir_all(&dir).unwrap();
        for (i, r) in runs.iter().enumerate() {
            let file = format!("{i:02}-{}.md", r.covers.join("+"));
            std::fs::write(dir.join(file), &artifacts[i]).unwrap();
        }
    }
    let seen: Vec<(&[&str], Seen)> = runs
        .iter()
        .map(|r| (r.covers.as_slice(), everything(&r.run)))
        .collect();
    let mut out = Recall {
        caught: 0,
        total: all.len(),
        by_kind: BTreeMap::new(),
        misses: Vec::new(),
        unseen: Vec::new(),
    };
    let mut shown = Vec::new();
    for p in all {
        let covering: Vec<&Seen> = seen
            .iter()
            .filter(|(c, _)| c.contains(&p.scope.as_str()))
            .map(|(_, s)| s)
            .collect();
        assert!(!covering.is_empty(), "no run covers {}", p.scope);
        let leaked: BTreeSet<String> = seen
            .iter()
            .flat_map(|(_, s)| s.iter())
            .filter(|(_, text)| text.contains(&p.secret))
            .map(|(name, _)| name.rsplit('/').next().unwrap_or(name).to_string())
            .collect();
        if !was_sent(p, &covering) {
            out.unseen
                .push(format!("{} ({} in {})", p.kind, p.scope, p.path));
        }
        let e = out.by_kind.entry(p.kind.clone()).or_default();
        e.1 += 1;
        if leaked.is_empty() {
            e.0 += 1;
            out.caught += 1;
            let got = section(p, &runs, &artifacts).and_then(|t| shown_instead(p, &t));
            shown.push(format!(
                "  caught {:<30} {:<11} {:<45} -> {}",
                p.kind,
                p.scope,
                p.path.chars().take(45).collect::<String>(),
                got.as_deref()
                    .unwrap_or("(its line is gone from the artifact)")
            ));
        } else {
            out.misses.push(miss_line(p, &leaked));
        }
    }
    print_report(name, &out, &shown, &runs);
    out
}

/// Whether `p`'s file (or, for a file name, the part before the secret) is in its scope's output:
/// a secret can be absent only because its file was left out.
fn was_sent(p: &Planted, covering: &[&Seen]) -> bool {
    let visible = if p.scope == "name" {
        p.path.split(p.secret.as_str()).next().unwrap_or("")
    } else {
        p.path.as_str()
    };
    p.scope == "message"
        || covering
            .iter()
            .flat_map(|s| s.iter())
            .any(|(_, t)| t.contains(visible))
}

/// A missed item, its secret shown split so the report is no leak.
fn miss_line(p: &Planted, leaked: &BTreeSet<String>) -> String {
    let half = p.secret.len() / 2;
    let masked = format!("{}%%{}", &p.secret[..half], &p.secret[half..]);
    let line = p.text.lines().find(|l| l.contains(&p.secret)).unwrap_or("");
    format!(
        "  MISSED {:<30} {:<11} {} | line: {} | in {leaked:?}",
        p.kind,
        p.scope,
        p.path.replace(p.secret.as_str(), &masked),
        line.replace(p.secret.as_str(), &masked).trim()
    )
}

/// The part of an artifact that shows a planted item: its file's diff (or the whole file for a
/// `file:` run, the commit list for a message, the file list for a name).
fn section(p: &Planted, runs: &[ScopeRun], artifacts: &[String]) -> Option<String> {
    for (r, a) in runs.iter().zip(artifacts) {
        if !r.covers.contains(&p.scope.as_str()) {
            continue;
        }
        match p.scope.as_str() {
            "file" if r.file.as_deref() == Some(p.path.as_str()) => return Some(a.clone()),
            "file" => continue,
            "message" => return a.split("## Files").next().map(String::from),
            "name" => return a.split("## Diff").next().map(String::from),
            _ => {}
        }
        let head = format!("+++ b/{}\n", p.path);
        if let Some(at) = a.find(&head) {
            let rest = &a[at..];
            let end = rest[1..].find("\ndiff --git").map_or(rest.len(), |e| e + 1);
            return Some(rest[..end].to_string());
        }
    }
    None
}

/// What the reviewer got where the secret was, within its section `t`: the text after the
/// secret's own line prefix (after the line before it, when there is one).
fn shown_instead(p: &Planted, t: &str) -> Option<String> {
    if p.scope == "name" {
        let before = p.path.split(p.secret.as_str()).next().unwrap_or("");
        let at = t.find(before)? + before.len();
        return Some(t[at..].lines().next().unwrap_or("").to_string());
    }
    let lines: Vec<&str> = p.text.lines().collect();
    let n = lines
        .iter()
        .position(|l| l.contains(&p.secret))
        .unwrap_or(0);
    let line = lines.get(n).copied().unwrap_or("");
    let before = line
        .split(p.secret.as_str())
        .next()
        .unwrap_or("")
        .trim_start();
    // From the nearest line before it that is still in the artifact (a key's header is not), then
    // past its own prefix (or that prefix's start, when its end went too).
    let from = lines[..n]
        .iter()
        .rev()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty())
        .find_map(|l| t.find(l).map(|i| i + l.len()))
        .or_else(|| t.find("\n+[REDACTED"))
        .unwrap_or(0);
    let rest = &t[from..];
    let at = if before.is_empty() {
        rest.find('\n')? + 1
    } else {
        let start = before
            .char_indices()
            .nth(16)
            .map_or(before, |(i, _)| &before[..i]);
        let name = before
            .find(|c: char| !(c.is_alphanumeric() || "_-.".contains(c)))
            .map_or(before, |i| &before[..i]);
        [before, start, name]
            .iter()
            .filter(|b| !b.is_empty())
            .find_map(|b| {
                let i = rest.find(b)? + b.len();
                // Not a URL's scheme taken for a key's name.
                (!rest[i..].starts_with("://")).then_some(i)
            })?
    };
    let shown = rest[at..].trim_start_matches(['+', ' ']);
    Some(
        shown
            .lines()
            .next()
            .unwrap_or("")
            .chars()
            .take(70)
            .collect(),
    )
}

fn print_report(name: &str, r: &Recall, shown: &[String], runs: &[ScopeRun]) {
    let kinds_full = r.by_kind.values().filter(|(c, n)| c == n).count();
    println!(
        "{name}: caught {}/{} secrets ({:.1}%), {kinds_full}/{} kinds fully caught",
        r.caught,
        r.total,
        r.caught as f64 * 100.0 / r.total as f64,
        r.by_kind.len()
    );
    for (k, (c, n)) in &r.by_kind {
        let flag = if c < n { "  <-- missed" } else { "" };
        println!("  {k:<32} {c}/{n}{flag}");
    }
    println!("misses ({}):\n{}", r.misses.len(), r.misses.join("\n"));
    println!(
        "files not named in their scope's output ({}):\n  {}",
        r.unseen.len(),
        r.unseen.join("\n  ")
    );
    println!(
        "what the reviewer got instead of each caught secret:\n{}",
        shown.join("\n")
    );
    for r in runs {
        println!(
            "run {:?}: redactions {}",
            r.covers,
            r.run.metadata()["redactions"]
        );
    }
}

/// The blind corpus (blind.tsv, 104 secrets of 93 kinds): first measured at 84/104 = 80.8 %,
/// before the rules learned its misses; since then it is held at 100 %.
#[test]
fn blind_corpus_recall() {
    let tsv = include_str!("fixtures/secrets/blind.tsv");
    let all = planted::corpus(tsv);
    assert!(all.len() >= 60, "{}", all.len());
    let r = measure("blind", &all);
    assert!(
        r.misses.is_empty(),
        "blind corpus recall {}/{}:\n{}",
        r.caught,
        r.total,
        r.misses.join("\n")
    );
    assert!(r.unseen.is_empty(), "files not sent: {:?}", r.unseen);
}

/// The third blind corpus (wave3.tsv, 214 secrets of 149 kinds; gitleaks 8.30.1 catches 135,
/// detect-secrets 1.5.0 97). First measured, before any rule learned from it, at 156/214
/// (72.9 %, 111 of 149 kinds fully caught); its misses were then fixed by general rules (escaped
/// literals, call arguments, split keys, prose, PuTTY keys, LDAP names, more formats), and it is
/// held at every secret caught. Since the rules have seen it, it no longer measures blind recall.
#[test]
fn wave3_corpus_recall() {
    let tsv = include_str!("fixtures/secrets/wave3.tsv");
    let all = planted::corpus(tsv);
    assert_eq!(all.len(), 214);
    let r = measure("wave3", &all);
    assert!(r.unseen.is_empty(), "files not sent: {:?}", r.unseen);
    assert!(
        r.misses.is_empty(),
        "wave3 recall {}/{}:\n{}",
        r.caught,
        r.total,
        r.misses.join("\n")
    );
}

/// The look-alikes of wave3-clean.tsv (108 lines a careful reviewer would not call a
/// credential; gitleaks flags 2, detect-secrets 22), committed and reviewed: the lines whose
/// file's diff holds a redaction. First measured at 6 of 108 (9 redactions: a GraphQL schema's
/// fields, a SigV4 credential scope, AWS's documented example pair, a VAPID public key, a
/// `.env.sample` blank and `.env.test` values); none since.
#[test]
fn wave3_look_alikes_are_not_redacted() {
    let rows: Vec<(String, String, String)> = include_str!("fixtures/secrets/wave3-clean.tsv")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            assert_eq!(c.len(), 3, "{l}");
            (c[0].to_string(), c[1].to_string(), planted::unescape(c[2]))
        })
        .collect();
    assert_eq!(rows.len(), 108);
    let env = TestEnv::with_repo();
    for (path, _, line) in &rows {
        env.write(path, &format!("{line}\n"));
    }
    env.commit_all("look-alikes");
    let run = env.run(&["--dry-run", "--scope", "commit:HEAD"]).ok();
    let artifact = run.artifact();
    let mut flagged = Vec::new();
    for (path, kind, _) in &rows {
        let head = format!("+++ b/{path}\n");
        let at = artifact
            .find(&head)
            .unwrap_or_else(|| panic!("{path} not in the artifact"));
        let rest = &artifact[at..];
        let end = rest[1..].find("\ndiff --git").map_or(rest.len(), |e| e + 1);
        let redacted: Vec<&str> = rest[..end]
            .lines()
            .filter(|l| l.contains("[REDACTED:"))
            .collect();
        if !redacted.is_empty() {
            flagged.push(format!("  {path} ({kind}): {}", redacted.join(" | ")));
        }
    }
    let meta = run.metadata();
    println!(
        "wave3 look-alikes: {} of {} lines redacted; redactions {}\n{}",
        flagged.len(),
        rows.len(),
        meta["redactions"],
        flagged.join("\n")
    );
    assert!(
        flagged.is_empty(),
        "look-alikes redacted:\n{}",
        flagged.join("\n")
    );
}
