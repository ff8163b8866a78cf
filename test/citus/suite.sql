-- The Citus suite, run by test/citus.sh against the coordinator of a cluster
-- with two workers (citus.shard_count = 8), in a database where citus and
-- sketch exist on every node.
--
-- Self-checking: every check prints one row `name | ok` or
-- `name | not ok: <why>`. A check compares a distributed query with the same
-- query on a local (non-distributed) copy of the data: hll, bloom and ddsketch
-- by sketch equality (=, i.e. identical bytes), cms by N, by the frequencies
-- of a set of keys and by cms_topk, topk by its guarantees against the true
-- counts (its bytes may depend on the merge order once it purges; equal bytes
-- where nothing can purge), theta by its bytes (= and the text form: its
-- stored form is canonical, the same set gives the same bytes in any merge
-- tree, so a split union or intersection has the bytes of the local one),
-- counting_bloom by its bytes too (counters are sums, saturating at 15: the
-- same in any merge order), cuckoo by what it answers and by its copies (its
-- bytes depend on the order of inserts; every value of the group present,
-- the same parameters, and exactly one copy per partial aggregate that met
-- the value: a split over text carries no seen set, docs/cuckoo.md).
-- Every check runs as its own statement and catches its own errors,
-- reporting the SQLSTATE and message, so one failure never hides another.
-- No check depends on the row order of an unordered result.
--
-- Shapes of every aggregate (every overload): no GROUP BY and GROUP BY a
-- non-distribution column (Citus splits the aggregate: worker_partial_agg on
-- the shards, the partial states shipped as the type's text output,
-- coord_combine_agg on the coordinator), and GROUP BY the distribution
-- column (the whole aggregate is pushed down to the shards).

SET client_min_messages = warning;
SET citus.shard_count = 8;
-- psql -v rows=N for another number of events
\if :{?rows}
\else
\set rows 200000
\endif
-- keep the output to the check rows
\o /dev/null

-- ---------------------------------------------------------------------------
-- Check helpers (session-local: pg_temp, never distributed; Citus warns that
-- it creates them only locally)
-- ---------------------------------------------------------------------------
SET client_min_messages = error;

-- 'not ok: <sqlstate> <message>' for an error a check caught
CREATE FUNCTION pg_temp.caught(state text, msg text, ctx text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT 'not ok: ' || state || ' ' || msg
         || CASE WHEN ctx LIKE '%while executing command on%' THEN ' (from a worker)' ELSE '' END
$$;

-- The plan: 'split' = worker_partial_agg on the shards and coord_combine_agg
-- on the coordinator; 'pushdown' = the aggregate itself runs on the shards
-- and nothing is combined on the coordinator.
CREATE FUNCTION pg_temp.check_plan(name text, q text, expect text, agg text) RETURNS text
LANGUAGE plpgsql AS $f$
DECLARE
  plan text := '';
  line text;
  st text; msg text; ctx text;
BEGIN
  FOR line IN EXECUTE 'EXPLAIN (VERBOSE, COSTS OFF) ' || q LOOP
    plan := plan || line || E'\n';
  END LOOP;
  IF plan NOT LIKE '%Custom Scan (Citus%' THEN
    RETURN name || ' | not ok: not a distributed plan';
  END IF;
  IF expect = 'split' THEN
    IF plan LIKE '%worker_partial_agg(''%' || agg || '(%' AND plan LIKE '%coord_combine_agg(%' THEN
      RETURN name || ' | ok';
    END IF;
  ELSIF expect = 'pushdown' THEN
    IF plan NOT LIKE '%worker_partial_agg%' AND plan NOT LIKE '%coord_combine_agg%'
       AND plan ~ ('Query: .*\m' || agg || '\(') THEN
      RETURN name || ' | ok';
    END IF;
  END IF;
  RETURN name || ' | not ok: the plan is not ' || expect || ': '
         || regexp_replace(substr(plan, 1, 600), '\s+', ' ', 'g');
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, ctx = PG_EXCEPTION_CONTEXT;
  RETURN name || ' | ' || pg_temp.caught(st, msg, ctx);
END
$f$;

-- topk by its guarantees: the distributed summary d and the local one l of
-- the group g against the true counts of every key of the group (key_sql: a
-- query of (key in its own type, true count) for the group $1, NULL for all
-- rows). A Misra-Gries summary that purged depends on the order of its adds
-- and merges, and a split aggregate merges the shards' summaries in another
-- order than one node adds the rows, so what must agree is what holds in any
-- merge tree (src/core/topk/topk.h): on both sides
--   N (topk_total) = the sum of the true counts, and the same k;
--   every key's true count within [lower_bound, upper_bound] of topk_estimate
--   (a key not held: within [0, max_error]);
--   max_error <= its bound floor((N - sum of counts)/(k+1)) <= N/(k+1);
--   every held item one of the group's keys, at most k of them;
-- and when the group has at most k distinct keys nothing can purge
-- anywhere: max_error = 0 and d = l, byte for byte. NULL when all hold,
-- else what failed.
CREATE FUNCTION pg_temp.topk_bounds(g text, d topk, l topk, key_sql text) RETURNS text
LANGUAGE plpgsql AS $f$
DECLARE
  keys bigint; n numeric; held_d bigint; held_l bigint; bad_d text; bad_l text;
  id jsonb := topk_info(d); il jsonb := topk_info(l); k bigint;
BEGIN
  EXECUTE format($q$
    SELECT count(*), coalesce(sum(c), 0),
           count(*) FILTER (WHERE ed.lower_bound > 0), count(*) FILTER (WHERE el.lower_bound > 0),
           left(string_agg(format('%%s: true %%s, bounds %%s..%%s', k, c, ed.lower_bound, ed.upper_bound), '; ')
                  FILTER (WHERE NOT c BETWEEN ed.lower_bound AND ed.upper_bound), 200),
           left(string_agg(format('%%s: true %%s, bounds %%s..%%s', k, c, el.lower_bound, el.upper_bound), '; ')
                  FILTER (WHERE NOT c BETWEEN el.lower_bound AND el.upper_bound), 200)
    FROM (%s) x(k, c), topk_estimate($2, k) ed, topk_estimate($3, k) el$q$, key_sql)
    INTO keys, n, held_d, held_l, bad_d, bad_l USING g, d, l;
  k := (id->>'k')::bigint;
  IF (il->>'k')::bigint <> k THEN
    RETURN format('k = %s distributed, %s local', k, il->>'k');
  END IF;
  IF topk_total(d) <> n OR topk_total(l) <> n THEN
    RETURN format('N = %s distributed, %s local, %s true', topk_total(d), topk_total(l), n);
  END IF;
  IF bad_d IS NOT NULL THEN RETURN 'distributed: true count outside its bounds: ' || bad_d; END IF;
  IF bad_l IS NOT NULL THEN RETURN 'local: true count outside its bounds: ' || bad_l; END IF;
  IF topk_max_error(d) > (id->>'error_bound')::bigint OR topk_max_error(d) > floor(n / (k + 1))
     OR topk_max_error(l) > (il->>'error_bound')::bigint OR topk_max_error(l) > floor(n / (k + 1)) THEN
    RETURN format('max_error above its bound: %s distributed (bound %s), %s local (bound %s), N/(k+1) = %s',
                  topk_max_error(d), id->>'error_bound', topk_max_error(l), il->>'error_bound', floor(n / (k + 1)));
  END IF;
  IF held_d <> (id->>'items')::bigint OR held_l <> (il->>'items')::bigint
     OR (id->>'items')::bigint > k OR (il->>'items')::bigint > k THEN
    RETURN format('items held: %s distributed (%s of them keys), %s local (%s keys), k = %s',
                  id->>'items', held_d, il->>'items', held_l, k);
  END IF;
  IF keys <= k AND (topk_max_error(d) <> 0 OR topk_max_error(l) <> 0 OR d <> l) THEN
    RETURN format('%s keys <= k = %s, so nothing purges, but max_error = %s distributed, %s local, and the summaries %s',
                  keys, k, topk_max_error(d), topk_max_error(l), CASE WHEN d = l THEN 'are equal' ELSE 'differ' END);
  END IF;
  RETURN NULL;
END
$f$;

-- NULL when a distributed cuckoo filter answers like the local one, else
-- why not: the same fingerprint and bucket sizes; every value of the group
-- (key_sql: (value, copies) for the group $1) present, a cuckoo filter has no
-- false negatives; and the copies it holds. cuckoo_cardinality is the number
-- of copies, exact after unions and growth (docs/cuckoo.md), and a union is a
-- multiset sum; cuckoo_agg adds one copy per distinct value, but a partial
-- state shipped as text (a Citus split) carries no seen set, so a value met
-- on k shards keeps k copies. So d holds exactly as many copies as l, the
-- same aggregate computed per shard of the local copy and united
-- (pg_temp.check_agg), and, where key_sql says how many partial aggregates
-- met each value (NULL for the unions of the rollups), as many as their sum.
CREATE FUNCTION pg_temp.cuckoo_members(g text, d cuckoo, l cuckoo, key_sql text) RETURNS text
LANGUAGE plpgsql AS $f$
DECLARE
  missing bigint; keys bigint; copies numeric; dj jsonb := cuckoo_info(d); lj jsonb := cuckoo_info(l);
BEGIN
  IF dj->'bucket_size' IS DISTINCT FROM lj->'bucket_size'
     OR dj->'fingerprint_bits' IS DISTINCT FROM lj->'fingerprint_bits' THEN
    RETURN format('parameters differ: %s distributed, %s local', dj, lj);
  END IF;
  EXECUTE format('SELECT count(*), count(*) FILTER (WHERE NOT cuckoo_contains($2, k)), sum(c) FROM (%s) x(k, c)', key_sql)
    INTO keys, missing, copies USING g, d;
  IF missing > 0 THEN
    RETURN format('%s of the %s values of the group are not in the distributed filter', missing, keys);
  END IF;
  IF cuckoo_cardinality(d) <> cuckoo_cardinality(l) THEN
    RETURN format('%s copies distributed, %s local (united per shard; %s and %s sub-filters)',
                  cuckoo_cardinality(d), cuckoo_cardinality(l), dj->>'subfilters', lj->>'subfilters');
  END IF;
  IF copies IS NOT NULL AND cuckoo_cardinality(d) <> copies THEN
    RETURN format('%s copies, but the %s values of the group were met by %s partial aggregates in all',
                  cuckoo_cardinality(d), keys, copies);
  END IF;
  RETURN NULL;
END
$f$;

-- The rows (g text, s <sketch>) of a distributed query against those of a
-- local one, matched by g. hll, bloom and ddsketch (and cms in mode 'bytes'):
-- equal sketches (ddsketch: its stored form is canonical and its sum exact,
-- so a split aggregate has the bytes of the local one). cms: equal N and,
-- for each key of key_sql (a query of (key, true count) for the group $1,
-- NULL for all rows), a frequency never below the true count and
--   mode 'exact': frequencies and cms_topk(s, 5) equal to the local ones;
--   mode 'bound': (conservative update, whose merge is not the sketch of the
--   whole stream) at most the local plain sketch's frequency (the local query
--   is then the plain variant: conservative counters never exceed plain ones).
-- topk: mode 'bytes', equal sketches; else (mode 'bounds') pg_temp.topk_bounds
-- for every group, over key_sql. theta: equal sketches by = and by their text
-- forms (\x and the hex of the stored bytes), i.e. byte for byte.
CREATE FUNCTION pg_temp.check_same(name text, family text, q_dist text, q_local text,
                                   key_sql text DEFAULT NULL, mode text DEFAULT 'exact')
RETURNS text LANGUAGE plpgsql AS $f$
DECLARE
  dg text[] := '{}'; ds text[] := '{}'; lg text[] := '{}'; ls text[] := '{}';
  g text; s text; i int; eq boolean;
  n_d bigint; n_l bigint; keys text[]; fd bigint[]; fl bigint[]; tc bigint[]; top_d text; top_l text;
  why text; st text; msg text; ctx text;
