//! Finding identity across rounds: is this round's "off-by-one in the loop" the same finding as
//! round 1's, or a new one?
//!
//! The convergence guard stops after two rounds without *new* P1/P2 findings, so "new" must
//! survive rewording and moved lines. A finding's anchor is its file plus a hash of the code around
//! the cited line (read from the work tree), so it keeps its anchor when lines above it shift. Two
//! findings are the same when their anchors agree and their texts are at least loosely similar;
//! when their titles and bodies are clearly similar (`similar`'s ratio); when they point at the
//! same file within a few lines and share half of the smaller one's content words (two of them at
//! least); or, wherever they point, when they share most of their content words (three at least).
//! Content words are compared by their stems (`logged` and `logs` are one word), never by string
//! equality of the whole text; two findings at one line with no word in common stay two.

use std::collections::BTreeMap;
use std::path::Path;

use similar::TextDiff;

use crate::findings::Finding;

/// Text similarity above which two findings are the same without an anchor.
const SAME_TEXT: f32 = 0.6;
/// Text similarity enough when the anchors agree.
const SAME_ANCHORED: f32 = 0.3;
/// Lines apart that count as the same place in one file.
const NEAR_LINES: u32 = 3;
/// Share of the smaller side's content words two findings at the same place must share.
const SAME_NEAR_WORDS: f32 = 0.5;
/// Share of the smaller side's content words two findings anywhere must share.
const SAME_WORDS: f32 = 0.75;

/// The findings seen so far, by id.
#[derive(Debug, Default, Clone)]
pub struct Ledger {
    known: BTreeMap<String, Known>,
    next: usize,
}

#[derive(Debug, Clone)]
struct Known {
    anchor: Option<String>,
    text: String,
    /// The file and first line it pointed at.
    place: Option<(String, u32)>,
    round: u32,
}

/// Whether a finding with `anchor`, `text` and `place` is the known `k`, and how strongly.
fn sameness(
    anchor: &Option<String>,
    text: &str,
    place: &Option<(String, u32)>,
    k: &Known,
) -> Option<f32> {
    let sim = similarity(text, &k.text);
    let anchored = anchor.is_some() && *anchor == k.anchor;
    let near = match (place, &k.place) {
        (Some((pa, la)), Some((pb, lb))) => pa == pb && la.abs_diff(*lb) <= NEAR_LINES,
        _ => false,
    };
    let (shared, share) = word_overlap(text, &k.text);
    let same = sim >= SAME_TEXT
        || (anchored && sim >= SAME_ANCHORED)
        || (near && shared >= 2 && share >= SAME_NEAR_WORDS)
        || (shared >= 3 && share >= SAME_WORDS);
    let score = sim + share + if anchored { 1.0 } else { 0.0 } + if near { 0.5 } else { 0.0 };
    same.then_some(score)
}

impl Ledger {
    /// Remembers a finding of an earlier round under its existing id (resuming a session).
    pub fn remember(&mut self, round: u32, f: &Finding, workspace: Option<&Path>) {
        if let Some(n) = f.id.strip_prefix('F').and_then(|n| n.parse::<usize>().ok()) {
            self.next = self.next.max(n);
        }
        self.known.insert(
            f.id.clone(),
            Known {
                anchor: anchor(f, workspace),
                text: comparable(f),
                place: place(f),
                round,
            },
        );
    }

    /// Marks the known finding `id` as seen in `round` (a disputed finding brought back), so no
    /// other finding of that round takes its id.
    pub fn seen(&mut self, round: u32, id: &str) {
        if let Some(k) = self.known.get_mut(id) {
            k.round = round;
        }
    }

    /// Numbers new findings after `F<last>` (ids an earlier review of the branch gave).
    pub fn reserve(&mut self, last: usize) {
        self.next = self.next.max(last);
    }

