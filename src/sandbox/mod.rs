//! What a reviewer may touch: the export of the reviewed revision it runs in, the paths its own
//! permission rules refuse, and the check that it left the repository as it found it.

pub mod cache;
pub mod confine;
pub mod export;
pub mod kept;
pub mod readonly;
