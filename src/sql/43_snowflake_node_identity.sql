-- ===== node identity: the server's snowflake fence, the node id of this database =====
-- idseq_snowflake_fence_init() creates the replication origin "idseq_snowflake_fence" that
-- holds the server's fence (src/pg/sf_fence.cpp), and with raise => true moves it to
-- the clock plus the lease at commit. Superuser only (checked in C, and no EXECUTE for PUBLIC).
-- The install and the update only create it (a fresh fence is 0: ids start at the clock);
-- after pg_upgrade, which carries no replication origin, the operations runbook has a
-- superuser run it with raise => true.
--@ comment: creates the server's snowflake fence (replication origin idseq_snowflake_fence) when it
--@   is missing and, with raise, moves it to the clock plus the lease at commit; superuser only
--@ labels: VOLATILE PARALLEL UNSAFE STRICT because creates the server's snowflake fence (a
--@   replication origin) and raises it at commit
CREATE FUNCTION @extschema@.idseq_snowflake_fence_init(raise boolean DEFAULT true) RETURNS void
    AS 'MODULE_PATHNAME', 'idseq_snowflake_fence_init' LANGUAGE C STRICT VOLATILE PARALLEL UNSAFE;
REVOKE ALL ON FUNCTION @extschema@.idseq_snowflake_fence_init(boolean) FROM PUBLIC;
SELECT @extschema@.idseq_snowflake_fence_init(false);

-- The node id this database issues snowflake ids with (NULL: none): idseq.node_id_by_database's
-- entry for it, else idseq.node_id. The operations runbook checks it in every database.
--@ comment: the node id this database issues snowflake ids with: its own from
--@   idseq.node_id_by_database, else idseq.node_id; NULL when none is set
--@ labels: STABLE PARALLEL SAFE NOT STRICT because reads the node-id settings, which a reload
--@   changes; no arguments
CREATE FUNCTION @extschema@.idseq_node_id() RETURNS integer
    AS 'MODULE_PATHNAME', 'idseq_node_id' LANGUAGE C STABLE PARALLEL SAFE;
