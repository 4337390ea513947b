-- Generators on native sequences: nextval_lexid, lexid_block,
-- code_format, code_parse, create_code_sequence, nextval_code.
CREATE SCHEMA seq_regress;
SET search_path = seq_regress, public;
\pset null '(null)'

-- ===== labels =====
SELECT p.oid::regprocedure AS function, p.provolatile, p.proparallel, p.proisstrict, p.proretset
  FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass
  JOIN pg_extension e ON e.oid = d.refobjid AND d.refclassid = 'pg_extension'::regclass
 WHERE e.extname = 'idseq'
   AND p.proname IN ('nextval_lexid', 'lexid_block', 'code_format', 'code_parse',
                     'create_code_sequence', 'nextval_code')
 ORDER BY p.oid::regprocedure::text;

-- ===== code_format and code_parse =====
SELECT code_format(0, 3) AS "0", code_format(1, 3) AS "1", code_format(25, 3) AS "25",
       code_format(26, 3) AS "26", code_format(17575, 3) AS "17575";
SELECT code_parse('AAA'), code_parse('ABB'), code_parse('ZZZ');
-- widths 1, 2, 4 and the largest
SELECT code_format(25, 1), code_format(675, 2), code_format(456975, 4), code_format(0, 13),
       code_format(2481152873203736575, 13);
SELECT code_parse('Z'), code_parse('ZZ'), code_parse('ZZZZ'), code_parse('ZZZZZZZZZZZZZ');
-- other charsets
SELECT code_format(7, 2, 'digits') AS digits, code_format(255, 4, 'hex') AS hex,
       code_format(1295, 2, 'base36') AS base36, code_format(61, 3, 'base62') AS base62,
       code_format(63, 2, 'base64url') AS base64url, code_format(1023, 2, 'crockford32') AS crockford32,
       code_format(0, 3, 'base58') AS base58, code_format(27, 2, 'lower') AS lower,
       code_format(999999999999999999, 18, 'digits') AS widest_digits;
-- case-insensitive charsets accept either case (crockford32 also reads O as 0, I and L as 1)
SELECT code_parse('abc', 'alpha') AS alpha_lower, code_parse('ABC', 'alpha') AS alpha_upper,
       code_parse('FF', 'hex') AS hex, code_parse('zz', 'base36') AS base36,
       code_parse('OIL', 'crockford32') AS crockford;
-- round trip over every width of every built-in charset, at both ends and in the middle
SELECT c.name, count(*) AS checked,
       bool_and(code_parse(code_format(n, w, c.name), c.name) = n) AS round_trip,
       bool_and(length(code_format(n, w, c.name)) = w) AS fixed_width
  FROM idseq_charsets c,
       LATERAL generate_series(1, floor(63 / log(2, c.base) - 1e-9)::int) w,
       LATERAL (VALUES (0::bigint), ((c.base::numeric ^ w - 1)::bigint), ((c.base::numeric ^ w / 3)::bigint)) v(n)
 WHERE c.builtin
 GROUP BY c.name ORDER BY c.name;
-- the order of codes of one width is the numeric order (byte order, for upper)
SELECT bool_and(a < b) AS ordered
  FROM (SELECT code_format(g, 3) AS a, code_format(g + 1, 3) AS b FROM generate_series(0, 17574) g) s;

-- widths beyond the charset's bigint range pad with the zero symbol, up to 64, and read back
SELECT code_format(1, 16, 'hex') AS hex16, code_format(9223372036854775807, 16, 'hex') AS hex_max,
       code_parse('7fffffffffffffff', 'hex') AS parsed_max, code_format(0, 14) AS upper14,
       code_format(9223372036854775807, 19, 'digits') AS digits19,
       code_parse('0000000000000000000001', 'digits') AS padded_one, length(code_format(5, 64, 'base62')) AS width64;

-- errors: bad widths (22023), n out of range (22003), bad codes (22P02), codes above bigint (22003)
\x on
SELECT * FROM expect_error($$SELECT code_format(0, 0)$$);
SELECT * FROM expect_error($$SELECT code_format(0, 65)$$);
SELECT * FROM expect_error($$SELECT code_format(-1, 20, 'digits')$$);
SELECT * FROM expect_error($$SELECT code_format(0, -1)$$);
SELECT * FROM expect_error($$SELECT code_format(17576, 3)$$);
SELECT * FROM expect_error($$SELECT code_format(-1, 3)$$);
SELECT state, message,
       hint LIKE 'Known charsets: digits, upper, lower, alpha, base36, base62, crockford32, base58, base64url, hex%. The view idseq_charsets lists every charset; create one with idseq_create_charset().' AS hint_lists_charsets
  FROM expect_error($$SELECT code_format(1, 3, 'nosuch')$$);
