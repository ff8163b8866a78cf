#!/usr/bin/env bash
# The Citus test (`make citus`, part of `make test`): a real Citus cluster —
# one coordinator and two workers — runs test/citus/suite.sql against the
# installed extension and reports `citus: N passed, M failed`.
#
#   bash test/citus.sh            (after `make install`)
#
# The suite is self-checking: every check prints one row `name | ok` or
# `name | not ok: <why>`, comparing a distributed query (split into
# worker_partial_agg / coord_combine_agg, or pushed down) with the same query
# on a local, non-distributed copy of the data. Each check catches its own
# errors, so one failure never hides the others.
#
# Then the SQL examples of docs/distributed.md run on the same cluster: the
# docs test (test/docs/run.sh --citus) creates each of the page's
# databases on every node, registers the workers, runs the page's ```sql
# blocks on the coordinator and compares the results the page shows. Each
# block counts as one check; a block the docs test skips (e.g. postgresql-hll
# not installed) is listed as skipped and counts as neither.
#
# The nodes belong to a fresh temporary directory, run as the `postgres`
# system user when we are root, listen on 127.0.0.1 only (free ports) and on
# Unix sockets in that directory, and are stopped and removed on exit,
# however the script ends.
#
# Without an installed Citus ($(pg_config --pkglibdir)/citus.so) the test
# prints `citus: SKIPPED (Citus is not installed)` and exits 0, also under
# CI=true: Citus is not packaged for Debian, and this project neither ships
# its source nor builds it. Where Citus is installed, the suite runs and any
# failure fails it. README says which Citus versions it last ran with.
#
# After the suite it prints, without asserting, the time of a split
# hll_agg(user_id) against postgresql-hll's hll_add_agg(hll_hash_bigint(...))
# on the same distributed data (in a database of its own: both extensions
# define a type hll), that of theta_agg(user_id) split and pushed down, and
# the size of the text form of partial states, which is what Citus ships
# from the workers to the coordinator.
#
# Environment: CITUS_BENCH_ROWS (default 1000000) rows for the timing,
# CITUS_BENCH=0 skips it; CITUS_VERBOSE=1 also prints the suite's raw output
# and the docs test's.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

PG_CONFIG=${PG_CONFIG:-/usr/lib/postgresql/15/bin/pg_config}
[ -x "$PG_CONFIG" ] || PG_CONFIG=pg_config
pg_bin=$("$PG_CONFIG" --bindir)
libdir=$("$PG_CONFIG" --pkglibdir)
sharedir=$("$PG_CONFIG" --sharedir)
start_time=$(date +%s)

if [ ! -f "$libdir/citus.so" ]; then
  echo "citus: SKIPPED (Citus is not installed)"
  echo "citus: no $libdir/citus.so; install Citus for PostgreSQL $("$PG_CONFIG" --version | awk '{print $2}' | cut -d. -f1) to run this suite (make citus)"
  exit 0
fi
if [ ! -f "$sharedir/extension/sketch.control" ]; then
  echo "citus: FAILED — the sketch extension is not installed (run make install first)"
  exit 1
fi
have_peer_hll=0
[ -f "$sharedir/extension/hll.control" ] && have_peer_hll=1

if [ "$(id -u)" -eq 0 ]; then
  as_owner() { runuser -u postgres -- "$@"; }
else
  as_owner() { "$@"; }
fi

dir=$(mktemp -d /tmp/sketch-citus.XXXXXX)
chmod 755 "$dir"
[ "$(id -u)" -eq 0 ] && chown postgres: "$dir"
nodes=(coordinator worker1 worker2)
declare -A port

