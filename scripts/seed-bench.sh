#!/usr/bin/env bash
# The review loop next to the seed script, both driven by the same instant fake CLIs.
#
#   scripts/seed-bench.sh SEED_DEBATE_PY [RUNS] [GIT_DEBATE_BINARY...]
#
# SEED_DEBATE_PY is `skills/debate/scripts/debate.py` of github.com/fancive/claude-skills (bring
# your own copy; it is not part of this repository). Each GIT_DEBATE_BINARY (default:
# target/release/git-debate) gets its own column, so a build from before a change can stand
# beside the current one.
#
# Scenarios, in a fresh repository with one uncommitted edit of a 3-line file:
#   p3       the reviewer (codex) raises the same P3 every call: the seed decides D in round 1
#            and stops after round 2 (no P1/P2 twice); git-debate's judge rules it valid and the
#            rubric keeps the original after round 1.
#   rounds   the reviewer raises a new P2 every call, so neither converges: --max-rounds 2 and 5,
#            and the cost of one more round is (5 - 2) / 3.
# For each: the median of RUNS (default 9) of wall time, CPU time of the whole process tree less
# what the fakes used themselves ("own", see scripts/bench/cpu.py), and peak memory. CPU time does
# not depend on the machine's load; wall time does. The last block is the reviewer's prompt in
# round 5 over round 2 (`rounds`, 5 rounds).
set -euo pipefail

seed=${1:?usage: seed-bench.sh SEED_DEBATE_PY [RUNS] [GIT_DEBATE_BINARY...]}
seed=$(realpath "$seed")
runs=${2:-9}
shift $(($# < 2 ? $# : 2))
here=$(cd "$(dirname "$0")" && pwd)
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=("$here/../target/release/git-debate")
for i in "${!bins[@]}"; do bins[$i]=$(realpath "${bins[$i]}"); done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/home" "$work/fake"
rustc -O --edition 2021 -o "$work/bin/instant-fake" "$here/bench/instant-fake.rs"
ln -s instant-fake "$work/bin/codex"
ln -s instant-fake "$work/bin/claude"
# The seed finds its CLIs with `bash -lc 'command -v codex'`: a login shell resets PATH.
echo "export PATH=$work/bin:\$PATH" > "$work/home/.bash_profile"

fresh_repo() {
  rm -rf "$work/repo"
  mkdir "$work/repo"
  git -C "$work/repo" init -q
  printf 'fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n' > "$work/repo/lib.rs"
  git -C "$work/repo" add lib.rs
  git -C "$work/repo" -c user.name=b -c user.email=b@b commit -qm init
  printf 'fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n' > "$work/repo/lib.rs"
}

# run MODE -- COMMAND...: one measured run (JSON) in the repository.
run() {
  local mode=$1
  shift 2
  (cd "$work/repo" && env -i PATH="$work/bin:/usr/bin:/bin" HOME="$work/home" LANG=C.UTF-8 \
    INSTANT_FAKE_DIR="$work/fake" INSTANT_FAKE_MODE="$mode" GIT_DEBATE_LAUNCHER=claude \
    python3 "$here/bench/cpu.py" "$work/fake/calls.tsv" -- "$@" </dev/null 2>/dev/null)
}

# median MODE -- COMMAND...: "wall_ms cpu_ms own_ms rss_mib calls" over $runs fresh runs.
median() {
  local out=()
  for _ in $(seq "$runs"); do
    fresh_repo
    rm -f "$work/fake/calls.tsv"
    out+=("$(run "$@" | tail -1)")
  done
  printf '%s\n' "${out[@]}" | python3 "$here/bench/median.py"
}

row() { printf '| %-38s | %s |\n' "$1" "$(echo "$2" | awk '{printf "%8s | %8s | %8s | %6s | %s", $1, $2, $3, $4, $5}')"; }

echo "machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $runs runs each, medians"
echo
echo "| run | wall ms | CPU ms (tree) | own CPU ms | peak MiB | fake calls |"
echo "|---|---:|---:|---:|---:|---:|"
seed_p3=$(median p3 -- python3 "$seed")
row "seed, p3" "$seed_p3"
seed2=$(median new-p2 -- python3 "$seed" --max-rounds 2)
seed5=$(median new-p2 -- python3 "$seed" --max-rounds 5)
row "seed, rounds 2" "$seed2"
row "seed, rounds 5" "$seed5"
for b in "${bins[@]}"; do
  name=$(basename "$(dirname "$(dirname "$b")")")/$(basename "$b")
  gd_p3=$(median p3 -- "$b")
  gd2=$(median new-p2 -- "$b" --max-rounds 2)
  gd5=$(median new-p2 -- "$b" --max-rounds 5)
  row "$b, p3" "$gd_p3"
  row "$b, rounds 2" "$gd2"
  row "$b, rounds 5" "$gd5"
  python3 - "$seed_p3" "$gd_p3" "$seed2" "$seed5" "$gd2" "$gd5" <<'PY'
import sys
f = lambda s: [float(x) for x in s.split()[:4]]
sp, gp, s2, s5, g2, g5 = map(f, sys.argv[1:])
print(f"  p3: own CPU {gp[2]:.1f} ms = {gp[2]/sp[2]:.2f}x the seed's {sp[2]:.1f} ms; wall {gp[0]/sp[0]:.2f}x; peak memory {gp[3]/sp[3]:.2f}x")
print(f"  one more round: own CPU {(g5[2]-g2[2])/3:.1f} ms (seed {(s5[2]-s2[2])/3:.1f} ms), wall {(g5[0]-g2[0])/3:.1f} ms (seed {(s5[0]-s2[0])/3:.1f} ms)")
PY
  # The reviewer's prompt, round 5 over round 2.
  fresh_repo
  rm -f "$work/fake/calls.tsv"
  run new-p2 -- "$b" --max-rounds 5 >/dev/null
  awk -F'\t' '$1 == "codex" { n++; len[n] = $3 } END { printf "  reviewer prompt: round 2 %d chars, round 5 %d chars: %.2fx\n", len[2], len[5], len[5] / len[2] }' "$work/fake/calls.tsv"
done
