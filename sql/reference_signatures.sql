-- The signatures the docs show are the catalog's, parameter names included
-- (issue 18: documented names that the catalog lacked made named-argument
-- calls fail with 42883). Every row of a table headed "signature" in
-- docs/reference.md and the per-type pages whose first cell is a call,
-- `name(arg type, ...)`, must name an existing function or aggregate (by name
-- and argument types), and pg_get_function_arguments must print exactly the
-- documented arguments: names, types, OUT modes and defaults. Optional
-- trailing arguments, `f(a t [, b u [, c v]])`, stand for one overload each.
-- Every mismatch is a row: the expected output has none. (pg_regress runs
-- psql in the source directory, so the pages are read from there.)
\set reference_page `cat docs/reference.md`
\set hll_page `cat docs/hll.md`
\set cms_page `cat docs/cms.md`
\set bloom_page `cat docs/bloom.md`
\set ddsketch_page `cat docs/ddsketch.md`
\set topk_page `cat docs/topk.md`
\set theta_page `cat docs/theta.md`
\set counting_bloom_page `cat docs/counting_bloom.md`
\set cuckoo_page `cat docs/cuckoo.md`
\set kll_page `cat docs/kll.md`
\set ell_page `cat docs/ell.md`

-- to_regtype raises on text that does not parse as a type ('sketch hll'):
-- NULL instead.
CREATE FUNCTION pg_temp.doc_type(decl text) RETURNS regtype LANGUAGE plpgsql AS $$
BEGIN
  RETURN to_regtype(decl);
EXCEPTION WHEN OTHERS THEN
  RETURN NULL;
END
$$;

-- The first cell of every row of the "signature" tables.
CREATE TEMP TABLE doc_signatures AS
WITH pages(page, doc) AS (
  VALUES ('reference.md', :'reference_page'), ('hll.md', :'hll_page'),
         ('cms.md', :'cms_page'), ('bloom.md', :'bloom_page'), ('ddsketch.md', :'ddsketch_page'),
         ('topk.md', :'topk_page'), ('theta.md', :'theta_page'),
         ('counting_bloom.md', :'counting_bloom_page'), ('cuckoo.md', :'cuckoo_page'), ('kll.md', :'kll_page'),
         ('ell.md', :'ell_page')),
lines AS (
  SELECT page, n, line, line ~ '^\|' AS in_table,
         line ~ '^\|' AND coalesce(lag(line) OVER (PARTITION BY page ORDER BY n), '') !~ '^\|' AS starts_table
  FROM pages, regexp_split_to_table(doc, '\n') WITH ORDINALITY AS l(line, n)),
numbered AS (
  SELECT *, sum(starts_table::int) OVER (PARTITION BY page ORDER BY n) AS table_no FROM lines),
headed AS (
  SELECT *, first_value(line) OVER (PARTITION BY page, table_no ORDER BY n) AS header FROM numbered)
SELECT page, n AS line_no, substring(line FROM '^\| `([^`]*)`') AS signature
FROM headed
WHERE in_table AND header ~ '^\| signature \|' AND line ~ '^\| `[a-z_][a-z0-9_]*\(';

-- One row per documented overload and argument.
CREATE TEMP TABLE doc_arguments AS
WITH overloads AS (
  -- An array type's [] is not an optional part: it is set aside as {}
  -- while the brackets are split, and put back.
  SELECT s.page, s.line_no, s.signature, m[1] AS name, v AS overload,
         replace(btrim(replace(array_to_string(parts[1:v], ''), ']', '')), '{}', '[]') AS args
  FROM doc_signatures s,
       regexp_match(replace(s.signature, '[]', '{}'), '^([a-z_][a-z0-9_]*)\((.*)\)$') AS m,
       string_to_array(m[2], '[') AS parts,
       generate_series(1, greatest(cardinality(parts), 1)) AS v),
split AS (
  SELECT o.*, a.i, btrim(a.arg) AS arg
  FROM overloads o, regexp_split_to_table(o.args, ',') WITH ORDINALITY AS a(arg, i)
  WHERE o.args <> ''),
