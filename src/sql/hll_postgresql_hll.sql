-- hll: postgresql-hll's sketches (hash identity 2; src/core/hll/pghll.h,
-- docs/migration.md). Import of the peer's stored values, export back to its
-- bytes, and adds and an aggregate that hash exactly as its hll_hash_*
-- functions, so that new rows merge with imported history. The install
-- script and the 0.2.0 -> 0.3.0 upgrade both include this piece (Makefile).

CREATE FUNCTION @extschema@.hll_from_postgresql_hll(value bytea, seed integer DEFAULT 0) RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'hll_from_postgresql_hll_bytea' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_from_postgresql_hll(bytea, integer) IS
  'Imports a postgresql-hll value (its storage format v1: EMPTY, EXPLICIT, SPARSE or FULL, any log2m 4..17, regwidth, expthresh and sparseon) as an hll of hash identity 2 that records those parameters and the hll_hash_* seed its values were hashed with (default 0); UNDEFINED is refused (22023), corrupt bytes 22P03';

CREATE FUNCTION @extschema@.hll_from_postgresql_hll(value text, seed integer DEFAULT 0) RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'hll_from_postgresql_hll_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_from_postgresql_hll(text, integer) IS
  'Imports a postgresql-hll value from its text form \x... (what h::text gives for a column of its type), as hll_from_postgresql_hll(bytea, seed)';

CREATE FUNCTION @extschema@.hll_to_postgresql_hll(sketch @extschema@.hll) RETURNS bytea
  AS 'MODULE_PATHNAME', 'hll_to_postgresql_hll' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_to_postgresql_hll(@extschema@.hll) IS
  'The postgresql-hll bytes of a sketch of hash identity 2, in the representation postgresql-hll writes for it (bytea::hll there reads them); 22023 for a sketch of identity 1';

CREATE FUNCTION @extschema@.hll_postgresql_hll_empty(log2m integer DEFAULT 11, regwidth integer DEFAULT 5,
    expthresh bigint DEFAULT -1, sparseon integer DEFAULT 1, seed integer DEFAULT 0) RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'hll_postgresql_hll_empty' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_postgresql_hll_empty(integer, integer, bigint, integer, integer) IS
  'An empty postgresql-hll sketch (hash identity 2) with postgresql-hll''s parameters (defaults as its own: log2m 11, regwidth 5, expthresh -1 auto, sparseon 1) and the hll_hash_* seed (default 0)';

