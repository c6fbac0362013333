//! The `git-debate` binary: parse the command line, run it, turn the outcome into an exit code.

#![deny(unsafe_code)]

fn main() -> std::process::ExitCode {
    // Before anything can change them: the signal dispositions we were started with.
    git_debate::install_signal_handlers();
    // Started by ourselves to outlive us for a moment (see `sys::reap`), not by a user.
    if let Some(code) = git_debate::guardian_main() {
        return code;
    }
    let cli = git_debate::parse_args();
    match git_debate::run(cli) {
        Ok(outcome) => outcome.exit_code(),
        Err(err) => git_debate::report_error(&err),
    }
}
