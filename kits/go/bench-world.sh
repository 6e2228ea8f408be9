#!/usr/bin/env bash
# What a Go test's world costs with the carried runtime (npm run bench, bench/kitCost.js): the kit's world benchmarks
# (world_test.go) against an emulator started with this platform's Node and bundle from <dist> (npm run kits), one
# world per benchmark run, <worlds> runs each. Prints go test's lines, then the JSON figures bench/kitCost.js reads:
# medians in milliseconds of a world's set-up and clean-up, and of a world with a send waited to delivered and its
# webhook asserted. Usage: bench-world.sh <dist folder> [worlds, default 300]
set -euo pipefail
dist="$(cd "${1:?usage: bench-world.sh <dist folder> [worlds]}" && pwd)"
worlds="${2:-300}"
here="$(cd "$(dirname "$0")" && pwd)"
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) platform=linux-x86_64 ;;
  Linux-aarch64) platform=linux-aarch_64 ;;
  Darwin-x86_64) platform=osx-x86_64 ;;
  Darwin-arm64) platform=osx-aarch_64 ;;
  *)
    echo "bench-world.sh: no carried runtime for $(uname -s)-$(uname -m)" >&2
    exit 1
    ;;
esac
node="$dist/runtime/$platform/node"
cd "$here"
unset SMS_EMULATOR_URL
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
# -benchtime 1x -count N: each result line is one world, so the figures are medians, not means.
SMS_EMULATOR_COMMAND="'$node' '$dist/bundle/bin/sms-emulator.js'" \
  go test -run '^$' -bench '^BenchmarkWorld' -benchtime 1x -count "$worlds" . | tee "$out" | grep -v '^Benchmark' || true
python3 - "$out" "$worlds" "$("$node" --version)" <<'PY'
import json, re, statistics, sys
path, worlds, version = sys.argv[1], int(sys.argv[2]), sys.argv[3]
runs = {"BenchmarkWorld": [], "BenchmarkWorldWithSend": []}
for line in open(path, encoding="utf-8"):
    match = re.match(r"(BenchmarkWorld(?:WithSend)?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op", line)
    if match:
        runs[match.group(1)].append(float(match.group(2)) / 1e6)
if any(len(times) != worlds for times in runs.values()):
    sys.exit(f"bench-world.sh: expected {worlds} runs of each benchmark, got {[len(t) for t in runs.values()]}")
print(json.dumps({
    "kit": "go", "worlds": worlds, "emulator": f"carried node {version} with the carried bundle",
    "worldMs": round(statistics.median(runs["BenchmarkWorld"]), 3),
    "worldWithSendMs": round(statistics.median(runs["BenchmarkWorldWithSend"]), 3),
}))
PY
