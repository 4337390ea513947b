-- Public ids with named keys (1.3): idseq_create_key, idseq_import_key, idseq_export_key,
-- idseq_drop_key, idseq_grant_key, idseq_revoke_key, idseq_public_id, idseq_from_public_id,
-- idseq_try_from_public_id, the view idseq_keys; with real roles: who may use, read, grant
-- and drop a key. (Logs, pg_stat_statements and pg_dump: t/070_named_keys.pl.)
\pset null '(null)'
\x off
SELECT current_database() AS datname \gset
SET client_min_messages = warning;
CREATE ROLE regress_key_owner;
CREATE ROLE regress_key_user;
CREATE ROLE regress_key_member IN ROLE regress_key_user;           -- inherits the group's rights
CREATE ROLE regress_key_noinherit NOINHERIT IN ROLE regress_key_user; -- must SET ROLE first
CREATE ROLE regress_key_other;
CREATE ROLE regress_key_dbowner;
RESET client_min_messages;
GRANT CREATE ON DATABASE :"datname" TO regress_key_owner;

-- ===== labels =====
SELECT p.oid::regprocedure AS function, provolatile AS vol, proparallel AS par, proisstrict AS strict,
       prosecdef AS secdef
  FROM pg_proc p
 WHERE proname ~ '^idseq_(create|import|export|drop|grant|revoke)_key$|public_id$'
 ORDER BY p.oid::regprocedure::text;

-- ===== the format, pinned: a known key (an import; real keys never appear in SQL) =====
SELECT idseq_import_key('regress_fixed', '\x000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f');
SELECT id, idseq_public_id(id, 'regress_fixed') AS public_id,
       idseq_from_public_id(idseq_public_id(id, 'regress_fixed'), 'regress_fixed') = id AS round_trip
  FROM (VALUES (0::bigint), (1), (-1), (9223372036854775807)) v(id);
-- the same values in other charsets, at the widths that hold every 64-bit value
SELECT c.name, c.width, idseq_public_id(1, 'regress_fixed', c.name, c.width) AS public_id,
       idseq_from_public_id(idseq_public_id(1, 'regress_fixed', c.name, c.width), 'regress_fixed', c.name, c.width) AS id
  FROM (VALUES ('base62', 11), ('base64url', 11), ('crockford32', 13), ('base36', 13), ('hex', 16), ('digits', 20))
       c(name, width);
-- the integer, smallint and text overloads are the bigint function
SELECT idseq_public_id(1::integer, 'regress_fixed') = idseq_public_id(1::bigint, 'regress_fixed') AS int4,
       idseq_public_id(1::smallint, 'regress_fixed') = idseq_public_id(1::bigint, 'regress_fixed') AS int2,
       idseq_public_id('1', 'regress_fixed') = idseq_public_id(1::bigint, 'regress_fixed') AS text;

-- ===== property: every bigint round trips, every public id has the width =====
-- 20,000 random bigints over the whole range (both signs, every magnitude) and the edges.
SELECT setseed(0.25);
CREATE TEMP TABLE ids AS
SELECT ((floor(random() * 4294967296)::bigint - 2147483648) << 32
        | floor(random() * 4294967296)::bigint) >> floor(random() * 63)::integer AS id
  FROM generate_series(1, 20000)
UNION ALL VALUES (0), (1), (-1), (9223372036854775807), (-9223372036854775808);
SELECT count(*) AS ids, count(*) FILTER (WHERE id < 0) > 5000 AS negatives,
       count(*) FILTER (WHERE id BETWEEN 0 AND 1000000) > 100 AS small_ones,
       bool_and(idseq_from_public_id(idseq_public_id(id, 'regress_fixed'), 'regress_fixed') = id) AS round_trip,
       bool_and(idseq_try_from_public_id(idseq_public_id(id, 'regress_fixed'), 'regress_fixed') = id) AS try_round_trip,
       bool_and(length(idseq_public_id(id, 'regress_fixed')) = 11) AS all_11,
       count(DISTINCT idseq_public_id(id, 'regress_fixed')) = count(DISTINCT id) AS distinct_codes
  FROM ids;