-- hll_postgresql_hll_add(sketch, value): one overload per type the peer has
-- a typed hll_hash_<type> of, each its own C entry point (the type fixes the
-- bytes hashed), and one of anyelement for every other type, hashed by
-- hll_hash_any's rule (src/pg/hll/hll_postgresql_hll_hash.h), resolved once
-- per call site; literal_overloads.sql gives that one the twin of a quoted
-- literal, hashed as the text it spells (as the peer's hll_hash_any('x')).
DO $pghll_add$
DECLARE
  o record;
  -- The peer's name, written in capitals: the script check
  -- (test/hardening/check_extension_script.sh) reads every word of a DO
  -- body as a possible reference, and would take its last part for our type.
  peer CONSTANT text := pg_catalog.lower('POSTGRESQL-HLL');
BEGIN
  FOR o IN
    SELECT * FROM (VALUES
      ('smallint', 'hll_postgresql_hll_add_int2', 'hll_hash_smallint(value, seed)'),
      ('integer', 'hll_postgresql_hll_add_int4', 'hll_hash_integer(value, seed)'),
      ('bigint', 'hll_postgresql_hll_add_int8', 'hll_hash_bigint(value, seed)'),
      ('boolean', 'hll_postgresql_hll_add_bool', 'hll_hash_boolean(value, seed)'),
      ('text', 'hll_postgresql_hll_add_bytes', 'hll_hash_text(value, seed)'),
      ('bytea', 'hll_postgresql_hll_add_bytes', 'hll_hash_bytea(value, seed)'),
      ('anyelement', 'hll_postgresql_hll_add_any',
       'hll_hash_any(value, seed) (types whose hll_hash_any answer is not stable: 0A000)')
    ) AS a(value_type, symbol, hashed_as)
  LOOP
    EXECUTE pg_catalog.format(
      'CREATE FUNCTION @extschema@.hll_postgresql_hll_add(sketch @extschema@.hll, value %s) '
      'RETURNS @extschema@.hll AS ''MODULE_PATHNAME'', %L LANGUAGE C IMMUTABLE PARALLEL SAFE',
      o.value_type, o.symbol);
    EXECUTE pg_catalog.format(
      'COMMENT ON FUNCTION @extschema@.hll_postgresql_hll_add(@extschema@.hll, %s) IS %L',
      o.value_type,
      'A ' || peer || ' sketch with one more value, hashed as ' || peer || '''s ' || o.hashed_as ||
      ' with the sketch''s seed; a NULL value leaves it unchanged, a NULL sketch gives NULL; '
      '22023 for a sketch of identity 1');
  END LOOP;
END
$pghll_add$;

CREATE FUNCTION @extschema@.hll_postgresql_hll_agg_trans(@extschema@.hll, anyelement) RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'hll_postgresql_hll_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_postgresql_hll_agg_trans(@extschema@.hll, anyelement) IS
  'Transition function of hll_postgresql_hll_agg(value)';
CREATE FUNCTION @extschema@.hll_postgresql_hll_agg_trans(@extschema@.hll, anyelement, integer, integer, bigint, integer, integer) RETURNS @extschema@.hll
  AS 'MODULE_PATHNAME', 'hll_postgresql_hll_agg_trans' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_postgresql_hll_agg_trans(@extschema@.hll, anyelement, integer, integer, bigint, integer, integer) IS
  'Transition function of hll_postgresql_hll_agg(value, log2m, regwidth, expthresh, sparseon, seed)';

-- The value is anyelement, with typed twins from typed_aggregates.sql (so a
-- distributed engine can split it), hashed as the peer's hll_hash_<type>
-- for its typed hashes' types and by hll_hash_any's rule for the others
-- (0A000 where that is not stable).
-- SSPACE: the registers at the peer's default log2m 11 (2,048 one-byte
-- registers, the working form's 24-byte header, the varlena header).
CREATE AGGREGATE @extschema@.hll_postgresql_hll_agg(value anyelement) (
  SFUNC = @extschema@.hll_postgresql_hll_agg_trans, STYPE = @extschema@.hll, SSPACE = 2076,
  FINALFUNC = @extschema@.hll_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.hll_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.hll_postgresql_hll_agg(anyelement) IS
  'postgresql-hll sketch (hash identity 2) of the non-NULL values hashed as hll_hash_<type>(value) (smallint, integer, bigint, boolean, text, bytea; other types as hll_hash_any(value), 0A000 where its answer is not stable), with postgresql-hll''s default parameters (log2m 11, regwidth 5, expthresh -1, sparseon 1, seed 0): the registers of its hll_add_agg(hll_hash_<type>(value)); NULL over no rows';
CREATE AGGREGATE @extschema@.hll_postgresql_hll_agg(value anyelement, log2m integer, regwidth integer, expthresh bigint, sparseon integer, seed integer) (
  SFUNC = @extschema@.hll_postgresql_hll_agg_trans, STYPE = @extschema@.hll, SSPACE = 2076,
  FINALFUNC = @extschema@.hll_final, FINALFUNC_MODIFY = READ_ONLY,
  COMBINEFUNC = @extschema@.hll_union_trans, PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.hll_postgresql_hll_agg(anyelement, integer, integer, bigint, integer, integer) IS
  'postgresql-hll sketch (hash identity 2) of the non-NULL values hashed as hll_hash_<type>(value, seed) (smallint, integer, bigint, boolean, text, bytea; other types as hll_hash_any(value, seed), 0A000 where its answer is not stable), with postgresql-hll''s parameters (the same on every row): the registers of its hll_add_agg(hll_hash_<type>(value, seed), log2m, regwidth, expthresh, sparseon); NULL over no rows';
