#!/usr/bin/env bash
# Runs the scope benchmark (benches/scope.rs) and prints the machine it ran on, so a table pasted
# into the README's performance section says where its numbers come from.
#
#   benches/run-scope-bench.sh              # 5 iterations per operation
#   BENCH_ITERS=10 benches/run-scope-bench.sh
#
# `cargo bench` builds target/release/git-debate itself (the bench finds it through cargo's
# CARGO_BIN_EXE_git-debate); the explicit build below only keeps compile output out of the timing
# run.
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release --bins --benches --quiet

cpu=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | cut -d: -f2- | sed 's/^ *//' || true)
echo "machine: ${cpu:-unknown CPU}, $(nproc) CPUs, $(uname -sr)"
echo "tools:   $(rustc --version), $(git --version)"
echo
cargo bench --quiet --bench scope
