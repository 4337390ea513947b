-- ===== exact integer variants =====
-- Since 1.2 (the upgrade from 1.1 is frozen in idseq--1.1--1.2.sql).
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
--@ comment: lexical_add(id, n::bigint), for an exact match of integer arguments
CREATE FUNCTION @extschema@.lexical_add(id @extschema@.lexid, n integer) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME', 'lexid_add_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: lexical_add: the id n places later in shortlex order
CREATE OPERATOR @extschema@.+ (
    LEFTARG = @extschema@.lexid, RIGHTARG = integer, PROCEDURE = @extschema@.lexical_add);
--@ comment: implementation of lexid - integer operator
CREATE FUNCTION @extschema@.lexid_sub_int4(@extschema@.lexid, integer) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME', 'lexid_sub_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: the id n places earlier in shortlex order
CREATE OPERATOR @extschema@.- (
    LEFTARG = @extschema@.lexid, RIGHTARG = integer, PROCEDURE = @extschema@.lexid_sub_int4);
--@ comment: lexical_add(source, charset, n::bigint, ignore_case), for an exact match of integer
--@   arguments
CREATE FUNCTION @extschema@.lexical_add(source text, charset text, n integer, ignore_case boolean DEFAULT true) RETURNS text
    AS 'MODULE_PATHNAME', 'lexical_add_text_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: code_format(n::bigint, width, charset), for an exact match of integer arguments
CREATE FUNCTION @extschema@.code_format(n integer, width integer, charset text DEFAULT 'upper') RETURNS text
    AS 'MODULE_PATHNAME', 'code_format_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: idseq_encode(id::bigint, charset, rotate, width), for an exact match of integer
--@   arguments
CREATE FUNCTION @extschema@.idseq_encode(id integer, charset text DEFAULT 'base62', rotate integer DEFAULT 0, width integer DEFAULT 0) RETURNS text
    AS 'MODULE_PATHNAME', 'idseq_encode_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: idseq_scramble(id::bigint, key, bits), for an exact match of integer arguments
CREATE FUNCTION @extschema@.idseq_scramble(id integer, key text, bits integer DEFAULT 63) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idseq_scramble_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: idseq_unscramble(id::bigint, key, bits), for an exact match of integer arguments
CREATE FUNCTION @extschema@.idseq_unscramble(id integer, key text, bits integer DEFAULT 63) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idseq_unscramble_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: snowflake_timestamp(id::bigint, layout), for an exact match of integer arguments
CREATE FUNCTION @extschema@.snowflake_timestamp(id integer, layout text DEFAULT 'snowflake') RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'snowflake_timestamp_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: snowflake_unpack(id::bigint, layout), for an exact match of integer arguments
CREATE FUNCTION @extschema@.snowflake_unpack(id integer, layout text DEFAULT 'snowflake')
    RETURNS TABLE(ts timestamptz, node integer, seq integer, rand integer)
    AS 'MODULE_PATHNAME', 'snowflake_unpack_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 1;
--@ comment: lexical_add(id, n::bigint), for an exact match of smallint arguments
CREATE FUNCTION @extschema@.lexical_add(id @extschema@.lexid, n smallint) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME', 'lexid_add_int2' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: lexical_add: the id n places later in shortlex order
CREATE OPERATOR @extschema@.+ (
    LEFTARG = @extschema@.lexid, RIGHTARG = smallint, PROCEDURE = @extschema@.lexical_add);
--@ comment: implementation of lexid - smallint operator
CREATE FUNCTION @extschema@.lexid_sub_int2(@extschema@.lexid, smallint) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME', 'lexid_sub_int2' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: the id n places earlier in shortlex order
CREATE OPERATOR @extschema@.- (
    LEFTARG = @extschema@.lexid, RIGHTARG = smallint, PROCEDURE = @extschema@.lexid_sub_int2);
--@ comment: lexical_add(source, charset, n::bigint, ignore_case), for an exact match of smallint
--@   arguments
CREATE FUNCTION @extschema@.lexical_add(source text, charset text, n smallint, ignore_case boolean DEFAULT true) RETURNS text
    AS 'MODULE_PATHNAME', 'lexical_add_text_int2' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: code_format(n::bigint, width, charset), for an exact match of smallint arguments
CREATE FUNCTION @extschema@.code_format(n smallint, width integer, charset text DEFAULT 'upper') RETURNS text
    AS 'MODULE_PATHNAME', 'code_format_int2' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: idseq_encode(id::bigint, charset, rotate, width), for an exact match of smallint
