//! Agreement is a verdict of the whole answer, never a word in it.
//!
//! An answer agrees when it approves as a whole — a schema `verdict: approve`, or an overall
//! approval phrase ("LGTM", "No issues found", "safe to merge") that nothing negates or
//! qualifies — and nothing in it was read as a finding. "Not approved", "approve once…",
//! "looks good, but…", "LGTM: this part is fine" and any objection ("request changes") never
//! agree; a finding always wins over an approval word.

use std::sync::OnceLock;

use crate::answer::vocab::{self, Stance};
use crate::pattern::{Alternatives, Pattern};

use crate::answer::{re, re_built};

fn phrase() -> &'static Alternatives {
    static PHRASE: OnceLock<Alternatives> = OnceLock::new();
    PHRASE.get_or_init(|| {
        // Chinese, Japanese, Korean and Thai run words together: their phrases match inside a
        // run, the others on word boundaries (and come first where both match).
        let cjk = |p: &&&str| p.chars().any(vocab::unspaced);
        let (joined, spaced): (Vec<&str>, Vec<&str>) =
            vocab::APPROVAL_PHRASES.iter().partition(|p| cjk(p));
        let spaced = spaced.iter().map(|p| format!(r"(?i)\b(?:{p})\b"));
        let joined = joined.iter().map(|p| format!("(?i)(?:{p})"));
        Alternatives::new(spaced.chain(joined).collect())
    })
}

/// Does `s` use an approval phrase at all (qualified, negated or not)?
pub fn mentions_approval(s: &str) -> bool {
    phrase().is_match(s)
}

/// Does a line open or end with an approval verdict (`✅ **Approve.** …`, `**LGTM**`, `Approved
/// —`, "Nothing to fix. Approve ✅")?
/// The reviewer's own verdict, stated as such, not an approval word inside a sentence.
pub fn opens_with_approval(text: &str) -> bool {
    static LINE: OnceLock<Pattern> = OnceLock::new();
    re(
        &LINE,
        r"(?im)(?:^|[.!]\s+)[^\p{L}\n]*?(?:approve[ds]?|approving|lgtm|ship it)\b[^\p{L}\n]*?(?:$|[—–-]|\p{Lu})",
    )
    .is_match(text)
}

/// Does `text` open on an unqualified approval, told apart from what follows it by a dash, a
/// colon or the end of its sentence ("LGTM — the outbox now claims the row first, so a retry
/// after a crash cannot send twice")? What follows says why it approves: the risks it names
/// are the ones it checked. ("LGTM once the test lands — …" is a condition.)
pub fn approval_lead(text: &str) -> bool {
    let head = text
        .split(['—', '–', ':', ';', '.', '!'])
        .next()
        .unwrap_or(text);
    opens_with_approval(text) && opens_with_approval(head) && approves(head)
}

/// Does the text, as a whole, approve? (Findings are checked by the caller.)
pub fn approves(text: &str) -> bool {
    static NEGATION: OnceLock<Pattern> = OnceLock::new();
    static QUALIFIER: OnceLock<Pattern> = OnceLock::new();
    static OBJECTION: OnceLock<Pattern> = OnceLock::new();
    let phrase = phrase();
    let negation = re(&NEGATION, vocab::NEGATIONS);
    let qualifier = re(&QUALIFIER, vocab::QUALIFIERS);
    let objection = re(&OBJECTION, vocab::OBJECTIONS);
    if objection
        .find_iter(text)
        .any(|m| objects(text, &m, negation))
    {
        return false;
    }
    let mut approved = false;
    for m in phrase.find_iter(text) {
        if negated(text, m.start(), negation) {
            // "Not approved" anywhere: the answer does not approve, whatever else it says.
            return false;
        }
        if partial(text, m.start()) {
            // "Apart from that, ready to go": something was raised before it.
            return false;
        }
        let rest = &*unqualified(after(text, m.end()));
        if qualifier.is_match(rest) && !own_limits(rest) {
            return false;
        }
        approved = true;
    }
    approved || text.lines().any(emoji_verdict)
}

/// A line that is only an approving emoji (`✅`, `👍`, `🚢`): the whole verdict of a terse
/// review.
fn emoji_verdict(line: &str) -> bool {
    const APPROVING: &[&str] = &["✅", "✔️", "✔", "👍", "🚢", "🚀", "💯", ":+1:", ":shipit:"];
    let mut rest = line.trim();
    if rest.is_empty() {
        return false;
    }
    while !rest.is_empty() {
        let Some(e) = APPROVING.iter().find(|e| rest.starts_with(**e)) else {
            return false;
        };
        rest = rest[e.len()..].trim_start_matches(['\u{FE0F}', ' ']);
    }
    true
}

/// Is the contrast after an approval only about what the reviewer did not do ("LGTM, though I
/// did not run the benchmarks, so I can't confirm the speed-up")? That is a limit of the review,
/// not a problem of the change, and the approval stands; a condition ("once", "if") or a
/// concern in the same sentence still qualifies it.
fn own_limits(rest: &str) -> bool {
    static LIMIT: OnceLock<Pattern> = OnceLock::new();
    static CONDITION: OnceLock<Pattern> = OnceLock::new();
    let sentence = rest.split(['.', '!', '?', '\n']).next().unwrap_or("");
    let limit = re(
        &LIMIT,
        r"(?i)^\W*(?:though|although|but|however)\W+(?:\w+\W+){0,2}i (?:did not|didn't|have not|haven't|could not|couldn't|was not able to|wasn't able to|cannot|can't) (?:\w+ )?(?:run|test|benchmark|load[- ]test|verify|check|try|build|execute|reproduce|confirm|profile|measure)\b",
    );
    limit.is_match(sentence)
        && !re(&CONDITION, vocab::CONDITIONS).is_match(sentence)
        && !raises_concern(sentence)
}

