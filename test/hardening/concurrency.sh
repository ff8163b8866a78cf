#!/usr/bin/env bash
# Nothing lost under concurrent upserts:
#
#   bash test/cluster.sh run -- bash test/hardening/concurrency.sh
#
# CLIENTS pgbench clients (default 12) each run TXNS transactions (default
# 1000). Each transaction merges one value into a rollup row with
#   INSERT ... ON CONFLICT (bucket) DO UPDATE SET s = rollup.s || EXCLUDED.s
# and, in the same transaction, logs what it sent. Values come from a
# deterministic per-client sequence (client id and a per-client counter;
# each client sends each of its 300 values several times, so duplicates
# merge too) and land in a few buckets (value mod BUCKETS), so clients
# constantly contend for the same rows. Afterwards
# every rollup sketch must equal the aggregate of the log for its bucket,
# byte for byte: no update lost, none applied twice.
#
# Five rollups run side by side: hll (p = 14, stays sparse) and hll(8)
# (promoted to dense after 47 values; the p = 14 inputs are folded to 8 on
# the way in), both merged with ||; cms 64 x 3 without a candidate list and
# cms 256 x 4 with k = 10, merged with || (counters and N are sums, so the
# first must be byte-identical to cms_agg_sized over the log; the second's
# candidate list may legitimately differ from a streamed aggregate's, so its
# N and the estimate of every logged value are compared); bloom m = 4096,
# k = 5, merged with | (byte-identical to bloom_agg_bits over the log, and
# every logged value present). Two ddsketch rollups, merged with ||: the
# default (scale 6, 2048 buckets) and scale 9 with 16 buckets (collapses
# constantly), over signed values with zeros, (value % 5 - 2) * value / 7;
# merges are exact, so both must be byte-identical to ddsketch_agg over the
# log, with the count and the sum of the log. Two topk rollups, merged with
# ||: the default k = 1024 over the values (a bucket sees about 230
# distinct values, so nothing is ever purged and the rollup must be
# byte-identical to topk_agg over the log, its total the rows logged), and
# k = 4 over 11 text items 'item ' || value % 11 with weights value % 3 + 1
# (purged on almost every merge, so the summary depends on the order of the
# merges): its total must be the log's total weight, max_error within
# (N - sum of counts) / 5, and every item's true weighted count of the log
# within the bounds topk_estimate gives. Two theta rollups, merged with ||:
# the default lg_k 12 over the values (exact: a bucket sees about 230
# distinct values, so theta_count must be the log's distinct count) and
# lg_k 4 over the texts 'user ' || value (k = 16: estimated, θ falls with
# almost every merge). A theta sketch is canonical (the union of two
# sketches is the sketch of the union, in any merge order), so both must be
# byte-identical to theta_agg over the log. A counting_bloom rollup merged
# with counting_bloom_union (counters add up, saturating: the same in any
# order) must equal counting_bloom_agg over the log byte for byte; a cuckoo
# rollup merged with cuckoo_union (a multiset of fingerprint copies, its
# slots depending on the order) must hold one copy per logged row and every
# logged value, and cuckoo_agg over the log one copy per distinct value.
set -euo pipefail
cd "$(dirname "$0")/../.."

CLIENTS=${CLIENTS:-12}
TXNS=${TXNS:-1000}
BUCKETS=${BUCKETS:-16}
db=concurrency
pg_bin=${PG_BIN:-$("${PG_CONFIG:-/usr/lib/postgresql/${PG_MAJOR:-15}/bin/pg_config}" --bindir)}
pgbench=$(command -v pgbench || echo "$pg_bin/pgbench")

work=$(mktemp -d /tmp/sketch-concurrency.XXXXXX)
trap 'rm -rf "$work"' EXIT

