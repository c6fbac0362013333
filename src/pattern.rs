//! Regular expressions compiled only when a text may match them.
//!
//! Compiling is most of what our regexes cost a short run: in a two-round review of a one-line
//! change, compiling the answer reader's and the injection detector's patterns took about two
//! thirds of the process's CPU time (`perf record` of a release build), while each pattern was
//! run on a few short texts. Most of those texts cannot match most patterns: a pattern that
//! needs the word "severity" cannot match a text without it. So a [`Pattern`] first reads its
//! own syntax for *needles*, literals every match holds (a run of literal characters, a small
//! class, one of the branches' own), and answers "no match" for a text that lacks them, without
//! compiling anything. The first text that holds them compiles the regex, which from then on
//! answers alone. Reading the needles costs a fraction of a compilation (a syntax tree, no
//! classes built).
//!
//! A needle read under `(?i)` is compared with ASCII case ignored, with the characters such a
//! comparison would miss spelt out (`(?i)k` also matches the Kelvin sign); every other needle is
//! compared byte for byte. In a debug build every text a gate turns away is also run through the
//! compiled regex, which must agree: the whole test suite checks the gates on every text it
//! reads.

use std::borrow::Cow;
use std::sync::OnceLock;

use aho_corasick::AhoCorasick;
use regex::{CaptureMatches, Captures, Match, Matches, Regex, RegexSet, Replacer};
use regex_syntax::ast::{self, Ast};
use regex_syntax::hir::{ClassUnicode, ClassUnicodeRange};

/// A needle set larger than this is not worth a scan: the regex is compiled instead.
const MAX_NEEDLES: usize = 500;
/// A class of up to this many characters is read as that many needles (`[:=]`).
const MAX_CLASS: usize = 10;

/// A regex, compiled the first time a text holds one of its needles.
#[derive(Debug)]
pub struct Pattern {
    source: Cow<'static, str>,
    gate: OnceLock<Gate>,
    regex: OnceLock<Regex>,
    /// Debug builds only: the regex, to check each text the gate turns away.
    #[cfg(debug_assertions)]
    check: OnceLock<Regex>,
}

impl Pattern {
    /// A pattern that is a constant (a `static`).
    pub const fn new(source: &'static str) -> Pattern {
        Pattern {
            source: Cow::Borrowed(source),
            gate: OnceLock::new(),
            regex: OnceLock::new(),
            #[cfg(debug_assertions)]
            check: OnceLock::new(),
        }
    }

    /// A pattern put together at run time (from a vocabulary).
    pub fn owned(source: String) -> Pattern {
        Pattern {
            source: Cow::Owned(source),
            gate: OnceLock::new(),
            regex: OnceLock::new(),
            #[cfg(debug_assertions)]
            check: OnceLock::new(),
        }
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        &self.source
    }

    /// Whether a text has needed the regex yet (for the tests of laziness).
    #[cfg(test)]
    pub fn is_compiled(&self) -> bool {
        self.regex.get().is_some()
    }

    /// The compiled regex, compiled now if no text needed it before. Our patterns are
    /// constants, so one that does not compile is a bug, found by the first test that uses it.
    pub fn regex(&self) -> &Regex {
        self.regex.get_or_init(|| compile(&self.source))
    }

    /// Whether `text` may match: false only when it holds none of the needles.
    fn may_match(&self, text: &str) -> bool {
        if self.regex.get().is_some() {
            return true;
        }
        let admits = self
            .gate
            .get_or_init(|| Gate::of(self.as_str()))
            .admits(text);
        #[cfg(debug_assertions)]
        if !admits {
            let re = self.check.get_or_init(|| compile(&self.source));
            assert!(
                !re.is_match(text),
                "the needles of {:?} turned away a text it matches: {text:?}",
                self.source
            );
        }
        admits
    }

    pub fn is_match(&self, text: &str) -> bool {
        self.may_match(text) && self.regex().is_match(text)
    }

