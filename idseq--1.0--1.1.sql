-- idseq 1.0 -> 1.1 (released: frozen, never edit).

\echo Use "ALTER EXTENSION idseq UPDATE TO '1.1'" to load this file. \quit

-- ===== lexid: changes since 1.0 =====
-- Comparison and hash functions raise errors that name their inputs (values of two
-- charsets), so by PostgreSQL's definition they are not leakproof.
ALTER FUNCTION @extschema@.lexid_eq(@extschema@.lexid, @extschema@.lexid) NOT LEAKPROOF;
ALTER FUNCTION @extschema@.lexid_ne(@extschema@.lexid, @extschema@.lexid) NOT LEAKPROOF;
ALTER FUNCTION @extschema@.lexid_lt(@extschema@.lexid, @extschema@.lexid) NOT LEAKPROOF;
ALTER FUNCTION @extschema@.lexid_le(@extschema@.lexid, @extschema@.lexid) NOT LEAKPROOF;
ALTER FUNCTION @extschema@.lexid_gt(@extschema@.lexid, @extschema@.lexid) NOT LEAKPROOF;
ALTER FUNCTION @extschema@.lexid_ge(@extschema@.lexid, @extschema@.lexid) NOT LEAKPROOF;
ALTER FUNCTION @extschema@.lexid_cmp(@extschema@.lexid, @extschema@.lexid) NOT LEAKPROOF;
ALTER FUNCTION @extschema@.lexid_hash(@extschema@.lexid) NOT LEAKPROOF;
ALTER FUNCTION @extschema@.lexid_hash_extended(@extschema@.lexid, bigint) NOT LEAKPROOF;
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
-- ===== lexid compared with text (since 1.1) =====
-- lexid compared with text: the text is read in the lexid's charset and the comparison is
-- shortlex (repeat('Z', 40)::lexid + 1 = repeat('0', 41) is true); there is no implicit
-- cast, so nothing ever compares in text order.
CREATE FUNCTION @extschema@.lexid_eq_text(@extschema@.lexid, text) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.text_eq_lexid(text, @extschema@.lexid) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.lexid_ne_text(@extschema@.lexid, text) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.text_ne_lexid(text, @extschema@.lexid) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.lexid_lt_text(@extschema@.lexid, text) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.text_lt_lexid(text, @extschema@.lexid) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.lexid_le_text(@extschema@.lexid, text) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.text_le_lexid(text, @extschema@.lexid) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.lexid_gt_text(@extschema@.lexid, text) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.text_gt_lexid(text, @extschema@.lexid) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.lexid_ge_text(@extschema@.lexid, text) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.text_ge_lexid(text, @extschema@.lexid) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OPERATOR @extschema@.= (
    LEFTARG = @extschema@.lexid, RIGHTARG = text, PROCEDURE = @extschema@.lexid_eq_text,
    COMMUTATOR = OPERATOR(@extschema@.=), NEGATOR = OPERATOR(@extschema@.<>), RESTRICT = eqsel, JOIN = eqjoinsel);
CREATE OPERATOR @extschema@.= (
    LEFTARG = text, RIGHTARG = @extschema@.lexid, PROCEDURE = @extschema@.text_eq_lexid,
    COMMUTATOR = OPERATOR(@extschema@.=), NEGATOR = OPERATOR(@extschema@.<>), RESTRICT = eqsel, JOIN = eqjoinsel);
