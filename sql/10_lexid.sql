-- lexid: charsets, the type, its operators and functions

-- ===== charsets =====
SELECT name, symbols, base, case_insensitive, builtin FROM idseq_charsets ORDER BY builtin DESC, name;

SELECT idseq_create_charset('vowels', 'AEIOU');
SELECT idseq_create_charset('ci_hex', 'ABCDEF0123456789', true);
SELECT idseq_create_charset('stars', '★☆✦✧');
SELECT name, symbols, base, case_insensitive, builtin FROM idseq_charsets WHERE NOT builtin ORDER BY name;

-- bad definitions: 22023 with a message naming the problem, 42710 for names in use
SELECT * FROM expect_error($$SELECT idseq_create_charset('one', 'A')$$);
SELECT * FROM expect_error($$SELECT idseq_create_charset('dup', 'ABCA')$$);
SELECT * FROM expect_error($$SELECT idseq_create_charset('casey', 'abcA', true)$$);
SELECT * FROM expect_error($$SELECT idseq_create_charset('spacey', 'ab c')$$);
SELECT * FROM expect_error($$SELECT idseq_create_charset('tabby', E'ab\tc')$$);
SELECT * FROM expect_error($$SELECT idseq_create_charset('Bad Name', 'abc')$$);
SELECT * FROM expect_error($$SELECT idseq_create_charset('', 'abc')$$);
SELECT * FROM expect_error($$SELECT idseq_create_charset('base36', 'abc')$$);
SELECT * FROM expect_error($$SELECT idseq_create_charset('vowels', 'AEIOUY')$$);
SELECT * FROM expect_error($$SELECT idseq_create_charset('big', (SELECT string_agg(chr(256 + g), '') FROM generate_series(0, 256) g))$$);
SELECT * FROM expect_error($$SELECT idseq_create_charset(NULL, 'abc')$$);
-- format characters print nothing: a soft hyphen, a word joiner (a zero-width space is
-- refused as white space; combining marks are printable symbols, see 80_hostile)
SELECT * FROM expect_error($$SELECT idseq_create_charset('shy', E'A\u00ADB')$$);
SELECT * FROM expect_error($$SELECT idseq_create_charset('wj', E'A\u2060B')$$);
SELECT * FROM expect_error($$SELECT idseq_create_charset('zwsp', E'A\u200BB')$$);
-- ... but a column type naming its symbols takes them as they are: pg_dump writes a column's
-- type that way, and a restore creates the charset from it (one made before the rule restores)
BEGIN;
CREATE TABLE shy_codes (c lexid(shy2, E'A\u00ADB'));
INSERT INTO shy_codes VALUES (E'\u00AD\u00AD');
SELECT length(c::text) AS symbols, lexid_rank(c) AS rank FROM shy_codes;
ROLLBACK;
SELECT idseq_create_charset('max256', (SELECT string_agg(chr(256 + g), '') FROM generate_series(0, 255) g));
SELECT base FROM idseq_charsets WHERE name = 'max256';
-- an unknown charset: the hint names at most five close names, then the known charsets
-- (the built-in ones, and at most 20 custom ones in alphabetical order with how many more)
SELECT * FROM expect_error($$SELECT 'A'::lexid(nosuch)$$);
-- a misspelling is within a third of the name's characters (not bytes): three accented
-- letters suggest no three-letter name
SELECT hint LIKE 'Perhaps%' AS suggests FROM expect_error($$SELECT code_format(1, 1, 'ééé')$$);
SELECT hint LIKE 'Perhaps you meant the charset hex.%' AS suggests_hex FROM expect_error($$SELECT code_format(1, 1, 'hx')$$);
BEGIN;
SELECT count(*) AS created
  FROM (SELECT idseq_create_charset('hint_cs_' || lpad(g::text, 2, '0'), 'xy') FROM generate_series(1, 25) g) s;