/// Does the reviewer say, unnegated and unqualified, that it found nothing ("I did not find any
/// actionable bugs", "No issues found", "Nothing to fix")? Stronger than an approval word: it
/// says what the review raised, not only how the reviewer feels about the change.
pub fn found_nothing(text: &str) -> bool {
    static FOUND: OnceLock<Pattern> = OnceLock::new();
    static NEGATION: OnceLock<Pattern> = OnceLock::new();
    static QUALIFIER: OnceLock<Pattern> = OnceLock::new();
    let found = re_built(&FOUND, || {
        format!(
            "{}|(?:{})",
            vocab::FOUND_NOTHING,
            vocab::FOUND_NOTHING_UNSPACED
        )
    });
    let negation = re(&NEGATION, vocab::NEGATIONS);
    let qualifier = re(&QUALIFIER, vocab::QUALIFIERS);
    found.find_iter(text).any(|m| {
        !negated(text, m.start(), negation)
            && !qualifier.is_match(&unqualified(after(text, m.end())))
    })
}

/// Does `text` approve only on a condition ("I'd approve once the migration is reversible",
/// "LGTM if the test is added")? The condition is a problem raised. (A contrast is not: "LGTM,
/// though the retry path is odd" withholds agreement without raising anything, and "LGTM,
/// though I did not run it" keeps it, see [`approves`].)
pub fn conditional(text: &str) -> bool {
    static CONDITION: OnceLock<Pattern> = OnceLock::new();
    let qualifier = re(&CONDITION, vocab::CONDITIONS);
    phrase()
        .find_iter(text)
        .any(|m| qualifier.is_match(&unqualified(after(text, m.end()))))
}

