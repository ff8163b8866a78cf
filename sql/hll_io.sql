-- hll formats: text, binary (send/recv via COPY BINARY) and bytea round trips.
CREATE TABLE io_src (id int, h hll);
INSERT INTO io_src VALUES (1, hll_empty()), (2, hll_empty(4)), (3, hll_empty(18));
INSERT INTO io_src SELECT 4, hll_agg(g) FROM generate_series(1, 100) g;
INSERT INTO io_src SELECT 5, hll_agg(g, 10) FROM generate_series(1, 100000) g;
INSERT INTO io_src SELECT 6, hll_agg(g::text) FROM generate_series(1, 50000) g;
INSERT INTO io_src SELECT 7, hll_agg(g, 4) FROM generate_series(1, 1000) g;

-- The text form is \x plus hex of the binary format; small sketches are small.
SELECT id, left(h::text, 26) AS text_prefix, length(h::text) AS text_length,
       pg_column_size(h) AS bytes, hll_info(h)->>'representation' AS representation
FROM io_src ORDER BY id;
SELECT hll_agg(g) AS three_values FROM generate_series(1, 3) g;

-- Text round trip is byte for byte.
SELECT id, h::text::hll = h AS same_sketch, h::text::hll::text = h::text AS same_text
FROM io_src ORDER BY id;

-- bytea casts round trip and expose the binary format.
SELECT id, h::bytea::hll = h AS same_sketch, h::bytea = decode(substr(h::text, 3), 'hex') AS bytes_are_text
FROM io_src ORDER BY id;

-- Binary COPY uses hll_send and hll_recv.
\copy io_src TO 'results/hll_io.bin' WITH (FORMAT binary)
CREATE TABLE io_dst (LIKE io_src);
\copy io_dst FROM 'results/hll_io.bin' WITH (FORMAT binary)
SELECT s.id, s.h = d.h AS identical, s.h::text = d.h::text AS same_text
FROM io_src s JOIN io_dst d USING (id) ORDER BY id;

-- Text COPY round trip.
\copy io_src TO 'results/hll_io.txt'
TRUNCATE io_dst;
\copy io_dst FROM 'results/hll_io.txt'
SELECT bool_and(s.h = d.h) AS text_copy_identical FROM io_src s JOIN io_dst d USING (id);

-- A typed column applies its precision on input too.
CREATE TABLE io_typed (h hll(8));
INSERT INTO io_typed SELECT h FROM io_src WHERE id = 5;
SELECT (hll_info(h)->>'precision')::int AS p FROM io_typed;
