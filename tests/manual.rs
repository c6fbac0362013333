//! The man page is generated from the clap definitions and checked in; completions work for git.

const MAN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/man/git-debate.1");

/// The page: clap_mangen's title, name, synopsis, description and options; then the commands
/// by the names people type (no `git-debate-sessions(1)` links: there are no such pages); then
/// each `SECTION:` of the long help (CONFIGURATION, FILES, ENVIRONMENT, EXAMPLES, EXIT STATUS)
/// as a real section of its own.
fn render() -> String {
    let cmd = git_debate::clap_command();
    let man = clap_mangen::Man::new(cmd.clone()).title("git-debate");
    let mut out = Vec::new();
    man.render_title(&mut out).unwrap();
    man.render_name_section(&mut out).unwrap();
    man.render_synopsis_section(&mut out).unwrap();
    man.render_description_section(&mut out).unwrap();
    man.render_options_section(&mut out).unwrap();
    let mut page = String::from_utf8(out).unwrap();
    page.push_str(".SH COMMANDS\n");
    for sub in cmd.get_subcommands().filter(|c| c.get_name() != "help") {
        let about = sub.get_about().map(|a| a.to_string()).unwrap_or_default();
        page.push_str(&format!(
            ".TP\n\\fBgit debate {}\\fR\n{}\n",
            roff(sub.get_name()),
            roff(&about)
        ));
    }
    let extra = cmd
        .get_after_long_help()
        .map(|h| h.to_string())
        .unwrap_or_default();
    for line in extra.lines() {
        let heading = line
            .strip_suffix(':')
            .filter(|h| !h.is_empty() && h.chars().all(|c| c.is_ascii_uppercase() || c == ' '));
        match heading {
            Some(h) => page.push_str(&format!(".SH {h}\n.nf\n")),
            // A paragraph (not a list line) is filled to the reader's width.
            None if line.len() > 100 => {
                page.push_str(&format!(".fi\n.PP\n{}\n.nf\n", roff(line.trim())));
            }
            None => page.push_str(&format!("{}\n", roff(line))),
        }
    }
    page.push_str(".fi\n");
    let mut version = Vec::new();
    man.render_version_section(&mut version).unwrap();
    page + &String::from_utf8(version).unwrap()
}

/// Text as roff shows it: backslashes and hyphens escaped, no line read as a request.
fn roff(text: &str) -> String {
    let t = text.replace('\\', "\\e").replace('-', "\\-");
    if t.starts_with('.') || t.starts_with('\'') {
        format!("\\&{t}")
    } else {
        t
    }
}

/// `UPDATE_MAN=1 cargo test man_page` rewrites the page after a change to `src/cli/`.
#[test]
fn man_page_is_up_to_date() {
    let fresh = render();
    if std::env::var_os("UPDATE_MAN").is_some() {
        std::fs::write(MAN, &fresh).unwrap();
    }
    let stored = std::fs::read_to_string(MAN).unwrap_or_default();
    assert!(
        stored == fresh,
        "man/git-debate.1 is stale: run `UPDATE_MAN=1 cargo test man_page` and commit it"
    );
}

#[test]
fn man_page_documents_every_key_and_exit_code() {
    // roff escapes hyphens.
    let page = render().replace("\\-", "-");
    for section in [
        "CONFIGURATION",
        "FILES",
        "ENVIRONMENT",
        "EXAMPLES",
        "EXIT STATUS",
    ] {
        assert!(page.contains(section), "{section} missing");
    }
    // Real sections, not text under an EXTRA heading, and no links to pages that do not exist.
    for section in [
        "COMMANDS",
        "FILES",
        "ENVIRONMENT",
        "EXAMPLES",
        "EXIT STATUS",
    ] {
        assert!(
            page.contains(&format!(".SH {section}\n")),
            "{section} is no section"
        );
    }
    assert!(
        !page.contains(".SH EXTRA") && !page.contains("(1)"),
        "{page}"
    );
    for key in git_debate::SETTING_KEYS {
        assert!(
            page.contains(&format!("debate.{}", key.name)),
            "debate.{} missing",
            key.name
        );
        assert!(page.contains(key.flag), "{} missing", key.flag);
    }
    for code in ["0  done", "2  usage", "4  other runtime"] {
        assert!(page.contains(code), "exit status {code} missing");
    }
}