dropdb --if-exists $db 2>/dev/null
createdb $db
psql -X -q -v ON_ERROR_STOP=1 -d $db <<'SQL'
CREATE EXTENSION sketch;
CREATE TABLE rollup_hll (bucket int PRIMARY KEY, s hll NOT NULL);
CREATE TABLE rollup_hll8 (bucket int PRIMARY KEY, s hll(8) NOT NULL);
CREATE TABLE rollup_cms (bucket int PRIMARY KEY, s cms NOT NULL);
CREATE TABLE rollup_cms_k (bucket int PRIMARY KEY, s cms NOT NULL);
CREATE TABLE rollup_bloom (bucket int PRIMARY KEY, s bloom NOT NULL);
CREATE TABLE rollup_ddsketch (bucket int PRIMARY KEY, s ddsketch NOT NULL);
CREATE TABLE rollup_ddsketch16 (bucket int PRIMARY KEY, s ddsketch NOT NULL);
CREATE TABLE rollup_topk (bucket int PRIMARY KEY, s topk NOT NULL);
CREATE TABLE rollup_topk4 (bucket int PRIMARY KEY, s topk NOT NULL);
CREATE TABLE rollup_theta (bucket int PRIMARY KEY, s theta NOT NULL);
CREATE TABLE rollup_theta4 (bucket int PRIMARY KEY, s theta NOT NULL);
CREATE TABLE rollup_cbloom (bucket int PRIMARY KEY, s counting_bloom NOT NULL);
CREATE TABLE rollup_cuckoo (bucket int PRIMARY KEY, s cuckoo NOT NULL);
CREATE TABLE sent (client int, n int, bucket int, value bigint, PRIMARY KEY (client, n));
SQL

cat >"$work/upsert.sql" <<SQL
\\set n :n + 1
\\set value :client_id * 1000000 + (:n % 300)
\\set bucket :value % $BUCKETS
BEGIN;
INSERT INTO rollup_hll VALUES (:bucket, hll_add(hll_empty(), :value))
  ON CONFLICT (bucket) DO UPDATE SET s = rollup_hll.s || EXCLUDED.s;
INSERT INTO rollup_hll8 VALUES (:bucket, hll_add(hll_empty(), :value))
  ON CONFLICT (bucket) DO UPDATE SET s = rollup_hll8.s || EXCLUDED.s;
INSERT INTO rollup_cms VALUES (:bucket, cms_add(cms_empty_sized(64, 3, false, 0), :value))
  ON CONFLICT (bucket) DO UPDATE SET s = rollup_cms.s || EXCLUDED.s;
INSERT INTO rollup_cms_k VALUES (:bucket, cms_add(cms_empty_sized(256, 4, false, 10), :value))
  ON CONFLICT (bucket) DO UPDATE SET s = rollup_cms_k.s || EXCLUDED.s;
INSERT INTO rollup_bloom VALUES (:bucket, bloom_add(bloom_empty_bits(4096, 5), :value))
  ON CONFLICT (bucket) DO UPDATE SET s = rollup_bloom.s | EXCLUDED.s;
INSERT INTO rollup_ddsketch VALUES (:bucket, ddsketch_add(ddsketch_empty(), (:value % 5 - 2) * :value / 7.0))
  ON CONFLICT (bucket) DO UPDATE SET s = rollup_ddsketch.s || EXCLUDED.s;
INSERT INTO rollup_ddsketch16 VALUES (:bucket, ddsketch_add(ddsketch_empty(0.001, 16), (:value % 5 - 2) * :value / 7.0))
  ON CONFLICT (bucket) DO UPDATE SET s = rollup_ddsketch16.s || EXCLUDED.s;
INSERT INTO rollup_topk VALUES (:bucket, topk_add(topk_empty(), :value))
  ON CONFLICT (bucket) DO UPDATE SET s = rollup_topk.s || EXCLUDED.s;
INSERT INTO rollup_topk4 VALUES (:bucket, topk_add(topk_empty(4), 'item ' || :value % 11, :value % 3 + 1))
  ON CONFLICT (bucket) DO UPDATE SET s = rollup_topk4.s || EXCLUDED.s;
INSERT INTO rollup_theta VALUES (:bucket, theta_add(theta_empty(), :value))
  ON CONFLICT (bucket) DO UPDATE SET s = rollup_theta.s || EXCLUDED.s;
