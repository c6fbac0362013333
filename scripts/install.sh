#!/bin/sh
# Installs a released git-debate binary, its checksum verified, with no compiler.
#
#   curl -fsSL https://raw.githubusercontent.com/git-debate/git-debate/main/scripts/install.sh | sh
#   sh scripts/install.sh --version 0.1.0 --dir ~/.local/bin
#
# It downloads git-debate-<target>.tar.gz and its .sha256 from the release (the newest, or
# --version), checks the archive against the checksum (sha256sum or shasum), and installs the
# binary into --dir (default ~/.local/bin) and its manual page beside it (`git debate install-man`:
# <dir>/../share/man/man1, where man finds it for a folder on PATH), so `git debate --help` works.
# Targets: Linux x86_64/aarch64 (static, musl) and macOS x86_64/aarch64; elsewhere, build it:
# `cargo install --locked git-debate`.
#
# Environment (the options win): GIT_DEBATE_VERSION, GIT_DEBATE_INSTALL_DIR, GIT_DEBATE_TARGET
# (another target triple), GIT_DEBATE_RELEASES (the releases' base URL, default
# https://github.com/git-debate/git-debate/releases; a mirror, or a test's server).
set -eu

releases=${GIT_DEBATE_RELEASES:-https://github.com/git-debate/git-debate/releases}
version=${GIT_DEBATE_VERSION:-latest}
dir=${GIT_DEBATE_INSTALL_DIR:-${HOME}/.local/bin}
target=${GIT_DEBATE_TARGET:-}

die() {
  echo "git-debate install: $*" >&2
  exit 1
}

while [ $# -gt 0 ]; do
  case $1 in
    --version) [ $# -ge 2 ] || die "--version needs a value"; version=$2; shift 2 ;;
    --dir) [ $# -ge 2 ] || die "--dir needs a value"; dir=$2; shift 2 ;;
    --target) [ $# -ge 2 ] || die "--target needs a value"; target=$2; shift 2 ;;
    -h | --help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument $1 (--version V, --dir DIR, --target TRIPLE)" ;;
  esac
done

if [ -z "$target" ]; then
  os=$(uname -s)
  arch=$(uname -m)
  case $arch in
    x86_64 | amd64) arch=x86_64 ;;
    aarch64 | arm64) arch=aarch64 ;;
    *) die "no release binary for $arch; build it: cargo install --locked git-debate" ;;
  esac
  case $os in
    Linux) target=$arch-unknown-linux-musl ;;
    Darwin) target=$arch-apple-darwin ;;
    *) die "no release binary for $os; build it: cargo install --locked git-debate" ;;
  esac
fi

case $version in
  latest) base=$releases/latest/download ;;
  v*) base=$releases/download/$version ;;
  *) base=$releases/download/v$version ;;
esac
archive=git-debate-$target.tar.gz

fetch() {
  if command -v curl >/dev/null 2>&1; then
    curl --proto '=https,http' -fsSL --retry 3 -o "$2" "$1"
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1"
  else
    die "needs curl or wget"
  fi
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

fetch "$base/$archive" "$tmp/$archive" || die "cannot download $base/$archive"
fetch "$base/$archive.sha256" "$tmp/$archive.sha256" || die "cannot download $base/$archive.sha256"

expected=$(cut -d ' ' -f 1 < "$tmp/$archive.sha256")
if command -v sha256sum >/dev/null 2>&1; then
  actual=$(sha256sum "$tmp/$archive" | cut -d ' ' -f 1)
elif command -v shasum >/dev/null 2>&1; then
  actual=$(shasum -a 256 "$tmp/$archive" | cut -d ' ' -f 1)
else
  die "needs sha256sum or shasum to verify the download"
fi
if [ -z "$expected" ] || [ "$expected" != "$actual" ]; then
  die "checksum mismatch for $archive (expected ${expected:-nothing}, got $actual): nothing installed"
fi

tar -xzf "$tmp/$archive" -C "$tmp"
bin=$tmp/git-debate-$target/git-debate
[ -f "$bin" ] || die "$archive has no git-debate-$target/git-debate"
mkdir -p "$dir"
# Replace, never write through: a running git-debate keeps its old file.
cp "$bin" "$dir/.git-debate.new"
chmod 755 "$dir/.git-debate.new"
mv -f "$dir/.git-debate.new" "$dir/git-debate"
echo "git-debate installed: $dir/git-debate ($("$dir/git-debate" --version))"
"$dir/git-debate" install-man >/dev/null 2>&1 || echo "git-debate install: no manual page installed (run: git debate install-man --dir DIR)" >&2
case ":$PATH:" in
  *":$dir:"*) ;;
  *) echo "git-debate install: $dir is not on PATH; add it so \`git debate\` finds git-debate" >&2 ;;
esac
