#!/usr/bin/env bash
# `make test`: every stage of the test suite, the independent ones at the
# same time, then one table of stage, seconds and passed/failed/skipped.
#
#   bash test/make_test.sh          (what `make test` runs, after make deps)
#
# The stages, and what runs beside what (docs/testing.md has the reasons):
#
#   first, in order   static: deps_mapping, layout, extension script
#                     module: PGXS build of sketch.so (-j2) and install
#   then three lanes at once, each in order:
#     core            core-shipped: unit + accuracy tests and the fuzz
#                       replays linked with the module's own core objects
#                       (ctest -j2);
#                     sanitize: one clang build, ASan + UBSan (+ libFuzzer
#                       coverage): the unit and accuracy tests (ctest -j2);
#                     fuzz: every libFuzzer target of that same build,
#                       replays first, FUZZ_SECONDS each, two at a time;
#                     packaging: make dist and make deb from HEAD, lintian,
#                       the package installed into a throwaway root and used
#                       (test/packaging.sh; the core lane ends first)
#     server          regress (pg_regress), hardening (dump/restore, dump
#                       cap, concurrency, cancel, upgrade, memory), interop,
#                       docs, citus: one throwaway cluster per stage
#     sanitized pg    pg-sanitized: the PostgreSQL layer built with UBSan and
#                       ASan into a private copy of the installation; its
#                       pg_regress, then the hostile-role test (both roles,
#                       one cluster, one setup) on it; any sanitizer report
#                       in a server log fails the stage;
#                     versions: the version matrix (test/pg_matrix.sh): for
#                       PostgreSQL 16, 17 and 18, where they can be had, the
#                       module built against that major, pg_regress,
#                       dump/restore, upgrade, hostile role and a restore of
#                       a 15 database on it; a major that cannot be had is
#                       skipped
#
# Every stage writes build/test-logs/<stage>.log; a failing stage's log tail
# is printed at the end. Exit status: 0 when no stage failed.
#
# Environment: TEST_FUZZ_SECONDS (10) seconds per fuzz target; TEST_STAGES
# (all) a space-separated subset of the stage names above.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
logs=$root/build/test-logs
rm -rf "$logs"
mkdir -p "$logs"
t0=$(date +%s)
export TEST_FUZZ_SECONDS=${TEST_FUZZ_SECONDS:-10}
stages="static module core-shipped sanitize fuzz packaging regress hardening interop docs citus pg-sanitized versions"
wanted=" ${TEST_STAGES:-$stages} "

# The CPU a stage used, its own processes and every server it started
# (a server outlives the fork that started it, not its control group), when
# the cpuacct controller of cgroup v1 lets us make a group: the machine is
# CPU-bound with three lanes at once, so a stage's wall time says more about
# what ran beside it than about its own cost. "-" where no group can be made.
cpu_root=/sys/fs/cgroup/cpuacct
cpu_group() {  # cpu_group <stage>: a fresh group's directory, or nothing
  local group=$cpu_root/sketch-make-test-$$-$1
  if [ -w "$cpu_root" ] && mkdir "$group" 2>/dev/null; then echo "$group"; fi
}
cpu_seconds() {  # cpu_seconds <group>: its CPU seconds (then removes it), or -
  local group=$1 ns
  if [ -n "$group" ] && ns=$(cat "$group/cpuacct.usage" 2>/dev/null); then
    echo $(((ns + 500000000) / 1000000000))
    rmdir "$group" 2>/dev/null || true
  else
    echo -
  fi
}

# stage <name> <command...>: runs the command with its output in the stage's
# log, then writes <name>.result: seconds, exit status and the counts that
# counts_<kind> read from the log.
stage() {
  local name=$1 start rc
  shift
  case $wanted in *" $name "*) ;; *) return 0 ;; esac
  start=$(date +%s)
  echo "make test: $name started at +$((start - t0)) s"
  local group
  group=$(cpu_group "$name")
  (
    [ -z "$group" ] || echo "$BASHPID" >"$group/tasks" 2>/dev/null || true
    "$@"
  ) >"$logs/$name.log" 2>&1
  rc=$?
  printf '%s\t%s\t%s\t%s\n' "$start" "$(($(date +%s) - start))" "$rc" "$(cpu_seconds "$group")" >"$logs/$name.result"
  if [ $rc -eq 0 ]; then
    echo "make test: $name passed in $(($(date +%s) - start)) s"
  else
    echo "make test: $name FAILED (exit $rc) in $(($(date +%s) - start)) s"
  fi
  return $rc
}

