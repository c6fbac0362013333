//! `--effort low|medium|high|max` mapped to each provider's model and reasoning setting, in one
//! table.
//!
//! A row gives the model to ask for (when the user chose none) and a reasoning setting for CLIs
//! that take one. `git config debate.<backend>.effort<Level>` (e.g. `debate.claude.effortHigh =
//! claude-opus-4-7`) replaces a row's model, so a new model generation needs no new release.

use crate::choices::Effort;

/// What one effort level means for one backend.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Setting {
    pub model: Option<&'static str>,
    pub reasoning: Option<&'static str>,
    /// Flags of the CLI's own for the level: claude's `--max-turns` (1, 3, 5, 10), opencode's
    /// `--thinking` at max.
    pub args: &'static [&'static str],
}

const fn s(model: Option<&'static str>, reasoning: Option<&'static str>) -> Setting {
    Setting {
        model,
        reasoning,
        args: &[],
    }
}

const fn with(setting: Setting, args: &'static [&'static str]) -> Setting {
    Setting { args, ..setting }
}

/// The table. copilot and qwen expose no effort control; opencode keeps its configured model and
/// takes the level as `--variant` (and `--thinking` at max); claude's turns follow the level.
pub fn setting(backend: &str, effort: Effort) -> Setting {
    use Effort::*;
    match (backend, effort) {
        ("claude", Low) => with(s(Some("claude-haiku-4-5"), None), &["--max-turns", "1"]),
        ("claude", Medium) => with(s(Some("claude-sonnet-4-6"), None), &["--max-turns", "3"]),
        ("claude", High) => with(s(Some("claude-opus-4-6"), None), &["--max-turns", "5"]),
        ("claude", Max) => with(s(Some("claude-opus-4-6"), None), &["--max-turns", "10"]),
        ("gemini", Low | Medium) => s(Some("gemini-3-flash-preview"), None),
        ("gemini", High | Max) => s(Some("gemini-3.1-pro-preview"), None),
        ("codex", Low) => s(Some("gpt-5.3-codex"), Some("low")),
        ("codex", Medium) => s(Some("gpt-5.3-codex"), Some("medium")),
        ("codex", High | Max) => s(Some("gpt-5.3-codex"), Some("high")),
        ("opencode", Low) => s(None, Some("low")),
        ("opencode", Medium) => s(None, Some("medium")),
        ("opencode", High) => s(None, Some("high")),
        ("opencode", Max) => with(s(None, Some("high")), &["--thinking"]),
        _ => s(None, None),
    }
}

/// The config variable that overrides a row's model: `effortHigh` for `debate.<backend>.effortHigh`.
pub fn config_name(effort: Effort) -> String {
    let n = effort.name();
    format!("effort{}{}", n[..1].to_ascii_uppercase(), &n[1..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_rows() {
        assert_eq!(
            setting("claude", Effort::Low).model,
            Some("claude-haiku-4-5")
        );
        assert_eq!(setting("codex", Effort::Max).reasoning, Some("high"));
        assert_eq!(
            setting("gemini", Effort::High).model,
            Some("gemini-3.1-pro-preview")
        );
        assert_eq!(setting("copilot", Effort::High), s(None, None));
        assert_eq!(config_name(Effort::Medium), "effortMedium");
        let turns = |e| setting("claude", e).args;
        assert_eq!(
            [Effort::Low, Effort::Medium, Effort::High, Effort::Max].map(turns),
            [
                &["--max-turns", "1"][..],
                &["--max-turns", "3"],
                &["--max-turns", "5"],
                &["--max-turns", "10"]
            ]
        );
        assert_eq!(setting("opencode", Effort::Max).args, ["--thinking"]);
        assert!(setting("opencode", Effort::High).args.is_empty());
    }
}
