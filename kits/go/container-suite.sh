#!/usr/bin/env bash
# The Go Testcontainers module's proof (issue 43), run under scripts/image/with-podman.sh (DOCKER_HOST, Ryuk off):
#   1. the module's own suite against the image (kits/go/smsemucontainer, SMS_EMULATOR_CONTAINER_SUITE=1): one
#      container, a world per test, the shared segments vectors through a world's control client, two worlds isolated
#      on it, its webhooks heard by this process, stopped and removed;
#   2. the user's side: a new module outside the checkout requires smsemulator.dev/smsemu and
#      smsemulator.dev/smsemu/smsemucontainer from the built module proxy (<dist>/goproxy, then the machine's GOPROXY
#      for testcontainers-go), no node on PATH; the sample suite (kits/go/sample/) passes with the carried runtime,
#      then again in a container after one line is added to its test file's imports, the blank import of
#      smsemulator.dev/smsemu/smsemucontainer/shared (the diff is printed, and must be that one line). go.mod requires
#      both modules before the carried run, so that run proves the module's presence alone changes nothing.
# Prints the container's start and stop times. Usage: bash scripts/image/with-podman.sh bash kits/go/container-suite.sh [dist]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dist="$(cd "${1:-$here/../dist}" && pwd)"
version="v$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["version"])' "$here/../../package.json")"
[ -n "${DOCKER_HOST:-}" ] || { echo "kits/go container suite: no DOCKER_HOST; run it under scripts/image/with-podman.sh" >&2; exit 1; }
[ -f "$dist/goproxy/smsemulator.dev/smsemu/smsemucontainer/@v/$version.zip" ] ||
  { echo "kits/go container suite: no smsemucontainer@$version in $dist/goproxy: run npm run kits -- go" >&2; exit 1; }
ms() { date +%s%3N; }
began=$(ms)

echo "kits/go container suite: 1. the module's own suite against the image"
(cd "$here/smsemucontainer" && SMS_EMULATOR_CONTAINER_SUITE=1 go test -count=1 -v ./... 2>&1) >"${TMPDIR:-/tmp}/smsemucontainer-suite.$$" || {
  cat "${TMPDIR:-/tmp}/smsemucontainer-suite.$$"
  rm -f "${TMPDIR:-/tmp}/smsemucontainer-suite.$$"
  echo "kits/go container suite: the module's suite failed" >&2
  exit 1
}
out="${TMPDIR:-/tmp}/smsemucontainer-suite.$$"
grep '^smsemucontainer suite: ' "$out"
passed=$(grep -c '^--- PASS' "$out" || true)
skipped=$(grep '^--- SKIP' "$out" | grep -vc 'TestInner' || true)
rm -f "$out"
echo "kits/go container suite: the module's suite: $passed tests passed, $skipped skipped"
[ "$skipped" = 0 ] || { echo "kits/go container suite: a container test was skipped" >&2; exit 1; }

# scripts/image/container-suites.sh --module-only repeats the module's suite alone (the 20-run proof); (b) needs one run.
if [ "${SMS_EMULATOR_CONTAINER_SUITE_PART:-all}" = module ]; then
  echo "(b), the user's project, is left out: SMS_EMULATOR_CONTAINER_SUITE_PART=module"
  exit 0
fi
echo "kits/go container suite: 2. a user's module outside the checkout, from $dist/goproxy"
work="$(mktemp -d)"
cleanup() {
  chmod -R u+w "$work" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
# The machine's proxy after the artefacts' (testcontainers-go and its dependencies come from it), a module cache and a
# user cache of the project's own, this Go only, no checksum database for smsemulator.dev (it does not know these
# modules).
machine_proxy="$(go env GOPROXY)"
GOCACHE="$(go env GOCACHE)"
export GOCACHE GOPROXY="file://$dist/goproxy,$machine_proxy" GONOSUMDB=smsemulator.dev GOMODCACHE="$work/modcache" \
  XDG_CACHE_HOME="$work/cache" GOTOOLCHAIN=local GOFLAGS=-modcacherw CGO_ENABLED=0
unset SMS_EMULATOR_URL SMS_EMULATOR_COMMAND SMS_EMULATOR_CONTROL_TOKEN SMS_EMULATOR_IMAGE
mkdir -p "$work/bin" "$work/app"
ln -s "$(command -v go)" "$work/bin/go"
nonode="$work/bin"
if PATH="$nonode" command -v node >/dev/null 2>&1; then
  echo "kits/go container suite: node is still on the PATH meant to have none" >&2
  exit 1
fi
cp "$here"/sample/*.go "$work/app/"
cd "$work/app"
PATH="$nonode" go mod init example.com/reminders >/dev/null 2>&1
# docs/go.md's install lines: the kit, and the Testcontainers module beside it.
PATH="$nonode" go mod edit -require="smsemulator.dev/smsemu@$version" -require="smsemulator.dev/smsemu/smsemucontainer@$version"

run() { # $1: what is proved
  local start
  start=$(ms)
  env PATH="$nonode" go test -mod=mod -count=1 -v ./... >"$work/out.txt" 2>&1 || {
    cat "$work/out.txt"
    echo "kits/go container suite: the sample suite failed ($1)" >&2
    exit 1
  }
  echo "kits/go container suite: $1: $(grep -c '^--- PASS' "$work/out.txt") tests passed in $(($(ms) - start)) ms; $(grep '^sms-emulator: ' "$work/out.txt" | head -n 1)"
}

run "the sample with the carried runtime"
grep -q '^sms-emulator: the carried runtime' "$work/out.txt" || {
  echo "kits/go container suite: the sample did not use the carried runtime" >&2
  exit 1
}
cp reminders_test.go "$work/reminders_test.go.before"
# The switch (docs/go.md): one blank import added to the test file's import block; TestMain is unchanged.
sed -i 's|^\t"smsemulator.dev/smsemu"$|\t"smsemulator.dev/smsemu"\n\t_ "smsemulator.dev/smsemu/smsemucontainer/shared"|' reminders_test.go
echo "kits/go container suite: the switch to the container:"
diff -u "$work/reminders_test.go.before" reminders_test.go | sed -n '3,$p' || true
changed=$(diff "$work/reminders_test.go.before" reminders_test.go | grep -c '^[<>]' || true)
[ "$changed" = 1 ] || { echo "kits/go container suite: the switch changed $changed lines, not 1" >&2; exit 1; }
start=$(ms)
PATH="$nonode" go test -mod=mod -c -o "$work/reminders.test" . >"$work/build.txt" 2>&1 || {
  cat "$work/build.txt"
  echo "kits/go container suite: the sample does not build with smsemucontainer" >&2
  exit 1
}
echo "kits/go container suite: the sample's test binary with smsemucontainer: testcontainers-go and its dependencies fetched" \
  "($machine_proxy), compiled and linked in $(($(ms) - start)) ms"
run "the sample in a container"
grep -q '^sms-emulator: the container .* (registered by smsemulator.dev/smsemu/smsemucontainer/shared)$' "$work/out.txt" || {
  echo "kits/go container suite: the sample did not use the container the blank import registered" >&2
  exit 1
}
grep '^sms-emulator: the container .* stopped and removed in ' "$work/out.txt" || {
  echo "kits/go container suite: the sample's container was not stopped by Main" >&2
  exit 1
}
echo "kits/go container suite: passed in $(($(ms) - began)) ms"
