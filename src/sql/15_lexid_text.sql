-- ===== lexid compared with text (since 1.1) =====
-- lexid compared with text: the text is read in the lexid's charset and the comparison is
-- shortlex (repeat('Z', 40)::lexid + 1 = repeat('0', 41) is true); there is no implicit
-- cast, so nothing ever compares in text order.
--@ comment: implementation of lexid = text operator
CREATE FUNCTION @extschema@.lexid_eq_text(@extschema@.lexid, text) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: implementation of text = lexid operator
CREATE FUNCTION @extschema@.text_eq_lexid(text, @extschema@.lexid) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: implementation of lexid <> text operator
CREATE FUNCTION @extschema@.lexid_ne_text(@extschema@.lexid, text) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: implementation of text <> lexid operator
CREATE FUNCTION @extschema@.text_ne_lexid(text, @extschema@.lexid) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: implementation of lexid < text operator
CREATE FUNCTION @extschema@.lexid_lt_text(@extschema@.lexid, text) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: implementation of text < lexid operator
CREATE FUNCTION @extschema@.text_lt_lexid(text, @extschema@.lexid) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: implementation of lexid <= text operator
CREATE FUNCTION @extschema@.lexid_le_text(@extschema@.lexid, text) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: implementation of text <= lexid operator
CREATE FUNCTION @extschema@.text_le_lexid(text, @extschema@.lexid) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: implementation of lexid > text operator
CREATE FUNCTION @extschema@.lexid_gt_text(@extschema@.lexid, text) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: implementation of text > lexid operator
CREATE FUNCTION @extschema@.text_gt_lexid(text, @extschema@.lexid) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: implementation of lexid >= text operator
CREATE FUNCTION @extschema@.lexid_ge_text(@extschema@.lexid, text) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: implementation of text >= lexid operator
CREATE FUNCTION @extschema@.text_ge_lexid(text, @extschema@.lexid) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: equal; the text is read in the lexid's charset
CREATE OPERATOR @extschema@.= (
    LEFTARG = @extschema@.lexid, RIGHTARG = text, PROCEDURE = @extschema@.lexid_eq_text,
    COMMUTATOR = OPERATOR(@extschema@.=), NEGATOR = OPERATOR(@extschema@.<>), RESTRICT = eqsel, JOIN = eqjoinsel);
--@ comment: equal; the text is read in the lexid's charset
CREATE OPERATOR @extschema@.= (
    LEFTARG = text, RIGHTARG = @extschema@.lexid, PROCEDURE = @extschema@.text_eq_lexid,
    COMMUTATOR = OPERATOR(@extschema@.=), NEGATOR = OPERATOR(@extschema@.<>), RESTRICT = eqsel, JOIN = eqjoinsel);
--@ comment: not equal; the text is read in the lexid's charset
CREATE OPERATOR @extschema@.<> (
    LEFTARG = @extschema@.lexid, RIGHTARG = text, PROCEDURE = @extschema@.lexid_ne_text,
    COMMUTATOR = OPERATOR(@extschema@.<>), NEGATOR = OPERATOR(@extschema@.=), RESTRICT = neqsel, JOIN = neqjoinsel);
--@ comment: not equal; the text is read in the lexid's charset
CREATE OPERATOR @extschema@.<> (
    LEFTARG = text, RIGHTARG = @extschema@.lexid, PROCEDURE = @extschema@.text_ne_lexid,
    COMMUTATOR = OPERATOR(@extschema@.<>), NEGATOR = OPERATOR(@extschema@.=), RESTRICT = neqsel, JOIN = neqjoinsel);
--@ comment: less than in shortlex order; the text is read in the lexid's charset
CREATE OPERATOR @extschema@.< (
    LEFTARG = @extschema@.lexid, RIGHTARG = text, PROCEDURE = @extschema@.lexid_lt_text,
    COMMUTATOR = OPERATOR(@extschema@.>), NEGATOR = OPERATOR(@extschema@.>=), RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
--@ comment: less than in shortlex order; the text is read in the lexid's charset
CREATE OPERATOR @extschema@.< (
    LEFTARG = text, RIGHTARG = @extschema@.lexid, PROCEDURE = @extschema@.text_lt_lexid,
    COMMUTATOR = OPERATOR(@extschema@.>), NEGATOR = OPERATOR(@extschema@.>=), RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
--@ comment: less than or equal in shortlex order; the text is read in the lexid's charset
CREATE OPERATOR @extschema@.<= (
    LEFTARG = @extschema@.lexid, RIGHTARG = text, PROCEDURE = @extschema@.lexid_le_text,
    COMMUTATOR = OPERATOR(@extschema@.>=), NEGATOR = OPERATOR(@extschema@.>), RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
--@ comment: less than or equal in shortlex order; the text is read in the lexid's charset
CREATE OPERATOR @extschema@.<= (
    LEFTARG = text, RIGHTARG = @extschema@.lexid, PROCEDURE = @extschema@.text_le_lexid,
    COMMUTATOR = OPERATOR(@extschema@.>=), NEGATOR = OPERATOR(@extschema@.>), RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
--@ comment: greater than in shortlex order; the text is read in the lexid's charset
CREATE OPERATOR @extschema@.> (
    LEFTARG = @extschema@.lexid, RIGHTARG = text, PROCEDURE = @extschema@.lexid_gt_text,
    COMMUTATOR = OPERATOR(@extschema@.<), NEGATOR = OPERATOR(@extschema@.<=), RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
--@ comment: greater than in shortlex order; the text is read in the lexid's charset
CREATE OPERATOR @extschema@.> (
    LEFTARG = text, RIGHTARG = @extschema@.lexid, PROCEDURE = @extschema@.text_gt_lexid,
    COMMUTATOR = OPERATOR(@extschema@.<), NEGATOR = OPERATOR(@extschema@.<=), RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
--@ comment: greater than or equal in shortlex order; the text is read in the lexid's charset
CREATE OPERATOR @extschema@.>= (
    LEFTARG = @extschema@.lexid, RIGHTARG = text, PROCEDURE = @extschema@.lexid_ge_text,
    COMMUTATOR = OPERATOR(@extschema@.<=), NEGATOR = OPERATOR(@extschema@.<), RESTRICT = scalargesel, JOIN = scalargejoinsel);
--@ comment: greater than or equal in shortlex order; the text is read in the lexid's charset
CREATE OPERATOR @extschema@.>= (
    LEFTARG = text, RIGHTARG = @extschema@.lexid, PROCEDURE = @extschema@.text_ge_lexid,
    COMMUTATOR = OPERATOR(@extschema@.<=), NEGATOR = OPERATOR(@extschema@.<), RESTRICT = scalargesel, JOIN = scalargejoinsel);
