#!/usr/bin/env bash
# The pre-commit hook's fast paths: `git debate hook run` with nothing staged and with only
# whitespace staged, in a fresh repository, 20 runs each, release build. Prints min/median/max ms.
# Usage: benches/run-hook-bench.sh   (from the repository root)
set -euo pipefail
cargo build --release --quiet
bin="$PWD/target/release/git-debate"
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
export HOME="$dir" GIT_CONFIG_NOSYSTEM=1 GIT_DEBATE_LAUNCHER=none PATH="/usr/bin:/bin"
cd "$dir"
git init -q -b main repo && cd repo
printf 'fn main() {}\n' > main.rs
git add . && git -c user.name=b -c user.email=b@b commit -qm init
measure() {
  local label="$1" times=()
  for _ in $(seq 20); do
    local start end
    start=$(date +%s%N)
    "$bin" hook run >/dev/null 2>&1
    end=$(date +%s%N)
    times+=($(( (end - start) / 1000 )))
  done
  IFS=$'\n' sorted=($(sort -n <<<"${times[*]}")); unset IFS
  printf '| %s | %.1f | %.1f | %.1f |\n' "$label" \
    "$(bc -l <<<"${sorted[0]}/1000")" "$(bc -l <<<"${sorted[10]}/1000")" "$(bc -l <<<"${sorted[19]}/1000")"
}
echo "| hook run | min (ms) | median (ms) | max (ms) |"
echo "|---|---:|---:|---:|"
measure "nothing staged"
printf 'fn main() {}   \n' > main.rs && git add main.rs
measure "only whitespace staged"
