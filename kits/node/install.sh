#!/usr/bin/env bash
# Installs the module's own dependencies for its build and tests in this checkout: `npm ci` with install scripts off
# (testcontainers' ssh2 and cpu-features would compile native code with node-gyp; ssh2 falls back to plain JavaScript,
# and the module never opens an SSH tunnel), then links the peer dependency sms-emulator to this checkout (its dist/,
# which `npm run build` at the root writes). Usage: bash kits/node/install.sh
set -euo pipefail
cd "$(dirname "$0")"
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
ln -sfn ../../.. node_modules/sms-emulator
[ -f node_modules/sms-emulator/dist/index.js ] || { echo "kits/node: build the root first (npm run build)" >&2; exit 1; }