parsed AS (
  SELECT *, substring(arg FROM '^(OUT|INOUT|VARIADIC) ') AS mode,
         substring(arg FROM ' DEFAULT (.*)$') AS default_value,
         regexp_replace(regexp_replace(arg, '^(OUT|INOUT|VARIADIC) ', ''), ' DEFAULT .*$', '') AS decl
  FROM split)
SELECT page, line_no, signature, name, overload, i, arg, mode, default_value,
       CASE WHEN pg_temp.doc_type(decl) IS NULL THEN substring(decl FROM '^(\S+) ') END AS arg_name,
       coalesce(pg_temp.doc_type(decl), pg_temp.doc_type(substring(decl FROM '^\S+ (.*)$'))) AS arg_type
FROM parsed;

-- What each documented overload says, and the function it names.
CREATE TEMP TABLE doc_overloads AS
SELECT page, line_no, signature, name, overload,
       string_agg(concat_ws(' ', mode, arg_name, coalesce(arg_type::text, '?' || arg),
                            'DEFAULT ' || default_value), ', ' ORDER BY i) AS documented,
       to_regprocedure(format('%I(%s)', name,
         coalesce(string_agg(coalesce(arg_type::text, '?'), ',' ORDER BY i)
                    FILTER (WHERE mode IS DISTINCT FROM 'OUT'), ''))) AS fn
FROM doc_arguments
GROUP BY page, line_no, signature, name, overload;

-- the pages were read: signatures found on each
SELECT page, count(*) > 0 AS signatures_found FROM doc_overloads GROUP BY page ORDER BY page;

-- documented signatures that are not the catalog's: none
SELECT page || ':' || line_no AS at, format('%s(%s)', name, documented) AS documented,
       coalesce(pg_get_function_arguments(fn), 'no such function') AS catalog
FROM doc_overloads
WHERE fn IS NULL OR pg_get_function_arguments(fn) IS DISTINCT FROM documented
ORDER BY page, line_no, overload;

-- The extension's functions and aggregates, less the support functions
-- (type I/O and typmod, aggregate transition, combine and final functions,
-- hash opclass support) and the catalog-driven twins (literal twins take
-- unknown; typed aggregate twins double an anyelement aggregate).
CREATE TEMP VIEW user_routines AS
SELECT p.oid, p.proname, p.prokind, p.proargtypes::oid[] AS argtypes, p.proargnames
FROM pg_depend d JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND p.oid = d.objid
WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'sketch')
  AND p.oid NOT IN (SELECT unnest(ARRAY[typinput, typoutput, typreceive, typsend, typmodin, typmodout])
                    FROM pg_type)
  AND p.oid NOT IN (SELECT unnest(ARRAY[aggtransfn, aggcombinefn, aggfinalfn]) FROM pg_aggregate)
  AND p.oid NOT IN (SELECT amproc FROM pg_amproc)
  AND NOT 'unknown'::regtype = ANY (p.proargtypes::oid[])
  AND NOT (p.prokind = 'a' AND NOT 'anyelement'::regtype = ANY (p.proargtypes::oid[])
           AND EXISTS (SELECT 1 FROM pg_proc o
                       WHERE o.proname = p.proname AND o.pronamespace = p.pronamespace
                         AND o.prokind = 'a' AND 'anyelement'::regtype = ANY (o.proargtypes::oid[])));

-- user-facing functions and aggregates without a signature in reference.md: none
SELECT r.oid::regprocedure AS missing_signature
FROM user_routines r
WHERE NOT EXISTS (SELECT 1 FROM doc_overloads o WHERE o.page = 'reference.md' AND o.fn = r.oid)
ORDER BY 1::text;

-- user-facing functions and aggregates with an unnamed parameter: none
SELECT r.oid::regprocedure AS unnamed_parameter, pg_get_function_arguments(r.oid) AS arguments
FROM user_routines r
WHERE r.proargnames IS NULL OR '' = ANY (r.proargnames)
ORDER BY 1::text;