/// Does `text` raise a problem in words ("will crash", "leaks", "should use", "one nit")? A cue
/// after "no", "not" or "without" ("found no bugs") does not count.
pub fn raises_concern(text: &str) -> bool {
    static CUE: OnceLock<Pattern> = OnceLock::new();
    static NEGATED: OnceLock<Pattern> = OnceLock::new();
    let cue = re(&CUE, vocab::CONCERN_CUES);
    let negated = re(
        &NEGATED,
        // (A hyphenated compound is one word: "no high-confidence security vulnerabilities".)
        r"(?i)\b(?:no|not|cannot|can[’']t|won[’']t|without|never|zero|any|free of|nothing|instead of|rather than|invece di|anzich[ée]|en lugar de|en vez de|au lieu de|anstatt|statt|em vez de|zamiast|вместо|checked for|looked for|scanned for|checking for|looking for|check for|avoids?|avoiding|prevents?|preventing|fix(?:es|ed)?|closes|guards? against|protects? against|eliminates?|recovered|caught|rescued|trapped)\W+(?:\w+(?:-\w+)*\W+){0,2}$",
    );
    // What a review looks for is not what it found ("I'm reviewing this pull request for
    // security vulnerabilities and code quality issues", "Checked 6 files for logic errors,
    // broken edge cases and regressions").
    static SOUGHT: OnceLock<Pattern> = OnceLock::new();
    let sought = re(
        &SOUGHT,
        r"(?i)\b(?:(?:review|reviewing|reviewed|scan|scans|scanning|scanned|audit|audits|auditing|audited|analy[sz]ing|search|searches|searching|searched|inspects|inspecting|checked|checking|check|checks|looked|looks|looking|tested|testing|examined|examines|examining|verified|verifies|verifying)\W+(?:\w+\W+){0,4}for|with an eye (?:on|to)|focus(?:ed|ing)? on|paying (?:\w+ )?attention to)\W+(?:\w+\W+){0,10}$",
    );
    // A cue inside inline code is a name (`-race`, `leak_check`), not a word of concern.
    static CODE_SPAN: OnceLock<Pattern> = OnceLock::new();
    let text = &*re(&CODE_SPAN, r"`[^`\n]+`").replace_all(text, "`code`");
    let text = &*unwrapped(text);
    // A problem the sentence says is in the past or gone ("the race the old code had", "the
    // crash is gone", "no longer sleeps", "the crash this change fixes", "the traceback you
    // pasted is the bug itself") is what the change fixed, not what it raises.
    static SETTLED: OnceLock<Pattern> = OnceLock::new();
    let settled = re(
        &SETTLED,
        r"(?i)\b(?:is|are|was|were) (?:now |also |already )?(?:gone|fixed|resolved|addressed)|\bno longer\b|\bpreviously\b|\bused to\b|\bthe old (?:code|version|implementation|values?|settings?|behaviou?r|logic)\b|\b(?:these|this|which|that) (?:fix(?:es)?|resolves?|solves?) (?:it|this|that)\b|\bold code\b|\bbefore this (?:change|pr|patch)\b|\b(?:which|that|what) (?:is exactly what |was exactly what )?(?:produced|caused|triggered)\b|\bon the parent commit\b|\b(?:which|that|this) was the (?:actual |real |root |underlying )?cause\b|\b(?:i was|i had been|at first i was|initially i was|i was initially) (?:\w+ )?(?:worried|concerned)\b|\b(?:which|that) (?:was|is) the (?:case|part|thing|one) i was (?:\w+ )?(?:worried|concerned) about\b|\bmy (?:first |initial |main |only |one |biggest |original )?(?:worry|concern|suspicion|fear) was\b|\b(?:which|that|this) was my (?:first |initial |main |only |one |biggest |original )?(?:worry|concern|suspicion|fear)\b|\bi (?:also )?(?:checked|verified|looked at|confirmed|traced) (?:the |that )?(?:one |only |main |obvious |riskiest )?(?:thing|risk|case|scenario|failure mode|path)s? (?:that |which )?(?:could|might|would) (?:have )?(?:gone|go|break|broken|fail|failed)\b|\boriginally\b|\b(?:exposed|revealed|surfaced|reproduced|caught|exposes|reveals|surfaces|reproduces|catches) the (?:\w+ )?(?:bug|problem|issue|crash|race|leak|regression|deadlock|panic|hang|failure)\b|\bthe (?:old|original|earlier|previous|former) (?:bug|problem|issue|crash|race|leak|panic|regression|deadlock|failure)\b|\b(?:which|that) (?:was|were) (?:a |an )?(?:real |genuine |nasty |subtle |serious |clear |latent |long[- ]standing |known )?(?:bug|problem|issue|regression)\b|^\W*that was (?:a |an )?(?:real |genuine |nasty |subtle |serious |clear |latent |long[- ]standing |known )?(?:bug|problem|issue|regression)\b|\bwhat the (?:todo|fixme) (?:asked|called|was asking) for\b|\b(?:is|are|was|were) already (?:handled|covered|guarded|done|fixed|addressed|taken care of)\b|\b(?:which|that) is (?:exactly|precisely) the (?:[\w-]+ ){0,3}(?:bug|problem|issue|regression|panic|crash|race|leak)\b|^\W*i (?:also )?(?:checked|verified|confirmed|made sure|traced|tested)\b[^.]*\b(?:since|because|as)\b[^.]*\bwould\b|\b(?:bug|crash|panic|error|exception|failure|problem|issue|regression|race|leak|deadlock|hang|traversal|injection|vulnerability)s? (?:that |which )?(?:this|the) (?:change|pr|patch|commit|fix|diff|mr|pull request) (?:fixes|resolves|addresses|closes|removes|eliminates)\b|\b(?:is|shows|was) the (?:bug|crash|problem|failure|error) itself\b|\b(?:is|are) (?:here |also )?(?:exactly |precisely |just )?(?:what we want|intended|desired|deliberate|by design|the point)\b|\b(?:is|zijn) (?:hier )?(?:juist |precies )?(?:gewenst|bedoeld|de bedoeling)\b|\bist (?:hier )?(?:genau )?(?:gewollt|beabsichtigt|erwünscht)\b|\bes (?:justo )?(?:lo que queremos|intencionad[oa]|desead[oa])\b|\best (?:ici )?(?:voulu|souhaité|intentionnel)\b|\bé (?:exatamente )?(?:o )?(?:desejad[oa]|intencional)\b",
    );
    cue.find_iter(text).any(|m| {
        let breaks = ['.', '!', '?', '\n', ';'];
        let before = sentence_before(text, m.start(), &breaks);
        let sentence = format!("{before}{}", sentence_after(text, m.start(), &breaks));
        // Part of a name, a flag or an address (`-race`, `snyk-vulnerability-scanner`).
        // (A word that merely starts a compound, "crash-recovery path", still counts.)
        let named = text[..m.start()].ends_with(['-', '_', '/', '.', '='])
            // A regression test guards against one; it raises none. Nor does a tool named
            // for what it finds ("the race detector passes", "the leak checker").
            || text[m.end()..].starts_with(" test")
            // Nor does a fix named for what it fixes ("Bug Fix - Critical crash fix in
            // resumable uploads", "the leak fix").
            || (!m.as_str().contains(' ')
                && text.as_bytes()[m.end()..]
                    .get(..4)
                    .is_some_and(|p| p.eq_ignore_ascii_case(b" fix"))
                && !text.as_bytes()[m.end()..]
                    .get(4)
                    .is_some_and(u8::is_ascii_alphabetic))
            // "the wrong-type case" names a kind of input (a test's case), not a fault.
            || (m.as_str().len() >= 5
                && m.as_str()
                    .get(m.as_str().len() - 5..)
                    .is_some_and(|w| w.eq_ignore_ascii_case("wrong"))
                && text[m.end()..].starts_with('-'))
            || [" detector", " detection", " checker", " sanitizer", " tracker"]
                .iter()
                .any(|t| text[m.end()..].starts_with(t))
            // Talk of where such problems live in general ("concurrency is where bugs hide",
            // "races tend to show up under load") names no problem of this change.
            || [" hide", " lurk", " tend to", " usually", " often", " typically"]
                .iter()
                .any(|t| text[m.end()..].starts_with(t))
            // "fails fast" is a design (it stops at once instead of hanging).
            || text[m.end()..].starts_with(" fast")
            // What the code does when something else fails is its design ("falls back to the
            // last flags if the remote fetch fails"); "if the list is empty, it fails" is not,
            // nor "never gives up when the queue keeps failing".
            || (m.as_str().eq_ignore_ascii_case("fails")
                && (on_failure(&text[..m.start()]) || made_to_fail(&text[..m.start()])))
            // "One thing I looked at that is not a problem for this PR: …" announces what is
            // fine.
            || (m.as_str().to_ascii_lowercase().starts_with("one ") && cleared_lead(&text[m.end()..]))
            // A risk said as the reason for a check ("removing it breaks any inline handler we
            // forgot about, so I grepped the templates: …") is what was checked; what the check
            // found is said after it.
            || checked_because(sentence_after(text, m.end(), &breaks))
            || cannot_follow(sentence_after(text, m.end(), &breaks));
        // What tests are for is not what the change gets wrong ("regression tests for the
        // off-by-one"); "the tests for the parser fail" still raises one.
        !named
            && !guarded(before)
            && !negated.is_match(before)
            && !sought.is_match(before)
            && (!settled.is_match(&sentence) || loses_data(&sentence))
            && !repaired(before)
            && !denied(before)
    })
}

