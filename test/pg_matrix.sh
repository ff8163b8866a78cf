#!/usr/bin/env bash
# The PostgreSQL version matrix (part of `make test`): for each major other
# than 15 that can be had (test/pg_versions.sh assembles it from pinned
# pieces), the module is built against that major's headers, installed into
# a private copy of that major's installation, and these run on throwaway
# clusters of that major:
#   regress        all of pg_regress
#   dump_restore   test/hardening/dump_restore.sh, on that major alone
#                  (only when PG_MATRIX_CHECKS names it: cross_major restores
#                  the same database onto the major)
#   upgrade        test/hardening/upgrade.sh (every released version -> now)
#   trusted        test/hardening/trusted.sh (a database owner installs and
#                  updates the trusted extension under planted look-alikes)
#   hostile_role   test/hardening/hostile_role.sh, as the unprivileged role
#   cross_major    dump_restore.sh across majors: the database built on 15
#                  (the system's server, the module installed by `make
#                  install`) restored on this major by every dump format and
#                  by binary COPY; bytes and every accessor's answer
#                  compared. (Not the other way: PostgreSQL does not promise
#                  that a dump loads into an older major.)
#
#   bash test/pg_matrix.sh [major...]       (default: 16 17 18; after make install)
#
# A major whose pieces cannot be had is reported "pgNN: SKIPPED (reason)"
# and counted as skipped, never as passed. Closing line:
# "pg_matrix: N passed, M failed, K skipped" (one check per line above and
# major; a skipped major counts as one).
#
# Environment: PG_MATRIX_MAJORS (16 17 18); PG_MATRIX_CHECKS (all six) a
# subset; KEEP=1 keeps the work folder.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
majors=${*:-${PG_MATRIX_MAJORS:-16 17 18}}
# By default (the time budget of make test): pg_regress and the cross-major
# restore (dump/restore onto that major, four ways) on every major, and the
# upgrade, trusted and hostile-role tests on the newest one (PG_MATRIX_FULL_MAJOR,
# 18); PG_MATRIX_CHECKS runs the checks named on every major.
full_major=${PG_MATRIX_FULL_MAJOR:-18}
checks_for() {  # <major>
  if [ -n "${PG_MATRIX_CHECKS:-}" ]; then echo "$PG_MATRIX_CHECKS"
  elif [ "$1" = "$full_major" ]; then echo "regress upgrade trusted hostile_role cross_major"
  else echo "regress cross_major"; fi
}
pg15_config=${PG15_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}

work=$(mktemp -d /tmp/sketch-matrix.XXXXXX)
chmod 755 "$work"
[ -n "${KEEP:-}" ] && echo "pg_matrix: keeping $work" || trap 'rm -rf "$work"' EXIT

passed=0 failed=0 skipped=0
check_start=$(date +%s)
result() {  # <major> <check> <rc> <log> [<counts>]: one line per check, with its seconds
  local secs=$(($(date +%s) - check_start))
  check_start=$(date +%s)
  if [ "$3" -eq 0 ]; then
    passed=$((passed + 1))
    echo "pg$1: $2 passed in $secs s${5:+ ($5)}"
  else
    failed=$((failed + 1))
    echo "pg$1: $2 FAILED (exit $3) in $secs s; the end of its log:"
    tail -n 40 "$4" | sed 's/^/    /'
  fi
}
wants() { case " $(checks_for "$major") " in *" $1 "*) return 0 ;; esac; return 1; }

