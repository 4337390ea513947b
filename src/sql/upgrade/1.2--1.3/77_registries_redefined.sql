-- ===== borders of the registries: the changed objects of 1.2 =====
-- The fresh install has these in the files named; an update from 1.2 replaces them here
-- (CREATE OR REPLACE keeps their privileges and triggers).

-- 32_code_sequences.sql: dumps leave out rows of missing and temporary sequences, restores
-- skip them, and the rows such sequences left behind are deleted.
SELECT pg_catalog.pg_extension_config_dump('@extschema@.idseq_code_sequences',
    'WHERE EXISTS (SELECT FROM pg_catalog.pg_class c WHERE c.oid OPERATOR(pg_catalog.=) seq::pg_catalog.oid'
    ' AND c.relkind OPERATOR(pg_catalog.=) ''S'' AND c.relpersistence OPERATOR(pg_catalog.<>) ''t'')');

CREATE OR REPLACE FUNCTION @extschema@.idseq_code_sequences_check() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    -- A row of a relation that does not exist (a bare OID, as dumps of 1.2 carry for a
    -- temporary sequence gone at session end) or of a temporary sequence is skipped, so that
    -- a restore keeps every other row; temporary sequences are not recorded.
    IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_class c
                    WHERE c.oid OPERATOR(pg_catalog.=) NEW.seq::pg_catalog.oid
                      AND c.relpersistence OPERATOR(pg_catalog.<>) 't') THEN
        RETURN NULL;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_catalog.pg_class c
                    WHERE c.oid OPERATOR(pg_catalog.=) NEW.seq::pg_catalog.oid
                      AND c.relkind OPERATOR(pg_catalog.=) 'S'
                      AND pg_catalog.pg_has_role(c.relowner, 'USAGE')) THEN
        RAISE EXCEPTION USING ERRCODE = 'insufficient_privilege',
            MESSAGE = pg_catalog.format('%s is not a sequence of role %s', NEW.seq, current_user),
            HINT = 'A code sequence''s charset is recorded by create_code_sequence() or by a restore run by the sequence''s owner.';
    END IF;
    RETURN NEW;
END $$;
DELETE FROM @extschema@.idseq_code_sequences s
 WHERE NOT EXISTS (SELECT FROM pg_catalog.pg_class c
                    WHERE c.oid OPERATOR(pg_catalog.=) s.seq::pg_catalog.oid
                      AND c.relkind OPERATOR(pg_catalog.=) 'S'
                      AND c.relpersistence OPERATOR(pg_catalog.<>) 't');

-- 90_privileges.sql: a layout's sequences must be able to hold its marks; adopted, they
-- keep only the documented privileges.
CREATE OR REPLACE FUNCTION @extschema@.idseq_layout_registry_sequences() RETURNS trigger
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
CREATE OR REPLACE FUNCTION @extschema@.idseq_layout_registry_adopt() RETURNS trigger
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
