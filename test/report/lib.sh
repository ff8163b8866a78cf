# shellcheck shell=bash
# The start the SQL comparisons of test/report (ddsketch_vs_tdigest.sh,
# kll_vs_tdigest.sh, theta_vs_hll.sh) share; each sources this file right
# after `set -euo pipefail`.
#
#   report_start NAME "$@"        reruns the calling script on a throwaway
#                                 cluster (test/cluster.sh) unless PGHOST or
#                                 PGDATABASE is set; then sets root (the
#                                 repository), out (docs/plots, made) and
#                                 log MESSAGE ("NAME: [seconds] MESSAGE")
#   report_require EXTENSION WHY  exits 1 with WHY unless the server has
#                                 EXTENSION available
#   report_database DB EXTENSION...  a fresh database DB with the extensions,
#                                 warnings only and no parallel workers (each
#                                 run adds the rows in one order); then
#                                 q [psql args] runs psql in it, stopping at
#                                 the first error, and tsv FILE QUERY writes
#                                 the query's rows with a header, tab-
#                                 separated, to out/FILE

report_start() {  # report_start NAME "$@"
  report_name=$1
  shift
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
  if [ -z "${PGHOST:-}" ] && [ -z "${PGDATABASE:-}" ]; then
    exec bash "$root/test/cluster.sh" run -- bash "$root/test/report/$(basename "$0")" "$@"
  fi
  out=$root/docs/plots
  mkdir -p "$out"
  report_started=$(date +%s)
}

log() { echo "$report_name: [$(( $(date +%s) - report_started ))s] $*"; }

report_require() {  # report_require EXTENSION WHY
  if [ -z "$(psql -X -At -d postgres -c "SELECT 1 FROM pg_available_extensions WHERE name = '$1'")" ]; then
    echo "$report_name: $2" >&2
    exit 1
  fi
}

report_database() {  # report_database DB EXTENSION...
  report_db=$1
  shift
  export PGOPTIONS="${PGOPTIONS:-} -c client_min_messages=warning -c max_parallel_workers_per_gather=0"
  psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS $report_db" -c "CREATE DATABASE $report_db"
  local ext
  for ext in "$@"; do q -c "CREATE EXTENSION $ext"; done
}

q() { psql -X -q -v ON_ERROR_STOP=1 -d "$report_db" "$@"; }
tsv() { q -c "COPY ($2) TO STDOUT WITH (FORMAT csv, HEADER, DELIMITER E'\t')" > "$out/$1"; }
