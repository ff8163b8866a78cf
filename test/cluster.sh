#!/usr/bin/env bash
# Runs a command against a throwaway PostgreSQL cluster.
#
#   test/cluster.sh run -- <command...>         always a throwaway cluster
#   test/cluster.sh run-or-use -- <command...>  the user's server when PGHOST
#                                               or PGDATABASE is set
#
# The cluster lives in a fresh temporary directory, listens only on a Unix
# socket there, and is removed when the command ends, however it ends.
# PostgreSQL refuses to run as root, so as root the cluster belongs to the
# unprivileged `postgres` system user; the command itself runs as the caller
# with PGHOST/PGPORT/PGUSER/PGDATABASE pointing at the cluster.
set -euo pipefail

mode=${1:-}
shift || true
[ "${1:-}" = "--" ] && shift
if [ -z "$mode" ] || [ $# -eq 0 ]; then
  echo "usage: $0 run|run-or-use -- <command...>" >&2
  exit 2
fi

if [ "$mode" = "run-or-use" ] && { [ -n "${PGHOST:-}" ] || [ -n "${PGDATABASE:-}" ]; }; then
  echo "cluster: using your server (PGHOST=${PGHOST:-} PGDATABASE=${PGDATABASE:-})"
  exec "$@"
fi

PG_MAJOR=${PG_MAJOR:-15}
# PG_BIN: another server build, e.g. a copy of the installation with a
# private DESTDIR install of the extension in it (test/pg_sanitized.sh).
# PG_SERVER_ENV: VAR=value words for the server's environment only (e.g.
# LD_PRELOAD of a sanitizer runtime). CLUSTER_SERVER_LOG: a file to copy the
# server's log to when the command ends, before the cluster is removed.
# PG_CONFIG (when PG_BIN is not set): the installation whose bin/ to use,
# e.g. a private copy made by test/pg_private.sh.
if [ -n "${PG_BIN:-}" ]; then pg_bin=$PG_BIN
elif [ -n "${PG_CONFIG:-}" ]; then pg_bin=$("$PG_CONFIG" --bindir)
else pg_bin=/usr/lib/postgresql/$PG_MAJOR/bin; fi
read -r -a server_env <<<"${PG_SERVER_ENV:-}"
dir=$(mktemp -d /tmp/sketch-cluster.XXXXXX)
chmod 755 "$dir"

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

cleanup() {
  as_owner "$pg_bin/pg_ctl" -D "$dir/data" stop -m immediate >/dev/null 2>&1 || true
  [ -z "${CLUSTER_SERVER_LOG:-}" ] || cp "$dir/server.log" "$CLUSTER_SERVER_LOG" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

[ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
as_owner "$pg_bin/initdb" -D "$dir/data" -U postgres --auth=trust --no-sync \
  -E UTF8 --locale=C >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log"; exit 1; }

cat >>"$dir/data/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$dir'
port = 5432
fsync = off
synchronous_commit = off
full_page_writes = off
shared_buffers = '512MB'
work_mem = '64MB'
maintenance_work_mem = '256MB'
max_parallel_workers_per_gather = 2
max_worker_processes = 8
jit = off
CONF

if ! as_owner env "${server_env[@]}" "$pg_bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null; then
  cat "$dir/server.log" >&2
  exit 1
fi

export PGHOST=$dir PGPORT=5432 PGUSER=postgres PGDATABASE=postgres
set +e
"$@"
status=$?
set -e
# 77 is a check reporting itself skipped (test/hardening/run.sh), not a failure.
if [ $status -ne 0 ] && [ $status -ne 77 ] && [ -s "$dir/server.log" ]; then
  echo "---- server log (last 30 lines) ----" >&2
  tail -n 30 "$dir/server.log" >&2
fi
exit $status
