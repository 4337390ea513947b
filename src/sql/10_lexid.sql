-- ===== charsets =====

CREATE FUNCTION @extschema@.idseq_charset_check(integer, text, text, boolean) RETURNS boolean
    AS 'MODULE_PATHNAME', 'idseq_charset_check' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

--@ comment: custom charsets of idseq; add rows with idseq_create_charset()
CREATE TABLE @extschema@.idseq_charset_registry (
    id integer PRIMARY KEY,
    name text NOT NULL UNIQUE,
    symbols text NOT NULL,
    case_insensitive boolean NOT NULL,
    CONSTRAINT idseq_charset_registry_valid
        CHECK (@extschema@.idseq_charset_check(id, name, symbols, case_insensitive))
);
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

--@ comment: registers a custom charset: 2 to 256 distinct printable symbols, final once created
--@ labels: VOLATILE PARALLEL UNSAFE NOT STRICT because registers a charset; case_insensitive may be
--@   NULL (default)
CREATE FUNCTION @extschema@.idseq_create_charset(name text, symbols text, case_insensitive boolean DEFAULT false)
    RETURNS void AS 'MODULE_PATHNAME', 'idseq_create_charset' LANGUAGE C VOLATILE PARALLEL UNSAFE;

--@ comment: the built-in charsets with their symbols in digit order
--@ labels: IMMUTABLE PARALLEL SAFE NOT STRICT because no arguments, so STRICT means nothing; a
--@   constant table
CREATE FUNCTION @extschema@.idseq_builtin_charsets(OUT name text, OUT symbols text, OUT base integer,
                                                   OUT case_insensitive boolean)
    RETURNS SETOF record AS 'MODULE_PATHNAME', 'idseq_builtin_charsets' LANGUAGE C IMMUTABLE PARALLEL SAFE;

--@ comment: every charset, built-in and custom: name, symbols, base, case_insensitive, builtin
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

--@ comment: string identifier over a charset, ordered shortlex
CREATE TYPE @extschema@.lexid;

CREATE FUNCTION @extschema@.lexid_in(cstring, oid, integer) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.lexid_out(@extschema@.lexid) RETURNS cstring
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.lexid_recv(internal, oid, integer) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.lexid_send(@extschema@.lexid) RETURNS bytea
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ labels: VOLATILE PARALLEL UNSAFE STRICT because the self-describing lexid(name, 'symbols') that
--@   pg_dump writes may register the charset (an INSERT); in a read-only transaction it accepts a
--@   registered charset and refuses (25006) to register one
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
-- The self-describing lexid(name, 'symbols') registers a charset it does not find (an
-- INSERT), so lexid_typmod_in is labelled VOLATILE. CREATE TYPE warns about a volatile type
-- modifier input function (the parser calls it directly, so the label changes nothing there):
-- the label is set after the type exists.
ALTER FUNCTION @extschema@.lexid_typmod_in(cstring[]) VOLATILE;

-- typmod coercion (lexid -> lexid(charset)) and the assignment casts to and from text
--@ comment: applies a lexid(charset) type modifier (the lexid -> lexid cast)
CREATE FUNCTION @extschema@.lexid(@extschema@.lexid, integer, boolean) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME', 'lexid_coerce' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: applies a lexid(charset) type modifier: checks the value's charset
CREATE CAST (@extschema@.lexid AS @extschema@.lexid)
    WITH FUNCTION @extschema@.lexid(@extschema@.lexid, integer, boolean) AS IMPLICIT;

--@ comment: reads text as a lexid in the charset of a type modifier (the text -> lexid cast)
CREATE FUNCTION @extschema@.lexid(text, integer, boolean) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME', 'lexid_from_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: reads text in the charset of the target type modifier (base36 without one)
CREATE CAST (text AS @extschema@.lexid)
    WITH FUNCTION @extschema@.lexid(text, integer, boolean) AS ASSIGNMENT;
--@ comment: the symbols of a lexid (the lexid -> text cast)
CREATE FUNCTION @extschema@.text(@extschema@.lexid) RETURNS text
    AS 'MODULE_PATHNAME', 'lexid_to_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: the symbols of a lexid
CREATE CAST (@extschema@.lexid AS text)
    WITH FUNCTION @extschema@.text(@extschema@.lexid) AS ASSIGNMENT;

