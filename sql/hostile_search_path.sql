-- The extension under a hostile search_path. An attacker's schema comes first
-- in search_path (even before pg_catalog) and holds look-alikes of the
-- extension's functions and of the operators it uses, each of which records
-- any call. CREATE EXTENSION, the aggregates, operators and casts must still
-- use the extension's own objects: every internal reference in the script
-- is schema-qualified (test/hardening/check_extension_script.sh enforces it).
-- Runs in its own database so the regression database keeps its sketch.
\set regress_db :DBNAME
DROP DATABASE IF EXISTS sketch_hostile;
CREATE DATABASE sketch_hostile;
\c sketch_hostile

CREATE SCHEMA evil;
CREATE TABLE evil.calls (fn text);
-- Look-alikes with the names of the extension's functions, on types that
-- match anything (or text), as an attacker would plant them.
CREATE FUNCTION evil.hll_union_trans(anyelement, anyelement) RETURNS anyelement
  LANGUAGE plpgsql AS $$ BEGIN INSERT INTO evil.calls VALUES ('hll_union_trans'); RETURN $1; END $$;
CREATE FUNCTION evil.hll_agg_trans(anyelement, anyelement) RETURNS anyelement
  LANGUAGE plpgsql AS $$ BEGIN INSERT INTO evil.calls VALUES ('hll_agg_trans'); RETURN $1; END $$;
CREATE FUNCTION evil.hll_final(anyelement) RETURNS anyelement
  LANGUAGE plpgsql AS $$ BEGIN INSERT INTO evil.calls VALUES ('hll_final'); RETURN $1; END $$;
CREATE FUNCTION evil.hll_union(anyelement, anyelement) RETURNS anyelement
  LANGUAGE plpgsql AS $$ BEGIN INSERT INTO evil.calls VALUES ('hll_union'); RETURN $1; END $$;
CREATE FUNCTION evil.hll_cardinality(anyelement) RETURNS bigint
  LANGUAGE plpgsql AS $$ BEGIN INSERT INTO evil.calls VALUES ('hll_cardinality'); RETURN -1; END $$;
CREATE FUNCTION evil.hll_eq(anyelement, anyelement) RETURNS boolean
  LANGUAGE plpgsql AS $$ BEGIN INSERT INTO evil.calls VALUES ('hll_eq'); RETURN true; END $$;
CREATE FUNCTION evil.hll_from_bytea(anyelement) RETURNS anyelement
  LANGUAGE plpgsql AS $$ BEGIN INSERT INTO evil.calls VALUES ('hll_from_bytea'); RETURN $1; END $$;
CREATE FUNCTION evil.sketch_hash(varchar) RETURNS bigint
  LANGUAGE plpgsql AS $$ BEGIN INSERT INTO evil.calls VALUES ('sketch_hash'); RETURN 0; END $$;
CREATE FUNCTION evil.textcat(text, text) RETURNS text
  LANGUAGE plpgsql AS $$ BEGIN INSERT INTO evil.calls VALUES ('textcat'); RETURN $1; END $$;
CREATE FUNCTION evil.texteq(text, text) RETURNS boolean
  LANGUAGE plpgsql AS $$ BEGIN INSERT INTO evil.calls VALUES ('texteq'); RETURN true; END $$;
-- Look-alikes of the pg_catalog selectivity estimators that operators name
-- (RESTRICT / JOIN): an operator pointing at one of these would show up in
-- foreign_references() below.
CREATE FUNCTION evil.eqsel(internal, oid, internal, integer) RETURNS float8
  LANGUAGE internal STABLE STRICT AS 'eqsel';
CREATE FUNCTION evil.neqsel(internal, oid, internal, integer) RETURNS float8
  LANGUAGE internal STABLE STRICT AS 'neqsel';
CREATE FUNCTION evil.eqjoinsel(internal, oid, internal, smallint, internal) RETURNS float8
  LANGUAGE internal STABLE STRICT AS 'eqjoinsel';
CREATE FUNCTION evil.neqjoinsel(internal, oid, internal, smallint, internal) RETURNS float8
  LANGUAGE internal STABLE STRICT AS 'neqjoinsel';
CREATE OPERATOR evil.|| (LEFTARG = text, RIGHTARG = text, FUNCTION = evil.textcat);
CREATE OPERATOR evil.= (LEFTARG = text, RIGHTARG = text, FUNCTION = evil.texteq);

SET search_path = evil, pg_catalog, public;
-- The look-alike operators really are what unqualified SQL now gets.
SELECT 'a' || 'b' AS hijacked_concat, 'a' = 'b' AS hijacked_equal;
SELECT fn FROM evil.calls ORDER BY fn;
TRUNCATE evil.calls;

-- 1. Installed into the attacker's schema itself (the first in search_path
--    is CREATE EXTENSION's default target), next to the look-alikes.
CREATE EXTENSION sketch;

