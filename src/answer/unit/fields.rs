//! Field lines inside a finding (`Severity: High`, `**File:** src/a.rs`, `- Fix: …`) and the
//! text clean-ups every reader shares.

use super::*;

use crate::answer::vocab::Round;
use crate::pattern::Pattern;

/// What a field line is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Field {
    Severity,
    /// A level an earlier round gave (`Previous severity: High`): no level of this round.
    EarlierSeverity,
    Category,
    File,
    Line,
    Action,
    Evidence,
    Body,
    Title,
}

pub(super) const FIELD_NAMES: &[(&str, Field)] = &[
    ("severity", Field::Severity),
    ("severity level", Field::Severity),
    ("priority", Field::Severity),
    ("level", Field::Severity),
    ("criticality", Field::Severity),
    ("impact", Field::Severity),
    ("importance", Field::Severity),
    ("category", Field::Category),
    ("type", Field::Category),
    ("file", Field::File),
    ("files", Field::File),
    ("path", Field::File),
    ("location", Field::File),
    ("where", Field::File),
    ("line", Field::Line),
    ("lines", Field::Line),
    ("fix", Field::Action),
    ("suggested fix", Field::Action),
    ("proposed fix", Field::Action),
    ("suggestion", Field::Action),
    ("suggested change", Field::Action),
    ("recommendation", Field::Action),
    ("recommended fix", Field::Action),
    ("action", Field::Action),
    ("suggested action", Field::Action),
    ("remediation", Field::Action),
    ("how to fix", Field::Action),
    ("solution", Field::Action),
    ("evidence", Field::Evidence),
    ("problem", Field::Body),
    ("issue", Field::Body),
    ("description", Field::Body),
    ("details", Field::Body),
    ("why", Field::Body),
    ("why it matters", Field::Body),
    ("explanation", Field::Body),
    ("rationale", Field::Body),
    ("reason", Field::Body),
    ("risk", Field::Body),
    ("title", Field::Title),
    ("summary", Field::Title),
    // Spanish, Japanese, Chinese and Korean field names.
    ("archivo", Field::File),
    ("fichero", Field::File),
    ("ruta", Field::File),
    ("ubicación", Field::File),
    ("ubicacion", Field::File),
    ("línea", Field::Line),
    ("líneas", Field::Line),
    ("linea", Field::Line),
    ("severidad", Field::Severity),
    ("prioridad", Field::Severity),
    ("gravedad", Field::Severity),
    ("corrección", Field::Action),
    ("solución", Field::Action),
    ("sugerencia", Field::Action),
    ("descripción", Field::Body),
    ("problema", Field::Body),
    ("場所", Field::File),
    ("位置", Field::File),
    ("ファイル", Field::File),
    ("該当箇所", Field::File),
    ("行", Field::Line),
    ("重要度", Field::Severity),
    ("重大度", Field::Severity),
    ("修正案", Field::Action),
    ("対応", Field::Action),
    ("問題", Field::Body),
    ("文件", Field::File),
    ("行号", Field::Line),
    ("严重程度", Field::Severity),
    ("严重级别", Field::Severity),
    ("严重等级", Field::Severity),
    ("嚴重級別", Field::Severity),
    ("级别", Field::Severity),
    // (pr-agent's localized Impact column: `影响: 低`.)
    ("影响", Field::Severity),
    ("类别", Field::Category),
    ("類別", Field::Category),
    ("カテゴリ", Field::Category),
    ("카테고리", Field::Category),
    ("影響", Field::Severity),
    ("영향", Field::Severity),
    ("建议", Field::Action),
    ("修复建议", Field::Action),
    ("问题", Field::Body),
    ("说明", Field::Body),
    ("파일", Field::File),
    ("위치", Field::File),
    ("줄", Field::Line),
    ("라인", Field::Line),
    ("행", Field::Line),
    ("심각도", Field::Severity),
    ("중요도", Field::Severity),
    ("제안", Field::Action),
    ("수정 제안", Field::Action),
    ("설명", Field::Body),
    ("문제", Field::Body),
    ("이유", Field::Body),
    ("수정", Field::Action),
    ("説明", Field::Body),
    ("詳細", Field::Body),
    ("理由", Field::Body),
    ("提案", Field::Action),
    ("描述", Field::Body),
    ("原因", Field::Body),
    ("解决方案", Field::Action),
    // The body and the fix in Portuguese, German, French and Italian.
    ("descrição", Field::Body),
    ("detalhes", Field::Body),
    ("motivo", Field::Body),
    ("correção", Field::Action),
    ("sugestão", Field::Action),
    ("solução", Field::Action),
    ("recomendação", Field::Action),
    ("beschreibung", Field::Body),
    ("begründung", Field::Body),
    ("lösung", Field::Action),
    ("vorschlag", Field::Action),
    ("empfehlung", Field::Action),
    ("korrektur", Field::Action),
    ("problème", Field::Body),
    ("détails", Field::Body),
    ("raison", Field::Body),
    ("correction", Field::Action),
    ("correctif", Field::Action),
    ("recommandation", Field::Action),
    ("descrizione", Field::Body),
    ("dettagli", Field::Body),
    ("correzione", Field::Action),
    ("suggerimento", Field::Action),
    ("soluzione", Field::Action),
    ("raccomandazione", Field::Action),
    // Portuguese, German, French, Dutch, Italian, Polish, Russian, Turkish, Indonesian,
    // Vietnamese, Thai, Arabic and Hindi names of the same fields.
    ("arquivo", Field::File),
    ("linha", Field::Line),
    ("linhas", Field::Line),
    ("severidade", Field::Severity),
    ("gravidade", Field::Severity),
    ("prioridade", Field::Severity),
    ("datei", Field::File),
    ("zeile", Field::Line),
    ("zeilen", Field::Line),
    ("schweregrad", Field::Severity),
    ("priorität", Field::Severity),
    ("fichier", Field::File),
    ("ligne", Field::Line),
    ("lignes", Field::Line),
    ("sévérité", Field::Severity),
    ("gravité", Field::Severity),
    ("priorité", Field::Severity),
    ("bestand", Field::File),
    ("regel", Field::Line),
    ("regels", Field::Line),
    ("ernst", Field::Severity),
    ("prioriteit", Field::Severity),
    ("riga", Field::Line),
    ("righe", Field::Line),
    ("gravità", Field::Severity),
    ("priorità", Field::Severity),
    ("plik", Field::File),
    ("linia", Field::Line),
    ("linie", Field::Line),
    ("wiersz", Field::Line),
    ("ważność", Field::Severity),
    ("priorytet", Field::Severity),
    ("файл", Field::File),
    ("строка", Field::Line),
    ("строки", Field::Line),
    ("важность", Field::Severity),
    ("серьёзность", Field::Severity),
    ("серьезность", Field::Severity),
    ("критичность", Field::Severity),
    ("приоритет", Field::Severity),
    ("dosya", Field::File),
    ("satır", Field::Line),
    ("satırlar", Field::Line),
    ("önem", Field::Severity),
    ("önem derecesi", Field::Severity),
    ("öncelik", Field::Severity),
    ("berkas", Field::File),
    ("baris", Field::Line),
    ("tingkat keparahan", Field::Severity),
    ("keparahan", Field::Severity),
    ("prioritas", Field::Severity),
    ("tệp", Field::File),
    ("dòng", Field::Line),
    ("mức độ", Field::Severity),
    ("ไฟล์", Field::File),
    ("บรรทัด", Field::Line),
    ("ความรุนแรง", Field::Severity),
    ("ระดับความรุนแรง", Field::Severity),
    ("الملف", Field::File),
    ("السطر", Field::Line),
    ("الخطورة", Field::Severity),
    ("الأولوية", Field::Severity),
    ("فائل", Field::File),
    ("फ़ाइल", Field::File),
    ("पंक्ति", Field::Line),
    ("गंभीरता", Field::Severity),
    ("fájl", Field::File),
    ("sor", Field::Line),
    ("súlyosság", Field::Severity),
    ("فایل", Field::File),
    ("خط", Field::Line),
    ("شدت", Field::Severity),
    ("fișier", Field::File),
    ("linia", Field::Line),
    ("severitate", Field::Severity),
    ("soubor", Field::File),
    ("řádek", Field::Line),
    ("závažnost", Field::Severity),
    ("קובץ", Field::File),
    ("שורה", Field::Line),
    ("חומרה", Field::Severity),
    ("αρχείο", Field::File),
    ("γραμμή", Field::Line),
    ("σοβαρότητα", Field::Severity),
    ("рядок", Field::Line),
    ("серйозність", Field::Severity),
    ("важливість", Field::Severity),
    ("fil", Field::File),
    ("rad", Field::Line),
    ("allvarlighetsgrad", Field::Severity),
    ("prioritet", Field::Severity),
];

