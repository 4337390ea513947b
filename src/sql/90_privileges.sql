-- ===== privileges: what roles other than the extension's owner may do =====
-- Everyone reads every catalog view. The database's owner (the predefined role
-- pg_database_owner) may also add charsets and layouts and set the generators' high-water
-- marks, which is what restoring a dump into a database it owns takes
-- (pg_restore --no-owner after an administrator ran CREATE EXTENSION): pg_dump writes the
-- registries' rows as COPY and the marks as setval(). Rows stay final and validated for
-- everyone: CHECK constraints validate each definition, the dedup trigger refuses a
-- conflicting charset, the final triggers refuse UPDATE, DELETE and TRUNCATE, and the
-- triggers below refuse a layout whose state sequences are not its own. Other roles only
-- read. Objects added after 1.2 get their privileges here and in their version's upgrade
-- fragment.

GRANT SELECT ON @extschema@.snowflake_layouts TO PUBLIC;
GRANT INSERT ON @extschema@.idseq_charset_registry TO pg_database_owner;
GRANT INSERT ON @extschema@.idseq_layout_registry TO pg_database_owner;
GRANT SELECT, UPDATE ON SEQUENCE @extschema@.idseq_sf_state_snowflake, @extschema@.idseq_sf_state_instagram,
    @extschema@.idseq_sf_state_sonyflake, @extschema@.idseq_sf_state_display60,
    @extschema@.idseq_sf_state_nonsequential TO pg_database_owner;

-- A layout row names its two state sequences, which the generator writes without an ACL
-- check (as their owner): a row may only name sequences that are its own. An AFTER trigger,
-- so that the CHECK constraint has validated the definition first; it runs as the inserting
-- role, and before the adopting trigger below (triggers of one event fire in name order): the sequences must be unused idseq_sf_state_* (logged) and idseq_sf_last_*
-- (unlogged) sequences in the extension's schema, owned by the registry's owner (as
-- snowflake_create_layout makes them) or by the inserting role itself (as a restore by the
-- database owner creates them).
CREATE FUNCTION @extschema@.idseq_layout_registry_sequences() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    reg pg_catalog.regclass := '@extschema@.idseq_layout_registry';
    reg_class record;
    s record;
BEGIN
    SELECT c.relowner, c.relnamespace INTO reg_class FROM pg_class c WHERE c.oid = reg;
    FOR s IN
        SELECT k.role, k.seq, k.persistence, c.relname, c.relkind, c.relnamespace, c.relpersistence, c.relowner
          FROM (VALUES ('state', NEW.state_seq::oid, 'p'), ('last', NEW.last_id_seq::oid, 'u'))
                 AS k(role, seq, persistence)
          LEFT JOIN pg_class c ON c.oid = k.seq
    LOOP
        IF s.relkind IS DISTINCT FROM 'S' OR s.relnamespace <> reg_class.relnamespace
           OR s.relname NOT LIKE 'idseq\_sf\_' || s.role || '\_%' OR s.relpersistence <> s.persistence
           OR EXISTS (SELECT 1 FROM pg_depend d
                       WHERE d.classid = 'pg_class'::regclass AND d.objid = s.seq AND d.deptype = 'e')
           OR EXISTS (SELECT 1 FROM @extschema@.idseq_layout_registry r
                       WHERE r.name <> NEW.name AND s.seq IN (r.state_seq::oid, r.last_id_seq::oid)) THEN
            RAISE EXCEPTION 'sequence % cannot hold the % of snowflake layout "%"',
                            coalesce(s.seq::regclass::text, 'NULL'),
                            CASE s.role WHEN 'state' THEN 'high-water mark' ELSE 'last id' END, NEW.name
                USING ERRCODE = 'invalid_parameter_value',
                      DETAIL = pg_catalog.format('A layout needs an unused %s sequence named idseq_sf_%s_... in schema %s.',
                                                 CASE s.role WHEN 'state' THEN 'logged' ELSE 'unlogged' END,
                                                 s.role, reg_class.relnamespace::regnamespace),
                      HINT = 'Create layouts with snowflake_create_layout().';
        END IF;
        IF s.relowner <> reg_class.relowner AND NOT pg_has_role(s.relowner, 'USAGE') THEN
            RAISE EXCEPTION 'must be owner of sequence %', s.seq::regclass
                USING ERRCODE = 'insufficient_privilege',
                      DETAIL = pg_catalog.format('Snowflake layout "%s" would write it.', NEW.name);
        END IF;
        -- the generator sets marks up to the largest bigint (and -1 for none) with setval
        IF NOT EXISTS (SELECT 1 FROM pg_sequence q
                        WHERE q.seqrelid = s.seq AND q.seqtypid = 'pg_catalog.int8'::pg_catalog.regtype
                          AND q.seqincrement > 0 AND q.seqmin <= -1 AND q.seqmax = 9223372036854775807
                          AND NOT q.seqcycle) THEN
            RAISE EXCEPTION 'sequence % cannot hold the % of snowflake layout "%"', s.seq::regclass,
                            CASE s.role WHEN 'state' THEN 'high-water mark' ELSE 'last id' END, NEW.name
                USING ERRCODE = 'invalid_parameter_value',
                      DETAIL = 'A layout''s sequences are ascending bigint sequences without CYCLE, from -1 to the largest bigint.',
                      HINT = 'Create them as snowflake_create_layout() does: CREATE SEQUENCE ... MINVALUE -1 START -1.';
        END IF;
    END LOOP;
    RETURN NULL;
