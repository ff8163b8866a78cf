-- cms scalar surface: building, reading, combining, top-k, element types.
SET extra_float_digits = 0;

-- Empty sketches and NULL read as zero.
SELECT cms_total(cms_empty()) AS total, cms_frequency(cms_empty(), 42) AS freq,
       cms_error_bound(cms_empty()) AS bound,
       cms_total(NULL::cms) AS null_total, cms_frequency(NULL::cms, 42) AS null_freq,
       cms_error_bound(NULL::cms) AS null_bound,
       cms_frequency(cms_empty(), NULL::int) IS NULL AS null_value_gives_null;
SELECT cms_info(cms_empty());
SELECT cms_info(cms_empty(0.01, 0.05, true, 10));
SELECT cms_info(cms_empty_sized(1000, 3));
SELECT cms_info(cms_empty_sized(64, 2, true, 0));
SELECT (cms_info(cms_empty(epsilon => 0.1))->>'width')::int AS width_for_0_1,
       (cms_info(cms_empty(delta => 0.5))->>'depth')::int AS depth_for_0_5,
       (cms_info(cms_empty(k => 7))->>'k')::int AS k;
SELECT * FROM cms_topk(cms_empty(), 5);
SELECT * FROM cms_topk(NULL::cms, 5);

-- cms_add: counts, NULL value and NULL or zero count leave the sketch as it
-- is, a NULL sketch stays NULL.
WITH s AS (SELECT cms_add(cms_add(cms_add(cms_empty(), 'a'::text), 'b'::text), 'a'::text) AS s)
SELECT cms_frequency(s, 'a'::text) AS a, cms_frequency(s, 'b'::text) AS b,
       cms_frequency(s, 'c'::text) AS c, cms_total(s) AS total FROM s;
SELECT cms_frequency(cms_add(cms_empty(), 7, 1000), 7) AS weighted,
       cms_add(cms_empty(), NULL::int) = cms_empty() AS null_value,
       cms_add(cms_empty(), 7, NULL) = cms_empty() AS null_count,
       cms_add(cms_empty(), 7, 0) = cms_empty() AS zero_count,
       cms_add(NULL::cms, 7) IS NULL AS null_sketch,
       cms_add(NULL::cms, 7, 3) IS NULL AS null_sketch_weighted;

-- Adding values one by one equals aggregating them.
SELECT cms_add(cms_add(cms_empty(), 1), 2) = cms_agg(g) AS add_equals_agg
FROM generate_series(1, 2) g;
SELECT cms_add(cms_empty(), 5, 3) = cms_agg(5) FILTER (WHERE g <= 3) AS weighted_add_equals_agg
FROM generate_series(1, 10) g;

-- Small data in the default sketch: exact counts, exact top-k.
CREATE TABLE cms_words AS
SELECT w FROM (VALUES ('apple', 50), ('banana', 30), ('cherry', 20), ('date', 20),
                      ('elderberry', 5), ('fig', 1)) AS t(w, n),
              LATERAL generate_series(1, n);
CREATE TABLE cms_word_sketch AS SELECT cms_agg(w) AS s FROM cms_words;
SELECT w, cms_frequency((SELECT s FROM cms_word_sketch), w) AS estimate, count(*) AS exact
FROM cms_words GROUP BY w ORDER BY w;
SELECT cms_frequency(s, 'grape'::text) AS never_seen, cms_total(s) AS total,
       cms_error_bound(s) AS bound FROM cms_word_sketch;
-- Best first; equal frequencies in text order.
SELECT * FROM cms_topk((SELECT s FROM cms_word_sketch), 10);
SELECT * FROM cms_topk((SELECT s FROM cms_word_sketch), 2);
SELECT count(*) AS zero_rows FROM cms_topk((SELECT s FROM cms_word_sketch), 0);
SELECT * FROM cms_topk((SELECT s FROM cms_word_sketch), NULL);
SELECT (cms_info(s)->>'candidates')::int AS candidates FROM cms_word_sketch;

-- The typed form reads values back as the hint's type.
SELECT value, pg_typeof(value) AS type, frequency
FROM cms_topk((SELECT cms_agg(g % 4) FROM generate_series(1, 10) g), 3, NULL::int);
SELECT value + 1 AS next_day, frequency
FROM cms_topk((SELECT cms_agg(date '2024-02-28' + g % 3) FROM generate_series(1, 6) g), 5, NULL::date);
SELECT * FROM cms_topk(NULL::cms, 3, NULL::int);