BEGIN
  FOR g, s IN EXECUTE q_dist LOOP dg := dg || g; ds := ds || s; END LOOP;
  FOR g, s IN EXECUTE q_local LOOP lg := lg || g; ls := ls || s; END LOOP;
  SELECT coalesce(array_agg(x.g ORDER BY x.g), '{}'), coalesce(array_agg(x.s ORDER BY x.g), '{}')
    INTO dg, ds FROM unnest(dg, ds) x(g, s);
  SELECT coalesce(array_agg(x.g ORDER BY x.g), '{}'), coalesce(array_agg(x.s ORDER BY x.g), '{}')
    INTO lg, ls FROM unnest(lg, ls) x(g, s);
  IF dg IS DISTINCT FROM lg THEN
    RETURN format('%s | not ok: groups differ: %s distributed, %s local', name,
                  cardinality(dg), cardinality(lg));
  END IF;
  FOR i IN 1 .. cardinality(dg) LOOP
    IF ds[i] IS NULL OR ls[i] IS NULL THEN
      IF ds[i] IS NULL AND ls[i] IS NULL THEN CONTINUE; END IF;
      RETURN format('%s | not ok: group %s: %s sketch is NULL, the other is not', name,
                    coalesce(dg[i], '(all)'), CASE WHEN ds[i] IS NULL THEN 'the distributed' ELSE 'the local' END);
    END IF;
    IF family = 'topk' AND mode IS DISTINCT FROM 'bytes' THEN
      why := pg_temp.topk_bounds(dg[i], ds[i]::topk, ls[i]::topk, key_sql);
      IF why IS NOT NULL THEN
        RETURN format('%s | not ok: group %s: %s', name, coalesce(dg[i], '(all)'), why);
      END IF;
    ELSIF family = 'cuckoo' THEN
      why := pg_temp.cuckoo_members(dg[i], ds[i]::cuckoo, ls[i]::cuckoo, key_sql);
      IF why IS NOT NULL THEN
        RETURN format('%s | not ok: group %s: %s', name, coalesce(dg[i], '(all)'), why);
      END IF;
    ELSIF family = 'kll' THEN
      -- kll: a split aggregate merges in another order than the local one,
      -- so its bytes may differ (docs/kll.md); what is exact must agree:
      -- the count, min, max, k and value type.
      EXECUTE 'SELECT kll_info($1::kll) - ''bytes'' - ''levels'' - ''retained'' - ''exact''
                        - ''rank_error'' - ''pmf_rank_error''
                      = kll_info($2::kll) - ''bytes'' - ''levels'' - ''retained'' - ''exact''
                        - ''rank_error'' - ''pmf_rank_error'''
        INTO eq USING ds[i], ls[i];
      IF NOT eq THEN
        RETURN format('%s | not ok: group %s: count, min, max, k or type differ (%s distributed, %s local)',
                      name, coalesce(dg[i], '(all)'), kll_info(ds[i]::kll), kll_info(ls[i]::kll));
      END IF;
    ELSIF family IN ('hll', 'ell', 'bloom', 'ddsketch', 'theta', 'counting_bloom') OR mode = 'bytes' THEN
      EXECUTE format('SELECT $1::%1$s = $2::%1$s', family) INTO eq USING ds[i], ls[i];
      -- theta: the text forms too (the stored bytes, the element kind's included)
      eq := eq AND (family <> 'theta' OR ds[i] = ls[i]);
      IF NOT eq THEN
        -- what each side holds: the estimate, N for cms and topk, the exact count for ddsketch
        EXECUTE format('SELECT %2$s($1::%1$s), %2$s($2::%1$s)', family,
                       CASE family WHEN 'ddsketch' THEN 'ddsketch_count' WHEN 'cms' THEN 'cms_total'
                                   WHEN 'topk' THEN 'topk_total' WHEN 'theta' THEN 'theta_count'
                                   WHEN 'ell' THEN 'ell_cardinality'
                                   WHEN 'counting_bloom' THEN 'counting_bloom_cardinality'
                                   ELSE family || '_cardinality' END)
          INTO n_d, n_l USING ds[i], ls[i];
        RETURN format('%s | not ok: group %s: sketches differ (%s %s distributed, %s local)%s',
                      name, coalesce(dg[i], '(all)'),
                      CASE family WHEN 'ddsketch' THEN 'count' WHEN 'cms' THEN 'N' WHEN 'topk' THEN 'N'
                                  ELSE 'estimate' END,
                      n_d, n_l,
                      CASE WHEN family = 'theta' THEN
                        format(': lg_k, retained, theta, kind %s distributed, %s local; %s and %s bytes',
                               (SELECT concat_ws(' ', j->>'lg_k', j->>'retained', j->>'theta', j->>'element_kind')
                                FROM theta_info(ds[i]::theta) j),
                               (SELECT concat_ws(' ', j->>'lg_k', j->>'retained', j->>'theta', j->>'element_kind')
                                FROM theta_info(ls[i]::theta) j),
                               length(ds[i]) / 2 - 1, length(ls[i]) / 2 - 1)
                      ELSE '' END);
      END IF;
    ELSE
      EXECUTE 'SELECT cms_total($1::cms), cms_total($2::cms)' INTO n_d, n_l USING ds[i], ls[i];
      IF n_d <> n_l THEN
        RETURN format('%s | not ok: group %s: N = %s distributed, %s local', name,
                      coalesce(dg[i], '(all)'), n_d, n_l);
      END IF;
      EXECUTE format('SELECT array_agg(k::text ORDER BY o), array_agg(cms_frequency($2::cms, k) ORDER BY o),
                             array_agg(cms_frequency($3::cms, k) ORDER BY o), array_agg(c ORDER BY o)
                      FROM (SELECT k, c, row_number() OVER () AS o FROM (%s) x(k, c)) y', key_sql)
        INTO keys, fd, fl, tc USING dg[i], ds[i], ls[i];
      FOR j IN 1 .. coalesce(cardinality(keys), 0) LOOP
        IF fd[j] < tc[j] OR (mode = 'exact' AND fd[j] <> fl[j]) OR (mode = 'bound' AND fd[j] > fl[j]) THEN
          RETURN format('%s | not ok: group %s: frequency of %s = %s distributed, %s local%s, true count %s',
                        name, coalesce(dg[i], '(all)'), keys[j], fd[j], fl[j],
                        CASE WHEN mode = 'bound' THEN ' (plain)' ELSE '' END, tc[j]);
        END IF;
      END LOOP;
      IF mode = 'exact' THEN
        EXECUTE 'SELECT string_agg(value || '':'' || frequency, '' '') FROM cms_topk($1::cms, 5)'
          INTO top_d USING ds[i];
        EXECUTE 'SELECT string_agg(value || '':'' || frequency, '' '') FROM cms_topk($1::cms, 5)'
          INTO top_l USING ls[i];
        IF top_d IS DISTINCT FROM top_l THEN
          RETURN format('%s | not ok: group %s: top 5 %s distributed, %s local', name,
                        coalesce(dg[i], '(all)'), top_d, top_l);
        END IF;
      END IF;
    END IF;
  END LOOP;
  RETURN name || ' | ok';
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, ctx = PG_EXCEPTION_CONTEXT;
  RETURN name || ' | ' || pg_temp.caught(st, msg, ctx);
END
$f$;

-- One aggregate in one shape: the plan, and the result against the local copy.
-- agg and local_agg are templates with %s for the value column; for cms and
-- topk, keycol is the column of the events the keys are read from (events_*
-- for sketches_*, whose cms and topk were built from the pages of those
-- events) and cnt their true count (count(*), or sum(n) when weighted).
CREATE FUNCTION pg_temp.check_agg(family text, agg text, local_agg text, tbl text, local_tbl text,
                                  col text, keycol text, cnt text, mode text, shape text,
                                  with_plan boolean DEFAULT true)
RETURNS SETOF text LANGUAGE plpgsql AS $f$
DECLARE
  gexpr text; grp text; label text; expect text; key_sql text; name text; q_local text;
BEGIN
  CASE shape
    WHEN 'none' THEN gexpr := 'NULL::text'; grp := ''; label := 'no GROUP BY'; expect := 'split';
    WHEN 'kind' THEN gexpr := 'kind::text'; grp := ' GROUP BY kind'; label := 'GROUP BY kind'; expect := 'split';
    WHEN 'tenant' THEN gexpr := 'tenant_id::text'; grp := ' GROUP BY tenant_id';
                       label := 'GROUP BY tenant_id (distribution column)'; expect := 'pushdown';
  END CASE;
  name := format(agg, col) || CASE WHEN tbl IN ('events', 'sketches') THEN '' ELSE ' FROM ' || tbl END
          || ' / ' || label;
  IF with_plan THEN
    RETURN NEXT pg_temp.check_plan(name || ' / plan',
      format('SELECT %s AS g, %s AS s FROM %s%s', gexpr, format(agg, col), tbl, grp),
      expect, split_part(agg, '(', 1));
  END IF;
  IF family = 'topk' THEN
    -- every key of the group, with its true count (weight)
    key_sql := format('SELECT %1$s, %2$s FROM %4$s WHERE %1$s IS NOT NULL AND ($1 IS NULL OR %3$s = $1) GROUP BY 1',
                      keycol, cnt, gexpr, replace(local_tbl, 'sketches', 'events'));
  ELSIF family = 'cuckoo' THEN
    -- every distinct value of the group, and for cuckoo_agg the shards that
    -- hold it in the group: one partial aggregate each, one copy each
    key_sql := format('SELECT %1$s, %5$s FROM %3$s WHERE %1$s IS NOT NULL AND ($1 IS NULL OR %2$s = $1) GROUP BY 1',
                      keycol, gexpr, replace(local_tbl, 'sketches', 'events'), tbl,
                      CASE WHEN agg LIKE 'cuckoo_agg(%' THEN
                        format('count(DISTINCT get_shard_id_for_distribution_column(%L, tenant_id))', tbl)
                      ELSE 'NULL::bigint' END);
  ELSIF family = 'cms' THEN
    -- the 12 most and 3 least frequent keys of the group, with their true counts
    key_sql := format('(SELECT %1$s, %2$s FROM %4$s WHERE %1$s IS NOT NULL AND ($1 IS NULL OR %3$s = $1)
                        GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 12)
                       UNION ALL
                       (SELECT %1$s, %2$s FROM %4$s WHERE %1$s IS NOT NULL AND ($1 IS NULL OR %3$s = $1)
                        GROUP BY 1 ORDER BY 2, 1 LIMIT 3)',
                      keycol, cnt, gexpr, replace(local_tbl, 'sketches', 'events'));
  END IF;
  q_local := format('SELECT %s AS g, %s AS s FROM %s%s', gexpr, format(local_agg, col), local_tbl, grp);
  IF family = 'cuckoo' AND agg LIKE 'cuckoo_agg(%' THEN
    -- what a split computes: the aggregate per shard (of the distributed
    -- table, whose shards the local rows map to), the parts united
    q_local := format('SELECT %s AS g, cuckoo_union(x.s) AS s FROM (SELECT %s AS g, %s AS s FROM %s GROUP BY get_shard_id_for_distribution_column(%L, tenant_id), 1) x%s',
                      CASE WHEN shape = 'none' THEN 'NULL::text' ELSE 'x.g' END,
                      gexpr, format(local_agg, col), local_tbl, tbl,
                      CASE WHEN shape = 'none' THEN '' ELSE ' GROUP BY x.g' END);
  END IF;
  RETURN NEXT pg_temp.check_same(name || ' / result', family,
    format('SELECT %s AS g, %s AS s FROM %s%s', gexpr, format(agg, col), tbl, grp),
    q_local, key_sql, mode);
END
$f$;

-- A statement that must succeed (DDL, INSERT ... SELECT).
CREATE FUNCTION pg_temp.check_exec(name text, q text) RETURNS text LANGUAGE plpgsql AS $f$
DECLARE st text; msg text; ctx text;
BEGIN
  EXECUTE q;
  RETURN name || ' | ok';
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, ctx = PG_EXCEPTION_CONTEXT;
  RETURN name || ' | ' || pg_temp.caught(st, msg, ctx);
END
$f$;

-- Two queries of one text column that must return the same rows (in the
-- same order when ordered).
CREATE FUNCTION pg_temp.check_rows(name text, q_dist text, q_local text, ordered boolean DEFAULT false)
RETURNS text LANGUAGE plpgsql AS $f$
DECLARE d text[] := '{}'; l text[] := '{}'; t text; st text; msg text; ctx text;
BEGIN
  FOR t IN EXECUTE q_dist LOOP d := d || t; END LOOP;
  FOR t IN EXECUTE q_local LOOP l := l || t; END LOOP;
  IF NOT ordered THEN
    d := ARRAY(SELECT x FROM unnest(d) x ORDER BY x);
    l := ARRAY(SELECT x FROM unnest(l) x ORDER BY x);
  END IF;
  IF d IS NOT DISTINCT FROM l THEN RETURN name || ' | ok'; END IF;
  RETURN format('%s | not ok: distributed %s, local %s', name,
                left(array_to_string(d, ' ', 'NULL'), 300), left(array_to_string(l, ' ', 'NULL'), 300));
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, ctx = PG_EXCEPTION_CONTEXT;
  RETURN name || ' | ' || pg_temp.caught(st, msg, ctx);
END
$f$;

-- A query of one boolean that must be true; detail is shown when it is not.
CREATE FUNCTION pg_temp.check_true(name text, q text, detail text DEFAULT NULL) RETURNS text
LANGUAGE plpgsql AS $f$
DECLARE b boolean; d text; st text; msg text; ctx text;
BEGIN
  EXECUTE q INTO b;
  IF b THEN RETURN name || ' | ok'; END IF;
  IF detail IS NOT NULL THEN EXECUTE detail INTO d; END IF;
  RETURN name || ' | not ok: ' || coalesce(b::text, 'NULL') || coalesce(' — ' || d, '');
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, ctx = PG_EXCEPTION_CONTEXT;
  RETURN name || ' | ' || pg_temp.caught(st, msg, ctx);
END
$f$;

-- A query that must fail with the given SQLSTATE and a message LIKE msg_like;
-- where = 'worker' or 'coordinator': where the error must be raised.
CREATE FUNCTION pg_temp.check_error(name text, q text, want_state text, msg_like text, want_where text)
RETURNS text LANGUAGE plpgsql AS $f$
DECLARE st text; msg text; ctx text; got_where text;
BEGIN
  EXECUTE q;
  RETURN name || ' | not ok: no error';
EXCEPTION WHEN OTHERS THEN
  GET STACKED DIAGNOSTICS st = RETURNED_SQLSTATE, msg = MESSAGE_TEXT, ctx = PG_EXCEPTION_CONTEXT;
  got_where := CASE WHEN ctx LIKE '%while executing command on%' THEN 'worker' ELSE 'coordinator' END;
  IF st = want_state AND msg LIKE msg_like AND got_where = want_where THEN
    RETURN name || ' | ok';
  END IF;
  RETURN format('%s | not ok: expected %s from the %s, got %s from the %s: %s',
                name, want_state, want_where, st, got_where, msg);
END
$f$;

SET client_min_messages = warning;

-- ---------------------------------------------------------------------------
-- Data: 200,000 events (psql -v rows=N) over 32 tenants (the distribution column), 4 kinds,
-- 48 hours; ~57,000 users (dense hll per shard), Zipf-like pages (clear heavy
-- hitters), weights 1..5, and one column of each type the aggregates take.
-- lat (ddsketch): a latency-like float8, log-normal (exp(3 + 1.5 z), z a
-- normal deviate by Box-Muller from two hashes of the event id), so nearly
-- every value is distinct and they span ~10^-2 .. 10^5; plus zeros (1 in
-- 53), negatives (1 in 41) and NULLs (1 in 89).
-- Deterministic; some NULLs. events_local is the same data, not distributed.
-- ---------------------------------------------------------------------------

CREATE TABLE events_local AS
SELECT event_id, tenant_id, kind, ts, user_id, page, n,
       v::smallint AS c_int2, v * 7 AS c_int4, v * 1000003::bigint AS c_int8, v / 7.0 AS c_numeric,
       (v / 4.0)::real AS c_float4, v / 3.0::float8 AS c_float8, 't' || v AS c_text,
       ('v' || v)::varchar(16) AS c_varchar, ('b' || v)::char(8) AS c_bpchar,
       decode(md5(v::text), 'hex') AS c_bytea, md5(v::text)::uuid AS c_uuid,
       date '2024-01-01' + v AS c_date, timestamp '2024-01-01' + v * interval '1 minute' AS c_timestamp,
       timestamptz '2024-01-01 00:00+00' + v * interval '1 minute' AS c_timestamptz, v % 3 = 0 AS c_bool,
       CASE WHEN event_id % 89 = 0 THEN NULL
            WHEN event_id % 53 = 0 THEN 0::float8
            WHEN event_id % 41 = 0 THEN -exp(1.5 * z)
            ELSE exp(3 + 1.5 * z) END AS lat
FROM (
  SELECT i AS event_id,
         1 + (abs(hashint8extended(i, 1)) % 32)::int AS tenant_id,
         (abs(hashint8extended(i, 2)) % 4)::int AS kind,
         timestamptz '2024-03-01 00:00:00+00' + (abs(hashint8extended(i, 3)) % 172800) * interval '1 second' AS ts,
         CASE WHEN i % 1000 = 0 THEN NULL ELSE abs(hashint8extended(i, 4)) % 60000 END AS user_id,
         'p' || floor(power(2000, (abs(hashint8extended(i, 5)) % 1000000) / 1e6))::int AS page,
         1 + abs(hashint8extended(i, 6)) % 5 AS n,
         CASE WHEN i % 97 = 0 THEN NULL
              ELSE floor(power(5000, (abs(hashint8extended(i, 7)) % 1000000) / 1e6))::int END AS v,
         sqrt(-2 * ln(((abs(hashint8extended(i, 8)) % 1000000) + 0.5)::float8 / 1e6))
           * cos(2 * pi() * ((abs(hashint8extended(i, 9)) % 1000000)::float8 / 1e6)) AS z
  FROM generate_series(1, :rows) i) s;
-- the cms checks read the true counts of a group's keys from the local copy
CREATE INDEX ON events_local ((tenant_id::text));
ANALYZE events_local;

CREATE TABLE events (LIKE events_local);
SELECT create_distributed_table('events', 'tenant_id');
INSERT INTO events SELECT * FROM events_local;
ANALYZE events;

-- Sketches per tenant, kind and day (256 rows), built locally: the input of
-- hll_union, cms_union, bloom_union and ddsketch_union. hp has p = 10 + kind:
-- hll_union over it folds different precisions (exactly, down to the
-- smallest). dp has relative accuracy 0.01, 0.02, 0.05, 0.1 by kind (scales
-- 6, 5, 3, 2): ddsketch_union over it folds finer buckets into the coarsest
-- scale. dm has 2048, 512, 128, 64 buckets by kind: ddsketch_union over it
-- collapses to the smallest limit. t: topk_agg(page) at k = 1024 (each of
-- these ~780 rows holds fewer distinct pages than that: no purge), tk at k =
-- 16, 64, 256, 1024 by kind (topk_union over it merges at the smallest k),
-- tw weighted by n at k = 64 (purged). theta, the input of theta_union and
-- theta_intersect: th = theta_agg(user_id), exact in every row (666..860
-- users, k = 4096; their union estimates); thl = theta_agg(user_id, 6 +
-- kind), lg_k 6..9 by kind, estimating in every row (a union or an
-- intersection over it works at the smallest lg_k); tp = theta_agg(page),
-- exact (310..389 pages: theta_intersect over it holds the pages of every
-- row, 17 of them); tpl = theta_agg(page, 6 + kind), estimating but for kind
-- 3 (k = 512). cb = counting_bloom_agg(user_id, 10000, 0.01) and cf =
-- cuckoo_agg(user_id, 60000, 0.01): the inputs of counting_bloom_union (its
-- counters sum up every row's users, saturating) and cuckoo_union (60,000
-- members hold all 57,800 users without growing).
CREATE TABLE sketches_local AS
SELECT tenant_id, kind, date_trunc('day', ts) AS day,
       hll_agg(user_id) AS h, hll_agg(user_id, 10 + kind) AS hp,
       cms_agg(page) AS c, bloom_agg(user_id, 20000, 0.01) AS b,
       ddsketch_agg(lat) AS d, ddsketch_agg(lat, (ARRAY[0.01, 0.02, 0.05, 0.1])[kind + 1]) AS dp,
       ddsketch_agg(lat, 0.01, (ARRAY[2048, 512, 128, 64])[kind + 1]) AS dm,
       topk_agg(page) AS t, topk_agg(page, (ARRAY[16, 64, 256, 1024])[kind + 1]) AS tk,
       topk_agg_weighted(page, n, 64) AS tw,
       theta_agg(user_id) AS th, theta_agg(user_id, 6 + kind) AS thl,
       theta_agg(page) AS tp, theta_agg(page, 6 + kind) AS tpl,
       counting_bloom_agg(user_id, 10000, 0.01) AS cb, cuckoo_agg(user_id, 60000, 0.01) AS cf,
       kll_agg(lat) AS kl, ell_agg(user_id) AS e, ell_agg(user_id, 9 + kind) AS ep
FROM events_local GROUP BY 1, 2, 3;
CREATE TABLE sketches (LIKE sketches_local);
SELECT create_distributed_table('sketches', 'tenant_id', colocate_with => 'events');
INSERT INTO sketches SELECT * FROM sketches_local;
-- The same rollup, not colocated (a colocation group of its own, 6 shards):
-- its theta aggregates split and push down like those of sketches.
CREATE TABLE sketches_nc_local AS SELECT * FROM sketches_local;
CREATE TABLE sketches_nc (LIKE sketches_local);
SELECT create_distributed_table('sketches_nc', 'tenant_id', colocate_with => 'none', shard_count => 6);
INSERT INTO sketches_nc SELECT * FROM sketches_nc_local;

-- Rows in two tenants only: most shards of these tables are empty.
CREATE TABLE events_sparse_local AS SELECT * FROM events_local WHERE tenant_id IN (5, 6);
CREATE TABLE events_sparse (LIKE events_local);
SELECT create_distributed_table('events_sparse', 'tenant_id', colocate_with => 'events');
INSERT INTO events_sparse SELECT * FROM events_sparse_local;
CREATE TABLE sketches_sparse_local AS SELECT * FROM sketches_local WHERE tenant_id IN (5, 6);
CREATE TABLE sketches_sparse (LIKE sketches_local);
SELECT create_distributed_table('sketches_sparse', 'tenant_id', colocate_with => 'events');
INSERT INTO sketches_sparse SELECT * FROM sketches_sparse_local;

-- No rows at all.
CREATE TABLE events_empty (LIKE events_local);
SELECT create_distributed_table('events_empty', 'tenant_id', colocate_with => 'events');
CREATE TABLE events_empty_local (LIKE events_local);
CREATE TABLE sketches_empty (LIKE sketches_local);
SELECT create_distributed_table('sketches_empty', 'tenant_id', colocate_with => 'events');
CREATE TABLE sketches_empty_local (LIKE sketches_local);

-- Every aggregate and overload: family, aggregate (%s = the value column),
-- the local aggregate it is compared with, the source table, the value
-- column, its true count for cms keys, and the comparison mode.
CREATE TEMP TABLE aggs (ord serial, family text, agg text, local_agg text, tbl text,
                        col text, cnt text, mode text, keycol text);
INSERT INTO aggs (family, agg, local_agg, tbl, col, cnt, mode) VALUES
  ('hll',   'hll_agg(%s)',                                       NULL, 'events',   'user_id', NULL, NULL),
  ('hll',   'hll_agg(%s, 11)',                                   NULL, 'events',   'user_id', NULL, NULL),
  ('hll',   'hll_union(%s)',                                     NULL, 'sketches', 'h',       NULL, NULL),
  ('hll',   'hll_union(%s)',                                     NULL, 'sketches', 'hp',      NULL, NULL),
  ('cms',   'cms_agg(%s)',                                       NULL, 'events',   'page', 'count(*)', 'exact'),
  ('cms',   'cms_agg(%s, 0.01, 0.05)',                           NULL, 'events',   'page', 'count(*)', 'exact'),
  ('cms',   'cms_agg(%s, 0.01, 0.05, true)',   'cms_agg(%s, 0.01, 0.05, false)', 'events', 'page', 'count(*)', 'bound'),
  ('cms',   'cms_agg(%s, 0.01, 0.05, false, 20)',                NULL, 'events',   'page', 'count(*)', 'exact'),
  ('cms',   'cms_agg_weighted(%s, n)',                           NULL, 'events',   'page', 'sum(n)::bigint', 'exact'),
  ('cms',   'cms_agg_weighted(%s, n, 0.01, 0.05)',               NULL, 'events',   'page', 'sum(n)::bigint', 'exact'),
  ('cms',   'cms_agg_weighted(%s, n, 0.01, 0.05, true)', 'cms_agg_weighted(%s, n, 0.01, 0.05, false)', 'events', 'page', 'sum(n)::bigint', 'bound'),
  ('cms',   'cms_agg_weighted(%s, n, 0.01, 0.05, false, 20)',    NULL, 'events',   'page', 'sum(n)::bigint', 'exact'),
  ('cms',   'cms_agg_sized(%s, 500, 4)',                         NULL, 'events',   'page', 'count(*)', 'exact'),
  ('cms',   'cms_agg_sized(%s, 500, 4, true)',  'cms_agg_sized(%s, 500, 4, false)', 'events', 'page', 'count(*)', 'bound'),
  ('cms',   'cms_agg_sized(%s, 500, 4, false, 20)',              NULL, 'events',   'page', 'count(*)', 'exact'),
  ('cms',   'cms_agg_weighted_sized(%s, n, 500, 4)',             NULL, 'events',   'page', 'sum(n)::bigint', 'exact'),
  ('cms',   'cms_agg_weighted_sized(%s, n, 500, 4, true)', 'cms_agg_weighted_sized(%s, n, 500, 4, false)', 'events', 'page', 'sum(n)::bigint', 'bound'),
  ('cms',   'cms_agg_weighted_sized(%s, n, 500, 4, false, 20)',  NULL, 'events',   'page', 'sum(n)::bigint', 'exact'),
  ('cms',   'cms_union(%s)',                                     NULL, 'sketches', 'c',    NULL, 'exact'),
  ('bloom', 'bloom_agg(%s, 100000, 0.01)',                       NULL, 'events',   'user_id', NULL, NULL),
  ('bloom', 'bloom_agg_bits(%s, 65536, 5)',                      NULL, 'events',   'user_id', NULL, NULL),
  ('bloom', 'bloom_agg(%s, 100000, 0.01, ''split_block'')',      NULL, 'events',   'user_id', NULL, NULL),
  ('bloom', 'bloom_union(%s)',                                   NULL, 'sketches', 'b',       NULL, NULL),
  ('ddsketch', 'ddsketch_agg(%s)',                               NULL, 'events',   'lat',     NULL, 'bytes'),
  ('ddsketch', 'ddsketch_agg(%s, 0.001)',                        NULL, 'events',   'lat',     NULL, 'bytes'),
  ('ddsketch', 'ddsketch_agg(%s, 0.01, 64)',                     NULL, 'events',   'lat',     NULL, 'bytes'),
  ('ddsketch', 'ddsketch_union(%s)',                             NULL, 'sketches', 'd',       NULL, 'bytes'),
  ('ddsketch', 'ddsketch_union(%s)',                             NULL, 'sketches', 'dp',      NULL, 'bytes'),
  ('ddsketch', 'ddsketch_union(%s)',                             NULL, 'sketches', 'dm',      NULL, 'bytes'),
  -- weighted by n (bigint 1..5): exact counts, the same bytes on both sides
  ('ddsketch', 'ddsketch_agg(%s, n)',                            NULL, 'events',   'lat',     NULL, 'bytes'),
  ('ddsketch', 'ddsketch_agg(%s, n, 0.001)',                     NULL, 'events',   'lat',     NULL, 'bytes'),
  ('ddsketch', 'ddsketch_agg(%s, n, 0.01, 64)',                  NULL, 'events',   'lat',     NULL, 'bytes'),
  -- kll: count, min, max, k and value type exact (pg_temp.check_same)
  ('kll',   'kll_agg(%s)',                                       NULL, 'events',   'lat',     NULL, NULL),
  ('kll',   'kll_agg(%s, 64)',                                   NULL, 'events',   'lat',     NULL, NULL),
  ('kll',   'kll_agg(%s, n, 200)',                               NULL, 'events',   'lat',     NULL, NULL),
  ('kll',   'kll_union(%s)',                                     NULL, 'sketches', 'kl',      NULL, NULL),
  -- ell: merges are exact and order-free, so the split aggregate gives the
  -- local bytes; ep has p = 9 + kind (ell_union folds to 9), and the cast
  -- to hll unites with hll rollups as hll_agg's registers
  ('ell',   'ell_agg(%s)',                                       NULL, 'events',   'user_id', NULL, NULL),
  ('ell',   'ell_agg(%s, 12)',                                   NULL, 'events',   'user_id', NULL, NULL),
  ('ell',   'ell_agg(%s, 12)',                                   NULL, 'events',   'page',    NULL, NULL),
  ('ell',   'ell_union(%s)',                                     NULL, 'sketches', 'e',       NULL, NULL),
  ('ell',   'ell_union(%s)',                                     NULL, 'sketches', 'ep',      NULL, NULL),
  ('hll',   'hll_union(%s::hll)',                                NULL, 'sketches', 'e',       NULL, NULL),
  -- topk: page (text, ~2000 distinct, Zipf-like), c_int4 (integer) and c_int8
  -- (bigint, ~5000 distinct, Zipf-like), user_id (bigint, ~57,000 distinct,
  -- uniform: nothing frequent, purges all along) and kind (integer, 4
  -- distinct); k = 4096 and 8192 hold every key (compared byte for byte)
  ('topk',  'topk_agg(%s)',                                      NULL, 'events',   'page',    'count(*)', 'bounds'),
  ('topk',  'topk_agg(%s, 64)',                                  NULL, 'events',   'page',    'count(*)', 'bounds'),
  ('topk',  'topk_agg(%s, 4096)',                                NULL, 'events',   'page',    'count(*)', 'bounds'),
  ('topk',  'topk_agg(%s)',                                      NULL, 'events',   'c_int4',  'count(*)', 'bounds'),
  ('topk',  'topk_agg(%s, 256)',                                 NULL, 'events',   'c_int8',  'count(*)', 'bounds'),
  ('topk',  'topk_agg(%s, 100)',                                 NULL, 'events',   'user_id', 'count(*)', 'bounds'),
  ('topk',  'topk_agg(%s)',                                      NULL, 'events',   'kind',    'count(*)', 'bounds'),
  ('topk',  'topk_agg_weighted(%s, n)',                          NULL, 'events',   'page',    'sum(n)::bigint', 'bounds'),
  ('topk',  'topk_agg_weighted(%s, n, 64)',                      NULL, 'events',   'page',    'sum(n)::bigint', 'bounds'),
  ('topk',  'topk_agg_weighted(%s, n, 8192)',                    NULL, 'events',   'c_int4',  'sum(n)::bigint', 'bounds'),
  ('topk',  'topk_agg_weighted(%s, n, 32)',                      NULL, 'events',   'c_int8',  'sum(n)::bigint', 'bounds'),
  ('topk',  'topk_union(%s)',                                    NULL, 'sketches', 't',       'count(*)', 'bounds'),
  ('topk',  'topk_union(%s)',                                    NULL, 'sketches', 'tk',      'count(*)', 'bounds'),
  ('topk',  'topk_union(%s)',                                    NULL, 'sketches', 'tw',      'sum(n)::bigint', 'bounds'),
  -- theta, compared byte for byte: user_id (bigint, 57,800 distinct:
  -- estimating at lg_k 12 and 8, exact at 16), page (text, 1,999 distinct:
  -- exact at lg_k 12, estimating at 6), c_int4 (integer) and c_int8 (bigint,
  -- 4,986 distinct: estimating at lg_k 12 and 10), c_text (text, at the
  -- smallest lg_k, 4) and kind (integer, 4 values); theta_union and
  -- theta_intersect of every theta column of the rollup sketches, colocated
  -- with events and not (sketches_nc)
  ('theta', 'theta_agg(%s)',                                     NULL, 'events',   'user_id', NULL, 'bytes'),
  ('theta', 'theta_agg(%s, 8)',                                  NULL, 'events',   'user_id', NULL, 'bytes'),
  ('theta', 'theta_agg(%s, 16)',                                 NULL, 'events',   'user_id', NULL, 'bytes'),
  ('theta', 'theta_agg(%s)',                                     NULL, 'events',   'page',    NULL, 'bytes'),
  ('theta', 'theta_agg(%s, 6)',                                  NULL, 'events',   'page',    NULL, 'bytes'),
  ('theta', 'theta_agg(%s)',                                     NULL, 'events',   'c_int4',  NULL, 'bytes'),
  ('theta', 'theta_agg(%s, 10)',                                 NULL, 'events',   'c_int8',  NULL, 'bytes'),
  ('theta', 'theta_agg(%s, 4)',                                  NULL, 'events',   'c_text',  NULL, 'bytes'),
  ('theta', 'theta_agg(%s)',                                     NULL, 'events',   'kind',    NULL, 'bytes'),
  ('theta', 'theta_union(%s)',                                   NULL, 'sketches', 'th',      NULL, 'bytes'),
  ('theta', 'theta_union(%s)',                                   NULL, 'sketches', 'thl',     NULL, 'bytes'),
  ('theta', 'theta_union(%s)',                                   NULL, 'sketches', 'tp',      NULL, 'bytes'),
  ('theta', 'theta_union(%s)',                                   NULL, 'sketches', 'tpl',     NULL, 'bytes'),
  ('theta', 'theta_intersect(%s)',                               NULL, 'sketches', 'th',      NULL, 'bytes'),
  ('theta', 'theta_intersect(%s)',                               NULL, 'sketches', 'thl',     NULL, 'bytes'),
  ('theta', 'theta_intersect(%s)',                               NULL, 'sketches', 'tp',      NULL, 'bytes'),
  ('theta', 'theta_intersect(%s)',                               NULL, 'sketches', 'tpl',     NULL, 'bytes'),
  ('theta', 'theta_union(%s)',                                   NULL, 'sketches_nc', 'th',   NULL, 'bytes'),
  ('theta', 'theta_union(%s)',                                   NULL, 'sketches_nc', 'thl',  NULL, 'bytes'),
  ('theta', 'theta_union(%s)',                                   NULL, 'sketches_nc', 'tp',   NULL, 'bytes'),
  ('theta', 'theta_union(%s)',                                   NULL, 'sketches_nc', 'tpl',  NULL, 'bytes'),
  ('theta', 'theta_intersect(%s)',                               NULL, 'sketches_nc', 'th',   NULL, 'bytes'),
  ('theta', 'theta_intersect(%s)',                               NULL, 'sketches_nc', 'thl',  NULL, 'bytes'),
  ('theta', 'theta_intersect(%s)',                               NULL, 'sketches_nc', 'tp',   NULL, 'bytes'),
  ('theta', 'theta_intersect(%s)',                               NULL, 'sketches_nc', 'tpl',  NULL, 'bytes'),
  -- counting_bloom, compared byte for byte (saturating counter sums do not
  -- depend on the merge order): user_id within and past its n (10,000 of
  -- 57,800: counters saturate), page (text); counting_bloom_union of the
  -- rollup's cb. cuckoo, compared by what it answers (pg_temp.cuckoo_members):
  -- user_id sized for all of them, page (text), c_int8 (bigint) past its n
  -- (1,000 of 4,986: the filter grows), and cuckoo_union of the rollup's cf.
  ('counting_bloom', 'counting_bloom_agg(%s, 100000, 0.01)',     NULL, 'events',   'user_id', NULL, 'bytes'),
  ('counting_bloom', 'counting_bloom_agg(%s, 10000, 0.001)',     NULL, 'events',   'user_id', NULL, 'bytes'),
  ('counting_bloom', 'counting_bloom_agg(%s, 5000, 0.01)',       NULL, 'events',   'page',    NULL, 'bytes'),
  ('counting_bloom', 'counting_bloom_union(%s)',                 NULL, 'sketches', 'cb',      NULL, 'bytes'),
  ('cuckoo', 'cuckoo_agg(%s, 100000, 0.01)',                     NULL, 'events',   'user_id', NULL, 'members'),
  ('cuckoo', 'cuckoo_agg(%s, 5000, 0.001)',                      NULL, 'events',   'page',    NULL, 'members'),
  ('cuckoo', 'cuckoo_agg(%s, 1000, 0.01)',                       NULL, 'events',   'c_int8',  NULL, 'members'),
  ('cuckoo', 'cuckoo_union(%s)',                                 NULL, 'sketches', 'cf',      NULL, 'members');
UPDATE aggs SET keycol = CASE WHEN col IN ('c', 't', 'tk', 'tw') THEN 'page'
                              WHEN col = 'cf' THEN 'user_id' ELSE col END;
UPDATE aggs SET cnt = 'count(*)' WHERE agg = 'cms_union(%s)';

\o
-- ---------------------------------------------------------------------------
-- 1. Every aggregate, every overload, in three shapes: plan and result.
-- ---------------------------------------------------------------------------
\o /dev/null
CREATE TEMP TABLE shapes (ord int, shape text);
INSERT INTO shapes VALUES (1, 'none'), (2, 'kind'), (3, 'tenant');
\o
SELECT format('SELECT pg_temp.check_agg(%L, %L, %L, %L, %L, %L, %L, %L, %L, %L)',
              family, agg, coalesce(local_agg, agg), tbl, tbl || '_local',
              col, keycol, cnt, mode, shape)
FROM aggs CROSS JOIN shapes ORDER BY aggs.ord, shapes.ord
\gexec

-- ---------------------------------------------------------------------------
-- 2. Every input type of hll_agg, cms_agg, bloom_agg, topk_agg and theta_agg,
-- split (no GROUP BY), and the numeric ones of ddsketch_agg (through the
-- implicit cast to double precision).
-- ---------------------------------------------------------------------------
SELECT format('SELECT pg_temp.check_agg(%L, %L, %L, %L, %L, %L, %L, %L, %L, %L, false)',
              family, agg, agg, 'events', 'events_local', col, col, 'count(*)', 'exact', 'none')
FROM (VALUES (1, 'hll', 'hll_agg(%s)'), (2, 'cms', 'cms_agg(%s)'),
             (3, 'bloom', 'bloom_agg(%s, 10000, 0.01)')) a(o, family, agg)
CROSS JOIN unnest(ARRAY['c_int2', 'c_int4', 'c_int8', 'c_numeric', 'c_float4', 'c_float8',
                        'c_text', 'c_varchar', 'c_bpchar', 'c_bytea', 'c_uuid', 'c_date',
                        'c_timestamp', 'c_timestamptz', 'c_bool']) WITH ORDINALITY t(col, tord)
ORDER BY a.o, t.tord
\gexec
-- bloom's split-block layout over every type with a Parquet physical type
-- (numeric and boolean have none: 0A000, not a distributed question).
SELECT format('SELECT pg_temp.check_agg(%L, %L, %L, %L, %L, %L, %L, %L, %L, %L, false)',
              'bloom', agg, agg, 'events', 'events_local', col, col, 'count(*)', 'exact', 'none')
FROM (VALUES ('bloom_agg(%s, 10000, 0.01, ''split_block'')')) a(agg)
CROSS JOIN unnest(ARRAY['c_int2', 'c_int4', 'c_int8', 'c_float4', 'c_float8',
                        'c_text', 'c_varchar', 'c_bpchar', 'c_bytea', 'c_uuid', 'c_date',
                        'c_timestamp', 'c_timestamptz']) WITH ORDINALITY t(col, tord)
ORDER BY t.tord
\gexec
SELECT format('SELECT pg_temp.check_agg(%L, %L, %L, %L, %L, %L, %L, %L, %L, %L)',
              'ddsketch', 'ddsketch_agg(%s)', 'ddsketch_agg(%s)', 'events', 'events_local', col, col,
              NULL, 'bytes', 'none')
FROM unnest(ARRAY['c_int2', 'c_int4', 'c_int8', 'c_numeric', 'c_float4', 'c_float8']) WITH ORDINALITY t(col, tord)
ORDER BY t.tord
\gexec
-- topk_agg at k = 256 (every column but c_bool purges), with the plan: each
-- type has its twin, so each splits; the bounds are checked for every value
-- read back in its own type (varchar and char(n) go to the text twin)
SELECT format('SELECT pg_temp.check_agg(%L, %L, %L, %L, %L, %L, %L, %L, %L, %L)',
              'topk', 'topk_agg(%s, 256)', 'topk_agg(%s, 256)', 'events', 'events_local', col, col,
              'count(*)', 'bounds', 'none')
FROM unnest(ARRAY['c_int2', 'c_int4', 'c_int8', 'c_numeric', 'c_float4', 'c_float8',
                  'c_text', 'c_varchar', 'c_bpchar', 'c_bytea', 'c_uuid', 'c_date',
                  'c_timestamp', 'c_timestamptz', 'c_bool']) WITH ORDINALITY t(col, tord)
ORDER BY t.tord
\gexec
-- theta_agg at the default lg_k 12 and at lg_k 8 (every column but c_bool
-- holds 4,986 distinct values: estimating at both), with the plan, by the
-- bytes (which record the element kind too: number, float, text, ...)
SELECT format('SELECT pg_temp.check_agg(%L, %L, %L, %L, %L, %L, %L, %L, %L, %L)',
              'theta', a.agg, a.agg, 'events', 'events_local', col, col, NULL, 'bytes', 'none')
FROM (VALUES (1, 'theta_agg(%s)'), (2, 'theta_agg(%s, 8)')) a(o, agg)
CROSS JOIN unnest(ARRAY['c_int2', 'c_int4', 'c_int8', 'c_numeric', 'c_float4', 'c_float8',
                        'c_text', 'c_varchar', 'c_bpchar', 'c_bytea', 'c_uuid', 'c_date',
                        'c_timestamp', 'c_timestamptz', 'c_bool']) WITH ORDINALITY t(col, tord)
ORDER BY a.o, t.tord
\gexec
-- counting_bloom_agg (byte for byte, the element kind included) and
-- cuckoo_agg (every value present, one copy per shard that met it) over every
-- type, with the plan: each type has its typed twin, so each splits
SELECT format('SELECT pg_temp.check_agg(%L, %L, %L, %L, %L, %L, %L, %L, %L, %L)',
              a.family, a.agg, a.agg, 'events', 'events_local', col, col, NULL, a.mode, 'none')
FROM (VALUES (1, 'counting_bloom', 'counting_bloom_agg(%s, 10000, 0.01)', 'bytes'),
             (2, 'cuckoo', 'cuckoo_agg(%s, 10000, 0.01)', 'members')) a(o, family, agg, mode)
CROSS JOIN unnest(ARRAY['c_int2', 'c_int4', 'c_int8', 'c_numeric', 'c_float4', 'c_float8',
                        'c_text', 'c_varchar', 'c_bpchar', 'c_bytea', 'c_uuid', 'c_date',
                        'c_timestamp', 'c_timestamptz', 'c_bool']) WITH ORDINALITY t(col, tord)
ORDER BY a.o, t.tord
\gexec

-- ---------------------------------------------------------------------------
-- 3. Reading the results: expressions over the aggregates on the coordinator.
-- ---------------------------------------------------------------------------
SELECT pg_temp.check_rows('kind, hll_cardinality(hll_agg(user_id)) GROUP BY kind ORDER BY 2 DESC LIMIT 2',
  $q$SELECT kind || ':' || hll_cardinality(hll_agg(user_id)) FROM events GROUP BY kind ORDER BY hll_cardinality(hll_agg(user_id)) DESC, kind LIMIT 2$q$,
  $q$SELECT kind || ':' || hll_cardinality(hll_agg(user_id)) FROM events_local GROUP BY kind ORDER BY hll_cardinality(hll_agg(user_id)) DESC, kind LIMIT 2$q$,
  true);
SELECT pg_temp.check_rows('kind, # hll_union(h) GROUP BY kind HAVING # hll_union(h) > 10000',
  $q$SELECT kind || ':' || # hll_union(h) FROM sketches GROUP BY kind HAVING # hll_union(h) > 10000$q$,
  $q$SELECT kind || ':' || # hll_union(h) FROM sketches_local GROUP BY kind HAVING # hll_union(h) > 10000$q$);
SELECT pg_temp.check_rows('cms_topk((SELECT cms_union(c) FROM sketches), 10)',
  $q$SELECT value || ':' || frequency FROM cms_topk((SELECT cms_union(c) FROM sketches), 10)$q$,
  $q$SELECT value || ':' || frequency FROM cms_topk((SELECT cms_agg(page) FROM events_local), 10)$q$,
  true);
SELECT pg_temp.check_rows('bloom_contains(bloom_union(b), user_id) for every user of the events',
  $q$SELECT bloom_contains((SELECT bloom_union(b) FROM sketches), user_id)::text
     FROM (SELECT DISTINCT user_id FROM events WHERE user_id IS NOT NULL) u GROUP BY 1$q$,
  $q$SELECT 'true'$q$);
SELECT pg_temp.check_rows('cuckoo_contains(cuckoo_union(cf), user_id) and counting_bloom_to_bloom(counting_bloom_union(cb)) @> user_id for every user of the events',
  $q$SELECT (cuckoo_contains((SELECT cuckoo_union(cf) FROM sketches), user_id)
             AND (SELECT counting_bloom_to_bloom(counting_bloom_union(cb)) FROM sketches) @> user_id)::text
     FROM (SELECT DISTINCT user_id FROM events WHERE user_id IS NOT NULL) u GROUP BY 1$q$,
  $q$SELECT 'true'$q$);
SELECT pg_temp.check_rows('kind, ddsketch_quantiles(ddsketch_agg(lat), {0.5, 0.95, 0.99}) GROUP BY kind',
  $q$SELECT kind || ':' || ddsketch_quantiles(ddsketch_agg(lat), '{0.5, 0.95, 0.99}')::text FROM events GROUP BY kind$q$,
  $q$SELECT kind || ':' || ddsketch_quantiles(ddsketch_agg(lat), '{0.5, 0.95, 0.99}')::text FROM events_local GROUP BY kind$q$);
SELECT pg_temp.check_rows('tenant_id, ddsketch_quantile(ddsketch_union(dp), 0.99) GROUP BY tenant_id HAVING ddsketch_count(..) > 6180',
  $q$SELECT tenant_id || ':' || ddsketch_quantile(ddsketch_union(dp), 0.99) FROM sketches
     GROUP BY tenant_id HAVING ddsketch_count(ddsketch_union(dp)) > 6180$q$,
  $q$SELECT tenant_id || ':' || ddsketch_quantile(ddsketch_union(dp), 0.99) FROM sketches_local
     GROUP BY tenant_id HAVING ddsketch_count(ddsketch_union(dp)) > 6180$q$);
SELECT pg_temp.check_rows('kind, ddsketch_cdf, ddsketch_pmf, ddsketch_ranks and ddsketch_trimmed_mean of ddsketch_agg(lat) GROUP BY kind',
  $q$SELECT kind || ':' || ddsketch_cdf(ddsketch_agg(lat), '{0, 10, 100, 1000}')::text
            || ddsketch_pmf(ddsketch_agg(lat), '{0, 10, 100, 1000}')::text
            || ddsketch_ranks(ddsketch_agg(lat), '{1000, -5, 20}')::text
            || ddsketch_trimmed_mean(ddsketch_agg(lat), 0.05, 0.95) FROM events GROUP BY kind$q$,
  $q$SELECT kind || ':' || ddsketch_cdf(ddsketch_agg(lat), '{0, 10, 100, 1000}')::text
            || ddsketch_pmf(ddsketch_agg(lat), '{0, 10, 100, 1000}')::text
            || ddsketch_ranks(ddsketch_agg(lat), '{1000, -5, 20}')::text
            || ddsketch_trimmed_mean(ddsketch_agg(lat), 0.05, 0.95) FROM events_local GROUP BY kind$q$);
SELECT pg_temp.check_rows('tenant_id, ddsketch_cdf(ddsketch_union(dp), {1, 100}) GROUP BY tenant_id',
  $q$SELECT tenant_id || ':' || ddsketch_cdf(ddsketch_union(dp), '{1, 100}')::text FROM sketches GROUP BY tenant_id$q$,
  $q$SELECT tenant_id || ':' || ddsketch_cdf(ddsketch_union(dp), '{1, 100}')::text FROM sketches_local GROUP BY tenant_id$q$);
-- DataDog's DDSketch protobuf: the export of a distributed rollup, and the
-- import run on the workers (one protobuf per shard row) then unioned on
-- the coordinator, byte for byte as on the local copy.
SELECT pg_temp.check_rows('tenant_id, ddsketch_to_ddsketch_proto(ddsketch_union(dp)) GROUP BY tenant_id',
  $q$SELECT tenant_id || ':' || md5(ddsketch_to_ddsketch_proto(ddsketch_union(dp))) FROM sketches GROUP BY tenant_id$q$,
  $q$SELECT tenant_id || ':' || md5(ddsketch_to_ddsketch_proto(ddsketch_union(dp))) FROM sketches_local GROUP BY tenant_id$q$);
SELECT pg_temp.check_rows('kind, ddsketch_union(ddsketch_from_ddsketch_proto(ddsketch_to_ddsketch_proto(d))) GROUP BY kind',
  $q$SELECT kind || ':' || md5(ddsketch_to_ddsketch_proto(ddsketch_union(ddsketch_from_ddsketch_proto(ddsketch_to_ddsketch_proto(d)))))
     FROM sketches GROUP BY kind$q$,
  $q$SELECT kind || ':' || md5(ddsketch_to_ddsketch_proto(ddsketch_union(ddsketch_from_ddsketch_proto(ddsketch_to_ddsketch_proto(d)))))
     FROM sketches_local GROUP BY kind$q$);
SELECT pg_temp.check_true('ddsketch_agg(lat, n) on the distributed events = ddsketch_agg(lat) over the local rows repeated n times',
  $q$SELECT (SELECT ddsketch_agg(lat, n) FROM events)
            = (SELECT ddsketch_agg(lat) FROM events_local, generate_series(1, n))$q$);
SELECT pg_temp.check_true('ddsketch_agg(lat): count, min and max exact (count(lat), min(lat), max(lat), all distributed)',
  $q$SELECT ddsketch_count(s) = c AND ddsketch_min(s) = lo AND ddsketch_max(s) = hi
     FROM (SELECT ddsketch_agg(lat) AS s, count(lat) AS c, min(lat) AS lo, max(lat) AS hi FROM events) x$q$);
SELECT pg_temp.check_true('ddsketch_union(d): within its relative accuracy of percentile_disc for q = 0.001 .. 0.999',
  $q$SELECT bool_and(abs(ddsketch_quantile(s, q) - exact) <= ddsketch_relative_accuracy(s) * abs(exact))
     FROM (SELECT ddsketch_union(d) AS s FROM sketches) d,
          (SELECT q, percentile_disc(q) WITHIN GROUP (ORDER BY lat) AS exact
           FROM events_local, unnest('{0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999}'::float8[]) q
           GROUP BY q) e$q$,
  $q$SELECT string_agg(q || ': ' || ddsketch_quantile(s, q) || ' vs ' || exact, ', ')
     FROM (SELECT ddsketch_union(d) AS s FROM sketches) d,
          (SELECT q, percentile_disc(q) WITHIN GROUP (ORDER BY lat) AS exact
           FROM events_local, unnest('{0.001, 0.01, 0.1, 0.25, 0.5, 0.75, 0.9, 0.99, 0.999}'::float8[]) q
           GROUP BY q) e$q$);

-- topk: the heavy hitters read on the coordinator, against the exact answers
-- (the top pages are far apart, each ahead of the next by more than N/(k+1))
SELECT pg_temp.check_rows('topk_items(topk_agg(page), 10): the exact top 10, best first',
  $q$SELECT item FROM topk_items((SELECT topk_agg(page) FROM events), 10)$q$,
  $q$SELECT page FROM events_local GROUP BY page ORDER BY count(*) DESC, page LIMIT 10$q$,
  true);
SELECT pg_temp.check_rows('kind, the top 3 of topk_agg(page) GROUP BY kind: the exact top 3 of each kind',
  $q$SELECT kind || ':' || string_agg(i.item, ' ' ORDER BY i.o)
     FROM (SELECT kind, topk_agg(page) AS s FROM events GROUP BY kind) x,
          topk_items(x.s, 3) WITH ORDINALITY i(item, estimate, lower_bound, upper_bound, o)
     GROUP BY kind$q$,
  $q$SELECT kind || ':' || string_agg(page, ' ' ORDER BY r)
     FROM (SELECT kind, page, row_number() OVER (PARTITION BY kind ORDER BY count(*) DESC, page) AS r
           FROM events_local GROUP BY kind, page) x
     WHERE r <= 3 GROUP BY kind$q$);
SELECT pg_temp.check_rows('topk_items(topk_agg_weighted(c_int8, n), 5, NULL::bigint): the exact top 5 by sum(n), as bigint',
  $q$SELECT item + 0 FROM topk_items((SELECT topk_agg_weighted(c_int8, n) FROM events), 5, NULL::bigint)$q$,
  $q$SELECT c_int8 FROM events_local WHERE c_int8 IS NOT NULL GROUP BY c_int8 ORDER BY sum(n) DESC, c_int8 LIMIT 5$q$,
  true);
SELECT pg_temp.check_true('topk_agg(page), all distributed: topk_total = count(page), max_error <= count(page)/1025',
  $q$SELECT topk_total(topk_agg(page)) = count(page) AND topk_max_error(topk_agg(page)) <= count(page) / 1025
     FROM events$q$);
SELECT pg_temp.check_true('topk_frequent(topk_union(t), 0.01, no_false_negatives): every page above 1% of N listed',
  $q$SELECT count(*) > 0 AND bool_and(e.page IN (
            SELECT f.item FROM (SELECT topk_union(t) AS s FROM sketches) u,
                               topk_frequent(u.s, 0.01, 'no_false_negatives') f))
     FROM (SELECT page FROM events_local GROUP BY page
           HAVING count(*) > floor(0.01 * (SELECT count(page) FROM events_local))) e$q$);
SELECT pg_temp.check_true('topk_frequent(topk_union(t), 0.01, no_false_positives): every page listed above 1% of N',
  $q$SELECT count(*) > 0 AND bool_and(e.c > floor(0.01 * (SELECT count(page) FROM events_local)))
     FROM (SELECT topk_union(t) AS s FROM sketches) u
          CROSS JOIN topk_frequent(u.s, 0.01, 'no_false_positives') f
          LEFT JOIN (SELECT page, count(*) AS c FROM events_local GROUP BY page) e ON e.page = f.item$q$);
-- aging: topk_scale on the coordinator (after a split union) and on the
-- workers (GROUP BY the distribution column), cms_scale on the coordinator
SELECT pg_temp.check_true('topk_scale(topk_union(t), 0.5): N halved, every page''s floor(count/2) within its bounds',
  $q$SELECT min(topk_total(u.s)) = (SELECT count(page) / 2 FROM events_local)
            AND bool_and(e.c / 2 BETWEEN x.lower_bound AND x.upper_bound)
     FROM (SELECT topk_scale(topk_union(t), 0.5) AS s FROM sketches) u,
          (SELECT page, count(*) AS c FROM events_local GROUP BY page) e,
          topk_estimate(u.s, e.page) x$q$);
-- (pushed down: the scaled summaries come back from the workers as results,
-- kept in a temporary table so that they can be joined with the local counts)
SELECT pg_temp.check_exec('topk_scale(topk_union(tk), 0.25) GROUP BY tenant_id (pushed down): into a temporary table',
  $q$CREATE TEMP TABLE topk_scaled_tenant AS
     SELECT tenant_id, topk_scale(topk_union(tk), 0.25) AS s FROM sketches GROUP BY tenant_id$q$);
SELECT pg_temp.check_true('topk_scale(topk_union(tk), 0.25) GROUP BY tenant_id (pushed down): per tenant N/4, floor(count/4) within bounds',
  $q$SELECT count(DISTINCT u.tenant_id) = 32 AND bool_and(topk_total(u.s) = n.total / 4)
            AND bool_and(e.c / 4 BETWEEN x.lower_bound AND x.upper_bound)
     FROM topk_scaled_tenant u
          JOIN (SELECT tenant_id, count(page) AS total FROM events_local GROUP BY 1) n USING (tenant_id)
          JOIN (SELECT tenant_id, page, count(*) AS c FROM events_local GROUP BY 1, 2) e USING (tenant_id),
          topk_estimate(u.s, e.page) x$q$);
-- cms_scale is read where it is computed, on the coordinator after a split
-- cms_union: N and the frequencies of a few pages equal the local ones
SELECT pg_temp.check_rows(format('cms_scale(cms_union(c), 0.5)%s: N and the frequencies of p1, p2, p50, p1999, nope = local', x.label),
  format($q$SELECT %1$s || ' ' || cms_total(cms_scale(cms_union(c), 0.5)) || ' '
                   || array_to_string(ARRAY[cms_frequency(cms_scale(cms_union(c), 0.5), 'p1'::text),
                                            cms_frequency(cms_scale(cms_union(c), 0.5), 'p2'::text),
                                            cms_frequency(cms_scale(cms_union(c), 0.5), 'p50'::text),
                                            cms_frequency(cms_scale(cms_union(c), 0.5), 'p1999'::text),
                                            cms_frequency(cms_scale(cms_union(c), 0.5), 'nope'::text)], ' ')
            FROM %2$s%3$s$q$, x.g, 'sketches', x.grp),
  format($q$SELECT %1$s || ' ' || cms_total(cms_scale(cms_union(c), 0.5)) || ' '
                   || array_to_string(ARRAY[cms_frequency(cms_scale(cms_union(c), 0.5), 'p1'::text),
                                            cms_frequency(cms_scale(cms_union(c), 0.5), 'p2'::text),
                                            cms_frequency(cms_scale(cms_union(c), 0.5), 'p50'::text),
                                            cms_frequency(cms_scale(cms_union(c), 0.5), 'p1999'::text),
                                            cms_frequency(cms_scale(cms_union(c), 0.5), 'nope'::text)], ' ')
            FROM %2$s%3$s$q$, x.g, 'sketches_local', x.grp))
FROM (VALUES (1, '', $$'all'$$, ''), (2, ' GROUP BY kind', 'kind', ' GROUP BY kind')) x(o, label, g, grp)
ORDER BY x.o;

-- theta: reading the sketches and their set algebra on the coordinator
-- (after split aggregates, FILTER for the two days) and on the workers
-- (GROUP BY tenant_id, pushed down), against the same query over the local
-- copy: sketches byte for byte, numbers equal (equal inputs, equal outputs);
-- and the exact answers within the bounds (at a confidence of 0.999)
SELECT pg_temp.check_rows('kind, theta_count(theta_agg(user_id)), theta_bounds(.., 0.99) GROUP BY kind',
  $q$SELECT kind || ':' || theta_count(theta_agg(user_id)) || ' ' || theta_bounds(theta_agg(user_id), 0.99)::text
     FROM events GROUP BY kind$q$,
  $q$SELECT kind || ':' || theta_count(theta_agg(user_id)) || ' ' || theta_bounds(theta_agg(user_id), 0.99)::text
     FROM events_local GROUP BY kind$q$);
SELECT pg_temp.check_true('theta_count(theta_agg(page)) = count(DISTINCT page), theta_count(theta_agg(user_id, 16)) = count(DISTINCT user_id): exact below k',
  $q$SELECT d.p = l.p AND d.u = l.u AND d.lower = l.u AND d.upper = l.u
     FROM (SELECT theta_count(theta_agg(page)) AS p, theta_count(theta_agg(user_id, 16)) AS u,
                  (theta_bounds(theta_agg(user_id, 16))).* FROM events) d,
          (SELECT count(DISTINCT page) AS p, count(DISTINCT user_id) AS u FROM events_local) l$q$,
  $q$SELECT d.p || ' ' || l.p || ', ' || d.u || ' ' || d.lower || ' ' || d.upper || ' ' || l.u
     FROM (SELECT theta_count(theta_agg(page)) AS p, theta_count(theta_agg(user_id, 16)) AS u,
                  (theta_bounds(theta_agg(user_id, 16))).* FROM events) d,
          (SELECT count(DISTINCT page) AS p, count(DISTINCT user_id) AS u FROM events_local) l$q$);
SELECT pg_temp.check_true('theta_bounds(theta_union(th), 0.999) GROUP BY kind: count(DISTINCT user_id) of each kind within',
  $q$SELECT count(*) = 4 AND bool_and(e.n BETWEEN u.lower AND u.upper)
     FROM (SELECT kind, (theta_bounds(theta_union(th), 0.999)).* FROM sketches GROUP BY kind) u
          JOIN (SELECT kind, count(DISTINCT user_id) AS n FROM events_local GROUP BY kind) e USING (kind)$q$,
  $q$SELECT string_agg(kind || ': ' || u.lower || '..' || u.upper || ' vs ' || e.n, ', ')
     FROM (SELECT kind, (theta_bounds(theta_union(th), 0.999)).* FROM sketches GROUP BY kind) u
          JOIN (SELECT kind, count(DISTINCT user_id) AS n FROM events_local GROUP BY kind) e USING (kind)$q$);
SELECT pg_temp.check_plan('theta_diff(theta_union(th) FILTER (day 1), .. FILTER (day 2)) GROUP BY kind / plan',
  $q$SELECT kind, theta_diff(theta_union(th) FILTER (WHERE day = '2024-03-01'),
                             theta_union(th) FILTER (WHERE day = '2024-03-02'))
     FROM sketches GROUP BY kind$q$, 'split', 'theta_union');
SELECT pg_temp.check_plan('theta_jaccard(theta_agg(user_id) FILTER (kind 0), .. FILTER (kind 1)) GROUP BY tenant_id / plan',
  $q$SELECT tenant_id, theta_jaccard(theta_agg(user_id) FILTER (WHERE kind = 0), theta_agg(user_id) FILTER (WHERE kind = 1))
     FROM events GROUP BY tenant_id$q$, 'pushdown', 'theta_jaccard');
SELECT pg_temp.check_same(x.label, 'theta', x.q_dist, replace(x.q_dist, x.tbl, x.tbl || '_local'))
FROM (VALUES
  (1, 'theta_diff(theta_union(th) FILTER (day 1), .. FILTER (day 2)) GROUP BY kind: split, theta_diff on the coordinator', 'sketches',
      $q$SELECT kind::text AS g, theta_diff(theta_union(th) FILTER (WHERE day = '2024-03-01'),
                                            theta_union(th) FILTER (WHERE day = '2024-03-02')) AS s
         FROM sketches GROUP BY kind$q$),
  (2, 'theta_union(th) FILTER (day 1) & .. FILTER (day 2) GROUP BY kind: split, & on the coordinator', 'sketches',
      $q$SELECT kind::text AS g, theta_union(th) FILTER (WHERE day = '2024-03-01')
                                 & theta_union(th) FILTER (WHERE day = '2024-03-02') AS s
         FROM sketches GROUP BY kind$q$),
  (3, 'theta_union(th) FILTER (kind 0) || .. FILTER (kind 1), all: split, || on the coordinator', 'sketches',
      $q$SELECT NULL::text AS g, theta_union(th) FILTER (WHERE kind = 0) || theta_union(th) FILTER (WHERE kind = 1) AS s
         FROM sketches$q$),
  (4, 'theta_intersect(theta_agg(user_id) FILTER (day 1), .. FILTER (day 2)) GROUP BY tenant_id: pushed down', 'events',
      $q$SELECT tenant_id::text AS g, theta_intersect(theta_agg(user_id) FILTER (WHERE ts < '2024-03-02'),
                                                      theta_agg(user_id) FILTER (WHERE ts >= '2024-03-02')) AS s
         FROM events GROUP BY tenant_id$q$),
  (5, 'theta_diff(theta_agg(page, 6) FILTER (kind 0), theta_agg(page, 7) FILTER (kind 1)) GROUP BY tenant_id: pushed down', 'events',
      $q$SELECT tenant_id::text AS g, theta_diff(theta_agg(page, 6) FILTER (WHERE kind = 0),
                                                 theta_agg(page, 7) FILTER (WHERE kind = 1)) AS s
         FROM events GROUP BY tenant_id$q$),
  (6, 'theta_diff((SELECT theta_union(tp)), (SELECT theta_intersect(tp))): two subplans, on the coordinator', 'sketches',
      $q$SELECT NULL::text AS g, theta_diff((SELECT theta_union(tp) FROM sketches), (SELECT theta_intersect(tp) FROM sketches)) AS s$q$)
) x(o, label, tbl, q_dist)
ORDER BY x.o;
SELECT pg_temp.check_rows(x.label, x.q, replace(x.q, x.tbl, x.tbl || '_local'))
FROM (VALUES
  (1, 'kind, theta_jaccard(theta_union(th) FILTER (day 1), .. FILTER (day 2)) GROUP BY kind: split, on the coordinator', 'sketches',
      $q$SELECT kind || ':' || theta_jaccard(theta_union(th) FILTER (WHERE day = '2024-03-01'),
                                             theta_union(th) FILTER (WHERE day = '2024-03-02'))::text
         FROM sketches GROUP BY kind$q$),
  (2, 'kind, theta_jaccard(theta_union(tpl) FILTER (day 1), .. FILTER (day 2), 0.99) GROUP BY kind: split', 'sketches',
      $q$SELECT kind || ':' || theta_jaccard(theta_union(tpl) FILTER (WHERE day = '2024-03-01'),
                                             theta_union(tpl) FILTER (WHERE day = '2024-03-02'), 0.99)::text
         FROM sketches GROUP BY kind$q$),
  (3, 'tenant_id, theta_jaccard(theta_agg(user_id) FILTER (kind 0), .. FILTER (kind 1)) GROUP BY tenant_id: pushed down', 'events',
      $q$SELECT tenant_id || ':' || theta_jaccard(theta_agg(user_id) FILTER (WHERE kind = 0),
                                                  theta_agg(user_id) FILTER (WHERE kind = 1))::text
         FROM events GROUP BY tenant_id$q$),
  (4, 'tenant_id, theta_bounds(theta_diff(..)), theta_count(.. & ..) GROUP BY tenant_id: pushed down', 'sketches',
      $q$SELECT tenant_id || ':' || theta_bounds(theta_diff(theta_union(tpl) FILTER (WHERE day = '2024-03-01'),
                                                             theta_union(tpl) FILTER (WHERE day = '2024-03-02')))::text
                || ' ' || theta_count(theta_union(thl) FILTER (WHERE kind < 2) & theta_union(thl) FILTER (WHERE kind >= 2))
         FROM sketches GROUP BY tenant_id$q$)
) x(o, label, tbl, q)
ORDER BY x.o;
-- the exact answers within the bounds: users of day 1 not seen on day 2,
-- seen on both, and their Jaccard similarity, per kind, from the split
-- unions of the exact per-row sketches th (estimating once merged)
SELECT pg_temp.check_true('theta_diff, & and theta_jaccard of the two days'' users GROUP BY kind: the exact answers within the bounds at 0.999',
  $q$SELECT count(*) = 4
            AND bool_and(x.only1 BETWEEN (theta_bounds(theta_diff(u.d1, u.d2), 0.999)).lower
                                     AND (theta_bounds(theta_diff(u.d1, u.d2), 0.999)).upper)
            AND bool_and(x.both BETWEEN (theta_bounds(u.d1 & u.d2, 0.999)).lower
                                    AND (theta_bounds(u.d1 & u.d2, 0.999)).upper)
            AND bool_and(x.both::float8 / x.either BETWEEN (theta_jaccard(u.d1, u.d2, 0.999)).lower
                                                      AND (theta_jaccard(u.d1, u.d2, 0.999)).upper)
     FROM (SELECT kind, theta_union(th) FILTER (WHERE day = '2024-03-01') AS d1,
                  theta_union(th) FILTER (WHERE day = '2024-03-02') AS d2
           FROM sketches GROUP BY kind) u
     JOIN (SELECT kind, count(*) FILTER (WHERE d1 AND NOT d2) AS only1, count(*) FILTER (WHERE d1 AND d2) AS both,
                  count(*) AS either
           FROM (SELECT kind, user_id, bool_or(ts < '2024-03-02') AS d1, bool_or(ts >= '2024-03-02') AS d2
                 FROM events_local WHERE user_id IS NOT NULL GROUP BY 1, 2) p
           GROUP BY kind) x USING (kind)$q$,
  $q$SELECT string_agg(format('kind %s: only day 1 %s in %s, both %s in %s, jaccard %s in %s', kind,
                              x.only1, theta_bounds(theta_diff(u.d1, u.d2), 0.999), x.both, theta_bounds(u.d1 & u.d2, 0.999),
                              round(x.both::numeric / x.either, 4), theta_jaccard(u.d1, u.d2, 0.999)), '; ')
     FROM (SELECT kind, theta_union(th) FILTER (WHERE day = '2024-03-01') AS d1,
                  theta_union(th) FILTER (WHERE day = '2024-03-02') AS d2
           FROM sketches GROUP BY kind) u
     JOIN (SELECT kind, count(*) FILTER (WHERE d1 AND NOT d2) AS only1, count(*) FILTER (WHERE d1 AND d2) AS both,
                  count(*) AS either
           FROM (SELECT kind, user_id, bool_or(ts < '2024-03-02') AS d1, bool_or(ts >= '2024-03-02') AS d2
                 FROM events_local WHERE user_id IS NOT NULL GROUP BY 1, 2) p
           GROUP BY kind) x USING (kind)$q$);
-- theta_intersect over the exact page sketches: exactly the pages of every
-- row (17); over the estimating tpl: 17 within its bounds
SELECT pg_temp.check_true('theta_count(theta_intersect(tp)) = the pages in every row of sketches; within theta_bounds(theta_intersect(tpl), 0.999)',
  $q$SELECT theta_count(i.tp) = e.n AND e.n BETWEEN (theta_bounds(i.tpl, 0.999)).lower AND (theta_bounds(i.tpl, 0.999)).upper
     FROM (SELECT theta_intersect(tp) AS tp, theta_intersect(tpl) AS tpl FROM sketches) i,
          (SELECT count(*) AS n FROM (SELECT page FROM events_local GROUP BY page
                                      HAVING count(DISTINCT (tenant_id, kind, date_trunc('day', ts))) = 256) p) e$q$,
  $q$SELECT theta_count(i.tp) || ' ' || theta_bounds(i.tpl, 0.999)::text || ' vs ' || e.n
     FROM (SELECT theta_intersect(tp) AS tp, theta_intersect(tpl) AS tpl FROM sketches) i,
          (SELECT count(*) AS n FROM (SELECT page FROM events_local GROUP BY page
                                      HAVING count(DISTINCT (tenant_id, kind, date_trunc('day', ts))) = 256) p) e$q$);

-- ---------------------------------------------------------------------------
-- 4. Hourly rollups into distributed tables.
-- ---------------------------------------------------------------------------
\o /dev/null
-- topk: top = topk_agg(page), k = 1024, more than the distinct pages of any
-- row (nothing purges: compared byte for byte); top16 = topk_agg(page, 16),
-- which purges in most rows (compared by its bounds against the true counts
-- of the row's group, from counts_tenant_hour and counts_hour_kind).
-- theta: uth = theta_agg(user_id), exact in every row (95..169 users of a
-- tenant's hour); pth = theta_agg(page, 6), k = 64, estimating in nearly
-- every row (64..110 pages). Both compared byte for byte, upserts (||)
-- included: a union is the sketch of the union.
CREATE TABLE rollup_local AS
SELECT tenant_id, date_trunc('hour', ts) AS hour, hll_agg(user_id) AS users,
       cms_agg_sized(page, 272, 3, false, 1000) AS pages, bloom_agg(user_id, 10000, 0.01) AS seen,
       ddsketch_agg(lat) AS latency, topk_agg(page) AS top, topk_agg(page, 16) AS top16,
       theta_agg(user_id) AS uth, theta_agg(page, 6) AS pth
FROM events_local GROUP BY 1, 2;
CREATE TABLE rollup_kind_local AS
SELECT date_trunc('hour', ts) AS hour, kind, hll_agg(user_id) AS users,
       cms_agg_sized(page, 272, 3, false, 1000) AS pages, bloom_agg(user_id, 10000, 0.01) AS seen,
       ddsketch_agg(lat) AS latency, topk_agg(page) AS top, topk_agg(page, 16) AS top16,
       theta_agg(user_id) AS uth, theta_agg(page, 6) AS pth
FROM events_local GROUP BY 1, 2;
CREATE TABLE counts_tenant_hour AS
SELECT tenant_id || ' ' || date_trunc('hour', ts) AS g, page, count(*) AS c FROM events_local GROUP BY 1, 2;
CREATE INDEX ON counts_tenant_hour (g);
CREATE TABLE counts_hour_kind AS
SELECT date_trunc('hour', ts) || ' ' || kind AS g, page, count(*) AS c FROM events_local GROUP BY 1, 2;
CREATE INDEX ON counts_hour_kind (g);
-- colocated with events, keyed like it (INSERT ... SELECT pushed down)
CREATE TABLE rollup_co (tenant_id int, hour timestamptz, users hll, pages cms, seen bloom, latency ddsketch,
                        top topk, top16 topk, uth theta, pth theta,
                        PRIMARY KEY (tenant_id, hour));
SELECT create_distributed_table('rollup_co', 'tenant_id', colocate_with => 'events');
-- colocated, built in two halves: the second merges with ON CONFLICT DO UPDATE
CREATE TABLE rollup_upsert (LIKE rollup_co INCLUDING ALL);
SELECT create_distributed_table('rollup_upsert', 'tenant_id', colocate_with => 'events');
-- same key, not colocated (a colocation group of its own: repartitioned)
CREATE TABLE rollup_nc (LIKE rollup_co INCLUDING ALL);
SELECT create_distributed_table('rollup_nc', 'tenant_id', colocate_with => 'none', shard_count => 6);
-- keyed by hour and kind: the rollup groups by non-distribution columns of
-- events, so its aggregates are split, then merged by ON CONFLICT as well
CREATE TABLE rollup_kind (hour timestamptz, kind int, users hll, pages cms, seen bloom, latency ddsketch,
                          top topk, top16 topk, uth theta, pth theta,
                          PRIMARY KEY (hour, kind));
SELECT create_distributed_table('rollup_kind', 'hour', colocate_with => 'none');
\o

SELECT pg_temp.check_plan('rollup colocated: INSERT ... SELECT / plan',
  $q$INSERT INTO rollup_co SELECT tenant_id, date_trunc('hour', ts), hll_agg(user_id),
       cms_agg_sized(page, 272, 3, false, 1000), bloom_agg(user_id, 10000, 0.01), ddsketch_agg(lat),
       topk_agg(page), topk_agg(page, 16), theta_agg(user_id), theta_agg(page, 6) FROM events GROUP BY 1, 2$q$,
  'pushdown', 'hll_agg');
SELECT pg_temp.check_exec('rollup colocated: INSERT ... SELECT',
  $q$INSERT INTO rollup_co SELECT tenant_id, date_trunc('hour', ts), hll_agg(user_id),
       cms_agg_sized(page, 272, 3, false, 1000), bloom_agg(user_id, 10000, 0.01), ddsketch_agg(lat),
       topk_agg(page), topk_agg(page, 16), theta_agg(user_id), theta_agg(page, 6) FROM events GROUP BY 1, 2$q$);
SELECT pg_temp.check_exec('rollup colocated upsert: INSERT ... SELECT (even events)',
  $q$INSERT INTO rollup_upsert SELECT tenant_id, date_trunc('hour', ts), hll_agg(user_id),
       cms_agg_sized(page, 272, 3, false, 1000), bloom_agg(user_id, 10000, 0.01), ddsketch_agg(lat),
       topk_agg(page), topk_agg(page, 16), theta_agg(user_id), theta_agg(page, 6)
     FROM events WHERE event_id % 2 = 0 GROUP BY 1, 2$q$);
SELECT pg_temp.check_exec('rollup colocated upsert: ON CONFLICT DO UPDATE SET h = t.h || EXCLUDED.h (odd events)',
  $q$INSERT INTO rollup_upsert AS t SELECT tenant_id, date_trunc('hour', ts), hll_agg(user_id),
       cms_agg_sized(page, 272, 3, false, 1000), bloom_agg(user_id, 10000, 0.01), ddsketch_agg(lat),
       topk_agg(page), topk_agg(page, 16), theta_agg(user_id), theta_agg(page, 6)
     FROM events WHERE event_id % 2 = 1 GROUP BY 1, 2
     ON CONFLICT (tenant_id, hour) DO UPDATE
       SET users = t.users || EXCLUDED.users, pages = t.pages || EXCLUDED.pages, seen = t.seen | EXCLUDED.seen,
           latency = t.latency || EXCLUDED.latency, top = t.top || EXCLUDED.top,
           top16 = t.top16 || EXCLUDED.top16, uth = t.uth || EXCLUDED.uth, pth = t.pth || EXCLUDED.pth$q$);
SELECT pg_temp.check_exec('rollup not colocated (same key, repartitioned): INSERT ... SELECT',
  $q$INSERT INTO rollup_nc SELECT tenant_id, date_trunc('hour', ts), hll_agg(user_id),
       cms_agg_sized(page, 272, 3, false, 1000), bloom_agg(user_id, 10000, 0.01), ddsketch_agg(lat),
       topk_agg(page), topk_agg(page, 16), theta_agg(user_id), theta_agg(page, 6) FROM events GROUP BY 1, 2$q$);
SELECT pg_temp.check_plan('rollup by hour and kind (not colocated): INSERT ... SELECT / plan',
  $q$INSERT INTO rollup_kind SELECT date_trunc('hour', ts), kind, hll_agg(user_id),
       cms_agg_sized(page, 272, 3, false, 1000), bloom_agg(user_id, 10000, 0.01), ddsketch_agg(lat),
       topk_agg(page), topk_agg(page, 16), theta_agg(user_id), theta_agg(page, 6)
     FROM events WHERE event_id % 2 = 0 GROUP BY 1, 2$q$, 'split', 'hll_agg');
SELECT pg_temp.check_exec('rollup by hour and kind (not colocated): INSERT ... SELECT (even events)',
  $q$INSERT INTO rollup_kind SELECT date_trunc('hour', ts), kind, hll_agg(user_id),
       cms_agg_sized(page, 272, 3, false, 1000), bloom_agg(user_id, 10000, 0.01), ddsketch_agg(lat),
       topk_agg(page), topk_agg(page, 16), theta_agg(user_id), theta_agg(page, 6)
     FROM events WHERE event_id % 2 = 0 GROUP BY 1, 2$q$);
SELECT pg_temp.check_exec('rollup by hour and kind (not colocated): ON CONFLICT DO UPDATE (odd events)',
  $q$INSERT INTO rollup_kind AS t SELECT date_trunc('hour', ts), kind, hll_agg(user_id),
       cms_agg_sized(page, 272, 3, false, 1000), bloom_agg(user_id, 10000, 0.01), ddsketch_agg(lat),
       topk_agg(page), topk_agg(page, 16), theta_agg(user_id), theta_agg(page, 6)
     FROM events WHERE event_id % 2 = 1 GROUP BY 1, 2
     ON CONFLICT (hour, kind) DO UPDATE
       SET users = t.users || EXCLUDED.users, pages = t.pages || EXCLUDED.pages, seen = t.seen | EXCLUDED.seen,
           latency = t.latency || EXCLUDED.latency, top = t.top || EXCLUDED.top,
           top16 = t.top16 || EXCLUDED.top16, uth = t.uth || EXCLUDED.uth, pth = t.pth || EXCLUDED.pth$q$);

-- Contents, row by row, against the rollup of the local copy: hll, bloom,
-- ddsketch and cms equal (= on cms too: plain update, and every page of an
-- hour fits k = 1000, so a merge is the sketch of the whole hour, byte for
-- byte; ddsketch: the upsert's || is exact); topk's top equal too (nothing
-- purges), top16 by its bounds (the upsert's || merges two purged halves);
-- theta's uth and pth equal (a union is canonical).
SELECT format('SELECT pg_temp.check_same(%L, %L, %L, %L, %L, %L)',
              r.label || ': ' || c.col || ' row by row', c.family,
              format('SELECT %s AS g, %s AS s FROM %s', r.g, c.col, r.tbl),
              format('SELECT %s AS g, %s AS s FROM %s', r.g, c.col, r.local_tbl),
              CASE WHEN c.mode = 'bounds' THEN format('SELECT page, c FROM %s WHERE g = $1', r.counts) END,
              c.mode)
FROM (VALUES (1, 'rollup colocated', 'rollup_co', 'rollup_local', $$tenant_id || ' ' || hour$$, 'counts_tenant_hour'),
             (2, 'rollup colocated upsert', 'rollup_upsert', 'rollup_local', $$tenant_id || ' ' || hour$$, 'counts_tenant_hour'),
             (3, 'rollup not colocated (same key)', 'rollup_nc', 'rollup_local', $$tenant_id || ' ' || hour$$, 'counts_tenant_hour'),
             (4, 'rollup by hour and kind (not colocated, upsert)', 'rollup_kind', 'rollup_kind_local', $$hour || ' ' || kind$$, 'counts_hour_kind'))
       r(o, label, tbl, local_tbl, g, counts)
CROSS JOIN (VALUES (1, 'hll', 'users', NULL), (2, 'cms', 'pages', 'bytes'), (3, 'bloom', 'seen', NULL),
                   (4, 'ddsketch', 'latency', NULL), (5, 'topk', 'top', 'bytes'), (6, 'topk', 'top16', 'bounds'),
                   (7, 'theta', 'uth', NULL), (8, 'theta', 'pth', NULL)) c(o, family, col, mode)
ORDER BY r.o, c.o
\gexec
-- Reading the rollups: daily merges (split hll_union), a running total.
SELECT pg_temp.check_same('rollup colocated: daily hll_union(users) = hll_agg over the events of the day', 'hll',
  $q$SELECT date_trunc('day', hour)::text AS g, hll_union(users) AS s FROM rollup_co GROUP BY 1$q$,
  $q$SELECT date_trunc('day', ts)::text AS g, hll_agg(user_id) AS s FROM events_local GROUP BY 1$q$);
SELECT pg_temp.check_same('rollup colocated: cms_union(pages) = cms_agg_sized over all events', 'cms',
  $q$SELECT NULL::text AS g, cms_union(pages) AS s FROM rollup_co$q$,
  $q$SELECT NULL::text AS g, cms_agg_sized(page, 272, 3, false, 1000) AS s FROM events_local$q$,
  $q$(SELECT page, count(*) FROM events_local GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 12)
     UNION ALL (SELECT page, count(*) FROM events_local GROUP BY 1 ORDER BY 2, 1 LIMIT 3)$q$);
SELECT pg_temp.check_same('rollup colocated: bloom_union(seen) GROUP BY tenant_id = bloom_agg over the tenant''s events', 'bloom',
  $q$SELECT tenant_id::text AS g, bloom_union(seen) AS s FROM rollup_co GROUP BY tenant_id$q$,
  $q$SELECT tenant_id::text AS g, bloom_agg(user_id, 10000, 0.01) AS s FROM events_local GROUP BY tenant_id$q$);
SELECT pg_temp.check_same('rollup colocated: daily ddsketch_union(latency) = ddsketch_agg over the events of the day', 'ddsketch',
  $q$SELECT date_trunc('day', hour)::text AS g, ddsketch_union(latency) AS s FROM rollup_co GROUP BY 1$q$,
  $q$SELECT date_trunc('day', ts)::text AS g, ddsketch_agg(lat) AS s FROM events_local GROUP BY 1$q$);
SELECT pg_temp.check_same('rollup by hour and kind (upsert): ddsketch_union(latency) GROUP BY kind = ddsketch_agg over the kind''s events', 'ddsketch',
  $q$SELECT kind::text AS g, ddsketch_union(latency) AS s FROM rollup_kind GROUP BY kind$q$,
  $q$SELECT kind::text AS g, ddsketch_agg(lat) AS s FROM events_local GROUP BY kind$q$);
SELECT pg_temp.check_rows('rollup colocated: daily p99 from ddsketch_union(latency), ddsketch_quantile',
  $q$SELECT day || ' ' || ddsketch_quantile(s, 0.99)
     FROM (SELECT date_trunc('day', hour) AS day, ddsketch_union(latency) AS s FROM rollup_co GROUP BY 1) d$q$,
  $q$SELECT day || ' ' || ddsketch_quantile(s, 0.99)
     FROM (SELECT date_trunc('day', ts) AS day, ddsketch_agg(lat) AS s FROM events_local GROUP BY 1) d$q$);
-- topk_union over the rollups, split (GROUP BY a column that is not the
-- table's distribution column) and pushed down (GROUP BY it), against
-- topk_agg over the events, by the bounds (the days and kinds hold ~2000
-- distinct pages: k = 1024 purges)
SELECT pg_temp.check_plan('rollup colocated: daily topk_union(top) / plan',
  $q$SELECT date_trunc('day', hour), topk_union(top) FROM rollup_co GROUP BY 1$q$, 'split', 'topk_union');
SELECT pg_temp.check_plan('rollup not colocated: topk_union(top16) GROUP BY tenant_id / plan',
  $q$SELECT tenant_id, topk_union(top16) FROM rollup_nc GROUP BY 1$q$, 'pushdown', 'topk_union');
SELECT pg_temp.check_plan('rollup by hour and kind: topk_union(top) GROUP BY kind / plan',
  $q$SELECT kind, topk_union(top) FROM rollup_kind GROUP BY 1$q$, 'split', 'topk_union');
SELECT pg_temp.check_same(x.label, 'topk', x.q_dist, x.q_local, x.keys, 'bounds')
FROM (VALUES
  (1, 'rollup colocated: daily topk_union(top) vs topk_agg over the events of the day',
      $q$SELECT date_trunc('day', hour)::text AS g, topk_union(top) AS s FROM rollup_co GROUP BY 1$q$,
      $q$SELECT date_trunc('day', ts)::text AS g, topk_agg(page) AS s FROM events_local GROUP BY 1$q$,
      $q$SELECT page, count(*) FROM events_local WHERE date_trunc('day', ts)::text = $1 GROUP BY 1$q$),
  (2, 'rollup colocated: topk_union(top16) GROUP BY tenant_id (pushed down) vs topk_agg(page, 16) over the tenant''s events',
      $q$SELECT tenant_id::text AS g, topk_union(top16) AS s FROM rollup_co GROUP BY 1$q$,
      $q$SELECT tenant_id::text AS g, topk_agg(page, 16) AS s FROM events_local GROUP BY 1$q$,
      $q$SELECT page, count(*) FROM events_local WHERE tenant_id::text = $1 GROUP BY 1$q$),
  (3, 'rollup colocated upsert: topk_union(top) vs topk_agg over all events',
      $q$SELECT NULL::text AS g, topk_union(top) AS s FROM rollup_upsert$q$,
      $q$SELECT NULL::text AS g, topk_agg(page) AS s FROM events_local$q$,
      $q$SELECT page, count(*) FROM events_local GROUP BY 1$q$),
  (4, 'rollup not colocated: topk_union(top) vs topk_agg over all events',
      $q$SELECT NULL::text AS g, topk_union(top) AS s FROM rollup_nc$q$,
      $q$SELECT NULL::text AS g, topk_agg(page) AS s FROM events_local$q$,
      $q$SELECT page, count(*) FROM events_local GROUP BY 1$q$),
  (5, 'rollup not colocated: topk_union(top16) GROUP BY tenant_id (pushed down) vs topk_agg(page, 16) over the tenant''s events',
      $q$SELECT tenant_id::text AS g, topk_union(top16) AS s FROM rollup_nc GROUP BY 1$q$,
      $q$SELECT tenant_id::text AS g, topk_agg(page, 16) AS s FROM events_local GROUP BY 1$q$,
      $q$SELECT page, count(*) FROM events_local WHERE tenant_id::text = $1 GROUP BY 1$q$),
  (6, 'rollup by hour and kind (upsert): topk_union(top) GROUP BY kind vs topk_agg over the kind''s events',
      $q$SELECT kind::text AS g, topk_union(top) AS s FROM rollup_kind GROUP BY kind$q$,
      $q$SELECT kind::text AS g, topk_agg(page) AS s FROM events_local GROUP BY kind$q$,
      $q$SELECT page, count(*) FROM events_local WHERE kind::text = $1 GROUP BY 1$q$),
  (7, 'rollup by hour and kind (upsert): daily topk_union(top16) vs topk_agg(page, 16) over the events of the day',
      $q$SELECT date_trunc('day', hour)::text AS g, topk_union(top16) AS s FROM rollup_kind GROUP BY 1$q$,
      $q$SELECT date_trunc('day', ts)::text AS g, topk_agg(page, 16) AS s FROM events_local GROUP BY 1$q$,
      $q$SELECT page, count(*) FROM events_local WHERE date_trunc('day', ts)::text = $1 GROUP BY 1$q$)
) x(o, label, q_dist, q_local, keys)
ORDER BY x.o;
SELECT pg_temp.check_rows('rollup not colocated: the top 5 of topk_union(top) = the exact top 5',
  $q$SELECT item FROM topk_items((SELECT topk_union(top) FROM rollup_nc), 5)$q$,
  $q$SELECT page FROM events_local GROUP BY page ORDER BY count(*) DESC, page LIMIT 5$q$,
  true);
-- theta over the rollups: theta_union and theta_intersect split (no GROUP
-- BY, or GROUP BY a column that is not the table's distribution column) and
-- pushed down (GROUP BY it). A union of the hours is the sketch of their
-- events, so it equals theta_agg over the events byte for byte; an
-- intersection equals the same intersection of the local rollup (pth: the
-- pages seen in every hour of the group, sampled at k = 64; uth: the users
-- seen in every hour, none).
SELECT pg_temp.check_plan(x.label || ' / plan', format('SELECT %s, %s(%s) FROM %s GROUP BY 1', x.g, x.agg, x.col, x.tbl),
                          x.expect, x.agg)
FROM (VALUES
  (1, 'rollup colocated: daily theta_union(uth)', 'theta_union', 'uth', 'rollup_co', $$date_trunc('day', hour)$$, 'split'),
  (2, 'rollup not colocated: theta_union(pth) GROUP BY tenant_id', 'theta_union', 'pth', 'rollup_nc', 'tenant_id', 'pushdown'),
  (3, 'rollup by hour and kind: theta_union(uth) GROUP BY kind', 'theta_union', 'uth', 'rollup_kind', 'kind', 'split'),
  (4, 'rollup colocated: daily theta_intersect(pth)', 'theta_intersect', 'pth', 'rollup_co', $$date_trunc('day', hour)$$, 'split'),
  (5, 'rollup not colocated: theta_intersect(pth) GROUP BY tenant_id', 'theta_intersect', 'pth', 'rollup_nc', 'tenant_id', 'pushdown'),
  (6, 'rollup by hour and kind: theta_intersect(pth) GROUP BY kind', 'theta_intersect', 'pth', 'rollup_kind', 'kind', 'split'),
  (7, 'rollup by hour and kind: theta_intersect(pth) GROUP BY hour (its distribution column)',
      'theta_intersect', 'pth', 'rollup_kind', 'hour', 'pushdown')
) x(o, label, agg, col, tbl, g, expect)
ORDER BY x.o;
SELECT pg_temp.check_same(x.label, 'theta', x.q_dist, x.q_local)
FROM (VALUES
  (1, 'rollup colocated: daily theta_union(uth) = theta_agg(user_id) over the events of the day',
      $q$SELECT date_trunc('day', hour)::text AS g, theta_union(uth) AS s FROM rollup_co GROUP BY 1$q$,
      $q$SELECT date_trunc('day', ts)::text AS g, theta_agg(user_id) AS s FROM events_local GROUP BY 1$q$),
  (2, 'rollup colocated: theta_union(pth) GROUP BY tenant_id (pushed down) = theta_agg(page, 6) over the tenant''s events',
      $q$SELECT tenant_id::text AS g, theta_union(pth) AS s FROM rollup_co GROUP BY 1$q$,
      $q$SELECT tenant_id::text AS g, theta_agg(page, 6) AS s FROM events_local GROUP BY 1$q$),
  (3, 'rollup colocated upsert: theta_union(uth) = theta_agg(user_id) over all events',
      $q$SELECT NULL::text AS g, theta_union(uth) AS s FROM rollup_upsert$q$,
      $q$SELECT NULL::text AS g, theta_agg(user_id) AS s FROM events_local$q$),
  (4, 'rollup colocated upsert: hourly theta_union(pth) (split) = theta_agg(page, 6) over the events of the hour',
      $q$SELECT hour::text AS g, theta_union(pth) AS s FROM rollup_upsert GROUP BY 1$q$,
      $q$SELECT date_trunc('hour', ts)::text AS g, theta_agg(page, 6) AS s FROM events_local GROUP BY 1$q$),
  (5, 'rollup not colocated: theta_union(uth) = theta_agg(user_id) over all events',
      $q$SELECT NULL::text AS g, theta_union(uth) AS s FROM rollup_nc$q$,
      $q$SELECT NULL::text AS g, theta_agg(user_id) AS s FROM events_local$q$),
  (6, 'rollup not colocated: theta_union(pth) GROUP BY tenant_id (pushed down) = theta_agg(page, 6) over the tenant''s events',
      $q$SELECT tenant_id::text AS g, theta_union(pth) AS s FROM rollup_nc GROUP BY 1$q$,
      $q$SELECT tenant_id::text AS g, theta_agg(page, 6) AS s FROM events_local GROUP BY 1$q$),
  (7, 'rollup by hour and kind (upsert): theta_union(uth) GROUP BY kind = theta_agg(user_id) over the kind''s events',
      $q$SELECT kind::text AS g, theta_union(uth) AS s FROM rollup_kind GROUP BY 1$q$,
      $q$SELECT kind::text AS g, theta_agg(user_id) AS s FROM events_local GROUP BY 1$q$),
  (8, 'rollup by hour and kind (upsert): daily theta_union(pth) = theta_agg(page, 6) over the events of the day',
      $q$SELECT date_trunc('day', hour)::text AS g, theta_union(pth) AS s FROM rollup_kind GROUP BY 1$q$,
      $q$SELECT date_trunc('day', ts)::text AS g, theta_agg(page, 6) AS s FROM events_local GROUP BY 1$q$),
  (9, 'rollup colocated: daily theta_intersect(pth) = local',
      $q$SELECT date_trunc('day', hour)::text AS g, theta_intersect(pth) AS s FROM rollup_co GROUP BY 1$q$,
      $q$SELECT date_trunc('day', hour)::text AS g, theta_intersect(pth) AS s FROM rollup_local GROUP BY 1$q$),
  (10, 'rollup colocated: theta_intersect(pth) GROUP BY hour (split: the pages of every tenant in the hour) = local',
      $q$SELECT hour::text AS g, theta_intersect(pth) AS s FROM rollup_co GROUP BY 1$q$,
      $q$SELECT hour::text AS g, theta_intersect(pth) AS s FROM rollup_local GROUP BY 1$q$),
  (11, 'rollup colocated upsert: theta_intersect(pth) GROUP BY tenant_id (pushed down) = local',
      $q$SELECT tenant_id::text AS g, theta_intersect(pth) AS s FROM rollup_upsert GROUP BY 1$q$,
      $q$SELECT tenant_id::text AS g, theta_intersect(pth) AS s FROM rollup_local GROUP BY 1$q$),
  (12, 'rollup not colocated: theta_intersect(pth) = local',
      $q$SELECT NULL::text AS g, theta_intersect(pth) AS s FROM rollup_nc$q$,
      $q$SELECT NULL::text AS g, theta_intersect(pth) AS s FROM rollup_local$q$),
  (13, 'rollup not colocated: theta_intersect(pth), theta_intersect(uth) GROUP BY tenant_id (pushed down) = local',
      $q$SELECT tenant_id || ' ' || c AS g, CASE c WHEN 'pth' THEN theta_intersect(pth) ELSE theta_intersect(uth) END AS s
         FROM rollup_nc, (VALUES ('pth'), ('uth')) v(c) GROUP BY tenant_id, c$q$,
      $q$SELECT tenant_id || ' ' || c AS g, CASE c WHEN 'pth' THEN theta_intersect(pth) ELSE theta_intersect(uth) END AS s
         FROM rollup_local, (VALUES ('pth'), ('uth')) v(c) GROUP BY tenant_id, c$q$),
  (14, 'rollup by hour and kind (upsert): theta_intersect(pth) GROUP BY kind = local',
      $q$SELECT kind::text AS g, theta_intersect(pth) AS s FROM rollup_kind GROUP BY 1$q$,
      $q$SELECT kind::text AS g, theta_intersect(pth) AS s FROM rollup_kind_local GROUP BY 1$q$),
  (15, 'rollup by hour and kind (upsert): theta_intersect(pth) GROUP BY hour (pushed down) = local',
      $q$SELECT hour::text AS g, theta_intersect(pth) AS s FROM rollup_kind GROUP BY 1$q$,
      $q$SELECT hour::text AS g, theta_intersect(pth) AS s FROM rollup_kind_local GROUP BY 1$q$)
) x(o, label, q_dist, q_local)
ORDER BY x.o;
-- (the intersections are not all empty: some pages are seen in every hour
-- of a kind, of a day, of some tenants)
SELECT pg_temp.check_true('rollups: theta_intersect(pth) holds pages GROUP BY kind and daily (rollup_kind), GROUP BY tenant_id for some tenants (rollup_co)',
  $q$SELECT (SELECT bool_and(theta_count(s) > 0) FROM (SELECT theta_intersect(pth) AS s FROM rollup_kind GROUP BY kind) k)
            AND (SELECT bool_and(theta_count(s) > 0) FROM (SELECT theta_intersect(pth) AS s FROM rollup_kind GROUP BY date_trunc('day', hour)) d)
            AND (SELECT bool_or(theta_count(s) > 0) FROM (SELECT theta_intersect(pth) AS s FROM rollup_co GROUP BY tenant_id) t)$q$);
SELECT pg_temp.check_rows('rollup colocated: running distinct users, hll_union(users) OVER (ORDER BY hour)',
  $q$SELECT hour || ' ' || # hll_union(users) OVER (ORDER BY hour)
     FROM (SELECT hour, hll_union(users) AS users FROM rollup_co GROUP BY hour) h$q$,
  $q$SELECT hour || ' ' || # hll_union(users) OVER (ORDER BY hour)
     FROM (SELECT date_trunc('hour', ts) AS hour, hll_agg(user_id) AS users FROM events_local GROUP BY 1) h$q$);

-- ---------------------------------------------------------------------------
-- 5. Empty shards and no rows.
-- ---------------------------------------------------------------------------
SELECT pg_temp.check_true('events_sparse: rows in 2 tenants, some shards empty',
  $q$SELECT count(*) FILTER (WHERE result::int = 0) > 0 AND count(*) FILTER (WHERE result::int > 0) > 0
     FROM run_command_on_shards('events_sparse', 'SELECT count(*) FROM %s')$q$);
SELECT format('SELECT pg_temp.check_agg(%L, %L, %L, %L, %L, %L, %L, %L, %L, %L, false)',
              family, agg, agg, tbl, tbl || '_local', col,
              CASE WHEN col IN ('c', 't', 'tk') THEN 'page' WHEN col = 'cf' THEN 'user_id' ELSE col END,
              cnt, CASE WHEN family = 'topk' THEN 'bounds' ELSE 'exact' END, shape)
FROM (VALUES (1, 'hll', 'hll_agg(%s)', 'events_sparse', 'user_id', NULL),
             (2, 'cms', 'cms_agg(%s)', 'events_sparse', 'page', 'count(*)'),
             (3, 'bloom', 'bloom_agg(%s, 100000, 0.01)', 'events_sparse', 'user_id', NULL),
             (4, 'hll', 'hll_union(%s)', 'sketches_sparse', 'h', NULL),
             (5, 'cms', 'cms_union(%s)', 'sketches_sparse', 'c', 'count(*)'),
             (6, 'bloom', 'bloom_union(%s)', 'sketches_sparse', 'b', NULL),
             (7, 'hll', 'hll_agg(%s)', 'events_empty', 'user_id', NULL),
             (8, 'cms', 'cms_agg(%s)', 'events_empty', 'page', 'count(*)'),
             (9, 'bloom', 'bloom_agg(%s, 100000, 0.01)', 'events_empty', 'user_id', NULL),
             (10, 'hll', 'hll_union(%s)', 'sketches_empty', 'h', NULL),
             (11, 'cms', 'cms_union(%s)', 'sketches_empty', 'c', 'count(*)'),
             (12, 'bloom', 'bloom_union(%s)', 'sketches_empty', 'b', NULL),
             (13, 'ddsketch', 'ddsketch_agg(%s)', 'events_sparse', 'lat', NULL),
             (14, 'ddsketch', 'ddsketch_union(%s)', 'sketches_sparse', 'dp', NULL),
             (15, 'ddsketch', 'ddsketch_agg(%s)', 'events_empty', 'lat', NULL),
             (16, 'ddsketch', 'ddsketch_union(%s)', 'sketches_empty', 'd', NULL),
             (17, 'topk', 'topk_agg(%s)', 'events_sparse', 'page', 'count(*)'),
             (18, 'topk', 'topk_union(%s)', 'sketches_sparse', 'tk', 'count(*)'),
             (19, 'topk', 'topk_agg(%s, 64)', 'events_empty', 'page', 'count(*)'),
             (20, 'topk', 'topk_union(%s)', 'sketches_empty', 't', 'count(*)'),
             (21, 'theta', 'theta_agg(%s)', 'events_sparse', 'user_id', NULL),
             (22, 'theta', 'theta_union(%s)', 'sketches_sparse', 'thl', NULL),
             (23, 'theta', 'theta_intersect(%s)', 'sketches_sparse', 'tpl', NULL),
             (24, 'theta', 'theta_agg(%s, 8)', 'events_empty', 'page', NULL),
             (25, 'theta', 'theta_union(%s)', 'sketches_empty', 'th', NULL),
             (26, 'theta', 'theta_intersect(%s)', 'sketches_empty', 'tp', NULL),
             (27, 'counting_bloom', 'counting_bloom_agg(%s, 100000, 0.01)', 'events_sparse', 'user_id', NULL),
             (28, 'counting_bloom', 'counting_bloom_union(%s)', 'sketches_sparse', 'cb', NULL),
             (29, 'counting_bloom', 'counting_bloom_agg(%s, 1000, 0.01)', 'events_empty', 'user_id', NULL),
             (30, 'counting_bloom', 'counting_bloom_union(%s)', 'sketches_empty', 'cb', NULL),
             (31, 'cuckoo', 'cuckoo_agg(%s, 100000, 0.01)', 'events_sparse', 'user_id', NULL),
             (32, 'cuckoo', 'cuckoo_union(%s)', 'sketches_sparse', 'cf', NULL),
             (33, 'cuckoo', 'cuckoo_agg(%s, 1000, 0.01)', 'events_empty', 'user_id', NULL),
             (34, 'cuckoo', 'cuckoo_union(%s)', 'sketches_empty', 'cf', NULL)) a(o, family, agg, tbl, col, cnt)
CROSS JOIN (VALUES (1, 'none'), (2, 'kind')) s(so, shape)
ORDER BY a.o, s.so
\gexec
SELECT pg_temp.check_true(x.label, x.q)
FROM (VALUES
  (1, 'hll_agg over an empty distributed table: NULL, hll_cardinality 0',
      'SELECT s IS NULL AND hll_cardinality(s) = 0 FROM (SELECT hll_agg(user_id) AS s FROM events_empty) x'),
  (2, 'hll_cardinality(hll_agg(user_id)) over an empty distributed table = 0',
      'SELECT hll_cardinality(hll_agg(user_id)) = 0 FROM events_empty'),
  (3, 'hll_cardinality(hll_union(h)) over an empty distributed table = 0',
      'SELECT hll_cardinality(hll_union(h)) = 0 FROM sketches_empty'),
  (4, 'cms_total(cms_agg(page)) over an empty distributed table = 0',
      'SELECT cms_total(cms_agg(page)) = 0 FROM events_empty'),
  (5, 'cms_union(c) over an empty distributed table IS NULL',
      'SELECT cms_union(c) IS NULL FROM sketches_empty'),
  (6, 'bloom_agg over an empty distributed table IS NULL, bloom_cardinality 0',
      'SELECT s IS NULL AND bloom_cardinality(s) = 0 FROM (SELECT bloom_agg(user_id, 1000, 0.01) AS s FROM events_empty) x'),
  (7, 'bloom_union(b) over an empty distributed table IS NULL',
      'SELECT bloom_union(b) IS NULL FROM sketches_empty'),
  (8, 'hll_union(h) WHERE false (no shard queried) IS NULL',
      'SELECT hll_union(h) IS NULL FROM sketches WHERE false'),
  (9, 'hll_agg(user_id) WHERE kind = -1 (every shard, no rows) IS NULL',
      'SELECT hll_agg(user_id) IS NULL FROM events WHERE kind = -1'),
  (10, 'hll_union(h) WHERE kind = -1 GROUP BY kind: no rows',
      'SELECT count(*) = 0 FROM (SELECT kind, hll_union(h) FROM sketches WHERE kind = -1 GROUP BY kind) x'),
  (11, 'hll_union(h) WHERE tenant_id = 7 AND kind = -1 (router query, no rows) IS NULL',
      'SELECT hll_union(h) IS NULL FROM sketches WHERE tenant_id = 7 AND kind = -1'),
  (12, 'ddsketch_agg over an empty distributed table: NULL, ddsketch_count 0, quantile NULL',
      'SELECT s IS NULL AND ddsketch_count(s) = 0 AND ddsketch_quantile(s, 0.5) IS NULL AND ddsketch_sum(s) = 0
       FROM (SELECT ddsketch_agg(lat) AS s FROM events_empty) x'),
  (13, 'ddsketch_count(ddsketch_agg(lat)) over an empty distributed table = 0',
      'SELECT ddsketch_count(ddsketch_agg(lat)) = 0 FROM events_empty'),
  (14, 'ddsketch_union(d) over an empty distributed table IS NULL, ddsketch_count 0',
      'SELECT ddsketch_union(d) IS NULL AND ddsketch_count(ddsketch_union(d)) = 0 FROM sketches_empty'),
  (15, 'ddsketch_agg(lat, 0.01, 64) WHERE kind = -1 (every shard, no rows) IS NULL',
      'SELECT ddsketch_agg(lat, 0.01, 64) IS NULL FROM events WHERE kind = -1'),
  (16, 'ddsketch_agg(lat) GROUP BY tenant_id over a sparse table: 2 groups, the counts of count(lat)',
      'SELECT count(*) = 2 AND bool_and(ddsketch_count(s) = c)
       FROM (SELECT tenant_id, ddsketch_agg(lat) AS s, count(lat) AS c FROM events_sparse GROUP BY tenant_id) x'),
  (17, 'ddsketch_quantile(ddsketch_union(d), 0.99) WHERE false (no shard queried) IS NULL',
      'SELECT ddsketch_quantile(ddsketch_union(d), 0.99) IS NULL FROM sketches WHERE false'),
  (18, 'topk_agg over an empty distributed table: NULL, topk_total 0, topk_max_error 0, no items',
      'SELECT s IS NULL AND topk_total(s) = 0 AND topk_max_error(s) = 0 AND NOT EXISTS (SELECT FROM topk_items(s))
       FROM (SELECT topk_agg(page) AS s FROM events_empty) x'),
  (19, 'topk_union(t) over an empty distributed table IS NULL, topk_estimate 0 (bounds 0..0)',
      $q$SELECT s IS NULL AND e.estimate = 0 AND e.lower_bound = 0 AND e.upper_bound = 0
         FROM (SELECT topk_union(t) AS s FROM sketches_empty) x, topk_estimate(x.s, 'p1'::text) e$q$),
  (20, 'topk_agg_weighted(page, n, 16) WHERE kind = -1 (every shard, no rows) IS NULL',
      'SELECT topk_agg_weighted(page, n, 16) IS NULL FROM events WHERE kind = -1'),
  (21, 'topk_agg(page) GROUP BY tenant_id over a sparse table: 2 groups, topk_total = count(page)',
      'SELECT count(*) = 2 AND bool_and(topk_total(s) = c)
       FROM (SELECT tenant_id, topk_agg(page) AS s, count(page) AS c FROM events_sparse GROUP BY tenant_id) x'),
  (22, 'topk_items(topk_union(t), 5) WHERE false (no shard queried): no rows',
      'SELECT NOT EXISTS (SELECT FROM topk_items((SELECT topk_union(t) FROM sketches WHERE false), 5))'),
  (23, 'theta_agg over an empty distributed table: NULL, theta_count 0, theta_bounds (0, 0)',
      'SELECT s IS NULL AND theta_count(s) = 0 AND (theta_bounds(s)).lower = 0 AND (theta_bounds(s)).upper = 0
       FROM (SELECT theta_agg(user_id) AS s FROM events_empty) x'),
  (24, 'theta_union(th) and theta_intersect(tp) over an empty distributed table are NULL',
      'SELECT theta_union(th) IS NULL AND theta_intersect(tp) IS NULL FROM sketches_empty'),
  (25, 'theta_agg(user_id, 10) WHERE kind = -1 (every shard, no rows) IS NULL',
      'SELECT theta_agg(user_id, 10) IS NULL FROM events WHERE kind = -1'),
  (26, 'theta_intersect(tp) WHERE false (no shard queried) IS NULL, theta_count 0',
      'SELECT theta_intersect(tp) IS NULL AND theta_count(theta_intersect(tp)) = 0 FROM sketches WHERE false'),
  (27, 'theta_agg(user_id, 13) GROUP BY tenant_id over a sparse table: 2 groups, theta_count = count(DISTINCT user_id) (exact below k)',
      'SELECT count(*) = 2 AND bool_and(theta_count(s) = c)
       FROM (SELECT tenant_id, theta_agg(user_id, 13) AS s, count(DISTINCT user_id) AS c FROM events_sparse GROUP BY tenant_id) x'),
  (28, 'theta_intersect over NULL sketches (those of kind 0) skips them: = local, byte for byte',
      $q$SELECT (SELECT theta_intersect(CASE WHEN kind = 0 THEN NULL ELSE tpl END)::text FROM sketches)
                = (SELECT theta_intersect(CASE WHEN kind = 0 THEN NULL ELSE tpl END)::text FROM sketches_local)
                AND (SELECT theta_intersect(CASE WHEN kind = 0 THEN NULL ELSE tpl END) FROM sketches)
                    <> (SELECT theta_intersect(tpl) FROM sketches)$q$)
) x(o, label, q)
ORDER BY x.o;
-- (in one order on both sides: a cms union's candidate list depends on the
-- order it meets the sketches in, and the shard need not hold the rows in
-- the local table's order)
SELECT pg_temp.check_rows('cms_union(c) WHERE tenant_id = 7 (router query) = local',
  'SELECT md5(cms_union(c ORDER BY kind, day)::text) FROM sketches WHERE tenant_id = 7',
  'SELECT md5(cms_union(c ORDER BY kind, day)::text) FROM sketches_local WHERE tenant_id = 7');

-- ---------------------------------------------------------------------------
-- 6. Errors raised on a worker reach the client with their SQLSTATE.
-- ---------------------------------------------------------------------------
\o /dev/null
-- Sketches of different parameters in the same shard (tenant 1), and in two
-- shards (tenant 1 and a tenant of another shard).
-- (ddsketch: relative accuracy 0.05 and 0.01 with 16 and 2048 buckets,
-- which fold to the coarser scale and the smaller limit, no error.)
-- (topk: k = 2 holding a (5) and c (3), and k = 1024 holding b (1) and c (1),
-- which merge at k = 2: a 5, c 4, and b dropped by the purge, max_error 1.)
-- (theta: th, lg_k 4 over the numbers 1..40 and lg_k 12 over 21..60, which
-- merge at lg_k 4, no error; tx, a sketch of numbers and one of text: an
-- error.)
CREATE TABLE mixed_same (tenant_id int, c cms, b bloom, h hll, d ddsketch, t topk, th theta, tx theta);
SELECT theta_agg(x, 4) AS theta_1_40 FROM generate_series(1, 40) x \gset
SELECT theta_agg(x) AS theta_21_60 FROM generate_series(21, 60) x \gset
SELECT create_distributed_table('mixed_same', 'tenant_id', colocate_with => 'events');
INSERT INTO mixed_same VALUES
  (1, cms_add(cms_empty_sized(272, 5), 'a'::text), bloom_add(bloom_empty_bits(1024, 3), 'a'::text), hll_add(hll_empty(10), 'a'::text),
      ddsketch_add(ddsketch_add(ddsketch_empty(0.05, 16), 3.5), -2),
      topk_add(topk_add(topk_empty(2), 'a'::text, 5), 'c'::text, 3),
      :'theta_1_40'::theta, theta_add(theta_empty(), 1)),
  (1, cms_add(cms_empty_sized(2719, 5), 'b'::text), bloom_add(bloom_empty_bits(2048, 3), 'b'::text), hll_add(hll_empty(14), 'b'::text),
      ddsketch_add(ddsketch_add(ddsketch_empty(0.01, 2048), 1000), 0),
      topk_add(topk_add(topk_empty(1024), 'b'::text), 'c'::text),
      :'theta_21_60'::theta, theta_add(theta_empty(), 'b'::text));
CREATE TABLE mixed_cross (LIKE mixed_same);
SELECT create_distributed_table('mixed_cross', 'tenant_id', colocate_with => 'events');
INSERT INTO mixed_cross
SELECT t, CASE WHEN t = 1 THEN cms_add(cms_empty_sized(272, 5), 'a'::text) ELSE cms_add(cms_empty_sized(2719, 5), 'b'::text) END,
          CASE WHEN t = 1 THEN bloom_add(bloom_empty_bits(1024, 3), 'a'::text) ELSE bloom_add(bloom_empty_bits(2048, 3), 'b'::text) END,
          CASE WHEN t = 1 THEN hll_add(hll_empty(10), 'a'::text) ELSE hll_add(hll_empty(14), 'b'::text) END,
          CASE WHEN t = 1 THEN ddsketch_add(ddsketch_add(ddsketch_empty(0.05, 16), 3.5), -2)
               ELSE ddsketch_add(ddsketch_add(ddsketch_empty(0.01, 2048), 1000), 0) END,
          CASE WHEN t = 1 THEN topk_add(topk_add(topk_empty(2), 'a'::text, 5), 'c'::text, 3)
               ELSE topk_add(topk_add(topk_empty(1024), 'b'::text), 'c'::text) END,
          CASE WHEN t = 1 THEN :'theta_1_40'::theta ELSE :'theta_21_60'::theta END,
          CASE WHEN t = 1 THEN theta_add(theta_empty(), 1) ELSE theta_add(theta_empty(), 'b'::text) END
FROM (SELECT 1 AS t UNION ALL
      SELECT min(x) FROM generate_series(2, 32) x
      WHERE get_shard_id_for_distribution_column('events', x) <> get_shard_id_for_distribution_column('events', 1)) s;
\o
SELECT pg_temp.check_true('mixed_cross: its two rows are in different shards',
  $q$SELECT count(DISTINCT get_shard_id_for_distribution_column('mixed_cross', tenant_id)) = 2 FROM mixed_cross$q$);
SELECT pg_temp.check_error(x.label, x.q, '22023', x.msg, x.place)
FROM (VALUES
  (1, 'cms_union: different widths in one shard: 22023 from the worker',
      'SELECT cms_union(c) FROM mixed_same', 'cannot merge cms sketches with different parameters%', 'worker'),
  (2, 'cms_union: different widths in two shards: 22023 from the coordinator''s combine',
      'SELECT cms_union(c) FROM mixed_cross', 'cannot merge cms sketches with different parameters%', 'coordinator'),
  (3, 'cms_union GROUP BY tenant_id (pushed down): different widths: 22023 from the worker',
      'SELECT tenant_id, cms_union(c) FROM mixed_same GROUP BY tenant_id', 'cannot merge cms sketches with different parameters%', 'worker'),
  (4, 'bloom_union: different sizes in one shard: 22023 from the worker',
      'SELECT bloom_union(b) FROM mixed_same', 'cannot combine bloom filters with different parameters%', 'worker'),
  (5, 'bloom_union: different sizes in two shards: 22023 from the coordinator''s combine',
      'SELECT bloom_union(b) FROM mixed_cross', 'cannot combine bloom filters with different parameters%', 'coordinator'),
  (6, 'bloom_union GROUP BY tenant_id (pushed down): different sizes: 22023 from the worker',
      'SELECT tenant_id, bloom_union(b) FROM mixed_same GROUP BY tenant_id', 'cannot combine bloom filters with different parameters%', 'worker'),
  (7, 'cms_agg_sized: width changing within a group: 22023 from the worker',
      'SELECT cms_agg_sized(page, CASE WHEN event_id % 2 = 0 THEN 272 ELSE 500 END, 4) FROM events', '%must be the same for every row%', 'worker'),
  (8, 'bloom_agg: n changing within a group: 22023 from the worker',
      'SELECT bloom_agg(user_id, CASE WHEN event_id % 2 = 0 THEN 1000 ELSE 2000 END, 0.01) FROM events', '%must be the same for every row%', 'worker'),
  (9, 'cms_agg_weighted: a negative count: 22023 from the worker',
      'SELECT cms_agg_weighted(page, n - 3) FROM events', '%must not be negative%', 'worker'),
  (10, 'hll_agg(user_id, 30): precision out of range: 22023 from the worker',
      'SELECT hll_agg(user_id, 30) FROM events', '%out of range%', 'worker'),
  (11, 'ddsketch_agg: a NaN value: 22023 from the worker',
      $q$SELECT ddsketch_agg(CASE WHEN event_id = 4242 THEN 'NaN'::float8 ELSE lat END) FROM events$q$,
      'a ddsketch cannot hold NaN%', 'worker'),
  (12, 'ddsketch_agg GROUP BY tenant_id (pushed down): -Infinity: 22023 from the worker',
      $q$SELECT tenant_id, ddsketch_agg(CASE WHEN event_id = 4242 THEN '-Infinity'::float8 ELSE lat END) FROM events GROUP BY tenant_id$q$,
      'a ddsketch cannot hold -Infinity%', 'worker'),
  (13, 'ddsketch_agg GROUP BY kind: NaN in one group: 22023 from the worker',
      $q$SELECT kind, ddsketch_agg(CASE WHEN event_id = 4242 THEN 'NaN'::float8 ELSE lat END) FROM events GROUP BY kind$q$,
      'a ddsketch cannot hold NaN%', 'worker'),
  (14, 'ddsketch_agg: relative accuracy changing within a group: 22023 from the worker',
      'SELECT ddsketch_agg(lat, CASE WHEN event_id % 2 = 0 THEN 0.01 ELSE 0.05 END) FROM events', '%must be the same for every row%', 'worker'),
  (15, 'ddsketch_agg(lat, 0.01, 8): max_buckets out of range: 22023 from the worker',
      'SELECT ddsketch_agg(lat, 0.01, 8) FROM events', '%max_buckets must be between 16 and 65536%', 'worker'),
  (16, 'ddsketch_agg(lat, 0): relative accuracy out of range: 22023 from the worker',
      'SELECT ddsketch_agg(lat, 0) FROM events', '%relative accuracy must be at least%', 'worker'),
  (17, 'ddsketch_quantile(ddsketch_union(d), 1.5): q outside 0..1: 22023 from the coordinator',
      'SELECT ddsketch_quantile(ddsketch_union(d), 1.5) FROM sketches', '%outside 0..1%', 'coordinator'),
  (18, 'topk_agg(page, 0): k out of range: 22023 from the worker',
      'SELECT topk_agg(page, 0) FROM events', 'topk k must be between 1 and 65536%', 'worker'),
  (19, 'topk_agg GROUP BY kind: k changing within a group: 22023 from the worker',
      'SELECT kind, topk_agg(page, CASE WHEN event_id % 2 = 0 THEN 16 ELSE 32 END) FROM events GROUP BY kind',
      '%must be the same for every row%', 'worker'),
  (20, 'topk_agg_weighted: a negative weight: 22023 from the worker',
      'SELECT topk_agg_weighted(page, n - 3) FROM events', 'topk weight must not be negative%', 'worker'),
  (21, 'topk_agg_weighted GROUP BY tenant_id (pushed down): a negative weight: 22023 from the worker',
      'SELECT tenant_id, topk_agg_weighted(c_int8, n - 3, 64) FROM events GROUP BY tenant_id',
      'topk weight must not be negative%', 'worker'),
  (22, 'topk_frequent(topk_union(t), 0.000001, no_false_negatives): below max_error: 22023 from the coordinator',
      $q$SELECT * FROM topk_frequent((SELECT topk_union(t) FROM sketches), 0.000001, 'no_false_negatives')$q$,
      '%cannot guarantee no false negatives%', 'coordinator'),
  (23, 'topk_frequent(topk_union(t), 0.01, ''both''): unknown guarantee: 22023 from the coordinator',
      $q$SELECT * FROM topk_frequent((SELECT topk_union(t) FROM sketches), 0.01, 'both')$q$,
      '%unknown guarantee%', 'coordinator'),
  (24, 'topk_items(topk_agg(page), -1): 22023 from the coordinator',
      'SELECT * FROM topk_items((SELECT topk_agg(page) FROM events), -1)', '%n must not be negative%', 'coordinator'),
  (25, 'topk_scale(topk_union(t), 0): 22023 from the coordinator',
      'SELECT topk_scale(topk_union(t), 0) FROM sketches', 'topk_scale: scale factor must be greater than 0%', 'coordinator'),
  (26, 'topk_scale(topk_union(t), 1.5) GROUP BY tenant_id (pushed down): 22023 from the worker',
      'SELECT tenant_id, topk_scale(topk_union(t), 1.5) FROM sketches GROUP BY tenant_id',
      'topk_scale: scale factor must be greater than 0%', 'worker'),
  (27, 'cms_scale(cms_union(c), 1.5): 22023 from the coordinator',
      'SELECT cms_scale(cms_union(c), 1.5) FROM sketches', 'cms_scale:%', 'coordinator'),
  (28, 'theta_agg(user_id, 3): lg_k out of range: 22023 from the worker',
      'SELECT theta_agg(user_id, 3) FROM events', 'theta lg_k must be between 4 and 24%', 'worker'),
  (29, 'theta_agg GROUP BY kind: lg_k changing within a group: 22023 from the worker',
      'SELECT kind, theta_agg(user_id, CASE WHEN event_id % 2 = 0 THEN 10 ELSE 11 END) FROM events GROUP BY kind',
      '%must be the same for every row%', 'worker'),
  (30, 'theta_union: numbers and text in one shard: 22023 from the worker',
      'SELECT theta_union(tx) FROM mixed_same', '%holds numbers%cannot take or be compared with text values%', 'worker'),
  (31, 'theta_union: numbers and text in two shards: 22023 from the coordinator''s combine',
      'SELECT theta_union(tx) FROM mixed_cross', '%holds numbers%cannot take or be compared with text values%', 'coordinator'),
  (32, 'theta_intersect: numbers and text in one shard: 22023 from the worker',
      'SELECT theta_intersect(tx) FROM mixed_same', '%holds numbers%cannot take or be compared with text values%', 'worker'),
  (33, 'theta_intersect: numbers and text in two shards: 22023 from the coordinator''s combine',
      'SELECT theta_intersect(tx) FROM mixed_cross', '%holds numbers%cannot take or be compared with text values%', 'coordinator'),
  (34, 'theta_union GROUP BY tenant_id (pushed down): numbers and text: 22023 from the worker',
      'SELECT tenant_id, theta_union(tx) FROM mixed_same GROUP BY tenant_id', '%cannot take or be compared with text values%', 'worker'),
  (35, 'theta_diff(theta_union(tp), theta_union(th)): text and numbers: 22023 from the coordinator',
      'SELECT theta_diff(theta_union(tp), theta_union(th)) FROM sketches', '%holds text%', 'coordinator'),
  (36, 'theta_bounds(theta_union(th), 1.5): 22023 from the coordinator',
      'SELECT theta_bounds(theta_union(th), 1.5) FROM sketches', 'confidence must be between 0 and 1%', 'coordinator'),
  (37, 'theta_jaccard(theta_union(th), theta_union(thl), 0) GROUP BY tenant_id (pushed down): 22023 from the worker',
      'SELECT tenant_id, theta_jaccard(theta_union(th), theta_union(thl), 0) FROM sketches GROUP BY tenant_id',
      'confidence must be between 0 and 1%', 'worker'),
  (38, 'counting_bloom_agg: n changing within a group: 22023 from the worker',
      'SELECT counting_bloom_agg(user_id, CASE WHEN event_id % 2 = 0 THEN 1000 ELSE 2000 END, 0.01) FROM events',
      '%must be the same for every row%', 'worker'),
  (39, 'counting_bloom_agg(user_id, 0, 0.01): n out of range: 22023 from the worker',
      'SELECT counting_bloom_agg(user_id, 0, 0.01) FROM events', '%n must be at least 1%', 'worker'),
  (40, 'cuckoo_agg: p changing within a group: 22023 from the worker',
      'SELECT kind, cuckoo_agg(user_id, 1000, CASE WHEN event_id % 2 = 0 THEN 0.01 ELSE 0.001 END) FROM events GROUP BY kind',
      '%must be the same for every row%', 'worker'),
  (41, 'cuckoo_agg(user_id, 1000, 1.5): p out of range: 22023 from the worker',
      'SELECT cuckoo_agg(user_id, 1000, 1.5) FROM events', '%p must be between 0 and 1%', 'worker')
) x(o, label, q, msg, place)
ORDER BY x.o;
-- different hll precisions are no error: they fold to the smallest
SELECT pg_temp.check_true('hll_union: p = 10 and p = 14 in one shard fold to p = 10',
  $q$SELECT hll_union(h) = hll_union(hll_add(hll_empty(10), 'a'::text), hll_add(hll_empty(10), 'b'::text)) FROM mixed_same$q$);
SELECT pg_temp.check_true('hll_union: p = 10 and p = 14 in two shards fold to p = 10',
  $q$SELECT hll_union(h) = hll_union(hll_add(hll_empty(10), 'a'::text), hll_add(hll_empty(10), 'b'::text)) FROM mixed_cross$q$);
-- and different ddsketch accuracies and bucket limits fold to the coarser
-- scale and the smaller limit
SELECT pg_temp.check_true(x.label, x.q, x.detail)
FROM (VALUES
  (1, 'ddsketch_union: accuracy 0.05 / 16 buckets and 0.01 / 2048 in one shard fold to 0.05 / 16',
      $q$SELECT ddsketch_union(d) = ddsketch_add(ddsketch_add(ddsketch_add(ddsketch_add(ddsketch_empty(0.05, 16), 3.5), -2), 1000), 0) FROM mixed_same$q$,
      $q$SELECT ddsketch_info(ddsketch_union(d))::text FROM mixed_same$q$),
  (2, 'ddsketch_union: accuracy 0.05 / 16 buckets and 0.01 / 2048 in two shards fold to 0.05 / 16',
      $q$SELECT ddsketch_union(d) = ddsketch_add(ddsketch_add(ddsketch_add(ddsketch_add(ddsketch_empty(0.05, 16), 3.5), -2), 1000), 0) FROM mixed_cross$q$,
      $q$SELECT ddsketch_info(ddsketch_union(d))::text FROM mixed_cross$q$)
) x(o, label, q, detail)
ORDER BY x.o;
SELECT pg_temp.check_error('topk_agg(page, NULL::integer): 22004 from the worker',
  'SELECT topk_agg(page, NULL::integer) FROM events', '22004', 'topk k must not be NULL%', 'worker');
SELECT pg_temp.check_error('theta_agg(user_id, NULL::integer): 22004 from the worker',
  'SELECT theta_agg(user_id, NULL::integer) FROM events', '22004', 'theta lg_k must not be NULL%', 'worker');
-- and topk summaries of different k merge at the smallest k
SELECT pg_temp.check_true(x.label, x.q, x.detail)
FROM (VALUES
  (1, 'topk_union: k = 2 and k = 1024 in one shard merge at k = 2 (a 5, c 4, b purged, max_error 1)',
      $q$SELECT s = topk_union(topk_add(topk_add(topk_empty(2), 'a'::text, 5), 'c'::text, 3),
                               topk_add(topk_add(topk_empty(1024), 'b'::text), 'c'::text))
                AND topk_max_error(s) = 1 AND (topk_info(s)->>'k')::int = 2
                AND (SELECT string_agg(item || ' ' || lower_bound, ', ') FROM topk_items(s)) = 'a 4, c 3'
         FROM (SELECT topk_union(t) AS s FROM mixed_same) u$q$,
      $q$SELECT topk_info(topk_union(t))::text FROM mixed_same$q$),
  (2, 'topk_union: k = 2 and k = 1024 in two shards merge at k = 2 (a 5, c 4, b purged, max_error 1)',
      $q$SELECT s = topk_union(topk_add(topk_add(topk_empty(2), 'a'::text, 5), 'c'::text, 3),
                               topk_add(topk_add(topk_empty(1024), 'b'::text), 'c'::text))
                AND topk_max_error(s) = 1 AND (topk_info(s)->>'k')::int = 2
                AND (SELECT string_agg(item || ' ' || lower_bound, ', ') FROM topk_items(s)) = 'a 4, c 3'
         FROM (SELECT topk_union(t) AS s FROM mixed_cross) u$q$,
      $q$SELECT topk_info(topk_union(t))::text FROM mixed_cross$q$)
) x(o, label, q, detail)
ORDER BY x.o;
-- and theta sketches of different lg_k: a union is the sketch of the union
-- at the smallest lg_k (byte for byte), an intersection works at it too
SELECT pg_temp.check_true(x.label, format(x.q, x.tbl), format('SELECT theta_info(theta_union(th))::text || '' '' || theta_info(theta_intersect(th))::text FROM %s', x.tbl))
FROM (VALUES
  (1, 'theta_union: lg_k 4 over 1..40 and lg_k 12 over 21..60 in one shard = theta_agg(x, 4) over 1..60, byte for byte', 'mixed_same',
      $q$SELECT (SELECT theta_union(th)::text FROM %s) = (SELECT theta_agg(x, 4)::text FROM generate_series(1, 60) x)$q$),
  (2, 'theta_union: lg_k 4 over 1..40 and lg_k 12 over 21..60 in two shards = theta_agg(x, 4) over 1..60, byte for byte', 'mixed_cross',
      $q$SELECT (SELECT theta_union(th)::text FROM %s) = (SELECT theta_agg(x, 4)::text FROM generate_series(1, 60) x)$q$),
  (3, 'theta_intersect: lg_k 4 and lg_k 12 in one shard = theta_intersect of the two, at lg_k 4', 'mixed_same',
      $q$SELECT i.s::text = theta_intersect((SELECT theta_agg(x, 4) FROM generate_series(1, 40) x),
                                            (SELECT theta_agg(x) FROM generate_series(21, 60) x))::text
                AND theta_info(i.s)->>'lg_k' = '4' AND theta_count(i.s) > 0
         FROM (SELECT theta_intersect(th) AS s FROM %s) i$q$),
  (4, 'theta_intersect: lg_k 4 and lg_k 12 in two shards = theta_intersect of the two, at lg_k 4', 'mixed_cross',
      $q$SELECT i.s::text = theta_intersect((SELECT theta_agg(x, 4) FROM generate_series(1, 40) x),
                                            (SELECT theta_agg(x) FROM generate_series(21, 60) x))::text
                AND theta_info(i.s)->>'lg_k' = '4' AND theta_count(i.s) > 0
         FROM (SELECT theta_intersect(th) AS s FROM %s) i$q$)
) x(o, label, tbl, q)
ORDER BY x.o;
-- The one-step aggregates (src/sql/one_step.sql) split as their sketches do:
-- approx_count_distinct per tenant (pushed down), per kind (split: partial
-- hll states merged on the coordinator) and over everything, and
-- approx_top_k at k = 4096 (more counters than pages, so no purge: the
-- merged summary is the local one item for item), and approx_percentile(s),
-- whose partial states (a ddsketch and the fractions asked) cross as text
-- and merge exactly, equal to the local copy.
SELECT pg_temp.check_rows(x.label, format(x.q, 'events'), format(x.q, 'events_local'), true)
FROM (VALUES
  (1, 'approx_count_distinct(user_id) per tenant (pushed down) = local',
      $q$SELECT tenant_id || ' ' || approx_count_distinct(user_id) FROM %s GROUP BY tenant_id ORDER BY tenant_id$q$),
  (2, 'approx_count_distinct(user_id) per kind (split) = local',
      $q$SELECT kind || ' ' || approx_count_distinct(user_id) FROM %s GROUP BY kind ORDER BY kind$q$),
  (3, 'approx_count_distinct(page) over all rows (split) = local',
      $q$SELECT approx_count_distinct(page)::text FROM %s$q$),
  (4, 'approx_top_k(page, 4096) per kind (split) = local',
      $q$SELECT kind || ' ' || approx_top_k(page, 4096)::text FROM %s GROUP BY kind ORDER BY kind$q$),
  (5, 'approx_top_k(page, 4096) per tenant (pushed down) = local',
      $q$SELECT tenant_id || ' ' || approx_top_k(page, 4096)::text FROM %s GROUP BY tenant_id ORDER BY tenant_id$q$),
  (6, 'approx_percentile(lat, 0.99) per kind (split: states carrying q merged on the coordinator) = local',
      $q$SELECT kind || ' ' || approx_percentile(lat, 0.99) FROM %s GROUP BY kind ORDER BY kind$q$),
  (7, 'approx_percentile(lat, 0.5) per tenant (pushed down) = local',
      $q$SELECT tenant_id || ' ' || approx_percentile(lat, 0.5) FROM %s GROUP BY tenant_id ORDER BY tenant_id$q$),
  (8, 'approx_percentiles(lat, {0.5, 0.95, 0, 1}) over all rows (split) = local',
      $q$SELECT approx_percentiles(lat, '{0.5, 0.95, 0, 1}')::text FROM %s$q$)
) x(o, label, q)
ORDER BY x.o;
-- hll_postgresql_hll_agg (postgresql-hll's hashing, hash identity 2) splits
-- like hll_agg: partial states merged on the coordinator give the bytes of
-- the local aggregate (merges of one identity and parameters are exact),
-- per tenant (pushed down), per kind (split) and over all rows, with the
-- default and with explicit parameters and seed.
SELECT pg_temp.check_rows(x.label, format(x.q, 'events'), format(x.q, 'events_local'), true)
FROM (VALUES
  (1, 'hll_postgresql_hll_agg(user_id) per tenant (pushed down) = local, byte for byte',
      $q$SELECT tenant_id || ' ' || hll_postgresql_hll_agg(user_id)::text FROM %s GROUP BY tenant_id ORDER BY tenant_id$q$),
  (2, 'hll_postgresql_hll_agg(user_id) per kind (split) = local, byte for byte',
      $q$SELECT kind || ' ' || hll_postgresql_hll_agg(user_id)::text FROM %s GROUP BY kind ORDER BY kind$q$),
  (3, 'hll_postgresql_hll_agg(page, 12, 5, -1, 1, 7) over all rows (split) = local, exported bytes',
      $q$SELECT hll_to_postgresql_hll(hll_postgresql_hll_agg(page, 12, 5, -1, 1, 7))::text FROM %s$q$)
) x(o, label, q)
ORDER BY x.o;
-- hll_postgresql_hll_agg over the types it hashes by hll_hash_any's rule
-- (their typed twins split), hll_postgresql_hll_add's anyelement overload
-- on the shards, and the import of the peer's bytes on the shards with
-- hll_union split over them: each equals the local copy byte for byte.
SELECT pg_temp.check_rows(x.label, format(x.q, 'events'), format(x.q, 'events_local'), true)
FROM (VALUES
  (1, 'hll_postgresql_hll_agg(c_date) per kind (split) = local, byte for byte',
      $q$SELECT kind || ' ' || hll_postgresql_hll_agg(c_date)::text FROM %s GROUP BY kind ORDER BY kind$q$),
  (2, 'hll_postgresql_hll_agg(c_timestamptz, 13, 5, -1, 1, 3) over all rows (split) = local, exported bytes',
      $q$SELECT hll_to_postgresql_hll(hll_postgresql_hll_agg(c_timestamptz, 13, 5, -1, 1, 3))::text FROM %s$q$),
  (3, 'hll_postgresql_hll_agg(c_numeric) per kind (split) = local, byte for byte',
      $q$SELECT kind || ' ' || hll_postgresql_hll_agg(c_numeric)::text FROM %s GROUP BY kind ORDER BY kind$q$),
  (4, 'hll_postgresql_hll_agg(c_float8) per tenant (pushed down) = local, byte for byte',
      $q$SELECT tenant_id || ' ' || hll_postgresql_hll_agg(c_float8)::text FROM %s GROUP BY tenant_id ORDER BY tenant_id$q$),
  (5, 'hll_postgresql_hll_agg(c_uuid, 11, 5, 0, 0, 0) over all rows (split) = local, exported bytes',
      $q$SELECT hll_to_postgresql_hll(hll_postgresql_hll_agg(c_uuid, 11, 5, 0, 0, 0))::text FROM %s$q$),
  (6, 'hll_union(hll_postgresql_hll_add(empty, c_date)) per kind (split) = local, byte for byte',
      $q$SELECT kind || ' ' || hll_union(hll_postgresql_hll_add(hll_postgresql_hll_empty(), c_date))::text FROM %s GROUP BY kind ORDER BY kind$q$),
  (7, 'hll_union(hll_from_postgresql_hll(peer bytes)) per kind (split) = local, byte for byte',
      $q$SELECT kind || ' ' || hll_union(hll_from_postgresql_hll(hll_to_postgresql_hll(hll_postgresql_hll_add(hll_postgresql_hll_empty(12, 5, -1, 1, 9), user_id)), 9))::text FROM %s GROUP BY kind ORDER BY kind$q$)
) x(o, label, q)
ORDER BY x.o;
-- hll_datasketches_agg (DataSketches' hashing, hash identity 3) splits like
-- hll_agg: its registers and estimates do not depend on the order rows
-- arrive in (a SET's table layout and the HIP estimate do, so bytes are
-- compared only through the registers of HLL mode), per tenant (pushed
-- down), per kind (split) and over all rows; and the import of the
-- libraries' bytes on the shards with hll_union split over them.
SELECT pg_temp.check_rows(x.label, format(x.q, 'events'), format(x.q, 'events_local'), true)
FROM (VALUES
  (1, 'hll_datasketches_agg(user_id) per tenant (pushed down) = local, estimates',
      $q$SELECT tenant_id || ' ' || hll_cardinality(hll_datasketches_agg(user_id::bigint)) FROM %s GROUP BY tenant_id ORDER BY tenant_id$q$),
  (2, 'hll_datasketches_agg(user_id) per kind (split) = local, estimates',
      $q$SELECT kind || ' ' || hll_cardinality(hll_datasketches_agg(user_id::bigint)) FROM %s GROUP BY kind ORDER BY kind$q$),
  (3, 'hll_datasketches_agg(page, 4, HLL_8) over all rows (split) = local, exported registers',
      $q$SELECT substr(hll_to_datasketches(hll_datasketches_agg(page::text, 4, 'HLL_8')), 41)::text FROM %s$q$),
  (4, 'hll_union(hll_from_datasketches(library bytes)) per kind (split) = local, estimates',
      $q$SELECT kind || ' ' || hll_cardinality(hll_union(hll_from_datasketches(hll_to_datasketches(hll_datasketches_add(hll_from_datasketches('\x0201070c030c0004'), user_id::bigint))))) FROM %s GROUP BY kind ORDER BY kind$q$)
) x(o, label, q)
ORDER BY x.o;
-- DataSketches' frequent items bytes imported on the shards, topk_union
-- split over them (three items below k 48: no purge, so every merge order
-- gives the same bytes) and mixed with topk_add of the rows' values.
SELECT pg_temp.check_rows(x.label, format(x.q, 'events'), format(x.q, 'events_local'), true)
FROM (VALUES
  (1, 'topk_union(topk_from_datasketches(frequent longs bytes)) per kind (split) = local, byte for byte',
      $q$SELECT kind || ' ' || topk_union(topk_from_datasketches('\x04010a060300000003000000000000000c0000000000000002000000000000000500000000000000030000000000000002000000000000000700000000000000ffffffffffffffff2a00000000000000'::bytea))::text FROM %s GROUP BY kind ORDER BY kind$q$),
  (2, 'topk_union(topk_from_datasketches(frequent longs bytes) || topk_agg) per tenant (pushed down) = local, byte for byte',
      $q$SELECT tenant_id || ' ' || topk_union(topk_from_datasketches('\x04010a060300000003000000000000000c0000000000000002000000000000000500000000000000030000000000000002000000000000000700000000000000ffffffffffffffff2a00000000000000'::bytea) || topk_add(topk_empty(48), user_id %% 3))::text FROM %s GROUP BY tenant_id ORDER BY tenant_id$q$)
) x(o, label, q)
ORDER BY x.o;
-- DataSketches' compact theta bytes (hash identity 3) imported on the
-- shards, theta_union split over them: unions of one identity are exact, so
-- every split gives the local bytes, and the export is the library's.
SELECT pg_temp.check_rows(x.label, format(x.q, 'events'), format(x.q, 'events_local'), true)
FROM (VALUES
  (1, 'theta_union(theta_from_datasketches(theta_n10 bytes)) per kind (split) = local, byte for byte',
      $q$SELECT kind || ' ' || theta_union(theta_from_datasketches('\x02030300001acc930a0000000000000015f97dcbbd86a10540de2ee1c9db3d08698bb991b8685708fe162113fb98bc10bd3273724691cc14c397fc1281709d1ee56b61eec88044201ad1300b998c2f22ba40b3c1da06695de0f48bea9983c37c'::bytea))::text FROM %s GROUP BY kind ORDER BY kind$q$),
  (2, 'theta_to_datasketches(theta_union(theta_from_datasketches(compressed bytes)), true) over all rows (split) = local',
      $q$SELECT theta_to_datasketches(theta_union(theta_from_datasketches('\x0104033e011acc930a16861af72df7e45429c550c15b0e52b006633bac22ab4a4865304281678b95103fe12d7d486efc9d0df3aa0896506069c411f6d9350881eb0bd01ccf6535ece5e906da09be81f5a7cbf28d8b4260'::bytea)), true)::text FROM %s$q$)
) x(o, label, q)
ORDER BY x.o;
-- theta_datasketches_agg (DataSketches' hashing, hash identity 3) splits
-- like theta_agg while the library's sketch is exact (at most 15k/8 = 7680
-- distinct values at lg_k 12: every hash kept, whatever the order): per
-- tenant (pushed down), per kind (split), over all rows, and added to an
-- import on the shards with theta_union split over them. In estimation
-- mode its θ depends on the order rows arrive in, as the libraries' does.
SELECT pg_temp.check_rows(x.label, format(x.q, 'events'), format(x.q, 'events_local'), true)
FROM (VALUES
  (1, 'theta_datasketches_agg(user_id %% 2000) per tenant (pushed down) = local, byte for byte',
      $q$SELECT tenant_id || ' ' || theta_datasketches_agg(user_id %% 2000)::text FROM %s GROUP BY tenant_id ORDER BY tenant_id$q$),
  (2, 'theta_datasketches_agg(user_id %% 2000) per kind (split) = local, byte for byte',
      $q$SELECT kind || ' ' || theta_datasketches_agg(user_id %% 2000)::text FROM %s GROUP BY kind ORDER BY kind$q$),
  (3, 'theta_to_datasketches(theta_datasketches_agg(page::text)) over all rows (split) = local',
      $q$SELECT theta_to_datasketches(theta_datasketches_agg(page::text))::text FROM %s$q$),
  (4, 'theta_union(theta_datasketches_add(theta_n10 import, user_id %% 50)) per kind (split) = local, byte for byte',
      $q$SELECT kind || ' ' || theta_union(theta_datasketches_add(theta_from_datasketches('\x02030300001acc930a0000000000000015f97dcbbd86a10540de2ee1c9db3d08698bb991b8685708fe162113fb98bc10bd3273724691cc14c397fc1281709d1ee56b61eec88044201ad1300b998c2f22ba40b3c1da06695de0f48bea9983c37c'::bytea), user_id %% 50))::text FROM %s GROUP BY kind ORDER BY kind$q$)
) x(o, label, q)
ORDER BY x.o;
-- DataSketches' compact KLL bytes (the C++ library's doubles 1..10)
-- imported on the shards, kll_union split over them, alone and with the
-- rows' values added: a split merges in another order than the local
-- union, so only what is exact is compared (count, min, max).
SELECT pg_temp.check_rows(x.label, format(x.q, 'events'), format(x.q, 'events_local'), true)
FROM (VALUES
  (1, 'kll_union(kll_from_datasketches(kll_double_n10 bytes)) per kind (split) = local: count, min, max',
      $q$SELECT kind || ' ' || kll_count(u) || ' ' || kll_min(u) || ' ' || kll_max(u) FROM (SELECT kind, kll_union(kll_from_datasketches('\x05010f00c80008000a00000000000000c8000100be000000000000000000f03f00000000000024400000000000002440000000000000224000000000000020400000000000001c4000000000000018400000000000001440000000000000104000000000000008400000000000000040000000000000f03f'::bytea)) AS u FROM %s GROUP BY kind) x ORDER BY kind$q$),
  (2, 'kll_union(kll_add(kll_from_datasketches(kll_double_n10 bytes), lat)) per tenant (pushed down) = local: count, min, max',
      $q$SELECT tenant_id || ' ' || kll_count(u) || ' ' || kll_min(u) || ' ' || kll_max(u) FROM (SELECT tenant_id, kll_union(kll_add(kll_from_datasketches('\x05010f00c80008000a00000000000000c8000100be000000000000000000f03f00000000000024400000000000002440000000000000224000000000000020400000000000001c4000000000000018400000000000001440000000000000104000000000000008400000000000000040000000000000f03f'::bytea), lat)) AS u FROM %s GROUP BY tenant_id) x ORDER BY tenant_id$q$),
  (3, 'kll_to_datasketches(kll_from_datasketches(kll_double_n10 bytes)) on the shards = local, byte for byte',
      $q$SELECT DISTINCT kll_to_datasketches(kll_from_datasketches('\x05010f00c80008000a00000000000000c8000100be000000000000000000f03f00000000000024400000000000002440000000000000224000000000000020400000000000001c4000000000000018400000000000001440000000000000104000000000000008400000000000000040000000000000f03f'::bytea))::text FROM %s$q$)
) x(o, label, q)
ORDER BY x.o;
