-- ===== borders of the registries (1.3) =====

-- The privileges of a layout's sequence, as snowflake_create_layout leaves them: all for its
-- owner, SELECT and UPDATE for the database's owner (pg_dump reads the marks, pg_restore
-- sets them), none for any other role. The generator writes a layout's sequences as their
-- owner and a raised mark moves the layout's ids ahead, so a grant made before the registry
-- adopted them (a row inserted for sequences of one's own) is revoked, with the grants made
-- from it (CASCADE). Called by the adopting trigger (90_privileges.sql), as the extension's
-- owner, and by the update for layouts adopted before.
--@ comment: internal: gives a layout's sequence exactly the documented privileges (its owner's,
--@   SELECT and UPDATE for the database owner)
--@ labels: VOLATILE PARALLEL UNSAFE NOT STRICT because sets the privileges of a layout's adopted
--@   sequences (REVOKE and GRANT)
CREATE FUNCTION @extschema@.idseq_layout_sequence_privileges(seq pg_catalog.regclass) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    grantee oid;
    owner_name name;
BEGIN
    SELECT pg_get_userbyid(c.relowner) INTO STRICT owner_name FROM pg_class c WHERE c.oid = seq;
    FOR grantee IN SELECT DISTINCT a.grantee FROM pg_class c, LATERAL aclexplode(c.relacl) a
                    WHERE c.oid = seq AND a.grantee <> c.relowner
    LOOP
        EXECUTE format('REVOKE ALL ON SEQUENCE %s FROM %s CASCADE', seq,
                       CASE WHEN grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(grantee)) END);
    END LOOP;
    EXECUTE format('GRANT ALL ON SEQUENCE %s TO %I', seq, owner_name);
    EXECUTE format('GRANT SELECT, UPDATE ON SEQUENCE %s TO pg_database_owner', seq);
END $$;
REVOKE ALL ON FUNCTION @extschema@.idseq_layout_sequence_privileges(pg_catalog.regclass) FROM PUBLIC;
-- layouts adopted before (an update from 1.2; none in a fresh install)
SELECT @extschema@.idseq_layout_sequence_privileges(s)
  FROM @extschema@.idseq_layout_registry r, LATERAL (VALUES (r.state_seq), (r.last_id_seq)) v(s);

-- A row of idseq_code_sequences names a sequence of its own database: a publication FOR ALL
-- TABLES carries the table too, and a subscriber would attach a row to its own sequence of
-- that name (text) or OID (binary). A logical replication worker therefore skips every row
-- change it applies to the table (an ENABLE ALWAYS trigger: it runs with
-- session_replication_role = replica, where ordinary triggers do not fire). Other sessions
-- are unaffected, also one in replica role (the sql_drop cleanup must delete there too).
--@ comment: internal: a logical replication worker skips the rows of idseq_code_sequences (they
--@   name sequences of the publisher)
CREATE FUNCTION @extschema@.idseq_code_sequences_replica() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF current_setting('session_replication_role') = 'replica'
       AND EXISTS (SELECT 1 FROM pg_stat_subscription s WHERE s.pid = pg_backend_pid()) THEN
        RETURN NULL;
    END IF;
    RETURN CASE TG_OP WHEN 'DELETE' THEN OLD ELSE NEW END;
END $$;
CREATE TRIGGER idseq_code_sequences_0_replica BEFORE INSERT OR UPDATE OR DELETE ON @extschema@.idseq_code_sequences
    FOR EACH ROW EXECUTE FUNCTION @extschema@.idseq_code_sequences_replica();
ALTER TABLE @extschema@.idseq_code_sequences ENABLE ALWAYS TRIGGER idseq_code_sequences_0_replica;