SELECT hint FROM expect_error($$SELECT code_format(1, 3, 'nosuch')$$);
ROLLBACK;
SELECT * FROM expect_error($$SELECT lexical_add('A', 'nosuch', 1)$$);
SELECT * FROM expect_error($$SELECT lexical_add('A', 'base63', 1)$$);
SELECT * FROM expect_error($$SELECT lexical_add('A', 'star', 1)$$);
SELECT * FROM expect_error($$SELECT lexical_add('A', 'crock', 1)$$);

-- ===== input and output =====
SELECT 'ZZ'::lexid, 'zz'::lexid, '00A000'::lexid(base36), 'deadBEEF'::lexid(hex);
SELECT 'O1Il'::lexid(crockford32), 'abc'::lexid(alpha), 'aB'::lexid(base62), '-_'::lexid(base64url);
SELECT '☆★'::lexid(stars);
SELECT * FROM expect_error($$SELECT 'eia'::lexid(vowels)$$);
SELECT 'EIA'::lexid(vowels), 'ab09'::lexid(ci_hex);
SELECT lexid_charset('A'::lexid), lexid_charset('A'::lexid(upper)), lexid_charset('★'::lexid(stars));
-- invalid input: 22P02 naming the character and its position
SELECT * FROM expect_error($$SELECT ''::lexid$$);
SELECT * FROM expect_error($$SELECT 'AB-C'::lexid$$);
SELECT * FROM expect_error($$SELECT 'ab'::lexid(upper)$$);
SELECT * FROM expect_error($$SELECT 'AB C'::lexid(upper)$$);
SELECT * FROM expect_error($$SELECT 'A0'::lexid(alpha)$$);
SELECT * FROM expect_error($$SELECT 'U'::lexid(crockford32)$$);
SELECT * FROM expect_error($$SELECT '0'::lexid(base58)$$);
SELECT * FROM expect_error($$SELECT E'\u00e9'::lexid(base62)$$);
SELECT * FROM expect_error($$SELECT repeat('A', 1025)::lexid$$);
SELECT length(repeat('A', 1024)::lexid::text);
SELECT * FROM expect_error($$SELECT 'A'::lexid(base36, 'x', 'y', 'z')$$);
SELECT * FROM expect_error($$SELECT 'A'::lexid(newset, 'XYZ', 'maybe')$$);

-- ===== columns with a charset =====
CREATE TABLE codes (id serial, code lexid(base62));
INSERT INTO codes (code) VALUES ('aB'), ('Ab'), ('zz'), ('0'), ('10');
SELECT code FROM codes ORDER BY code;
SELECT code FROM codes WHERE code = 'aB';
SELECT count(*) FROM codes WHERE code IN ('aB', 'Ab', 'x', 'y', 'z', 'q', 'r', 's', 't', 'u', 'zz');
SELECT code FROM codes WHERE code > 'Ab' ORDER BY code;
-- another charset's value cannot be stored
SELECT * FROM expect_error($$INSERT INTO codes (code) VALUES ('AB'::lexid(base36))$$);
SELECT * FROM expect_error($$INSERT INTO codes (code) VALUES ('a-b')$$);
INSERT INTO codes (code) VALUES ('xyz'::text);
SELECT pg_typeof(code), code::text FROM codes WHERE code = 'xyz';
SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'codes'::regclass AND attname = 'code';
CREATE TABLE starry (s lexid(stars));
SELECT format_type(atttypid, atttypmod) FROM pg_attribute WHERE attrelid = 'starry'::regclass AND attname = 's';

-- ===== comparison: shortlex =====
SELECT 'Z'::lexid < '00'::lexid AS shorter_first, 'A0'::lexid < 'AZ'::lexid, 'a'::lexid = 'A'::lexid AS ci,
       'a'::lexid(base62) = 'A'::lexid(base62) AS cs, 'B'::lexid <> 'b'::lexid, 'C'::lexid >= 'c'::lexid,
       '10'::lexid(digits) <= '9'::lexid(digits) AS "10 after 9";
