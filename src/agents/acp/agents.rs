//! Which agents speak ACP, and how each is started in that mode (checked against the real
//! packages: see `tests/fixtures/acp/README.md`).
//!
//! Four CLIs have the server built in (gemini, qwen, opencode, copilot); claude and codex need an
//! adapter package that drives them; kiro has no other mode. The CLI agents keep their family,
//! environment and login hint from their CLI spec ([`AgentSpec`]): the same program, the same
//! account.

use crate::agents::agent::AgentSpec;
use crate::agents::Family;

/// One agent's ACP mode.
pub struct AcpAgent {
    /// The backend name.
    pub name: &'static str,
    /// The program started (on PATH unless `debate.<name>.command` says otherwise).
    pub program: &'static str,
    pub args: &'static [&'static str],
    /// How to get the program, for the not-installed hint.
    pub install: &'static str,
    /// The CLI spec of the same agent, for family, environment and login hint.
    pub cli: Option<&'static AgentSpec>,
    /// It reports retries and errors as message chunks (`Info: `, `Error: `) and still ends the
    /// turn normally (copilot 1.0.102, recorded in `tests/fixtures/acp/copilot-401.jsonl`).
    pub status_chunks: bool,
}

/// kiro's family: it serves Anthropic's models.
pub const KIRO_FAMILY: &str = "anthropic";

pub static ACP_AGENTS: [AcpAgent; 7] = [
    AcpAgent {
        name: "claude",
        program: "claude-agent-acp",
        args: &[],
        install: "npm install -g @agentclientprotocol/claude-agent-acp (formerly \
                  @zed-industries/claude-code-acp)",
        cli: Some(&crate::agents::claude::SPEC),
        status_chunks: false,
    },
    AcpAgent {
        name: "codex",
        program: "codex-acp",
        args: &[],
        install: "npm install -g @zed-industries/codex-acp",
        cli: Some(&crate::agents::codex::SPEC),
        status_chunks: false,
    },
    AcpAgent {
        name: "gemini",
        program: "gemini",
        // `--experimental-acp` before 0.3x; 0.61 calls it deprecated.
        args: &["--acp"],
        install: "npm install -g @google/gemini-cli",
        cli: Some(&crate::agents::gemini::SPEC),
        status_chunks: false,
    },
    AcpAgent {
        name: "qwen",
        program: "qwen",
        args: &["--acp"],
        install: "npm install -g @qwen-code/qwen-code",
        cli: Some(&crate::agents::qwen::SPEC),
        status_chunks: false,
    },
    AcpAgent {
        name: "copilot",
        program: "copilot",
        args: &["--acp", "--stdio"],
        install: "npm install -g @github/copilot",
        cli: Some(&crate::agents::copilot::SPEC),
        status_chunks: true,
    },
    AcpAgent {
        name: "opencode",
        program: "opencode",
        args: &["acp"],
        install: "npm install -g opencode-ai",
        cli: Some(&crate::agents::opencode::SPEC),
        status_chunks: false,
    },
    AcpAgent {
        name: "kiro",
        program: "kiro-cli",
        args: &["acp"],
        install: "install Kiro's CLI (https://kiro.dev/cli) so that `kiro-cli` is on PATH",
        cli: None,
        status_chunks: false,
    },
];

pub fn acp_agent(name: &str) -> Option<&'static AcpAgent> {
    ACP_AGENTS
        .iter()
        .find(|a| a.name.eq_ignore_ascii_case(name))
}

impl AcpAgent {
    pub fn family(&self, model: Option<&str>) -> Family {
        match self.cli {
            Some(spec) => (spec.family)(model),
            None => Family::new(KIRO_FAMILY),
        }
    }

    pub fn login(&self) -> &'static str {
        self.cli
            .map_or("run `kiro-cli login` once", |spec| spec.login)
    }
}
