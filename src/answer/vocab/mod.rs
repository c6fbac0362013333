//! The reader's vocabularies, as data: severity words, section headings, approval and
//! non-approval phrases, placeholders, and the keys real reviewers' JSON uses (a judge's words
//! are in [`crate::answer::judge`]).
//!
//! One table per concept, in one place, so a new reviewer format is usually a new row in one of
//! these files and not new code (the README's "How answers are read" shows the severity table).
//! Matching is on whole normalised phrases: "critical" in "this is a critical path" is prose,
//! not a marker.

mod checks;
mod columns;
mod json_keys;
mod paths;
mod phrases;
mod sections;
mod severity;

pub use checks::*;
pub use columns::*;
pub use json_keys::*;
pub use paths::*;
pub use phrases::*;
pub use sections::*;
pub use severity::*;

use crate::findings::Severity;
use Severity::*;

/// How a checklist row stands by the mark it opens with (`❌ …`, `✅ …`, `➖ i18n: not
/// applicable`): `None` when it opens with none.
pub fn check_mark(text: &str) -> Option<Check> {
    let t = text.trim_start_matches(|c: char| c.is_whitespace() || "-*+_`|".contains(c));
    CHECK_MARKS
        .iter()
        .find(|(m, _)| t.starts_with(m))
        .map(|(_, c)| *c)
}

/// How a status cell stands, by the mark or the words it opens with (`❌ NO-GO`, `✅ 2,041
/// passed`, `FAIL`, `N/A`): `None` when it opens with neither.
pub fn check_of(cell: &str) -> Option<Check> {
    check_mark(cell).or_else(|| {
        let n = normalise(cell);
        CHECK_WORDS
            .iter()
            .map(|(w, c)| (normalise(w), *c))
            .filter(|(w, _)| {
                n == *w
                    || n.strip_prefix(w.as_str())
                        .is_some_and(|r| r.starts_with(' '))
            })
            .max_by_key(|(w, _)| w.len())
            .map(|(_, c)| c)
    })
}

/// The stance a verdict word takes (`approve`, `request_changes`, `patch is incorrect`).
pub fn stance_of(s: &str) -> Option<Stance> {
    let n = normalise(s);
    VERDICT_WORDS
        .iter()
        .find(|(w, _)| normalise(w) == n)
        .map(|(_, st)| *st)
}

/// Is `text` a mark that its comment is no longer raised ([`WITHDRAWN`])?
pub fn is_withdrawn(text: &str) -> bool {
    static WITHDRAWN_RE: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    crate::answer::re(&WITHDRAWN_RE, WITHDRAWN).is_match(text)
}

/// Does a lead-in announce the list after it as problems ("Three observations from this pass:",
/// "A few things stood out:")? ([`ANNOUNCED_FINDINGS`])
pub fn announces_findings(text: &str) -> bool {
    static ANNOUNCED_RE: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    // The lead-in is the last sentence ("I'd hold this one for now. Three things:").
    let last = text
        .trim_end()
        .rsplit(['.', '!', '?'])
        .next()
        .unwrap_or(text);
    crate::answer::re(&ANNOUNCED_RE, ANNOUNCED_FINDINGS).is_match(last.trim())
}

/// Does a paragraph say the table after it lists what the change fixed ("**1 alert fixed** by
/// this pull request:", "The following issues were fixed in this Pull Request")?
pub fn announces_fixed(text: &str) -> bool {
    static FIXED_RE: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    let plain = text.replace("**", "");
    crate::answer::re(&FIXED_RE, FIXED_LEAD_IN).is_match(plain.trim())
}

/// Does a lead-in say the list after it is not raised here ([`HIDDEN_LEAD_IN`])?
pub fn hides_list(text: &str) -> bool {
    static HIDDEN_RE: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    crate::answer::re(&HIDDEN_RE, HIDDEN_LEAD_IN).is_match(text)
}

