
-- ===== snowflake ids =====

-- Validates a layout definition and returns its canonical field list; raises the error a bad
-- definition deserves (22023, or 42710 for a built-in name). Also the registry's CHECK.
CREATE FUNCTION @extschema@.idseq_snowflake_check(name text, epoch timestamptz, fields text, time_unit interval)
    RETURNS text AS 'MODULE_PATHNAME', 'idseq_snowflake_check' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- Custom layouts. Each has two sequences of its own, created by snowflake_create_layout:
-- state_seq, the durable high-water mark (a time unit; WAL-logged, so crash recovery and
-- standbys inherit it), and last_id_seq (unlogged), the last id the generator issued while
-- running without shared memory. See src/pg/sf_generator.cpp.
--@ comment: custom snowflake layouts of idseq; add rows with snowflake_create_layout()
CREATE TABLE @extschema@.idseq_layout_registry (
    name text PRIMARY KEY,
    epoch timestamptz NOT NULL,
    fields text NOT NULL,
    time_unit interval NOT NULL,
    state_seq regclass NOT NULL,
    last_id_seq regclass NOT NULL,
    CONSTRAINT idseq_layout_registry_valid
        CHECK (@extschema@.idseq_snowflake_check(name, epoch, fields, time_unit) = fields)
);
SELECT pg_catalog.pg_extension_config_dump('@extschema@.idseq_layout_registry', '');
-- Layout definitions are not secret, and every user of snowflake_pack() reads them.
GRANT SELECT ON @extschema@.idseq_layout_registry TO PUBLIC;
-- Stored ids, IMMUTABLE functions and the generators' state rely on a layout never changing.
CREATE TRIGGER idseq_layout_registry_final BEFORE UPDATE OR DELETE OR TRUNCATE
    ON @extschema@.idseq_layout_registry
    FOR EACH STATEMENT EXECUTE FUNCTION @extschema@.idseq_registry_final();

-- The built-in layouts' state: the high-water marks are dumped (a restored database goes on
-- above them); the last-id sequences are volatile by design.
CREATE SEQUENCE @extschema@.idseq_sf_state_snowflake MINVALUE -1 START -1;
CREATE SEQUENCE @extschema@.idseq_sf_state_instagram MINVALUE -1 START -1;
CREATE SEQUENCE @extschema@.idseq_sf_state_sonyflake MINVALUE -1 START -1;
CREATE SEQUENCE @extschema@.idseq_sf_state_display60 MINVALUE -1 START -1;
CREATE SEQUENCE @extschema@.idseq_sf_state_nonsequential MINVALUE -1 START -1;
SELECT pg_catalog.pg_extension_config_dump('@extschema@.idseq_sf_state_snowflake', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.idseq_sf_state_instagram', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.idseq_sf_state_sonyflake', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.idseq_sf_state_display60', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.idseq_sf_state_nonsequential', '');
CREATE UNLOGGED SEQUENCE @extschema@.idseq_sf_last_snowflake MINVALUE -1 START -1;
CREATE UNLOGGED SEQUENCE @extschema@.idseq_sf_last_instagram MINVALUE -1 START -1;
CREATE UNLOGGED SEQUENCE @extschema@.idseq_sf_last_sonyflake MINVALUE -1 START -1;
CREATE UNLOGGED SEQUENCE @extschema@.idseq_sf_last_display60 MINVALUE -1 START -1;
CREATE UNLOGGED SEQUENCE @extschema@.idseq_sf_last_nonsequential MINVALUE -1 START -1;

--@ comment: the built-in snowflake layouts: name, epoch, fields, time unit
--@ labels: IMMUTABLE PARALLEL SAFE NOT STRICT because no arguments, so STRICT means nothing; a
--@   constant table
CREATE FUNCTION @extschema@.idseq_snowflake_builtin_layouts(OUT name text, OUT epoch timestamptz, OUT fields text,
                                                            OUT time_unit interval)
    RETURNS SETOF record AS 'MODULE_PATHNAME', 'idseq_snowflake_builtin_layouts'
    LANGUAGE C IMMUTABLE PARALLEL SAFE;

--@ comment: bit widths of a layout's fields and the last time it can represent
CREATE FUNCTION @extschema@.idseq_snowflake_describe(epoch timestamptz, fields text, time_unit interval,
                                                     OUT time_bits integer, OUT node_bits integer,
                                                     OUT seq_bits integer, OUT rand_bits integer,
                                                     OUT last_time timestamptz)
    RETURNS record AS 'MODULE_PATHNAME', 'idseq_snowflake_describe' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

--@ comment: every snowflake layout, built-in and custom, with its field widths and last
--@   representable time
CREATE VIEW @extschema@.snowflake_layouts AS
    SELECT l.name, l.epoch, l.fields, l.time_unit, d.time_bits, d.node_bits, d.seq_bits, d.rand_bits,
           d.last_time, l.builtin
      FROM (SELECT b.name, b.epoch, b.fields, b.time_unit, true AS builtin
              FROM @extschema@.idseq_snowflake_builtin_layouts() b
            UNION ALL
            SELECT r.name, r.epoch, r.fields, r.time_unit, false
              FROM @extschema@.idseq_layout_registry r) l,
           LATERAL @extschema@.idseq_snowflake_describe(l.epoch, l.fields, l.time_unit) d;

--@ comment: the id of a layout with the given time and fields
CREATE FUNCTION @extschema@.snowflake_pack(layout text, ts timestamptz, node integer DEFAULT 0,
                                           seq integer DEFAULT 0, rand integer DEFAULT 0)
    RETURNS bigint AS 'MODULE_PATHNAME', 'snowflake_pack' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: the time and fields of a snowflake id (inverse of snowflake_pack)
CREATE FUNCTION @extschema@.snowflake_unpack(id bigint, layout text DEFAULT 'snowflake')
    RETURNS TABLE(ts timestamptz, node integer, seq integer, rand integer)
    AS 'MODULE_PATHNAME', 'snowflake_unpack' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 1;
--@ comment: the time embedded in a snowflake id
CREATE FUNCTION @extschema@.snowflake_timestamp(id bigint, layout text DEFAULT 'snowflake')
    RETURNS timestamptz AS 'MODULE_PATHNAME', 'snowflake_timestamp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: the smallest id of the time unit of ts, for range scans and partition bounds
CREATE FUNCTION @extschema@.snowflake_min_id(ts timestamptz, layout text DEFAULT 'snowflake')
    RETURNS bigint AS 'MODULE_PATHNAME', 'snowflake_min_id' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- PARALLEL UNSAFE like nextval(): a call may have to move the durable high-water mark.
--@ comment: a new snowflake id of this node (idseq.node_id): unique and increasing per layout and
--@   server
--@ labels: VOLATILE PARALLEL UNSAFE STRICT because generator: raises the snowflake high-water mark
CREATE FUNCTION @extschema@.snowflake_nextval(layout text DEFAULT 'snowflake')
    RETURNS bigint AS 'MODULE_PATHNAME', 'snowflake_nextval' LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
