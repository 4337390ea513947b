-- lexid's operator classes checked against an independent oracle: lexid_rank,
-- the 1-based shortlex rank, orders values exactly as the type must. Random values of every
-- length 1..1024 over every built-in charset, a multibyte custom one, a 256-symbol one and
-- one named with an SQL keyword; sorts (abbreviated keys), btrees built by CREATE INDEX and
-- by row-by-row inserts (amcheck), hash indexes, hash aggregates and joins.
CREATE EXTENSION amcheck;
SELECT setseed(0.42);
SELECT idseq_create_charset('prop_mb', 'αβγδεζηθικλμνξοπρστυφχψω★☆✦✧😀😃');
SELECT idseq_create_charset('prop_256', (SELECT string_agg(chr(256 + g), '') FROM generate_series(0, 255) g));
SELECT idseq_create_charset('select', 'xy');

-- One typed table per charset (a stored lexid names its charset), filled with: one random
-- value of each length 1..1024; values of lengths around 255/256 and long ones sharing long
-- prefixes (ties beyond the abbreviated key); duplicates. r is the oracle's rank.
CREATE FUNCTION pg_temp.props(cs text, OUT charset text, OUT n bigint, OUT sort_ok boolean, OUT built_ok text,
                              OUT inserted_ok text, OUT hash_ok boolean, OUT agg_ok boolean, OUT join_ok boolean)
LANGUAGE plpgsql AS $$
DECLARE
    big text;
    typ text := format('lexid(%I)', cs);
    bad bigint;
