#!/usr/bin/env bash
# What a world costs the Java kit with the carried runtime (for npm run bench): WorldCost over [worlds] worlds (default
# 300) on one emulator started from the carried bundle and the runtime jar of this platform in <dist>/maven. Needs
# `npm run kits` (which builds target/classes with the bundle) and `mvn test-compile` first; prints the medians.
set -euo pipefail
dist="$(cd "${1:?usage: bench-world.sh <dist folder written by npm run kits> [worlds]}" && pwd)"
worlds="${2:-300}"
cd "$(dirname "$0")"
version="$(node -p "require('../../package.json').version")"
platform="$(java -XshowSettings:properties -version 2>&1 | awk -F' = ' '/os.name/ {os=$2} /os.arch/ {arch=$2} END {
  sub(/ .*/, "", os); os=tolower(os); if (os == "mac") os="osx"; if (arch == "amd64") arch="x86_64"; if (arch == "aarch64") arch="aarch_64"; print os "-" arch }')"
runtime="$dist/maven/dev/smsemulator/sms-emulator-node/$version/sms-emulator-node-$version-$platform.jar"
[ -f "$runtime" ] || { echo "no runtime jar for $platform: $runtime" >&2; exit 1; }
[ -f target/classes/dev/smsemulator/junit/emulator.list ] || { echo "target/classes lacks the carried bundle: run npm run kits" >&2; exit 1; }
[ -d target/test-classes ] || mvn -B -ntp -q test-compile
cache="$(mktemp -d)"
trap 'rm -rf "$cache"' EXIT
env -u SMS_EMULATOR_URL -u SMS_EMULATOR_COMMAND SMS_EMULATOR_CACHE="$cache" \
  java -cp "target/classes:target/test-classes:$runtime" dev.smsemulator.junit.WorldCost "$worlds"