--@   arguments
CREATE FUNCTION @extschema@.idseq_encode(id smallint, charset text DEFAULT 'base62', rotate integer DEFAULT 0, width integer DEFAULT 0) RETURNS text
    AS 'MODULE_PATHNAME', 'idseq_encode_int2' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: idseq_scramble(id::bigint, key, bits), for an exact match of smallint arguments
CREATE FUNCTION @extschema@.idseq_scramble(id smallint, key text, bits integer DEFAULT 63) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idseq_scramble_int2' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: idseq_unscramble(id::bigint, key, bits), for an exact match of smallint arguments
CREATE FUNCTION @extschema@.idseq_unscramble(id smallint, key text, bits integer DEFAULT 63) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idseq_unscramble_int2' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: snowflake_timestamp(id::bigint, layout), for an exact match of smallint arguments
CREATE FUNCTION @extschema@.snowflake_timestamp(id smallint, layout text DEFAULT 'snowflake') RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'snowflake_timestamp_int2' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: snowflake_unpack(id::bigint, layout), for an exact match of smallint arguments
CREATE FUNCTION @extschema@.snowflake_unpack(id smallint, layout text DEFAULT 'snowflake')
    RETURNS TABLE(ts timestamptz, node integer, seq integer, rand integer)
    AS 'MODULE_PATHNAME', 'snowflake_unpack_int2' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 1;
--@ comment: lexical_add(id, n::bigint), for an exact match of text arguments
CREATE FUNCTION @extschema@.lexical_add(id @extschema@.lexid, n text) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME', 'lexid_add_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: lexical_add: the id n places later in shortlex order
CREATE OPERATOR @extschema@.+ (
    LEFTARG = @extschema@.lexid, RIGHTARG = text, PROCEDURE = @extschema@.lexical_add);
--@ comment: lexical_add(source, charset, n::bigint, ignore_case), for an exact match of text
--@   arguments
CREATE FUNCTION @extschema@.lexical_add(source text, charset text, n text, ignore_case boolean DEFAULT true) RETURNS text
    AS 'MODULE_PATHNAME', 'lexical_add_text_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: code_format(n::bigint, width, charset), for an exact match of text arguments
CREATE FUNCTION @extschema@.code_format(n text, width integer, charset text DEFAULT 'upper') RETURNS text
    AS 'MODULE_PATHNAME', 'code_format_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: idseq_encode(id::bigint, charset, rotate, width), for an exact match of text arguments
CREATE FUNCTION @extschema@.idseq_encode(id text, charset text DEFAULT 'base62', rotate integer DEFAULT 0, width integer DEFAULT 0) RETURNS text
    AS 'MODULE_PATHNAME', 'idseq_encode_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: idseq_scramble(id::bigint, key, bits), for an exact match of text arguments
CREATE FUNCTION @extschema@.idseq_scramble(id text, key text, bits integer DEFAULT 63) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idseq_scramble_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: idseq_unscramble(id::bigint, key, bits), for an exact match of text arguments
CREATE FUNCTION @extschema@.idseq_unscramble(id text, key text, bits integer DEFAULT 63) RETURNS bigint
    AS 'MODULE_PATHNAME', 'idseq_unscramble_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: snowflake_timestamp(id::bigint, layout), for an exact match of text arguments
CREATE FUNCTION @extschema@.snowflake_timestamp(id text, layout text DEFAULT 'snowflake') RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'snowflake_timestamp_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: snowflake_unpack(id::bigint, layout), for an exact match of text arguments
CREATE FUNCTION @extschema@.snowflake_unpack(id text, layout text DEFAULT 'snowflake')
    RETURNS TABLE(ts timestamptz, node integer, seq integer, rand integer)
    AS 'MODULE_PATHNAME', 'snowflake_unpack_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 1;
--@ comment: lexid_from_rank(rank::numeric, charset), for an exact match of bigint arguments
CREATE FUNCTION @extschema@.lexid_from_rank(rank bigint, charset text) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME', 'lexid_from_rank_int8' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: lexid_from_rank(rank::numeric, charset), for an exact match of integer arguments
CREATE FUNCTION @extschema@.lexid_from_rank(rank integer, charset text) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME', 'lexid_from_rank_int4' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: lexid_from_rank(rank::numeric, charset), for an exact match of smallint arguments
CREATE FUNCTION @extschema@.lexid_from_rank(rank smallint, charset text) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME', 'lexid_from_rank_int2' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: lexid_from_rank(rank::numeric, charset), for an exact match of text arguments
CREATE FUNCTION @extschema@.lexid_from_rank(rank text, charset text) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME', 'lexid_from_rank_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

