-- Untyped lexid values meeting each other (the lexid2 findings). The rule: two untyped
-- values compared with each other at run time raise 42804; the planner hook types every
-- untyped value it can see (beside a typed operand: in its charset; beside another untyped
-- one, or sorted on its own: base36) before planning. Wrong rows never; by index scan and
-- by sequential scan.
-- The view planned before the library is loaded (no preload): t/014_lexid_untyped.pl.
SELECT 'loads the library, and with it the planner hook'::text AS note, 'x'::lexid AS x;

-- ===== the contract: untyped values on their own are base36 =====
SELECT 'a'::lexid = 'A'::lexid AS a_eq_a, 'Z'::lexid < '00'::lexid AS z_before_00, 'ZZ'::lexid + 1 AS zz_plus_1;
SELECT lexid_cmp('A', 'B') AS ab, lexid_cmp('AA', 'B') AS aa_b, lexid_cmp('b', 'B') AS b_b;
SELECT max(v), min(v) FROM (VALUES ('A'::lexid), ('B'::lexid)) t(v);
-- min and max compare as base36 and give the value as written (the planner calls
-- lexid_max_as_written(lexical_add(v, 0), v): ordered by the base36 key, the value kept)
SELECT max(v), min(v) FROM (VALUES ('b'::lexid), ('a'::lexid), ('zz'::lexid)) t(v);
SELECT max(v) AS max_of_one FROM (VALUES ('aB'::lexid)) t(v);
SELECT * FROM expect_error($$SELECT max(v) FROM (VALUES ('a'::lexid), ('-'::lexid)) t(v)$$);
SELECT max(v) FILTER (WHERE v::text <> 'zz') AS max_filtered, min(v) AS min_of_three
  FROM (VALUES ('b'::lexid), ('aB'::lexid), ('zz'::lexid)) t(v);
SELECT max(v) AS grouped_max FROM (VALUES (1, 'b'::lexid), (1, 'Cd'::lexid), (2, 'x'::lexid)) t(g, v)
 GROUP BY g ORDER BY g;
-- DISTINCT arguments are typed as base36 instead (and print in its spelling)
SELECT max(DISTINCT v) AS distinct_max FROM (VALUES ('b'::lexid), ('zz'::lexid)) t(v);
-- values typed at run time keep their charset and their spelling
SELECT max(lexid_from_rank(r, 'base62')) AS typed_at_run_time FROM generate_series(30, 40) r;
-- keys without a charset (what a Citus coordinator would receive as text) never compare
SELECT * FROM expect_error($$SELECT lexid_max_as_written(v, v) FROM (VALUES ('a'::lexid), ('b'::lexid)) t(v)$$);
-- parallel aggregation: the workers' states are combined by the same comparison
CREATE TABLE ut_par (s text);
INSERT INTO ut_par SELECT CASE WHEN i = 4321 THEN 'zzZzz' WHEN i = 8765 THEN '0a' ELSE lower(to_hex(4096 + i)) END
  FROM generate_series(1, 20000) i;
ANALYZE ut_par;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET max_parallel_workers_per_gather = 2;
EXPLAIN (COSTS OFF) SELECT max(s::lexid), min(s::lexid) FROM ut_par;
SELECT max(s::lexid), min(s::lexid) FROM ut_par;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET max_parallel_workers_per_gather;
DROP TABLE ut_par;

