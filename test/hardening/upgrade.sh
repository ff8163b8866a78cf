#!/usr/bin/env bash
# ALTER EXTENSION sketch UPDATE from every earlier released version:
#
#   bash test/cluster.sh run -- bash test/hardening/upgrade.sh
#
# (after make install). See docs/upgrades.md for the procedure this checks.
#
# Released versions' install scripts are frozen in releases/sketch--<v>.sql
# (0.1.0, 0.2.0), released upgrade scripts in releases/sketch--<a>--<b>.sql
# (releases/README.md), and the
# upgrade from the last release to the current version is built by the
# Makefile from src/sql/upgrade--<last>--<current>[.<topic>].sql pieces and
# the shared tail; make install ships them all as sketch--<from>--<to>.sql.
# First, on a fresh install of the current version, this test checks that
#   - every C symbol a shipped or frozen script names ('MODULE_PATHNAME',
#     '<symbol>') is defined in the installed sketch.so,
#   - the shared upgrade tail (the Makefile's UPGRADE_TAIL: literal twins,
#     typed aggregate twins, privileges) run a second time, as an extension
#     script (an update to "<current>-tail" and back, both scripts placed in
#     the extension directory only for this), changes no object.
# Then for every frozen version v other than the current one (PostgreSQL
# chains the scripts: 0.1.0 -> 0.2.0 -> 0.3.0) it
#   1. installs v (the frozen script is put into the extension directory for
#      the duration of the test),
#   2. stores the golden sketches (test/golden/) of every type v has in
#      tables (0.1.0: hll, cms, bloom; 0.2.0: every type, split-block bloom
#      too) and rows to aggregate later,
#   3. runs ALTER EXTENSION sketch UPDATE and checks the version is current,
#   4. compares every extension object and its definition with a fresh
#      install of the current version (test/hardening/extension_objects.sql),
#   5. runs the tail a second time as above and checks nothing changed,
#   6. checks the stored sketches still read as the golden files say (every
#      key of *_info the writing build recorded; element_kind is new in 0.2.0).
# A type the update adds (ddsketch, topk, theta, counting_bloom, cuckoo and
# split-block bloom, when updating from 0.1.0) cannot be stored before it:
# its golden sketches are stored right after the update and must read as
# the golden file says. For every v, the aggregates must write the golden
# bytes (for topk, theta, counting_bloom and cuckoo every golden query is
# rebuilt); theta's objects must also work on rows stored before the
# update: its aggregates (theta_agg with its typed twins, theta_union,
# theta_intersect, serial and parallel giving the same bytes) and set
# operations over them, exact where they are exact. cms_scale must work on
# the cms sketches stored before the update.
# While no upgrade script exists there is nothing to upgrade: it checks only
# that CREATE EXTENSION installs the current version and that no update path
# leads to it, then reports the upgrade test as SKIPPED and exits 77 (the
# usual "skipped" code; test/hardening/run.sh counts it as skipped, never as
# passed). Exit 0 means at least one upgrade was run and checked.
set -euo pipefail
cd "$(dirname "$0")/../.."

PG_CONFIG=${PG_CONFIG:-$(command -v /usr/lib/postgresql/15/bin/pg_config || command -v pg_config)}
extdir=$("$PG_CONFIG" --sharedir)/extension
current=$(sed -n "s/^default_version *= *'\([^']*\)'.*/\1/p" sketch.control)
makefile_version=$(make -s --no-print-directory print-version 2>/dev/null)
psql_db() { local db=$1; shift; psql -X -q -v ON_ERROR_STOP=1 -d "$db" "$@"; }

