-- ===== registered definitions are final (since 1.1) =====
-- Stored values and IMMUTABLE functions rely on a charset never changing: rows are final.
CREATE FUNCTION @extschema@.idseq_registry_final() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    RAISE EXCEPTION '% cannot be changed or removed', TG_TABLE_NAME
        USING ERRCODE = 'object_not_in_prerequisite_state',
              DETAIL = 'Stored values and indexes depend on every registered definition.',
              HINT = 'Register a new definition under another name.';
END $$;
CREATE TRIGGER idseq_charset_registry_final BEFORE UPDATE OR DELETE OR TRUNCATE
    ON @extschema@.idseq_charset_registry
    FOR EACH STATEMENT EXECUTE FUNCTION @extschema@.idseq_registry_final();