-- ===== reading an untyped value is lexical: it never consults the registry =====
-- the same literal reads the same before and after a charset holding its symbols exists
SELECT '☺☻'::lexid AS before, '"!'::lexid AS no_charset_has_these;
SELECT idseq_create_charset('ut_smileys', '☺☻');
SELECT '☺☻'::lexid AS after, '☺☻'::lexid(ut_smileys) AS typed;
-- only what no charset can hold is refused at input: empty, white space, control
-- characters, more than 1024 characters
SELECT * FROM expect_error($$SELECT E'a\tb'::lexid$$);
SELECT * FROM expect_error($$SELECT repeat('☺', 1025)::lexid$$);
SELECT length(repeat('☺', 1024)::lexid::text) AS longest;
-- the symbols are checked where the value meets a charset, which the error names
SELECT * FROM expect_error($$SELECT '"!'::lexid + 1$$);
SELECT * FROM expect_error($$SELECT '☺x'::lexid(ut_smileys)$$);
SELECT * FROM expect_error($$SELECT 'a'::lexid(base62) = '☺'::lexid$$);
-- ORDER BY sorts in base36 and prints the spelling as written
SELECT v FROM (VALUES ('b'::lexid), ('A'::lexid), ('00'::lexid), ('Z'::lexid)) t(v) ORDER BY v;
SELECT s::lexid AS v FROM unnest(ARRAY['b', 'A', '00', 'Z']) s ORDER BY 1 DESC;
SELECT v, row_number() OVER (ORDER BY v) FROM (VALUES ('b'::lexid), ('A'::lexid)) t(v) ORDER BY 2;
-- a volatile key is not copied (it would be evaluated apart from the output): typed keys
-- sort, untyped ones of one length meeting each other are the error
SELECT lexid_from_rank(g + (random() * 0)::int, 'base62') AS v FROM generate_series(35, 38) g ORDER BY 1 DESC;
SELECT * FROM expect_error($$SELECT (s || substr('', 1, (random() * 0)::int))::lexid FROM unnest(ARRAY['b', 'A']) s ORDER BY 1$$);
-- set operations and GROUP BY over untyped values: the error, not a guess
SELECT * FROM expect_error($$SELECT 'a'::lexid UNION SELECT 'A'::lexid$$);
SELECT * FROM expect_error($$SELECT v, count(*) FROM (VALUES ('a'::lexid), ('A'::lexid)) t(v) GROUP BY v$$);
-- an untyped value compared with a typed one is read in its charset
SELECT 'a'::lexid(base62) = 'A' AS a_eq_a_base62, 'a'::lexid(base62) > 'B' AS a_after_b_base62;

-- ===== what the hook cannot see: a clean error, never a guess =====
SELECT * FROM expect_error($$SELECT x = y FROM (VALUES ('a'::lexid, 'A'::lexid)) v(x, y)$$);
SELECT * FROM expect_error($$SELECT DISTINCT v FROM (VALUES ('a'::lexid), ('A'::lexid)) t(v)$$);
-- untyped beside typed still works where the values only meet row by row
SELECT x = y AS eq FROM (VALUES ('a'::lexid, 'A'::lexid(base62)), ('A'::lexid, 'A'::lexid(base62))) v(x, y);
-- hashing agrees with equality, typed and untyped
SELECT count(*) FILTER (WHERE v62 = v62::text::lexid) AS equal_62,
       count(*) FILTER (WHERE lexid_hash(v62) <> lexid_hash(v62::text::lexid)) AS hash_mismatches_62,
       count(*) FILTER (WHERE v36 = lower(v36::text)::lexid) AS equal_36,
       count(*) FILTER (WHERE lexid_hash(v36) <> lexid_hash(lower(v36::text)::lexid)) AS hash_mismatches_36
  FROM (SELECT lexid_from_rank(g, 'base62') AS v62, lexid_from_rank(g, 'base36') AS v36
          FROM generate_series(1, 5000) g) s;

-- ===== a base62 column, indexed =====
CREATE TABLE ut (code lexid(base62));
INSERT INTO ut SELECT lexid_from_rank(g, 'base62') FROM generate_series(1, 4000) g;
CREATE INDEX ut_code ON ut (code);
CREATE INDEX ut_plus0 ON ut ((code + 0));
ANALYZE ut;
-- (1) inlined SQL functions: the planner inlines their bodies after the hook has run, so
-- their constants stay untyped. Beside the column they are read row by row in its charset
-- (a sequential scan of a short list); where an index scan or a hashed IN list compares
-- them with each other it is the error, never wrong rows
CREATE FUNCTION ut_is_a(x lexid) RETURNS bool LANGUAGE sql IMMUTABLE AS $$ SELECT x IN ('a', 'A') $$;
CREATE FUNCTION ut_atomic(x lexid) RETURNS bool LANGUAGE sql IMMUTABLE
BEGIN ATOMIC SELECT x IN ('Ab', 'aB', 'Ac', 'aC', 'Ad', 'aD', 'Ae', 'aE', 'Af'); END;
CREATE FUNCTION ut_srf() RETURNS SETOF lexid LANGUAGE sql STABLE
    AS $$ SELECT code FROM ut WHERE code IN ('Ab', 'aB', 'Ac', 'aC', 'Ad', 'aD', 'Ae', 'aE', 'Af') $$;
