//! Whole-answer phrases: verdict words, approvals, what negates or qualifies an approval, what
//! objects, and the words of a sentence that raises a problem.

/// How an answer's overall verdict word reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stance {
    Approve,
    Object,
}

/// Verdict values (JSON or a `Verdict:` line), normalised.
pub const VERDICT_WORDS: &[(&str, Stance)] = &[
    ("approve", Stance::Approve),
    ("approved", Stance::Approve),
    ("lgtm", Stance::Approve),
    ("accept", Stance::Approve),
    ("pass", Stance::Approve),
    ("passed", Stance::Approve),
    ("ok", Stance::Approve),
    ("patch is correct", Stance::Approve),
    ("correct", Stance::Approve),
    ("keep", Stance::Approve),
    ("revise", Stance::Object),
    ("reject", Stance::Object),
    ("rejected", Stance::Object),
    ("request changes", Stance::Object),
    ("changes requested", Stance::Object),
    ("needs changes", Stance::Object),
    ("needs work", Stance::Object),
    ("fail", Stance::Object),
    ("failed", Stance::Object),
    ("block", Stance::Object),
    ("patch is incorrect", Stance::Object),
    ("incorrect", Stance::Object),
    // A dependency review's call on the update (`| **Verdict** | ✅ **MERGE** |`).
    ("merge", Stance::Approve),
    ("ship", Stance::Approve),
    ("hold", Stance::Object),
    ("do not merge", Stance::Object),
    ("don t merge", Stance::Object),
    ("wait", Stance::Object),
    // A review digest's heading (Copilot's `🟡 Changes recommended`, `✅ Ready to approve`).
    ("changes recommended", Stance::Object),
    ("ready to approve", Stance::Approve),
    ("approval recommended", Stance::Approve),
    ("ready to merge", Stance::Approve),
    // A release gate's or a readiness bot's call (`**Result: READY** ✅`, `Decision: NO-GO`).
    ("ready", Stance::Approve),
    ("not ready", Stance::Object),
    ("go", Stance::Approve),
    ("no go", Stance::Object),
    // Spanish, Japanese, Chinese and Korean verdicts.
    ("aprobado", Stance::Approve),
    ("aprobada", Stance::Approve),
    ("aprobar", Stance::Approve),
    ("apruebo", Stance::Approve),
    ("rechazado", Stance::Object),
    ("cambios solicitados", Stance::Object),
    ("no aprobado", Stance::Object),
    ("承認", Stance::Approve),
    ("合格", Stance::Approve),
    ("差し戻し", Stance::Object),
    ("却下", Stance::Object),
    ("要修正", Stance::Object),
    ("通过", Stance::Approve),
    ("批准", Stance::Approve),
    ("不通过", Stance::Object),
    ("未通过", Stance::Object),
    ("拒绝", Stance::Object),
    ("需要修改", Stance::Object),
    ("승인", Stance::Approve),
    ("승인 불가", Stance::Object),
    // Portuguese, German and French verdicts.
    ("aprovado", Stance::Approve),
    ("aprovada", Stance::Approve),
    ("reprovado", Stance::Object),
    ("alterações necessárias", Stance::Object),
    ("não aprovado", Stance::Object),
    ("freigegeben", Stance::Approve),
    ("genehmigt", Stance::Approve),
    ("abgelehnt", Stance::Object),
    ("änderungen erforderlich", Stance::Object),
    ("nicht freigegeben", Stance::Object),
    ("approuvé", Stance::Approve),
    ("approuvée", Stance::Approve),
    ("rejeté", Stance::Object),
    ("modifications demandées", Stance::Object),
    ("modifications nécessaires", Stance::Object),
    ("조건부 승인", Stance::Object),
    ("반려", Stance::Object),
    ("수정 필요", Stance::Object),
    ("zatwierdzam", Stance::Approve),
    ("zatwierdzono", Stance::Approve),
    ("onaylandı", Stance::Approve),
    ("onaylıyorum", Stance::Approve),
    ("değişiklik gerekli", Stance::Object),
    ("reddedildi", Stance::Object),
    ("อนุมัติ", Stance::Approve),
    ("ต้องแก้ไข", Stance::Object),
    ("موافق", Stance::Approve),
    ("تمت الموافقة", Stance::Approve),
    ("يحتاج إلى تعديل", Stance::Object),
    ("مرفوض", Stance::Object),
    ("schváleno", Stance::Approve),
    ("εγκρίνεται", Stance::Approve),
    ("aprobat", Stance::Approve),
    ("מאושר", Stance::Approve),
    ("godkänd", Stance::Approve),
    ("godkendt", Stance::Approve),
    ("godkjent", Stance::Approve),
    ("hyväksytty", Stance::Approve),
    ("hyväksyn", Stance::Approve),
    ("ei hyväksytä", Stance::Object),
    ("aprovat", Stance::Approve),
    ("diluluskan", Stance::Approve),
    ("schválené", Stance::Approve),
    ("schvaľujem", Stance::Approve),
    ("neschvaľujem", Stance::Object),
    ("схвалено", Stance::Approve),
    ("jóváhagyva", Stance::Approve),
    ("לא לאשר", Stance::Object),
    ("neschváleno", Stance::Object),
    ("nu aprob", Stance::Object),
    ("δεν εγκρίνεται", Stance::Object),
    ("godkänns inte", Stance::Object),
    ("не схвалено", Stance::Object),
    // Indonesian/Malay, Vietnamese and Hindi verdicts.
    ("disetujui", Stance::Approve),
    ("setuju", Stance::Approve),
    ("ditolak", Stance::Object),
    ("perlu perubahan", Stance::Object),
    ("perlu diperbaiki", Stance::Object),
    ("chấp thuận", Stance::Approve),
    ("phê duyệt", Stance::Approve),
    ("đã duyệt", Stance::Approve),
    ("cần sửa", Stance::Object),
    ("cần thay đổi", Stance::Object),
    ("từ chối", Stance::Object),
    ("स्वीकृत", Stance::Approve),
    ("अनुमोदित", Stance::Approve),
    ("अस्वीकृत", Stance::Object),
    ("बदलाव आवश्यक", Stance::Object),
];

