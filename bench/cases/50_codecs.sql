-- Display codecs: idseq_encode beside to_hex(bigint), idseq_decode beside text::bigint
-- (reading stored codes), idseq_scramble beside hashint8. Net ns per call, see harness.sql.

-- ---- encode: computed values, harness.sql's generate_series method ----
SELECT bench.compare('codecs', 'idseq_encode(id) base62, ids 1..2e6', $$idseq_encode(g::int8)$$,
                     'to_hex(bigint)', $$to_hex(g::int8)$$, 2000000);
SELECT bench.compare('codecs', 'idseq_encode(id) base62, 17-digit ids', $$idseq_encode(11093174944930914 + g::int8 * 7919)$$,
                     'to_hex(bigint)', $$to_hex(11093174944930914 + g::int8 * 7919)$$, 2000000);
SELECT bench.compare('codecs', 'idseq_encode(id, ''base64url'', 2) (seed form)',
                     $$idseq_encode(11093174944930914 + g::int8 * 7919, 'base64url', 2)$$,
                     'to_hex(bigint)', $$to_hex(11093174944930914 + g::int8 * 7919)$$, 2000000);
SELECT bench.compare('codecs', 'idseq_scramble(id, key)', $$idseq_scramble(g, 'bench-key-0123456789')$$,
                     'hashint8(bigint)', $$hashint8(g)$$, 1000000);
SELECT bench.compare('codecs', 'idseq_encode(idseq_scramble(id, key), ''base58'')',
                     $$idseq_encode(idseq_scramble(g, 'bench-key-0123456789'), 'base58')$$,
                     'to_hex(bigint)', $$to_hex(g::int8)$$, 1000000);

-- ---- decode: stored codes ----
-- One table per spelling of the same 10^6 ids (one text column each, vacuumed), so each
-- decoder reads what an application would have stored, and the floor -- count(c) over the
-- same table -- includes reading the column.
CREATE TABLE bench.codes_dec AS SELECT (11093174944930914 + g::int8 * 7919)::text AS c FROM generate_series(1, 1000000) g;
CREATE TABLE bench.codes_b62 AS SELECT idseq_encode(11093174944930914 + g::int8 * 7919) AS c FROM generate_series(1, 1000000) g;
CREATE TABLE bench.codes_seed AS
    SELECT idseq_encode(11093174944930914 + g::int8 * 7919, 'base64url', 2) AS c FROM generate_series(1, 1000000) g;
CREATE TABLE bench.codes_hex AS
    SELECT idseq_encode(11093174944930914 + g::int8 * 7919, 'hex') AS c FROM generate_series(1, 1000000) g;
VACUUM ANALYZE bench.codes_dec, bench.codes_b62, bench.codes_seed, bench.codes_hex;

-- As bench.time_ns, over a table scan.
CREATE FUNCTION bench.scan_ns(expr text, tab text) RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz; c bigint; n bigint;
BEGIN
    t0 := clock_timestamp();
    EXECUTE format('SELECT count(%s), count(*) FROM %s', expr, tab) INTO c, n;
    RETURN extract(epoch FROM clock_timestamp() - t0) * 1e9 / n;
END $$;

-- As bench.measure: a warm-up, then 5 runs, each after its floor (count(c) over the table).
CREATE FUNCTION bench.scan_measure(expr text, tab text, OUT med float8, OUT mn float8, OUT mx float8,
                                   OUT floor_ns float8)
LANGUAGE plpgsql AS $$
DECLARE nets float8[] := '{}'; floors float8[] := '{}'; f float8; t float8;
BEGIN
    PERFORM bench.scan_ns(expr, tab);           -- warm-up (and the table into shared buffers)
    FOR i IN 1..5 LOOP
        f := bench.scan_ns('c', tab);
        t := bench.scan_ns(expr, tab);
        nets := nets || greatest(t - f, 0);
        floors := floors || f;
    END LOOP;
    SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x), min(x), max(x) INTO med, mn, mx FROM unnest(nets) x;
    SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) INTO floor_ns FROM unnest(floors) x;
END $$;

CREATE FUNCTION bench.scan_compare(label text, expr text, tab text, baseline text, baseline_expr text,
                                   baseline_tab text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE a record; b record;
BEGIN
    b := bench.scan_measure(baseline_expr, baseline_tab);
    a := bench.scan_measure(expr, tab);
    INSERT INTO bench.results (area, label, net_ns_median, net_ns_min, net_ns_max, floor_ns, baseline, baseline_ns)
    VALUES ('codecs', label, a.med, a.mn, a.mx, a.floor_ns, baseline, b.med);
END $$;

SELECT bench.scan_compare('idseq_decode(stored base62 code)', $$idseq_decode(c)$$, 'bench.codes_b62',
                          'text::bigint (stored decimal)', $$c::bigint$$, 'bench.codes_dec');
SELECT bench.scan_compare('idseq_decode(stored seed-form code, ''base64url'', 2)',
                          $$idseq_decode(c, 'base64url', 2)$$, 'bench.codes_seed',
                          'text::bigint (stored decimal)', $$c::bigint$$, 'bench.codes_dec');
SELECT bench.scan_compare('idseq_decode(stored hex code, ''hex'')', $$idseq_decode(c, 'hex')$$, 'bench.codes_hex',
                          'text::bigint (stored decimal)', $$c::bigint$$, 'bench.codes_dec');

DROP TABLE bench.codes_dec, bench.codes_b62, bench.codes_seed, bench.codes_hex;
