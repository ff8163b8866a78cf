# shellcheck shell=bash
# Reusable pieces of the SQL benchmark harness; sourced by test/bench/run.sh.
#
# Each sketch type registers its workloads with bench_run; the report
# functions then print every registered workload as one markdown table,
# as ratios to a floor (count(v) over the same table in the same database)
# and to a peer implementation. See docs/DESIGN.md, "Measuring".
#
# Paired floors: the machine these run on is shared (compilers, other test
# clusters), and background load drifts over a run of several minutes. So
# every workload's timed runs alternate with runs of its database's floor
# query in the same session (floor, workload, floor, workload, ...), and the
# ratio is median(workload) / median(those floor runs): load that comes and
# goes slows both alike, and cancels in the ratio.
#
# Expects PGHOST/PGPORT/PGUSER to point at a server (test/cluster.sh does).
#
# Settings (environment):
#   BENCH_RUNS       timed runs per measurement, after one warm-up (default 3)
#   BENCH_TIMEOUT_S  statement_timeout per statement, seconds (default 300);
#                    a workload that hits it is reported as failed, and the
#                    run goes on with the next one

BENCH_RUNS=${BENCH_RUNS:-3}
BENCH_TIMEOUT_S=${BENCH_TIMEOUT_S:-300}
BENCH_TMP=$(mktemp -d "${TMPDIR:-/tmp}/sketch-bench.XXXXXX")
trap 'rm -rf "$BENCH_TMP"' EXIT

# Registered results, by workload key.
BENCH_KEYS=()                 # registration order = table order
declare -A BENCH_LABEL=()     # key -> text shown in the table
declare -A BENCH_DBNAME=()    # key -> database it ran in
declare -A BENCH_MS_SERIAL=() # key -> median ms, serial ("" if it failed)
declare -A BENCH_MS_PAR=()    # key -> median ms, parallel
declare -A BENCH_PLAN_SERIAL=() BENCH_PLAN_PAR=()  # key -> condensed plan
declare -A BENCH_RESULT=()    # key -> the query's result (first column, first row)
declare -A BENCH_PEER=()      # key -> key of the peer workload it is compared with
declare -A BENCH_FLOOR_MS_SERIAL=() BENCH_FLOOR_MS_PAR=()  # key -> median ms of its paired floor runs
declare -A BENCH_FLOOR_SQL=() # database -> its floor query (bench_set_floor)

# The session settings of the two modes. Parallel: make the planner use
# workers whenever it can, so "parallel" means what the aggregate supports
# rather than what the cost model happens to prefer at this table size.
BENCH_SET_SERIAL="SET max_parallel_workers_per_gather = 0;"
BENCH_SET_PARALLEL="SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;"

bench_log() { echo "bench: $*" >&2; }

# psql that stops at the first error and reads no ~/.psqlrc.
bench_psql() {  # bench_psql DB [psql args...]
  local db=$1; shift
  psql -X -q -v ON_ERROR_STOP=1 -d "$db" "$@"
}

