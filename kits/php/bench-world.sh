#!/usr/bin/env bash
# The PHP kit's world cost for `npm run bench` (bench/kitCost.js): the kit's world bench, with the emulator started from
# the bundle and the Node runtime of <dist> as the carried ones are. Usage: bench-world.sh <dist> [worlds]
set -euo pipefail
dist="$(cd "${1:?usage: bench-world.sh <dist folder of npm run kits> [worlds]}" && pwd)"
worlds="${2:-300}"
kit="$(cd "$(dirname "$0")" && pwd)"
platform=$(php -r 'require $argv[1]; require $argv[2]; require $argv[3]; echo SmsEmulator\PhpUnit\Emulator::platform();' \
  "$kit/src/EmulatorException.php" "$kit/src/Contract.php" "$kit/src/Emulator.php")
node="$dist/runtime/$platform/node"
[ -x "$node" ] || { echo "php kit bench: no carried Node for $platform in $dist/runtime (npm run kits writes it)" >&2; exit 1; }
env -u SMS_EMULATOR_URL SMS_EMULATOR_COMMAND="$node $dist/bundle/bin/sms-emulator.js" php "$kit/bench/world.php" "$worlds" 2>/dev/null