/// Phrases that say the review found nothing to raise (a subset of [`APPROVAL_PHRASES`]' sense,
/// as one regex).
pub const FOUND_NOTHING: &str = r"(?i)\b(?:no (?:further |significant |major |real |remaining |blocking |obvious |new )?(?:issues|problems|concerns|bugs|findings) (?:were |have been )?(?:found|identified|detected|spotted)|no (?:issues|problems|concerns|findings) (?:at|of) any (?:severity|level|priority)|(?:did not|didn't) (?:find|spot|see|identify) any(?:,? [a-zA-Z'-]+){0,5} (?:issues|problems|concerns|bugs)|found no(?: [a-zA-Z'-]+){0,5} (?:issues|problems|concerns|bugs|alerts|vulnerabilities)|nothing to (?:fix|change|flag|report)|(?:i )?have no (?:further |other )?(?:issues|problems|concerns|findings|comments) to (?:report|raise|flag)|nothing (?:here |else )?(?:that )?needs (?:to )?(?:change|changing|fixing|to be (?:changed|fixed))|no (?:issues|problems|concerns) to report|no (?:changes?|fixes) (?:are |is )?(?:needed|required)|no actionable comments|(?:замечаний|проблем|ошибок) (?:нет|не (?:найдено|обнаружено))|не (?:нашёл|нашел|нашла|обнаружил) (?:никаких )?(?:проблем|ошибок|замечаний)|зауважень немає|no (?:encontré|he encontrado|hay|se encontraron) (?:ningún |ningun |ninguna )?(?:problemas?|errores?|observaciones)|sin (?:observaciones|problemas|hallazgos)|nada que (?:señalar|objetar|corregir)|não (?:encontrei|há|foram encontrad[oa]s) (?:nenhum |nenhuma )?(?:problemas?|erros?|observações)|sem (?:problemas|observações|ressalvas)|(?:je n'ai|n'ai) (?:trouvé|relevé|vu) aucun (?:problème|souci|défaut)|rien à (?:signaler|corriger|redire)|aucun (?:problème|souci) (?:trouvé|relevé|détecté)|keine (?:Probleme|Anmerkungen|Befunde|Auffälligkeiten|Einwände)(?: gefunden)?|nichts zu (?:beanstanden|bemängeln)|nessun (?:problema|rilievo|appunto)|non ho (?:trovato|riscontrato) (?:alcun |nessun )?(?:problem[ai]|nulla|errori)|geen (?:problemen|opmerkingen|bevindingen)(?: gevonden)?|brak (?:uwag|problemów|zastrzeżeń)|nie (?:znalazłem|znalazłam|znaleziono|widzę) (?:żadnych )?(?:problemów|błędów|uwag)|(?:herhangi bir )?(?:sorun|problem) (?:bulamadım|bulunmadı|görmedim)|nem találtam (?:semmilyen )?(?:problémát|hibát)|nu am găsit (?:nicio problemă|probleme|nimic de corectat)|δεν (?:βρήκα|εντόπισα) (?:κανένα )?(?:πρόβλημα|προβλήματα)|לא מצאתי (?:בעיות|שום בעיה)|لم (?:أجد|نجد|يتم العثور على) (?:أي )?(?:مشكلة|مشاكل|مشكلات)|कोई (?:समस्या|दिक्कत) नहीं(?: मिली)?|tidak (?:ada|ditemukan) (?:masalah|temuan)|không (?:có|tìm thấy) (?:vấn đề|lỗi) nào)\b";

/// The same in scripts written without spaces between words, matched inside a run.
pub const FOUND_NOTHING_UNSPACED: &str = r"問題(?:は|が)?(?:ありません|見つかりませんでした|なし)|指摘(?:事項)?(?:は)?(?:ありません|なし)|(?:コメント|指摘)(?:すべき|する)(?:点|箇所|こと)(?:は|が)?(?:ありません|見つかりませんでした|ありませんでした|なし)|没有(?:发现)?(?:任何)?问题|未发现(?:任何)?问题|无问题|沒有(?:發現)?(?:任何)?問題|문제(?:가|는|점은|점이)? ?(?:없습니다|발견되지 않았습니다|없음)|ไม่(?:มี|พบ)(?:สิ่งที่ต้องแก้ไข|ปัญหา)";

