-- Privileges and script security.
--
-- Part 1, in the style of contrib/seg's security test: the install script and the
-- extension's SQL objects are safe under a hostile search_path. An untrusted role plants
-- functions, operators, an aggregate and types that shadow pg_catalog names in the schema
-- the extension is then installed into; each of them raises an error if it is ever called.
-- A superuser installs the extension there, and the views, the registry triggers and the
-- functions are used with that schema first in the search_path.
--
-- Part 2: what a role without special privileges can and cannot do.
\pset null '(null)'
\x off
SELECT current_database() AS datname \gset
CREATE ROLE regress_idseq_evil;
CREATE ROLE regress_idseq_user;
CREATE DATABASE regress_idseq_security;
\c regress_idseq_security
SET client_min_messages = warning;
\ir sql/include/expect_error.sql

-- ===== part 1: a hostile search_path =====
-- A schema where the untrusted role may create objects (like public before PostgreSQL 15).
CREATE SCHEMA idseq_home;
GRANT CREATE, USAGE ON SCHEMA idseq_home TO regress_idseq_evil;
SET ROLE regress_idseq_evil;
CREATE FUNCTION idseq_home.trap(what text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'hijacked: %', what;
END $$;
-- functions and an aggregate with the exact signatures of built-ins the extension uses
CREATE FUNCTION idseq_home.length(text) RETURNS integer LANGUAGE plpgsql AS
    $$BEGIN PERFORM idseq_home.trap('length(text)'); RETURN 0; END$$;
CREATE FUNCTION idseq_home.lower(text) RETURNS text LANGUAGE plpgsql AS
    $$BEGIN PERFORM idseq_home.trap('lower(text)'); RETURN ''; END$$;
CREATE FUNCTION idseq_home.left(text, integer) RETURNS text LANGUAGE plpgsql AS
    $$BEGIN PERFORM idseq_home.trap('left(text, integer)'); RETURN ''; END$$;
CREATE FUNCTION idseq_home.md5(text) RETURNS text LANGUAGE plpgsql AS
    $$BEGIN PERFORM idseq_home.trap('md5(text)'); RETURN ''; END$$;
CREATE FUNCTION idseq_home.format(text) RETURNS text LANGUAGE plpgsql AS
    $$BEGIN PERFORM idseq_home.trap('format(text)'); RETURN ''; END$$;
CREATE FUNCTION idseq_home.pg_extension_config_dump(regclass, text) RETURNS void LANGUAGE plpgsql AS
    $$BEGIN PERFORM idseq_home.trap('pg_extension_config_dump'); END$$;
CREATE FUNCTION idseq_home.btequalimage(oid) RETURNS boolean LANGUAGE plpgsql AS
    $$BEGIN RETURN idseq_home.trap('btequalimage(oid)'); END$$;
CREATE FUNCTION idseq_home.pg_get_userbyid(oid) RETURNS name LANGUAGE plpgsql AS
    $$BEGIN PERFORM idseq_home.trap('pg_get_userbyid(oid)'); RETURN ''; END$$;
CREATE FUNCTION idseq_home.string_agg_step(text, text, text) RETURNS text LANGUAGE plpgsql AS
    $$BEGIN PERFORM idseq_home.trap('string_agg(text, text)'); RETURN ''; END$$;
CREATE AGGREGATE idseq_home.string_agg(text, text) (SFUNC = idseq_home.string_agg_step, STYPE = text);
-- operators with the exact signatures of the built-in ones
CREATE FUNCTION idseq_home.text_eq(text, text) RETURNS boolean LANGUAGE plpgsql AS
    $$BEGIN RETURN idseq_home.trap('= (text, text)'); END$$;
CREATE FUNCTION idseq_home.text_ne(text, text) RETURNS boolean LANGUAGE plpgsql AS
    $$BEGIN RETURN idseq_home.trap('<> (text, text)'); END$$;
CREATE FUNCTION idseq_home.bool_eq(boolean, boolean) RETURNS boolean LANGUAGE plpgsql AS
    $$BEGIN RETURN idseq_home.trap('= (boolean, boolean)'); END$$;
CREATE FUNCTION idseq_home.int_eq(integer, integer) RETURNS boolean LANGUAGE plpgsql AS
    $$BEGIN RETURN idseq_home.trap('= (integer, integer)'); END$$;
CREATE FUNCTION idseq_home.int_le(integer, integer) RETURNS boolean LANGUAGE plpgsql AS
    $$BEGIN RETURN idseq_home.trap('<= (integer, integer)'); END$$;
CREATE FUNCTION idseq_home.name_eq(name, name) RETURNS boolean LANGUAGE plpgsql AS
    $$BEGIN RETURN idseq_home.trap('= (name, name)'); END$$;
CREATE FUNCTION idseq_home.text_cat(text, text) RETURNS text LANGUAGE plpgsql AS
    $$BEGIN PERFORM idseq_home.trap('|| (text, text)'); RETURN ''; END$$;
CREATE FUNCTION idseq_home.oid_eq(oid, regclass) RETURNS boolean LANGUAGE plpgsql AS
    $$BEGIN RETURN idseq_home.trap('= (oid, regclass)'); END$$;
CREATE OPERATOR idseq_home.= (LEFTARG = text, RIGHTARG = text, FUNCTION = idseq_home.text_eq);
CREATE OPERATOR idseq_home.<> (LEFTARG = text, RIGHTARG = text, FUNCTION = idseq_home.text_ne);
CREATE OPERATOR idseq_home.= (LEFTARG = boolean, RIGHTARG = boolean, FUNCTION = idseq_home.bool_eq);
CREATE OPERATOR idseq_home.= (LEFTARG = integer, RIGHTARG = integer, FUNCTION = idseq_home.int_eq);
CREATE OPERATOR idseq_home.<= (LEFTARG = integer, RIGHTARG = integer, FUNCTION = idseq_home.int_le);
CREATE OPERATOR idseq_home.= (LEFTARG = name, RIGHTARG = name, FUNCTION = idseq_home.name_eq);
CREATE OPERATOR idseq_home.|| (LEFTARG = text, RIGHTARG = text, FUNCTION = idseq_home.text_cat);
CREATE OPERATOR idseq_home.= (LEFTARG = oid, RIGHTARG = regclass, FUNCTION = idseq_home.oid_eq);
-- types named like built-in ones the script spells as identifiers
CREATE DOMAIN idseq_home.text AS pg_catalog.text CHECK (idseq_home.trap('domain text'));
CREATE DOMAIN idseq_home.regclass AS pg_catalog.regclass CHECK (idseq_home.trap('domain regclass'));
CREATE DOMAIN idseq_home.timestamptz AS pg_catalog.timestamptz CHECK (idseq_home.trap('domain timestamptz'));
CREATE DOMAIN idseq_home.interval AS pg_catalog.interval CHECK (idseq_home.trap('domain interval'));
RESET ROLE;
SELECT count(*) AS planted_objects FROM pg_depend d JOIN pg_namespace n ON n.oid = d.refobjid
 WHERE d.refclassid = 'pg_namespace'::regclass AND n.nspname = 'idseq_home';

-- pg_catalog is searched first when the search_path does not list it, so exact matches
-- always win; but a planted operator that matches better than pg_catalog's (here oid =
-- regclass, where pg_catalog only has oid = oid) is picked up by unqualified SQL. That is why
-- the install script qualifies or pins everything.
SET search_path = idseq_home, public;
SELECT state, message FROM public.expect_error($$SELECT 1259::oid = 'pg_class'::regclass$$);
-- The superuser installs the extension into that schema, with it first in the search_path.
CREATE EXTENSION idseq SCHEMA idseq_home;
RESET search_path;
-- Nothing but the planted objects themselves (their domains' CHECK constraints) depends on
-- anything the untrusted role created: no function, view rule, constraint, trigger,
-- operator, operator class, cast or default of the extension.
WITH planted(cls, oid) AS (
    SELECT 'pg_proc'::regclass, oid FROM pg_proc WHERE proowner = 'regress_idseq_evil'::regrole
    UNION ALL SELECT 'pg_operator'::regclass, oid FROM pg_operator WHERE oprowner = 'regress_idseq_evil'::regrole
    UNION ALL SELECT 'pg_type'::regclass, oid FROM pg_type WHERE typowner = 'regress_idseq_evil'::regrole)
SELECT DISTINCT pg_describe_object(d.classid, d.objid, d.objsubid) AS depends_on_planted_object
  FROM pg_depend d JOIN planted p ON p.cls = d.refclassid AND p.oid = d.refobjid
 WHERE NOT EXISTS (SELECT FROM planted q WHERE q.cls = d.classid AND q.oid = d.objid)
 ORDER BY 1;
-- Every argument and result type of the extension's functions is a built-in or its own type.
SELECT count(*) AS planted_types_in_signatures
  FROM pg_proc p, unnest(p.proargtypes::oid[] || p.prorettype) t
 WHERE p.pronamespace = 'idseq_home'::regnamespace AND p.proowner <> 'regress_idseq_evil'::regrole
   AND t IN (SELECT oid FROM pg_type WHERE typowner = 'regress_idseq_evil'::regrole);

-- A charset to work with, registered before the search_path turns hostile.
SELECT idseq_home.idseq_create_charset('regress_direct', 'XY');

-- The SQL objects, used with the hostile schema ahead of pg_catalog: the views and the
-- registries' CHECK constraints were bound to pg_catalog's objects when they were created,
-- and the registry trigger and snowflake_create_layout pin their search_path.
SET search_path = idseq_home, pg_catalog;
SELECT count(*) AS builtin_charsets FROM idseq_home.idseq_charsets WHERE builtin;
SELECT count(*) AS builtin_layouts FROM idseq_home.snowflake_layouts WHERE builtin;
-- the dedup trigger: identical rows (as a restore brings them) are skipped, a new row is
-- checked and kept, a conflicting one is refused
INSERT INTO idseq_home.idseq_charset_registry
    SELECT id, name, symbols, case_insensitive FROM idseq_home.idseq_charset_registry;
INSERT INTO idseq_home.idseq_charset_registry VALUES (369725891, 'regress_inserted', 'PQR', false);
SELECT * FROM public.expect_error($$INSERT INTO idseq_home.idseq_charset_registry VALUES (499647058, 'regress_direct', 'YX', false)$$);
SELECT * FROM public.expect_error($$INSERT INTO idseq_home.idseq_charset_registry VALUES (1024, 'regress_other', 'YX', false)$$);
SELECT name, symbols FROM idseq_home.idseq_charsets WHERE NOT builtin ORDER BY name COLLATE "C";
SELECT idseq_home.snowflake_create_layout('regress_layout', '2020-01-01 00:00:00+00', 'time:41,seq:12,rand:10');
SELECT * FROM public.expect_error($$SELECT idseq_home.snowflake_create_layout('regress_layout', '2020-01-01 00:00:00+00', 'time:41')$$);
SELECT name, fields FROM idseq_home.snowflake_layouts WHERE NOT builtin;
-- the partition functions pin theirs, and their SQL helper names pg_catalog's operator
CREATE TABLE public.regress_parts (id bigint NOT NULL) PARTITION BY RANGE (id);
SELECT idseq_home.snowflake_create_partitions('public.regress_parts', '2025-01-01 00:00+00', '2025-01-03 00:00+00');
SELECT idseq_home.snowflake_retire_partitions('public.regress_parts', '2025-01-02 00:00+00', true);
SELECT idseq_home.snowflake_retire_partitions('public.regress_parts', '2100-01-01 00:00+00', layout => 'instagram');
DROP TABLE public.regress_parts, public.regress_parts_p20250102;
RESET search_path;

-- The C functions, with the usual search_path (pg_catalog is searched first when it is not
-- listed): the planted objects are never reached.
SET search_path = idseq_home;
SELECT idseq_create_charset('regress_stars', '★☆');
SELECT '★☆'::lexid(regress_stars) AS custom_lexid, lexical_add('☆', 'regress_stars', 1) AS added,
       code_format(3, 2, 'regress_direct') AS code, idseq_encode(5, 'regress_stars') AS encoded;
SELECT create_code_sequence('codes', 2, 'regress_direct') AS created;
SELECT nextval_code('codes', 'regress_direct') AS first_code;
CREATE SEQUENCE lexid_seq;
SELECT nextval_lexid('lexid_seq', 'X'::lexid(regress_direct)) AS lexid, lexid_charset('★'::lexid(regress_stars));
SELECT snowflake_pack('regress_layout', '2020-01-01 00:00:01+00', 0, 2, 3) AS packed,
       (snowflake_unpack(snowflake_pack('regress_layout', '2020-01-01 00:00:01+00', 0, 2, 3), 'regress_layout')).*;
SELECT snowflake_nextval('regress_layout') > 0 AS generated;
SELECT state, message FROM public.expect_error($$SELECT lexical_add('A', 'no_such_charset', 1)$$);
SELECT state, message FROM public.expect_error($$SELECT snowflake_pack('no_such_layout', now())$$);
RESET search_path;

-- Objects planted in the extension's schema by a role with CREATE there cannot capture the
-- extension's own calls or keep the owner from creating layouts: an overload of
-- idseq_snowflake_check that would make a call by name ambiguous, and relations with the
-- names a new layout's state sequences would get.
SET ROLE regress_idseq_evil;
CREATE FUNCTION idseq_home.idseq_snowflake_check(name text, epoch timestamptz, fields text, time_unit interval,
                                                 extra integer DEFAULT 0) RETURNS text LANGUAGE plpgsql AS
    $$BEGIN PERFORM idseq_home.trap('idseq_snowflake_check overload'); RETURN fields; END$$;
CREATE SEQUENCE idseq_home.idseq_sf_state_regress_planted;
CREATE UNLOGGED SEQUENCE idseq_home.idseq_sf_last_regress_planted;
CREATE TABLE idseq_home.idseq_sf_last_regress_planted_too (x integer);
RESET ROLE;
SELECT idseq_home.snowflake_create_layout('regress_planted', '2020-01-02 00:00:00+00', 'time:41,seq:12');
SELECT idseq_home.snowflake_create_layout('regress_planted_too', '2020-01-02 00:00:00+00', 'time:41,rand:12');
-- each layout has sequences of its own (not the planted ones), owned as the registry is
SELECT r.name, s.relname LIKE 'idseq\_sf\_state\_regress\_planted%' AS state_name,
       l.relname LIKE 'idseq\_sf\_last\_regress\_planted%' AS last_name,
       s.relowner = reg.relowner AND l.relowner = reg.relowner AS owned_like_registry,
       s.relkind = 'S' AND s.relpersistence = 'p' AND l.relkind = 'S' AND l.relpersistence = 'u' AS kinds,
       pg_get_userbyid(s.relowner) <> 'regress_idseq_evil' AND pg_get_userbyid(l.relowner) <> 'regress_idseq_evil'
           AS not_planted
  FROM idseq_home.idseq_layout_registry r
  JOIN pg_class s ON s.oid = r.state_seq JOIN pg_class l ON l.oid = r.last_id_seq,
       pg_class reg
 WHERE reg.oid = 'idseq_home.idseq_layout_registry'::regclass AND r.name LIKE 'regress\_planted%'
 ORDER BY r.name;
SELECT idseq_home.snowflake_nextval('regress_planted') < idseq_home.snowflake_nextval('regress_planted') AS generates,
       idseq_home.snowflake_nextval('regress_planted_too') > 0 AS generates_too;
-- the planted relations were not used
SELECT last_value, is_called FROM idseq_home.idseq_sf_state_regress_planted;
SELECT last_value, is_called FROM idseq_home.idseq_sf_last_regress_planted;

-- ===== part 1b: every internal query, under a superuser's hostile search_path =====
-- Every query idseq runs itself (the column guard, the event trigger on partitioned tables,
-- registry lookups and inserts, the layout and code-sequence DDL, the charset hints) runs
-- with search_path pinned to pg_catalog, pg_temp (src/pg/internal_sql.h). An untrusted role
-- owns a schema that a superuser puts first, before pg_catalog, and plants objects with the
-- exact signatures of the built-ins internal SQL uses or could use: were any of them ever
-- resolved by an internal query, it would run as the superuser. Each records that it ran
-- (a WARNING, and nextval of a sequence, which no rollback undoes: a refused command leaves
-- the trace too) and returns NULL.
CREATE SCHEMA regress_shadow AUTHORIZATION regress_idseq_evil;
SET ROLE regress_idseq_evil;
CREATE SEQUENCE regress_shadow.ran;
CREATE FUNCTION regress_shadow.ran(what text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_catalog.nextval('regress_shadow.ran');
    RAISE WARNING 'shadow object ran: %', what;
END $$;
DO $$
DECLARE
    t text[];
    op text;
    fn text;
    n int := 0;
BEGIN
    -- comparison operators of the types catalog queries compare, same-type and the
    -- cross-type pairs whose exact match beats pg_catalog's operator
    FOREACH t SLICE 1 IN ARRAY ARRAY[
        ['"char"', '"char"'], ['oid', 'oid'], ['text', 'text'], ['name', 'name'], ['name', 'text'],
        ['text', 'name'], ['regclass', 'regclass'], ['oid', 'regclass'], ['regclass', 'oid'],
        ['regtype', 'regtype'], ['smallint', 'smallint'], ['smallint', 'integer'], ['integer', 'integer'],
        ['integer', 'bigint'], ['bigint', 'bigint'], ['boolean', 'boolean'], ['xid', 'xid'],
        ['timestamptz', 'timestamptz'], ['interval', 'interval']]
    LOOP
        FOREACH op IN ARRAY ARRAY['=', '<>', '<', '>', '<=', '>=']
        LOOP
            n := n + 1;
            fn := 'regress_shadow.op_' || n;
            EXECUTE format('CREATE FUNCTION %s(%s, %s) RETURNS boolean LANGUAGE plpgsql AS '
                           '$f$BEGIN PERFORM regress_shadow.ran(%L); RETURN NULL; END$f$',
                           fn, t[1], t[2], op || ' (' || t[1] || ', ' || t[2] || ')');
            EXECUTE format('CREATE OPERATOR regress_shadow.%s (LEFTARG = %s, RIGHTARG = %s, FUNCTION = %s)',
                           op, t[1], t[2], fn);
        END LOOP;
    END LOOP;
    -- text operators: concatenation and LIKE
    FOREACH op IN ARRAY ARRAY['||', '~~', '!~~']
    LOOP
        n := n + 1;
        fn := 'regress_shadow.op_' || n;
        EXECUTE format('CREATE FUNCTION %s(text, text) RETURNS %s LANGUAGE plpgsql AS '
                       '$f$BEGIN PERFORM regress_shadow.ran(%L); RETURN NULL; END$f$',
                       fn, CASE op WHEN '||' THEN 'text' ELSE 'boolean' END, op || ' (text, text)');
        EXECUTE format('CREATE OPERATOR regress_shadow.%s (LEFTARG = text, RIGHTARG = text, FUNCTION = %s)', op, fn);
    END LOOP;
    -- = ANY over arrays goes through the element type's "=" (planted above)
END $$;
-- functions with the exact signatures of the built-ins named in internal queries and in the
-- extension's PL/pgSQL functions
CREATE FUNCTION regress_shadow.pg_event_trigger_ddl_commands(
        OUT classid oid, OUT objid oid, OUT objsubid integer, OUT command_tag text, OUT object_type text,
        OUT schema_name text, OUT object_identity text, OUT in_extension boolean, OUT command pg_ddl_command)
    RETURNS SETOF record LANGUAGE plpgsql AS
    $$BEGIN PERFORM regress_shadow.ran('pg_event_trigger_ddl_commands()'); END$$;
CREATE FUNCTION regress_shadow.string_agg_step(text, text, text) RETURNS text LANGUAGE plpgsql AS
    $$BEGIN PERFORM regress_shadow.ran('string_agg(text, text)'); RETURN NULL; END$$;
CREATE AGGREGATE regress_shadow.string_agg(text, text) (SFUNC = regress_shadow.string_agg_step, STYPE = text);
CREATE FUNCTION regress_shadow.nextval(regclass) RETURNS bigint LANGUAGE plpgsql AS
    $$BEGIN PERFORM regress_shadow.ran('nextval(regclass)'); RETURN NULL; END$$;
CREATE FUNCTION regress_shadow.setval(regclass, bigint) RETURNS bigint LANGUAGE plpgsql AS
    $$BEGIN PERFORM regress_shadow.ran('setval(regclass, bigint)'); RETURN NULL; END$$;
CREATE FUNCTION regress_shadow.pg_sequence_last_value(regclass) RETURNS bigint LANGUAGE plpgsql AS
    $$BEGIN PERFORM regress_shadow.ran('pg_sequence_last_value(regclass)'); RETURN NULL; END$$;
CREATE FUNCTION regress_shadow.format_type(oid, integer) RETURNS text LANGUAGE plpgsql AS
    $$BEGIN PERFORM regress_shadow.ran('format_type(oid, integer)'); RETURN NULL; END$$;
CREATE FUNCTION regress_shadow.pg_get_userbyid(oid) RETURNS name LANGUAGE plpgsql AS
    $$BEGIN PERFORM regress_shadow.ran('pg_get_userbyid(oid)'); RETURN NULL; END$$;
CREATE FUNCTION regress_shadow.quote_ident(text) RETURNS text LANGUAGE plpgsql AS
    $$BEGIN PERFORM regress_shadow.ran('quote_ident(text)'); RETURN NULL; END$$;
CREATE FUNCTION regress_shadow.format(text, text) RETURNS text LANGUAGE plpgsql AS
    $$BEGIN PERFORM regress_shadow.ran('format(text, text)'); RETURN NULL; END$$;
CREATE FUNCTION regress_shadow.length(text) RETURNS integer LANGUAGE plpgsql AS
    $$BEGIN PERFORM regress_shadow.ran('length(text)'); RETURN NULL; END$$;
CREATE FUNCTION regress_shadow.lower(text) RETURNS text LANGUAGE plpgsql AS
    $$BEGIN PERFORM regress_shadow.ran('lower(text)'); RETURN NULL; END$$;
CREATE FUNCTION regress_shadow.now() RETURNS timestamptz LANGUAGE plpgsql AS
    $$BEGIN PERFORM regress_shadow.ran('now()'); RETURN NULL; END$$;
RESET ROLE;
SELECT count(*) AS planted_operators FROM pg_operator WHERE oprnamespace = 'regress_shadow'::regnamespace;
-- the planted operators do capture unqualified SQL under this search_path
SET search_path = regress_shadow, pg_catalog, idseq_home;
SELECT 'r'::"char" = 'r'::"char" AS captured;
RESET search_path;
SELECT last_value AS shadow_calls_so_far FROM regress_shadow.ran;

-- The superuser, with the untrusted schema first:
SET search_path = regress_shadow, pg_catalog, idseq_home;
-- the column guard on CREATE TABLE / ALTER TABLE, with and without lexid columns, refused
-- and accepted; composite types, domains, partitioned tables (the event trigger's second query)
CREATE TABLE regress_shadow_plain (a integer);
CREATE TABLE regress_shadow_typed (a integer, c idseq_home.lexid(base36));
CREATE TABLE regress_shadow_untyped (c idseq_home.lexid);
ALTER TABLE regress_shadow_plain ADD COLUMN b integer;
ALTER TABLE regress_shadow_typed ADD COLUMN d idseq_home.lexid(regress_direct);
ALTER TABLE regress_shadow_typed ADD COLUMN e idseq_home.lexid;
ALTER TABLE regress_shadow_typed ALTER COLUMN a TYPE idseq_home.lexid USING NULL;
CREATE TYPE regress_shadow_comp AS (x idseq_home.lexid(base36));
CREATE TYPE regress_shadow_comp_bad AS (x idseq_home.lexid);
CREATE DOMAIN regress_shadow_dom AS idseq_home.lexid(base36);
CREATE DOMAIN regress_shadow_dom_bad AS idseq_home.lexid;
CREATE TABLE regress_shadow_parted (k idseq_home.lexid(base36)) PARTITION BY RANGE (k);
CREATE TABLE regress_shadow_parted_bad (k text) PARTITION BY RANGE ((k::idseq_home.lexid));
CREATE TABLE regress_shadow_as AS SELECT 'A'::idseq_home.lexid(base36) AS c;
CREATE MATERIALIZED VIEW regress_shadow_mv AS SELECT 'A'::idseq_home.lexid AS c;
-- the registries: a new charset (and a refused redefinition), a new layout (and a refused
-- one), a code sequence
SELECT idseq_home.idseq_create_charset('regress_shadow_cs', 'MN');
SELECT idseq_home.idseq_create_charset('regress_shadow_cs', 'NM');
SELECT idseq_home.snowflake_create_layout('regress_shadow_layout', '2020-01-01 00:00:00+00', 'time:41,seq:11');
SELECT idseq_home.snowflake_create_layout('regress_shadow_layout', '2020-01-01 00:00:00+00', 'time:41');
SELECT idseq_home.create_code_sequence('regress_shadow_codes', 2, 'regress_shadow_cs');
SELECT idseq_home.nextval_code('regress_shadow_codes', 'regress_shadow_cs');
-- the generators on sequences, and ALTER SEQUENCE (the step guard)
CREATE SEQUENCE regress_shadow_blocks INCREMENT BY 10;
SELECT * FROM idseq_home.lexid_block('regress_shadow_blocks', 'MN'::idseq_home.lexid(regress_shadow_cs));
ALTER SEQUENCE regress_shadow_blocks INCREMENT BY 2;
SELECT idseq_home.nextval_lexid('regress_shadow_blocks', 'M'::idseq_home.lexid(regress_shadow_cs));
-- a new session: every charset and layout is looked up in the registries, cold
\c regress_idseq_security
SET client_min_messages = warning;
SET search_path = regress_shadow, pg_catalog, idseq_home;
SELECT 'MNM'::idseq_home.lexid(regress_shadow_cs) AS typed, idseq_home.code_format(3, 2, 'regress_shadow_cs') AS code,
       idseq_home.idseq_encode(5, 'regress_shadow_cs') AS encoded,
       idseq_home.lexical_add('MN', 'regress_shadow_cs', 1) AS added;
SELECT idseq_home.snowflake_nextval('regress_shadow_layout') > 0 AS generated;
-- unknown names: the errors' hints list registered names (string_agg over the registries)
SELECT idseq_home.code_format(3, 2, 'regress_no_such_cs');
SELECT idseq_home.snowflake_nextval('regress_no_such_layout');
SELECT 'A'::idseq_home.lexid(regress_no_such_cs);
RESET search_path;
-- no planted object ran (only the one deliberate capture above)
SELECT last_value AS shadow_calls FROM regress_shadow.ran;
SELECT c.relname, pg_catalog.format_type(a.atttypid, a.atttypmod)
  FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
 WHERE c.relname LIKE 'regress\_shadow\_%' AND c.relkind IN ('r', 'p', 'c', 'm')
 ORDER BY 1, a.attnum;

-- ===== part 2: privileges =====
\c :"datname"
SET client_min_messages = warning;
DROP DATABASE regress_idseq_security;
RESET client_min_messages;
CREATE SCHEMA regress_sec;
CREATE SCHEMA regress_sec_open;
GRANT USAGE ON SCHEMA regress_sec TO regress_idseq_user;
GRANT USAGE, CREATE ON SCHEMA regress_sec_open TO regress_idseq_user;
SET ROLE regress_idseq_user;

-- Everyone reads the charsets and the layouts, and uses every function.
SELECT count(*) > 0 AS reads_charsets FROM idseq_charsets;
SELECT count(*) > 0 AS reads_layouts FROM snowflake_layouts;
SELECT 'ABC'::lexid(upper) + 1 AS lexid, code_format(5, 3) AS code, idseq_encode(42) AS encoded,
       snowflake_pack('snowflake', '2020-01-01 00:00:00+00', 1) AS packed,
       snowflake_nextval('display60') > 0 AS generated;

-- Registering charsets is for the extension's owner, or whom it grants INSERT on the
-- charset registry; registering layouts is for the owner (below). The functions run with the
-- caller's privileges (none of them is SECURITY DEFINER), so the registries' privileges are the
-- check.
SELECT * FROM expect_error($$SELECT idseq_create_charset('regress_user_cs', 'XY')$$);
SELECT * FROM expect_error($$CREATE TABLE regress_sec_open.t (c lexid(regress_user_cs, 'XY'))$$);
SELECT * FROM expect_error($$INSERT INTO idseq_charset_registry VALUES (1024, 'regress_user_cs', 'XY', false)$$);
SELECT * FROM expect_error($$DELETE FROM idseq_charset_registry$$);
SELECT * FROM expect_error($$SELECT snowflake_create_layout('regress_user_l', now(), 'time:41')$$);
SELECT * FROM expect_error($$INSERT INTO idseq_layout_registry SELECT 'regress_user_l', now(), 'time:41', '1 ms', 'pg_class', 'pg_class'$$);
RESET ROLE;
GRANT INSERT ON idseq_charset_registry TO regress_idseq_user;
SET ROLE regress_idseq_user;
SELECT idseq_create_charset('regress_user_cs', 'XY');
CREATE TABLE regress_sec_open.t (c lexid(regress_user_cs2, 'PQ'));
SELECT name, symbols FROM idseq_charsets WHERE name LIKE 'regress\_user\_%' ORDER BY name;
-- still no redefinition, and no UPDATE or DELETE
SELECT * FROM expect_error($$SELECT idseq_create_charset('regress_user_cs', 'XYZ')$$);
SELECT * FROM expect_error($$UPDATE idseq_charset_registry SET symbols = 'YX' WHERE name = 'regress_user_cs'$$);
RESET ROLE;
REVOKE INSERT ON idseq_charset_registry FROM regress_idseq_user;
-- INSERT on the layout registry is not enough: snowflake_create_layout locks the registry
-- against concurrent creators (a lock mode that needs UPDATE, DELETE or TRUNCATE), creates
-- two sequences in the extension's schema and gives them to the registry's owner
GRANT INSERT ON idseq_layout_registry TO regress_idseq_user;
SET ROLE regress_idseq_user;
SELECT * FROM expect_error($$SELECT snowflake_create_layout('regress_user_l', now(), 'time:41')$$);
RESET ROLE;
REVOKE INSERT ON idseq_layout_registry FROM regress_idseq_user;

-- create_code_sequence creates with the caller's rights: CREATE on the target schema is
-- needed, and the sequence belongs to the caller.
SET ROLE regress_idseq_user;
SELECT * FROM expect_error($$SELECT create_code_sequence('regress_sec.codes')$$);
SELECT * FROM expect_error($$SELECT create_code_sequence('public.codes')$$);
SELECT create_code_sequence('regress_sec_open.codes') AS created;
SELECT relowner::regrole AS owner FROM pg_class WHERE oid = 'regress_sec_open.codes'::regclass;
SELECT nextval_code('regress_sec_open.codes') AS code;
RESET ROLE;
-- the generators need the sequence privileges nextval needs (USAGE or UPDATE)
CREATE SEQUENCE regress_sec.private_seq;
CREATE SEQUENCE regress_sec.private_codes MINVALUE 0 MAXVALUE 675 CYCLE;
SET ROLE regress_idseq_user;
SELECT * FROM expect_error($$SELECT nextval_lexid('regress_sec.private_seq', 'A')$$);
SELECT * FROM expect_error($$SELECT * FROM lexid_block('regress_sec.private_seq', 'A')$$);
SELECT * FROM expect_error($$SELECT nextval_code('regress_sec.private_codes')$$);
RESET ROLE;
SELECT last_value, is_called FROM regress_sec.private_seq;

-- idseq.node_id: only the server configuration sets it (PGC_SIGHUP), so no session, not
-- even a superuser's, can mint another node's ids; ALTER SYSTEM is for superusers.
SELECT current_setting('idseq.node_id') AS node_id_before \gset
SELECT * FROM expect_error($$SET idseq.node_id = 5$$);
SELECT * FROM expect_error($$SELECT set_config('idseq.node_id', '5', false)$$);
SELECT * FROM expect_error($$SET idseq.snowflake_lease_ms = 0$$);
SET ROLE regress_idseq_user;
SELECT * FROM expect_error($$SET idseq.snowflake_max_ahead_ms = 3600000$$);
SELECT * FROM expect_error($$SET idseq.node_id = 5$$);
SELECT * FROM expect_error($$SET LOCAL idseq.node_id = 5$$);
SELECT * FROM expect_error($$SET idseq.test_clock_offset_ms = -60000$$);
SELECT * FROM expect_error($$ALTER ROLE regress_idseq_user SET idseq.node_id = 5$$);
-- unknown names under the reserved prefix are refused too
SELECT * FROM expect_error($$SET idseq.nodeid = 5$$);
-- (ALTER SYSTEM cannot run in a transaction block, so this one is shown by psql)
\set VERBOSITY sqlstate
ALTER SYSTEM SET idseq.node_id = 5;
\set VERBOSITY default
RESET ROLE;
SELECT * FROM expect_error(format('ALTER DATABASE %I SET idseq.node_id = 5', :'datname'));
-- (A superuser's ALTER SYSTEM is tested in t/040_node_id.pl: it would change this server.)
SELECT current_setting('idseq.node_id') = :'node_id_before' AS node_id_unchanged;

-- EXECUTE is the default (PUBLIC), so the privilege checks are those of the objects the
-- functions touch, except in the SECURITY DEFINER functions below, which no role may execute
-- itself. (LEAKPROOF is reviewed in 90_labels.)
SELECT string_agg(p.proname, ', ' ORDER BY p.proname) FILTER (WHERE p.prosecdef) AS security_definer,
       string_agg(p.proname, ', ' ORDER BY p.proname) FILTER (WHERE p.proleakproof) AS leakproof,
       string_agg(p.proname, ', ' ORDER BY p.proname)
           FILTER (WHERE NOT has_function_privilege('public', p.oid, 'EXECUTE')) AS public_cannot_execute
  FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass AND d.deptype = 'e'
  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idseq';
-- Every SECURITY DEFINER function of the extension: the inventory of docs/guarantees.md
-- (Privileges), so that one added or removed shows here. Each pins its search_path, no role
-- may call it (no EXECUTE for PUBLIC), and only the trigger or event trigger named reaches it.
SELECT p.oid::regprocedure AS function, pg_get_function_result(p.oid) AS returns,
       pg_get_userbyid(p.proowner) = pg_get_userbyid(e.extowner) AS owned_by_extension_owner,
       p.proconfig, has_function_privilege('public', p.oid, 'EXECUTE') AS public_may_execute,
       (SELECT string_agg(x, ', ' ORDER BY x) FROM (
            SELECT format('trigger %s on %s', t.tgname, t.tgrelid::regclass) FROM pg_trigger t WHERE t.tgfoid = p.oid
            UNION ALL
            SELECT format('event trigger %s on %s', v.evtname, v.evtevent) FROM pg_event_trigger v WHERE v.evtfoid = p.oid) r(x))
           AS reached_by
  FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass AND d.deptype = 'e'
  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idseq'
 WHERE p.prosecdef
 ORDER BY 1;
-- what PUBLIC and the database's owner may do with the extension's tables, sequences and views
SELECT c.relname, c.relkind,
       (SELECT string_agg(a.privilege_type, ', ' ORDER BY a.privilege_type)
          FROM aclexplode(c.relacl) a WHERE a.grantee = 0) AS public_may,
       (SELECT string_agg(a.privilege_type, ', ' ORDER BY a.privilege_type)
          FROM aclexplode(c.relacl) a WHERE a.grantee = 'pg_database_owner'::regrole) AS db_owner_may
  FROM pg_class c JOIN pg_depend d ON d.objid = c.oid AND d.classid = 'pg_class'::regclass AND d.deptype = 'e'
  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idseq'
 WHERE c.relname NOT LIKE 'idseq\_sf\_guard\_%'
    OR substr(c.relname, 16) IN (SELECT name FROM idseq_snowflake_builtin_layouts() UNION ALL SELECT 'uuidv7')
 ORDER BY c.relname;
-- the guards of custom layouts (one per layout, made with it): nobody but their owner may use them
SELECT count(*) = (SELECT count(*) FROM idseq_layout_registry) AS one_guard_per_custom_layout,
       count(*) FILTER (WHERE c.relacl IS NOT NULL) AS with_grants
  FROM pg_class c JOIN pg_depend d ON d.objid = c.oid AND d.classid = 'pg_class'::regclass AND d.deptype = 'e'
  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idseq'
 WHERE c.relname LIKE 'idseq\_sf\_guard\_%'
   AND substr(c.relname, 16) NOT IN (SELECT name FROM idseq_snowflake_builtin_layouts() UNION ALL SELECT 'uuidv7');

-- ===== part 3: operator capture through implicit casts =====
-- PostgreSQL prefers an exact match in any schema of the search_path over a match through an
-- implicit cast. Were lexid + bigint the only + on lexid, `code + 1` (an integer) would pick
-- an exact lexid + integer from a schema placed AFTER the extension's, and run it with the
-- rights of whoever evaluates the expression. The extension has exact smallint, integer and
-- text variants of every operator and function users call with integer literals (or
-- untyped values), and the earlier schema wins between equal signatures. An untrusted role
-- owns a schema placed after the extension's and defines those signatures (and one-argument
-- overloads that an exact match with defaults would meet); each records that it ran.
CREATE SCHEMA regress_later AUTHORIZATION regress_idseq_evil;
SET ROLE regress_idseq_evil;
CREATE SEQUENCE regress_later.ran;
CREATE FUNCTION regress_later.ran(what text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_catalog.nextval('regress_later.ran');
    RAISE WARNING 'captured: %', what;
END $$;
DO $$
DECLARE
    f text[];
    n int := 0;
BEGIN
    FOREACH f SLICE 1 IN ARRAY ARRAY[
        -- name, argument types, result type
        ['lexical_add', 'lexid, integer', 'lexid'], ['lexical_add', 'lexid, smallint', 'lexid'],
        ['lexical_add', 'lexid, text', 'lexid'],
        ['lexical_add', 'text, text, integer, boolean', 'text'], ['lexical_add', 'text, text, integer', 'text'],
        ['lexical_add', 'text, text, text, boolean', 'text'],
        ['lexid_from_rank', 'integer, text', 'lexid'], ['lexid_from_rank', 'bigint, text', 'lexid'],
        ['lexid_from_rank', 'smallint, text', 'lexid'], ['lexid_from_rank', 'text, text', 'lexid'],
        ['code_format', 'integer, integer, text', 'text'], ['code_format', 'integer, integer', 'text'],
        ['code_format', 'text, integer', 'text'],
        ['idseq_encode', 'integer, text, integer, integer', 'text'], ['idseq_encode', 'integer', 'text'],
        ['idseq_encode', 'integer, text', 'text'], ['idseq_encode', 'text', 'text'],
        ['idseq_scramble', 'integer, text, integer', 'bigint'], ['idseq_scramble', 'integer, text', 'bigint'],
        ['idseq_unscramble', 'integer, text, integer', 'bigint'], ['idseq_unscramble', 'integer, text', 'bigint'],
        ['snowflake_timestamp', 'integer, text', 'timestamptz'], ['snowflake_timestamp', 'integer', 'timestamptz'],
        ['snowflake_timestamp', 'text', 'timestamptz'],
        ['later_plus', 'lexid, integer', 'lexid'], ['later_plus2', 'lexid, smallint', 'lexid'],
        ['later_plus_text', 'lexid, text', 'lexid'],
        ['later_minus', 'lexid, integer', 'lexid'], ['later_minus2', 'lexid, smallint', 'lexid']]
    LOOP
        n := n + 1;
        EXECUTE format('CREATE FUNCTION regress_later.%I(%s) RETURNS %s LANGUAGE plpgsql AS '
                       '$f$BEGIN PERFORM regress_later.ran(%L); RETURN NULL; END$f$',
                       f[1], f[2], f[3], f[1] || '(' || f[2] || ')');
    END LOOP;
END $$;
CREATE OPERATOR regress_later.+ (LEFTARG = lexid, RIGHTARG = integer, FUNCTION = regress_later.later_plus);
CREATE OPERATOR regress_later.+ (LEFTARG = lexid, RIGHTARG = smallint, FUNCTION = regress_later.later_plus2);
CREATE OPERATOR regress_later.+ (LEFTARG = lexid, RIGHTARG = text, FUNCTION = regress_later.later_plus_text);
CREATE OPERATOR regress_later.- (LEFTARG = lexid, RIGHTARG = integer, FUNCTION = regress_later.later_minus);
CREATE OPERATOR regress_later.- (LEFTARG = lexid, RIGHTARG = smallint, FUNCTION = regress_later.later_minus2);
CREATE FUNCTION regress_later.snowflake_unpack(integer, text DEFAULT 'snowflake')
    RETURNS TABLE(ts timestamptz, node integer, seq integer, rand integer) LANGUAGE plpgsql AS
    $$BEGIN PERFORM regress_later.ran('snowflake_unpack(integer, text)'); END$$;
RESET ROLE;
-- The calls of the README and the docs, with the untrusted schema after the extension's
-- (a superuser evaluating them, as a default or a trigger would):
SET search_path = public, regress_later;
SELECT 'ZZ'::lexid(base36) + 1 AS plus, 'ZZ'::lexid(base36) - 1 AS minus,
       'ZZ'::lexid(base36) + 1::smallint AS plus2, 'ZZ'::lexid(base36) - 1::smallint AS minus2,
       lexical_add('ZZ'::lexid(base36), 1) AS add, lexical_add('ZZ', 'base36', 1) AS add_text,
       lexical_add('zz', 'base36', 1, false) AS add_text4;
SELECT lexid_from_rank(5, 'base36') AS rank4, lexid_from_rank(5000000000, 'base36') AS rank8,
       lexid_from_rank(5::smallint, 'base36') AS rank2, lexid_from_rank(5.0, 'base36') AS rank_numeric;
SELECT code_format(7, 3) AS code, code_format(7, 3, 'upper') AS code3, idseq_encode(12345) AS enc,
       idseq_encode(12345, 'base36') AS enc2, idseq_encode(12345, 'base36', 0, 6) AS enc4,
       idseq_scramble(5, 'k') = idseq_scramble(5::bigint, 'k') AS scramble,
       idseq_unscramble(idseq_scramble(5, 'k', 20)::integer, 'k', 20) AS unscramble,
       snowflake_timestamp(5) AS ts, (snowflake_unpack(5)).node AS node;
CREATE TEMP TABLE later_default (code lexid(base36) DEFAULT 'ZZ'::lexid(base36) + 1);
INSERT INTO later_default DEFAULT VALUES;
SELECT code FROM later_default;
-- untyped values (NULL, a quoted number, a parameter a driver sends untyped) resolve to the
-- text variants and read as before
SELECT idseq_encode(NULL) IS NULL AS null_enc, 'ZZ'::lexid(base36) + NULL IS NULL AS null_plus,
       'ZZ'::lexid(base36) + '2' AS quoted_plus, lexid_from_rank('7', 'hex') AS quoted_rank,
       code_format('7', 2) AS quoted_code, lexical_add('A', 'base36', '2') AS quoted_add;
PREPARE later_untyped(unknown) AS SELECT 'ZZ'::lexid(base36) + $1 AS plus, idseq_encode($1) AS enc;
EXECUTE later_untyped('3');
DEALLOCATE later_untyped;
-- lexid - untyped is still the distance
SELECT 'ZZ'::lexid(base36) - 'Z' AS distance;
RESET search_path;
SELECT last_value, is_called AS any_captured FROM regress_later.ran;
-- (A schema BEFORE the extension's, like a "$user" schema a role creates, can define the
-- same signatures and capture any call: that is PostgreSQL's rule for every function; such a
-- search_path trusts the schema's owner. docs/guarantees.md, security notes.)
SET client_min_messages = warning;
DROP SCHEMA regress_later CASCADE;
RESET client_min_messages;

SET client_min_messages = warning;
DROP SCHEMA regress_sec, regress_sec_open CASCADE;
RESET client_min_messages;
DROP ROLE regress_idseq_user;
DROP ROLE regress_idseq_evil;
