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
# measure LABEL RUNS COMMAND...: the median wall time, the median CPU time (user + system: on a
# busy machine the wall time waits for other processes, the CPU time does not) and the peak
# memory of the runs. The memory is GNU time's maximum resident set size: a child of this Python
# would count the Python it was forked from.
measure() {
  python3 - "$WORK/mem" "$@" <<'PY'
import os, statistics, sys, time
mem, label, runs, cmd = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
walls, cpus, rss = [], [], 0
for _ in range(runs):
    t0 = time.monotonic()
    pid = os.fork()
    if pid == 0:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        os.execvp("/usr/bin/time", ["/usr/bin/time", "-f", "%M", "-o", mem, *cmd])
    _, _, ru = os.wait4(pid, 0)
    walls.append((time.monotonic() - t0) * 1000)
    cpus.append((ru.ru_utime + ru.ru_stime) * 1000)
    rss = max(rss, int(open(mem).read().split()[-1]))
print(f"| {label} | {statistics.median(walls):.0f} | {statistics.median(cpus):.0f} | {rss // 1024} |")
PY
}
echo "$N sessions of ~$KB KiB metadata, $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| command | median wall (ms) | median CPU (ms) | peak memory (MiB) |"
echo "|---|---:|---:|---:|"
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
