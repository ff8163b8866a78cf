#!/usr/bin/env bash
# The server-side hardening checks, run by `make test` (and `make hardening`)
# against the throwaway cluster of test/cluster.sh:
#
#   bash test/cluster.sh run -- bash test/hardening/run.sh [check...]
#
# (all checks by default; e.g. `... run.sh upgrade "memory --check"` for some).
# Each check is its own script and can be run alone the same way. The
# static extension-script check and the SQL-level tests (bad input, golden
# files, hostile search_path, statement_timeout) run elsewhere in make test.
#
# A check exits 0 when it ran and passed, 77 when it had nothing to test
# (reported and counted as skipped, never as passed; e.g. upgrade.sh before
# the first upgrade script exists), anything else when it failed. Skipped
# checks do not fail the run; failed ones do.
set -euo pipefail
cd "$(dirname "$0")/../.."

checks=(dump_restore dump_cap concurrency cancel upgrade trusted "memory --check" hostile_role)
[ $# -gt 0 ] && checks=("$@")
passed=() skipped=() failed=()
for check in "${checks[@]}"; do
  echo "==== hardening: $check"
  start=$(date +%s)
  read -r -a args <<<"$check"
  rc=0
  bash "test/hardening/${args[0]}.sh" "${args[@]:1}" || rc=$?
  if [ $rc -eq 0 ]; then
    echo "==== hardening: $check passed in $(($(date +%s) - start)) s"
    passed+=("$check")
  elif [ $rc -eq 77 ]; then
    echo "==== hardening: $check SKIPPED (nothing to test; see its output above)"
    skipped+=("$check")
  else
    echo "==== hardening: $check FAILED (exit $rc)" >&2
    failed+=("$check")
  fi
done
echo "==== hardening summary: ${#passed[@]} passed, ${#skipped[@]} skipped${skipped:+ (${skipped[*]})}, ${#failed[@]} failed${failed:+ (${failed[*]})}"
[ ${#failed[@]} -eq 0 ]