/// Phrases that approve the whole change when nothing qualifies them (a regex alternation,
/// matched case-insensitively on word boundaries).
pub const APPROVAL_PHRASES: &[&str] = &[
    r"lgtm",
    // A Gerrit vote that lets the change in: `Code-Review+2` (approved), `Code-Review+1` (looks
    // good to the reviewer, someone else must approve). `-1`/`-2` are objections.
    r"code-review\s*\+\s*[12]",
    // GitHub's `:shipit:` squirrel, and "LGTM" followed by a Japanese or Korean ending.
    r"shipit",
    r"lgtm(?:です|입니다)",
    // "Passt, kann so rein".
    r"kann (?:so )?rein",
    r"looks? good(?: to me)?",
    r"looks? great",
    r"looks? correct",
    r"looks? fine",
    r"no (?:further |significant |major |real |remaining |blocking |obvious |new )?(?:issues|problems|concerns|bugs|findings)(?: (?:were |have been )?(?:found|identified|detected|spotted))?",
    // ("No high-confidence security vulnerabilities were identified in this change.")
    r"no(?: [a-zA-Z'-]+){0,3} (?:issues|problems|concerns|bugs|findings|vulnerabilities|defects|regressions) (?:were|have been|was) (?:found|identified|detected|spotted|reported)",
    // (A policy bot's "✅ No policy violations.")
    r"no (?:new )?(?:policy |license |security )?violations(?: (?:found|detected))?",
    // ("✅ No new security issues found in this pull request.")
    r"no(?: [a-zA-Z'-]+){0,2} (?:issues|problems|bugs|findings|vulnerabilities|defects) (?:found|identified|detected)",
    r"(?:did not|didn't|did n't) (?:find|spot|see|identify) any(?:,? [a-zA-Z'-]+){0,5} (?:issues|problems|concerns|bugs)",
    r"found no(?: [a-zA-Z'-]+){0,5} (?:issues|problems|concerns|bugs|alerts|vulnerabilities)",
    r"no actionable comments",
    r"(?:don't|do not|didn't|did not) see anything (?:that )?(?:needs?|worth) (?:changing|to change|fixing|to fix|flagging)",
    r"nothing (?:here |in (?:the|this) (?:diff|change|pr) )?needs (?:changing|to change|fixing)",
    r"nothing (?:else |more |further )?(?:to (?:fix|change|flag|report|add|comment on)|blocking)",
    // ("Nothing to do there" closes one point; "nothing else to do" the review.)
    r"nothing (?:else|more|further) to do",
    r"no (?:further |other )?(?:action|changes?) (?:is |are )?(?:needed|required|necessary)",
    r"(?:zero|0) (?:actionable |new )?(?:issues|problems|suggestions|comments|findings)",
    r"(?:actionable )?(?:suggestions|comments|issues|findings)(?: posted| found| generated)?\s*[-:–]\s*0",
    r"(?:safe|ready|good) to (?:merge|ship|land)",
    r"ship it",
    // A mailing list's trailer: the reviewer signs the patch as reviewed ("Reviewed-by: Ana
    // Lima <ana@example.org>"), which is its approval.
    r"(?:reviewed|acked)-by: [^\n<]{1,60}<[^\s<>@]+@[^\s<>]+",
    r"approved?",
    r"approving",
    r"patch is correct",
    r"i have no (?:further )?(?:comments|feedback|suggestions|objections)(?: to (?:provide|give|share|add))?",
    r"no (?:further |additional )?feedback(?: to (?:provide|give|share|add))?",
    r"checks? (?:have |has )?passed",
    r"(?:generated|left|posted|made) no (?:new )?comments",
    r"no (?:new )?comments",
    r"no (?:he|hemos) encontrado (?:ningún |ningun )?(?:problemas?|errores)",
    r"sin (?:problemas|observaciones)",
    r"listo para (?:fusionar|mergear|integrar)",
    r"aprobad[oa]",
    // Romanian: "Aprob.", "aprobat".
    r"aprob(?:at)?",
    r"se puede (?:fusionar|mergear|integrar)",
    r"no se (?:detectaron|encontraron|identificaron|han (?:encontrado|detectado|identificado)) (?:problemas|errores|hallazgos|sugerencias)(?: (?:importantes|relevantes|graves|significativos))?",
    r"n[ãa]o foram (?:encontrad|detectad|identificad)[oa]s (?:problemas|erros|sugestões)(?: (?:importantes|relevantes|graves))?",
    // Portuguese, German, French; then Chinese, Japanese and Korean, whose words are not
    // separated by spaces (a phrase is matched inside a longer run of text).
    r"n[ãa]o encontrei (?:nenhum )?(?:problemas?|erros?)",
    r"pode (?:fazer o )?merge",
    r"aprovad[oa]",
    r"pronto para (?:o )?(?:merge|mesclar|integrar)",
    r"keine (?:größeren |wesentlichen |relevanten |weiteren )?(?:probleme|auffälligkeiten|einwände|beanstandungen)(?: (?:gefunden|festgestellt))?",
    r"kann (?:so )?(?:gemergt|gemerged|zusammengeführt) werden",
    // A colleague's German in chat: "passt, kannst mergen".
    r"(?:kannst|können|könnt) (?:es |das )?(?:so )?mergen",
    r"freigegeben",
    r"keine änderungen (?:nötig|notwendig|erforderlich)",
    r"aucun (?:problème|souci)(?: (?:trouvé|détecté|relevé))?",
    r"rien à (?:signaler|redire|corriger)",
    r"approuvée?",
    // "Je validerais tel quel" ("I'd approve it as it is").
    r"je (?:valide|validerais|validerai)(?: tel quel| en l'état)?",
    r"prêt à (?:être )?(?:fusionné|mergé|intégré)",
    r"peut être (?:fusionnée?|mergée?)",
    r"没有发现(?:需要修改的|任何|明显的)?问题",
    r"未发现(?:任何|明显的?)?问题",
    r"可以合并",
    r"(?:没有|无)(?:需要|必须)(?:修)?改的(?:地方|内容|问题|部分)",
    // "可以合" / "可以合了" ending its sentence (after a comma or a stop, so never "不可以合").
    r"(?:^|[，。,\s])可以合(?:了|入)?(?:[。！!]|$)",
    r"(?:^|[，。,\s])批准合并",
    r"同意合并",
    // "一切正常" (all is well, a checklist's row), "看起来很棒" (looks great).
    r"一切正常",
    r"(?:看起来|看起來)(?:很棒|很好|不错|不錯)",
    r"すべて問題(?:なし|ありません)",
    r"모두 (?:양호|정상|좋습니다)",
    r"問題(?:は|が)?(?:見つかりませんでした|ありません)",
    r"指摘事項は?(?:ありません|なし)",
    r"マージして(?:問題ありません|大丈夫です|よいです)",
    r"承認します",
    r"(?:수정이 필요한|문제가 되는|지적할|지적할 만한|수정할) (?:부분|사항|점|것)(?:은|이)? 없습니다",
    r"승인합니다",
    r"문제(?:를|가|점은|는)? (?:발견하지 못했|없습니다|없어)",
    r"(?:머지|병합)(?:하셔도|해도) (?:됩니다|좋습니다)",
    r"(?:드릴|남길|별도의?) ?피드백이 없습니다",
    r"코멘트를 (?:생성하지 않았|남기지 않았)",
    r"コメントは生成しませんでした",
    r"コメントはありません",
    // "No point worth a comment was found" (GitLab Duo's Japanese "review complete" note).
    r"(?:コメント|指摘)(?:すべき|する)(?:点|箇所|こと)(?:は|が)?(?:ありません|ありませんでした|見つかりませんでした)",
    r"(?:没有|未)生成(?:任何)?评论",
    r"nenhum problema (?:importante |relevante |grave )?(?:foi )?(?:detectado|encontrado|identificado)",
    r"ningún problema (?:importante |relevante |grave )?(?:fue )?(?:detectado|encontrado|identificado)",
    r"sin (?:comentarios|hallazgos)",
    r"no gener[óo] (?:ningún )?comentarios?",
    r"没有(?:需要提供的|任何)?反馈",
    r"无(?:需|须)修改",
    r"sem (?:problemas|comentários|observações)",
    r"keine (?:anmerkungen|kommentare|befunde)",
    r"aucune? (?:remarque|commentaire|observation)s?",
    r"no (?:he|hemos) encontrado nada que comentar",
    // Italian, Dutch, Polish, Russian and Turkish.
    r"nessun (?:problema|commento|rilievo)(?: (?:rilevante|importante|grave))?(?: (?:rilevato|trovato|individuato))?",
    r"approvat[oa]",
    // "Tutto a posto, approvo.": the first person in its kin. ("All fine" alone is left out:
    // "Fora isso, tudo certo" approves only the rest.)
    r"approvo",
    r"aprovo",
    r"j'approuve",
    r"apruebo",
    r"pu[òo] essere (?:unit[oa]|mergiat[oa])",
    r"(?:heeft )?geen (?:opmerkingen|problemen|bevindingen)(?: (?:gegenereerd|gevonden))?",
    r"goedgekeurd",
    r"kan (?:worden )?(?:gemerged|samengevoegd)",
    r"brak (?:uwag|problemów|zastrzeżeń)",
    r"zatwierdzon[ya]",
    r"можно (?:мержить|сливать|вливать)",
    r"(?:замечаний|проблем) (?:нет|не (?:найдено|обнаружено))",
    r"одобрено",
    // ("Замечаний к изменению нет.")
    r"замечаний(?: [а-яё]+){1,3} нет",
    r"sorun (?:bulunamadı|yok)",
    r"onaylandı",
    r"birleştirilebilir",
    // Danish, Norwegian, Finnish, Catalan, Malay and Slovak.
    r"ingen (?:fejl|problemer|bemærkninger) (?:fundet|at bemærke)",
    r"godkendt(?: til merge)?",
    r"ingen (?:feil|problemer|funn) (?:funnet|å melde)",
    r"godkjent",
    r"ei (?:huomautettavaa|ongelmia|löydöksiä)",
    r"hyväksyn(?: muutoksen)?",
    r"cap (?:problema|incidència) (?:trobat|detectat)",
    r"no he trobat cap problema",
    r"tiada (?:masalah|isu) (?:ditemui|dijumpai)",
    r"boleh digabungkan",
    r"nenašiel som (?:žiadne )?(?:problémy|chyby)",
    r"schvaľujem",
    r"up to standards",
    // Polish, Turkish, Thai and Arabic ones the Italian-to-Turkish line above lacks.
    r"nie (?:znalazłem|znalazłam|znaleziono|widzę) (?:żadnych )?(?:problemów|błędów|uwag)",
    r"zatwierdzam",
    r"akceptuję",
    r"hiç yorum (?:oluşturmadı|yok)",
    r"(?:herhangi bir )?(?:sorun|problem) (?:bulamadım|bulunmadı|görmedim)",
    r"onaylıyorum",
    r"อนุมัติ",
    r"ไม่(?:มี|พบ)(?:สิ่งที่ต้องแก้ไข|ปัญหา)",
    r"لم (?:أجد|نجد|يتم العثور على) (?:أي )?(?:مشكلة|مشاكل|مشكلات)",
    r"أوافق على الدمج",
    r"(?:تمت )?الموافقة",
    r"جاهز للدمج",
    // Czech, Greek, Romanian, Hebrew, Persian, Swedish, Ukrainian and Hungarian.
    r"nu a generat niciun comentariu",
    r"up to standards",
    r"quality gate passed",
    r"schvaluji",
    r"schváleno",
    r"εγκρίνεται",
    r"δεν (?:βρήκα|εντόπισα) (?:κανένα )?(?:πρόβλημα|προβλήματα)",
    r"nu am găsit (?:nicio problemă|probleme)",
    r"(?:se poate face|poate fi făcut) merge",
    r"מאושר",
    r"לא מצאתי (?:בעיות|שום בעיה)",
    r"مشکلی (?:پیدا نکردم|ندیدم|وجود ندارد)",
    r"تأیید (?:می‌کنم|میکنم|شد)",
    r"godkänd",
    r"godkänner",
    r"inga (?:problem|anmärkningar)(?: hittades)?",
    r"схвалено",
    r"схвалюю",
    r"(?:зауважень|проблем) (?:немає|не знайдено)",
    r"jóváhagyom",
    r"nem találtam (?:problémát|hibát)",
    // Indonesian/Malay, Vietnamese and Hindi.
    r"tidak (?:ada|ditemukan) (?:masalah|temuan|isu)(?: yang)?(?: (?:berarti|signifikan|serius))?(?: (?:ditemukan|berarti))?",
    r"tidak ada yang perlu (?:diubah|diperbaiki)",
    r"disetujui",
    r"siap (?:di-?)?(?:merge|gabung|digabung)",
    r"không (?:tìm thấy|phát hiện|có) (?:vấn đề|lỗi)(?: nào)?",
    r"có thể merge",
    r"(?:chấp thuận|phê duyệt)",
    r"कोई (?:समस्या|दिक्कत|मुद्दा) नहीं(?: मिली| मिला)?",
    r"(?:स्वीकृत|अनुमोदित)",
    r"merge (?:किया जा सकता है|करने के लिए तैयार)",
];