    pub fn find<'h>(&self, text: &'h str) -> Option<Match<'h>> {
        if !self.may_match(text) {
            return None;
        }
        self.regex().find(text)
    }

    /// As [`Regex::find_at`]: the first match at or after `start`, `text` before it read as
    /// context (for `^` and `\b`).
    pub fn find_at<'h>(&self, text: &'h str, start: usize) -> Option<Match<'h>> {
        if !self.may_match(&text[start..]) {
            return None;
        }
        self.regex().find_at(text, start)
    }

    pub fn find_iter<'r, 'h>(
        &'r self,
        text: &'h str,
    ) -> std::iter::Flatten<std::option::IntoIter<Matches<'r, 'h>>> {
        self.may_match(text)
            .then(|| self.regex().find_iter(text))
            .into_iter()
            .flatten()
    }

    pub fn captures<'h>(&self, text: &'h str) -> Option<Captures<'h>> {
        if !self.may_match(text) {
            return None;
        }
        self.regex().captures(text)
    }

    pub fn captures_iter<'r, 'h>(
        &'r self,
        text: &'h str,
    ) -> std::iter::Flatten<std::option::IntoIter<CaptureMatches<'r, 'h>>> {
        self.may_match(text)
            .then(|| self.regex().captures_iter(text))
            .into_iter()
            .flatten()
    }

    /// As [`Regex::replace`]: a text without a match comes back borrowed.
    pub fn replace<'h, R: Replacer>(&self, text: &'h str, rep: R) -> Cow<'h, str> {
        if !self.may_match(text) {
            return Cow::Borrowed(text);
        }
        self.regex().replace(text, rep)
    }

    /// As [`Regex::replace_all`]: a text without a match comes back borrowed.
    pub fn replace_all<'h, R: Replacer>(&self, text: &'h str, rep: R) -> Cow<'h, str> {
        if !self.may_match(text) {
            return Cow::Borrowed(text);
        }
        self.regex().replace_all(text, rep)
    }
}

/// A long alternation kept as one pattern per branch, `(?:a|b|c)` asked as `a`, `b` and `c`,
/// with the matches the whole would give.
///
/// A vocabulary of a hundred phrases compiles slowly as one regex (the approval phrases took
/// 7–15 ms, more than the rest of a small review's reading), while a text holds the needles of
/// a few phrases at most: each branch here is compiled only when a text holds its own needles,
/// after the needles of all branches together admitted the text.
#[derive(Debug)]
pub struct Alternatives {
    branches: Vec<Pattern>,
    gate: OnceLock<Gate>,
}

impl Alternatives {
    /// The branches in order of preference, each a whole pattern (flags and boundaries
    /// included): where two match at the same place, the first listed is the match.
    pub fn new(branches: Vec<String>) -> Alternatives {
        Alternatives {
            branches: branches.into_iter().map(Pattern::owned).collect(),
            gate: OnceLock::new(),
        }
    }

    /// The branches that may match `text` (none when it holds no needle of any).
    fn live(&self, text: &str) -> Vec<&Pattern> {
        let gate = self
            .gate
            .get_or_init(|| Gate::of_any(self.branches.iter().map(Pattern::as_str)));
        if !gate.admits(text) {
            return Vec::new();
        }
        self.branches.iter().filter(|b| b.may_match(text)).collect()
    }

    pub fn is_match(&self, text: &str) -> bool {
        self.live(text).iter().any(|b| b.regex().is_match(text))
    }

    /// The matches of the alternation, leftmost first and not overlapping: at the leftmost
    /// place any branch matches, the first branch listed that matches there.
    pub fn find_iter<'h>(&self, text: &'h str) -> std::vec::IntoIter<Match<'h>> {
        self.matches(text).into_iter()
    }

    fn matches<'h>(&self, text: &'h str) -> Vec<Match<'h>> {
        let live = self.live(text);
        let mut next: Vec<Option<Match<'h>>> = live.iter().map(|b| b.regex().find(text)).collect();
        let mut out = Vec::new();
        let mut at = 0;
        loop {
            for (branch, found) in live.iter().zip(next.iter_mut()) {
                if found.is_some_and(|m| m.start() < at) {
                    *found = branch.regex().find_at(text, at);
                }
            }
            let Some(m) = next.iter().flatten().min_by_key(|m| m.start()).copied() else {
                return out;
            };
            out.push(m);
            if m.end() >= text.len() {
                return out;
            }
            // An empty match moves on by one character, as the regex's own iterator does.
            at = if m.is_empty() {
                m.end() + text[m.end()..].chars().next().map_or(1, char::len_utf8)
            } else {
                m.end()
            };
        }
    }
}

