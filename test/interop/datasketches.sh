#!/usr/bin/env bash
# Interoperability with Apache DataSketches' HLL and theta sketches (issue 25)
# and KLL sketches (issue 26; kll_checks below): every
# HLL file the C++, Java and Go libraries wrote for the stream "ints 0..n-1
# as int64, murmur3 seed 9001" (read from DATASKETCHES_FILES, default
# /work/shared/interop/datasketches; the files are not shipped here) goes
# through SQL:
#   hll_from_datasketches(file) exports (hll_to_datasketches) the C++ file of
#   the same n and type byte for byte (SHA-256 prefix of MANIFEST.tsv);
#   its estimate is the manifest's hipAccum (HLL mode) or the coupon count;
#   import -> export -> import is the same sketch;
#   hll_datasketches_agg over 0..n-1 gives the same bytes;
# and every theta file of such a stream is what theta_datasketches_agg
# builds from it (entries and theta, the C++ library's bytes).
#
#   bash test/cluster.sh run -- bash test/interop/datasketches.sh   (after make install)
#
# Prints "ok <file> ..." or "not ok <file> ..."; the last line is
# "interop datasketches: N passed, M failed"; exit status non-zero on any
# failure. Without the files: SKIPPED (exit 0).
set -euo pipefail
cd "$(dirname "$0")/../.."
files=${DATASKETCHES_FILES:-/work/shared/interop/datasketches}
PG_CONFIG=${PG_CONFIG:-pg_config}
psql="${PG_BIN:-$("$PG_CONFIG" --bindir)}/psql"
manifest="$files/MANIFEST.tsv"
if [ ! -f "$manifest" ]; then
  echo "interop datasketches: SKIPPED — no $manifest"
  exit 0
fi

db=sketch_interop_datasketches
work=$(mktemp -d /tmp/sketch-datasketches.XXXXXX)
trap 'rm -rf "$work"' EXIT
PGOPTIONS="-c client_min_messages=warning" "$psql" -X -q -d postgres \
  -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" >/dev/null
"$psql" -X -q -d "$db" -c "CREATE EXTENSION sketch" >/dev/null

sql="$work/checks.sql"
: >"$sql"

