
-- Aging (0.2.0) -------------------------------------------------------------
-- topk_scale is in topk.sql; cms_scale is its own piece so that the 0.1.0
-- -> 0.2.0 upgrade creates it too (docs/rollups.md: trending over a
-- decaying window).

CREATE FUNCTION @extschema@.cms_scale(sketch @extschema@.cms, factor double precision)
  RETURNS @extschema@.cms
  AS 'MODULE_PATHNAME', 'cms_scale' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.cms_scale(@extschema@.cms, double precision) IS
  'Aging: every counter and the total times factor (0 < factor <= 1), rounded down (some counters up, so each row still adds up to the total); estimates stay at or above the scaled true counts, candidates whose estimate reaches 0 are dropped (an error for a sketch whose total saturated)';
