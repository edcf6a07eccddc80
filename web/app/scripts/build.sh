#!/usr/bin/env bash
# Builds the web client for the tests and the gateway: its npm packages when missing (npm ci, from
# the committed lockfile), a type check, the bundle in dist/ and the unit tests in dist-test/.
# The library (clients/typescript) must be built first: the app imports it as @kahve/client.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -d node_modules/esbuild ] || npm ci --no-audit --no-fund
npx tsc --noEmit -p tsconfig.json
node build.mjs --tests
