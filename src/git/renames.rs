//! Which added file is which deleted (or, with copies, modified) file moved: git's pairing.
//!
//! libgit2's `find_similar` pairs differently from `git diff -M`: another similarity measure,
//! another order of choosing among candidates, no preference for a file that keeps its name. On
//! real history (rails) its pairs differed from git's in 8 % of the commits with a rename or a
//! deletion. So the pairing is done here, step for step as git does it:
//!
//! 1. exact renames (same blob), preferring a source not used yet and one with the same file name
//!    (at most 100 candidates are tried per destination; used sources are passed over uncounted,
//!    so a move of hundreds of identical files pairs every one);
//! 2. (renames only, not copies) a source and a destination whose file name is unique among those
//!    left on each side are paired when at least 75 % similar;
//! 3. unless the rename limit (`diff.renameLimit`, 1000) is exceeded by sources x destinations,
//!    every destination left keeps its four best sources (ties: same file name first), all of
//!    them are sorted best first, and pairs are taken in that order, at 50 % or more, each
//!    source at most once (a second pass then allows copies of a source).
//!
//! A source used more than once gives copies (`C`), the last destination in path order the
//! rename (`R`); a deleted file paired with anything is no longer listed as deleted.
//! `diff.renames` (true by default, `false`, or `copies`) is honoured as git honours it.

use std::cell::OnceCell;
use std::collections::{HashMap, HashSet};

use git2::{ObjectType, Oid, Repository};

use crate::git::matrix::{compare, Candidate, Scorable};
use crate::git::similarity::{self, Signature, MAX_SCORE};
use crate::git::Status;
use crate::git::{content, gitconfig};

/// git's default `-M`: 50 %.
const MINIMUM: u64 = MAX_SCORE / 2;
/// Destinations whose names are unique must be this similar to pair by name (git's 50 % + half
/// of the rest).
const BASENAME_MINIMUM: u64 = MINIMUM + (MAX_SCORE - MINIMUM) / 2;
/// git's `diff.renameLimit` default.
const DEFAULT_LIMIT: i64 = 1000;
/// git gives up looking among identical sources after trying this many (a source of another
/// kind, or one already used when only renames are looked for, is passed over, not tried).
const IDENTICAL_TRIES: usize = 100;

/// `diff.renames` and `diff.renameLimit`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Settings {
    pub renames: bool,
    pub copies: bool,
    /// 0: no limit.
    pub limit: usize,
}

impl Settings {
    pub fn from_config(repo: &Repository) -> Settings {
        let word = gitconfig::string(repo, "diff.renames").map(|w| w.trim().to_ascii_lowercase());
        let (renames, copies) = match word.as_deref() {
            Some("copies" | "copy") => (true, true),
            Some(w) if crate::settings::parse_bool(w) == Some(false) => (false, false),
            _ => (true, false),
        };
        let limit = gitconfig::integer(repo, "diff.renameLimit").unwrap_or(DEFAULT_LIMIT);
        Settings {
            renames,
            copies,
            limit: usize::try_from(limit).unwrap_or(0),
        }
    }
}

/// One side of a delta that may be a source or a destination.
#[derive(Debug, Clone)]
pub(super) struct Side {
    /// The delta's index in the diff.
    pub delta: usize,
    pub path: Vec<u8>,
    /// The blob; zero for a work-tree file libgit2 did not hash.
    pub id: Oid,
    pub mode: u32,
}

/// What was found.
#[derive(Debug, Default)]
pub(super) struct Pairs {
    /// Destination delta -> (source delta, `Renamed` or `Copied`).
    pub by_dst: HashMap<usize, (usize, Status)>,
    /// Deleted files that moved: listed as the rename, not as deleted.
    pub moved_away: HashSet<usize>,
    /// Set when the rename limit stopped the search: the limit that would have let it run.
    pub needed_limit: Option<usize>,
}

/// A candidate with its content loaded on first need.
struct Entry {
    side: Side,
    /// Times used as a source (a modified file counts itself once, as in git).
    used: u32,
    pair: Option<usize>,
    loaded: OnceCell<Option<(u64, Signature)>>,
}

impl Entry {
    fn new(side: Side, used: u32) -> Entry {
        Entry {
            side,
            used,
            pair: None,
            loaded: OnceCell::new(),
        }
    }
    fn regular(&self) -> bool {
        self.side.mode & 0o170000 == 0o100000
    }
}

