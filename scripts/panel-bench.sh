#!/usr/bin/env bash
# Wall time of a chaired panel with slow backends, one call at a time against the calls seed 002
# lets run at once (the verification and the reporter's notes beside the next speaker; the
# audience's questions beside the chair preparing the next round).
#
#   scripts/panel-bench.sh [DELAY_MS] [RUNS]
#
# A 3-debater, 3-round panel (min 1, max 3: the chair is asked after rounds 1 and 2) (claude, codex, gemini; the chair on qwen; the audience, reporter
# and assessor on codex) where every model call takes DELAY_MS (default 2000) milliseconds: the
# fake agent (`cargo build --features test-fakes --bin fake-agent`) stands in for every CLI.
# Prints the median wall time of RUNS (default 3) runs with debate.concurrency 1 and 3.
set -euo pipefail
DELAY=${1:-2000}
RUNS=${2:-3}
HERE=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BIN:-$HERE/target/debug/git-debate}
FAKE=${FAKE:-$HERE/target/debug/fake-agent}
[ -x "$BIN" ] && [ -x "$FAKE" ] || { echo "build first: cargo build --features test-fakes" >&2; exit 2; }
WORK=$(mktemp -d /tmp/panel-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/bin" "$WORK/home"
for cli in claude codex gemini qwen; do ln -s "$FAKE" "$WORK/bin/$cli"; done
python3 - "$WORK/fake.json" "$DELAY" <<'PY'
import json, sys
path, delay = sys.argv[1], int(sys.argv[2])
block = lambda v: "```json\n" + json.dumps(v) + "\n```"
cases = [
    ("Propose for each", block([{"name": n, "persona": "p", "position": "q", "incentives": "r"}
                                for n in ("alice", "bob", "carol")])),
    ("Prepare the next round", block({"continue": True})),
    ("Phase 4 — Conclusion.", block({"outcome": "draw", "reason": "balanced"})),
    ("Any questions for the debaters?", "Q: bob: why?"),
]
json.dump({"answer": "An argument, see README.md.", "delay_ms": delay,
           "when": [{"contains": c, "answer": a} for c, a in cases]}, open(path, "w"))
PY
cd "$WORK" && git init -q repo && cd repo
printf '# bench\n' > README.md
git -c user.name=b -c user.email=b@b add . && git -c user.name=b -c user.email=b@b commit -qm init
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for c in 1 3; do
  times=()
  for _ in $(seq "$RUNS"); do
    rm -rf "$WORK/state"; mkdir -p "$WORK/state"
    for cli in claude codex gemini qwen; do cp "$WORK/fake.json" "$WORK/state/$cli.json"; done
    start=$(date +%s.%N)
    env -i PATH="$WORK/bin:$PATH" HOME="$WORK/home" FAKE_AGENT_DIR="$WORK/state" \
      GIT_CONFIG_NOSYSTEM=1 GIT_DEBATE_LAUNCHER=qwen GIT_DEBATE_CONCURRENCY=$c \
      "$BIN" topic "Bench?" --debater alice=claude --debater bob=codex --debater carol=gemini \
      --min-rounds 1 --max-rounds 3 --yes --format json >/dev/null 2>&1
    end=$(date +%s.%N)
    times+=("$(echo "$end - $start" | bc)")
  done
  calls=$(cat "$WORK"/state/*.calls.jsonl | wc -l)
  printf 'concurrency %s: median %6.1f s over %s runs (%s model calls per run)\n' \
    "$c" "$(printf '%s\n' "${times[@]}" | median)" "$RUNS" "$((calls))"
done
