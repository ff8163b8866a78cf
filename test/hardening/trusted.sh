#!/usr/bin/env bash
# sketch is a trusted extension (sketch.control): a database owner without
# superuser may CREATE EXTENSION sketch and update it, and PostgreSQL then
# runs the script as a superuser. This checks, against the throwaway cluster
# of test/cluster.sh (after make install):
#
#   bash test/cluster.sh run -- bash test/hardening/trusted.sh
#
#   1. The traps are live. The owner (role sk_owner, NOSUPERUSER, owner of
#      database sk_trusted_*) plants in public, the schema the extension goes
#      into, operators and functions whose signatures match the expressions
#      of the script's catalog-driven blocks better than the built-ins do
#      (=(oid, regnamespace) beats pg_catalog's =(oid, oid)). Each records
#      who ran it and whether that role is a superuser. An ordinary query by
#      the owner fires every one of them.
#   2. They catch an unpinned script: the frozen 0.2.0 install script (which
#      predates the search_path pin at the top of every script; it is never
#      shipped, only placed in the extension directory for this test), run
#      as a trusted install under the traps, runs a trap as a superuser:
#      the attack the pin stops, so this test can fail.
#   3. CREATE EXTENSION sketch by the owner under the traps: no trap runs,
#      the owner is still not a superuser, the caller's search_path is
#      unchanged afterwards, the extension belongs to the owner and its
#      members to the bootstrap superuser, all of them in public, none in
#      pg_catalog; every type works (one query each) and the aggregates'
#      support functions are not executable by the owner (42501).
#   4. A look-alike with the exact signature of one of the extension's
#      functions makes CREATE EXTENSION fail (42723) instead of adopting it.
#   5. Updates by the owner under traps planted after the install: from
#      0.2.0 (sketch--0.2.0--0.3.0.sql) and from 0.1.0 (the direct
#      sketch--0.1.0--0.3.0.sql, which wraps the frozen 0.1.0 -> 0.2.0
#      script in the pin): no trap runs, the version is current and a
#      sketch stored before the update reads the same after it.
set -euo pipefail
cd "$(dirname "$0")/../.."

PG_CONFIG=${PG_CONFIG:-$(command -v /usr/lib/postgresql/15/bin/pg_config || command -v pg_config)}
extdir=$("$PG_CONFIG" --sharedir)/extension
current=$(sed -n "s/^default_version *= *'\([^']*\)'.*/\1/p" sketch.control)
grep -q "^trusted = true" sketch.control || { echo "trusted: sketch.control does not say trusted = true" >&2; exit 1; }

failures=0 checks=0
ok()   { checks=$((checks + 1)); echo "ok: $*"; }
fail() { checks=$((checks + 1)); failures=$((failures + 1)); echo "FAILED: $*" >&2; }
as_super() { psql -X -q -v ON_ERROR_STOP=1 -At "$@"; }
as_owner() { local db=$1; shift; psql -X -q -v ON_ERROR_STOP=1 -At -U sk_owner -d "$db" "$@"; }

placed=()
cleanup() {
  for f in "${placed[@]:-}"; do [ -n "$f" ] && rm -f "$f"; done
  for db in $(psql -X -At -c "SELECT datname FROM pg_database WHERE datname LIKE 'sk\_trusted\_%'" 2>/dev/null); do
    psql -X -q -c "DROP DATABASE $db" >/dev/null 2>&1 || true
  done
  psql -X -q -c "DROP ROLE IF EXISTS sk_owner" >/dev/null 2>&1 || true
}
trap cleanup EXIT
# The frozen install scripts, placed for this test only (never shipped).
for v in 0.1.0 0.2.0; do
  if [ ! -e "$extdir/sketch--$v.sql" ]; then
    cp "releases/sketch--$v.sql" "$extdir/sketch--$v.sql"
    placed+=("$extdir/sketch--$v.sql")
  fi
done

as_super -c "CREATE ROLE sk_owner LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE"
new_db() { as_super -c "CREATE DATABASE $1 OWNER sk_owner"; }