-- k = 0 keeps no candidates but counts as usual.
SELECT cms_frequency(cms_agg(g % 3, 0.01, 0.01, false, 0), 1) AS freq,
       (SELECT count(*) FROM cms_topk(cms_agg(g % 3, 0.01, 0.01, false, 0), 5)) AS topk_rows
FROM generate_series(1, 30) g;

-- Union: function, operator, NULL sides ignored; the merge of two halves
-- equals the sketch of the whole.
WITH s AS (
  SELECT cms_agg(g % 50) FILTER (WHERE g <= 600) AS a,
         cms_agg(g % 50) FILTER (WHERE g > 600) AS b,
         cms_agg(g % 50) AS ab
  FROM generate_series(1, 1000) g
)
SELECT (a || b) = ab AS union_is_whole, cms_union(a, b) = (b || a) AS commutes,
       (a || NULL) = a AS null_right, (NULL || b) = b AS null_left,
       cms_union(NULL::cms, NULL::cms) IS NULL AS both_null,
       cms_total(a || b) AS total, cms_frequency(a || b, 7) AS freq_of_7
FROM s;

-- Merging sketches with different k keeps the larger k; conservative if
-- either is.
SELECT cms_info(cms_agg(g, 0.001, 0.01, false, 5) || cms_agg(g, 0.001, 0.01, true, 20))->'k' AS k,
       cms_info(cms_agg(g, 0.001, 0.01, false, 5) || cms_agg(g, 0.001, 0.01, true, 20))->'conservative' AS conservative,
       cms_info(cms_agg(g) || cms_agg(g))->'conservative' AS plain_stays_plain
FROM generate_series(1, 10) g;

-- Conservative update never underestimates and is never worse.
WITH data AS (SELECT (g * g) % 997 AS v FROM generate_series(1, 20000) g),
     s AS (SELECT cms_agg(v, 0.05, 0.1) AS plain, cms_agg(v, 0.05, 0.1, true) AS cons FROM data),
     exact AS (SELECT v, count(*) AS n FROM data GROUP BY v)
SELECT bool_and(cms_frequency(plain, v) >= n) AS plain_never_under,
       bool_and(cms_frequency(cons, v) >= n) AS conservative_never_under,
       bool_and(cms_frequency(cons, v) <= cms_frequency(plain, v)) AS conservative_never_worse,
       sum(cms_frequency(cons, v) - n) < sum(cms_frequency(plain, v) - n) AS conservative_tighter,
       bool_and(cms_frequency(plain, v) - n <= cms_error_bound(plain)) AS within_bound
FROM exact, s;

-- Equality.
SELECT cms_agg(g) = cms_agg(g) AS eq, cms_agg(g) <> cms_agg(g + 1) AS ne,
       cms_agg(g) = cms_agg(g, 0.01, 0.01) AS different_parameters
FROM generate_series(1, 100) g;

-- Canonical hashing: values equal in SQL count together, whatever their type.
WITH s AS (SELECT cms_agg(g::int8) AS s FROM generate_series(1, 10) g)
SELECT cms_frequency(s, 3::int2) AS int2, cms_frequency(s, 3::int4) AS int4,
       cms_frequency(s, 3::numeric) AS numeric, cms_frequency(s, 3.00::numeric) AS numeric_scale
FROM s;
-- A text value is another kind of element: refused, never a silent 0.
SELECT cms_frequency(cms_agg(g::int8), '3'::text) FROM generate_series(1, 10) g;
-- Quoted literals resolve through the text twins.
SELECT cms_frequency(cms_add(cms_empty(), 'x'), 'x') AS literal;
-- With a count as typed, integer or bigint (an integer count was ambiguous).
SELECT cms_frequency(cms_add(cms_empty(), 'x', 3), 'x') AS integer_count,
       cms_frequency(cms_add(cms_empty(), 'x', 3::bigint), 'x') AS bigint_count,
       cms_frequency(cms_add(cms_empty(), 'x', 0), 'x') AS zero_count;
SELECT cms_add(cms_empty(), 'x', -3);
SELECT cms_frequency(cms_agg(v), 'x'::varchar) AS varchar_as_text,
       cms_frequency(cms_agg(v), 'x'::char(3)) AS bpchar_without_blanks
FROM (VALUES ('x'::text), ('x'), ('y')) AS t(v);

