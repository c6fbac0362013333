#!/usr/bin/env bash
# How often `git debate --dry-run --scope commit:X` shows the same patch as `git diff X^ X`.
#
#   scripts/diff-parity.sh REPO [N]
#   CONFIG="diff.algorithm=histogram diff.context=5" scripts/diff-parity.sh REPO
#   ATTRIBUTES='*.c diff=cpp|*.md diff=markdown' scripts/diff-parity.sh REPO
#   LAYOUT=sha256 scripts/diff-parity.sh REPO        # also reftable, blobless, sparse-index,
#                                                    # split-index
#   ENGINE=git scripts/diff-parity.sh REPO           # GIT_DEBATE_DIFF: git or libgit2
#
# Over the last N (default 300) non-merge commits of REPO's HEAD (a work tree or a bare clone:
# the commits are read from a temporary clone), compares, file by file, the headers (`diff --git`,
# mode lines, `rename`/`copy from`/`to`, `---`/`+++`) and the hunks (`@@` lines exactly as printed,
# `+`, `-`, context, `\ No newline`) of the artifact with git's patch. The artifact leaves out
# git's `index` and `similarity index` lines, and lists a binary file without sending it, so those
# lines and the binary files' sections are not compared.
#
# CONFIG's key=value pairs are set in the clone's config and ATTRIBUTES' lines (separated by `|`)
# written to its info/attributes; both sides read them. LAYOUT makes the clone in that layout:
# `sha256` (the history re-imported with `git fast-export | git fast-import` into a sha256
# repository: other ids, the same trees), `reftable` (`git clone --ref-format=reftable`),
# `blobless` (`git clone --filter=blob:none`: every blob a diff needs is fetched on demand),
# `sparse-index` (a sparse checkout of the first folder, `index.sparse`; the work tree's
# attributes apply to both sides) or `split-index` (`core.splitIndex`).
# Prints each commit that differs and the match rate. Needs jq and a built git-debate: $BIN, else
# the newer of target/release and target/debug.
set -uo pipefail
SRC=$(cd "$1" && pwd)
N=${2:-300}
HERE=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BIN:-$(ls -t "$HERE"/target/release/git-debate "$HERE"/target/debug/git-debate 2>/dev/null | head -1)}
BIN=$(realpath "$BIN")
WORK=$(mktemp -d /tmp/diff-parity.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
set -e
case "${LAYOUT:-}" in
  sha256)
    ref=$(git -C "$SRC" symbolic-ref -q HEAD || echo refs/heads/main)
    git init -q --object-format=sha256 "$WORK/repo"
    git -C "$SRC" fast-export --reencode=yes --signed-tags=strip --tag-of-filtered-object=drop "$ref" \
      | git -C "$WORK/repo" fast-import --quiet
    git -C "$WORK/repo" symbolic-ref HEAD "$ref"
    ;;
  reftable) git clone -q --no-checkout --ref-format=reftable "$SRC" "$WORK/repo" ;;
  blobless)
    pack="git -c uploadpack.allowFilter=true -c uploadpack.allowAnySHA1InWant=true upload-pack"
    git clone -q --no-checkout --filter=blob:none --upload-pack="$pack" "file://$SRC" "$WORK/repo"
    git -C "$WORK/repo" config remote.origin.uploadpack "$pack"
    ;;
  sparse-index)
    # A cone of one folder: every other folder is one entry of the index.
    git clone -q --sparse "$SRC" "$WORK/repo"
    git -C "$WORK/repo" sparse-checkout set --cone --sparse-index \
      "$(git -C "$WORK/repo" ls-tree -d --name-only HEAD | head -1)"
    ;;
  *) git clone -q --no-checkout "$SRC" "$WORK/repo" ;;
esac
cd "$WORK/repo"
case "${LAYOUT:-}" in
  split-index) git config core.splitIndex true; git read-tree HEAD; git update-index --split-index ;;
esac
for kv in ${CONFIG:-}; do git config "${kv%%=*}" "${kv#*=}"; done
if [ -n "${ATTRIBUTES:-}" ]; then
  mkdir -p "$(git rev-parse --git-path info)"
  tr '|' '\n' <<<"$ATTRIBUTES" > "$(git rev-parse --git-path info/attributes)"
fi
[ -n "${ENGINE:-}" ] && export GIT_DEBATE_DIFF=$ENGINE
set +e
# What both sides print of a patch, in order: file headers and hunks.
keep() {
  grep -aE '^(diff --git |old mode |new mode |new file mode |deleted file mode |rename from |rename to |copy from |copy to |--- |\+\+\+ |@@ |[-+ ]|\\ No newline)' || true
}
# git's patch without the sections of binary files (the headers listed in $WORK/binary, and
# those git says are binary).
unbinary() {
  awk -v list="$WORK/binary" '
    function flush() { if (!skip) printf "%s", sec; sec = "" }
    BEGIN { while ((getline l < list) > 0) bin[l] = 1 }
    /^diff --git / { flush(); skip = ($0 in bin) }
    /^Binary files / { skip = 1 }
    { sec = sec $0 "\n" }
    END { flush() }'
}
same=0; total=0; redacted=0
for c in $(git rev-list --no-merges --max-count="$N" HEAD); do
  git rev-parse -q --verify "$c^" >/dev/null || continue
  total=$((total + 1))
  rm -rf "$WORK/state"
  GIT_DEBATE_LAUNCHER=none "$BIN" --dry-run --format json --scope "commit:$c" \
    --max-artifact-bytes 67108864 --state-dir "$WORK/state" 2>/dev/null \
    | jq -r '.metadata.files[]? | select(.binary) | "diff --git a/\(.old_path // .path) b/\(.path)"' \
    > "$WORK/binary"
  art=$(ls "$WORK"/state/*/artifact.md 2>/dev/null | head -1)
  if [ -n "$art" ]; then
    # The diff block's fence is as long as it must be (a patch may hold ``` itself).
    awk 'f && $0 == f { f = ""; next } f { print; next } /^```+diff$/ { f = substr($0, 1, length($0) - 4) }' \
      "$art" | keep > "$WORK/ours.txt"
  else
    : > "$WORK/ours.txt"
  fi
  git diff "$c^" "$c" | unbinary | keep > "$WORK/git.txt"
  d=$(diff "$WORK/git.txt" "$WORK/ours.txt")
  if [ -z "$d" ]; then
    same=$((same + 1))
    continue
  elif ! grep -q '^>' <<<"$d" || grep '^>' <<<"$d" | grep -vq 'REDACTED:'; then
    : # a real difference: reported below
  else
    # Only lines where we redacted a secret: the same hunks, by design not the same bytes.
    same=$((same + 1)); redacted=$((redacted + 1)); continue
  fi
  echo "differs: $c $(git log -1 --format=%s "$c" | cut -c1-60)"
  if [ -n "${KEEP_DIFFS:-}" ]; then
    mkdir -p "$KEEP_DIFFS"
    diff "$WORK/git.txt" "$WORK/ours.txt" > "$KEEP_DIFFS/$c.diff"
  fi
done
echo "patches identical to git diff in $same of $total commits ($(( total ? same * 1000 / total : 0 ))‰; $redacted of them differ only where a secret was redacted)"
