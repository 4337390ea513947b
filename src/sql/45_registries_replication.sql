-- ===== the registries on every path: logical decoding, replicas, apply workers (1.2) =====
-- Since 1.2 (the upgrade from 1.1 is frozen in idseq--1.1--1.2.sql).
--
-- Output and send functions read the charset registry with catalog-style scans; a walsender
-- decoding a change prints values with a historic snapshot, which only shows the rows of
-- catalogs and user catalog tables as of the change (src/pg/charset_registry.cpp). The layout
-- registry is read by no output function, so it stays an ordinary table.
ALTER TABLE @extschema@.idseq_charset_registry SET (user_catalog_table = true);

-- Rows are final for every session: the triggers fire also under session_replication_role =
-- replica (a logical replication apply worker, or a session that sets it). An apply worker
-- fires row triggers only, not statement triggers, so UPDATE and DELETE are refused row by
-- row as well; the statement triggers keep refusing TRUNCATE and statements that match no row.
ALTER TABLE @extschema@.idseq_charset_registry ENABLE ALWAYS TRIGGER idseq_charset_registry_final;
ALTER TABLE @extschema@.idseq_layout_registry ENABLE ALWAYS TRIGGER idseq_layout_registry_final;
CREATE TRIGGER idseq_charset_registry_final_row BEFORE UPDATE OR DELETE ON @extschema@.idseq_charset_registry
    FOR EACH ROW EXECUTE FUNCTION @extschema@.idseq_registry_final();
ALTER TABLE @extschema@.idseq_charset_registry ENABLE ALWAYS TRIGGER idseq_charset_registry_final_row;
CREATE TRIGGER idseq_layout_registry_final_row BEFORE UPDATE OR DELETE ON @extschema@.idseq_layout_registry
    FOR EACH ROW EXECUTE FUNCTION @extschema@.idseq_registry_final();
ALTER TABLE @extschema@.idseq_layout_registry ENABLE ALWAYS TRIGGER idseq_layout_registry_final_row;

-- A publication FOR ALL TABLES carries the registries too. What an apply worker does with a
-- registry row it receives:
-- - a charset the subscriber has with the same definition: skipped (the dedup trigger fires
--   always); one it has with another definition: refused (42710), so the subscription stops
--   rather than store values that would read differently there; one it lacks: inserted, after
--   the CHECK constraint validated it.
-- - a layout: skipped if the subscriber has it with the same epoch, fields and time unit;
--   otherwise refused, since a layout needs its own sequences, which only
--   snowflake_create_layout() makes (run it on the subscriber, then the row is skipped).
ALTER TABLE @extschema@.idseq_charset_registry ENABLE ALWAYS TRIGGER idseq_charset_registry_dedup;

CREATE FUNCTION @extschema@.idseq_layout_registry_replica() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    IF pg_catalog.current_setting('session_replication_role') <> 'replica' THEN
        RETURN NEW;
    END IF;
    IF EXISTS (SELECT 1 FROM @extschema@.idseq_layout_registry r
                WHERE r.name = NEW.name AND r.epoch = NEW.epoch AND r.fields = NEW.fields
                  AND r.time_unit = NEW.time_unit) THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION 'snowflake layout "%" cannot be replicated', NEW.name
        USING ERRCODE = 'object_not_in_prerequisite_state',
              DETAIL = 'A layout is created on each server with its own sequences; this server has no identical layout of that name.',
              HINT = pg_catalog.format('Run snowflake_create_layout(%L, %L, %L, %L) on this server.',
                                       NEW.name, NEW.epoch, NEW.fields, NEW.time_unit);
END $$;
CREATE TRIGGER idseq_layout_registry_0_replica BEFORE INSERT ON @extschema@.idseq_layout_registry
    FOR EACH ROW EXECUTE FUNCTION @extschema@.idseq_layout_registry_replica();
ALTER TABLE @extschema@.idseq_layout_registry ENABLE ALWAYS TRIGGER idseq_layout_registry_0_replica;