INSERT INTO rollup_theta4 VALUES (:bucket, theta_add(theta_empty(4), 'user ' || :value))
  ON CONFLICT (bucket) DO UPDATE SET s = rollup_theta4.s || EXCLUDED.s;
INSERT INTO rollup_cbloom VALUES (:bucket, counting_bloom_add(counting_bloom_empty(1000, 0.01), :value))
  ON CONFLICT (bucket) DO UPDATE SET s = counting_bloom_union(rollup_cbloom.s, EXCLUDED.s);
INSERT INTO rollup_cuckoo VALUES (:bucket, cuckoo_add(cuckoo_empty(1000, 0.01), :value))
  ON CONFLICT (bucket) DO UPDATE SET s = cuckoo_union(rollup_cuckoo.s, EXCLUDED.s);
INSERT INTO sent VALUES (:client_id, :n, :bucket, :value);
END;
SQL

start=$(date +%s%N)
"$pgbench" -n -c "$CLIENTS" -j 2 -t "$TXNS" -D n=0 -f "$work/upsert.sql" $db >"$work/pgbench.log" 2>&1 || {
  cat "$work/pgbench.log" >&2
  echo "concurrency: pgbench failed" >&2
  exit 1
}
elapsed_ms=$((($(date +%s%N) - start) / 1000000))
grep -E 'number of (transactions actually processed|failed)|tps' "$work/pgbench.log" | sed 's/^/concurrency: pgbench: /'

