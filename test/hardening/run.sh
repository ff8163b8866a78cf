#!/usr/bin/env bash
# The server-side hardening checks, run by `make test` (and `make hardening`)
# against the throwaway cluster of test/cluster.sh:
#
#   bash test/cluster.sh run -- bash test/hardening/run.sh
#
# Each check is its own script and can be run alone the same way. The
# static extension-script check and the SQL-level tests (bad input, golden
# files, hostile search_path, statement_timeout) run elsewhere in make test.
set -euo pipefail
cd "$(dirname "$0")/../.."

status=0
for check in dump_restore concurrency cancel upgrade "memory --check"; do
  echo "==== hardening: $check"
  start=$(date +%s)
  read -r -a args <<<"$check"
  if bash "test/hardening/${args[0]}.sh" "${args[@]:1}"; then
    echo "==== hardening: $check passed in $(($(date +%s) - start)) s"
  else
    echo "==== hardening: $check FAILED" >&2
    status=1
  fi
done
exit $status
