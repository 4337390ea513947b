
-- ===== time predicates on snowflake ids (src/pg/snowflake_time_quals.cpp) =====
-- The ends of the range of ids whose time compares with ts: the planner adds
-- id >= idseq_snowflake_lower_id(x, layout, exclusive) beside snowflake_timestamp(id, layout) >= x
-- (> x: exclusive) and id <= idseq_snowflake_upper_id(...) beside <= and <. The smallest
-- (largest) bigint when every id qualifies, NULL when none does.
CREATE FUNCTION @extschema@.idseq_snowflake_lower_id(ts timestamptz, layout text, exclusive boolean)
    RETURNS bigint AS 'MODULE_PATHNAME', 'idseq_snowflake_lower_id' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.idseq_snowflake_upper_id(ts timestamptz, layout text, exclusive boolean)
    RETURNS bigint AS 'MODULE_PATHNAME', 'idseq_snowflake_upper_id' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
-- snowflake_timestamp's planner support simplifies nothing: calling it loads the library
-- while the planner preprocesses a query, so that the first query of a session that compares
-- snowflake_timestamp(id) gets its derived conditions too.
CREATE FUNCTION @extschema@.idseq_snowflake_timestamp_support(internal)
    RETURNS internal AS 'MODULE_PATHNAME', 'idseq_snowflake_timestamp_support' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
ALTER FUNCTION @extschema@.snowflake_timestamp(bigint, text)
    SUPPORT @extschema@.idseq_snowflake_timestamp_support;

COMMENT ON FUNCTION @extschema@.idseq_snowflake_lower_id(timestamptz, text, boolean) IS
    'the smallest id whose time is >= ts (> ts when exclusive), for the planner''s derived conditions';
COMMENT ON FUNCTION @extschema@.idseq_snowflake_upper_id(timestamptz, text, boolean) IS
    'the largest id whose time is <= ts (< ts when exclusive), for the planner''s derived conditions';
COMMENT ON FUNCTION @extschema@.idseq_snowflake_timestamp_support(internal) IS
    'planner support of snowflake_timestamp: loads the library that derives id conditions from time predicates';
