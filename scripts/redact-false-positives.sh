#!/bin/sh
# The redactor's false-positive check on large public repositories: every text file at HEAD is
# redacted as git-debate would redact it in a diff, and every hit is printed for a person to judge
# (README, "Secrets"). Pass the repositories' git directories (bare clones or .git folders):
#
#   git clone --bare https://github.com/BurntSushi/ripgrep /tmp/rg.git
#   git clone --bare https://github.com/expressjs/express /tmp/express.git
#   scripts/redact-false-positives.sh /tmp/rg.git /tmp/express.git
#
# Exits 1 when anything was redacted, 0 when nothing was.
set -eu
[ "$#" -gt 0 ] || { echo "usage: $0 <git-dir>...: give the git directories to scan" >&2; exit 2; }
cd "$(dirname "$0")/.."
exec cargo run --quiet --release --example redact_scan -- "$@"
