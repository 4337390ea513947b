-- Time predicates on snowflake ids (src/pg/sf_time_quals.cpp).
-- snowflake_timestamp(id, layout) compared with a timestamp, on a time-first layout, is
-- planned as the range of ids it selects: an index on id serves it and partitions BY RANGE
-- (id) are pruned. The range agrees with the predicate on every id that has a time and
-- holds no other id: the rows are a sequential scan's.

-- The first statements of this session run no function of idseq before the first EXPLAIN:
-- the library is not loaded yet when the planner starts on that query (no
-- shared_preload_libraries), and the derived condition is there all the same (the planner
-- support of snowflake_timestamp loads it before the planner reads the relations).
SET timezone = 'UTC';
-- ids of the built-in layout 'snowflake' by hand: milliseconds since its epoch, << 22
CREATE TABLE ev (id bigint PRIMARY KEY, n int);
INSERT INTO ev
SELECT ((extract(epoch FROM '2024-01-01 00:00:00+00'::timestamptz + g * interval '1 minute') * 1000)::bigint
        - 1288834974657) << 22 | (g % 4096), g
  FROM generate_series(0, 2879) g; -- two days, one id a minute
VACUUM ANALYZE ev;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM ev WHERE snowflake_timestamp(id) >= '2024-01-02 00:00:00+00';

