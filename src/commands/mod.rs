//! One file per subcommand; `review` is the default command.

pub mod ask;
pub mod backends;
pub mod completions;
pub mod confirm;
pub mod content;
pub mod hook;
pub mod install_man;
pub mod last_message;
pub mod panel;
pub mod resume;
pub mod review;
mod review_record;
mod review_since;
pub mod schema;
pub mod sessions;
pub mod show;
pub mod topic;
