//! What a person at a terminal sees: hostile text made safe to print, the progress line, prompts.

pub mod ask;
pub mod completion;
pub mod progress;
pub mod terminal;
