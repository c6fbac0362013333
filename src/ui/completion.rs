//! Completion scripts as a shell sees them: clap generates them from the flag definitions, and
//! this adds what clap gets wrong or cannot know (git's `_git_debate` hook, values from the
//! repository in bash, zsh and fish, zsh's positionals).

/// git's bash completion looks for `_git_<subcommand>` when completing `git debate` (and, with
/// bash-completion installed, first loads the completion file named `git-debate` to find it).
/// clap's script only completes the `git-debate` command, under a function whose name depends on
/// the clap version (`_git__debate` today), so the shim names it by what the script registers.
/// git's words start at the command's own index (`git -C dir debate`), given in `__git_cmd_idx`.
const BASH_GIT_SHIM: &str = r#"
# `git debate <TAB>`: git's completion calls _git_debate; hand the words after `debate` to the
# completion of `git-debate`.
_git_debate() {
    local idx=${__git_cmd_idx:-1}
    local COMP_WORDS=(git-debate "${COMP_WORDS[@]:idx+1}")
    local COMP_CWORD=$((COMP_CWORD - idx))
    _git_debate_complete git-debate "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
}

# Values clap cannot know: --scope forms with this repository's revisions, backend names, session
# ids. The words are taken from the line by spaces, so `commit:main` stays one word whatever
# COMP_WORDBREAKS says; what bash splits at `:` gets back only the part after the last colon.
_git_debate_values() {
    local line="${COMP_LINE:0:COMP_POINT}" cur prev
    local -a words cands=()
    read -ra words <<<"$line"
    [[ "$line" == *" " ]] && words+=("")
    cur="${words[${#words[@]}-1]}"
    prev="${words[${#words[@]}-2]}"
    case "$prev" in
    --scope)
        cands=(uncommitted staged commit: base: range: file:)
        local r refs
        refs="HEAD $(git for-each-ref --format='%(refname:short)' refs/heads refs/tags refs/remotes 2>/dev/null)"
        case "$cur" in
        commit:* | base:*)
            for r in $refs; do cands+=("${cur%%:*}:$r"); done ;;
        range:*..*)
            for r in $refs; do cands+=("${cur%%..*}..$r"); done ;;
        range:*)
            for r in $refs; do cands+=("range:$r.."); done ;;
        file:*)
            for r in $(compgen -f -- "${cur#file:}"); do cands+=("file:$r"); done ;;
        esac ;;
    BACKEND_FLAGS)
        cands=(BACKEND_NAMES exec: openai:) ;;
    --since)
        cands=(last) ;;
    show | resume)
        [[ "$cur" == -* ]] && return 1
        local dir
        dir="$(git rev-parse --git-dir 2>/dev/null)/review-loop"
        cands=(last)
        [[ -d "$dir" ]] && cands+=($(command ls "$dir" 2>/dev/null | grep '^debate-')) ;;
    *) return 1 ;;
    esac
    COMPREPLY=($(compgen -W "${cands[*]}" -- "$cur"))
    # `commit:`, `range:main..`: the word goes on.
    if [[ ${#COMPREPLY[@]} -eq 1 && "${COMPREPLY[0]}" == *[:.] ]]; then
        compopt -o nospace 2>/dev/null
    fi
    if [[ "$cur" == *:* && "${COMP_WORDBREAKS:-:}" == *:* ]]; then
        local colon="${cur%"${cur##*:}"}"
        COMPREPLY=("${COMPREPLY[@]#"$colon"}")
    fi
    return 0
}

_git_debate_complete() {
    _git_debate_values || COMPLETE_FN "$@"
}
complete -F _git_debate_complete -o bashdefault -o default git-debate
"#;

/// The long flags whose value is a backend (`--reviewer`, `--judge`, `--chair`…), from the clap
/// definitions, as a bash `case` pattern.
pub fn backend_flags(cmd: &clap::Command) -> Vec<String> {
    let mut out: Vec<String> = cmd
        .get_arguments()
        .filter(|a| {
            a.get_value_names()
                .is_some_and(|v| v.iter().any(|n| n.as_str() == "BACKEND"))
        })
        .filter_map(|a| a.get_long().map(|l| format!("--{l}")))
        .collect();
    for sub in cmd.get_subcommands() {
        out.extend(backend_flags(sub));
    }
    out.sort();
    out.dedup();
    out
}

/// clap's zsh script gives the top level's positionals (CONTENT, and the pathspecs after `--`)
/// the first words, so after `git debate hook ` zsh offers the top-level commands again
/// (CONTENT=hook, command next). The first word is a command or CONTENT; completing it as a
/// command (CONTENT is free text, or any file name) and reading the command from that word fixes
/// every subcommand's arguments.
pub fn zsh_subcommands_first(script: &str) -> String {
    let Some(commands) = script.find("\":: :_git-debate_commands\"") else {
        return script.to_string();
    };
    let (top, rest) = script.split_at(commands);
    let mut removed = 0;
    let kept: Vec<&str> = top
        .split_inclusive('\n')
        .filter(|l| {
            let positional = l.starts_with("'::content -- ") || l.starts_with("'::paths -- ");
            removed += usize::from(positional);
            !positional
        })
        .collect();
    if removed == 0 {
        return script.to_string();
    }
    kept.concat() + &rest.replace(&format!("$line[{}]", removed + 1), "$line[1]")
}

/// clap's bash script with what it lacks: the subcommands' arguments (clap mangles the `-` of
/// `git-debate` one way where it tracks the subcommand, `git__debate__subcmd__hook`, and another in
/// the case labels that complete it, `git__subcmd__debate__subcmd__hook`, so none ever completed),
/// git's `_git_debate` hook, and value completion for the `backend_flags` (whose values are
/// `backends`).
pub fn bash(clap_script: &str, backend_flags: &[String], backends: &[&str]) -> Option<String> {
    let script = clap_script.replace("git__subcmd__debate", "git__debate");
    let function = script
        .lines()
        .find_map(|l| l.trim().strip_prefix("complete -F "))
        .and_then(|rest| rest.split_whitespace().next())?
        .to_string();
    let shim = BASH_GIT_SHIM
        .replace("COMPLETE_FN", &function)
        .replace("BACKEND_FLAGS)", &format!("{})", backend_flags.join(" | ")))
        .replace("BACKEND_NAMES", &backends.join(" "));
    Some(script + &shim)
}

/// zsh functions for values clap cannot know: `--scope` forms with this repository's
/// revisions, and session ids.
const ZSH_VALUES: &str = r#"
(( $+functions[_git_debate_refs] )) ||
_git_debate_refs() {
    local -a refs
    refs=(HEAD ${(f)"$(git for-each-ref --format='%(refname:short)' refs/heads refs/tags refs/remotes 2>/dev/null)"})
    print -r -- ${refs[@]}
}
(( $+functions[_git_debate_scopes] )) ||
_git_debate_scopes() {
    local -a forms refs
    refs=(${(z)"$(_git_debate_refs)"})
    case $PREFIX in
    commit:*|base:*) compadd -P "${PREFIX%%:*}:" -- $refs ;;
    range:*..*) compadd -P "${PREFIX%%..*}.." -- $refs ;;
    range:*) compadd -S .. -P range: -- $refs ;;
    file:*) compset -P file: ; _files ;;
    *) forms=(uncommitted staged); compadd -- $forms; compadd -S '' -- commit: base: range: file: ;;
    esac
}
(( $+functions[_git_debate_sessions] )) ||
_git_debate_sessions() {
    local dir
    dir="$(git rev-parse --git-dir 2>/dev/null)/review-loop"
    compadd -- last
    [[ -d $dir ]] && compadd -- ${(f)"$(command ls $dir 2>/dev/null | grep '^debate-')"}
}
"#;