/// Does the sentence say data is lost ("If the worker crashes halfway, the rest of the batch is
/// gone")? Then its "is gone" is the harm, not a problem the change removed.
fn loses_data(sentence: &str) -> bool {
    static LOST: OnceLock<Pattern> = OnceLock::new();
    re(
        &LOST,
        r"(?i)\b(?:rest|remainder|data|messages?|records?|rows?|entries|events?|jobs?|tasks?|writes?|updates?|uploads?|payloads?|orders?|payments?)(?: of (?:the |a |an |that |this |each |every )?[\w-]+)? (?:is|are|was|were|will be|would be) (?:simply |just |silently )?(?:gone|lost|dropped)\b",
    )
    .is_match(sentence)
}

/// Does `before` end on the thing a test is run with, made to fail ("drives the new branch
/// with a sink that ", "with a fake client which ")? Its failing is the test's input.
fn made_to_fail(before: &str) -> bool {
    static WITH: OnceLock<Pattern> = OnceLock::new();
    re(
        &WITH,
        r"(?i)\bwith (?:a|an|one) (?:[\w-]+ ){1,2}(?:that|which) (?:always |only |deliberately |then )?$",
    )
    .is_match(before)
}

/// Is the harm the subject of what cannot happen ("so a crash between them can't leave the
/// marker missing", "this race cannot occur")? Only with a verb of effect after the denial: "a
/// panic can't be caught here" still raises one.
fn cannot_follow(after: &str) -> bool {
    static SUBJECT: OnceLock<Pattern> = OnceLock::new();
    re(
        &SUBJECT,
        r"(?i)^\s*(?:[\w’'-]+\s+){0,3}(?:can[’']t|cannot|can not|won[’']t|will not|can no longer|can never|could not|couldn[’']t)\s+(?:leave|cause|corrupt|lose|break|happen|occur|trigger|affect|reach|escape|fire|recur)\b",
    )
    .is_match(after)
}

/// Does the sentence after a word of concern go on to say the reviewer checked for it ("…, so I
/// grepped the templates", "… which is why I ran it under `-race`")?
fn checked_because(sentence: &str) -> bool {
    static CHECKED: OnceLock<Pattern> = OnceLock::new();
    re(
        &CHECKED,
        r"(?i)\b(?:so|which is why|that's why|that is why) i (?:also |first |then )?(?:grepped|checked|verified|tested|searched|looked|went through|confirmed|traced|read|ran|clicked through|tried)\b",
    )
    .is_match(sentence)
}

/// Does the clause after "one thing" say it is no problem ("… I looked at that is not a problem
/// for this PR:", "… that turned out fine")? Read up to the clause's end (a colon ends the
/// lead-in: what follows it is read on its own words).
fn cleared_lead(rest: &str) -> bool {
    static FINE: OnceLock<Pattern> = OnceLock::new();
    let clause = rest
        .split([':', '.', '!', '?', '\n', ';', ','])
        .next()
        .unwrap_or("");
    re(
        &FINE,
        r"(?i)\b(?:is|was|are|were)(?: not|n't) (?:a|an|any) (?:real |actual )?(?:problem|issue|concern|blocker)\b|\b(?:turned out|is|was) (?:fine|ok|okay|harmless)\b",
    )
    .is_match(clause)
}

/// `text` with each line break inside a hard-wrapped sentence made a space (a line that goes
/// on in lower case continues the one before), so a sentence is read whole: "The PR fixes the
/// bug where a job made the\nscheduler panic" is about the fixed bug, not a panic. Byte
/// offsets are kept.
fn unwrapped(text: &str) -> std::borrow::Cow<'_, str> {
    let continues = |i: usize| {
        let next = text[i + 1..].trim_start_matches([' ', '\t']);
        let prev = text[..i].trim_end();
        next.starts_with(|c: char| c.is_lowercase() || c == '`')
            && !prev.ends_with([':', '|'])
            && !prev.is_empty()
    };
    let breaks: Vec<usize> = text
        .match_indices('\n')
        .map(|(i, _)| i)
        .filter(|&i| continues(i))
        .collect();
    if breaks.is_empty() {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = text.as_bytes().to_vec();
    for i in breaks {
        out[i] = b' ';
    }
    std::borrow::Cow::Owned(String::from_utf8(out).unwrap_or_else(|_| text.to_string()))
}

/// Does `before` end in a condition on a failure ("if the remote fetch ", "when a request "),
/// within its clause?
fn on_failure(before: &str) -> bool {
    static CONDITION: OnceLock<Pattern> = OnceLock::new();
    re(
        &CONDITION,
        r"(?i)\b(?:if|when|whenever|in case|once|until|should)[ \t]+(?:[\w`'-]+[ \t]+){0,4}$",
    )
    .is_match(before)
}

/// Is the cue denied a few words before it, by a contracted "not" ("won't start failing",
/// "doesn't leak") or a "nothing"/"none" ("nothing in the diff needs to change")? Not when a
/// missing action is the problem ("doesn't handle the error", "doesn't close the file"), nor
/// when the clause turns after the denial ("nothing else, except that it leaks").
fn denied(before: &str) -> bool {
    static CONTRACTED: OnceLock<Pattern> = OnceLock::new();
    static NOTHING: OnceLock<Pattern> = OnceLock::new();
    static MISSING: OnceLock<Pattern> = OnceLock::new();
    let contracted = re(
        &CONTRACTED,
        r"(?i)n't\W+(?:(?:start|begin|ever|really|actually|even|cause|introduce|be|get|create|risk|see|expect|hit|trigger|produce|find|spot|notice|anything|any|that|which)\W+){0,3}(?:\w+\W+)?(?:(?:a|an|the)\W+(?:[\w-]+-[\w-]+\W+)?)?$",
    );
    let missing_action = re(
        &MISSING,
        r"(?i)n't\W+(?:handle|check|validate|close|release|free|escape|saniti[sz]e|catch|propagate|return|guard|cover|test|lock|clean|reset|update|wait|await|call|use)\b",
    );
    let nothing = re(&NOTHING, r"(?i)\b(?:nothing|none)\b((?:\W+\w+){0,5})\W+$");
    (contracted.is_match(before) && !missing_action.is_match(before))
        || nothing
            .captures(before)
            // ("nothing left here that could crash": "left" right after it is "remaining".)
            .is_some_and(|c| {
                let rest = c.get(1).map_or("", |m| m.as_str());
                !turns(rest.trim_start().strip_prefix("left").unwrap_or(rest))
            })
}

