
-- ===== time in the id: version 7 UUIDs, ULID text, TSID (version 1.3) =====
-- Run word for word by the install script and the 1.2 -> 1.3 upgrade (a link there).

-- The built-in layout tsid, and the layout behind idseq_uuidv7() (48-bit Unix milliseconds,
-- 12-bit counter; not listed in snowflake_layouts): their state sequences, as the other
-- built-in layouts have them (40_snowflake.sql), and their guards (42_snowflake_guard.sql).
CREATE SEQUENCE @extschema@.idseq_sf_state_tsid MINVALUE -1 START -1;
CREATE SEQUENCE @extschema@.idseq_sf_state_uuidv7 MINVALUE -1 START -1;
SELECT pg_catalog.pg_extension_config_dump('@extschema@.idseq_sf_state_tsid', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.idseq_sf_state_uuidv7', '');
CREATE UNLOGGED SEQUENCE @extschema@.idseq_sf_last_tsid MINVALUE -1 START -1;
CREATE UNLOGGED SEQUENCE @extschema@.idseq_sf_last_uuidv7 MINVALUE -1 START -1;
SELECT @extschema@.idseq_layout_guard(s)
  FROM (VALUES ('@extschema@.idseq_sf_state_tsid'::pg_catalog.regclass),
               ('@extschema@.idseq_sf_state_uuidv7')) v(s);
GRANT SELECT, UPDATE ON SEQUENCE @extschema@.idseq_sf_state_tsid, @extschema@.idseq_sf_state_uuidv7
    TO pg_database_owner;

--@ comment: the RFC 9562 version 7 UUID of an id of a time-first layout: lossless and in the ids'
--@   order
CREATE FUNCTION @extschema@.snowflake_uuid(id bigint, layout text DEFAULT 'snowflake')
    RETURNS uuid AS 'MODULE_PATHNAME', 'snowflake_uuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: the id of a layout whose snowflake_uuid is the given UUID (exact inverse)
CREATE FUNCTION @extschema@.snowflake_from_uuid(u uuid, layout text DEFAULT 'snowflake')
    RETURNS bigint AS 'MODULE_PATHNAME', 'snowflake_from_uuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: the smallest version 7 UUID of the millisecond of ts, for range scans and partition
--@   bounds
CREATE FUNCTION @extschema@.idseq_uuidv7_bound(ts timestamptz)
    RETURNS uuid AS 'MODULE_PATHNAME', 'idseq_uuidv7_bound' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
-- PARALLEL UNSAFE like snowflake_nextval(): a call may have to move the durable high-water
-- mark, which no parallel worker may write.
--@ comment: a new version 7 UUID, greater than every one this server issued before; 62 random bits
--@ labels: VOLATILE PARALLEL UNSAFE STRICT because generator: raises the high-water mark of its own
--@   layout, which no parallel worker may write
CREATE FUNCTION @extschema@.idseq_uuidv7()
    RETURNS uuid AS 'MODULE_PATHNAME', 'idseq_uuidv7' LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

--@ comment: the 128-bit value of a UUID in a charset, padded to a fixed width (crockford32: ULID's
--@   text)
CREATE FUNCTION @extschema@.idseq_encode(id uuid, charset text DEFAULT 'crockford32')
    RETURNS text AS 'MODULE_PATHNAME', 'idseq_encode_uuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: the UUID of a code made by idseq_encode(uuid, charset) (exact inverse)
CREATE FUNCTION @extschema@.idseq_decode_uuid(code text, charset text DEFAULT 'crockford32')
    RETURNS uuid AS 'MODULE_PATHNAME', 'idseq_decode_uuid' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