# ---- the stages ----------------------------------------------------------

static_checks() {
  local check passed=0 failed=0
  for check in "test/deps_mapping.sh --strict" test/layout_check.sh test/hardening/check_extension_script.sh; do
    # shellcheck disable=SC2086
    if bash $check; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
  done
  echo "static: $passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

module() { make -j2 all && make install; }

core_shipped() { make core-test CTEST_JOBS=2; }

sanitize() { make sanitize CTEST_JOBS=2; }

fuzz() { FUZZ_SECONDS=$TEST_FUZZ_SECONDS FUZZ_PARALLEL=2 bash test/fuzz/run.sh; }

regress() { bash test/cluster.sh run -- make installcheck; }

hardening() {
  bash test/cluster.sh run -- bash test/hardening/run.sh \
    dump_restore dump_cap concurrency cancel upgrade "memory --check"
}

# Parquet (bloom), postgresql-hll (hll's hash identity 2), the
# OpenTelemetry JS SDK (ddsketch_from_otel) and DataDog's JS DDSketch
# (ddsketch_from/to_ddsketch_proto), all four always run; the DataSketches
# libraries' HLL files (hll's hash identity 3) where ../shared has them.
interop() {
  local rc=0
  bash test/cluster.sh run -- bash test/interop/parquet.sh || rc=1
  bash test/cluster.sh run -- bash test/interop/postgresql_hll.sh || rc=1
  bash test/cluster.sh run -- bash test/interop/otel.sh || rc=1
  bash test/cluster.sh run -- bash test/interop/ddsketch_proto.sh || rc=1
  bash test/cluster.sh run -- bash test/interop/datasketches.sh || rc=1
  return $rc
}

docs() { bash test/cluster.sh run -- bash test/docs/run.sh; }

citus() { bash test/citus.sh; }

pg_sanitized() { bash test/pg_sanitized.sh; }

versions() { bash test/pg_matrix.sh; }

packaging() { bash test/packaging.sh; }

# ---- the schedule --------------------------------------------------------

failed=0
stage static static_checks || failed=1
if ! stage module module; then
  failed=1
else
  # lane [nice] <stage> <function> [<stage> <function>...]: the stages in
  # order, each run even when an earlier one failed.
  lane() {
    local rc=0
    if [ "$1" = nice ]; then renice -n 5 $BASHPID >/dev/null 2>&1 || true; shift; fi
    while [ $# -gt 0 ]; do stage "$1" "$2" || rc=1; shift 2; done
    return $rc
  }
  lane core-shipped core_shipped sanitize sanitize fuzz fuzz packaging packaging &
  lane_core=$!
  # The server lanes run at a lower priority: the compile lane is the longest
  # chain of work, and starving it only moves the end of the run later.
  lane nice regress regress hardening hardening interop interop docs docs citus citus &
  lane_server=$!
  lane nice pg-sanitized pg_sanitized versions versions &
  lane_sanitized=$!
  wait $lane_core || failed=1
  wait $lane_server || failed=1
  wait $lane_sanitized || failed=1
fi

# ---- the table -----------------------------------------------------------

# counts <stage>: "passed failed skipped" read from the stage's log, in the
# words of the tool the stage ran; "- - -" when the log says nothing.
counts() {
  local log=$logs/$1.log
  case $1 in
    static)
      awk '/^static: [0-9]+ passed, [0-9]+ failed/ { p = $2; f = $4 } END { if (p == "") print "- - -"; else print p, f + 0, 0 }' "$log" ;;
    module)
      echo "- - -" ;;
    core-shipped | sanitize)
      awk '/tests passed, [0-9]+ tests failed out of/ { f += $4; t += $NF }
           /\(Skipped\)$/ { s++ }
           END { if (t == "") print "- - -"; else print t - f - s, f, s + 0 }' "$log" ;;
    fuzz)
      awk '/^fuzz: [0-9]+ passed, [0-9]+ failed/ { gsub(",", ""); p = $2; f = $4; s = ($6 == "" ? 0 : $6) }
           END { if (p == "") print "- - -"; else print p, f, s }' "$log" ;;
    regress)
      awk '/^ *All [0-9]+ tests passed/ { p = $2; f = 0 }
           /^ *[0-9]+ of [0-9]+ tests failed/ { f = $1; p = $3 - $1 }
           END { if (p == "") print "- - -"; else print p, f, 0 }' "$log" ;;
    hardening)
      awk '/^==== hardening summary:/ { p = $4; s = $6; for (i = 7; i <= NF; i++) if ($i ~ /^failed/) f = $(i - 1) }
           END { if (p == "") print "- - -"; else print p, f + 0, s }' "$log" ;;
    interop)
      # One closing line per script; two of them name the script after a space.
      awk '/^interop[ a-z_-]*: [0-9]+ passed, [0-9]+ failed/ { sub(/^[^:]*: /, ""); gsub(",", ""); p += $1; f += $3; n++ }
           END { if (n == 0) print "- - -"; else print p, f, 0 }' "$log" ;;
    citus)
      if grep -q '^citus: SKIPPED' "$log"; then echo "0 0 1"; else
        awk '/^citus: [0-9]+ passed, [0-9]+ failed/ { p = $2; f = $4 } END { if (p == "") print "- - -"; else print p, f + 0, 0 }' "$log"
      fi ;;
    *)
      # The closing "<name>: N passed, M failed[, K skipped]" lines.
      awk '/^[a-z_-]+: [0-9]+ passed, [0-9]+ failed/ { gsub(",", ""); p += $2; f += $4; s += ($6 == "" ? 0 : $6); n++ }
           END { if (n == 0) print "- - -"; else print p, f, s }' "$log" ;;
  esac
}

