//! The house keeps its shape: the module graph of `src/` read from the sources, checked for
//! cycles at every depth and for edges that run up the layers, and `unsafe` kept in `src/sys/`.
//!
//! The layers, lowest first (a module may use its own layer and those below):
//!
//! | layer | folders |
//! |---|---|
//! | 0 | `sys`, `ui`, `error`, `choices`, `toml_lite`, `pattern` — the OS, the terminal, exit codes, closed vocabularies, the TOML our own files use, regexes compiled on demand |
//! | 1 | `cli`, `settings`, `flags`, `git` — what was typed, what it means, the repository |
//! | 2 | `markdown`, `change`, `redact`, `injection`, `instructions`, `store`, `findings`, `waivers` — material and records |
//! | 3 | `agents`, `sandbox`, `prompts`, `answer` — models, what they may touch, what they said |
//! | 4 | `review`, `debate` — the engines |
//! | 5 | `report`, `transcript` — output |
//! | 6 | `commands` — one thin file per subcommand |
//!
//! `choices` holds the settings' closed vocabularies (mode, format, fail-on, ...) and depends on
//! nothing of ours, so the command line, the settings, the session records and the reports can
//! all use the same enums. `flags` turns the command line into settings overrides, so that `cli`
//! and `settings` never import each other.
//!
//! A child module using its parent's items, and a parent using its children, is containment, not
//! a dependency between parts, so edges between a module and its ancestors are not counted.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const LAYERS: &[(&str, u8)] = &[
    ("sys", 0),
    ("ui", 0),
    ("error", 0),
    ("choices", 0),
    ("toml_lite", 0),
    ("pattern", 0),
    ("cli", 1),
    ("settings", 1),
    ("flags", 1),
    ("git", 1),
    ("markdown", 2),
    ("change", 2),
    ("redact", 2),
    ("injection", 2),
    ("instructions", 2),
    ("store", 2),
    ("findings", 2),
    ("waivers", 2),
    ("agents", 3),
    ("sandbox", 3),
    ("prompts", 3),
    ("answer", 3),
    ("review", 4),
    ("debate", 4),
    ("report", 5),
    ("transcript", 5),
    ("commands", 6),
];

/// At most this many `unsafe` sites, all in `src/sys/`, each under a `// SAFETY:` comment.
const MAX_UNSAFE: usize = 8;

type Mod = Vec<String>;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The source with comments and string or char literals blanked out (same length, newlines
/// kept), so only code is searched.
fn code_only(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = b.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for c in &mut out[from..to.min(b.len())] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    };
    let mut i = 0;
    while i < b.len() {
        let prev_ident = i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        if b[i..].starts_with(b"//") {
            let end = src[i..].find('\n').map_or(b.len(), |e| i + e);
            blank(&mut out, i, end);
            i = end;
        } else if b[i..].starts_with(b"/*") {
            let (mut depth, mut j) = (1, i + 2);
            while j < b.len() && depth > 0 {
                if b[j..].starts_with(b"/*") {
                    depth += 1;
                    j += 2;
                } else if b[j..].starts_with(b"*/") {
                    depth -= 1;
                    j += 2;
                } else {
                    j += 1;
                }
            }
            blank(&mut out, i, j);
            i = j;
        } else if !prev_ident && (b[i..].starts_with(b"r#") || b[i..].starts_with(b"r\"")) {
            let hashes = b[i + 1..].iter().take_while(|c| **c == b'#').count();
            if b.get(i + 1 + hashes) != Some(&b'"') {
                i += 1;
                continue;
            }
            let close = format!("\"{}", "#".repeat(hashes));
            let start = i + 2 + hashes;
            let end = src[start..]
                .find(&close)
                .map_or(b.len(), |e| start + e + close.len());
            blank(&mut out, i, end);
            i = end;
        } else if b[i] == b'"' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'"' {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            blank(&mut out, i, j + 1);
            i = j + 1;
        } else if b[i] == b'\'' {
            // A char literal ('x', '\n', '\u{..}'), not a lifetime ('a).
            let rest = &src[i + 1..];
            let len = if rest.starts_with('\\') {
                rest.find('\'').map(|e| e + 2)
            } else {
                rest.chars()
                    .next()
                    .filter(|_| rest[rest.chars().next().unwrap().len_utf8()..].starts_with('\''))
                    .map(|c| c.len_utf8() + 2)
            };
            match len {
                Some(l) => {
                    blank(&mut out, i, i + l);
                    i += l;
                }
                None => i += 1,
            }
        } else {
            i += 1;
        }
    }
    String::from_utf8(out).expect("blanking keeps UTF-8")
}