CREATE OPERATOR @extschema@.<> (
    LEFTARG = @extschema@.lexid, RIGHTARG = text, PROCEDURE = @extschema@.lexid_ne_text,
    COMMUTATOR = OPERATOR(@extschema@.<>), NEGATOR = OPERATOR(@extschema@.=), RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR @extschema@.<> (
    LEFTARG = text, RIGHTARG = @extschema@.lexid, PROCEDURE = @extschema@.text_ne_lexid,
    COMMUTATOR = OPERATOR(@extschema@.<>), NEGATOR = OPERATOR(@extschema@.=), RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR @extschema@.< (
    LEFTARG = @extschema@.lexid, RIGHTARG = text, PROCEDURE = @extschema@.lexid_lt_text,
    COMMUTATOR = OPERATOR(@extschema@.>), NEGATOR = OPERATOR(@extschema@.>=), RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR @extschema@.< (
    LEFTARG = text, RIGHTARG = @extschema@.lexid, PROCEDURE = @extschema@.text_lt_lexid,
    COMMUTATOR = OPERATOR(@extschema@.>), NEGATOR = OPERATOR(@extschema@.>=), RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR @extschema@.<= (
    LEFTARG = @extschema@.lexid, RIGHTARG = text, PROCEDURE = @extschema@.lexid_le_text,
    COMMUTATOR = OPERATOR(@extschema@.>=), NEGATOR = OPERATOR(@extschema@.>), RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR @extschema@.<= (
    LEFTARG = text, RIGHTARG = @extschema@.lexid, PROCEDURE = @extschema@.text_le_lexid,
    COMMUTATOR = OPERATOR(@extschema@.>=), NEGATOR = OPERATOR(@extschema@.>), RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR @extschema@.> (
    LEFTARG = @extschema@.lexid, RIGHTARG = text, PROCEDURE = @extschema@.lexid_gt_text,
    COMMUTATOR = OPERATOR(@extschema@.<), NEGATOR = OPERATOR(@extschema@.<=), RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR @extschema@.> (
    LEFTARG = text, RIGHTARG = @extschema@.lexid, PROCEDURE = @extschema@.text_gt_lexid,
    COMMUTATOR = OPERATOR(@extschema@.<), NEGATOR = OPERATOR(@extschema@.<=), RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR @extschema@.>= (
    LEFTARG = @extschema@.lexid, RIGHTARG = text, PROCEDURE = @extschema@.lexid_ge_text,
    COMMUTATOR = OPERATOR(@extschema@.<=), NEGATOR = OPERATOR(@extschema@.<), RESTRICT = scalargesel, JOIN = scalargejoinsel);
CREATE OPERATOR @extschema@.>= (
    LEFTARG = text, RIGHTARG = @extschema@.lexid, PROCEDURE = @extschema@.text_ge_lexid,
    COMMUTATOR = OPERATOR(@extschema@.<=), NEGATOR = OPERATOR(@extschema@.<), RESTRICT = scalargesel, JOIN = scalargejoinsel);
-- ===== generators on native sequences (API.md section 3) =====
-- Each generator takes exactly one nextval() per call, so it is crash-safe, WAL-logged,
-- replicated, non-blocking and gap-allowing like the sequence itself. They are VOLATILE
-- and PARALLEL UNSAFE because nextval is. STRICT: a NULL argument gives NULL, as nextval.

CREATE FUNCTION @extschema@.nextval_lexid(seq regclass, seed @extschema@.lexid) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME', 'nextval_lexid' LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION @extschema@.nextval_lexid(regclass, @extschema@.lexid) IS
    'seed + (nextval(seq) - start value of seq)';

CREATE FUNCTION @extschema@.lexid_block(seq regclass, seed @extschema@.lexid)
    RETURNS TABLE (first_id @extschema@.lexid, last_id @extschema@.lexid)
    AS 'MODULE_PATHNAME', 'lexid_block' LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE ROWS 1;
COMMENT ON FUNCTION @extschema@.lexid_block(regclass, @extschema@.lexid) IS
    'reserves increment_by consecutive ids with one nextval';

-- Pure functions of their arguments. A charset name always means the same symbols
-- (built-in charsets are fixed; custom ones cannot be redefined), so these are IMMUTABLE,
-- like lexical_add(text, charset, ...).
CREATE FUNCTION @extschema@.code_format(n bigint, width integer, charset text DEFAULT 'upper') RETURNS text
    AS 'MODULE_PATHNAME', 'code_format' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.code_format(bigint, integer, text) IS
    'fixed-width positional code of n: 0 -> AAA, 17575 -> ZZZ for width 3';

CREATE FUNCTION @extschema@.code_parse(code text, charset text DEFAULT 'upper') RETURNS bigint
    AS 'MODULE_PATHNAME', 'code_parse' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.code_parse(text, text) IS 'inverse of code_format';

CREATE FUNCTION @extschema@.create_code_sequence(seq_name text, width integer DEFAULT 3, charset text DEFAULT 'upper')
    RETURNS regclass
    AS 'MODULE_PATHNAME', 'create_code_sequence' LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION @extschema@.create_code_sequence(text, integer, text) IS
    'CREATE SEQUENCE seq_name MINVALUE 0 MAXVALUE base^width - 1 START 0 CYCLE';

CREATE FUNCTION @extschema@.nextval_code(seq regclass, charset text DEFAULT 'upper') RETURNS text
    AS 'MODULE_PATHNAME', 'nextval_code' LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION @extschema@.nextval_code(regclass, text) IS
    'next code of a cycling sequence: AAA, AAB, ..., ZZZ, AAA, ...';

-- ===== snowflake ids (API.md section 4) =====

-- Validates a layout definition and returns its canonical field list; raises the error a bad
-- definition deserves (22023, or 42710 for a built-in name). Also the registry's CHECK.
CREATE FUNCTION @extschema@.idseq_snowflake_check(name text, epoch timestamptz, fields text, time_unit interval)
    RETURNS text AS 'MODULE_PATHNAME', 'idseq_snowflake_check' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- Custom layouts. Each has two sequences of its own, created by snowflake_create_layout:
-- state_seq, the durable high-water mark (a time unit; WAL-logged, so crash recovery and
-- standbys inherit it), and last_id_seq (unlogged), the last id the generator issued while
-- running without shared memory. See src/pg/snowflake.cpp.
CREATE TABLE @extschema@.idseq_layout_registry (
    name text PRIMARY KEY,
    epoch timestamptz NOT NULL,
    fields text NOT NULL,
    time_unit interval NOT NULL,
    state_seq regclass NOT NULL,
    last_id_seq regclass NOT NULL,
    CONSTRAINT idseq_layout_registry_valid
        CHECK (@extschema@.idseq_snowflake_check(name, epoch, fields, time_unit) = fields)
);
COMMENT ON TABLE @extschema@.idseq_layout_registry IS
    'custom snowflake layouts of idseq; add rows with snowflake_create_layout()';
SELECT pg_catalog.pg_extension_config_dump('@extschema@.idseq_layout_registry', '');
-- Layout definitions are not secret, and every user of snowflake_pack() reads them.
GRANT SELECT ON @extschema@.idseq_layout_registry TO PUBLIC;
-- Stored ids, IMMUTABLE functions and the generators' state rely on a layout never changing.
CREATE TRIGGER idseq_layout_registry_final BEFORE UPDATE OR DELETE OR TRUNCATE
    ON @extschema@.idseq_layout_registry
    FOR EACH STATEMENT EXECUTE FUNCTION @extschema@.idseq_registry_final();

-- The built-in layouts' state: the high-water marks are dumped (a restored database goes on
-- above them); the last-id sequences are volatile by design.
CREATE SEQUENCE @extschema@.idseq_sf_state_snowflake MINVALUE -1 START -1;
CREATE SEQUENCE @extschema@.idseq_sf_state_instagram MINVALUE -1 START -1;
CREATE SEQUENCE @extschema@.idseq_sf_state_sonyflake MINVALUE -1 START -1;
CREATE SEQUENCE @extschema@.idseq_sf_state_display60 MINVALUE -1 START -1;
CREATE SEQUENCE @extschema@.idseq_sf_state_nonsequential MINVALUE -1 START -1;
SELECT pg_catalog.pg_extension_config_dump('@extschema@.idseq_sf_state_snowflake', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.idseq_sf_state_instagram', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.idseq_sf_state_sonyflake', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.idseq_sf_state_display60', '');
SELECT pg_catalog.pg_extension_config_dump('@extschema@.idseq_sf_state_nonsequential', '');
CREATE UNLOGGED SEQUENCE @extschema@.idseq_sf_last_snowflake MINVALUE -1 START -1;
CREATE UNLOGGED SEQUENCE @extschema@.idseq_sf_last_instagram MINVALUE -1 START -1;
CREATE UNLOGGED SEQUENCE @extschema@.idseq_sf_last_sonyflake MINVALUE -1 START -1;
CREATE UNLOGGED SEQUENCE @extschema@.idseq_sf_last_display60 MINVALUE -1 START -1;
CREATE UNLOGGED SEQUENCE @extschema@.idseq_sf_last_nonsequential MINVALUE -1 START -1;

CREATE FUNCTION @extschema@.snowflake_create_layout(name text, epoch timestamptz, fields text,
                                                    time_unit interval DEFAULT '1 millisecond')
RETURNS void LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    canonical text;
    nsp text;
    base text;
    state_name text;
    last_name text;
    reg_owner text;
    old record;
BEGIN
    IF name IS NULL OR epoch IS NULL OR fields IS NULL OR time_unit IS NULL THEN
        RAISE EXCEPTION 'a snowflake layout definition cannot contain null values'
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    canonical := @extschema@.idseq_snowflake_check(name, epoch, fields, time_unit);
    -- one creator at a time, so that the duplicate check below is reliable
    LOCK TABLE @extschema@.idseq_layout_registry IN SHARE ROW EXCLUSIVE MODE;
    SELECT r.fields, r.epoch, r.time_unit INTO old
      FROM @extschema@.idseq_layout_registry r WHERE r.name = snowflake_create_layout.name;
    IF FOUND THEN
        RAISE EXCEPTION 'snowflake layout "%" already exists', name
            USING ERRCODE = 'duplicate_object',
                  DETAIL = format('Its fields are "%s", its epoch is %s and its time unit is %s.',
                                  old.fields, old.epoch, old.time_unit),
                  HINT = 'Layouts cannot be redefined; create one under another name.';
    END IF;

    SELECT n.nspname, pg_catalog.pg_get_userbyid(c.relowner) INTO nsp, reg_owner
      FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
     WHERE c.oid = '@extschema@.idseq_layout_registry'::pg_catalog.regclass;
    base := CASE WHEN length(name) <= 48 THEN name ELSE left(name, 39) || '_' || left(md5(name), 8) END;
    state_name := 'idseq_sf_state_' || base;
    last_name := 'idseq_sf_last_' || base;
    EXECUTE format('CREATE SEQUENCE %I.%I MINVALUE -1 START -1', nsp, state_name);
    EXECUTE format('CREATE UNLOGGED SEQUENCE %I.%I MINVALUE -1 START -1', nsp, last_name);
    -- The sequences go with the registry (DROP EXTENSION drops them), which needs one owner.
    IF current_user <> reg_owner THEN
        EXECUTE format('ALTER SEQUENCE %I.%I OWNER TO %I', nsp, state_name, reg_owner);
        EXECUTE format('ALTER SEQUENCE %I.%I OWNER TO %I', nsp, last_name, reg_owner);
    END IF;
    EXECUTE format('ALTER SEQUENCE %I.%I OWNED BY %I.idseq_layout_registry.name', nsp, state_name, nsp);
    EXECUTE format('ALTER SEQUENCE %I.%I OWNED BY %I.idseq_layout_registry.name', nsp, last_name, nsp);
    INSERT INTO @extschema@.idseq_layout_registry (name, epoch, fields, time_unit, state_seq, last_id_seq)
    VALUES (name, epoch, canonical, time_unit,
            format('%I.%I', nsp, state_name)::regclass, format('%I.%I', nsp, last_name)::regclass);
END $$;

CREATE FUNCTION @extschema@.idseq_snowflake_builtin_layouts(OUT name text, OUT epoch timestamptz, OUT fields text,
                                                            OUT time_unit interval)
    RETURNS SETOF record AS 'MODULE_PATHNAME', 'idseq_snowflake_builtin_layouts'
    LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.idseq_snowflake_describe(epoch timestamptz, fields text, time_unit interval,
                                                     OUT time_bits integer, OUT node_bits integer,
                                                     OUT seq_bits integer, OUT rand_bits integer,
                                                     OUT last_time timestamptz)
    RETURNS record AS 'MODULE_PATHNAME', 'idseq_snowflake_describe' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE VIEW @extschema@.snowflake_layouts AS
    SELECT l.name, l.epoch, l.fields, l.time_unit, d.time_bits, d.node_bits, d.seq_bits, d.rand_bits,
           d.last_time, l.builtin
      FROM (SELECT b.name, b.epoch, b.fields, b.time_unit, true AS builtin
              FROM @extschema@.idseq_snowflake_builtin_layouts() b
            UNION ALL
            SELECT r.name, r.epoch, r.fields, r.time_unit, false
              FROM @extschema@.idseq_layout_registry r) l,
           LATERAL @extschema@.idseq_snowflake_describe(l.epoch, l.fields, l.time_unit) d;

CREATE FUNCTION @extschema@.snowflake_pack(layout text, ts timestamptz, node integer DEFAULT 0,
                                           seq integer DEFAULT 0, rand integer DEFAULT 0)
    RETURNS bigint AS 'MODULE_PATHNAME', 'snowflake_pack' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.snowflake_unpack(id bigint, layout text DEFAULT 'snowflake')
    RETURNS TABLE(ts timestamptz, node integer, seq integer, rand integer)
    AS 'MODULE_PATHNAME', 'snowflake_unpack' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 1;
CREATE FUNCTION @extschema@.snowflake_timestamp(id bigint, layout text DEFAULT 'snowflake')
    RETURNS timestamptz AS 'MODULE_PATHNAME', 'snowflake_timestamp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.snowflake_min_id(ts timestamptz, layout text DEFAULT 'snowflake')
    RETURNS bigint AS 'MODULE_PATHNAME', 'snowflake_min_id' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- PARALLEL UNSAFE like nextval(): a call may have to move the durable high-water mark.
CREATE FUNCTION @extschema@.snowflake_nextval(layout text DEFAULT 'snowflake')
    RETURNS bigint AS 'MODULE_PATHNAME', 'snowflake_nextval' LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

-- ===== display codecs and keyed public ids (API.md section 5) =====

CREATE FUNCTION @extschema@.idseq_encode(id bigint, charset text DEFAULT 'base62', rotate integer DEFAULT 0,
                                         width integer DEFAULT 0)
    RETURNS text AS 'MODULE_PATHNAME', 'idseq_encode' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.idseq_encode(bigint, text, integer, integer) IS
    'code of a non-negative bigint in a charset: digits most significant first, left-padded to width, last rotate symbols moved to the front';

CREATE FUNCTION @extschema@.idseq_decode(code text, charset text DEFAULT 'base62', rotate integer DEFAULT 0,
                                         width integer DEFAULT 0)
    RETURNS bigint AS 'MODULE_PATHNAME', 'idseq_decode' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.idseq_decode(text, text, integer, integer) IS
    'exact inverse of idseq_encode with the same arguments; rejects non-canonical codes';

CREATE FUNCTION @extschema@.idseq_scramble(id bigint, key text, bits integer DEFAULT 63)
    RETURNS bigint AS 'MODULE_PATHNAME', 'idseq_scramble' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.idseq_scramble(bigint, text, integer) IS
    'keyed permutation of 0 .. 2^bits-1 (Feistel network over SipHash-2-4); not encryption';

CREATE FUNCTION @extschema@.idseq_unscramble(id bigint, key text, bits integer DEFAULT 63)
    RETURNS bigint AS 'MODULE_PATHNAME', 'idseq_unscramble' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.idseq_unscramble(bigint, text, integer) IS
    'inverse of idseq_scramble with the same key and bits';