-- comparison
--@ comment: implementation of = operator
CREATE FUNCTION @extschema@.lexid_eq(@extschema@.lexid, @extschema@.lexid) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: implementation of <> operator
CREATE FUNCTION @extschema@.lexid_ne(@extschema@.lexid, @extschema@.lexid) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: implementation of < operator
CREATE FUNCTION @extschema@.lexid_lt(@extschema@.lexid, @extschema@.lexid) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: implementation of <= operator
CREATE FUNCTION @extschema@.lexid_le(@extschema@.lexid, @extschema@.lexid) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: implementation of > operator
CREATE FUNCTION @extschema@.lexid_gt(@extschema@.lexid, @extschema@.lexid) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: implementation of >= operator
CREATE FUNCTION @extschema@.lexid_ge(@extschema@.lexid, @extschema@.lexid) RETURNS boolean
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: shortlex comparison: -1, 0 or 1 (btree support)
CREATE FUNCTION @extschema@.lexid_cmp(@extschema@.lexid, @extschema@.lexid) RETURNS integer
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.lexid_sortsupport(internal) RETURNS void
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: hash of a lexid (hash index support)
CREATE FUNCTION @extschema@.lexid_hash(@extschema@.lexid) RETURNS integer
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: seeded 64-bit hash of a lexid (hash partitioning support)
CREATE FUNCTION @extschema@.lexid_hash_extended(@extschema@.lexid, bigint) RETURNS bigint
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: larger of two lexids
CREATE FUNCTION @extschema@.lexid_larger(@extschema@.lexid, @extschema@.lexid) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: smaller of two lexids
CREATE FUNCTION @extschema@.lexid_smaller(@extschema@.lexid, @extschema@.lexid) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

--@ comment: equal
CREATE OPERATOR @extschema@.= (
    LEFTARG = @extschema@.lexid, RIGHTARG = @extschema@.lexid, PROCEDURE = @extschema@.lexid_eq,
    COMMUTATOR = OPERATOR(@extschema@.=), NEGATOR = OPERATOR(@extschema@.<>),
    RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES);
--@ comment: not equal
CREATE OPERATOR @extschema@.<> (
    LEFTARG = @extschema@.lexid, RIGHTARG = @extschema@.lexid, PROCEDURE = @extschema@.lexid_ne,
    COMMUTATOR = OPERATOR(@extschema@.<>), NEGATOR = OPERATOR(@extschema@.=),
    RESTRICT = neqsel, JOIN = neqjoinsel);
--@ comment: less than, in shortlex order
CREATE OPERATOR @extschema@.< (
    LEFTARG = @extschema@.lexid, RIGHTARG = @extschema@.lexid, PROCEDURE = @extschema@.lexid_lt,
    COMMUTATOR = OPERATOR(@extschema@.>), NEGATOR = OPERATOR(@extschema@.>=),
    RESTRICT = scalarltsel, JOIN = scalarltjoinsel);
--@ comment: less than or equal, in shortlex order
CREATE OPERATOR @extschema@.<= (
    LEFTARG = @extschema@.lexid, RIGHTARG = @extschema@.lexid, PROCEDURE = @extschema@.lexid_le,
    COMMUTATOR = OPERATOR(@extschema@.>=), NEGATOR = OPERATOR(@extschema@.>),
    RESTRICT = scalarlesel, JOIN = scalarlejoinsel);
--@ comment: greater than, in shortlex order
CREATE OPERATOR @extschema@.> (
    LEFTARG = @extschema@.lexid, RIGHTARG = @extschema@.lexid, PROCEDURE = @extschema@.lexid_gt,
    COMMUTATOR = OPERATOR(@extschema@.<), NEGATOR = OPERATOR(@extschema@.<=),
    RESTRICT = scalargtsel, JOIN = scalargtjoinsel);
--@ comment: greater than or equal, in shortlex order
CREATE OPERATOR @extschema@.>= (
    LEFTARG = @extschema@.lexid, RIGHTARG = @extschema@.lexid, PROCEDURE = @extschema@.lexid_ge,
    COMMUTATOR = OPERATOR(@extschema@.<=), NEGATOR = OPERATOR(@extschema@.<),
    RESTRICT = scalargesel, JOIN = scalargejoinsel);

