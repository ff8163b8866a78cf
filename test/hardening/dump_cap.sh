#!/usr/bin/env bash
# The largest sketches that can be created survive pg_dump and restore:
#
#   bash test/cluster.sh run -- bash test/hardening/dump_cap.sh
#
# Every sketch is dumped as its text form, "\x" plus two hex digits per
# byte, in one COPY line, and PostgreSQL allocates no string of 1 GB or more.
# So creation is capped at kMaxDumpableBytes (core/common/header.h, 512 MiB less
# 64 KiB). This builds a bloom filter of the maximum number of bits and a
# count-min sketch just under the cap, refuses one step past each, dumps the
# table with pg_dump (plain format, COPY text), restores it into a second
# database and compares the values' binary forms (md5 of the send output)
# and answers. About 2 GB of disk in a temporary directory, 30-60 s.
set -euo pipefail
cd "$(dirname "$0")/../.."

psql_db() { local db=$1; shift; psql -X -q -v ON_ERROR_STOP=1 -d "$db" "$@"; }
work=$(mktemp -d /tmp/sketch-dumpcap.XXXXXX)
trap 'rm -rf "$work"; psql -X -q -d postgres -c "DROP DATABASE IF EXISTS cap_src" -c "DROP DATABASE IF EXISTS cap_dst" >/dev/null 2>&1 || true' EXIT

psql -X -q -v ON_ERROR_STOP=1 -d postgres -c "DROP DATABASE IF EXISTS cap_src" \
  -c "DROP DATABASE IF EXISTS cap_dst" -c "CREATE DATABASE cap_src" -c "CREATE DATABASE cap_dst"
psql_db cap_src -c "CREATE EXTENSION sketch"

# One step past the cap is refused with 22023 (checked before allocating).
for stmt in "SELECT bloom_empty_bits(4294442881, 1)" "SELECT cms_empty_sized(67200000, 1, false, 0)"; do
  out=$(psql -X -q -d cap_src -v VERBOSITY=verbose -c "$stmt" 2>&1 || true)
  if ! grep -q "ERROR:  22023" <<<"$out"; then
    echo "dump_cap: '$stmt' was not refused with 22023: $out" >&2; exit 1
  fi
done

psql_db cap_src <<'SQL'
CREATE TABLE cap (name text PRIMARY KEY, b bloom, c cms);
INSERT INTO cap (name, b)
SELECT 'bloom', bloom_add(bloom_add(bloom_empty_bits(4294442880, 3), 'x'::text), 'y'::text);
INSERT INTO cap (name, c)
SELECT 'cms', cms_add(cms_add(cms_empty_sized(67000000, 1, false, 0), 'x'::text, 5), 'y'::text, 7);
SQL
psql_db cap_src -A -t -c "SELECT name, octet_length(coalesce(bloom_send(b), cms_send(c))) FROM cap ORDER BY name" \
  | sed 's/^/dump_cap: built /'

fingerprint() {  # name, bytes, md5 of the binary form, answers
  psql_db "$1" -A -t -c "
    SELECT name, octet_length(coalesce(bloom_send(b), cms_send(c))),
           md5(coalesce(bloom_send(b), cms_send(c))),
           bloom_contains(b, 'x'::text), bloom_contains(b, 'y'::text), bloom_contains(b, 'absent'::text),
           cms_frequency(c, 'x'::text), cms_frequency(c, 'y'::text), cms_total(c)
    FROM cap ORDER BY name"
}
before=$(fingerprint cap_src)

pg_dump -d cap_src -f "$work/cap.sql"
echo "dump_cap: dump is $(stat -c %s "$work/cap.sql") bytes"
psql_db cap_dst -f "$work/cap.sql" >/dev/null
after=$(fingerprint cap_dst)

if [ "$before" != "$after" ]; then
  echo "dump_cap: values differ after dump and restore" >&2
  diff <(echo "$before") <(echo "$after") >&2 || true
  exit 1
fi
echo "$after" | sed 's/^/dump_cap: restored /'
echo "dump_cap: the largest bloom and cms survive pg_dump and restore byte for byte"