# Median of the numbers on stdin (the mean of the middle two for an even
# count). Medians, not means: one run disturbed by another process on the
# machine should not move the result.
bench_median() {
  sort -g | awk '{ a[NR] = $1 }
    END { if (NR == 0) exit 1
          if (NR % 2) printf "%.1f\n", a[(NR + 1) / 2]
          else        printf "%.1f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

# Condenses an EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) text into one line:
# the aggregate / gather / sort nodes top-down, joins and index scans (how
# an exact EXISTS was answered), the workers launched, and how much the
# sorts and hash aggregates spilled to disk.
bench_plan_summary() {  # bench_plan_summary FILE
  awk '
    /Workers Launched: [0-9]+/ {
      match($0, /Workers Launched: [0-9]+/)
      n = substr($0, RSTART + 18, RLENGTH - 18) + 0
      if (n > launched) launched = n
      next
    }
    {
      if (match($0, /Disk( Usage)?: [0-9]+kB/)) {
        s = substr($0, RSTART, RLENGTH); gsub(/[^0-9]/, "", s); disk += s
      }
      if (NR == 1 || $0 ~ /->/) {
        node = $0
        sub(/^ *(-> *)?/, "", node); sub(/ *\(actual.*$/, "", node)
        sub(/ on .*$/, "", node); sub(/ using .*$/, "", node)
        if (node ~ /Aggregate|Gather|Sort|WindowAgg|Unique|Join|Nested Loop|Index/)
          nodes = nodes (nodes == "" ? "" : " < ") node
      }
    }
    END {
      out = nodes
      if (launched > 0) out = out ", workers launched: " launched
      if (disk > 0) out = out sprintf(", spilled %.0f MB", disk / 1024)
      print out
    }' "$1"
}

# Registers DB's floor query, e.g. "SELECT count(v) FROM bench": from now
# on every workload in DB is timed alternately with it.
bench_set_floor() {  # bench_set_floor DB SQL
  BENCH_FLOOR_SQL[$1]=$2
}

# Runs SQL in DB in one session: the mode's settings, one warm-up run as
# EXPLAIN ANALYZE (its plan is kept), one warm-up of the floor, then
# BENCH_RUNS timed runs, each after a timed run of the floor. Timing is
# psql's \timing, i.e. what a client sees on a Unix socket, planning
# included; every workload returns one row, so transfer is negligible.
# Sets BENCH_MS (median, "" on failure), BENCH_FLOOR_MS (median of the
# paired floor runs; BENCH_MS when SQL is the floor itself), BENCH_PLAN,
# BENCH_VALUE.
bench_time() {  # bench_time DB serial|parallel SQL
  local db=$1 mode=$2 sql=$3 dir i settings floor
  floor=${BENCH_FLOOR_SQL[$db]:-}
  [ "$floor" != "$sql" ] || floor=""
  dir=$(mktemp -d "$BENCH_TMP/q.XXXXXX")
  case $mode in
    serial)   settings=$BENCH_SET_SERIAL ;;
    parallel) settings=$BENCH_SET_PARALLEL ;;
    *) echo "bench_time: unknown mode $mode" >&2; return 2 ;;
  esac
  {
    echo "SET statement_timeout = '${BENCH_TIMEOUT_S}s';"
    echo "$settings"
    printf '\\o %s\n' "$dir/plan"
    echo "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) $sql;"
    # Results go to a file (\timing still prints to stdout).
    printf '\\o %s\n' "$dir/result"
    [ -z "$floor" ] || echo "$floor;"
    printf '%s\n' '\timing on'
    for ((i = 0; i < BENCH_RUNS; i++)); do
      [ -z "$floor" ] || echo "$floor;"
      echo "$sql;"
    done
  } >"$dir/script.sql"
  if bench_psql "$db" -A -t -f "$dir/script.sql" >"$dir/timing" 2>"$dir/err"; then
    awk '/^Time: / { print $2 }' "$dir/timing" >"$dir/times"
    if [ -n "$floor" ]; then
      # Lines alternate: floor, workload, floor, workload, ...
      BENCH_MS=$(awk 'NR % 2 == 0' "$dir/times" | bench_median) || BENCH_MS=
      BENCH_FLOOR_MS=$(awk 'NR % 2 == 1' "$dir/times" | bench_median) || BENCH_FLOOR_MS=
    else
      BENCH_MS=$(bench_median <"$dir/times") || BENCH_MS=
      BENCH_FLOOR_MS=$BENCH_MS
    fi
    BENCH_PLAN=$(bench_plan_summary "$dir/plan")
    # With a floor, its warm-up and first timed run wrote lines 1 and 2.
    BENCH_VALUE=$(sed -n "$([ -n "$floor" ] && echo 3 || echo 1)p" "$dir/result")
  else
    BENCH_MS="" BENCH_FLOOR_MS=""
    BENCH_PLAN="failed: $(grep -m 1 ERROR "$dir/err" || head -n 1 "$dir/err")"
    BENCH_VALUE=""
  fi
}

