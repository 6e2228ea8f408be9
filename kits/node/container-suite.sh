#!/usr/bin/env bash
# The Node Testcontainers module against the image (issue 43), run under scripts/image/with-podman.sh:
#   bash scripts/image/with-podman.sh bash kits/node/container-suite.sh [kits/dist]
# (a) the module's own suite (vitest.container.config.ts): one container started by the module's globalSetup for every
#     file, a world per test, webhooks back to the host, two worlds isolated on one container, the segments vectors
#     through cost, and a container of its own started and stopped; the start and stop times are printed.
# (b) a user's project from the user's side: kits/node/sample copied into a folder outside the checkout, sms-emulator and
#     sms-emulator-testcontainers installed from their packed tarballs (<dist>/npm, `npm run kits -- node`; packed here
#     when absent), testcontainers and vitest from npm; green with sms-emulator's own smsGlobalSetup (the bin of the
#     installed package), then green again after one line of vitest.config.ts names the module's globalSetup.
set -euo pipefail
kit="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$kit/../.." && pwd)"
dist="${1:-$root/kits/dist}"
mkdir -p "$dist"
dist="$(cd "$dist" && pwd)"
[ -n "${DOCKER_HOST:-}" ] || { echo "node container suite: no DOCKER_HOST; run it under scripts/image/with-podman.sh" >&2; exit 1; }
version="$(node -p "require('$root/package.json').version")"
suite_started=$SECONDS

echo "== node container suite (a): the module's suite against the image"
[ -f "$root/dist/index.js" ] || (cd "$root" && npm run build --silent)
bash "$kit/install.sh"
(cd "$kit" && npm run build --silent)
(cd "$kit" && node ../../node_modules/vitest/vitest.mjs run --config vitest.container.config.ts)

# scripts/image/container-suites.sh --module-only repeats the module's suite alone (the 20-run proof); (b) needs one run.
if [ "${SMS_EMULATOR_CONTAINER_SUITE_PART:-all}" = module ]; then
  echo "(b), the user's project, is left out: SMS_EMULATOR_CONTAINER_SUITE_PART=module"
  exit 0
fi
echo "== node container suite (b): a user's project outside the checkout, from the packed tarballs"
if [ ! -f "$dist/npm/sms-emulator-$version.tgz" ] || [ ! -f "$dist/npm/sms-emulator-testcontainers-$version.tgz" ]; then
  bash "$kit/build-artefacts.sh" "$dist"
fi
project="$(mktemp -d /tmp/sms-emulator-node-project.XXXXXX)"
trap 'rm -rf "$project"' EXIT
cp -R "$kit/sample/." "$project/"
cd "$project"
# Install scripts off, as the module's README says: ssh2's native part is optional and no SSH tunnel is ever opened.
npm install --ignore-scripts --no-audit --no-fund --loglevel=error \
  "$dist/npm/sms-emulator-$version.tgz" "$dist/npm/sms-emulator-testcontainers-$version.tgz"

# Containers started from the image since a moment, as podman's events tell them.
containers_since() {
  podman events --stream=false --since "$1" --filter type=container --filter event=start --format '{{.Image}}' 2>/dev/null |
    grep -c "$(node -p "require('./node_modules/sms-emulator/test-vectors/kit-contract.json').container.repository")" || true
}

echo "== the carried runtime: sms-emulator's smsGlobalSetup starts the installed package's bin"
since="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
npx vitest run
started="$(containers_since "$since")"
[ "$started" = 0 ] || { echo "node container suite: the carried run started $started containers" >&2; exit 1; }

echo "== one line changed: the module's globalSetup starts the container"
cp vitest.config.ts vitest.config.ts.carried
sed -i "s#globalSetup: \['test/emulatorProcess.ts'\]#globalSetup: ['sms-emulator-testcontainers/vitest']#" vitest.config.ts
diff -u vitest.config.ts.carried vitest.config.ts && { echo "node container suite: the line was not changed" >&2; exit 1; }
[ "$(diff vitest.config.ts.carried vitest.config.ts | grep -c '^[<>]')" = 2 ] || { echo "node container suite: more than one line changed" >&2; exit 1; }
since="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
npx vitest run
started="$(containers_since "$since")"
[ "$started" = 1 ] || { echo "node container suite: the container run started $started containers of the image, not 1" >&2; exit 1; }
echo "== node container suite: passed in $((SECONDS - suite_started)) s"