/// clap's zsh script with values completed: `--scope` by its forms and this repository's
/// revisions, every backend flag by the `backends`, `--since` and a session id by the sessions
/// of this repository.
pub fn zsh_values(script: &str, backends: &[&str]) -> String {
    let script = script
        .replace(":SCOPE:_default'", ":SCOPE:_git_debate_scopes'")
        .replace(
            ":BACKEND:_default'",
            &format!(":BACKEND:({} exec\\: openai\\:)'", backends.join(" ")),
        )
        .replace(
            ":last|SESSION|REV:_default'",
            ":last|SESSION|REV:_git_debate_sessions'",
        )
        .replace(
            "`last` for the newest:_default'",
            "`last` for the newest:_git_debate_sessions'",
        );
    // The functions go before the script's own `_git-debate` definition, which zsh runs.
    match script.find("\n_git-debate() {") {
        Some(at) => format!("{}{ZSH_VALUES}{}", &script[..at], &script[at..]),
        None => script + ZSH_VALUES,
    }
}

/// fish functions and extra `complete` lines for values clap cannot know (fish merges every
/// `complete` line given for a command).
const FISH_VALUES: &str = r#"
function __git_debate_refs
    echo HEAD
    git for-each-ref --format='%(refname:short)' refs/heads refs/tags refs/remotes 2>/dev/null
end
function __git_debate_scopes
    set -l cur (commandline -ct)
    switch $cur
        case 'commit:*' 'base:*'
            set -l kind (string split -m1 : -- $cur)[1]
            for r in (__git_debate_refs); echo $kind:$r; end
        case 'range:*..*'
            set -l from (string split -m1 .. -- $cur)[1]
            for r in (__git_debate_refs); echo $from..$r; end
        case 'range:*'
            for r in (__git_debate_refs); echo range:$r..; end
        case 'file:*'
            for f in (__fish_complete_path (string replace -r '^file:' '' -- $cur)); echo file:$f; end
        case '*'
            printf '%s
' uncommitted staged commit: base: range: file:
    end
end
function __git_debate_sessions
    echo last
    set -l dir (git rev-parse --git-dir 2>/dev/null)/review-loop
    test -d $dir; and command ls $dir 2>/dev/null | string match 'debate-*'
end
complete -c git-debate -l scope -f -r -a '(__git_debate_scopes)'
complete -c git-debate -l since -f -r -a '(__git_debate_sessions)'
complete -c git-debate -n '__fish_git_debate_using_subcommand show resume' -f -a '(__git_debate_sessions)'
"#;

/// clap's fish script with values completed: `--scope`, `--since`, session ids, and every
/// backend flag (`flags`) by the `backends`.
pub fn fish_values(script: &str, flags: &[String], backends: &[&str]) -> String {
    let mut out = script.to_string() + FISH_VALUES;
    let names = format!("{} exec: openai:", backends.join(" "));
    for f in flags {
        let long = f.trim_start_matches('-');
        out.push_str(&format!(
            "complete -c git-debate -l {long} -f -r -a '{names}'\n"
        ));
    }
    out
}