# The traps, in public (owned by pg_database_owner: the owner may create
# there). Each returns what the built-in would, so an install it hijacks
# still completes; trap_calls says it ran.
plant_traps() {
  as_owner "$1" <<'SQL'
CREATE TABLE public.trap_calls (trap text, run_as name, was_super boolean);
GRANT INSERT ON public.trap_calls TO PUBLIC;
CREATE FUNCTION public.trap_note(trap text) RETURNS void LANGUAGE sql AS $$
  INSERT INTO public.trap_calls
  SELECT trap, r.rolname, r.rolsuper FROM pg_catalog.pg_roles r
  WHERE r.rolname OPERATOR(pg_catalog.=) CURRENT_USER $$;
CREATE FUNCTION public.trap_eq_regnamespace(oid, regnamespace) RETURNS boolean LANGUAGE sql AS $$
  SELECT public.trap_note('=(oid, regnamespace)'); SELECT $1 OPERATOR(pg_catalog.=) $2::oid $$;
CREATE FUNCTION public.trap_eq_regclass(oid, regclass) RETURNS boolean LANGUAGE sql AS $$
  SELECT public.trap_note('=(oid, regclass)'); SELECT $1 OPERATOR(pg_catalog.=) $2::oid $$;
CREATE FUNCTION public.trap_eq_regtype(oid, regtype) RETURNS boolean LANGUAGE sql AS $$
  SELECT public.trap_note('=(oid, regtype)'); SELECT $1 OPERATOR(pg_catalog.=) $2::oid $$;
CREATE FUNCTION public.trap_ne_regtype(oid, regtype) RETURNS boolean LANGUAGE sql AS $$
  SELECT public.trap_note('<>(oid, regtype)'); SELECT $1 OPERATOR(pg_catalog.<>) $2::oid $$;
CREATE OPERATOR public.= (LEFTARG = oid, RIGHTARG = regnamespace, FUNCTION = public.trap_eq_regnamespace);
CREATE OPERATOR public.= (LEFTARG = oid, RIGHTARG = regclass, FUNCTION = public.trap_eq_regclass);
CREATE OPERATOR public.= (LEFTARG = oid, RIGHTARG = regtype, FUNCTION = public.trap_eq_regtype);
CREATE OPERATOR public.<> (LEFTARG = oid, RIGHTARG = regtype, FUNCTION = public.trap_ne_regtype);
CREATE FUNCTION public.unnest(oid[]) RETURNS SETOF oid LANGUAGE sql AS $$
  SELECT public.trap_note('unnest(oid[])'); SELECT x FROM pg_catalog.unnest($1) x $$;
SQL
}
trap_count() { as_owner "$1" -c "SELECT count(*) FROM public.trap_calls"; }
super_traps() { as_owner "$1" -c "SELECT count(*) FROM public.trap_calls WHERE was_super"; }
owner_is_super() { as_super -c "SELECT rolsuper FROM pg_roles WHERE rolname = 'sk_owner'"; }

# 1. The traps are live.
new_db sk_trusted_live
plant_traps sk_trusted_live
as_owner sk_trusted_live >/dev/null <<'SQL'
SELECT 1::oid = 'public'::regnamespace, 1::oid = 'pg_class'::regclass, 1::oid = 'int4'::regtype,
       1::oid <> 'int4'::regtype, (SELECT count(*) FROM unnest(ARRAY[1, 2]::oid[]));
SQL
n=$(as_owner sk_trusted_live -c "SELECT count(DISTINCT trap) FROM public.trap_calls")
if [ "$n" = 5 ]; then ok "an ordinary query of the owner runs all 5 traps"
else fail "only $n of 5 traps ran on an ordinary query: they would prove nothing"; fi

# 2. They catch an unpinned script.
new_db sk_trusted_unpinned
plant_traps sk_trusted_unpinned
if as_owner sk_trusted_unpinned -c "CREATE EXTENSION sketch VERSION '0.2.0'" >/dev/null 2>&1; then
  n=$(super_traps sk_trusted_unpinned)
  if [ "$n" -gt 0 ]; then ok "the frozen 0.2.0 script (no pin) runs a trap as a superuser $n times: the traps catch an unpinned script"
  else fail "the frozen 0.2.0 script ran no trap as a superuser: the traps no longer catch what the pin prevents"; fi
else
  fail "CREATE EXTENSION sketch VERSION '0.2.0' by the owner failed"
fi
[ "$(owner_is_super)" = f ] || { fail "sk_owner became a superuser"; as_super -c "ALTER ROLE sk_owner NOSUPERUSER"; }

# 3. The current install under the traps.
new_db sk_trusted_install
plant_traps sk_trusted_install
out=$(as_owner sk_trusted_install <<'SQL'
SET search_path = public, "$user";
CREATE EXTENSION sketch;
SHOW search_path;
SQL
)
[ "$out" = 'public, "$user"' ] && ok "the caller's search_path is unchanged after CREATE EXTENSION" \
  || fail "search_path after CREATE EXTENSION: $out"
n=$(trap_count sk_trusted_install)
[ "$n" = 0 ] && ok "CREATE EXTENSION sketch by the owner runs no trap" \
  || fail "CREATE EXTENSION ran traps: $(as_owner sk_trusted_install -c 'TABLE public.trap_calls')"
[ "$(owner_is_super)" = f ] && ok "sk_owner is still not a superuser" || fail "sk_owner became a superuser"
out=$(as_owner sk_trusted_install <<'SQL'
SELECT e.extowner::regrole, e.extversion FROM pg_extension e WHERE e.extname = 'sketch';
WITH members AS (
  SELECT classid, objid FROM pg_depend
  WHERE refclassid = 'pg_extension'::regclass AND deptype = 'e'
    AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'sketch'))
