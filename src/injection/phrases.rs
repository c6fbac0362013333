//! The vocabularies of the injection detector, as data: who a planted instruction addresses, what
//! it asks for, the role markers and fences of chat formats, and the shapes of a reviewer's own
//! output. Each entry is a regular expression over the detector's normalised text (lower case,
//! invisible characters removed, look-alike letters folded, `_` read as a space, spaces
//! collapsed).
//!
//! Entries in other languages sit beside the English ones: a filter that reads English only is
//! passed by the same sentence in Spanish.

/// Verbs of setting instructions aside. With [`EARLIER`] and [`INSTRUCTIONS`] near each other
/// they make an override ("ignore previous instructions"), in any word order, so "instructions
/// précédentes" reads like "previous instructions".
pub const SET_ASIDE: &str = r"\b(ignore|disregard|forget|override|bypass|ignora|ignorar|ignorer|ignorez|ignoriere|ignorieren|vergiss|oublie|oubliez|negeer|vergeet|zignoruj|desconsidere|desconsidera|olvida|dimentica|игнорируй|проигнорируй|забудь|yok say|görmezden gel|unut|تجاهل)\b";

/// "Earlier", in the languages of [`SET_ASIDE`].
pub const EARLIER: &str = r"\b(previous|prior|above|preceding|earlier|original|initial|system|anteriores|previas|précédentes|antérieures|vorherigen|bisherigen|obigen|vorigen|precedenti|eerdere|vorige|voorgaande|poprzednie|wcześniejsze|предыдущие|прежние|önceki|السابقة)\b";

/// "Instructions" (plural: a CPU's "previous instruction" is singular), in the same languages.
pub const INSTRUCTIONS: &str = r"\b(instructions|prompts|rules|directions|guidelines|directives|system prompt|instrucciones|instruções|consignes|anweisungen|instruktionen|istruzioni|instructies|aanwijzingen|instrukcje|polecenia|инструкции|указания|talimatları|التعليمات)\b";

/// The same override in scripts without spaces between words: "earlier", "instructions" and
/// "ignore" within a few characters of each other, in any order. `命令` is left out: in
/// Japanese it is a CPU's instruction.
pub const CJK_OVERRIDE: &[&str] = &[
    r"(之前|以上|先前|前面|以前|これまで|上記|이전)",
    r"(指令|指示|说明|規則|规则|지시|지침)",
    r"(忽略|無視|无视|무시)",
];

/// Other sentences that are an attack on their own.
pub const OVERRIDES: &[&str] = &[
    r"\bnew (system )?instructions\s*:",
    r"\byou are now (a|an|in|dan)\b",
    r"\byou are no longer (a|an|the)\b",
    r"\bfrom now on,? (you|act|behave|respond|answer)\b",
    r"\b(real|actual|true|updated) instructions (follow|are below|begin)",
    r"\binstructions (earlier|above) in this prompt\b",
    r"\b(reveal|print|repeat|output|show|dump) (me )?(your|the) (full )?(system prompt|hidden prompt|initial prompt)",
    r"\bact as (an? )?(unrestricted|jailbroken|different)",
];

/// What follows an override that is about a document, not a model: "ignore the previous
/// instructions in section 2" in a CONTRIBUTING file.
pub const DOCUMENT_PARTS: &str = r"^\W{0,3}(in|from|of|en|im|in der|dans|della|na) (the |la |el |der |dem |la )?(section|sección|seccion|abschnitt|kapitel|chapter|chapitre|capítulo|sezione|step|schritt|paso|étape|paragraph|part|readme|wiki|docs|manual|guide|§)";