END $$;
CREATE TRIGGER idseq_layout_registry_1_check AFTER INSERT ON @extschema@.idseq_layout_registry
    FOR EACH ROW EXECUTE FUNCTION @extschema@.idseq_layout_registry_sequences();

-- Then the registry adopts them, as snowflake_create_layout leaves them: owned by the
-- registry's owner, dropped with it (OWNED BY), readable and settable (for pg_dump and
-- pg_restore) by the database owner and by no other role (grants made before are revoked:
-- 76_registries_sequences.sql), and gives the layout its guard, which only the extension's owner
-- writes (a lowered state sequence changes nothing: 42_snowflake_guard.sql).
-- SECURITY DEFINER, because the inserting role cannot give its sequences to the registry's owner; nobody may call it or attach it to a trigger
-- of their own (no EXECUTE), and it acts only on rows the trigger above accepted.
CREATE FUNCTION @extschema@.idseq_layout_registry_adopt() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    reg pg_catalog.regclass := '@extschema@.idseq_layout_registry';
    reg_owner oid;
    seq pg_catalog.regclass;
BEGIN
    IF TG_RELID <> reg OR TG_WHEN <> 'AFTER' OR TG_OP <> 'INSERT' OR TG_LEVEL <> 'ROW' THEN
        RAISE EXCEPTION 'idseq_layout_registry_adopt() is a trigger of % only', reg;
    END IF;
    SELECT c.relowner INTO reg_owner FROM pg_class c WHERE c.oid = reg;
    FOREACH seq IN ARRAY ARRAY[NEW.state_seq, NEW.last_id_seq] LOOP
        IF (SELECT c.relowner FROM pg_class c WHERE c.oid = seq) <> reg_owner THEN
            EXECUTE pg_catalog.format('ALTER SEQUENCE %s OWNER TO %I', seq, pg_get_userbyid(reg_owner));
        END IF;
        IF NOT EXISTS (SELECT 1 FROM pg_depend d
                        WHERE d.classid = 'pg_class'::regclass AND d.objid = seq AND d.deptype = 'a'
                          AND d.refclassid = 'pg_class'::regclass AND d.refobjid = reg) THEN
            EXECUTE pg_catalog.format('ALTER SEQUENCE %s OWNED BY %s.name', seq, reg);
        END IF;
        -- only the documented privileges: grants made before the adoption are revoked
        PERFORM @extschema@.idseq_layout_sequence_privileges(seq);
    END LOOP;
    -- and its guard, the mark nobody else writes (42_snowflake_guard.sql)
    PERFORM @extschema@.idseq_layout_guard(NEW.state_seq);
    RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION @extschema@.idseq_layout_registry_adopt() FROM PUBLIC;
CREATE TRIGGER idseq_layout_registry_2_adopt AFTER INSERT ON @extschema@.idseq_layout_registry
    FOR EACH ROW EXECUTE FUNCTION @extschema@.idseq_layout_registry_adopt();

-- Layouts created before these privileges (an update from 1.1): the same grants.
DO $$
DECLARE
    seq pg_catalog.regclass;
BEGIN
    FOR seq IN SELECT s FROM @extschema@.idseq_layout_registry r, LATERAL (VALUES (r.state_seq), (r.last_id_seq)) v(s)
    LOOP
        EXECUTE pg_catalog.format('GRANT SELECT, UPDATE ON SEQUENCE %s TO pg_database_owner', seq);
    END LOOP;
END $$;