/// Does the clause turn in `rest` ("but", "except", "introduces", "still"…), so that what
/// came before it (a denial, a repair) no longer covers what follows?
fn turns(rest: &str) -> bool {
    static TURN: OnceLock<Pattern> = OnceLock::new();
    re(
        &TURN,
        r"(?i)\b(?:but|however|yet|though|although|while|whereas|except|besides|apart|other|else|introduc\w*|adds?|added|creates?|created|causes?|caused|leaves?|left|still|breaks?|new)\b",
    )
    .is_match(rest)
}

/// Does `before` end on what a test guards against ("regression tests for the ", "a test
/// case for an ")?
fn guarded(before: &str) -> bool {
    static GUARDED: OnceLock<Pattern> = OnceLock::new();
    re(
        &GUARDED,
        r"(?i)\b(?:tests?|test cases?|coverage)\s+(?:\w+\s+)?(?:for|against)\s+(?:the\s+|an?\s+)?$",
    )
    .is_match(before)
}

/// Is the cue the object of a repair earlier in its clause ("the change fixes the install
/// command and a broken link")? What the change repairs is not what the review raises, unless
/// the clause turns after the repair ("fixes the crash but introduces a race").
fn repaired(before: &str) -> bool {
    static REPAIR: OnceLock<Pattern> = OnceLock::new();
    let repair = re(
        &REPAIR,
        r"(?i)\b(?:fix(?:es|ed)?|corrects?|corrected|repairs?|repaired|resolves?|resolved|removes?|removed|eliminates?|eliminated|prevents?|prevented|address(?:es|ed)|plug(?:s|ged)|patch(?:es|ed))\b",
    );
    repair
        .find_iter(before)
        .last()
        .is_some_and(|m| !turns(&before[m.end()..]))
}

/// The part of the sentence from `at` on (at most [`WINDOW`] bytes of it).
fn sentence_after<'t>(text: &'t str, at: usize, breaks: &[char]) -> &'t str {
    let rest = after(text, at);
    rest.find(breaks).map_or(rest, |i| &rest[..i])
}

/// Is the phrase at `at` negated earlier in its sentence?
/// Does the objection `m` stand: not negated, and not the object of a "no" ("No changes
/// requested. Approve.")?
fn objects(text: &str, m: &regex::Match, negation: &Pattern) -> bool {
    static NO: OnceLock<Pattern> = OnceLock::new();
    // "This pull request changes the indexer …" is what the change does.
    let of_a_request = m.as_str().to_ascii_lowercase().starts_with("request")
        && ["pull ", "merge ", "Pull ", "Merge "]
            .iter()
            .any(|p| text[..m.start()].ends_with(p));
    !of_a_request
        && !negated(text, m.start(), negation)
        && !re(&NO, r"(?i)\b(?:no|zero)[ \t]+$").is_match(&text[..m.start()])
}

/// Does the answer approve only "the rest" ("The rest looks fine", "Apart from that, ready to
/// go")? Then it raised something before, whether or not the reader has words for it.
pub fn approves_the_rest(text: &str) -> bool {
    phrase().find_iter(text).any(|m| partial(text, m.start()))
}

/// Is the approval at `at` limited to the rest of the change ([`vocab::PARTIAL`])?
fn partial(text: &str, at: usize) -> bool {
    static PARTIAL: Pattern = Pattern::new(vocab::PARTIAL);
    PARTIAL.is_match(sentence_before(text, at, &['.', '!', '?', '\n', ';']))
}

fn negated(text: &str, at: usize, negation: &Pattern) -> bool {
    // A dash ends the clause: "releases the entry before unlinking — LGTM!" is not "before LGTM".
    negation.is_match(sentence_before(
        text,
        at,
        &['.', '!', '?', '\n', '—', '–', ';'],
    ))
}

/// How far around a phrase its sentence is read: what negates or qualifies it is a few words
/// away, and a bound keeps a long answer without sentence breaks linear to read.
const WINDOW: usize = 240;

/// The part of the sentence before `at` (at most [`WINDOW`] bytes of it).
fn sentence_before<'t>(text: &'t str, at: usize, breaks: &[char]) -> &'t str {
    let mut from = at.saturating_sub(WINDOW);
    while !text.is_char_boundary(from) {
        from += 1;
    }
    let window = &text[from..at];
    window.rfind(breaks).map_or(window, |i| {
        let len = window[i..].chars().next().map_or(1, char::len_utf8);
        &window[i + len..]
    })
}

/// The text after `at`, at most [`WINDOW`] bytes of it.
/// `rest` without the "once" that counts rather than sets a condition ("the request is retried
/// once after it", "runs once per job", "called only once"): "approve once the test passes"
/// keeps its condition.
fn unqualified(rest: &str) -> std::borrow::Cow<'_, str> {
    static COUNTED: OnceLock<Pattern> = OnceLock::new();
    re(
        &COUNTED,
        r"(?i)\b(?:(?:\w+ed|runs?|fires?|happens?|only|just|exactly|at most|at least|more than|than) once(?: (?:after|before|per|every|each|on|at|in|and|or)\b)?|once (?:more|again|per|every|each|a|an|at|during)\b|\b(?:read|set|run|built|hit|sent|made|done|called|loaded) once\b)",
    )
    .replace_all(rest, " ")
}