result=$(psql -X -At -F ' ' -v ON_ERROR_STOP=1 -d $db <<SQL
WITH expected AS (
  SELECT bucket, hll_agg(value) AS s14, hll_agg(value, 8) AS s8,
         cms_agg_sized(value, 64, 3, false, 0) AS c, bloom_agg_bits(value, 4096, 5) AS b,
         ddsketch_agg((value % 5 - 2) * value / 7.0) AS d,
         ddsketch_agg((value % 5 - 2) * value / 7.0, 0.001, 16) AS d16,
         topk_agg(value) AS t, sum(value % 3 + 1) AS weight,
         theta_agg(value) AS th, theta_agg('user ' || value, 4) AS th4,
         counting_bloom_agg(value, 1000, 0.01) AS cb, cuckoo_agg(value, 1000, 0.01) AS cf,
         count(*) AS sent, count(DISTINCT value) AS distinct_values
  FROM sent GROUP BY bucket
),
cms_k_mismatches AS (
  SELECT s.bucket, count(*) FILTER (WHERE cms_frequency(r.s, s.value) <> f.frequency) AS bad
  FROM (SELECT bucket, value FROM sent GROUP BY bucket, value) s
  JOIN rollup_cms_k r USING (bucket)
  JOIN (SELECT bucket, cms_agg_sized(value, 256, 4, false, 10) AS a FROM sent GROUP BY bucket) e USING (bucket)
  CROSS JOIN LATERAL (SELECT cms_frequency(e.a, s.value) AS frequency) f
  GROUP BY s.bucket
),
topk4_outside AS (
  -- the log's weighted count of every item of a bucket against the bounds
  SELECT count(*) FILTER (WHERE f.weight < e.lower_bound OR f.weight > e.upper_bound) AS outside,
         count(*) AS items
  FROM (SELECT bucket, 'item ' || value % 11 AS item, sum(value % 3 + 1) AS weight
        FROM sent GROUP BY 1, 2) f
  JOIN rollup_topk4 r USING (bucket)
  CROSS JOIN LATERAL topk_estimate(r.s, f.item) e
),
bloom_missing AS (
  SELECT count(*) AS missing FROM sent JOIN rollup_bloom r USING (bucket) WHERE NOT r.s @> sent.value
),
cuckoo_missing AS (
  SELECT count(*) AS missing FROM sent JOIN rollup_cuckoo r USING (bucket) WHERE NOT r.s @> sent.value
)
SELECT (SELECT count(*) FROM sent),
       count(*),
       count(*) FILTER (WHERE r.s = e.s14),
       count(*) FILTER (WHERE r8.s = e.s8),
       count(*) FILTER (WHERE hll_cardinality(r.s) = e.distinct_values),
       count(*) FILTER (WHERE hll_info(r8.s)->>'representation' = 'dense'),
       sum(e.distinct_values),
       count(*) FILTER (WHERE rc.s = e.c),
       count(*) FILTER (WHERE cms_total(rc.s) = e.sent AND cms_total(rk.s) = e.sent AND m.bad = 0),
       count(*) FILTER (WHERE rb.s = e.b),
       (SELECT missing FROM bloom_missing),
       count(*) FILTER (WHERE rd.s = e.d),
       count(*) FILTER (WHERE rd16.s = e.d16),
       count(*) FILTER (WHERE ddsketch_count(rd.s) = e.sent AND ddsketch_count(rd16.s) = e.sent
                          AND ddsketch_sum(rd.s) = ddsketch_sum(e.d) AND ddsketch_sum(rd16.s) = ddsketch_sum(e.d)),
       count(*) FILTER (WHERE (ddsketch_info(rd16.s)->>'collapsed')::bool),
       coalesce(sum(ddsketch_count(rd.s)), 0),
       count(*) FILTER (WHERE rt.s = e.t AND topk_total(rt.s) = e.sent AND topk_max_error(rt.s) = 0),
       coalesce(sum(topk_total(rt.s)), 0),
       count(*) FILTER (WHERE topk_total(rt4.s) = e.weight
                          AND topk_max_error(rt4.s) <= (topk_info(rt4.s)->>'error_bound')::bigint),
       count(*) FILTER (WHERE topk_max_error(rt4.s) > 0),
       coalesce(sum(topk_total(rt4.s)), 0),
       (SELECT sum(value % 3 + 1) FROM sent),
       (SELECT outside FROM topk4_outside), (SELECT items FROM topk4_outside),
       count(*) FILTER (WHERE rth.s = e.th AND theta_count(rth.s) = e.distinct_values
                          AND (theta_info(rth.s)->>'exact')::bool),
       count(*) FILTER (WHERE rth4.s = e.th4),
       count(*) FILTER (WHERE NOT (theta_info(rth4.s)->>'exact')::bool),
       coalesce(sum(theta_count(rth.s)), 0),
       count(*) FILTER (WHERE rcb.s = e.cb),
       count(*) FILTER (WHERE cuckoo_cardinality(rcf.s) = e.sent AND cuckoo_cardinality(e.cf) = e.distinct_values),
       (SELECT missing FROM cuckoo_missing)
FROM expected e
FULL JOIN rollup_hll r USING (bucket)
FULL JOIN rollup_hll8 r8 USING (bucket)
FULL JOIN rollup_cms rc USING (bucket)
FULL JOIN rollup_cms_k rk USING (bucket)
FULL JOIN rollup_bloom rb USING (bucket)
FULL JOIN rollup_ddsketch rd USING (bucket)
FULL JOIN rollup_ddsketch16 rd16 USING (bucket)
FULL JOIN rollup_topk rt USING (bucket)
FULL JOIN rollup_topk4 rt4 USING (bucket)
FULL JOIN rollup_theta rth USING (bucket)
FULL JOIN rollup_theta4 rth4 USING (bucket)
FULL JOIN rollup_cbloom rcb USING (bucket)
FULL JOIN rollup_cuckoo rcf USING (bucket)
LEFT JOIN cms_k_mismatches m USING (bucket);
SQL
)
read -r sent buckets equal14 equal8 exact dense distinct equal_cms exact_cms equal_bloom missing \
  equal_dd equal_dd16 exact_dd collapsed_dd16 total_dd \
  equal_topk total_topk exact_topk4 purged_topk4 total_topk4 weight_sent outside_topk4 items_topk4 \
  equal_theta equal_theta4 estimated_theta4 count_theta equal_cbloom equal_cuckoo missing_cuckoo <<<"$result"