SELECT * FROM expect_error($$SELECT code_parse('')$$);
SELECT * FROM expect_error($$SELECT code_parse('AB1')$$);
SELECT * FROM expect_error($$SELECT code_parse('AbC')$$);
SELECT * FROM expect_error($$SELECT code_parse(E'AAA\n')$$);
SELECT * FROM expect_error($$SELECT code_parse(repeat('A', 65))$$);
SELECT * FROM expect_error($$SELECT code_parse('ZZZZZZZZZZZZZZ')$$);
SELECT * FROM expect_error($$SELECT code_parse('123456789012345678901', 'digits')$$);
SELECT * FROM expect_error($$SELECT code_parse('8000000000000000', 'hex')$$);
SELECT state, message,
       hint LIKE 'Known charsets: digits, upper, lower, alpha, base36, base62, crockford32, base58, base64url, hex%. The view idseq_charsets lists every charset; create one with idseq_create_charset().' AS hint_lists_charsets
  FROM expect_error($$SELECT code_parse('AAA', 'nosuch')$$);
\x off
-- NULL in, NULL out (STRICT)
SELECT code_format(NULL, 3), code_format(1, NULL), code_format(1, 3, NULL), code_parse(NULL), code_parse('A', NULL);

-- ===== create_code_sequence =====
SELECT create_code_sequence('codes');
SELECT seqstart, seqincrement, seqmin, seqmax, seqcycle FROM pg_sequence WHERE seqrelid = 'codes'::regclass;
SELECT create_code_sequence('codes_w1', 1), create_code_sequence('codes_w2', 2),
       create_code_sequence('codes_w4', 4), create_code_sequence('codes_digits', 2, 'digits'),
       create_code_sequence('codes_hex', 3, 'hex');
SELECT seqrelid::regclass, seqmin, seqmax, seqcycle FROM pg_sequence
 WHERE seqrelid IN (SELECT oid FROM pg_class WHERE relnamespace = 'seq_regress'::regnamespace
                     AND relname LIKE 'codes_%')
 ORDER BY seqmax, 1::text;
-- names are read as regclass reads them; any other text is taken as the name itself,
-- quoted, and creates exactly one sequence of that name
CREATE TABLE t (x int);
INSERT INTO t VALUES (1);
SELECT create_code_sequence('x; DROP TABLE t');
SELECT relname, relkind FROM pg_class WHERE relnamespace = 'seq_regress'::regnamespace
   AND relname IN ('x; DROP TABLE t', 't') ORDER BY relname;
SELECT nextval_code('"x; DROP TABLE t"');
SELECT create_code_sequence('Robert''); DROP TABLE t; --');
SELECT count(*) AS t_still_there FROM t;
CREATE SCHEMA seq_other;
SELECT create_code_sequence('seq_other.codes', 2);
SELECT create_code_sequence('seq_other."Mixed Case"', 2);
SELECT create_code_sequence('UPPER_FOLDS');
SELECT create_code_sequence('  seq_other.trimmed  ');
SELECT c.oid::regclass, n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE c.relkind = 'S' AND n.nspname IN ('seq_other', 'seq_regress')
   AND c.relname NOT LIKE 'codes%' ORDER BY 2, c.relname COLLATE "C";
SELECT nextval_code('seq_other.codes'), nextval_code('seq_other."Mixed Case"'), nextval_code('upper_folds');
\x on
SELECT * FROM expect_error($$SELECT create_code_sequence('codes')$$);
SELECT * FROM expect_error($$SELECT create_code_sequence('no_such_schema.codes')$$);
SELECT * FROM expect_error($$SELECT create_code_sequence('bad_width', 14)$$);
SELECT * FROM expect_error($$SELECT create_code_sequence('bad_width', 0)$$);
SELECT state, message,
       hint LIKE 'Known charsets: digits, upper, lower, alpha, base36, base62, crockford32, base58, base64url, hex%. The view idseq_charsets lists every charset; create one with idseq_create_charset().' AS hint_lists_charsets
  FROM expect_error($$SELECT create_code_sequence('bad_charset', 3, 'nosuch')$$);
