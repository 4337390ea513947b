-- Driver parameters on an indexed lexid column: a lexid compared with
-- text or varchar (JDBC sends varchar, Npgsql text) is an index condition, in both argument
-- orders, for = < <= > >=, in custom and generic plans; results agree with a sequential
-- scan, text that does not read in the column's charset is 22P02, a case-insensitive
-- charset reads text in either case. LIKE on a lexid is LIKE on its canonical spelling,
-- served by an expression index. (t/016_lexid_params.pl: the same plans in a session that
-- has not loaded the library.)
CREATE TABLE prm62 (id int, code lexid(base62) PRIMARY KEY);
INSERT INTO prm62 SELECT g, lexid_from_rank(g * 7919, 'base62') FROM generate_series(1, 3000) g;
INSERT INTO prm62 VALUES (-1, 'a'), (-2, 'B'), (-3, 'Ab'), (-4, 'aB'), (-5, 'b'), (-6, 'zz');
CREATE TABLE prm36 (id int, code lexid(base36) PRIMARY KEY);
INSERT INTO prm36 SELECT g, lexid_from_rank(g * 7919, 'base36') FROM generate_series(1, 3000) g;
ANALYZE prm62, prm36;
-- Only an index can serve these plans: a clause that is not an index condition shows up as
-- a sequential scan (with a Filter), whatever the costs.
SET enable_seqscan = off;
SET enable_bitmapscan = off;

-- The comparison functions of lexid with text have a planner support function; the
-- planner calls it (and so loads the library) itself.
SELECT p.oid::regprocedure AS function, p.prosupport
  FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idseq'
 WHERE p.prosupport <> 0 ORDER BY p.oid::regprocedure::text;

-- ---- plans per parameter type, custom and generic ----
PREPARE p_unknown AS SELECT id FROM prm62 WHERE code = $1;
PREPARE p_text(text) AS SELECT id FROM prm62 WHERE code = $1;
PREPARE p_varchar(varchar) AS SELECT id FROM prm62 WHERE code = $1;
PREPARE p_range(varchar, text) AS SELECT id FROM prm62 WHERE code >= $1 AND $2 > code ORDER BY code;
-- Each statement's plan, then its rows, under one plan_cache_mode.
CREATE FUNCTION pg_temp.plans(mode text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    stmt text;
    line text;
    r record;
BEGIN
    PERFORM set_config('plan_cache_mode', mode, true);
    FOREACH stmt IN ARRAY ARRAY['EXECUTE p_unknown(''aB'')', 'EXECUTE p_text(''aB'')', 'EXECUTE p_varchar(''aB'')',
                                'EXECUTE p_range(''a'', ''zz'')'] LOOP
        RETURN NEXT '-- ' || stmt;
        FOR line IN EXECUTE 'EXPLAIN (COSTS OFF) ' || stmt LOOP
            RETURN NEXT line;
        END LOOP;
        line := 'rows:';
        FOR r IN EXECUTE stmt LOOP
            line := line || ' ' || r.id;
        END LOOP;
        RETURN NEXT line;
    END LOOP;
END $$;
SELECT pg_temp.plans('force_custom_plan');
SELECT pg_temp.plans('force_generic_plan');

-- every operator, both argument orders, text and varchar: index conditions
EXPLAIN (COSTS OFF) SELECT id FROM prm62 WHERE code < 'B'::text AND 'a'::varchar <= code;
EXPLAIN (COSTS OFF) SELECT id FROM prm62 WHERE code > 'B'::varchar AND 'a'::text >= code;
EXPLAIN (COSTS OFF) SELECT id FROM prm62 WHERE code <= 'B'::text AND code >= 'a'::text;
EXPLAIN (COSTS OFF) SELECT id FROM prm62 WHERE 'aB'::varchar = code;
EXPLAIN (COSTS OFF) SELECT id FROM prm62 WHERE 'B'::text < code AND 'a'::text > code;

-- ---- results: index scan against sequential scan ----
-- Runs q once through the index and once by a sequential scan; both the same rows in the
-- same order (an index scan returns them in index order where q sorts).
CREATE FUNCTION pg_temp.both_ways(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    by_index text;
    by_seq text;
BEGIN
    PERFORM set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'on', true);
    EXECUTE format('SELECT string_agg(id::text, '','') FROM (%s) s', q) INTO by_index;
    PERFORM set_config('enable_seqscan', 'on', true), set_config('enable_indexscan', 'off', true),
            set_config('enable_bitmapscan', 'off', true);
    EXECUTE format('SELECT string_agg(id::text, '','') FROM (%s) s', q) INTO by_seq;
    PERFORM set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'on', true);
    RETURN CASE WHEN by_index IS NOT DISTINCT FROM by_seq THEN coalesce(by_index, '(none)')
                ELSE format('DIFFERENT: index %s, seq %s', by_index, by_seq) END;