/// Several patterns asked together whether any matches ([`RegexSet::is_match`]): one scan of the
/// text for all of them once compiled, and no compilation for a text that holds no needle of
/// any of them.
#[derive(Debug)]
pub struct PatternSet {
    sources: Vec<String>,
    gate: OnceLock<Gate>,
    set: OnceLock<RegexSet>,
    #[cfg(debug_assertions)]
    check: OnceLock<RegexSet>,
}

impl PatternSet {
    pub fn new(sources: Vec<String>) -> PatternSet {
        PatternSet {
            sources,
            gate: OnceLock::new(),
            set: OnceLock::new(),
            #[cfg(debug_assertions)]
            check: OnceLock::new(),
        }
    }

    /// The compiled set, compiled now if no text needed it before.
    pub fn regex_set(&self) -> &RegexSet {
        self.set.get_or_init(|| compile_set(&self.sources))
    }

    /// Whether any of the patterns matches `text`.
    pub fn is_match(&self, text: &str) -> bool {
        if self.set.get().is_none() {
            let admits = self
                .gate
                .get_or_init(|| Gate::of_any(self.sources.iter().map(String::as_str)))
                .admits(text);
            #[cfg(debug_assertions)]
            if !admits {
                let set = self.check.get_or_init(|| compile_set(&self.sources));
                assert!(
                    !set.is_match(text),
                    "the needles of {:?} turned away a text one matches: {text:?}",
                    self.sources
                );
            }
            if !admits {
                return false;
            }
        }
        self.regex_set().is_match(text)
    }
}

fn compile(source: &str) -> Regex {
    Regex::new(source).unwrap_or_else(|e| panic!("pattern {source:?}: {e}"))
}

fn compile_set(sources: &[String]) -> RegexSet {
    RegexSet::new(sources).unwrap_or_else(|e| panic!("patterns {sources:?}: {e}"))
}

/// What a text must hold for a pattern (or any pattern of a set) to match it: one needle of
/// each of its needle sets. No set: every text may match.
#[derive(Debug)]
struct Gate {
    sets: Vec<NeedleSet>,
}

/// Up to this many byte positions tried (text length times needles), a text is compared with
/// each needle in turn; above, one automaton scans it for all of them.
const NAIVE_WORK: usize = 32 << 10;

impl Gate {
    /// The gate of one pattern: every needle set it has (each is needed, so all are kept).
    fn of(source: &str) -> Gate {
        Gate {
            sets: needles(source),
        }
    }

    /// The gate of several patterns, any of which may match: the best set of each, put together.
    fn of_any<'a>(sources: impl IntoIterator<Item = &'a str>) -> Gate {
        let mut union = Vec::new();
        for source in sources {
            match best(needles(source)) {
                Some(set) => union.extend(set),
                None => return Gate { sets: Vec::new() },
            }
        }
        Gate {
            sets: NeedleSet::new(union).into_iter().collect(),
        }
    }

    fn admits(&self, text: &str) -> bool {
        self.sets.iter().all(|set| set.in_text(text.as_bytes()))
    }
}

/// One needle set: a text that holds none of these cannot match.
#[derive(Debug)]
struct NeedleSet {
    /// Compared byte for byte.
    exact: Vec<Vec<u8>>,
    /// Compared with ASCII case ignored (lower case here).
    folded: Vec<Vec<u8>>,
    /// Built for the first long text, over all the needles with case ignored (it then lets
    /// through a little more, never less): an automaton costs 10 to 200 µs to build, more than
    /// comparing a few needles with a line, far less than comparing many with a long answer.
    automaton: OnceLock<Option<AhoCorasick>>,
}