-- consecutive ids land far apart (no order leaks into the codes)
SELECT count(*) FILTER (WHERE a < b) BETWEEN 400 AND 600 AS order_is_hidden
  FROM (SELECT idseq_public_id(g, 'regress_fixed') COLLATE "C" AS a,
               idseq_public_id(g + 1, 'regress_fixed') COLLATE "C" AS b
          FROM generate_series(1, 1000) g) s;

-- ===== property: random codes never crash; whatever decodes is canonical =====
-- 20,000 random texts of 0 to 14 symbols, mostly base58 symbols, some not, at widths 9 to 12:
-- the try_ variant gives NULL or an id whose public id is the text itself; the strict one
-- raises 22P02 or 22003 exactly when the try_ variant gives NULL.
CREATE TEMP TABLE codes AS
SELECT string_agg(CASE WHEN random() < 0.03 THEN chr(33 + floor(random() * 94)::integer)
                       ELSE substr('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz',
                                   1 + floor(random() * 58)::integer, 1) END, '') AS code,
       9 + (g % 4) AS width
  FROM generate_series(1, 20000) g, LATERAL generate_series(1, (g * 7919) % 15 + 1) s
 GROUP BY g;
INSERT INTO codes VALUES ('', 11), (repeat('z', 11), 11), ('jpXCZedGfVQ', 11), ('jpXCZedGfVR', 11);
CREATE FUNCTION pg_temp.strict_state(code text, width integer) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    PERFORM idseq_from_public_id(code, 'regress_fixed', 'base58', width);
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE;
END $$;
SELECT count(*) AS codes,
       count(*) FILTER (WHERE t IS NOT NULL) > 0 AS some_decode,
       count(*) FILTER (WHERE t IS NULL) > 0 AS some_refused,
       bool_and(t IS NULL OR idseq_public_id(t, 'regress_fixed', 'base58', width) = code) AS decoded_are_canonical,
       bool_and((t IS NULL) = (s <> 'ok')) AS strict_agrees,
       string_agg(DISTINCT s, ', ' ORDER BY s) AS strict_outcomes
  FROM (SELECT code, width, idseq_try_from_public_id(code, 'regress_fixed', 'base58', width) AS t,
               pg_temp.strict_state(code, width) AS s FROM codes) r;
-- each kind of bad code: NULL from try_, a clean error without key material from the strict one
SELECT replace(code, E'\n', '\n') AS code, width, idseq_try_from_public_id(code, 'regress_fixed', 'base58', width) AS try,
       (SELECT state || ': ' || message || coalesce(' / ' || nullif(detail, ''), '')
          FROM expect_error(format('SELECT idseq_from_public_id(%L, %L, %L, %s)', code, 'regress_fixed', 'base58', width))) AS strict
  FROM (VALUES ('', 11), ('0OIl1111111', 11), ('EgFM4fUojk', 11), ('1EgFM4fUojkZ', 11), ('EgFM4fUojkZ', 12),
               ('zzzzzzzzzzz', 11), ('jpXCZedGfVR', 11), ('2222222222222', 11), ('EgFM4fUojk€', 11),
               (E'EgFM4fUojk\n', 11)) v(code, width);
SELECT idseq_try_from_public_id(NULL, 'regress_fixed') AS null_code, idseq_from_public_id(NULL, 'regress_fixed') AS strict_null,
       idseq_public_id(NULL::bigint, 'regress_fixed') AS null_id, idseq_public_id(1, NULL) AS null_key;