fn after(text: &str, at: usize) -> &str {
    let mut to = (at + WINDOW).min(text.len());
    while !text.is_char_boundary(to) {
        to -= 1;
    }
    &text[at..to]
}

/// The sentence of the first objection in `text` that nothing negates ("Approved? No.",
/// "Would I ship it? Absolutely not — there's a blocker", "not ready to merge").
pub fn objection(text: &str) -> Option<String> {
    static OBJECTION: OnceLock<Pattern> = OnceLock::new();
    static NEGATION: OnceLock<Pattern> = OnceLock::new();
    let objection = re(&OBJECTION, vocab::OBJECTIONS);
    let negation = re(&NEGATION, vocab::NEGATIONS);
    let m = objection
        .find_iter(text)
        .find(|m| objects(text, m, negation))?;
    let before = sentence_before(text, m.start(), &['.', '!', '\n']);
    let rest = after(text, m.start());
    let end = rest
        .char_indices()
        .skip(m.len())
        .find(|(_, c)| matches!(c, '.' | '!' | '\n'))
        .map_or(rest.len(), |(i, _)| i);
    Some(format!("{before}{}", &rest[..end]).trim().to_string())
}

/// Does the line open with a verdict's label (`Verdict : le point 1 est bloquant`, `Závěr:
/// neschvaluji`, `Итог: …`), whatever it goes on to say? It speaks of the whole review, not of
/// the finding above it.
pub fn labelled(text: &str) -> bool {
    static LABEL: OnceLock<Pattern> = OnceLock::new();
    re(
        &LABEL,
        r"(?i)^\W*(?:overall\s+|final\s+)?(?:verdict|conclusion|recommended decision|decisión recomendada|décision recommandée|empfohlene entscheidung|decisione raccomandata|decisão recomendada|рекомендуемое решение|推荐决定|建议决定|推奨される判断|권장 결정|short answer|bottom line|tl;?dr|in short|veredicto|verdetto|verdict final|en bref|fazit|kurz gesagt|en resumen|em resumo|závěr|итог|вердикт|висновок|werdykt|podsumowanie|sonuç|kết luận|kesimpulan|結論|结论|総評|要するに|简而言之|판정|결론|한마디로)\s*\**\s*[:：]",
    )
    .is_match(text)
}

/// A `Verdict: approve` / `**Decision:** Request changes` line in prose, or a table's row
/// (`| **Verdict** | ✅ **MERGE** |`).
pub fn stated(text: &str) -> Option<Stance> {
    static LINE: OnceLock<Pattern> = OnceLock::new();
    // The first such line that gives a stance (`Status: Draft` before `Verdict: Request
    // changes` says none).
    re(
        &LINE,
        // (`[\p{L} _-]+?`, its length checked after: thirty copies of the letter class
        // cost 18 ms to compile.)
        r"(?im)^\W*(?:overall\s+)?(?:verdict|decision|recommendation|review status|status|assessment|result|veredicto|decisión|dictamen|判定|結論|结论|审查结论|評価|판정|결론|최종 판정)\W*[:：|]\W*([\p{L} _-]+?)\W*(?:[(（][^)）\n]*[)）])?\W*$",
    )
    .captures_iter(text)
    .filter(|c| c[1].chars().count() <= 30)
    .find_map(|c| vocab::stance_of(&c[1]))
    .or_else(|| headed(text))
}

/// Does `text` open by saying it is a risk the reviewer checked and ruled out ("One thing I
/// checked and ruled out: I wondered whether … could leak it. It can't — …")? What follows is
/// the check, not a problem raised.
pub fn ruled_out(text: &str) -> bool {
    static RULED_OUT: OnceLock<Pattern> = OnceLock::new();
    static FIRST_WORRY: OnceLock<Pattern> = OnceLock::new();
    re(
        &RULED_OUT,
        r"(?i)^\W*(?:(?:one|another|the only|a|the)\s+)?(?:thing|risk|concern|case|question|possibility)\s+i\s+(?:checked|verified|looked (?:at|into)|considered|investigated|examined)\s+and\s+(?:ruled out|dismissed|cleared|found (?:fine|safe))\b",
    )
    .is_match(text)
        // "At first I worried that …" (after a short label such as "补充说明："), then why not:
        // a worry the reviewer resolved, in the languages it has been seen in.
        || (re(&FIRST_WORRY, vocab::FIRST_WORRY).is_match(text)
            && (!worry_confirmed(text) || ends_cleared(text)))
        || suspicion_cleared(text)
        || false_positive(text)
}

/// Does the paragraph rule a tool's alert a false positive ("The Semgrep alert on this PR (…)
/// is a **false positive**: the only interpolated value is an enum")? That alert is triaged
/// away, not raised.
fn false_positive(text: &str) -> bool {
    static FP: OnceLock<Pattern> = OnceLock::new();
    re(
        &FP,
        r"(?i)\b(?:alert|finding|warning|result|hit|match|flag|report)s?\b(?:[^.!?]|[.!?]\S){0,200}?\b(?:is|was|are|were) (?:an? )?(?:\*\*)?false[- ]positives?\b",
    )
    .is_match(&text.replace('\n', " "))
}