--@ comment: shortlex order of lexid (the default)
CREATE OPERATOR CLASS @extschema@.lexid_ops DEFAULT FOR TYPE @extschema@.lexid USING btree AS
    OPERATOR 1 @extschema@.<,
    OPERATOR 2 @extschema@.<=,
    OPERATOR 3 @extschema@.=,
    OPERATOR 4 @extschema@.>=,
    OPERATOR 5 @extschema@.>,
    FUNCTION 1 @extschema@.lexid_cmp(@extschema@.lexid, @extschema@.lexid),
    FUNCTION 2 @extschema@.lexid_sortsupport(internal),
    FUNCTION 4 pg_catalog.btequalimage(oid);

--@ comment: hashing of lexid (the default)
CREATE OPERATOR CLASS @extschema@.lexid_hash_ops DEFAULT FOR TYPE @extschema@.lexid USING hash AS
    OPERATOR 1 @extschema@.=,
    FUNCTION 1 @extschema@.lexid_hash(@extschema@.lexid),
    FUNCTION 2 @extschema@.lexid_hash_extended(@extschema@.lexid, bigint);

--@ comment: minimum lexid in shortlex order
CREATE AGGREGATE @extschema@.min(@extschema@.lexid) (
    SFUNC = @extschema@.lexid_smaller, STYPE = @extschema@.lexid, SORTOP = OPERATOR(@extschema@.<),
    COMBINEFUNC = @extschema@.lexid_smaller, PARALLEL = SAFE);
--@ comment: maximum lexid in shortlex order
CREATE AGGREGATE @extschema@.max(@extschema@.lexid) (
    SFUNC = @extschema@.lexid_larger, STYPE = @extschema@.lexid, SORTOP = OPERATOR(@extschema@.>),
    COMBINEFUNC = @extschema@.lexid_larger, PARALLEL = SAFE);

-- arithmetic
--@ comment: id + n in shortlex order (n may be negative); the length grows as needed
CREATE FUNCTION @extschema@.lexical_add(id @extschema@.lexid, n bigint) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME', 'lexid_add_int8' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: implementation of lexid - bigint operator
CREATE FUNCTION @extschema@.lexid_sub_int8(@extschema@.lexid, bigint) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME', 'lexid_sub_int8' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: implementation of lexid - lexid operator
CREATE FUNCTION @extschema@.lexid_distance(@extschema@.lexid, @extschema@.lexid) RETURNS numeric
    AS 'MODULE_PATHNAME', 'lexid_distance' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: lexical_add: the id n places later in shortlex order
CREATE OPERATOR @extschema@.+ (
    LEFTARG = @extschema@.lexid, RIGHTARG = bigint, PROCEDURE = @extschema@.lexical_add);
--@ comment: the id n places earlier in shortlex order
CREATE OPERATOR @extschema@.- (
    LEFTARG = @extschema@.lexid, RIGHTARG = bigint, PROCEDURE = @extschema@.lexid_sub_int8);
--@ comment: distance in shortlex order (numeric; same charset)
CREATE OPERATOR @extschema@.- (
    LEFTARG = @extschema@.lexid, RIGHTARG = @extschema@.lexid, PROCEDURE = @extschema@.lexid_distance);

--@ comment: source + n in shortlex order over a charset, on plain text (the empty string is the
--@   zero)
CREATE FUNCTION @extschema@.lexical_add(source text, charset text, n bigint, ignore_case boolean DEFAULT true)
    RETURNS text AS 'MODULE_PATHNAME', 'lexical_add_text' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: 1-based shortlex rank of a lexid within its charset
CREATE FUNCTION @extschema@.lexid_rank(id @extschema@.lexid) RETURNS numeric
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: inverse of lexid_rank: the lexid of a rank
CREATE FUNCTION @extschema@.lexid_from_rank(rank numeric, charset text) RETURNS @extschema@.lexid
    AS 'MODULE_PATHNAME' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
--@ comment: name of the charset of a lexid
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
--@ comment: refuses stored lexid columns, domains and range types without a charset (declare
--@   lexid(base36) or the charset meant)
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
--@ comment: before ALTER TABLE ... ADD COLUMN fills the rows already there, reads an untyped
--@   nextval_lexid seed of the default in the column's charset
CREATE EVENT TRIGGER idseq_lexid_seed_guard ON ddl_command_start
    WHEN TAG IN ('ALTER TABLE')
    EXECUTE FUNCTION @extschema@.idseq_lexid_column_guard();
ALTER EVENT TRIGGER idseq_lexid_seed_guard ENABLE ALWAYS;
