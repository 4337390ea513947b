-- ===== generators on native sequences =====
-- Each generator takes exactly one nextval() per call, so it is crash-safe, WAL-logged,
-- replicated, non-blocking and gap-allowing like the sequence itself. They are VOLATILE
-- and PARALLEL UNSAFE because nextval is. STRICT: a NULL argument gives NULL, as nextval.

--@ comment: seed + (nextval(seq) - start value of seq)
--@ labels: VOLATILE PARALLEL UNSAFE STRICT because generator: draws from a sequence
CREATE FUNCTION @extschema@.nextval_lexid(seq regclass, seed @extschema@.lexid) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME', 'nextval_lexid' LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

--@ comment: reserves increment_by consecutive ids with one nextval
--@ labels: VOLATILE PARALLEL UNSAFE STRICT because generator: draws a block from a sequence
CREATE FUNCTION @extschema@.lexid_block(seq regclass, seed @extschema@.lexid)
    RETURNS TABLE (first_id @extschema@.lexid, last_id @extschema@.lexid)
    AS 'MODULE_PATHNAME', 'lexid_block' LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE ROWS 1;

-- Pure functions of their arguments. A charset name always means the same symbols
-- (built-in charsets are fixed; custom ones cannot be redefined), so these are IMMUTABLE,
-- like lexical_add(text, charset, ...).
--@ comment: fixed-width positional code of n: 0 -> AAA, 17575 -> ZZZ for width 3
CREATE FUNCTION @extschema@.code_format(n bigint, width integer, charset text DEFAULT 'upper') RETURNS text
    AS 'MODULE_PATHNAME', 'code_format' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

--@ comment: inverse of code_format
CREATE FUNCTION @extschema@.code_parse(code text, charset text DEFAULT 'upper') RETURNS bigint
    AS 'MODULE_PATHNAME', 'code_parse' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

--@ comment: CREATE SEQUENCE seq_name MINVALUE 0 MAXVALUE base^width - 1 START 0 CYCLE
--@ labels: VOLATILE PARALLEL UNSAFE STRICT because generator: creates a sequence
CREATE FUNCTION @extschema@.create_code_sequence(seq_name text, width integer DEFAULT 3, charset text DEFAULT 'upper')
    RETURNS regclass
    AS 'MODULE_PATHNAME', 'create_code_sequence' LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;

-- charset null (the default): the one create_code_sequence recorded for seq, else upper
--@ comment: next code of a cycling sequence: AAA, AAB, ..., ZZZ, AAA, ...
--@ labels: VOLATILE PARALLEL UNSAFE NOT STRICT because generator: draws from a sequence; a NULL
--@   charset means the sequence's own
CREATE FUNCTION @extschema@.nextval_code(seq regclass, charset text DEFAULT NULL) RETURNS text
    AS 'MODULE_PATHNAME', 'nextval_code' LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;