/// A bot's footer line ("AI Code Review powered by Bito", "Generated by Kody"): boilerplate,
/// never a finding. Matched on the whole line, markup removed.
pub const BOT_FOOTER: &str = r"(?i)^[\W\x{FE0F}]*(?:(?:this|these) findings? (?:does not|doesn't|do not|don't|will not|won't) block (?:your|this) (?:pull request|pr|merge request|merge)\W*$|(?:(?:ai |automated )?(?:code )?review(?:ed)?(?: comments?)? )?(?:powered|generated|written|brought to you) by (?:\w+[\w. -]{0,30})\W*|(?:note:\s*)?if this suggestion doesn't match your team's coding style, reply to this.*|(?:files reviewed|comments generated|files processed)\W+\d.*|🎯\s*\d.*⏱.*|\w+ is free for open source\b.*|help me be more useful!.*|react with 👍 or 👎 on each comment.*)$";

/// A lead-in that announces problems in the list after it: a count or quantity of issues,
/// observations or things that "stood out". A summary's list is then its findings (Greptile's
/// newer summaries hold the comments as bullets). A regex, matched on the lead-in line.
/// A cell that only points at the answer's detailed findings (`see below`, `see #1`, `아래
/// 1번`, `下記 1`, `siehe unten`): the row sums up a finding told in full elsewhere.
pub const POINTS_BELOW: &str = r"(?i)^\W*(?:(?:see|cf\.?)\s+(?:below|#\d+|item\s+\d+|finding\s+\d+|(?:the\s+)?details(?:\s+below)?)|below|siehe\s+unten|(?:voir\s+)?ci-dessous|(?:ver|véase)\s+abajo|vedi\s+sotto|см\.?\s+ниже|ниже|下記|以下|见下|見下|下面|아래)\b|^\W*(?:아래|下記|以下)";
/// A lead-in that says the list after it is of things that look wrong and are not ("Several
/// things look risky at first glance, so here is why each one is fine:").
pub const CLEARED_LEAD_IN: &str = r"(?i)\bi (?:also )?(?:checked|verified|confirmed|went through|looked at|reviewed) (?:the following|these|each of these|a few things|several things)(?: (?:points|areas|things|paths|cases))?\s*:\s*$|\b(?:(?:with|con|com|avec|mit) (?:the |la |las |a |as |les |der |den )?(?:answers?|respuestas?|respostas?|réponses?|antworten) |(?:all|both)(?: [\w-]+){0,3} (?:landed|(?:are|were|have been) (?:now )?(?:fixed|addressed|resolved|in place))|here(?:'s| is) why (?:each|all|they|these|it)(?: one| of them)? (?:is|are) (?:fine|safe|ok(?:ay)?)|why (?:each|all) (?:one |of them )?(?:is|are) (?:fine|safe|ok(?:ay)?|not a problem)|(?:look|looks|seem|seems) (?:risky|suspicious|alarming|wrong)\b[^:]{0,60}\b(?:fine|safe|ok(?:ay)?|not (?:a problem|an issue)))\b[^:]{0,40}:\s*$|\b(?:the (?:pr|change|patch|code) (?:already )?had an answer|each (?:one )?(?:was|is) (?:already )?(?:answered|covered|handled))\b";

