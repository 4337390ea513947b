
-- ===== snowflake_create_layout (1.2: only field orders whose ids increase) =====
-- Shared word for word by the fresh install and the 1.1 -> 1.2 upgrade
-- (src/sql/upgrade/1.1--1.2/30_failover.sql is a link to this file).

-- idseq_snowflake_check plus the generator's rule: time before seq and rand, seq before rand
-- (node anywhere). Not the registry's CHECK, so that a layout created before 1.2 in any
-- order still restores and still packs and unpacks; snowflake_nextval refuses it.
CREATE OR REPLACE FUNCTION @extschema@.idseq_snowflake_check_new(name text, epoch timestamptz, fields text,
                                                                 time_unit interval)
    RETURNS text AS 'MODULE_PATHNAME', 'idseq_snowflake_check_new' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OR REPLACE FUNCTION @extschema@.snowflake_create_layout(name text, epoch timestamptz, fields text,
                                                    time_unit interval DEFAULT '1 millisecond')
RETURNS void LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    canonical text;
    nsp text;
    base text;
    state_name text;
    last_name text;
    reg_owner text;
    old record;
BEGIN
    IF name IS NULL OR epoch IS NULL OR fields IS NULL OR time_unit IS NULL THEN
        RAISE EXCEPTION 'a snowflake layout definition cannot contain null values'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    canonical := @extschema@.idseq_snowflake_check_new(name, epoch, fields, time_unit);
    -- one creator at a time, so that the duplicate check below is reliable
    LOCK TABLE @extschema@.idseq_layout_registry IN SHARE ROW EXCLUSIVE MODE;
    SELECT r.fields, r.epoch, r.time_unit INTO old
      FROM @extschema@.idseq_layout_registry r WHERE r.name = snowflake_create_layout.name;
    IF FOUND THEN
        RAISE EXCEPTION 'snowflake layout "%" already exists', name
            USING ERRCODE = 'duplicate_object',
                  DETAIL = format('Its fields are "%s", its epoch is %s and its time unit is %s.',
                                  old.fields, old.epoch, old.time_unit),
                  HINT = 'Layouts cannot be redefined; create one under another name.';
    END IF;

    SELECT n.nspname, pg_catalog.pg_get_userbyid(c.relowner) INTO nsp, reg_owner
      FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
     WHERE c.oid = '@extschema@.idseq_layout_registry'::pg_catalog.regclass;
    base := CASE WHEN length(name) <= 48 THEN name ELSE left(name, 39) || '_' || left(md5(name), 8) END;
    state_name := 'idseq_sf_state_' || base;
    last_name := 'idseq_sf_last_' || base;
    EXECUTE format('CREATE SEQUENCE %I.%I MINVALUE -1 START -1', nsp, state_name);
    EXECUTE format('CREATE UNLOGGED SEQUENCE %I.%I MINVALUE -1 START -1', nsp, last_name);
    -- The sequences go with the registry (DROP EXTENSION drops them), which needs one owner.
    IF current_user <> reg_owner THEN
        EXECUTE format('ALTER SEQUENCE %I.%I OWNER TO %I', nsp, state_name, reg_owner);
        EXECUTE format('ALTER SEQUENCE %I.%I OWNER TO %I', nsp, last_name, reg_owner);
    END IF;
    EXECUTE format('ALTER SEQUENCE %I.%I OWNED BY %I.idseq_layout_registry.name', nsp, state_name, nsp);
    EXECUTE format('ALTER SEQUENCE %I.%I OWNED BY %I.idseq_layout_registry.name', nsp, last_name, nsp);
    INSERT INTO @extschema@.idseq_layout_registry (name, epoch, fields, time_unit, state_seq, last_id_seq)
    VALUES (name, epoch, canonical, time_unit,
            format('%I.%I', nsp, state_name)::regclass, format('%I.%I', nsp, last_name)::regclass);
END $$;