SELECT * FROM expect_error($$SELECT create_code_sequence('')$$);
SELECT * FROM expect_error($$SELECT create_code_sequence('otherdb.seq_regress.codes')$$);
\x off
SELECT count(*) AS leftovers FROM pg_class WHERE relname IN ('bad_width', 'bad_charset');
SELECT create_code_sequence(NULL), create_code_sequence('n1', NULL), create_code_sequence('n2', 3, NULL);

-- ===== nextval_code =====
SELECT nextval_code('codes') FROM generate_series(1, 3);
-- the full cycle of width 3: 17,577 calls give AAA .. ZZZ and then AAA again
SELECT setval('codes', 0, false);
CREATE TABLE cycle3 AS SELECT g, nextval_code('codes') AS code FROM generate_series(1, 17577) g;
SELECT count(*) AS calls, count(DISTINCT code) AS distinct_codes,
       min(code) AS first_code, max(code) AS last_code,
       bool_and(code ~ '^[A-Z]{3}$') AS all_three_letters,
       bool_and(code_parse(code) = (g - 1) % 17576) AS in_order
  FROM cycle3;
SELECT g, code FROM cycle3 WHERE g IN (1, 2, 26, 27, 17575, 17576, 17577) ORDER BY g;
-- width 1: A .. Z, A
SELECT string_agg(nextval_code('codes_w1'), '' ORDER BY g) FROM generate_series(1, 27) g;
-- width 2: AA .. ZZ, AA
SELECT count(DISTINCT c) AS distinct_codes, min(c), max(c), bool_and(length(c) = 2) AS width2
  FROM (SELECT nextval_code('codes_w2') AS c FROM generate_series(1, 676) g) s;
SELECT nextval_code('codes_w2');
-- width 4 around its end
SELECT setval('codes_w4', 456973);
SELECT nextval_code('codes_w4') FROM generate_series(1, 4);
-- other charsets: the width comes from MAXVALUE and the charset's base
SELECT nextval_code('codes_digits', 'digits') FROM generate_series(1, 3);
SELECT setval('codes_digits', 98);
SELECT nextval_code('codes_digits', 'digits') FROM generate_series(1, 3);
SELECT setval('codes_hex', 4094);
SELECT nextval_code('codes_hex', 'hex') FROM generate_series(1, 3);
-- a custom charset, in a transaction that is rolled back: registered charsets are
-- permanent, and this test leaves the database as it found it
BEGIN;
SELECT idseq_create_charset('seq_hands', 'RPS');
SELECT code_format(g, 2, 'seq_hands') AS code, code_parse(code_format(g, 2, 'seq_hands'), 'seq_hands') AS n
  FROM generate_series(0, 8) g;
SELECT create_code_sequence('codes_hands', 2, 'seq_hands');
SELECT string_agg(nextval_code('codes_hands', 'seq_hands'), ' ' ORDER BY g) FROM generate_series(1, 10) g;
ROLLBACK;
SELECT count(*) AS seq_hands_left FROM idseq_charsets WHERE name = 'seq_hands';
-- a sequence made by hand in the letter-sequence article's shape works as well
CREATE SEQUENCE seed_shape MINVALUE 0 MAXVALUE 17575 CYCLE;
SELECT nextval_code('seed_shape'), nextval_code('seed_shape'), nextval_code('seed_shape', 'alpha');
-- CACHE does not matter
CREATE SEQUENCE cached MINVALUE 0 MAXVALUE 675 CYCLE CACHE 50;
SELECT string_agg(nextval_code('cached'), ' ' ORDER BY g) FROM generate_series(1, 5) g;
-- a column default
CREATE TABLE matches (id serial, code text NOT NULL DEFAULT nextval_code('codes_w2'));
SELECT setval('codes_w2', 0, false);
INSERT INTO matches DEFAULT VALUES;
INSERT INTO matches DEFAULT VALUES;
SELECT * FROM matches ORDER BY id;