/// Does the paragraph end on a sentence that clears what came before ("But `claim_shard()`
/// does a `SELECT … FOR UPDATE`, so the second worker gets the next shard. That's fine.")? Then
/// a "but … does" before it explained why, and confirmed nothing.
fn ends_cleared(text: &str) -> bool {
    static CLEARED: OnceLock<Pattern> = OnceLock::new();
    let last = text
        .trim_end()
        .trim_end_matches(['.', '!'])
        .rsplit(['.', '!', '?', '\n'])
        .next()
        .unwrap_or(text)
        .trim();
    re(&CLEARED, vocab::CLEARED).is_match(last) && !raises_concern(last)
}

/// A paragraph that raises a suspicion in one sentence and clears it in a later one, with no
/// word of concern before the suspicion or after the clearing ("Ich hatte zuerst eine Race
/// Condition … vermutet. Das ist aber ausgeschlossen: …"; "The new helper hands the promise to
/// every caller. My first thought was that two tabs could race. But the server treats a second
/// refresh as idempotent … Not worth guarding against here.").
fn suspicion_cleared(text: &str) -> bool {
    static SUSPECTED: OnceLock<Pattern> = OnceLock::new();
    static CLEARED: OnceLock<Pattern> = OnceLock::new();
    // (A sentence ends at a stop before a space, not at the dot of `lease.go`.)
    let sentences: Vec<&str> = text
        .split(". ")
        .flat_map(|s| s.split(['。', '!', '?', '！', '？', '\n']))
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    let suspected = re(&SUSPECTED, vocab::SUSPECTED);
    let Some(first) = sentences.iter().position(|s| suspected.is_match(s)) else {
        return false;
    };
    // (Or the suspicion is a question the next sentence answers "No": "… la pagina resta
    // bianca? No: il `catch` …".)
    static ANSWERED_NO: OnceLock<Pattern> = OnceLock::new();
    let answered_no = text.split_once(['?', '？']).is_some_and(|(_, after)| {
        re(
            &ANSWERED_NO,
            r"(?i)^\s*(?:no|não|nein|non|нет|nie|hayır|không|いいえ|아니(?:요|오)?|不是)\s*[:.,—–!]",
        )
        .is_match(after)
    });
    let cleared = re(&CLEARED, vocab::CLEARED);
    // (The same sentence may clear it: "I checked the one thing that could go wrong — a retry
    // double-charging — and it can't: the key is the order's id.")
    let in_first = suspected
        .find(sentences[first])
        .and_then(|m| cleared.find_at(sentences[first], m.end()));
    let clearing = sentences[first + 1..]
        .iter()
        .position(|s| cleared.is_match(s))
        .map(|k| first + 1 + k);
    // What the paragraph says before the suspicion and after its clearing raises nothing.
    let quiet = |s: &&str| !raises_concern(s);
    let settled = match (in_first, clearing) {
        (Some(c), _) => {
            quiet(&&sentences[first][c.end()..]) && sentences[first + 1..].iter().all(quiet)
        }
        (None, Some(last)) => sentences[last..].iter().all(quiet),
        (None, None) => answered_no && first == 0,
    };
    settled && sentences[..first].iter().all(quiet) && !worry_confirmed(text)
}

/// Does a first worry turn out founded after all ("At first I thought it was fine, but it does
/// drop rows", "但实际上确实会…")? Then the paragraph raises it.
fn worry_confirmed(text: &str) -> bool {
    static CONFIRMED: OnceLock<Pattern> = OnceLock::new();
    re(
        &CONFIRMED,
        r"(?i)\b(?:but|however)\b[^.]{0,80}\b(?:actually|in fact|indeed|really|does|do|will)\b|但(?:实际上|其实|實際上)?(?:确实|的确|確實)|(?:しかし|でも)実際に(?:は)?.{0,20}(?:起き|発生)|하지만 실제로|pero (?:sí|en realidad sí)|mas (?:na verdade )?(?:sim|de fato)|aber (?:tatsächlich|doch)|mais en fait",
    )
    .is_match(text)
}

