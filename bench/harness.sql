-- Benchmark harness (the method: docs/dev/benchmarks.md).
-- Each measurement: SELECT count(expr) FROM (SELECT generate_series(1, n) g) s (or over a
-- stored table, for decoders), timed with clock_timestamp(); one warm-up, then 5 runs (or as
-- many as asked); the floor (the same statement without the function) is measured before
-- each run and subtracted, so figures are net ns per call.
\set QUIET on
DROP SCHEMA IF EXISTS bench CASCADE;
CREATE SCHEMA bench;
CREATE TABLE bench.results (seq serial, area text, label text, net_ns_median float8, net_ns_min float8,
                            net_ns_max float8, floor_ns float8, baseline text, baseline_ns float8);

-- ns per row of SELECT count(expr) FROM source, timed with clock_timestamp().
CREATE FUNCTION bench.time_ns(expr text, source text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz; c bigint; n bigint;
BEGIN
    t0 := clock_timestamp();
    EXECUTE format('SELECT count(%s), count(*) FROM %s', expr, source) INTO c, n;
    RETURN extract(epoch FROM clock_timestamp() - t0) * 1e9 / n;
END $$;

-- net ns per call: min, median, max over runs (5 unless told), each after its floor
-- (floor_expr, the same statement without the function) over the same source
CREATE FUNCTION bench.measure(expr text, source text, floor_expr text, runs int DEFAULT 5,
                              OUT med float8, OUT mn float8, OUT mx float8, OUT floor_ns float8)
LANGUAGE plpgsql AS $$
DECLARE nets float8[] := '{}'; floors float8[] := '{}'; f float8; t float8;
BEGIN
    PERFORM bench.time_ns(expr, source);        -- warm-up (and a table into shared buffers)
    FOR i IN 1..runs LOOP
        f := bench.time_ns(floor_expr, source);
        t := bench.time_ns(expr, source);
        nets := nets || greatest(t - f, 0);
        floors := floors || f;
    END LOOP;
    SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x), min(x), max(x) INTO med, mn, mx FROM unnest(nets) x;
    SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) INTO floor_ns FROM unnest(floors) x;
END $$;

-- Measures expr over source and, in the same run, the built-in it competes with.
CREATE FUNCTION bench.compare_over(area text, label text, expr text, source text, floor_expr text,
                                   baseline text, baseline_expr text, baseline_source text,
                                   baseline_floor_expr text)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE a record; b record;
BEGIN
    b := bench.measure(baseline_expr, baseline_source, baseline_floor_expr);
    a := bench.measure(expr, source, floor_expr);
    INSERT INTO bench.results (area, label, net_ns_median, net_ns_min, net_ns_max, floor_ns, baseline, baseline_ns)
    VALUES (area, label, a.med, a.mn, a.mx, a.floor_ns, baseline, b.med);
END $$;

-- The usual case: n calls over a streamed generate_series (floor: count(g)).
CREATE FUNCTION bench.compare(area text, label text, expr text, baseline text, baseline_expr text, n int)
RETURNS void LANGUAGE sql AS $$
    SELECT bench.compare_over(area, label, expr, format('(SELECT generate_series(1, %s) g) s', n), 'g',
                              baseline, baseline_expr, format('(SELECT generate_series(1, %s) g) s', n), 'g')
$$;
\set QUIET off