/// Pairs `dsts` (added files) with `srcs` (deleted files, then with copies the old side of
/// modified files, flagged `true`), both in path order.
pub(super) fn pair(
    repo: &Repository,
    settings: Settings,
    srcs: Vec<(Side, bool)>,
    dsts: Vec<Side>,
) -> Pairs {
    let mut out = Pairs::default();
    if !settings.renames || srcs.is_empty() || dsts.is_empty() {
        return out;
    }
    let mut srcs: Vec<Entry> = srcs
        .into_iter()
        .filter(|(_, modified)| settings.copies || !modified)
        .map(|(s, modified)| Entry::new(s, u32::from(modified)))
        .collect();
    let mut dsts: Vec<Entry> = dsts.into_iter().map(|d| Entry::new(d, 0)).collect();
    for d in &mut dsts {
        if d.side.id.is_zero() {
            // A work-tree file: its id is what makes an exact rename.
            if let Some(bytes) = content::side_bytes(repo, d.side.id, &d.side.path) {
                d.side.id = Oid::hash_object(ObjectType::Blob, &bytes).unwrap_or(d.side.id);
                let _ = d
                    .loaded
                    .set(Some((bytes.len() as u64, Signature::of(&bytes))));
            }
        }
    }
    exact(&mut srcs, &mut dsts, settings.copies);
    let loader = Loader::new(repo);
    if !settings.copies {
        by_file_name(&mut srcs, &mut dsts, &loader);
    }
    let active: Vec<usize> = (0..srcs.len())
        .filter(|&s| settings.copies || srcs[s].used == 0)
        .collect();
    let left: Vec<usize> = (0..dsts.len())
        .filter(|&d| dsts[d].pair.is_none())
        .collect();
    if !active.is_empty() && !left.is_empty() {
        if settings.limit > 0 && left.len() * active.len() > settings.limit * settings.limit {
            out.needed_limit = Some(left.len().max(active.len()));
        } else {
            for &s in &active {
                loader.load(&srcs[s]);
            }
            for &d in &left {
                loader.load(&dsts[d]);
            }
            let mut matrix =
                crate::git::matrix::best_candidates(&view(&srcs, &active), &view(&dsts, &left));
            matrix.sort_by(compare);
            take_pairs(&matrix, &active, &left, &mut srcs, &mut dsts, false);
            if settings.copies {
                take_pairs(&matrix, &active, &left, &mut srcs, &mut dsts, true);
            }
        }
    }
    // Statuses in destination order: each use but the last of a source is a copy.
    let mut sources = HashSet::new();
    for d in &dsts {
        let Some(s) = d.pair else { continue };
        let src = &mut srcs[s];
        src.used -= 1;
        let status = if src.used > 0 {
            Status::Copied
        } else {
            Status::Renamed
        };
        out.by_dst.insert(d.side.delta, (src.side.delta, status));
        sources.insert(s);
    }
    // A deleted file that moved is no longer listed as deleted; a modified file that was copied
    // (it counted itself once, so one use is left) still is.
    out.moved_away = sources
        .into_iter()
        .filter(|&s| srcs[s].used == 0)
        .map(|s| srcs[s].side.delta)
        .collect();
    out
}

fn view<'a>(all: &'a [Entry], which: &[usize]) -> Vec<Scorable<'a>> {
    which
        .iter()
        .map(|&i| Scorable {
            file: all[i]
                .loaded
                .get()
                .and_then(|l| l.as_ref())
                .filter(|_| all[i].regular())
                .map(|(size, sig)| (*size, sig)),
            name: file_name(&all[i].side.path),
        })
        .collect()
}

fn take_pairs(
    matrix: &[Candidate],
    active: &[usize],
    left: &[usize],
    srcs: &mut [Entry],
    dsts: &mut [Entry],
    copies: bool,
) {
    for c in matrix {
        if c.score < MINIMUM {
            break;
        }
        let (s, d) = (active[c.src], left[c.dst]);
        if dsts[d].pair.is_some() || (!copies && srcs[s].used > 0) {
            continue;
        }
        dsts[d].pair = Some(s);
        srcs[s].used += 1;
    }
}

