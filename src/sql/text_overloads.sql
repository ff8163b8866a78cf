
-- Text twins of the functions that take a value ------------------------------

-- A quoted literal has type unknown, which a polymorphic anyelement argument
-- cannot resolve ("could not determine polymorphic type"), so
-- bloom_contains(f, 'x'), hll_add(h, 'x') or sketch_hash('x') would fail.
-- Each function that takes a value as anyelement (and returns a fixed type)
-- gets a twin taking text, over the same C function: literals resolve to
-- it, and so do varchar and citext arguments, which the element hasher
-- still hashes as what they are (it looks through the implicit coercion).
-- Generated from the catalog, so a new family's functions get twins too.
DO $text$
DECLARE
  fn record;
  twin_args text;
BEGIN
  FOR fn IN
    SELECT p.oid, p.proname, p.proargtypes::oid[] AS argtypes, p.proargnames, p.prorettype,
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
      AND p.prorettype NOT IN ('anyelement'::regtype, 'record'::regtype)
      AND NOT EXISTS (SELECT 1 FROM pg_catalog.pg_aggregate a
                      WHERE p.oid IN (a.aggtransfn, a.aggcombinefn, a.aggfinalfn))
    ORDER BY p.oid
  LOOP
    SELECT pg_catalog.string_agg(
             pg_catalog.concat_ws(' ', pg_catalog.quote_ident(nullif(fn.proargnames[i], '')),
                                  CASE WHEN x = 'anyelement'::regtype THEN 'text'
                                       ELSE x::regtype::text END), ', ' ORDER BY i)
      INTO twin_args FROM unnest(fn.argtypes) WITH ORDINALITY AS u(x, i);
    EXECUTE pg_catalog.format(
      'CREATE FUNCTION @extschema@.%I(%s) RETURNS %s AS %L, %L LANGUAGE C %s %s PARALLEL SAFE',
      fn.proname, twin_args, fn.prorettype::regtype, fn.probin, fn.prosrc,
      CASE fn.provolatile WHEN 'i' THEN 'IMMUTABLE' WHEN 's' THEN 'STABLE' ELSE 'VOLATILE' END,
      CASE WHEN fn.proisstrict THEN 'STRICT' ELSE 'CALLED ON NULL INPUT' END);
    EXECUTE pg_catalog.format('COMMENT ON FUNCTION @extschema@.%I(%s) IS %L', fn.proname, twin_args,
      fn.comment || ' (text values and quoted literals)');
  END LOOP;
END
$text$;

CREATE OPERATOR @extschema@.@> (
  LEFTARG = @extschema@.bloom, RIGHTARG = text,
  FUNCTION = @extschema@.bloom_contains, COMMUTATOR = OPERATOR(@extschema@.<@),
  RESTRICT = pg_catalog.matchingsel, JOIN = pg_catalog.matchingjoinsel
);
COMMENT ON OPERATOR @extschema@.@> (@extschema@.bloom, text) IS
  'filter @> value: the filter may contain the text value or literal (bloom_contains)';
CREATE OPERATOR @extschema@.<@ (
  LEFTARG = text, RIGHTARG = @extschema@.bloom,
  FUNCTION = @extschema@.bloom_contained, COMMUTATOR = OPERATOR(@extschema@.@>),
  RESTRICT = pg_catalog.matchingsel, JOIN = pg_catalog.matchingjoinsel
);
COMMENT ON OPERATOR @extschema@.<@ (text, @extschema@.bloom) IS
  'value <@ filter: the text value or literal may be in the filter (bloom_contains)';