expected_sent=$((CLIENTS * TXNS))
echo "concurrency: $CLIENTS clients x $TXNS upserts in ${elapsed_ms} ms: $sent logged, $buckets buckets, $distinct distinct values"
echo "concurrency: hll: $equal14/$buckets rollup sketches equal hll_agg of the log (cardinality exact in $exact)"
echo "concurrency: hll(8): $equal8/$buckets equal hll_agg(value, 8) of the log ($dense dense)"
echo "concurrency: cms 64x3 k=0: $equal_cms/$buckets rollup sketches equal cms_agg_sized of the log"
echo "concurrency: cms (both): N and every logged value's estimate equal the log's aggregate in $exact_cms/$buckets"
echo "concurrency: bloom: $equal_bloom/$buckets rollup filters equal bloom_agg_bits of the log, $missing logged values missing"
echo "concurrency: ddsketch: $equal_dd/$buckets rollup sketches equal ddsketch_agg of the log; 16 buckets: $equal_dd16/$buckets ($collapsed_dd16 collapsed)"
echo "concurrency: ddsketch (both): count and sum equal the log's in $exact_dd/$buckets; $total_dd values in the rollup, $sent logged"
echo "concurrency: topk: $equal_topk/$buckets rollup summaries equal topk_agg of the log (none purged); total $total_topk in the rollup, $sent logged"
echo "concurrency: topk k=4 weighted: total and max_error bound hold in $exact_topk4/$buckets ($purged_topk4 purged); total $total_topk4, $weight_sent logged; $outside_topk4 of $items_topk4 (bucket, item) counts outside their bounds"
echo "concurrency: theta: $equal_theta/$buckets rollup sketches equal theta_agg of the log (exact, count = distinct values logged); $count_theta counted, $distinct distinct logged"
echo "concurrency: theta lg_k 4 text: $equal_theta4/$buckets rollup sketches equal theta_agg(text, 4) of the log ($estimated_theta4 estimated)"
echo "concurrency: counting_bloom: $equal_cbloom/$buckets rollups (counting_bloom_union upserts) equal counting_bloom_agg of the log"
echo "concurrency: cuckoo: $equal_cuckoo/$buckets rollups (cuckoo_union upserts) hold one copy per logged row (and cuckoo_agg of the log one per distinct value), $missing_cuckoo logged values missing"
dropdb $db
if [ "$sent" -ne "$expected_sent" ] || [ "$equal14" -ne "$buckets" ] || [ "$equal8" -ne "$buckets" ] \
   || [ "$buckets" -ne "$BUCKETS" ] || [ "$exact" -ne "$buckets" ] || [ "$equal_cms" -ne "$buckets" ] \
   || [ "$exact_cms" -ne "$buckets" ] || [ "$equal_bloom" -ne "$buckets" ] || [ "$missing" -ne 0 ] \
   || [ "$equal_dd" -ne "$buckets" ] || [ "$equal_dd16" -ne "$buckets" ] || [ "$exact_dd" -ne "$buckets" ] \
   || [ "$total_dd" -ne "$sent" ] || [ "$equal_topk" -ne "$buckets" ] || [ "$total_topk" -ne "$sent" ] \
   || [ "$exact_topk4" -ne "$buckets" ] || [ "$total_topk4" -ne "$weight_sent" ] || [ "$outside_topk4" -ne 0 ] \
   || [ "$items_topk4" -eq 0 ] || [ "$equal_theta" -ne "$buckets" ] || [ "$equal_theta4" -ne "$buckets" ] \
   || [ "$estimated_theta4" -ne "$buckets" ] || [ "$count_theta" -ne "$distinct" ] \
   || [ "$equal_cbloom" -ne "$buckets" ] || [ "$equal_cuckoo" -ne "$buckets" ] || [ "$missing_cuckoo" -ne 0 ]; then
  echo "concurrency: FAILED: updates were lost or duplicated" >&2
  exit 1
fi
echo "concurrency: OK"
