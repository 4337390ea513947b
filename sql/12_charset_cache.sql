-- The charset registry cache: no cached pointer outlives
-- its definition, a rolled-back definition is never used again, over-long names are refused
-- before any lookup, and the self-describing type modifier in a read-only transaction.
-- 2PC, concurrent sessions and memory under subtransaction-abort loops: t/019_lexid_charset_cache.pl.
--
-- Runs in a database of its own, so that its charsets do not show in other tests' hints.
\pset null '(null)'
\x off
SELECT current_database() AS datname \gset
CREATE ROLE regress_idseq_cache_user;
CREATE DATABASE regress_idseq_cache;
\c regress_idseq_cache
SET client_min_messages = warning;
CREATE EXTENSION idseq;
SET client_min_messages = notice;
\ir sql/include/expect_error.sql
SELECT idseq_create_charset('stars', '★☆✦✧');
SELECT idseq_create_charset('abcd', 'abcd');
SELECT create_code_sequence('star_codes', 3, 'stars');
GRANT USAGE ON SEQUENCE star_codes TO regress_idseq_cache_user;

-- ===== a call site's cached charset survives every other lookup =====
-- An untyped literal that no built-in charset reads makes the cache read every registry
-- row; before, that replaced the entries that code_format's call site still pointed to
-- (freed memory: a crash with a multibyte charset, wrong codes with an ASCII one).
-- As a role that owns nothing:
SET ROLE regress_idseq_cache_user;
SELECT g, code_format(g, 3, 'stars'), repeat('★', g)::lexid IS NULL AS lit_null
  FROM generate_series(1, 3) g;
SELECT g, lexical_add('★', 'stars', g), repeat('☆', g)::lexid IS NULL AS lit_null
  FROM generate_series(1, 3) g;
SELECT nextval_code('star_codes', 'stars'), repeat('✦', g)::lexid IS NULL AS lit_null
  FROM generate_series(1, 3) g;
-- ASCII: every code reads back to its number (code_parse is the oracle), for 256 rows
SELECT count(*) AS wrong
  FROM generate_series(0, 255) g
 WHERE code_parse(code_format(g, 4, 'abcd'), 'abcd') <> g
    OR code_format(g, 4, 'abcd') <> translate(lpad(((g / 64) % 4)::text || ((g / 16) % 4)::text ||
                                                    ((g / 4) % 4)::text || (g % 4)::text, 4, '0'),
                                              '0123', 'abcd')
    OR repeat('★', 1 + g % 3)::lexid IS NULL;
-- the same in a PL/pgSQL loop, with failing calls in between
DO $$
DECLARE
    codes text := '';
BEGIN
    FOR i IN 1..6 LOOP
        BEGIN
            codes := codes || code_format(i, 2, 'stars') || ' ';
            PERFORM repeat('✧', i)::lexid;
            PERFORM code_format(100000, 2, 'stars'); -- out of range: aborts the subtransaction
        EXCEPTION WHEN numeric_value_out_of_range THEN
            NULL;
        END;
    END LOOP;
    RAISE NOTICE 'codes: %', codes;
END $$;
RESET ROLE;

-- ===== a definition that a rollback undid is never used again =====
-- The name, hence the id, is created again with other symbols after each rollback.
-- A subtransaction rolled back inside a loop: the call site's cache outlives it. (The
-- name is a variable: code_format is IMMUTABLE, and a constant call would be folded into
-- the cached plan once.)
DO $$
DECLARE
    syms text[] := ARRAY['ab', 'xyz', 'ABCDEFG'];
    cs text := 'shifty';
    codes text := '';
BEGIN
    FOR i IN 1..3 LOOP
        BEGIN
            PERFORM idseq_create_charset(cs, syms[i]);
            codes := codes || code_format(1, 2, cs) || ' ' || idseq_encode(5, cs) || ' ';
            RAISE EXCEPTION 'undo';
        EXCEPTION WHEN raise_exception THEN
            NULL;
        END;
    END LOOP;
    RAISE NOTICE 'codes: %', codes;