END $$;
-- shortlex in base62 (0-9 < A-Z < a-z): B < a < b < aB < Ab < zz, never text order; the
-- redundant bounds are dropped by comparing them in base62, never in base36
SELECT q, pg_temp.both_ways(q) FROM (VALUES
    ($$SELECT id FROM prm62 WHERE code = 'aB'::text$$),
    ($$SELECT id FROM prm62 WHERE code = 'Ab'::varchar$$),
    ($$SELECT id FROM prm62 WHERE 'a'::text = code$$),
    ($$SELECT id FROM prm62 WHERE code < 'c'::text AND length(code::text) = 1 ORDER BY code$$),
    ($$SELECT id FROM prm62 WHERE code <= 'b'::varchar AND code >= 'B'::text ORDER BY code$$),
    ($$SELECT id FROM prm62 WHERE code > 'aB'::text AND code < 'zz'::text ORDER BY code DESC$$),
    ($$SELECT id FROM prm62 WHERE 'B'::text < code AND 'b'::text > code ORDER BY code$$),
    ($$SELECT id FROM prm62 WHERE 'Ab'::text <= code AND 'zz'::varchar >= code ORDER BY code$$),
    ($$SELECT id FROM prm62 WHERE code > 'a'::text AND code > 'B'::text AND code < 'zz' ORDER BY code$$),
    ($$SELECT id FROM prm62 WHERE code > 'B'::text AND code > 'a' AND code <= 'Ab'::text ORDER BY code$$),
    ($$SELECT id FROM prm62 WHERE code = 'a'::text AND code = 'A'::text$$),
    ($$SELECT id FROM prm62 WHERE code = 'a'::text AND code >= 'B'::lexid(base62)$$),
    ($$SELECT id FROM prm62 WHERE code = ANY (ARRAY['a', 'A', 'B', 'b']::text[]) ORDER BY id$$),
    ($$SELECT id FROM prm62 WHERE code IN ('a'::varchar, 'zz'::varchar) ORDER BY id$$)) v(q);

-- ---- a case-insensitive charset reads the text in either case ----
SELECT code FROM prm36 WHERE id = 1000;
EXPLAIN (COSTS OFF) SELECT id FROM prm36 WHERE code = '3opb7'::text;
SELECT q, pg_temp.both_ways(q) FROM (VALUES
    ($$SELECT id FROM prm36 WHERE code = '3opb7'::text$$),
    ($$SELECT id FROM prm36 WHERE code = '3oPb7'::varchar$$),
    ($$SELECT id FROM prm36 WHERE code >= '3opb7'::text AND code <= '3OPBZ'::text ORDER BY code$$)) v(q);
PREPARE p36(varchar) AS SELECT id FROM prm36 WHERE code = $1;
EXECUTE p36('3opb7');
SET plan_cache_mode = force_generic_plan;
EXECUTE p36('3OpB7');
RESET plan_cache_mode;

-- ---- text that does not read in the column's charset: 22P02 (custom and generic) ----
SELECT * FROM expect_error($$SELECT id FROM prm62 WHERE code = 'a-b'::text$$);
SELECT * FROM expect_error($$EXECUTE p_varchar('a-b')$$);
SET plan_cache_mode = force_generic_plan;
SELECT * FROM expect_error($$EXECUTE p_varchar('a-b')$$);
SELECT * FROM expect_error($$EXECUTE p_range('a', 'é')$$);
RESET plan_cache_mode;
SELECT * FROM expect_error($$SELECT id FROM prm62 WHERE code = repeat('a', 1025)::text$$);
-- NULL text: no row (the functions are strict), through the index too
PREPARE p_null(text) AS SELECT count(*) FROM prm62 WHERE code = $1 OR code < $1;
EXECUTE p_null(NULL);
SET plan_cache_mode = force_generic_plan;
EXECUTE p_null(NULL);
RESET plan_cache_mode;
SELECT ('a'::lexid(base62) LIKE NULL) IS NULL AS like_null, (NULL::lexid(base62) NOT LIKE 'a') IS NULL AS not_like_null;

