#!/usr/bin/env bash
# The Python kit's world cost for `npm run bench` (bench/kitCost.js): installs the wheel of <dist>/python into a venv of the kits' cache
# and runs bench_world.py there with no emulator named, so the kit starts the one it carries with the Node it carries.
# Prints one JSON line: {"kit": "python", "worlds", "emulator", "worldMs", "worldWithSendMs"}. Usage: bench-world.sh <dist> [worlds]
set -euo pipefail
dist="$(cd "${1:?usage: bench-world.sh <dist folder of npm run kits> [worlds]}" && pwd)"
worlds="${2:-300}"
kit="$(cd "$(dirname "$0")" && pwd)"
wheel="$(ls "$dist"/python/pytest_sms_emulator-*.whl 2>/dev/null | head -n 1)"
[ -n "$wheel" ] || { echo "python kit bench: no wheel in $dist/python (npm run kits builds it)" >&2; exit 1; }
venv="${XDG_CACHE_HOME:-$HOME/.cache}/sms-emulator-kits/python-bench"
[ -x "$venv/bin/python" ] || "${PYTHON:-python3}" -m venv "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check --force-reinstall "$wheel" >/dev/null
cd "$(mktemp -d)"
trap 'rm -rf "$PWD"' EXIT
env -u SMS_EMULATOR_URL -u SMS_EMULATOR_COMMAND "$venv/bin/python" "$kit/bench_world.py" "$worlds" --json