CREATE FUNCTION ut_cases(OUT scan text, OUT inlined text, OUT atomic text, OUT srf text,
                         OUT typed_in bigint, OUT ranges bigint)
RETURNS SETOF record LANGUAGE plpgsql AS $$
BEGIN
    FOREACH scan IN ARRAY ARRAY['index', 'seq'] LOOP
        PERFORM set_config('enable_seqscan', (scan = 'seq')::text, true);
        PERFORM set_config('enable_indexscan', (scan = 'index')::text, true);
        PERFORM set_config('enable_bitmapscan', (scan = 'index')::text, true);
        BEGIN
            SELECT string_agg(code::text, ',' ORDER BY code) INTO inlined FROM ut WHERE ut_is_a(code);
        EXCEPTION WHEN datatype_mismatch THEN inlined := SQLERRM;
        END;
        BEGIN
            SELECT count(*)::text INTO atomic FROM ut WHERE ut_atomic(code);
        EXCEPTION WHEN datatype_mismatch THEN atomic := SQLERRM;
        END;
        BEGIN
            SELECT count(*)::text INTO srf FROM ut_srf();
        EXCEPTION WHEN datatype_mismatch THEN srf := SQLERRM;
        END;
        SELECT count(*) INTO typed_in FROM ut WHERE code IN ('Ab', 'aB', 'Ac', 'aC', 'Ad', 'aD', 'Ae', 'aE', 'Af');
        SELECT count(*) INTO ranges FROM ut WHERE code > 'a' AND code > 'B' AND code < 'b';
        RETURN NEXT;
    END LOOP;
END $$;
SELECT * FROM ut_cases();
-- planned for a sequential scan, the short list is read row by row in the column's charset
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SELECT string_agg(code::text, ',' ORDER BY code) AS inlined_seq FROM ut WHERE ut_is_a(code);
RESET enable_indexscan;
RESET enable_bitmapscan;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT code FROM ut WHERE ut_is_a(code);
RESET enable_seqscan;

-- (3) typed only at run time (code + 0, lexid_from_rank, coalesce): the constants stay
-- untyped, and where they meet each other it is the error
CREATE FUNCTION ut_runtime(OUT scan text, OUT hashed_in text, OUT expr_index text, OUT from_rank text,
                           OUT coalesced text)
RETURNS SETOF record LANGUAGE plpgsql AS $$
BEGIN
    FOREACH scan IN ARRAY ARRAY['index', 'seq'] LOOP
        PERFORM set_config('enable_seqscan', (scan = 'seq')::text, true);
        PERFORM set_config('enable_indexscan', (scan = 'index')::text, true);
        PERFORM set_config('enable_bitmapscan', (scan = 'index')::text, true);
        BEGIN
            SELECT string_agg(code::text, ',' ORDER BY code) INTO hashed_in FROM ut
             WHERE code + 0 IN ('Ab', 'aB', '1', '2', '3', '4', '5', '6', '7');
        EXCEPTION WHEN datatype_mismatch THEN hashed_in := SQLERRM;
        END;
        BEGIN
            SELECT count(*)::text INTO expr_index FROM ut WHERE code + 0 > 'a' AND code + 0 > 'B' AND code + 0 < 'b';
        EXCEPTION WHEN datatype_mismatch THEN expr_index := SQLERRM;
        END;
        BEGIN
            SELECT count(*)::text INTO from_rank FROM generate_series(1, 100) g
             WHERE lexid_from_rank(g, 'base62') IN ('a', 'A', 'b', 'B', 'c', 'C', 'd', 'D', 'e');
        EXCEPTION WHEN datatype_mismatch THEN from_rank := SQLERRM;
        END;
        BEGIN
            SELECT count(*)::text INTO coalesced FROM ut WHERE coalesce(code, null) IN ('a', 'A', 'b', 'B', 'c', 'C', 'd', 'D', 'e');
        EXCEPTION WHEN datatype_mismatch THEN coalesced := SQLERRM;
        END;
        RETURN NEXT;
    END LOOP;
