-- ===== counters per key (1.3) =====
-- Numbers counted separately per business key, with no DDL and no catalog object per key
-- (src/pg/counter_*.cpp; docs/counters.md; docs/design.md, "Counters per key").
--
-- A counter is anchored by a real sequence, <name>_counter, made in the creator's current
-- schema by idseq_create_counter: its owner owns the counter, and GRANT USAGE / UPDATE /
-- SELECT ON SEQUENCE give "take numbers" / "raise keys" / "read state". The anchor's own
-- nextval is unused.
--
-- Storage: one row per counter in idseq_counter_def (immutable once written) and one row
-- per (counter, key, period) in idseq_counter_state. Both are configuration tables, so
-- pg_dump writes their rows; their regclass columns are written as names and read back as
-- the restored sequences' new oids. Nobody but the extension's owner writes them through
-- SQL: the rows of fast counters are updated in place (like a sequence's tuple), and an MVCC
-- UPDATE of such a row would lose numbers. The database's owner may SELECT them (pg_dump)
-- and INSERT rows (pg_restore --no-owner), as for idseq's other registries: it can then make
-- a key repeat numbers (a second row of a key), as it can already run anything in its database
-- through its search_path; no other role reads or writes them.
--@ comment: definitions of the counters per key (written by idseq_create_counter; read through the
--@   view idseq_counters)
CREATE TABLE @extschema@.idseq_counter_def (
    name text COLLATE "C" PRIMARY KEY,
    anchor pg_catalog.regclass NOT NULL UNIQUE,
    gapless boolean NOT NULL,
    period text,
    time_zone text NOT NULL,
    start bigint NOT NULL,
    format text NOT NULL
);
SELECT pg_catalog.pg_extension_config_dump('@extschema@.idseq_counter_def', '');
REVOKE ALL ON @extschema@.idseq_counter_def FROM PUBLIC;
GRANT SELECT, INSERT ON @extschema@.idseq_counter_def TO pg_database_owner;

-- Column order matters: last (int8, aligned at the tuple's data start, updated in place),
-- counter, period (NULL for counters that never restart: yyyy, yyyymm or yyyymmdd), key.
-- One row per (counter, key, period) is kept by idseq's code (rows are made under a lock of
-- the key), not by a unique index, which would cost about 36 bytes more per key.
--@ comment: last number of each (counter, key, period); updated in place, never through SQL (read
--@   through the view idseq_counter_keys)
CREATE TABLE @extschema@.idseq_counter_state (
    last bigint NOT NULL,
    counter pg_catalog.regclass NOT NULL,
    period integer,
    key text COLLATE "C" NOT NULL
);
CREATE INDEX idseq_counter_state_key ON @extschema@.idseq_counter_state (counter, key);
-- A publication FOR ALL TABLES includes the table: without a replica identity its UPDATEs
-- (gap-free counters) and DELETEs (a dropped counter) would fail in every database that has
-- one. FULL, as the table has no unique index; it costs nothing below wal_level = logical.
ALTER TABLE @extschema@.idseq_counter_state REPLICA IDENTITY FULL;
SELECT pg_catalog.pg_extension_config_dump('@extschema@.idseq_counter_state', '');
REVOKE ALL ON @extschema@.idseq_counter_state FROM PUBLIC;
GRANT SELECT, INSERT ON @extschema@.idseq_counter_state TO pg_database_owner;

-- Managing counters: VOLATILE, not STRICT (a NULL name is 22004; period NULL is meaningful).
--@ comment: creates a counter per key and its anchor sequence <name>_counter in the current schema
--@   (GRANT on it as on a sequence)
--@ labels: VOLATILE PARALLEL UNSAFE NOT STRICT because creates a counter and its anchor sequence;
--@   period may be NULL
CREATE FUNCTION @extschema@.idseq_create_counter(name text, gapless boolean DEFAULT false, period text DEFAULT NULL,
                                                 time_zone text DEFAULT 'UTC', start bigint DEFAULT 1,
                                                 format text DEFAULT '{n}') RETURNS void
    AS 'MODULE_PATHNAME', 'idseq_create_counter' LANGUAGE C VOLATILE PARALLEL UNSAFE;
--@ comment: drops a counter, its anchor sequence and the numbers of all its keys (owner only)
--@ labels: VOLATILE PARALLEL UNSAFE NOT STRICT because drops a counter and its anchor sequence
CREATE FUNCTION @extschema@.idseq_drop_counter(name text) RETURNS void
    AS 'MODULE_PATHNAME', 'idseq_drop_counter' LANGUAGE C VOLATILE PARALLEL UNSAFE;

-- Taking numbers: VOLATILE PARALLEL UNSAFE (they write), not STRICT (a NULL key is 22004).
--@ comment: the next number of a key of a counter, in the current period (USAGE on the counter)
--@ labels: VOLATILE PARALLEL UNSAFE NOT STRICT because generator: takes a number of a key
CREATE FUNCTION @extschema@.idseq_counter_next(name text, key text DEFAULT '') RETURNS bigint
    AS 'MODULE_PATHNAME', 'idseq_counter_next' LANGUAGE C VOLATILE PARALLEL UNSAFE;
--@ comment: the next number of a key, rendered through the counter's format (USAGE on the counter)
--@ labels: VOLATILE PARALLEL UNSAFE NOT STRICT because generator: takes a number of a key
CREATE FUNCTION @extschema@.idseq_counter_next_text(name text, key text DEFAULT '') RETURNS text
    AS 'MODULE_PATHNAME', 'idseq_counter_next_text' LANGUAGE C VOLATILE PARALLEL UNSAFE;
--@ comment: reserves n consecutive numbers of a key of a fast counter: [first, last+1) (USAGE on
--@   the counter)
--@ labels: VOLATILE PARALLEL UNSAFE NOT STRICT because generator: takes a block of numbers of a key
CREATE FUNCTION @extschema@.idseq_counter_block(name text, key text, n integer) RETURNS pg_catalog.int8range
    AS 'MODULE_PATHNAME', 'idseq_counter_block' LANGUAGE C VOLATILE PARALLEL UNSAFE;
--@ comment: raises the last number of a key in the current period to at least a value, never lowers
--@   it (UPDATE on the counter)
--@ labels: VOLATILE PARALLEL UNSAFE NOT STRICT because raises a key's last number
CREATE FUNCTION @extschema@.idseq_counter_set(name text, key text, at_least bigint) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idseq_counter_set' LANGUAGE C VOLATILE PARALLEL UNSAFE;
-- Reading: VOLATILE (a fast counter moves within a statement, as currval), PARALLEL RESTRICTED
-- (the newest state is read with a new snapshot, which a parallel worker cannot take).
--@ comment: the last number issued (fast) or committed (gap-free) for a key in the current period,
--@   NULL if none (SELECT on the counter)
--@ labels: VOLATILE PARALLEL RESTRICTED NOT STRICT because reads a key's last number, which moves
--@   within a statement (as currval), with a new snapshot
CREATE FUNCTION @extschema@.idseq_counter_current(name text, key text DEFAULT '') RETURNS bigint
    AS 'MODULE_PATHNAME', 'idseq_counter_current' LANGUAGE C VOLATILE PARALLEL RESTRICTED;
-- STABLE: reads the definition, which never changes while the counter exists.
--@ comment: a number rendered through the counter's format, for a key, in the period of a time
--@ labels: STABLE PARALLEL SAFE NOT STRICT because reads the counter's definition; a NULL key is an
--@   error (22004)
CREATE FUNCTION @extschema@.idseq_counter_format(name text, n bigint, key text DEFAULT '',
                                                 at timestamptz DEFAULT pg_catalog.now()) RETURNS text
    AS 'MODULE_PATHNAME', 'idseq_counter_format' LANGUAGE C STABLE PARALLEL SAFE;
-- The rendering of a number in a period given by its number (yyyy, yyyymm, yyyymmdd), for
-- idseq_counter_gaps on text columns.
--@ comment: internal: a number rendered through the counter's format in the period numbered yyyy,
--@   yyyymm or yyyymmdd
--@ labels: STABLE PARALLEL SAFE NOT STRICT because reads the counter's definition; period NULL
--@   means none
CREATE FUNCTION @extschema@.idseq_counter_render(name text, n bigint, key text, period integer) RETURNS text
    AS 'MODULE_PATHNAME', 'idseq_counter_render' LANGUAGE C STABLE PARALLEL SAFE;

-- The trigger helper, and its companion for numbers bound at commit.
--@ comment: BEFORE INSERT row trigger (counter, key_column, target_column [, 'commit']): fills
--@   target_column from the counter keyed by key_column
CREATE FUNCTION @extschema@.idseq_counter_fill() RETURNS trigger
    AS 'MODULE_PATHNAME', 'idseq_counter_fill' LANGUAGE C;
--@ comment: internal: the deferred companion of an idseq_counter_fill trigger with 'commit', which
--@   binds the number at commit
CREATE FUNCTION @extschema@.idseq_counter_bind() RETURNS trigger
    AS 'MODULE_PATHNAME', 'idseq_counter_bind' LANGUAGE C;
--@ comment: internal: makes the deferred companion of each new idseq_counter_fill trigger with
--@   'commit'
CREATE FUNCTION @extschema@.idseq_counter_companions() RETURNS event_trigger
    AS 'MODULE_PATHNAME', 'idseq_counter_companions' LANGUAGE C;
--@ comment: makes the deferred companion trigger that binds the numbers of an idseq_counter_fill
--@   trigger with 'commit' at commit
CREATE EVENT TRIGGER idseq_counter_companions ON ddl_command_end
    WHEN TAG IN ('CREATE TRIGGER', 'CREATE TABLE', 'ALTER TABLE')
    EXECUTE FUNCTION @extschema@.idseq_counter_companions();
ALTER EVENT TRIGGER idseq_counter_companions ENABLE ALWAYS;

-- A counter's anchor dropped by DROP SEQUENCE or DROP SCHEMA ... CASCADE takes the counter
-- with it. SECURITY DEFINER: the role dropping the sequence may not delete rows of the tables.
--@ comment: internal: forgets the counters whose anchor sequence was dropped
CREATE FUNCTION @extschema@.idseq_counters_forget() RETURNS event_trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    seq pg_catalog.oid;
BEGIN
    -- one dropped sequence at a time, through the index on (counter, key): a DROP of anything
    -- else costs no scan of the keys
    FOR seq IN SELECT o.objid FROM pg_catalog.pg_event_trigger_dropped_objects() o
                WHERE o.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
                  AND o.object_type OPERATOR(pg_catalog.=) 'sequence' LOOP
        DELETE FROM @extschema@.idseq_counter_state s WHERE s.counter OPERATOR(pg_catalog.=) seq::pg_catalog.regclass;
        DELETE FROM @extschema@.idseq_counter_def d WHERE d.anchor OPERATOR(pg_catalog.=) seq::pg_catalog.regclass;
    END LOOP;
END $$;
REVOKE ALL ON FUNCTION @extschema@.idseq_counters_forget() FROM PUBLIC;
--@ comment: forgets a counter whose anchor sequence is dropped (idseq_counter_def,
--@   idseq_counter_state)
CREATE EVENT TRIGGER idseq_counters_forget ON sql_drop
    EXECUTE FUNCTION @extschema@.idseq_counters_forget();
ALTER EVENT TRIGGER idseq_counters_forget ENABLE ALWAYS;

-- Views. idseq_counters: every counter, to everyone (as pg_sequences shows every sequence's
-- definition). idseq_counter_keys: the keys of the counters the caller may SELECT (the
-- function runs as the caller, in the view run by its owner).
--@ comment: every counter per key: name, owner, gapless, period, time_zone, start, format, number
--@   of keys, anchor sequence
CREATE VIEW @extschema@.idseq_counters AS
    SELECT d.name, c.relowner::pg_catalog.regrole AS owner, d.gapless, d.period, d.time_zone, d.start, d.format,
           (SELECT pg_catalog.count(DISTINCT s.key) FROM @extschema@.idseq_counter_state s
             WHERE s.counter OPERATOR(pg_catalog.=) d.anchor) AS keys,
           d.anchor
      FROM @extschema@.idseq_counter_def d
      JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) d.anchor::pg_catalog.oid;
