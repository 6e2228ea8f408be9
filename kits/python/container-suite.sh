#!/usr/bin/env bash
# The Python Testcontainers module (pytest_sms_emulator.testcontainers, the wheel's extra [testcontainers]) against the
# image, with no image pulled (issue 43). Run it under scripts/image/with-podman.sh, which gives DOCKER_HOST and turns
# the reaper off:
#
#   bash scripts/image/with-podman.sh bash kits/python/container-suite.sh [dist]      (dist: kits/dist by default)
#
# (a) The module's own suite, from the wheel of <dist>/python installed with its extra: container_tests/ (a container
#     starts ready and stops, its URLs and token, a world's webhooks across the container's network, two worlds on one
#     container apart), then the kit's world, isolation, control and segments-vector tests against a container of
#     each pytest-xdist worker (ini sms_emulator_container = true).
# (b) A user's project: kits/python/sample copied into a temp folder outside the checkout, the wheel and its extra
#     installed (testcontainers from PyPI), no node on PATH: the sample suite passes with the carried runtime, then
#     again after one line of its pytest.ini changes (the diff is printed), one container per worker, none left after.
set -euo pipefail
kit="$(cd "$(dirname "$0")" && pwd)"
dist="$(cd "${1:-$kit/../dist}" && pwd)"
wheel="$(ls "$dist"/python/pytest_sms_emulator-*.whl)"
python="${PYTHON:-python3}"
[ -n "${DOCKER_HOST:-}" ] || { echo "python container suite: no DOCKER_HOST; run it under scripts/image/with-podman.sh" >&2; exit 1; }
# testcontainers-python takes a test process inside a container (/.dockerenv, as on this CI machine) for Docker in
# Docker and looks for mapped ports at the container's gateway; here they are on the Docker host's loopback.
export TESTCONTAINERS_CONNECTION_MODE=docker_host
began=$SECONDS

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Only the containers this run starts are counted, from the events of the podman service with-podman.sh started for it
# (its own events file): others on this machine may run containers of their own meanwhile.
since="$(date +%s)"
containers() { # <event> <since>: the ids of the containers this run's service saw that event for
  podman events --stream=false --since "$2" --filter "event=$1" --filter type=container --format '{{.ID}}' | sort -u
}
started_since() { containers start "$1" | wc -l; }
left_running() { # started since the run began and not removed
  comm -23 <(containers start "$since") <(containers remove "$since")
}

echo "-- (a) the module's suite, from $(basename "$wheel") with its extra"
"$python" -m venv "$work/.venv"
"$work/.venv/bin/pip" install --quiet --disable-pip-version-check "$wheel[testcontainers]" pytest-xdist
(cd "$kit" && "$work/.venv/bin/pytest" -p no:cacheprovider -q container_tests)
(cd "$kit" && "$work/.venv/bin/pytest" -p no:cacheprovider -n 2 -o sms_emulator_container=true \
  tests/test_world.py tests/test_isolation.py tests/test_control.py tests/test_app_webhook.py tests/test_cost_vectors.py \
  >"$work/kit.log" 2>&1) || { cat "$work/kit.log"; exit 1; }
grep -q "^sms-emulator: a container of localhost/sms-emulator:" "$work/kit.log" || { cat "$work/kit.log"; exit 1; }
tail -n 1 "$work/kit.log"
[ -z "$(left_running)" ] || { echo "python container suite: containers left after (a): $(left_running)" >&2; exit 1; }

# scripts/image/container-suites.sh --module-only repeats the module's suite alone (the 20-run proof); (b) needs one run.
if [ "${SMS_EMULATOR_CONTAINER_SUITE_PART:-all}" = module ]; then
  echo "(b), the user's project, is left out: SMS_EMULATOR_CONTAINER_SUITE_PART=module"
  exit 0
fi
echo "-- (b) a user's project outside the checkout: the sample suite, no node on PATH"
project="$work/project"
mkdir "$project"
"$python" -m venv "$project/.venv"
"$project/.venv/bin/pip" install --quiet --disable-pip-version-check "$wheel[testcontainers]" pytest-xdist
cp "$kit"/sample/*.py "$kit"/sample/pytest.ini "$project/"
no_node_path="$(bash "$kit/no-node-path.sh" "$project")"
run() {
  (cd "$project" && env -i HOME="$HOME" PATH="$no_node_path" DOCKER_HOST="$DOCKER_HOST" \
    TESTCONTAINERS_RYUK_DISABLED="$TESTCONTAINERS_RYUK_DISABLED" TESTCONTAINERS_HOST_OVERRIDE="$TESTCONTAINERS_HOST_OVERRIDE" \
    TESTCONTAINERS_CONNECTION_MODE="$TESTCONTAINERS_CONNECTION_MODE" \
    "$project/.venv/bin/pytest" -p no:cacheprovider -n 2 -rA)
}
run >"$project/carried.log" 2>&1 || { cat "$project/carried.log"; exit 1; }
grep -q "^sms-emulator: the carried runtime" "$project/carried.log" || { cat "$project/carried.log"; exit 1; }
echo "with the carried runtime: $(tail -n 1 "$project/carried.log")"

cp "$project/pytest.ini" "$work/pytest.ini.before"
sed -i 's/^sms_emulator_container = false$/sms_emulator_container = true/' "$project/pytest.ini"
changed="$(diff "$work/pytest.ini.before" "$project/pytest.ini" | grep -c '^[<>]' || true)"
diff -u "$work/pytest.ini.before" "$project/pytest.ini" | sed 1,2d || true
[ "$changed" = 2 ] || { echo "python container suite: the switch is not one changed line" >&2; exit 1; }

switched="$(date +%s)"
run >"$project/container.log" 2>&1 || { cat "$project/container.log"; exit 1; }
grep -q "^sms-emulator: a container of localhost/sms-emulator:" "$project/container.log" || { cat "$project/container.log"; exit 1; }
echo "with a container: $(tail -n 1 "$project/container.log")"
workers="$(started_since "$switched")"
[ "$workers" = 2 ] || { echo "python container suite: $workers containers started for 2 workers, not one each" >&2; exit 1; }
[ -z "$(left_running)" ] || { echo "python container suite: containers left after (b): $(left_running)" >&2; exit 1; }
echo "python container suite: passed in $((SECONDS - began)) s; $(started_since "$since") containers started, none left"
