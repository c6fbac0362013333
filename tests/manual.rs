//! The man page is generated from the clap definitions and checked in; completions work for git.

use clap::CommandFactory;

const MAN: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/man/git-debate.1");

fn render() -> String {
    let mut out = Vec::new();
    clap_mangen::Man::new(git_debate::cli::Cli::command())
        .title("git-debate")
        .render(&mut out)
        .unwrap();
    String::from_utf8(out).unwrap()
}

/// `UPDATE_MAN=1 cargo test man_page` rewrites the page after a change to `src/cli.rs`.
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
    for key in git_debate::config::keys::KEYS {
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
