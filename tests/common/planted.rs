//! Planted secrets (`tests/fixtures/secrets/*.tsv`): reading a corpus, planting it in a
//! repository scope by scope, and the runs that review each scope.
//!
//! A corpus row is `scope, path, kind, secret, line`; `{S}` in the path and the line stands for
//! the secret, `%%` splits it (and any other credential-like text) so the fixture is no leak,
//! and `\n`, `\t`, `\\` in the line are a newline, a tab and a backslash.

use std::collections::BTreeMap;

use crate::common::{all_files, Run, TestEnv};

pub struct Planted {
    pub scope: String,
    pub path: String,
    pub kind: String,
    pub secret: String,
    pub text: String,
}

/// `\n`, `\t` and `\\` decoded; any other backslash kept.
pub fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        let decoded = match (c, chars.peek()) {
            ('\\', Some('n')) => '\n',
            ('\\', Some('t')) => '\t',
            ('\\', Some('\\')) => '\\',
            _ => {
                out.push(c);
                continue;
            }
        };
        out.push(decoded);
        chars.next();
    }
    out
}

/// The rows of a corpus, each secret joined from its pieces.
pub fn corpus(tsv: &str) -> Vec<Planted> {
    tsv.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            assert_eq!(c.len(), 5, "{l}");
            let secret = c[3].replace("%%", "");
            Planted {
                scope: c[0].into(),
                path: c[1].replace("{S}", &secret),
                kind: c[2].into(),
                text: unescape(&c[4].replace("%%", "")).replace("{S}", &secret),
                secret,
            }
        })
        .collect()
}

/// Lines per file, so several planted lines can share a file.
pub fn files_of<'a>(items: impl Iterator<Item = &'a Planted>) -> BTreeMap<String, String> {
    let mut files: BTreeMap<String, String> = BTreeMap::new();
    for p in items {
        let body = files.entry(p.path.clone()).or_default();
        body.push_str(&p.text);
        body.push('\n');
    }
    files
}

pub fn of<'a>(all: &'a [Planted], scopes: &'a [&str]) -> impl Iterator<Item = &'a Planted> {
    all.iter()
        .filter(move |p| scopes.contains(&p.scope.as_str()))
}

/// Everything a run left: its session folder's files, its stdout and its stderr.
pub fn everything(run: &Run) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = all_files(&run.session_dir())
        .into_iter()
        .map(|(p, b)| {
            (
                p.display().to_string(),
                String::from_utf8_lossy(&b).into_owned(),
            )
        })
        .collect();
    out.push(("stdout".into(), run.stdout.clone()));
    out.push(("stderr".into(), run.stderr.clone()));
    out
}

/// Plants `all` in `env`'s repository: modified files committed empty first, then HEAD with the
/// committed files, the secret-named files and the secret-holding message, then the index, then
/// the work tree.
pub fn plant(env: &TestEnv, all: &[Planted]) {
    for path in files_of(of(all, &["uncommitted"])).keys() {
        env.write(path, "nothing yet\n");
    }
    env.commit_all("base");
    for (path, body) in files_of(of(all, &["commit", "name"])) {
        env.write(&path, &body);
    }
    let message: Vec<&str> = of(all, &["message"]).map(|p| p.text.as_str()).collect();
    env.commit_all(&message.join("\n"));
    for (path, body) in files_of(of(all, &["staged"])) {
        env.write(&path, &body);
        env.git(&["add", &path]);
    }
    for (path, body) in files_of(of(all, &["uncommitted", "untracked", "file"])) {
        env.write(&path, &body);
    }
}

/// One dry run: the corpus scopes it covers, and for a `file:` run the file it reviewed.
pub struct ScopeRun {
    pub covers: Vec<&'static str>,
    pub file: Option<String>,
    pub run: Run,
}

/// A dry run of every scope the planted corpus needs: `commit:HEAD`, `staged`, `uncommitted`,
/// and `file:` for each `file` row's file.
pub fn review_every_scope(env: &TestEnv, all: &[Planted]) -> Vec<ScopeRun> {
    let mut runs = Vec::new();
    for (scope, covers) in [
        ("commit:HEAD", vec!["commit", "name", "message"]),
        ("staged", vec!["staged"]),
        ("uncommitted", vec!["staged", "uncommitted", "untracked"]),
    ] {
        let run = env.run(&["--dry-run", "--scope", scope]).ok();
        runs.push(ScopeRun {
            covers,
            file: None,
            run,
        });
    }
    for path in files_of(of(all, &["file"])).keys() {
        let scope = format!("file:{path}");
        let run = env.run(&["--dry-run", "--scope", &scope]).ok();
        runs.push(ScopeRun {
            covers: vec!["file"],
            file: Some(path.clone()),
            run,
        });
    }
    runs
}