# Measures one workload serial and parallel and registers it.
#   bench_run KEY DB LABEL SQL [PEER_KEY]
# PEER_KEY names the workload (registered before or after) that does the
# same job with the peer; the table shows how this one compares with it.
bench_run() {
  local key=$1 db=$2 label=$3 sql=$4 peer=${5:-}
  bench_log "$label [$db] serial..."
  bench_time "$db" serial "$sql"
  BENCH_MS_SERIAL[$key]=$BENCH_MS BENCH_FLOOR_MS_SERIAL[$key]=$BENCH_FLOOR_MS
  BENCH_PLAN_SERIAL[$key]=$BENCH_PLAN BENCH_RESULT[$key]=$BENCH_VALUE
  bench_log "$label [$db] parallel..."
  bench_time "$db" parallel "$sql"
  BENCH_MS_PAR[$key]=$BENCH_MS BENCH_FLOOR_MS_PAR[$key]=$BENCH_FLOOR_MS
  BENCH_PLAN_PAR[$key]=$BENCH_PLAN
  [ -n "${BENCH_RESULT[$key]}" ] || BENCH_RESULT[$key]=$BENCH_VALUE
  BENCH_KEYS+=("$key")
  BENCH_LABEL[$key]=$label BENCH_DBNAME[$key]=$db BENCH_PEER[$key]=$peer
  bench_log "  serial ${BENCH_MS_SERIAL[$key]:-failed} ms (floor ${BENCH_FLOOR_MS_SERIAL[$key]:-?}), parallel ${BENCH_MS_PAR[$key]:-failed} ms (floor ${BENCH_FLOOR_MS_PAR[$key]:-?})"
}

# a / b with two decimals; "–" when either is missing.
bench_ratio() {
  if [ -z "${1:-}" ] || [ -z "${2:-}" ]; then echo "–"; return; fi
  awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f\n", a / b; else print "–" }'
}

# (a / fa) / (b / fb): two workloads compared through their paired floors,
# so drift in machine load between the two measurements cancels.
bench_ratio_paired() {  # bench_ratio_paired a fa b fb
  local x
  for x in "$@"; do [ -n "$x" ] || { echo "–"; return; }; done
  awk -v a="$1" -v fa="$2" -v b="$3" -v fb="$4" \
    'BEGIN { if (fa > 0 && b > 0) printf "%.2f\n", (a / fa) / (b / fb); else print "–" }'
}

# Numbers rounded to integers (the peer's hll_cardinality is a double).
bench_fmt_number() {
  if [[ "${1:-}" =~ ^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$ ]]; then printf "%.0f" "$1"; else echo "${1:-–}"; fi
}

bench_fmt_ms() { if [ -n "${1:-}" ]; then printf "%.0f" "$1"; else echo "failed"; fi; }

# How a workload's result is shown, by key: unset = bench_fmt_number (an
# integer); "%.3f" etc. = a printf format for one number; "quantiles:p50,p95,p99"
# = the result is an array of quantiles ({a,b,c}), shown as "p50 a / p95 b / ...".
declare -A BENCH_FMT=()
bench_fmt_result() {  # bench_fmt_result KEY
  local key=$1 value=${BENCH_RESULT[$1]:-} fmt=${BENCH_FMT[$1]:-}
  if [ -z "$value" ]; then echo "–"; return; fi
  case $fmt in
    "") bench_fmt_number "$value" ;;
    quantiles:*) bench_fmt_quantiles "$value" "${fmt#quantiles:}" ;;
    *) if [[ "$value" =~ ^-?[0-9.]+([eE][-+]?[0-9]+)?$ ]]; then
         # shellcheck disable=SC2059  # the format is the point
         printf "$fmt\n" "$value"
       else
         echo "$value"
       fi ;;
  esac
}

# An array of numbers ({a,b,c}) to 6 significant digits, "a, b, c", or
# labelled, "p50 a / p95 b / p99 c".
bench_fmt_quantiles() {  # bench_fmt_quantiles VALUE [LABELS, comma-separated]
  awk -v v="$1" -v l="${2:-}" 'BEGIN {
    gsub(/[{} ]/, "", v); n = split(v, x, ","); split(l, lab, ",")
    for (i = 1; i <= n; i++)
      printf "%s%s%.6g", (i > 1 ? (l == "" ? ", " : " / ") : ""), (l == "" ? "" : lab[i] " "), x[i]
    print "" }'
}

