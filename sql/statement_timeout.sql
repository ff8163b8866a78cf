-- Long aggregates honour statement_timeout, and with it query cancel, which
-- reaches the backend the same way (test/hardening/cancel.sh sends a real
-- pg_cancel_backend). Each query below would run for minutes; it must stop
-- with SQLSTATE 57014 (query_canceled) soon after the 200 ms timeout, and
-- the session must be usable afterwards. Rows come from generate_series in
-- a select list, which streams; in FROM it would first be materialized, and
-- the timeout would hit that instead of the aggregate. The timeout covers a
-- whole top-level statement, so each query gets its own.
CREATE FUNCTION pg_temp.canceled_after(query text, OUT error_code text, OUT stopped_in_time boolean)
LANGUAGE plpgsql AS $$
DECLARE
  started timestamptz := clock_timestamp();
BEGIN
  EXECUTE query;
  error_code := 'finished';
  stopped_in_time := false;
EXCEPTION WHEN query_canceled THEN
  error_code := SQLSTATE;
  stopped_in_time := clock_timestamp() - started < interval '10 seconds';
END $$;

SET statement_timeout = '200ms';
-- hll_agg over 2e9 rows, sparse then dense
SELECT * FROM pg_temp.canceled_after($q$
  SELECT hll_cardinality(hll_agg(g)) FROM (SELECT generate_series(1, 2000000000) AS g) s $q$);
-- hll_agg at p = 18
SELECT * FROM pg_temp.canceled_after($q$
  SELECT hll_cardinality(hll_agg(g, 18)) FROM (SELECT generate_series(1, 2000000000) AS g) s $q$);
-- hll_union of 1e9 one-value sketches
SELECT * FROM pg_temp.canceled_after($q$
  SELECT hll_cardinality(hll_union(h))
  FROM (SELECT hll_add(hll_empty(18), g) AS h
        FROM (SELECT generate_series(1, 1000000000) AS g) s) t $q$);
-- hll_agg into 1e6 groups (hash aggregate)
SELECT * FROM pg_temp.canceled_after($q$
  SELECT count(h) FROM (SELECT hll_agg(g) AS h
                        FROM (SELECT generate_series(1, 2000000000) AS g) s
                        GROUP BY g % 1000000) t $q$);
-- hll_union as a running window aggregate
SELECT * FROM pg_temp.canceled_after($q$
  SELECT count(c)
  FROM (SELECT hll_cardinality(hll_union(h) OVER (ROWS UNBOUNDED PRECEDING)) AS c
        FROM (SELECT hll_add(hll_empty(), g) AS h
              FROM (SELECT generate_series(1, 1000000000) AS g) s) t) u $q$);
-- cms_agg over 2e9 rows (default 2719 x 5, candidate list of 100)
SELECT * FROM pg_temp.canceled_after($q$
  SELECT cms_total(cms_agg(g)) FROM (SELECT generate_series(1, 2000000000) AS g) s $q$);
-- conservative cms_agg_weighted
SELECT * FROM pg_temp.canceled_after($q$
  SELECT cms_total(cms_agg_weighted(g % 1000, g, 0.001, 0.01, true))
  FROM (SELECT generate_series(1, 2000000000) AS g) s $q$);
-- cms_union of 1e9 one-value sketches
SELECT * FROM pg_temp.canceled_after($q$
  SELECT cms_total(cms_union(c))
  FROM (SELECT cms_add(cms_empty(), g) AS c
        FROM (SELECT generate_series(1, 1000000000) AS g) s) t $q$);
-- cms_agg_sized into 1e6 groups (hash aggregate)
SELECT * FROM pg_temp.canceled_after($q$
  SELECT count(c) FROM (SELECT cms_agg_sized(g, 16, 2, false, 4) AS c
                        FROM (SELECT generate_series(1, 2000000000) AS g) s
                        GROUP BY g % 1000000) t $q$);
-- bloom_agg over 2e9 rows into a 12 MB filter (deferred bit setting)
SELECT * FROM pg_temp.canceled_after($q$
  SELECT bloom_cardinality(bloom_agg(g, 10000000, 0.01))
  FROM (SELECT generate_series(1, 2000000000) AS g) s $q$);
-- bloom_union of 1e9 one-value filters
SELECT * FROM pg_temp.canceled_after($q$
  SELECT bloom_cardinality(bloom_union(f))
  FROM (SELECT bloom_add(bloom_empty_bits(1000000, 7), g) AS f
        FROM (SELECT generate_series(1, 1000000000) AS g) s) t $q$);
-- bloom_agg_bits into 1e6 groups (hash aggregate)
SELECT * FROM pg_temp.canceled_after($q$
  SELECT count(f) FROM (SELECT bloom_agg_bits(g, 64, 3) AS f
                        FROM (SELECT generate_series(1, 2000000000) AS g) s
                        GROUP BY g % 1000000) t $q$);
-- bloom_union as a running window aggregate
SELECT * FROM pg_temp.canceled_after($q$
  SELECT count(c)
  FROM (SELECT bloom_cardinality(bloom_union(f) OVER (ROWS UNBOUNDED PRECEDING)) AS c
        FROM (SELECT bloom_add(bloom_empty_bits(4096, 3), g) AS f
              FROM (SELECT generate_series(1, 1000000000) AS g) s) t) u $q$);

-- ddsketch_agg over 2e9 rows
SELECT * FROM pg_temp.canceled_after($q$
  SELECT ddsketch_count(ddsketch_agg(g)) FROM (SELECT generate_series(1, 2000000000)::float8 AS g) s $q$);
-- topk_agg over 2e9 rows (a summary of 100 counters under constant eviction)
SELECT * FROM pg_temp.canceled_after($q$
  SELECT topk_total(topk_agg(g)) FROM (SELECT generate_series(1, 2000000000) AS g) s $q$);
-- theta_agg over 2e9 rows
SELECT * FROM pg_temp.canceled_after($q$
  SELECT theta_count(theta_agg(g)) FROM (SELECT generate_series(1, 2000000000) AS g) s $q$);
-- theta_agg into 1e6 groups (hash aggregate)
SELECT * FROM pg_temp.canceled_after($q$
  SELECT count(t) FROM (SELECT theta_agg(g) AS t
                        FROM (SELECT generate_series(1, 2000000000) AS g) s
                        GROUP BY g % 1000000) t $q$);
-- counting_bloom_agg over 2e9 rows into a 48 MB filter (deferred counting)
SELECT * FROM pg_temp.canceled_after($q$
  SELECT counting_bloom_cardinality(counting_bloom_agg(g, 10000000, 0.01))
  FROM (SELECT generate_series(1, 2000000000) AS g) s $q$);
-- cuckoo_agg over 2e9 rows (deferred insertion into a 12 MB filter)
SELECT * FROM pg_temp.canceled_after($q$
  SELECT cuckoo_cardinality(cuckoo_agg(g, 10000000, 0.01))
  FROM (SELECT generate_series(1, 2000000000) AS g) s $q$);

-- Outside the plpgsql wrapper: the error as a client sees it.
SELECT hll_cardinality(hll_agg(g)) FROM (SELECT generate_series(1, 2000000000) AS g) s;
RESET statement_timeout;
SELECT hll_cardinality(hll_agg(g)) AS still_usable FROM generate_series(1, 1000) g;
