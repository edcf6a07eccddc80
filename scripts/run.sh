#!/usr/bin/env bash
# The main job on a fresh Debian 12 machine: install what is missing, build the services and the
# kahve tool, install and build the web tier (scripts/web-build.sh --app: the TypeScript client,
# the gateway, the web client), then run the local stack (scripts/local-stack.sh): a throwaway
# PostgreSQL, the three services, the gateway with the web client, and a demo in which bot clients
# play one game of every ruleset over gRPC. It keeps running, endpoints printed, until Ctrl-C; the
# last line is the web client's address. Arguments go to local-stack.sh (--exit: stop after the
# demo; --verbose: the demo's full transcript; --one-process: `kahve serve --all`; --free-ports).
set -euo pipefail
source "$(dirname "$0")/common.sh"
kahve_install_deps
kahve_build default kahve kahve-rating kahve-table kahve-matchmaking
bash "$kahve_root/scripts/web-build.sh" --app
exec bash "$kahve_root/scripts/local-stack.sh" "$@"
