
-- Sizing --------------------------------------------------------------------

CREATE FUNCTION @extschema@.cms_sizing(
    epsilon double precision, delta double precision, k integer DEFAULT 100,
    OUT width bigint, OUT depth integer, OUT bytes bigint, OUT fits boolean)
  AS 'MODULE_PATHNAME', 'cms_sizing' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_sizing(double precision, double precision, integer) IS
  'The count-min sketch cms_agg(value, epsilon, delta) builds: width ceil(e/epsilon), depth ceil(ln(1/delta)), bytes before any candidate (each adds 12 bytes plus its text), and whether it can be built with k candidates; answers for any epsilon';

CREATE FUNCTION @extschema@.hll_sizing(
    p integer DEFAULT 14, OUT registers bigint, OUT bytes bigint, OUT standard_error double precision)
  AS 'MODULE_PATHNAME', 'hll_sizing' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hll_sizing(integer) IS
  'An hll of precision p at its largest (dense): 2^p registers, bytes, and the relative standard error 1.04/sqrt(2^p); sparse sketches of few values are smaller';