/// A line that is a label and its value (`**Severity:** high`, `- Review effort level: Low`):
/// the label in lower case and the value.
pub fn labelled(line: &str) -> Option<(String, String)> {
    static FIELD: OnceLock<Pattern> = OnceLock::new();
    let line = &strip_tags(line);
    let c = re(
        &FIELD,
        r"^\s*(?:[-*+]\s+)?(?:\*\*|__|\*|_)?(\p{L}[\p{L}\p{M} ]{0,22}?)\s*(?:[:：](?:\*\*|__|\*|_)|(?:\*\*|__|\*|_)\s*[:：]|[:：])\s*(.*)$",
    )
    .captures(line)?;
    Some((c[1].trim().to_lowercase(), c[2].trim().to_string()))
}

pub(super) fn field(line: &str) -> Option<(Field, String)> {
    let (name, value) = labelled(line)?;
    let kind = kind_of(&name).or_else(|| {
        let (round, rest) = round_named(&name)?;
        (kind_of(rest)? == Field::Severity).then_some(match round {
            Round::Earlier => Field::EarlierSeverity,
            Round::Now => Field::Severity,
        })
    })?;
    Some((kind, value))
}

/// Does a section's name (normalised) name a finding's fix (`🛠️ Suggested fix`, `🛠️ 수정 제안`,
/// `Committable suggestion`)? A fix's level word ("suggestion") is then no level of its own.
pub fn names_a_fix(name: &str) -> bool {
    kind_of(name) == Some(Field::Action)
}