-- Every common element type works; the candidate texts are the type's output.
CREATE DOMAIN cms_positive_int AS int CHECK (VALUE > 0);
CREATE TYPE cms_pair AS (a int, b text);
SELECT t.type, k.value, k.frequency
FROM (VALUES
  ('text',        (SELECT cms_agg(('w' || g % 3)) FROM generate_series(1, 9) g)),
  ('uuid',        (SELECT cms_agg(md5((g % 2)::text)::uuid) FROM generate_series(1, 4) g)),
  ('numeric',     (SELECT cms_agg(g % 2 / 4.0) FROM generate_series(1, 4) g)),
  ('float8',      (SELECT cms_agg((g % 2)::float8 / 3) FROM generate_series(1, 4) g)),
  ('timestamptz', (SELECT cms_agg(timestamptz '2024-01-01 00:00+00' + (g % 2) * interval '1 hour') FROM generate_series(1, 4) g)),
  ('bool',        (SELECT cms_agg(g % 3 = 0) FROM generate_series(1, 6) g)),
  ('domain',      (SELECT cms_agg((g % 2 + 1)::cms_positive_int) FROM generate_series(1, 4) g)),
  ('array',       (SELECT cms_agg(ARRAY[g % 2, 7]) FROM generate_series(1, 4) g)),
  ('composite',   (SELECT cms_agg(ROW(g % 2, 'x')::cms_pair) FROM generate_series(1, 4) g)),
  ('jsonb',       (SELECT cms_agg(('{"k": ' || g % 2 || '}')::jsonb) FROM generate_series(1, 4) g)),
  ('bytea',       (SELECT cms_agg(decode('00ff' || (g % 2)::text || '0', 'hex')) FROM generate_series(1, 4) g))
) AS t(type, s), LATERAL cms_topk(s, 2) k
ORDER BY t.type, k.frequency DESC, k.value;

-- Long values are clipped to 1024 bytes for display; the hash still counts
-- the whole value.
WITH s AS (SELECT cms_agg(repeat('é', 600) || g % 2) AS s FROM generate_series(1, 4) g)
SELECT octet_length(value) AS bytes, length(value) AS chars, frequency,
       cms_frequency(s, repeat('é', 600) || '1') AS full_value_frequency
FROM s, cms_topk(s, 2);

-- Leave nothing behind for later suites (hll_coexist drops the extension).
DROP TABLE cms_words, cms_word_sketch;
DROP TYPE cms_pair;
DROP DOMAIN cms_positive_int;

-- Candidate texts do not depend on session settings: the same rows give the
-- same bytes whatever DateStyle, TimeZone, IntervalStyle, extra_float_digits
-- or bytea_output say, and typed top-k reads them back under any settings.
CREATE TEMP TABLE settings_rows AS
SELECT timestamptz '2024-01-01 00:00:00+00' + g * interval '1 hour' AS ts,
       g * interval '90 minutes' AS iv, g / 3.0::float8 AS f, ('\x0' || g)::bytea AS b
FROM generate_series(1, 5) g;
SET TimeZone = 'UTC'; SET DateStyle = 'ISO, MDY'; SET IntervalStyle = 'postgres';
SET extra_float_digits = 1; SET bytea_output = 'hex';
CREATE TEMP TABLE settings_a AS
SELECT cms_agg(ts) AS ts, cms_agg(iv) AS iv, cms_agg(f) AS f, cms_agg(b) AS b FROM settings_rows;
SET TimeZone = 'America/Los_Angeles'; SET DateStyle = 'SQL, DMY';
SET IntervalStyle = 'iso_8601'; SET extra_float_digits = -3; SET bytea_output = 'escape';
CREATE TEMP TABLE settings_b AS
SELECT cms_agg(ts) AS ts, cms_agg(iv) AS iv, cms_agg(f) AS f, cms_agg(b) AS b FROM settings_rows;
SELECT a.ts = b.ts AS ts_same, a.iv = b.iv AS iv_same, a.f = b.f AS f_same, a.b = b.b AS b_same
FROM settings_a a, settings_b b;
-- Read back under the second settings: the values, in those settings' style.
SELECT value, frequency FROM cms_topk((SELECT ts FROM settings_a), 2, NULL::timestamptz)
ORDER BY value;
RESET TimeZone; RESET DateStyle; RESET IntervalStyle; RESET extra_float_digits; RESET bytea_output;