# The relative error of each quantile of an array result against an exact
# array, for the "error vs exact" column: "p50 +0.123%, p95 -0.045%, ...".
#   bench_quantile_errors '{1.01,2.02}' '{1,2}' p50,p95
bench_quantile_errors() {
  if [ -z "${1:-}" ] || [ -z "${2:-}" ]; then echo "–"; return; fi
  awk -v e="$1" -v x="$2" -v l="$3" 'BEGIN {
    gsub(/[{} ]/, "", e); gsub(/[{} ]/, "", x)
    n = split(e, a, ","); m = split(x, b, ","); split(l, lab, ",")
    if (n != m) { print "–"; exit }
    for (i = 1; i <= n; i++)
      printf "%s%s %+.3f%%", (i > 1 ? ", " : ""), lab[i], (b[i] != 0 ? 100 * (a[i] - b[i]) / b[i] : 0)
    print "" }'
}

# The main table: times, ratios to the (paired) floor, ratio to the peer.
bench_report_times() {
  local key peer to_peer
  echo "| workload | serial ms | serial ratio to count(v) | parallel ms | parallel ratio | ratio to peer (serial / parallel) |"
  echo "|---|--:|--:|--:|--:|--:|"
  for key in "${BENCH_KEYS[@]}"; do
    peer=${BENCH_PEER[$key]}
    to_peer="–"
    if [ -n "$peer" ]; then
      to_peer="$(bench_ratio_paired "${BENCH_MS_SERIAL[$key]}" "${BENCH_FLOOR_MS_SERIAL[$key]}" \
                   "${BENCH_MS_SERIAL[$peer]:-}" "${BENCH_FLOOR_MS_SERIAL[$peer]:-}") / $(
                 bench_ratio_paired "${BENCH_MS_PAR[$key]}" "${BENCH_FLOOR_MS_PAR[$key]}" \
                   "${BENCH_MS_PAR[$peer]:-}" "${BENCH_FLOOR_MS_PAR[$peer]:-}")"
    fi
    printf '| %s | %s | %s | %s | %s | %s |\n' \
      "${BENCH_LABEL[$key]}" \
      "$(bench_fmt_ms "${BENCH_MS_SERIAL[$key]}")" \
      "$(bench_ratio "${BENCH_MS_SERIAL[$key]}" "${BENCH_FLOOR_MS_SERIAL[$key]}")" \
      "$(bench_fmt_ms "${BENCH_MS_PAR[$key]}")" \
      "$(bench_ratio "${BENCH_MS_PAR[$key]}" "${BENCH_FLOOR_MS_PAR[$key]}")" \
      "$to_peer"
  done
}

# What each workload returned and which plans ran, so a fast but wrong or
# accidentally serial aggregate shows. A workload whose result estimates
# another workload's exact result names it in BENCH_ESTIMATES (key -> exact
# key) and gets its relative error; BENCH_ERROR (key -> text) replaces that
# column for results that are not one number to compare (a top-10 list, a
# count of false positives).
declare -A BENCH_ESTIMATES=()  # key -> key of the exact workload it estimates
declare -A BENCH_ERROR=()      # key -> text for the "error vs exact" column
bench_report_plans() {
  local key ref exact err
  echo "| workload | database | result | error vs exact | paired count(v) ms (serial / parallel) | serial plan | parallel plan |"
  echo "|---|---|--:|--:|--:|---|---|"
  for key in "${BENCH_KEYS[@]}"; do
    err="–"
    ref=${BENCH_ESTIMATES[$key]:-} exact=""
    [ -z "$ref" ] || exact=${BENCH_RESULT[$ref]:-}
    if [ -n "${BENCH_ERROR[$key]:-}" ]; then
      err=${BENCH_ERROR[$key]}
    elif [ -n "$exact" ] && [ -n "${BENCH_RESULT[$key]}" ]; then
      err=$(awk -v e="${BENCH_RESULT[$key]}" -v x="$exact" 'BEGIN { printf "%+.2f%%\n", 100 * (e - x) / x }')
    fi
    printf '| %s | %s | %s | %s | %s / %s | %s | %s |\n' \
      "${BENCH_LABEL[$key]}" "${BENCH_DBNAME[$key]}" "$(bench_fmt_result "$key")" "$err" \
      "$(bench_fmt_ms "${BENCH_FLOOR_MS_SERIAL[$key]}")" "$(bench_fmt_ms "${BENCH_FLOOR_MS_PAR[$key]}")" \
      "${BENCH_PLAN_SERIAL[$key]}" "${BENCH_PLAN_PAR[$key]}"
  done
}

# One line on how busy the machine is: benchmarks on a shared box are noisy.
bench_load() { cut -d' ' -f1-3 /proc/loadavg; }
