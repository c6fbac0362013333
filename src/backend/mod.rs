//! Model backends: the agent CLIs and programs that answer a prompt.
//!
//! This first piece is the process runner they all share; the adapters, routing and error
//! classification build on it.

pub mod runner;
