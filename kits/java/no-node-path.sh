#!/usr/bin/env bash
# Makes <folder> a PATH for a user's Maven project without `node`: links to only what Maven's start script runs (sh,
# bash, dirname, expr, ls, tr, uname) and mvn itself; fails when node is still found on it. Shared by prove-sample.sh
# and container-suite.sh. Usage: bin="$(bash no-node-path.sh <folder>)"
set -euo pipefail
bin="${1:?usage: no-node-path.sh <folder to make>}"
mkdir -p "$bin"
for tool in sh bash dirname expr ls tr uname; do ln -sf "$(command -v "$tool")" "$bin/$tool"; done
ln -sf "$(readlink -f "$(command -v mvn)")" "$bin/mvn"
if PATH="$bin" command -v node >/dev/null 2>&1; then
  echo "java kit proof: node is still on the sample's PATH" >&2
  exit 1
fi
echo "$bin"