GRANT SELECT ON @extschema@.idseq_counters TO PUBLIC;

--@ comment: the keys of the counters the caller may SELECT: counter, key, period, last number
CREATE VIEW @extschema@.idseq_counter_keys AS
    SELECT d.name AS counter, s.key,
           CASE d.period
             WHEN 'year' THEN s.period::pg_catalog.text
             WHEN 'month' THEN pg_catalog.to_char(s.period OPERATOR(pg_catalog./) 100, 'FM0000') OPERATOR(pg_catalog.||) '-'
                               OPERATOR(pg_catalog.||) pg_catalog.to_char(s.period OPERATOR(pg_catalog.%) 100, 'FM00')
             WHEN 'day' THEN pg_catalog.to_char(s.period OPERATOR(pg_catalog./) 10000, 'FM0000') OPERATOR(pg_catalog.||) '-'
                             OPERATOR(pg_catalog.||) pg_catalog.to_char(s.period OPERATOR(pg_catalog./) 100 OPERATOR(pg_catalog.%) 100, 'FM00')
                             OPERATOR(pg_catalog.||) '-'
                             OPERATOR(pg_catalog.||) pg_catalog.to_char(s.period OPERATOR(pg_catalog.%) 100, 'FM00')
           END AS period,
           s.last
      FROM @extschema@.idseq_counter_state s
      JOIN @extschema@.idseq_counter_def d ON d.anchor OPERATOR(pg_catalog.=) s.counter
     WHERE pg_catalog.has_sequence_privilege(d.anchor::pg_catalog.oid, 'SELECT');