SELECT * FROM expect_error($$SELECT 'A'::lexid(base36) = 'A'::lexid(upper)$$);
SELECT * FROM expect_error($$SELECT 'A'::lexid(base36) - 'A'::lexid(upper)$$);
SELECT min(code), max(code) FROM codes;
SELECT lexid_cmp('A', 'B'), lexid_cmp('B', 'A'), lexid_cmp('AA', 'B'), lexid_cmp('b', 'B');

-- thousands of values of mixed lengths sort in shortlex order (rank order)
CREATE TABLE many AS
    SELECT lexid_from_rank((hashint4(g)::bigint & (CASE WHEN g % 3 = 0 THEN 1023 ELSE 67108863 END)) + 1, 'base36')::lexid(base36) AS v FROM generate_series(1, 5000) g;
SELECT bool_and(ok AND ok2) AS sorted_shortlex, count(*) AS checked FROM (
    SELECT lexid_rank(v) >= lag(lexid_rank(v)) OVER (ORDER BY v) OR lag(v) OVER (ORDER BY v) IS NULL AS ok,
           length(v::text) >= lag(length(v::text)) OVER (ORDER BY v) OR lag(v) OVER (ORDER BY v) IS NULL AS ok2
      FROM many) s;
SELECT count(*) FILTER (WHERE a <> b) AS mismatches FROM (
    SELECT v AS a, lexid_from_rank(r, 'base36') AS b FROM (
        SELECT v, row_number() OVER (ORDER BY v) AS n FROM many) x
    JOIN (SELECT lexid_rank(v) AS r, row_number() OVER (ORDER BY lexid_rank(v)) AS n FROM many) y USING (n)) z;
SELECT min(length(v::text)), max(length(v::text)) FROM many;

-- an index on a lexid column is used and agrees with a sequential scan
CREATE INDEX many_v ON many (v);
CREATE INDEX many_v_hash ON many USING hash (v);
ANALYZE many;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT v FROM many WHERE v BETWEEN 'A0' AND 'C00' ORDER BY v;
CREATE TEMP TABLE via_index AS SELECT v FROM many WHERE v BETWEEN 'A0' AND 'C00' ORDER BY v;
EXPLAIN (COSTS OFF) SELECT count(*) FROM many WHERE v = 'ZZZ';
RESET enable_seqscan;
RESET enable_bitmapscan;
SET enable_indexscan = off;
SET enable_indexonlyscan = off;
SET enable_bitmapscan = off;
CREATE TEMP TABLE via_seqscan AS SELECT v FROM many WHERE v BETWEEN 'A0' AND 'C00' ORDER BY v;
RESET ALL;
SELECT (SELECT count(*) FROM via_index) AS n, (SELECT count(*) FROM via_index) = (SELECT count(*) FROM via_seqscan)
       AND NOT EXISTS (SELECT v FROM via_index EXCEPT SELECT v FROM via_seqscan) AS same;
-- amcheck verifies the btree's order and that every heap tuple is in it
CREATE EXTENSION amcheck;
SELECT bt_index_check('many_v', true);
INSERT INTO many SELECT v + 1 FROM many;
SELECT bt_index_parent_check('many_v', true);
DROP EXTENSION amcheck;
-- hash joins, hash aggregation and hash partitioning use the hash opclass
SET enable_mergejoin = off;
SET enable_nestloop = off;
CREATE TEMP TABLE hashjoin AS SELECT count(*) AS n FROM many a JOIN many b USING (v);
RESET ALL;
SET enable_hashjoin = off;
SET enable_nestloop = off;
SELECT n AS hash_join_rows, (SELECT count(*) FROM many a JOIN many b USING (v)) AS merge_join_rows FROM hashjoin;
RESET ALL;
SELECT count(*), count(DISTINCT v) FROM many;
CREATE TABLE parted (v lexid(base36)) PARTITION BY HASH (v);
CREATE TABLE parted_0 PARTITION OF parted FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE parted_1 PARTITION OF parted FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO parted SELECT v FROM many;
SELECT (SELECT count(*) FROM parted_0) > 0 AND (SELECT count(*) FROM parted_1) > 0 AS both_used,
       (SELECT count(*) FROM parted) AS total;