impl NeedleSet {
    fn new(needles: Vec<Needle>) -> Option<NeedleSet> {
        if needles.is_empty()
            || needles.len() > MAX_NEEDLES
            || needles.iter().any(|n| n.text.is_empty())
        {
            return None;
        }
        let (mut exact, mut folded) = (Vec::new(), Vec::new());
        for n in needles {
            if n.fold {
                folded.push(n.text.to_ascii_lowercase().into_bytes());
            } else {
                exact.push(n.text.into_bytes());
            }
        }
        for list in [&mut exact, &mut folded] {
            list.sort();
            list.dedup();
        }
        Some(NeedleSet {
            exact,
            folded,
            automaton: OnceLock::new(),
        })
    }

    fn len(&self) -> usize {
        self.exact.len() + self.folded.len()
    }

    fn in_text(&self, text: &[u8]) -> bool {
        if text.len().saturating_mul(self.len()) <= NAIVE_WORK {
            return self
                .exact
                .iter()
                .any(|n| memchr::memmem::find(text, n).is_some())
                || self.folded.iter().any(|n| holds_folded(text, n));
        }
        let automaton = self.automaton.get_or_init(|| {
            AhoCorasick::builder()
                .ascii_case_insensitive(true)
                // The cheapest to build; it scans fast enough for a gate.
                .kind(Some(aho_corasick::AhoCorasickKind::NoncontiguousNFA))
                .build(self.exact.iter().chain(&self.folded))
                .ok()
        });
        automaton.as_ref().is_none_or(|ac| ac.is_match(text))
    }
}

/// Whether `text` holds `needle` (ASCII letters in lower case), ASCII case ignored.
fn holds_folded(text: &[u8], needle: &[u8]) -> bool {
    let first = needle[0];
    memchr::memchr2_iter(first, first.to_ascii_uppercase(), text).any(|at| {
        text.get(at..at + needle.len())
            .is_some_and(|w| w.eq_ignore_ascii_case(needle))
    })
}

/// A literal every match of some part of a pattern holds.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Needle {
    text: String,
    /// Read under `(?i)`: compared with ASCII case ignored.
    fold: bool,
}

/// Needles one of which is in every match.
type Set = Vec<Needle>;

/// At most this many needle sets are kept for one pattern, the best ones: each is a scan of the
/// text.
const MAX_SETS: usize = 3;

/// The needle sets of `source`: each holds a needle of every match (so a text must hold one of
/// each), at most [`MAX_SETS`], best first; none when nothing every match holds is worth a scan.
///
/// Read from the pattern's syntax tree as it is written, before any class is built: building
/// the classes (`\w` is some 700 ranges, and `(?i)` folds each of them) cost more than all the
/// rest of the reading, and a needle needs none of it. What counts: a run of literal characters
/// in a sequence (a zero-width assertion or a flag between them does not break it), the
/// characters of a small bracketed class, the sets of every part of a sequence, the best set of
/// every branch of an alternation put together, the sets of a part repeated at least once.
fn needles(source: &str) -> Vec<NeedleSet> {
    let Ok(ast) = regex_syntax::ast::parse::Parser::new().parse(source) else {
        return Vec::new();
    };
    let mut flags = Flags {
        fold: false,
        unicode: true,
    };
    let mut sets = inner(&ast, &mut flags);
    sets.sort_by_key(|s| std::cmp::Reverse(selectivity(s)));
    sets.truncate(MAX_SETS);
    sets.into_iter().filter_map(NeedleSet::new).collect()
}

/// The best of several sets (each is needed: any one will do for a union).
fn best(sets: Vec<NeedleSet>) -> Option<Vec<Needle>> {
    let set = sets.into_iter().next()?;
    let as_needles = |list: Vec<Vec<u8>>, fold: bool| {
        list.into_iter().map(move |b| Needle {
            text: String::from_utf8(b).unwrap_or_default(),
            fold,
        })
    };
    Some(
        as_needles(set.exact, false)
            .chain(as_needles(set.folded, true))
            .collect(),
    )
}

/// How few texts a set lets through, roughly: the longer its shortest needle, and then the
/// fewer its needles, the fewer.
fn selectivity(set: &Set) -> (usize, std::cmp::Reverse<usize>) {
    (
        set.iter().map(|n| n.text.len()).min().unwrap_or(0),
        std::cmp::Reverse(set.len()),
    )
}

