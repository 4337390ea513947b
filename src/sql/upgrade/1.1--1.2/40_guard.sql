
-- ===== guard: the extension's own calls are immune to objects planted in its schema =====
-- snowflake_create_layout moves from PL/pgSQL to C (see src/sql/40_snowflake.sql).
CREATE OR REPLACE FUNCTION @extschema@.snowflake_create_layout(name text, epoch timestamptz, fields text,
                                                               time_unit interval DEFAULT '1 millisecond')
    RETURNS void AS 'MODULE_PATHNAME', 'snowflake_create_layout'
    LANGUAGE C VOLATILE PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp;
