//! The states a checklist, a rubric or a gate table gives each of its rows (`✅`, `❌ FAIL`,
//! `➖ N/A`, `🟢`, `NO-GO`): which rows the reviewer passed, which it failed, which it left
//! out. A failed row is a finding; a passed or skipped one is what was checked.

/// How a checklist row or a status cell stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// Checked and fine.
    Passed,
    /// Not applicable, skipped or still pending: neither fine nor a problem.
    Skipped,
    /// Checked and not met: a problem, whatever its level.
    Failed,
}

/// Marks that open a row or a status cell, and what they say. (A coloured circle in a status
/// cell is a traffic light: green passed, white not yet evaluated; amber and red are read as
/// levels, the vocabulary's P2 and P0.)
pub const CHECK_MARKS: &[(&str, Check)] = &[
    ("✅", Check::Passed),
    ("✔", Check::Passed),
    ("☑", Check::Passed),
    ("✓", Check::Passed),
    ("🟢", Check::Passed),
    ("➖", Check::Skipped),
    ("⏭", Check::Skipped),
    ("⚪", Check::Skipped),
    ("⬜", Check::Skipped),
    ("❌", Check::Failed),
    ("✗", Check::Failed),
    ("✘", Check::Failed),
    ("✖", Check::Failed),
    ("⛔", Check::Failed),
    ("🛑", Check::Failed),
    ("🚫", Check::Failed),
];

/// Words a status cell opens with, normalised, and what they say (`FAIL`, `NO-GO`, `N/A`,
/// `Not compliant`, `pending`).
pub const CHECK_WORDS: &[(&str, Check)] = &[
    ("fail", Check::Failed),
    ("failed", Check::Failed),
    ("failing", Check::Failed),
    ("no-go", Check::Failed),
    ("no go", Check::Failed),
    ("nogo", Check::Failed),
    ("not compliant", Check::Failed),
    ("non-compliant", Check::Failed),
    ("noncompliant", Check::Failed),
    ("not met", Check::Failed),
    ("unmet", Check::Failed),
    ("missing", Check::Failed),
    ("partially compliant", Check::Failed),
    ("partial compliant", Check::Failed),
    ("partial", Check::Failed),
    ("n/a", Check::Skipped),
    ("na", Check::Skipped),
    ("not applicable", Check::Skipped),
    ("pending", Check::Skipped),
    ("requires further human verification", Check::Skipped),
    ("requires verification", Check::Skipped),
    ("needs human verification", Check::Skipped),
    ("skipped", Check::Skipped),
    ("go", Check::Passed),
    ("pass", Check::Passed),
    ("passed", Check::Passed),
    ("ok", Check::Passed),
    ("compliant", Check::Passed),
    ("fully compliant", Check::Passed),
    ("met", Check::Passed),
];

/// Labels that open a legend, the line saying what an answer's marks mean (`Legend: 🟢 ok ·
/// 🔴 blocking`): the legend is no finding, whatever levels it names.
pub const LEGEND_LABELS: &[&str] = &[
    "legend",
    "key",
    "legende",
    "leyenda",
    "légende",
    "legenda",
    "легенда",
    "обозначения",
    "凡例",
    "图例",
    "圖例",
    "범례",
];
