#!/usr/bin/env bash
# The image end to end (ctest container/smoke). Builds the images (container/build.sh), then, on
# the host's network and on free ports:
#   1. PostgreSQL 15 in a container (container/postgres.Containerfile) and `kahve migrate`;
#   2. kahve-rating, kahve-table and kahve-matchmaking, each in its own container of kahve:latest
#      run the way k8s/ runs it (the image's user 10001, read-only root, /tmp a tmpfs, no
#      capabilities), until each logs "<name> serving";
#   3. every service answers grpc.health.v1 SERVING, for "" and for its service name (`kahve health`
#      in the image), and serves /metrics;
#   4. `kahve demo` in the image plays a game of every ruleset through matchmaking, the table and
#      the rating service, and checks each player's match history;
#   5. the gateway in kahve-web:latest, run the same way, in front of the stack: /healthz, the web
#      client's index.html, a unary gRPC-Web call with a player's token, an admin method refused,
#      no guest tokens (web/gateway/src/smoke.ts, in the image);
#   6. SIGTERM (podman stop) ends every service and the gateway cleanly, with exit status 0.
# Fails at the first step that does not hold, printing the services' logs. Its containers are
# removed on exit, the images kept (the next run reuses their layers). Prints each phase's time.
#
# Usage: container/smoke.sh
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=container/common.sh
source "$here/common.sh"

podman=("${kahve_podman[@]}")
image=kahve:latest
web_image=kahve-web:latest

# One run at a time per user (trees share the image tags, and the machine its cores): a second
# run waits here for the first.
exec 9>"${XDG_RUNTIME_DIR:-/tmp}/kahve-container-smoke-$(id -u).lock"
flock 9
run_id="kahve-smoke-$$"
containers=()
timings=()
phase_start=$SECONDS

# phase NAME: records the time since the previous phase ended as NAME's.
phase() {
  timings+=("$1: $((SECONDS - phase_start)) s")
  phase_start=$SECONDS
}

fail() {
  echo "container/smoke: FAILED: $*" >&2
  exit 1
}

finish() {
  local status=$? name
  if [ -n "${release:-}" ]; then rm -rf "$release"; fi
  if [ "$status" -ne 0 ]; then
    for name in "${containers[@]}"; do
      echo "== podman logs $name (last 30 lines)" >&2
      "${podman[@]}" logs --tail 30 "$name" >&2 2>&1 || true
    done
  fi
  for name in "${containers[@]}"; do
    "${podman[@]}" rm --force --time 0 "$name" >/dev/null 2>&1 || true
  done
  echo "container/smoke: timings: ${timings[*]/%/;} total $SECONDS s"
  exit "$status"
}
trap finish EXIT

# Distinct ports the kernel calls free, all at once (the sockets are held until all are chosen).
free_ports() {
  python3 -c '
import socket, sys
socks = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))' "$1"
}

# start NAME [RUN OPTION...] IMAGE [ARG...]: a detached container on the host's network, removed
# at the end.
start() {
  local name="$run_id-$1"
  shift
  containers+=("$name")
  "${podman[@]}" run --detach --name "$name" --network host "${kahve_limits[@]}" \
    "$@" >/dev/null || fail "podman run $name"
}

# The way k8s/ runs the services: the image's own user, nothing writable but /tmp.
service_args=(--read-only --tmpfs /tmp --cap-drop all --security-opt no-new-privileges
  --env KAHVE_DATABASE --env KAHVE_JWT_HS256_SECRET)

# in_image ARGS...: runs the kahve tool in a throwaway container of the image.
in_image() {
  "${podman[@]}" run --rm --network host "${kahve_limits[@]}" "${service_args[@]}" "$image" "$@"
}

# wait_for NAME TEXT: until NAME's log has TEXT; fails when NAME stops first or after 60 s.
wait_for() {
  local name="$run_id-$1"
  for _ in $(seq 240); do
    if "${podman[@]}" logs "$name" 2>&1 | grep -qF -- "$2"; then return 0; fi
    if [ "$("${podman[@]}" inspect --format '{{.State.Running}}' "$name")" != true ]; then
      fail "$1 stopped before logging $2"
    fi
    sleep 0.25
  done
  fail "$1 did not log $2 within 60 s"
}