/// At most this many spellings of one run of literals (`(?i)ok` is `ok` or `o` and the Kelvin
/// sign): a run that would have more is cut there and a new one started.
const MAX_SPELLINGS: usize = 16;

/// The flags that change what a literal matches, as they stand at a point of the pattern.
#[derive(Debug, Clone, Copy)]
struct Flags {
    /// `(?i)`.
    fold: bool,
    /// `(?u)`, on unless turned off.
    unicode: bool,
}

impl Flags {
    fn apply(&mut self, set: &ast::Flags) {
        let mut on = true;
        for item in &set.items {
            match item.kind {
                ast::FlagsItemKind::Negation => on = false,
                ast::FlagsItemKind::Flag(ast::Flag::CaseInsensitive) => self.fold = on,
                ast::FlagsItemKind::Flag(ast::Flag::Unicode) => self.unicode = on,
                ast::FlagsItemKind::Flag(_) => {}
            }
        }
    }

    /// The characters literal `c` matches, as needles (compared with ASCII case ignored under
    /// `(?i)`): itself, and with `(?i)` the other characters of its case class that such a
    /// comparison would miss (`(?i)k` also matches the Kelvin sign, `(?i)é` matches `É`).
    /// `None` for a byte of its own (`(?-u:\xFF)`) or a class too large to spell out.
    fn literal(self, c: char, kind: &ast::LiteralKind) -> Option<Chars> {
        if !c.is_ascii() && !self.unicode && *kind != ast::LiteralKind::Verbatim {
            return None;
        }
        let mut out = Chars::default();
        if !self.fold || (c.is_ascii() && !matches!(c.to_ascii_lowercase(), 'k' | 's')) {
            out.push(c);
            return Some(out);
        }
        let mut class = ClassUnicode::new([ClassUnicodeRange::new(c, c)]);
        class.case_fold_simple();
        let mut chars: Vec<char> = class
            .iter()
            .flat_map(|r| r.start()..=r.end())
            .take(MAX_CLASS + 1)
            .collect();
        // One ASCII letter stands for both its cases: the comparison ignores them.
        chars.sort_by_key(char::to_ascii_lowercase);
        chars.dedup_by(|a, b| a.eq_ignore_ascii_case(b));
        for c in chars {
            out.push(c);
        }
        (out.len <= MAX_CLASS).then_some(out)
    }
}

/// The few characters one literal (or a small class) matches, without an allocation.
#[derive(Debug, Clone, Copy, Default)]
struct Chars {
    buf: [char; MAX_CLASS + 1],
    len: usize,
}

impl Chars {
    /// Adds `c`; past [`MAX_CLASS`] characters the set only counts them.
    fn push(&mut self, c: char) {
        if self.len < self.buf.len() {
            self.buf[self.len] = c;
        }
        self.len += 1;
    }

    fn as_slice(&self) -> &[char] {
        &self.buf[..self.len.min(self.buf.len())]
    }
}

/// The spellings of a run of literals read so far, and whether any of it was read under `(?i)`.
struct Run {
    spellings: Vec<String>,
    fold: bool,
}

impl Run {
    fn new() -> Run {
        Run {
            spellings: vec![String::new()],
            fold: false,
        }
    }

    fn of(chars: &Chars, fold: bool) -> Run {
        Run {
            spellings: chars.as_slice().iter().map(char::to_string).collect(),
            fold,
        }
    }

    /// Adds one literal's characters, or says it cannot (too many spellings).
    fn push(&mut self, chars: &Chars, fold: bool) -> bool {
        if chars.len == 1 {
            for r in &mut self.spellings {
                r.push(chars.buf[0]);
            }
        } else if self.spellings.len() * chars.len <= MAX_SPELLINGS {
            self.spellings = self
                .spellings
                .iter()
                .flat_map(|r| {
                    chars.as_slice().iter().map(move |c| {
                        let mut r = r.clone();
                        r.push(*c);
                        r
                    })
                })
                .collect();
        } else {
            return false;
        }
        self.fold |= fold;
        true
    }

