-- Format stability: sketches written by earlier builds, kept in test/golden/
-- (see its README.md), must read the same in this build. Each type adds a
-- block below for each of its golden files; a golden file never changes.

-- pg_temp.rewrite(query): the text form of the sketch a query builds now.
CREATE FUNCTION pg_temp.rewrite(query text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  result text;
BEGIN
  EXECUTE query INTO result;
  RETURN result;
END $$;

-- hll, format version 1 --------------------------------------------------------
CREATE TEMP TABLE golden_hll_v1 (label text, cardinality bigint, info jsonb, query text, sketch text);
\copy golden_hll_v1 FROM 'test/golden/hll_v1.txt' WITH (FORMAT csv, HEADER true, DELIMITER E'\t', QUOTE E'\x01')
SELECT count(*) AS hll_v1_sketches FROM golden_hll_v1;

-- Reading (must hold for every later version): the text input accepts the
-- sketch, every accessor answers what the writing build answered, and the
-- text and binary forms round-trip byte for byte.
SELECT label,
       hll_cardinality(h) = cardinality AS cardinality_same,
       hll_info(h) = info AS info_same,
       h::text = sketch AS text_same,
       (h::bytea)::hll = h AND encode(h::bytea, 'hex') = substr(sketch, 3) AS bytes_same,
       (h || h) = h AND hll_union(h, hll_empty(18)) = h AS union_same
FROM golden_hll_v1, LATERAL (SELECT sketch::hll AS h) AS s
ORDER BY label COLLATE "C";

-- The union of the golden hll sketches (but the saturated one) is at the
-- smallest precision, 4, and reads as it did in the writing build.
SELECT hll_info(hll_union(sketch::hll))->'precision' AS union_precision,
       hll_cardinality(hll_union(sketch::hll)) AS union_cardinality
FROM golden_hll_v1 WHERE label <> 'saturated_p4';

-- Writing: this build builds the same bytes from the same input. A later
-- version that changes how it writes (a new format version) changes these
-- rows to f, keeps the reading checks above at t, and adds a golden file of
-- its own format.
SELECT label, pg_temp.rewrite(query) = sketch AS written_same
FROM golden_hll_v1 ORDER BY label COLLATE "C";