\pset null '(null)'
-- Every operator, both argument orders, BETWEEN: the derived bounds, and the same count as a
-- scan that cannot use them.
CREATE FUNCTION plans(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE l text;
BEGIN
    FOR l IN EXECUTE 'EXPLAIN (COSTS OFF) ' || q LOOP
        -- (not One-Time Filter lines: how they name an InitPlan's output, and whether a NULL
        -- one becomes false with the scan folded away, differ between major versions)
        IF l ~ 'Cond|Filter|Scan|Subplans|Append' AND l !~ 'One-Time Filter' THEN RETURN NEXT l; END IF;
    END LOOP;
END $$;
SELECT plans($$SELECT * FROM ev WHERE snowflake_timestamp(id) > '2024-01-02 00:00:00+00'$$);
SELECT plans($$SELECT * FROM ev WHERE snowflake_timestamp(id) <= '2024-01-01 00:10:00+00'$$);
SELECT plans($$SELECT * FROM ev WHERE snowflake_timestamp(id) < '2024-01-01 00:10:00+00'$$);
SELECT plans($$SELECT * FROM ev WHERE snowflake_timestamp(id) = '2024-01-01 00:10:00+00'$$);
SELECT plans($$SELECT * FROM ev WHERE '2024-01-01 00:10:00+00' >= snowflake_timestamp(id)$$);
SELECT plans($$SELECT * FROM ev WHERE '2024-01-01 23:00:00+00' < snowflake_timestamp(id, 'snowflake')$$);
SELECT plans($$SELECT * FROM ev WHERE snowflake_timestamp(layout => 'snowflake', id => id)
                                      BETWEEN '2024-01-01 10:00:00+00' AND '2024-01-01 11:00:00+00'$$);

CREATE TEMP TABLE probes AS
SELECT '2024-01-01 00:00:00+00'::timestamptz + k * interval '4 minutes 47.003 seconds' AS ts
  FROM generate_series(-3, 610) k
UNION ALL VALUES ('-infinity'::timestamptz), ('infinity'), ('1970-01-01 00:00:00+00'), ('2010-11-04 01:42:54.657+00'),
                 ('2010-11-04 01:42:54.6569+00'), ('2080-01-01 00:00:00+00'), ('2024-01-01 00:10:00+00'),
                 ('2024-01-01 00:10:00.001+00'), ('2024-01-01 00:09:59.999999+00');
CREATE TEMP TABLE probe_ids (id bigint PRIMARY KEY);
CREATE TEMP TABLE counted AS
SELECT ts,
       (SELECT count(*) FROM ev WHERE snowflake_timestamp(id) >= p.ts) AS ge,
       (SELECT count(*) FROM ev WHERE snowflake_timestamp(id) > p.ts) AS gt,
       (SELECT count(*) FROM ev WHERE snowflake_timestamp(id) <= p.ts) AS le,
       (SELECT count(*) FROM ev WHERE p.ts > snowflake_timestamp(id)) AS lt,
       (SELECT count(*) FROM ev WHERE snowflake_timestamp(id) = p.ts) AS eq
  FROM probes p;
RESET enable_seqscan;
SET enable_indexscan = off;
SET enable_indexonlyscan = off;
SET enable_bitmapscan = off;
-- the same counts from sequential scans (the derived conditions are filters there)
SELECT count(*) AS probes,
       count(*) FILTER (WHERE ge <> (SELECT count(*) FROM ev WHERE snowflake_timestamp(id) >= c.ts)
                           OR gt <> (SELECT count(*) FROM ev WHERE snowflake_timestamp(id) > c.ts)
                           OR le <> (SELECT count(*) FROM ev WHERE snowflake_timestamp(id) <= c.ts)
                           OR lt <> (SELECT count(*) FROM ev WHERE snowflake_timestamp(id) < c.ts)
                           OR eq <> (SELECT count(*) FROM ev WHERE snowflake_timestamp(id) = c.ts)) AS differing,
       count(*) FILTER (WHERE eq > 0) AS equal_hits
  FROM counted c;
-- and from the times themselves, computed without idseq
SELECT count(*) FILTER (WHERE ge <> (SELECT count(*) FROM ev
                                      WHERE timestamptz 'epoch' + ((id >> 22) + 1288834974657) * interval '1 millisecond' >= c.ts)) AS differing
  FROM counted c;
RESET enable_indexscan;
RESET enable_indexonlyscan;
RESET enable_bitmapscan;

-- Timestamps outside the layout's range raise no error: before the epoch every id
-- qualifies (no limit), after the end none (NULL).
SELECT idseq_snowflake_lower_id('-infinity', 'snowflake', false) AS lower_minus_inf,
       idseq_snowflake_lower_id('infinity', 'snowflake', false) AS lower_inf,
       idseq_snowflake_upper_id('1900-01-01', 'snowflake', false) AS upper_before,
       idseq_snowflake_upper_id('3000-01-01', 'snowflake', true) AS upper_after,
       idseq_snowflake_lower_id('2010-11-04 01:42:54.657+00', 'snowflake', true) AS lower_first_unit,
       idseq_snowflake_upper_id('294276-12-31 23:59:59.999999+00', 'display60', false) AS upper_far;
SELECT count(*) FROM ev WHERE snowflake_timestamp(id) < '1900-01-01';
SELECT count(*) FROM ev WHERE snowflake_timestamp(id) >= '3000-01-01';
SELECT count(*) FROM ev WHERE snowflake_timestamp(id) BETWEEN '-infinity' AND 'infinity';
SELECT count(*) AS index_scans FROM plans($$SELECT * FROM ev WHERE snowflake_timestamp(id) >= '3000-01-01'$$) l
 WHERE l ~ 'Index';
SELECT state, message FROM expect_error($$SELECT idseq_snowflake_lower_id(now(), 'nope', false)$$);

-- Stable expressions: the bound is computed at run time (index condition).
SET enable_seqscan = off;
SELECT plans($$SELECT * FROM ev WHERE snowflake_timestamp(id) >= now() - interval '1 hour'$$);
SELECT count(*) FROM ev WHERE snowflake_timestamp(id) >= now() - interval '1 hour';

-- Prepared statements: custom plans fold the parameter, generic plans compute the bound at
-- run time.
PREPARE q(timestamptz, timestamptz) AS
    SELECT count(*) FROM ev WHERE snowflake_timestamp(id) >= $1 AND snowflake_timestamp(id) < $2;
SET plan_cache_mode = force_custom_plan;
SELECT plans('EXECUTE q(''2024-01-01 12:00:00+00'', ''2024-01-01 13:00:00+00'')');
EXECUTE q('2024-01-01 12:00:00+00', '2024-01-01 13:00:00+00');
SET plan_cache_mode = force_generic_plan;
SELECT plans('EXECUTE q(''2024-01-01 12:00:00+00'', ''2024-01-01 13:00:00+00'')');
EXECUTE q('2024-01-01 12:00:00+00', '2024-01-01 13:00:00+00');
EXECUTE q('2024-01-01 12:00:00.001+00', '2024-01-01 12:59:59.999+00');
RESET plan_cache_mode;

-- Subqueries, CTEs, sublinks, views, joins.
CREATE VIEW recent AS SELECT * FROM ev WHERE snowflake_timestamp(id) >= '2024-01-02 23:00:00+00';
SELECT plans('SELECT count(*) FROM recent');
SELECT count(*) FROM recent;
SELECT plans($$WITH c AS MATERIALIZED (SELECT id FROM ev WHERE snowflake_timestamp(id) < '2024-01-01 01:00:00+00')
               SELECT count(*) FROM c$$);
SELECT plans($$SELECT count(*) FROM (SELECT id FROM ev UNION ALL SELECT id FROM pg_temp.probe_ids) s
               WHERE snowflake_timestamp(s.id) < '2024-01-01 01:00:00+00'$$);
SELECT plans($$SELECT 1 WHERE EXISTS (SELECT FROM ev WHERE snowflake_timestamp(id) = '2024-01-01 05:00:00+00')$$);
CREATE TABLE marks (ts timestamptz);
INSERT INTO marks VALUES ('2024-01-01 05:00:00+00'), ('2024-01-02 05:00:00+00');
ANALYZE marks;
SET enable_hashjoin = off;
SET enable_mergejoin = off;
SELECT plans($$SELECT m.ts, ev.n FROM marks m JOIN ev ON snowflake_timestamp(ev.id) = m.ts$$);
SELECT m.ts, ev.n FROM marks m JOIN ev ON snowflake_timestamp(ev.id) = m.ts ORDER BY 1;
SELECT plans($$SELECT m.ts, ev.n FROM marks m LEFT JOIN ev
                  ON snowflake_timestamp(ev.id) BETWEEN m.ts AND m.ts + interval '2 minutes'$$);
SELECT m.ts, ev.n FROM marks m LEFT JOIN ev
    ON snowflake_timestamp(ev.id) BETWEEN m.ts AND m.ts + interval '2 minutes' ORDER BY 1, 2;
RESET enable_hashjoin;
RESET enable_mergejoin;

-- Partitions BY RANGE (id): pruned at plan time for constants, at run time for stable
-- expressions and generic plans' parameters.
CREATE TABLE pev (id bigint, n int) PARTITION BY RANGE (id);
CREATE TABLE pev_old PARTITION OF pev FOR VALUES FROM (MINVALUE) TO (snowflake_min_id('2024-01-01'));
CREATE TABLE pev_d1 PARTITION OF pev
    FOR VALUES FROM (snowflake_min_id('2024-01-01')) TO (snowflake_min_id('2024-01-02'));
CREATE TABLE pev_d2 PARTITION OF pev
    FOR VALUES FROM (snowflake_min_id('2024-01-02')) TO (snowflake_min_id('2024-01-03'));
CREATE TABLE pev_new PARTITION OF pev FOR VALUES FROM (snowflake_min_id('2024-01-03')) TO (MAXVALUE);
INSERT INTO pev SELECT * FROM ev;
ANALYZE pev;
RESET enable_seqscan;
SELECT plans($$SELECT * FROM pev WHERE snowflake_timestamp(id) >= '2024-01-02 06:00:00+00'$$);
SELECT plans($$SELECT * FROM pev WHERE snowflake_timestamp(id) BETWEEN '2024-01-01 06:00:00+00'
                                                                  AND '2024-01-01 07:00:00+00'$$);
SELECT plans($$SELECT * FROM pev WHERE snowflake_timestamp(id) >= now() - interval '1 hour'$$);
-- EXPLAIN ANALYZE as every supported version prints it (18 prints rows with two decimals
-- and buffers by default)
CREATE FUNCTION analyzed(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE l text;
BEGIN
    FOR l IN EXECUTE 'EXPLAIN (ANALYZE, BUFFERS OFF, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
        RETURN NEXT regexp_replace(l, 'rows=([0-9]+)\.00 ', 'rows=\1 ', 'g');
    END LOOP;
END $$;
SELECT analyzed($$SELECT count(*) FROM pev WHERE snowflake_timestamp(id) >= now() - interval '1 hour'$$);
PREPARE pq(timestamptz) AS SELECT count(*) FROM pev WHERE $1 > snowflake_timestamp(id);
SET plan_cache_mode = force_generic_plan;
SELECT analyzed('EXECUTE pq(''2024-01-01 12:00:00+00'')');
EXECUTE pq('2024-01-01 12:00:00+00');
SET plan_cache_mode = force_custom_plan;
SELECT plans('EXECUTE pq(''2024-01-01 12:00:00+00'')');
EXECUTE pq('2024-01-01 12:00:00+00');
RESET plan_cache_mode;

-- Custom layouts: time-first ones get the condition, a node-first one does not (the ids of
-- one time are spread over the id range, one stretch per node) and still gives the right
-- rows; neither does a layout that is not a constant.
SELECT snowflake_create_layout('tq_seconds', '2023-06-01 00:00:00+00', 'time:34,seq:12', '1 second');
SELECT snowflake_create_layout('tq_node_first', '2023-06-01 00:00:00+00', 'node:4,time:34,seq:8', '1 second');
CREATE TABLE cev (id bigint PRIMARY KEY, lay text);
INSERT INTO cev
SELECT snowflake_pack('tq_seconds', '2024-01-01 00:00:00+00'::timestamptz + g * interval '0.7 seconds', 0, g % 4096),
       'tq_seconds'
  FROM generate_series(0, 999) g;
CREATE TABLE nev (id bigint PRIMARY KEY);
INSERT INTO nev
SELECT snowflake_pack('tq_node_first', '2024-01-01 00:00:00+00'::timestamptz + g * interval '1 second', g % 16, 0)
  FROM generate_series(0, 999) g;
ANALYZE cev;
ANALYZE nev;
SET enable_seqscan = off;
SELECT plans($$SELECT * FROM cev WHERE snowflake_timestamp(id, 'tq_seconds') > '2024-01-01 00:05:00.5+00'$$);
SELECT count(*) FROM cev WHERE snowflake_timestamp(id, 'tq_seconds') > '2024-01-01 00:05:00.5+00';
RESET enable_seqscan;
SELECT plans($$SELECT * FROM nev WHERE snowflake_timestamp(id, 'tq_node_first') > '2024-01-01 00:05:00+00'$$);
SELECT count(*) FROM nev WHERE snowflake_timestamp(id, 'tq_node_first') > '2024-01-01 00:05:00+00';
SELECT plans($$SELECT * FROM cev WHERE snowflake_timestamp(id, lay) > '2024-01-01 00:05:00.5+00'$$);
SELECT count(*) FROM cev WHERE snowflake_timestamp(id, lay) > '2024-01-01 00:05:00.5+00';
SELECT state, message FROM expect_error($$SELECT idseq_snowflake_lower_id(now(), 'tq_node_first', false)$$);
-- A join condition (x reads a column of another table) is not replaced: its bounds are added
-- beside it, so an equality still hashes (no index on id here: a nested loop over the range
-- would compare every pair), and a FULL JOIN, which needs every condition hash- or
-- merge-joinable, keeps its conditions as written.
CREATE TABLE jt_a (id bigint);
CREATE TABLE jt_b (t timestamptz);
INSERT INTO jt_a SELECT snowflake_pack('snowflake', '2024-01-01 00:00:00+00'::timestamptz + g * interval '1 millisecond')
  FROM generate_series(1, 3000) g;
INSERT INTO jt_b SELECT '2024-01-01 00:00:00+00'::timestamptz + g * interval '1 millisecond' FROM generate_series(1500, 4500) g;
ANALYZE jt_a;
ANALYZE jt_b;
SELECT plans($$SELECT count(*) FROM jt_a JOIN jt_b ON snowflake_timestamp(jt_a.id) = jt_b.t$$);
SELECT count(*) FROM jt_a JOIN jt_b ON snowflake_timestamp(jt_a.id) = jt_b.t;
SELECT count(*) FROM jt_a LEFT JOIN jt_b ON jt_b.t = snowflake_timestamp(jt_a.id) WHERE jt_b.t IS NULL;
SELECT count(*) FROM jt_a FULL JOIN jt_b ON snowflake_timestamp(jt_a.id) = jt_b.t;
SELECT count(*) FROM jt_a FULL JOIN jt_b ON snowflake_timestamp(jt_a.id) = jt_b.t AND snowflake_timestamp(jt_a.id) >= '2024-01-01 00:00:02+00';
DROP TABLE jt_a, jt_b;
-- A cached plan folds a custom layout's bounds: it is planned again when the layout's
-- creation rolls back (the name unknown again) and when the name comes back with another
-- time unit (then no row qualifies).
CREATE TABLE rb (id bigint PRIMARY KEY);
INSERT INTO rb SELECT g::bigint << 20 FROM generate_series(0, 99) g;
BEGIN;
SAVEPOINT s;
SELECT snowflake_create_layout('tq_rolled_back', '2024-01-01 00:00:00+00', 'time:40,seq:20', '1 day');
PREPARE rbq AS SELECT count(*) FROM rb WHERE snowflake_timestamp(id, 'tq_rolled_back') >= '2024-02-01 00:00:00+00';
EXECUTE rbq;
ROLLBACK TO s;
SELECT state, message FROM expect_error($$EXECUTE rbq$$);
COMMIT;
SELECT snowflake_create_layout('tq_rolled_back', '2000-01-01 00:00:00+00', 'time:40,seq:20', '1 second');
EXECUTE rbq;
SELECT count(*) FROM rb WHERE snowflake_timestamp(id, 'tq_rolled_back') >= '2024-02-01 00:00:00+00';
DEALLOCATE rbq;
DROP TABLE rb;
-- Ids without a time (negative, past the layout's 46 bits) make snowflake_timestamp raise
-- 22003. The range never holds them: the rewritten predicates leave them out, with every
-- open side closed at the ends of the timed ids (0 and 2^46 - 1), where the predicate as
-- written (layout from a column: not rewritten) stops at them.
INSERT INTO cev VALUES (-5, 'tq_seconds'), ((1::bigint << 46), 'tq_seconds'), ((1::bigint << 46) + 7, 'tq_seconds');
SET enable_indexscan = off;
SET enable_bitmapscan = off;
SELECT plans($$SELECT * FROM cev WHERE snowflake_timestamp(id, 'tq_seconds') <= '2100-01-01'$$);
SELECT count(*) FROM cev WHERE snowflake_timestamp(id, 'tq_seconds') <= '2100-01-01';
SELECT count(*) FROM cev WHERE snowflake_timestamp(id, 'tq_seconds') >= '-infinity';
SELECT count(*) FROM cev WHERE snowflake_timestamp(id, 'tq_seconds') BETWEEN '-infinity' AND 'infinity';
SELECT state, message FROM expect_error($$SELECT count(*) FROM cev WHERE snowflake_timestamp(id, lay) <= '2100-01-01'$$);
RESET enable_indexscan;
RESET enable_bitmapscan;
DELETE FROM cev WHERE id < 0 OR id >= (1::bigint << 46);
-- A layout whose time field lasts past the microseconds a bigint holds (2^40 days): the
-- upper end is the last id snowflake_timestamp accepts, one more is refused.
SELECT snowflake_create_layout('tq_days', '2023-06-01 00:00:00+00', 'time:40,seq:23', '1 day');
SELECT idseq_snowflake_upper_id('infinity', 'tq_days', false) AS last_timed,
       snowflake_timestamp(idseq_snowflake_upper_id('infinity', 'tq_days', false), 'tq_days') AS its_time,
       idseq_snowflake_lower_id('294276-12-31', 'tq_days', false) AS past_last;
SELECT state FROM expect_error($$SELECT snowflake_timestamp(idseq_snowflake_upper_id('infinity', 'tq_days', false) + 1, 'tq_days')$$);
-- a volatile operand is not copied into a second evaluation
SELECT plans($$SELECT * FROM ev WHERE snowflake_timestamp(id) >= clock_timestamp() - interval '1 hour'$$);

-- Dates and timestamps without time zone: PostgreSQL compares them with a timestamptz as
-- their midnight (themselves) in the session's TimeZone, a value computed when the query
-- runs. The bounds take it through idseq_compare_as_timestamptz and replace the predicate,
-- at run time in every plan (a cached plan may run again in another TimeZone).
SET timezone = 'Europe/Berlin';
SET enable_seqscan = off;
SELECT plans($$SELECT * FROM ev WHERE snowflake_timestamp(id) >= current_date - 1$$);
SELECT plans($$SELECT * FROM ev WHERE snowflake_timestamp(id) < '2024-01-02'::date$$);
SELECT plans($$SELECT * FROM ev WHERE snowflake_timestamp(id) >= localtimestamp - interval '1 hour'$$);
SELECT plans($$SELECT * FROM ev WHERE '2024-01-02'::date <= snowflake_timestamp(id)$$);
-- midnight in Berlin is 23:00 UTC: one id a minute from then
SELECT count(*) FROM ev WHERE snowflake_timestamp(id) >= '2024-01-02'::date;
SELECT count(*) FROM ev WHERE snowflake_timestamp(id) BETWEEN '2024-01-01'::date AND '2024-01-02'::date;
SELECT count(*) FROM ev WHERE snowflake_timestamp(id) > '2024-01-01 12:00:00'::timestamp;
SELECT count(*) FROM ev WHERE snowflake_timestamp(id) = '2024-01-01 12:00:00'::timestamp;
-- Each form, each operator, both orders, against a scan that cannot use the bounds (the
-- predicate under IS TRUE is planned as written), in zones east and west of UTC.
CREATE FUNCTION differing(zone text) RETURNS SETOF text LANGUAGE plpgsql AS $f$
DECLARE p text; d date; n_range bigint; n_scan bigint;
BEGIN
    EXECUTE format('SET LOCAL timezone = %L', zone);
    FOREACH p IN ARRAY ARRAY[
        'snowflake_timestamp(id) >= %L::date', 'snowflake_timestamp(id) > %L::date',
        'snowflake_timestamp(id) <= %L::date', '%L::date > snowflake_timestamp(id)',
        'snowflake_timestamp(id) = %L::date', 'snowflake_timestamp(id) < %L::timestamp + interval ''90 minutes''',
        'snowflake_timestamp(id)::date = %L', 'snowflake_timestamp(id)::date > %L', '%L >= snowflake_timestamp(id)::date',
        'snowflake_timestamp(id)::date BETWEEN %L::date - 1 AND %L',
        'date_trunc(''day'', snowflake_timestamp(id)) = %L::date', 'date_trunc(''day'', snowflake_timestamp(id)) < %L::date',
        'date_trunc(''hour'', snowflake_timestamp(id)) >= %L::timestamptz + interval ''150 minutes''',
        'date_trunc(''month'', snowflake_timestamp(id)) <= %L::date',
        'date_trunc(''week'', snowflake_timestamp(id)) = date_trunc(''week'', %L::timestamptz)',
        'date_trunc(''day'', snowflake_timestamp(id), ''Asia/Kathmandu'') = %L::timestamp - interval ''5 hours 45 minutes'''] LOOP
        FOR d IN SELECT '2023-12-31'::date + g FROM generate_series(0, 3) g LOOP
            EXECUTE format('SELECT count(*) FROM ev WHERE ' || p, d, d) INTO n_range;
            EXECUTE format('SELECT count(*) FROM ev WHERE (' || p || ') IS TRUE', d, d) INTO n_scan;
            IF n_range <> n_scan THEN RETURN NEXT format('%s with %s: %s rows, a scan %s', p, d, n_range, n_scan); END IF;
        END LOOP;
    END LOOP;
END $f$;
BEGIN;
SELECT zone, count(differing) AS differing
  FROM unnest(ARRAY['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kathmandu', 'Pacific/Kiritimati']) zone
  LEFT JOIN LATERAL differing(zone) ON true GROUP BY zone ORDER BY zone;
COMMIT;
-- A date or timestamp past timestamptz's range compares above every time (and the cast of
-- one raises an error); infinities as usual.
SET timezone = 'America/New_York';
SELECT count(*) FROM ev WHERE snowflake_timestamp(id) < '294276-12-31 23:00:00'::timestamp;
SELECT count(*) FROM ev WHERE snowflake_timestamp(id) >= '5874897-12-31'::date;
SELECT count(*) FROM ev WHERE snowflake_timestamp(id) <= 'infinity'::date;
SELECT count(*) FROM ev WHERE snowflake_timestamp(id) > '-infinity'::timestamp;
SELECT count(*) FROM ev WHERE snowflake_timestamp(id)::date < 'infinity';
SELECT count(*) FROM ev WHERE snowflake_timestamp(id)::date <= '-infinity';
SELECT state, message FROM expect_error($$SELECT '294276-12-31 23:00:00'::timestamp::timestamptz$$);
SELECT idseq_compare_as_timestamptz('294276-12-31 23:00:00'::timestamp) AS past_the_range,
       idseq_compare_as_timestamptz('2024-07-01'::date) AS midnight_in_new_york;

-- The date of the time (snowflake_timestamp(id)::date) and date_trunc of it read the time in
-- the session's TimeZone (date_trunc(unit, time, zone) in that zone): the bounds hold every
-- id whose date (truncated time) qualifies, and the predicate stays, guarded by a function
-- that tells when the query starts whether the bounds hold exactly those ids.
SET timezone = 'Asia/Kathmandu';
SELECT plans($$SELECT * FROM ev WHERE snowflake_timestamp(id)::date = '2024-01-02'$$);
SELECT count(*) FROM ev WHERE snowflake_timestamp(id)::date = '2024-01-02';
SELECT plans($$SELECT * FROM ev WHERE date_trunc('month', snowflake_timestamp(id), 'Europe/Paris') = '2024-01-01 00:00:00+01'$$);
SELECT plans($$SELECT * FROM ev WHERE date_trunc('day', snowflake_timestamp(id)) >= current_date - 1$$);
-- A day whose date comes back: America/St_Johns set its clocks back from 00:01 on 7 November
-- 2010 to 23:01 on the 6th, so the 7th's first minute comes before the 6th's last hour.
CREATE TABLE sj (id bigint PRIMARY KEY);
INSERT INTO sj SELECT snowflake_pack('snowflake', '2010-11-07 02:00:00+00'::timestamptz + g * interval '20 seconds')
  FROM generate_series(0, 359) g;
ANALYZE sj;
SET timezone = 'America/St_Johns';
SELECT d, (SELECT count(*) FROM sj WHERE snowflake_timestamp(id)::date = d) AS range,
       (SELECT count(*) FROM sj WHERE (snowflake_timestamp(id)::date = d) IS TRUE) AS scan,
       (SELECT count(*) FROM sj WHERE date_trunc('day', snowflake_timestamp(id)) = d) AS trunc_range,
       (SELECT count(*) FROM sj WHERE (date_trunc('day', snowflake_timestamp(id)) = d) IS TRUE) AS trunc_scan
  FROM unnest(ARRAY['2010-11-06', '2010-11-07']::date[]) d;
SELECT snowflake_timestamp(idseq_snowflake_date_lower_id('2010-11-07', 'snowflake', false)) AS first_of_the_7th,
       snowflake_timestamp(idseq_snowflake_date_upper_id('2010-11-06', 'snowflake', false)) AS last_of_the_6th;
-- so the bounds of those days are not exact, and the predicate is evaluated on their ids;
-- those of the next day are
SELECT d, cmp, idseq_snowflake_date_exact(d, cmp) AS date_exact, idseq_snowflake_trunc_exact('day', d, NULL, cmp) AS trunc_exact
  FROM unnest(ARRAY['2010-11-06', '2010-11-07', '2010-11-08']::date[]) d, unnest(ARRAY[-1, 0, 1]) cmp ORDER BY d, cmp;
SELECT idseq_snowflake_trunc_exact('hour', '2010-11-08 00:00:00+00', NULL, 0) AS hour_exact,
       idseq_snowflake_date_exact('infinity', 0) AS infinity_exact;
SELECT state, message FROM expect_error($$SELECT idseq_snowflake_date_exact(current_date, 3)$$);
DROP TABLE sj;
SELECT state, message FROM expect_error($$SELECT idseq_snowflake_trunc_lower_id('dow', now(), NULL, 'snowflake', false)$$);

-- Prepared statements: a generic plan computes the bounds when it runs, in the TimeZone
-- then in force; so does a custom plan.
SET timezone = 'UTC';
PREPARE dq(date) AS SELECT count(*) FROM ev WHERE snowflake_timestamp(id)::date = $1;
PREPARE tq(date) AS SELECT count(*) FROM ev WHERE snowflake_timestamp(id) >= $1;
SET plan_cache_mode = force_generic_plan;
SELECT plans('EXECUTE dq(''2024-01-02'')');
EXECUTE dq('2024-01-02');
EXECUTE tq('2024-01-02');
SET timezone = 'Australia/Lord_Howe';
EXECUTE dq('2024-01-02');
EXECUTE tq('2024-01-02');
SELECT count(*) FROM ev WHERE (snowflake_timestamp(id)::date = '2024-01-02') IS TRUE;
SET plan_cache_mode = force_custom_plan;
SELECT plans('EXECUTE tq(''2024-01-02'')');
EXECUTE tq('2024-01-02');
RESET plan_cache_mode;
DEALLOCATE dq;
DEALLOCATE tq;
-- Partitions are pruned when the query starts.
RESET enable_seqscan;
SELECT analyzed($$SELECT count(*) FROM pev WHERE snowflake_timestamp(id)::date = '2024-01-02'$$);
SELECT analyzed($$SELECT count(*) FROM pev WHERE snowflake_timestamp(id) < '2024-01-01'::date + 1$$);
SET timezone = 'UTC';
DROP FUNCTION differing(text);

DROP TABLE ev, pev, cev, nev, marks CASCADE;
DROP FUNCTION plans(text);