END $$;
SELECT * FROM ut_runtime();
-- a merge join of code + 0 with text read as lexid: the sort of the untyped side errs
SET enable_hashjoin = off;
SET enable_nestloop = off;
SELECT * FROM expect_error($$SELECT t.code FROM ut t JOIN (VALUES ('Ab'), ('aB'), ('b')) v(s) ON t.code + 0 = v.s::lexid$$);
RESET enable_hashjoin;
RESET enable_nestloop;
-- the same join with a typed column is typed by the hook, and merges
SET enable_hashjoin = off;
SET enable_nestloop = off;
SELECT string_agg(t.code::text, ',' ORDER BY t.code) AS merged
  FROM ut t JOIN (VALUES ('Ab'), ('aB'), ('b')) v(s) ON t.code = v.s::lexid;
RESET enable_hashjoin;
RESET enable_nestloop;
-- max() of an untyped literal keeps it untyped, as written; met by a typed column it is read
-- in that column's charset, like the literal itself
SELECT string_agg(code::text, ',') AS via_max FROM ut WHERE code = (SELECT max('Ab'::lexid));
SELECT string_agg(code::text, ',') AS via_subquery FROM ut WHERE code IN (SELECT 'Ab'::lexid);

-- ===== (3b) domains over lexid(cs): the charset is the domain's =====
-- A column, parameter or function result of a domain keeps the charset in the domain's
-- base type (its own type modifier is -1), and the cast to lexid that the operators need
-- hides it again. The hook reads it through both: an index scan gives the sequential
-- scan's rows, never 42804, in every place a query can hold the column.
CREATE DOMAIN ut_code62 AS lexid(base62);
CREATE TABLE ud (code ut_code62 PRIMARY KEY, n int);
INSERT INTO ud SELECT lexid_from_rank(g, 'base62'), g FROM generate_series(1, 4000) g;
CREATE TABLE ud_part (code ut_code62, n int) PARTITION BY RANGE (code);
CREATE TABLE ud_part_1 PARTITION OF ud_part FOR VALUES FROM ('0') TO ('a');
CREATE TABLE ud_part_2 PARTITION OF ud_part FOR VALUES FROM ('a') TO ('zzz');
CREATE INDEX ud_part_code ON ud_part (code);
INSERT INTO ud_part SELECT code, n FROM ud;
CREATE VIEW ud_view AS SELECT code FROM ud WHERE code IN ('b', 'B');
CREATE FUNCTION ud_codes() RETURNS SETOF ut_code62 LANGUAGE plpgsql STABLE
    AS $$ BEGIN RETURN QUERY SELECT code FROM ud; END $$;
ANALYZE ud, ud_part;
PREPARE ud_in(lexid, lexid) AS SELECT string_agg(code::text, ',' ORDER BY code) FROM ud WHERE code IN ($1, $2);
PREPARE ud_gt(ut_code62) AS SELECT count(*) FROM ud WHERE code > 'a' AND code > $1;
PREPARE ud_part_in(lexid, lexid) AS SELECT string_agg(code::text, ',' ORDER BY code) FROM ud_part WHERE code IN ($1, $2);
CREATE FUNCTION ud_cases(OUT scan text, OUT in_list text, OUT ranges bigint, OUT any_array text, OUT part text,
                         OUT part_ranges bigint, OUT via_view text, OUT srf text, OUT cte text, OUT sub text,
                         OUT generic text)
RETURNS SETOF record LANGUAGE plpgsql AS $$
DECLARE
    one text;
    stmt text;
