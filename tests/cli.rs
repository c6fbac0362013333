//! The one integration-test binary: end-to-end runs of the built `git-debate` in temp repositories.
#![allow(clippy::print_stdout, clippy::print_stderr)] // measurements and skips are said on the test output
#![allow(clippy::too_many_lines)] // an end-to-end scenario reads best as one story

mod common;

mod acp;
mod answers;
mod apply;
mod artifact;
mod backends;
mod chunks;
mod ci;
mod config;
mod conventions;
mod duel;
mod edge_cases;
mod first_steps;
mod hook;
mod hostile;
mod incremental;
mod index;
mod install;
mod instructions;
mod integrations;
mod interrupt;
mod judge_answers;
mod labels;
mod last_message;
mod layout;
mod like_git;
mod long_calls;
mod manual;
mod odd_answers;
mod ownership;
mod panel;
mod panel_failures;
mod panel_lineup;
mod panel_seeds;
mod post;
mod processes;
mod prune;
mod reading;
mod real_acp;
mod real_clis;
mod renames;
mod repositories;
mod review;
mod reviewers;
mod revisions;
mod sandbox;
mod scopes;
mod secrets;
mod secrets_recall;
mod session;
mod sessions_v1;
mod store;
mod terminal;
mod topic;
mod topic_ground;
mod topic_seeds;
mod waivers;

/// Every test module file must be listed above, or its tests silently never run.
#[test]
fn every_test_file_is_a_module() {
    let listed = include_str!("cli.rs");
    for entry in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/tests")).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if let Some(stem) = name.strip_suffix(".rs") {
            if stem != "cli" {
                assert!(
                    listed.contains(&format!("mod {stem};")),
                    "tests/{name} is not a module of tests/cli.rs"
                );
            }
        }
    }
}