BEGIN
    charset := cs;
    SELECT string_agg(s[1 + floor(random() * array_length(s, 1))::int], '') INTO big
      FROM (SELECT regexp_split_to_array(symbols, '') AS s FROM idseq_charsets WHERE name = cs) c,
           generate_series(1, 20000);
    EXECUTE format('CREATE TEMP TABLE p (v %s, r numeric)', typ);
    EXECUTE format('INSERT INTO p (v) SELECT substr(%L, 1 + floor(random() * (20000 - l))::int, l)::%s
                      FROM generate_series(1, 1024) l', big, typ);
    EXECUTE format('INSERT INTO p (v) SELECT (substr(%L, 1, 200) || substr(%L, 1 + floor(random() * 10000)::int, l - 200))::%s
                      FROM unnest(ARRAY[250, 254, 255, 256, 257, 260, 300, 511, 512, 1000, 1024]) l, generate_series(1, 20)',
                   big, big, typ);
    INSERT INTO p (v) SELECT v FROM p ORDER BY random() LIMIT 300;
    UPDATE p SET r = lexid_rank(v);
    SELECT count(*) INTO n FROM p;
    -- sorted (abbreviated keys) exactly as the ranks; equal exactly when the ranks are
    SELECT count(*) = 0 INTO sort_ok FROM (
        SELECT r, v, lag(r) OVER (ORDER BY v) AS pr, lag(v) OVER (ORDER BY v) AS pv FROM p) s
     WHERE pr > r OR (pr = r) <> (pv = v);
    -- a btree built by CREATE INDEX (a sort), and one filled row by row
    CREATE INDEX p_built ON p (v);
    PERFORM bt_index_parent_check('p_built', heapallindexed => true);
    built_ok := 'ok';
    DROP INDEX p_built;
    EXECUTE format('CREATE TEMP TABLE q (v %s)', typ);
    CREATE INDEX q_inserted ON q (v);
    INSERT INTO q SELECT v FROM p ORDER BY random();
    PERFORM bt_index_parent_check('q_inserted', heapallindexed => true);
    inserted_ok := 'ok';
    -- a hash index finds every value as often as the oracle counts it (a nested loop probing
    -- the hash index for each row, against a join on the ranks)
    CREATE INDEX p_hash ON p USING hash (v);
    SET LOCAL enable_hashjoin = off; SET LOCAL enable_mergejoin = off; SET LOCAL enable_bitmapscan = off;
    SELECT count(*) INTO bad FROM q a JOIN p b ON a.v = b.v;
    RESET enable_hashjoin; RESET enable_mergejoin; RESET enable_bitmapscan;
    hash_ok := bad = (SELECT count(*) FROM p a JOIN p b ON a.r = b.r);
    -- grouping by hashing, by sorting and by the oracle agree; so do hash and merge joins
    SET LOCAL enable_sort = off;
    CREATE TEMP TABLE by_hash AS SELECT v, count(*) AS c FROM p GROUP BY v;
    RESET enable_sort;
    SET LOCAL enable_hashagg = off;
    CREATE TEMP TABLE by_sort AS SELECT v, count(*) AS c FROM p GROUP BY v;
    RESET enable_hashagg;
    agg_ok := (SELECT count(*) FROM by_hash) = (SELECT count(DISTINCT r) FROM p)
          AND (SELECT count(*) FROM by_sort) = (SELECT count(DISTINCT r) FROM p)
          AND NOT EXISTS (SELECT v, c FROM by_hash EXCEPT SELECT v, c FROM by_sort);
    SET LOCAL enable_mergejoin = off;
    SET LOCAL enable_nestloop = off;
    SELECT count(*) INTO bad FROM p a JOIN q b ON a.v = b.v;
    RESET enable_mergejoin;
    SET LOCAL enable_hashjoin = off;
    join_ok := bad = (SELECT count(*) FROM p a JOIN q b ON a.v = b.v)
           AND bad = (SELECT count(*) FROM p a JOIN p b ON a.r = b.r);
    RESET enable_hashjoin;
    RESET enable_nestloop;
    DROP TABLE p, q, by_hash, by_sort;
END $$;
SELECT p.* FROM idseq_charsets c, LATERAL pg_temp.props(c.name) p
 WHERE c.builtin OR c.name IN ('prop_mb', 'prop_256', 'select') ORDER BY c.name;

-- ===== values longer than 255 symbols =====
CREATE TABLE lng (v lexid(base36));
INSERT INTO lng SELECT repeat('0', 300 - g % 50)::lexid(base36) FROM generate_series(1, 2000) g;
INSERT INTO lng SELECT repeat('Z', 256)::lexid(base36) FROM generate_series(1, 2000) g;
SELECT count(*) AS out_of_order FROM (SELECT v, lag(v) OVER (ORDER BY v) p FROM lng) s WHERE p > v;
CREATE INDEX lng_v_idx ON lng (v);
SELECT bt_index_parent_check('lng_v_idx', heapallindexed => true);

-- ===== untyped values =====
-- output is the spelling as written, and reads back to the same bytes
SELECT 'Ab'::lexid AS a, '-_'::lexid AS b, 'ab'::lexid::text AS t, lexid_charset('ab'::lexid) AS cs;
SELECT lexid_send(x) = lexid_send(x::text::lexid) AS round_trip, lexid_send(x)
  FROM (VALUES ('Ab'::lexid), ('-_'::lexid), ('★☆'::lexid)) v(x);
-- compared with each other: both read as base36 (22P02 if one does not read)
SELECT 'ab'::lexid = 'AB'::lexid AS base36_ci, 'a'::lexid < 'B'::lexid AS a_before_b;
SELECT * FROM expect_error($$SELECT '-_'::lexid = 'A'::lexid$$);
-- a view keeps the spelling; so does its definition
CREATE VIEW untyped_view AS SELECT 'Ab'::lexid AS a, '-_'::lexid AS b;
SELECT pg_get_viewdef('untyped_view'::regclass, true);
SELECT * FROM untyped_view;
-- binary: an untyped value travels with its spelling and is read in the target's charset
COPY (SELECT '-_'::lexid AS v) TO '/tmp/idseq_regress_untyped.bin' WITH (FORMAT binary);
CREATE TABLE b64 (v lexid(base64url));
COPY b64 FROM '/tmp/idseq_regress_untyped.bin' WITH (FORMAT binary);
SELECT v, lexid_charset(v) FROM b64;

-- with a typed column, literals, IN lists, parameters and text mean what the user wrote,
-- through sequential scans, index scans and hashed IN lists alike
CREATE TABLE c62 (code lexid(base62) PRIMARY KEY);
INSERT INTO c62 SELECT lexid_from_rank(g, 'base62') FROM generate_series(1, 5000) g;
ANALYZE c62;
CREATE FUNCTION pg_temp.both_ways(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    seq text;
    idx text;
BEGIN
    SET LOCAL enable_indexscan = off; SET LOCAL enable_bitmapscan = off; SET LOCAL enable_indexonlyscan = off;
    EXECUTE 'SELECT string_agg(code::text, '','' ORDER BY code) FROM (' || q || ') s' INTO seq;
    SET LOCAL enable_indexscan = on; SET LOCAL enable_indexonlyscan = on; SET LOCAL enable_seqscan = off;
    EXECUTE 'SELECT string_agg(code::text, '','' ORDER BY code) FROM (' || q || ') s' INTO idx;
    RESET enable_indexscan; RESET enable_bitmapscan; RESET enable_indexonlyscan; RESET enable_seqscan;
    RETURN CASE WHEN seq IS NOT DISTINCT FROM idx THEN seq ELSE 'seq ' || seq || ' <> index ' || idx END;
END $$;
SELECT pg_temp.both_ways($$SELECT code FROM c62 WHERE code = 'Ab'$$) AS eq,
       pg_temp.both_ways($$SELECT code FROM c62 WHERE code IN ('Ab', 'aB', 'AB', 'ab')$$) AS in_list,
       pg_temp.both_ways($$SELECT code FROM c62 WHERE code IN ('a','A','b','B','c','C','d','D','e','E','z','Z')$$) AS hashed_in;
SELECT pg_temp.both_ways($$SELECT code FROM c62 WHERE code < 'b' AND code > 'Y'$$) AS range,
       pg_temp.both_ways($$SELECT code FROM c62 WHERE code > 'a' AND code > 'B' AND code < 'd'$$) AS redundant_keys,
       pg_temp.both_ways($$SELECT code FROM c62 WHERE code = ANY ('{zz,ZZ,zZ}')$$) AS any_array;
-- index order with an IN list is the column's order
SET enable_seqscan = off;
SELECT string_agg(code::text, ',') AS in_index_order FROM (SELECT code FROM c62 WHERE code IN ('a', 'B', 'Z', 'b') ORDER BY code) s;
EXPLAIN (COSTS OFF) SELECT code FROM c62 WHERE code IN ('a', 'B', 'Z', 'b') ORDER BY code;
RESET enable_seqscan;
-- prepared statements: a lexid parameter, an unknown one, an array, text and varchar
PREPARE p_lexid(lexid) AS SELECT string_agg(code::text, ',') FROM c62 WHERE code = $1;
PREPARE p_unknown AS SELECT string_agg(code::text, ',') FROM c62 WHERE code = $1;
PREPARE p_array(lexid[]) AS SELECT string_agg(code::text, ',' ORDER BY code) FROM c62 WHERE code = ANY ($1);
PREPARE p_text(text) AS SELECT string_agg(code::text, ',') FROM c62 WHERE code = $1;
PREPARE p_varchar(varchar) AS SELECT string_agg(code::text, ',') FROM c62 WHERE code = $1;
SET plan_cache_mode = force_generic_plan;
EXECUTE p_lexid('Ab');
EXECUTE p_unknown('aB');
EXECUTE p_array('{a,A,zz,ZZ}');
EXECUTE p_text('Ab');
EXECUTE p_varchar('aB');
RESET plan_cache_mode;
EXECUTE p_array('{a,A,zz,ZZ}');

-- ===== a stored lexid names its charset =====
-- each stored form without a charset is refused with 42611
SELECT * FROM expect_error($$CREATE TABLE plain_t (x lexid)$$);
SELECT * FROM expect_error($$CREATE TEMP TABLE plain_tt (x lexid)$$);
SELECT * FROM expect_error($$CREATE TABLE plain_arr (x lexid[])$$);
SELECT * FROM expect_error($$CREATE TABLE plain_part (x lexid) PARTITION BY RANGE (x)$$);
SELECT * FROM expect_error($$CREATE TABLE plain_ctas AS SELECT 'a'::lexid AS x$$);
SELECT * FROM expect_error($$SELECT 'a'::lexid AS x INTO plain_into$$);
SELECT * FROM expect_error($$CREATE MATERIALIZED VIEW plain_mv AS SELECT lexid_from_rank(1, 'hex') AS x$$);
SELECT * FROM expect_error($$CREATE TYPE plain_comp AS (a int, x lexid)$$);
SELECT * FROM expect_error($$CREATE DOMAIN plain_dom AS lexid$$);
SELECT * FROM expect_error($$CREATE TYPE plain_range AS RANGE (subtype = lexid)$$);
SELECT * FROM expect_error($$CREATE SCHEMA plain_s CREATE TABLE t (x lexid)$$);
CREATE TABLE typed_t (id int, x lexid(base36));
SELECT * FROM expect_error($$ALTER TABLE typed_t ADD COLUMN y lexid$$);
SELECT * FROM expect_error($$ALTER TABLE typed_t ALTER COLUMN x TYPE lexid$$);
CREATE TYPE typed_comp AS (a int, x lexid(hex));
SELECT * FROM expect_error($$ALTER TYPE typed_comp ADD ATTRIBUTE y lexid$$);
CREATE FOREIGN DATA WRAPPER prop_fdw;
CREATE SERVER prop_srv FOREIGN DATA WRAPPER prop_fdw;
SELECT * FROM expect_error($$CREATE FOREIGN TABLE plain_ft (x lexid) SERVER prop_srv$$);
CREATE FOREIGN TABLE typed_ft (x lexid(base62)) SERVER prop_srv;
SELECT * FROM expect_error($$ALTER FOREIGN TABLE typed_ft ADD COLUMN y lexid$$);
-- the typed forms work, also for a temporary table and as an ordinary role
CREATE TABLE typed_arr (x lexid(base62)[], y lexid(base36) DEFAULT 'A');
CREATE TABLE typed_ctas AS SELECT 'a'::lexid(base62) AS x, lexid_from_rank(5, 'hex')::lexid(hex) AS y;
CREATE MATERIALIZED VIEW typed_mv AS SELECT x FROM typed_ctas;
CREATE DOMAIN typed_dom AS lexid(base62);
CREATE TYPE typed_range AS RANGE (subtype = typed_dom);
SELECT '[a,b]'::typed_range, format_type(atttypid, atttypmod) FROM pg_attribute
 WHERE attrelid = 'typed_mv'::regclass AND attname = 'x';
ALTER TABLE typed_t ADD COLUMN z int, ALTER COLUMN x TYPE lexid(base62);
ALTER TYPE typed_comp ADD ATTRIBUTE y lexid(base36);
CREATE ROLE regress_lexid_user;
GRANT CREATE ON SCHEMA public TO regress_lexid_user;
SET ROLE regress_lexid_user;
CREATE TEMP TABLE typed_tt (x lexid(base36));
CREATE TABLE user_t (x lexid(upper));
SELECT * FROM expect_error($$CREATE TABLE user_plain (x lexid)$$);
SELECT * FROM expect_error($$CREATE TEMP TABLE user_plain_tt (x lexid)$$);
DROP TABLE user_t, typed_tt;
RESET ROLE;
REVOKE CREATE ON SCHEMA public FROM regress_lexid_user;
DROP ROLE regress_lexid_user;

-- ===== a keyword as a charset name =====
CREATE TABLE kw (v lexid(select, 'xy'));
CREATE TABLE kw (v lexid("select", 'xy'));
CREATE TABLE kw2 (v lexid("select"));
INSERT INTO kw VALUES ('xyy');
SELECT v, format_type(atttypid, atttypmod) FROM kw, pg_attribute WHERE attrelid = 'kw'::regclass AND attname = 'v';
SELECT 'yx'::lexid("select", 'xy') AS quoted_typmod, 'yx'::lexid("select") + 1 AS plus_one;

-- ===== a charset folding to one class cannot count in base 1 =====
SELECT idseq_create_charset('xx', 'xX');
SELECT * FROM expect_error($$SELECT lexical_add('x', 'xx', 200000000, true)$$);
SELECT lexical_add('x', 'xx', 200000000, false) AS case_sensitive;

-- ===== lexid_from_rank bounds the rank before reading it =====
SELECT * FROM expect_error($$SELECT lexid_from_rank(('1' || repeat('0', 131000))::numeric, 'base36')$$);
SELECT * FROM expect_error($$SELECT lexid_from_rank(('-1' || repeat('0', 131000))::numeric, 'base36')$$);
SELECT lexid_from_rank(('1.' || repeat('0', 16000))::numeric, 'base36') AS one_with_zeros;

-- ===== a stored digit outside its charset is a clean error, never a crash =====
-- A damaged value made by hand, through a binary cast from bytea: charset id 5 (base36,
-- little-endian), digits 1 and 36 (one past the last).
CREATE CAST (bytea AS lexid) WITHOUT FUNCTION;
CREATE VIEW damaged AS SELECT '\x050000000124'::bytea::lexid AS v;
SELECT * FROM expect_error($$SELECT v::text FROM damaged$$);
SELECT * FROM expect_error($$SELECT lexid_rank(v) FROM damaged$$);
SELECT * FROM expect_error($$SELECT v + 1 FROM damaged$$);
SELECT * FROM expect_error($$SELECT v - '0'::lexid(base36) FROM damaged$$);
SELECT * FROM expect_error($$SELECT lexid_hash(v) FROM damaged$$);
SELECT * FROM expect_error($$SELECT lexid_send(v) FROM damaged$$);
SELECT * FROM expect_error($$SELECT v FROM (SELECT CASE WHEN g > 0 THEN '\x050000000124'::bytea END::lexid AS v
                                                FROM generate_series(1, 3) g) s ORDER BY v$$);
SELECT * FROM expect_error($$SELECT v::lexid(base36) FROM damaged$$);
DROP VIEW damaged;
DROP CAST (bytea AS lexid);