# --- Images --------------------------------------------------------------------------------------
bash "$here/base-image.sh"
phase "base image"
bash "$here/build.sh" "$image"
phase "image build"
[ "$("${podman[@]}" image inspect --format '{{.Config.User}}' "$image")" = 10001:10001 ] ||
  fail "$image does not run as user 10001"
for binary in kahve-matchmaking kahve-table kahve-rating kahve; do
  in_image test -x "/usr/local/bin/$binary" || fail "$image has no /usr/local/bin/$binary"
done
[ "$("${podman[@]}" image inspect --format '{{.Config.User}}' "$web_image")" = 10001:10001 ] ||
  fail "$web_image does not run as user 10001"

# --- The stack -----------------------------------------------------------------------------------
read -r pg_port rating_port rating_metrics table_port table_metrics mm_port mm_metrics \
  <<<"$(free_ports 7)"
export KAHVE_DATABASE="postgresql://postgres@127.0.0.1:$pg_port/kahve"
KAHVE_JWT_HS256_SECRET="smoke-$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')"
export KAHVE_JWT_HS256_SECRET

start postgres kahve-postgres:15 -p "$pg_port"
wait_for postgres "database system is ready to accept connections"
in_image kahve migrate || fail "kahve migrate"

start rating "${service_args[@]}" "$image" kahve-rating \
  --port "$rating_port" --metrics_port "$rating_metrics" --drain_seconds 0
wait_for rating '"msg":"kahve-rating serving"'
start table "${service_args[@]}" "$image" kahve-table \
  --port "$table_port" --metrics_port "$table_metrics" --drain_seconds 0 --host_id smoke-table \
  --advertise "127.0.0.1:$table_port" --rating_target "127.0.0.1:$rating_port"
wait_for table '"msg":"kahve-table serving"'
start matchmaking "${service_args[@]}" "$image" kahve-matchmaking \
  --port "$mm_port" --metrics_port "$mm_metrics" --drain_seconds 0 \
  --rating_target "127.0.0.1:$rating_port" --table_target "127.0.0.1:$table_port" \
  --pass_interval_ms 100
wait_for matchmaking '"msg":"kahve-matchmaking serving"'
phase startup

# --- Health and metrics --------------------------------------------------------------------------
# health PORT SERVICE: `kahve health` in the image must print SERVING and exit 0.
health() {
  local out
  out="$(in_image kahve health --target "127.0.0.1:$1" --service "$2")" ||
    fail "kahve health --target 127.0.0.1:$1 --service '$2' exited non-zero: $out"
  [ "$out" = SERVING ] || fail "health of '$2' on port $1: $out"
}
for check in "$rating_port kahve.v1.RatingService" "$table_port kahve.v1.TableService" \
  "$mm_port kahve.v1.MatchmakingService"; do
  read -r port name <<<"$check"
  health "$port" ""
  health "$port" "$name"
done
# The check can fail: a name the server does not serve is not SERVING.
if in_image kahve health --target "127.0.0.1:$rating_port" --service kahve.v1.NoSuchService \
  >/dev/null 2>&1; then
  fail "kahve health reports SERVING for a service that does not exist"
fi

# metrics PORT: GET /metrics answers 200 with Prometheus text (bash's /dev/tcp: no curl here).
metrics() {
  local reply
  reply="$(exec 3<>"/dev/tcp/127.0.0.1/$1" &&
    printf 'GET /metrics HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n' >&3 && timeout 10 cat <&3)" ||
    fail "GET /metrics on port $1"
  grep -q '^HTTP/1\.[01] 200' <<<"$reply" || fail "GET /metrics on port $1: $(head -n 1 <<<"$reply")"
  grep -q '^# TYPE ' <<<"$reply" || fail "GET /metrics on port $1: no metrics"
}
metrics "$rating_metrics"
metrics "$table_metrics"
metrics "$mm_metrics"
phase health

