-- nextval_block(seq, n): n consecutive values of an INCREMENT BY 1 sequence in one step, as
-- int8range [first, last + 1). Concurrency: specs/seq_block_disjoint.spec; a crash:
-- t/023_nextval_block.pl.
CREATE SCHEMA block_regress;
SET search_path = block_regress, public;
\pset null '(null)'

-- ===== labels: a generator, like nextval =====
SELECT p.oid::regprocedure AS function, p.provolatile, p.proparallel, p.proisstrict, p.proretset,
       p.prorettype::regtype AS returns
  FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass
  JOIN pg_extension e ON e.oid = d.refobjid AND d.refclassid = 'pg_extension'::regclass
 WHERE e.extname = 'idseq' AND p.proname = 'nextval_block';

-- ===== blocks and nextval share one sequence, never a value =====
CREATE SEQUENCE s;
SELECT nextval_block('s', 10) AS block;
SELECT nextval('s') AS after_block;
SELECT nextval_block('s', 5) AS block;
SELECT last_value, is_called FROM s;
SELECT nextval('s') AS after_block;
-- a block of one is the value nextval would have given
SELECT nextval_block('s', 1) AS one, nextval('s') AS next;
-- the block starts at START on a sequence that has handed out nothing yet, and after
-- setval(..., false) at the value set
CREATE SEQUENCE from_1000 START 1000;
SELECT nextval_block('from_1000', 3) AS block;
SELECT setval('from_1000', 5000, false);
SELECT nextval_block('from_1000', 3) AS block;
SELECT setval('from_1000', 6000);
SELECT nextval_block('from_1000', 3) AS block;
-- a negative range
CREATE SEQUENCE negative MINVALUE -100 START -100;
SELECT nextval_block('negative', 150) AS block;
-- the largest block: 2^31 - 1 values, taken as fast as one
SELECT nextval_block('s', 2147483647) AS block;
SELECT nextval('s') AS after_block;

-- ===== what a block leaves alone =====
-- currval and lastval stay those of this session's last nextval (a block is no nextval)
SELECT nextval('from_1000') AS nextval;
SELECT nextval_block('from_1000', 10) AS block;
SELECT currval('from_1000'), lastval();
-- a rollback does not give the block back (as with nextval: the values are a gap)
BEGIN;
SELECT nextval_block('s', 100) AS rolled_back;
ROLLBACK;
SELECT nextval_block('s', 1) AS after_rollback;
-- values this session cached (CACHE 20) were taken before the block, and nextval still hands
-- them out: they lie below it
CREATE SEQUENCE cached CACHE 20;
SELECT nextval('cached') AS first_cached;
SELECT nextval_block('cached', 5) AS block;
SELECT string_agg(nextval('cached')::text, ' ') AS rest_of_the_cache FROM generate_series(1, 19);
SELECT nextval('cached') AS past_the_block;

-- ===== the sequences it takes =====
-- an identity column's sequence, a temporary and an unlogged one, one AS smallint
CREATE TABLE ident (id bigint GENERATED ALWAYS AS IDENTITY, x int);
INSERT INTO ident (x) VALUES (1);
SELECT nextval_block(pg_get_serial_sequence('ident', 'id')::regclass, 100) AS block;
INSERT INTO ident (x) VALUES (2) RETURNING id;
CREATE TEMP SEQUENCE temp_seq;
SELECT nextval_block('temp_seq', 3) AS block, nextval('temp_seq') AS next;
CREATE UNLOGGED SEQUENCE unlogged_seq;
SELECT nextval_block('unlogged_seq', 3) AS block, nextval('unlogged_seq') AS next;
CREATE SEQUENCE small AS smallint;
SELECT nextval_block('small', 32766) AS block;
SELECT nextval_block('small', 1) AS block;
-- ALTER SEQUENCE is seen at once: blocks resume after the step is 1 again
CREATE SEQUENCE stepped;
SELECT nextval_block('stepped', 10) AS block;
ALTER SEQUENCE stepped INCREMENT BY 10;
SELECT nextval('stepped');
ALTER SEQUENCE stepped INCREMENT BY 1;
SELECT nextval_block('stepped', 10) AS block;

-- ===== a property test: blocks and nextval interleaved at random =====
-- on sequences with and without CACHE: every value is handed out once, each block holds
-- exactly n values, and blocks are runs of consecutive values
CREATE TABLE drawn (seq text, k int, lo bigint, hi bigint);
DO $$
DECLARE
    seqs text[] := ARRAY['prop_c1', 'prop_c7'];
    s text;
    r int8range;
    n int;
BEGIN
    PERFORM setseed(0.26);
    CREATE SEQUENCE prop_c1;
    CREATE SEQUENCE prop_c7 CACHE 7;
    FOR i IN 1..2000 LOOP
        s := seqs[1 + floor(random() * 2)::int];
        IF random() < 0.6 THEN
            INSERT INTO drawn SELECT s, i, v, v FROM nextval(s::regclass) v;
        ELSE
            n := 1 + floor(random() * 50)::int;
            r := nextval_block(s::regclass, n);
            INSERT INTO drawn VALUES (s, i, lower(r), upper(r) - 1);
            IF upper(r) - lower(r) <> n OR NOT lower_inc(r) OR upper_inc(r) THEN
                RAISE 'block % for % values', r, n;
            END IF;
        END IF;
    END LOOP;