-- equal values of a case-insensitive charset hash alike, typed or not
SELECT lexid_hash('abc'::lexid) = lexid_hash('ABC'::lexid(base36)),
       lexid_hash_extended('abc'::lexid, 7) = lexid_hash_extended('ABC'::lexid(base36), 7),
       lexid_hash('O1'::lexid(crockford32)) = lexid_hash('01'::lexid(crockford32));

-- ===== arithmetic =====
SELECT 'ZZ'::lexid + 1 AS "ZZ+1", '9'::lexid(digits) + 1 AS "9+1", '99'::lexid(digits) + 1 AS "99+1",
       'Z'::lexid(upper) + 1 AS "Z+1", '0'::lexid(digits) + 0 AS "0+0";
SELECT repeat('Z', 40)::lexid + 1 = repeat('0', 41)::lexid AS grows;
SELECT lexical_add('00A000'::lexid, 1), lexical_add('00A000'::lexid, -1), '000'::lexid(digits) - 1,
       '00'::lexid(digits) - 10 AS "00 - 10";
SELECT * FROM expect_error($$SELECT '00'::lexid(digits) - 12$$);
SELECT * FROM expect_error($$SELECT '0'::lexid(digits) - 1$$);
SELECT * FROM expect_error($$SELECT '0'::lexid(digits) - (-9223372036854775808)::bigint$$);
SELECT * FROM expect_error($$SELECT repeat('9', 1024)::lexid(digits) + 1$$);
SELECT length((repeat('9', 1023)::lexid(digits) + 1)::text);
SELECT 'ZZZZ'::lexid + 9223372036854775807 AS "plus INT64_MAX";
SELECT ('ZZZZ'::lexid + 9223372036854775807) - 9223372036854775807 AS back;
SELECT '000'::lexid(digits) - '9'::lexid(digits) AS distance, '9'::lexid(digits) - '000'::lexid(digits) AS negative,
       repeat('z', 300)::lexid(base62) - repeat('0', 300)::lexid(base62) > 10::numeric ^ 500 AS huge;

-- lexical_add on text
SELECT lexical_add('', 'digits', 1), lexical_add('', 'digits', 11), lexical_add('9', 'digits', 1),
       lexical_add('ZZ', 'base36', 1), lexical_add('zz', 'base36', 1);
SELECT lexical_add('aB1', 'base62', 1) AS "aB1+1 ci", lexical_add('az', 'base62', 1) AS "az+1 ci",
       lexical_add('Az', 'base62', 1) AS "Az+1 tie", lexical_add('zz', 'base62', 1, false) AS "zz+1 cs",
       lexical_add('Zz', 'base62', 1, false) AS "Zz+1 cs";
SELECT lexical_add('0', 'digits', -1) AS "0-1 is the empty zero", lexical_add('ABC', 'upper', 26 * 26 * 26);
SELECT * FROM expect_error($$SELECT lexical_add('', 'digits', -1)$$);
SELECT * FROM expect_error($$SELECT lexical_add('a b', 'base36', 1)$$);
SELECT * FROM expect_error($$SELECT lexical_add('abc', 'upper', 1, false)$$);
SELECT lexical_add('abc', 'upper', 1, true) AS "ignore_case over upper";
SELECT lexical_add(NULL, 'digits', 1), lexical_add('1', NULL, 1), lexical_add('1', 'digits', NULL);

-- ===== rank =====
SELECT lexid_rank('0'::lexid(digits)), lexid_rank('9'::lexid(digits)), lexid_rank('00'::lexid(digits)),
       lexid_rank('A'::lexid(upper)), lexid_rank('ZZ'::lexid(upper));