/// Who a planted instruction speaks to: an AI reviewer, by role or by name.
pub const ADDRESSEES: &[&str] = &[
    r"(ai|llm|gpt|bot|model|machine|automated|automatic|robot)[- ]?(code )?(review(er|ers|ing)?|assistant|auditor|checker)s?",
    r"(review(er|ing)?|code review) (bot|model|llm|ai|agent|system|tool|assistant|platform)s?",
    r"reviewing (model|ai|llm|agent|assistant)",
    r"(agent|model|ai|llm|assistant) (reviewing|evaluating|analy[sz]ing|reading) (this|the)",
    r"automated (code )?(review|reviewer|reviewers|review systems?|analysis)",
    r"(autonomous|ai|coding|llm) agents?",
    r"(language model|large language model|llm-based|ai-based|ai model|ai assistant|llm|ai)s?",
    r"(copilot|claude|chatgpt|gpt-?\d|gemini|codex|qwen)",
    // es / pt / it / fr: "IA" is the AI
    r"(revisore|revisora|revisor|réviseur|relecteur|auditor|asistente|assistente|modelo|modèle|modello)( de la| de| di| d')? ?(código |code |revue |revisión )?(ia|ai)",
    r"(l'ia|la ia|a ia|l'ai) de (revue|revisión|revisão)",
    r"(revisore|revisor|relecteur|réviseur|revisora) (automático|automatico|automatique|automática)|modelo revisor|modèle relecteur",
    // de
    r"ki[- ]?(reviewer|prüfer|assistent|modell|gutachter|review)|automatisierten? prüfer",
    // nl
    r"ai[- ]?(beoordelaar|reviewer|controleur)",
    // pl
    r"(recenzent|asystent|weryfikator)[a-z]* (ai|si)",
    // ru
    r"(ии|ai)[- ]?(ревьюер|рецензент|ассистент|модель|проверяющ)|(ревьюер|рецензент|проверяющий)",
    // tr
    r"yapay zek[aâ]|ai (inceleyici|gözden geçirici|asistan)",
    // ar
    r"الذكاء الاصطناعي|المراجع الآلي",
    // zh
    r"(ai|人工智能|模型)\s*(审查|审核|评审|代码审查)|(代码)?(审查|审核|评审)(者|员|模型|机器人|工具)",
    // ja
    r"(ai|ＡＩ)\s*(レビュ|査読)|レビュア|(レビュー|査読|審査)する(モデル|ai|エージェント)",
    // ko
    r"(ai|인공지능)\s*(리뷰|검토)|리뷰어",
    // A bare "reviewer" is a person; "code reviewer" spoken to, and the assistant, are a model.
    r"code reviewer|reviewers? (agent|bot|model)",
];

/// Words before an addressee that make it the one spoken to ("Dear AI", "if you are an LLM").
pub const VOCATIVE_BEFORE: &str = r"(dear|attention|note (to|for)|notes? for|nota (para|per|pour)|note pour|to the|to all|to any|for the|for any|for all|hey|hi|hello|if you are( an?)?|any|every|all|für|an die|an den|do|для|к)\s*(the |an? |die |den |el |la |le )?$";

/// What follows an addressee spoken to: a colon or comma soon after ("AI model reviewing this
/// diff, please"), or a modal ("automated reviewers should").
pub const VOCATIVE_AFTER: &str = r#"^([^.;!?。"\n]{0,40}?\s*[:,：，、]|[^.;!?。"\n]{0,30}?\b(should|must|shall|need to|needs to|are asked|are instructed|please)\b|は)"#;

/// A model's role word opening a sentence with a comma ("Assistant, use your shell tool"):
/// spoken to. With a colon it would be a chat transcript's turn, which is data.
pub const VOCATIVE_LEAD: &str = r"(^|[.!?#/*;-]\s*)(assistant|model|bot|agent|ai|llm)\s*,";

/// Sentences that address the review process as a whole: "every review must", "when reviewing".
pub const POLICIES: &[&str] = &[
    r"\b(every|each|any|all) (ai |automated )?reviews?\b[^.]{0,40}\b(must|should|shall)\b",
    r"\b(when|while) reviewing\b",
];

/// Claims that findings on the change are switched off: aimed at the reviewer's output even when
/// no one is addressed.
pub const SUPPRESSIONS: &[&str] = &[
    r"\b(ai|llm|model|automated|ai-generated|machine|bot) (findings|review|reviews|comments|stage|checks)\b[^.;]{0,40}\b(disabled|suppressed|discarded|dismissed|not allowed|switched off|turned off|exempt)",
    r"\bexempt from (ai|automated|llm|model|bot) review",
    r"\bfindings (about|on|for|in|regarding) [^.;]{0,60}\b(will be|are|get) (automatically )?(discarded|dismissed|suppressed|ignored|auto-closed|disabled)",
    r"\b(llm|ai) (stage|review|pass) (is )?(disabled|skipped|off)\b",
];

