#!/usr/bin/env bash
# Runs the Testcontainers modules' suites against the loaded image (issue 43), each under with-podman.sh, so each one
# also fails when anything was pulled while it ran.
#
#   bash scripts/image/container-suites.sh [--runs N] [--module-only] [language…]   (node python go java; default all)
#
# Each language's kits/<language>/container-suite.sh runs N times in a row (default 1; the issue's proof is 20), stopping
# that language at its first failure; the others still run. --module-only runs each module's own suite against the image
# and leaves out the user's project made from the artefacts (SMS_EMULATOR_CONTAINER_SUITE_PART=module). Prints a table
# of passes and times, and exits 1 when any run failed. The kits' artefacts (npm run kits) and the image (npm run image,
# loaded or named by SMS_EMULATOR_IMAGE_ARCHIVE) must exist.
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=1
languages=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runs)
      runs=${2:?--runs takes a number}
      shift 2
      ;;
    --runs=*)
      runs=${1#--runs=}
      shift
      ;;
    --module-only)
      export SMS_EMULATOR_CONTAINER_SUITE_PART=module
      shift
      ;;
    -h | --help)
      sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    node | python | go | java)
      languages+=("$1")
      shift
      ;;
    *)
      echo "container-suites: unknown argument '$1' (languages: node python go java; --runs N; --module-only)" >&2
      exit 2
      ;;
  esac
done
case "$runs" in '' | *[!0-9]* | 0) echo "container-suites: --runs takes a whole number above 0, not '$runs'" >&2; exit 2 ;; esac
[ ${#languages[@]} -gt 0 ] || languages=(node python go java)

dist="$PWD/kits/dist"
table=()
failed=""
for language in "${languages[@]}"; do
  suite="kits/$language/container-suite.sh"
  [ -f "$suite" ] || { echo "container-suites: $suite is missing" >&2; failed=1; table+=("$language: missing"); continue; }
  passed=0
  started=$SECONDS
  for run in $(seq 1 "$runs"); do
    echo "== container suite: $language, run $run of $runs"
    if bash scripts/image/with-podman.sh bash "$suite" "$dist"; then
      passed=$((passed + 1))
    else
      failed=1
      break
    fi
  done
  table+=("$(printf '%-7s %3d of %-3d runs passed in a row  %5d s' "$language:" "$passed" "$runs" $((SECONDS - started)))")
done
echo "== container suites"
printf '%s\n' "${table[@]}"
[ -z "$failed" ]
