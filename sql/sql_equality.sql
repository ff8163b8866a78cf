-- Values equal in SQL count once (issue 17): hll_agg agrees with
-- count(DISTINCT), bloom_contains answers true for every SQL-equal variant
-- and cms_frequency counts variants together, for types whose equality is
-- not byte identity.
CREATE EXTENSION citext;
CREATE COLLATION case_insensitive (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
CREATE DOMAIN email AS citext;

CREATE TEMP TABLE variants (label text, v_citext citext, v_email email, v_ci text COLLATE case_insensitive,
                            v_interval interval, v_arr citext[]);
INSERT INTO variants VALUES
  ('a', 'Alice', 'Alice@Example.org', 'Alice', '1 day', ARRAY['Alice', 'Bob']::citext[]),
  ('b', 'alice', 'alice@example.org', 'alice', '24 hours', ARRAY['alice', 'BOB']::citext[]),
  ('c', 'ALICE', 'ALICE@EXAMPLE.ORG', 'ALICE', '1 mon', ARRAY['ALICE', 'bob']::citext[]),
  ('d', 'Bob', 'bob@example.org', 'Bob', '30 days', ARRAY['Carol']::citext[]),
  ('e', 'carol', 'carol@example.org', 'carol', '1 day 1 second', NULL);

-- count(DISTINCT) and the sketch agree, column by column.
SELECT count(DISTINCT v_citext) AS citext_exact, hll_cardinality(hll_agg(v_citext)) AS citext_hll,
       count(DISTINCT v_email) AS domain_exact, hll_cardinality(hll_agg(v_email)) AS domain_hll,
       count(DISTINCT v_ci) AS collation_exact, hll_cardinality(hll_agg(v_ci)) AS collation_hll,
       count(DISTINCT v_interval) AS interval_exact, hll_cardinality(hll_agg(v_interval)) AS interval_hll,
       count(DISTINCT v_arr) AS array_exact, hll_cardinality(hll_agg(v_arr)) AS array_hll
FROM variants;

-- A nondeterministic collation applied per expression.
SELECT count(DISTINCT v_citext::text COLLATE case_insensitive) AS exact,
       hll_cardinality(hll_agg(v_citext::text COLLATE case_insensitive)) AS hll,
       count(DISTINCT v_citext::text) AS exact_bytes, hll_cardinality(hll_agg(v_citext::text)) AS hll_bytes
FROM variants;

-- bloom_contains is true for every SQL-equal variant of a member.
WITH f AS (SELECT bloom_agg(v_citext, 100, 0.01) AS c, bloom_agg(v_interval, 100, 0.01) AS i,
                  bloom_agg(v_ci, 100, 0.01) AS t FROM variants WHERE label = 'a')
SELECT bloom_contains(c, 'aLiCe'::citext) AS citext_variant,
       bloom_contains(i, interval '86400 seconds') AS interval_variant,
       bloom_contains(t, 'ALICE' COLLATE case_insensitive) AS collation_variant
FROM f;

-- cms_frequency counts the variants together.
SELECT cms_frequency(cms_agg(v_citext), 'alice'::citext) AS citext_alice,
       cms_frequency(cms_agg(v_interval), interval '1 day') AS interval_day,
       cms_frequency(cms_agg(v_interval), interval '30 days') AS interval_month
FROM variants;

-- The kinds the sketches record, and refusals across kinds: a citext sketch
-- is not probed with text (it would hash case-sensitively), nor an interval
-- sketch with a bigint.
SELECT bloom_contains(bloom_agg(v_citext, 100, 0.01), 'alice'::text) FROM variants;
SELECT cms_frequency(cms_agg(v_interval), 86400::bigint) FROM variants;
-- An interval sketch built by 0.1.0 (kind unrecorded, interval hashed by its
-- binary form) does not merge with one built now.
SELECT hll_union('\x534b0101010e01000100000001000078'::hll, hll_agg(v_interval)) FROM variants;