pub const ANNOUNCED_FINDINGS: &str = r"(?i)^\W*(?:(?:(?:however|but|also|still|that said),?\s+)?(?:here (?:are|is) |i (?:have|found|noticed|spotted|see) |there (?:are|is) )?(?:one|two|three|four|five|six|seven|eight|nine|ten|\d+|a few|a couple of|several|some|few|the following|these|my)\s+(?:(?:main|key|minor|small|smaller|remaining|other|open|real|new|notable|important|potential|specific|critical|serious|severe|blocking|major|high|medium|low|moderate)\s+)*(?:observations?|issues?|problems?|concerns?|findings?|bugs?|nits?|remarks?|points? (?:to (?:fix|address|raise))|things? (?:(?:that )?stood out|i noticed|i found|to (?:fix|address|change|look at))|comments?)\b[^:]{0,60}:\s*$|(?:one|two|three|four|five|\d+|a few|a couple of|several)\s+(?:(?:small|minor|main|quick)\s+)?things?\s*:\s*$|(?:(?:some |a few |two |three )?things? (?:that )?stood out|what i (?:noticed|found|would change)|issues? (?:found|noticed|spotted))\b[^:]{0,40}:\s*$)";

/// Words that turn an approval into something else when they come before it in its sentence
/// ("not approved", "far from LGTM"). (The words between are English, so ASCII classes: a
/// Unicode `\w` in a bounded repetition took 2 ms to compile, in every process that reads an
/// answer.)
pub const NEGATIONS: &str = r"(?i)(\bnot|n't|\bnever|\bhardly|\bwithout|\bcannot|\bno longer|\bfar from|\bcan't|\bwon't|\bbefore|\bmostly|\blargely|\bpartially|\bnearly|\balmost|\bsomewhat)[^A-Za-z0-9_]+(?:[A-Za-z0-9_]+[^A-Za-z0-9_]+){0,3}$";

/// Words that make an approval conditional or partial when they follow it in its sentence
/// ("approve once…", "looks good, but…", "LGTM except…", "看起来不错，但…").
pub const QUALIFIERS: &str = r"(?i)^[^.!?。！？\n]*?(?:但|不过|不過|ただし|しかし|けど|하지만|다만|그러나|\b(but|however|though|although|except|once|after|until|unless|if|provided|pending|as long as|as soon as|apart from|aside from|other than|besides|only when|assuming|with one|with a few|with some|with the exception|conditionally|mostly|partially|for the most part|this part|that part)\b)";

/// The qualifiers of [`QUALIFIERS`] that set a condition on an approval ("approve once…",
/// "LGTM if…"), as opposed to a contrast ("…, though").
pub const CONDITIONS: &str = r"(?i)^[^.!?\n]*?\b(once|after|until|unless|if|provided|pending|as long as|as soon as|only when|assuming)\b";

/// Phrases anywhere in an answer that mean it does not approve.
/// A "no" to the question whether to approve ("Approved? No.", "Would I ship it? Absolutely
/// not", "I would not ship this") is one of them.
pub const OBJECTIONS: &str = r"(?i)\b(request(?:ing|ed)? changes|(?:(?:so|net|overall|in short)\s*[:,—–-]|(?:recommended decision|recommendation|decision|verdict)\s*[:,—–-]?)\s*\**(?:revise|reject)\b|code-review\s*-\s*[12]|לא לאשר|neschvaluji|nu aprob|δεν εγκρίνεται|godkänns inte|не схвалюю|nem javaslom az összevonást|تأیید نمی‌کنم|checks? (?:have |has )?failed|[1-9]\d* (?:new )?(?:issues?|problems?|vulnerabilit(?:y|ies)) (?:have|has) been found|changes requested|not approv(?:ed|ing)(?: yet)?|do not merge|don't merge|not (?:yet )?(?:ready|safe|good) to (?:merge|ship|land|go)|needs (?:more )?work|patch is incorrect|must be (?:fixed|addressed) before|(?:approved?|approval|lgtm|ship(?: it| this)?|merge(?: it| this)?|mergeable|ready(?: to (?:merge|ship))?)\s*\?\W*(?:absolutely |definitely |certainly |clearly )?(?:no|not(?: yet)?|nope)\b|would(?:\s+not|n't)\s+(?:ship|merge|approve|land)|no est[áa] listo para (?:fusionar|mergear|integrar)|no lo apruebo|cambios solicitados|requiere cambios|n[ãa]o aprovad[oa]|n[ãa]o (?:est[áa] )?pronto para|altera[çc][õo]es necess[áa]rias|nicht freigegeben|nicht (?:mergen|zusammenführen)|änderungen erforderlich|ne pas fusionner|pas prêt|modifications (?:demandées|nécessaires)|不(?:建议|能|可以|应)合并|暂不合并|审查未通过|差し戻し|承認できません|マージ不可|승인 불가|변경 요청|ไม่อนุมัติ|ยังไม่อนุมัติ)";

/// What a reviewer says of a finding carried from an earlier review (incremental review), as
/// normalised phrases. Longer phrases are tried first at each place, so "not fixed" is never
/// read as "fixed".
pub const CARRIED_STATUS: &[(&str, Carried)] = &[
    ("fixed", Carried::Fixed),
    ("resolved", Carried::Fixed),
    ("addressed", Carried::Fixed),
    ("done", Carried::Fixed),
    ("closed", Carried::Fixed),
    ("open", Carried::Open),
    ("still open", Carried::Open),
    ("still applies", Carried::Open),
    ("still present", Carried::Open),
    ("unresolved", Carried::Open),
    ("not fixed", Carried::Open),
    ("not yet fixed", Carried::Open),
    ("not resolved", Carried::Open),
    ("not addressed", Carried::Open),
    ("remains", Carried::Open),
    ("partially fixed", Carried::Open),
    ("partly fixed", Carried::Open),
    ("partially addressed", Carried::Open),
    ("partially resolved", Carried::Open),
    ("still valid", Carried::Open),
    ("persists", Carried::Open),
    ("not applicable", Carried::NotApplicable),
    ("no longer applicable", Carried::NotApplicable),
    ("no longer applies", Carried::NotApplicable),
    ("n a", Carried::NotApplicable),
    ("obsolete", Carried::NotApplicable),
    ("outdated", Carried::NotApplicable),
    ("moot", Carried::NotApplicable),
    // The reviewer takes its own point back, in a later round or a re-review. (Not "dropped"
    // or "verified": "**Null check** — dropped in the refactor" is the problem itself; nor
    // "conceded": "Author conceded, fix pending" is still open.)
    ("withdrawn", Carried::NotApplicable),
    ("retracted", Carried::NotApplicable),
    ("not withdrawn", Carried::Open),
    ("not retracted", Carried::Open),
    ("verified fixed", Carried::Fixed),
];

