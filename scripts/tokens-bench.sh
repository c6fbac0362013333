#!/usr/bin/env bash
# What a review sends to the models, and how long a chunked review takes, measured through the
# real binary with the fake agent CLIs (no network, no API key).
#
#   scripts/tokens-bench.sh [OLD_GIT_DEBATE]
#
# Two changes, each reviewed for 3 rounds (reviewer: fake codex, author: fake claude):
#   - a 1,000-line diff (10 files of 100 changed lines);
#   - a 300-file, 20,000-line change (30 modules of 10 files).
# The reviewer answers each module's chunk with a finding on its first file (every third
# module); the author rules every finding valid and asks for a compromise, which revises one
# line: shown only the files the findings touch, it answers with that file; shown the whole
# change (an older build), with the whole change. Tokens are the prompts' characters / 4, summed per step from what the fake CLIs received,
# and "files reviewed" counts the changed files whose diff reached a reviewer prompt. Given
# OLD_GIT_DEBATE (an older build), both are measured side by side.
#
# Then the wall time of round 1 of the 300-file change with a reviewer that takes 2 s per call,
# at concurrency 3 and 1, next to the 2 s one chunk takes.
set -euo pipefail
HERE=$(cd "$(dirname "$0")/.." && pwd)
cd "$HERE"
cargo build --release --quiet --features test-fakes --bins
NEW="$HERE/target/release/git-debate"
FAKE="$HERE/target/release/fake-agent"
OLD=${1:-}
WORK=$(mktemp -d /tmp/tokens-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/bin" "$WORK/home"
for cli in codex claude; do ln -s "$FAKE" "$WORK/bin/$cli"; done
export HOME="$WORK/home" GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL="$WORK/home/.gitconfig"
export PATH="$WORK/bin:/usr/bin:/bin" GIT_DEBATE_LAUNCHER=claude
git config --global user.name bench && git config --global user.email bench@example.com

# make_repo DIR MODULES FILES_PER_MODULE LINES_PER_FILE
make_repo() {
  python3 - "$@" <<'PY'
import os, subprocess, sys
d, mods, files, lines = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
subprocess.run(["git", "init", "-q", "-b", "main", d], check=True)
open(os.path.join(d, "README.md"), "w").write("bench\n")
subprocess.run(["git", "-C", d, "add", "-A"], check=True)
subprocess.run(["git", "-C", d, "commit", "-qm", "base"], check=True)
for m in range(mods):
    os.makedirs(os.path.join(d, f"m{m:02d}"), exist_ok=True)
    for f in range(files):
        with open(os.path.join(d, f"m{m:02d}", f"f{f:02d}.rs"), "w") as out:
            for l in range(lines):
                out.write(f"    let v{l} = x.wrapping_add({m * 100 + l});\n")
subprocess.run(["git", "-C", d, "add", "-A"], check=True)
subprocess.run(["git", "-C", d, "commit", "-qm", "the change"], check=True)
PY
}

# write_scripts MODULES DELAY_MS REPO: the fake reviewer's and author's answers.
write_scripts() {
  git -C "$3" show --format= HEAD >"$WORK/change.diff"
  python3 - "$WORK/fake" "$1" "$2" "$WORK/change.diff" <<'PY'
import json, os, sys
d, mods, delay, change = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
os.makedirs(d, exist_ok=True)
def review(findings):
    return "Review.\n\n```json\n" + json.dumps({"verdict": "revise" if findings else "approve", "findings": findings}) + "\n```\n"
when = []
for m in range(0, mods, 3):
    when.append({"contains": f"+++ b/m{m:02d}/f00.rs", "answer": review([{
        "severity": "P2", "title": f"m{m:02d}: the sum can overflow", "file": f"m{m:02d}/f00.rs",
        "start_line": 5, "body": "x + l wraps for large x", "action": "use checked_add"}])})
json.dump({"answer": review([]), "when": when, "delay_ms": delay}, open(f"{d}/codex.json", "w"))
rulings = [{"id": f"F{i}", "verdict": "valid", "reason": "right"} for i in range(1, 60)]
judge = "```json\n" + json.dumps({"classifications": rulings, "recommendation": "C", "reason": "fix them"}) + "\n```"
patch = ("```diff\ndiff --git a/m00/f00.rs b/m00/f00.rs\n--- a/m00/f00.rs\n+++ b/m00/f00.rs\n"
         "@@ -1,1 +1,1 @@\n-    let v0 = x.wrapping_add(0);\n+    let v0 = x.checked_add(0).unwrap_or(u32::MAX);\n```")
# Asked for the files the findings touch, the author revises one; asked for the whole change (as
# an older build asks), it writes the whole change back with that one line revised.
whole = open(change).read().replace("+    let v0 = x.wrapping_add(0);", "+    let v0 = x.checked_add(0).unwrap_or(u32::MAX);", 1)
json.dump({"answer": "Rounds so far: overflow findings, compromises written.", "when": [
    {"contains": " BEGIN FINDINGS\n", "answer": judge},
    {"contains": "output the revised diff of those files only", "answer": patch},
    {"contains": " BEGIN JUDGED FINDINGS\n", "answer": "```diff\n" + whole + "```"}]},
    open(f"{d}/claude.json", "w"))
PY
}

# tokens LABEL: per-step prompt tokens and reviewed files, from what the fake CLIs received.
tokens() {
  python3 - "$WORK/fake" "$1" "$2" <<'PY'
import json, re, sys
d, label, total_files = sys.argv[1], sys.argv[2], int(sys.argv[3])
steps, files = {}, set()
for cli in ("codex", "claude"):
    try:
        lines = open(f"{d}/{cli}.calls.jsonl").read().splitlines()
    except FileNotFoundError:
        continue
    for line in lines:
        p = json.loads(line)["prompt"]
        if " BEGIN CHANGE UNDER REVIEW\n" in p:
            step = "review"
            files.update(re.findall(r"^\+\+\+ b/(\S+)", p, re.M))
        elif " BEGIN FINDINGS\n" in p:
            step = "judge"
        elif " BEGIN JUDGED FINDINGS\n" in p:
            step = "compromise"
        else:
            step = "other"
        calls, toks = steps.get(step, (0, 0))
        steps[step] = (calls + 1, toks + len(p) // 4)
total = sum(t for _, t in steps.values())
parts = ", ".join(f"{s} {c}× {t/1000:.0f}K" for s, (c, t) in sorted(steps.items()))
print(f"| {label} | {total/1000:.0f}K | {parts} | {len(files)} of {total_files} |")
PY
}

run_case() { # LABEL BIN REPO MODULES FILES
  rm -rf "$WORK/fake" && write_scripts "$4" 0 "$3"
  (cd "$3" && FAKE_AGENT_DIR="$WORK/fake" "$2" --scope commit:HEAD --max-rounds 3 \
     --format json >/dev/null 2>&1) || true
  tokens "$1" "$5"
}

make_repo "$WORK/small" 1 10 100
make_repo "$WORK/big" 30 10 67
echo "| change, binary | prompt tokens (3 rounds) | per step | files reviewed |"
echo "|---|---:|---|---:|"
for bin in ${OLD:+"$OLD"} "$NEW"; do
  name=$([ "$bin" = "$NEW" ] && echo "this build" || echo "old build")
  run_case "1,000-line diff, $name" "$bin" "$WORK/small" 1 10
  run_case "300 files / 20,000 lines, $name" "$bin" "$WORK/big" 30 300
done

echo
echo "| round 1 of the 300-file change, reviewer 2 s per call | chunks | wall time (s) | × one chunk |"
echo "|---|---:|---:|---:|"
for c in 3 1; do
  rm -rf "$WORK/fake" && write_scripts 30 2000 "$WORK/big"
  start=$(date +%s%N)
  (cd "$WORK/big" && FAKE_AGENT_DIR="$WORK/fake" "$NEW" --scope commit:HEAD --max-rounds 1 \
     --concurrency "$c" --format json >"$WORK/out.json" 2>/dev/null) || true
  end=$(date +%s%N)
  chunks=$(grep -c '' "$WORK/fake/codex.calls.jsonl")
  secs=$(echo "scale=2; ($end - $start) / 1000000000" | bc)
  echo "| concurrency $c | $chunks | $secs | $(echo "scale=2; $secs / 2" | bc) |"
done