/// The stance of a heading that is only a verdict (Copilot's `### 🟡 Changes recommended`,
/// `## ✅ Ready to approve`).
fn headed(text: &str) -> Option<Stance> {
    static HEADING: OnceLock<Pattern> = OnceLock::new();
    re(&HEADING, r"(?m)^ {0,3}#{1,6}[ \t]+([^\n]{1,60}?)[ \t#]*$")
        .captures_iter(text)
        .find_map(|c| vocab::stance_of(&c[1]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overall_approvals() {
        for t in [
            "LGTM, nice work.",
            "No issues found.",
            "Didn't find any major issues. 👍",
            "No actionable comments were generated in the recent review.",
            "This is safe to merge.",
            "I have no concerns with this change.",
            "Looks good overall.",
            "I finished the code review, and didn't find any security or code quality issues.",
        ] {
            assert!(approves(t), "{t}");
        }
    }

    #[test]
    fn words_that_do_not_approve() {
        for t in [
            "This is not approved until the race is fixed.",
            "Far from LGTM.",
            "Approve once the migration is reversible.",
            "Looks good overall, but the loop will crash on empty input.",
            "LGTM except for the missing timeout.",
            "Looks good to me if you add a test.",
            "LGTM: this part is fine.",
            "Request changes: the token is logged.",
            "The approach is sound.",
            "Mostly LGTM.",
        ] {
            assert!(!approves(t), "{t}");
        }
    }

    #[test]
    fn a_no_to_approval_is_an_objection() {
        for t in [
            "Approved? No. The migration drops a column.",
            "Would I ship it? Absolutely not — there's a blocker in the retry loop.",
            "I would not ship this as it is.",
            "This is not ready to merge.",
        ] {
            assert!(objection(t).is_some(), "{t}");
            assert!(!approves(t), "{t}");
        }
        assert!(objection("Approved? Yes.").is_none());
    }

    #[test]
    fn concerns_in_words() {
        assert!(raises_concern("The loop will crash on empty input."));
        assert!(raises_concern("One minor thing: it prints NaN."));
        assert!(!raises_concern(
            "Bugbot reviewed your changes and found no bugs!"
        ));
        assert!(!raises_concern(
            "The rename is mechanical and the tests pass."
        ));
        // What a review looks for is not what it found.
        assert!(!raises_concern(
            "I'm reviewing this pull request for security vulnerabilities."
        ));
        assert!(raises_concern(
            "The parser is vulnerable to a crafted header."
        ));
        // An approval on a condition raises the condition.
        assert!(conditional("I'd approve this once `down()` is written."));
        assert!(!conditional("Approved. Nice work."));
        assert!(!conditional("Looks good, though I didn't run the tests."));
        // Long text without sentence breaks: each cue is read in its window.
        assert!(raises_concern(&"it leaks and ".repeat(50_000)));
        assert!(!raises_concern(&"no leaks, ".repeat(50_000)));
    }

    #[test]
    fn verdict_lines() {
        assert_eq!(
            stated("## Verdict\n**Verdict:** Request changes\n"),
            Some(Stance::Object)
        );
        assert_eq!(stated("Decision: approve"), Some(Stance::Approve));
        assert_eq!(
            stated("**Status:** Draft\n**Verdict:** Request changes\n"),
            Some(Stance::Object)
        );
        assert_eq!(stated("The decision: we should think"), None);
        // Other languages, a full-width colon, a qualifier in brackets.
        assert_eq!(stated("**结论：通过 ✅**"), Some(Stance::Approve));
        assert_eq!(stated("**Veredicto: aprobado ✅**"), Some(Stance::Approve));
        assert_eq!(
            stated("**判定: 承認（軽微な指摘あり）**"),
            Some(Stance::Approve)
        );
        assert_eq!(stated("최종 판정: 승인 불가"), Some(Stance::Object));
        // A table's row, and a dependency review's words for its call.
        assert_eq!(
            stated("| **Risk** | 🟢 Low |\n| **Verdict** | ✅ **MERGE** |\n"),
            Some(Stance::Approve)
        );
        assert_eq!(stated("**Verdict:** HOLD"), Some(Stance::Object));
        assert_eq!(stated("| Verdict | Notes |\n"), None);
    }

    #[test]
    fn one_thing_said_to_be_fine_raises_nothing() {
        let fine = [
            "One thing I looked at that is not a problem for this PR: the docs page lags.",
            "One thing that turned out fine: the cache is per request.",
        ];
        for t in fine {
            assert!(!raises_concern(t), "{t}");
        }
        // The lead-in ends at its colon: what follows is read on its own words.
        assert!(!raises_concern("The race detector passes on three runs."));
        assert!(!raises_concern(
            "Concurrency changes are where bugs hide, so I went through them:"
        ));
        let raised = [
            "One thing: the retry is not a problem, but the lock leaks.",
            "One thing I noticed: the cache is never cleared.",
            "One issue that is not obvious at first: the handler panics on empty input.",
        ];
        for t in raised {
            assert!(raises_concern(t), "{t}");
        }
    }

    #[test]
    fn what_cannot_happen_raises_nothing() {
        for t in [
            "The ticker goroutine cannot race the handlers.",
            "A double shutdown can't panic either.",
            "So the buffer won’t overflow.",
        ] {
            assert!(!raises_concern(t), "{t}");
        }
        assert!(ends_cleared(
            "My first thought was a race on the map. It takes the lock, so it cannot race."
        ));
        assert!(raises_concern("It cannot handle an empty list: it panics."));
        // The harm is the subject of what cannot happen, or the state it cannot leave.
        for t in [
            "Both statements run in one transaction now, so a crash between them can't leave \
             the marker missing.",
            "This race cannot occur: the map is only written under the lock.",
        ] {
            assert!(!raises_concern(t), "{t}");
        }
        assert!(raises_concern(
            "A panic can't be caught here, so the worker dies."
        ));
        assert!(raises_concern(
            "The retry can't stop, so the worker crash-loops."
        ));
        // What a test is run with, made to fail, is its input.
        assert!(!raises_concern(
            "The new test drives the branch with a sink that fails once."
        ));
        assert!(raises_concern("The export fails once the sink is full."));
    }

    #[test]
    fn a_risk_given_as_the_reason_for_a_check_raises_nothing() {
        assert!(!raises_concern(
            "Removing it breaks any inline handler we forgot about, so I grepped the templates: \
the last two were moved."
        ));
        assert!(!raises_concern(
            "Two tabs could race on the refresh, which is why I ran it under `-race`."
        ));
        // What the check found still speaks.
        assert!(raises_concern(
            "It breaks inline handlers, so I grepped the templates. The admin page still breaks."
        ));
        assert!(raises_concern(
            "It breaks inline handlers, so please grep the templates."
        ));
    }

    #[test]
    fn a_short_answer_is_a_verdict_label() {
        assert!(labelled("Short answer: not safe to merge yet."));
        assert!(labelled("**TL;DR:** approve"));
        assert!(!labelled("Short answers are fine: the API returns 204."));
    }

    #[test]
    fn a_review_trailer_and_nothing_to_say_approve() {
        let signed = "Checked the unwind paths; each releases the lock.\n\n\
Reviewed-by: Ana Lima <ana.lima@example.org>\n";
        assert!(approves(signed));
        assert!(approves(
            "J'ai vérifié les chemins d'erreur. Rien à redire."
        ));
        // A trailer without a signer is no signature, and a "not" still refuses.
        assert!(!approves("Reviewed-by: pending the second pass\n"));
        assert!(!approves(
            "I would not add my Reviewed-by: Ana Lima <ana@example.org> yet."
        ));
    }
}