/// The words of a reply that only acknowledges ("Thanks.", "Ack, looks good", "Danke!"), as
/// normalised words; phrases of two words are taken before single words.
pub const ACKNOWLEDGEMENTS: &[&str] = &[
    "thank you",
    "sounds good",
    "makes sense",
    "looks good",
    "thanks",
    "thx",
    "ty",
    "ack",
    "acked",
    "ok",
    "okay",
    "great",
    "perfect",
    "cool",
    "nice",
    "lgtm",
    "danke",
    "merci",
    "gracias",
    "obrigado",
    "obrigada",
    "grazie",
    "dank",
    "спасибо",
    "ありがとうございます",
    "ありがとう",
    "谢谢",
    "謝謝",
    "감사합니다",
];

/// Words that say a comment from an earlier review is fixed now, when they stand after its
/// title (`**Encoding** — fixed, …`), in its label (`**Critical (resolved):**`) or as its last
/// sentence (`… Resolved.`). Regex alternatives, matched case-insensitively. ("Removed" and
/// "renamed" are not among them: "**Auth check** — removed" is as often the problem itself.)
pub const FIXED_WORDS: &[&str] = &[
    // (Or taken back by the reviewer: `**F2:** withdrawn, the caller validates it`.)
    "withdrawn",
    "retracted",
    r"ritirat[oa]",
    r"retirad[oa]",
    "zurückgezogen",
    r"retirée?",
    r"отозван[оа]?",
    "撤回",
    "철회",
    "取り下げ",
    "fixed",
    "resolved",
    "addressed",
    "done",
    "handled",
    "corrected",
    "landed",
    "verified fixed",
    r"corrig[ée]e?s?",
    r"r[ée]gl[ée]e?s?",
    r"r[ée]solue?s?",
    r"corrigid[oa]s?",
    r"resolvid[oa]s?",
    r"corregid[oa]s?",
    r"resuelt[oa]s?",
    r"arreglad[oa]s?",
    "behoben",
    "erledigt",
    "gefixt",
    r"risolt[oi]",
    r"sistemat[oi]",
    r"corrett[oi]",
    "opgelost",
    r"naprawion[eay]",
    r"poprawion[eay]",
    "исправлено",
    "решено",
    "устранено",
    "виправлено",
    "düzeltildi",
    "çözüldü",
    "已修复",
    "已解决",
    "已处理",
    "修正済み",
    "対応済み",
    "解決済み",
    "해결됨",
    "수정(?:을|이)? 확인(?:했습니다|됨|함)",
    "수정됨",
    "수정 완료",
    "반영됨",
];

/// Words after a "fixed" that take it back: the fix is partial or something is still wrong.
pub const FIXED_BUT: &str = r"(?i)\b(?:but|however|though|although|except|partially|partly|only|still|yet|not|mais|pero|aber|але|но|ale|ma)\b|但|不过|ただ|하지만";

/// Words before an approval that limit it to what the answer has not raised ("The rest looks
/// fine", "Apart from that, ready to go", "Fora isso, tudo certo"): the answer raised something,
/// so it does not approve as a whole. Only where the sentence opens with them ("I read the rest
/// too: LGTM" approves).
pub const PARTIAL: &str = r"(?i)^\W*(?:(?:and|but|so)\s+)?(?:\b(?:the rest|everything else|all else|otherwise|other than (?:that|this|those|these|the above)|apart from (?:that|this|those|these|the above)|aside from (?:that|this|those|these|the above)|besides (?:that|this|those|these)|except (?:for )?(?:that|this|those|these|the above)|beyond (?:that|this|those)|for the rest|por lo demás|fuera de eso|aparte de eso|fora isso|de resto|tirando isso|ansonsten|sonst|abgesehen davon|du reste|pour le reste|à part ça|per il resto|a parte questo|в остальном|кроме этого|poza tym|w pozostałym)\b|其余|其他(?:都|部分)|除此之外|それ以外は|他は|나머지는|그 외에는)";

/// The names of the lines a local model runner prints around its answer, each followed by `:`
/// or `=` (regex alternatives): `llama-cli`'s loader, context and timing lines, `ollama run
/// --verbose`'s statistics.
pub const RUNNER_CHROME: &[&str] = &[
    r"llama_\w+",
    r"llm_load_\w+",
    r"ggml_\w+",
    r"load_tensors",
    r"print_info",
    r"system_info",
    r"sampler(?: \w+)?",
    r"generate",
    r"main",
    r"build",
    r"total duration",
    r"load duration",
    r"prompt eval (?:count|duration|rate)",
    r"eval (?:count|duration|rate)",
];

/// A carried finding's status, as a reviewer states it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Carried {
    Fixed,
    Open,
    NotApplicable,
}

