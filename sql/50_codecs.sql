-- Display codecs and keyed public ids.
-- idseq_encode / idseq_decode over every charset, rotate and width, canonical spelling,
-- idseq_scramble / idseq_unscramble, and every error with its SQLSTATE.

-- Errors are shown as "SQLSTATE: message" (plus detail and hint) by this helper, so that
-- each error path shows its code.
CREATE FUNCTION pg_temp.err(q text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE d text; h text;
BEGIN
    EXECUTE q;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS d = PG_EXCEPTION_DETAIL, h = PG_EXCEPTION_HINT;
    RETURN SQLSTATE || ': ' || SQLERRM
        || CASE WHEN d <> '' THEN E'\nDETAIL: ' || d ELSE '' END
        || CASE WHEN h <> '' THEN E'\nHINT: ' || h ELSE '' END;
END $$;

-- ===== labels: pure functions are IMMUTABLE STRICT PARALLEL SAFE =====
SELECT p.oid::regprocedure AS function, provolatile, proisstrict, proparallel
  FROM pg_proc p
 WHERE proname IN ('idseq_encode', 'idseq_decode', 'idseq_scramble', 'idseq_unscramble')
 ORDER BY p.oid::regprocedure::text;

-- ===== the display-id article's form (display60) =====
-- base64url digits of 11093174944930914 are "naS8QBhxi"; the last two move to the front.
SELECT idseq_encode(11093174944930914, 'base64url') AS plain,
       idseq_encode(11093174944930914, 'base64url', 2) AS display,
       idseq_encode(11093174944930914, 'base64url', 2) = 'xinaS8QBh' AS matches_seed,
       idseq_decode('xinaS8QBh', 'base64url', 2) AS decoded;

-- ===== known answers: 0, 1, base-1, base, 2^63-1 for every built-in charset =====
SELECT c.name, c.base, v.label, idseq_encode(v.val, c.name) AS code,
       idseq_decode(idseq_encode(v.val, c.name), c.name) = v.val AS round_trip
  FROM unnest(ARRAY['digits', 'upper', 'lower', 'alpha', 'base36', 'base62', 'crockford32', 'base58',
                    'base64url', 'hex']) WITH ORDINALITY AS n(name, pos)
  JOIN idseq_charsets c USING (name)
 CROSS JOIN LATERAL (VALUES (1, '0', 0::bigint), (2, '1', 1), (3, 'base-1', c.base - 1), (4, 'base', c.base),
                            (5, '2^63-1', 9223372036854775807)) AS v(ord, label, val)
 ORDER BY n.pos, v.ord;

-- Decoding the same known codes, written out literally.
SELECT idseq_decode('9223372036854775807', 'digits') AS digits,
       idseq_decode('DSQYOMTLWMKGIH', 'upper') AS upper,
       idseq_decode('dsqyomtlwmkgih', 'lower') AS lower,
       idseq_decode('1Y2P0IJ32E8E7', 'base36') AS base36,
       idseq_decode('AzL8n0Y58m7', 'base62') AS base62;
SELECT idseq_decode('7ZZZZZZZZZZZZ', 'crockford32') AS crockford32,
       idseq_decode('NQm6nKp8qFC', 'base58') AS base58,
       idseq_decode('H__________', 'base64url') AS base64url,
       idseq_decode('7fffffffffffffff', 'hex') AS hex;
-- The default charset is base62.
SELECT idseq_encode(61) AS "61", idseq_encode(62) AS "62", idseq_decode('10') AS "'10'";

-- ===== rotate and width =====
-- width pads with the zero symbol (the charset's first); rotate moves the last symbols to the
-- front after padding; a rotation of at least the code's length leaves it unchanged.
SELECT r AS rotate, w AS width, idseq_encode(12345, 'digits', r, w) AS code,
       idseq_decode(idseq_encode(12345, 'digits', r, w), 'digits', r, w) AS decoded
  FROM (VALUES (0, 0), (2, 0), (4, 0), (5, 0), (6, 0), (64, 0), (0, 8), (2, 8), (7, 8), (8, 8), (0, 3))
       AS t(r, w);
SELECT idseq_encode(0, 'base58', 0, 6) AS zero_width6, idseq_encode(255, 'hex', 1, 6) AS hex_r1_w6,
       idseq_encode(0, 'digits', 64, 64) = repeat('0', 64) AS widest;
-- Codes that need more symbols than width are not cut.
SELECT idseq_encode(9223372036854775807, 'hex', 0, 4) AS longer_than_width;
-- Symbols are rotated, not bytes.
SELECT idseq_create_charset('codec_greek', 'αβγδεζηθ');
SELECT idseq_encode(66, 'codec_greek') AS plain, idseq_encode(66, 'codec_greek', 1) AS rotated,
       idseq_decode('γβα', 'codec_greek', 1) AS decoded, idseq_encode(1, 'codec_greek', 1, 3) AS padded_rotated;

-- ===== custom charsets =====
SELECT idseq_create_charset('codec_dna', 'ACGT');
SELECT idseq_create_charset('codec_order', '23456789ABCDEFGHJKLMNPQRSTUVWXYZ', true);
SELECT idseq_encode(v, 'codec_dna') AS dna, idseq_encode(v, 'codec_order', 0, 6) AS order_code,
       idseq_decode(idseq_encode(v, 'codec_order', 0, 6), 'codec_order', 0, 6) = v AS round_trip
  FROM (VALUES (0::bigint), (1), (27), (1000000), (9223372036854775807)) AS t(v);
-- order_code is case-insensitive: lower case decodes, upper case is the output.
SELECT idseq_decode('2223y2', 'codec_order', 0, 6) AS lower_case, idseq_decode('2223Y2', 'codec_order', 0, 6) AS upper_case;

-- ===== round trips over many values, every charset, rotate and width =====
-- Distinct values give distinct codes under the same (rotate, width).
SELECT c.name, count(*) AS checked,
       count(*) FILTER (WHERE idseq_decode(idseq_encode(x, c.name, r, w), c.name, r, w) <> x) AS mismatches,
       count(DISTINCT (r, w, idseq_encode(x, c.name, r, w))) = count(DISTINCT (r, w, x)) AS codes_distinct
  FROM idseq_charsets c
 CROSS JOIN LATERAL (SELECT (hashint8(g) & 9223372036854775807) >> (g % 63)::int AS x,
                            (g % 7)::int AS r, (g % 5)::int * 3 AS w
                       FROM generate_series(1, 3000) g) s
 WHERE c.builtin OR c.name LIKE 'codec\_%'
 GROUP BY c.name ORDER BY c.name;
-- Consecutive values: the same (rotate, width) for all, so the codes are all distinct.
SELECT count(*) AS n, count(DISTINCT idseq_encode(g, 'base64url', 2)) AS distinct_codes,
       bool_and(idseq_decode(idseq_encode(g, 'base64url', 2), 'base64url', 2) = g) AS all_round_trip
  FROM generate_series(0, 100000) g;

-- Sort order: with a width that covers every bigint and no rotation, codes sort like the ids
-- under COLLATE "C" for every built-in charset whose symbols are in ASCII order -- all but
-- base64url (A-Z, a-z, 0-9, "-", "_").
SELECT name, array_agg(x ORDER BY idseq_encode(x, name, 0, w) COLLATE "C") = array_agg(x ORDER BY x) AS sorts_like_ids
  FROM (SELECT name, length(idseq_encode(9223372036854775807, name)) AS w FROM idseq_charsets WHERE builtin) c
 CROSS JOIN (SELECT (hashint8(g) & 9223372036854775807) >> (g % 63)::int AS x FROM generate_series(1, 2000) g) s
 GROUP BY name ORDER BY name;

-- ===== case-insensitive charsets and crockford32 aliases =====
SELECT idseq_decode('FF', 'hex') AS "hex FF", idseq_decode('fF', 'hex') AS "hex fF",
       idseq_decode('zz', 'base36') AS "base36 zz", idseq_decode('ba', 'alpha') AS "alpha ba",
       idseq_encode(255, 'hex') AS "hex out", idseq_encode(1295, 'base36') AS "base36 out";
SELECT idseq_decode('1O', 'crockford32') AS "1O", idseq_decode('1o', 'crockford32') AS "1o",
       idseq_decode('I0', 'crockford32') AS "I0", idseq_decode('i0', 'crockford32') AS "i0",
       idseq_decode('L0', 'crockford32') AS "L0", idseq_decode('l0', 'crockford32') AS "l0",
       idseq_encode(32, 'crockford32') AS "32 out";
-- Case-sensitive charsets do not fold: base62 "a" and "A" are different digits.
SELECT idseq_decode('a') AS a, idseq_decode('A') AS "A";

-- ===== canonical spelling: each value has exactly one code per (charset, rotate, width) =====
SELECT idseq_decode('0') AS zero, idseq_decode('01', 'base62', 0, 2) AS "01 w2",
       idseq_decode('00', 'base62', 0, 2) AS "00 w2", idseq_decode('10', 'base62', 1, 2) AS "10 r1 w2",
       idseq_decode('123', 'base62', 0, 2) AS "123 w2";
SELECT q, pg_temp.err(q) AS result
  FROM (VALUES ($$SELECT idseq_decode('00')$$),
               ($$SELECT idseq_decode('01')$$),
               ($$SELECT idseq_decode('001', 'base62', 0, 2)$$),
               ($$SELECT idseq_decode('1', 'base62', 0, 2)$$),
               ($$SELECT idseq_decode('Z0', 'base62', 1)$$),
               ($$SELECT idseq_decode('O1', 'crockford32')$$),
               ($$SELECT idseq_decode('AB', 'base64url')$$),
               ($$SELECT idseq_decode('11', 'base58')$$)) AS t(q);

-- ===== errors =====
SELECT q, pg_temp.err(q) AS result
  FROM (VALUES
        -- unknown charset (the hint lists the known ones)
        ($$SELECT idseq_encode(1, 'base63')$$),
        ($$SELECT idseq_decode('1', 'Base62')$$),
        -- negative id
        ($$SELECT idseq_encode(-1)$$),
        ($$SELECT idseq_encode(-9223372036854775808, 'hex')$$),
        -- value above 2^63-1
        ($$SELECT idseq_decode('8000000000000000', 'hex')$$),
        ($$SELECT idseq_decode('9223372036854775808', 'digits')$$),
        ($$SELECT idseq_decode('AzL8n0Y58m8')$$),
        ($$SELECT idseq_decode(repeat('z', 100))$$),
        -- a symbol outside the charset, named with its position
        ($$SELECT idseq_decode('ab!c')$$),
        ($$SELECT idseq_decode('a-b', 'base62', 2)$$),
        ($$SELECT idseq_decode('0OIl', 'base58')$$),
        ($$SELECT idseq_decode('U', 'crockford32')$$),
        ($$SELECT idseq_decode('12 3', 'digits')$$),
        ($$SELECT idseq_decode(' 123', 'digits')$$),
        ($$SELECT idseq_decode('βxα', 'codec_greek')$$),
        ($$SELECT idseq_decode('é', 'hex')$$),
        ($$SELECT idseq_decode(E'ab\tc')$$),
        -- empty code
        ($$SELECT idseq_decode('')$$),
        ($$SELECT idseq_decode('', 'hex', 0, 4)$$),
        -- rotate and width out of range (0 .. 64)
        ($$SELECT idseq_encode(1, 'base62', -1)$$),
        ($$SELECT idseq_encode(1, 'base62', 65)$$),
        ($$SELECT idseq_encode(1, 'base62', 0, -1)$$),
        ($$SELECT idseq_encode(1, 'base62', 0, 65)$$),
        ($$SELECT idseq_decode('1', 'base62', -1)$$),
        ($$SELECT idseq_decode('1', 'base62', 0, 65)$$)) AS t(q);

-- An unknown charset is an error even when it only shows up in a later row.
SELECT pg_temp.err($$SELECT idseq_encode(1, cs) FROM (VALUES ('hex'), ('digits'), ('nope')) v(cs)$$);
-- The error as psql shows it, with its detail and hint.
SELECT idseq_decode('AzL8n0Y58m8');
SELECT idseq_decode('x!', 'hex');

-- ===== NULL in, NULL out (STRICT) =====
SELECT idseq_encode(NULL) IS NULL AS a, idseq_encode(1, NULL) IS NULL AS b, idseq_decode(NULL) IS NULL AS c,
       idseq_decode('1', 'base62', NULL) IS NULL AS d, idseq_scramble(1, NULL) IS NULL AS e,
       idseq_unscramble(NULL, 'k') IS NULL AS f, idseq_scramble(1, 'k', NULL) IS NULL AS g;

-- ===== the charset may change from row to row =====
SELECT cs, idseq_encode(255, cs) AS code, idseq_decode(idseq_encode(255, cs), cs) AS decoded
  FROM (VALUES ('hex'), ('digits'), ('hex'), ('codec_dna'), ('codec_greek'), ('base62'), ('base62')) AS v(cs);

-- ===== scramble: a keyed permutation of 0 .. 2^bits-1 =====
-- The permutation is part of the stored format: these values never change for this key.
SELECT idseq_scramble(0, 'idseq') AS s0, idseq_scramble(1, 'idseq') AS s1, idseq_scramble(12345, 'idseq', 32) AS s12345;
-- A bijection: all 2^16 inputs give 2^16 distinct outputs in range, and unscramble undoes it.
SELECT count(*) AS n, count(DISTINCT s) AS distinct_outputs, min(s) AS min, max(s) AS max,
       count(*) FILTER (WHERE idseq_unscramble(s, 'orders-2024', 16) <> g) AS not_undone,
       count(*) FILTER (WHERE s = g) AS fixed_points_few
  FROM (SELECT g, idseq_scramble(g, 'orders-2024', 16) AS s FROM generate_series(0, 65535) g) t;
-- Small sizes, exhaustively: bits = 1 .. 12.
SELECT bits, count(DISTINCT idseq_scramble(g, 'k', bits)) = 2 ^ bits AS bijective,
       bool_and(idseq_unscramble(idseq_scramble(g, 'k', bits), 'k', bits) = g) AS undone
  FROM generate_series(1, 12) bits, LATERAL generate_series(0, (2 ^ bits)::bigint - 1) g
 GROUP BY bits ORDER BY bits;
-- The full 63-bit range: round trips at the edges and on spread-out values.
SELECT count(*) AS checked,
       count(*) FILTER (WHERE idseq_unscramble(idseq_scramble(x, 'k'), 'k') <> x) AS not_undone,
       count(*) FILTER (WHERE idseq_scramble(x, 'k') < 0) AS negative
  FROM (SELECT hashint8(g) & 9223372036854775807 AS x FROM generate_series(1, 10000) g
        UNION ALL VALUES (0), (1), (9223372036854775806), (9223372036854775807)) t;
-- Different keys give different permutations; the same key the same one.
SELECT count(*) FILTER (WHERE idseq_scramble(g, 'key-a', 16) = idseq_scramble(g, 'key-b', 16)) AS same_under_two_keys,
       bool_and(idseq_scramble(g, 'key-a', 16) = idseq_scramble(g, 'key-' || 'a', 16)) AS same_key_same_output
  FROM generate_series(0, 65535) g;
-- Consecutive ids land far apart.
SELECT g AS id, idseq_scramble(g, 'secret') AS scrambled,
       idseq_encode(idseq_scramble(g, 'secret'), 'base64url') AS public_code
  FROM generate_series(1, 5) g;
-- Keys of any length; the key may change from row to row (longer than 64 bytes included).
SELECT length(k) AS key_length, idseq_unscramble(idseq_scramble(42, k), k) AS undone,
       idseq_scramble(42, k) = idseq_scramble(42, 'short') AS same_as_short
  FROM (VALUES ('short'), (repeat('long key ', 20)), ('short'), ('é'), (repeat('x', 100000))) AS v(k);
-- A public code: scramble, then encode; and back.
SELECT idseq_encode(idseq_scramble(1001, 'secret'), 'base58') AS public_code,
       idseq_unscramble(idseq_decode(idseq_encode(idseq_scramble(1001, 'secret'), 'base58'), 'base58'), 'secret') AS id;

SELECT q, pg_temp.err(q) AS result
  FROM (VALUES
        -- bits out of range (1 .. 63)
        ($$SELECT idseq_scramble(0, 'k', 0)$$),
        ($$SELECT idseq_scramble(0, 'k', 64)$$),
        ($$SELECT idseq_unscramble(0, 'k', -5)$$),
        -- id outside 0 .. 2^bits-1
        ($$SELECT idseq_scramble(-1, 'k')$$),
        ($$SELECT idseq_scramble(65536, 'k', 16)$$),
        ($$SELECT idseq_unscramble(2, 'k', 1)$$),
        ($$SELECT idseq_unscramble(-9223372036854775808, 'k')$$),
        -- empty key
        ($$SELECT idseq_scramble(1, '')$$),
        ($$SELECT idseq_unscramble(1, '', 16)$$)) AS t(q);
