#!/usr/bin/env bash
# The Ruby kit's world cost for `npm run bench` (bench/kitCost.js): the kit's world bench, with the emulator started from
# the bundle and the Node runtime of <dist> as the carried ones are. Usage: bench-world.sh <dist> [worlds]
set -euo pipefail
dist="$(cd "${1:?usage: bench-world.sh <dist folder of npm run kits> [worlds]}" && pwd)"
worlds="${2:-300}"
kit="$(cd "$(dirname "$0")" && pwd)"
node="$dist/runtime/$(ruby -e 'os = RbConfig::CONFIG["host_os"]; arch = RbConfig::CONFIG["host_cpu"]; print(os.include?("darwin") ? "osx" : os.include?("mingw") ? "windows" : "linux", "-", arch.sub("aarch64", "aarch_64").sub("arm64", "aarch_64"))')/node"
[ -x "$node" ] || { echo "ruby kit bench: no carried Node at $node (npm run kits writes it)" >&2; exit 1; }
env -u SMS_EMULATOR_URL SMS_EMULATOR_COMMAND="$node $dist/bundle/bin/sms-emulator.js" ruby "$kit/bench/world.rb" "$worlds" 2>/dev/null
