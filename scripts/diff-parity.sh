#!/usr/bin/env bash
# How often `git debate --dry-run --scope commit:X` shows the same hunks as `git diff -M X^ X`.
#
#   scripts/diff-parity.sh REPO [N]
#
# Over the last N (default 300) non-merge commits of REPO's HEAD (a work tree or a bare clone:
# the commits are read from a temporary clone), compares, file by file, the hunk lines (`@@`,
# `+`, `-`, context, `\ No newline`) and the mode lines of the artifact with git's patch. The
# artifact leaves out git's `index` and `similarity index` lines, so they are not compared. Prints
# each commit that differs and the match rate. Needs a built git-debate: $BIN, else the newer of
# target/release and target/debug.
set -uo pipefail
SRC=$1
N=${2:-300}
HERE=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BIN:-$(ls -t "$HERE"/target/release/git-debate "$HERE"/target/debug/git-debate 2>/dev/null | head -1)}
WORK=$(mktemp -d /tmp/diff-parity.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
set -e
git clone -q --no-checkout "$SRC" "$WORK/repo"
cd "$WORK/repo"
set +e
# What both sides print of a patch, in order: file headers and hunks.
keep() { grep -E '^(diff --git |old mode |new mode |new file mode |deleted file mode |@@ |[-+ ]|\\ No newline)' | grep -vE '^(--- |\+\+\+ )' || true; }
same=0; total=0; redacted=0
for c in $(git rev-list --no-merges --max-count="$N" HEAD); do
  git rev-parse -q --verify "$c^" >/dev/null || continue
  total=$((total + 1))
  git diff -M "$c^" "$c" | keep > "$WORK/git.txt"
  rm -rf .git/review-loop
  GIT_DEBATE_LAUNCHER=none "$BIN" --dry-run --scope "commit:$c" --max-artifact-bytes 67108864 \
    > /dev/null 2>&1 || true
  art=$(ls .git/review-loop/*/artifact.md 2>/dev/null | head -1)
  if [ -n "$art" ]; then
    # The diff block's fence is as long as it must be (a patch may hold ``` itself).
    awk 'f && $0 == f { f = ""; next } f { print; next } /^```+diff$/ { f = substr($0, 1, length($0) - 4) }' \
      "$art" | keep > "$WORK/ours.txt"
  else
    : > "$WORK/ours.txt"
  fi
  d=$(diff "$WORK/git.txt" "$WORK/ours.txt")
  if [ -z "$d" ]; then
    same=$((same + 1))
  elif ! grep -q '^>' <<<"$d" || grep '^>' <<<"$d" | grep -vq 'REDACTED:'; then
    : # a real difference: reported below
  else
    # Only lines where we redacted a secret: the same hunks, by design not the same bytes.
    same=$((same + 1)); redacted=$((redacted + 1)); continue
  fi
  if [ -z "$d" ]; then
    :
  else
    echo "differs: $c $(git log -1 --format=%s "$c" | cut -c1-60)"
    if [ -n "${KEEP_DIFFS:-}" ]; then
      mkdir -p "$KEEP_DIFFS"
      diff "$WORK/git.txt" "$WORK/ours.txt" > "$KEEP_DIFFS/$c.diff"
    fi
  fi
done
echo "hunks identical to git diff -M in $same of $total commits ($(( total ? same * 1000 / total : 0 ))‰; $redacted of them differ only where a secret was redacted)"
