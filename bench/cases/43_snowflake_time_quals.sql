-- Time predicates (issue 19, section 1): a filter on the ids' time beside the id range one
-- writes by hand, on 10^6 ids spread over 30 days up to now (built-in layout, primary key).
-- Without the planner's derived condition the first is a sequential scan over every row;
-- with it, an index scan of the last hour's ids that also evaluates snowflake_timestamp on
-- each of them. Figures are ns per query (median of 7 runs after a warm-up); goal: ratio
-- <= 1.5. IDSEQ_BENCH_TIME_QUALS_ROWS=10000000 sets another size (BENCH_SMOKE: 2000).
\set tq_rows 1000000
\getenv tq_env IDSEQ_BENCH_TIME_QUALS_ROWS
\if :{?tq_env}
\set tq_rows :tq_env
\endif
\getenv smoke BENCH_SMOKE
\if :{?smoke}
\set tq_rows 2000
\endif
SET client_min_messages = warning;
CREATE TABLE bench.tq_ev (id bigint PRIMARY KEY);
INSERT INTO bench.tq_ev
SELECT snowflake_pack('snowflake', now() - interval '30 days' + g * (interval '30 days' / :tq_rows), 0, g % 4096)
  FROM generate_series(1, :tq_rows) g
ON CONFLICT DO NOTHING;
VACUUM ANALYZE bench.tq_ev;
RESET client_min_messages;

-- ns per execution of a query: median, min and max of runs after one warm-up.
CREATE FUNCTION bench.query_ns(q text, runs int DEFAULT 7, OUT med float8, OUT mn float8, OUT mx float8)
LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz; c bigint; ts float8[] := '{}';
BEGIN
    EXECUTE q INTO c;
    FOR i IN 1..runs LOOP
        t0 := clock_timestamp();
        EXECUTE q INTO c;
        ts := ts || extract(epoch FROM clock_timestamp() - t0) * 1e9;
    END LOOP;
    SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x), min(x), max(x) INTO med, mn, mx FROM unnest(ts) x;
END $$;

CREATE FUNCTION bench.compare_queries(area text, label text, q text, baseline text, baseline_q text)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE a record; b record;
BEGIN
    b := bench.query_ns(baseline_q);
    a := bench.query_ns(q);
    INSERT INTO bench.results (area, label, net_ns_median, net_ns_min, net_ns_max, floor_ns, baseline, baseline_ns)
    VALUES (area, label, a.med, a.mn, a.mx, 0, baseline, b.med);
END $$;

SELECT bench.compare_queries('time predicate',
    format('count(*) WHERE snowflake_timestamp(id) >= now() - 1 hour [%s rows, ns/query]', :tq_rows),
    $$SELECT count(*) FROM bench.tq_ev WHERE snowflake_timestamp(id) >= now() - interval '1 hour'$$,
    'WHERE id >= snowflake_min_id(now() - 1 hour)',
    $$SELECT count(*) FROM bench.tq_ev WHERE id >= snowflake_min_id(now() - interval '1 hour')$$);
SELECT bench.compare_queries('time predicate',
    format('count(*) WHERE snowflake_timestamp(id) BETWEEN a day ago and 23 hours ago [%s rows, ns/query]', :tq_rows),
    $$SELECT count(*) FROM bench.tq_ev
       WHERE snowflake_timestamp(id) BETWEEN now() - interval '1 day' AND now() - interval '23 hours'$$,
    'WHERE id >= snowflake_min_id(..) AND id < snowflake_min_id(..)',
    $$SELECT count(*) FROM bench.tq_ev
       WHERE id >= snowflake_min_id(now() - interval '1 day') AND id < snowflake_min_id(now() - interval '23 hours')$$);
DROP TABLE bench.tq_ev;
