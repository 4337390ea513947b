-- ===== lexid_block: a smaller INCREMENT never reaches back into the last block =====
-- Since 1.2 (the upgrade from 1.1 is frozen in idseq--1.1--1.2.sql).
-- lexid_block's blocks are v .. v + INCREMENT - 1: before ALTER SEQUENCE (or ALTER TABLE ...
-- SET INCREMENT BY on an identity column) makes the step smaller, the sequence moves on so
-- that the next block starts after the last one (src/pg/seq_generators.cpp). Also under
-- session_replication_role = replica.
CREATE FUNCTION @extschema@.idseq_sequence_step_guard() RETURNS event_trigger
    AS 'MODULE_PATHNAME', 'idseq_sequence_step_guard' LANGUAGE C;
--@ comment: before ALTER SEQUENCE makes INCREMENT smaller, moves the sequence on so that the next
--@   lexid_block starts after the last
CREATE EVENT TRIGGER idseq_sequence_step_guard ON ddl_command_start
    WHEN TAG IN ('ALTER SEQUENCE', 'ALTER TABLE')
    EXECUTE FUNCTION @extschema@.idseq_sequence_step_guard();
ALTER EVENT TRIGGER idseq_sequence_step_guard ENABLE ALWAYS;
