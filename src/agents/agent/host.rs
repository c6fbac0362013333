//! What every process backend needs from the machine it runs on: finding a program on PATH,
//! asking it for its version, and the variables no child of ours may inherit.
//!
//! It lives under the shared agent layer so that the registry (which builds backends), the agent
//! adapter and `exec:` all use one copy, and no adapter has to borrow from another.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::pattern::Pattern;
use crate::sys::runner::{Call, Ending, Invocation};

/// What Claude Code sets in the shells it starts (seen in its 2.1.197 binary). `CLAUDECODE` makes
/// a nested `claude` refuse to run; the others would tie our call to the outer session. Removed
/// from every child we start: a `claude` reached through `exec:` or a version probe would refuse
/// to run too.
pub const CLAUDE_SESSION: &[&str] = &[
    "CLAUDECODE",
    "CLAUDE_CODE_ENTRYPOINT",
    "CLAUDE_CODE_SESSION_ID",
    "CLAUDE_CODE_CHILD_SESSION",
    "CLAUDE_CODE_SSE_PORT",
    "CLAUDE_EFFORT",
    "CLAUDE_PROJECT_DIR",
    "AI_AGENT",
];

/// The variables removed from the environment of a child that is not one of the known CLIs.
pub fn clean_env() -> Vec<String> {
    CLAUDE_SESSION.iter().map(|s| s.to_string()).collect()
}

/// `name` as a path if it has a `/`, else the first executable file of that name on PATH.
pub fn which(name: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt as _;
    let executable = |p: &Path| {
        p.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if name.contains('/') {
        let p = PathBuf::from(name);
        return executable(&p).then_some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| executable(p))
}

/// `program --version`, first version-looking token of its output (bounded by a short timeout:
/// some CLIs unpack themselves on first run), asked once per installed binary.
pub fn version(program: &Path) -> Option<String> {
    crate::agents::agent::versions::cached(program, probe)
}

fn probe(program: &Path) -> Option<String> {
    let finished = Call::spawn(&Invocation {
        program: program.to_path_buf(),
        args: vec!["--version".into()],
        env: Vec::new(),
        env_remove: clean_env(),
        cwd: None,
        stdin: Vec::new(),
        timeout: Duration::from_secs(20),
        idle_timeout: Duration::from_secs(20),
        watch: None,
        heartbeat: None,
    })
    .and_then(Call::wait)
    .ok()?;
    if !matches!(finished.ending, Ending::Exited(s) if s.success()) {
        return None;
    }
    let text = String::from_utf8_lossy(&finished.stdout);
    static VERSION: Pattern = Pattern::new(r"\d+\.\d+(?:\.\d+)?(?:[-+][0-9A-Za-z.]+)?");
    VERSION
        .find(&text)
        .map(|m| m.as_str().trim_end_matches('.').to_string())
}
