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
SELECT bench.compare_over('sequences', 'code_parse(stored code)', 'code_parse(code)', 'bench.stored_codes', 'code',
                          'text::int8 (stored)', 'num::int8', 'bench.stored_codes', 'num');
