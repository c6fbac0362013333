#!/usr/bin/env bash
# What a one-file review costs in a big repository, before any model does real work: the
# reviewer's sandbox export (cold, then with its cache warm), with and without reviewer tools.
#
#   scripts/cost-bench.sh [RUNS] [GIT_DEBATE_BINARY...]
#
# The repository: a local clone of git/git when `GIT_BENCH_REPO` (or /work/.mirror/git+git/repo)
# names one, else a synthetic one of 5,000 files (50 folders of 100 C-like files). One tracked
# file gets a one-line edit, staged (the pre-commit hook's scope). The models are the instant
# fakes of scripts/bench/instant-fake.rs, so what is measured is git-debate itself: wall time and
# its own CPU (the process tree less the fakes', see scripts/bench/cpu.py), medians of RUNS
# (default 5). Each GIT_DEBATE_BINARY (default target/release/git-debate) gets its rows, so a
# build from before a change stands beside the current one.
#
# Scenarios (each `--scope staged --max-rounds 2`):
#   p3, cold     the reviewer raises a P3, the author judges it: both calls can read files, so
#                the export is made; its cache emptied before each run.
#   p3, warm     the same with the cache of the run before (the hook's next commit).
#   approve, tools none   a clean change with `--reviewer-tools none`: no call can read files.
set -euo pipefail

runs=${1:-5}
shift $(($# < 1 ? $# : 1))
here=$(cd "$(dirname "$0")" && pwd)
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=("$here/../target/release/git-debate")
for i in "${!bins[@]}"; do bins[$i]=$(realpath "${bins[$i]}"); done

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/home" "$work/fake" "$work/tmp"
rustc -O --edition 2021 -o "$work/bin/instant-fake" "$here/bench/instant-fake.rs"
ln -s instant-fake "$work/bin/codex"
ln -s instant-fake "$work/bin/claude"

src=${GIT_BENCH_REPO:-/work/.mirror/git+git/repo}
if git --git-dir="$src" rev-parse -q --verify HEAD >/dev/null 2>&1; then
  git clone -q --shared "$src" "$work/repo"
  what="a clone of $(basename "$(dirname "$src")")"
else
  git init -q "$work/repo"
  for d in $(seq 50); do
    mkdir -p "$work/repo/mod$d"
    for f in $(seq 100); do
      printf '/* mod %d file %d */\nint f%d_%d(int a) {\n\treturn a + %d;\n}\n' "$d" "$f" "$d" "$f" "$f" \
        > "$work/repo/mod$d/f$f.c"
    done
  done
  git -C "$work/repo" add -A
  git -C "$work/repo" -c user.name=b -c user.email=b@b commit -qm init
  what="a synthetic repository"
fi
files=$(git -C "$work/repo" ls-files | wc -l)
edit=$(git -C "$work/repo" ls-files '*.c' | sed -n 1p) # sed reads it all: after head, git can die of SIGPIPE and pipefail end the script
echo "// one more line" >> "$work/repo/$edit"
git -C "$work/repo" add "$edit"

run() {
  local mode=$1 bin=$2
  shift 2
  (cd "$work/repo" && env -i PATH="$work/bin:/usr/bin:/bin" HOME="$work/home" LANG=C.UTF-8 \
    TMPDIR="$work/tmp" INSTANT_FAKE_DIR="$work/fake" INSTANT_FAKE_MODE="$mode" \
    GIT_DEBATE_LAUNCHER=claude \
    python3 "$here/bench/cpu.py" "$work/fake/calls.tsv" -- "$bin" --scope staged --max-rounds 2 "$@" \
    </dev/null 2>/dev/null)
}

# median COLD MODE BIN ARGS...: "wall_ms cpu_ms own_ms rss_mib calls" over $runs runs; COLD=1
# empties the export cache before each run.
median() {
  local cold=$1 mode=$2 bin=$3
  shift 3
  local out=()
  run "$mode" "$bin" "$@" >/dev/null # the first run of a build warms the OS's caches
  for _ in $(seq "$runs"); do
    [ "$cold" = 1 ] && rm -rf "$work"/tmp/git-debate-cache-*
    rm -f "$work/fake/calls.tsv"
    out+=("$(run "$mode" "$bin" "$@" | tail -1)")
  done
  printf '%s\n' "${out[@]}" | python3 "$here/bench/median.py"
}

row() { printf '| %-44s | %s |\n' "$1" "$(echo "$2" | awk '{printf "%8s | %8s | %8s | %6s | %s", $1, $2, $3, $4, $5}')"; }

echo "$what, $files tracked files, one staged one-line edit; machine: $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $runs runs each, medians"
echo
echo "| run | wall ms | CPU ms (tree) | own CPU ms | peak MiB | fake calls |"
echo "|---|---:|---:|---:|---:|---:|"
for b in "${bins[@]}"; do
  row "$b: p3, cache cold" "$(median 1 p3 "$b")"
  row "$b: p3, cache warm" "$(median 0 p3 "$b")"
  row "$b: approve, --reviewer-tools none" "$(median 1 approve "$b" --reviewer-tools none)"
done