/// Every module file under `src/`, by module path, following `mod x;` from `lib.rs`.
fn modules() -> BTreeMap<Mod, PathBuf> {
    let mut out = BTreeMap::new();
    let decl = regex::Regex::new(
        r#"(?m)^((?:[ \t]*#\[[^\]]*\][ \t]*\n)*)[ \t]*(?:pub(?:\([a-z]+\))?\s+)?mod\s+([a-z_][a-z0-9_]*)\s*;"#,
    )
    .unwrap();
    let path_attr = regex::Regex::new(r#"#\[path\s*=\s*"([^"]+)"\]"#).unwrap();
    let mut stack = vec![(Vec::<String>::new(), src().join("lib.rs"))];
    while let Some((m, file)) = stack.pop() {
        let text = std::fs::read_to_string(&file).unwrap();
        let code = code_only(&text);
        let dir = file.parent().unwrap().to_path_buf();
        let stem = file.file_stem().unwrap().to_str().unwrap().to_string();
        for c in decl.captures_iter(&text) {
            let name = c[2].to_string();
            if !code[c.get(2).unwrap().start()..].starts_with(&name) {
                continue;
            }
            let child = if let Some(p) = path_attr.captures(&c[1]) {
                dir.join(&p[1])
            } else {
                let base = if ["mod", "lib"].contains(&stem.as_str()) {
                    dir.clone()
                } else {
                    dir.join(&stem)
                };
                let flat = base.join(format!("{name}.rs"));
                if flat.exists() {
                    flat
                } else {
                    base.join(&name).join("mod.rs")
                }
            };
            let mut cm = m.clone();
            cm.push(name);
            stack.push((cm, child));
        }
        out.insert(m, file);
    }
    out
}

/// The modules a file's code names: `crate::a::b`, `super::x`, `self::x` and `use crate::{..}`
/// groups, resolved to the longest known module prefix.
fn uses(m: &Mod, code: &str, known: &BTreeSet<Mod>) -> BTreeSet<Mod> {
    let mut paths: Vec<Vec<String>> = Vec::new();
    let path =
        regex::Regex::new(r"(?:^|[^A-Za-z0-9_:])(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)+)")
            .unwrap();
    for c in path.captures_iter(code) {
        let rest: Vec<String> = c[2]
            .split("::")
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect();
        paths.push(absolute(m, &c[1], rest));
    }
    let group = regex::Regex::new(r"\buse\s+(crate|super|self)((?:::[A-Za-z_][A-Za-z0-9_]*)*)::\{")
        .unwrap();
    for c in group.captures_iter(code) {
        let open = c.get(0).unwrap().end() - 1;
        let close = matching(code, open);
        let prefix: Vec<String> = c[2]
            .split("::")
            .filter(|s| !s.is_empty())
            .map(String::from)
            .collect();
        for p in expand(&code[open + 1..close], &absolute(m, &c[1], prefix)) {
            paths.push(p);
        }
    }
    paths
        .into_iter()
        .filter_map(|p| {
            (1..=p.len())
                .rev()
                .map(|i| p[..i].to_vec())
                .find(|q| known.contains(q))
        })
        .filter(|t| t != m)
        .collect()
}

fn absolute(m: &Mod, root: &str, rest: Vec<String>) -> Vec<String> {
    if root == "crate" {
        return rest;
    }
    let mut cur = m.clone();
    if root == "super" {
        cur.pop();
    }
    let mut it = rest.into_iter().peekable();
    while it.peek().is_some_and(|s| s == "super") {
        cur.pop();
        it.next();
    }
    cur.extend(it);
    cur
}

fn matching(code: &str, open: usize) -> usize {
    let mut depth = 0;
    for (i, c) in code[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return open + i;
                }
            }
            _ => {}
        }
    }
    code.len()
}

/// `a::b, c::{d, e}` under `prefix` as full paths.
fn expand(body: &str, prefix: &[String]) -> Vec<Vec<String>> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in body.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&body[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&body[start..]);
    let mut out = Vec::new();
    for p in parts.iter().map(|p| p.trim()).filter(|p| !p.is_empty()) {
        if let Some(open) = p.find('{') {
            let mut pre = prefix.to_vec();
            pre.extend(
                p[..open]
                    .split("::")
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(String::from),
            );
            out.extend(expand(&p[open + 1..p.rfind('}').unwrap_or(p.len())], &pre));
        } else {
            let mut full = prefix.to_vec();
            let name = p.split(" as ").next().unwrap_or(p);
            full.extend(
                name.split("::")
                    .map(str::trim)
                    .filter(|s| !s.is_empty() && *s != "self")
                    .map(String::from),
            );
            out.push(full);
        }
    }
    out
}

