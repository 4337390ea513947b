-- idseq 1.0 -> 1.1. The Makefile appends the fragments of what 1.1 adds (src/sql/30_*,
-- 40_*, 50_*) to this file to make idseq--1.0--1.1.sql. Releasing 1.2 means: freeze
-- idseq--1.1.sql and idseq--1.0--1.1.sql as files, and start 1.1--1.2 here.

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
