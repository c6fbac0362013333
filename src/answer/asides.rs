//! The blocks of a review written as prose that are not points — a greeting or a sign-off, a
//! lead-in to the points ("Two remarks:", "Looking at the selected code in `a.cs`:"), what the
//! reviewer says it did not do ("I didn't run `helm template`") — and the place a point written
//! after them takes from the text before it ("line 121", "in the same file").
//!
//! An answer the reader cannot structure is split into blocks, each an unclassified finding
//! unless it rates itself ([`crate::answer::normalise::raw_blocks`]): every block wrongly kept
//! is a false finding that trips the gate, every place lost is a finding SARIF cannot show.

use std::sync::OnceLock;

use crate::answer::location::{self, Roots};
use crate::answer::re;
use crate::findings::{Finding, Location};
use crate::pattern::Pattern;

/// Is the block only courtesy: each line a greeting ("Hi Dev,", "佐藤さん"), a sign-off
/// ("Cheers,", "よろしくお願いします。") or a name under one?
pub fn courtesy(block: &str) -> bool {
    static GREETING: OnceLock<Pattern> = OnceLock::new();
    static SIGN_OFF: OnceLock<Pattern> = OnceLock::new();
    static NAME: OnceLock<Pattern> = OnceLock::new();
    let greeting = re(
        &GREETING,
        r"(?i)^\W*(?:(?:hi|hello|hey|dear|hallo|hola|olá|ola|oi|bonjour|salut|ciao|moin|hej)\b[^.!?\n]{0,40}[,!:]?|[^\s,.]{1,12}(?:さん|様|さま)[、,]?|お疲れ(?:さま|様)です.*|你好.*|您好.*|안녕하세요.*)\s*$",
    );
    let sign_off = re(
        &SIGN_OFF,
        r"(?i)^\W*(?:cheers|best|best regards|kind regards|regards|thanks|thank you|many thanks|thx|br|viele grüße|grüße|lg|vg|saludos|un saludo|gracias|abraços?|obrigad[oa]|merci|cordialement|bien à (?:toi|vous)|grazie|よろしくお願い(?:します|いたします)|谢谢|謝謝|감사합니다|수고하세요)[,!.。]?\s*$",
    );
    let name = re(
        &NAME,
        r"^\s*[-—–]*\s*\p{Lu}[\p{L}.'-]*(?:\s+\p{Lu}[\p{L}.'-]*){0,2}\s*$",
    );
    let lines: Vec<&str> = block.lines().filter(|l| !l.trim().is_empty()).collect();
    let polite = |l: &&str| greeting.is_match(l) || sign_off.is_match(l);
    lines.iter().any(polite) && lines.iter().all(|l| polite(l) || name.is_match(l))
}

/// Is the block one sentence saying what the reviewer read ("I read through the change and the
/// surrounding panic path.", "I went over both call sites.")? A scope, not a point: the
/// concern words in it name what was read. One that goes on to what was found is not.
pub fn scope(block: &str) -> bool {
    static READ: OnceLock<Pattern> = OnceLock::new();
    static FOUND: OnceLock<Pattern> = OnceLock::new();
    let t = block.trim();
    let read = re(
        &READ,
        r"(?i)^I (?:(?:read|went|looked|walked) (?:through|over|at)|(?:re-?)?read|reviewed|traced) ",
    );
    let found = re(
        &FOUND,
        r"(?i)\b(?:but|however|found|find|noticed|spotted|except|though|although|and (?:it|this|that|they))\b",
    );
    !t.contains('\n')
        && t.chars().count() <= 120
        && t.ends_with('.')
        && t.matches(". ").count() == 0
        && read.is_match(t)
        && !found.is_match(t)
        && crate::answer::prose::block_ratings(t).is_empty()
}

/// Is the block a lead-in to the points after it: one line ending in a colon with no line of
/// code in it ("A few observations:", "有几点想法：", "Looking at `src/a.cs`:"), or a short
/// count of what follows with no place ("Deux remarques quand même.", "気になった点が二つあります。")?
/// (One that states a level gives it to the point after it; see `raw_blocks`.)
pub fn lead_in(block: &str, roots: &Roots) -> bool {
    static COUNT: OnceLock<Pattern> = OnceLock::new();
    let t = block.trim();
    if t.contains('\n') || location::lines_in(t).is_some() {
        return false;
    }
    if t.ends_with([':', '：']) && t.chars().count() <= 120 {
        return true;
    }
    // "Here are my observations on the `.gitlab-ci.yml` change. I didn't assign severities."
    static HERE_ARE: OnceLock<Pattern> = OnceLock::new();
    let here_are = re(
        &HERE_ARE,
        r"(?i)^\W*(?:here (?:are|is)|below (?:are|is)|these are) (?:my |a few |some |the )?(?:observations|notes|thoughts|comments|findings|remarks|review|feedback)\b",
    );
    if here_are.is_match(t)
        && t.chars().count() <= 200
        && !crate::answer::verdict::raises_concern(t)
        && crate::answer::prose::block_ratings(t).is_empty()
    {
        return true;
    }
    let count = re(
        &COUNT,
        r"(?i)\b(?:two|three|four|a couple of|a few|several|deux|trois|quelques|zwei|drei|ein paar|einige|dos|tres|algunas|algunos|dois|duas|três|alguns|algumas|due|tre|alcune|alcuni)\b[^.!?]{0,30}\b(?:things?|points?|notes?|remarks?|observations?|comments?|remarques?|points?|anmerkungen|punkte|dinge|cosas|puntos|observaciones|comentarios|coisas|pontos|observações|comentários|osservazioni|cose|punti)\b|[二两兩三几幾2-9]\s*(?:つ|点|個|个|件|가지)",
    );
    t.chars().count() <= 80
        && count.is_match(t)
        && location::find_all(t, roots).is_empty()
        && crate::answer::prose::block_ratings(t).is_empty()
}