BEGIN
    FOREACH scan IN ARRAY ARRAY['index', 'seq'] LOOP
        PERFORM set_config('enable_seqscan', (scan = 'seq')::text, true);
        PERFORM set_config('enable_indexscan', (scan = 'index')::text, true);
        PERFORM set_config('enable_bitmapscan', (scan = 'index')::text, true);
        SELECT string_agg(code::text, ',' ORDER BY code) INTO in_list FROM ud WHERE code IN ('a', 'A');
        SELECT count(*) INTO ranges FROM ud WHERE code > 'a' AND code > 'B';
        SELECT string_agg(code::text, ',' ORDER BY code) INTO any_array FROM ud WHERE code = ANY ('{a,B}');
        SELECT string_agg(code::text, ',' ORDER BY code) INTO part FROM ud_part WHERE code IN ('a', 'A', 'Z');
        SELECT count(*) INTO part_ranges FROM ud_part WHERE code > 'a' AND code > 'B' AND code <= 'b';
        SELECT string_agg(code::text, ',' ORDER BY code) INTO via_view FROM ud_view;
        SELECT string_agg(c::text, ',' ORDER BY c) INTO srf FROM ud_codes() c
         WHERE c IN ('a', 'A', 'b', 'B', 'c', 'C', 'd', 'D', 'e');
        WITH m AS MATERIALIZED (SELECT code FROM ud)
        SELECT string_agg(code::text, ',' ORDER BY code) INTO cte FROM m
         WHERE code IN ('a', 'A', 'b', 'B', 'c', 'C', 'd', 'D', 'e');
        SELECT string_agg(code::text, ',' ORDER BY code) INTO sub
          FROM (SELECT code FROM ud OFFSET 0) s WHERE code IN ('x', 'X') AND code > 'Y';
        -- generic plans: the parameters are typed once per execution
        PERFORM set_config('plan_cache_mode', 'force_generic_plan', true);
        generic := '';
        FOREACH stmt IN ARRAY ARRAY['EXECUTE ud_in(''a'', ''A'')', 'EXECUTE ud_part_in(''a'', ''A'')',
                                    'EXECUTE ud_part_in(''a'', ''Z'')', 'EXECUTE ud_gt(''B'')'] LOOP
            EXECUTE stmt INTO one;
            generic := generic || ' ' || one;
        END LOOP;
        PERFORM set_config('plan_cache_mode', 'auto', true);
        RETURN NEXT;
    END LOOP;
END $$;
SELECT * FROM ud_cases();
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT code FROM ud WHERE code IN ('a', 'A');
EXPLAIN (COSTS OFF) SELECT code FROM ud_part WHERE code > 'a' AND code > 'B';
-- UPDATE, DELETE, INSERT ... ON CONFLICT and RETURNING read the literals in the charset too
BEGIN;
UPDATE ud SET n = -n WHERE code IN ('a', 'A') RETURNING code, n, code IN ('a', 'B') AS in_ab;
DELETE FROM ud WHERE code = ANY ('{b,B}') AND code > 'a' RETURNING code;
INSERT INTO ud VALUES ('c', 0) ON CONFLICT (code) DO UPDATE SET n = 0 WHERE ud.code IN ('c', 'C') RETURNING code, n;
UPDATE ud_part SET n = -n WHERE code IN ('a', 'A') RETURNING code, n;
ROLLBACK;
RESET enable_seqscan;
DEALLOCATE ud_in;
DEALLOCATE ud_gt;
DEALLOCATE ud_part_in;
DROP FUNCTION ud_cases(), ud_codes();
DROP VIEW ud_view;
DROP TABLE ud, ud_part;
DROP DOMAIN ut_code62;

-- ===== (4) partition keys of plain lexid are refused =====
SELECT * FROM expect_error($$CREATE TABLE ut_part (t text) PARTITION BY RANGE ((t::lexid))$$);
SELECT * FROM expect_error($$CREATE TABLE ut_part (t text) PARTITION BY LIST ((t::lexid))$$);
CREATE TABLE ut_part (t text) PARTITION BY RANGE ((t::lexid(base62)));
CREATE TABLE ut_part_1 PARTITION OF ut_part FOR VALUES FROM ('0') TO ('a');
CREATE TABLE ut_part_2 PARTITION OF ut_part FOR VALUES FROM ('a') TO ('zz');
INSERT INTO ut_part VALUES ('B'), ('b'), ('Z'), ('z');
SELECT tableoid::regclass, t FROM ut_part WHERE t::lexid(base62) >= 'Z' ORDER BY 2;
DROP TABLE ut_part;

-- ===== (5) the guard fires under session_replication_role = replica =====
SELECT evtenabled FROM pg_event_trigger WHERE evtname = 'idseq_lexid_column_guard';
SET session_replication_role = replica;
SELECT * FROM expect_error($$CREATE TABLE ut_replica (c lexid)$$);
RESET session_replication_role;

DROP FUNCTION ut_cases(), ut_runtime(), ut_is_a(lexid), ut_atomic(lexid), ut_srf();
DROP TABLE ut;