    /// The run as a needle set, when it holds anything.
    fn set(self) -> Option<Set> {
        let fold = self.fold;
        let set: Set = self
            .spellings
            .into_iter()
            .filter(|s| !s.is_empty())
            .map(|text| Needle { text, fold })
            .collect();
        (!set.is_empty()).then_some(set)
    }
}

/// The needle sets of `ast` (each needed by every match), `flags` being those in force where it
/// starts (and left as they stand where it ends: a flag set in a group holds to the group's
/// end, across the branches after it, as the parser reads it).
fn inner(ast: &Ast, flags: &mut Flags) -> Vec<Set> {
    match ast {
        Ast::Literal(lit) => {
            let Some(chars) = flags.literal(lit.c, &lit.kind) else {
                return Vec::new();
            };
            Run::of(&chars, flags.fold).set().into_iter().collect()
        }
        Ast::ClassBracketed(class) => bracketed(class, *flags).into_iter().collect(),
        Ast::Flags(set) => {
            flags.apply(&set.flags);
            Vec::new()
        }
        Ast::Empty(_)
        | Ast::Dot(_)
        | Ast::Assertion(_)
        | Ast::ClassUnicode(_)
        | Ast::ClassPerl(_) => Vec::new(),
        Ast::Repetition(rep) => {
            let at_least_once = match &rep.op.kind {
                ast::RepetitionKind::OneOrMore => true,
                ast::RepetitionKind::ZeroOrOne | ast::RepetitionKind::ZeroOrMore => false,
                ast::RepetitionKind::Range(
                    ast::RepetitionRange::Exactly(m)
                    | ast::RepetitionRange::AtLeast(m)
                    | ast::RepetitionRange::Bounded(m, _),
                ) => *m >= 1,
            };
            let sets = inner(&rep.ast, flags);
            if at_least_once {
                sets
            } else {
                Vec::new()
            }
        }
        Ast::Group(group) => {
            let mut within = *flags;
            if let ast::GroupKind::NonCapturing(set) = &group.kind {
                within.apply(set);
            }
            inner(&group.ast, &mut within)
        }
        Ast::Alternation(alt) => {
            let mut union = Vec::new();
            let mut ok = true;
            for branch in &alt.asts {
                // Every branch is read, for the flags it leaves to the next.
                let sets = inner(branch, flags);
                match sets.into_iter().max_by_key(selectivity) {
                    Some(set) if ok => union.extend(set),
                    _ => ok = false,
                }
            }
            if ok {
                vec![union]
            } else {
                Vec::new()
            }
        }
        Ast::Concat(concat) => {
            let mut sets = Vec::new();
            let mut run = Run::new();
            for part in &concat.asts {
                match part {
                    Ast::Literal(lit) => match flags.literal(lit.c, &lit.kind) {
                        Some(chars) => {
                            if !run.push(&chars, flags.fold) {
                                let full = std::mem::replace(&mut run, Run::of(&chars, flags.fold));
                                sets.extend(full.set());
                            }
                        }
                        None => sets.extend(std::mem::replace(&mut run, Run::new()).set()),
                    },
                    // Zero-width: the characters on either side are next to each other.
                    Ast::Assertion(_) | Ast::Empty(_) => {}
                    Ast::Flags(set) => flags.apply(&set.flags),
                    _ => {
                        sets.extend(std::mem::replace(&mut run, Run::new()).set());
                        sets.extend(inner(part, flags));
                    }
                }
            }
            sets.extend(run.set());
            sets
        }
    }
}

