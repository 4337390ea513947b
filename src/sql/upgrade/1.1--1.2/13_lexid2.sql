-- ===== lexid (untyped values meeting each other): the column guard fires also under
-- session_replication_role = replica =====
ALTER EVENT TRIGGER idseq_lexid_column_guard ENABLE ALWAYS;
-- ALTER TABLE ... ADD COLUMN evaluates its default for the rows already there before
-- ddl_command_end: the same function, fired first, reads an untyped nextval_lexid seed of the
-- default in the new column's charset.
CREATE EVENT TRIGGER idseq_lexid_seed_guard ON ddl_command_start
    WHEN TAG IN ('ALTER TABLE')
    EXECUTE FUNCTION @extschema@.idseq_lexid_column_guard();
ALTER EVENT TRIGGER idseq_lexid_seed_guard ENABLE ALWAYS;
