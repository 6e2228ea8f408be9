#!/usr/bin/env bash
# What a Go test's world costs with the carried runtime: the kit's world benchmarks (world_test.go) against an emulator
# started with the Node and bundle of <dist> (npm run kits), this platform's. Prints go test's benchmark lines.
# Usage: bench-world.sh <dist folder> [benchtime, default 300x]
set -euo pipefail
dist="$(cd "${1:?usage: bench-world.sh <dist folder> [benchtime]}" && pwd)"
here="$(cd "$(dirname "$0")" && pwd)"
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform=linux-x86_64 ;;
  Linux-aarch64) platform=linux-aarch_64 ;;
  Darwin-x86_64) platform=osx-x86_64 ;;
  Darwin-arm64) platform=osx-aarch_64 ;;
  *) echo "bench-world.sh: no carried runtime for $(uname -s)-$(uname -m)" >&2; exit 1 ;;
esac
cd "$here"
unset SMS_EMULATOR_URL
SMS_EMULATOR_COMMAND="'$dist/runtime/$platform/node' '$dist/bundle/bin/sms-emulator.js'" \
  go test -run '^$' -bench 'World' -benchtime "${2:-300x}" -count=1 .
