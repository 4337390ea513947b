-- Generators on native sequences, each beside plain nextval() on a sequence with the same
-- CACHE setting, in the same run (target: within 1.1x of nextval). With CACHE 1 nextval
-- writes WAL every 32 values and locks a buffer per call; CACHE 100 is the cheap case in
-- which any overhead of ours shows most.
CREATE SEQUENCE bench.plain_c1;
CREATE SEQUENCE bench.plain_c100 CACHE 100;
SELECT create_code_sequence('bench.code_c1', 3) IS NOT NULL AS created;
SELECT create_code_sequence('bench.code_c100', 3) IS NOT NULL AS created;
ALTER SEQUENCE bench.code_c100 CACHE 100;
CREATE SEQUENCE bench.lexid_c1;
CREATE SEQUENCE bench.lexid_c100 CACHE 100;

SELECT bench.compare('sequences', 'nextval_code, CACHE 1', $$nextval_code('bench.code_c1')$$,
                     'nextval, CACHE 1', $$nextval('bench.plain_c1')$$, 2000000);
SELECT bench.compare('sequences', 'nextval_code, CACHE 100', $$nextval_code('bench.code_c100')$$,
                     'nextval, CACHE 100', $$nextval('bench.plain_c100')$$, 2000000);
SELECT bench.compare('sequences', 'nextval_lexid (typed seed), CACHE 1',
                     $$nextval_lexid('bench.lexid_c1', '00A000'::lexid(base36))$$,
                     'nextval, CACHE 1', $$nextval('bench.plain_c1')$$, 2000000);
SELECT bench.compare('sequences', 'nextval_lexid (typed seed), CACHE 100',
                     $$nextval_lexid('bench.lexid_c100', '00A000'::lexid(base36))$$,
                     'nextval, CACHE 100', $$nextval('bench.plain_c100')$$, 2000000);
SELECT bench.compare('sequences', 'nextval_lexid (untyped seed), CACHE 100',
                     $$nextval_lexid('bench.lexid_c100', '00A000')$$,
                     'nextval, CACHE 100', $$nextval('bench.plain_c100')$$, 2000000);
-- the seed article's approach written by hand: nextval, then chr() arithmetic in PL/pgSQL
CREATE FUNCTION bench.plpgsql_next_code(seq regclass) RETURNS text LANGUAGE plpgsql AS $$
DECLARE v int := nextval(seq);
BEGIN
    RETURN chr(65 + v / 676 % 26) || chr(65 + v / 26 % 26) || chr(65 + v % 26);
END $$;
SELECT bench.compare('sequences', 'PL/pgSQL nextval + chr() (seed), CACHE 100',
                     $$bench.plpgsql_next_code('bench.code_c100')$$,
                     'nextval, CACHE 100', $$nextval('bench.plain_c100')$$, 500000);

-- code_format beside to_hex(bigint); code_parse (reading stored codes) beside text::bigint
SELECT bench.compare('sequences', 'code_format(n, 3)', $$code_format(g % 17576, 3)$$,
                     'to_hex(int8)', $$to_hex((g % 17576)::int8)$$, 2000000);
CREATE TABLE bench.stored_codes AS
    SELECT code_format(g % 17576, 3) AS code, (g % 17576)::text AS num FROM generate_series(1, 2000000) g;
VACUUM ANALYZE bench.stored_codes;
CREATE FUNCTION bench.table_ns(expr text, floor_expr text, OUT med float8, OUT floor_ns float8)
LANGUAGE plpgsql AS $$
DECLARE t0 timestamptz; c bigint; nets float8[] := '{}'; floors float8[] := '{}'; f float8; t float8;
        n bigint := (SELECT count(*) FROM bench.stored_codes);
BEGIN
    EXECUTE format('SELECT count(%s) FROM bench.stored_codes', expr) INTO c;  -- warm-up
    FOR i IN 1..5 LOOP
        t0 := clock_timestamp();
        EXECUTE format('SELECT count(%s) FROM bench.stored_codes', floor_expr) INTO c;
        f := extract(epoch FROM clock_timestamp() - t0) * 1e9 / n;
        t0 := clock_timestamp();
        EXECUTE format('SELECT count(%s) FROM bench.stored_codes', expr) INTO c;
        t := extract(epoch FROM clock_timestamp() - t0) * 1e9 / n;
        nets := nets || greatest(t - f, 0);
        floors := floors || f;
    END LOOP;
    SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) INTO med FROM unnest(nets) x;
    SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY x) INTO floor_ns FROM unnest(floors) x;
END $$;
INSERT INTO bench.results (area, label, net_ns_median, net_ns_min, net_ns_max, floor_ns, baseline, baseline_ns)
SELECT 'sequences', 'code_parse(stored code)', a.med, NULL, NULL, a.floor_ns, 'text::int8 (stored)', b.med
  FROM bench.table_ns('code_parse(code)', 'code') a, bench.table_ns('num::int8', 'num') b;