/// What a planted instruction asks of the reviewer: a verdict, silence, a lower severity, a
/// narrower scope, or an action (a tool, a disclosure).
pub const REQUESTS: &[&str] = &[
    r"\bapprov(e|al|ed|ing)\b",
    r"\blgtm\b",
    r"\bno (findings|issues|problems|concerns|comments|vulnerabilities|bugs|security issues)\b",
    r"\b(report|raise|flag|mention|list|include|return) (no|nothing|none|zero|only)\b",
    r"\b(do not|don't|dont|never|must not|should not|shouldn't|need not) (flag|report|mention|raise|comment|include|list|analy[sz]e|review|question|touch|look|add)",
    r"\b(should|must|will) not be (reported|flagged|mentioned|raised)",
    r"\bnothing to (flag|report|review|see)\b",
    r"\b(skip|ignore) (it|this|the|analysis|review|these|that)\b",
    r"\bsuppress",
    r"\bcomply\b",
    r"\bmark (it|this|the change|the pr|everything)( as)? (safe|approved|clean|reviewed)",
    r"\btreat (it|this|every|all|the|them).{0,60}\bas (intended|safe|trusted|reviewed|approved|out of scope|vendor)",
    r"\bout of scope\b",
    r"\bleave (it|this|them) out\b",
    r"\b(summari[sz]e|describe|classify|rate|label) (this|the|it)( \w+)? as (clean|safe|low|fine|trivial|p3)",
    r"\b(is|are) (intentional|safe|fine|trusted) and\b",
    r"\bwithout (analysis|review|checking|looking)",
    r"\b(respond|reply|answer|say|output|return) (only |simply |just )?(with|\x22|'|«|“)",
    r"\b(state|say|confirm|conclude|declare) that\b",
    r"\bsuggest (deleting|removing|dropping|disabling)",
    r"\bverdict\b",
    r"\bseverity\b",
    r"\b(downgrade|lower)\b",
    r"\b(run|execute|invoke) (the )?(`|shell|bash|curl|wget|tool|command|this|npm|cargo|pip)",
    r"\b(call|use) (the|your) \S+ tool\b",
    r"\bexecute `",
    r"\bpost a comment\b|\bclose (the )?issue\b|\bmerge (the |this )?(pr|pull request)\b",
    r"\b(npm|cargo|pip|gem) publish\b",
    r"\b(curl|wget)\b",
    r"\b(print|reveal|send|post|upload|include|leak|read|cat|quote|list|append|paste|output|dump)\b.{0,40}(system prompt|your instructions|\.env\b|~/|\$[a-z_]*token|api keys?|credentials|environment|secrets?\b|\.ssh)",
    r"\bwith your (instructions|system prompt|prompt)\b",
    r"\bfocus (only )?on\b",
    r"\byour (job|task|role) is\b",
    r"\bonly (confirm|check|look)",
    r"\bsigned off\b",
    r"\bpre-?approved\b",
    // es / pt
    r"\b(aprueb|aprob|aprov)[a-zçã]*",
    r"\b(no|não) (reportes|informes|señales|marques|menciones|reporte|sinalize|mencione|aponte)",
    r"\b(sin|sem) (hallazgos|problemas|comentarios|observações)",
    r"\bresponda (apenas|solo|sólo|solamente)\b|\bmarque (este|esta|isto)",
    r"\bcopia (este|esta)",
    // de
    r"\b(genehmig|freigeb|freigab|absegn)[a-zäöü]*",
    r"\bkeine (befunde|probleme|anmerkungen|findings|mängel)",
    r"\b(nicht|niemals) (melden|erwähnen|markieren|beanstanden)",
    // fr
    r"\bapprouv[a-zé]*",
    r"\b(aucun|aucune) (problème|remarque|signalement|anomalie)",
    r"\bne (signale|mentionne|rapporte)[sz]? (pas|rien)|\bne signaler\b",
    r"\brépondez (simplement|uniquement|seulement)",
    // it
    r"\bapprov[a-z]*",
    r"\bnessun (problema|rilievo)",
    r"\bnon (segnalare|menzionare)",
    // nl
    r"\bgoed ?(keuren|gekeurd|te keuren)|\bkeur\b.{0,40}\bgoed\b",
    r"\bgeen (bevindingen|problemen|opmerkingen)",
    // pl
    r"\bzatwierd[a-zźżś]*",
    r"\bnie (zgłaszaj|zgłaszać|wspominaj)",
    r"\bodpowiedz (tylko|jedynie)",
    // ru
    r"одобр[а-я]*",
    r"не (сообщай|указывай|отмечай|упоминай)",
    r"без замечаний",
    // tr
    r"\bonayla[a-zıüşç]*",
    r"\bbulgu (yok|bildirme)",
    // ar
    r"وافق|الموافقة|لا تبلغ|لا تذكر",
    // zh
    r"批准|通过|不要.{0,8}(报告|指出|提及|标记|列为)|没有问题|无问题|回复",
    // ja
    r"承認|指摘(しない|しないで|なし|不要)|問題(なし|ありません)|システムプロンプト|出力すること",
    // ko
    r"승인|보고하지|문제 없음|지적하지",
];

