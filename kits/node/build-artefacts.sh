#!/usr/bin/env bash
# The Node module's artefacts for `npm run kits`: <dist>/npm/ holds the packed sms-emulator-testcontainers and the
# packed sms-emulator it peer-depends on (the root, as `npm run kits` has just built it), both at the one version, for a
# project to install from files (kits/node/container-suite.sh does). Never committed. Usage: build-artefacts.sh <dist>
set -euo pipefail
dist="$(cd "${1:?usage: build-artefacts.sh <dist folder of npm run kits>}" && pwd)"
kit="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$kit/../.." && pwd)"
[ -f "$root/dist/index.js" ] || { echo "node kit: the root is not built (npm run build)" >&2; exit 1; }
rm -rf "$dist/npm"
mkdir -p "$dist/npm"
bash "$kit/install.sh"
# The root was built by npm run kits (or the caller): packed without running its prepack build a second time.
(cd "$root" && npm pack --ignore-scripts --silent --pack-destination "$dist/npm" >/dev/null)
(cd "$kit" && npm pack --silent --pack-destination "$dist/npm" >/dev/null)
ls "$dist/npm"