-- ALTER SEQUENCE is seen at once (the shape is cached per backend and invalidated)
SELECT create_code_sequence('altered', 2);
SELECT nextval_code('altered');
ALTER SEQUENCE altered MAXVALUE 17575;
SELECT nextval_code('altered');
ALTER SEQUENCE altered MAXVALUE 456975;
SELECT nextval_code('altered');
BEGIN;
ALTER SEQUENCE altered MAXVALUE 675;
SELECT nextval_code('altered');
ROLLBACK;
-- (ALTER SEQUENCE is transactional: the value drawn from the altered sequence in the
-- aborted transaction is rolled back with it and handed out again)
SELECT nextval_code('altered');
\x on
ALTER SEQUENCE altered MAXVALUE 1000;
SELECT * FROM expect_error($$SELECT nextval_code('altered')$$);
ALTER SEQUENCE altered MAXVALUE 675 NO CYCLE;
SELECT * FROM expect_error($$SELECT nextval_code('altered')$$);
ALTER SEQUENCE altered CYCLE;
SELECT nextval_code('altered');

-- sequences of the wrong shape: 55000, the detail says what is wrong, the hint shows the
-- right CREATE SEQUENCE; no value is taken
CREATE SEQUENCE plain;
SELECT * FROM expect_error($$SELECT nextval_code('plain')$$);
CREATE SEQUENCE from_one MINVALUE 1 MAXVALUE 17575 CYCLE;
SELECT * FROM expect_error($$SELECT nextval_code('from_one')$$);
CREATE SEQUENCE no_cycle MINVALUE 0 MAXVALUE 17575;
SELECT * FROM expect_error($$SELECT nextval_code('no_cycle')$$);
CREATE SEQUENCE by_two MINVALUE 0 MAXVALUE 17575 INCREMENT BY 2 CYCLE;
SELECT * FROM expect_error($$SELECT nextval_code('by_two')$$);
CREATE SEQUENCE odd_max MINVALUE 0 MAXVALUE 1000 CYCLE;
SELECT * FROM expect_error($$SELECT nextval_code('odd_max')$$);
CREATE SEQUENCE descending MINVALUE 0 MAXVALUE 17575 INCREMENT BY -1 CYCLE;
SELECT * FROM expect_error($$SELECT nextval_code('descending')$$);
CREATE SEQUENCE "Quoted Seq" MINVALUE 0 MAXVALUE 5 CYCLE;
SELECT * FROM expect_error($$SELECT nextval_code('"Quoted Seq"')$$);
-- the right shape for another charset
SELECT * FROM expect_error($$SELECT nextval_code('codes', 'digits')$$);
-- create_code_sequence's sequences remember their charset (32_code_sequences); one made by
-- hand reads upper by default, and the hint shows the shape
SELECT nextval_code('codes_digits') AS remembered_digits;
CREATE SEQUENCE hand_digits MINVALUE 0 MAXVALUE 99 START 0 CYCLE;
SELECT * FROM expect_error($$SELECT nextval_code('hand_digits')$$);
DROP SEQUENCE hand_digits;
SELECT state, message,
       hint LIKE 'Known charsets: digits, upper, lower, alpha, base36, base62, crockford32, base58, base64url, hex%. The view idseq_charsets lists every charset; create one with idseq_create_charset().' AS hint_lists_charsets
  FROM expect_error($$SELECT nextval_code('codes', 'nosuch')$$);
