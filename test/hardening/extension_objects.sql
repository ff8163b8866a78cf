-- Every object of the installed sketch extension with its definition, one
-- line each, sorted: the same text for two databases means the same
-- extension. test/hardening/upgrade.sh compares an upgraded database with a
-- fresh install this way. Comments are included: they are the reference
-- users see in \dx+ and \df+.
WITH ext AS (SELECT oid, extnamespace FROM pg_extension WHERE extname = 'sketch'),
members AS (
  SELECT d.classid, d.objid, d.objsubid FROM pg_depend d, ext
  WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = ext.oid AND d.deptype = 'e'
)
SELECT pg_describe_object(m.classid, m.objid, m.objsubid) || ' | ' || coalesce(
  CASE m.classid
    WHEN 'pg_proc'::regclass THEN (
      SELECT concat_ws(' ', 'args', pg_get_function_arguments(p.oid),
                       'returns', pg_get_function_result(p.oid), 'kind', p.prokind,
                       'language', l.lanname, 'symbol', p.prosrc, 'library', p.probin,
                       'volatility', p.provolatile, 'parallel', p.proparallel,
                       'strict', p.proisstrict, 'security_definer', p.prosecdef,
                       'leakproof', p.proleakproof, 'cost', p.procost, 'rows', p.prorows,
                       'config', p.proconfig::text,
                       'public_execute', has_function_privilege('public', p.oid, 'EXECUTE'),
                       'aggregate', (SELECT concat_ws(' ', a.aggtransfn::regprocedure,
                                                      a.aggfinalfn::regprocedure, a.aggcombinefn::regprocedure,
                                                      a.aggserialfn::regprocedure, a.aggdeserialfn::regprocedure,
                                                      a.aggmtransfn::regprocedure, a.aggminvtransfn::regprocedure,
                                                      a.aggmfinalfn::regprocedure, a.aggfinalmodify,
                                                      a.aggmfinalmodify, a.aggsortop::regoperator,
                                                      a.aggtranstype::regtype, a.aggtransspace,
                                                      a.aggmtranstype::regtype, a.aggmtransspace,
                                                      a.agginitval, a.aggminitval, a.aggkind,
                                                      a.aggnumdirectargs)
                                     FROM pg_aggregate a WHERE a.aggfnoid = p.oid))
      FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang WHERE p.oid = m.objid)
    WHEN 'pg_type'::regclass THEN (
      SELECT concat_ws(' ', t.typtype, t.typlen, t.typbyval, t.typalign, t.typstorage,
                       t.typcategory, t.typinput::regprocedure, t.typoutput::regprocedure,
                       t.typreceive::regprocedure, t.typsend::regprocedure,
                       t.typmodin::regprocedure, t.typmodout::regprocedure,
                       t.typanalyze::regprocedure, t.typelem::regtype, t.typarray::regtype,
                       t.typbasetype::regtype, t.typtypmod, t.typnotnull, t.typdefault)
      FROM pg_type t WHERE t.oid = m.objid)
    WHEN 'pg_operator'::regclass THEN (
      SELECT concat_ws(' ', o.oprkind, o.oprleft::regtype, o.oprright::regtype,
                       o.oprresult::regtype, o.oprcode::regprocedure, o.oprcom::regoperator,
                       o.oprnegate::regoperator, o.oprrest::regprocedure,
                       o.oprjoin::regprocedure, o.oprcanmerge, o.oprcanhash)
      FROM pg_operator o WHERE o.oid = m.objid)
    WHEN 'pg_cast'::regclass THEN (
      SELECT concat_ws(' ', c.castfunc::regprocedure, c.castcontext, c.castmethod)
      FROM pg_cast c WHERE c.oid = m.objid)
    WHEN 'pg_opclass'::regclass THEN (
      SELECT concat_ws(' ', oc.opcmethod, oc.opcintype::regtype, oc.opcdefault,
                       (SELECT string_agg(format('%s %s', ao.amopstrategy, ao.amopopr::regoperator), ', '
                                          ORDER BY ao.amopstrategy)
                        FROM pg_amop ao WHERE ao.amopfamily = oc.opcfamily),
                       (SELECT string_agg(format('%s %s', ap.amprocnum, ap.amproc::regprocedure), ', '
                                          ORDER BY ap.amprocnum)
                        FROM pg_amproc ap WHERE ap.amprocfamily = oc.opcfamily))
      FROM pg_opclass oc WHERE oc.oid = m.objid)
    ELSE ''
  END, '')
  || coalesce(' | comment: ' || (
       SELECT description FROM pg_description ds
       WHERE ds.objoid = m.objid AND ds.classoid = m.classid AND ds.objsubid = m.objsubid), '')
  AS object
FROM members m
ORDER BY 1;
