#!/usr/bin/env bash
# An unprivileged role must not be able to crash the server through the
# extension's aggregate support functions (issue 9):
#
#   bash test/cluster.sh run -- bash test/hardening/hostile_role.sh
#
# The role below can create objects in its own schema and nothing else.
# Everyone may call the transition, combine and final functions, so such a
# role can write
#   CREATE AGGREGATE m.a(anyelement) (sfunc = hll_agg_trans, stype = hll,
#                                     initcond = '<any stored hll>');
# and make the transition function start from a value it did not make. This
# script does that for every support function the catalog lists and every
# real stored value of the matching type:
#
#  1. The superuser builds stored values of every family with SQL (empty, a
#     few values, hundreds, large, other parameters) and keeps their text.
#  2. The aggregates come from the catalog (pg_aggregate of every aggregate
#     that pg_depend says belongs to the extension): their transition,
#     combine and final functions and state type. A family added later
#     joins by itself; it only needs stored-value recipes, an argument
#     template per aggregate and a one-value sketch below (a catalog
#     aggregate or state type without them is reported as a failure).
#     Typed twins of the anyelement aggregates (same C function, a declared
#     value type) use the anyelement aggregate's template and a value of
#     their type (VALUE_EXPRESSIONS). An aggregate whose value argument is
#     a declared type with no anyelement aggregate of the same name and
#     other arguments (ddsketch_agg(double precision, ...)) is no twin: it
#     has its own template, gets the whole matrix, and is fed values of its
#     type (DECLARED_VALUES) wherever the others get int, bigint and text.
#  3. Every case runs twice: as the hostile role (SET ROLE; it may get a
#     clean ERROR such as 42501 once EXECUTE on the support functions is
#     revoked from PUBLIC) and as the superuser (who can always call them).
#     For each transition or combine function and each stored value as
#     INITCOND: aggregates with and without the final function, with and
#     without the combine function, a moving-aggregate variant (the
#     transition function as MSFUNC with a do-nothing SQL MINVFUNC), run over
#     100,000 rows of int, bigint and text (of the declared value type for
#     a family such as ddsketch: DECLARED_VALUES), GROUP BY, parallel (2 workers, no
#     leader participation), and as window aggregates (running, sliding,
#     partitioned). That whole matrix goes to one overload per C function
#     (the one with the most arguments); the other anyelement overloads get
#     serial runs from every value (parallel from the empty one), the typed
#     twins serial and parallel runs from the empty value and one more
#     (HOSTILE_TWIN_ROWS rows). Direct calls of every support function on
#     stored values (read from a table and cast from text, NULL states, every
#     pair of values for the combine functions, the final functions), a
#     zero-argument aggregate with the final function as SFUNC, and raw
#     states (the result of an aggregate without final function, i.e. a
#     working state leaking into SQL) fed to every support function, to
#     every other function of the type with plain other arguments (modifiers
#     such as cuckoo_delete, accessors, the operators' functions: listed from
#     the catalog), output, casts, a table, the union aggregates, and back as
#     INITCOND text. The
#     aging functions <type>_scale(<type>, double precision) (cms_scale,
#     topk_scale) are no support functions but read any value of their type:
#     they get every stored value (and refuse factors outside (0, 1] with
#     22023) and the raw states.
#  4. The hostile role's use of the extension's own aggregates must still
#     work, serial and parallel (same answer, parallel plan used). The
#     parallel results are written with CREATE TABLE AS and copied into the
#     comparison table: PostgreSQL 15 plans no parallel query for INSERT ...
#     SELECT, so an INSERT would compare two serial runs.
#
# Outcome of each statement: success or a clean ERROR (its SQLSTATE is
# recorded) passes. A lost connection or a server crash (found by the
# missing end marker of the statement or by a new checkpointer process), a
# statement_timeout (HOSTILE_TIMEOUT, a hang), SQLSTATE classes 08/57P/
# XX001/XX002, or a message of PostgreSQL's memory manager or a dying
# parallel worker fails. After a crash the script waits for the server to
# recover (up to 30 s) and carries on with the next statement. At the end the
# server must be up with the same pg_postmaster_start_time() and checkpointer
# (a crash restart keeps the start time but starts a new checkpointer), and
# the stored values the direct calls read from a table must be unchanged.
#
# Prints the failures, a summary per role and SQLSTATE, and last
#   hostile_role: N passed, M failed
# and exits 1 if any case failed.
#
# On 2 cores beside other work: the superuser pass (19,300 statements, 41
# psql sessions) about 5.5 minutes, the hostile pass (most statements
# refused with 42501) about 4 minutes, a minute and a half of it the setup
# (rows, 100 stored values).
#
# HOSTILE_TYPES ("kll topk": state types, space-separated) restricts the run
# to the aggregates of those state types and their stored values (a
# family's own check while it is developed; make test runs them all).
# HOSTILE_ROWS (default 100000) rows per aggregate; HOSTILE_TWIN_ROWS (10000)
# for the typed twins; HOSTILE_TIMEOUT (60s) statement_timeout; HOSTILE_ROLES
# ("hostile superuser") which passes to run. HOSTILE_GRANT=1 grants EXECUTE
# on the support functions to the role first, so its pass runs everything.
# HOSTILE_CRASH_CAP (2): after that many crashes of one case (a function
# with one INITCOND value), its remaining statements fail without running.
# HOSTILE_SELFTEST=1 checks the harness itself: three superuser statements
# of one case make their backend die of SIGSEGV; the first two must count as
# crashes, the third as skipped, the after-run checkpointer check fails, and
# every other statement still runs.
# HOSTILE_PROFILE=<file> writes batch and statement times there (and
# <file>.stmts); HOSTILE_KEEP=1 keeps the work directory.
set -euo pipefail
shopt -u patsub_replacement 2>/dev/null || true  # bash 5.2: no & in ${x//p/r}

DB=${HOSTILE_DB:-hostile_role}
ROLE=${HOSTILE_ROLE_NAME:-sketch_hostile}
ROWS=${HOSTILE_ROWS:-100000}
TIMEOUT=${HOSTILE_TIMEOUT:-60s}
ROLES=${HOSTILE_ROLES:-hostile superuser}
TYPES=${HOSTILE_TYPES:-}
# wanted_type TYPE: true unless HOSTILE_TYPES names other state types only.
wanted_type() { [ -z "$TYPES" ] || [[ " $TYPES " == *" $1 "* ]]; }
started_at=$(date +%s)