SELECT last_value, is_called FROM plain;
SELECT last_value, is_called FROM odd_max;
-- not a sequence, no such relation, no privilege
SELECT * FROM expect_error($$SELECT nextval_code('t')$$);
SELECT * FROM expect_error($$SELECT nextval_code('no_such_seq')$$);
CREATE ROLE regress_seq_reader;
GRANT USAGE ON SCHEMA seq_regress TO regress_seq_reader;
GRANT SELECT ON codes TO regress_seq_reader;
SET ROLE regress_seq_reader;
SELECT * FROM expect_error($$SELECT nextval_code('codes')$$);
SELECT * FROM expect_error($$SELECT nextval_code('odd_max')$$);
SELECT * FROM expect_error($$SELECT nextval_lexid('plain', 'A')$$);
SELECT * FROM expect_error($$SELECT * FROM lexid_block('plain', 'A')$$);
RESET ROLE;
GRANT USAGE ON SEQUENCE codes TO regress_seq_reader;
SET ROLE regress_seq_reader;
SELECT nextval_code('codes');
RESET ROLE;
\x off
-- a null sequence gives null; a null charset is the default (the sequence's own)
SELECT nextval_code(NULL), nextval_code('codes', NULL);

-- ===== nextval_lexid =====
-- the documented column default: seed + (nextval - start)
CREATE SEQUENCE order_code_seq;
CREATE TABLE orders (id serial, code lexid(base36) NOT NULL UNIQUE
                     DEFAULT nextval_lexid('order_code_seq', '00A000'));
INSERT INTO orders DEFAULT VALUES;
INSERT INTO orders DEFAULT VALUES;
INSERT INTO orders DEFAULT VALUES;
SELECT id, code, lexid_charset(code) FROM orders ORDER BY id;
-- the offset is counted from START, not from 1
CREATE SEQUENCE from_1000 START 1000;
SELECT nextval_lexid('from_1000', 'A'::lexid(upper)), nextval_lexid('from_1000', 'A'::lexid(upper));
-- growing past the seed's width
CREATE SEQUENCE grow;
SELECT string_agg(nextval_lexid('grow', 'X'::lexid(base36))::text, ' ' ORDER BY g) FROM generate_series(1, 5) g;
SELECT setval('grow', 1, false);
SELECT string_agg(nextval_lexid('grow', '97'::lexid(digits))::text, ' ' ORDER BY g) FROM generate_series(1, 5) g;
SELECT setval('grow', 1, false);
SELECT string_agg(nextval_lexid('grow', 'ZY'::lexid(upper))::text, ' ' ORDER BY g) FROM generate_series(1, 4) g;
SELECT setval('grow', 1, false);
SELECT count(*), count(DISTINCT v), min(v), max(v), min(length(v::text)), max(length(v::text))
  FROM (SELECT nextval_lexid('grow', '0'::lexid(digits)) AS v FROM generate_series(1, 1110) g) s;
-- a seed of another charset is typed; an untyped seed is read as base36
CREATE SEQUENCE crock;
SELECT nextval_lexid('crock', '00A000'::lexid(crockford32)) AS typed,
       lexid_charset(nextval_lexid('crock', '00A000'::lexid(crockford32))) AS charset,
       nextval_lexid('crock', 'zz') AS untyped, lexid_charset(nextval_lexid('crock', 'zz')) AS untyped_charset;
CREATE TABLE crock_orders (code lexid(crockford32) DEFAULT nextval_lexid('crock', '00A000'::lexid(crockford32)));
INSERT INTO crock_orders DEFAULT VALUES;
SELECT code FROM crock_orders;
-- where the result fills a lexid(cs) column, an untyped seed is read in cs (31_lexid_seeds)
\x on
CREATE TABLE crock_untyped (code lexid(crockford32) DEFAULT nextval_lexid('crock', '00A000'));
INSERT INTO crock_untyped DEFAULT VALUES RETURNING code, lexid_charset(code);
\x off
-- START and INCREMENT changed by ALTER SEQUENCE are seen at once
CREATE SEQUENCE moving START 10;
SELECT nextval_lexid('moving', 'A'::lexid(upper));
-- (so never change START of a sequence in use: the ids would shift)
ALTER SEQUENCE moving START 5;
SELECT nextval_lexid('moving', 'A'::lexid(upper));
-- a descending sequence counts down from the seed; before the first value is 22003
CREATE SEQUENCE down INCREMENT BY -1 MINVALUE -10 MAXVALUE 10 START 0;
SELECT string_agg(nextval_lexid('down', '2'::lexid(digits))::text, ' ' ORDER BY g) FROM generate_series(1, 3) g;
\x on
SELECT * FROM expect_error($$SELECT nextval_lexid('down', '2'::lexid(digits))$$);
-- the whole bigint range of a sequence
CREATE SEQUENCE huge MINVALUE -9223372036854775808 MAXVALUE 9223372036854775807 START -9223372036854775808;
SELECT setval('huge', 9223372036854775806);
SELECT nextval_lexid('huge', '0'::lexid(digits)) = lexid_from_rank(2::numeric ^ 64, 'digits') AS exact;
-- errors
SELECT * FROM expect_error($$SELECT nextval_lexid('t', 'A')$$);
SELECT * FROM expect_error($$SELECT nextval_lexid('grow', 'A-B')$$);
\x off
SELECT nextval_lexid(NULL, 'A'), nextval_lexid('grow', NULL);

-- ===== lexid_block =====
-- one nextval reserves increment_by ids; consecutive blocks touch and never overlap
CREATE SEQUENCE node_blocks INCREMENT BY 100;
SELECT * FROM lexid_block('node_blocks', '00A000'::lexid(base36));
SELECT * FROM lexid_block('node_blocks', '00A000'::lexid(base36));
SELECT first_id, last_id, last_id - first_id + 1 AS size FROM lexid_block('node_blocks', '00A000');
CREATE TABLE blocks (g int, first_id lexid(base36), last_id lexid(base36));
DO $$
BEGIN
    FOR i IN 1..50 LOOP
        INSERT INTO blocks SELECT i, b.* FROM lexid_block('node_blocks', 'ZZ'::lexid(base36)) b;
    END LOOP;
END $$;
SELECT count(*) AS blocks, bool_and(last_id - first_id = 99) AS all_of_100,
       bool_and(prev_last IS NULL OR first_id - prev_last = 1) AS contiguous_disjoint,
       min(first_id), max(last_id)
  FROM (SELECT first_id, last_id, lag(last_id) OVER (ORDER BY g) AS prev_last FROM blocks) s;
-- increment_by 1: blocks of one id, the same ids nextval_lexid gives
CREATE SEQUENCE single;
SELECT * FROM lexid_block('single', 'A'::lexid(upper));
SELECT * FROM lexid_block('single', 'A'::lexid(upper));
-- the block size follows ALTER SEQUENCE ... INCREMENT BY
ALTER SEQUENCE single INCREMENT BY 10;
SELECT * FROM lexid_block('single', 'A'::lexid(upper));
-- a smaller block size never reaches back into the last block: before ALTER
-- SEQUENCE makes INCREMENT smaller, the sequence moves on to the end of the last block
CREATE SEQUENCE nb INCREMENT BY 1000;
SELECT * FROM lexid_block('nb', '00A000');
ALTER SEQUENCE nb INCREMENT BY 100;
SELECT * FROM lexid_block('nb', '00A000');
ALTER SEQUENCE nb INCREMENT BY 1000;
SELECT * FROM lexid_block('nb', '00A000');
CREATE SEQUENCE nb_down INCREMENT BY -1000 MINVALUE 0 MAXVALUE 100000 START 100000;
SELECT * FROM lexid_block('nb_down', '00A000');
ALTER SEQUENCE nb_down INCREMENT BY -100;
SELECT * FROM lexid_block('nb_down', '00A000');
-- the move stays within the bounds, also a MAXVALUE set by the same statement: the last
-- block reached it, so the sequence is spent
CREATE SEQUENCE nb_max INCREMENT BY 1000 MAXVALUE 10000;
SELECT * FROM lexid_block('nb_max', '0000'::lexid(digits));
ALTER SEQUENCE nb_max INCREMENT BY 10 MAXVALUE 500;
SELECT last_value FROM nb_max;
SELECT * FROM expect_error($$SELECT * FROM lexid_block('nb_max', '0000')$$);
-- a sequence that has handed out nothing yet (or was restarted) is not moved; neither is a
-- larger step, RESTART, nor a plain sequence in the other direction
CREATE SEQUENCE nb_fresh INCREMENT BY 1000;
ALTER SEQUENCE nb_fresh INCREMENT BY 10;
SELECT * FROM lexid_block('nb_fresh', '0000'::lexid(digits));
ALTER SEQUENCE nb_fresh INCREMENT BY 5 RESTART;
SELECT last_value, is_called FROM nb_fresh;
-- an identity column's sequence, whose step ALTER TABLE changes
CREATE TABLE nb_ident (id bigint GENERATED ALWAYS AS IDENTITY (INCREMENT BY 1000), x int);
SELECT * FROM lexid_block(pg_get_serial_sequence('nb_ident', 'id')::regclass, '00A000');
ALTER TABLE nb_ident ALTER COLUMN id SET INCREMENT BY 100, ALTER COLUMN x SET NOT NULL;
SELECT * FROM lexid_block(pg_get_serial_sequence('nb_ident', 'id')::regclass, '00A000');
ALTER TABLE nb_ident ALTER COLUMN id SET INCREMENT BY 10 RESTART;
SELECT last_value, is_called FROM seq_regress.nb_ident_id_seq;
SELECT state, message FROM expect_error($$ALTER TABLE nb_ident ALTER COLUMN x SET INCREMENT BY 5$$);
ALTER TABLE IF EXISTS nb_no_such_table ALTER COLUMN id SET INCREMENT BY 5;
-- the guard looks the sequence up as ALTER SEQUENCE does: a missing one with IF EXISTS, a
-- relation that is not a sequence and a caller who does not own it meet ALTER's own outcome
ALTER SEQUENCE IF EXISTS nb_no_such INCREMENT BY 5;
CREATE TABLE nb_table (a int);
-- (only the state: PostgreSQL 17 words ALTER SEQUENCE's own message for a table differently)
SELECT state FROM expect_error($$ALTER SEQUENCE nb_table INCREMENT BY 5$$);
CREATE ROLE regress_nb_other;
GRANT USAGE ON SCHEMA seq_regress TO regress_nb_other;
GRANT USAGE, UPDATE ON SEQUENCE nb TO regress_nb_other;
SET ROLE regress_nb_other;
SELECT state, message FROM expect_error($$ALTER SEQUENCE nb INCREMENT BY 5$$);
RESET ROLE;
DROP OWNED BY regress_nb_other;
DROP ROLE regress_nb_other;
SELECT last_value FROM nb;
-- a property test: random block draws and INCREMENT changes (up and down; ascending and
-- descending sequences, with and without CACHE): no two blocks of a sequence overlap and
-- each holds INCREMENT ids
CREATE TABLE prop_blocks (seq text, n int, step bigint, lo numeric, hi numeric);
DO $$
DECLARE
    seqs text[] := ARRAY['prop_up', 'prop_up_cached', 'prop_down', 'prop_down_cached'];
    s text;
    step bigint;
    b record;
    n int := 0;
BEGIN
    PERFORM setseed(0.18);
    CREATE SEQUENCE prop_up INCREMENT BY 100;
    CREATE SEQUENCE prop_up_cached INCREMENT BY 100 CACHE 7;
    CREATE SEQUENCE prop_down INCREMENT BY -100 MINVALUE -10000000 MAXVALUE 0 START 0;
    CREATE SEQUENCE prop_down_cached INCREMENT BY -100 MINVALUE -10000000 MAXVALUE 0 START 0 CACHE 7;
    FOR i IN 1..600 LOOP
        s := seqs[1 + floor(random() * 4)::int];
        IF random() < 0.3 THEN
            step := 1 + floor(random() * 300)::bigint;
            IF s LIKE 'prop_down%' THEN
                step := -step;
            END IF;
            EXECUTE format('ALTER SEQUENCE %I INCREMENT BY %s', s, step);
        ELSE
            SELECT seqincrement INTO step FROM pg_sequence WHERE seqrelid = s::regclass;
            SELECT * INTO b FROM lexid_block(s::regclass, '00A000'::lexid(base36));
            n := n + 1;
            INSERT INTO prop_blocks VALUES (s, n, step, lexid_rank(b.first_id), lexid_rank(b.last_id));
        END IF;
    END LOOP;
END $$;
SELECT count(*) > 300 AS many_blocks, count(DISTINCT step) > 50 AS many_steps,
       bool_and(hi - lo + 1 = abs(step)) AS each_of_its_step
  FROM prop_blocks;
SELECT count(*) AS overlapping_pairs
  FROM prop_blocks a JOIN prop_blocks b ON a.seq = b.seq AND a.n < b.n AND a.lo <= b.hi AND b.lo <= a.hi;
-- and each block lies beyond every earlier one
SELECT seq, bool_and(CASE WHEN seq LIKE 'prop_down%' THEN hi < prev_lo ELSE lo > prev_hi END) AS in_order
  FROM (SELECT *, min(lo) OVER w AS prev_lo, max(hi) OVER w AS prev_hi
          FROM prop_blocks WINDOW w AS (PARTITION BY seq ORDER BY n ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)) x
 WHERE prev_lo IS NOT NULL
 GROUP BY seq ORDER BY seq;
-- a descending sequence reserves blocks downwards; each block is given first to last
CREATE SEQUENCE down_blocks INCREMENT BY -10 MINVALUE 0 MAXVALUE 1000 START 1000;
SELECT * FROM lexid_block('down_blocks', '0000'::lexid(digits));
SELECT * FROM lexid_block('down_blocks', '0000'::lexid(digits));
-- a block never crosses the sequence's bounds: the last one is shorter and last_id (first_id
-- for a descending sequence) says where it ends; then the sequence is exhausted, as nextval
CREATE SEQUENCE max_blocks INCREMENT BY 1000 MAXVALUE 2500;
CREATE FUNCTION pg_temp.block(seq regclass, seed lexid, OUT first_id lexid, OUT last_id lexid, OUT size numeric)
LANGUAGE sql AS $$
    SELECT b.first_id, b.last_id, lexid_rank(b.last_id) - lexid_rank(b.first_id) + 1 FROM lexid_block(seq, seed) b
$$;
SELECT * FROM pg_temp.block('max_blocks', '0000'::lexid(digits));
SELECT * FROM pg_temp.block('max_blocks', '0000'::lexid(digits));
SELECT * FROM pg_temp.block('max_blocks', '0000'::lexid(digits));
SELECT * FROM expect_error($$SELECT * FROM lexid_block('max_blocks', '0000')$$);
CREATE SEQUENCE min_blocks INCREMENT BY -1000 MINVALUE -2500 MAXVALUE -1;
SELECT * FROM pg_temp.block('min_blocks', '9999'::lexid(digits));
SELECT * FROM pg_temp.block('min_blocks', '9999'::lexid(digits));
SELECT * FROM pg_temp.block('min_blocks', '9999'::lexid(digits));
SELECT * FROM expect_error($$SELECT * FROM lexid_block('min_blocks', '9999')$$);
-- a block that ends exactly at MAXVALUE is whole; at the top of bigint, clamped too
CREATE SEQUENCE exact_blocks INCREMENT BY 500 MAXVALUE 1000;
SELECT * FROM pg_temp.block('exact_blocks', 'A'::lexid(upper));
SELECT * FROM pg_temp.block('exact_blocks', 'A'::lexid(upper));
CREATE SEQUENCE top_blocks INCREMENT BY 1000 START 9223372036854775000;
SELECT size FROM pg_temp.block('top_blocks', 'A'::lexid(upper));
SELECT * FROM expect_error($$SELECT * FROM lexid_block('top_blocks', 'A')$$);
CREATE SEQUENCE bottom_blocks INCREMENT BY -1000 START -9223372036854775000;
SELECT size FROM pg_temp.block('bottom_blocks', 'ZZZ'::lexid(upper));
-- a cycling sequence would hand out blocks again: 55000, and no value is taken
\x on
CREATE SEQUENCE cyc_blocks INCREMENT BY 10 MAXVALUE 100 CYCLE;
SELECT * FROM expect_error($$SELECT * FROM lexid_block('cyc_blocks', 'A')$$);
SELECT * FROM expect_error($$SELECT * FROM lexid_block('t', 'A')$$);
\x off
SELECT last_value, is_called FROM cyc_blocks;
SELECT * FROM lexid_block(NULL, 'A');
SELECT * FROM lexid_block('single', NULL);

-- ===== the plain contract for sequences shaped like a Citus worker's copy =====
-- Citus gives a worker's copy of a bigint sequence START = MINVALUE = (group << 48) + 1 and
-- MAXVALUE = START + 2^48; idseq offsets such a copy only where Citus's catalogs say this node
-- is that worker and the sequence is distributed. Without Citus the shape alone changes
-- nothing: seed + (nextval - START), up to MAXVALUE itself.
CREATE SEQUENCE citus_shaped START 281474976710657 MINVALUE 281474976710657 MAXVALUE 562949953421313;
SELECT nextval_lexid('citus_shaped', '00A000'::lexid(base36)) AS first,
       nextval_lexid('citus_shaped', '00A000'::lexid(base36)) AS second;
SELECT setval('citus_shaped', 562949953421312);
SELECT nextval_lexid('citus_shaped', '00A000'::lexid(base36)) AS at_maxvalue;
SELECT * FROM expect_error($$SELECT nextval_lexid('citus_shaped', '00A000'::lexid(base36))$$);
CREATE SEQUENCE citus_shaped_blocks INCREMENT BY 10 START 281474976710657 MINVALUE 281474976710657 MAXVALUE 562949953421313;
SELECT * FROM lexid_block('citus_shaped_blocks', 'A'::lexid(upper));
SELECT setval('citus_shaped_blocks', 562949953421297);
SELECT * FROM pg_temp.block('citus_shaped_blocks', 'A'::lexid(upper));

RESET search_path;
SET client_min_messages = warning;
DROP SCHEMA seq_regress, seq_other CASCADE;
DROP ROLE regress_seq_reader;
