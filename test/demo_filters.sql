-- counting_bloom and cuckoo section of the demo: membership that forgets.
-- "Which visitors are active now?" -- a visitor becomes active with a click
-- and inactive after 3 days without one, so members join and leave every
-- day: a bloom filter cannot follow that set, a counting_bloom and a cuckoo
-- filter can (add when a visitor becomes active, delete when they lapse).
--
-- Included from test/demo.sql once sketch_demo.clicks(ts, visitor_id,
-- link_id) exists (search_path set to sketch_demo and the extension's
-- schema). Everything it creates lives in sketch_demo too. Deterministic.

\echo
\echo '== 23. Active visitors (a click in the last 3 days) kept by deletes: counting_bloom and cuckoo'
\echo '   Each day: add the visitors who became active, delete those who lapsed (the visitors with id % 50 = 0,'
\echo '   one function call per change: a filter per call is copied, so the demo keeps it small).'
-- The day each visitor joins and leaves the active set, from the clicks:
-- active from a click's day through that day + 2.
CREATE TABLE active_days AS
SELECT DISTINCT visitor_id, date_trunc('day', ts)::date + o AS day
FROM clicks, generate_series(0, 2) o
WHERE visitor_id % 50 = 0;
CREATE TABLE active_changes AS
SELECT day, visitor_id, 'join' AS change
FROM active_days a
WHERE NOT EXISTS (SELECT 1 FROM active_days b WHERE b.visitor_id = a.visitor_id AND b.day = a.day - 1)
UNION ALL
SELECT day + 1, visitor_id, 'leave'
FROM active_days a
WHERE NOT EXISTS (SELECT 1 FROM active_days b WHERE b.visitor_id = a.visitor_id AND b.day = a.day + 1);

-- One filter of each kind, sized for 5,000 live members at p = 0.001,
-- walked through the changes day by day (a delete only ever removes a
-- visitor that joined: the trap of deleting strangers is not sprung).
CREATE TABLE active_filters (day date PRIMARY KEY, cb counting_bloom, cf cuckoo);
DO $$
DECLARE
  d date;
  cb counting_bloom := counting_bloom_empty(5000, 0.001);
  cf cuckoo := cuckoo_empty(5000, 0.001);
  v bigint;
  c text;
BEGIN
  FOR d IN SELECT DISTINCT day FROM active_changes ORDER BY 1 LOOP
    FOR v, c IN SELECT visitor_id, change FROM active_changes WHERE day = d ORDER BY change DESC, visitor_id LOOP
      IF c = 'join' THEN
        cb := counting_bloom_add(cb, v);
        cf := cuckoo_add(cf, v);
      ELSE
        cb := counting_bloom_delete(cb, v);
        cf := cuckoo_delete(cf, v);
      END IF;
    END LOOP;
    INSERT INTO active_filters VALUES (d, cb, cf);
  END LOOP;
END $$;

-- Some days: the exact active set against both filters. Missed = active
-- visitors a filter says are not (must be 0); false = visitors of the month
-- not active that day whom a filter calls active (p = 0.001 of them expected).
SELECT f.day, count(*) FILTER (WHERE a.visitor_id IS NOT NULL) AS "active (exact)",
       count(*) FILTER (WHERE a.visitor_id IS NOT NULL AND NOT f.cb @> v.visitor_id) AS "counting_bloom missed",
       count(*) FILTER (WHERE a.visitor_id IS NULL AND f.cb @> v.visitor_id) AS "counting_bloom false",
       count(*) FILTER (WHERE a.visitor_id IS NOT NULL AND NOT f.cf @> v.visitor_id) AS "cuckoo missed",
       count(*) FILTER (WHERE a.visitor_id IS NULL AND f.cf @> v.visitor_id) AS "cuckoo false",
       cuckoo_cardinality(f.cf) AS "cuckoo members"
FROM active_filters f
CROSS JOIN (SELECT DISTINCT visitor_id FROM clicks WHERE visitor_id % 50 = 0) v
LEFT JOIN active_days a ON a.visitor_id = v.visitor_id AND a.day = f.day
WHERE f.day IN (SELECT day FROM active_filters ORDER BY day LIMIT 1)
   OR f.day IN (SELECT day FROM active_filters ORDER BY day DESC LIMIT 1 OFFSET 3)
   OR extract(day FROM f.day) = 15
GROUP BY f.day, f.cf ORDER BY f.day;

SELECT pg_column_size(counting_bloom_empty(5000, 0.001)) AS "counting_bloom bytes",
       pg_column_size(cuckoo_empty(5000, 0.001)) AS "cuckoo bytes",
       pg_column_size(bloom_empty(5000, 0.001)) AS "bloom bytes (cannot delete)";