-- what is not a bad code is an error from both (a caller's mistake, not a visitor's)
SELECT * FROM expect_error($$SELECT idseq_try_from_public_id('EgFM4fUojkZ', 'regress_fixed', 'base58', 65)$$);
SELECT * FROM expect_error($$SELECT idseq_try_from_public_id('EgFM4fUojkZ', 'regress_fixed', 'nosuch')$$);
SELECT * FROM expect_error($$SELECT idseq_try_from_public_id('EgFM4fUojkZ', 'regress_nosuch')$$);

-- ===== index scans and parallel workers =====
-- STABLE: a lookup by public id uses the primary key.
CREATE TEMP TABLE orders (id bigint PRIMARY KEY, total numeric);
INSERT INTO orders SELECT g, g FROM generate_series(1, 1000) g;
ANALYZE orders;
EXPLAIN (COSTS OFF) SELECT * FROM orders WHERE id = idseq_from_public_id('4WzCVqdWK5k', 'regress_fixed');
SELECT * FROM orders WHERE id = idseq_from_public_id('4WzCVqdWK5k', 'regress_fixed');
-- PARALLEL SAFE: workers read the key too, with the leader's user, and agree with it.
CREATE TABLE regress_key_par AS SELECT g AS id FROM generate_series(1, 20000) g;
ANALYZE regress_key_par;
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
EXPLAIN (COSTS OFF) SELECT count(*) FROM regress_key_par WHERE idseq_public_id(id, 'regress_fixed') > 'x';
SELECT count(*) FILTER (WHERE idseq_from_public_id(idseq_public_id(id, 'regress_fixed'), 'regress_fixed') = id) AS round_trips,
       count(*) FILTER (WHERE idseq_public_id(id, 'regress_fixed') = '4WzCVqdWK5k') AS id_1_found
  FROM regress_key_par;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
DROP TABLE regress_key_par;

-- ===== a key's life: create, use, grant, revoke, export, drop =====
SET ROLE regress_key_owner;
SELECT idseq_create_key('regress_orders');
SELECT name, owner, usage FROM idseq_keys WHERE owner::text LIKE 'regress\_%' ORDER BY name;
SELECT length(idseq_public_id(42, 'regress_orders')) AS width,
       idseq_from_public_id(idseq_public_id(42, 'regress_orders'), 'regress_orders') AS id;
-- a key of the superuser's is not the owner's to use
SELECT * FROM expect_error($$SELECT idseq_public_id(42, 'regress_fixed')$$);
-- random: two keys, two permutations; the key is 32 bytes; the owner exports it
SELECT idseq_create_key('regress_orders_2');
SELECT idseq_public_id(42, 'regress_orders') <> idseq_public_id(42, 'regress_orders_2') AS keys_differ,
       octet_length(idseq_export_key('regress_orders')) AS key_bytes,
       idseq_export_key('regress_orders') <> idseq_export_key('regress_orders_2') AS exports_differ;
SELECT idseq_public_id(42, 'regress_orders') AS code_42 \gset
-- the owner cannot read the table itself (only the functions read it)
SELECT * FROM expect_error($$SELECT * FROM idseq_key_registry$$);
SELECT * FROM expect_error($$SELECT idseq_create_key('regress_orders')$$);
RESET ROLE;

-- Roles without USAGE: cannot use (42501), read, grant, drop; the table is closed to them.
SET ROLE regress_key_user;
SELECT * FROM expect_error($$SELECT idseq_public_id(42, 'regress_orders')$$);
SELECT * FROM expect_error(format('SELECT idseq_from_public_id(%L, %L)', :'code_42', 'regress_orders'));
SELECT * FROM expect_error(format('SELECT idseq_try_from_public_id(%L, %L)', :'code_42', 'regress_orders'));
SELECT * FROM expect_error($$SELECT idseq_export_key('regress_orders')$$);
SELECT * FROM expect_error($$SELECT idseq_drop_key('regress_orders')$$);
SELECT * FROM expect_error($$SELECT idseq_grant_key('regress_orders', 'regress_key_user')$$);
SELECT * FROM expect_error($$SELECT key FROM idseq_key_registry$$);
SELECT * FROM expect_error($$DELETE FROM idseq_key_registry$$);
SELECT * FROM expect_error($$UPDATE idseq_key_registry SET owner = current_user::regrole$$);
SELECT * FROM expect_error($$INSERT INTO idseq_key_registry VALUES ('regress_mine', current_user::regrole, '{}', '\x00')$$);
-- no CREATE on the database: no new key, no import
SELECT * FROM expect_error($$SELECT idseq_create_key('regress_users_key')$$);
SELECT * FROM expect_error($$SELECT idseq_import_key('regress_users_key', '\x000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f')$$);
-- everyone sees names, owners and grants, and nothing else
SELECT name, owner::text LIKE 'regress\_%' AS owner_shown, usage FROM idseq_keys ORDER BY name;
SELECT attname FROM pg_attribute WHERE attrelid = 'idseq_keys'::regclass AND attnum > 0 ORDER BY attnum;
RESET ROLE;

