
-- ===== time predicates on snowflake ids (src/pg/sf_time_quals.cpp) =====
-- The ends of the range of ids whose time compares with ts: the planner adds
-- id >= idseq_snowflake_lower_id(x, layout, exclusive) beside snowflake_timestamp(id, layout) >= x
-- (> x: exclusive) and id <= idseq_snowflake_upper_id(...) beside <= and <. The smallest
-- (largest) bigint when every id qualifies, NULL when none does.
--@ comment: the smallest id whose time is >= ts (> ts when exclusive), for the planner's derived
--@   conditions
CREATE FUNCTION @extschema@.idseq_snowflake_lower_id(ts timestamptz, layout text, exclusive boolean)
    RETURNS bigint AS 'MODULE_PATHNAME', 'idseq_snowflake_lower_id' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: the largest id whose time is <= ts (< ts when exclusive), for the planner's derived
--@   conditions
CREATE FUNCTION @extschema@.idseq_snowflake_upper_id(ts timestamptz, layout text, exclusive boolean)
    RETURNS bigint AS 'MODULE_PATHNAME', 'idseq_snowflake_upper_id' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
-- The other forms of time predicates (src/pg/sf_local_time.cpp). A date or timestamp
-- compared with snowflake_timestamp(id) is compared as idseq_compare_as_timestamptz gives it
-- (in the session's TimeZone: STABLE), which the bounds above then take. The date of an id's
-- time (snowflake_timestamp(id)::date) and date_trunc of it depend on the session's TimeZone
-- too; their bounds hold the predicate's ids, and the planner keeps the predicate as
-- (idseq_snowflake_date_exact(...) OR predicate): true when the bounds hold exactly its ids,
-- so that the predicate is evaluated row by row only where a zone's local time goes back.
--@ comment: the timestamptz a timestamptz is compared with when compared with x (midnight in the
--@   session's TimeZone; infinity past timestamptz's range), for the planner's derived conditions
--@ labels: STABLE PARALLEL SAFE STRICT because a date or timestamp in the session's TimeZone
CREATE FUNCTION @extschema@.idseq_compare_as_timestamptz(x date)
    RETURNS timestamptz AS 'MODULE_PATHNAME', 'idseq_compare_as_timestamptz_date' LANGUAGE C STABLE STRICT PARALLEL SAFE;
--@ comment: the timestamptz a timestamptz is compared with when compared with x (in the session's
--@   TimeZone; infinity past timestamptz's range), for the planner's derived conditions
--@ labels: STABLE PARALLEL SAFE STRICT because a date or timestamp in the session's TimeZone
CREATE FUNCTION @extschema@.idseq_compare_as_timestamptz(x timestamp)
    RETURNS timestamptz AS 'MODULE_PATHNAME', 'idseq_compare_as_timestamptz_timestamp' LANGUAGE C STABLE STRICT PARALLEL SAFE;
--@ comment: an id at or below every id whose time's date (in the session's TimeZone) is >= d (> d
--@   when exclusive), for the planner's derived conditions
--@ labels: STABLE PARALLEL SAFE STRICT because dates in the session's TimeZone
CREATE FUNCTION @extschema@.idseq_snowflake_date_lower_id(d date, layout text, exclusive boolean)
    RETURNS bigint AS 'MODULE_PATHNAME', 'idseq_snowflake_date_lower_id' LANGUAGE C STABLE STRICT PARALLEL SAFE;
--@ comment: an id at or above every id whose time's date (in the session's TimeZone) is <= d (< d
--@   when exclusive), for the planner's derived conditions
--@ labels: STABLE PARALLEL SAFE STRICT because dates in the session's TimeZone
CREATE FUNCTION @extschema@.idseq_snowflake_date_upper_id(d date, layout text, exclusive boolean)
    RETURNS bigint AS 'MODULE_PATHNAME', 'idseq_snowflake_date_upper_id' LANGUAGE C STABLE STRICT PARALLEL SAFE;
--@ comment: an id at or below every id whose date_trunc(unit, time, zone) is >= x (> x when
--@   exclusive; zone NULL: the session's TimeZone), for the planner's derived conditions
--@ labels: STABLE PARALLEL SAFE NOT STRICT because date_trunc in the session's TimeZone; a NULL
--@   zone means that TimeZone
CREATE FUNCTION @extschema@.idseq_snowflake_trunc_lower_id(unit text, x timestamptz, zone text, layout text, exclusive boolean)
    RETURNS bigint AS 'MODULE_PATHNAME', 'idseq_snowflake_trunc_lower_id' LANGUAGE C STABLE PARALLEL SAFE;
--@ comment: an id at or above every id whose date_trunc(unit, time, zone) is <= x (< x when
--@   exclusive; zone NULL: the session's TimeZone), for the planner's derived conditions
--@ labels: STABLE PARALLEL SAFE NOT STRICT because date_trunc in the session's TimeZone; a NULL
--@   zone means that TimeZone
CREATE FUNCTION @extschema@.idseq_snowflake_trunc_upper_id(unit text, x timestamptz, zone text, layout text, exclusive boolean)
    RETURNS bigint AS 'MODULE_PATHNAME', 'idseq_snowflake_trunc_upper_id' LANGUAGE C STABLE PARALLEL SAFE;
--@ comment: whether the ids between the date bounds of time::date compared with d (cmp: -2 <, -1
--@   <=, 0 =, 1 >=, 2 >) are exactly the ones it selects, for the planner's derived conditions
--@ labels: STABLE PARALLEL SAFE STRICT because dates in the session's TimeZone
CREATE FUNCTION @extschema@.idseq_snowflake_date_exact(d date, cmp integer)
    RETURNS boolean AS 'MODULE_PATHNAME', 'idseq_snowflake_date_exact' LANGUAGE C STABLE STRICT PARALLEL SAFE;
--@ comment: whether the ids between the bounds of date_trunc(unit, time, zone) compared with x
--@   (cmp: -2 <, -1 <=, 0 =, 1 >=, 2 >) are exactly the ones it selects, for the planner's derived
--@   conditions
--@ labels: STABLE PARALLEL SAFE NOT STRICT because date_trunc in the session's TimeZone; a NULL
--@   zone means that TimeZone
CREATE FUNCTION @extschema@.idseq_snowflake_trunc_exact(unit text, x timestamptz, zone text, cmp integer)
    RETURNS boolean AS 'MODULE_PATHNAME', 'idseq_snowflake_trunc_exact' LANGUAGE C STABLE PARALLEL SAFE;
-- snowflake_timestamp's planner support simplifies nothing: calling it loads the library
-- while the planner preprocesses a query, so that the first query of a session that compares
-- snowflake_timestamp(id) gets its derived conditions too.
--@ comment: planner support of snowflake_timestamp: loads the library that derives id conditions
--@   from time predicates
CREATE FUNCTION @extschema@.idseq_snowflake_timestamp_support(internal)
    RETURNS internal AS 'MODULE_PATHNAME', 'idseq_snowflake_timestamp_support' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
ALTER FUNCTION @extschema@.snowflake_timestamp(bigint, text)
    SUPPORT @extschema@.idseq_snowflake_timestamp_support;

