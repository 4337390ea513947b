-- ===== lexid compared with text, through the index (since 1.2) =====
-- Drivers send parameters as text (Npgsql) or varchar (JDBC; varchar is binary-coercible
-- to text, so `code = $1` resolves to lexid = text). A planner support function of the
-- (lexid, text) and (text, lexid) comparison functions (src/pg/lexid_text_index.cpp) turns
-- `code OP text` on an index column of type lexid(cs) into the equivalent
-- `code OP text::lexid(cs)`, which the btree (and, for =, the hash) operator class serves.
-- The planner calls it itself, so it needs no library loaded beforehand (unlike the
-- planner hook). Not cross-type members of lexid_ops: a family holding text must also sort
-- text arrays by a (text, text) comparison, which cannot know the column's charset.
-- lexid = text stays unhashable (no hash joins between lexid and text columns).
--@ comment: planner support: makes lexid compared with text an index condition on a lexid(charset)
--@   column
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
--@ comment: implementation of lexid ~~ text (LIKE) operator
CREATE FUNCTION @extschema@.lexid_like(@extschema@.lexid, text) RETURNS boolean
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS 'SELECT @extschema@.text($1) OPERATOR(pg_catalog.~~) $2';
--@ comment: implementation of lexid !~~ text (NOT LIKE) operator
CREATE FUNCTION @extschema@.lexid_not_like(@extschema@.lexid, text) RETURNS boolean
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS 'SELECT @extschema@.text($1) OPERATOR(pg_catalog.!~~) $2';
--@ comment: LIKE on the canonical spelling (code::text); index it with ((code::text)
--@   text_pattern_ops)
CREATE OPERATOR @extschema@.~~ (
    LEFTARG = @extschema@.lexid, RIGHTARG = text, PROCEDURE = @extschema@.lexid_like,
    NEGATOR = OPERATOR(@extschema@.!~~), RESTRICT = likesel, JOIN = likejoinsel);
--@ comment: NOT LIKE on the canonical spelling (code::text)
CREATE OPERATOR @extschema@.!~~ (
    LEFTARG = @extschema@.lexid, RIGHTARG = text, PROCEDURE = @extschema@.lexid_not_like,
    NEGATOR = OPERATOR(@extschema@.~~), RESTRICT = nlikesel, JOIN = nlikejoinsel);