# The shared upgrade tail (the Makefile's UPGRADE_TAIL), run a second time
# on a database at the current version, as an extension script: an update
# to "<current>-tail" whose script is the tail alone, and back to <current>
# by an empty script (both placed in the extension directory only for
# this). Prints the extension's objects afterwards (extension_objects.sql),
# which must equal what they were before.
tail_pieces=$(sed -n 's/^UPGRADE_TAIL *= *//p' Makefile)
tail_again() {
  local db=$1 there="$extdir/sketch--$current--$current-tail.sql" back="$extdir/sketch--$current-tail--$current.sql"
  { echo '\echo Use "ALTER EXTENSION sketch UPDATE" to load this file. \quit'; cat $tail_pieces; } >"$there"
  echo '\echo Use "ALTER EXTENSION sketch UPDATE" to load this file. \quit' >"$back"
  local rc=0
  psql_db "$db" -c "ALTER EXTENSION sketch UPDATE TO '$current-tail'" -c "ALTER EXTENSION sketch UPDATE TO '$current'" || rc=$?
  rm -f "$there" "$back"
  [ $rc -eq 0 ] || return $rc
  psql_db "$db" -At -f test/hardening/extension_objects.sql
}

if [ -z "$current" ] || [ "$current" != "$makefile_version" ]; then
  echo "upgrade: sketch.control default_version ($current) and Makefile EXTVERSION ($makefile_version) differ" >&2
  exit 1
fi

shopt -s nullglob
upgrade_scripts=(sketch--*--*.sql)
frozen=()
for f in releases/sketch--*.sql; do
  case $f in releases/sketch--*--*.sql) ;; *) frozen+=("$f") ;; esac   # install scripts only
done
shopt -u nullglob

