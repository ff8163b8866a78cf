-- cms formats: text, binary (send/recv via COPY BINARY) and bytea round trips.
CREATE TABLE cms_io_src (id int, s cms);
INSERT INTO cms_io_src VALUES (1, cms_empty()), (2, cms_empty_sized(1, 1, false, 0)),
                          (3, cms_empty(0.01, 0.01, true, 3));
INSERT INTO cms_io_src SELECT 4, cms_agg(g % 7) FROM generate_series(1, 100) g;
INSERT INTO cms_io_src SELECT 5, cms_agg((g::bigint * g) % 5000, 0.01, 0.01) FROM generate_series(1, 100000) g;
INSERT INTO cms_io_src SELECT 6, cms_agg('item-' || g % 300, 0.01, 0.01, true, 20) FROM generate_series(1, 50000) g;
INSERT INTO cms_io_src SELECT 7, cms_agg_sized(g % 3, 2, 1, false, 2) FROM generate_series(1, 10) g;
INSERT INTO cms_io_src SELECT 8, cms_agg(repeat('x', 2000) || g % 2, 0.1, 0.1) FROM generate_series(1, 4) g;

-- The text form is \x plus hex of the binary format: the header
-- 534b 02 01 01 <flags> 01 00, then width, depth, k, candidates, N.
SELECT id, left(s::text, 82) AS text_prefix, length(s::text) AS text_length,
       pg_column_size(s) AS bytes, (cms_info(s)->>'bytes')::int AS info_bytes
FROM cms_io_src ORDER BY id;
SELECT cms_agg_sized(g, 2, 1, false, 2) AS two_values FROM generate_series(1, 2) g;

-- Text round trip is byte for byte.
SELECT id, s::text::cms = s AS same_sketch, s::text::cms::text = s::text AS same_text
FROM cms_io_src ORDER BY id;

-- bytea casts round trip and expose the binary format.
SELECT id, s::bytea::cms = s AS same_sketch, s::bytea = decode(substr(s::text, 3), 'hex') AS bytes_are_text
FROM cms_io_src ORDER BY id;

-- Binary COPY uses cms_send and cms_recv.
\copy cms_io_src TO 'results/cms_io.bin' WITH (FORMAT binary)
CREATE TABLE cms_io_dst (LIKE cms_io_src);
\copy cms_io_dst FROM 'results/cms_io.bin' WITH (FORMAT binary)
SELECT s.id, s.s = d.s AS identical, s.s::text = d.s::text AS same_text
FROM cms_io_src s JOIN cms_io_dst d USING (id) ORDER BY id;

-- Text COPY round trip.
\copy cms_io_src TO 'results/cms_io.txt'
TRUNCATE cms_io_dst;
\copy cms_io_dst FROM 'results/cms_io.txt'
SELECT bool_and(s.s = d.s) AS text_copy_identical, count(*) AS rows
FROM cms_io_src s JOIN cms_io_dst d USING (id);

-- Sketches read back keep working: merge and add.
SELECT cms_total(d.s || s.s) = 2 * cms_total(s.s) AS merge_after_copy,
       cms_frequency(cms_add(d.s, 3), 3) = cms_frequency(s.s, 3) + 1 AS add_after_copy
FROM cms_io_src s JOIN cms_io_dst d USING (id) WHERE id = 4;

-- Leave nothing behind for later suites (hll_coexist drops the extension).
DROP TABLE cms_io_src, cms_io_dst;