    /// Gives each finding of `round` an id: an earlier finding's when it matches one, else a new
    /// `F<n>`. Returns, per finding, whether it is new.
    pub fn assign(
        &mut self,
        round: u32,
        findings: &mut [Finding],
        workspace: Option<&Path>,
    ) -> Vec<bool> {
        let mut taken = Vec::new();
        findings
            .iter_mut()
            .map(|f| {
                let anchor = anchor(f, workspace);
                let text = comparable(f);
                let place = place(f);
                let best = self
                    .known
                    .iter()
                    .filter(|(id, k)| !taken.contains(*id) && k.round < round)
                    .filter_map(|(id, k)| {
                        sameness(&anchor, &text, &place, k).map(|score| (id.clone(), score))
                    })
                    .max_by(|a, b| a.1.total_cmp(&b.1));
                let (id, new) = match best {
                    Some((id, _)) => (id, false),
                    None => {
                        self.next += 1;
                        (format!("F{}", self.next), true)
                    }
                };
                self.known.insert(
                    id.clone(),
                    Known {
                        anchor,
                        text,
                        place,
                        round,
                    },
                );
                taken.push(id.clone());
                f.id = id;
                f.anchor = self.known.get(&f.id).and_then(|k| k.anchor.clone());
                new
            })
            .collect()
    }
}

/// Merges findings of one round that two calls raised — two chunks, or the code and proposal
/// halves of a mixed document saying the same problem — by the same test as
/// [`Ledger::assign`]; the merged finding keeps the higher severity. Findings of one call are
/// never merged (a reviewer that lists the same problem at two places means two places).
/// Returns how many were merged away.
pub fn merge_duplicates(findings: &mut Vec<Finding>, workspace: Option<&Path>) -> usize {
    // Which call raised it: a chunk of one half, of one reviewer (reviewers are merged apart,
    // by [`merge_reviewers`], so each keeps its vote). Unchunked, unsegmented findings all come
    // from the one call.
    let source = |f: &Finding| {
        (f.chunk.is_some() || f.segment.is_some()).then(|| {
            (
                f.segment.clone(),
                f.chunk,
                f.raised_by.first().map(|v| v.reviewer.clone()),
            )
        })
    };
    let same_reviewer = |a: &Finding, b: &Finding| {
        a.raised_by.first().map(|v| &v.reviewer) == b.raised_by.first().map(|v| &v.reviewer)
    };
    let keys: Vec<(Option<String>, String)> = findings
        .iter()
        .map(|f| (anchor(f, workspace), comparable(f)))
        .collect();
    let mut kept: Vec<usize> = Vec::new();
    let mut gone = vec![false; findings.len()];
    for i in 0..findings.len() {
        let same = kept.iter().copied().find(|&k| {
            source(&findings[k]).is_some()
                && source(&findings[i]).is_some()
                && source(&findings[k]) != source(&findings[i])
                && same_reviewer(&findings[k], &findings[i])
                && {
                    let sim = similarity(&keys[i].1, &keys[k].1);
                    let anchored = keys[i].0.is_some() && keys[i].0 == keys[k].0;
                    sim >= SAME_TEXT || (anchored && sim >= SAME_ANCHORED)
                }
        });
        match same {
            Some(k) => {
                // P0 < P1 < P2 < P3 < unclassified: a stated severity wins over none.
                let higher = findings[i].severity;
                if higher < findings[k].severity {
                    findings[k].severity = higher;
                    for v in &mut findings[k].raised_by {
                        v.severity = higher;
                    }
                }
                gone[i] = true;
            }
            None => kept.push(i),
        }
    }
    let mut i = 0;
    findings.retain(|_| {
        i += 1;
        !gone[i - 1]
    });
    gone.iter().filter(|g| **g).count()
}

/// Merges the findings of several reviewers that are one finding, by the cross-round test
/// ([`sameness`]): the merged finding keeps the first wording, every reviewer's vote at its own
/// level, and the highest level as its own. Findings of one reviewer are never merged with each
/// other (that is [`merge_duplicates`]' question), nor the two halves of a mixed document.
/// Returns how many were merged away.
pub fn merge_reviewers(findings: &mut Vec<Finding>, workspace: Option<&Path>) -> usize {
    let voters =
        |f: &Finding| -> Vec<String> { f.raised_by.iter().map(|v| v.reviewer.clone()).collect() };
    let mut kept: Vec<(Finding, Known)> = Vec::new();
    let mut merged = 0;
    for f in findings.drain(..) {
        let (anchor, text, place) = (anchor(&f, workspace), comparable(&f), place(&f));
        let mine = voters(&f);
        let best = kept
            .iter()
            .enumerate()
            .filter(|(_, (k, _))| {
                k.segment == f.segment && !voters(k).iter().any(|v| mine.contains(v))
            })
            .filter_map(|(i, (_, known))| {
                sameness(&anchor, &text, &place, known).map(|score| (i, score))
            })
            .max_by(|a, b| a.1.total_cmp(&b.1));
        match best {
            Some((i, _)) => {
                let k = &mut kept[i].0;
                if f.severity < k.severity {
                    k.severity = f.severity;
                }
                for mut v in f.raised_by {
                    if v.title.is_empty() && f.title != k.title {
                        v.title = f.title.clone();
                    }
                    k.raised_by.push(v);
                }
                merged += 1;
            }
            None => {
                let known = Known {
                    anchor,
                    text,
                    place,
                    round: 0,
                };
                kept.push((f, known));
            }
        }
    }
    findings.extend(kept.into_iter().map(|(f, _)| f));
    merged
}

