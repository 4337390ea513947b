-- Benchmark harness (see ../shared/BENCHMARKING.md for the method).
-- Each measurement: SELECT count(expr) FROM (SELECT generate_series(1, n) g) s, timed with
-- clock_timestamp(); one warm-up, then 5 runs; the floor (count(g), same harness) is
-- measured before each run and subtracted, so figures are net ns per call.
\set QUIET on
DROP SCHEMA IF EXISTS bench CASCADE;
CREATE SCHEMA bench;
CREATE TABLE bench.results (seq serial, area text, label text, net_ns_median float8, net_ns_min float8,
                            net_ns_max float8, floor_ns float8, baseline text, baseline_ns float8);

CREATE FUNCTION bench.time_ns(expr text, n int) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz; c bigint;
BEGIN
    t0 := clock_timestamp();
    EXECUTE format('SELECT count(%s) FROM (SELECT generate_series(1, %s) g) s', expr, n) INTO c;
    RETURN extract(epoch FROM clock_timestamp() - t0) * 1e9 / n;
END $$;

-- net ns per call: min, median, max over 5 runs
CREATE FUNCTION bench.measure(expr text, n int, OUT med float8, OUT mn float8, OUT mx float8, OUT floor_ns float8)
LANGUAGE plpgsql AS $$
DECLARE nets float8[] := '{}'; floors float8[] := '{}'; f float8; t float8;
BEGIN
    PERFORM bench.time_ns(expr, n);             -- warm-up
    FOR i IN 1..5 LOOP
        f := bench.time_ns('g', n);
        t := bench.time_ns(expr, n);
        nets := nets || greatest(t - f, 0);
        floors := floors || f;
    END LOOP;
    SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x), min(x), max(x) INTO med, mn, mx FROM unnest(nets) x;
    SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) INTO floor_ns FROM unnest(floors) x;
END $$;

-- Measures expr and, in the same run, the built-in it competes with.
CREATE FUNCTION bench.compare(area text, label text, expr text, baseline text, baseline_expr text, n int)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE a record; b record;
BEGIN
    b := bench.measure(baseline_expr, n);
    a := bench.measure(expr, n);
    INSERT INTO bench.results (area, label, net_ns_median, net_ns_min, net_ns_max, floor_ns, baseline, baseline_ns)
    VALUES (area, label, a.med, a.mn, a.mx, a.floor_ns, baseline, b.med);
END $$;
\set QUIET off