# --- A game of every ruleset, through the whole stack --------------------------------------------
in_image kahve demo --matchmaking_target "127.0.0.1:$mm_port" \
  --rating_target "127.0.0.1:$rating_port" || fail "kahve demo"
phase game

# --- The web tier: the gateway image in front of the stack ----------------------------------------
read -r web_port web_metrics <<<"$(free_ports 2)"
# As k8s/base/web.yaml runs it: the image's command and defaults (no guest tokens, no signing key).
start web --read-only --tmpfs /tmp --cap-drop all --security-opt no-new-privileges "$web_image" \
  /usr/bin/node /opt/kahve/web/gateway/dist/src/main.js --port "$web_port" \
  --metrics_port "$web_metrics" --drain_seconds 0 --matchmaking_target "127.0.0.1:$mm_port" \
  --table_target "127.0.0.1:$table_port" --rating_target "127.0.0.1:$rating_port"
wait_for web '"msg":"kahve-gateway serving"'
token="$(in_image kahve token --player smoke-web)" || fail "kahve token"
"${podman[@]}" run --rm --network host "${kahve_limits[@]}" --read-only --cap-drop all "$web_image" \
  /usr/bin/node /opt/kahve/web/gateway/dist/src/smoke.js --url "http://127.0.0.1:$web_port" \
  --token "$token" --page --guest_off || fail "the gateway in $web_image"
phase web

# --- Shutdown ------------------------------------------------------------------------------------
for service in web matchmaking table rating; do
  name="$run_id-$service"
  "${podman[@]}" stop --time 30 "$name" >/dev/null || fail "podman stop $service"
  code="$("${podman[@]}" inspect --format '{{.State.ExitCode}}' "$name")"
  [ "$code" = 0 ] || fail "kahve-$service exited with $code on SIGTERM"
done
phase shutdown

# --- The release of these images (container/release.sh), into OCI layouts here ------------------
release="$(mktemp -d)"
cp -r "$here/../k8s/overlays/prod" "$release/prod"
if ! git -C "$here/.." describe --tags --exact-match >/dev/null 2>&1; then
  if bash "$here/release.sh" --no-build --overlay "$release/prod" --out "$release/out" \
    --push-to-dir "$release/oci" localhost/kahve-smoke >/dev/null 2>"$release/untagged.err"; then
    fail "release.sh released an untagged commit without --allow-untagged"
  fi
  grep -q "is not tagged v" "$release/untagged.err" ||
    fail "release.sh refused an untagged commit for another reason: $(cat "$release/untagged.err")"
fi
bash "$here/release.sh" --no-build --allow-untagged --overlay "$release/prod" --out "$release/out" \
  --push-to-dir "$release/oci" localhost/kahve-smoke || fail "container/release.sh"
python3 - "$release" "$here/../CMakeLists.txt" <<'PY' || fail "the release's digests, overlay or SBOMs"
import json, re, sys
release, cmake = sys.argv[1:]
version = re.search(r"project\(kahve VERSION ([0-9.]+)", open(cmake).read()).group(1)
kustomization = open(f"{release}/prod/kustomization.yaml").read()
for name, needs in (("kahve", "libpqxx"), ("kahve-web", "@connectrpc/connect")):
    stored = json.load(open(f"{release}/oci/{name}/index.json"))["manifests"][0]["digest"]
    pinned = re.search(r"  - name: %s\n    newName: (.*)\n    newTag: (.*)\n    digest: (.*)" % name, kustomization)
    assert pinned and pinned.groups() == (f"localhost/kahve-smoke/{name}", version, stored), \
        (name, pinned and pinned.groups(), stored)
    sbom = json.load(open(f"{release}/out/{name}-{version}.spdx.json"))
    names = [p["name"] for p in sbom["packages"]]
    assert sbom["spdxVersion"] == "SPDX-2.3" and len(names) > 50, (name, len(names))
    assert any(n.startswith(needs) for n in names), (name, needs)
    print(f"{name}: {pinned.group(1)}:{version}@{stored}, SBOM of {len(names) - 1} packages")
PY
phase release
echo "container/smoke: ok"
