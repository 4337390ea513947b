-- ===== lexid_block (issue 18): a smaller INCREMENT never reaches back into the last block =====
CREATE FUNCTION @extschema@.idseq_sequence_step_guard() RETURNS event_trigger
    AS 'MODULE_PATHNAME', 'idseq_sequence_step_guard' LANGUAGE C;
CREATE EVENT TRIGGER idseq_sequence_step_guard ON ddl_command_start
    WHEN TAG IN ('ALTER SEQUENCE', 'ALTER TABLE')
    EXECUTE FUNCTION @extschema@.idseq_sequence_step_guard();
ALTER EVENT TRIGGER idseq_sequence_step_guard ENABLE ALWAYS;
