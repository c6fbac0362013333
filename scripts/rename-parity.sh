#!/usr/bin/env bash
# How often `git debate --dry-run --scope commit:X` pairs renames and copies as `git diff` does
# (which detects renames by default, and copies with diff.renames=copies).
#
#   scripts/rename-parity.sh REPO [N]
#   MERGES=1 scripts/rename-parity.sh REPO 50     # merge commits (against their first parent)
#   CONFIG="diff.renames=copies diff.renameLimit=50" scripts/rename-parity.sh REPO
#
# Takes the last N (default 300) commits of REPO's HEAD in which git finds a rename or a deletion
# (where a pairing can differ), and compares, as sorted lists, git's `--name-status` (status
# letter, old and new path; the similarity score is left out) with the file list of our JSON dry
# run. A type change is one `T` line for git and a deleted plus an added file for us (as its
# patch is), so ours is folded back into `T`. CONFIG's key=value pairs are set in the clone's
# config, which both sides read. Prints each commit that differs and the match rate. Needs
# jq and a built git-debate: $BIN, else the newer of target/release and target/debug.
set -uo pipefail
SRC=$1
N=${2:-300}
HERE=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BIN:-$(ls -t "$HERE"/target/release/git-debate "$HERE"/target/debug/git-debate 2>/dev/null | head -1)}
WORK=$(mktemp -d /tmp/rename-parity.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
set -e
git clone -q --bare "$SRC" "$WORK/repo.git"
cd "$WORK/repo.git"
for kv in ${CONFIG:-}; do git config "${kv%%=*}" "${kv#*=}"; done
set +e
if [ -n "${MERGES:-}" ]; then
  commits=$(git rev-list --min-parents=2 --max-count="$N" HEAD)
else
  commits=$(git log --no-merges -M --diff-filter=RD --format=%H --max-count="$N" HEAD 2>/dev/null)
fi
same=0; total=0; pairs_git=0; pairs_ours=0
for c in $commits; do
  git rev-parse -q --verify "$c^" >/dev/null || continue
  total=$((total + 1))
  git -c core.quotePath=false diff --name-status "$c^" "$c" 2>/dev/null \
    | sed -E 's/^([RC])[0-9]+/\1/' | sort > "$WORK/git.txt"
  GIT_DEBATE_LAUNCHER=none "$BIN" --dry-run --format json --scope "commit:$c" \
    --state-dir "$WORK/state" 2>/dev/null \
    | jq -r '.metadata.files[] | [(.status | {added:"A",deleted:"D",modified:"M",renamed:"R",
        copied:"C",typechange:"T",untracked:"A"}[.]), .old_path, .path]
        | map(select(. != null)) | join("\t")' \
    | awk -F'\t' '{ n[$NF]++; line[NR] = $0; path[NR] = $NF; st[NR] = $1 }
        END { for (i = 1; i <= NR; i++) {
          if (n[path[i]] == 2 && (st[i] == "A" || st[i] == "D")) { if (st[i] == "D") print "T\t" path[i] }
          else print line[i] } }' \
    | sort > "$WORK/ours.txt"
  rm -rf "$WORK/state"
  pairs_git=$((pairs_git + $(grep -c '^[RC]' "$WORK/git.txt")))
  pairs_ours=$((pairs_ours + $(grep -c '^[RC]' "$WORK/ours.txt")))
  if diff -q "$WORK/git.txt" "$WORK/ours.txt" >/dev/null; then
    same=$((same + 1))
  else
    echo "differs: $c $(git log -1 --format=%s "$c" | cut -c1-60)"
    if [ -n "${KEEP_DIFFS:-}" ]; then
      mkdir -p "$KEEP_DIFFS"
      diff "$WORK/git.txt" "$WORK/ours.txt" > "$KEEP_DIFFS/$c.diff"
    fi
  fi
done
echo "renames and copies paired as git diff pairs them in $same of $total commits ($(( total ? same * 1000 / total : 0 ))‰); pairs: git $pairs_git, ours $pairs_ours"
