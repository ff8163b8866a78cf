-- topk: Apache DataSketches' frequent items sketches (longs and strings,
-- serial version 1; src/core/topk/topk_datasketches.h, docs/interop.md)
-- read as topk summaries. The install script and the 0.2.0 -> 0.3.0
-- upgrade both include this piece (Makefile).

CREATE FUNCTION @extschema@.topk_from_datasketches(value bytea) RETURNS @extschema@.topk
  AS 'MODULE_PATHNAME', 'topk_from_datasketches' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.topk_from_datasketches(bytea) IS
  'Imports a DataSketches frequent items sketch of longs or strings (serial version 1, as the C++, Java and Go libraries serialize it) as a topk summary: each item with its counter as the lower bound and the sketch''s one maximum error as max_error (true count within [count, count + max error]), k the 3/4 of 2^lg_max_map_size items its map holds, longs as bigint items (element kind number), strings as text; malformed bytes are refused (22P03)';
