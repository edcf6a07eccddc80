#!/usr/bin/env bash
# Builds the web client for the tests and the gateway: its npm packages and the bundle in dist/
# through scripts/web-build.sh --app (one install path, under its lock, so no other test's run of
# it reinstalls beneath the browsers), then a type check and the unit tests in dist-test/.
# The library (clients/typescript) must be built first: the app imports it as @kahve/client.
set -euo pipefail
cd "$(dirname "$0")/.."
bash ../../scripts/web-build.sh --app
npx tsc --noEmit -p tsconfig.json
node build.mjs --tests-only
