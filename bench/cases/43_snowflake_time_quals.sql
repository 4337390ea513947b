-- Time predicates: a filter on the ids' time beside the id range one
-- writes by hand, on 10^6 and 10^7 ids spread over 30 days up to now (built-in layout,
-- primary key; bench/time_quals_size.sql, once per size): the last hour, an hour's window,
-- and the date forms people write for "yesterday" (against a date; the time's date, whose
-- predicate stays beside the range and is evaluated on that day's rows).
-- Without the planner's rewrite each is a sequential scan over every row; with it, an
-- index scan of the ids it selects, as the hand-written range. Figures are ns per query
-- (median of 7 runs after a warm-up); goal: ratio <= 1.5.
-- BENCH_SMOKE: once, at 2000 rows.
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

\getenv smoke BENCH_SMOKE
\if :{?smoke}
\set tq_rows 2000
\ir time_quals_size.sql
\else
\set tq_rows 1000000
\ir time_quals_size.sql
\set tq_rows 10000000
\ir time_quals_size.sql
\endif