/// Step 1: the same blob. git prefers an unused source, then one with the same file name.
fn exact(srcs: &mut [Entry], dsts: &mut [Entry], copies: bool) {
    let mut by_id: HashMap<Oid, Vec<usize>> = HashMap::new();
    for (i, s) in srcs.iter().enumerate() {
        if !s.side.id.is_zero() {
            by_id.entry(s.side.id).or_default().push(i);
        }
    }
    for d in dsts.iter_mut() {
        let Some(list) = by_id.get(&d.side.id) else {
            continue;
        };
        let mut best: Option<(usize, u32)> = None;
        let mut tries = IDENTICAL_TRIES;
        for &s in list {
            let src = &srcs[s];
            // Neither a source of another kind nor (renames only) a used one is a try.
            if (!src.regular() || !d.regular()) && src.side.mode != d.side.mode {
                continue;
            }
            if src.used > 0 && !copies {
                continue;
            }
            let score =
                u32::from(src.used == 0) + u32::from(same_name(&src.side.path, &d.side.path));
            if best.is_none_or(|(_, b)| score > b) {
                best = Some((s, score));
                if score == 2 {
                    break;
                }
            }
            tries -= 1;
            if tries == 0 {
                break;
            }
        }
        if let Some((s, _)) = best {
            d.pair = Some(s);
            srcs[s].used += 1;
        }
    }
}

/// Step 2: a file name that only one source and one destination left have.
fn by_file_name(srcs: &mut [Entry], dsts: &mut [Entry], loader: &Loader) {
    let src_names: Vec<(usize, Vec<u8>)> = (0..srcs.len())
        .filter(|&i| srcs[i].used == 0)
        .map(|i| (i, file_name(&srcs[i].side.path).to_vec()))
        .collect();
    let dst_names: Vec<(usize, Vec<u8>)> = (0..dsts.len())
        .filter(|&i| dsts[i].pair.is_none())
        .map(|i| (i, file_name(&dsts[i].side.path).to_vec()))
        .collect();
    let (sources, dests) = (unique(&src_names), unique(&dst_names));
    for (s, name) in &src_names {
        let (Some(Some(_)), Some(Some(d))) =
            (sources.get(name.as_slice()), dests.get(name.as_slice()))
        else {
            continue;
        };
        let d = *d;
        if dsts[d].pair.is_some() {
            continue;
        }
        if loader.score(&srcs[*s], &dsts[d], BASENAME_MINIMUM) >= BASENAME_MINIMUM {
            dsts[d].pair = Some(*s);
            srcs[*s].used += 1;
        }
    }
}

/// File name -> the one candidate with it (`None` when several have it).
fn unique(names: &[(usize, Vec<u8>)]) -> HashMap<&[u8], Option<usize>> {
    let mut map: HashMap<&[u8], Option<usize>> = HashMap::new();
    for (i, n) in names {
        map.entry(n.as_slice())
            .and_modify(|v| *v = None)
            .or_insert(Some(*i));
    }
    map
}

/// Reads candidates' content once, with one object database handle.
struct Loader<'r> {
    repo: &'r Repository,
    odb: Option<git2::Odb<'r>>,
}

impl<'r> Loader<'r> {
    fn new(repo: &'r Repository) -> Loader<'r> {
        Loader {
            repo,
            odb: repo.odb().ok(),
        }
    }

    fn load<'e>(&self, e: &'e Entry) -> Option<&'e (u64, Signature)> {
        if !e.regular() {
            return None;
        }
        e.loaded
            .get_or_init(|| {
                let bytes = content::side_bytes(self.repo, e.side.id, &e.side.path)?;
                Some((bytes.len() as u64, Signature::of(&bytes)))
            })
            .as_ref()
    }

    fn size(&self, e: &Entry) -> Option<u64> {
        if let Some(Some((size, _))) = e.loaded.get() {
            return Some(*size);
        }
        self.odb
            .as_ref()
            .and_then(|odb| content::blob_size(odb, e.side.id))
    }

    /// git's score of `src` -> `dst`, 0 when the sizes alone rule `minimum` out.
    fn score(&self, src: &Entry, dst: &Entry, minimum: u64) -> u64 {
        if !src.regular() || !dst.regular() {
            return 0;
        }
        if let (Some(a), Some(b)) = (self.size(src), self.size(dst)) {
            if similarity::sizes_rule_out(a, b, minimum) {
                return 0;
            }
        }
        match (self.load(src), self.load(dst)) {
            (Some((ss, s)), Some((ds, d))) if !similarity::sizes_rule_out(*ss, *ds, minimum) => {
                similarity::score(s, *ss, d, *ds)
            }
            _ => 0,
        }
    }
}

/// The part after the last `/`.
pub(super) fn file_name(path: &[u8]) -> &[u8] {
    path.rsplit(|&b| b == b'/').next().unwrap_or(path)
}

pub(super) fn same_name(a: &[u8], b: &[u8]) -> bool {
    file_name(a) == file_name(b)
}