cleanup() {
  local node
  for node in "${nodes[@]}"; do
    if [ -f "$dir/$node/postmaster.pid" ]; then
      as_owner "$pg_bin/pg_ctl" -D "$dir/$node" stop -m immediate >/dev/null 2>&1 || true
    fi
  done
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A port nobody listens on, on 127.0.0.1, not already given to another node.
free_port() {
  local p n
  for _ in $(seq 200); do
    p=$((20000 + RANDOM % 40000))
    for n in "${port[@]}"; do [ "$n" = "$p" ] && continue 2; done
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      echo "$p"
      return 0
    fi
  done
  echo "citus: no free port found" >&2
  return 1
}

# 2 cores shared by three nodes: few connections, no parallel workers, and
# at most two connections per worker from each coordinator session.
start_node() {
  local node=$1
  as_owner "$pg_bin/initdb" -D "$dir/$node" -U postgres --auth=trust --no-sync \
    -E UTF8 --locale=C >"$dir/$node.initdb.log" 2>&1 || { cat "$dir/$node.initdb.log"; exit 1; }
  cat >"$dir/$node/pg_hba.conf" <<HBA
local all all trust
host  all all 127.0.0.1/32 trust
HBA
  for _ in 1 2 3; do
    port[$node]=$(free_port)
    cat >>"$dir/$node/postgresql.conf" <<CONF
listen_addresses = '127.0.0.1'
port = ${port[$node]}
unix_socket_directories = '$dir'
shared_preload_libraries = 'citus'
max_connections = 40
shared_buffers = '256MB'
work_mem = '64MB'
maintenance_work_mem = '128MB'
max_worker_processes = 8
max_parallel_workers_per_gather = 0
fsync = off
synchronous_commit = off
full_page_writes = off
jit = off
citus.shard_count = 8
citus.max_adaptive_executor_pool_size = 2
citus.node_conninfo = 'sslmode=disable'
CONF
    if as_owner "$pg_bin/pg_ctl" -D "$dir/$node" -l "$dir/$node.log" -w -t 60 start >/dev/null; then
      return 0
    fi
    grep -q "could not bind\|Address already in use" "$dir/$node.log" 2>/dev/null || break
  done
  echo "citus: $node did not start" >&2
  tail -n 30 "$dir/$node.log" >&2
  exit 1
}

# psql on one node: sql <node> <database> [psql args...]
sql() {
  local node=$1 db=$2
  shift 2
  "$pg_bin/psql" -X -q -v ON_ERROR_STOP=1 -h "$dir" -p "${port[$node]}" -U postgres -d "$db" "$@"
}

# A database on every node with the given extensions, the workers registered.
make_database() {
  local db=$1 node ext
  shift
  for node in "${nodes[@]}"; do
    sql "$node" postgres -c "CREATE DATABASE $db"
    for ext in citus "$@"; do
      sql "$node" "$db" -c "SET client_min_messages = warning; CREATE EXTENSION $ext"
    done
  done
  sql coordinator "$db" -At -o /dev/null \
    -c "SELECT citus_set_coordinator_host('127.0.0.1', ${port[coordinator]})" \
    -c "SELECT citus_add_node('127.0.0.1', ${port[worker1]})" \
    -c "SELECT citus_add_node('127.0.0.1', ${port[worker2]})"
}

for node in "${nodes[@]}"; do start_node "$node"; done
citus_version=$(sql coordinator postgres -At -c "SELECT default_version FROM pg_available_extensions WHERE name = 'citus'")
echo "citus: Citus $citus_version, coordinator 127.0.0.1:${port[coordinator]}, workers 127.0.0.1:${port[worker1]} and 127.0.0.1:${port[worker2]}"

make_database sketch_citus sketch

# ---- the suite ---------------------------------------------------------------
set +e
sql coordinator sketch_citus -v ON_ERROR_STOP=0 -At -F ' | ' -f test/citus/suite.sql \
  >"$dir/suite.out" 2>"$dir/suite.err"
set -e
suite_seconds=$(($(date +%s) - start_time))
if [ "${CITUS_VERBOSE:-0}" = 1 ]; then
  echo "---- suite output"; cat "$dir/suite.out"; echo "---- suite stderr"; cat "$dir/suite.err"
fi

passed=0
failed=0
while IFS= read -r line; do
  case "$line" in
    *" | ok"*) passed=$((passed + 1)); echo "  ok      ${line%% | ok*}${line#* | ok}" ;;
    *" | not ok"*) failed=$((failed + 1)); echo "  NOT OK  ${line%% | not ok*}:${line#* | not ok:}" ;;
  esac
done <"$dir/suite.out"
# Anything the checks did not catch (setup statements, a broken check).
if grep -q "ERROR\|FATAL\|PANIC" "$dir/suite.err"; then
  errors=$(grep -c "ERROR\|FATAL\|PANIC" "$dir/suite.err")
  failed=$((failed + errors))
  echo "  NOT OK  $errors uncaught error(s) in test/citus/suite.sql:"
  sed 's/^/          /' "$dir/suite.err" | head -n 40
fi
if [ $((passed + failed)) -eq 0 ]; then
  echo "  NOT OK  the suite printed no checks"
  failed=1
fi

# ---- the examples of docs/distributed.md -------------------------------------
docs_page=docs/distributed.md
docs_nodes="127.0.0.1:${port[coordinator]},127.0.0.1:${port[worker1]},127.0.0.1:${port[worker2]}"
docs_start=$(date +%s)
set +e
PGUSER=postgres bash test/docs/run.sh --citus "$docs_nodes" "$docs_page" >"$dir/docs.out" 2>&1
docs_rc=$?
set -e
if [ "${CITUS_VERBOSE:-0}" = 1 ]; then
  echo "---- docs test output"; cat "$dir/docs.out"
