-- Public ids with a named key (1.3): idseq_public_id beside the same work with the key in the
-- SQL text (idseq_encode(idseq_scramble(id, 'literal'), 'base58', 0, 11)) and beside
-- to_hex(bigint); idseq_from_public_id beside idseq_unscramble(idseq_decode(...)) and
-- text::bigint, reading stored codes. (No sqids-style encoder exists in idseq to compare
-- with.) Net ns per call, see harness.sql.
DO $$
BEGIN
    IF EXISTS (SELECT FROM idseq_keys WHERE name = 'bench_key') THEN
        PERFORM idseq_drop_key('bench_key');
    END IF;
    PERFORM idseq_create_key('bench_key');
END $$;

-- ---- encode: computed values ----
SELECT bench.compare('public ids', 'idseq_public_id(id, named key)', $$idseq_public_id(g::int8, 'bench_key')$$,
                     'to_hex(bigint)', $$to_hex(g::int8)$$, 1000000);
SELECT bench.compare('public ids', 'idseq_public_id(id, named key)', $$idseq_public_id(g::int8, 'bench_key')$$,
                     'encode(scramble(id, literal key), base58, 0, 11)',
                     $$idseq_encode(idseq_scramble(g::int8, 'bench-key-0123456789'), 'base58', 0, 11)$$, 1000000);

-- ---- decode: stored codes (one table per spelling of the same 10^6 ids, vacuumed) ----
CREATE TABLE bench.pid_dec AS SELECT g::text AS c FROM generate_series(1, 1000000) g;
CREATE TABLE bench.pid_named AS SELECT idseq_public_id(g::int8, 'bench_key') AS c FROM generate_series(1, 1000000) g;
CREATE TABLE bench.pid_literal AS
    SELECT idseq_encode(idseq_scramble(g::int8, 'bench-key-0123456789'), 'base58', 0, 11) AS c
      FROM generate_series(1, 1000000) g;
-- codes that do not decode, as a visitor's URL brings them: a third with a symbol outside
-- base58, a third one symbol short, a third above 2^64 - 1
CREATE TABLE bench.pid_bad AS
    SELECT CASE n % 3 WHEN 0 THEN left(c, 10) || '0' WHEN 1 THEN left(c, 10) ELSE 'z' || right(c, 10) END AS c
      FROM (SELECT c, row_number() OVER () AS n FROM bench.pid_named) s;
VACUUM ANALYZE bench.pid_dec, bench.pid_named, bench.pid_literal, bench.pid_bad;

SELECT bench.compare_over('public ids', 'idseq_from_public_id(stored code, named key)',
                          $$idseq_from_public_id(c, 'bench_key')$$, 'bench.pid_named', 'c',
                          'text::bigint (stored decimal)', $$c::bigint$$, 'bench.pid_dec', 'c');
SELECT bench.compare_over('public ids', 'idseq_from_public_id(stored code, named key)',
                          $$idseq_from_public_id(c, 'bench_key')$$, 'bench.pid_named', 'c',
                          'unscramble(decode(code, base58, 0, 11), literal key)',
                          $$idseq_unscramble(idseq_decode(c, 'base58', 0, 11), 'bench-key-0123456789')$$,
                          'bench.pid_literal', 'c');
SELECT bench.compare_over('public ids', 'idseq_try_from_public_id(stored code, named key)',
                          $$idseq_try_from_public_id(c, 'bench_key')$$, 'bench.pid_named', 'c',
                          'text::bigint (stored decimal)', $$c::bigint$$, 'bench.pid_dec', 'c');
SELECT bench.compare_over('public ids', 'idseq_try_from_public_id(made-up code, named key)',
                          $$idseq_try_from_public_id(c, 'bench_key')$$, 'bench.pid_bad', 'c',
                          'text::bigint (stored decimal)', $$c::bigint$$, 'bench.pid_dec', 'c');

DROP TABLE bench.pid_dec, bench.pid_named, bench.pid_literal, bench.pid_bad;
SELECT idseq_drop_key('bench_key');