/// Chat-format role markers and turn tokens.
pub const ROLE_MARKERS: &[&str] = &[
    r"<\|im_start\|>",
    r"<\|im_end\|>",
    r"<\|(system|user|assistant|endoftext|eot_id|start_header_id|end_header_id|end)\|>",
    r"\[/?inst\]",
    r"<</?sys>>",
    r"#{1,4} ?(system|instruction|assistant|response)\s*:",
    r"(^|[^a-z0-9_.])(system|système|sistema|assistant|human|user|operator|developer)\s*:",
    r"</?(system|user|assistant|instructions?|operator)>",
    r#""role"\s*:\s*"(system|developer)""#,
];

/// A turn closed and a system turn opened: the real prompt ended, a fake one follows.
pub const TURN_SWITCH: &str = r"(<\|im_end\|>|\[/inst\]|</user>|<\|eot_id\|>|</s>|<\|end\|>)[\s#/;*-]*(<\|im_start\|> ?system|<<sys>>|<system>|<\|start_header_id\|> ?system|<\|system\|>|system:)";

/// A line that claims to end the material or open a new block of instructions: a fake version
/// of the fence a prompt puts around the change.
pub const DELIMITERS: &[&str] = &[
    r"\bend (of )?(the )?(diff|patch|change|changes|material|data|input|code|document|file|untrusted|artifact|pr|pull request|user input|review material)\b",
    r"</(diff|pr_diff|patch|code|material|data|input|artifact|document|untrusted[a-z_]*|change[a-z_]*|context)>",
    r"\b(begin|start) (of )?(the )?(system|operator|new|real|actual|trusted) (instructions|prompt|message)",
    r"^\W*(={3,}|-{3,}|#{3,}|`{3,}|\*{3,}|<{3,}|>{3,})\s*(end|begin|system|instructions)",
];

/// Words that follow a fake delimiter when it is there to smuggle a new order in.
pub const AUTHORITY: &[&str] = &[
    r"\binstructions?\b",
    r"\boperator\b",
    r"\bsystem\b",
    r"\byou (must|should|will|are)\b",
    r"\bthe (maintainers?|owners?|developers?)\b",
    r"\bfrom the (operator|developer|maintainer)s?\b",
];

/// The shape of a reviewer's finished answer: an empty findings list, or a closed review.
pub const FAKE_FINDINGS: &[&str] = &[
    r"\bfindings\W{0,6}\s*(none|nil|null|\[\s*\]|0|empty|n/a)\b",
    r#""findings"\s*:\s*\[\s*\]"#,
    r"\b(0|zero|no) (findings|issues)( found)?\b",
    r"\breview (complete|completed|finished|done|passed)\b",
    r"\b(this|the) verdict is final\b",
    r"#+ ?(p1|p2|p3)[^a-z]{0,10}(must|should|nice)[^\n]{0,30}\b(none|nothing)\b",
];

/// A findings heading whose section says "none", in several languages: the reviewer's own
/// output shape, planted.
pub const EMPTY_FINDINGS_SECTION: &str = r"#+ ?(findings|issues|hallazgos|befunde|constats|problèmes|rilievi|achados|bevindingen|ustalenia|bulgular|замечания|находки|指摘事項|发现|问题|발견 사항|지적 사항)\W{0,4}\s*(none|nothing|ninguno|ninguna|nada|keine|aucun|aucune|nessuno|nenhum|geen|brak|yok|отсутствуют|нет|なし|无|没有|없음)";

/// A verdict that approves, as a reviewer's answer would state it.
pub const FAKE_VERDICTS: &[&str] = &[
    r#"\b(verdict|veredicto|verdict|urteil|verdetto|вердикт)\W{0,6}\s*(approve|approved|lgtm|accept|accepted|pass|passed|safe|clean|aprobar|aprobado|approuvé|genehmigt)\b"#,
    r#""verdict"\s*:\s*"(approve|accept|lgtm)""#,
    r"\b(status|result|decision)\W{0,4}\s*(approved|lgtm|pass)\b",
    r"\blgtm\b",
];

/// A markdown heading (or a `#` comment): where a fake findings section starts.
pub const HEADING: &str = r"^\W{0,4}#{1,6}\s*\S";

/// Words one of which a ROT13-encoded attack shows once decoded; other text is not read twice.
pub const ROT13_WORDS: &[&str] = &[
    "ignore",
    "disregard",
    "instructions",
    "reviewer",
    "approve",
    "findings",
    "lgtm",
];