# kll_checks FILE: the SQL that checks one KLL file of the libraries (the
# stream 1..n, k 200; item type in the name): kll_from_datasketches gives
# n, min 1 and max n, exports the file back byte for byte, round-trips
# through the default export,
# and while exact (n <= 200) kll_agg of 1..n exports to the same bytes.
kll_checks() {
  local file=$1 name type n value default hex
  name=$(basename "$1")
  type=${name#kll_}; type=${type%%_*}
  n=${name#*_n}; n=${n%%_*}
  # the default export: longs for bigint, doubles for double precision
  case "$type" in long) value='i::bigint' default=long ;; *) value='i::float8' default=double ;; esac
  hex=$(od -An -v -tx1 "$files/$file" | tr -d ' \n')
  cat <<SQL
SELECT CASE WHEN kll_count(k) = $n AND (kll_count(k) = 0 OR (kll_min(k) = 1 AND kll_max(k) = $n))
            AND kll_to_datasketches(k, '$type') = b
            AND kll_from_datasketches(kll_to_datasketches(k), '$default') = k
            AND ($n > 200 OR (SELECT kll_to_datasketches(coalesce(kll_agg($value), kll_empty()), '$type')
                                FROM generate_series(1, $n) i) = b)
       THEN 'ok ' ELSE 'not ok ' END || '$file count ' || kll_count(k) || ' min ' || coalesce(kll_min(k)::text, '-')
       || ' max ' || coalesce(kll_max(k)::text, '-')
FROM (SELECT '\\x$hex'::bytea AS b, kll_from_datasketches('\\x$hex'::bytea, '$type') AS k) s;
SQL
}
while IFS=$'\t' read -r file _bytes _sha decoded _rest; do
  case "$file" in
    *_generated_files/kll_*_n*.sk) kll_checks "$file" >>"$sql"; continue ;;
    *_generated_files/hll[468]_n*.sk) ;;
    *) continue ;;
  esac
  name=$(basename "$file")
  bits=${name:3:1}
  n=${name#*_n}; n=${n%%_*}
  cpp_sha=$(awk -F'\t' -v f="cpp_generated_files/hll${bits}_n${n}_cpp.sk" '$1 == f {print $3}' "$manifest")
  hip=$(sed -n 's/.* hipAccum=\([^ ]*\).*/\1/p' <<<"$decoded")
  count=$(sed -n 's/.* couponCount=\([^ ]*\).*/\1/p' <<<"$decoded")
  expected=${hip:-$count}
  hex=$(od -An -v -tx1 "$files/$file" | tr -d ' \n')
  cat >>"$sql" <<SQL
SELECT CASE WHEN export_sha = '$cpp_sha' AND round_trip AND built_sha = '$cpp_sha'
            AND estimate = round(${expected}::float8)
       THEN 'ok ' ELSE 'not ok ' END || '$file estimate ' || estimate || ' (expected ${expected})'
       || ' export ' || export_sha || ' built ' || built_sha
FROM (SELECT substr(encode(sha256(hll_to_datasketches(h)), 'hex'), 1, 16) AS export_sha,
             hll_from_datasketches(hll_to_datasketches(h)) = h AS round_trip,
             hll_cardinality(h) AS estimate,
             coalesce((SELECT substr(encode(sha256(hll_to_datasketches(hll_datasketches_agg(i::bigint, 12, 'HLL_$bits'))), 'hex'), 1, 16)
                       FROM generate_series(0, $n - 1) i),
                      substr(encode(sha256(hll_to_datasketches(h)), 'hex'), 1, 16)) AS built_sha
      FROM (SELECT hll_from_datasketches('\\x$hex'::bytea) AS h) s) t;
SQL
done <"$manifest"

# Theta: every compact theta file of the stream 0..n-1 (C++, Java, Go; the
# Java v1/v2 test files of 0..8191): theta_datasketches_agg over 0..n-1 has
# the file's entries and theta (its export equals the export of the file's
# import), and the C++ library's bytes of that n (SHA-256 prefix), plain or
# compressed as the file is. Zero rows give NULL, the file's empty sketch.
while IFS=$'\t' read -r file _bytes _sha decoded verification; do
  case "$decoded" in family=THETA*famId=3*) ;; *) continue ;; esac
  case "$verification" in *"i in 0.."*) ;; *) continue ;; esac
  n=$(( $(sed -n 's/.*i in 0\.\.\(-*[0-9]*\).*/\1/p' <<<"$verification") + 1 ))
  compressed=false
  case "$decoded" in *serVer=4*) compressed=true ;; esac
  cpp="cpp_generated_files/theta_n${n}_cpp.sk"
  [ "$compressed" = true ] && cpp="cpp_generated_files/theta_compressed_n${n}_cpp.sk"
  cpp_sha=$(awk -F'\t' -v f="$cpp" '$1 == f {print $3}' "$manifest")
  hex=$(od -An -v -tx1 "$files/$file" | tr -d ' \n')
  cat >>"$sql" <<SQL
SELECT CASE WHEN (built IS NULL AND theta_info(imported)->>'retained' = '0')
                 OR (theta_to_datasketches(built, $compressed) = theta_to_datasketches(imported, $compressed)
                     AND ('$cpp_sha' = '' OR substr(encode(sha256(theta_to_datasketches(built, $compressed)), 'hex'), 1, 16) = '$cpp_sha'))
       THEN 'ok ' ELSE 'not ok ' END || '$file built from 0..$((n - 1)): retained '
       || coalesce(theta_info(built)->>'retained', 'NULL') || ' (file ' || (theta_info(imported)->>'retained') || ')'
       || CASE WHEN '$cpp_sha' = '' THEN ', no C++ file of that n' ELSE ', C++ bytes ' || '$cpp_sha' END
FROM (SELECT theta_from_datasketches('\\x$hex'::bytea) AS imported,
             (SELECT theta_datasketches_agg(i::bigint) FROM generate_series(0, $n - 1) i) AS built) t;
SQL
done <"$manifest"

"$psql" -X -q -t -A -v ON_ERROR_STOP=1 -d "$db" -f "$sql" >"$work/out"
"$psql" -X -q -d postgres -c "DROP DATABASE $db" >/dev/null
cat "$work/out"
passed=$(grep -c '^ok ' "$work/out" || true)
failed=$(grep -c '^not ok ' "$work/out" || true)
echo "interop datasketches: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
