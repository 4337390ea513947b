-- ===== generators on native sequences =====
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

-- charset null (the default): the one create_code_sequence recorded for seq, else upper
CREATE FUNCTION @extschema@.nextval_code(seq regclass, charset text DEFAULT NULL) RETURNS text
    AS 'MODULE_PATHNAME', 'nextval_code' LANGUAGE C VOLATILE CALLED ON NULL INPUT PARALLEL UNSAFE;
COMMENT ON FUNCTION @extschema@.nextval_code(regclass, text) IS
    'next code of a cycling sequence: AAA, AAB, ..., ZZZ, AAA, ...';