fn comparable(f: &Finding) -> String {
    format!("{} {}", f.title, f.body).to_lowercase()
}

/// The file and first line a finding points at.
fn place(f: &Finding) -> Option<(String, u32)> {
    let l = f
        .location
        .as_ref()
        .filter(|l| !l.outside && !l.path.is_empty())?;
    Some((l.path.clone(), l.start_line?))
}

/// Words too common in reviews to tell findings apart.
const COMMON: &[&str] = &[
    "the", "and", "for", "with", "this", "that", "when", "from", "are", "was", "not", "but", "can",
    "will", "into", "its", "has", "have", "been", "which", "there", "their", "than", "then",
    "also", "only", "any", "all", "one", "should", "would", "could", "may", "might", "must",
    "does", "use", "code", "line", "file", "function", "because", "here", "now", "instead", "you",
    "your", "our", "they", "what", "where", "how", "why", "more", "less",
];

/// The stem of a word: common endings off (`concatenated` and `concatenation` are one stem, so
/// are `logged` and `logs`), then a doubled last letter made single.
fn stem(w: &str) -> String {
    const ENDINGS: &[&str] = &[
        "ations", "ation", "ating", "ated", "ates", "ings", "ing", "ions", "ion", "ied", "ies",
        "ed", "es", "s",
    ];
    let mut s = w.to_string();
    if let Some(e) = ENDINGS
        .iter()
        .find(|e| s.ends_with(*e) && s.len() >= e.len() + 3)
    {
        s.truncate(s.len() - e.len());
    }
    let b = s.as_bytes();
    if b.len() >= 4 && b[b.len() - 1] == b[b.len() - 2] && !b"aeiou".contains(&b[b.len() - 1]) {
        s.pop();
    }
    s
}

/// The stems of a text's content words.
fn stems(text: &str) -> std::collections::BTreeSet<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 3 && w.chars().any(char::is_alphabetic))
        .filter(|w| !COMMON.contains(w))
        .map(stem)
        .collect()
}

/// How many content-word stems two texts share, and the share of the smaller side's stems that
/// is.
fn word_overlap(a: &str, b: &str) -> (usize, f32) {
    let (a, b) = (stems(a), stems(b));
    let smaller = a.len().min(b.len());
    let shared = a.intersection(&b).count();
    if smaller == 0 {
        return (0, 0.0);
    }
    (shared, shared as f32 / smaller as f32)
}

/// The share of words two texts have in common, in order (whitespace does not count: with it,
/// any two sentences look half alike).
fn similarity(a: &str, b: &str) -> f32 {
    fn words(s: &str) -> Vec<&str> {
        s.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect()
    }
    let (a, b) = (words(a), words(b));
    TextDiff::configure().diff_slices(&a, &b).ratio()
}

/// `path#hash-of-the-lines-around-it`, or `path:line` when the file cannot be read, or `None`
/// without a location.
fn anchor(f: &Finding, workspace: Option<&Path>) -> Option<String> {
    let loc = f.location.as_ref().filter(|l| !l.outside)?;
    let path = loc.path.as_str();
    let line = loc.start_line? as usize;
    // Only repository paths: a model's answer never picks a local file to read.
    if !Path::new(path)
        .components()
        .all(|c| matches!(c, std::path::Component::Normal(_)))
    {
        return Some(format!("{path}:{line}"));
    }
    // A path from an answer: never a FIFO or device, never unbounded.
    let content = workspace
        .and_then(|w| {
            crate::sys::file_io::read_regular(&w.join(path), crate::sys::file_io::CITED_FILE_CAP)
                .ok()
        })
        .and_then(|b| String::from_utf8(b).ok());
    match content.and_then(|text| window_hash(&text, line)) {
        Some(hash) => Some(format!("{path}#{hash}")),
        None => Some(format!("{path}:{line}")),
    }
}

