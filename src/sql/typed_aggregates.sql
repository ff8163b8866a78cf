
-- Aggregates with declared element types -------------------------------------

-- Every aggregate above that takes a value as anyelement gets twins whose
-- value argument is a declared type, each over a twin of its transition
-- function (the same C function). Why: a distributed engine such as Citus
-- splits an aggregate into partial aggregates on the shards only when the
-- argument types equal the aggregate's declared types, and calls the
-- transition function without a call expression, so the value's type must
-- be readable from the function's declaration (docs/distributed.md). On one
-- node the twins behave exactly like the anyelement aggregate: PostgreSQL
-- picks the twin of the argument's type, and the element hasher sees
-- through implicit coercions (a varchar or citext passed to the text twin
-- is still hashed as what it is). Types without a twin use the anyelement
-- aggregate. The twins carry the aggregate's argument names (\df and
-- pg_get_function_arguments show value text, p integer, as documented).
-- Generated from the catalog, so a new family's aggregates get their twins
-- without editing this block.
--
-- This piece ends every upgrade script too (the Makefile's UPGRADE_TAIL), so
-- it must run on a database that already has some or all of the twins: a
-- twin aggregate or transition function is created only when the extension
-- has no member of its signature yet. A same-named object that is not the
-- extension's own is not skipped: CREATE then fails ("already exists")
-- instead of adopting it, or building an aggregate over it.
-- test/hardening/upgrade.sh runs the tail a second time and checks that
-- nothing changes.
DO $typed$
DECLARE
  -- The extension's functions: a twin is created only when none of them has
  -- its signature yet, and is one from then on.
  members oid[] := ARRAY(SELECT objid FROM pg_catalog.pg_depend
                         WHERE refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass
                           AND refobjid = (SELECT oid FROM pg_catalog.pg_extension WHERE extname = 'sketch')
                           AND classid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND deptype = 'e');
  element_types CONSTANT regtype[] := ARRAY[
    'smallint', 'integer', 'bigint', 'numeric', 'real', 'double precision', 'text',
    'bytea', 'uuid', 'date', 'timestamp', 'timestamptz', 'boolean']::regtype[];
  agg record;
  element regtype;
  agg_args text;
  agg_sig text;
  agg_decl text;
  trans_args text;
  trans_name text;
BEGIN
  FOR agg IN
    SELECT p.oid AS aggfn, p.proname, p.proargtypes::oid[] AS argtypes, p.proargnames,
           t.oid AS transfn, t.proname AS trans_name, t.prosrc, t.probin, t.provolatile,
           t.proisstrict, t.proargtypes::oid[] AS trans_argtypes,
           a.aggtranstype::regtype AS stype, a.aggtransspace, a.aggfinalmodify,
           (SELECT s.typname FROM pg_catalog.pg_type s WHERE s.oid = a.aggtranstype) AS stype_name,
           (SELECT f.proname FROM pg_catalog.pg_proc f WHERE f.oid = a.aggfinalfn) AS finalfn,
           (SELECT c.proname FROM pg_catalog.pg_proc c WHERE c.oid = a.aggcombinefn) AS combinefn,
           pg_catalog.obj_description(p.oid, 'pg_proc') AS agg_comment,
           pg_catalog.obj_description(t.oid, 'pg_proc') AS trans_comment
    FROM pg_catalog.pg_aggregate a
    JOIN pg_catalog.pg_proc p ON p.oid = a.aggfnoid
    JOIN pg_catalog.pg_proc t ON t.oid = a.aggtransfn
    WHERE p.pronamespace = '@extschema@'::regnamespace
      AND 'anyelement'::regtype = ANY (p.proargtypes::oid[]) AND p.oid = ANY (members)
    ORDER BY p.oid
  LOOP
    FOREACH element IN ARRAY element_types LOOP
      SELECT pg_catalog.string_agg(CASE WHEN x = 'anyelement'::regtype THEN element ELSE x::regtype END::text,
                                   ', ' ORDER BY i)
        INTO agg_args FROM unnest(agg.argtypes) WITH ORDINALITY AS u(x, i);
      SELECT pg_catalog.string_agg(
               pg_catalog.concat_ws(' ', pg_catalog.quote_ident(nullif(agg.proargnames[i], '')),
                                    CASE WHEN x = 'anyelement'::regtype THEN element
                                         ELSE x::regtype END::text), ', ' ORDER BY i)
        INTO agg_decl FROM unnest(agg.argtypes) WITH ORDINALITY AS u(x, i);
      SELECT pg_catalog.string_agg(CASE WHEN x = 'anyelement'::regtype THEN element ELSE x::regtype END::text,
                                   ', ' ORDER BY i)
        INTO trans_args FROM unnest(agg.trans_argtypes) WITH ORDINALITY AS u(x, i);
      trans_name := pg_catalog.format('@extschema@.%I(%s)', agg.trans_name, trans_args);
      IF NOT coalesce(pg_catalog.to_regprocedure(trans_name)::pg_catalog.oid = ANY (members), false) THEN
        EXECUTE pg_catalog.format(
          'CREATE FUNCTION @extschema@.%I(%s) RETURNS %s AS %L, %L LANGUAGE C %s %s PARALLEL SAFE',
          agg.trans_name, trans_args, agg.stype, agg.probin, agg.prosrc,
          CASE agg.provolatile WHEN 'i' THEN 'IMMUTABLE' WHEN 's' THEN 'STABLE' ELSE 'VOLATILE' END,
          CASE WHEN agg.proisstrict THEN 'STRICT' ELSE 'CALLED ON NULL INPUT' END);
        members := members || pg_catalog.to_regprocedure(trans_name)::pg_catalog.oid;
      END IF;
      -- Comments follow the originals', also for twins that exist already.
      EXECUTE pg_catalog.format('COMMENT ON FUNCTION %s IS %L', trans_name,
        agg.trans_comment || ' (for ' || element || ' values)');
      agg_sig := pg_catalog.format('@extschema@.%I(%s)', agg.proname, agg_args);
      IF NOT coalesce(pg_catalog.to_regprocedure(agg_sig)::pg_catalog.oid = ANY (members), false) THEN
        EXECUTE pg_catalog.format(
          'CREATE AGGREGATE @extschema@.%I(%s) (SFUNC = @extschema@.%I, STYPE = @extschema@.%I, '
          'SSPACE = %s, FINALFUNC = @extschema@.%I, FINALFUNC_MODIFY = %s, '
          'COMBINEFUNC = @extschema@.%I, PARALLEL = SAFE)',
          agg.proname, agg_decl, agg.trans_name, agg.stype_name, agg.aggtransspace, agg.finalfn,
          CASE agg.aggfinalmodify WHEN 'r' THEN 'READ_ONLY' WHEN 's' THEN 'SHAREABLE' ELSE 'READ_WRITE' END,
          agg.combinefn);
        members := members || pg_catalog.to_regprocedure(agg_sig)::pg_catalog.oid;
      END IF;
      EXECUTE pg_catalog.format('COMMENT ON AGGREGATE @extschema@.%I(%s) IS %L', agg.proname, agg_args,
        agg.agg_comment || ' (' || element || ' values: a declared type lets distributed engines '
        'split it into partial aggregates)');
    END LOOP;
  END LOOP;
END
$typed$;
