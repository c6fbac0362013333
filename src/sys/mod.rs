//! The operating system behind one door: child processes and their pipes, reaping, signals,
//! capped reads, scratch directories and the thread scheduler. The only folder where `unsafe` may live.

pub mod files;
pub mod pipes;
pub mod reap;
pub mod runner;
pub mod schedule;
pub mod scratch;
pub mod signals;