-- The catalog-driven twins and the function or aggregate each doubles: a
-- literal twin takes unknown where the original takes anyelement, a typed
-- aggregate twin a declared type there.
CREATE TEMP VIEW twins AS
SELECT t.oid AS twin, o.oid AS original
FROM pg_depend d
JOIN pg_proc t ON d.classid = 'pg_proc'::regclass AND t.oid = d.objid
JOIN pg_proc o ON o.proname = t.proname AND o.pronamespace = t.pronamespace
              AND o.prokind = t.prokind AND o.pronargs = t.pronargs AND o.oid <> t.oid
              AND 'anyelement'::regtype = ANY (o.proargtypes::oid[])
WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
  AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'sketch')
  AND NOT 'anyelement'::regtype = ANY (t.proargtypes::oid[])
  AND (t.prokind = 'a' OR 'unknown'::regtype = ANY (t.proargtypes::oid[]))
  AND (SELECT bool_and(x = y OR (y = 'anyelement'::regtype
                                 AND (x = 'unknown'::regtype) = (t.prokind = 'f')))
       FROM unnest(o.proargtypes::oid[], t.proargtypes::oid[]) AS u(y, x));

-- there are twins of both kinds
SELECT p.prokind, count(*) > 0 AS found FROM twins JOIN pg_proc p ON p.oid = twin GROUP BY 1 ORDER BY 1;

-- twins without the parameter names of the function or aggregate they
-- double: none
SELECT twin::regprocedure, pg_get_function_arguments(twin) AS twin_arguments,
       pg_get_function_arguments(original) AS original_arguments
FROM twins JOIN pg_proc t ON t.oid = twin JOIN pg_proc o ON o.oid = original
WHERE t.proargnames IS DISTINCT FROM o.proargnames
ORDER BY 1::text;

-- Named arguments, in any order, including the literal twins
SELECT hll_cardinality(sketch => hll_empty()) AS empty,
       hll_cardinality(sketch => hll_add(value => 42, sketch => hll_empty(p => 10))) AS one,
       (SELECT lower FROM hll_cardinality_bounds(sketch => hll_add(hll_empty(), 'x'), confidence => 0.5)) AS lower,
       hll_intersect_cardinality(b => hll_add(hll_empty(), 1), a => hll_add(hll_empty(), 1)) AS overlap,
       sketch_hash(value => 42::bigint) = sketch_hash(value => 42::numeric) AS hash_equal,
       sketch_hash(value => 'x') = sketch_hash('x'::text) AS literal_hash;
SELECT cms_info(cms_empty(k => 20)) ->> 'k' AS k,
       cms_info(cms_empty_sized(depth => 3, width => 100)) ->> 'width' AS width,
       cms_frequency(value => 'x', sketch => cms_add(sketch => cms_empty(), value => 'x', count => 3::bigint)) AS frequency,
       cms_total(sketch => cms_union(a => NULL, b => cms_add(cms_empty(), 7::bigint))) AS total,
       cms_error_bound(sketch => cms_empty()) AS bound,
       (SELECT value FROM cms_topk(sketch => cms_add(cms_empty(), 7::bigint), n => 1, type_hint => NULL::bigint)) AS top;
SELECT bloom_contains(sketch => bloom_add(sketch => bloom_empty(n => 100, p => 0.01), value => 'x'),
                      value => 'x') AS contains_literal,
       bloom_contained(value => 1, sketch => NULL) AS null_filter,
       bloom_cardinality(sketch => bloom_empty_bits(bits => 64, hashes => 2)) AS cardinality,
       bloom_fpp(sketch => bloom_union(a => bloom_empty(10, 0.1), b => NULL)) AS fpp,
       (bloom_info(sketch => bloom_intersect(a => bloom_empty(10, 0.1), b => bloom_empty(10, 0.1))) ->> 'bits') AS bits,
       (SELECT hashes FROM bloom_sizing(p => 0.01, n => 1000)) AS hashes;
-- The names are the documented ones: another name is no such function.
SELECT hll_cardinality(h => hll_empty());
-- Aggregates carry the names too, but PostgreSQL takes only positional
-- arguments in aggregate calls.
SELECT hll_agg(value => 1);
