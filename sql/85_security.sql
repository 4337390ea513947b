-- Privileges and script security (issue 6).
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
SELECT idseq_home.snowflake_create_layout('regress_planted', '2020-01-01 00:00:00+00', 'time:41,seq:12');
SELECT idseq_home.snowflake_create_layout('regress_planted_too', '2020-01-01 00:00:00+00', 'time:41,rand:12');
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
-- caller's privileges (none is SECURITY DEFINER), so the registries' privileges are the
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

-- EXECUTE is the default (PUBLIC) and no function is SECURITY DEFINER, so the privilege
-- checks are those of the objects the functions touch, except one trigger function that no
-- role may execute (src/sql/90_privileges.sql): the layout registry's adoption of a new
-- layout's sequences. (LEAKPROOF is reviewed in 90_labels.)
SELECT string_agg(p.proname, ', ' ORDER BY p.proname) FILTER (WHERE p.prosecdef) AS security_definer,
       string_agg(p.proname, ', ' ORDER BY p.proname) FILTER (WHERE p.proleakproof) AS leakproof,
       string_agg(p.proname, ', ' ORDER BY p.proname)
           FILTER (WHERE NOT has_function_privilege('public', p.oid, 'EXECUTE')) AS public_cannot_execute
  FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass AND d.deptype = 'e'
  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idseq';
-- what PUBLIC and the database's owner may do with the extension's tables, sequences and views
SELECT c.relname, c.relkind,
       (SELECT string_agg(a.privilege_type, ', ' ORDER BY a.privilege_type)
          FROM aclexplode(c.relacl) a WHERE a.grantee = 0) AS public_may,
       (SELECT string_agg(a.privilege_type, ', ' ORDER BY a.privilege_type)
          FROM aclexplode(c.relacl) a WHERE a.grantee = 'pg_database_owner'::regrole) AS db_owner_may
  FROM pg_class c JOIN pg_depend d ON d.objid = c.oid AND d.classid = 'pg_class'::regclass AND d.deptype = 'e'
  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idseq'
 WHERE c.relname NOT LIKE 'idseq\_sf\_guard\_%'
    OR substr(c.relname, 16) IN (SELECT name FROM idseq_snowflake_builtin_layouts())
 ORDER BY c.relname;
-- the guards of custom layouts (one per layout, made with it): nobody but their owner may use them
SELECT count(*) = (SELECT count(*) FROM idseq_layout_registry) AS one_guard_per_custom_layout,
       count(*) FILTER (WHERE c.relacl IS NOT NULL) AS with_grants
  FROM pg_class c JOIN pg_depend d ON d.objid = c.oid AND d.classid = 'pg_class'::regclass AND d.deptype = 'e'
  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idseq'
 WHERE c.relname LIKE 'idseq\_sf\_guard\_%'
   AND substr(c.relname, 16) NOT IN (SELECT name FROM idseq_snowflake_builtin_layouts());

SET client_min_messages = warning;
DROP SCHEMA regress_sec, regress_sec_open CASCADE;
RESET client_min_messages;
DROP ROLE regress_idseq_user;
DROP ROLE regress_idseq_evil;
