#!/usr/bin/env bash
# Time and memory of the commands that read the session store, with many sessions.
#
#   scripts/sessions-bench.sh [SESSIONS] [METADATA_KB]
#
# Builds a repository whose store holds SESSIONS (default 10000) finished sessions, each with a
# metadata.json of about METADATA_KB (default 50) KiB, then runs each command 5 times and prints
# the median wall time and the peak memory (GNU time's maximum resident set size). The first
# `sessions` builds the index from the folders (once per store, or after it is lost); it is timed
# on its own. The last row removes all but 1,000 sessions, once.
set -euo pipefail
N=${1:-10000}
KB=${2:-50}
HERE=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BIN:-$(ls "$HERE"/target/release/git-debate "$HERE"/target/debug/git-debate 2>/dev/null | head -1)}
WORK=$(mktemp -d /tmp/sessions-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
git init -q "$WORK/repo"
python3 - "$WORK/repo/.git/review-loop" "$N" "$KB" <<'PY'
import json, os, sys
base, n, kb = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
files = [{"path": f"src/file_{i}.rs", "status": "modified", "additions": 3, "deletions": 1}
         for i in range(kb * 1024 // 80)]
for i in range(n):
    sid = f"debate-20260101-{i // 3600 % 24:02d}{i // 60 % 60:02d}{i % 60:02d}-{i % 1000:03d}-{i:07d}"
    d = os.path.join(base, sid)
    os.makedirs(d)
    meta = {"id": sid, "created_at": "2026-01-01T00:00:00Z", "target": "code", "status": "completed",
            "converged": True, "final_decision": "Accept",
            "scope": {"given": "staged", "effective": "staged"}, "files": files}
    with open(os.path.join(d, "metadata.json"), "w") as f:
        json.dump(meta, f)
    open(os.path.join(d, "artifact.md"), "w").write("# artifact\n")
PY
cd "$WORK/repo"
# measure LABEL RUNS COMMAND...: the median wall time and the last run's peak memory.
measure() {
  local label=$1 runs=$2 times=() mem
  shift 2
  for _ in $(seq "$runs"); do
    local t0 t1
    t0=$(date +%s%N)
    /usr/bin/time -f '%M' -o "$WORK/mem" "$@" > /dev/null 2>&1 || true
    mem=$(tail -1 "$WORK/mem")
    t1=$(date +%s%N)
    times+=($(( (t1 - t0) / 1000000 )))
  done
  local median
  median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n "$(( (runs + 1) / 2 ))p")
  printf '| %s | %s | %s |\n' "$label" "$median" "$(( mem / 1024 ))"
}
echo "$N sessions of ~$KB KiB metadata, $(nproc) CPUs"
echo "| command | median (ms) | peak memory (MiB) |"
echo "|---|---:|---:|"
measure '`git debate sessions` (first: builds the index)' 1 "$BIN" sessions
measure '`git debate sessions`' 5 "$BIN" sessions
measure '`git debate sessions --format json`' 5 "$BIN" sessions --format json
measure '`git debate show last`' 5 "$BIN" show last
measure '`git debate show debate-20260101-000000-000-0000000`' 5 "$BIN" show debate-20260101-000000-000-0000000
measure '`git debate resume last` (finished: refused)' 5 "$BIN" resume last
measure '`git debate sessions --prune --dry-run` (within the limits)' 5 \
  env GIT_DEBATE_KEEP_SESSIONS=0 GIT_DEBATE_KEEP_DAYS=0 "$BIN" sessions --prune --dry-run
measure '`git debate sessions --prune --dry-run` (all past keepDays)' 5 "$BIN" sessions --prune --dry-run
measure '`git debate sessions --prune --keep 1000` (once)' 1 "$BIN" sessions --prune --keep 1000
measure '`git debate sessions` (after the prune)' 5 "$BIN" sessions
