-- idseq 1.1 -> 1.2. Assembled by the Makefile from src/sql/upgrade/1.1--1.2/*.sql (one
-- fragment per topic); every change made to the fresh-install fragments in src/sql/ since
-- 1.1 is repeated here, and t/095_upgrade.pl proves the two agree.

\echo Use "ALTER EXTENSION idseq UPDATE TO '1.2'" to load this file. \quit
-- ===== lexid (issue 9): stored lexid values always name their charset =====
CREATE FUNCTION @extschema@.idseq_lexid_column_guard() RETURNS event_trigger
    AS 'MODULE_PATHNAME', 'idseq_lexid_column_guard' LANGUAGE C;
CREATE EVENT TRIGGER idseq_lexid_column_guard ON ddl_command_end
    WHEN TAG IN ('CREATE TABLE', 'CREATE TABLE AS', 'SELECT INTO', 'ALTER TABLE', 'CREATE MATERIALIZED VIEW',
                 'CREATE FOREIGN TABLE', 'ALTER FOREIGN TABLE', 'IMPORT FOREIGN SCHEMA', 'CREATE TYPE',
                 'ALTER TYPE', 'CREATE DOMAIN', 'ALTER DOMAIN', 'CREATE SCHEMA')
    EXECUTE FUNCTION @extschema@.idseq_lexid_column_guard();

-- Columns of 1.0/1.1 declared plain lexid keep working (their values read as before), but
-- they may mix untyped spellings with values of any charset. List them, with the fix.
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN
        SELECT c.oid::pg_catalog.regclass AS rel, a.attname, c.relkind,
               pg_catalog.format_type(a.atttypid, a.atttypmod) AS typ
          FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) a.attrelid
         WHERE a.atttypid OPERATOR(pg_catalog.=) ANY (ARRAY['@extschema@.lexid'::pg_catalog.regtype,
                                                            '@extschema@.lexid[]'::pg_catalog.regtype]::pg_catalog.oid[])
           AND a.atttypmod OPERATOR(pg_catalog.<) 0 AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped
           AND c.relkind OPERATOR(pg_catalog.=) ANY ('{r,p,m,f,c}'::pg_catalog."char"[])
         ORDER BY 1::pg_catalog.text, a.attnum
    LOOP
        RAISE WARNING 'column "%" of "%" has type lexid without a charset', r.attname, r.rel
            USING DETAIL = 'Since idseq 1.2 a stored lexid must name its charset; new columns like it are refused, '
                           'and a dump of this table does not restore until it is converted.',
                  HINT = CASE WHEN r.relkind OPERATOR(pg_catalog.=) 'm' THEN
                             'Recreate the materialized view with the column cast to lexid(base36)'
                         ELSE pg_catalog.format('ALTER %s %s ALTER %s %I TYPE %s',
                                           CASE r.relkind WHEN 'c' THEN 'TYPE' WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END,
                                           r.rel, CASE r.relkind WHEN 'c' THEN 'ATTRIBUTE' ELSE 'COLUMN' END, r.attname,
                                           pg_catalog.replace(r.typ, 'lexid', 'lexid(base36)')) END
                         || ' (or the charset the values were written in).';
    END LOOP;
END $$;

-- 1.0 and 1.1 sorted lexid values longer than 255 symbols wrongly (their abbreviated sort key
-- capped the length), so a btree built by CREATE INDEX or REINDEX over such values may be
-- out of order. List every btree index on lexid for a check or a REINDEX.
DO $$
DECLARE
    r record;
BEGIN
    FOR r IN
        SELECT c.oid::pg_catalog.regclass AS idx
          FROM pg_catalog.pg_class c
          JOIN pg_catalog.pg_am am ON am.oid OPERATOR(pg_catalog.=) c.relam AND am.amname OPERATOR(pg_catalog.=) 'btree'
         WHERE c.relkind OPERATOR(pg_catalog.=) ANY ('{i,I}'::pg_catalog."char"[])
           AND EXISTS (SELECT FROM pg_catalog.pg_attribute a WHERE a.attrelid OPERATOR(pg_catalog.=) c.oid
                          AND a.atttypid OPERATOR(pg_catalog.=) '@extschema@.lexid'::pg_catalog.regtype)
         ORDER BY c.oid::pg_catalog.regclass::pg_catalog.text
    LOOP
        RAISE WARNING 'btree index "%" on lexid values may be out of order if it holds values longer than 255 symbols', r.idx
            USING DETAIL = 'idseq 1.0 and 1.1 sorted values longer than 255 symbols wrongly when building an index.',
                  HINT = pg_catalog.format('REINDEX INDEX %s, or check it with the amcheck extension: SELECT bt_index_check(%L)',
                                           r.idx, r.idx::pg_catalog.text);
    END LOOP;
END $$;
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
-- ===== lexid compared with text, through the index (since 1.2; issue 12, finding 3) =====
-- Drivers send parameters as text (Npgsql) or varchar (JDBC; varchar is binary-coercible
-- to text, so `code = $1` resolves to lexid = text). A planner support function of the
-- (lexid, text) and (text, lexid) comparison functions (src/pg/lexid_text_index.cpp) turns
-- `code OP text` on an index column of type lexid(cs) into the equivalent
-- `code OP text::lexid(cs)`, which the btree (and, for =, the hash) operator class serves.
-- The planner calls it itself, so it needs no library loaded beforehand (unlike the
-- planner hook). Not cross-type members of lexid_ops: a family holding text must also sort
-- text arrays by a (text, text) comparison, which cannot know the column's charset.
-- lexid = text stays unhashable (no hash joins between lexid and text columns).
CREATE FUNCTION @extschema@.lexid_text_support(internal) RETURNS internal
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
ALTER FUNCTION @extschema@.lexid_eq_text(@extschema@.lexid, text) SUPPORT @extschema@.lexid_text_support;
ALTER FUNCTION @extschema@.lexid_lt_text(@extschema@.lexid, text) SUPPORT @extschema@.lexid_text_support;
ALTER FUNCTION @extschema@.lexid_le_text(@extschema@.lexid, text) SUPPORT @extschema@.lexid_text_support;
ALTER FUNCTION @extschema@.lexid_gt_text(@extschema@.lexid, text) SUPPORT @extschema@.lexid_text_support;
ALTER FUNCTION @extschema@.lexid_ge_text(@extschema@.lexid, text) SUPPORT @extschema@.lexid_text_support;
ALTER FUNCTION @extschema@.text_eq_lexid(text, @extschema@.lexid) SUPPORT @extschema@.lexid_text_support;
ALTER FUNCTION @extschema@.text_lt_lexid(text, @extschema@.lexid) SUPPORT @extschema@.lexid_text_support;
ALTER FUNCTION @extschema@.text_le_lexid(text, @extschema@.lexid) SUPPORT @extschema@.lexid_text_support;
ALTER FUNCTION @extschema@.text_gt_lexid(text, @extschema@.lexid) SUPPORT @extschema@.lexid_text_support;
ALTER FUNCTION @extschema@.text_ge_lexid(text, @extschema@.lexid) SUPPORT @extschema@.lexid_text_support;

-- LIKE on a lexid matches its canonical spelling, the text `code::text` shows (the symbols
-- as the charset lists them: upper case in base36, lower case in hex). Shortlex order does not keep the
-- values of one prefix together (Z < 10 < A0), so no btree range on the lexid serves a
-- prefix: these are SQL functions the planner inlines into `code::text LIKE pattern`, which
-- an expression index ((code::text) text_pattern_ops) serves.
CREATE FUNCTION @extschema@.lexid_like(@extschema@.lexid, text) RETURNS boolean
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS 'SELECT @extschema@.text($1) OPERATOR(pg_catalog.~~) $2';
CREATE FUNCTION @extschema@.lexid_not_like(@extschema@.lexid, text) RETURNS boolean
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS 'SELECT @extschema@.text($1) OPERATOR(pg_catalog.!~~) $2';
CREATE OPERATOR @extschema@.~~ (
    LEFTARG = @extschema@.lexid, RIGHTARG = text, PROCEDURE = @extschema@.lexid_like,
    NEGATOR = OPERATOR(@extschema@.!~~), RESTRICT = likesel, JOIN = likejoinsel);
CREATE OPERATOR @extschema@.!~~ (
    LEFTARG = @extschema@.lexid, RIGHTARG = text, PROCEDURE = @extschema@.lexid_not_like,
    NEGATOR = OPERATOR(@extschema@.~~), RESTRICT = nlikesel, JOIN = nlikejoinsel);
COMMENT ON FUNCTION @extschema@.lexid_like(@extschema@.lexid, text) IS
    'implementation of lexid ~~ text (LIKE) operator';
COMMENT ON FUNCTION @extschema@.lexid_not_like(@extschema@.lexid, text) IS
    'implementation of lexid !~~ text (NOT LIKE) operator';
COMMENT ON OPERATOR @extschema@.~~ (@extschema@.lexid, text) IS
    'LIKE on the canonical spelling (code::text); index it with ((code::text) text_pattern_ops)';
COMMENT ON OPERATOR @extschema@.!~~ (@extschema@.lexid, text) IS
    'NOT LIKE on the canonical spelling (code::text)';
COMMENT ON FUNCTION @extschema@.lexid_text_support(internal) IS
    'planner support: makes lexid compared with text an index condition on a lexid(charset) column';

-- ===== charset cache (issue 9) =====
-- lexid_typmod_in may register a charset (an INSERT): VOLATILE, no longer STABLE.
ALTER FUNCTION @extschema@.lexid_typmod_in(pg_catalog.cstring[]) VOLATILE;

-- ===== snowflake_create_layout (1.2: in C, only field orders whose ids increase) =====
-- Shared word for word by the fresh install and the 1.1 -> 1.2 upgrade
-- (src/sql/upgrade/1.1--1.2/30_failover.sql is a link to this file).

-- idseq_snowflake_check plus the generator's rule: time before seq and rand, seq before rand
-- (node anywhere). Not the registry's CHECK, so that a layout created before 1.2 in any
-- order still restores and still packs and unpacks; snowflake_nextval refuses it.
CREATE OR REPLACE FUNCTION @extschema@.idseq_snowflake_check_new(name text, epoch timestamptz, fields text,
                                                                 time_unit interval)
    RETURNS text AS 'MODULE_PATHNAME', 'idseq_snowflake_check_new' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- In C (src/pg/snowflake_layouts.cpp): no call of the extension's own makes a name lookup that an
-- object planted in the extension's schema could capture; it refuses field orders whose ids
-- cannot increase, as idseq_snowflake_check_new does.
CREATE OR REPLACE FUNCTION @extschema@.snowflake_create_layout(name text, epoch timestamptz, fields text,
                                                               time_unit interval DEFAULT '1 millisecond')
    RETURNS void AS 'MODULE_PATHNAME', 'snowflake_create_layout'
    LANGUAGE C VOLATILE PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp;
-- ===== nextval_code without a charset: the sequence's own =====
-- The default charset becomes null, read as the charset create_code_sequence recorded for
-- the sequence (upper for others); stored calls without a charset take the new default when
-- they are planned. Called on null input, so that the null default reaches the function.
CREATE OR REPLACE FUNCTION @extschema@.nextval_code(seq regclass, charset text DEFAULT NULL) RETURNS text
    AS 'MODULE_PATHNAME', 'nextval_code' LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;
-- ===== the charset each code sequence was made for =====
-- create_code_sequence(name, width, charset) records the sequence's charset here, and
-- nextval_code(seq) without a charset reads the codes of that charset (of upper for a
-- sequence it did not make). Written by create_code_sequence (as a catalog, without an ACL
-- check: the caller has just created the sequence) and by restores: pg_dump writes the rows
-- (the sequence by name) after the sequences. A row is deleted when its sequence is dropped,
-- so that a later sequence that reuses the OID starts unremembered. This file is also the
-- 1.1 -> 1.2 upgrade fragment (src/sql/upgrade/1.1--1.2/32_code_sequences.sql is a link).
CREATE TABLE @extschema@.idseq_code_sequences (
    seq pg_catalog.regclass PRIMARY KEY,
    charset pg_catalog.text NOT NULL
);
COMMENT ON TABLE @extschema@.idseq_code_sequences IS
    'the charset of each sequence made by create_code_sequence(), read by nextval_code() without a charset';
SELECT pg_catalog.pg_extension_config_dump('@extschema@.idseq_code_sequences', '');
GRANT SELECT ON @extschema@.idseq_code_sequences TO PUBLIC;
-- The database's owner restores the rows (as it restores charsets); a row may only name a
-- sequence of the inserting role.
GRANT INSERT ON @extschema@.idseq_code_sequences TO pg_database_owner;
CREATE FUNCTION @extschema@.idseq_code_sequences_check() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
BEGIN
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
COMMENT ON FUNCTION @extschema@.idseq_code_sequences_check() IS
    'internal: a row of idseq_code_sequences names a sequence of the inserting role';
CREATE TRIGGER idseq_code_sequences_check BEFORE INSERT OR UPDATE ON @extschema@.idseq_code_sequences
    FOR EACH ROW EXECUTE FUNCTION @extschema@.idseq_code_sequences_check();
-- SECURITY DEFINER: the role dropping a sequence may not delete rows of this table.
CREATE FUNCTION @extschema@.idseq_code_sequences_forget() RETURNS event_trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
BEGIN
    DELETE FROM @extschema@.idseq_code_sequences s
     USING pg_catalog.pg_event_trigger_dropped_objects() o
     WHERE o.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
       AND o.objid OPERATOR(pg_catalog.=) s.seq::pg_catalog.oid;
END $$;
REVOKE ALL ON FUNCTION @extschema@.idseq_code_sequences_forget() FROM PUBLIC;
COMMENT ON FUNCTION @extschema@.idseq_code_sequences_forget() IS
    'internal: forgets the charset of a dropped code sequence';
CREATE EVENT TRIGGER idseq_code_sequences_forget ON sql_drop
    EXECUTE FUNCTION @extschema@.idseq_code_sequences_forget();
ALTER EVENT TRIGGER idseq_code_sequences_forget ENABLE ALWAYS;
COMMENT ON EVENT TRIGGER idseq_code_sequences_forget IS
    'forgets the charset of a dropped code sequence (idseq_code_sequences)';
-- ===== lexid_block (issue 18): a smaller INCREMENT never reaches back into the last block =====
-- This file is also the 1.1 -> 1.2 upgrade fragment (src/sql/upgrade/1.1--1.2/34_block_step.sql
-- is a link to it).
-- lexid_block's blocks are v .. v + INCREMENT - 1: before ALTER SEQUENCE (or ALTER TABLE ...
-- SET INCREMENT BY on an identity column) makes the step smaller, the sequence moves on so
-- that the next block starts after the last one (src/pg/sequences.cpp). Also under
-- session_replication_role = replica.
CREATE FUNCTION @extschema@.idseq_sequence_step_guard() RETURNS event_trigger
    AS 'MODULE_PATHNAME', 'idseq_sequence_step_guard' LANGUAGE C;
CREATE EVENT TRIGGER idseq_sequence_step_guard ON ddl_command_start
    WHEN TAG IN ('ALTER SEQUENCE', 'ALTER TABLE')
    EXECUTE FUNCTION @extschema@.idseq_sequence_step_guard();
ALTER EVENT TRIGGER idseq_sequence_step_guard ENABLE ALWAYS;

-- ===== the generators' guards: marks only the extension writes (issue 18) =====
-- Shared word for word by the fresh install and the 1.1 -> 1.2 upgrade
-- (src/sql/upgrade/1.1--1.2/42_snowflake_guard.sql is a link to this file).
--
-- A layout's state sequence (idseq_sf_state_...) carries its durable high-water mark through
-- pg_dump, and the database owner may set it, because pg_restore --no-owner restores it with
-- setval(): so it can also be lowered. Each layout therefore has a guard beside it,
-- idseq_sf_guard_... (the state sequence's name with "guard" for "state"): a logged sequence
-- that belongs to the extension (pg_dump leaves it out), owned by the extension's owner and
-- granted to nobody. Every reservation moves both; the generator's mark is the greater of the
-- two (src/pg/snowflake_store.cpp), so a lowered state sequence changes nothing, and a raised
-- one (a restore) counts.

-- The guard of a layout's state sequence: created when missing (starting at the state
-- sequence's value), else checked to be the extension's own. Run as the extension's owner:
-- by the install and upgrade scripts and by the registry's adopting trigger.
CREATE FUNCTION @extschema@.idseq_layout_guard(state_seq pg_catalog.regclass) RETURNS pg_catalog.regclass
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    st record;
    g record;
    guard_name name;
    guard pg_catalog.regclass;
    state_value bigint;
    state_called boolean;
BEGIN
    SELECT c.relname, c.relnamespace, c.relowner INTO STRICT st FROM pg_class c WHERE c.oid = state_seq;
    guard_name := 'idseq_sf_guard_' || substr(st.relname, 16);
    SELECT c.oid, c.relkind, c.relpersistence, c.relowner INTO g
      FROM pg_class c WHERE c.relname = guard_name AND c.relnamespace = st.relnamespace;
    IF NOT FOUND THEN
        EXECUTE format('CREATE SEQUENCE %s.%I MINVALUE -1 START -1', st.relnamespace::regnamespace, guard_name);
        guard := format('%s.%I', st.relnamespace::regnamespace, guard_name)::regclass;
        IF NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = guard
                          AND d.deptype = 'e') THEN
            EXECUTE format('ALTER EXTENSION idseq ADD SEQUENCE %s', guard);
        END IF;
        EXECUTE format('SELECT last_value, is_called FROM %s', state_seq) INTO state_value, state_called;
        IF state_called THEN
            PERFORM setval(guard, state_value);
        END IF;
        RETURN guard;
    END IF;
    IF g.relkind <> 'S' OR g.relpersistence <> 'p' OR g.relowner <> st.relowner
       OR NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = g.oid
                         AND d.deptype = 'e') THEN
        RAISE EXCEPTION 'relation %.% cannot guard the high-water mark of %', st.relnamespace::regnamespace,
                        quote_ident(guard_name), state_seq
            USING ERRCODE = 'duplicate_table',
                  DETAIL = 'The guard of a snowflake layout is a sequence of the extension idseq, owned by its owner.',
                  HINT = 'Drop or rename that relation, then insert the layout again.';
    END IF;
    RETURN g.oid::regclass;
END $$;
REVOKE ALL ON FUNCTION @extschema@.idseq_layout_guard(pg_catalog.regclass) FROM PUBLIC;

-- The built-in layouts' guards, and those of custom layouts created before 1.2 (an update);
-- later layouts get theirs from the registry's adopting trigger (90_privileges.sql).
SELECT @extschema@.idseq_layout_guard(s)
  FROM (VALUES ('@extschema@.idseq_sf_state_snowflake'::pg_catalog.regclass),
               ('@extschema@.idseq_sf_state_instagram'), ('@extschema@.idseq_sf_state_sonyflake'),
               ('@extschema@.idseq_sf_state_display60'), ('@extschema@.idseq_sf_state_nonsequential')) v(s)
UNION ALL
SELECT @extschema@.idseq_layout_guard(r.state_seq) FROM @extschema@.idseq_layout_registry r;
-- ===== the registries on every path: logical decoding, replicas, apply workers (1.2) =====
-- The same fragment serves the install script and the 1.1 -> 1.2 upgrade.
--
-- Output and send functions read the charset registry with catalog-style scans; a walsender
-- decoding a change prints values with a historic snapshot, which only shows the rows of
-- catalogs and user catalog tables as of the change (src/pg/registry.cpp). The layout
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
-- ===== exact integer variants (issue 18) =====
-- This file is also the 1.1 -> 1.2 upgrade fragment (src/sql/upgrade/1.1--1.2/60_integer_variants.sql
-- is a link to it).
-- PostgreSQL prefers an exact match in any schema of the search_path over a match through an
-- implicit cast: with only lexid + bigint, `code + 1` (an integer) would resolve to a
-- lexid + integer operator that anyone with CREATE on a schema later in the path defined,
-- and it would run with the rights of whoever evaluates the expression. Every operator and
-- function that users call with integer literals has smallint and integer variants, so such
-- a call finds the extension's own by exact match; each widens its argument and runs the
-- bigint (numeric) original's code (src/pg/integer_variants.cpp), with the same labels.
--
-- With several integer variants an argument of unknown type (NULL, '5', or a parameter a
-- driver sends untyped) would match none of them better than the others. PostgreSQL resolves
-- such an argument to the string category first, so each also has a text variant that reads
-- the number as the original's argument type reads it: those calls resolve as before.
-- (lexid - unknown resolves to lexid - lexid, the distance, as before: no text variant.)
CREATE FUNCTION @extschema@.lexical_add(id @extschema@.lexid, n integer) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME', 'lexid_add_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OPERATOR @extschema@.+ (
    LEFTARG = @extschema@.lexid, RIGHTARG = integer, PROCEDURE = @extschema@.lexical_add);
CREATE FUNCTION @extschema@.lexid_sub_int4(@extschema@.lexid, integer) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME', 'lexid_sub_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OPERATOR @extschema@.- (
    LEFTARG = @extschema@.lexid, RIGHTARG = integer, PROCEDURE = @extschema@.lexid_sub_int4);
CREATE FUNCTION @extschema@.lexical_add(source text, charset text, n integer, ignore_case boolean DEFAULT true) RETURNS text
    AS 'MODULE_PATHNAME', 'lexical_add_text_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.code_format(n integer, width integer, charset text DEFAULT 'upper') RETURNS text
    AS 'MODULE_PATHNAME', 'code_format_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.idseq_encode(id integer, charset text DEFAULT 'base62', rotate integer DEFAULT 0, width integer DEFAULT 0) RETURNS text
    AS 'MODULE_PATHNAME', 'idseq_encode_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.idseq_scramble(id integer, key text, bits integer DEFAULT 63) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idseq_scramble_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.idseq_unscramble(id integer, key text, bits integer DEFAULT 63) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idseq_unscramble_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.snowflake_timestamp(id integer, layout text DEFAULT 'snowflake') RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'snowflake_timestamp_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.snowflake_unpack(id integer, layout text DEFAULT 'snowflake')
    RETURNS TABLE(ts timestamptz, node integer, seq integer, rand integer)
    AS 'MODULE_PATHNAME', 'snowflake_unpack_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 1;
CREATE FUNCTION @extschema@.lexical_add(id @extschema@.lexid, n smallint) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME', 'lexid_add_int2' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OPERATOR @extschema@.+ (
    LEFTARG = @extschema@.lexid, RIGHTARG = smallint, PROCEDURE = @extschema@.lexical_add);
CREATE FUNCTION @extschema@.lexid_sub_int2(@extschema@.lexid, smallint) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME', 'lexid_sub_int2' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OPERATOR @extschema@.- (
    LEFTARG = @extschema@.lexid, RIGHTARG = smallint, PROCEDURE = @extschema@.lexid_sub_int2);
CREATE FUNCTION @extschema@.lexical_add(source text, charset text, n smallint, ignore_case boolean DEFAULT true) RETURNS text
    AS 'MODULE_PATHNAME', 'lexical_add_text_int2' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.code_format(n smallint, width integer, charset text DEFAULT 'upper') RETURNS text
    AS 'MODULE_PATHNAME', 'code_format_int2' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.idseq_encode(id smallint, charset text DEFAULT 'base62', rotate integer DEFAULT 0, width integer DEFAULT 0) RETURNS text
    AS 'MODULE_PATHNAME', 'idseq_encode_int2' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.idseq_scramble(id smallint, key text, bits integer DEFAULT 63) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idseq_scramble_int2' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.idseq_unscramble(id smallint, key text, bits integer DEFAULT 63) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idseq_unscramble_int2' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.snowflake_timestamp(id smallint, layout text DEFAULT 'snowflake') RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'snowflake_timestamp_int2' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.snowflake_unpack(id smallint, layout text DEFAULT 'snowflake')
    RETURNS TABLE(ts timestamptz, node integer, seq integer, rand integer)
    AS 'MODULE_PATHNAME', 'snowflake_unpack_int2' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 1;
CREATE FUNCTION @extschema@.lexical_add(id @extschema@.lexid, n text) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME', 'lexid_add_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OPERATOR @extschema@.+ (
    LEFTARG = @extschema@.lexid, RIGHTARG = text, PROCEDURE = @extschema@.lexical_add);
CREATE FUNCTION @extschema@.lexical_add(source text, charset text, n text, ignore_case boolean DEFAULT true) RETURNS text
    AS 'MODULE_PATHNAME', 'lexical_add_text_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.code_format(n text, width integer, charset text DEFAULT 'upper') RETURNS text
    AS 'MODULE_PATHNAME', 'code_format_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.idseq_encode(id text, charset text DEFAULT 'base62', rotate integer DEFAULT 0, width integer DEFAULT 0) RETURNS text
    AS 'MODULE_PATHNAME', 'idseq_encode_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.idseq_scramble(id text, key text, bits integer DEFAULT 63) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idseq_scramble_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.idseq_unscramble(id text, key text, bits integer DEFAULT 63) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idseq_unscramble_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.snowflake_timestamp(id text, layout text DEFAULT 'snowflake') RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'snowflake_timestamp_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.snowflake_unpack(id text, layout text DEFAULT 'snowflake')
    RETURNS TABLE(ts timestamptz, node integer, seq integer, rand integer)
    AS 'MODULE_PATHNAME', 'snowflake_unpack_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 1;
CREATE FUNCTION @extschema@.lexid_from_rank(rank bigint, charset text) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME', 'lexid_from_rank_int8' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.lexid_from_rank(rank integer, charset text) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME', 'lexid_from_rank_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.lexid_from_rank(rank smallint, charset text) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME', 'lexid_from_rank_int2' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.lexid_from_rank(rank text, charset text) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME', 'lexid_from_rank_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

COMMENT ON FUNCTION @extschema@.lexical_add(@extschema@.lexid, integer) IS
    'lexical_add(id, n::bigint), for an exact match of integer arguments';
COMMENT ON OPERATOR @extschema@.+ (@extschema@.lexid, integer) IS 'lexical_add: the id n places later in shortlex order';
COMMENT ON FUNCTION @extschema@.lexid_sub_int4(@extschema@.lexid, integer) IS 'implementation of lexid - integer operator';
COMMENT ON OPERATOR @extschema@.- (@extschema@.lexid, integer) IS 'the id n places earlier in shortlex order';
COMMENT ON FUNCTION @extschema@.lexical_add(text, text, integer, boolean) IS
    'lexical_add(source, charset, n::bigint, ignore_case), for an exact match of integer arguments';
COMMENT ON FUNCTION @extschema@.code_format(integer, integer, text) IS
    'code_format(n::bigint, width, charset), for an exact match of integer arguments';
COMMENT ON FUNCTION @extschema@.idseq_encode(integer, text, integer, integer) IS
    'idseq_encode(id::bigint, charset, rotate, width), for an exact match of integer arguments';
COMMENT ON FUNCTION @extschema@.idseq_scramble(integer, text, integer) IS
    'idseq_scramble(id::bigint, key, bits), for an exact match of integer arguments';
COMMENT ON FUNCTION @extschema@.idseq_unscramble(integer, text, integer) IS
    'idseq_unscramble(id::bigint, key, bits), for an exact match of integer arguments';
COMMENT ON FUNCTION @extschema@.snowflake_timestamp(integer, text) IS
    'snowflake_timestamp(id::bigint, layout), for an exact match of integer arguments';
COMMENT ON FUNCTION @extschema@.snowflake_unpack(integer, text) IS
    'snowflake_unpack(id::bigint, layout), for an exact match of integer arguments';
COMMENT ON FUNCTION @extschema@.lexical_add(@extschema@.lexid, smallint) IS
    'lexical_add(id, n::bigint), for an exact match of smallint arguments';
COMMENT ON OPERATOR @extschema@.+ (@extschema@.lexid, smallint) IS 'lexical_add: the id n places later in shortlex order';
COMMENT ON FUNCTION @extschema@.lexid_sub_int2(@extschema@.lexid, smallint) IS 'implementation of lexid - smallint operator';
COMMENT ON OPERATOR @extschema@.- (@extschema@.lexid, smallint) IS 'the id n places earlier in shortlex order';
COMMENT ON FUNCTION @extschema@.lexical_add(text, text, smallint, boolean) IS
    'lexical_add(source, charset, n::bigint, ignore_case), for an exact match of smallint arguments';
COMMENT ON FUNCTION @extschema@.code_format(smallint, integer, text) IS
    'code_format(n::bigint, width, charset), for an exact match of smallint arguments';
COMMENT ON FUNCTION @extschema@.idseq_encode(smallint, text, integer, integer) IS
    'idseq_encode(id::bigint, charset, rotate, width), for an exact match of smallint arguments';
COMMENT ON FUNCTION @extschema@.idseq_scramble(smallint, text, integer) IS
    'idseq_scramble(id::bigint, key, bits), for an exact match of smallint arguments';
COMMENT ON FUNCTION @extschema@.idseq_unscramble(smallint, text, integer) IS
    'idseq_unscramble(id::bigint, key, bits), for an exact match of smallint arguments';
COMMENT ON FUNCTION @extschema@.snowflake_timestamp(smallint, text) IS
    'snowflake_timestamp(id::bigint, layout), for an exact match of smallint arguments';
COMMENT ON FUNCTION @extschema@.snowflake_unpack(smallint, text) IS
    'snowflake_unpack(id::bigint, layout), for an exact match of smallint arguments';
COMMENT ON FUNCTION @extschema@.lexical_add(@extschema@.lexid, text) IS
    'lexical_add(id, n::bigint), for an exact match of text arguments';
COMMENT ON OPERATOR @extschema@.+ (@extschema@.lexid, text) IS 'lexical_add: the id n places later in shortlex order';
COMMENT ON FUNCTION @extschema@.lexical_add(text, text, text, boolean) IS
    'lexical_add(source, charset, n::bigint, ignore_case), for an exact match of text arguments';
COMMENT ON FUNCTION @extschema@.code_format(text, integer, text) IS
    'code_format(n::bigint, width, charset), for an exact match of text arguments';
COMMENT ON FUNCTION @extschema@.idseq_encode(text, text, integer, integer) IS
    'idseq_encode(id::bigint, charset, rotate, width), for an exact match of text arguments';
COMMENT ON FUNCTION @extschema@.idseq_scramble(text, text, integer) IS
    'idseq_scramble(id::bigint, key, bits), for an exact match of text arguments';
COMMENT ON FUNCTION @extschema@.idseq_unscramble(text, text, integer) IS
    'idseq_unscramble(id::bigint, key, bits), for an exact match of text arguments';
COMMENT ON FUNCTION @extschema@.snowflake_timestamp(text, text) IS
    'snowflake_timestamp(id::bigint, layout), for an exact match of text arguments';
COMMENT ON FUNCTION @extschema@.snowflake_unpack(text, text) IS
    'snowflake_unpack(id::bigint, layout), for an exact match of text arguments';
COMMENT ON FUNCTION @extschema@.lexid_from_rank(bigint, text) IS
    'lexid_from_rank(rank::numeric, charset), for an exact match of bigint arguments';
COMMENT ON FUNCTION @extschema@.lexid_from_rank(integer, text) IS
    'lexid_from_rank(rank::numeric, charset), for an exact match of integer arguments';
COMMENT ON FUNCTION @extschema@.lexid_from_rank(smallint, text) IS
    'lexid_from_rank(rank::numeric, charset), for an exact match of smallint arguments';
COMMENT ON FUNCTION @extschema@.lexid_from_rank(text, text) IS
    'lexid_from_rank(rank::numeric, charset), for an exact match of text arguments';
-- ===== privileges: what roles other than the extension's owner may do (issue 12) =====
-- Everyone reads every catalog view. The database's owner (the predefined role
-- pg_database_owner) may also add charsets and layouts and set the generators' high-water
-- marks, which is what restoring a dump into a database it owns takes
-- (pg_restore --no-owner after an administrator ran CREATE EXTENSION): pg_dump writes the
-- registries' rows as COPY and the marks as setval(). Rows stay final and validated for
-- everyone: CHECK constraints validate each definition, the dedup trigger refuses a
-- conflicting charset, the final triggers refuse UPDATE, DELETE and TRUNCATE, and the
-- triggers below refuse a layout whose state sequences are not its own. Other roles only
-- read. This file is also the 1.1 -> 1.2 upgrade fragment
-- (src/sql/upgrade/1.1--1.2/90_privileges.sql is a link to it).

GRANT SELECT ON @extschema@.snowflake_layouts TO PUBLIC;
GRANT INSERT ON @extschema@.idseq_charset_registry TO pg_database_owner;
GRANT INSERT ON @extschema@.idseq_layout_registry TO pg_database_owner;
GRANT SELECT, UPDATE ON SEQUENCE @extschema@.idseq_sf_state_snowflake, @extschema@.idseq_sf_state_instagram,
    @extschema@.idseq_sf_state_sonyflake, @extschema@.idseq_sf_state_display60,
    @extschema@.idseq_sf_state_nonsequential TO pg_database_owner;

-- A layout row names its two state sequences, which the generator writes without an ACL
-- check (as their owner): a row may only name sequences that are its own. An AFTER trigger,
-- so that the CHECK constraint has validated the definition first; it runs as the inserting
-- role, and before the adopting trigger below (triggers of one event fire in name order): the sequences must be unused idseq_sf_state_* (logged) and idseq_sf_last_*
-- (unlogged) sequences in the extension's schema, owned by the registry's owner (as
-- snowflake_create_layout makes them) or by the inserting role itself (as a restore by the
-- database owner creates them).
CREATE FUNCTION @extschema@.idseq_layout_registry_sequences() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    reg pg_catalog.regclass := '@extschema@.idseq_layout_registry';
    reg_class record;
    s record;
BEGIN
    SELECT c.relowner, c.relnamespace INTO reg_class FROM pg_class c WHERE c.oid = reg;
    FOR s IN
        SELECT k.role, k.seq, k.persistence, c.relname, c.relkind, c.relnamespace, c.relpersistence, c.relowner
          FROM (VALUES ('state', NEW.state_seq::oid, 'p'), ('last', NEW.last_id_seq::oid, 'u'))
                 AS k(role, seq, persistence)
          LEFT JOIN pg_class c ON c.oid = k.seq
    LOOP
        IF s.relkind IS DISTINCT FROM 'S' OR s.relnamespace <> reg_class.relnamespace
           OR s.relname NOT LIKE 'idseq\_sf\_' || s.role || '\_%' OR s.relpersistence <> s.persistence
           OR EXISTS (SELECT 1 FROM pg_depend d
                       WHERE d.classid = 'pg_class'::regclass AND d.objid = s.seq AND d.deptype = 'e')
           OR EXISTS (SELECT 1 FROM @extschema@.idseq_layout_registry r
                       WHERE r.name <> NEW.name AND s.seq IN (r.state_seq::oid, r.last_id_seq::oid)) THEN
            RAISE EXCEPTION 'sequence % cannot hold the % of snowflake layout "%"',
                            coalesce(s.seq::regclass::text, 'NULL'),
                            CASE s.role WHEN 'state' THEN 'high-water mark' ELSE 'last id' END, NEW.name
                USING ERRCODE = 'invalid_parameter_value',
                      DETAIL = pg_catalog.format('A layout needs an unused %s sequence named idseq_sf_%s_... in schema %s.',
                                                 CASE s.role WHEN 'state' THEN 'logged' ELSE 'unlogged' END,
                                                 s.role, reg_class.relnamespace::regnamespace),
                      HINT = 'Create layouts with snowflake_create_layout().';
        END IF;
        IF s.relowner <> reg_class.relowner AND NOT pg_has_role(s.relowner, 'USAGE') THEN
            RAISE EXCEPTION 'must be owner of sequence %', s.seq::regclass
                USING ERRCODE = 'insufficient_privilege',
                      DETAIL = pg_catalog.format('Snowflake layout "%s" would write it.', NEW.name);
        END IF;
    END LOOP;
    RETURN NULL;
END $$;
CREATE TRIGGER idseq_layout_registry_1_check AFTER INSERT ON @extschema@.idseq_layout_registry
    FOR EACH ROW EXECUTE FUNCTION @extschema@.idseq_layout_registry_sequences();

-- Then the registry adopts them, as snowflake_create_layout leaves them: owned by the
-- registry's owner, dropped with it (OWNED BY), readable and settable (for pg_dump and
-- pg_restore) by the database owner, and gives the layout its guard, which only the
-- extension's owner writes (a lowered state sequence changes nothing: 42_snowflake_guard.sql).
-- SECURITY DEFINER, because the inserting role cannot
-- give its sequences to the registry's owner; nobody may call it or attach it to a trigger
-- of their own (no EXECUTE), and it acts only on rows the trigger above accepted.
CREATE FUNCTION @extschema@.idseq_layout_registry_adopt() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    reg pg_catalog.regclass := '@extschema@.idseq_layout_registry';
    reg_owner oid;
    seq pg_catalog.regclass;
BEGIN
    IF TG_RELID <> reg OR TG_WHEN <> 'AFTER' OR TG_OP <> 'INSERT' OR TG_LEVEL <> 'ROW' THEN
        RAISE EXCEPTION 'idseq_layout_registry_adopt() is a trigger of % only', reg;
    END IF;
    SELECT c.relowner INTO reg_owner FROM pg_class c WHERE c.oid = reg;
    FOREACH seq IN ARRAY ARRAY[NEW.state_seq, NEW.last_id_seq] LOOP
        IF (SELECT c.relowner FROM pg_class c WHERE c.oid = seq) <> reg_owner THEN
            EXECUTE pg_catalog.format('ALTER SEQUENCE %s OWNER TO %I', seq, pg_get_userbyid(reg_owner));
        END IF;
        IF NOT EXISTS (SELECT 1 FROM pg_depend d
                        WHERE d.classid = 'pg_class'::regclass AND d.objid = seq AND d.deptype = 'a'
                          AND d.refclassid = 'pg_class'::regclass AND d.refobjid = reg) THEN
            EXECUTE pg_catalog.format('ALTER SEQUENCE %s OWNED BY %s.name', seq, reg);
        END IF;
        EXECUTE pg_catalog.format('GRANT SELECT, UPDATE ON SEQUENCE %s TO pg_database_owner', seq);
    END LOOP;
    -- and its guard, the mark nobody else writes (42_snowflake_guard.sql)
    PERFORM @extschema@.idseq_layout_guard(NEW.state_seq);
    RETURN NULL;
END $$;
REVOKE ALL ON FUNCTION @extschema@.idseq_layout_registry_adopt() FROM PUBLIC;
CREATE TRIGGER idseq_layout_registry_2_adopt AFTER INSERT ON @extschema@.idseq_layout_registry
    FOR EACH ROW EXECUTE FUNCTION @extschema@.idseq_layout_registry_adopt();

-- Layouts created before these privileges (an update from 1.1): the same grants.
DO $$
DECLARE
    seq pg_catalog.regclass;
BEGIN
    FOR seq IN SELECT s FROM @extschema@.idseq_layout_registry r, LATERAL (VALUES (r.state_seq), (r.last_id_seq)) v(s)
    LOOP
        EXECUTE pg_catalog.format('GRANT SELECT, UPDATE ON SEQUENCE %s TO pg_database_owner', seq);
    END LOOP;
END $$;
-- ===== descriptions (\dT+, \df+, \do+, \dv+, \dC+ and obj_description show them) =====
-- Every user-facing object has a description; sql/92_comments.sql lists any that lacks one
-- and states which internal objects are exempt. The same file is the 1.1 -> 1.2 upgrade
-- fragment (src/sql/upgrade/1.1--1.2/95_comments.sql is a link to it), so it may only
-- comment objects that both the fresh install and the upgrade have created before it.

-- charsets
COMMENT ON FUNCTION @extschema@.idseq_create_charset(text, text, boolean) IS
    'registers a custom charset: 2 to 256 distinct printable symbols, final once created';
COMMENT ON FUNCTION @extschema@.idseq_builtin_charsets() IS
    'the built-in charsets with their symbols in digit order';
COMMENT ON VIEW @extschema@.idseq_charsets IS
    'every charset, built-in and custom: name, symbols, base, case_insensitive, builtin';

-- the lexid type: casts and their functions
COMMENT ON CAST (@extschema@.lexid AS @extschema@.lexid) IS
    'applies a lexid(charset) type modifier: checks the value''s charset';
COMMENT ON CAST (text AS @extschema@.lexid) IS
    'reads text in the charset of the target type modifier (base36 without one)';
COMMENT ON CAST (@extschema@.lexid AS text) IS 'the symbols of a lexid';
COMMENT ON FUNCTION @extschema@.lexid(@extschema@.lexid, integer, boolean) IS
    'applies a lexid(charset) type modifier (the lexid -> lexid cast)';
COMMENT ON FUNCTION @extschema@.lexid(text, integer, boolean) IS
    'reads text as a lexid in the charset of a type modifier (the text -> lexid cast)';
COMMENT ON FUNCTION @extschema@.text(@extschema@.lexid) IS 'the symbols of a lexid (the lexid -> text cast)';

-- the lexid type: comparison, operator classes, aggregates
COMMENT ON FUNCTION @extschema@.lexid_eq(@extschema@.lexid, @extschema@.lexid) IS 'implementation of = operator';
COMMENT ON FUNCTION @extschema@.lexid_ne(@extschema@.lexid, @extschema@.lexid) IS 'implementation of <> operator';
COMMENT ON FUNCTION @extschema@.lexid_lt(@extschema@.lexid, @extschema@.lexid) IS 'implementation of < operator';
COMMENT ON FUNCTION @extschema@.lexid_le(@extschema@.lexid, @extschema@.lexid) IS 'implementation of <= operator';
COMMENT ON FUNCTION @extschema@.lexid_gt(@extschema@.lexid, @extschema@.lexid) IS 'implementation of > operator';
COMMENT ON FUNCTION @extschema@.lexid_ge(@extschema@.lexid, @extschema@.lexid) IS 'implementation of >= operator';
COMMENT ON FUNCTION @extschema@.lexid_cmp(@extschema@.lexid, @extschema@.lexid) IS
    'shortlex comparison: -1, 0 or 1 (btree support)';
COMMENT ON FUNCTION @extschema@.lexid_hash(@extschema@.lexid) IS 'hash of a lexid (hash index support)';
COMMENT ON FUNCTION @extschema@.lexid_hash_extended(@extschema@.lexid, bigint) IS
    'seeded 64-bit hash of a lexid (hash partitioning support)';
COMMENT ON FUNCTION @extschema@.lexid_larger(@extschema@.lexid, @extschema@.lexid) IS 'larger of two lexids';
COMMENT ON FUNCTION @extschema@.lexid_smaller(@extschema@.lexid, @extschema@.lexid) IS 'smaller of two lexids';
COMMENT ON OPERATOR @extschema@.= (@extschema@.lexid, @extschema@.lexid) IS 'equal';
COMMENT ON OPERATOR @extschema@.<> (@extschema@.lexid, @extschema@.lexid) IS 'not equal';
COMMENT ON OPERATOR @extschema@.< (@extschema@.lexid, @extschema@.lexid) IS 'less than, in shortlex order';
COMMENT ON OPERATOR @extschema@.<= (@extschema@.lexid, @extschema@.lexid) IS 'less than or equal, in shortlex order';
COMMENT ON OPERATOR @extschema@.> (@extschema@.lexid, @extschema@.lexid) IS 'greater than, in shortlex order';
COMMENT ON OPERATOR @extschema@.>= (@extschema@.lexid, @extschema@.lexid) IS 'greater than or equal, in shortlex order';
COMMENT ON OPERATOR CLASS @extschema@.lexid_ops USING btree IS 'shortlex order of lexid (the default)';
COMMENT ON OPERATOR CLASS @extschema@.lexid_hash_ops USING hash IS 'hashing of lexid (the default)';
COMMENT ON AGGREGATE @extschema@.min(@extschema@.lexid) IS 'minimum lexid in shortlex order';
COMMENT ON AGGREGATE @extschema@.max(@extschema@.lexid) IS 'maximum lexid in shortlex order';

-- the lexid type: arithmetic and ranks
COMMENT ON FUNCTION @extschema@.lexical_add(@extschema@.lexid, bigint) IS
    'id + n in shortlex order (n may be negative); the length grows as needed';
COMMENT ON FUNCTION @extschema@.lexid_sub_int8(@extschema@.lexid, bigint) IS 'implementation of lexid - bigint operator';
COMMENT ON FUNCTION @extschema@.lexid_distance(@extschema@.lexid, @extschema@.lexid) IS
    'implementation of lexid - lexid operator';
COMMENT ON OPERATOR @extschema@.+ (@extschema@.lexid, bigint) IS 'lexical_add: the id n places later in shortlex order';
COMMENT ON OPERATOR @extschema@.- (@extschema@.lexid, bigint) IS 'the id n places earlier in shortlex order';
COMMENT ON OPERATOR @extschema@.- (@extschema@.lexid, @extschema@.lexid) IS
    'distance in shortlex order (numeric; same charset)';
COMMENT ON FUNCTION @extschema@.lexical_add(text, text, bigint, boolean) IS
    'source + n in shortlex order over a charset, on plain text (the empty string is the zero)';
COMMENT ON FUNCTION @extschema@.lexid_rank(@extschema@.lexid) IS
    '1-based shortlex rank of a lexid within its charset';
COMMENT ON FUNCTION @extschema@.lexid_from_rank(numeric, text) IS 'inverse of lexid_rank: the lexid of a rank';
COMMENT ON FUNCTION @extschema@.lexid_charset(@extschema@.lexid) IS 'name of the charset of a lexid';

-- lexid compared with text (read in the lexid's charset, never text order)
COMMENT ON FUNCTION @extschema@.lexid_eq_text(@extschema@.lexid, text) IS 'implementation of lexid = text operator';
COMMENT ON FUNCTION @extschema@.lexid_ne_text(@extschema@.lexid, text) IS 'implementation of lexid <> text operator';
COMMENT ON FUNCTION @extschema@.lexid_lt_text(@extschema@.lexid, text) IS 'implementation of lexid < text operator';
COMMENT ON FUNCTION @extschema@.lexid_le_text(@extschema@.lexid, text) IS 'implementation of lexid <= text operator';
COMMENT ON FUNCTION @extschema@.lexid_gt_text(@extschema@.lexid, text) IS 'implementation of lexid > text operator';
COMMENT ON FUNCTION @extschema@.lexid_ge_text(@extschema@.lexid, text) IS 'implementation of lexid >= text operator';
COMMENT ON FUNCTION @extschema@.text_eq_lexid(text, @extschema@.lexid) IS 'implementation of text = lexid operator';
COMMENT ON FUNCTION @extschema@.text_ne_lexid(text, @extschema@.lexid) IS 'implementation of text <> lexid operator';
COMMENT ON FUNCTION @extschema@.text_lt_lexid(text, @extschema@.lexid) IS 'implementation of text < lexid operator';
COMMENT ON FUNCTION @extschema@.text_le_lexid(text, @extschema@.lexid) IS 'implementation of text <= lexid operator';
COMMENT ON FUNCTION @extschema@.text_gt_lexid(text, @extschema@.lexid) IS 'implementation of text > lexid operator';
COMMENT ON FUNCTION @extschema@.text_ge_lexid(text, @extschema@.lexid) IS 'implementation of text >= lexid operator';
COMMENT ON OPERATOR @extschema@.= (@extschema@.lexid, text) IS 'equal; the text is read in the lexid''s charset';
COMMENT ON OPERATOR @extschema@.<> (@extschema@.lexid, text) IS 'not equal; the text is read in the lexid''s charset';
COMMENT ON OPERATOR @extschema@.< (@extschema@.lexid, text) IS 'less than in shortlex order; the text is read in the lexid''s charset';
COMMENT ON OPERATOR @extschema@.<= (@extschema@.lexid, text) IS 'less than or equal in shortlex order; the text is read in the lexid''s charset';
COMMENT ON OPERATOR @extschema@.> (@extschema@.lexid, text) IS 'greater than in shortlex order; the text is read in the lexid''s charset';
COMMENT ON OPERATOR @extschema@.>= (@extschema@.lexid, text) IS 'greater than or equal in shortlex order; the text is read in the lexid''s charset';
COMMENT ON OPERATOR @extschema@.= (text, @extschema@.lexid) IS 'equal; the text is read in the lexid''s charset';
COMMENT ON OPERATOR @extschema@.<> (text, @extschema@.lexid) IS 'not equal; the text is read in the lexid''s charset';
COMMENT ON OPERATOR @extschema@.< (text, @extschema@.lexid) IS 'less than in shortlex order; the text is read in the lexid''s charset';
COMMENT ON OPERATOR @extschema@.<= (text, @extschema@.lexid) IS 'less than or equal in shortlex order; the text is read in the lexid''s charset';
COMMENT ON OPERATOR @extschema@.> (text, @extschema@.lexid) IS 'greater than in shortlex order; the text is read in the lexid''s charset';
COMMENT ON OPERATOR @extschema@.>= (text, @extschema@.lexid) IS 'greater than or equal in shortlex order; the text is read in the lexid''s charset';

-- snowflake ids
COMMENT ON FUNCTION @extschema@.snowflake_create_layout(text, timestamptz, text, interval) IS
    'registers a custom snowflake layout: fields like ''time:41,node:10,seq:12'', final once created';
COMMENT ON FUNCTION @extschema@.idseq_snowflake_builtin_layouts() IS
    'the built-in snowflake layouts: name, epoch, fields, time unit';
COMMENT ON FUNCTION @extschema@.idseq_snowflake_describe(timestamptz, text, interval) IS
    'bit widths of a layout''s fields and the last time it can represent';
COMMENT ON VIEW @extschema@.snowflake_layouts IS
    'every snowflake layout, built-in and custom, with its field widths and last representable time';
COMMENT ON FUNCTION @extschema@.snowflake_pack(text, timestamptz, integer, integer, integer) IS
    'the id of a layout with the given time and fields';
COMMENT ON FUNCTION @extschema@.snowflake_unpack(bigint, text) IS
    'the time and fields of a snowflake id (inverse of snowflake_pack)';
COMMENT ON FUNCTION @extschema@.snowflake_timestamp(bigint, text) IS 'the time embedded in a snowflake id';
COMMENT ON FUNCTION @extschema@.snowflake_min_id(timestamptz, text) IS
    'the smallest id of the time unit of ts, for range scans and partition bounds';
COMMENT ON FUNCTION @extschema@.snowflake_nextval(text) IS
    'a new snowflake id of this node (idseq.node_id): unique and increasing per layout and server';
COMMENT ON EVENT TRIGGER idseq_lexid_column_guard IS
    'refuses stored lexid columns, domains and range types without a charset (declare lexid(base36) or the charset meant)';
COMMENT ON EVENT TRIGGER idseq_lexid_seed_guard IS
    'before ALTER TABLE ... ADD COLUMN fills the rows already there, reads an untyped nextval_lexid seed of the default in the column''s charset';
COMMENT ON EVENT TRIGGER idseq_lexid_seed_guard IS
    'before ALTER TABLE ... ADD COLUMN fills the rows already there, reads an untyped nextval_lexid seed of the default in the column''s charset';
COMMENT ON EVENT TRIGGER idseq_sequence_step_guard IS
    'before ALTER SEQUENCE makes INCREMENT smaller, moves the sequence on so that the next lexid_block starts after the last';
COMMENT ON EVENT TRIGGER idseq_sequence_step_guard IS
    'before ALTER SEQUENCE makes INCREMENT smaller, moves the sequence on so that the next lexid_block starts after the last';
COMMENT ON FUNCTION @extschema@.idseq_snowflake_check_new(text, timestamptz, text, interval) IS
    'internal: checks a new layout definition and its field order (ids must increase per node); returns the canonical field list';
COMMENT ON FUNCTION @extschema@.idseq_layout_guard(regclass) IS
    'internal: the guard of a snowflake layout''s state sequence, the high-water mark only the extension writes (created when missing)';
