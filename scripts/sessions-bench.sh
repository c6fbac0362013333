#!/usr/bin/env bash
# Time and memory of `git debate show last`, `show <prefix>` and `sessions` with many sessions.
#
#   scripts/sessions-bench.sh [SESSIONS] [METADATA_KB]
#
# Builds a repository whose store holds SESSIONS (default 10000) sessions, each with a
# metadata.json of about METADATA_KB (default 50) KiB, then runs each command 5 times and prints
# the median wall time and the peak memory (GNU time's maximum resident set size).
set -euo pipefail
N=${1:-10000}
KB=${2:-50}
HERE=$(cd "$(dirname "$0")/.." && pwd)
BIN=$(command -v git-debate || ls "$HERE"/target/release/git-debate "$HERE"/target/debug/git-debate 2>/dev/null | head -1)
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
            "scope": {"given": "staged", "effective": "staged"}, "files": files}
    with open(os.path.join(d, "metadata.json"), "w") as f:
        json.dump(meta, f)
    open(os.path.join(d, "artifact.md"), "w").write("# artifact\n")
PY
cd "$WORK/repo"
measure() {
  local times=() mem
  for _ in 1 2 3 4 5; do
    local t0 t1
    t0=$(date +%s%N)
    /usr/bin/time -f '%M' -o "$WORK/mem" "$BIN" "$@" > /dev/null 2>&1 || true
    mem=$(tail -1 "$WORK/mem")
    t1=$(date +%s%N)
    times+=($(( (t1 - t0) / 1000000 )))
  done
  local median
  median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 3p)
  printf '| `git debate %s` | %s | %s |\n' "$*" "$median" "$(( mem / 1024 ))"
}
echo "$N sessions of ~$KB KiB metadata, $(nproc) CPUs"
echo "| command | median (ms) | peak memory (MiB) |"
echo "|---|---:|---:|"
measure show last
measure show debate-20260101-000000-000-0000000
measure sessions
