#!/usr/bin/env bash
# The Go kit's proof (issue 30): a new module outside the checkout requires smsemulator.dev/smsemu from the built
# module proxy (GOPROXY=file://<dist>/goproxy, a fresh module cache) and passes the sample suite (kits/go/sample/)
# with no node on PATH: once with the runtime the module carries, once against a shared emulator (SMS_EMULATOR_URL).
# Prints the cold and warm cost of the carried runtime. Usage: prove-artefacts.sh <dist folder>
set -euo pipefail
dist="$(cd "${1:?usage: prove-artefacts.sh <dist folder>}" && pwd)"
here="$(cd "$(dirname "$0")" && pwd)"
version="v$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["version"])' "$here/../../package.json")"
work="$(mktemp -d)"
shared_pid=""
cleanup() {
  [ -z "$shared_pid" ] || kill "$shared_pid" 2>/dev/null || true
  chmod -R u+w "$work" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# Go's own environment for the new module: the artefacts' proxy, a module cache and a user cache of its own (so the
# carried runtime is unpacked cold), no checksum database for smsemulator.dev (it does not know these modules yet),
# this Go only.
GOCACHE="$(go env GOCACHE)" # the build cache stays the machine's: the standard library is not the kit's cost
export GOCACHE GOPROXY="file://$dist/goproxy" GONOSUMDB=smsemulator.dev GOMODCACHE="$work/modcache" XDG_CACHE_HOME="$work/cache" \
  GOTOOLCHAIN=local GOFLAGS=-modcacherw CGO_ENABLED=0
unset SMS_EMULATOR_URL SMS_EMULATOR_COMMAND SMS_EMULATOR_CONTROL_TOKEN
# A PATH with go and nothing else: no node.
mkdir -p "$work/bin" "$work/app"
ln -s "$(command -v go)" "$work/bin/go"
nonode="$work/bin"
if PATH="$nonode" command -v node >/dev/null 2>&1; then
  echo "kits/go proof: node is still on the PATH meant to have none" >&2
  exit 1
fi

cp "$here"/sample/*.go "$work/app/"
# The test vectors come with the module (smsemu.Vectors, embedded): the proof reads every one from it.
cat >"$work/app/vectors_test.go" <<'GO'
package reminders

import (
	"io/fs"
	"testing"

	"smsemulator.dev/smsemu"
)

func TestTheModuleCarriesEveryTestVector(t *testing.T) {
	for _, name := range []string{"kit-contract.json", "signing.json", "schedule.json", "webhooks.json", "segments.json"} {
		if _, err := fs.ReadFile(smsemu.Vectors(), name); err != nil {
			t.Error(err)
		}
	}
}
GO
cd "$work/app"
PATH="$nonode" go mod init example.com/reminders >/dev/null 2>&1
# As docs/go.md says: require the kit, and let the first go test fetch it and this platform's runtime module only
# (go get and go mod tidy consider every platform and fetch all five).
PATH="$nonode" go mod edit -require="smsemulator.dev/smsemu@$version"

ms() { date +%s%3N; }
run() { # $1: what is proved; the rest: the environment
  local label="$1"
  shift
  local start
  start=$(ms)
  env PATH="$nonode" "$@" go test -count=1 -v ./... >"$work/out.txt" 2>&1 || {
    cat "$work/out.txt"
    echo "kits/go proof: the sample suite failed ($label)" >&2
    exit 1
  }
  echo "kits/go proof: $label: $(grep -c '^--- PASS' "$work/out.txt") tests passed in $(($(ms) - start)) ms; $(grep '^sms-emulator: ' "$work/out.txt" | head -n 1)"
}

start=$(ms)
PATH="$nonode" go test -mod=mod -c -o "$work/reminders.test" . >/dev/null
echo "kits/go proof: the sample's test binary, carrying the runtime: fetched, compiled and linked in $(($(ms) - start)) ms," \
  "$(($(stat -c %s "$work/reminders.test") / 1000000)) MB; go.mod: $(grep -c smsemulator.dev go.mod) requirements"
run "carried runtime, cold (unpacked on first use)"
grep -q '^sms-emulator: the carried runtime' "$work/out.txt" || {
  echo "kits/go proof: the suite did not use the carried runtime" >&2
  exit 1
}
run "carried runtime, warm (already unpacked)"
zips=$(find "$GOMODCACHE/cache/download/smsemulator.dev/smsemu/node" -name '*.zip' | wc -l)
echo "kits/go proof: runtime module zips fetched: $zips (this platform's only); unpacked: $(du -sh "$XDG_CACHE_HOME/sms-emulator" | cut -f1)"
[ "$zips" = 1 ] || exit 1

# A shared emulator, started with the carried node itself (still no node on PATH), as a team's CI would run one.
node_bin=$(find "$XDG_CACHE_HOME/sms-emulator/go" -path '*/node-*' -type f \( -name node -o -name node.exe \) | head -n 1)
bundle=$(find "$XDG_CACHE_HOME/sms-emulator/go" -maxdepth 2 -type d -name 'bundle-*' | head -n 1)
"$node_bin" "$bundle/bin/sms-emulator.js" --port 0 --clock manual --ready-file "$work/ready.json" >"$work/shared.log" 2>&1 &
shared_pid=$!
for _ in $(seq 1 100); do [ -f "$work/ready.json" ] && break; sleep 0.1; done
origin=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["origin"])' "$work/ready.json")
run "shared emulator" SMS_EMULATOR_URL="$origin"
grep -q "^sms-emulator: SMS_EMULATOR_URL=$origin" "$work/out.txt" || {
  echo "kits/go proof: the suite did not use the shared emulator" >&2
  exit 1
}
