-- ddsketch from and to DataDog's DDSketch protobuf: the export's bytes,
-- the round trip, which bucket each key becomes under each index rule
-- (sketches-py/-js ceil, sketches-go/-java floor), offsets, both store
-- encodings, folding, re-bucketing a foreign gamma, and every refusal with
-- its SQLSTATE. The messages are written out in hex (field by field in
-- the comments).
CREATE FUNCTION pg_temp.attempt(query text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE query;
  RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;
-- The buckets of a sketch (OTel's index = ddsketch's - 1), without the
-- sum, min and max the protobuf does not carry.
CREATE FUNCTION pg_temp.buckets(s ddsketch) RETURNS jsonb LANGUAGE sql AS
  $$ SELECT ddsketch_to_otel(s) - 'sum' - 'min' - 'max' - 'zeroThreshold' $$;

-- The export: mapping {gamma 2^(1/64)} (0a 09 09 <double>), positive
-- store {contiguousBinCounts [1 at index 0, 1 at 64] packed (12 ..),
-- no offset}, negative store {[1] at index 102 (offset 0x18 zigzag 204)},
-- zeroCount 1 (21 <double>).
SELECT ddsketch_to_ddsketch_proto(ddsketch_agg(x)) AS proto
FROM (VALUES (1.0), (2.0), (-3.0), (0.0)) v(x);
SELECT ddsketch_to_ddsketch_proto(ddsketch_empty()) AS empty_proto;

-- Round trip: the same buckets, and the same bytes again; min, max and sum
-- come back as the buckets' representatives.
WITH s AS (SELECT ddsketch_agg(x) AS s FROM generate_series(-500, 2000) x)
SELECT pg_temp.buckets(ddsketch_from_ddsketch_proto(ddsketch_to_ddsketch_proto(s))) = pg_temp.buckets(s) AS same_buckets,
       ddsketch_to_ddsketch_proto(ddsketch_from_ddsketch_proto(ddsketch_to_ddsketch_proto(s)))
         = ddsketch_to_ddsketch_proto(s) AS same_bytes,
       ddsketch_count(ddsketch_from_ddsketch_proto(ddsketch_to_ddsketch_proto(s))) AS count
FROM s;

-- Key 64, count 3, gamma 2^(1/64): under ceil it holds (2^(63/64), 2], the
-- bucket of 2 itself; under floor [2, 2^(65/64)), the bucket above.
SELECT rule, pg_temp.buckets(ddsketch_from_ddsketch_proto('\x0a09096180773e9a2cf03f120d12080000000000000840188001'::bytea, rule)) AS buckets,
       pg_temp.buckets(ddsketch_from_ddsketch_proto('\x0a09096180773e9a2cf03f120d12080000000000000840188001'::bytea, rule))
         = pg_temp.buckets(ddsketch_agg(x)) AS same_as_agg_of_2
FROM unnest(ARRAY['ceil', 'floor']) rule, (VALUES (2.0::float8), (2.0), (2.0)) v(x) GROUP BY rule ORDER BY rule;

-- indexOffset -3: key 67 holds (g^69, g^70], bucket 70 (OTel offset 69).
SELECT pg_temp.buckets(ddsketch_from_ddsketch_proto('\x0a12096180773e9a2cf03f1100000000000008c0120d1208000000000000f03f188601'::bytea)) AS offset_minus_3;

-- Both encodings in one store add (key 10: 1 dense + 2 sparse), a sparse
-- key alone (-4) stays.
SELECT pg_temp.buckets(ddsketch_from_ddsketch_proto('\x0a09096180773e9a2cf03f122e1210000000000000f03f000000000000f03f18140a0b08141100000000000000400a0b0807110000000000001440'::bytea)) AS both_encodings;

-- gamma 2^(1/256) (scale 8) folds exactly: keys 256..260 are buckets
-- 64 (256) and 65 (257..260) at scale 6.
SELECT pg_temp.buckets(ddsketch_from_ddsketch_proto('\x0a0909bfbc5afa1a0bf03f122d1228000000000000f03f000000000000f03f000000000000f03f000000000000f03f000000000000f03f188004'::bytea, 'ceil', 6)) AS folded_to_6,
       ddsketch_relative_accuracy(ddsketch_from_ddsketch_proto('\x0a0909bfbc5afa1a0bf03f122d1228000000000000f03f000000000000f03f000000000000f03f000000000000f03f000000000000f03f188004'::bytea)) = ddsketch_relative_accuracy(ddsketch_empty(0.0014)) AS keeps_scale_8;

-- sketches-js' default (relative accuracy 0.01, gamma 1.0202...): every bin
-- goes to the scale 6 bucket (alpha 0.0054, the coarsest as accurate) of
-- its representative; 55 positive, 2 negative values and 4 zeros.
SELECT ddsketch_count(s) AS count, (ddsketch_info(s) ->> 'scale')::int AS scale,
       round(ddsketch_quantile(s, 0.5)::numeric, 6) AS median,
       -- key 2 holds (1.0202, 1.0408], 8 values, ranks 35..42 of 61 (2
       -- negatives, 4 zeros, keys -5..1 with 28 values before it):
       abs(ddsketch_quantile(s, 40.0 / 61) - 2 * 1.0202020202020203 ^ 2 / 2.0202020202020203)
         <= ((1 + 0.01) * (1 + ddsketch_relative_accuracy(s)) - 1) * 1.0408 AS within_bound
FROM (SELECT ddsketch_from_ddsketch_proto('\x0a0909fd4a815abf52f03f12541250000000000000f03f000000000000004000000000000008400000000000001040000000000000144000000000000018400000000000001c4000000000000020400000000000002240000000000000244018091a0c120800000000000000401806210000000000001040'::bytea) AS s) t;

-- Unknown fields (mapping field 9, store field 7, top-level field 15) are skipped.
SELECT pg_temp.buckets(ddsketch_from_ddsketch_proto('\x0a0b096180773e9a2cf03f480112111208000000000000f03f1880013a0278797803'::bytea)) AS unknown_fields_skipped;

-- NULL in, NULL out (STRICT).
SELECT ddsketch_from_ddsketch_proto(NULL) IS NULL AS null_in, ddsketch_to_ddsketch_proto(NULL) IS NULL AS null_out;

-- Refusals: malformed bytes 22P03 naming the field, interpolations other
-- than NONE 0A000, parameters 22023, bins beyond the doubles 22003, counts
-- above 2^53 on export 22003.
SELECT name, pg_temp.attempt(q) FROM (VALUES
  ('empty message', $$SELECT ddsketch_from_ddsketch_proto('\x')$$),
  ('gamma 1', $$SELECT ddsketch_from_ddsketch_proto('\x0a0909000000000000f03f'::bytea)$$),
  ('truncated', $$SELECT ddsketch_from_ddsketch_proto('\x0a09096180773e9a2cf0')$$),
  ('a group', $$SELECT ddsketch_from_ddsketch_proto('\x0a09096180773e9a2cf03f2b'::bytea)$$),
  ('count 1.5', $$SELECT ddsketch_from_ddsketch_proto('\x0a09096180773e9a2cf03f120a1208000000000000f83f'::bytea)$$),
  ('count -2', $$SELECT ddsketch_from_ddsketch_proto('\x0a09096180773e9a2cf03f120d0a0b08061100000000000000c0'::bytea)$$),
  ('zeroCount NaN', $$SELECT ddsketch_from_ddsketch_proto('\x0a09096180773e9a2cf03f21000000000000f87f'::bytea)$$),
  ('key twice', $$SELECT ddsketch_from_ddsketch_proto('\x0a09096180773e9a2cf03f121a0a0b080611000000000000f03f0a0b0806110000000000000040'::bytea)$$),
  ('interpolation 7', $$SELECT ddsketch_from_ddsketch_proto('\x0a0b0952b81e85eb51f03f1807'::bytea)$$),
  ('LINEAR', $$SELECT ddsketch_from_ddsketch_proto('\x0a0b0952b81e85eb51f03f1801120a1208000000000000f03f'::bytea)$$),
  ('CUBIC', $$SELECT ddsketch_from_ddsketch_proto('\x0a0b0952b81e85eb51f03f1803120a1208000000000000f03f'::bytea)$$),
  ('index_rule', $$SELECT ddsketch_from_ddsketch_proto('\x0a09096180773e9a2cf03f120d12080000000000000840188001'::bytea, 'round')$$),
  ('max_scale 13', $$SELECT ddsketch_from_ddsketch_proto('\x0a09096180773e9a2cf03f120d12080000000000000840188001'::bytea, 'ceil', 13)$$),
  ('max_buckets 8', $$SELECT ddsketch_from_ddsketch_proto('\x0a09096180773e9a2cf03f120d12080000000000000840188001'::bytea, 'ceil', 12, 8)$$),
  ('too wide', $$SELECT ddsketch_from_ddsketch_proto('\x0a09096180773e9a2cf03f121b0a0b080011000000000000f03f0a0c08c80111000000000000f03f'::bytea, 'ceil', 12, 16)$$),
  ('beyond the doubles', $$SELECT ddsketch_from_ddsketch_proto('\x0a0909000000000000f83f12101208000000000000f03f18feffffff0f'::bytea)$$),
  ('export 2^53 + 1', $$SELECT ddsketch_to_ddsketch_proto(ddsketch_agg(1.0, 9007199254740993))$$)
) t(name, q);