-- USAGE for a group: its members use the key (a NOINHERIT member after SET ROLE), and
-- none of them may read, grant or drop it.
SET ROLE regress_key_owner;
SELECT idseq_grant_key('regress_orders', 'regress_key_user');
SELECT idseq_grant_key('regress_orders', 'regress_key_user'); -- twice: listed once
SELECT idseq_grant_key('regress_orders', 'regress_key_owner'); -- the owner: not listed
SELECT name, usage FROM idseq_keys WHERE name = 'regress_orders';
RESET ROLE;
SET ROLE regress_key_member;
SELECT idseq_public_id(42, 'regress_orders') = :'code_42' AS member_same_code,
       idseq_from_public_id(:'code_42', 'regress_orders') AS member_decodes,
       idseq_try_from_public_id('nonsense', 'regress_orders') AS member_try;
SELECT * FROM expect_error($$SELECT idseq_export_key('regress_orders')$$);
SELECT * FROM expect_error($$SELECT idseq_drop_key('regress_orders')$$);
SELECT * FROM expect_error($$SELECT idseq_revoke_key('regress_orders', 'regress_key_member')$$);
RESET ROLE;
SET ROLE regress_key_noinherit;
SELECT * FROM expect_error($$SELECT idseq_public_id(42, 'regress_orders')$$);
SET ROLE regress_key_user;
SELECT idseq_public_id(42, 'regress_orders') = :'code_42' AS after_set_role;
RESET ROLE;
SET ROLE regress_key_other;
SELECT * FROM expect_error($$SELECT idseq_public_id(42, 'regress_orders')$$);
RESET ROLE;

-- Revoked: refused at the next statement, also in a session that used the key before (its
-- call sites watch the registry), and a SECURITY DEFINER function runs with its owner's USAGE.
GRANT CREATE ON SCHEMA public TO regress_key_owner;
SET ROLE regress_key_owner;
CREATE FUNCTION public.regress_key_definer(id bigint) RETURNS text LANGUAGE sql SECURITY DEFINER
    SET search_path = pg_catalog, public AS $$ SELECT public.idseq_public_id(id, 'regress_orders') $$;
RESET ROLE;
SET ROLE regress_key_member;
PREPARE use_key AS SELECT idseq_public_id(42, 'regress_orders') = :'code_42' AS member_uses;
EXECUTE use_key;
RESET ROLE;
SET ROLE regress_key_owner;
SELECT idseq_revoke_key('regress_orders', 'regress_key_user');
SELECT idseq_revoke_key('regress_orders', 'regress_key_user'); -- not granted: nothing to do
SELECT name, usage FROM idseq_keys WHERE name = 'regress_orders';
RESET ROLE;
SET ROLE regress_key_member;
SELECT * FROM expect_error($$EXECUTE use_key$$);
SELECT public.regress_key_definer(42) = :'code_42' AS through_definer;
RESET ROLE;
DEALLOCATE use_key;
DROP FUNCTION public.regress_key_definer(bigint);
REVOKE CREATE ON SCHEMA public FROM regress_key_owner;

