//! opencode adapter (in progress).

use super::agent::{AgentSpec, CallOptions};
use super::{Captured, Failure, Family, Reply};

pub static SPEC: AgentSpec = AgentSpec {
    name: "opencode",
    family: |_| Family::unknown(),
    install: "",
    login: "",
    args,
    env_defaults: &[],
    env_remove: &[],
    launched_by: &[],
    parse,
};

fn args(_o: &CallOptions) -> Vec<String> {
    Vec::new()
}

fn parse(c: &Captured) -> Result<Reply, Failure> {
    Err(Failure::parse("unimplemented", c.code))
}
