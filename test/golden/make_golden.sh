#!/usr/bin/env bash
# Writes the golden file of one sketch type from its sources list:
#
#   bash test/cluster.sh run -- bash test/golden/make_golden.sh hll
#
# test/golden/<type>_v<format>.sources has one sketch per line: a label, a
# TAB, and the query that builds it. The golden file <type>_v<format>.txt gets
# one line per sketch with what this build answers for it and its text form
# (see README.md). A golden file is written once, by the build that
# introduces that format version, and then never changes: the script refuses
# to overwrite one unless given --force (only for a format that has not been
# released yet).
set -euo pipefail
cd "$(dirname "$0")/../.."

type=${1:?usage: make_golden.sh <type> [--force]}
force=${2:-}

case $type in
  hll)
    version=1
    # Columns after label: the answers of this build, then query and sketch.
    columns="label	cardinality	info	query	sketch"
    answers="hll_cardinality(h)::text || E'\\t' || hll_info(h)::text"
    ;;
  cms)
    version=1
    # total, info, and every candidate with its estimate (cms_topk's order).
    columns="label	total	info	topk	query	sketch"
    answers="cms_total(h)::text || E'\\t' || cms_info(h)::text || E'\\t' || (SELECT coalesce(jsonb_agg(t), '[]')::text FROM cms_topk(h, 10000) t)"
    ;;
  bloom)
    version=1
    # cardinality, info, and membership of the integers 1..64 as a 0/1 string.
    columns="label	cardinality	info	members	query	sketch"
    answers="bloom_cardinality(h)::text || E'\\t' || bloom_info(h)::text || E'\\t' || (SELECT string_agg((h @> g)::int::text, '' ORDER BY g) FROM generate_series(1, 64) g)"
    ;;
  bloom_split_block)
    version=1
    # bloom's split-block (Parquet) layout, a format of its own within bloom
    # format version 1: cardinality, info, membership of the integers 1..64
    # as a 0/1 string (empty for filters of a non-integer physical type), and
    # the filter as Parquet stores it (bloom_to_parquet, hex).
    columns="label	cardinality	info	members	parquet	query	sketch"
    answers="bloom_cardinality(h)::text || E'\\t' || bloom_info(h)::text || E'\\t' || coalesce(CASE WHEN coalesce(bloom_info(h)->>'physical_type', 'INT64') IN ('INT32', 'INT64') THEN (SELECT string_agg((h @> g::bigint)::int::text, '' ORDER BY g) FROM generate_series(1, 64) g) END, '') || E'\\t' || encode(bloom_to_parquet(h), 'hex')"
    ;;
  ddsketch)
    version=1
    # count, sum, min, max, quantiles 0/0.5/0.99/1 (a float8[] literal), info.
    # min and max are NULL for an empty sketch: an empty field (CSV NULL).
    columns="label	count	sum	min	max	quantiles	info	query	sketch"
    answers="ddsketch_count(h)::text || E'\\t' || ddsketch_sum(h)::text || E'\\t' || coalesce(ddsketch_min(h)::text, '') || E'\\t' || coalesce(ddsketch_max(h)::text, '') || E'\\t' || ddsketch_quantiles(h, '{0,0.5,0.99,1}')::text || E'\\t' || ddsketch_info(h)::text"
    ;;
  topk)
    version=1
    # total, max_error, info, and every held item best first with its
    # estimate and bounds (topk_items(s) as a jsonb array in its order).
    columns="label	total	max_error	info	items	query	sketch"
    answers="topk_total(h)::text || E'\\t' || topk_max_error(h)::text || E'\\t' || topk_info(h)::text || E'\\t' || (SELECT coalesce(jsonb_agg(to_jsonb(t) - 'n' ORDER BY n), '[]')::text FROM topk_items(h) WITH ORDINALITY AS t(item, estimate, lower_bound, upper_bound, n))"
    ;;
  theta)
    version=1
    # count, the 95% bounds (theta_bounds(s): lower and upper) and info.
    columns="label	count	lower	upper	info	query	sketch"
    answers="theta_count(h)::text || E'\\t' || (theta_bounds(h)).lower::text || E'\\t' || (theta_bounds(h)).upper::text || E'\\t' || theta_info(h)::text"
    ;;
  counting_bloom)
    version=1
    # cardinality, info, and membership of the integers 1..64 as a 0/1 string
    # (empty for filters of another element kind than numbers).
    columns="label	cardinality	info	members	query	sketch"
    answers="counting_bloom_cardinality(h)::text || E'\\t' || counting_bloom_info(h)::text || E'\\t' || coalesce(CASE WHEN get_byte(h::bytea, 7) IN (1, 255) THEN (SELECT string_agg((h @> g)::int::text, '' ORDER BY g) FROM generate_series(1, 64) g) END, '')"
    ;;
  cuckoo)
    # Version 2 (issue 32): one copy per distinct value in cuckoo_agg, unions
    # a multiset sum; cuckoo_v1.txt was written by version 1's build.
    version=2
    # cardinality, info, and how many copies of each integer 1..64 the
    # filter holds (cuckoo_count), one digit each (empty for filters of
    # another element kind than numbers).
    columns="label	cardinality	info	counts	query	sketch"
    answers="cuckoo_cardinality(h)::text || E'\\t' || cuckoo_info(h)::text || E'\\t' || coalesce(CASE WHEN get_byte(h::bytea, 7) IN (1, 255) THEN (SELECT string_agg(least(cuckoo_count(h, g), 9)::text, '' ORDER BY g) FROM generate_series(1, 64) g) END, '')"
    ;;
  kll)
    version=1
    # count, min, max (double precision and bigint sketches; empty fields,
    # i.e. NULL, otherwise), the quantiles 0, 0.5, 0.99 and 1 of a double
    # or bigint sketch (kll_quantiles; empty otherwise), the rank error,
    # info (whose min and max are integers for the other types).
    columns="label	count	min	max	quantiles	rank_error	info	query	sketch"
    answers="kll_count(h)::text || E'\\t' || coalesce(CASE WHEN kll_info(h)->>'element_type' IN ('double precision', 'bigint') THEN kll_min(h)::text END, '') || E'\\t' || coalesce(CASE WHEN kll_info(h)->>'element_type' IN ('double precision', 'bigint') THEN kll_max(h)::text END, '') || E'\\t' || CASE WHEN kll_info(h)->>'element_type' IN ('double precision', 'bigint', 'none') THEN kll_quantiles(h, '{0,0.5,0.99,1}')::text ELSE '' END || E'\\t' || kll_rank_error(h)::text || E'\\t' || kll_info(h)::text"
    ;;
  ell)
    version=1
    # cardinality, info (both estimates, the estimator, the flag), and the
    # text of the cast to hll (the registers hll_agg builds).
    columns="label	cardinality	info	hll	query	sketch"
    answers="ell_cardinality(h)::text || E'\\t' || ell_info(h)::text || E'\\t' || (h::hll)::text"
    ;;
  *)
    echo "make_golden: unknown type $type (add its answers here)" >&2
    exit 2
    ;;
esac

sources=test/golden/${type}_v${version}.sources
out=test/golden/${type}_v${version}.txt
if [ -e "$out" ] && [ "$force" != "--force" ]; then
  echo "make_golden: $out exists; golden files are never rewritten (use --force only for an unreleased format)" >&2
  exit 1
fi

db=golden_$$
createdb "$db"
trap 'dropdb --if-exists "$db" >/dev/null 2>&1 || true' EXIT
psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c 'CREATE EXTENSION sketch'

tmp=$(mktemp)
printf '%s\n' "$columns" >"$tmp"
while IFS=$'\t' read -r label query; do
  [ -z "$label" ] && continue
  case $label in \#*) continue ;; esac
  line=$(psql -X -q -At -v ON_ERROR_STOP=1 -d "$db" <<SQL
SELECT '$label' || E'\\t' || $answers || E'\\t' || \$q\$$query\$q\$ || E'\\t' || h::text
FROM ($query) AS built(h);
SQL
)
  printf '%s\n' "$line" >>"$tmp"
done <"$sources"
mv "$tmp" "$out"
chmod 644 "$out"
echo "make_golden: wrote $(($(wc -l <"$out") - 1)) sketches to $out"
