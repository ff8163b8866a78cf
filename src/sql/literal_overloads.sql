
-- Literal twins of the functions that take a value --------------------------

-- A quoted literal has type unknown, which a polymorphic anyelement argument
-- cannot resolve ("could not determine polymorphic type"), so
-- bloom_contains(f, 'x'), hll_add(h, 'x') or sketch_hash('x') would fail.
-- Each function that takes a value as anyelement (and returns a fixed type,
-- or a record of OUT parameters of fixed types)
-- gets a twin taking the pseudo-type unknown, over the same C function: a
-- literal matches it exactly and is hashed as text. Not a text twin: citext
-- and other types with an implicit cast to text would then resolve to it,
-- and a constant's cast is folded away before the function sees it, so
-- 'Alice'::citext would be hashed as case-sensitive text. Generated from the
-- catalog, so a new family's functions get twins too. (Operators cannot
-- have such twins: PostgreSQL resolves an unknown operand as the other
-- operand's type. Write f @> 'x'::text.)
--
-- This piece ends every upgrade script too (the Makefile's UPGRADE_TAIL), so
-- it must run on a database that already has some or all of its twins: each
-- twin is created only when the extension has no member of its signature
-- yet, and its comment is (re)set from its original's either way. A same-named function that is not the extension's own is not
-- skipped: CREATE then fails ("already exists") instead of adopting it.
-- test/hardening/upgrade.sh runs the tail a second time and checks that
-- nothing changes.
DO $literal$
DECLARE
  fn record;
  twin_args text;
  twin_sig text;
BEGIN
  FOR fn IN
    SELECT p.oid, p.proname, p.proargtypes::oid[] AS argtypes, p.proargnames, p.prorettype,
           coalesce(p.proallargtypes, p.proargtypes::oid[]) AS allargtypes, p.proargmodes,
           p.prosrc, p.probin, p.provolatile, p.proisstrict,
           pg_catalog.obj_description(p.oid, 'pg_proc') AS comment
    FROM pg_catalog.pg_proc p
    WHERE p.pronamespace = '@extschema@'::regnamespace AND p.prokind = 'f'
      AND 'anyelement'::regtype = ANY (p.proargtypes::oid[])
      AND EXISTS (SELECT 1 FROM pg_catalog.pg_depend d
                  JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid AND e.extname = 'sketch'
                  WHERE d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND d.objid = p.oid
                    AND d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass
                    AND d.deptype = 'e')
      AND p.prorettype <> 'anyelement'::regtype AND NOT p.proretset
      -- or a record of OUT parameters, none of them polymorphic
      AND (p.prorettype <> 'record'::regtype OR
           (p.proallargtypes IS NOT NULL AND
            (SELECT count(*) FROM unnest(p.proallargtypes) x WHERE x = 'anyelement'::regtype) =
            (SELECT count(*) FROM unnest(p.proargtypes::oid[]) x WHERE x = 'anyelement'::regtype)))
      AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_aggregate a
                      WHERE p.oid IN (a.aggtransfn, a.aggcombinefn, a.aggfinalfn))
    ORDER BY p.oid
  LOOP
    SELECT pg_catalog.string_agg(
             pg_catalog.concat_ws(' ', CASE WHEN fn.proargmodes[i] = 'o' THEN 'OUT' END,
                                  pg_catalog.quote_ident(nullif(fn.proargnames[i], '')),
                                  CASE WHEN x = 'anyelement'::regtype THEN 'unknown'
                                       ELSE x::regtype::text END), ', ' ORDER BY i)
      INTO twin_args FROM unnest(fn.allargtypes) WITH ORDINALITY AS u(x, i);
    SELECT pg_catalog.format('@extschema@.%I(%s)', fn.proname,
             pg_catalog.string_agg(CASE WHEN x = 'anyelement'::regtype THEN 'unknown'
                                        ELSE x::regtype::text END, ', ' ORDER BY i))
      INTO twin_sig FROM unnest(fn.argtypes) WITH ORDINALITY AS u(x, i);
    IF NOT EXISTS (
      SELECT 1 FROM pg_catalog.pg_depend d
      JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid AND e.extname = 'sketch'
      WHERE d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass
        AND d.objid = pg_catalog.to_regprocedure(twin_sig)::pg_catalog.oid
        AND d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass AND d.deptype = 'e') THEN
      EXECUTE pg_catalog.format(
        'CREATE FUNCTION @extschema@.%I(%s) RETURNS %s AS %L, %L LANGUAGE C %s %s PARALLEL SAFE',
        fn.proname, twin_args, fn.prorettype::regtype, fn.probin, fn.prosrc,
        CASE fn.provolatile WHEN 'i' THEN 'IMMUTABLE' WHEN 's' THEN 'STABLE' ELSE 'VOLATILE' END,
        CASE WHEN fn.proisstrict THEN 'STRICT' ELSE 'CALLED ON NULL INPUT' END);
    END IF;
    -- The twin's comment follows its original's, also when the twin exists
    -- already (an upgrade that changed the original's comment).
    EXECUTE pg_catalog.format('COMMENT ON FUNCTION @extschema@.%I(%s) IS %L', fn.proname, twin_args,
      fn.comment || ' (a quoted literal, hashed as text)');
  END LOOP;
END
$literal$;

-- cms_add(s, 'x', 3): with a literal value and an integer count, the twin
-- (cms, unknown, bigint) and (cms, anyelement, bigint) tie (an unknown
-- argument matches neither exactly, and both need integer -> bigint), so
-- PostgreSQL called the call ambiguous. A twin whose count is an integer
-- matches it exactly; 'x' with a bigint count still resolves to the bigint
-- twin. The same for topk_add(s, 'x', 3). Each is created only when the
-- extension has no such member yet, as above.
DO $integer_twins$
BEGIN
  IF NOT EXISTS (
      SELECT 1 FROM pg_catalog.pg_depend d
      JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid AND e.extname = 'sketch'
      WHERE d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass
        AND d.objid = pg_catalog.to_regprocedure(
              '@extschema@.cms_add(@extschema@.cms, pg_catalog.unknown, integer)')::pg_catalog.oid
        AND d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass AND d.deptype = 'e') THEN
    CREATE FUNCTION @extschema@.cms_add(sketch @extschema@.cms, value pg_catalog.unknown, count integer)
      RETURNS @extschema@.cms AS 'MODULE_PATHNAME', 'cms_add_int4_count'
      LANGUAGE C IMMUTABLE PARALLEL SAFE;
    COMMENT ON FUNCTION @extschema@.cms_add(@extschema@.cms, pg_catalog.unknown, integer) IS
      'The sketch with count more occurrences of the value; a NULL value or a NULL or zero count leaves it unchanged, a negative count is an error, a NULL sketch gives NULL (a quoted literal, hashed as text)';
  END IF;
  IF NOT EXISTS (
      SELECT 1 FROM pg_catalog.pg_depend d
      JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid AND e.extname = 'sketch'
      WHERE d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass
        AND d.objid = pg_catalog.to_regprocedure(
              '@extschema@.topk_add(@extschema@.topk, pg_catalog.unknown, integer)')::pg_catalog.oid
        AND d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass AND d.deptype = 'e') THEN
    CREATE FUNCTION @extschema@.topk_add(sketch @extschema@.topk, value pg_catalog.unknown, weight integer)
      RETURNS @extschema@.topk AS 'MODULE_PATHNAME', 'topk_add_int4_weight'
      LANGUAGE C IMMUTABLE PARALLEL SAFE;
    COMMENT ON FUNCTION @extschema@.topk_add(@extschema@.topk, pg_catalog.unknown, integer) IS
      'The summary with weight more occurrences of the item; a NULL item or a NULL or zero weight leaves it unchanged, a negative weight is an error, a NULL summary gives NULL (a quoted literal, hashed as text)';
  END IF;
END
$integer_twins$;