END $$;
-- savepoints
BEGIN;
SAVEPOINT s;
SELECT idseq_create_charset('phantom', 'ab');
SELECT 'b'::lexid(phantom)::text, code_format(1, 2, 'phantom');
ROLLBACK TO s;
SELECT idseq_create_charset('phantom', 'xyz');
SELECT 'z'::lexid(phantom)::text, lexid_rank('z'::lexid(phantom)), code_format(1, 2, 'phantom');
COMMIT;
-- a whole transaction, then a transaction that commits the other definition
BEGIN;
SELECT idseq_create_charset('ghost', 'ab');
SELECT 'b'::lexid(ghost)::text;
ROLLBACK;
SELECT idseq_create_charset('ghost', 'xyz');
CREATE TABLE ghosts (v lexid(ghost));
INSERT INTO ghosts VALUES ('z');
SELECT v::text, lexid_rank(v), lexid_charset(v) FROM ghosts;
-- the type modifier registers inside the transaction, and that is undone too
BEGIN;
SELECT 'q'::lexid(spooky, 'pq')::text, lexid_rank('q'::lexid(spooky, 'pq'));
ROLLBACK;
SELECT 'u'::lexid(spooky, 'stu')::text, lexid_rank('u'::lexid(spooky, 'stu'));
SELECT name, symbols FROM idseq_charset_registry ORDER BY name;

-- ===== the registry itself replaced: DROP EXTENSION, CREATE EXTENSION =====
SELECT code_format(1, 2, 'abcd');
BEGIN;
DROP EXTENSION idseq CASCADE;
CREATE EXTENSION idseq;
SELECT idseq_create_charset('abcd', 'wxyz');
SELECT code_format(1, 2, 'abcd');
ROLLBACK;
SELECT code_format(1, 2, 'abcd');
DROP EXTENSION idseq CASCADE;
CREATE EXTENSION idseq;
SELECT idseq_create_charset('abcd', 'dcba');
SELECT code_format(1, 2, 'abcd');
SELECT idseq_create_charset('stars', '★☆✦✧');

-- ===== a charset name longer than any can be is refused up front =====
-- 22023, without echoing the name (a megabyte here; the issue's 100 MB took 10 s before).
SET ROLE regress_idseq_cache_user;
SELECT * FROM expect_error($$SELECT code_format(1, 3, repeat('x', 1000000))$$);
SELECT * FROM expect_error($$SELECT lexid_from_rank(1, repeat('é', 500000))$$);
SELECT * FROM expect_error($$SELECT idseq_encode(1, repeat('x', 1000000))$$);
SELECT * FROM expect_error($$SELECT lexical_add('a', repeat('x', 64), 1)$$);
-- 63 bytes is a name's maximum: an unknown one is just unknown
SELECT state, message FROM expect_error($$SELECT code_format(1, 3, repeat('x', 63))$$);
RESET ROLE;
SELECT * FROM expect_error($$SELECT idseq_create_charset(repeat('x', 1000000), 'ab')$$);

-- ===== the type modifier in a read-only transaction =====
-- lexid_typmod_in registers the charset that a self-describing lexid(name, 'symbols')
-- names when it is not registered (pg_dump writes that form so that tables can be created
-- before the registry's rows are restored): a write, so it is labelled VOLATILE. A
-- registered charset reads in a read-only transaction; a new one is refused with 25006.
SELECT provolatile, proparallel FROM pg_proc WHERE oid = 'lexid_typmod_in'::regproc;
BEGIN READ ONLY;
SELECT '☆★'::lexid(stars, '★☆✦✧')::text, '☆★'::lexid(stars)::text;
SELECT * FROM expect_error($$SELECT 'ab'::lexid(newcs, 'ab')$$);
SELECT * FROM expect_error($$SELECT idseq_create_charset('newcs', 'ab')$$);
-- a definition that contradicts the registered one is still refused
SELECT state, message FROM expect_error($$SELECT 'a'::lexid(stars, 'ab')$$);
ROLLBACK;
SET ROLE regress_idseq_cache_user;
BEGIN READ ONLY;
SELECT '☆★'::lexid(stars, '★☆✦✧')::text;
SELECT state, message FROM expect_error($$SELECT 'ab'::lexid(newcs, 'ab')$$);
ROLLBACK;
-- in a read-write transaction, a role without INSERT on the registry cannot register either
SELECT state, message FROM expect_error($$SELECT 'ab'::lexid(newcs, 'ab')$$);
RESET ROLE;
SELECT 'ba'::lexid(newcs, 'ab')::text;
SELECT name, symbols FROM idseq_charset_registry WHERE name = 'newcs';

\c :"datname"
DROP DATABASE regress_idseq_cache;
DROP ROLE regress_idseq_cache_user;