SELECT (SELECT count(*) FROM pg_proc p JOIN members m ON m.classid = 'pg_proc'::regclass AND m.objid = p.oid
        WHERE p.pronamespace <> 'public'::regnamespace OR p.proowner <> 10) AS stray_functions,
       (SELECT count(*) FROM pg_type t JOIN members m ON m.classid = 'pg_type'::regclass AND m.objid = t.oid
        WHERE t.typnamespace <> 'public'::regnamespace OR t.typowner <> 10) AS stray_types,
       (SELECT count(*) FROM pg_operator o JOIN members m ON m.classid = 'pg_operator'::regclass AND m.objid = o.oid
        WHERE o.oprnamespace <> 'public'::regnamespace OR o.oprowner <> 10) AS stray_operators,
       (SELECT count(*) FROM members) > 200 AS has_members;
SQL
)
[ "$out" = "sk_owner|$current
0|0|0|t" ] && ok "the owner owns the extension ($current); its members are the bootstrap superuser's, all in public" \
  || fail "ownership or placement of the members: $out"
out=$(as_owner sk_trusted_install <<'SQL'
SELECT hll_cardinality(hll_agg(i)) FROM generate_series(1, 1000) i;
SELECT cms_frequency(cms_agg(i % 10), 3) FROM generate_series(1, 1000) i;
SELECT bloom_contains(bloom_agg(i, 1000, 0.01), 7) FROM generate_series(1, 1000) i;
SELECT abs(ddsketch_quantile(ddsketch_agg(i), 0.5) - 501) <= 501 * ddsketch_relative_accuracy(ddsketch_agg(i)) FROM generate_series(1, 1001) i;
SELECT (topk_items(topk_agg(i % 3), 1, 0::int)).item FROM generate_series(1, 1000) i;
SELECT theta_count(theta_agg(i)) FROM generate_series(1, 1000) i;
SELECT counting_bloom_contains(counting_bloom_agg(i, 1000, 0.01), 7) FROM generate_series(1, 1000) i;
SELECT cuckoo_contains(cuckoo_agg(i, 1000, 0.01), 7) FROM generate_series(1, 1000) i;
SQL
)
expected="1000
100
t
t
1
1000
t
t"
[ "$out" = "$expected" ] && ok "every type answers for the owner" || fail "the owner's queries gave: $(echo $out)"
if as_owner sk_trusted_install -c "SELECT hll_agg_trans(NULL::hll, 1)" >/dev/null 2>/tmp/trusted_$$.err; then
  fail "the owner may call the support function hll_agg_trans"
elif grep -q "permission denied" /tmp/trusted_$$.err; then ok "support functions are not executable by the owner"
else fail "calling hll_agg_trans: $(cat /tmp/trusted_$$.err)"; fi
rm -f /tmp/trusted_$$.err

# 4. An exact look-alike makes the install fail, never adopted.
new_db sk_trusted_lookalike
as_owner sk_trusted_lookalike -c "CREATE FUNCTION public.sketch_hash(value anyelement) RETURNS bigint LANGUAGE sql AS 'SELECT 0::bigint'"
if err=$(as_owner sk_trusted_lookalike -c "CREATE EXTENSION sketch" 2>&1); then
  fail "CREATE EXTENSION adopted the owner's public.sketch_hash"
elif echo "$err" | grep -q "already exists"; then ok "a pre-created public.sketch_hash(anyelement) makes CREATE EXTENSION fail (already exists)"
else fail "CREATE EXTENSION over a look-alike failed otherwise: $err"; fi

# 5. Updates by the owner, traps planted after the install.
for from in 0.2.0 0.1.0; do
  db=sk_trusted_update_${from//./_}
  new_db "$db"
  as_owner "$db" <<SQL
CREATE EXTENSION sketch VERSION '$from';
CREATE TABLE public.kept AS SELECT hll_agg(i) AS h FROM generate_series(1, 5000) i;
CREATE TABLE public.kept_card AS SELECT hll_cardinality(h) AS c FROM public.kept;
SQL
  plant_traps "$db"
  path=$(as_owner "$db" -c "SELECT path FROM pg_extension_update_paths('sketch') WHERE source = '$from' AND target = '$current'")
  [ "$path" = "$from--$current" ] && ok "PostgreSQL updates $from -> $current in one script ($path)" \
    || fail "the update path from $from is $path, not one pinned script"
  as_owner "$db" -c "ALTER EXTENSION sketch UPDATE"
  out=$(as_owner "$db" -c "SELECT extversion FROM pg_extension WHERE extname = 'sketch'")
  n=$(trap_count "$db")
  same=$(as_owner "$db" -c "SELECT hll_cardinality(h) = (SELECT c FROM public.kept_card) FROM public.kept")
  if [ "$out" = "$current" ] && [ "$n" = 0 ] && [ "$same" = t ]; then
    ok "the owner updates $from -> $current under planted traps: no trap runs, a stored hll reads the same"
  else
    fail "update from $from: version $out, $n trap calls, stored sketch reads the same: $same"
  fi
done
[ "$(owner_is_super)" = f ] || fail "sk_owner became a superuser"

echo "trusted: $((checks - failures)) of $checks checks passed"
[ "$failures" -eq 0 ]
