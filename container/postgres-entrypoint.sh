#!/bin/sh
# Entrypoint of container/postgres.Containerfile: a new cluster with a database `kahve`, then
# postgres in the foreground on 127.0.0.1 with the given arguments (e.g. -p PORT).
set -eu
bin=/usr/lib/postgresql/15/bin
data=/var/lib/postgresql/data
if [ ! -s "$data/PG_VERSION" ]; then
  "$bin/initdb" -D "$data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-sync >/dev/null
  echo "CREATE DATABASE kahve" | "$bin/postgres" --single -F -D "$data" postgres >/dev/null
fi
exec "$bin/postgres" -D "$data" -c listen_addresses=127.0.0.1 -c unix_socket_directories=/tmp "$@"