-- pg_temp.foreign_references(): the functions and types that the extension's
-- aggregates, operators, casts and types refer to and that are not its own
-- members (nor pg_catalog's). It must find nothing.
CREATE FUNCTION pg_temp.foreign_references() RETURNS TABLE (object text, refers_to text)
LANGUAGE sql AS $$
  WITH members AS (
    SELECT objid FROM pg_depend
    WHERE refclassid = 'pg_extension'::regclass AND deptype = 'e'
      AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'sketch')
  ), refs(object, ref) AS (
    SELECT aggfnoid::regprocedure::text, r
    FROM pg_aggregate, unnest(ARRAY[aggtransfn, aggfinalfn, aggcombinefn, aggserialfn,
                                    aggdeserialfn, aggmtransfn, aggminvtransfn, aggmfinalfn]) r
    WHERE aggfnoid IN (SELECT objid FROM members) AND r <> 0
    UNION ALL
    SELECT oid::regoperator::text, r
    FROM pg_operator, unnest(ARRAY[oprcode, oprrest, oprjoin]) r
    WHERE oid IN (SELECT objid FROM members) AND r <> 0
    UNION ALL
    SELECT format('cast %s -> %s', castsource::regtype, casttarget::regtype), castfunc
    FROM pg_cast WHERE oid IN (SELECT objid FROM members) AND castfunc <> 0
    UNION ALL
    SELECT oid::regtype::text, r
    FROM pg_type, unnest(ARRAY[typinput, typoutput, typreceive, typsend, typmodin, typmodout,
                               typanalyze]) r
    WHERE oid IN (SELECT objid FROM members) AND r <> 0
  )
  SELECT object, ref::regprocedure::text FROM refs
  WHERE ref NOT IN (SELECT objid FROM members)
    AND (SELECT pronamespace FROM pg_proc WHERE oid = ref) <> 'pg_catalog'::regnamespace
$$;

SELECT * FROM pg_temp.foreign_references();

-- Nothing the extension made is SECURITY DEFINER, and no function of it is
-- parsed at call time under the caller's search_path (a SQL or PL body
-- without SET search_path and not a BEGIN ATOMIC body).
SELECT count(*) FILTER (WHERE prosecdef) AS security_definer,
       count(*) FILTER (WHERE l.lanname NOT IN ('c', 'internal') AND proconfig IS NULL
                          AND prosqlbody IS NULL) AS bodies_parsed_at_call_time,
       count(*) > 0 AS checked
FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
WHERE p.oid IN (SELECT objid FROM pg_depend WHERE refclassid = 'pg_extension'::regclass
                  AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'sketch'));

-- The aggregates, operators and casts work and give the right answers, and
-- no look-alike was ever called.
CREATE TABLE evil.t AS
  SELECT g % 10 AS k, g AS v, hll_add(hll_empty(10), g) AS h FROM generate_series(1, 2000) g;
SELECT pg_catalog.count(*) AS groups,
       pg_catalog.sum(n) AS total,
       pg_catalog.bool_and(n = d) AS agg_exact
FROM (SELECT k, evil.hll_cardinality(evil.hll_agg(v)) AS n, pg_catalog.count(DISTINCT v) AS d
      FROM evil.t GROUP BY k) s;
SELECT evil.hll_cardinality(evil.hll_union(h)) AS union_all,
       evil.hll_cardinality(evil.hll_union(h) OPERATOR(evil.||) evil.hll_empty()) AS with_operator,
       evil.hll_union(h) OPERATOR(evil.=) evil.hll_agg(v, 10) AS equal_operator,
       (evil.hll_union(h)::bytea)::evil.hll OPERATOR(evil.=) evil.hll_union(h) AS bytea_casts
FROM evil.t;
SELECT * FROM evil.calls;
DROP EXTENSION sketch CASCADE;

-- 2. Installed into its own schema (with a name that needs quoting) while
--    the session's search_path is still hostile.
CREATE SCHEMA "sketch home";
CREATE EXTENSION sketch SCHEMA "sketch home";
SELECT * FROM pg_temp.foreign_references();
SELECT "sketch home".hll_cardinality("sketch home".hll_agg(v)) AS agg,
       "sketch home".hll_cardinality("sketch home".hll_union(h)) AS union_all
FROM (SELECT g AS v, "sketch home".hll_add("sketch home".hll_empty(), g) AS h
      FROM pg_catalog.generate_series(1, 500) g) s;
SELECT * FROM evil.calls;

-- 3. A type the extension would create already exists in the target schema:
--    CREATE EXTENSION refuses instead of adopting the attacker's object.
DROP EXTENSION sketch;
CREATE TYPE evil.hll AS (x int);
-- (terse: PostgreSQL 18 adds the script's line as CONTEXT, 15-17 do not)
\set VERBOSITY terse
CREATE EXTENSION sketch SCHEMA evil;
\set VERBOSITY default
SELECT count(*) AS installed FROM pg_extension WHERE extname = 'sketch';

RESET search_path;
\c :regress_db
DROP DATABASE sketch_hostile;