fn kind_of(name: &str) -> Option<Field> {
    // A level's field name in any language the markers know (`**Waga:** krytyczna`) is a
    // severity field here too: one vocabulary for both readers.
    static LEVEL_NAME: OnceLock<Pattern> = OnceLock::new();
    FIELD_NAMES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|f| f.1)
        .or_else(|| {
            crate::answer::re_built(&LEVEL_NAME, || {
                format!("(?i)^(?:{})$", crate::answer::vocab::SEVERITY_FIELD_WORDS)
            })
            .is_match(name)
            .then_some(Field::Severity)
        })
}

/// A field name that opens with the round it speaks for (`previous severity`, `今回の重大度`):
/// that round and the rest of the name.
fn round_named(name: &str) -> Option<(Round, &str)> {
    vocab::LEVEL_FIELD_ROUNDS.iter().find_map(|(word, round)| {
        let rest = name.strip_prefix(word)?;
        let unspaced = word.chars().last().is_some_and(vocab::unspaced);
        (unspaced || rest.starts_with(' ')).then(|| (*round, rest.trim_start()))
    })
}

/// `**Summary:** …`, `TL;DR: …`: a line that sums up what it stands under, the whole change
/// when that is the answer's title.
pub fn sums_up(line: &str) -> bool {
    labelled(line)
        .is_some_and(|(name, _)| ["summary", "tl;dr", "tldr", "overview"].contains(&name.as_str()))
}

/// `Severity: High`, `**File:** src/a.rs`, `- Fix: …`: a detail of a finding, never a finding.
pub fn is_field(line: &str) -> bool {
    field(line).is_some()
}

/// A line that is a field and only a field: not a level field that goes on to say what is
/// wrong (`**Severity: critical** (line 52) — the code is guessable`), which opens a finding.
pub fn is_detail(line: &str) -> bool {
    is_field(line) && !severity_lead(line)
}

fn severity_lead(line: &str) -> bool {
    if !is_severity_field(line) {
        return false;
    }
    let said = line
        .split_once(" — ")
        .or_else(|| line.split_once(" – "))
        .or_else(|| line.split_once(" - "))
        .map(|(_, rest)| rest);
    said.is_some_and(|rest| rest.split_whitespace().count() >= 3)
}

/// `**Severity: high**`, `Priority: low`: a level given as a field.
/// (An earlier round's level, `Previous severity: High`, is a level field too: a detail of the
/// finding above it, whose level it does not give.)
pub fn is_severity_field(line: &str) -> bool {
    matches!(
        field(line),
        Some((Field::Severity | Field::EarlierSeverity, _))
    )
}

/// Control characters (escape sequences included) out of model text before anyone prints it.
pub fn clean(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_control() || *c == '\n' || *c == '\t')
        .collect::<String>()
        .trim()
        .to_string()
}