-- A plpgsql loop keeps its call site across statements of one transaction: a revoke or a
-- drop in between is seen by the next call.
SET ROLE regress_key_owner;
SELECT idseq_grant_key('regress_orders', 'regress_key_other');
CREATE FUNCTION pg_temp.use_twice() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    codes text[] := '{}';
BEGIN
    FOR i IN 1 .. 2 LOOP
        codes := codes || public.idseq_public_id(42, 'regress_orders'); -- one call site, twice
        IF i = 1 THEN
            PERFORM public.idseq_drop_key('regress_orders');
            PERFORM public.idseq_create_key('regress_orders');
        END IF;
    END LOOP;
    RETURN CASE WHEN codes[1] <> codes[2] THEN 'new key seen' ELSE 'stale key' END;
END $$;
BEGIN;
SELECT pg_temp.use_twice();
ROLLBACK;
SELECT idseq_public_id(42, 'regress_orders') = :'code_42' AS rolled_back_to_the_old_key;
DROP FUNCTION pg_temp.use_twice();
RESET ROLE;

-- The superuser may export and drop any key; the owner's export is the key's bytes.
SELECT idseq_export_key('regress_fixed') AS exported_known_key;
SELECT octet_length(idseq_export_key('regress_orders')) AS superuser_exports;

-- Moving a key: export, drop, import under another name: the same public ids.
SET ROLE regress_key_owner;
CREATE TEMP TABLE moved AS SELECT idseq_export_key('regress_orders') AS k;
SELECT idseq_drop_key('regress_orders');
SELECT * FROM expect_error(format('SELECT idseq_from_public_id(%L, %L)', :'code_42', 'regress_orders'));
SELECT idseq_import_key('regress_orders_moved', k) FROM moved;
SELECT idseq_from_public_id(:'code_42', 'regress_orders_moved') AS decodes_after_move;
SELECT * FROM expect_error($$SELECT idseq_import_key('regress_orders_2', (SELECT k FROM moved))$$);
DROP TABLE moved;
RESET ROLE;

-- ===== argument errors =====
SELECT * FROM expect_error($$SELECT idseq_create_key(NULL)$$);
SELECT * FROM expect_error($$SELECT idseq_create_key('')$$);
SELECT * FROM expect_error($$SELECT idseq_create_key(repeat('k', 64))$$);
SELECT * FROM expect_error($$SELECT idseq_import_key('regress_short', '\x0102')$$);
SELECT * FROM expect_error($$SELECT idseq_import_key('regress_null', NULL)$$);
SELECT * FROM expect_error($$SELECT idseq_grant_key('regress_fixed', NULL)$$);
SELECT * FROM expect_error($$SELECT idseq_grant_key('regress_fixed', 4000000000::oid::regrole)$$);
SELECT * FROM expect_error($$SELECT idseq_drop_key('regress_nosuch')$$);
SELECT * FROM expect_error($$SELECT idseq_public_id(1, 'regress_fixed', 'base58', 65)$$);
-- the INSERT's source of key bytes gives nothing outside that INSERT, and only to the
-- extension's owner
SELECT * FROM expect_error($$SELECT idseq_key_registry_pending()$$);
SET ROLE regress_key_owner;
SELECT * FROM expect_error($$SELECT idseq_key_registry_pending()$$);
RESET ROLE;
SELECT idseq_create_key(repeat('k', 63)) AS longest_name;
SELECT idseq_drop_key(repeat('k', 63));

