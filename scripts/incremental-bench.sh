#!/usr/bin/env bash
# What a second review of a pull request costs after a 10-line follow-up commit: a full review
# of the branch again vs an incremental one (`--since last`), measured through the real binary
# with the fake agent CLIs (no network, no API key).
#
#   scripts/incremental-bench.sh [RUNS]
#
# The pull request adds 1,000 lines (10 files of 100 lines) to a base; the first review (one
# round, reviewer: fake codex, author: fake claude) raises 3 findings, all ruled valid. Then a
# follow-up commit changes 10 lines of one file, and the branch is reviewed again, once in full
# (--no-incremental) and once incrementally (--since <the first review>), RUNS times each (default 5; the median is shown).
# Tokens are the prompts' characters / 4, from what the fake CLIs received (reviewer and judge).
# The fake reviewer takes 1 s + 40 ms per KiB of prompt, a stand-in for a model whose time
# grows with its input; the wall time is the whole `git debate` run.
set -euo pipefail
HERE=$(cd "$(dirname "$0")/.." && pwd)
cd "$HERE"
RUNS=${1:-5}
cargo build --quiet --features test-fakes --bins
BIN="$HERE/target/debug/git-debate"
FAKE="$HERE/target/debug/fake-agent"
WORK=$(mktemp -d /tmp/incremental-bench.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$WORK"' EXIT
mkdir -p "$WORK/bin" "$WORK/home"
for cli in codex claude; do ln -s "$FAKE" "$WORK/bin/$cli"; done
export HOME="$WORK/home" GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL="$WORK/home/.gitconfig"
export PATH="$WORK/bin:/usr/bin:/bin" GIT_DEBATE_LAUNCHER=claude FAKE_AGENT_DIR="$WORK/fake"
git config --global user.name bench && git config --global user.email bench@example.com
REPO="$WORK/repo"

python3 - "$REPO" "$WORK/fake" <<'PY'
import json, os, subprocess, sys
d, fake = sys.argv[1], sys.argv[2]
git = lambda *a: subprocess.run(["git", "-C", d, *a], check=True)
subprocess.run(["git", "init", "-q", "-b", "main", d], check=True)
open(os.path.join(d, "README.md"), "w").write("bench\n")
git("add", "-A"); git("commit", "-qm", "base")
git("checkout", "-q", "-b", "feature")
os.makedirs(os.path.join(d, "src"))
for f in range(10):
    with open(os.path.join(d, "src", f"f{f}.rs"), "w") as out:
        for l in range(100):
            out.write(f"    let v{l} = x.wrapping_add({f * 100 + l}); // step {l} of file {f}\n")
git("add", "-A"); git("commit", "-qm", "the pull request")
os.makedirs(fake)
findings = [{"severity": "P2", "title": f"f{f}: the sum can overflow", "file": f"src/f{f}.rs",
             "start_line": 5, "end_line": 5, "body": "wraps for large x", "action": "checked_add"}
            for f in (1, 2, 3)]
review = "Review.\n\n```json\n" + json.dumps({"verdict": "revise", "summary": "s", "findings": findings}) + "\n```\n"
json.dump({"answer": review, "delay_ms": 1000, "delay_per_kib_ms": 40}, open(f"{fake}/codex.json", "w"))
rulings = [{"id": f"F{i}", "verdict": "valid", "reason": "right"} for i in range(1, 20)]
judge = "```json\n" + json.dumps({"classifications": rulings, "recommendation": "D", "reason": "r"}) + "\n```"
json.dump({"answer": judge}, open(f"{fake}/claude.json", "w"))
PY

review() { # ARGS...: one run; prints "<prompt chars> <seconds>"
  rm -f "$WORK/fake/"*.calls.jsonl "$WORK/fake/"*.count
  local start end
  start=$(date +%s%N)
  (cd "$REPO" && "$BIN" --scope base:main --max-rounds 1 --skip-materialize-opposite \
     --format json "$@" >"$WORK/out.json" 2>"$WORK/err.txt") || true
  end=$(date +%s%N)
  local chars
  chars=$(cat "$WORK/fake/"*.calls.jsonl 2>/dev/null | python3 -c '
import json, sys
print(sum(len(json.loads(l)["prompt"]) for l in sys.stdin if l.strip()))')
  echo "$chars $(echo "scale=2; ($end - $start) / 1000000000" | bc)"
}

review >/dev/null # the first review of the branch
FIRST=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["session"])' "$WORK/out.json")
# The follow-up commit: 10 lines of one file.
sed -i '11,20s/wrapping_add/saturating_add/' "$REPO/src/f4.rs"
git -C "$REPO" commit -qam "follow-up: saturate"

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for mode in full incremental; do
  : >"$WORK/$mode.txt"
  for _ in $(seq "$RUNS"); do
    if [ "$mode" = full ]; then review --no-incremental; else review --since "$FIRST"; fi >>"$WORK/$mode.txt"
  done
done
grep -q '"mode": "delta"' "$WORK/out.json" || { echo "the incremental run was not incremental:"; cat "$WORK/err.txt"; exit 1; }
echo "| second review after a 10-line commit on a 1,000-line PR | prompt tokens | wall time (s, median of $RUNS) |"
echo "|---|---:|---:|"
for mode in full incremental; do
  toks=$(awk '{print $1}' "$WORK/$mode.txt" | median)
  secs=$(awk '{print $2}' "$WORK/$mode.txt" | median)
  echo "| $mode | $((toks / 4)) | $secs |"
done