/// What marks a comment as no longer raised: fixed or addressed since an earlier review (a
/// struck-through title, "✅ Addressed in commits …", "✅ **Fixed** in `a1b2c3d`") or never
/// posted (a bot's drafts it declined: "Reason this comment was not posted"). "❌ Not fixed" is
/// not one of them.
pub const WITHDRAWN: &str = r"(?i)(?:✅\s*(?:\*\*|__)?\s*(?:fixed|addressed|resolved|done|corregido|resuelto|arreglado|vyřešeno|opraveno|erledigt|behoben|résolu|corrigé|risolto|opgelost|rozwiązane|naprawione|решено|исправлено|вирішено|виправлено|löst|åtgärdat|korjattu|ratkaistu|修正済み|対応済み|解決済み|已修复|已解决|已处理|해결됨|수정됨|반영됨)\b|\b(?:addressed|resolved) in (?:commits?|[0-9a-f]{7,40})\b|\b(?:fixed|addressed|resolved|done) in (?:ps|patch ?set) ?\d+\b|\b(?:resolves|addresses|fixes) (?:both|all|all of) (?:the |your |my )?(?:earlier|previous|prior|open) (?:suggestions|points|comments|issues|findings|concerns)\b|\b(?:still|remain|remains|stay|stays) fixed\b|\bcontinuam corrigid[oa]s\b|\bsiguen corregid[oa]s\b|\brestent corrigé(?:e|s|es)?\b|^\W*~~[^~]{3,}~~|✅(?:[^.\n]|\.\S)*?\b(?:is|are|was|were|has been|have been|now)\s+(?:fixed|addressed|resolved|handled)\b|\breason this comment was not posted\b|(?:^|[.!?]\s+)(?:withdrawn|retracted)\s*(?:[—–:]|\s-\s|[.!]|$)|\bdraft comment\s*:|\b(?:ignore this one|dropping (?:the|this|my) (?:issue|comment|point)|disregard this (?:one|point|comment)|(?:that|this) one is fine|i withdraw (?:this|that)|withdrawing (?:this|that)|scratch that|never ?mind|nothing to do here|not an issue after all|needs no (?:change|action|fix)|marked this conversation as resolved|resolved this (?:thread|discussion|conversation)|^\W*(?:resolved by|решено пользователем) [\p{Lu}@][^\n]{0,60}\b(?:ago|назад)\b|i take (?:this|that|it)(?: one)? back|so (?:ignore|disregard) (?:it|this|that)|already fixed[:;]|none of (?:these|them|those|this) (?:needs?|requires?) (?:any )?(?:action|changes?|fixing)|(?:is|was) already fixed (?:by|in) (?:the )?(?:second|next|later|following|last) commit)\b|wycofuję|on jo korjattu|ei tarvitse tehdä mitään|beru zpět|už (?:je )?opraven[oa]?|już (?:jest )?naprawion[ey]|bereits behoben|déjà corrigé|ya (?:está )?corregido|já (?:foi )?corrigido|già (?:stato )?(?:corretto|risolto)|al opgelost|уже исправлен[оа]?|вже виправлен[оа]?|redan (?:åtgärdat|fixat|rättat)|zaten düzeltil(?:miş|di)|sudah diperbaiki|đã được sửa|deja (?:corectat|rezolvat)|έχει ήδη διορθωθεί|पहले ही ठीक|تم إصلاحه بالفعل|כבר תוקן|이미 수정|철회합니다|취소합니다|取り下げます|撤回(?:这条|此条|这一条|这个)|je retire (?:ce|mon|cette|la|le) (?:point|commentaire|remarque|observation)|retiro (?:este|ese|mi) (?:punto|comentario|observación|señalamiento)|retiro (?:el|la) (?:comentario|observación|señalamiento)|retiro (?:este|esse|meu|minha) (?:ponto|comentário|observação|apontamento|ressalva)|retiro (?:o|a) (?:comentário|observação|apontamento|ressalva)|ziehe ich zurück|ziehe (?:ich )?(?:den|diesen|meinen) (?:Punkt|Kommentar|Einwand|Hinweis) zurück|ritiro (?:questo|quel) (?:punto|commento|rilievo)|ritiro (?:l'|la mia |il mio )?(?:osservazione|commento|rilievo)|(?:снимаю|отзываю) (?:это |своё |свое )?замечание)";

/// A lead-in that says the table under it lists what the change fixed (a scanner's "1 alert
/// fixed by this pull request", "The following issues were fixed in this Pull Request").
pub const FIXED_LEAD_IN: &str = r"(?i)(?:^|[.!]\s+)(?:\d+ (?:alerts?|issues?|findings?|vulnerabilit(?:y|ies)) (?:were |was |have been |has been )?(?:fixed|resolved|closed) (?:by|in) this (?:pull request|pr|merge request|mr|change)|the following (?:issues|alerts|findings|vulnerabilities) (?:were|have been) (?:fixed|resolved) (?:by|in) this (?:pull request|pr|merge request|mr|change))";

/// A lead-in that says the list under it is not raised here: a bot's findings below its
/// policy's threshold ("2 findings were below your policy threshold and are not shown on this
/// pull request:"), whatever levels the items still wear.
pub const HIDDEN_LEAD_IN: &str = r"(?i)\b(?:below|under) (?:your|the) (?:policy(?:'s)? )?threshold\b|\bnot shown on this (?:pull request|pr|merge request)\b";

/// A fix a bot only offers (Bugbot's Autofix "prepared a fix for 1 of the 1 issues found",
/// "✅ Fixed: …" with an "Apply" link): it lives on another branch until someone applies it, so
/// the change under review still has the problem, and its "✅ Fixed" takes nothing back.
/// (Not a "Proposed fix" section: that is the fix the reviewer asks for.)
pub const FIX_OFFERED: &str = r"(?i)\b(?:prepared|drafted|generated) (?:a |\d+ )?(?:fix|fixes|patch|patches) for\b|\b(?:fix|fixes|patch) (?:is |are )?(?:ready|available) to apply\b";

/// An idea the reviewer says it is not asking for in this change ("I'm explicitly not asking for
/// it in this PR", "NO hace falta en este PR"): a thought for later, not a finding.
pub const UNASKED: &str = r"(?i)\b(?:(?:ausdrücklich )?nicht für diesen (?:pr|mr)|(?:i'm|i am|i'm explicitly|i am explicitly) not (?:asking|requesting|suggesting) (?:for )?(?:it|this|that|a change)|not (?:asking|requesting) (?:for )?(?:it|this|that|any change) (?:in|for) this (?:pr|change|mr|patch)|not asking for anything(?: here| in this (?:pr|change|mr|patch))?|(?:no need|not needed|nothing needed) (?:to (?:do|change|address) (?:it|this|that) )?(?:in|for) this (?:pr|change|mr|patch)|no hace falta en este (?:pr|cambio)|não (?:precisa|é necessário) (?:fazer )?(?:isso )?neste (?:pr|mr)|nicht (?:in|für) diesem (?:pr|mr) nötig|pas (?:nécessaire|demandé) dans cette (?:pr|mr))\b|(?:这个|本次)\s?(?:pr|PR)\s?(?:里|中)?(?:不用|不需要)(?:改|处理)|この\s?(?:PR|pr)\s?では(?:不要|対応不要)|이번 (?:PR|pr)에서는 (?:필요 없|안 하셔도)";