/// Does a lead-in say the list after it is of things that only look wrong
/// ([`CLEARED_LEAD_IN`])?
pub fn clears_list(text: &str) -> bool {
    static CLEARED_RE: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    crate::answer::re(&CLEARED_RE, CLEARED_LEAD_IN).is_match(text.trim())
}

/// Does a table's cell only point at a finding told in full below ([`POINTS_BELOW`])?
pub fn points_below(cell: &str) -> bool {
    static BELOW_RE: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    crate::answer::re(&BELOW_RE, POINTS_BELOW).is_match(cell.trim())
}

/// Is `line` a bot's footer ([`BOT_FOOTER`])?
pub fn is_bot_footer(line: &str) -> bool {
    static FOOTER_RE: std::sync::OnceLock<crate::pattern::Pattern> = std::sync::OnceLock::new();
    crate::answer::re(&FOOTER_RE, BOT_FOOTER).is_match(line.trim())
}

/// "Comment 4", "Issue 2", "Finding #3": a title that only numbers a finding (what it says is
/// in its body).
pub fn numbered_title(title: &str) -> bool {
    const NAMES: &[&str] = &[
        "comment",
        "issue",
        "finding",
        "suggestion",
        "note",
        "problem",
        "bug",
        "item",
        "point",
        "observation",
    ];
    let n = normalise(title);
    let words: Vec<&str> = n.split(' ').collect();
    matches!(words.as_slice(), [w, d] if NAMES.contains(w) && d.chars().all(|c| c.is_ascii_digit()))
}

/// Normalises a marker or heading: lower case, emoji and punctuation gone, words separated by
/// one space (`"**P1 - Must Fix**"` → `"p1 must fix"`).
/// The status a short text opens with (a table's status cell: "Fixed in 2f7b9d4", "Still
/// open", "Not fixed"), read in its first three words.
pub fn status_word(text: &str) -> Option<Carried> {
    let words: Vec<String> = normalise(text)
        .split(' ')
        .take(3)
        .map(str::to_string)
        .collect();
    status_in(&words)
}

/// The first status phrase in `words`, the longest one where several start at one word.
pub fn status_in(words: &[String]) -> Option<Carried> {
    for i in 0..words.len() {
        let best = CARRIED_STATUS
            .iter()
            .filter(|(p, _)| {
                let p: Vec<&str> = p.split(' ').collect();
                words.len() - i >= p.len()
                    && words[i..i + p.len()].iter().zip(&p).all(|(a, b)| a == b)
            })
            .max_by_key(|(p, _)| p.len());
        if let Some((_, st)) = best {
            return Some(*st);
        }
    }
    None
}

/// Whether a reply says only thanks or OK ("Thanks.", "Ack, great", "👍", "Danke!"): an
/// acknowledgement of the answer it replies to, which raises nothing.
pub fn acknowledgement(reply: &str) -> bool {
    let t = reply.trim();
    if t.chars().all(|c| !c.is_alphanumeric()) {
        return ["👍", "🙏", "✅", "👌"].iter().any(|e| t.contains(e));
    }
    // (Phrases of two words out first, then each word on its own.)
    let mut words = format!(" {} ", normalise(t));
    for phrase in phrases::ACKNOWLEDGEMENTS.iter().filter(|p| p.contains(' ')) {
        words = words.replace(&format!(" {phrase} "), " ");
    }
    words
        .split_whitespace()
        .all(|w| phrases::ACKNOWLEDGEMENTS.contains(&w))
}

