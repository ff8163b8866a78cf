-- bloom formats: text, binary (send/recv via COPY BINARY) and bytea round trips.
CREATE TABLE bloom_io_src (id int, f bloom);
INSERT INTO bloom_io_src VALUES (1, bloom_empty_bits(8, 1)), (2, bloom_empty_bits(64, 3)),
                                (3, bloom_empty(1000, 0.01));
INSERT INTO bloom_io_src VALUES (4, bloom_add(bloom_empty_bits(100, 2), 'x'::text));
INSERT INTO bloom_io_src SELECT 5, bloom_agg(g, 1000, 0.01) FROM generate_series(1, 1000) g;
INSERT INTO bloom_io_src SELECT 6, bloom_agg(g::text, 50000, 0.001) FROM generate_series(1, 50000) g;
INSERT INTO bloom_io_src SELECT 7, bloom_agg_bits(g, 8, 64) FROM generate_series(1, 10) g;

-- The text form is \x plus hex of the binary format: header, m, then the bit words.
SELECT id, left(f::text, 34) AS text_prefix, length(f::text) AS text_length,
       (bloom_info(f)->>'bytes')::int AS bytes, bloom_info(f)->>'bits' AS bits
FROM bloom_io_src ORDER BY id;
SELECT f AS full_text FROM bloom_io_src WHERE id IN (1, 2, 4, 7) ORDER BY id;

-- Text round trip is byte for byte.
SELECT id, f::text::bloom = f AS same_filter, f::text::bloom::text = f::text AS same_text
FROM bloom_io_src ORDER BY id;

-- bytea casts round trip and expose the binary format.
SELECT id, f::bytea::bloom = f AS same_filter, f::bytea = decode(substr(f::text, 3), 'hex') AS bytes_are_text
FROM bloom_io_src ORDER BY id;

-- Binary COPY uses bloom_send and bloom_recv.
\copy bloom_io_src TO 'results/bloom_io.bin' WITH (FORMAT binary)
CREATE TABLE bloom_io_dst (LIKE bloom_io_src);
\copy bloom_io_dst FROM 'results/bloom_io.bin' WITH (FORMAT binary)
SELECT s.id, s.f = d.f AS identical, s.f::text = d.f::text AS same_text
FROM bloom_io_src s JOIN bloom_io_dst d USING (id) ORDER BY id;

-- Text COPY round trip.
\copy bloom_io_src TO 'results/bloom_io.txt'
TRUNCATE bloom_io_dst;
\copy bloom_io_dst FROM 'results/bloom_io.txt'
SELECT count(*) AS rows, bool_and(s.f = d.f) AS text_copy_identical
FROM bloom_io_src s JOIN bloom_io_dst d USING (id);

-- Membership survives every round trip.
SELECT bool_and(d.f @> g::text) AS all_present
FROM bloom_io_dst d, generate_series(1, 50000) g WHERE d.id = 6;

-- Large filters are stored out of line and uncompressed (STORAGE external):
-- for an out-of-line value pg_column_size reports its payload, the value
-- without its 4-byte header, so id 6 (out of line) shows 4 bytes less.
SELECT typstorage FROM pg_type WHERE typname = 'bloom';
SELECT id, pg_column_size(f) AS stored_bytes, (bloom_info(f)->>'bytes')::int AS value_bytes
FROM bloom_io_src WHERE id IN (3, 6) ORDER BY id;

-- Leave nothing behind for later suites (hll_coexist drops the extension).
DROP TABLE bloom_io_src, bloom_io_dst;
