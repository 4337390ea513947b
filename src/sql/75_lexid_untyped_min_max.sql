-- ===== min() and max() of lexid values without a charset, as written =====
-- The planner hook calls these in place of min(value) and max(value) when the value has no
-- charset at plan time, as lexid_min_as_written(lexical_add(value, 0), value): the first
-- argument orders (base36 unless typed), the second is returned as it came, so an untyped
-- value prints as written. The state is internal (see lexid_type.cpp): parallel workers
-- combine it exactly, and Citus never ships it through a text form that drops the charset.
--@ comment: transition function of lexid_min_as_written
--@ labels: IMMUTABLE PARALLEL SAFE NOT STRICT because transition function of lexid_min_as_written:
--@   its internal state starts NULL
CREATE FUNCTION @extschema@.lexid_smaller_as_written(internal, @extschema@.lexid, @extschema@.lexid) RETURNS internal
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
--@ comment: transition function of lexid_max_as_written
--@ labels: IMMUTABLE PARALLEL SAFE NOT STRICT because transition function of lexid_max_as_written:
--@   its internal state starts NULL
CREATE FUNCTION @extschema@.lexid_larger_as_written(internal, @extschema@.lexid, @extschema@.lexid) RETURNS internal
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
--@ comment: combine function of lexid_min_as_written and lexid_max_as_written
--@ labels: IMMUTABLE PARALLEL SAFE NOT STRICT because combine function of lexid_min_as_written and
--@   lexid_max_as_written: either state may be NULL
CREATE FUNCTION @extschema@.lexid_as_written_combine(internal, internal) RETURNS internal
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE PARALLEL SAFE;
--@ comment: serialization function of lexid_min_as_written and lexid_max_as_written
CREATE FUNCTION @extschema@.lexid_as_written_serialize(internal) RETURNS bytea
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: deserialization function of lexid_min_as_written and lexid_max_as_written
CREATE FUNCTION @extschema@.lexid_as_written_deserialize(bytea, internal) RETURNS internal
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: final function of lexid_min_as_written and lexid_max_as_written
CREATE FUNCTION @extschema@.lexid_as_written_final(internal) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

--@ comment: the value whose key is the least (min() of values without a charset, as written)
CREATE AGGREGATE @extschema@.lexid_min_as_written(key @extschema@.lexid, value @extschema@.lexid) (
    SFUNC = @extschema@.lexid_smaller_as_written, STYPE = internal,
    FINALFUNC = @extschema@.lexid_as_written_final, COMBINEFUNC = @extschema@.lexid_as_written_combine,
    SERIALFUNC = @extschema@.lexid_as_written_serialize, DESERIALFUNC = @extschema@.lexid_as_written_deserialize,
    PARALLEL = SAFE);
--@ comment: the value whose key is the greatest (max() of values without a charset, as written)
CREATE AGGREGATE @extschema@.lexid_max_as_written(key @extschema@.lexid, value @extschema@.lexid) (
    SFUNC = @extschema@.lexid_larger_as_written, STYPE = internal,
    FINALFUNC = @extschema@.lexid_as_written_final, COMBINEFUNC = @extschema@.lexid_as_written_combine,
    SERIALFUNC = @extschema@.lexid_as_written_serialize, DESERIALFUNC = @extschema@.lexid_as_written_deserialize,
    PARALLEL = SAFE);
