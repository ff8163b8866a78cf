
-- bloom's split-block layout (Parquet's split-block Bloom filter) --------------
-- A piece of its own so that the 0.1.0 -> 0.2.0 upgrade runs it as it is
-- (bloom existed in 0.1.0; these objects are new in 0.2.0).

CREATE FUNCTION @extschema@.bloom_sizing(
    n bigint, p double precision, layout text,
    OUT bits bigint, OUT hashes integer, OUT bytes bigint, OUT fits boolean)
  AS 'MODULE_PATHNAME', 'bloom_sizing_layout' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_sizing(bigint, double precision, text) IS
  'The filter of the layout (''classic'' or ''split_block'') for n distinct values at false-positive probability p: classic as bloom_sizing(n, p); split_block the smallest power-of-two bitset of 256-bit blocks whose Parquet formula fpp (sum over i of Poisson(i; 256 n/bits) (1 - (31/32)^i)^8) is at most p, with 8 hashes; its size in bytes and whether it fits (split_block: at most 2^30 bits, 128 MiB)';

CREATE FUNCTION @extschema@.bloom_empty(n bigint, p double precision, layout text) RETURNS @extschema@.bloom
  AS 'MODULE_PATHNAME', 'bloom_empty_layout' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_empty(bigint, double precision, text) IS
  'An empty filter of the layout (''classic'' or ''split_block'') sized for n distinct values at false-positive probability p (bloom_sizing(n, p, layout))';

CREATE FUNCTION @extschema@.bloom_agg_layout_trans(@extschema@.bloom, anyelement, bigint, double precision, text)
  RETURNS @extschema@.bloom
  AS 'MODULE_PATHNAME', 'bloom_agg_layout_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_agg_layout_trans(@extschema@.bloom, anyelement, bigint, double precision, text) IS
  'Transition function of bloom_agg(value, n, p, layout)';

CREATE AGGREGATE @extschema@.bloom_agg(value anyelement, n bigint, p double precision, layout text) (
  SFUNC = @extschema@.bloom_agg_layout_trans, STYPE = @extschema@.bloom, SSPACE = 120000,
  FINALFUNC = @extschema@.bloom_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.bloom_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.bloom_agg(anyelement, bigint, double precision, text) IS
  'Bloom filter of the non-NULL values in the layout (''classic'' or ''split_block'': Parquet''s split-block filter, values hashed by their Parquet physical type), sized for n distinct values at false-positive probability p (the same n, p and layout on every row); NULL over no rows';

CREATE FUNCTION @extschema@.bloom_to_parquet(sketch @extschema@.bloom) RETURNS bytea
  AS 'MODULE_PATHNAME', 'bloom_to_parquet' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_to_parquet(@extschema@.bloom) IS
  'A split-block filter as a Parquet file stores it: the Thrift compact BloomFilterHeader (numBytes, BLOCK, XXHASH, UNCOMPRESSED) followed by the bitset';

CREATE FUNCTION @extschema@.bloom_from_parquet(data bytea, physical_type text DEFAULT NULL)
  RETURNS @extschema@.bloom
  AS 'MODULE_PATHNAME', 'bloom_from_parquet' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.bloom_from_parquet(bytea, text) IS
  'The split-block filter of a Parquet bloom filter''s bytes (header and bitset, validated: 22P03 when invalid); physical_type (INT32, INT64, FLOAT, DOUBLE, BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY) is the column''s, or NULL to let any value probe it and the first added value fix it; NULL data gives NULL';