pub fn normalise(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_alphanumeric() || combining_mark(c) {
            out.extend(c.to_lowercase());
        } else {
            out.push(' ');
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A text's words of substance (longer than `shortest` characters, with a letter in them),
/// and in a script written without spaces (Chinese, Japanese, Korean, Thai) each run's character
/// pairs, which stand for its words: what two findings share when they say one thing twice, or
/// a restatement shares with the answer it restates.
pub fn content_words(text: &str, shortest: usize) -> Vec<String> {
    let mut out = Vec::new();
    for word in normalise(text).split(' ') {
        let run: Vec<char> = word.chars().filter(|c| unspaced(*c)).collect();
        if run.len() >= 2 {
            out.extend(run.windows(2).map(|w| w.iter().collect::<String>()));
        } else if run.is_empty()
            && word.chars().count() > shortest
            && word.chars().any(char::is_alphabetic)
        {
            out.push(word.to_string());
        }
    }
    out
}

/// A vowel sign or tone mark that is part of a word (Thai `ต่ำ`, Hindi `मध्यम`, Arabic
/// vowel marks, Latin combining accents): not a separator, though not alphanumeric.
fn combining_mark(c: char) -> bool {
    matches!(c,
        '\u{0300}'..='\u{036F}'
        | '\u{0610}'..='\u{061A}'
        | '\u{064B}'..='\u{065F}'
        | '\u{0670}'
        | '\u{06D6}'..='\u{06ED}'
        | '\u{0900}'..='\u{0903}'
        | '\u{093A}'..='\u{094F}'
        | '\u{0951}'..='\u{0957}'
        | '\u{0962}'..='\u{0963}'
        | '\u{0E31}'
        | '\u{0E34}'..='\u{0E3A}'
        | '\u{0E47}'..='\u{0E4E}')
}

/// A severity word or phrase from the vocabulary (`P1`, `high`, `nit`, `🟠`, `must fix`...), as a
/// judge's ruling states it.
pub fn parse_severity(s: &str) -> Option<Severity> {
    severity_of(s).map(|(sev, _)| sev)
}

/// The severity a marker names ("High Severity", "P1 Badge", "🔴 Critical", "priority: 2",
/// "must-fix", "\[nitpick\]"), when the whole marker is severity vocabulary; prose that merely
/// contains a severity word is not a marker.
pub fn severity_of(marker: &str) -> Option<(Severity, Strength)> {
    let mut found: Vec<(Severity, Strength)> = Vec::new();
    for (e, s, st) in SEVERITY_EMOJI {
        match marker.matches(e).count() {
            0 => {}
            // A run of circles is a scale ("effort 🔵🔵🔵⚪⚪"), not a level.
            1 => found.push((*s, *st)),
            _ => return None,
        }
    }
    // Shortcodes are markers or nothing: `:bulb: Codebase verification` is the words alone.
    let without_codes: String = {
        let mut out = String::with_capacity(marker.len());
        let mut rest = marker;
        while let Some(start) = rest.find(':') {
            let after = &rest[start + 1..];
            match after.find(':') {
                Some(end)
                    if end > 0
                        && after[..end]
                            .chars()
                            .all(|c| c.is_ascii_lowercase() || c == '_' || c.is_ascii_digit()) =>
                {
                    out.push_str(&rest[..start]);
                    out.push(' ');
                    rest = &after[end + 1..];
                }
                _ => {
                    out.push_str(&rest[..=start]);
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        out
    };
    let normal = normalise(&without_codes);
    let words: Vec<&str> = normal.split(' ').filter(|w| !w.is_empty()).collect();
    if let Some(s) = numbered_severity(&words) {
        found.push((s, Strength::Level));
    } else {
        let named = phrases(&words)?;
        if named.is_empty() && found.is_empty() {
            return None;
        }
        found.extend(named);
    }
    // Every word was vocabulary: the strongest, then the most severe, wins.
    found
        .into_iter()
        .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
}

/// The level a severity field's value names: a marker, or a value only a field gives a level
/// ([`FIELD_SEVERITY_VALUES`]).
pub fn field_severity(value: &str) -> Option<(Severity, Strength)> {
    if let Some(s) = scored(value) {
        return Some((s, Strength::Level));
    }
    severity_of(&format!("severity {value}")).or_else(|| {
        let v = normalise(value);
        FIELD_SEVERITY_VALUES
            .iter()
            .find(|(w, _)| *w == v)
            .map(|(_, s)| (*s, Strength::Level))
    })
}

/// A score out of a maximum (`9/10`, `4 / 5`), higher being worse, as a level by its share of
/// the scale: the top tenth P0, then P1 from 70 %, P2 from 40 %, P3 below. (A scale's own
/// legend — "9–10 = critical, 7–8 = high" — draws the same lines.)
fn scored(value: &str) -> Option<Severity> {
    let (n, max) = value.trim().split_once('/')?;
    let n: f64 = n.trim().parse().ok()?;
    let max: f64 = max.trim().parse().ok()?;
    if !(2.0..=100.0).contains(&max) || !(0.0..=max).contains(&n) {
        return None;
    }
    let share = n / max;
    Some(if share >= 0.9 {
        P0
    } else if share >= 0.7 {
        P1
    } else if share >= 0.4 {
        P2
    } else {
        P3
    })
}

/// `priority 1`, `severity: 2`, `prio 0`: the number is the level (0 to 3; larger is unknown).
fn numbered_severity(words: &[&str]) -> Option<Severity> {
    match words {
        [k, n] if ["priority", "prio", "severity", "p", "sev"].contains(k) && rung(n).is_some() => {
            rung(n)
        }
        // An incident scale's rung (`Sev1`, `SEV-2`) reads as the same rung of ours; the bare
        // `S1` only as a severity field's value, since alone it is as likely a name (AWS's S3).
        [w] => w.strip_prefix("sev").and_then(rung),
        [k, w] if ["priority", "severity"].contains(k) => w
            .strip_prefix("sev")
            .or_else(|| w.strip_prefix('s'))
            .and_then(rung),
        // A score out of five where five is the worst (`Severity 5/5`, `impact: 2/5`); a
        // confidence or quality score is no level (its name is not one of these).
        [k, n, "5"] if ["severity", "impact", "risk", "criticality"].contains(k) => match *n {
            "5" => Some(P0),
            "4" => Some(P1),
            "3" => Some(P2),
            "1" | "2" => Some(P3),
            _ => None,
        },
        _ => None,
    }
}

/// A rung of a numbered scale, zero the worst: 0–3 are ours, a fourth or fifth rung is still
/// the lowest level.
fn rung(n: &str) -> Option<Severity> {
    match n {
        "0" => Some(P0),
        "1" => Some(P1),
        "2" => Some(P2),
        "3" | "4" | "5" => Some(P3),
        _ => None,
    }
}

/// The words as a sequence of vocabulary phrases (filler words and counts skipped), or `None`
/// when any other word is present.
fn phrases(words: &[&str]) -> Option<Vec<(Severity, Strength)>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let hit = (1..=3.min(words.len() - i)).rev().find_map(|len| {
            let phrase = words[i..i + len].join(" ");
            SEVERITY_PHRASES
                .iter()
                .find(|(p, _, _)| *p == phrase)
                .map(|(_, s, st)| (len, (*s, *st)))
        });
        match hit {
            Some((len, h)) => {
                out.push(h);
                i += len;
            }
            None if SEVERITY_FILLER.contains(&words[i])
                || words[i].chars().all(|c| c.is_ascii_digit()) =>
            {
                i += 1;
            }
            None => return None,
        }
    }
    Some(out)
}

/// A count of findings by level and nothing else (`1 critical`, `3 major issues`, `Minor: 2`).
pub fn is_tally(s: &str) -> bool {
    let t = normalise(s);
    let words: Vec<&str> = t.split(' ').filter(|w| !w.is_empty()).collect();
    let (numbers, rest): (Vec<&str>, Vec<&str>) = words
        .iter()
        .partition(|w| w.chars().all(|c| c.is_ascii_digit()));
    numbers.len() == 1
        && !rest.is_empty()
        && rest.len() <= 3
        && severity_of(&rest.join(" ")).is_some_and(|s| s.1 == Strength::Level)
}

/// What a reviewer writes, alone, under a heading that has nothing in it: "None.", "Ninguno.",
/// "없음.", "无。" (compared after [`normalise`]: lower case, punctuation gone).
const EMPTY_WORDS: &[&str] = &[
    "none",
    "n a",
    "na",
    "nil",
    "nothing",
    "no",
    "empty",
    "nope",
    "none found",
    // Spanish, Portuguese, Catalan, Italian, French
    "ninguno",
    "ninguna",
    "nada",
    "ningún",
    "nenhum",
    "nenhuma",
    "cap",
    "nessuno",
    "nessuna",
    "niente",
    "nulla",
    "aucun",
    "aucune",
    "rien",
    "néant",
    // German, Dutch, Scandinavian, Finnish
    "keine",
    "keiner",
    "keins",
    "nichts",
    "entfällt",
    "geen",
    "niets",
    "ingen",
    "inga",
    "inget",
    "intet",
    "ei mitään",
    "ei ole",
    // Slavic, Baltic, Hungarian, Romanian, Greek, Turkish
    "brak",
    "nic",
    "žádné",
    "žádná",
    "žiadne",
    "нет",
    "ничего",
    "отсутствуют",
    "немає",
    "нічого",
    "nincs",
    "niciuna",
    "niciunul",
    "nimic",
    "κανένα",
    "κανένας",
    "τίποτα",
    "yok",
    "hiçbiri",
    // Japanese, Chinese, Korean
    "なし",
    "特になし",
    "該当なし",
    "ありません",
    "特にありません",
    "无",
    "無",
    "没有",
    "沒有",
    "暂无",
    "暫無",
    "없음",
    "없습니다",
    "해당 없음",
    "해당없음",
    // Vietnamese, Indonesian, Malay, Hindi, Arabic, Hebrew, Thai
    "không có",
    "tidak ada",
    "tiada",
    "कोई नहीं",
    "कुछ नहीं",
    "لا يوجد",
    "لا شيء",
    "لا توجد",
    "موردی نیست",
    "موردی وجود ندارد",
    "هیچ",
    "هیچ موردی",
    "ندارد",
    "אין",
    "ไม่มี",
    // "Nothing to point out" in the words a level section's placeholder takes.
    "rien à signaler",
    "rien à redire",
    "rien à ajouter",
    "aucun point",
    "aucune remarque",
    "nada que señalar",
    "nada a señalar",
    "nada que destacar",
    "nada a destacar",
    "nada a apontar",
    "nada a assinalar",
    "niente da segnalare",
    "nulla da segnalare",
    "nichts zu beanstanden",
    "nichts anzumerken",
    "замечаний нет",
    "нет замечаний",
    "指摘なし",
    "特に指摘はありません",
    "指摘事項なし",
    "无问题",
    "没有问题",
    "지적 사항 없음",
    "지적할 사항 없음",
];

/// `none`, `(none)`, `N/A`, `No blockers.`, `No P1 issues.`: a placeholder where a list of
/// findings would be, not a finding.
pub fn is_placeholder(s: &str) -> bool {
    // "Nothing worth flagging; naming matches the rest": the first clause decides.
    let first = s.split([';', '—', ':']).next().unwrap_or(s);
    let first = if first.split_whitespace().count() < s.split_whitespace().count()
        && normalise(first).starts_with("nothing")
    {
        first
    } else {
        s
    };
    let t = normalise(first);
    if t.is_empty() {
        return !s.trim().is_empty();
    }
    let words: Vec<&str> = t.split(' ').collect();
    if words.len() > 9 {
        return false;
    }
    if EMPTY_WORDS.contains(&t.as_str()) {
        return true;
    }
    if placeholder_elsewhere(&words) {
        return true;
    }
    let rest = |skip: usize| words[skip..].join(" ");
    match words[0] {
        // "Nothing else to report", "None found", "Nothing stood out" — but not "Nothing
        // elsewhere checks the expiry" or "Nothing else handles the retry".
        "none" | "nothing" => {
            // ("Nothing I'd block on, but the retry never ends" says something after all.)
            if words.iter().any(|w| CONTRASTS.contains(w)) {
                return false;
            }
            let r = rest(1);
            let r = r.strip_prefix("else").map_or(r.as_str(), str::trim_start);
            placeholder_tail(r)
        }
        // "No P1 issues.", "No blocking concerns found" — but not "No tests cover the new
        // issues endpoint": only qualifiers before the noun, only a placeholder after it. A
        // count of zero says the same ("0 new issues", "Results: 0 issues").
        "no" | "0" | "zero" => {
            let noun = words
                .iter()
                .skip(1)
                .position(|w| PLACEHOLDER_NOUNS.contains(w))
                .map(|i| i + 1);
            // (A level in more words than one qualifies it too: "No must-fix issues.")
            noun.is_some_and(|k| {
                (words[1..k]
                    .iter()
                    .all(|w| PLACEHOLDER_QUALIFIERS.contains(w) || severity_of(w).is_some())
                    || severity_of(&words[1..k].join(" ")).is_some())
                    && placeholder_tail(&rest(k + 1))
            })
        }
        "n" if words.get(1) == Some(&"a") => true,
        _ => false,
    }
}

/// "No se encontraron sugerencias de código para la PR.", "Keine Probleme gefunden.", "Aucune
/// remarque." — the same placeholder in Spanish, Portuguese, German, French and Italian: an
/// opener that denies, a noun for what a review raises, and only words of place or finding
/// after it ("Keine Probleme, aber der Cache wächst" raises something).
fn placeholder_elsewhere(words: &[&str]) -> bool {
    const OPENERS: &[&str] = &[
        "no se encontraron",
        "no se han encontrado",
        "no se detectaron",
        "no hay",
        "sin",
        "nenhuma",
        "nenhum",
        "não foram encontradas",
        "não foram encontrados",
        "não há",
        "keine",
        "aucune",
        "aucun",
        "nessuna",
        "nessun",
    ];
    const NOUNS: &[&str] = &[
        "sugerencias",
        "sugerencia",
        "problemas",
        "problema",
        "hallazgos",
        "comentarios",
        "observaciones",
        "errores",
        "sugestões",
        "sugestão",
        "comentários",
        "vorschläge",
        "probleme",
        "befunde",
        "anmerkungen",
        "suggestion",
        "suggestions",
        "problème",
        "problèmes",
        "remarque",
        "remarques",
        "suggerimenti",
        "suggerimento",
        "problemi",
        "rilievi",
    ];
    const AFTER: &[&str] = &[
        "de",
        "código",
        "codigo",
        "code",
        "para",
        "la",
        "el",
        "pr",
        "mr",
        "en",
        "esta",
        "este",
        "gefunden",
        "festgestellt",
        "trouvée",
        "trouvées",
        "trouvé",
        "trouvés",
        "encontradas",
        "encontrados",
        "encontrada",
        "encontrado",
        "detectados",
        "detectadas",
        "a",
        "o",
        "pull",
        "request",
        "dans",
        "cette",
        "in",
        "diesem",
        "der",
        "dieser",
        "relevantes",
        "importantes",
        "significativos",
        "significativas",
        "wesentlichen",
        "relevanten",
        "rilevati",
        "trovati",
        "nel",
        "codice",
        "per",
        "questa",
    ];
    let Some(n) = OPENERS.iter().find_map(|o| {
        let o: Vec<&str> = o.split(' ').collect();
        (words.len() > o.len() && words[..o.len()] == o[..]).then_some(o.len())
    }) else {
        return false;
    };
    let Some(k) = words[n..].iter().take(3).position(|w| NOUNS.contains(w)) else {
        return false;
    };
    words[n + k + 1..].iter().all(|w| AFTER.contains(w))
}

/// Words that turn a placeholder into a point after all ("nothing blocking, but …").
const CONTRASTS: &[&str] = &[
    "but", "except", "although", "though", "however", "apart", "besides",
];

/// What may follow "none", "nothing" or "no issues" in a placeholder: nothing, or words that
/// say nothing was found (matched as whole words at the start).
fn placeholder_tail(rest: &str) -> bool {
    const TAILS: &[&str] = &[
        "found",
        "identified",
        "noted",
        "here",
        "so far",
        "to report",
        "blocking",
        "to flag",
        "to fix",
        "to add",
        "to change",
        "at this level",
        "that i",
        "in this",
        "worth",
        "stood out",
        "stands out",
        "of note",
        "notable",
        "significant",
        "major",
        "raised",
        "spotted",
        "detected",
        "remain",
        "remaining",
        "at this time",
        "were found",
        "was found",
        "from me",
        "on my side",
        // "Nothing I'd ask for", "Nothing I would change", "Nothing more to ask".
        "i d",
        "i would",
        "i can",
        "i could",
        "i see",
        "i ve",
        "to ask",
        "to raise",
        "to suggest",
        "to note",
        "needed",
        "required",
        "further",
        "more",
    ];
    rest.is_empty()
        || TAILS
            .iter()
            .any(|t| rest == *t || rest.starts_with(&format!("{t} ")))
}

/// The nouns of "No … issues" placeholders.
const PLACEHOLDER_NOUNS: &[&str] = &[
    "issues",
    "issue",
    "findings",
    "finding",
    "concerns",
    "concern",
    "blockers",
    "blocker",
    "problems",
    "problem",
    "bugs",
    "bug",
    "comments",
    "suggestions",
    "nits",
    "items",
    "remarks",
];

/// Words that may stand between "No" and its noun ("No further blocking security issues").
const PLACEHOLDER_QUALIFIERS: &[&str] = &[
    "further",
    "other",
    "new",
    "open",
    "remaining",
    "real",
    "obvious",
    "significant",
    "major",
    "minor",
    "blocking",
    "critical",
    "security",
    "performance",
    "outstanding",
    "additional",
    "more",
    "actionable",
    "code",
    "serious",
    "notable",
    "correctness",
    "functional",
    "p",
    "priority",
    "high",
    "medium",
    "low",
];

/// Whether `c` is of a script written without spaces between words (Chinese, Japanese, Korean
/// runs; Thai, Lao, Khmer, Burmese): a phrase in it matches inside a run, with no word
/// boundary around it ("ไม่พบปัญหาใด ๆ อนุมัติครับ" approves with "อนุมัติ" followed by a particle).
pub fn unspaced(c: char) -> bool {
    matches!(c as u32,
        0x0E00..=0x0EFF | 0x1000..=0x109F | 0x1780..=0x17FF
        | 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_words_are_long_words_and_pairs_of_unspaced_runs() {
        assert_eq!(
            content_words("The cache key drops the `user_id` (line 42)", 3),
            ["cache", "drops", "user", "line"]
        );
        assert_eq!(
            content_words("The key is off by one", 2),
            ["the", "key", "off", "one"]
        );
        // A run without spaces stands for its words by its character pairs, beside the
        // spaced words of the same title.
        assert_eq!(
            content_words("缓存键缺少 user_id", 3),
            ["缓存", "存键", "键缺", "缺少", "user"]
        );
        assert!(content_words("P1 404 12345", 2).is_empty());
    }

    #[test]
    fn placeholders_in_other_languages() {
        for t in [
            "No se encontraron sugerencias de código para la PR.",
            "Keine Probleme gefunden.",
            "Aucune remarque.",
            "Nenhum problema encontrado",
        ] {
            assert!(is_placeholder(t), "{t}");
        }
        for t in [
            "Keine Probleme, aber der Cache wächst ohne Grenze.",
            "Sin problemas de rendimiento, pero la consulta filtra mal.",
            "No hay pruebas para el caso vacío.",
        ] {
            assert!(!is_placeholder(t), "{t}");
        }
    }

    #[test]
    fn a_tally_of_levels_is_not_a_finding() {
        for t in ["1 critical", "[MAJOR] 1 major", "3 high issues", "Minor: 2"] {
            assert!(is_tally(t), "{t}");
        }
        for t in [
            "critical",
            "1 crash in the parser",
            "2 of the 3 retries are lost",
        ] {
            assert!(!is_tally(t), "{t}");
        }
    }

    #[test]
    fn markers_and_prose() {
        for (m, s) in [
            ("P1", P1),
            ("**P1 - Must Fix**", P1),
            ("High Severity", P1),
            ("high-priority", P1),
            ("P1 Badge", P1),
            ("🔴 Critical", P0),
            ("_🟠 Major_", P1),
            ("Severity: Medium", P2),
            ("[nitpick]", P3),
            ("Nitpick comments (2)", P3),
            ("priority: 2", P2),
            ("Nice to Have", P3),
            ("🟡", P2),
            ("Blocking issues", P0),
        ] {
            assert_eq!(severity_of(m).map(|x| x.0), Some(s), "{m}");
        }
        for prose in [
            "Potential blocker in the auth flow",
            "this is a critical path",
            "Summary",
            "🔵🔵🔵⚪⚪ and more",
            "",
        ] {
            assert_eq!(severity_of(prose), None, "{prose}");
        }
        // A level beats a category.
        assert_eq!(
            severity_of("⚠️ Potential issue | 🟠 Major"),
            Some((P1, Strength::Level))
        );
        assert_eq!(
            severity_of("⚠️ Potential issue"),
            Some((P2, Strength::Category))
        );
    }

    #[test]
    fn values_only_a_severity_field_gives_a_level() {
        assert_eq!(field_severity("suggestion").map(|x| x.0), Some(P3));
        assert_eq!(field_severity("failure").map(|x| x.0), Some(P1));
        assert_eq!(field_severity("HIGH").map(|x| x.0), Some(P1));
        assert_eq!(field_severity("2").map(|x| x.0), Some(P2));
        let scores = ["9/10", "7 / 10", "5/10", "2/10", "5/5", "4/5", "3/5", "1/5"];
        let levels: Vec<_> = scores
            .iter()
            .map(|v| field_severity(v).map(|x| x.0))
            .collect();
        assert_eq!(
            levels,
            [P0, P1, P2, P3, P0, P1, P2, P3].map(Some),
            "scores {scores:?}"
        );
        assert_eq!(field_severity("11/10"), None);
        // As a marker, "Suggestion" is a label, not a level.
        assert_eq!(severity_of("Suggestion"), None);
    }

    #[test]
    fn an_incident_scale_rung_is_the_same_rung_of_ours() {
        let rungs = ["Sev0", "SEV-1", "sev 2", "Sev3", "SEV4"];
        let levels: Vec<_> = rungs.iter().map(|v| severity_of(v).map(|x| x.0)).collect();
        assert_eq!(levels, [P0, P1, P2, P3, P3].map(Some), "markers {rungs:?}");
        // The bare `S1` is a level only as a severity field's value: alone it may be a name.
        assert_eq!(field_severity("S1").map(|x| x.0), Some(P1));
        assert_eq!(field_severity("s3").map(|x| x.0), Some(P3));
        assert_eq!(severity_of("S3"), None);
        assert_eq!(severity_of("Sev"), None);
        assert_eq!(field_severity("S9"), None);
    }

    #[test]
    fn placeholders() {
        for p in [
            "none",
            "(none)",
            "N/A",
            "No blockers.",
            "Nothing blocking.",
            "No P1 issues.",
            "None found.",
            "No security concerns identified",
            "Nothing else to report.",
            "No further blocking issues from me.",
            "-",
            "Ninguno.",
            "없음.",
            "无。",
            "Keine.",
            "特になし",
            "No must-fix issues.",
        ] {
            assert!(is_placeholder(p), "{p}");
        }
        for f in [
            "No timeout on the HTTP client",
            "Nothing validates the header length",
            "Null deref in parse",
            "None of the callers check the result, so errors vanish",
            "Nothing elsewhere checks the token's expiry",
            "Nothing else handles the retry",
            "No tests cover the new issues endpoint",
            "No limit on items per request",
            "Ninguno de los llamadores valida el token",
            "Keine Prüfung der Länge",
        ] {
            assert!(!is_placeholder(f), "{f}");
        }
    }
}