END $$;
SELECT seq, count(*) > 600 AS many_draws, count(*) FILTER (WHERE hi > lo) > 200 AS many_blocks,
       sum(hi - lo + 1) AS values_drawn,
       (SELECT count(DISTINCT v) FROM drawn d, generate_series(d.lo, d.hi) v WHERE d.seq = drawn.seq) AS distinct_values
  FROM drawn GROUP BY seq ORDER BY seq;
SELECT count(*) AS overlapping_pairs
  FROM drawn a JOIN drawn b ON a.seq = b.seq AND a.k < b.k AND a.lo <= b.hi AND b.lo <= a.hi;
-- without CACHE, every draw lies beyond every earlier one
SELECT bool_and(lo > prev_hi) AS in_order
  FROM (SELECT lo, max(hi) OVER (ORDER BY k ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS prev_hi
          FROM drawn WHERE seq = 'prop_c1') x
 WHERE prev_hi IS NOT NULL;

-- ===== errors, each with its SQLSTATE; none takes a value =====
\x on
-- a block holds at least one value (22023)
SELECT * FROM expect_error($$SELECT nextval_block('s', 0)$$);
SELECT * FROM expect_error($$SELECT nextval_block('s', -5)$$);
-- a sequence that does not count by 1 (55000): lexid_block is for blocks of INCREMENT ids
CREATE SEQUENCE by_ten INCREMENT BY 10;
SELECT * FROM expect_error($$SELECT nextval_block('by_ten', 10)$$);
CREATE SEQUENCE descending INCREMENT BY -1;
SELECT * FROM expect_error($$SELECT nextval_block('descending', 10)$$);
-- a cycling sequence would hand the block out again after it wraps (55000)
CREATE SEQUENCE cycling MAXVALUE 100 CYCLE;
SELECT * FROM expect_error($$SELECT nextval_block('cycling', 10)$$);
SELECT last_value, is_called FROM cycling;
-- near MAXVALUE: a block that does not fit is refused whole and takes nothing (2200H) ...
CREATE SEQUENCE near_max MAXVALUE 25;
SELECT nextval_block('near_max', 20) AS block;
SELECT * FROM expect_error($$SELECT nextval_block('near_max', 10)$$);
SELECT last_value FROM near_max;
-- ... so the values left still go, as a block or by nextval, and then nothing is left
SELECT nextval_block('near_max', 4) AS block;
SELECT nextval('near_max') AS last_one;
SELECT * FROM expect_error($$SELECT nextval_block('near_max', 1)$$);
-- an integer sequence cannot hold 2^31 - 1 values past its first
CREATE SEQUENCE int_seq AS integer;
SELECT nextval('int_seq');
SELECT * FROM expect_error($$SELECT nextval_block('int_seq', 2147483647)$$);
-- the largest bigint never ends a block (int8range ends one past its last value); nextval
-- still hands it out
CREATE SEQUENCE top START 9223372036854775800;
SELECT nextval_block('top', 7) AS block;
SELECT * FROM expect_error($$SELECT nextval_block('top', 1)$$);
SELECT nextval('top') AS largest_bigint;
SELECT * FROM expect_error($$SELECT nextval_block('top', 1)$$);
-- not a sequence (42809), no such relation
CREATE TABLE t (a int);
SELECT * FROM expect_error($$SELECT nextval_block('t', 1)$$);
SELECT * FROM expect_error($$SELECT nextval_block(0, 1)$$);
-- in a read-only transaction, as nextval (25006)
BEGIN READ ONLY;
SELECT * FROM expect_error($$SELECT nextval_block('s', 1)$$);
ROLLBACK;
-- privileges are nextval's: USAGE or UPDATE (42501); without them nothing about the
-- sequence's shape is disclosed
CREATE ROLE regress_block_user;
GRANT USAGE ON SCHEMA block_regress TO regress_block_user;
CREATE SEQUENCE granted;
GRANT SELECT ON granted, cycling TO regress_block_user;
SET ROLE regress_block_user;
SELECT * FROM expect_error($$SELECT nextval_block('granted', 1)$$);
SELECT * FROM expect_error($$SELECT nextval_block('cycling', 1)$$);
SELECT * FROM expect_error($$SELECT nextval_block('by_ten', 1)$$);
RESET ROLE;
GRANT USAGE ON SEQUENCE granted TO regress_block_user;
SET ROLE regress_block_user;
SELECT nextval_block('granted', 2) AS with_usage;
RESET ROLE;
REVOKE USAGE ON SEQUENCE granted FROM regress_block_user;
GRANT UPDATE ON SEQUENCE granted TO regress_block_user;
SET ROLE regress_block_user;
SELECT nextval_block('granted', 2) AS with_update;
RESET ROLE;
\x off
SELECT last_value, is_called FROM by_ten;
SELECT last_value, is_called FROM descending;
-- NULL in, NULL out, nothing taken (STRICT)
SELECT nextval_block(NULL, 5) AS null_seq, nextval_block('s', NULL) AS null_size;

RESET search_path;
SET client_min_messages = warning;
DROP SCHEMA block_regress CASCADE;
DROP OWNED BY regress_block_user;
DROP ROLE regress_block_user;