/// The hash of the lines around `line` (from 1) of `text`, whitespace-insensitive: what an anchor
/// holds, so the same code hashes alike wherever it moved. `None` when no line is near `line`.
pub fn window_hash(text: &str, line: usize) -> Option<String> {
    window_hash_of(&text.lines().collect::<Vec<_>>(), line)
}

/// [`window_hash`] of a text already split into lines.
pub fn window_hash_of(all: &[&str], line: usize) -> Option<String> {
    let from = line.saturating_sub(3);
    let to = (line + 2).min(all.len());
    if from >= to {
        return None;
    }
    let window: String = all[from..to]
        .iter()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n");
    Some(sha1_smol::Sha1::from(window).digest().to_string()[..12].to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::findings::Severity;

    fn f(title: &str, body: &str, at: Option<&str>) -> Finding {
        let mut f = Finding::new(Severity::P1, title);
        f.body = body.into();
        f.location = at.map(|a| {
            let (p, l) = a.rsplit_once(':').unwrap();
            crate::findings::Location::new(p, l.parse().ok(), None)
        });
        f
    }

    #[test]
    fn reworded_findings_keep_their_id_and_new_ones_get_one() {
        let mut l = Ledger::default();
        let mut r1 = vec![
            f(
                "Off-by-one in the retry loop",
                "the last attempt is skipped",
                None,
            ),
            f("Secret logged at debug level", "the token is printed", None),
        ];
        assert_eq!(l.assign(1, &mut r1, None), [true, true]);
        let mut r2 = vec![
            f(
                "Secret is logged at debug level",
                "the API token gets printed",
                None,
            ),
            f("Unbounded cache growth", "entries are never evicted", None),
        ];
        assert_eq!(l.assign(2, &mut r2, None), [false, true]);
        assert_eq!(r2[0].id, r1[1].id);
        assert_eq!(r2[1].id, "F3");
    }

    #[test]
    fn a_finding_that_moved_lines_keeps_its_anchor() {
        let tmp = tempfile::tempdir().unwrap();
        let body = "fn a() {}\nfn b() {\n    let x = v[i + 1];\n}\n";
        std::fs::write(tmp.path().join("lib.rs"), body).unwrap();
        let mut l = Ledger::default();
        let mut r1 = vec![f(
            "index may overflow",
            "v[i+1] at the end",
            Some("lib.rs:3"),
        )];
        l.assign(1, &mut r1, Some(tmp.path()));
        // Two lines inserted above; the reviewer now cites line 5 and words it differently.
        std::fs::write(tmp.path().join("lib.rs"), format!("// a\n// b\n{body}")).unwrap();
        let mut r2 = vec![f(
            "possible out-of-bounds index",
            "v[i + 1] overflows at the end",
            Some("lib.rs:5"),
        )];
        assert_eq!(l.assign(2, &mut r2, Some(tmp.path())), [false]);
        assert_eq!(r2[0].id, r1[0].id);
    }

    #[test]
    fn different_problems_at_one_line_stay_different() {
        let mut l = Ledger::default();
        let mut r1 = vec![f(
            "integer overflow in add",
            "a plus b can wrap around",
            Some("lib.rs:2"),
        )];
        l.assign(1, &mut r1, None);
        let mut r2 = vec![f(
            "missing documentation comment",
            "public function lacks docs",
            Some("lib.rs:2"),
        )];
        assert_eq!(l.assign(2, &mut r2, None), [true]);
        assert!(similarity("the quick brown fox", "a slow red dog") < 0.1);
    }

    #[test]
    fn duplicates_from_two_chunks_merge_and_one_answer_s_findings_never_do() {
        let chunk = |k: u32, title: &str, body: &str, at: Option<&str>| {
            let mut x = f(title, body, at);
            x.chunk = Some(k);
            x
        };
        let mut found = vec![
            chunk(
                1,
                "config key is not documented",
                "debate.concurrency missing",
                None,
            ),
            chunk(
                1,
                "config key is not documented",
                "debate.concurrency missing",
                None,
            ),
            chunk(
                2,
                "Config key not documented",
                "debate.concurrency is missing",
                None,
            ),
            chunk(
                2,
                "unbounded queue",
                "the queue grows without limit",
                Some("q.rs:4"),
            ),
        ];
        found[2].severity = Severity::P0;
        assert_eq!(merge_duplicates(&mut found, None), 1);
        assert_eq!(found.len(), 3);
        // The two from chunk 1 stay two; the merged one took chunk 2's higher severity.
        assert_eq!(found[0].severity, Severity::P0);
        assert_eq!(found[1].chunk, Some(1));
        assert_eq!(found[2].title, "unbounded queue");
    }

    #[test]
    fn reviewers_merge_by_identity_and_each_keeps_its_vote() {
        let by = |who: &str, sev: Severity, mut x: Finding| {
            x.severity = sev;
            x.raised_by = vec![crate::findings::Vote {
                reviewer: who.into(),
                family: who.into(),
                severity: sev,
                title: String::new(),
            }];
            x
        };
        let mut found = vec![
            by(
                "codex",
                Severity::P2,
                f(
                    "SQL built by concatenation",
                    "the term is pasted in",
                    Some("db.rs:40"),
                ),
            ),
            by(
                "codex",
                Severity::P2,
                f(
                    "Missing index on users.email",
                    "lookups scan the table",
                    Some("db.rs:90"),
                ),
            ),
            by(
                "gemini",
                Severity::P1,
                f(
                    "SQL query concatenated",
                    "user term pasted into the SQL",
                    Some("db.rs:41"),
                ),
            ),
            by(
                "gemini",
                Severity::P3,
                f("Typo in a comment", "teh", Some("db.rs:2")),
            ),
        ];
        assert_eq!(merge_reviewers(&mut found, None), 1);
        // One reviewer's findings are never merged with each other; gemini's joins the first,
        // at its own level, and the merged level is the highest.
        assert_eq!(found.len(), 3);
        assert_eq!(found[0].severity, Severity::P1);
        let votes: Vec<(&str, Severity)> = found[0]
            .raised_by
            .iter()
            .map(|v| (v.reviewer.as_str(), v.severity))
            .collect();
        assert_eq!(votes, [("codex", Severity::P2), ("gemini", Severity::P1)]);
        assert_eq!(found[0].raised_by[1].title, "SQL query concatenated");
        assert_eq!(found[1].raised_by.len(), 1);
        assert_eq!(found[2].title, "Typo in a comment");
    }

    #[test]
    fn a_reworded_finding_nearby_keeps_its_id_and_a_distinct_one_does_not() {
        let mut l = Ledger::default();
        let mut r1 = vec![
            f(
                "SQL query built by string concatenation",
                "search() pastes the user's term into the SQL",
                Some("db.rs:40"),
            ),
            f(
                "Secret logged at debug level",
                "the API token is printed",
                None,
            ),
        ];
        l.assign(1, &mut r1, None);
        let mut r2 = vec![
            f(
                "Injection: user input concatenated into SQL",
                "the search term goes straight into the query string",
                Some("db.rs:42"),
            ),
            f(
                "Missing index on the orders table",
                "the report query scans every row",
                Some("db.rs:41"),
            ),
            f(
                "API token printed in debug logs",
                "debug logging shows the secret token",
                None,
            ),
        ];
        assert_eq!(l.assign(2, &mut r2, None), [false, true, false]);
        assert_eq!(r2[0].id, r1[0].id);
        assert_eq!(r2[2].id, r1[1].id);
        assert_eq!(r2[1].id, "F3");
    }

    #[test]
    fn two_findings_of_one_round_never_share_an_id() {
        let mut l = Ledger::default();
        let mut r1 = vec![f("missing timeout", "http call", None)];
        l.assign(1, &mut r1, None);
        let mut r2 = vec![
            f("missing timeout", "http call", None),
            f("missing timeout", "http call again", None),
        ];
        l.assign(2, &mut r2, None);
        assert_ne!(r2[0].id, r2[1].id);
    }
}