#[test]
fn bash_completion_includes_the_git_shim() {
    let env = crate::common::TestEnv::new();
    let run = env.run_in(&env.root, &["completions", "bash"]).ok();
    assert!(run.stdout.contains("_git_debate()"), "no shim");
    assert!(run.stdout.contains("--scope"));
    for shell in ["zsh", "fish"] {
        let run = env.run_in(&env.root, &["completions", shell]).ok();
        assert!(run.stdout.contains("dry-run"), "{shell}");
    }
}

/// What real bash completes for `line`, with git's own completion script and ours loaded the way
/// bash-completion would (git's script asks for `_git_debate`).
fn complete(env: &crate::common::TestEnv, git_script: &str, line: &str) -> String {
    let ours = env.root.join("git-debate.bash");
    let run = env.run_in(&env.root, &["completions", "bash"]).ok();
    std::fs::write(&ours, run.stdout).unwrap();
    let script = format!(
        r#"source {git_script}
source {ours}
line='{line}'
COMP_LINE="$line"; COMP_POINT=${{#line}}
read -ra COMP_WORDS <<<"$line"; [[ "$line" == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$((${{#COMP_WORDS[@]}} - 1))
__git_wrap__git_main git "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}"
printf '%s\n' "${{COMPREPLY[@]}}"
"#,
        ours = ours.display()
    );
    let out = std::process::Command::new("bash")
        .arg("--norc")
        .arg("-c")
        .arg(script)
        .env_clear()
        .env("PATH", env.path())
        // In the repository when there is one (revisions and sessions are completed from it).
        .current_dir(if env.repo.join(".git").exists() {
            &env.repo
        } else {
            &env.root
        })
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.is_empty(), "bash said: {err}");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// git's bash completion script, where the system has one (the tests that need it say they were
/// skipped otherwise).
fn git_completion_script() -> Option<&'static str> {
    let found = [
        "/usr/share/bash-completion/completions/git",
        "/etc/bash_completion.d/git",
    ]
    .into_iter()
    .find(|p| std::path::Path::new(p).is_file());
    if found.is_none() {
        eprintln!("skipped: git's bash completion script is not installed here");
    }
    found
}

/// `git-debate` on the test's PATH, and what bash completes for a line, word by word.
fn completer<'e>(
    env: &'e crate::common::TestEnv,
    git_script: &'e str,
) -> impl Fn(&str) -> Vec<String> + 'e {
    let link = env.root.join("bin/git-debate");
    std::os::unix::fs::symlink(assert_cmd::cargo::cargo_bin("git-debate"), &link).unwrap();
    move |line: &str| {
        complete(env, git_script, line)
            .lines()
            .map(|w| w.trim().to_string())
            .collect()
    }
}

#[test]
fn git_debate_tab_completes_through_git_s_own_bash_completion() {
    let Some(git_script) = git_completion_script() else {
        return;
    };
    let env = crate::common::TestEnv::new();
    let words = completer(&env, git_script);
    assert!(words("git debate sess").contains(&"sessions".to_string()));
    assert!(words("git debate ").contains(&"--scope".to_string()));
    // A subcommand's own words, not the top level's.
    let hook = words("git debate hook ");
    assert!(hook.contains(&"install".to_string()), "{hook:?}");
    assert!(!hook.contains(&"--scope".to_string()), "{hook:?}");
    assert_eq!(
        words("git debate hook run --fail-on "),
        ["p1", "p2", "p3", "never"]
    );
    assert!(words("git debate --format s").contains(&"sarif".to_string()));
    // `git -C dir debate` counts its words from the command.
    assert!(words("git -C . debate show --for").contains(&"--format".to_string()));
}

#[test]
fn bash_completes_scopes_with_revisions_backends_and_sessions() {
    let Some(git_script) = git_completion_script() else {
        return;
    };
    let env = crate::common::TestEnv::with_repo();
    env.git(&["branch", "feature-cache"]);
    let store = env
        .repo
        .join(".git/review-loop/debate-20261127-010203-abcd");
    std::fs::create_dir_all(&store).unwrap();
    let words = completer(&env, git_script);
    assert_eq!(words("git debate --scope com"), ["commit:"]);
    assert!(words("git debate --scope ").contains(&"uncommitted".to_string()));
    // After a colon bash completes the part after it (COMP_WORDBREAKS has `:`).
    assert_eq!(words("git debate --scope base:feat"), ["feature-cache"]);
    assert_eq!(words("git debate --scope range:feat"), ["feature-cache.."]);
    assert_eq!(
        words("git debate --scope range:HEAD..feat"),
        ["HEAD..feature-cache"]
    );
    let backends = words("git debate --reviewer co");
    assert!(
        backends.contains(&"codex".to_string()) && backends.contains(&"copilot".to_string()),
        "{backends:?}"
    );
    assert!(words("git debate topic x --judge gem").contains(&"gemini".to_string()));
    let ids = words("git debate show ");
    assert!(
        ids.contains(&"last".to_string())
            && ids.contains(&"debate-20261127-010203-abcd".to_string()),
        "{ids:?}"
    );
    // Flags still come from clap.
    assert!(words("git debate resume --max")
        .iter()
        .any(|w| w.starts_with("--max")));
}

#[test]
fn install_man_puts_the_page_where_git_debate_help_finds_it() {
    let env = crate::common::TestEnv::new();
    // An installed binary, as `cargo install` leaves it: <prefix>/bin/git-debate.
    let bin = env.root.join("prefix/bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::copy(
        assert_cmd::cargo::cargo_bin("git-debate"),
        bin.join("git-debate"),
    )
    .unwrap();
    let path = format!("{}:{}", bin.display(), env.path());
    let out = crate::common::output_of_copied(
        std::process::Command::new(bin.join("git-debate"))
            .arg("install-man")
            .env_clear()
            .env("PATH", &path)
            .env("HOME", &env.home),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = env.root.join("prefix/share/man/man1/git-debate.1");
    assert_eq!(std::fs::read_to_string(&page).unwrap(), render());
    if which("man") {
        assert!(
            stdout.contains("`git debate --help` and `man git-debate` show it"),
            "{stdout}"
        );
        // git's own --help, with no MANPATH: the page beside the binary is found.
        let help = std::process::Command::new("git")
            .args(["debate", "--help"])
            .env_clear()
            .env("PATH", &path)
            .env("HOME", &env.home)
            .env("MANPAGER", "cat")
            .env("PAGER", "cat")
            .env("MANWIDTH", "80")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&help.stdout);
        assert!(
            text.contains("git-debate"),
            "{text}{}",
            String::from_utf8_lossy(&help.stderr)
        );
        assert!(text.contains("EXIT STATUS"), "{text}");
    }
}

fn which(program: &str) -> bool {
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .any(|d| d.join(program).is_file())
}

/// What zsh offers for `line` with compinit and our `_git-debate` in fpath: an interactive zsh on
/// a zsh pseudo-terminal (zpty) is typed the line and a TAB, with `compadd` wrapped to print what
/// completion adds.
fn zsh_complete(env: &crate::common::TestEnv, line: &str) -> Vec<String> {
    zsh_complete_in(env, &env.root, line)
}

/// [`zsh_complete`] with zsh started in `dir` (a repository, for values from it).
fn zsh_complete_in(env: &crate::common::TestEnv, dir: &std::path::Path, line: &str) -> Vec<String> {
    let fns = env.root.join("zfn");
    std::fs::create_dir_all(&fns).unwrap();
    let run = env.run_in(&env.root, &["completions", "zsh"]).ok();
    std::fs::write(fns.join("_git-debate"), run.stdout).unwrap();
    let driver = format!(
        r#"zmodload zsh/zpty
zpty z zsh -f -i
zpty -w z "PS1=''"
zpty -w z "fpath=({fns} \$fpath); autoload -U compinit; compinit -u -D"
zpty -w z 'compadd () {{ builtin compadd -O __hits "$@"; print -l -- ${{^__hits/#/HIT:}} >&2; builtin compadd "$@" }}'
zpty -w z 'zstyle ":completion:*" menu no'
zpty -n -w z '{line}'$'\t'
# Read until completion has printed what it adds and gone quiet (a loaded machine can take
# seconds to start compinit), at most 20 s.
out=""
quiet=0
for i in {{1..200}}; do
  if zpty -r -t z chunk; then out+="$chunk"; quiet=0; else sleep 0.1; (( quiet++ )); fi
  # (The echo of the `compadd` wrapper holds `HIT:}}`; a hit starts with a word character.)
  [[ $out == *HIT:[[:alnum:]-]* && $quiet -ge 5 ]] && break
done
print -r -- "$out""#,
        fns = fns.display()
    );
    let out = std::process::Command::new("zsh")
        .arg("-f")
        .arg("-c")
        .arg(driver)
        .env_clear()
        .env("PATH", env.path())
        .env("HOME", &env.home)
        .current_dir(dir)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).replace('\r', "\n");
    let mut hits: Vec<String> = text
        .lines()
        .filter_map(|l| l.split("HIT:").nth(1))
        .map(|h| h.trim().to_string())
        .filter(|h| !h.is_empty() && !h.starts_with('}'))
        .collect();
    hits.sort();
    hits.dedup();
    hits
}

#[test]
fn zsh_completes_subcommands_and_their_arguments() {
    if !which("zsh") {
        eprintln!("skipped: zsh is not installed here");
        return;
    }
    let env = crate::common::TestEnv::new();
    let link = env.root.join("bin/git-debate");
    std::os::unix::fs::symlink(assert_cmd::cargo::cargo_bin("git-debate"), &link).unwrap();
    // A subcommand's own words, not the top level's again (clap's script read `hook` as CONTENT).
    assert_eq!(
        zsh_complete(&env, "git-debate hook "),
        ["help", "install", "run", "uninstall"]
    );
    assert_eq!(
        zsh_complete(&env, "git debate hook "),
        ["help", "install", "run", "uninstall"]
    );
    assert_eq!(
        zsh_complete(&env, "git debate hook run --fail-on "),
        ["never", "p1", "p2", "p3"]
    );
    assert!(zsh_complete(&env, "git debate sess").contains(&"sessions".to_string()));
}

/// A repository with a branch and a stored session, and `git-debate` on the test's PATH.
fn repo_with_a_branch_and_a_session() -> crate::common::TestEnv {
    let env = crate::common::TestEnv::with_repo();
    env.git(&["branch", "feature-cache"]);
    std::fs::create_dir_all(
        env.repo
            .join(".git/review-loop/debate-20261127-010203-abcd"),
    )
    .unwrap();
    let link = env.root.join("bin/git-debate");
    std::os::unix::fs::symlink(assert_cmd::cargo::cargo_bin("git-debate"), &link).unwrap();
    env
}

#[test]
fn zsh_completes_scopes_with_revisions_backends_and_sessions() {
    if !which("zsh") {
        eprintln!("skipped: zsh is not installed here");
        return;
    }
    let env = repo_with_a_branch_and_a_session();
    let words = |line: &str| zsh_complete_in(&env, &env.repo, line);
    let forms = words("git-debate --scope ");
    assert!(
        forms.contains(&"uncommitted".to_string()) && forms.contains(&"commit:".to_string()),
        "{forms:?}"
    );
    assert!(words("git-debate --scope base:feat").contains(&"feature-cache".to_string()));
    assert!(words("git-debate --scope range:HEAD..feat").contains(&"feature-cache".to_string()));
    completes_backends_and_sessions(&words);
}

/// Backend names after `--reviewer` and the stored session (and `last`) after `show`, in
/// [`repo_with_a_branch_and_a_session`], as the shell under test completes them.
fn completes_backends_and_sessions(words: &dyn Fn(&str) -> Vec<String>) {
    let backends = words("git-debate --reviewer co");
    assert!(
        backends.contains(&"codex".to_string()) && backends.contains(&"copilot".to_string()),
        "{backends:?}"
    );
    let ids = words("git-debate show ");
    assert!(
        ids.contains(&"last".to_string())
            && ids.contains(&"debate-20261127-010203-abcd".to_string()),
        "{ids:?}"
    );
}

/// What fish completes for `line` (`complete -C`), with our script loaded.
fn fish_complete(env: &crate::common::TestEnv, line: &str) -> Vec<String> {
    let script = env.root.join("git-debate.fish");
    let run = env.run_in(&env.root, &["completions", "fish"]).ok();
    std::fs::write(&script, run.stdout).unwrap();
    let out = std::process::Command::new("fish")
        .arg("--no-config")
        .arg("-c")
        .arg(format!("source {}; complete -C '{line}'", script.display()))
        .env_clear()
        .env("PATH", env.path())
        .env("HOME", &env.home)
        .current_dir(&env.repo)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.split('\t').next().unwrap_or("").to_string())
        .collect()
}

#[test]
fn fish_completes_scopes_with_revisions_backends_and_sessions() {
    if !which("fish") {
        eprintln!("skipped: fish is not installed here");
        return;
    }
    let env = repo_with_a_branch_and_a_session();
    let words = |line: &str| fish_complete(&env, line);
    assert!(words("git-debate --scope com").contains(&"commit:".to_string()));
    assert_eq!(
        words("git-debate --scope base:feat"),
        ["base:feature-cache"]
    );
    assert_eq!(
        words("git-debate --scope range:HEAD..feat"),
        ["range:HEAD..feature-cache"]
    );
    completes_backends_and_sessions(&words);
}