# Every upgrade script starts from a frozen release and is installed.
for script in "${upgrade_scripts[@]}"; do
  from=${script#sketch--}
  from=${from%%--*}
  if [ ! -f "releases/sketch--$from.sql" ]; then
    echo "upgrade: $script upgrades from $from, but releases/sketch--$from.sql (the frozen $from install script) is missing" >&2
    exit 1
  fi
  if ! cmp -s "$script" "$extdir/$script"; then
    echo "upgrade: $script is not installed in $extdir (run make install)" >&2
    exit 1
  fi
done

versions=()
for f in "${frozen[@]}"; do
  v=${f#releases/sketch--}
  v=${v%.sql}
  [ "$v" = "$current" ] || versions+=("$v")
done

db=upgrade_fresh
dropdb --if-exists $db 2>/dev/null
createdb $db
psql_db $db -c 'CREATE EXTENSION sketch'
installed=$(psql_db $db -At -c "SELECT extversion FROM pg_extension WHERE extname = 'sketch'")
paths=$(psql_db $db -At -c "SELECT count(*) FROM pg_extension_update_paths('sketch') WHERE target = '$current' AND path IS NOT NULL")
if [ "$installed" != "$current" ]; then
  echo "upgrade: CREATE EXTENSION installed $installed, expected $current" >&2
  exit 1
fi

if [ ${#upgrade_scripts[@]} -eq 0 ]; then
  dropdb $db
  if [ ${#versions[@]} -gt 0 ]; then
    echo "upgrade: frozen releases ${versions[*]} but no upgrade script to $current" >&2
    exit 1
  fi
  if [ "$paths" != 0 ]; then
    echo "upgrade: the extension directory offers update paths to $current that the repository does not have (a stale install?)" >&2
    exit 1
  fi
  echo "upgrade: SKIPPED: no upgrade path yet: $current is the first version (no sketch--<old>--$current.sql), so no ALTER EXTENSION UPDATE was tested"
  exit 77
fi
if [ ${#versions[@]} -eq 0 ]; then
  # Unreachable while every upgrade script needs a frozen source release,
  # but an upgrade test that tests no version must not pass.
  dropdb $db
  echo "upgrade: upgrade scripts ${upgrade_scripts[*]} but no frozen release other than $current in releases/" >&2
  exit 1
fi

# Every C symbol a shipped or frozen script names ('MODULE_PATHNAME',
# '<symbol>') is in the installed module: a database still at an older
# version keeps calling the symbols its script declared.
module=$("$PG_CONFIG" --pkglibdir)/sketch.so
named=$(cat releases/sketch--*.sql sketch--*.sql |
        grep -o "'MODULE_PATHNAME', *'[A-Za-z_0-9]*'" | sed "s/.*, *'//; s/'$//" | sort -u)
symbols=$(echo "$named" | wc -l)
missing=$(comm -23 <(echo "$named") <(nm -D --defined-only "$module" | awk '{print $NF}' | sort -u))
if [ -n "$missing" ]; then
  echo "upgrade: C symbols named by shipped or frozen scripts are missing from $module: $(echo $missing)" >&2
  exit 1
fi

psql_db $db -At -f test/hardening/extension_objects.sql >"/tmp/upgrade_fresh_$$.txt"
trap 'rm -f /tmp/upgrade_*_$$.txt "$extdir/sketch--$current--$current-tail.sql" "$extdir/sketch--$current-tail--$current.sql"; for f in "${placed[@]:-}"; do [ -n "$f" ] && rm -f "$f"; done' EXIT
objects=$(wc -l <"/tmp/upgrade_fresh_$$.txt")
placed=()
status=0
# The tail run again on a fresh install changes nothing either.
tail_again $db >"/tmp/upgrade_fresh_tail_$$.txt"
if ! diff -u "/tmp/upgrade_fresh_$$.txt" "/tmp/upgrade_fresh_tail_$$.txt" >&2; then
  echo "upgrade: running the upgrade tail again on a fresh $current install changed it (diff above: - fresh, + after the tail again)" >&2
  status=1
else
  echo "upgrade: fresh $current install: $objects objects, the tail run again changes nothing; $symbols C symbols named by shipped and frozen scripts are all in sketch.so"
fi
for v in "${versions[@]}"; do
  target="$extdir/sketch--$v.sql"
  if [ ! -e "$target" ]; then
    cp "releases/sketch--$v.sql" "$target"
    placed+=("$target")
  elif ! cmp -s "releases/sketch--$v.sql" "$target"; then
    echo "upgrade: $target differs from the frozen releases/sketch--$v.sql" >&2
    status=1
    continue
  fi
  path=$(psql_db $db -At -c "SELECT path FROM pg_extension_update_paths('sketch') WHERE source = '$v' AND target = '$current'")
  if [ -z "$path" ]; then
    echo "upgrade: no update path from $v to $current" >&2
    status=1
    continue
  fi
  udb="upgrade_from_${v//[^0-9a-zA-Z]/_}"
  dropdb --if-exists "$udb" 2>/dev/null
  createdb "$udb"
  # The golden sketches of the types v has are stored while the database is
  # at v; those of the types the update adds (0.2.0's ddsketch, topk, theta,
  # counting_bloom, cuckoo and split-block bloom, from 0.1.0) right after it.
  old_types_sql=$(cat <<SQL
CREATE TABLE golden_hll (label text, cardinality bigint, info jsonb, query text, sketch text);
\\copy golden_hll FROM 'test/golden/hll_v1.txt' WITH (FORMAT csv, HEADER true, DELIMITER E'\\t', QUOTE E'\\x01')
ALTER TABLE golden_hll ADD COLUMN h hll;
UPDATE golden_hll SET h = sketch::hll;
CREATE TABLE golden_cms (label text, total bigint, info jsonb, topk jsonb, query text, sketch text);
\\copy golden_cms FROM 'test/golden/cms_v1.txt' WITH (FORMAT csv, HEADER true, DELIMITER E'\\t', QUOTE E'\\x01')
ALTER TABLE golden_cms ADD COLUMN s cms;
UPDATE golden_cms SET s = sketch::cms;
CREATE TABLE golden_bloom (label text, cardinality bigint, info jsonb, members text, query text, sketch text);
\\copy golden_bloom FROM 'test/golden/bloom_v1.txt' WITH (FORMAT csv, HEADER true, DELIMITER E'\\t', QUOTE E'\\x01')
ALTER TABLE golden_bloom ADD COLUMN f bloom;
UPDATE golden_bloom SET f = sketch::bloom;
SQL
)
  new_types_sql=$(cat <<SQL
CREATE TABLE golden_ddsketch (label text, count bigint, sum float8, min float8, max float8,
                              quantiles float8[], info jsonb, query text, sketch text);
\\copy golden_ddsketch FROM 'test/golden/ddsketch_v1.txt' WITH (FORMAT csv, HEADER true, DELIMITER E'\\t', QUOTE E'\\x01')
ALTER TABLE golden_ddsketch ADD COLUMN s ddsketch;
UPDATE golden_ddsketch SET s = sketch::ddsketch;
CREATE TABLE golden_topk (label text, total bigint, max_error bigint, info jsonb, items jsonb,
                          query text, sketch text);
\\copy golden_topk FROM 'test/golden/topk_v1.txt' WITH (FORMAT csv, HEADER true, DELIMITER E'\\t', QUOTE E'\\x01')
ALTER TABLE golden_topk ADD COLUMN s topk;
UPDATE golden_topk SET s = sketch::topk;
CREATE TABLE golden_theta (label text, count bigint, lower bigint, upper bigint, info jsonb,
                           query text, sketch text);
\\copy golden_theta FROM 'test/golden/theta_v1.txt' WITH (FORMAT csv, HEADER true, DELIMITER E'\\t', QUOTE E'\\x01')
ALTER TABLE golden_theta ADD COLUMN s theta;
UPDATE golden_theta SET s = sketch::theta;
CREATE TABLE golden_counting_bloom (label text, cardinality bigint, info jsonb, members text, query text, sketch text);
\\copy golden_counting_bloom FROM 'test/golden/counting_bloom_v1.txt' WITH (FORMAT csv, HEADER true, DELIMITER E'\\t', QUOTE E'\\x01')
ALTER TABLE golden_counting_bloom ADD COLUMN f counting_bloom;
UPDATE golden_counting_bloom SET f = sketch::counting_bloom;
CREATE TABLE golden_cuckoo (label text, cardinality bigint, info jsonb, counts text, query text, sketch text);
\\copy golden_cuckoo FROM 'test/golden/cuckoo_v1.txt' WITH (FORMAT csv, HEADER true, DELIMITER E'\\t', QUOTE E'\\x01')
ALTER TABLE golden_cuckoo ADD COLUMN f cuckoo;
UPDATE golden_cuckoo SET f = sketch::cuckoo;
CREATE TABLE golden_bloom_split_block (label text, cardinality bigint, info jsonb, members text, parquet text,
                                       query text, sketch text);
\\copy golden_bloom_split_block FROM 'test/golden/bloom_split_block_v1.txt' WITH (FORMAT csv, HEADER true, DELIMITER E'\\t', QUOTE E'\\x01')
ALTER TABLE golden_bloom_split_block ADD COLUMN f bloom;
UPDATE golden_bloom_split_block SET f = sketch::bloom;
SQL
)
  if [ "$v" = 0.1.0 ]; then before_update=$old_types_sql; after_update=$new_types_sql
  else before_update="$old_types_sql
$new_types_sql"; after_update=; fi
  psql_db "$udb" <<SQL
CREATE EXTENSION sketch VERSION '$v';
$before_update
-- Rows for theta, counting_bloom and cuckoo, stored before the update.
CREATE TABLE rows_before (g int, t text);
INSERT INTO rows_before SELECT g, 'user ' || g FROM generate_series(1, 100000) g;
ALTER TABLE rows_before SET (parallel_workers = 2);
VACUUM ANALYZE rows_before;
ALTER EXTENSION sketch UPDATE;
$after_update
-- theta's aggregates over the rows stored before the update, serial and
-- parallel: theta_agg (anyelement with lg_k, and the integer and text
-- twins), theta_union and theta_intersect (every row's sketch holds 0).
SET max_parallel_workers_per_gather = 0;
CREATE TABLE theta_built AS
  SELECT 'serial'::text AS mode, theta_agg(g::bigint, 10) AS a, theta_agg(g) AS a_int, theta_agg(t) AS a_text,
         theta_union(theta_add(theta_empty(8), g)) AS u, theta_intersect(theta_add(theta_add(theta_empty(), g), 0)) AS i,
         counting_bloom_agg(g, 100000, 0.01) AS cb, counting_bloom_agg(t, 1000, 0.01) AS cb_text,
         cuckoo_agg(g, 100000, 0.01) AS cf, cuckoo_agg(t, 200000, 0.01) AS cf_text
  FROM rows_before;
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET parallel_leader_participation = off;
-- (CREATE TABLE AS: PostgreSQL 15 plans no parallel query for INSERT ... SELECT)
CREATE TABLE theta_built_parallel AS
  SELECT 'parallel'::text AS mode, theta_agg(g::bigint, 10) AS a, theta_agg(g) AS a_int, theta_agg(t) AS a_text,
         theta_union(theta_add(theta_empty(8), g)) AS u, theta_intersect(theta_add(theta_add(theta_empty(), g), 0)) AS i,
         counting_bloom_agg(g, 100000, 0.01) AS cb, counting_bloom_agg(t, 1000, 0.01) AS cb_text,
         cuckoo_agg(g, 100000, 0.01) AS cf, cuckoo_agg(t, 200000, 0.01) AS cf_text
  FROM rows_before;
INSERT INTO theta_built SELECT * FROM theta_built_parallel;
CREATE TABLE theta_plan AS SELECT 1 AS n WHERE false;
DO \$p\$
DECLARE l text; plan text := '';
BEGIN
  FOR l IN EXPLAIN (COSTS OFF) SELECT theta_agg(g), theta_union(theta_add(theta_empty(8), g)),
                                      theta_intersect(theta_add(theta_add(theta_empty(), g), 0)) FROM rows_before LOOP
    plan := plan || l || ' ';
  END LOOP;
  IF plan LIKE '%Partial Aggregate%' AND plan LIKE '%Gather%' THEN INSERT INTO theta_plan VALUES (1); END IF;
END \$p\$;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET parallel_leader_participation;
-- What a golden query builds now (or the SQLSTATE of its error).
CREATE FUNCTION public.golden_build(query text) RETURNS text LANGUAGE plpgsql AS \$f\$
DECLARE
  result text;
BEGIN
  EXECUTE query INTO result;
  RETURN result;
EXCEPTION WHEN OTHERS THEN
  RETURN 'ERROR ' || SQLSTATE;
END \$f\$;
-- cms_scale (new in 0.2.0) ages the cms sketches stored by $v.
CREATE TABLE aged_cms AS
  SELECT label, total, s, cms_scale(s, 0.5) AS half, cms_scale(s, 1) AS same
  FROM golden_cms WHERE total < 9223372036854775807;
SQL
  now=$(psql_db "$udb" -At -c "SELECT extversion FROM pg_extension WHERE extname = 'sketch'")
  if [ "$v" = 0.1.0 ]; then stored="golden_hll golden_cms golden_bloom"
  else stored="golden_hll golden_cms golden_bloom golden_bloom_split_block golden_ddsketch golden_topk golden_theta golden_counting_bloom golden_cuckoo"; fi
  golden=$(psql_db "$udb" -At -c "SELECT $(printf '(SELECT count(*) FROM %s) + ' $stored) 0")
  # The current version writes new cuckoo filters in format version 2
  # (0.3.0): the golden queries must rebuild cuckoo_v2.txt's bytes, while the
  # stored version 1 filters above must still read as cuckoo_v1.txt says.
  psql_db "$udb" <<SQL
CREATE TABLE golden_cuckoo_v2 (label text, cardinality bigint, info jsonb, counts text, query text, sketch text);
\\copy golden_cuckoo_v2 FROM 'test/golden/cuckoo_v2.txt' WITH (FORMAT csv, HEADER true, DELIMITER E'\\t', QUOTE E'\\x01')
SQL
  psql_db "$udb" -At -f test/hardening/extension_objects.sql >"/tmp/upgrade_${udb}_$$.txt"
  tail_again "$udb" >"/tmp/upgrade_${udb}_tail_$$.txt"
  bad=$(psql_db "$udb" -At -c "SELECT
         (SELECT count(*) FROM golden_hll
          WHERE hll_cardinality(h) <> cardinality OR hll_info(h) - 'element_kind' <> info OR h::text <> sketch)
       + (SELECT count(*) FROM golden_cms
          WHERE cms_total(s) <> total OR cms_info(s) - 'element_kind' <> info OR s::text <> sketch
             OR (SELECT coalesce(jsonb_agg(t), '[]') FROM cms_topk(s, 10000) t) <> topk)
       + (SELECT count(*) FROM golden_bloom
          WHERE bloom_cardinality(f) <> cardinality OR bloom_info(f) - 'element_kind' - 'layout' <> info OR f::text <> sketch
             OR (SELECT string_agg((f @> g)::int::text, '' ORDER BY g) FROM generate_series(1, 64) g) <> members)
       + (SELECT count(*) FROM (SELECT bloom_agg(g, 1000, 0.01, 'split_block') AS f
                                FROM generate_series(1, 300) g) split  -- new in 0.2.0
          WHERE NOT (f @> 150 AND bloom_info(f)->>'layout' = 'split_block'
                     AND bloom_from_parquet(bloom_to_parquet(f), 'INT32') = f
                     AND (bloom_sizing(1000, 0.01, 'split_block')).bits = (bloom_info(f)->>'bits')::bigint))
       + (SELECT count(*) FROM golden_bloom_split_block
          WHERE bloom_cardinality(f) <> cardinality OR bloom_info(f) <> info OR f::text <> sketch
             OR encode(bloom_to_parquet(f), 'hex') <> parquet
             OR coalesce(CASE WHEN coalesce(info->>'physical_type', 'INT64') IN ('INT32', 'INT64') THEN
                           (SELECT string_agg((f @> g::bigint)::int::text, '' ORDER BY g) FROM generate_series(1, 64) g) END, '')
                <> coalesce(members, ''))
       + (SELECT CASE WHEN count(*) = 0 THEN 1 ELSE 0 END FROM golden_bloom_split_block)
       + (SELECT count(*) FROM golden_ddsketch
          WHERE ddsketch_count(s) <> count OR ddsketch_sum(s) <> sum OR ddsketch_min(s) IS DISTINCT FROM min
             OR ddsketch_max(s) IS DISTINCT FROM max OR ddsketch_info(s) <> info OR s::text <> sketch
             OR ddsketch_quantiles(s, '{0,0.5,0.99,1}') <> quantiles)
       + (SELECT count(*) FROM golden_ddsketch
          WHERE label = 'ints_1_1000' AND s <> (SELECT ddsketch_agg(g) FROM generate_series(1, 1000) g))
       + (SELECT CASE WHEN count(*) = 0 THEN 1 ELSE 0 END FROM golden_ddsketch)
       + (SELECT count(*) FROM golden_topk
          WHERE topk_total(s) <> total OR topk_max_error(s) <> max_error OR topk_info(s) <> info
             OR s::text <> sketch OR topk_scale(s, 1) <> s
             OR (SELECT coalesce(jsonb_agg(to_jsonb(t) - 'n' ORDER BY n), '[]')
                 FROM topk_items(s) WITH ORDINALITY AS t(item, estimate, lower_bound, upper_bound, n)) <> items)
       + (SELECT count(*) FROM golden_topk WHERE golden_build(query) IS DISTINCT FROM sketch)
       + (SELECT CASE WHEN count(*) = 0 THEN 1 ELSE 0 END FROM golden_topk)
       + (SELECT count(*) FROM golden_theta
          WHERE theta_count(s) <> count OR (theta_bounds(s)).lower <> lower OR (theta_bounds(s)).upper <> upper
             OR theta_info(s) <> info OR s::text <> sketch OR (s || s) <> s OR (s & s) <> s
             OR theta_diff(s, theta_empty(24)) <> s)
       + (SELECT count(*) FROM golden_theta WHERE golden_build(query) IS DISTINCT FROM sketch)
       + (SELECT CASE WHEN count(*) = 0 THEN 1 ELSE 0 END FROM golden_theta)
       + (SELECT CASE WHEN count(*) = 30 THEN 0 ELSE 1 END FROM pg_aggregate a JOIN pg_proc p ON p.oid = a.aggfnoid
          WHERE p.proname IN ('theta_agg', 'theta_union', 'theta_intersect'))
       + (SELECT count(*) FROM theta_built s JOIN theta_built p ON p.mode = 'parallel'
          WHERE s.mode = 'serial' AND (s.a <> p.a OR s.a_int <> p.a_int OR s.a_text <> p.a_text OR s.u <> p.u OR s.i <> p.i))
       + (SELECT CASE WHEN count(*) = 2 THEN 0 ELSE 1 END FROM theta_built)
       + (SELECT CASE WHEN count(*) = 1 THEN 0 ELSE 1 END FROM theta_plan)
       + (SELECT count(*) FROM golden_counting_bloom
          WHERE counting_bloom_cardinality(f) <> cardinality OR counting_bloom_info(f) <> info OR f::text <> sketch
             OR coalesce(CASE WHEN get_byte(f::bytea, 7) IN (1, 255) THEN
                           (SELECT string_agg((f @> g)::int::text, '' ORDER BY g) FROM generate_series(1, 64) g) END, '')
                <> coalesce(members, ''))
       + (SELECT count(*) FROM golden_counting_bloom WHERE golden_build(query) IS DISTINCT FROM sketch)
       + (SELECT CASE WHEN count(*) = 0 THEN 1 ELSE 0 END FROM golden_counting_bloom)
       + (SELECT count(*) FROM golden_cuckoo
          WHERE cuckoo_cardinality(f) <> cardinality OR cuckoo_info(f) <> info OR f::text <> sketch
             OR coalesce(CASE WHEN get_byte(f::bytea, 7) IN (1, 255) THEN
                           (SELECT string_agg(least(cuckoo_count(f, g), 9)::text, '' ORDER BY g) FROM generate_series(1, 64) g) END, '')
                <> coalesce(counts, ''))
       + (SELECT count(*) FROM golden_cuckoo_v2 WHERE golden_build(query) IS DISTINCT FROM sketch)
       + (SELECT CASE WHEN count(*) = 0 THEN 1 ELSE 0 END FROM golden_cuckoo)
       + (SELECT CASE WHEN count(*) = 0 THEN 1 ELSE 0 END FROM golden_cuckoo_v2)
       -- the filters of the rows stored before the update: counting_bloom
       -- serial = parallel byte for byte, cuckoo the same number of
       -- fingerprints, and every row's value present in both
       + (SELECT count(*) FROM theta_built s JOIN theta_built p ON p.mode = 'parallel'
          WHERE s.mode = 'serial' AND (s.cb <> p.cb OR s.cb_text <> p.cb_text
                                       OR cuckoo_cardinality(s.cf) <> cuckoo_cardinality(p.cf)
                                       OR cuckoo_cardinality(s.cf_text) <> cuckoo_cardinality(p.cf_text)))
       -- (one filter row at a time, the rows inside: the probes' detoast
       -- cache holds one value, so alternating the two rows per probe
       -- would reassemble each filter from TOAST 400,000 times)
       + (SELECT coalesce(sum(m.missing), 0) FROM theta_built b CROSS JOIN LATERAL
            (SELECT count(*) AS missing FROM rows_before r
             WHERE NOT (b.cb @> r.g AND b.cb_text @> r.t AND b.cf @> r.g AND b.cf_text @> r.t)) m)
       + (SELECT count(*) FROM theta_built
          WHERE NOT 100000 BETWEEN (theta_bounds(a, 0.999)).lower AND (theta_bounds(a, 0.999)).upper
             OR NOT 100000 BETWEEN (theta_bounds(a_text, 0.999)).lower AND (theta_bounds(a_text, 0.999)).upper
             OR a_int <> (SELECT theta_agg(g::numeric) FROM rows_before) OR theta_info(u)->>'lg_k' <> '8' OR theta_count(i) <> 1
             OR theta_count(i & theta_add(theta_empty(), 0)) <> 1)
       + (SELECT CASE WHEN theta_count(x & y) = 500 AND theta_count(theta_diff(x, y)) = 500
                       AND (theta_jaccard(x, y)).estimate = 1::float8 / 3 AND theta_count(x || y) = 1500
                 THEN 0 ELSE 1 END
          FROM (SELECT theta_agg(g) AS x FROM rows_before WHERE g <= 1000) a,
               (SELECT theta_agg(g) AS y FROM rows_before WHERE g BETWEEN 501 AND 1500) b)
       + (SELECT CASE WHEN theta_count(theta_agg(label)) = count(DISTINCT label) THEN 0 ELSE 1 END FROM golden_hll)
       + (SELECT count(*) FROM aged_cms
          WHERE cms_total(half) <> total / 2 OR cms_total(same) <> total
             OR (SELECT coalesce(jsonb_agg(t), '[]') FROM cms_topk(same, 10000) t)
                <> (SELECT coalesce(jsonb_agg(t), '[]') FROM cms_topk(s, 10000) t)
             OR cms_total(half || s) <> total / 2 + total)
       + (SELECT CASE WHEN count(*) < 10 THEN 1 ELSE 0 END FROM aged_cms)
       + (SELECT count(*) FROM golden_cms WHERE label = 'saturated_4x2'
          AND golden_build(format('SELECT cms_scale(%L::cms, 0.5)::text', sketch)) <> 'ERROR 22023')")
  if [ "$now" != "$current" ]; then
    echo "upgrade: $v -> $current: extension is at $now after ALTER EXTENSION UPDATE" >&2
    status=1
  elif ! diff -u "/tmp/upgrade_fresh_$$.txt" "/tmp/upgrade_${udb}_$$.txt" >&2; then
    echo "upgrade: $v -> $current (path $path): the upgraded extension differs from a fresh install (diff above: - fresh, + upgraded)" >&2
    status=1
  elif ! diff -u "/tmp/upgrade_${udb}_$$.txt" "/tmp/upgrade_${udb}_tail_$$.txt" >&2; then
    echo "upgrade: $v -> $current: running the upgrade tail again changed the extension (diff above: - after the update, + after the tail again)" >&2
    status=1
  elif [ "$bad" != 0 ]; then
    echo "upgrade: $v -> $current: $bad stored golden sketches read differently after the update" >&2
    status=1
  else
    echo "upgrade: $v -> $current (path $path): objects identical to a fresh install ($objects objects), the tail run again changes nothing, stored sketches read the same ($golden golden sketches stored at $v), cms_scale ages them, topk, ddsketch, theta, counting_bloom and cuckoo read and write their golden sketches, theta, counting_bloom and cuckoo aggregate the rows stored before the update (serial = parallel)"
  fi
  dropdb "$udb"
done
dropdb $db
[ $status -eq 0 ] && echo "upgrade: OK: ${#versions[@]} upgrade(s) to $current tested (from ${versions[*]})"
exit $status
