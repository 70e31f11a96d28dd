#!/usr/bin/env bash
# Installs the hosts make test-hosts drives, pinned by package-lock.json,
# into a cache outside the repository keyed by that lockfile (so a version
# bump installs afresh and an unchanged one costs nothing), and prints the
# directory. About 0.9 GB, mostly Claude Code's and Codex's native binaries.
#
# --ignore-scripts: of the install scripts, only Claude Code's is needed
# (it puts the platform's native binary in place of bin/claude.exe), and it
# is run by name below; the others build optional native modules
# (node-pty, keytar) that a headless run never loads, with node-gyp and a
# C compiler that CI does not have.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
key="$(sha256sum "$here/package-lock.json" | cut -c1-16)"
dir="${SNOWLUMA_HOSTS_CACHE:-$HOME/.cache/snowluma-hosts}/$key"
if [ ! -f "$dir/.installed" ]; then
  rm -rf "$dir"
  mkdir -p "$dir"
  cp "$here/package.json" "$here/package-lock.json" "$dir/"
  (
    cd "$dir"
    npm ci --no-audit --no-fund --ignore-scripts
    node node_modules/@anthropic-ai/claude-code/install.cjs
  ) >&2
  touch "$dir/.installed"
fi
echo "$dir"
