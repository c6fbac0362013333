//! One file per subcommand; `review` is the default command. Each turns its arguments into
//! settings, makes one call into an engine, and prints what comes back; none uses another.

pub mod apply;
pub mod ask;
pub mod backends;
pub mod completions;
pub mod hook;
pub mod install_man;
pub mod post;
pub mod resume;
pub mod review;
pub mod schema;
pub mod sessions;
pub mod show;
pub mod topic;
pub mod waive;
pub mod waivers;
