-- ===== lexid (untyped values meeting each other): the column guard fires also under
-- session_replication_role = replica =====
ALTER EVENT TRIGGER idseq_lexid_column_guard ENABLE ALWAYS;