-- ---- other index kinds: a hash index serves =, a domain column, an untyped expression ----
CREATE TABLE prm_h (id int, code lexid(base62));
INSERT INTO prm_h SELECT id, code FROM prm62;
CREATE INDEX prm_h_hash ON prm_h USING hash (code);
EXPLAIN (COSTS OFF) SELECT id FROM prm_h WHERE code = 'aB'::varchar;
SELECT id FROM prm_h WHERE code = 'aB'::varchar;
-- (a hash index serves no range: a sequential scan, enabled so that every version prints it alike)
RESET enable_seqscan;
EXPLAIN (COSTS OFF) SELECT id FROM prm_h WHERE code < 'B'::text;
SET enable_seqscan = off;
CREATE DOMAIN prm_code AS lexid(base62);
CREATE TABLE prm_d (id int, code prm_code PRIMARY KEY);
INSERT INTO prm_d SELECT id, code FROM prm62;
EXPLAIN (COSTS OFF) SELECT id FROM prm_d WHERE code = 'aB'::text;
SELECT id FROM prm_d WHERE code = 'aB'::text;
-- an expression index of untyped values cannot be built: they have no charset to compare
-- in (42804); with the charset named it is an index like any other
CREATE TABLE prm_u (id int, t text);
INSERT INTO prm_u SELECT id, code::text FROM prm62;
CREATE INDEX prm_u_lexid ON prm_u ((t::lexid));
CREATE INDEX prm_u_lexid62 ON prm_u ((t::lexid(base62)));
EXPLAIN (COSTS OFF) SELECT id FROM prm_u WHERE t::lexid(base62) = 'ab'::text;

-- ---- LIKE: on the canonical spelling, served by an expression index on code::text ----
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT code, code LIKE 'a%' AS like_a, code NOT LIKE 'a%' AS not_like_a FROM prm62 WHERE id < 0 ORDER BY code;
-- canonical spelling of a case-insensitive charset: upper case
SELECT code, code LIKE '3O%' AS upper, code LIKE '3o%' AS lower FROM prm36 WHERE id = 1000;
-- in shortlex order one prefix's values are not contiguous: 'a', 'B' < 'a' < 'b' ... 'aB'
SELECT string_agg(code::text, ' ' ORDER BY code) FROM prm62 WHERE id < 0;
SELECT count(*) FILTER (WHERE code LIKE 'F%') = count(*) FILTER (WHERE code::text LIKE 'F%') AS like_is_cast,
       count(*) FILTER (WHERE code NOT LIKE 'F%') = count(*) FILTER (WHERE code::text NOT LIKE 'F%') AS not_like_is_cast
  FROM prm62;
CREATE INDEX prm62_like ON prm62 ((code::text) text_pattern_ops);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM prm62 WHERE code LIKE 'Fb1%';
SELECT id, code FROM prm62 WHERE code LIKE 'Fb1%' ORDER BY id;
PREPARE p_like(varchar) AS SELECT id FROM prm62 WHERE code LIKE $1;
EXPLAIN (COSTS OFF) EXECUTE p_like('Fb1%');
EXECUTE p_like('Fb1%');
RESET enable_seqscan;
-- LIKE's wildcards are symbols of some charsets: escape them (base64url has _ and -)
CREATE TABLE prm64 (code lexid(base64url));
INSERT INTO prm64 VALUES ('a_b'), ('axb'), ('-_');
SELECT code FROM prm64 WHERE code LIKE 'a_b' ORDER BY code;
SELECT code FROM prm64 WHERE code LIKE 'a\_b' ORDER BY code;
SELECT * FROM expect_error($$SELECT 'ab'::lexid LIKE 'a%'::bytea$$);

DROP TABLE prm62, prm36, prm_h, prm_d, prm_u, prm64;
DROP DOMAIN prm_code;