/// The characters of a small bracketed class (`[:=]`, `[Pp]`) as a set, each a needle.
fn bracketed(class: &ast::ClassBracketed, flags: Flags) -> Option<Set> {
    fn chars(item: &ast::ClassSetItem, flags: Flags, out: &mut Vec<char>) -> Option<()> {
        match item {
            ast::ClassSetItem::Literal(lit) => {
                out.extend_from_slice(flags.literal(lit.c, &lit.kind)?.as_slice());
            }
            ast::ClassSetItem::Range(range) => {
                let (a, b) = (range.start.c, range.end.c);
                if u32::from(b).saturating_sub(u32::from(a)) as usize >= MAX_CLASS {
                    return None;
                }
                for c in a..=b {
                    out.extend_from_slice(flags.literal(c, &range.start.kind)?.as_slice());
                }
            }
            ast::ClassSetItem::Union(union) => {
                for item in &union.items {
                    chars(item, flags, out)?;
                }
            }
            ast::ClassSetItem::Empty(_) => {}
            ast::ClassSetItem::Ascii(_)
            | ast::ClassSetItem::Unicode(_)
            | ast::ClassSetItem::Perl(_)
            | ast::ClassSetItem::Bracketed(_) => return None,
        }
        (out.len() <= MAX_CLASS).then_some(())
    }
    if class.negated {
        return None;
    }
    let ast::ClassSet::Item(item) = &class.kind else {
        return None;
    };
    let mut out = Vec::new();
    chars(item, flags, &mut out)?;
    let set: Set = out
        .iter()
        .map(|c| Needle {
            text: c.to_string(),
            fold: flags.fold,
        })
        .collect();
    (!set.is_empty()).then_some(set)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The needle sets of `p`, best first: each needle as written, `i:` before one compared
    /// with case ignored.
    fn needles_of(p: &str) -> Vec<Vec<String>> {
        let text = |b: &Vec<u8>| String::from_utf8_lossy(b).into_owned();
        needles(p)
            .iter()
            .map(|set| {
                set.exact
                    .iter()
                    .map(text)
                    .chain(set.folded.iter().map(|b| format!("i:{}", text(b))))
                    .collect()
            })
            .collect()
    }

    fn sets(sets: &[&[&str]]) -> Vec<Vec<String>> {
        sets.iter()
            .map(|s| s.iter().map(|n| n.to_string()).collect())
            .collect()
    }

    #[test]
    fn needles_are_runs_of_literals_every_match_holds() {
        assert_eq!(
            needles_of(r"\bapprov(e|al)\b"),
            sets(&[&["approv"], &["al", "e"]])
        );
        // A run goes on across `\b`; each part of a sequence gives a set, the best first.
        assert_eq!(
            needles_of(r"\bnew (system )?instructions\s*:"),
            sets(&[&["instructions"], &["new "], &[":"]])
        );
        // Every branch gives one.
        assert_eq!(
            needles_of(r"(ignore|Disregard) it"),
            sets(&[&["Disregard", "ignore"], &[" it"]])
        );
        // Only a part in the middle is certain.
        assert_eq!(needles_of(r"^\W{0,4}#{1,6}\s*\S"), sets(&[&["#"]]));
        assert_eq!(needles_of(r"\s*[:=]\s*"), sets(&[&[":", "="]]));
        // Case ignored, a word is one needle; but `(?i)k` also matches the Kelvin sign and
        // `(?i)é` matches `É`, which a comparison of ASCII letters would miss: they are spelt.
        assert_eq!(
            needles_of(r"(?i)\bseverity:"),
            sets(&[&["i:severity:", "i:ſeverity:"]])
        );
        assert_eq!(needles_of(r"(?i)ok"), sets(&[&["i:ok", "i:o\u{212A}"]]));
        assert_eq!(needles_of("(?i)\u{212A}"), sets(&[&["i:k", "i:\u{212A}"]]));
        assert_eq!(needles_of(r"(?i)é"), sets(&[&["i:É", "i:é"]]));
        assert_eq!(needles_of(r"(?i:ab)(?-i:K)"), sets(&[&["i:ab"], &["K"]]));
        // A flag holds to the end of its group, across the branches after it.
        assert_eq!(
            needles_of(r"x(?i)y|k"),
            sets(&[&["i:k", "i:xy", "i:\u{212A}"]])
        );
        // Nothing every match holds.
        for p in [r"\w+", "a?", r"x|\w", "[^a]"] {
            assert!(needles_of(p).is_empty(), "{p}");
        }
    }

    #[test]
    fn a_text_without_a_needle_is_answered_without_compiling() {
        let p = Pattern::new(r"(?i)\bseverity\s*[:=]\s*(\w+)");
        assert!(!p.is_match("fn add(a: i32) -> i32"));
        assert!(p.find("nothing here").is_none());
        assert_eq!(p.find_iter("nothing").count(), 0);
        assert!(p.captures("nothing").is_none());
        assert_eq!(p.replace_all("nothing", "x"), "nothing");
        assert!(p.regex.get().is_none());
        let c = p.captures("- SEVERITY: high").expect("a match");
        assert_eq!(&c[1], "high");
        assert!(p.regex.get().is_some());
        assert_eq!(p.replace_all("Severity = low", "[$1]"), "[low]");
    }

    #[test]
    fn a_long_text_is_scanned_for_all_needles_at_once() {
        let p = Pattern::new(r"(?i)\b(?:severity|priority)\s*:\s*(\w+)");
        let long = "an ordinary line of prose\n".repeat(2000);
        assert!(!p.is_match(&long));
        assert!(p.regex.get().is_none());
        assert_eq!(
            p.captures(&format!("{long}PRIORITY: low"))
                .map(|c| c[1].to_string()),
            Some("low".into())
        );
    }

    #[test]
    fn a_set_compiles_when_a_text_holds_a_needle_of_any_of_its_patterns() {
        let s = PatternSet::new(vec![r"\blgtm\b".into(), r"\bapprov(e|ed)\b".into()]);
        // The pattern is case-sensitive, and so is its needle.
        assert!(!s.is_match("fn main() {}\nApproved."));
        assert!(s.set.get().is_none());
        // A needle is not a match: the regex decides.
        assert!(!s.is_match("approval"));
        assert!(s.set.get().is_some());
        assert!(s.is_match("approved."));
    }

    #[test]
    fn alternatives_compile_only_the_branches_a_text_may_match() {
        let a = Alternatives::new(vec![
            r"(?i)\blooks good\b".into(),
            r"(?i)\bship it\b".into(),
            r"(?i)\bno issues found\b".into(),
        ]);
        assert!(a.is_match("Ship it."));
        assert!(a.branches[1].is_compiled());
        assert!(!a.branches[0].is_compiled() && !a.branches[2].is_compiled());
        assert!(!a.is_match("fn main() {}"));
        assert!(!a.branches[0].is_compiled());
    }

    #[test]
    fn alternatives_match_where_the_whole_alternation_would() {
        let branches = [
            r"(?i)\bgood\b",
            r"(?i)\blooks good\b",
            r"\d+",
            r"(?i)good to go",
        ];
        let a = Alternatives::new(branches.iter().map(|b| b.to_string()).collect());
        let whole = Regex::new(&branches.join("|")).unwrap();
        for text in [
            "Looks good, good to go: 42 of 42.",
            "good to go",
            "nothing here",
            "7good 8 looks goodness, LOOKS GOOD",
        ] {
            let got: Vec<(usize, usize)> =
                a.find_iter(text).map(|m| (m.start(), m.end())).collect();
            let want: Vec<(usize, usize)> = whole
                .find_iter(text)
                .map(|m| (m.start(), m.end()))
                .collect();
            assert_eq!(got, want, "{text:?}");
        }
    }

    #[test]
    fn gates_agree_with_the_regex_on_tricky_texts() {
        let patterns = [
            r"(?i)\bk\b",
            r"(?i)straße",
            r"(?m)^#+ ?(p1|p2)\s*$",
            r"\*\*([^*]{1,60}?)\*\*|__([^_]{1,60}?)__",
            r"(?i)<img\b[^>]*>",
            r"^\s*`\d+(?:\s*[-–]\s*\d+)?`\s*:\s*",
            r"[A-Z]{2,}-\d+",
        ];
        let texts = [
            "\u{212A}",
            "STRASSE",
            "STRAẞE",
            "## P1",
            "**bold**",
            "<IMG src=x>",
            "`12-14`: x",
            "ABC-12",
            "",
            "plain",
        ];
        for p in patterns {
            let re = Regex::new(p).unwrap();
            let pat = Pattern::new(p);
            for t in texts {
                assert_eq!(pat.is_match(t), re.is_match(t), "{p:?} on {t:?}");
            }
        }
    }
}
