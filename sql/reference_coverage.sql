-- docs/reference.md must name every object the extension creates: each
-- function and aggregate by name, each operator as "op (left, right)", each
-- type by name and each cast as "source::target". The expected output is
-- an empty list of missing objects. (pg_regress runs psql in the source
-- directory, so the document is read from there.)
\set ref `cat docs/reference.md`
CREATE TEMP TABLE reference_doc AS
  SELECT replace(:'ref', '\|', '|') AS doc;
CREATE TEMP VIEW sketch_objects AS
WITH ext AS (
  SELECT d.classid, d.objid FROM pg_depend d
  WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
    AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'sketch'))
SELECT CASE p.prokind WHEN 'a' THEN 'aggregate' ELSE 'function' END AS kind,
       p.oid::regprocedure::text AS object, p.proname::text AS needle,
       true AS word
FROM ext JOIN pg_proc p ON ext.classid = 'pg_proc'::regclass AND p.oid = ext.objid
UNION ALL
SELECT 'operator', o.oid::regoperator::text,
       format('%s (%s, %s)', o.oprname, coalesce(l.typname::text, 'NONE'), r.typname), false
FROM ext JOIN pg_operator o ON ext.classid = 'pg_operator'::regclass AND o.oid = ext.objid
LEFT JOIN pg_type l ON l.oid = o.oprleft JOIN pg_type r ON r.oid = o.oprright
UNION ALL
SELECT 'type', t.typname::text, t.typname::text, true
FROM ext JOIN pg_type t ON ext.classid = 'pg_type'::regclass AND t.oid = ext.objid
-- (not the array type PostgreSQL makes beside each type: 17 and later record
-- it as a member of the extension too, 15 and 16 do not)
WHERE NOT EXISTS (SELECT FROM pg_type b WHERE b.typarray = t.oid)
UNION ALL
SELECT 'cast', format('%s -> %s', s.typname, tt.typname), format('%s::%s', s.typname, tt.typname), false
FROM ext JOIN pg_cast c ON ext.classid = 'pg_cast'::regclass AND c.oid = ext.objid
JOIN pg_type s ON s.oid = c.castsource JOIN pg_type tt ON tt.oid = c.casttarget;

-- the catalog query finds something of every kind
SELECT kind, count(*) > 0 AS found FROM sketch_objects GROUP BY kind ORDER BY kind;

-- objects missing from docs/reference.md: none
SELECT kind, object AS missing_from_reference
FROM sketch_objects, reference_doc
WHERE CASE WHEN word THEN doc !~ ('\m' || needle || '\M')
           ELSE strpos(doc, needle) = 0 END
ORDER BY kind, object;

-- every function, aggregate, operator, type and cast carries a COMMENT for \df+, \dT+ and \dC+ readers
SELECT kind, object AS missing_comment FROM (
  SELECT 'function' AS kind, p.oid::regprocedure::text AS object, obj_description(p.oid, 'pg_proc') AS c
  FROM pg_depend d JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND p.oid = d.objid
  WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
    AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'sketch')
  UNION ALL
  SELECT 'operator', o.oid::regoperator::text, obj_description(o.oid, 'pg_operator')
  FROM pg_depend d JOIN pg_operator o ON d.classid = 'pg_operator'::regclass AND o.oid = d.objid
  WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
    AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'sketch')
  UNION ALL
  SELECT 'type', t.oid::regtype::text, obj_description(t.oid, 'pg_type')
  FROM pg_depend d JOIN pg_type t ON d.classid = 'pg_type'::regclass AND t.oid = d.objid
  WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
    AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'sketch')
    AND NOT EXISTS (SELECT FROM pg_type b WHERE b.typarray = t.oid)
  UNION ALL
  SELECT 'cast', format('%s -> %s', c.castsource::regtype, c.casttarget::regtype),
         obj_description(c.oid, 'pg_cast')
  FROM pg_depend d JOIN pg_cast c ON d.classid = 'pg_cast'::regclass AND c.oid = d.objid
  WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
    AND d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'sketch')
) objects WHERE c IS NULL ORDER BY 1, 2;
