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

SELECT bench.compare_over('codecs', 'idseq_decode(stored base62 code)', $$idseq_decode(c)$$, 'bench.codes_b62', 'c',
                          'text::bigint (stored decimal)', $$c::bigint$$, 'bench.codes_dec', 'c');
SELECT bench.compare_over('codecs', 'idseq_decode(stored seed-form code, ''base64url'', 2)',
                          $$idseq_decode(c, 'base64url', 2)$$, 'bench.codes_seed', 'c',
                          'text::bigint (stored decimal)', $$c::bigint$$, 'bench.codes_dec', 'c');
SELECT bench.compare_over('codecs', 'idseq_decode(stored hex code, ''hex'')', $$idseq_decode(c, 'hex')$$, 'bench.codes_hex', 'c',
                          'text::bigint (stored decimal)', $$c::bigint$$, 'bench.codes_dec', 'c');

DROP TABLE bench.codes_dec, bench.codes_b62, bench.codes_seed, bench.codes_hex;