fi
docs_passed=0
docs_failed=0
while IFS= read -r line; do
  case "$line" in
    "ok    "*) docs_passed=$((docs_passed + 1)); echo "  ok      ${line#ok    }" ;;
    "FAIL  "*) docs_failed=$((docs_failed + 1)); echo "  NOT OK  ${line#FAIL  }" ;;
    "skip  "*) echo "  skipped ${line#skip  }" ;;
    "      "*) echo "    $line" ;;   # what a failing block got wrong
  esac
done <"$dir/docs.out"
if [ "$docs_rc" -ne 0 ] && [ "$docs_failed" -eq 0 ]; then
  echo "  NOT OK  the docs test of $docs_page failed (exit $docs_rc):"
  tail -n 20 "$dir/docs.out" | sed 's/^/          /'
  docs_failed=1
elif [ "$docs_passed" -eq 0 ] && [ "$docs_failed" -eq 0 ]; then
  echo "  NOT OK  the docs test ran no block of $docs_page"
  docs_failed=1
fi
echo "citus: $docs_page: $docs_passed blocks passed, $docs_failed failed ($(($(date +%s) - docs_start)) s)"
passed=$((passed + docs_passed))
failed=$((failed + docs_failed))

# A crash in the suite or in the examples.
if grep -q "server process .* was terminated\|terminated by signal" "$dir"/*.log 2>/dev/null; then
  echo "  NOT OK  a server process crashed:"
  grep -h -B2 -A2 "terminated by signal" "$dir"/*.log | head -n 20 | sed 's/^/          /'
  failed=$((failed + 1))
fi

# ---- measurements (printed, not asserted) ------------------------------------
measure() {
  local rows=${CITUS_BENCH_ROWS:-1000000}
  # load <database>: the same bench table in each database
  load() {
    sql coordinator "$1" -o /dev/null -c "SET client_min_messages = warning" \
      -c "CREATE TABLE bench (tenant_id int, user_id bigint)" \
      -c "SELECT create_distributed_table('bench', 'tenant_id')" \
      -c "INSERT INTO bench SELECT 1 + abs(hashint8extended(i, 1)) % 32, abs(hashint8extended(i, 3)) % 300000
          FROM generate_series(1, $rows) i" \
      -c "VACUUM ANALYZE bench"
  }
  # best of 5, in milliseconds, of a query run inside the coordinator
  local timer="CREATE FUNCTION pg_temp.best_ms(q text) RETURNS numeric LANGUAGE plpgsql AS \$\$
    DECLARE t0 timestamptz; best numeric := 1e12; BEGIN
      FOR i IN 1..5 LOOP t0 := clock_timestamp(); EXECUTE q;
        best := least(best, extract(epoch FROM clock_timestamp() - t0) * 1000); END LOOP;
      RETURN round(best, 1); END \$\$;"
  # time <database> <query>: best of 5 in ms, or "failed: <error>"
  time_query() {
    local out
    if out=$(sql coordinator "$1" -At -c "SET client_min_messages = error" -c "$timer" -c "SELECT pg_temp.best_ms(\$q\$$2\$q\$)" 2>&1); then
      echo "$out ms"
    else
      echo "failed: $(echo "$out" | grep -m1 ERROR | sed 's/.*ERROR: *//')"
    fi
  }
  ratio() {
    local a=${1% ms} b=${2% ms}
    if [[ $a =~ ^[0-9.]+$ && $b =~ ^[0-9.]+$ ]]; then awk "BEGIN { printf \"%.2f\", $a / $b }"; else echo "n/a"; fi
  }
  local count split push theta_split theta_push peer_split peer_split14 peer_push
  load sketch_citus || return 1
  count=$(time_query sketch_citus 'SELECT count(user_id) FROM bench')
  split=$(time_query sketch_citus 'SELECT hll_agg(user_id) FROM bench')
  push=$(time_query sketch_citus 'SELECT tenant_id, hll_agg(user_id) FROM bench GROUP BY tenant_id')
  theta_split=$(time_query sketch_citus 'SELECT theta_agg(user_id) FROM bench')
  theta_push=$(time_query sketch_citus 'SELECT tenant_id, theta_agg(user_id) FROM bench GROUP BY tenant_id')
  if [ "$have_peer_hll" = 1 ]; then
    make_database hll_peer hll
    load hll_peer || return 1
    peer_split=$(time_query hll_peer 'SELECT hll_add_agg(hll_hash_bigint(user_id)) FROM bench')
    peer_split14=$(time_query hll_peer 'SELECT hll_add_agg(hll_hash_bigint(user_id), 14) FROM bench')
    peer_push=$(time_query hll_peer 'SELECT tenant_id, hll_add_agg(hll_hash_bigint(user_id)) FROM bench GROUP BY tenant_id')
  else
    peer_split="not measured (postgresql-15-hll is not installed)"
    peer_split14=$peer_split
    peer_push=$peer_split
  fi
  echo "citus: timing over $rows rows, 8 shards on 2 workers, best of 5 (printed, not asserted)"
  echo "  count(user_id)                                             $count"
  echo "  split     sketch hll_agg(user_id) (p = 14)                 $split"
  echo "            postgresql-hll hll_add_agg(hll_hash_bigint(..))  $peer_split (its default log2m = 11)"
  echo "            postgresql-hll ... with log2m = 14               $peer_split14"
  echo "            ratio sketch / postgresql-hll: $(ratio "$split" "$peer_split") (log2m = 11)," \
       "$(ratio "$split" "$peer_split14") (log2m = 14)"
  echo "  pushdown  sketch hll_agg(user_id) GROUP BY tenant_id       $push"
  echo "            postgresql-hll ... GROUP BY tenant_id            $peer_push"
  echo "            ratio sketch / postgresql-hll: $(ratio "$push" "$peer_push")"
  echo "  split     sketch theta_agg(user_id) (lg_k 12)              $theta_split" \
       "(ratio to split hll_agg: $(ratio "$theta_split" "$split"))"
  echo "  pushdown  sketch theta_agg(user_id) GROUP BY tenant_id     $theta_push" \
       "(ratio to pushed-down hll_agg: $(ratio "$theta_push" "$push"))"
  # What a worker ships per group: the text output of its state, here the
  # aggregate over one whole shard (the output of a state is its stored form).
  echo "citus: text form of one shard's partial state over bench (min - max of the 8 shards)"
  shard_sizes() {
    sql coordinator "$1" -At -c "SELECT min(result::int) || ' - ' || max(result::int) || ' bytes'
      FROM run_command_on_shards('bench', \$\$SELECT length(($2)::text) FROM %s\$\$)"
  }
  echo "  sketch hll_agg(user_id)                  $(shard_sizes sketch_citus 'hll_agg(user_id)')" \
       "($(sql coordinator sketch_citus -At -c "SELECT string_agg(DISTINCT result, ',')
            FROM run_command_on_shards('bench', \$\$SELECT hll_info(hll_agg(user_id))->>'representation' FROM %s\$\$)"))"
  echo "  sketch cms_agg(user_id)                  $(shard_sizes sketch_citus 'cms_agg(user_id)')"
  echo "  sketch bloom_agg(user_id, 100000, 0.01)  $(shard_sizes sketch_citus 'bloom_agg(user_id, 100000, 0.01)')"
  echo "  sketch ddsketch_agg(user_id)             $(shard_sizes sketch_citus 'ddsketch_agg(user_id)')"
  echo "  sketch kll_agg(user_id)                  $(shard_sizes sketch_citus 'kll_agg(user_id)')"
  echo "  sketch ell_agg(user_id)                  $(shard_sizes sketch_citus 'ell_agg(user_id)')"
  echo "  sketch topk_agg(user_id)                 $(shard_sizes sketch_citus 'topk_agg(user_id)')"
  echo "  sketch theta_agg(user_id)                $(shard_sizes sketch_citus 'theta_agg(user_id)')" \
       "($(sql coordinator sketch_citus -At -c "SELECT string_agg(DISTINCT result, ',')
            FROM run_command_on_shards('bench', \$\$SELECT CASE WHEN (theta_info(theta_agg(user_id))->>'exact')::boolean
                                                               THEN 'exact' ELSE 'estimating' END FROM %s\$\$)"))"
  if [ "$have_peer_hll" = 1 ]; then
    echo "  postgresql-hll hll_add_agg(..)          $(shard_sizes hll_peer 'hll_add_agg(hll_hash_bigint(user_id))') (log2m = 11)"
    echo "  postgresql-hll hll_add_agg(.., 14)      $(shard_sizes hll_peer 'hll_add_agg(hll_hash_bigint(user_id), 14)') (log2m = 14)"
  fi
}
if [ "${CITUS_BENCH:-1}" != 0 ]; then
  measure || echo "citus: the measurements failed (not counted)"
fi

echo "citus: suite took ${suite_seconds} s, everything $(($(date +%s) - start_time)) s"
echo "citus: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