# run_major <major>: every check of one major; its lines on stdout, its
# counts in $work/pg<major>/counts.
run_major() {
  local major=$1 dir installation config version rc check
  counts_out() { echo "$passed $failed $skipped" >"$work/pg$major/counts"; }
  dir=$work/pg$major
  mkdir -p "$dir"
  rc=0
  installation=$(bash test/pg_versions.sh "$major" 2>"$dir/pieces.err") || rc=$?
  if [ $rc -ne 0 ]; then
    if [ $rc -eq 77 ]; then
      skipped=$((skipped + 1))
      echo "pg$major: SKIPPED ($(sed "s/^pg$major: //" "$dir/pieces.err" | tail -n 1))"
    else
      failed=$((failed + 1))
      echo "pg$major: FAILED assembling its installation:"
      tail -n 20 "$dir/pieces.err" | sed 's/^/    /'
    fi
    counts_out; return 0
  fi

  # The module, built from a copy of the tree (the work tree's objects are
  # the shipped 15 build) and installed into a copy of the installation.
  cp -a "$installation" "$dir/pg"
  mkdir -p "$dir/src"
  tar -c --exclude=node_modules --exclude='*.o' --exclude='*.so' --exclude='*.bc' \
    Makefile sketch.control src releases sql expected test docs | tar -x -C "$dir/src"
  config=$dir/pg/bin/pg_config
  version=$("$config" --version)
  if ! { make -C "$dir/src" -s -j2 PG_CONFIG="$config" all && make -C "$dir/src" -s PG_CONFIG="$config" install; } >"$dir/build.log" 2>&1; then
    result "$major" build 1 "$dir/build.log"
    counts_out; return 0
  fi
  chmod -R a+rX "$dir"
  check_start=$(date +%s)
  echo "pg$major: $version, module built against $(sed -n 's/^#define PG_VERSION "\(.*\)"/\1/p' "$dir/pg/include/postgresql/server/pg_config.h")'s headers"

  # Every check: that major's programs first in PATH (its server, PostgreSQL
  # 18's client programs), PG_CONFIG pointing at the copy.
  on_major() { PATH=$dir/pg/bin:$PATH PG_CONFIG=$config "$@"; }

  if wants regress; then
    rc=0
    on_major bash test/cluster.sh run -- make -C "$dir/src" -s PG_CONFIG="$config" installcheck >"$dir/regress.log" 2>&1 || rc=$?
    [ -f "$dir/src/regression.diffs" ] && head -n 60 "$dir/src/regression.diffs" >>"$dir/regress.log"
    result "$major" regress $rc "$dir/regress.log" "$(grep -Eo '(All [0-9]+ tests passed|[0-9]+ of [0-9]+ tests failed)' "$dir/regress.log" | tail -n 1)"
  fi
  for check in dump_restore upgrade trusted; do
    wants $check || continue
    rc=0
    on_major bash test/cluster.sh run -- bash "test/hardening/$check.sh" >"$dir/$check.log" 2>&1 || rc=$?
    result "$major" $check $rc "$dir/$check.log" "$(grep -c 'identical\|OK\|passed' "$dir/$check.log") lines of agreement"
  done
  if wants hostile_role; then
    rc=0
    HOSTILE_ROLES=hostile on_major bash test/cluster.sh run -- bash test/hardening/hostile_role.sh >"$dir/hostile_role.log" 2>&1 || rc=$?
    result "$major" hostile_role $rc "$dir/hostile_role.log" "$(grep -Eo '^hostile_role: [0-9]+ passed, [0-9]+ failed' "$dir/hostile_role.log" | tail -n 1 | sed 's/^hostile_role: //')"
  fi
  if wants cross_major; then
    # Two clusters at once, 15 (the system's installation) and this major;
    # dump_restore.sh builds on one and restores on the other, both ways.
    printf '%s\n' 'set -e' \
      '# On the cluster of the major; $1 is the socket folder of the 15 cluster.' \
      'RESTORE_PGHOST=$PGHOST PGHOST=$1 bash test/hardening/dump_restore.sh' >"$dir/cross_major.sh"
    rc=0
    PG_CONFIG=$pg15_config bash test/cluster.sh run -- \
      bash -c 'PATH=$1/bin:$PATH PG_CONFIG=$1/bin/pg_config bash test/cluster.sh run -- bash "$2" "$PGHOST"' \
      _ "$dir/pg" "$dir/cross_major.sh" >"$dir/cross_major.log" 2>&1 || rc=$?
    result "$major" cross_major $rc "$dir/cross_major.log" "$(grep -c 'identical' "$dir/cross_major.log") restores identical, 15 -> $major"
  fi
  counts_out
}

# The majors at once (most checks are one session at a time: one core
# each), their lines printed in order afterwards.
for major in $majors; do   # assembled one after the other: they share the client
  bash test/pg_versions.sh "$major" >/dev/null 2>&1 || true
done
for major in $majors; do
  mkdir -p "$work/pg$major"
  run_major "$major" >"$work/pg$major.out" 2>&1 &
done
wait
passed=0 failed=0 skipped=0
for major in $majors; do
  cat "$work/pg$major.out"
  read -r p f s <"$work/pg$major/counts" 2>/dev/null || { p=0; f=1; s=0; echo "pg$major: FAILED (no counts)"; }
  passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
done

echo "pg_matrix: $passed passed, $failed failed, $skipped skipped"
[ $failed -eq 0 ]