fn layer(m: &[String]) -> Option<u8> {
    LAYERS
        .iter()
        .find(|(n, _)| m.first().is_some_and(|f| f == n))
        .map(|(_, l)| *l)
}

fn related(a: &[String], b: &[String]) -> bool {
    a.starts_with(b) || b.starts_with(a)
}

fn name(m: &[String]) -> String {
    if m.is_empty() {
        "crate".into()
    } else {
        m.join("::")
    }
}

/// The module graph: each module and the modules its code names.
fn graph() -> (BTreeMap<Mod, PathBuf>, BTreeMap<Mod, BTreeSet<Mod>>) {
    let files = modules();
    let known: BTreeSet<Mod> = files.keys().cloned().collect();
    let edges = files
        .iter()
        .map(|(m, f)| {
            (
                m.clone(),
                uses(m, &code_only(&std::fs::read_to_string(f).unwrap()), &known),
            )
        })
        .collect();
    (files, edges)
}

/// Strongly connected parts of more than one node, with modules cut to `depth` segments.
fn cycles(edges: &BTreeMap<Mod, BTreeSet<Mod>>, depth: usize) -> Vec<Vec<String>> {
    let cut = |m: &Mod| m[..m.len().min(depth)].to_vec();
    let mut g: BTreeMap<Mod, BTreeSet<Mod>> = BTreeMap::new();
    for (a, bs) in edges {
        for b in bs {
            let (ta, tb) = (cut(a), cut(b));
            if ta != tb && !related(&ta, &tb) && !ta.is_empty() {
                g.entry(ta).or_default().insert(tb);
            }
        }
    }
    // Kosaraju: order by finish time, then walk the reversed graph.
    let nodes: Vec<Mod> = g
        .keys()
        .chain(g.values().flatten())
        .cloned()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let mut seen = BTreeSet::new();
    let mut order = Vec::new();
    for n in &nodes {
        let mut stack = vec![(n.clone(), false)];
        while let Some((v, done)) = stack.pop() {
            if done {
                order.push(v);
                continue;
            }
            if !seen.insert(v.clone()) {
                continue;
            }
            stack.push((v.clone(), true));
            for w in g.get(&v).into_iter().flatten() {
                if !seen.contains(w) {
                    stack.push((w.clone(), false));
                }
            }
        }
    }
    let mut rev: BTreeMap<Mod, Vec<Mod>> = BTreeMap::new();
    for (a, bs) in &g {
        for b in bs {
            rev.entry(b.clone()).or_default().push(a.clone());
        }
    }
    let mut assigned = BTreeSet::new();
    let mut out = Vec::new();
    for v in order.iter().rev() {
        if assigned.contains(v) {
            continue;
        }
        let mut comp = Vec::new();
        let mut stack = vec![v.clone()];
        assigned.insert(v.clone());
        while let Some(x) = stack.pop() {
            comp.push(name(&x));
            for w in rev.get(&x).into_iter().flatten() {
                if assigned.insert(w.clone()) {
                    stack.push(w.clone());
                }
            }
        }
        if comp.len() > 1 {
            comp.sort();
            out.push(comp);
        }
    }
    out
}

/// Problems still being worked off: each must disappear, and no new one may appear.
const KNOWN: &[&str] = &[];