/// A question asked only to know ("Not a problem, just asking", "out of curiosity", "No change
/// requested"): with no
/// word of a problem and no level, it raises nothing.
pub const JUST_ASKING: &str = r"(?i)\b(?:just|only|merely|purely) (?:asking|curious|wondering)\b|\bnot asking (?:you )?to change anything\b|\bnot asking for (?:a |any )?changes? (?:in|for) this (?:pr|mr|change|patch)\b|\bno changes? (?:is |are )?(?:requested|asked for)\b|\bout of (?:curiosity|interest)\b|\bsolo (?:pregunto|por curiosidad)\b|\bsó (?:perguntando|curiosidade)\b|\bnur (?:aus neugier|eine frage)\b|\bpar curiosité\b|\bjuste (?:une question|par curiosité)\b|知りたいだけ|聞きたいだけ|只是想(?:了解|知道|问)|그냥 궁금|궁금해서 여쭤";

/// A paragraph that opens on a worry the reviewer had at first and then resolved ("My first
/// worry was …", "一开始我担心…", "Al principio me preocupaba …"): a risk ruled out, not raised.
/// An optional short label may come first ("补充说明：", "Nota:").
pub const FIRST_WORRY: &str = r"(?i)^\W*(?:[^\s:：]{1,16}\s?[:：]\s*)?(?:my (?:first|initial) (?:worry|concern|thought)(?: [^:;\n]{1,60}?)? was|at first i (?:was )?(?:worried|thought|suspected)|i was (?:initially |first )?worried|一开始我(?:担心|以为|怀疑)|起初我(?:担心|以为)|一開始我(?:擔心|以為)|最初は.{0,20}?(?:心配|懸念)|当初は.{0,20}?(?:心配|懸念)|처음에는.{0,30}?(?:걱정|우려)|al principio (?:me preocupaba|pensé|temí)|en un principio (?:me preocupaba|pensé)|no começo (?:me preocupei|pensei|temi)|inicialmente (?:me preocupei|pensei|me preocupaba)|anfangs (?:hatte ich (?:bedenken|sorge)|dachte ich|befürchtete ich)|zunächst (?:hatte ich (?:bedenken|sorge)|dachte ich)|au début,? (?:je craignais|j'ai craint|je pensais)|all'inizio (?:temevo|pensavo)|сначала (?:я )?(?:опасался|думал|беспокоился))";

/// Words that raise a suspicion the reviewer goes on to check ("I wondered whether …", "hatte …
/// vermutet", "Fiquei com uma dúvida", "一开始担心").
pub const SUSPECTED: &str = r"(?i)\b(?:wondered|(?:the )?(?:one )?thing that could go (?:badly |seriously )?wrong|what happens (?:if|when|on)|made me wonder|(?:i )?wonder(?:ed)? (?:whether|if)|suspected|was worried|worried that|lúc đầu (?:mình|tôi|em) tưởng|if (?:anything|anyone|someone|something) ever|gave me pause|went back and forth|i wanted to (?:be sure|make sure|check|confirm)|the obvious question (?:is|was)|(?:looked|seemed) like (?:a|an)\b|thing i checked|i (?:checked|verified) whether|my (?:first|initial) (?:thought|reaction|instinct|impression|read|worry|concern)|(?:i was|i'm|i am|i got) (?:a (?:little|bit) |slightly |briefly |initially )?(?:worried|concerned|nervous|alarmed)|the (?:question|thing|risk|part) i (?:cared|worried|was worried) (?:most )?about|(?:the |what )(?:one |only |main )?(?:thing (?:that |which )?)?(?:worried|bothered|concerned) me|at first (?:glance|sight)|(?:was|were) my (?:main|first|biggest|chief|only|one) (?:concern|worry)|the (?:one |only |main )?(?:risky|tricky|delicate|dangerous) (?:part|bit|change)(?: of [^.]{1,40})? (?:is|was)|the (?:main|obvious|real|one) risk (?:here )?(?:is|was)|i (?:was going|meant) to (?:flag|raise|mention)|vermutet|befürchtet|dachte zuerst|dachte ich (?:zuerst|erst)|dúvida|suspeitei|me pregunté|sospeché|sospechaba|je me suis demandé|soupçonné|mi sono chiesto|sospettavo|temevo|il dubbio|un dubbio|ho dubitato|подозревал|опасался|zastanawiałem|merak ettim|tôi đã lo|saya sempat)|担心|擔心|怀疑|懷疑|懸念|心配|気になった|걱정|의심|생각했는데|줄 알았는데|と思ったが|と思いましたが|我以为|我本以为|本来以为";

/// Words that clear it ("Das ist aber ausgeschlossen", "Conferi e não", "está correto", "没有问题").
pub const CLEARED: &str = r"(?i)(?:(?:^|[.!?]\s+)(?:fine|all good|safe|handled|covered)[.!]?\s*$)|\b(?:ruled out|and (?:it|they) (?:can't|cannot|can not|won't)|(?:so )?no (?:issue|problem|concern|bug|risk) (?:there|here)|not an issue|not a problem|is fine|is safe|is correct|(?:então )?está certo|^ổn(?: rồi)?\W*$|but (?:it|they) (?:doesn't|does not|don't|do not)\W*$|no concern (?:there|here)|not a concern|also fine|(?:that's|that is|which is) fine|(?:is|are) never (?:overwritten|lost|dropped|leaked|duplicated)|(?:won't|will not|cannot|can't|can not) (?:grow|leak|race|overflow|underflow|panic|crash|deadlock|hang)|can't be (?:zero|null|nil|negative|empty)|(?:can|will|could) never (?:\w+ )?(?:block|leak|race|overflow|underflow|panic|crash|deadlock|hang)|(?:does not|doesn't) hold|settles it|\bno (?:\w+ ){1,2}(?:can|could|will) (?:ever )?(?:race|leak|overflow|panic|crash|deadlock|hang|slip through|be lost|be dropped)\b|not worth (?:guarding against|worrying about|a change|changing|fixing)|nothing to worry about|(?:case|path|scenario) is (?:already )?(?:covered|handled)|^(?:that|this) (?:covers|handles) (?:it|that)\W*$|^(?:that(?:'s| is)|which is) (?:covered|handled)\W*$|nothing to do (?:there|here)|false alarm|so there(?:['’]s| is) no (?:\w+ )?(?:cycle|race|deadlock|leak|problem|issue|risk|bug)|^it (?:doesn't|does not|can't|cannot|won't|isn't)\b|ausgeschlossen|unbedenklich|kein problem|passt (?:also|schon)|conferi e não|está corret[oa]|não é um problema|descartad[oa]|no es un problema|está bien|écarté|n'est pas un problème|c'est correct|escluso|non è un problema|è corretto|исключено|не проблема|всё корректно|nie jest problemem|sorun değil|không phải vấn đề|tidak masalah)|没有问题|沒有問題|排除|没问题|問題ありません|問題なし|問題ない|問題なく|문제(?:가|는)? ?없";
