//! The operating system behind one door: child processes and their pipes, reaping, signals,
//! capped reads and whole-file writes, file locks, scratch directories and the thread
//! scheduler. The only folder where `unsafe` may live, and it imports nothing above layer 0.

pub mod child;
pub mod file_io;
pub mod lock;
pub mod pipes;
pub mod reap;
pub mod runner;
pub mod schedule;
pub mod scratch;
pub mod signals;