GRANT SELECT ON @extschema@.idseq_counter_keys TO PUBLIC;

-- The auditor's check: numbers start..last of the key in the period that no row of tbl holds
-- in col (bigint, or text rendered through the counter's format). If tbl has an
-- idseq_counter_fill trigger of this counter filling col, only its rows of the key count;
-- otherwise tbl must hold the numbers of this key only (a view of them, for example).
-- Runs as the caller, who needs SELECT on the counter and on tbl.
--@ comment: numbers of a key (in a period) up to its last one that no row of a table holds in a
--@   column: an auditor's check
--@ labels: STABLE PARALLEL RESTRICTED NOT STRICT because reads the counter's state and a table;
--@   NULL arguments are an error
CREATE FUNCTION @extschema@.idseq_counter_gaps(name text, key text, tbl pg_catalog.regclass, col name,
                                               period text DEFAULT NULL) RETURNS SETOF bigint
LANGUAGE plpgsql STABLE PARALLEL RESTRICTED SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    def record;
    want text := period;
    last_n bigint;
    period_n integer;
    typ pg_catalog.regtype;
    key_col text;
    key_filter text := '';
    shown_name text := CASE WHEN pg_catalog.length(name) > 64 THEN pg_catalog.left(name, 61) || '...' ELSE name END;
BEGIN
    IF name IS NULL OR key IS NULL OR tbl IS NULL OR col IS NULL THEN
        RAISE EXCEPTION 'counter name, key, table and column must not be null' USING ERRCODE = 'null_value_not_allowed';
    END IF;
    SELECT c.* INTO def FROM @extschema@.idseq_counters c WHERE c.name OPERATOR(pg_catalog.=) idseq_counter_gaps.name;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'counter "%" does not exist', shown_name USING ERRCODE = 'undefined_object',
            HINT = 'The view idseq_counters lists the counters of this database.';
    END IF;
    IF NOT pg_catalog.has_sequence_privilege(def.anchor::pg_catalog.oid, 'SELECT') THEN
        RAISE EXCEPTION 'permission denied for counter "%"', name USING ERRCODE = 'insufficient_privilege',
            HINT = pg_catalog.format('Reading a counter''s state takes SELECT on its sequence %s.', def.anchor);
    END IF;
    IF def.period IS NULL THEN
        IF want IS NOT NULL THEN
            RAISE EXCEPTION 'counter "%" has no periods', name USING ERRCODE = 'invalid_parameter_value',
                HINT = 'Leave the period out (NULL).';
        END IF;
    ELSIF want IS NULL THEN
        -- the current period, as idseq_counter_next sees it
        want := pg_catalog.to_char(pg_catalog.now() AT TIME ZONE def.time_zone,
                                   CASE def.period WHEN 'year' THEN 'YYYY' WHEN 'month' THEN 'YYYY-MM' ELSE 'YYYY-MM-DD' END);
    END IF;
    SELECT k.last INTO last_n FROM @extschema@.idseq_counter_keys k
     WHERE k.counter OPERATOR(pg_catalog.=) idseq_counter_gaps.name AND k.key OPERATOR(pg_catalog.=) idseq_counter_gaps.key
       AND k.period IS NOT DISTINCT FROM want;
    IF NOT FOUND THEN
        IF def.period IS NOT NULL AND NOT want OPERATOR(pg_catalog.~) (CASE def.period
                WHEN 'year' THEN '^[0-9]{4}$' WHEN 'month' THEN '^[0-9]{4}-[0-9]{2}$' ELSE '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' END) THEN
            RAISE EXCEPTION 'invalid period "%" of counter "%"',
                CASE WHEN pg_catalog.length(want) > 64 THEN pg_catalog.left(want, 61) || '...' ELSE want END, name USING ERRCODE = 'invalid_parameter_value',
                HINT = CASE def.period WHEN 'year' THEN 'A period of a yearly counter is written 2026.'
                                       WHEN 'month' THEN 'A period of a monthly counter is written 2026-11.'
                                       ELSE 'A period of a daily counter is written 2026-11-28.' END;
        END IF;
        RETURN;
    END IF;
    IF def.period IS NOT NULL THEN
        period_n := pg_catalog.replace(want, '-', '')::integer;
    END IF;
    SELECT a.atttypid::pg_catalog.regtype INTO typ FROM pg_catalog.pg_attribute a
     WHERE a.attrelid OPERATOR(pg_catalog.=) tbl AND a.attname OPERATOR(pg_catalog.=) col AND NOT a.attisdropped
       AND a.attnum OPERATOR(pg_catalog.>) 0;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'column "%" of relation % does not exist', col, tbl USING ERRCODE = 'undefined_column';
    END IF;
    -- the key column of a fill trigger of this counter that fills col
    SELECT (pg_catalog.string_to_array(pg_catalog.encode(t.tgargs, 'escape'), '\000'))[2] INTO key_col
      FROM pg_catalog.pg_trigger t
     WHERE t.tgrelid OPERATOR(pg_catalog.=) tbl
       AND t.tgfoid OPERATOR(pg_catalog.=) '@extschema@.idseq_counter_fill()'::pg_catalog.regprocedure
       AND t.tgnargs OPERATOR(pg_catalog.>=) 3
       AND (pg_catalog.string_to_array(pg_catalog.encode(t.tgargs, 'escape'), '\000'))[1] OPERATOR(pg_catalog.=) name
       AND (pg_catalog.string_to_array(pg_catalog.encode(t.tgargs, 'escape'), '\000'))[3] OPERATOR(pg_catalog.=) col
     LIMIT 1;
    IF key_col IS NOT NULL THEN
        key_filter := pg_catalog.format(' AND t.%I::pg_catalog.text OPERATOR(pg_catalog.=) $2', key_col);
    END IF;
    IF typ IN ('bigint'::pg_catalog.regtype, 'integer'::pg_catalog.regtype, 'smallint'::pg_catalog.regtype) THEN
        RETURN QUERY EXECUTE pg_catalog.format(
            'SELECT g.n FROM pg_catalog.generate_series($1::pg_catalog.int8, $3::pg_catalog.int8) g(n) '
            'WHERE NOT EXISTS (SELECT FROM %s t WHERE t.%I::pg_catalog.int8 OPERATOR(pg_catalog.=) g.n%s) ORDER BY g.n',
            tbl, col, key_filter)
            USING def.start, key, last_n;
    ELSIF typ IN ('text'::pg_catalog.regtype, 'character varying'::pg_catalog.regtype) THEN
        RETURN QUERY EXECUTE pg_catalog.format(
            'SELECT g.n FROM pg_catalog.generate_series($1::pg_catalog.int8, $3::pg_catalog.int8) g(n) '
            'WHERE NOT EXISTS (SELECT FROM %s t WHERE t.%I::pg_catalog.text OPERATOR(pg_catalog.=) '
            '%s.idseq_counter_render($4, g.n, $2, $5)%s) ORDER BY g.n',
            tbl, col, '@extschema@', key_filter)
            USING def.start, key, last_n, name, period_n;
    ELSE
        RAISE EXCEPTION 'column "%" of relation % has type %', col, tbl, typ USING ERRCODE = 'datatype_mismatch',
            DETAIL = 'Counters'' numbers are held in bigint, integer, smallint, text or varchar columns.';
    END IF;
END $$;
