
-- Privileges ----------------------------------------------------------------

-- Defence in depth (docs/hardening.md, "Aggregate states"): the transition,
-- combine and final functions of the extension's aggregates are support
-- functions, not for direct use. Every state they receive is checked by the
-- shared state mechanism whoever calls them; in addition, no role but the
-- extension's owner (and superusers) may call them or build its own
-- aggregates over them. The extension's aggregates keep working for every
-- role: PostgreSQL checks EXECUTE on an aggregate's support functions for
-- the aggregate's owner, not for the caller. Generic over the catalog, so an
-- aggregate added by a new family is covered without editing this file.
-- It ends every upgrade script too (the Makefile's UPGRADE_TAIL); REVOKE
-- is idempotent, so running it on an already revoked function changes
-- nothing.
DO $privileges$
DECLARE
  support regprocedure;
BEGIN
  FOR support IN
    SELECT DISTINCT p.oid::pg_catalog.regprocedure
    FROM pg_catalog.pg_aggregate a
    JOIN pg_catalog.pg_proc p ON p.oid IN (a.aggtransfn, a.aggcombinefn, a.aggfinalfn)
    JOIN pg_catalog.pg_depend d
      ON d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND d.objid = p.oid
     AND d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass AND d.deptype = 'e'
    JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid AND e.extname = 'sketch'
  LOOP
    EXECUTE pg_catalog.format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', support);
  END LOOP;
END
$privileges$;