total=$(($(date +%s) - t0))
echo
echo "make test: stages (seconds from start, seconds taken, CPU seconds used by the stage and its servers; checks passed / failed / skipped)"
printf '  %-14s %6s %6s %6s  %-7s %8s %7s %8s\n' stage start secs cpu-s result passed failed skipped
cpu_total=0
for name in $stages; do
  [ -f "$logs/$name.result" ] || continue
  IFS=$'\t' read -r start secs rc cpu <"$logs/$name.result"
  [[ $cpu =~ ^[0-9]+$ ]] && cpu_total=$((cpu_total + cpu))
  read -r p f s < <(counts "$name")
  if [ "$rc" = 0 ]; then result=ok; else result=FAILED; fi
  [ "$name" = citus ] && grep -q '^citus: SKIPPED' "$logs/citus.log" && result=SKIPPED
  printf '  %-14s %6s %6s %6s  %-7s %8s %7s %8s\n' "$name" "$((start - t0))" "$secs" "${cpu:--}" "$result" "$p" "$f" "$s"
done
printf '  %-14s %6s %6s %6s\n' "wall clock" "" "$total" "$cpu_total"
for name in $stages; do
  [ -f "$logs/$name.result" ] || continue
  IFS=$'\t' read -r _ _ rc _ <"$logs/$name.result"
  if [ "$rc" != 0 ]; then
    echo
    echo "---- $name failed; the end of build/test-logs/$name.log:"
    tail -n 60 "$logs/$name.log"
  fi
done
grep -h '^citus: SKIPPED' "$logs/citus.log" 2>/dev/null
# Every stage's checks summed; a stage that failed without counts counts one.
sum_p=0 sum_f=0 sum_s=0
for name in $stages; do
  [ -f "$logs/$name.result" ] || continue
  IFS=$'\t' read -r _ _ rc _ <"$logs/$name.result"
  read -r p f s < <(counts "$name")
  [[ $p =~ ^[0-9]+$ ]] && sum_p=$((sum_p + p))
  [[ $s =~ ^[0-9]+$ ]] && sum_s=$((sum_s + s))
  if [[ $f =~ ^[0-9]+$ ]]; then sum_f=$((sum_f + f)); fi
  if [ "$rc" != 0 ] && ! [[ $f =~ ^[1-9][0-9]*$ ]]; then sum_f=$((sum_f + 1)); fi
done
echo "test: $sum_p passed, $sum_f failed, $sum_s skipped"
if [ $failed -eq 0 ]; then
  echo "make test: every stage passed in $total s"
else
  echo "make test: FAILED"
fi
exit $failed
