-- idseq 1.2 install script. Assembled by the Makefile from src/sql/*.sql; edit those.
-- Built-ins are called as pg_catalog.x and our own objects through @extschema@, so the
-- script is safe under any search_path.

\echo Use "CREATE EXTENSION idseq" to load this file. \quit
-- ===== charsets =====

CREATE FUNCTION @extschema@.idseq_charset_check(integer, text, text, boolean) RETURNS boolean
    AS 'MODULE_PATHNAME', 'idseq_charset_check' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TABLE @extschema@.idseq_charset_registry (
    id integer PRIMARY KEY,
    name text NOT NULL UNIQUE,
    symbols text NOT NULL,
    case_insensitive boolean NOT NULL,
    CONSTRAINT idseq_charset_registry_valid
        CHECK (@extschema@.idseq_charset_check(id, name, symbols, case_insensitive))
);
COMMENT ON TABLE @extschema@.idseq_charset_registry IS
    'custom charsets of idseq; add rows with idseq_create_charset()';
SELECT pg_catalog.pg_extension_config_dump('@extschema@.idseq_charset_registry', '');
-- Everyone reads charsets; only the extension's owner (or whom it grants INSERT) adds them.
GRANT SELECT ON @extschema@.idseq_charset_registry TO PUBLIC;

-- A restore may register a charset from a self-describing lexid(name, 'symbols') type
-- modifier before this table's own data arrives: identical rows are then skipped.
CREATE FUNCTION @extschema@.idseq_charset_registry_dedup() RETURNS trigger
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
DECLARE
    old_symbols text;
    old_ci boolean;
    old_id integer;
BEGIN
    SELECT r.symbols, r.case_insensitive, r.id INTO old_symbols, old_ci, old_id
      FROM @extschema@.idseq_charset_registry r WHERE r.name = NEW.name;
    IF NOT FOUND THEN
        RETURN NEW;
    END IF;
    IF old_symbols = NEW.symbols AND old_ci = NEW.case_insensitive AND old_id = NEW.id THEN
        RETURN NULL;
    END IF;
    RAISE EXCEPTION 'charset "%" already exists', NEW.name
        USING ERRCODE = 'duplicate_object',
              DETAIL = pg_catalog.format('Its symbols are "%s".', old_symbols);
END $$;
CREATE TRIGGER idseq_charset_registry_dedup BEFORE INSERT ON @extschema@.idseq_charset_registry
    FOR EACH ROW EXECUTE FUNCTION @extschema@.idseq_charset_registry_dedup();

CREATE FUNCTION @extschema@.idseq_create_charset(name text, symbols text, case_insensitive boolean DEFAULT false)
    RETURNS void AS 'MODULE_PATHNAME', 'idseq_create_charset' LANGUAGE C VOLATILE PARALLEL UNSAFE;

CREATE FUNCTION @extschema@.idseq_builtin_charsets(OUT name text, OUT symbols text, OUT base integer,
                                                   OUT case_insensitive boolean)
    RETURNS SETOF record AS 'MODULE_PATHNAME', 'idseq_builtin_charsets' LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE VIEW @extschema@.idseq_charsets AS
    SELECT b.name, b.symbols, b.base, b.case_insensitive, true AS builtin
      FROM @extschema@.idseq_builtin_charsets() b
    UNION ALL
    SELECT r.name, r.symbols, pg_catalog.length(r.symbols), r.case_insensitive, false
      FROM @extschema@.idseq_charset_registry r;
GRANT SELECT ON @extschema@.idseq_charsets TO PUBLIC;

-- ===== the lexid type =====
-- Functions that read the charset registry are IMMUTABLE like the rest: a charset, once
-- created, can be neither redefined nor dropped, so their results never change.

CREATE TYPE @extschema@.lexid;

CREATE FUNCTION @extschema@.lexid_in(cstring, oid, integer) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.lexid_out(@extschema@.lexid) RETURNS cstring
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.lexid_recv(internal, oid, integer) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.lexid_send(@extschema@.lexid) RETURNS bytea
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.lexid_typmod_in(cstring[]) RETURNS integer
    AS 'MODULE_PATHNAME' LANGUAGE C STABLE STRICT PARALLEL UNSAFE;
CREATE FUNCTION @extschema@.lexid_typmod_out(integer) RETURNS cstring
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE @extschema@.lexid (
    INPUT = @extschema@.lexid_in,
    OUTPUT = @extschema@.lexid_out,
    RECEIVE = @extschema@.lexid_recv,
    SEND = @extschema@.lexid_send,
    TYPMOD_IN = @extschema@.lexid_typmod_in,
    TYPMOD_OUT = @extschema@.lexid_typmod_out,
    INTERNALLENGTH = VARIABLE,
    ALIGNMENT = int4,
    STORAGE = extended,
    CATEGORY = 'S',
    COLLATABLE = false
);
COMMENT ON TYPE @extschema@.lexid IS 'string identifier over a charset, ordered shortlex';
-- The self-describing lexid(name, 'symbols') registers a charset it does not find (an
-- INSERT), so lexid_typmod_in is labelled VOLATILE. CREATE TYPE warns about a volatile type
-- modifier input function (the parser calls it directly, so the label changes nothing there):
-- the label is set after the type exists.
ALTER FUNCTION @extschema@.lexid_typmod_in(cstring[]) VOLATILE;

-- typmod coercion (lexid -> lexid(charset)) and the assignment casts to and from text
CREATE FUNCTION @extschema@.lexid(@extschema@.lexid, integer, boolean) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME', 'lexid_coerce' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (@extschema@.lexid AS @extschema@.lexid)
    WITH FUNCTION @extschema@.lexid(@extschema@.lexid, integer, boolean) AS IMPLICIT;

CREATE FUNCTION @extschema@.lexid(text, integer, boolean) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME', 'lexid_from_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (text AS @extschema@.lexid)
    WITH FUNCTION @extschema@.lexid(text, integer, boolean) AS ASSIGNMENT;
CREATE FUNCTION @extschema@.text(@extschema@.lexid) RETURNS text
    AS 'MODULE_PATHNAME', 'lexid_to_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE CAST (@extschema@.lexid AS text)
    WITH FUNCTION @extschema@.text(@extschema@.lexid) AS ASSIGNMENT;

-- comparison
CREATE FUNCTION @extschema@.lexid_eq(@extschema@.lexid, @extschema@.lexid) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.lexid_ne(@extschema@.lexid, @extschema@.lexid) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.lexid_lt(@extschema@.lexid, @extschema@.lexid) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.lexid_le(@extschema@.lexid, @extschema@.lexid) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.lexid_gt(@extschema@.lexid, @extschema@.lexid) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.lexid_ge(@extschema@.lexid, @extschema@.lexid) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.lexid_cmp(@extschema@.lexid, @extschema@.lexid) RETURNS integer
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.lexid_sortsupport(internal) RETURNS void
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.lexid_hash(@extschema@.lexid) RETURNS integer
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.lexid_hash_extended(@extschema@.lexid, bigint) RETURNS bigint
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.lexid_larger(@extschema@.lexid, @extschema@.lexid) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.lexid_smaller(@extschema@.lexid, @extschema@.lexid) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR @extschema@.= (
    LEFTARG = @extschema@.lexid, RIGHTARG = @extschema@.lexid, PROCEDURE = @extschema@.lexid_eq,
    COMMUTATOR = OPERATOR(@extschema@.=), NEGATOR = OPERATOR(@extschema@.<>),
    RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
CREATE OPERATOR @extschema@.<> (
    LEFTARG = @extschema@.lexid, RIGHTARG = @extschema@.lexid, PROCEDURE = @extschema@.lexid_ne,
    COMMUTATOR = OPERATOR(@extschema@.<>), NEGATOR = OPERATOR(@extschema@.=),
    RESTRICT = neqsel, JOIN = neqjoinsel);
CREATE OPERATOR @extschema@.< (
    LEFTARG = @extschema@.lexid, RIGHTARG = @extschema@.lexid, PROCEDURE = @extschema@.lexid_lt,
    COMMUTATOR = OPERATOR(@extschema@.>), NEGATOR = OPERATOR(@extschema@.>=),
    RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
CREATE OPERATOR @extschema@.<= (
    LEFTARG = @extschema@.lexid, RIGHTARG = @extschema@.lexid, PROCEDURE = @extschema@.lexid_le,
    COMMUTATOR = OPERATOR(@extschema@.>=), NEGATOR = OPERATOR(@extschema@.>),
    RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
CREATE OPERATOR @extschema@.> (
    LEFTARG = @extschema@.lexid, RIGHTARG = @extschema@.lexid, PROCEDURE = @extschema@.lexid_gt,
    COMMUTATOR = OPERATOR(@extschema@.<), NEGATOR = OPERATOR(@extschema@.<=),
    RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
CREATE OPERATOR @extschema@.>= (
    LEFTARG = @extschema@.lexid, RIGHTARG = @extschema@.lexid, PROCEDURE = @extschema@.lexid_ge,
    COMMUTATOR = OPERATOR(@extschema@.<=), NEGATOR = OPERATOR(@extschema@.<),
    RESTRICT = scalargesel, JOIN = scalargejoinsel);

CREATE OPERATOR CLASS @extschema@.lexid_ops DEFAULT FOR TYPE @extschema@.lexid USING btree AS
    OPERATOR 1 @extschema@.<,
    OPERATOR 2 @extschema@.<=,
    OPERATOR 3 @extschema@.=,
    OPERATOR 4 @extschema@.>=,
    OPERATOR 5 @extschema@.>,
    FUNCTION 1 @extschema@.lexid_cmp(@extschema@.lexid, @extschema@.lexid),
    FUNCTION 2 @extschema@.lexid_sortsupport(internal),
    FUNCTION 4 pg_catalog.btequalimage(oid);

CREATE OPERATOR CLASS @extschema@.lexid_hash_ops DEFAULT FOR TYPE @extschema@.lexid USING hash AS
    OPERATOR 1 @extschema@.=,
    FUNCTION 1 @extschema@.lexid_hash(@extschema@.lexid),
    FUNCTION 2 @extschema@.lexid_hash_extended(@extschema@.lexid, bigint);

CREATE AGGREGATE @extschema@.min(@extschema@.lexid) (
    SFUNC = @extschema@.lexid_smaller, STYPE = @extschema@.lexid, SORTOP = OPERATOR(@extschema@.<),
    COMBINEFUNC = @extschema@.lexid_smaller, PARALLEL = SAFE);
CREATE AGGREGATE @extschema@.max(@extschema@.lexid) (
    SFUNC = @extschema@.lexid_larger, STYPE = @extschema@.lexid, SORTOP = OPERATOR(@extschema@.>),
    COMBINEFUNC = @extschema@.lexid_larger, PARALLEL = SAFE);

-- arithmetic
CREATE FUNCTION @extschema@.lexical_add(id @extschema@.lexid, n bigint) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME', 'lexid_add_int8' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.lexid_sub_int8(@extschema@.lexid, bigint) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME', 'lexid_sub_int8' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.lexid_distance(@extschema@.lexid, @extschema@.lexid) RETURNS numeric
    AS 'MODULE_PATHNAME', 'lexid_distance' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OPERATOR @extschema@.+ (
    LEFTARG = @extschema@.lexid, RIGHTARG = bigint, PROCEDURE = @extschema@.lexical_add);
CREATE OPERATOR @extschema@.- (
    LEFTARG = @extschema@.lexid, RIGHTARG = bigint, PROCEDURE = @extschema@.lexid_sub_int8);
CREATE OPERATOR @extschema@.- (
    LEFTARG = @extschema@.lexid, RIGHTARG = @extschema@.lexid, PROCEDURE = @extschema@.lexid_distance);

CREATE FUNCTION @extschema@.lexical_add(source text, charset text, n bigint, ignore_case boolean DEFAULT true)
    RETURNS text AS 'MODULE_PATHNAME', 'lexical_add_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.lexid_rank(id @extschema@.lexid) RETURNS numeric
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.lexid_from_rank(rank numeric, charset text) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.lexid_charset(id @extschema@.lexid) RETURNS text
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- ===== stored lexid values always name their charset (since 1.2) =====
-- An untyped lexid (a literal or parameter, no charset) takes its charset from the value it
-- meets; stored, it would meet values of every charset and break the operator classes. So
-- a table column, materialized view, foreign table, composite type attribute or domain of
-- type lexid / lexid[] must carry a type modifier, and a range type cannot be over lexid
-- (it drops the modifier): 42611 otherwise. Views and function results are not stored.
CREATE FUNCTION @extschema@.idseq_lexid_column_guard() RETURNS event_trigger
    AS 'MODULE_PATHNAME', 'idseq_lexid_column_guard' LANGUAGE C;
CREATE EVENT TRIGGER idseq_lexid_column_guard ON ddl_command_end
    WHEN TAG IN ('CREATE TABLE', 'CREATE TABLE AS', 'SELECT INTO', 'ALTER TABLE', 'CREATE MATERIALIZED VIEW',
                 'CREATE FOREIGN TABLE', 'ALTER FOREIGN TABLE', 'IMPORT FOREIGN SCHEMA', 'CREATE TYPE',
                 'ALTER TYPE', 'CREATE DOMAIN', 'ALTER DOMAIN', 'CREATE SCHEMA')
    EXECUTE FUNCTION @extschema@.idseq_lexid_column_guard();
-- Also under session_replication_role = replica: the guard protects the operator classes,
-- not a replication concern.
ALTER EVENT TRIGGER idseq_lexid_column_guard ENABLE ALWAYS;
-- ALTER TABLE ... ADD COLUMN evaluates its default for the rows already there before
-- ddl_command_end: the same function, fired first, reads an untyped nextval_lexid seed of the
-- default in the new column's charset.
CREATE EVENT TRIGGER idseq_lexid_seed_guard ON ddl_command_start
    WHEN TAG IN ('ALTER TABLE')
    EXECUTE FUNCTION @extschema@.idseq_lexid_column_guard();
ALTER EVENT TRIGGER idseq_lexid_seed_guard ENABLE ALWAYS;
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

-- ===== snowflake ids =====

-- Validates a layout definition and returns its canonical field list; raises the error a bad
-- definition deserves (22023, or 42710 for a built-in name). Also the registry's CHECK.
CREATE FUNCTION @extschema@.idseq_snowflake_check(name text, epoch timestamptz, fields text, time_unit interval)
    RETURNS text AS 'MODULE_PATHNAME', 'idseq_snowflake_check' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- Custom layouts. Each has two sequences of its own, created by snowflake_create_layout:
-- state_seq, the durable high-water mark (a time unit; WAL-logged, so crash recovery and
-- standbys inherit it), and last_id_seq (unlogged), the last id the generator issued while
-- running without shared memory. See src/pg/snowflake_generator.cpp.
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

-- ===== display codecs and keyed public ids =====

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