work=$(mktemp -d /tmp/sketch-hostile.XXXXXX)
[ -n "${HOSTILE_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT

su_psql() { psql -X -q -v ON_ERROR_STOP=1 -d "$DB" "$@"; }

# ---------------------------------------------------------------------------
# What the script knows about each family. Everything else comes from the
# catalog.

# Stored values: type | kind | SQL expression | explicit facts (k=v;...).
# Facts fill the argument templates; the type's <type>_info(value) jsonb adds
# more (precision, width, depth, k, conservative, bits, hashes, ...), and the
# explicit ones win. For values not built from (epsilon, delta) or (n, p),
# the explicit facts name the defaults on purpose: aggregates sized that way
# then disagree with the INITCOND and must say so cleanly.
STORED_VALUES=$(cat <<'EOF'
hll|empty_p14|hll_empty()|
hll|few_p14|(SELECT hll_agg(i) FROM generate_series(1, 3) i)|
hll|hundreds_p14|(SELECT hll_agg(i) FROM generate_series(1, 300) i)|
hll|dense_p14_100k|(SELECT hll_agg(i) FROM generate_series(1, 100000) i)|
hll|few_p10|(SELECT hll_agg(i, 10) FROM generate_series(1, 5) i)|
hll|dense_p10|(SELECT hll_agg(i, 10) FROM generate_series(1, 20000) i)|
hll|dense_p4|(SELECT hll_agg(i, 4) FROM generate_series(1, 100) i)|
hll|hundreds_p18|(SELECT hll_agg(i, 18) FROM generate_series(1, 500) i)|
hll|pghll_empty_p11|hll_postgresql_hll_empty()|
hll|pghll_explicit_p11|(SELECT hll_postgresql_hll_agg(i) FROM generate_series(1, 3) i)|
hll|pghll_sparse_p11|(SELECT hll_postgresql_hll_agg(i) FROM generate_series(1, 300) i)|
hll|pghll_full_p14_r6_seed7|(SELECT hll_postgresql_hll_agg(i, 14, 6, 256, 0, 7) FROM generate_series(1, 20000) i)|
hll|pghll_imported_full_p4|hll_from_postgresql_hll('\x1404008012')|
hll|ds_list_p12|(SELECT hll_datasketches_agg(i::bigint) FROM generate_series(1, 3) i)|
hll|ds_set_p12|(SELECT hll_datasketches_agg(i::bigint) FROM generate_series(1, 100) i)|
hll|ds_hll4_p12|(SELECT hll_datasketches_agg(i::bigint) FROM generate_series(1, 20000) i)|
hll|ds_imported_hll8_p10|hll_from_datasketches(hll_to_datasketches((SELECT hll_datasketches_agg(i::bigint, 10, 'HLL_8') FROM generate_series(1, 5000) i)))|
hll|ds_imported_empty|hll_from_datasketches('\x0201070c030c0004')|
cms|empty_default|cms_empty()|eps=0.001;delta=0.01
cms|few_default|(SELECT cms_agg(i) FROM generate_series(1, 3) i)|eps=0.001;delta=0.01
cms|hundreds_text_default|(SELECT cms_agg(t) FROM d.rows WHERE i <= 300)|eps=0.001;delta=0.01
cms|large_default_100k|(SELECT cms_agg(i % 5000) FROM generate_series(1, 100000) i)|eps=0.001;delta=0.01
cms|large_text_k1000|(SELECT cms_agg(t, 0.001, 0.01, false, 1000) FROM d.rows)|eps=0.001;delta=0.01
cms|conservative_e01_d05_k10|(SELECT cms_agg(i, 0.01, 0.05, true, 10) FROM generate_series(1, 300) i)|eps=0.01;delta=0.05
cms|sized_64x3_k5|(SELECT cms_agg_sized(i, 64, 3, false, 5) FROM generate_series(1, 300) i)|eps=0.001;delta=0.01
cms|empty_sized_16x2_k0|cms_empty_sized(16, 2, false, 0)|eps=0.001;delta=0.01
cms|weighted_large_n|(SELECT cms_agg_weighted(i, 1000000000000::bigint) FROM generate_series(1, 50) i)|eps=0.001;delta=0.01
bloom|empty_n1000|bloom_empty(1000, 0.01)|n=1000;fpp=0.01
bloom|few_n1000|(SELECT bloom_agg(i, 1000, 0.01) FROM generate_series(1, 3) i)|n=1000;fpp=0.01
bloom|hundreds_n1000|(SELECT bloom_agg(i, 1000, 0.01) FROM generate_series(1, 300) i)|n=1000;fpp=0.01
bloom|large_n1e6_100k|(SELECT bloom_agg(i, 1000000, 0.01) FROM generate_series(1, 100000) i)|n=1000000;fpp=0.01
bloom|text_n50k_p001|(SELECT bloom_agg(t, 50000, 0.001) FROM d.rows WHERE i <= 20000)|n=50000;fpp=0.001
bloom|bits_4096x5|(SELECT bloom_agg_bits(i, 4096, 5) FROM generate_series(1, 300) i)|n=1000;fpp=0.01
bloom|bits_64x3_full|(SELECT bloom_agg_bits(i, 64, 3) FROM generate_series(1, 1000) i)|n=1000;fpp=0.01
bloom|split_n1000|(SELECT bloom_agg(i, 1000, 0.01, 'split_block') FROM generate_series(1, 300) i)|n=1000;fpp=0.01
bloom|split_empty_n1e5|bloom_empty(100000, 0.01, 'split_block')|n=1000;fpp=0.01
ddsketch|empty_default|ddsketch_empty()|
ddsketch|few_default|(SELECT ddsketch_agg(i) FROM generate_series(1, 3) i)|
ddsketch|signed_zeros_default|(SELECT ddsketch_agg((i % 7 - 3) * i) FROM generate_series(1, 300) i)|
ddsketch|collapsed_default_100k|(SELECT ddsketch_agg(exp(i / 1000.0)) FROM generate_series(1, 100000) i)|
ddsketch|extremes_collapsed_default|(SELECT ddsketch_agg(v) FROM unnest('{1e-300, 1e300, -1e300, -2.2e-308, 0, 4.9e-324, -4.9e-324}'::float8[]) v)|
ddsketch|fine_a0.001_s9|(SELECT ddsketch_agg(i, 0.001) FROM generate_series(1, 1000) i)|
ddsketch|small_a0.1_b16|(SELECT ddsketch_agg(i * 1.7, 0.1, 16) FROM generate_series(1, 1000) i)|
ddsketch|weighted_near_max_count|(SELECT ddsketch_agg(i * 1.5 - 700, 9223372036854775807 - i) FROM generate_series(1, 2) i)|
ddsketch|weighted_s9_b64|(SELECT ddsketch_agg(exp(i / 50.0), (i % 7)::bigint * 1000000000000, 0.001, 64) FROM generate_series(1, 1000) i)|
ddsketch|large_s12_b65536|(SELECT ddsketch_agg(i - 50000, 0.0001, 65536) FROM generate_series(1, 100000) i)|
approx_percentile_state|median_few|ddsketch_approx_percentile_trans(NULL, 3, 0.5)|q=0.5;qs=ARRAY[0.5]
approx_percentile_state|p99_collapsed_100k|(SELECT textcat(ddsketch_agg(exp(i / 1000.0))::text, 'ae47e17a14aeef3f01000151') FROM generate_series(1, 100000) i)|q=0.99;qs=ARRAY[0.99]
approx_percentile_state|deciles_signed|(SELECT textcat(ddsketch_agg((i % 7 - 3) * i)::text, '9a9999999999b93f000000000000e03fcdccccccccccec3f03000151') FROM generate_series(1, 300) i)|q=0.5;qs=ARRAY[0.1,0.5,0.9]
approx_percentile_state|ends_empty_fine|textcat(ddsketch_empty(0.001)::text, '0000000000000000000000000000f03f02000151')|q=0;qs=ARRAY[0,1]
topk|empty_default|topk_empty()|
topk|exact_small|(SELECT topk_agg(i % 10) FROM generate_series(1, 100) i)|
topk|purged_k4|(SELECT topk_agg((i % 7) * (i % 3), 4) FROM generate_series(1, 100) i)|
topk|purged_skewed_k16|(SELECT topk_agg(floor(sqrt(i))::int, 16) FROM generate_series(1, 10000) i)|
topk|purged_all_k1|(SELECT topk_agg(i % 3, 1) FROM generate_series(1, 100) i)|
topk|text_items_purged|(SELECT topk_agg(t) FROM d.rows WHERE i <= 3000)|
topk|text_clipped_k8|(SELECT topk_agg(concat(repeat(md5((i % 5)::text), 40), i % 11), 8) FROM generate_series(1, 500) i)|
topk|timestamptz_items|(SELECT topk_agg(TIMESTAMPTZ '2024-01-01 00:00+00' + (i % 40) * INTERVAL '1 hour') FROM generate_series(1, 1000) i)|
topk|weighted_big_k32|(SELECT topk_agg_weighted(i % 100, 1000000000000 * (i % 7 + 1), 32) FROM generate_series(1, 10000) i)|
topk|total_near_max_k4|(SELECT topk_agg_weighted(i, 922337203685477580, 4) FROM generate_series(1, 10) i)|
topk|scaled_k64|(SELECT topk_scale(topk_agg(floor(sqrt(i))::int, 64), 0.3) FROM generate_series(1, 10000) i)|
topk|large_k65536|(SELECT topk_agg(i % 20000, 65536) FROM generate_series(1, 100000) i)|
topk|imported_datasketches_longs|topk_from_datasketches('\x04010a060300000003000000000000000c0000000000000002000000000000000500000000000000030000000000000002000000000000000700000000000000ffffffffffffffff2a00000000000000')|
topk|imported_datasketches_strings|topk_from_datasketches('\x04010a060300000003000000000000000c0000000000000001000000000000000400000000000000030000000000000002000000000000000300000061626305000000c3a974c3a94c0400007878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878787878')|
theta|empty_default|theta_empty()|
theta|exact_small|(SELECT theta_agg(i) FROM generate_series(1, 100) i)|
theta|estimated_lg12|(SELECT theta_agg(i) FROM generate_series(1, 20000) i)|
theta|estimated_lg4|(SELECT theta_agg(i, 4) FROM generate_series(1, 1000) i)|
theta|text_values_lg10|(SELECT theta_agg(t, 10) FROM d.rows WHERE i <= 3000)|
theta|intersection_lg10|(SELECT theta_agg(i, 10) FROM generate_series(1, 20000) i) & (SELECT theta_agg(i, 10) FROM generate_series(10001, 40000) i)|
theta|difference_lg10|theta_diff((SELECT theta_agg(i, 10) FROM generate_series(1, 20000) i), (SELECT theta_agg(i, 10) FROM generate_series(10001, 40000) i))|
theta|retains_nothing_lg8|(SELECT theta_diff(s, s) FROM (SELECT theta_agg(i, 8) AS s FROM generate_series(1, 5000) i) q)|
theta|large_lg16|(SELECT theta_agg(i, 16) FROM generate_series(1, 100000) i)|
theta|imported_datasketches_n10|theta_from_datasketches('\x02030300001acc930a0000000000000015f97dcbbd86a10540de2ee1c9db3d08698bb991b8685708fe162113fb98bc10bd3273724691cc14c397fc1281709d1ee56b61eec88044201ad1300b998c2f22ba40b3c1da06695de0f48bea9983c37c')|
theta|imported_datasketches_estimation|theta_from_datasketches('\x03030300001acc93040000000000000000000000000200000500000000000000090000000000000064000000000000000000000000010000')|
theta|ds_built_exact|(SELECT theta_datasketches_agg(i::bigint) FROM generate_series(0, 99) i)|
theta|ds_built_n10000|(SELECT theta_datasketches_agg(i::bigint) FROM generate_series(0, 9999) i)|
theta|ds_built_lg5_text|(SELECT theta_datasketches_agg(i::text, 5) FROM generate_series(0, 999) i)|
counting_bloom|empty_n1000|counting_bloom_empty(1000, 0.01)|n=1000;fpp=0.01
counting_bloom|few_n1000|(SELECT counting_bloom_agg(i, 1000, 0.01) FROM generate_series(1, 3) i)|n=1000;fpp=0.01
counting_bloom|hundreds_n1000|(SELECT counting_bloom_agg(i, 1000, 0.01) FROM generate_series(1, 300) i)|n=1000;fpp=0.01
counting_bloom|saturated_n100|(SELECT counting_bloom_agg(i % 3, 100, 0.01) FROM generate_series(1, 100) i)|n=100;fpp=0.01
counting_bloom|deleted_n1000|counting_bloom_delete(counting_bloom_delete((SELECT counting_bloom_agg(i, 1000, 0.01) FROM generate_series(1, 300) i), 5), 6)|n=1000;fpp=0.01
counting_bloom|text_n50k_p001|(SELECT counting_bloom_agg(t, 50000, 0.001) FROM d.rows WHERE i <= 20000)|n=50000;fpp=0.001
counting_bloom|large_n1e6_100k|(SELECT counting_bloom_agg(i, 1000000, 0.01) FROM generate_series(1, 100000) i)|n=1000000;fpp=0.01
cuckoo|empty_n1000|cuckoo_empty(1000, 0.01)|n=1000;fpp=0.01
cuckoo|few_n1000|(SELECT cuckoo_agg(i, 1000, 0.01) FROM generate_series(1, 3) i)|n=1000;fpp=0.01
cuckoo|hundreds_n1000|(SELECT cuckoo_agg(i, 1000, 0.01) FROM generate_series(1, 300) i)|n=1000;fpp=0.01
cuckoo|grown_n100|(SELECT cuckoo_agg(i, 100, 0.01) FROM generate_series(1, 1000) i)|n=100;fpp=0.01
cuckoo|copies_b2|cuckoo_add(cuckoo_add(cuckoo_add(cuckoo_add(cuckoo_add(cuckoo_empty(10, 0.001, 2), 7), 7), 7), 7), 7)|n=10;fpp=0.001
cuckoo|deleted_n1000|cuckoo_delete(cuckoo_delete((SELECT cuckoo_agg(i, 1000, 0.01) FROM generate_series(1, 300) i), 5), 6)|n=1000;fpp=0.01
cuckoo|text_n50k_p001|(SELECT cuckoo_agg(t, 50000, 0.001) FROM d.rows WHERE i <= 20000)|n=50000;fpp=0.001
cuckoo|union_of_sizes|cuckoo_union((SELECT cuckoo_agg(i, 100, 0.01) FROM generate_series(1, 500) i), (SELECT cuckoo_agg(i, 1000, 0.01) FROM generate_series(300, 900) i))|n=100;fpp=0.01
cuckoo|large_n1e6_100k|(SELECT cuckoo_agg(i, 1000000, 0.01) FROM generate_series(1, 100000) i)|n=1000000;fpp=0.01
kll|empty_default|kll_empty()|
kll|exact_small|(SELECT kll_agg(i::float8) FROM generate_series(1, 100) i)|
kll|compacted_k8|(SELECT kll_agg((i % 201 - 100)::float8, 8) FROM generate_series(1, 5000) i)|
kll|bigint_wide|(SELECT kll_agg(i::bigint * 3037000493) FROM generate_series(1, 3000) i)|
kll|timestamptz_hours|(SELECT kll_agg(TIMESTAMPTZ '2024-01-01 00:00+00' + i * INTERVAL '1 hour', 64) FROM generate_series(1, 2000) i)|
kll|date_days|(SELECT kll_agg(DATE '2000-01-01' + i) FROM generate_series(1, 1000) i)|
kll|weighted_near_max|(SELECT kll_agg(i * 1.5 - 700, 9223372036854775807 - i, 200) FROM generate_series(1, 2) i)|
kll|union_across_k|kll_union((SELECT kll_agg(i::float8, 400) FROM generate_series(1, 3000) i), (SELECT kll_agg(-i::float8, 16) FROM generate_series(1, 3000) i))|
kll|large_k800|(SELECT kll_agg((i % 1000)::float8, 800) FROM generate_series(1, 100000) i)|
kll|imported_datasketches_doubles_n10|kll_from_datasketches('\x05010f00c80008000a00000000000000c8000100be000000000000000000f03f00000000000024400000000000002440000000000000224000000000000020400000000000001c4000000000000018400000000000001440000000000000104000000000000008400000000000000040000000000000f03f')|
kll|imported_datasketches_longs_n1|kll_from_datasketches('\x02020f04c80008000100000000000000', 'long')|
kll|imported_datasketches_floats_k16|kll_from_datasketches(kll_to_datasketches((SELECT kll_agg(i / 4.0::float8, 16) FROM generate_series(1, 2000) i), 'float'), 'float')|
ell|empty_p11|ell_empty()|
ell|few_p11|(SELECT ell_agg(i) FROM generate_series(1, 3) i)|
ell|hundreds_p11|(SELECT ell_agg(i) FROM generate_series(1, 300) i)|
ell|dense_p11_100k|(SELECT ell_agg(i) FROM generate_series(1, 100000) i)|
ell|dense_p4|(SELECT ell_agg(i, 4) FROM generate_series(1, 100) i)|
ell|hundreds_p18|(SELECT ell_agg(i, 18) FROM generate_series(1, 500) i)|
ell|text_p14|(SELECT ell_agg(t, 14) FROM d.rows WHERE i <= 2000)|
ell|stream_p8_martingale|(WITH RECURSIVE r(n, s) AS (SELECT 0, ell_empty(8) UNION ALL SELECT n + 1, ell_add(s, n + 1) FROM r WHERE n < 3000) SELECT s FROM r WHERE n = 3000)|
ell|union_p10_p12|ell_union((SELECT ell_agg(i, 10) FROM generate_series(1, 3000) i), (SELECT ell_agg(-i, 12) FROM generate_series(1, 3000) i))|
EOF
)

# Facts whose names differ from the info function's keys.
FACT_ALIASES="precision:p"

# Argument templates of the extension's aggregates, keyed by name(identity
# arguments) without the extension's schema. {v} is the row's value, {w} a
# bigint weight, {s} a one-value sketch of the aggregate's own type (below),
# {name} a fact of the INITCOND value.
ARG_TEMPLATES=$(cat <<'EOF'
hll_agg(anyelement)|{v}
hll_agg(anyelement, integer)|{v}, {p}
hll_union(hll)|{s}
hll_postgresql_hll_agg(anyelement)|{v}
hll_postgresql_hll_agg(anyelement, integer, integer, bigint, integer, integer)|{v}, 11, 5, -1, 1, 0
hll_datasketches_agg(anyelement)|{v}
hll_datasketches_agg(anyelement, integer)|{v}, {p}
hll_datasketches_agg(anyelement, integer, text)|{v}, {p}, 'HLL_4'
cms_agg(anyelement)|{v}
cms_agg(anyelement, double precision, double precision)|{v}, {eps}, {delta}
cms_agg(anyelement, double precision, double precision, boolean)|{v}, {eps}, {delta}, {conservative}
cms_agg(anyelement, double precision, double precision, boolean, integer)|{v}, {eps}, {delta}, {conservative}, {k}
cms_agg_weighted(anyelement, bigint)|{v}, {w}
cms_agg_weighted(anyelement, bigint, double precision, double precision)|{v}, {w}, {eps}, {delta}
cms_agg_weighted(anyelement, bigint, double precision, double precision, boolean)|{v}, {w}, {eps}, {delta}, {conservative}
cms_agg_weighted(anyelement, bigint, double precision, double precision, boolean, integer)|{v}, {w}, {eps}, {delta}, {conservative}, {k}
cms_agg_sized(anyelement, integer, integer)|{v}, {width}, {depth}
cms_agg_sized(anyelement, integer, integer, boolean)|{v}, {width}, {depth}, {conservative}
cms_agg_sized(anyelement, integer, integer, boolean, integer)|{v}, {width}, {depth}, {conservative}, {k}
cms_agg_weighted_sized(anyelement, bigint, integer, integer)|{v}, {w}, {width}, {depth}
cms_agg_weighted_sized(anyelement, bigint, integer, integer, boolean)|{v}, {w}, {width}, {depth}, {conservative}
cms_agg_weighted_sized(anyelement, bigint, integer, integer, boolean, integer)|{v}, {w}, {width}, {depth}, {conservative}, {k}
cms_union(cms)|{s}
bloom_agg(anyelement, bigint, double precision)|{v}, {n}, {fpp}
bloom_agg_bits(anyelement, bigint, integer)|{v}, {bits}, {hashes}
bloom_agg(anyelement, bigint, double precision, text)|{v}, {n}, {fpp}, 'split_block'
bloom_union(bloom)|{s}
ddsketch_agg(double precision)|{v}
ddsketch_agg(double precision, double precision)|{v}, {relative_accuracy}
ddsketch_agg(double precision, double precision, integer)|{v}, {relative_accuracy}, {max_buckets}
ddsketch_agg(double precision, bigint)|{v}, {w}
ddsketch_agg(double precision, bigint, double precision)|{v}, {w}, {relative_accuracy}
ddsketch_agg(double precision, bigint, double precision, integer)|{v}, {w}, {relative_accuracy}, {max_buckets}
ddsketch_union(ddsketch)|{s}
topk_agg(anyelement)|{v}
topk_agg(anyelement, integer)|{v}, {k}
topk_agg_weighted(anyelement, bigint)|{v}, {w}
topk_agg_weighted(anyelement, bigint, integer)|{v}, {w}, {k}
topk_union(topk)|{s}
theta_agg(anyelement)|{v}
theta_agg(anyelement, integer)|{v}, {lg_k}
theta_datasketches_agg(anyelement)|{v}
theta_datasketches_agg(anyelement, integer)|{v}, {lg_k}
theta_union(theta)|{s}
theta_intersect(theta)|{s}
counting_bloom_agg(anyelement, bigint, double precision)|{v}, {n}, {fpp}
counting_bloom_union(counting_bloom)|{s}
cuckoo_agg(anyelement, bigint, double precision)|{v}, {n}, {fpp}
cuckoo_union(cuckoo)|{s}
kll_agg(double precision)|{v}
kll_agg(double precision, integer)|{v}, {k}
kll_agg(double precision, bigint, integer)|{v}, {w}, {k}
kll_agg(bigint)|{v}
kll_agg(bigint, integer)|{v}, {k}
kll_agg(bigint, bigint, integer)|{v}, {w}, {k}
kll_agg(timestamp without time zone)|{v}
kll_agg(timestamp without time zone, integer)|{v}, {k}
kll_agg(timestamp without time zone, bigint, integer)|{v}, {w}, {k}
kll_agg(timestamp with time zone)|{v}
kll_agg(timestamp with time zone, integer)|{v}, {k}
kll_agg(timestamp with time zone, bigint, integer)|{v}, {w}, {k}
kll_agg(date)|{v}
kll_agg(date, integer)|{v}, {k}
kll_agg(date, bigint, integer)|{v}, {w}, {k}
kll_union(kll)|{s}
ell_agg(anyelement)|{v}
ell_agg(anyelement, integer)|{v}, {p}
ell_union(ell)|{s}
approx_count_distinct(anyelement)|{v}
approx_top_k(anyelement, integer)|{v}, {k}
approx_percentile(double precision, double precision)|{v}, {q}
approx_percentiles(double precision, double precision[])|{v}, {qs}
EOF
)

# A one-value sketch with the parameters of the INITCOND value ({s}), and
# when two results of the same aggregate over the same rows are the same
# answer (serial against parallel; an hll of DataSketches' hashing, identity
# 3, keeps the library's order-dependent SET table and HIP sum, so there
# everything hll_info reports but the byte count must agree; cms candidate lists built by merges may
# legitimately differ from streamed ones, so for cms the header, N and the
# counters are compared: bytes 0-19 and 24 to the end of the counters of the
# binary format, docs/cms.md; topk summaries purged in a different merge
# tree legitimately differ too, so for topk N and k must be equal, and the
# bytes when either side never purged, i.e. saw at most k distinct items:
# then the other did not purge either; a theta sketch is canonical, the same
# set giving the same bytes in any merge tree, so theta_agg, theta_union and
# theta_intersect must give the serial bytes in parallel (but a theta of
# DataSketches' hashes, identity 3, keeps the libraries' order-dependent
# rebuilds: both plans must hold the same kind of values and every hash
# of the set below their θ, so neither has one the other lacks below the
# smaller θ); counting_bloom
# counters are saturating sums, the same in any order; a cuckoo filter's
# slots depend on the order of inserts, but cuckoo_agg and cuckoo_union keep
# a set of fingerprints, so both plans hold as many, with equal parameters,
# while neither has grown; a filter that grew has sub-filters of several
# sizes, and a union can hold a fingerprint once in each size (a value met
# by two workers, or two values colliding in one size only): then the counts
# agree within 2%).
ONE_VALUE=$(cat <<'EOF'
hll|hll_add(hll_empty({p}), {v})
cms|cms_add(cms_empty_sized({width}, {depth}, {conservative}, {k}), {v})
bloom|bloom_add(bloom_empty_bits({bits}, {hashes}), {v})
ddsketch|ddsketch_add(ddsketch_empty({relative_accuracy}, {max_buckets}), {v})
topk|topk_add(topk_empty({k}), {v})
theta|theta_add(theta_empty({lg_k}), {v})
counting_bloom|counting_bloom_add(counting_bloom_empty({n}, {fpp}), {v})
cuckoo|cuckoo_add(cuckoo_empty({n}, {fpp}), {v})
kll|kll_add(kll_empty({k}), {v})
ell|ell_add(ell_empty({p}), {v})
approx_percentile_state|ddsketch_approx_percentiles_trans(NULL, {v}, {qs})
EOF
)
# The same for an aggregate whose result is not its state (the one-step
# aggregates, src/sql/one_step.sql), by aggregate name: hll merges are
# exact; approx_top_k's arrays are equal unless both summaries purged (then
# every held item's estimate exceeds its lower bound, or nothing is held);
# approx_percentile(s) read ddsketches, whose merges are exact.
SAME_RESULT_ANSWER=$(cat <<'EOF'
approx_count_distinct|{a} = {b}
approx_top_k|{a} = {b} OR ((cardinality({a}) = 0 OR (SELECT bool_and(x.estimate > x.lower_bound) FROM unnest({a}) x)) AND (cardinality({b}) = 0 OR (SELECT bool_and(x.estimate > x.lower_bound) FROM unnest({b}) x)))
approx_percentile|{a} = {b}
approx_percentiles|{a} = {b}
EOF
)
SAME_ANSWER=$(cat <<'EOF'
hll|{a}::text = {b}::text OR (hll_info({a})->>'hash_identity' = '3' AND hll_info({a}) - 'bytes' = hll_info({b}) - 'bytes')
cms|substring({a}::bytea FROM 1 FOR 20) = substring({b}::bytea FROM 1 FOR 20) AND substring({a}::bytea FROM 25 FOR 8 + 8 * (cms_info({a})->>'width')::int * (cms_info({a})->>'depth')::int) = substring({b}::bytea FROM 25 FOR 8 + 8 * (cms_info({a})->>'width')::int * (cms_info({a})->>'depth')::int)
bloom|{a}::text = {b}::text
ddsketch|{a}::text = {b}::text
theta|{a}::text = {b}::text OR (theta_info({a})->>'hash_identity' = '3' AND theta_info({b})->>'hash_identity' = '3' AND theta_info({a})->>'element_kind' = theta_info({b})->>'element_kind' AND theta_count(theta_diff({a}, {b})) = 0 AND theta_count(theta_diff({b}, {a})) = 0)
topk|topk_total({a}) = topk_total({b}) AND topk_info({a})->'k' = topk_info({b})->'k' AND ({a} = {b} OR (topk_max_error({a}) > 0 AND topk_max_error({b}) > 0))
counting_bloom|{a}::text = {b}::text
ell|{a}::text = {b}::text
kll|kll_count({a}) = kll_count({b}) AND kll_info({a})->'k' = kll_info({b})->'k' AND kll_info({a})->'min' = kll_info({b})->'min' AND kll_info({a})->'max' = kll_info({b})->'max' AND kll_info({a})->'element_type' = kll_info({b})->'element_type'
cuckoo|cuckoo_info({a})->'fingerprint_bits' = cuckoo_info({b})->'fingerprint_bits' AND cuckoo_info({a})->'bucket_size' = cuckoo_info({b})->'bucket_size' AND CASE WHEN cuckoo_info({a})->>'subfilters' = '1' AND cuckoo_info({b})->>'subfilters' = '1' THEN cuckoo_cardinality({a}) = cuckoo_cardinality({b}) ELSE abs(cuckoo_cardinality({a}) - cuckoo_cardinality({b})) <= 2 + greatest(cuckoo_cardinality({a}), cuckoo_cardinality({b})) / 50 END
EOF
)

# Values of the declared types of typed aggregates ({v}), from the row's i,
# b and t. The anyelement functions are fed int, bigint and text; the
# extension's own anyelement aggregates a type without a typed twin.
VALUE_EXPRESSIONS=$(cat <<'EOF'
smallint|(i % 30000)::smallint
integer|i
bigint|b
numeric|(b::numeric / 7)
real|(i::real / 3::real)
double precision|(i::float8 / 3)
text|t
bytea|convert_to(t, 'UTF8')
uuid|md5(i::text)::uuid
date|(DATE '2000-01-01' + i)
timestamp without time zone|(TIMESTAMP '2000-01-01' + i * INTERVAL '1 minute')
timestamp with time zone|(TIMESTAMPTZ '2000-01-01 00:00+00' + i * INTERVAL '1 minute')
boolean|(i % 2 = 0)
EOF
)
NO_TWIN_VALUE="(i * INTERVAL '1 second')"

# Values for a family whose aggregates declare their value type instead of
# taking anyelement (ddsketch: double precision; kll: double precision,
# bigint, timestamp, timestamptz, date). type|flavour|name|SQL: the
# flavours i, b and t stand in for the int, bigint and text rows the
# anyelement aggregates get, own is what the extension's own aggregates are
# fed (must be valid), lit a literal for the direct calls. The signed one
# has zeros, magnitudes e^-20..e^20 (collapses at the default 2048 buckets)
# and, twice every 1000 rows, the value times 1e-310 (often denormal, down
# to 2e-319) or times 1e290 (up to 5e300).
DECLARED_VALUES=$(cat <<'EOF'
double precision|i|int-as-float8|i
double precision|b|negative-bigint-as-float8|(-b)
double precision|t|signed-wide-float8|(((i % 201) - 100) * exp((i % 41) - 20) * CASE i % 1000 WHEN 7 THEN '1e-310'::float8 WHEN 8 THEN '1e290'::float8 ELSE 1 END)
double precision|own|signed-wide-float8|(((i % 201) - 100) * exp((i % 41) - 20) * CASE i % 1000 WHEN 7 THEN '1e-310'::float8 WHEN 8 THEN '1e290'::float8 ELSE 1 END)
double precision|lit|literal|'-2.5e-300'::float8
bigint|i|int-as-bigint|i::bigint
bigint|b|bigint|b
bigint|t|signed-wide-bigint|((i % 201 - 100)::bigint * 45035996273704963)
bigint|own|signed-wide-bigint|((i % 201 - 100)::bigint * 45035996273704963)
bigint|lit|literal|'-9007199254740993'::bigint
timestamp without time zone|i|minutes|(TIMESTAMP '2000-01-01' + i * INTERVAL '1 minute')
timestamp without time zone|b|seconds|(TIMESTAMP '2000-01-01' + (b % 1000000000) * INTERVAL '1 second')
timestamp without time zone|t|infinities|(CASE i % 1000 WHEN 7 THEN 'infinity'::timestamp WHEN 8 THEN '-infinity'::timestamp ELSE TIMESTAMP '2000-01-01' + i * INTERVAL '1 hour' END)
timestamp without time zone|own|minutes|(TIMESTAMP '2000-01-01' + i * INTERVAL '1 minute')
timestamp without time zone|lit|literal|'2026-01-01 12:00'::timestamp
timestamp with time zone|i|minutes|(TIMESTAMPTZ '2000-01-01 00:00+00' + i * INTERVAL '1 minute')
timestamp with time zone|b|seconds|(TIMESTAMPTZ '2000-01-01 00:00+00' + (b % 1000000000) * INTERVAL '1 second')
timestamp with time zone|t|infinities|(CASE i % 1000 WHEN 7 THEN 'infinity'::timestamptz WHEN 8 THEN '-infinity'::timestamptz ELSE TIMESTAMPTZ '2000-01-01 00:00+00' + i * INTERVAL '1 hour' END)
timestamp with time zone|own|minutes|(TIMESTAMPTZ '2000-01-01 00:00+00' + i * INTERVAL '1 minute')
timestamp with time zone|lit|literal|'2026-01-01 12:00+00'::timestamptz
date|i|days|(DATE '2000-01-01' + i)
date|b|days-mod|(DATE '2000-01-01' + (b % 100000)::int)
date|t|infinities|(CASE i % 1000 WHEN 7 THEN 'infinity'::date WHEN 8 THEN '-infinity'::date ELSE DATE '2000-01-01' + i END)
date|own|days|(DATE '2000-01-01' + i)
date|lit|literal|'2026-01-01'::date
EOF
)
TWIN_ROWS=${HOSTILE_TWIN_ROWS:-10000}

# Value types an aggregate of the extension rightly refuses, and the SQLSTATE
# it must refuse them with: aggregate (as in ARG_TEMPLATES)|value type, or own
# for the type without a typed twin that the anyelement aggregate is fed
# (NO_TWIN_VALUE)|SQLSTATE. A split-block Bloom filter hashes a value's
# Parquet encoding, and numeric, boolean and interval have no Parquet
# physical type it supports (docs/bloom_parquet.md). DataSketches' HLL and theta hash
# what the libraries' update() overloads take (integers, doubles, strings,
# bytes: docs/interop.md); other types are to be cast as the program feeding
# the library converts them.
REFUSED_VALUES=$(cat <<'EOF'
bloom_agg(anyelement, bigint, double precision, text)|numeric|0A000
bloom_agg(anyelement, bigint, double precision, text)|boolean|0A000
bloom_agg(anyelement, bigint, double precision, text)|own|0A000
EOF
)
# Every overload of the DataSketches-hashing aggregates refuses the same
# types: the ones no update() overload of the libraries takes.
DATASKETCHES_REFUSED_TYPES="own|numeric|uuid|date|timestamp without time zone|timestamp with time zone|boolean"
for agg in "hll_datasketches_agg(anyelement)" "hll_datasketches_agg(anyelement, integer)" \
           "hll_datasketches_agg(anyelement, integer, text)" \
           "theta_datasketches_agg(anyelement)" "theta_datasketches_agg(anyelement, integer)"; do
  IFS='|' read -ra refused_types <<<"$DATASKETCHES_REFUSED_TYPES"
  for t in "${refused_types[@]}"; do REFUSED_VALUES+=$'\n'"$agg|$t|0A000"; done
done

declare -A TEMPLATE ONE SAME SAME_RESULT VALUE DECL_VALUE DECL_NAME
while IFS='|' read -r k v; do [ -n "$k" ] && TEMPLATE[$k]=$v; done <<<"$ARG_TEMPLATES"
while IFS='|' read -r t f n v; do
  [ -n "$t" ] && DECL_NAME["$t|$f"]=$n DECL_VALUE["$t|$f"]=$v
done <<<"$DECLARED_VALUES"
while IFS='|' read -r k v; do [ -n "$k" ] && ONE[$k]=$v; done <<<"$ONE_VALUE"
while IFS='|' read -r k v; do [ -n "$k" ] && SAME[$k]=$v; done <<<"$SAME_ANSWER"
while IFS='|' read -r k v; do [ -n "$k" ] && SAME_RESULT[$k]=$v; done <<<"$SAME_RESULT_ANSWER"
while IFS='|' read -r k v; do [ -n "$k" ] && VALUE[$k]=$v; done <<<"$VALUE_EXPRESSIONS"
declare -A REFUSED
while IFS='|' read -r k t c; do [ -n "$k" ] && REFUSED["$k|$t"]=$c; done <<<"$REFUSED_VALUES"

# ---------------------------------------------------------------------------
# Results: one line per statement or check.

results=$work/results.tsv
: >"$results"
record() {  # status label sqlstate message
  printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "${4//$'\t'/ }" >>"$results"
}

# ---------------------------------------------------------------------------
# The database, the role, the rows and the stored values.

dropdb --if-exists "$DB" >/dev/null 2>&1 || true
createdb "$DB"
su_psql <<SQL
SET client_min_messages = warning;
CREATE EXTENSION sketch;
DO \$\$BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$ROLE') THEN
    CREATE ROLE $ROLE NOLOGIN;
  END IF;
END\$\$;
ALTER ROLE $ROLE NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS NOLOGIN;
-- Nothing but CREATE in its own schema: no TEMP, no CREATE in public.
REVOKE ALL ON DATABASE $DB FROM PUBLIC;
GRANT CONNECT ON DATABASE $DB TO PUBLIC;
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
CREATE SCHEMA m AUTHORIZATION $ROLE;
CREATE SCHEMA su;  -- the superuser's aggregates
CREATE SCHEMA d;   -- rows and stored values, read-only for the role
GRANT USAGE ON SCHEMA d TO $ROLE;

CREATE TABLE d.rows AS
SELECT i, i::bigint * 1000003 AS b, repeat(md5(i::text), 1 + i % 3) AS t, i % 7 AS g,
       (1 + i % 5)::bigint AS w
FROM generate_series(1, $ROWS) i;
ALTER TABLE d.rows SET (parallel_workers = 2);
VACUUM ANALYZE d.rows;

CREATE TABLE d.stored (id serial PRIMARY KEY, type text NOT NULL, kind text NOT NULL,
                       txt text NOT NULL, facts jsonb NOT NULL, bytes int);
SQL

ext_schema=$(su_psql -At -c "SELECT extnamespace::regnamespace FROM pg_extension WHERE extname = 'sketch'")

# Stored values, built by the superuser from SQL.
while IFS='|' read -r type kind expr facts; do
  [ -n "$type" ] || continue
  wanted_type "$type" || continue
  json=$(awk -v f="$facts" 'BEGIN { n = split(f, kv, ";"); s = "";
          for (i = 1; i <= n; i++) { if (kv[i] == "") continue; split(kv[i], p, "=");
            s = s (s == "" ? "" : ",") "\"" p[1] "\":\"" p[2] "\"" } print "{" s "}" }')
  su_psql -c "SET search_path = $ext_schema, public" -c "INSERT INTO d.stored (type, kind, txt, facts)
              SELECT '$type', '$kind', ($expr)::$type::text, '$json'::jsonb"
done <<<"$STORED_VALUES"

# Facts from <type>_info, explicit facts winning; typed copies in tables
# d.v_<type> (direct calls read values from a table: TOAST, shared buffers).
su_psql <<SQL
SET client_min_messages = warning;
DO \$\$
DECLARE r record; info jsonb; alias text;
BEGIN
  FOR r IN SELECT * FROM d.stored ORDER BY id LOOP
    info := '{}';
    IF to_regprocedure(format('%I.%I(%I.%I)', '$ext_schema', r.type || '_info', '$ext_schema', r.type)) IS NOT NULL THEN
      EXECUTE format('SELECT (SELECT jsonb_object_agg(key, value) FROM jsonb_each_text(%I.%I(\$1::%I.%I)))',
                     '$ext_schema', r.type || '_info', '$ext_schema', r.type)
        INTO info USING r.txt;
    END IF;
    FOREACH alias IN ARRAY string_to_array('$FACT_ALIASES', ' ') LOOP
      IF info ? split_part(alias, ':', 1) THEN
        info := info || jsonb_build_object(split_part(alias, ':', 2), info ->> split_part(alias, ':', 1));
      END IF;
    END LOOP;
    UPDATE d.stored SET facts = coalesce(info, '{}') || facts, bytes = octet_length(txt) / 2
    WHERE id = r.id;
  END LOOP;
  FOR r IN SELECT DISTINCT type FROM d.stored LOOP
    EXECUTE format('CREATE TABLE d.%I AS SELECT id, txt::%I.%I AS v FROM d.stored WHERE type = %L',
                   'v_' || r.type, '$ext_schema', r.type, r.type);
  END LOOP;
END\$\$;
GRANT SELECT ON ALL TABLES IN SCHEMA d TO $ROLE;
SQL

# HOSTILE_GRANT=1: EXECUTE on every support function for the role, as an
# administrator might grant it back, so the hostile pass runs everything
# even where the extension revokes it from PUBLIC.
if [ -n "${HOSTILE_GRANT:-}" ]; then
  su_psql <<SQL
DO \$\$
DECLARE f regprocedure;
BEGIN
  FOR f IN SELECT DISTINCT p.oid::regprocedure
           FROM pg_aggregate a
           JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = a.aggfnoid AND d.deptype = 'e'
           JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'sketch'
           JOIN pg_proc p ON p.oid IN (a.aggtransfn, a.aggcombinefn, a.aggfinalfn)
  LOOP
    EXECUTE format('GRANT EXECUTE ON FUNCTION %s TO $ROLE', f);
  END LOOP;
END\$\$;
SQL
fi

# ---------------------------------------------------------------------------
# The catalog: every aggregate of the extension.

catalog=$(su_psql -At -F'|' <<SQL
SET search_path = pg_catalog;
-- argument types only (no names), schema-qualified where not in pg_catalog
CREATE FUNCTION pg_temp.argtypes(f oid) RETURNS text LANGUAGE sql STABLE AS
\$\$ SELECT coalesce(string_agg(format_type(x, NULL), ', ' ORDER BY o), '')
     FROM pg_proc p, unnest(p.proargtypes::oid[]) WITH ORDINALITY AS u(x, o) WHERE p.oid = f \$\$;
SELECT p.oid,
       p.proname || '(' || replace(pg_temp.argtypes(p.oid), quote_ident(e.nsp) || '.', '') || ')',
       quote_ident(n.nspname) || '.' || quote_ident(p.proname),
       pg_temp.argtypes(p.oid),
       format_type(a.aggtranstype, NULL), t.typname,
       quote_ident(tn.nspname) || '.' || quote_ident(tf.proname),
       tf.proname || '(' || replace(pg_temp.argtypes(tf.oid), quote_ident(e.nsp) || '.', '') || ')',
       tf.prosrc,
       coalesce(quote_ident(cn.nspname) || '.' || quote_ident(cf.proname), '-'),
       coalesce(cf.proname || '(' || replace(pg_temp.argtypes(cf.oid), quote_ident(e.nsp) || '.', '') || ')', '-'),
       coalesce(quote_ident(fn.nspname) || '.' || quote_ident(ff.proname), '-'),
       coalesce(ff.proname || '(' || replace(pg_temp.argtypes(ff.oid), quote_ident(e.nsp) || '.', '') || ')', '-'),
       p.pronargs, format_type(p.prorettype, NULL)
FROM (SELECT x.oid, xn.nspname AS nsp FROM pg_extension x JOIN pg_namespace xn ON xn.oid = x.extnamespace
      WHERE x.extname = 'sketch') e
JOIN pg_depend dep ON dep.refclassid = 'pg_extension'::regclass AND dep.refobjid = e.oid
                  AND dep.classid = 'pg_proc'::regclass AND dep.deptype = 'e'
JOIN pg_aggregate a ON a.aggfnoid = dep.objid
JOIN pg_proc p ON p.oid = a.aggfnoid
JOIN pg_namespace n ON n.oid = p.pronamespace
JOIN pg_type t ON t.oid = a.aggtranstype
JOIN pg_proc tf ON tf.oid = a.aggtransfn
JOIN pg_namespace tn ON tn.oid = tf.pronamespace
LEFT JOIN pg_proc cf ON cf.oid = a.aggcombinefn
LEFT JOIN pg_namespace cn ON cn.oid = cf.pronamespace
LEFT JOIN pg_proc ff ON ff.oid = a.aggfinalfn
LEFT JOIN pg_namespace fn ON fn.oid = ff.pronamespace
WHERE a.aggkind = 'n' AND ('$TYPES' = '' OR t.typname = ANY (string_to_array('$TYPES', ' ')))
ORDER BY t.typname, p.proname, p.pronargs, p.oid;
SQL
)

# Aggregates, indexed by sid.
declare -a A_KEY A_NAME A_ARGS A_STYPE A_TYPE A_TFN A_TKEY A_TSRC A_CFN A_CKEY A_FFN A_FKEY A_NARGS A_RTYPE
declare -A T_SEEN
nagg=0
while IFS='|' read -r oid key name args stype typname tfn tkey tsrc cfn ckey ffn fkey nargs rtype; do
  [ -n "$oid" ] || continue
  A_KEY[$nagg]=$key A_NAME[$nagg]=$name A_ARGS[$nagg]=$args A_STYPE[$nagg]=$stype
  A_TYPE[$nagg]=$typname A_TFN[$nagg]=$tfn A_TKEY[$nagg]=$tkey A_TSRC[$nagg]=$tsrc
  A_CFN[$nagg]=$cfn A_CKEY[$nagg]=$ckey A_FFN[$nagg]=$ffn A_FKEY[$nagg]=$fkey A_NARGS[$nagg]=$nargs
  A_RTYPE[$nagg]=$rtype
  T_SEEN[$typname]=1
  nagg=$((nagg + 1))
done <<<"$catalog"
n_ext_aggs=$nagg

# The value argument: an aggregate whose first argument is not its state
# type takes a value there, either anyelement or a declared type (typed twins
# of the anyelement aggregates, over typed twins of the transition function).
# Templates are keyed with the value argument written as anyelement.
# A declared value type is a twin only when the anyelement aggregate of the
# same name and other arguments exists; otherwise (ddsketch_agg(double
# precision, ...)) the aggregate is its family's own, keyed by its own
# signature, and it is fed values of that type (A_DECL; FAMILY_VTYPE, its
# family's, for the family's other aggregates such as the unions: the last
# declared type seen, since kll_agg takes five).
declare -a A_VTYPE A_NKEY A_TWIN A_DECL
declare -A TFN_ARGS ANY_KEYS FAMILY_VTYPE
for ((sid = 0; sid < nagg; sid++)); do
  key=${A_KEY[$sid]} name=${A_KEY[$sid]%%(*}
  inner=${key#*(}; inner=${inner%)}
  [ "${inner%%, *}" = anyelement ] && ANY_KEYS[$key]=1
done
for ((sid = 0; sid < nagg; sid++)); do
  key=${A_KEY[$sid]} name=${A_KEY[$sid]%%(*}
  inner=${key#*(}; inner=${inner%)}
  first=${inner%%, *} rest=${inner#"${inner%%, *}"}
  A_VTYPE[$sid]=- A_NKEY[$sid]=$key A_TWIN[$sid]=0 A_DECL[$sid]=
  if [ "$first" != "${A_TYPE[$sid]}" ]; then
    A_VTYPE[$sid]=$first
    if [ "$first" = anyelement ]; then
      :
    elif [ -n "${ANY_KEYS["$name(anyelement$rest)"]:-}" ]; then
      A_NKEY[$sid]="$name(anyelement$rest)" A_TWIN[$sid]=1
    else
      FAMILY_VTYPE[${A_TYPE[$sid]}]=$first A_DECL[$sid]=$first
    fi
  fi
  TFN_ARGS["${A_TFN[$sid]}|${A_ARGS[$sid]}"]=1
done

# A combine function that is no aggregate's transition function becomes one
# more (pseudo) aggregate over the state type, so it gets an INITCOND too.
for ((sid = 0; sid < n_ext_aggs; sid++)); do
  c=${A_CFN[$sid]}
  [ "$c" != "-" ] || continue
  [ -z "${TFN_ARGS["$c|${A_STYPE[$sid]}"]:-}" ] || continue
  TFN_ARGS["$c|${A_STYPE[$sid]}"]=1
  A_KEY[$nagg]="combine ${A_CKEY[$sid]}" A_NKEY[$nagg]="combine ${A_CKEY[$sid]}" A_NAME[$nagg]=-
  A_ARGS[$nagg]=${A_STYPE[$sid]} A_STYPE[$nagg]=${A_STYPE[$sid]} A_TYPE[$nagg]=${A_TYPE[$sid]}
  A_TFN[$nagg]=$c A_TKEY[$nagg]=${A_CKEY[$sid]} A_TSRC[$nagg]=combine:$c A_CFN[$nagg]=$c
  A_CKEY[$nagg]=${A_CKEY[$sid]} A_FFN[$nagg]=${A_FFN[$sid]} A_FKEY[$nagg]=${A_FKEY[$sid]}
  A_NARGS[$nagg]=1 A_VTYPE[$nagg]=- A_TWIN[$nagg]=0 A_RTYPE[$nagg]=${A_STYPE[$sid]}
  TEMPLATE["combine ${A_CKEY[$sid]}"]="{s}"
  nagg=$((nagg + 1))
done

# How much each aggregate gets:
#  - primary (the whole matrix): per transition function (C symbol), the
#    overload with the most arguments among the anyelement and union ones;
#  - the other anyelement overloads (e.g. hll_agg_trans(hll, anyelement),
#    whose precision comes from the state alone): serial and parallel runs
#    for every INITCOND value;
#  - typed twins: serial and parallel runs from the empty value and one more
#    for the twin with the most arguments per (C symbol, value type), a
#    serial run from the empty value for the others (TWIN_ROWS rows).
declare -A MAXA TWINMAX PRIMARY
for ((sid = 0; sid < nagg; sid++)); do
  s=${A_TSRC[$sid]} n=${A_NARGS[$sid]}
  if [ "${A_TWIN[$sid]}" = 1 ]; then
    k="$s|${A_VTYPE[$sid]}"
    if [ -z "${TWINMAX[$k]:-}" ] || [ "$n" -gt "${TWINMAX[$k]}" ]; then TWINMAX[$k]=$n; fi
  elif [ -z "${MAXA[$s]:-}" ] || [ "$n" -gt "${MAXA[$s]}" ]; then
    MAXA[$s]=$n
  fi
done
for ((sid = 0; sid < nagg; sid++)); do
  [ "${A_TWIN[$sid]}" = 0 ] && [ "${A_NARGS[$sid]}" = "${MAXA[${A_TSRC[$sid]}]}" ] && PRIMARY[$sid]=1
done

# Stored values, indexed by id.
declare -A V_TYPE V_KIND V_BYTES V_FACTS REF
declare -a VIDS
load_values() {
  VIDS=()
  while IFS='|' read -r id type kind bytes facts; do
    [ -n "$id" ] || continue
    V_TYPE[$id]=$type V_KIND[$id]=$kind V_BYTES[$id]=$bytes V_FACTS[$id]=$facts
    VIDS+=("$id")
    [ -n "${REF[$type]:-}" ] || REF[$type]=$id
  done < <(su_psql -At -F'|' -c "SELECT id, type, kind, bytes,
             (SELECT string_agg(key || '=' || value, ';') FROM jsonb_each_text(facts))
           FROM d.stored ORDER BY id")
}
load_values

# <type>_info(<type>) and the aging function <type>_scale(<type>, double
# precision) (cms_scale, topk_scale), where the family has them: no
# aggregate's support function, but they read any value of the type, so they
# get the stored values and the raw states too.
# Types that exist only as an aggregate's state, with no function of their
# own beyond the aggregate's (approx_percentile_state: a ddsketch and the
# fractions asked, src/sql/one_step.sql).
declare -A STATE_ONLY_TYPES=([approx_percentile_state]=1)
declare -A HAS_INFO HAS_SCALE
for t in "${!T_SEEN[@]}"; do
  HAS_INFO[$t]=$(su_psql -At -c "SELECT to_regproc('$ext_schema.${t}_info') IS NOT NULL")
  HAS_SCALE[$t]=$(su_psql -At -c "SELECT to_regprocedure('$ext_schema.${t}_scale($ext_schema.$t, double precision)') IS NOT NULL")
done

# Every other function of the extension whose first argument is the type and
# whose other arguments are plain (the value as anyelement, numbers, flags,
# text, arrays of numbers, the type again; a third double precision is 0.75,
# so that ddsketch_trimmed_mean's [lo, hi] = [0.5, 0.75] reaches the sketch,
# and a double precision[] is {0.25, 0.5, 0.75}, fractions and increasing
# split points alike): modifiers (hll_add, cuckoo_delete, ...), accessors,
# binary operators' functions, from the catalog. They get the raw states
# (below), where a working state leaking into SQL meets code that expects a
# stored value. One line per function: name|arguments, with S for the state.
declare -A SCALARS
for t in "${!T_SEEN[@]}"; do
  SCALARS[$t]=$(su_psql -At -F'|' <<SQL
SELECT quote_ident(n.nspname) || '.' || quote_ident(p.proname),
       (SELECT string_agg(CASE WHEN a.t = p.proargtypes[0] THEN 'S'
                               WHEN a.t = 'anyelement'::regtype THEN '5'
                               WHEN a.t IN ('integer'::regtype, 'bigint'::regtype) THEN '5'
                               WHEN a.t = 'double precision'::regtype AND a.i = 3 THEN '0.75'
                               WHEN a.t = 'double precision'::regtype THEN '0.5'
                               WHEN a.t = 'double precision[]'::regtype THEN '''{0.25,0.5,0.75}''::float8[]'
                               WHEN a.t = 'boolean'::regtype THEN 'true'
                               ELSE '''upper''' END, ', ' ORDER BY a.i)
        FROM unnest(p.proargtypes) WITH ORDINALITY a(t, i))
FROM pg_proc p
JOIN pg_namespace n ON n.oid = p.pronamespace
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'sketch'
WHERE p.prokind = 'f' AND p.proargtypes[0] = '$ext_schema.$t'::regtype
  AND NOT EXISTS (SELECT FROM unnest(p.proargtypes[1:]) a(t)
                  WHERE a.t <> p.proargtypes[0]
                    AND a.t NOT IN ('anyelement'::regtype, 'integer'::regtype, 'bigint'::regtype,
                                    'double precision'::regtype, 'double precision[]'::regtype,
                                    'boolean'::regtype, 'text'::regtype))
  AND NOT EXISTS (SELECT FROM pg_aggregate g WHERE p.oid IN (g.aggtransfn, g.aggcombinefn, g.aggfinalfn))
ORDER BY 1, 2;
SQL
)
  [ -n "${SCALARS[$t]}" ] || [ -n "${STATE_ONLY_TYPES[$t]:-}" ] ||
    record FAIL "setup | type $t: no scalar functions found in the catalog" - "check the SCALARS query"
done

# Coverage: a family without recipes is a failure, not a silent gap.
for ((sid = 0; sid < n_ext_aggs; sid++)); do
  [ -n "${TEMPLATE[${A_NKEY[$sid]}]:-}" ] ||
    record FAIL "setup | aggregate ${A_KEY[$sid]} (${A_NKEY[$sid]}) has no argument template in hostile_role.sh" - "add it to ARG_TEMPLATES"
  [ "${A_TWIN[$sid]}" = 0 ] || [ -n "${VALUE[${A_VTYPE[$sid]}]:-}" ] ||
    record FAIL "setup | aggregate ${A_KEY[$sid]}: no value expression for type ${A_VTYPE[$sid]} in hostile_role.sh" - "add it to VALUE_EXPRESSIONS"
done
for ((sid = 0; sid < nagg; sid++)); do
  [ -n "${A_DECL[$sid]:-}" ] || continue
  for f in i b t own lit; do
    [ -n "${DECL_VALUE["${A_DECL[$sid]}|$f"]:-}" ] ||
      record FAIL "setup | ${A_KEY[$sid]} takes ${A_DECL[$sid]}: no '$f' value of that type in hostile_role.sh" - "add it to DECLARED_VALUES"
  done
done
for t in "${!T_SEEN[@]}"; do
  [ -n "${REF[$t]:-}" ] || record FAIL "setup | state type $t has no stored values in hostile_role.sh" - "add them to STORED_VALUES"
  [ -n "${ONE[$t]:-}" ] || record FAIL "setup | state type $t has no one-value sketch in hostile_role.sh" - "add it to ONE_VALUE"
done

# fill TEMPLATE VID VALUE [WEIGHT]: an argument list, with {s} the one-value
# sketch, {v} the value, {w} the weight (the row's w unless given) and the
# value's facts filled in.
fill() {
  local out=$1 vid=$2 v=$3 w=${4:-w} type=${V_TYPE[$2]} kv pat
  pat="{s}"; out=${out//"$pat"/${ONE[$type]:-NULL}}
  pat="{v}"; out=${out//"$pat"/$v}
  pat="{w}"; out=${out//"$pat"/$w}
  local IFS=';'
  for kv in ${V_FACTS[$vid]}; do
    pat="{${kv%%=*}}"; out=${out//"$pat"/${kv#*=}}
  done
  printf '%s' "$out"
}
# The same with literals instead of a row's columns (direct calls).
fill_literal() { fill "$1" "$2" "$3" 3::bigint; }
unfilled() { [[ $1 == *\{*\}* ]]; }
# val TYPE FLAVOUR SID: the value fed to aggregate SID of a state type.
# Flavours i, b, t (the row's int, bigint, text), own (the extension's own
# aggregates), lit (direct calls); an aggregate that declares its value type
# (or one of a family that does) gets DECLARED_VALUES of that type instead.
# vname: its name for labels.
decl_type() { local vt=${A_DECL[$2]:-}; printf '%s' "${vt:-${FAMILY_VTYPE[$1]:-}}"; }
val() {
  local vt
  vt=$(decl_type "$1" "$3")
  if [ -n "$vt" ]; then printf '%s' "${DECL_VALUE["$vt|$2"]:-NULL}"; return; fi
  case $2 in
    own) printf '%s' "$NO_TWIN_VALUE" ;;
    lit) printf '%s' "md5('x')" ;;
    *) printf '%s' "$2" ;;
  esac
}
vname() {
  local vt
  vt=$(decl_type "$1" "$3")
  if [ -n "$vt" ]; then printf '%s' "${DECL_NAME["$vt|$2"]:-?}"; return; fi
  case $2 in i) echo int ;; b) echo bigint ;; t) echo text ;; *) echo "$2" ;; esac
}

clamp() { local v=$1 lo=$2 hi=$3; [ "$v" -lt "$lo" ] && v=$lo; [ "$v" -gt "$hi" ] && v=$hi; echo "$v"; }

# ---------------------------------------------------------------------------
# Running statements. A batch file has lines "label<TAB>expect<TAB>sql";
# expect is any (success or clean ERROR), ok (must succeed) or an SQLSTATE
# the statement must fail with. One psql session runs the batch; each
# statement is bracketed by \warn markers carrying its SQLSTATE, so a crash
# is the statement without an end marker, and the batch resumes after it
# once the server is back.

SERIAL="SET max_parallel_workers_per_gather = 0; "
PARALLEL="SET max_parallel_workers_per_gather = 2; SET parallel_leader_participation = off; "
CORRUPTION='invalid memory alloc request size|pfree called with|problem in alloc set|write past chunk end|could not find block containing chunk|terminated by signal|exited with exit code|lost connection to parallel worker|server closed the connection|connection to server was lost|crash of another server process'
crashes=0
selftest_done=0
CRASH_CAP=${HOSTILE_CRASH_CAP:-2}
declare -A CRASHKEY=()
# The case a statement belongs to: its label up to the INITCOND value, or
# its first two fields.
crash_key() {
  local l=$1
  if [[ $l == *" | INITCOND "* ]]; then
    local rest=${l#*" | INITCOND "}
    printf '%s' "${l%%" | INITCOND "*} | INITCOND ${rest%%" | "*}"
  else
    local a=${l#*" | "}
    printf '%s' "${l%%" | "*} | ${a%%" | "*}"
  fi
}

checkpointer() {
  psql -X -At -d "$DB" -c "SELECT pid FROM pg_stat_activity WHERE backend_type = 'checkpointer'" 2>/dev/null || true
}
# Waits until the server answers again (up to 30 s). Given the checkpointer
# from before, it first waits up to 3 s for a new one, so that a crash
# restart still under way is not mistaken for a server that is back.
wait_server() {  # [old checkpointer pid]
  local i pid
  sleep 0.3
  for ((i = 0; i < 300; i++)); do
    pid=$(checkpointer)
    if [ -n "$pid" ] && { [ -z "${1:-}" ] || [ "$pid" != "$1" ] || [ $i -ge 30 ]; }; then return 0; fi
    sleep 0.1
  done
  return 1
}

#
# The cases' batches are coalesced: begin_batch keeps appending to the
# pending batch of the same role, and run_batch runs it only once it holds
# HOSTILE_BATCH_LINES (400) statements; flush_batch runs it now. A psql
# session, its backend's start and the parsing cost about 100 ms a batch on
# a busy machine, and the 800 cases' batches averaged 23 statements: run one
# by one, that overhead was a third of the test. Nothing else changes: a
# crash resumes after the crashed statement, the crash cap is per case, and
# each statement sets the parallel settings it needs (SERIAL, PARALLEL).
BATCH_LINES=${HOSTILE_BATCH_LINES:-400}
batch_file=""
batch_role=""
batch_lines=0
nbatch=0
begin_batch() {  # role
  if [ -n "$batch_file" ]; then
    [ "$batch_role" = "$1" ] && return 0
    flush_batch
  fi
  nbatch=$((nbatch + 1))
  batch_role=$1
  batch_file=$work/batch_$nbatch.tsv
  batch_lines=0
  : >"$batch_file"
}
add() {  # label expect sql
  printf '%s\t%s\t%s\n' "$batch_role | $1" "$2" "$3" >>"$batch_file"
  batch_lines=$((batch_lines + 1))
}
run_batch() {
  [ "$batch_lines" -ge "$BATCH_LINES" ] || return 0
  flush_batch
}
flush_batch() {
  [ -n "$batch_file" ] || return 0
  local rc=0
  run_pending_batch || rc=$?
  batch_file=""
  batch_lines=0
  return $rc
}

# Parses a batch's psql output (the file run.out) against the batch file:
# prints CKPT_START/CKPT_END/CRASHED_AT/LAST lines for the caller, and
# appends a result line per statement that started to $results. blame names
# a statement that finished but during which the server crashed.
judge() {  # batch_file output first blame write
  awk -F'\t' -v first="$3" -v blame="$4" -v write="$5" -v corruption="$CORRUPTION" \
      -v results="$results" -v profile="${HOSTILE_PROFILE:-}" '
    FNR == NR { label[FNR] = $1; expect[FNR] = $2; next }
    /^@@CKPT_START / { split($0, w, " "); print "CKPT_START\t" w[2]; next }
    /^@@CKPT_END / { split($0, w, " "); print "CKPT_END\t" w[2]; next }
    /^@@S / { split($0, w, " "); cur = w[2]; order[++n] = cur; msg[cur] = ""; ms[cur] = 0; next }
    /^@@E / { split($0, w, " "); state[w[2]] = w[3]; cur = ""; next }
    {
      line = $0; sub(/^psql:[^:]*:[0-9]+: /, "", line); gsub(/\t/, " ", line)
      if (cur == "") next
      if (line ~ /^Time: [0-9.]+ ms/) { split(line, w, " "); ms[cur] += w[2]; next }
      if (length(msg[cur]) < 600) msg[cur] = msg[cur] (msg[cur] == "" ? "" : " / ") line
    }
    END {
      for (i = 1; i <= n; i++) {
        c = order[i]; st = (c in state) ? state[c] : "CRASH"; m = msg[c]
        if (c == blame) { st = "CRASH"; m = "the server crashed during this statement (new checkpointer) / " m }
        if (st == "CRASH") print "CRASHED_AT\t" c
        e = expect[c]
        if (st == "CRASH" || st ~ /^(08|57P)/ || st == "XX001" || st == "XX002" || st == "57014" || m ~ corruption) v = "FAIL"
        else if (e == "any") v = "PASS"
        else if (e == "ok") v = (st == "00000") ? "PASS" : "FAIL"
        else v = (st == e) ? "PASS" : "FAIL"
        if (write) printf "%s\t%s\t%s\t%s\n", v, label[c], st, m >> results
        if (write && profile != "") printf "%d\t%s\n", ms[c], label[c] >> (profile ".stmts")
        last = c
        if (m ~ corruption) print "SUSPECT\t" c
      }
      print "LAST\t" (n > 0 ? last : first - 1)
    }' "$1" "$2"
}

run_pending_batch() {
  local file=$batch_file role=$batch_role total first=1 attempt=0 t0
  local -a lines
  local -A skipped=()
  t0=$(date +%s%N)
  mapfile -t lines <"$file"
  total=${#lines[@]}
  [ "$total" -gt 0 ] || return 0
  while [ "$first" -le "$total" ]; do
    local script=$work/run.sql out=$work/run.out
    # Cases (function + INITCOND value) that crashed the server CRASH_CAP
    # times already: their remaining statements fail without running.
    local skip="" n label planned=$total
    if [ ${#CRASHKEY[@]} -gt 0 ]; then
      planned=$((first - 1))
      for ((n = first; n <= total; n++)); do
        IFS=$'\t' read -r label _ <<<"${lines[$((n - 1))]}"
        if [ "${CRASHKEY[$(crash_key "$label")]:-0}" -ge "$CRASH_CAP" ]; then
          skip+=" $n"
          [ -n "${skipped[$n]:-}" ] ||
            record FAIL "$label" SKIPPED "not run: this function with this INITCOND crashed the server $CRASH_CAP times already"
          skipped[$n]=1
        else
          planned=$n
        fi
      done
    fi
    if [ "$planned" -lt "$first" ]; then break; fi
    {
      echo '\set QUIET on'
      echo '\set ON_ERROR_STOP 0'
      echo '\o /dev/null'
      [ -n "${HOSTILE_PROFILE:-}" ] && echo '\timing on'
      echo "SET client_min_messages = warning;"
      # objects a batch created must survive a crash restart of a later statement
      echo "SET synchronous_commit = on;"
      echo "SET statement_timeout = '$TIMEOUT';"
      echo "SET parallel_setup_cost = 0; SET parallel_tuple_cost = 0; SET min_parallel_table_scan_size = 0;"
      echo "SET search_path = pg_catalog, $ext_schema;"
      echo "SELECT pid AS ckpt FROM pg_stat_activity WHERE backend_type = 'checkpointer' \gset"
      echo '\warn @@CKPT_START' ":ckpt"
      [ "$role" = hostile ] && echo "SET ROLE $ROLE;"
      awk -F'\t' -v first="$first" -v skip="$skip " 'NR >= first && index(skip, " " NR " ") == 0 {
        printf "\\warn @@S %d\n%s\n\\warn @@E %d :SQLSTATE\n", NR, $3, NR }' "$file"
      echo "RESET ROLE;"
      echo "SELECT pid AS ckpt FROM pg_stat_activity WHERE backend_type = 'checkpointer' \gset"
      echo '\warn @@CKPT_END' ":ckpt"
    } >"$script"
    psql -X -d "$DB" -f "$script" >"$out" 2>&1 || true
    local ckpt_start ckpt_end
    ckpt_start=$(awk '/^@@CKPT_START / { print $2 }' "$out")
    ckpt_end=$(awk '/^@@CKPT_END / { print $2 }' "$out")
    if [ -z "$ckpt_start" ]; then
      # Could not even connect (recovering?): wait and retry the batch.
      attempt=$((attempt + 1))
      if [ $attempt -gt 3 ] || ! wait_server; then
        record FAIL "$role | batch $nbatch: cannot connect to the server" - "$(head -c 500 "$out")"
        return 1
      fi
      continue
    fi
    local blame="" crashed_at last scan
    scan=$(judge "$file" "$out" "$first" "" 0)
    crashed_at=$(awk -F'\t' '$1 == "CRASHED_AT" { print $2; exit }' <<<"$scan")
    # A crash that the statement's session survived long enough to finish it
    # (a parallel worker died and the leader reported an ERROR first) shows
    # only as a new checkpointer: blame the statement with the tell-tale
    # message, else the last one that ran.
    if [ -z "$crashed_at" ] && [ "$ckpt_end" != "$ckpt_start" ]; then
      wait_server "$ckpt_start" || true
      if [ "$(checkpointer)" != "$ckpt_start" ]; then
        blame=$(awk -F'\t' '$1 == "SUSPECT" { print $2; exit }' <<<"$scan")
        [ -n "$blame" ] || blame=$(awk -F'\t' '$1 == "LAST" { print $2 }' <<<"$scan")
        crashes=$((crashes + 1))
      fi
    fi
    last=$(judge "$file" "$out" "$first" "$blame" 1 | awk -F'\t' '$1 == "LAST" { print $2 }')
    if [ -n "$blame" ]; then
      IFS=$'\t' read -r label _ <<<"${lines[$((blame - 1))]}"
      CRASHKEY[$(crash_key "$label")]=$((${CRASHKEY[$(crash_key "$label")]:-0} + 1))
    fi
    if [ -n "$crashed_at" ]; then
      IFS=$'\t' read -r label _ <<<"${lines[$((crashed_at - 1))]}"
      CRASHKEY[$(crash_key "$label")]=$((${CRASHKEY[$(crash_key "$label")]:-0} + 1))
      crashes=$((crashes + 1))
      if ! wait_server "$ckpt_start"; then
        record FAIL "$role | server did not come back within 30 s after a crash" - ""
        return 1
      fi
      first=$((crashed_at + 1))
      attempt=0
      continue
    fi
    if [ -n "$blame" ] && [ "$last" -ge "$first" ] && [ "$last" -lt "$planned" ]; then
      first=$((last + 1))
      continue
    fi
    if [ "$last" -lt "$planned" ]; then
      # psql stopped early without a crashed statement: record the rest.
      for ((n = last + 1; n <= planned; n++)); do
        [[ " $skip " == *" $n "* ]] && continue
        IFS=$'\t' read -r label _ <<<"${lines[$((n - 1))]}"
        record FAIL "$label" NOTRUN "psql stopped before this statement: $(tail -n 3 "$out" | tr '\n' ' ')"
      done
    fi
    break
  done
  [ -n "${HOSTILE_PROFILE:-}" ] &&
    echo "$(( ($(date +%s%N) - t0) / 1000000 )) ms $total stmts: $(awk -F'\t' 'NR == 1 { print substr($1, 1, 150) }' "$file")" >>"$HOSTILE_PROFILE"
  return 0
}

# ---------------------------------------------------------------------------
# Cases.

# CREATE AGGREGATE through EXECUTE, so the INITCOND text comes from the
# stored table and batches stay small.
create_agg() {  # schema.name args stype sfunc vid final combine [extra]
  local name=$1 args=$2 stype=$3 sfunc=$4 vid=$5 final=$6 combine=$7 extra=${8:-}
  local opts="SFUNC = $sfunc, STYPE = $stype"
  [ "$vid" != - ] && opts+=", INITCOND = %1\$L"
  [ "$final" != - ] && opts+=", FINALFUNC = $final"
  [ "$combine" != - ] && opts+=", COMBINEFUNC = $combine"
  opts+=", PARALLEL = SAFE$extra"
  local from="(SELECT txt FROM d.stored WHERE id = $vid)"
  [ "$vid" = - ] && from="NULL::text"
  printf 'DO $do$ BEGIN EXECUTE format($f$CREATE AGGREGATE %s(%s) (%s)$f$, %s); END $do$;' \
    "$name" "$args" "$opts" "$from"
}

# Hostile aggregates over one (signature, INITCOND value).
matrix_batch() {  # role sid vid
  local role=$1 sid=$2 vid=$3
  local schema=m; [ "$role" = superuser ] && schema=su
  local type=${A_TYPE[$sid]} tpl=${TEMPLATE[${A_NKEY[$sid]}]:-}
  [ -n "$tpl" ] || return 0
  local fnlabel="${A_TKEY[$sid]} [as in ${A_KEY[$sid]}] | INITCOND $type:${V_KIND[$vid]}"
  local args_i args_b args_t
  args_i=$(fill "$tpl" "$vid" "$(val "$type" i "$sid")") args_b=$(fill "$tpl" "$vid" "$(val "$type" b "$sid")")
  args_t=$(fill "$tpl" "$vid" "$(val "$type" t "$sid")")
  local n_i n_b n_t
  n_i=$(vname "$type" i "$sid") n_b=$(vname "$type" b "$sid") n_t=$(vname "$type" t "$sid")
  if unfilled "$args_i"; then
    record FAIL "$role | $fnlabel | template $tpl has facts the value lacks" - "$args_i"
    return 0
  fi
  local bytes=${V_BYTES[$vid]:-1000}
  [ "$bytes" -gt 0 ] || bytes=1
  # Union aggregates read one-value sketches of the value's size: fewer rows
  # for big ones. Windows finalize every row: fewer rows for big values.
  local rows=$ROWS
  [[ $tpl == *"{s}"* ]] && rows=$(clamp $((30000000 / bytes)) 200 "$ROWS")
  local wrows srows
  wrows=$(clamp $((5000000 / bytes)) 50 1000)
  srows=$((wrows < 100 ? wrows : 100))
  local src="d.rows WHERE i <= $rows" wsrc="d.rows WHERE i <= $wrows" ssrc="d.rows WHERE i <= $srows"
  local a="$schema.a${sid}_${vid}" f=${A_FFN[$sid]} c=${A_CFN[$sid]}
  local primary=${PRIMARY[$sid]:-0}
  local sliding="ROWS BETWEEN 3 PRECEDING AND CURRENT ROW"

  begin_batch "$role"
  # final + combine (what the extension's own aggregates declare)
  add "$fnlabel | CREATE AGGREGATE final+combine" any "$(create_agg "${a}_fc" "${A_ARGS[$sid]}" "${A_STYPE[$sid]}" "${A_TFN[$sid]}" "$vid" "$f" "$c")"
  add "$fnlabel | final+combine | $rows $n_i rows, serial" any "${SERIAL}SELECT md5(${a}_fc($args_i)::text) FROM $src;"
  if [ -n "${HOSTILE_SELFTEST:-}" ] && [ "$role" = superuser ] && [ "$selftest_done" = 0 ]; then
    # The harness's own check: this backend kills itself with SIGSEGV (a
    # crash restart), and the statements after it must still run.
    selftest_done=1
    local k
    for k in 1 2 3; do
      add "SELF-TEST | INITCOND none:selftest | the backend kills itself with SIGSEGV, #$k (crash, crash, skipped)" any \
        "DO \$do\$ BEGIN EXECUTE format('COPY (SELECT 1) TO PROGRAM %L', 'kill -SEGV ' || pg_backend_pid()); END \$do\$;"
    done
  fi
  if [ "$primary" != 1 ]; then
    [ "$vid" = "${REF[$type]}" ] &&
      add "$fnlabel | final+combine | $rows $n_i rows, parallel" any "${PARALLEL}SELECT md5(${a}_fc($args_i)::text) FROM $src;"
    run_batch
    return 0
  fi
  add "$fnlabel | final+combine | $rows $n_i rows, parallel" any "${PARALLEL}SELECT md5(${a}_fc($args_i)::text) FROM $src;"
  [ "$vid" = "${REF[$type]}" ] && [ "$c" != - ] &&
    add "$fnlabel | final+combine | planner gives it a parallel plan" "$([ "$role" = superuser ] && echo ok || echo any)" \
      "${PARALLEL}DO \$do\$ DECLARE l text; plan text := ''; BEGIN FOR l IN EXECUTE \$q\$EXPLAIN (COSTS OFF) SELECT ${a}_fc($args_i) FROM $src\$q\$ LOOP plan := plan || l || ' '; END LOOP; IF plan NOT LIKE '%Partial Aggregate%' OR plan NOT LIKE '%Gather%' THEN RAISE EXCEPTION 'no parallel plan: %', plan; END IF; END \$do\$;"
  add "$fnlabel | final+combine | GROUP BY 7 groups, $rows $n_i rows, serial" any "${SERIAL}SELECT g, md5(${a}_fc($args_i)::text) FROM $src GROUP BY g;"
  add "$fnlabel | final+combine | GROUP BY 7 groups, $rows $n_t rows, parallel" any "${PARALLEL}SELECT g, md5(${a}_fc($args_t)::text) FROM $src GROUP BY g;"
  add "$fnlabel | final+combine | running window, $wrows rows" any "${SERIAL}SELECT sum(length(x::bytea)) FROM (SELECT ${a}_fc($args_i) OVER (ORDER BY i) AS x FROM $wsrc) q;"
  add "$fnlabel | final+combine | sliding window, $srows rows" any "${SERIAL}SELECT sum(length(x::bytea)) FROM (SELECT ${a}_fc($args_i) OVER (ORDER BY i $sliding) AS x FROM $ssrc) q;"
  # no final function: the raw state is the result
  add "$fnlabel | CREATE AGGREGATE no final+combine" any "$(create_agg "${a}_nc" "${A_ARGS[$sid]}" "${A_STYPE[$sid]}" "${A_TFN[$sid]}" "$vid" - "$c")"
  add "$fnlabel | no final+combine | $rows $n_b rows, serial" any "${SERIAL}SELECT md5(${a}_nc($args_b)::text) FROM $src;"
  add "$fnlabel | no final+combine | $rows $n_b rows, parallel" any "${PARALLEL}SELECT md5(${a}_nc($args_b)::text) FROM $src;"
  add "$fnlabel | no final+combine | running window, $wrows rows" any "${SERIAL}SELECT sum(length(x::bytea)), max(md5(x::text)) FROM (SELECT ${a}_nc($args_i) OVER (ORDER BY i) AS x FROM $wsrc) q;"
  if [ "$f" != - ]; then
    add "$fnlabel | CREATE AGGREGATE final, no combine" any "$(create_agg "${a}_fn" "${A_ARGS[$sid]}" "${A_STYPE[$sid]}" "${A_TFN[$sid]}" "$vid" "$f" -)"
    add "$fnlabel | final, no combine | $rows $n_t rows, serial" any "${SERIAL}SELECT md5(${a}_fn($args_t)::text) FROM $src;"
    add "$fnlabel | final, no combine | partitioned window, $wrows $n_b rows" any "${SERIAL}SELECT sum(length(x::bytea)) FROM (SELECT ${a}_fn($args_b) OVER (PARTITION BY g ORDER BY i) AS x FROM $wsrc) q;"
  fi
  add "$fnlabel | CREATE AGGREGATE no final, no combine" any "$(create_agg "${a}_nn" "${A_ARGS[$sid]}" "${A_STYPE[$sid]}" "${A_TFN[$sid]}" "$vid" - -)"
  add "$fnlabel | no final, no combine | GROUP BY 7 groups, $rows $n_b rows (parallel allowed)" any "${PARALLEL}SELECT g, md5(${a}_nn($args_b)::text) FROM $src GROUP BY g;"
  add "$fnlabel | no final, no combine | sliding window, $srows $n_t rows" any "${SERIAL}SELECT sum(length(x::bytea)), max(md5(x::text)) FROM (SELECT ${a}_nn($args_t) OVER (ORDER BY i $sliding) AS x FROM $ssrc) q;"
  # moving aggregate: the transition function as MSFUNC, a do-nothing
  # inverse, the value as MINITCOND.
  add "$fnlabel | CREATE FUNCTION inverse transition (SQL)" any \
    "CREATE FUNCTION $schema.inv${sid}_${vid}(${A_STYPE[$sid]}, ${A_ARGS[$sid]}) RETURNS ${A_STYPE[$sid]} LANGUAGE sql IMMUTABLE PARALLEL SAFE AS 'SELECT \$1';"
  local mextra=", MSFUNC = ${A_TFN[$sid]}, MINVFUNC = $schema.inv${sid}_${vid}, MSTYPE = ${A_STYPE[$sid]}, MINITCOND = %1\$L"
  [ "$f" != - ] && mextra+=", MFINALFUNC = $f"
  add "$fnlabel | CREATE AGGREGATE moving (MSFUNC, MINVFUNC)" any "$(create_agg "${a}_mv" "${A_ARGS[$sid]}" "${A_STYPE[$sid]}" "${A_TFN[$sid]}" "$vid" "$f" "$c" "$mextra")"
  add "$fnlabel | moving | sliding window, $wrows rows" any "${SERIAL}SELECT sum(length(x::bytea)), max(md5(x::text)) FROM (SELECT ${a}_mv($args_i) OVER (ORDER BY i $sliding) AS x FROM $wsrc) q;"
  run_batch
}

# Direct calls of the support functions on stored values.
direct_batch() {  # role type
  local role=$1 type=$2 sid vid v2
  local schema=m; [ "$role" = superuser ] && schema=su
  begin_batch "$role"
  local vals=()
  for vid in "${VIDS[@]}"; do [ "${V_TYPE[$vid]}" = "$type" ] && vals+=("$vid"); done
  local stype="" ref=${REF[$type]}
  declare -A seen_c=() seen_f=()
  for ((sid = 0; sid < nagg; sid++)); do
    [ "${A_TYPE[$sid]}" = "$type" ] || continue
    stype=${A_STYPE[$sid]}
    local tpl=${TEMPLATE[${A_NKEY[$sid]}]:-} fn=${A_TFN[$sid]} args
    [ -n "$tpl" ] || continue
    if [ "${A_TWIN[$sid]}" = 1 ]; then
      # typed twins: a value of the declared type into the empty value
      [ -n "${VALUE[${A_VTYPE[$sid]}]:-}" ] || continue
      args=$(fill_literal "$tpl" "$ref" "(SELECT ${VALUE[${A_VTYPE[$sid]}]} FROM d.rows WHERE i = 5)")
      unfilled "$args" && continue
      add "direct ${A_TKEY[$sid]}(stored $type:${V_KIND[$ref]} from a table, ...)" any \
        "SELECT md5($fn(x.v, $args)::text) FROM d.v_$type x WHERE x.id = $ref;"
      continue
    fi
    local nv=0
    for vid in "${vals[@]}"; do
      nv=$((nv + 1))
      [ "${PRIMARY[$sid]:-0}" = 1 ] || [ $nv -le 2 ] || continue
      args=$(fill_literal "$tpl" "$vid" 5)
      unfilled "$args" && continue
      add "direct ${A_TKEY[$sid]}(stored $type:${V_KIND[$vid]} from a table, 5, ...)" any \
        "SELECT md5($fn(x.v, $args)::text) FROM d.v_$type x WHERE x.id = $vid;"
      [ "${PRIMARY[$sid]:-0}" = 1 ] || continue
      args=$(fill_literal "$tpl" "$vid" "$(val "$type" lit "$sid")")
      add "direct ${A_TKEY[$sid]}(stored $type:${V_KIND[$vid]} cast from text, $(vname "$type" lit "$sid"), ...)" any \
        "SELECT md5($fn((SELECT txt FROM d.stored WHERE id = $vid)::$stype, $args)::text);"
    done
    args=$(fill_literal "$tpl" "$ref" 5)
    add "direct ${A_TKEY[$sid]}(NULL, 5, ...)" any "SELECT md5($fn(NULL::$stype, $args)::text);"
    local c=${A_CFN[$sid]} f=${A_FFN[$sid]}
    if [ "$c" != - ] && [ -z "${seen_c[$c]:-}" ]; then
      seen_c[$c]=1
      for vid in "${vals[@]}"; do
        for v2 in "${vals[@]}"; do
          add "direct ${A_CKEY[$sid]}($type:${V_KIND[$vid]}, $type:${V_KIND[$v2]}) from a table" any \
            "SELECT md5($c(a.v, b.v)::text) FROM d.v_$type a, d.v_$type b WHERE a.id = $vid AND b.id = $v2;"
        done
        add "direct ${A_CKEY[$sid]}(NULL, $type:${V_KIND[$vid]}) and (..., NULL)" any \
          "SELECT md5($c(NULL, a.v)::text), md5($c(a.v, NULL)::text) FROM d.v_$type a WHERE a.id = $vid;"
      done
      add "direct ${A_CKEY[$sid]}(NULL, NULL)" any "SELECT $c(NULL::$stype, NULL::$stype);"
    fi
    if [ "$f" != - ] && [ -z "${seen_f[$f]:-}" ]; then
      seen_f[$f]=1
      for vid in "${vals[@]}"; do
        add "direct ${A_FKEY[$sid]}($type:${V_KIND[$vid]} from a table)" any \
          "SELECT md5($f(x.v)::text) FROM d.v_$type x WHERE x.id = $vid;"
        # The final function as the SFUNC of a zero-argument aggregate,
        # with the union as combine function, serial and parallel.
        local z="$schema.z_${sid}_${vid}"
        add "${A_FKEY[$sid]} as SFUNC of ${z#*.}(*) | INITCOND $type:${V_KIND[$vid]} | CREATE AGGREGATE" any \
          "$(create_agg "$z" "*" "$stype" "$f" "$vid" - "$c")"
        add "${A_FKEY[$sid]} as SFUNC of ${z#*.}(*) | INITCOND $type:${V_KIND[$vid]} | 20000 rows, serial" any \
          "${SERIAL}SELECT md5($z(*)::text) FROM d.rows WHERE i <= 20000;"
        add "${A_FKEY[$sid]} as SFUNC of ${z#*.}(*) | INITCOND $type:${V_KIND[$vid]} | 20000 rows, parallel" any \
          "${PARALLEL}SELECT md5($z(*)::text) FROM d.rows WHERE i <= 20000;"
      done
      add "direct ${A_FKEY[$sid]}(NULL)" any "SELECT $f(NULL::$stype);"
    fi
  done
  if [ "${HAS_SCALE[$type]:-}" = t ]; then
    for vid in "${vals[@]}"; do
      add "direct ${type}_scale($type:${V_KIND[$vid]} from a table, 0.5 / 1 / 1e-300)" any \
        "SELECT md5(${type}_scale(x.v, 0.5)::text), md5(${type}_scale(x.v, 1)::text), md5(${type}_scale(x.v, 1e-300)::text) FROM d.v_$type x WHERE x.id = $vid;"
      add "direct ${type}_scale(${type}_scale($type:${V_KIND[$vid]}, 0.5) || itself, 0.25)" any \
        "SELECT md5(${type}_scale(${type}_scale(x.v, 0.5) || ${type}_scale(x.v, 0.5), 0.25)::text) FROM d.v_$type x WHERE x.id = $vid;"
    done
    local factor
    for factor in 0 -1 1.5 "'NaN'" "'Infinity'" "'-0'"; do
      add "direct ${type}_scale($type:${V_KIND[$ref]}, $factor): refused" 22023 \
        "SELECT ${type}_scale(x.v, $factor) FROM d.v_$type x WHERE x.id = $ref;"
    done
    add "direct ${type}_scale(NULL, 0.5), (..., NULL)" any \
      "SELECT ${type}_scale(NULL, 0.5), ${type}_scale(x.v, NULL) FROM d.v_$type x WHERE x.id = $ref;"
  fi
  run_batch
}

# Typed twins of the transition functions: the same C function with a
# declared value type, from INITCOND values (see "How much" above).
twin_batch() {  # role type
  local role=$1 type=$2 sid vid
  local schema=m; [ "$role" = superuser ] && schema=su
  local ref=${REF[$type]} other=""
  # the second value: the first non-empty one of the type
  for vid in "${VIDS[@]}"; do
    [ "${V_TYPE[$vid]}" = "$type" ] && [ "$vid" != "$ref" ] && { other=$vid; break; }
  done
  begin_batch "$role"
  for ((sid = 0; sid < nagg; sid++)); do
    [ "${A_TYPE[$sid]}" = "$type" ] && [ "${A_TWIN[$sid]}" = 1 ] || continue
    local tpl=${TEMPLATE[${A_NKEY[$sid]}]:-} vexpr=${VALUE[${A_VTYPE[$sid]}]:-}
    [ -n "$tpl" ] && [ -n "$vexpr" ] || continue
    local full=0 vals=("$ref")
    if [ "${A_NARGS[$sid]}" = "${TWINMAX[${A_TSRC[$sid]}|${A_VTYPE[$sid]}]}" ]; then
      full=1
      [ -n "$other" ] && vals+=("$other")
    fi
    for vid in "${vals[@]}"; do
      local args a="$schema.t${sid}_${vid}"
      args=$(fill "$tpl" "$vid" "$vexpr")
      unfilled "$args" && continue
      local label="${A_TKEY[$sid]} [typed twin, as in ${A_KEY[$sid]}] | INITCOND $type:${V_KIND[$vid]}"
      add "$label | CREATE AGGREGATE final+combine" any \
        "$(create_agg "$a" "${A_ARGS[$sid]}" "${A_STYPE[$sid]}" "${A_TFN[$sid]}" "$vid" "${A_FFN[$sid]}" "${A_CFN[$sid]}")"
      add "$label | $TWIN_ROWS rows, serial" any "${SERIAL}SELECT md5($a($args)::text) FROM d.rows WHERE i <= $TWIN_ROWS;"
      [ $full = 1 ] &&
        add "$label | $TWIN_ROWS rows, parallel" any "${PARALLEL}SELECT md5($a($args)::text) FROM d.rows WHERE i <= $TWIN_ROWS;"
    done
  done
  run_batch
}

# Raw states: an aggregate without final function returns its working state
# to SQL. Fed to every support function, output, casts, a table (and back
# from it), the union aggregates. (Their text, fed back as INITCOND, is
# collected by capture_raw_texts.)
raw_batch() {  # role type
  local role=$1 type=$2 sid sid2 n
  local schema=m; [ "$role" = superuser ] && schema=su
  local ref=${REF[$type]}
  begin_batch "$role"
  for ((sid = 0; sid < nagg; sid++)); do
    [ "${A_TYPE[$sid]}" = "$type" ] && [ "${PRIMARY[$sid]:-0}" = 1 ] || continue
    local tpl=${TEMPLATE[${A_NKEY[$sid]}]:-}
    [ -n "$tpl" ] || continue
    local stype=${A_STYPE[$sid]}
    local r="$schema.raw_${sid}"
    local args
    args=$(fill "$tpl" "$ref" "$(val "$type" i "$sid")")
    unfilled "$args" && continue
    local rlabel="raw state of ${A_TKEY[$sid]} (no final, no INITCOND)"
    add "$rlabel | CREATE AGGREGATE" any "$(create_agg "$r" "${A_ARGS[$sid]}" "$stype" "${A_TFN[$sid]}" - - "${A_CFN[$sid]}")"
    local big=$ROWS bytes=${V_BYTES[$ref]:-1000}
    [ "$bytes" -gt 0 ] || bytes=1
    [[ $tpl == *"{s}"* ]] && big=$(clamp $((30000000 / bytes)) 200 "$ROWS")
    for n in 3 "$big"; do
      local q="(SELECT $r($args) AS s FROM d.rows WHERE i <= $n) q"
      add "$rlabel over $n rows | output, ::bytea, ::bytea::$type" any \
        "SELECT md5(q.s::text), length(q.s::bytea), md5(q.s::bytea::$stype::text) FROM $q;"
      if [ "${HAS_INFO[$type]:-}" = t ]; then
        add "$rlabel over $n rows | ${type}_info" any "SELECT ${type}_info(q.s) FROM $q;"
      fi
      if [ "${HAS_SCALE[$type]:-}" = t ]; then
        add "$rlabel over $n rows | ${type}_scale(raw, 0.5), (raw, 1)" any \
          "SELECT md5(${type}_scale(q.s, 0.5)::text), md5(${type}_scale(q.s, 1)::text) FROM $q;"
      fi
      local fn fargs
      while IFS='|' read -r fn fargs; do
        add "$rlabel over $n rows | ${fn#*.}(${fargs//S/raw})" any \
          "SELECT count(md5(x::text)) FROM $q, LATERAL $fn(${fargs//S/q.s}) x;"
      done <<<"${SCALARS[$type]}"
      declare -A seen=()
      for ((sid2 = 0; sid2 < nagg; sid2++)); do
        [ "${A_TYPE[$sid2]}" = "$type" ] || continue
        local tfn=${A_TFN[$sid2]} tkey=${A_TKEY[$sid2]}
        # one overload per C function (the one with the most arguments)
        [ "${PRIMARY[$sid2]:-0}" = 1 ] || continue
        [ -z "${seen[$tkey]:-}" ] || continue
        seen[$tkey]=1
        local targs
        targs=$(fill_literal "${TEMPLATE[${A_NKEY[$sid2]}]:-}" "$ref" 5)
        unfilled "$targs" && continue
        add "$rlabel over $n rows | as state of $tkey" any "SELECT md5($tfn(q.s, $targs)::text) FROM $q;"
        local c=${A_CFN[$sid2]} f=${A_FFN[$sid2]}
        if [ "$c" != - ] && [ -z "${seen[c$c]:-}" ]; then
          seen[c$c]=1
          add "$rlabel over $n rows | ${A_CKEY[$sid2]}(raw, raw)" any "SELECT md5($c(q.s, q.s)::text) FROM $q;"
          add "$rlabel over $n rows | ${A_CKEY[$sid2]}(raw, every stored) and (every stored, raw)" any \
            "SELECT count(md5($c(q.s, x.v)::text)) + count(md5($c(x.v, q.s)::text)) FROM $q, d.v_$type x;"
        fi
        if [ "$f" != - ] && [ -z "${seen[f$f]:-}" ]; then
          seen[f$f]=1
          add "$rlabel over $n rows | ${A_FKEY[$sid2]}(raw)" any "SELECT md5($f(q.s)::text) FROM $q;"
        fi
      done
      unset seen
    done
    # Raw states stored in a table, read back, unioned by the extension's
    # own union aggregates and as the input of a hostile one.
    local tab="$schema.rawtab_${sid}"
    add "$rlabel | CREATE TABLE of raw states (GROUP BY, parallel)" any \
      "${PARALLEL}CREATE TABLE $tab AS SELECT g, $r($args) AS s FROM d.rows WHERE i <= $big GROUP BY g;"
    add "$rlabel | raw states read back from a table: output" any "SELECT count(md5(s::text)) FROM $tab;"
    for ((sid2 = 0; sid2 < n_ext_aggs; sid2++)); do
      [ "${A_TYPE[$sid2]}" = "$type" ] && [ "${A_ARGS[$sid2]}" = "$stype" ] || continue
      add "$rlabel | raw states from a table into ${A_KEY[$sid2]}, serial and parallel" any \
        "${SERIAL}SELECT md5(${A_NAME[$sid2]}(s)::text) FROM $tab; ${PARALLEL}SELECT md5(${A_NAME[$sid2]}(s)::text) FROM $tab;"
      add "$rlabel | raw states from a query into ${A_KEY[$sid2]} as a window" any \
        "${SERIAL}SELECT count(md5(x::text)) FROM (SELECT ${A_NAME[$sid2]}(s) OVER (ORDER BY g) AS x FROM (SELECT g, $r($args) AS s FROM d.rows WHERE i <= $((big < 2000 ? big : 2000)) GROUP BY g) q) w;"
    done
  done
  run_batch
}


# The hostile role's use of the extension's own aggregates: must work,
# serial and parallel give the same answer, and the plan is parallel.
own_batch() {  # role type
  local role=$1 type=$2 sid
  local ref=${REF[$type]}
  local schema=m; [ "$role" = superuser ] && schema=su
  local same=${SAME[$type]:-"{a}::text = {b}::text"} pat
  pat="{a}"; same=${same//"$pat"/s.r}
  pat="{b}"; same=${same//"$pat"/p.r}
  local tw="$schema.own_twins_$type" ntw=0 stype=""
  # One-step aggregates (a result other than the state): their typed twins
  # in a table of their own result type, compared by SAME_RESULT.
  local tw1="$schema.own_twins_one_step_$type" ntw1=0 rtype1="" same1=""
  for ((sid = 0; sid < n_ext_aggs; sid++)); do
    [ "${A_TYPE[$sid]}" = "$type" ] && [ -z "$stype" ] && stype=${A_STYPE[$sid]}
    if [ "${A_TYPE[$sid]}" = "$type" ] && [ "${A_TWIN[$sid]}" = 1 ] && [ "${A_RTYPE[$sid]}" != "${A_STYPE[$sid]}" ]; then
      rtype1=${A_RTYPE[$sid]} same1=${SAME_RESULT[${A_NAME[$sid]##*.}]:-}
    fi
  done
  pat="{a}"; same1=${same1//"$pat"/s.r}
  pat="{b}"; same1=${same1//"$pat"/p.r}
  begin_batch "$role"
  add "own aggregates of $type | table for the typed twins" ok "CREATE TABLE $tw (k text, mode text, r $stype);"
  [ -n "$rtype1" ] && add "own aggregates of $type | table for the one-step typed twins" ok "CREATE TABLE $tw1 (k text, mode text, r $rtype1);"
  for ((sid = 0; sid < n_ext_aggs; sid++)); do
    [ "${A_TYPE[$sid]}" = "$type" ] || continue
    local tpl=${TEMPLATE[${A_NKEY[$sid]}]:-}
    [ -n "$tpl" ] || continue
    local v
    v=$(val "$type" own "$sid")
    [ "${A_TWIN[$sid]}" = 1 ] && v=${VALUE[${A_VTYPE[$sid]}]:-NULL}
    local args
    args=$(fill "$tpl" "$ref" "$v")
    unfilled "$args" && continue
    local rows=$ROWS bytes=${V_BYTES[$ref]:-1000}
    [ "$bytes" -gt 0 ] || bytes=1
    [[ $tpl == *"{s}"* ]] && rows=$(clamp $((30000000 / bytes)) 200 "$ROWS")
    local agg=${A_NAME[$sid]} label="own aggregate ${A_KEY[$sid]}"
    local refused=${REFUSED["${A_NKEY[$sid]}|own"]:-}
    [ "${A_TWIN[$sid]}" = 1 ] && refused=${REFUSED["${A_NKEY[$sid]}|${A_VTYPE[$sid]}"]:-}
    if [ -n "$refused" ]; then
      add "$label | refuses its value type, serial" "$refused" "${SERIAL}SELECT $agg($args) FROM d.rows WHERE i <= 10;"
      add "$label | refuses its value type, parallel" "$refused" "${PARALLEL}SELECT $agg($args) FROM d.rows WHERE i <= $TWIN_ROWS;"
      continue
    fi
    local one_step=0
    [ "${A_RTYPE[$sid]}" != "${A_STYPE[$sid]}" ] && one_step=1
    if [ "${A_TWIN[$sid]}" = 1 ]; then
      # typed twins: serial and parallel, compared below
      local src="d.rows WHERE i <= $TWIN_ROWS" into=$tw
      [ $one_step = 1 ] && into=$tw1
      add "$label | serial, $TWIN_ROWS rows" ok "${SERIAL}INSERT INTO $into SELECT '${A_KEY[$sid]}', 'serial', $agg($args) FROM $src;"
      add "$label | parallel, $TWIN_ROWS rows" ok "${PARALLEL}CREATE TABLE ${tw}_p$sid AS SELECT '${A_KEY[$sid]}'::text AS k, 'parallel'::text AS mode, $agg($args) AS r FROM $src; INSERT INTO $into SELECT * FROM ${tw}_p$sid;"
      if [ $one_step = 1 ]; then ntw1=$((ntw1 + 1)); else ntw=$((ntw + 1)); fi
      continue
    fi
    local same_here=$same
    if [ $one_step = 1 ]; then
      same_here=${SAME_RESULT[${agg##*.}]:-}
      if [ -z "$same_here" ]; then
        record FAIL "setup | aggregate ${A_KEY[$sid]} returns ${A_RTYPE[$sid]}, not its state: no SAME_RESULT_ANSWER in hostile_role.sh" - "add it"
        continue
      fi
      pat="{a}"; same_here=${same_here//"$pat"/s.r}
      pat="{b}"; same_here=${same_here//"$pat"/p.r}
    fi
    local src="d.rows WHERE i <= $rows" t="$schema.own_$sid"
    add "$label | serial, $rows rows" ok "${SERIAL}CREATE TABLE $t AS SELECT 'all'::text AS k, 'serial'::text AS mode, $agg($args) AS r FROM $src;"
    add "$label | parallel, $rows rows" ok "${PARALLEL}CREATE TABLE ${t}_p AS SELECT 'all'::text AS k, 'parallel'::text AS mode, $agg($args) AS r FROM $src; INSERT INTO $t SELECT * FROM ${t}_p;"
    add "$label | GROUP BY, serial" ok "${SERIAL}INSERT INTO $t SELECT g::text, 'serial', $agg($args) FROM $src GROUP BY g;"
    add "$label | GROUP BY, parallel" ok "${PARALLEL}CREATE TABLE ${t}_pg AS SELECT g::text AS k, 'parallel'::text AS mode, $agg($args) AS r FROM $src GROUP BY g; INSERT INTO $t SELECT * FROM ${t}_pg;"
    add "$label | parallel plan" ok \
      "${PARALLEL}DO \$do\$ DECLARE l text; plan text := ''; BEGIN FOR l IN EXECUTE \$q\$EXPLAIN (COSTS OFF) SELECT $agg($args) FROM $src\$q\$ LOOP plan := plan || l || ' '; END LOOP; IF plan NOT LIKE '%Partial Aggregate%' OR plan NOT LIKE '%Gather%' THEN RAISE EXCEPTION 'no parallel plan: %', plan; END IF; END \$do\$;"
    add "$label | parallel answer = serial answer (all and per group), none NULL" ok \
      "DO \$do\$ DECLARE bad text; BEGIN SELECT string_agg(s.k, ', ') INTO bad FROM $t s LEFT JOIN $t p ON p.k = s.k AND p.mode = 'parallel' WHERE s.mode = 'serial' AND (s.r IS NULL OR p.r IS NULL OR NOT ($same_here)); IF bad IS NOT NULL OR (SELECT count(*) FROM $t) <> 16 THEN RAISE EXCEPTION 'serial and parallel differ for: %', coalesce(bad, 'row count'); END IF; END \$do\$;"
    add "$label | running window, 1000 rows" ok \
      "${SERIAL}SELECT count(x) FROM (SELECT $agg($args) OVER (ORDER BY i) AS x FROM d.rows WHERE i <= 1000) q;"
  done
  if [ $ntw1 -gt 0 ]; then
    add "own aggregates of $type, $ntw1 one-step typed twins | parallel answer = serial answer, none NULL" ok \
      "DO \$do\$ DECLARE bad text; BEGIN SELECT string_agg(s.k, ', ') INTO bad FROM $tw1 s LEFT JOIN $tw1 p ON p.k = s.k AND p.mode = 'parallel' WHERE s.mode = 'serial' AND (s.r IS NULL OR p.r IS NULL OR NOT ($same1)); IF bad IS NOT NULL OR (SELECT count(*) FROM $tw1) <> 2 * $ntw1 THEN RAISE EXCEPTION 'serial and parallel differ for: %', coalesce(bad, 'row count'); END IF; END \$do\$;"
  fi
  if [ $ntw -gt 0 ]; then
    add "own aggregates of $type, $ntw typed twins | parallel answer = serial answer, none NULL" ok \
      "DO \$do\$ DECLARE bad text; BEGIN SELECT string_agg(s.k, ', ') INTO bad FROM $tw s LEFT JOIN $tw p ON p.k = s.k AND p.mode = 'parallel' WHERE s.mode = 'serial' AND (s.r IS NULL OR p.r IS NULL OR NOT ($same)); IF bad IS NOT NULL OR (SELECT count(*) FROM $tw) <> 2 * $ntw THEN RAISE EXCEPTION 'serial and parallel differ for: %', coalesce(bad, 'row count'); END IF; END \$do\$;"
  fi
  run_batch
}

# Raw-state texts (the output of aggregates without final function) as
# INITCOND values: the first one per type that is not byte-identical to a
# stored value becomes one more (the others are the same bytes, so the
# server could not tell them apart).
capture_raw_texts() {
  local sid n type
  begin_batch superuser
  for ((sid = 0; sid < n_ext_aggs; sid++)); do
    [ "${PRIMARY[$sid]:-0}" = 1 ] || continue
    type=${A_TYPE[$sid]}
    local tpl=${TEMPLATE[${A_NKEY[$sid]}]:-} ref=${REF[$type]:-}
    [ -n "$tpl" ] && [ -n "$ref" ] || continue
    local args
    args=$(fill "$tpl" "$ref" "$(val "$type" i "$sid")")
    unfilled "$args" && continue
    add "raw text of ${A_KEY[$sid]} | CREATE AGGREGATE" any \
      "$(create_agg "su.rawtext_$sid" "${A_ARGS[$sid]}" "${A_STYPE[$sid]}" "${A_TFN[$sid]}" - - "${A_CFN[$sid]}")"
    local big=$ROWS bytes=${V_BYTES[$ref]:-1000}
    [ "$bytes" -gt 0 ] || bytes=1
    [[ $tpl == *"{s}"* ]] && big=$(clamp $((30000000 / bytes)) 200 "$ROWS")
    for n in "$big" 3; do
      local kind="raw_text_of_${A_NAME[$sid]##*.}_${n}rows"
      add "raw text of ${A_KEY[$sid]} over $n rows | output kept as INITCOND" any \
        "${SERIAL}INSERT INTO d.stored (type, kind, txt, facts, bytes) SELECT '$type', '$kind', x, (SELECT facts FROM d.stored WHERE id = $ref), octet_length(x) / 2 FROM (SELECT su.rawtext_$sid($args)::text AS x FROM d.rows WHERE i <= $n) q WHERE x IS NOT NULL AND NOT EXISTS (SELECT FROM d.stored s WHERE s.type = '$type' AND (s.txt = q.x OR s.kind LIKE 'raw_text_of_%'));"
    done
  done
  flush_batch  # the rows it inserts are read right below
  local t
  for t in "${!T_SEEN[@]}"; do
    [ -n "${REF[$t]:-}" ] || continue  # no stored values: a setup failure, recorded
    su_psql -c "INSERT INTO d.v_$t SELECT id, txt::$ext_schema.$t FROM d.stored s
                WHERE type = '$t' AND NOT EXISTS (SELECT FROM d.v_$t v WHERE v.id = s.id)" >/dev/null
  done
}

# ---------------------------------------------------------------------------
# The run.

ckpt0=$(checkpointer)
start0=$(su_psql -At -c "SELECT pg_postmaster_start_time()")
echo "hostile_role: $nagg aggregate signatures from the catalog ($n_ext_aggs in the extension), ${#VIDS[@]} stored values, $ROWS rows"

capture_raw_texts
before=${#VIDS[@]}
load_values
raw_new=$((${#VIDS[@]} - before))
echo "hostile_role: raw-state texts: $raw_new new INITCOND values (the others are byte-identical to stored values)"
su_psql -c "GRANT SELECT ON ALL TABLES IN SCHEMA d TO $ROLE" >/dev/null
# Families without stored values are setup failures (recorded above), not
# run: their values, tables and references do not exist.
types=$(for t in "${!T_SEEN[@]}"; do [ -n "${REF[$t]:-}" ] && printf '%s\n' "$t"; done | sort)

for role in $ROLES; do
  echo "hostile_role: running as $role"
  if [ "$role" = hostile ]; then
    begin_batch hostile
    add "privileges | CREATE TABLE in public refused" 42501 "CREATE TABLE public.hostile_probe (x int);"
    add "privileges | CREATE TEMP TABLE refused" 42501 "CREATE TEMP TABLE hostile_probe (x int);"
    add "privileges | CREATE SCHEMA refused" 42501 "CREATE SCHEMA hostile_probe;"
    add "privileges | CREATE TABLE in its own schema works" ok "CREATE TABLE m.hostile_probe (x int);"
    add "privileges | not a superuser" ok "DO \$do\$ BEGIN IF (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN RAISE EXCEPTION 'superuser'; END IF; END \$do\$;"
    run_batch
  fi
  for type in $types; do
    own_batch "$role" "$type"
  done
  for ((sid = 0; sid < nagg; sid++)); do
    [ "${A_TWIN[$sid]}" = 0 ] || continue
    for vid in "${VIDS[@]}"; do
      [ "${V_TYPE[$vid]}" = "${A_TYPE[$sid]}" ] || continue
      matrix_batch "$role" "$sid" "$vid"
    done
  done
  for type in $types; do
    twin_batch "$role" "$type"
    direct_batch "$role" "$type"
    raw_batch "$role" "$type"
  done
  flush_batch
done

# After the run: the server is the same server, the stored values unchanged.
if wait_server; then
  record PASS "after | server accepts connections" 00000 ""
  start1=$(su_psql -At -c "SELECT pg_postmaster_start_time()")
  if [ "$start1" = "$start0" ]; then
    record PASS "after | pg_postmaster_start_time() unchanged ($start0)" 00000 ""
  else
    record FAIL "after | pg_postmaster_start_time() changed: $start0 -> $start1" - ""
  fi
  ckpt1=$(checkpointer)
  if [ "$ckpt1" = "$ckpt0" ]; then
    record PASS "after | no crash restart (same checkpointer, pid $ckpt0)" 00000 ""
  else
    record FAIL "after | crash restart(s): checkpointer pid $ckpt0 -> $ckpt1 ($crashes crashes seen)" - ""
  fi
  for type in $types; do
    changed=$(su_psql -At -c "SELECT count(*) FROM d.v_$type x JOIN d.stored s USING (id) WHERE x.v::text IS DISTINCT FROM s.txt")
    if [ "$changed" = 0 ]; then
      record PASS "after | stored $type values read by direct calls unchanged" 00000 ""
    else
      record FAIL "after | $changed stored $type values changed by the direct calls" - ""
    fi
  done
else
  record FAIL "after | server down" - ""
fi

# ---------------------------------------------------------------------------
# Report.

passed=$(awk -F'\t' '$1 == "PASS"' "$results" | wc -l)
failed=$(awk -F'\t' '$1 == "FAIL"' "$results" | wc -l)
if [ "$failed" -gt 0 ]; then
  echo "---- failures"
  awk -F'\t' '$1 == "FAIL" { m = $4; if (length(m) > 300) m = substr(m, 1, 300) "..."; print "FAIL [" $3 "] " $2 (m == "" ? "" : "\n       " m) }' "$results"
fi
echo "---- outcomes by role and SQLSTATE (00000 = success)"
awk -F'\t' '{ split($2, p, " \\| "); print p[1] "\t" $1 "\t" $3 }' "$results" | sort | uniq -c |
  awk '{ printf "  %-10s %-5s %-8s %6d\n", $2, $3, $4, $1 }'
echo "---- the most frequent errors (first line of the message)"
awk -F'\t' '$3 != "00000" && $3 != "-" { m = $4; sub(/ \/ .*/, "", m); gsub(/[0-9]+/, "N", m); c[$3 " " substr(m, 1, 110)]++ }
  END { for (k in c) printf "  %6d  %s\n", c[k], k }' "$results" | sort -rn | awk 'NR <= 12'
echo "---- crashes per case (function + INITCOND value): crashed, skipped after $CRASH_CAP crashes"
awk -F'\t' '$3 == "CRASH" || $3 == "SKIPPED" {
    l = $2; i = index(l, " | INITCOND ")
    if (i > 0) { r = substr(l, i + 12); j = index(r, " | "); k = substr(l, 1, i + 11) (j > 0 ? substr(r, 1, j - 1) : r) }
    else { n = split(l, p, " \\| "); k = p[1] " | " p[2] }
    if ($3 == "CRASH") c[k]++; else sk[k]++; seen[k] = 1 }
  END { for (k in seen) printf "  %3d %3d  %s\n", c[k], sk[k], k }' "$results" | sort -k3
echo "hostile_role: $crashes server crashes, $(($(date +%s) - started_at)) s"
echo "hostile_role: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