/// Does the block only say what the review did not do ("I didn't run `helm template` because
/// the sandbox has no network", "I only had time for `billing/invoice_pdf.py`")? A limit of the
/// review, not a problem of the change.
pub fn own_limits(block: &str, roots: &Roots) -> bool {
    static UNDONE: OnceLock<Pattern> = OnceLock::new();
    static ONLY: OnceLock<Pattern> = OnceLock::new();
    // What it could not do is a limit whatever it then says ("so I can't say whether the pool
    // leaks"); what it looked at only is one if it raises nothing there ("I only looked at
    // `db.py`, and the connection is never closed" is a point).
    let undone = re(
        &UNDONE,
        r"(?i)^\W*(?:(?:note|caveat)\W+)?i (?:did not|didn't|could not|couldn't|can't|cannot|have not|haven't|was not able to|wasn't able to) (?:\w+ )?(?:run|test|benchmark|load[- ]test|verify|check|try|build|execute|reproduce|confirm|profile|measure)\b",
    );
    let only = re(
        &ONLY,
        r"(?i)^\W*(?:(?:note|caveat)\W+)?i only (?:had time (?:for|to)|looked at|reviewed|read|went through)\b",
    );
    let t = block.trim();
    let limit =
        undone.is_match(t) || (only.is_match(t) && !crate::answer::verdict::raises_concern(t));
    !t.contains("\n\n")
        && t.chars().count() <= 300
        && limit
        && crate::answer::prose::block_ratings(t).is_empty()
        && !location::find_all(t, roots)
            .iter()
            .any(|l| l.start_line.is_some())
}

/// Is the block a chat model's list of its sources ("Sources" over `[1] RFC 9110, section
/// 10.2.3 — Retry-After`): what the answer cites, not a point.
pub fn sources(block: &str) -> bool {
    static LABEL: OnceLock<Pattern> = OnceLock::new();
    static CITATION: OnceLock<Pattern> = OnceLock::new();
    let label = re(
        &LABEL,
        r"(?i)^\W*(?:sources?|references?|citations?|links|quellen|fuentes|fontes|références|fonti|参考(?:资料|文献|資料)?|出典|출처|참고(?: 자료)?)\W*$",
    );
    let citation = re(
        &CITATION,
        r"^\s*(?:[-*]\s*)?(?:\[\d{1,2}\]|\d{1,2}[.)]|\[[^\]\n]+\]\([^)\s]+\)|https?://\S+)",
    );
    let mut lines = block.lines().filter(|l| !l.trim().is_empty());
    lines.next().is_some_and(|l| label.is_match(l)) && {
        let rest: Vec<&str> = lines.collect();
        !rest.is_empty() && rest.iter().all(|l| citation.is_match(l))
    }
}

/// Does the block only promise the next step ("Let me know when it's updated and I'll
/// approve.", "Me avisa quando atualizar que eu aprovo.") around praise, raising nothing?
pub fn follow_up(block: &str, roots: &Roots) -> bool {
    static PROMISE: OnceLock<Pattern> = OnceLock::new();
    let promise = re(
        &PROMISE,
        r"(?i)\b(?:let me know|ping me|tell me|me avisa|me avise|avísame|avisame|sag(?:t)? (?:mir )?bescheid|préviens-moi|dis-moi|fammi sapere)\b[^.!?\n]{0,80}\b(?:approve|re-?review|take (?:another|a second) look|look again|aprovo|aprobaré|apruebo|reviso de novo|freigeben|gebe (?:ich )?frei|approuve|approuverai|approvo)\b",
    );
    let t = block.trim();
    t.chars().count() <= 300
        && promise.is_match(t)
        && !crate::answer::verdict::raises_concern(t)
        && crate::answer::prose::block_ratings(t).is_empty()
        && location::find_all(t, roots).is_empty()
}

/// Does the block open on a fix for the point before it ("Suggested change: only reset
/// `attempt` after a full batch", "Fix: …")? Then it is that point's, not another.
pub fn fix_for_previous(block: &str) -> bool {
    static FIX: OnceLock<Pattern> = OnceLock::new();
    re(
        &FIX,
        r"(?i)^\W*(?:suggested (?:change|fix)|proposed (?:change|fix)|fix|possible fix|suggestion|sugerencia|correção|sugestão|vorschlag|lösung|correctif|suggestion de correction|修正案|修复建议|建议|수정 제안)\s*\**\s*[:：]",
    )
    .is_match(block)
}

/// Gives a point without a file of its own the file named last before it, when the point
/// refers to one: a line number ("line 121") or words for the same file ("in the same file",
/// "a few lines below", "derselben Datei", "同じファイル").
pub fn inherit(f: &mut Finding, block: &str, file: &str) {
    static SAME_FILE: OnceLock<Pattern> = OnceLock::new();
    if f.location.as_ref().is_some_and(|l| !l.path.is_empty()) {
        return;
    }
    let lines = location::lines_in(block);
    let same = re(
        &SAME_FILE,
        r"(?i)\b(?:(?:the )?same file|(?:a )?few lines (?:below|above|further down|up|later|earlier)|derselben datei|der gleichen datei|même fichier|mismo archivo|mesmo arquivo|stesso file)\b|同じファイル|同一个文件|同一文件|同一個檔案|같은 파일",
    );
    if lines.is_none() && !same.is_match(block) {
        return;
    }
    let (start, end) = lines.map_or((None, None), |(s, e)| (Some(s), e.filter(|e| *e >= s)));
    f.location = Some(Location::new(file, start, end));
}
