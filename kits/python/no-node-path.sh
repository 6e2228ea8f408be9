#!/usr/bin/env bash
# Prints a PATH for a user's project without `node`: <project>/.venv/bin, then a folder <project>/.usr-bin of links to
# every program of /usr/bin but node, npm, npx and corepack (made here); fails when node is still found on it.
# Usage: PATH="$(bash no-node-path.sh <project>)"
set -euo pipefail
project="${1:?usage: no-node-path.sh <project folder with .venv>}"
nonode="$project/.usr-bin"
mkdir -p "$nonode"
for program in /usr/bin/*; do
  case "$(basename "$program")" in node | nodejs | npm | npx | corepack) continue ;; esac
  ln -sf "$program" "$nonode/"
done
path="$project/.venv/bin:$nonode"
if PATH="$path" command -v node >/dev/null 2>&1; then
  echo "python kit proof: node is still on the PATH built without it" >&2
  exit 1
fi
echo "$path"
