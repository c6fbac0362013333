//! Completion scripts as a shell sees them: clap generates them from the flag definitions, and
//! this adds what clap gets wrong or cannot know (git's `_git_debate` hook, values from the
//! repository, zsh's positionals).

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
