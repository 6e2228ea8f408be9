#!/usr/bin/env bash
# The Go kit's artefacts: a GOPROXY=file:// layout in <dist>/goproxy/ with the module smsemulator.dev/smsemu (this
# folder, the carried emulator bundle embedded) and one runtime module per platform holding its Node (decision 0002).
# Called by `npm run kits` (scripts/kits/build.js) after it wrote <dist>/bundle/ and <dist>/runtime/<platform>/.
set -euo pipefail
dist="$(cd "${1:?usage: build-artefacts.sh <dist folder>}" && pwd)"
here="$(cd "$(dirname "$0")" && pwd)"
exec python3 "$here/build_artefacts.py" "$here" "$dist"
