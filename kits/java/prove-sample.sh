#!/usr/bin/env bash
# The Java kit as a new team gets it (.ci/run runs this after npm run kits): kits/java/sample copied into a new Maven
# project outside the checkout, the kit from the file:// repository <dist>/maven, and no node on PATH; its suite passes
# once with the carried runtime and once against a shared emulator (SMS_EMULATOR_URL).
set -euo pipefail
dist="$(cd "${1:?usage: prove-sample.sh <dist folder written by npm run kits>}" && pwd)"
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
emulator=""
cleanup() {
  [ -z "$emulator" ] || kill "$emulator" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
project="$work/shop"
mkdir -p "$project" "$work/tmp"
cp -R "$root/kits/java/sample/." "$project/"

# A PATH holding only what Maven's start script runs, so no node can be found on it.
bin="$(bash "$root/kits/java/no-node-path.sh" "$work/bin")"
java_home="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}"
# The local repository's copy of an earlier build of the same version would hide this build's.
rm -rf "${HOME}/.m2/repository/dev/smsemulator"

run() { # <log> [VAR=value ...]: the sample's mvn test in the new project, with no node on PATH
  local log="$1"
  shift
  (cd "$project" && env -u SMS_EMULATOR_URL -u SMS_EMULATOR_COMMAND "$@" PATH="$bin" JAVA_HOME="$java_home" \
    SMS_EMULATOR_CACHE="$work/cache" mvn -B -ntp test -Dsms-emulator.repo="file://$dist/maven" \
    -DargLine="-Djava.io.tmpdir=$work/tmp") | tee "$log"
  # The kit's temporary folders (the ready file's, check-receiver's) are gone when the run ends.
  if [ -n "$(ls -A "$work/tmp")" ]; then echo "the run left in its temporary folder: $(ls "$work/tmp")" >&2; exit 1; fi
}

echo "== the sample with the carried runtime (dev.smsemulator:sms-emulator-node, ${java_home##*/})"
run "$work/carried.log"
grep -q "sms-emulator: emulator by step 3 of url → command → carried → path-node (carried)" "$work/carried.log" \
  || { echo "the sample did not run the carried runtime" >&2; exit 1; }

echo "== the sample against a shared emulator (SMS_EMULATOR_URL)"
ready="$work/ready.json"
node "$root/bin/sms-emulator.js" --port 0 --clock manual --ready-file "$ready" >"$work/emulator.log" 2>&1 &
emulator=$!
for _ in $(seq 1 100); do [ -f "$ready" ] && break; sleep 0.1; done
[ -f "$ready" ] || { echo "the shared emulator did not start:" >&2; cat "$work/emulator.log" >&2; exit 1; }
origin="$(node -p "require(process.argv[1]).origin" "$ready")"
run "$work/shared.log" SMS_EMULATOR_URL="$origin"
grep -q "sms-emulator: emulator by step 1 of url → command → carried → path-node (url): the running emulator at $origin" "$work/shared.log" \
  || { echo "the sample did not use the shared emulator" >&2; exit 1; }
