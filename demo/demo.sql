-- idseq tour: every feature, on a throwaway cluster (make demo)
\pset footer off
CREATE EXTENSION idseq;

-- ===== 1. lexid: string ids that count like numbers =====
-- shortlex order over a charset: shorter first, then symbol by symbol
SELECT 'ZZ'::lexid + 1 AS "ZZ + 1 (base36)", '9'::lexid(digits) + 1 AS "9 + 1 (digits)",
       'Z'::lexid(upper) + 1 AS "Z + 1 (upper)", repeat('Z', 20)::lexid + 1 AS "no 64-bit ceiling";
SELECT name, symbols, base, case_insensitive FROM idseq_charsets;
-- Crockford base32 reads O as 0 and I/L as 1; case-insensitive charsets print their canonical case
SELECT 'oIl'::lexid(crockford32) AS crockford, 'deadBEEF'::lexid(hex) AS hex, 'aB'::lexid(base62) AS base62;
-- custom charsets work everywhere a built-in one does
SELECT idseq_create_charset('noambig', '23456789ABCDEFGHJKMNPQRSTUVWXYZ');
CREATE TABLE orders (code lexid(noambig) PRIMARY KEY, placed timestamptz DEFAULT now());
INSERT INTO orders (code) SELECT lexid_from_rank(g, 'noambig') FROM generate_series(1000, 1004) g;
SELECT code, lexid_rank(code) FROM orders ORDER BY code;
SELECT code FROM orders WHERE code > 'Z9' ORDER BY code LIMIT 2;
SELECT lexical_add('00A999', 'base36', 1) AS next_text, lexical_add('zz', 'base62', 1) AS ignore_case_default,
       lexical_add('zz', 'base62', 1, false) AS case_sensitive;
SELECT '000'::lexid(digits) - '9'::lexid(digits) AS distance, lexid_from_rank(1000000, 'base62') AS millionth;
-- errors name the bad value and carry a SQLSTATE
\set VERBOSITY default
SELECT 'AB!'::lexid;
SELECT '0'::lexid(digits) - 1;

-- ===== 2. generators on native sequences (crash-safe, non-blocking, gaps allowed) =====
-- seeded string ids: seed + (nextval - start), growing past the seed's width
CREATE SEQUENCE order_code_seq;
CREATE TABLE shop_orders (code lexid(base36) PRIMARY KEY DEFAULT nextval_lexid('order_code_seq', '00A000'), item text);
INSERT INTO shop_orders (item) VALUES ('tea'), ('cups'), ('kettle') RETURNING code, item;
-- blocks for application nodes: one nextval reserves increment_by ids
CREATE SEQUENCE node_block_seq INCREMENT BY 1000;
SELECT * FROM lexid_block('node_block_seq', 'A000'::lexid(base36));
SELECT * FROM lexid_block('node_block_seq', 'A000'::lexid(base36));
-- ... or n consecutive numbers of an ordinary sequence that nextval() shares, in one step
SELECT nextval_block('order_code_seq', 500) AS block, nextval('order_code_seq') AS next_after_it;
-- cycling fixed-width codes: AAA, AAB, ..., ZZZ, AAA
SELECT create_code_sequence('match_code');
SELECT nextval_code('match_code') FROM generate_series(1, 3);
SELECT setval('match_code', 17574);
SELECT nextval_code('match_code') FROM generate_series(1, 3);
SELECT code_format(17575, 3) AS last, code_parse('ZZZ') AS parsed, code_format(42, 4, 'digits') AS digits4;
-- a sequence of the wrong shape is refused with the right CREATE SEQUENCE in the hint
CREATE SEQUENCE plain_seq;
SELECT nextval_code('plain_seq');

-- ===== 3. snowflake ids (this cluster: shared_preload_libraries = idseq, idseq.node_id = 1) =====
SELECT name, epoch, fields, time_unit FROM snowflake_layouts;
SELECT snowflake_nextval() AS id FROM generate_series(1, 3);
SELECT (snowflake_unpack(snowflake_nextval())).*;
-- the node id this database issues with (what a clone's runbook checks in every database)
SELECT idseq_node_id() AS node_id;
SELECT snowflake_pack('snowflake', '2026-01-01 00:00:00+00', 7, 42) AS packed,
       snowflake_timestamp(snowflake_pack('snowflake', '2026-01-01 00:00:00+00', 7, 42)) AS ts,
       snowflake_min_id('2026-01-01 00:00:00+00') AS range_start;
-- the display-id article's 60-bit id: time 42 | seq 9 | rand 9, no node needed
SELECT * FROM snowflake_unpack(11093174944930914, 'display60');
-- your own layout: 10 ms units, 12 node bits
SELECT snowflake_create_layout('orders', '2024-01-01 00:00:00+00', 'time:40,node:12,seq:11', '10 milliseconds');
SELECT snowflake_nextval('orders') > 0 AS minted;
-- a field that does not fit its bits is an error naming the field and its range
SELECT snowflake_pack('snowflake', now(), 1024);

-- ===== 4. display codecs and keyed public ids =====
-- bigint -> short code and back, exactly; the display60 form rotates two characters
SELECT idseq_encode(11093174944930914, 'base64url', 2) AS seed_form,
       idseq_decode('xinaS8QBh', 'base64url', 2) AS decoded,
       idseq_encode(1001) AS base62, idseq_encode(1001, 'crockford32', 0, 6) AS fixed_width;
-- people type Crockford codes in any case, with O for 0 and L for 1
SELECT idseq_decode('9v95w8oc732', 'crockford32') AS typed_sloppily;
-- public ids: a keyed permutation hides order and volume; the key decodes them back
SELECT g AS id, idseq_encode(idseq_scramble(g, 'demo secret key'), 'base62') AS public_code,
       idseq_unscramble(idseq_decode(idseq_encode(idseq_scramble(g, 'demo secret key'), 'base62')), 'demo secret key') AS back
  FROM generate_series(1, 4) g;
-- the same with a key held by idseq under a name: the key is in no query, log line or error
SELECT idseq_create_key('demo_public');
SELECT g AS id, idseq_public_id(g, 'demo_public') AS public_id,
       idseq_from_public_id(idseq_public_id(g, 'demo_public'), 'demo_public') AS back
  FROM generate_series(1, 3) g;
-- a code from a URL that is not one: NULL, not an error
SELECT idseq_try_from_public_id('not-a-code', 'demo_public') AS from_url;
-- JavaScript-safe: ids above 2^53 travel as strings
SELECT idseq_encode(9007199254740993, 'digits') AS as_text;
-- one spelling per value: a second spelling is an error, not an alias
SELECT idseq_decode('0G9');
