
-- ===== snowflake_create_layout (1.2: in C, only field orders whose ids increase) =====
-- Since 1.2 (the upgrade from 1.1 is frozen in idseq--1.1--1.2.sql).

-- idseq_snowflake_check plus the generator's rule: time before seq and rand, seq before rand
-- (node anywhere). Not the registry's CHECK, so that a layout created before 1.2 in any
-- order still restores and still packs and unpacks; snowflake_nextval refuses it.
--@ comment: internal: checks a new layout definition and its field order (ids must increase per
--@   node); returns the canonical field list
CREATE OR REPLACE FUNCTION @extschema@.idseq_snowflake_check_new(name text, epoch timestamptz, fields text,
                                                                 time_unit interval)
    RETURNS text AS 'MODULE_PATHNAME', 'idseq_snowflake_check_new' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- In C (src/pg/sf_layout_registry.cpp): no call of the extension's own makes a name lookup that an
-- object planted in the extension's schema could capture; it refuses field orders whose ids
-- cannot increase, as idseq_snowflake_check_new does.
--@ comment: registers a custom snowflake layout: fields like 'time:41,node:10,seq:12', final once
--@   created
--@ labels: VOLATILE PARALLEL UNSAFE NOT STRICT because registers a layout and its state sequences;
--@   time_unit may be NULL
CREATE OR REPLACE FUNCTION @extschema@.snowflake_create_layout(name text, epoch timestamptz, fields text,
                                                               time_unit interval DEFAULT '1 millisecond')
    RETURNS void AS 'MODULE_PATHNAME', 'snowflake_create_layout'
    LANGUAGE C VOLATILE PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp;