SELECT lexid_from_rank(1, 'digits'), lexid_from_rank(11, 'digits'), lexid_from_rank(702, 'upper'),
       lexid_from_rank(703, 'upper'), lexid_from_rank(5.000, 'base36');
SELECT lexid_rank(lexid_from_rank(123456789012345678901234567890, 'base62')) AS exact_beyond_64_bits;
SELECT * FROM expect_error($$SELECT lexid_from_rank(0, 'digits')$$);
SELECT * FROM expect_error($$SELECT lexid_from_rank(-5, 'digits')$$);
SELECT * FROM expect_error($$SELECT lexid_from_rank(1.5, 'digits')$$);
SELECT * FROM expect_error($$SELECT lexid_from_rank('NaN', 'digits')$$);
SELECT * FROM expect_error($$SELECT lexid_from_rank(10::numeric ^ 1100, 'digits')$$);

-- ===== casts =====
SELECT 'abc'::text::lexid, ('abc'::lexid)::text, CAST('abc' AS lexid(alpha));
SELECT castcontext FROM pg_cast WHERE castsource = 'text'::regtype AND casttarget = 'lexid'::regtype
UNION ALL
SELECT castcontext FROM pg_cast WHERE castsource = 'lexid'::regtype AND casttarget = 'text'::regtype;
-- no implicit cast: lexid compared with text reads the text in the lexid's charset and
-- compares shortlex, never in text order ('Z' < '00' as lexid, '00' < 'Z' as text)
SELECT repeat('Z', 40)::lexid + 1 = repeat('0', 41) AS contract_example,
       'Z'::lexid < '00'::text AS shortlex, '00'::text > 'Z'::lexid AS commuted,
       'Z'::text < '00'::text AS "text order differs", 'abc'::lexid = 'ABC'::text AS ci,
       'a'::lexid(base62) = 'A'::text AS cs, 'x'::varchar <> 'y'::lexid AS via_varchar;
SELECT * FROM expect_error($$SELECT 'A'::lexid(upper) = 'a1'::text$$);
SELECT * FROM expect_error($$SELECT 'A'::lexid = 42$$);

-- ===== binary send/receive =====
CREATE TABLE bin_src (a lexid(base62), b lexid(stars), c lexid(base36));
INSERT INTO bin_src VALUES ('aZ09', '★☆', 'ABC'), ('0', '✧', 'Z');
COPY bin_src TO '/tmp/idseq_regress_lexid.bin' WITH (FORMAT binary);
CREATE TABLE bin_dst (LIKE bin_src);
COPY bin_dst FROM '/tmp/idseq_regress_lexid.bin' WITH (FORMAT binary);
SELECT * FROM bin_dst ORDER BY a;
SELECT count(*) AS identical FROM bin_src JOIN bin_dst USING (a, b, c);
CREATE TABLE bin_wrong (a lexid(base36), b lexid(stars), c lexid(base36));
SELECT * FROM expect_error($$COPY bin_wrong FROM '/tmp/idseq_regress_lexid.bin' WITH (FORMAT binary)$$);
SELECT lexid_send('aZ'::lexid(base62));

-- ===== integrity =====
-- a sort mixing charsets is an error, as a comparison is, whichever path the sort takes
SELECT * FROM expect_error($$SELECT v FROM (VALUES ('A'::lexid(upper)), ('B'::lexid(base36)), ('C'::lexid(upper))) s(v) ORDER BY v$$);
-- registered charsets are final: stored values and IMMUTABLE functions rely on them
SELECT * FROM expect_error($$UPDATE idseq_charset_registry SET symbols = 'UOIEA' WHERE name = 'vowels'$$);
SELECT * FROM expect_error($$DELETE FROM idseq_charset_registry WHERE name = 'vowels'$$);
SELECT * FROM expect_error($$TRUNCATE idseq_charset_registry$$);