-- ===== rows written directly: checked, without showing key bytes =====
-- (a superuser's own INSERT, or a restore's COPY; the check is an AFTER trigger, so no
-- error lists the row's values)
SELECT * FROM expect_error($$INSERT INTO idseq_key_registry VALUES ('regress_direct', 'regress_key_owner', '{}', '\xdeadbeef')$$);
SELECT * FROM expect_error($$INSERT INTO idseq_key_registry VALUES ('', 'regress_key_owner', '{}', '\x000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f')$$);
SELECT * FROM expect_error($$INSERT INTO idseq_key_registry VALUES ('regress_direct', 'regress_key_owner', '{NULL}', '\x000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f')$$);
-- The database owner may read the table (pg_dump) and insert rows (a restore with
-- pg_restore --no-owner), of its own keys only: not one that would seem to be another role's.
SELECT has_table_privilege('pg_database_owner', 'idseq_key_registry', 'INSERT') AS dbowner_may_insert,
       has_table_privilege('pg_database_owner', 'idseq_key_registry', 'SELECT') AS dbowner_may_select;
-- (pg_database_owner has no explicit members: a role granted the same INSERT stands in)
GRANT INSERT ON idseq_key_registry TO regress_key_dbowner;
SET ROLE regress_key_dbowner;
SELECT * FROM expect_error($$INSERT INTO idseq_key_registry VALUES ('regress_forged', 'regress_key_owner', '{}', '\x000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f')$$);
INSERT INTO idseq_key_registry VALUES ('regress_restored', 'regress_key_dbowner', '{regress_key_user}',
                                       '\x000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f');
SELECT idseq_public_id(0, 'regress_restored') AS restored_like_fixed;
SELECT idseq_drop_key('regress_restored');
RESET ROLE;
REVOKE INSERT ON idseq_key_registry FROM regress_key_dbowner;

-- ===== privileges of the objects =====
SELECT c.relname, c.relkind, c.relacl IS NOT NULL AS has_acl,
       has_table_privilege('public', c.oid, 'SELECT') AS public_select,
       (SELECT string_agg(a.privilege_type, ', ' ORDER BY a.privilege_type)
          FROM aclexplode(c.relacl) a WHERE a.grantee = 'pg_database_owner'::regrole) AS db_owner_may
  FROM pg_class c WHERE c.oid IN ('idseq_key_registry'::regclass, 'idseq_keys'::regclass) ORDER BY 1;
SELECT extconfig::regclass[] @> ARRAY['idseq_key_registry'::regclass] AS dumped_with_the_extension
  FROM pg_extension WHERE extname = 'idseq';

-- ===== no capture through implicit casts =====
-- idseq_public_id(1001, 'k') passes an integer: functions with the exact signatures in a
-- schema after the extension's are never called (the integer, smallint and text overloads
-- match exactly; without them the planted integer function would win over the bigint one).
CREATE SCHEMA regress_key_later;
CREATE FUNCTION regress_key_later.idseq_public_id(id integer, key text) RETURNS text
    LANGUAGE sql AS $$ SELECT 'captured' $$;
CREATE FUNCTION regress_key_later.idseq_public_id(id integer, key text, charset text, width integer) RETURNS text
    LANGUAGE sql AS $$ SELECT 'captured' $$;
CREATE FUNCTION regress_key_later.idseq_public_id(id smallint, key text) RETURNS text
    LANGUAGE sql AS $$ SELECT 'captured' $$;
SET search_path = public, regress_key_later;
SELECT idseq_public_id(1, 'regress_fixed') AS int4, idseq_public_id(1, 'regress_fixed', 'base58', 11) AS int4_all,
       idseq_public_id(1::smallint, 'regress_fixed') AS int2, idseq_public_id('1', 'regress_fixed') AS untyped;
RESET search_path;
SET client_min_messages = warning;
DROP SCHEMA regress_key_later CASCADE;
RESET client_min_messages;

-- ===== clean up =====
SELECT idseq_drop_key(name) FROM idseq_keys WHERE name LIKE 'regress\_%' ORDER BY name;
SELECT count(*) AS keys_left FROM idseq_keys;
REVOKE CREATE ON DATABASE :"datname" FROM regress_key_owner;
DROP ROLE regress_key_owner, regress_key_member, regress_key_noinherit, regress_key_user, regress_key_other,
          regress_key_dbowner;