#[test]
fn layers_without_cycles_and_unsafe_only_in_sys() {
    let (files, edges) = graph();
    assert!(files.len() > 100, "{} modules found", files.len());
    let mut problems = BTreeSet::new();
    for (a, bs) in &edges {
        for b in bs {
            if related(a, b) {
                continue;
            }
            if let (Some(la), Some(lb)) = (layer(a), layer(b)) {
                if lb > la {
                    problems.insert(format!("upward: {} -> {}", name(a), name(b)));
                }
            }
        }
    }
    for depth in 1..=6 {
        for c in cycles(&edges, depth) {
            problems.insert(format!("cycle: {}", c.join(" <-> ")));
        }
    }
    problems.extend(unsafe_problems(&files));
    for m in files.keys() {
        if !m.is_empty() && layer(m).is_none() {
            problems.insert(format!("no layer: {}", name(m)));
        }
    }
    let known: BTreeSet<String> = KNOWN.iter().map(|s| s.to_string()).collect();
    let new: Vec<_> = problems.difference(&known).collect();
    let gone: Vec<_> = known.difference(&problems).collect();
    assert!(
        new.is_empty(),
        "the module graph gained problems:\n{}",
        new.iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        gone.is_empty(),
        "fixed, so take these out of KNOWN:\n{}",
        gone.iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}

/// `unsafe` outside `src/sys/` (by file), undocumented sites in it, and too many sites.
fn unsafe_problems(files: &BTreeMap<Mod, PathBuf>) -> BTreeSet<String> {
    let word = regex::Regex::new(r"\bunsafe\b").unwrap();
    let mut problems = BTreeSet::new();
    let mut sites = 0;
    let main = src().join("main.rs");
    let bins = std::fs::read_dir(src().join("bin"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path());
    for f in files.values().cloned().chain([main]).chain(bins) {
        let text = std::fs::read_to_string(&f).unwrap();
        let code = code_only(&text);
        let rel = f.strip_prefix(src()).unwrap().display().to_string();
        let lines: Vec<&str> = text.lines().collect();
        for m in word.find_iter(&code) {
            if !rel.starts_with("sys/") {
                problems.insert(format!("unsafe outside src/sys/: src/{rel}"));
                continue;
            }
            sites += 1;
            let line = code[..m.start()].matches('\n').count();
            let above = lines[line.saturating_sub(4)..=line].join("\n");
            if !above.contains("SAFETY:") && !above.contains("# Safety") {
                problems.insert(format!("unsafe without a SAFETY comment: src/{rel}"));
            }
        }
    }
    if sites > MAX_UNSAFE {
        problems.insert(format!("more than {MAX_UNSAFE} unsafe sites in src/sys/"));
    }
    problems
}

/// The folders that must not build JSON with `json!` or read it by `value["key"]`: everything
/// they write or read of their own (session records, reports, listings) is a serde type
/// (`crate::store` holds the records), so a shape is decided by a type and a foreign or damaged
/// file fails with serde's words instead of silently becoming defaults.
///
/// JSON made by others is read elsewhere, and there `Value` is the honest type:
///
/// | folder | outside JSON it reads or writes |
/// |---|---|
/// | `agents` | agent CLIs' output (stream events, usage, errors), ACP and JSON-RPC messages, OpenAI-compatible HTTP bodies, CLIs' config files |
/// | `answer` | model answers: JSON blocks, schema-enforced objects, normaliser restatements |
/// | `transcript` | agents' own transcripts, for `--last-message` |
/// | `sandbox` | an agent CLI's permission settings, in that CLI's format |
/// | `bin` | the fake agent CLIs the tests run, speaking those CLIs' formats |
///
/// Where a guarded folder reads a model's answer (a debate's verdict, a panel chair's ruling), it
/// reads it into a small serde type of its own or through `Value::get`, never by indexing.
/// Test code (`#[cfg(test)]` modules, `*tests.rs`) may build hostile and foreign JSON freely.
const TYPED_JSON: &[&str] = &[
    "store", "review", "debate", "report", "commands", "settings",
];

/// `text` with its `#[cfg(test)] mod … { … }` blocks blanked (newlines kept).
fn without_test_modules(text: &str) -> String {
    let code = code_only(text);
    let test_mod =
        regex::Regex::new(r"#\[cfg\(test\)\]\s*(?:pub(?:\([a-z]+\))?\s+)?mod\s+\w+\s*\{").unwrap();
    let mut out = text.as_bytes().to_vec();
    for m in test_mod.find_iter(&code) {
        let close = matching(&code, m.end() - 1);
        for c in &mut out[m.start()..close.min(text.len())] {
            if *c != b'\n' {
                *c = b' ';
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[test]
fn our_own_json_is_typed() {
    let json_macro = regex::Regex::new(r"\bjson!\s*[\(\[\{]").unwrap();
    let index = regex::Regex::new(r#"[A-Za-z0-9_)\]]\s*\[\s*"[^"\n]*"\s*\]"#).unwrap();
    let mut problems = Vec::new();
    for (m, file) in modules() {
        let top = m.first().map(String::as_str).unwrap_or("");
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        if !TYPED_JSON.contains(&top) || name.ends_with("tests.rs") {
            continue;
        }
        let text = without_test_modules(&std::fs::read_to_string(&file).unwrap());
        let code = code_only(&text);
        let rel = file.strip_prefix(src()).unwrap().display().to_string();
        let line = |at: usize| text[..at].matches('\n').count() + 1;
        for hit in json_macro.find_iter(&code) {
            problems.push(format!("src/{rel}:{}: json!", line(hit.start())));
        }
        // Matched in the text (the key is a string literal, which `code_only` blanks), counted
        // only where the bracket is code.
        for hit in index.find_iter(&text) {
            let bracket = hit.start() + 1 + text[hit.start() + 1..].find('[').unwrap();
            if code.as_bytes()[bracket] == b'[' {
                problems.push(format!("src/{rel}:{}: {}", line(hit.start()), hit.as_str()));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "our own JSON built or read untyped (use a serde type; see TYPED_JSON):\n{}",
        problems.join("\n")
    );
}
