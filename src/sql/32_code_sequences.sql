-- ===== the charset each code sequence was made for =====
-- create_code_sequence(name, width, charset) records the sequence's charset here, and
-- nextval_code(seq) without a charset reads the codes of that charset (of upper for a
-- sequence it did not make). Written by create_code_sequence (as a catalog, without an ACL
-- check: the caller has just created the sequence) and by restores: pg_dump writes the rows
-- (the sequence by name) after the sequences. A row is deleted when its sequence is dropped,
-- so that a later sequence that reuses the OID starts unremembered. Since 1.2 (frozen in
-- idseq--1.1--1.2.sql).
--@ comment: the charset of each sequence made by create_code_sequence(), read by nextval_code()
--@   without a charset
CREATE TABLE @extschema@.idseq_code_sequences (
    seq pg_catalog.regclass PRIMARY KEY,
    charset pg_catalog.text NOT NULL
);
-- A dump carries the rows of existing sequences that are not temporary: a row that outlived
-- its sequence (a temporary one dropped at session end, by DISCARD TEMP or ON COMMIT DROP,
-- which fire no sql_drop event) would be a bare OID that fails the restore's whole COPY.
-- pg_dump appends the filter to its SELECT of the table, under an empty search_path.
SELECT pg_catalog.pg_extension_config_dump('@extschema@.idseq_code_sequences',
    'WHERE EXISTS (SELECT FROM pg_catalog.pg_class c WHERE c.oid OPERATOR(pg_catalog.=) seq::pg_catalog.oid'
    ' AND c.relkind OPERATOR(pg_catalog.=) ''S'' AND c.relpersistence OPERATOR(pg_catalog.<>) ''t'')');
GRANT SELECT ON @extschema@.idseq_code_sequences TO PUBLIC;
-- The database's owner restores the rows (as it restores charsets); a row may only name a
-- sequence of the inserting role.
GRANT INSERT ON @extschema@.idseq_code_sequences TO pg_database_owner;
--@ comment: internal: a row of idseq_code_sequences names a sequence of the inserting role
CREATE FUNCTION @extschema@.idseq_code_sequences_check() RETURNS trigger
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
CREATE TRIGGER idseq_code_sequences_check BEFORE INSERT OR UPDATE ON @extschema@.idseq_code_sequences
    FOR EACH ROW EXECUTE FUNCTION @extschema@.idseq_code_sequences_check();
-- SECURITY DEFINER: the role dropping a sequence may not delete rows of this table.
--@ comment: internal: forgets the charset of a dropped code sequence
CREATE FUNCTION @extschema@.idseq_code_sequences_forget() RETURNS event_trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    DELETE FROM @extschema@.idseq_code_sequences s
     USING pg_catalog.pg_event_trigger_dropped_objects() o
     WHERE o.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
       AND o.objid OPERATOR(pg_catalog.=) s.seq::pg_catalog.oid;
END $$;
REVOKE ALL ON FUNCTION @extschema@.idseq_code_sequences_forget() FROM PUBLIC;
--@ comment: forgets the charset of a dropped code sequence (idseq_code_sequences)
CREATE EVENT TRIGGER idseq_code_sequences_forget ON sql_drop
    EXECUTE FUNCTION @extschema@.idseq_code_sequences_forget();
ALTER EVENT TRIGGER idseq_code_sequences_forget ENABLE ALWAYS;
