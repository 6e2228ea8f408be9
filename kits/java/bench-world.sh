#!/usr/bin/env bash
# What a world costs the Java kit with what it carries (npm run bench runs it, bench/kitCost.js): WorldCost over [worlds]
# worlds (default 300) on one emulator started from the artefacts in <dist>/maven, the sms-emulator-junit jar (the
# carried bundle) and the sms-emulator-node jar of this platform. Prints the medians, then their JSON line.
set -euo pipefail
dist="$(cd "${1:?usage: bench-world.sh <dist folder written by npm run kits> [worlds]}" && pwd)"
worlds="${2:-300}"
cd "$(dirname "$0")"
version="$(node -p "require('../../package.json').version")"
platform="$(java -XshowSettings:properties -version 2>&1 | awk -F' = ' '/os.name/ {os=$2} /os.arch/ {arch=$2} END {
  sub(/ .*/, "", os); os=tolower(os); if (os == "mac") os="osx"; if (arch == "amd64") arch="x86_64"; if (arch == "aarch64") arch="aarch_64"; print os "-" arch }')"
repo="$dist/maven/dev/smsemulator"
kit="$repo/sms-emulator-junit/$version/sms-emulator-junit-$version.jar"
runtime="$repo/sms-emulator-node/$version/sms-emulator-node-$version-$platform.jar"
[ -f "$kit" ] || { echo "no $kit: run npm run kits" >&2; exit 1; }
[ -f "$runtime" ] || { echo "no runtime jar for $platform: $runtime" >&2; exit 1; }
# WorldCost is a test class of the kit: compiled, not packaged.
[ -f target/test-classes/dev/smsemulator/junit/WorldCost.class ] || mvn -B -ntp -q test-compile
cache="$(mktemp -d)"
trap 'rm -rf "$cache"' EXIT
env -u SMS_EMULATOR_URL -u SMS_EMULATOR_COMMAND SMS_EMULATOR_CACHE="$cache" \
  java -cp "$kit:$runtime:target/test-classes" dev.smsemulator.junit.WorldCost "$worlds"
