-- A catalogue of hostile input. Every function of the extension is fed NULLs,
-- empty strings, white space, control and multi-byte characters, a megabyte of input,
-- INT64_MIN / INT64_MAX counts, extreme widths, unknown names and objects of the wrong shape.
-- Each case must end in a clean error with the SQLSTATE the contract calls for (never
-- XX000, never a crashed backend) and must change nothing; the "nothing changed" checks
-- follow each group. Every case is recorded in a temp table; the last queries check that
-- no case gave XX000 or slipped through without an error.
CREATE SCHEMA hostile;
SET search_path = hostile, public;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO';
\pset null '(null)'
\x off

CREATE TEMP TABLE catalogue (n serial PRIMARY KEY, area text NOT NULL, q text NOT NULL,
                             state text, message text, detail text, hint text);

-- Runs each statement through expect_error (sql/00_setup.sql), records the outcome and
-- shows it as "SQLSTATE: message", then the detail and hint. Messages that echo a megabyte
-- of input are cut here (the length is shown), and the custom charsets and layouts listed in
-- the hint for an unknown name are elided: they depend on the tests that ran before.
CREATE FUNCTION pg_temp.hostile(area text, VARIADIC qs text[])
RETURNS TABLE (n integer, q text, result text) LANGUAGE plpgsql AS $$
DECLARE
    s text;
    c catalogue;
BEGIN
    FOREACH s IN ARRAY qs LOOP
        INSERT INTO catalogue (area, q, state, message, detail, hint)
             SELECT area, s, e.state, e.message, e.detail, e.hint FROM expect_error(s) e
          RETURNING * INTO c;
        n := c.n;
        q := CASE WHEN length(c.q) > 90 THEN left(c.q, 87) || '...' ELSE c.q END;
        result := c.state
            || CASE WHEN c.message IS NULL THEN ''
                    WHEN length(c.message) > 160
                    THEN ': ' || left(c.message, 60) || '... (' || length(c.message) || ' characters)'
                    ELSE ': ' || c.message END
            || CASE WHEN c.detail <> '' THEN E'\nDETAIL: ' || c.detail ELSE '' END
            || CASE WHEN c.hint <> ''
                    THEN E'\nHINT: ' || regexp_replace(regexp_replace(c.hint,
                             '(base64url, hex)(, [a-z0-9_, ]*)?\. ', '\1, <custom charsets>. '),
                             '(display60, nonsequential)(, [a-z0-9_, ]*)?\. ', '\1, <custom layouts>. ')
                    ELSE '' END;
        RETURN NEXT;
    END LOOP;
END $$;

-- What each group may not change.
CREATE FUNCTION pg_temp.registry_state() RETURNS text LANGUAGE sql AS $$
    SELECT count(*) || ' rows, md5 ' || md5(coalesce(string_agg(r::text, ',' ORDER BY id), ''))
      FROM idseq_charset_registry r $$;
CREATE FUNCTION pg_temp.relations() RETURNS text LANGUAGE sql AS $$
    SELECT string_agg(relname || ':' || relkind::text, ' ' ORDER BY relname)
      FROM pg_class WHERE relnamespace = 'hostile'::regnamespace $$;
CREATE FUNCTION pg_temp.seq_positions() RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    r record;
    out text := '';
    pos text;
BEGIN
    FOR r IN SELECT c.oid::regclass AS seq FROM pg_class c
              WHERE c.relnamespace = 'hostile'::regnamespace AND c.relkind = 'S' ORDER BY c.relname LOOP
        EXECUTE format('SELECT last_value || CASE WHEN is_called THEN '' called'' ELSE '''' END FROM %s', r.seq)
           INTO pos;
        out := out || r.seq || '=' || pos || ' ';
    END LOOP;
    RETURN rtrim(out);
END $$;

-- ===== NULLs: the strict functions return NULL =====
SELECT 'A'::lexid + NULL IS NULL AS add_null, NULL::lexid - 'A'::lexid IS NULL AS distance,
       lexical_add(NULL::lexid, 1) IS NULL AS add_lexid, lexical_add(NULL, 'upper', 1) IS NULL AS add_text,
       lexical_add('A', NULL, 1) IS NULL AS add_text_cs, lexical_add('A', 'upper', NULL) IS NULL AS add_text_n,
       lexical_add('A', 'upper', 1, NULL) IS NULL AS add_text_ci, lexid_rank(NULL) IS NULL AS rank,
       lexid_from_rank(NULL, 'upper') IS NULL AS from_rank, lexid_from_rank(1, NULL) IS NULL AS from_rank_cs,
       lexid_charset(NULL) IS NULL AS charset, lexid_cmp(NULL, 'A') IS NULL AS cmp,
       (NULL::lexid = 'A') IS NULL AS eq, lexid_hash(NULL) IS NULL AS hash,
       NULL::text::lexid IS NULL AS cast_in, NULL::lexid::text IS NULL AS cast_out;
SELECT code_format(NULL, 3) IS NULL AS format_n, code_format(1, NULL) IS NULL AS format_w,
       code_format(1, 3, NULL) IS NULL AS format_cs, code_parse(NULL) IS NULL AS parse,
       code_parse('A', NULL) IS NULL AS parse_cs, create_code_sequence(NULL) IS NULL AS create_name,
       create_code_sequence('hostile_null_w', NULL) IS NULL AS create_w,
       create_code_sequence('hostile_null_cs', 3, NULL) IS NULL AS create_cs,
       nextval_code(NULL) IS NULL AS code_seq, nextval_lexid(NULL, 'A') IS NULL AS lexid_seq,
       nextval_lexid('pg_class', NULL) IS NULL AS lexid_seed,
       (SELECT count(*) FROM lexid_block(NULL, 'A')) AS block_rows,
       nextval_block(NULL, 1) IS NULL AS block_seq, nextval_block('pg_class', NULL) IS NULL AS block_size;
SELECT idseq_encode(NULL) IS NULL AS encode, idseq_encode(1, NULL) IS NULL AS encode_cs,
       idseq_encode(1, 'hex', NULL) IS NULL AS encode_rot, idseq_encode(1, 'hex', 0, NULL) IS NULL AS encode_w,
       idseq_decode(NULL) IS NULL AS decode, idseq_decode('1', NULL) IS NULL AS decode_cs,
       idseq_scramble(NULL, 'k') IS NULL AS scramble, idseq_scramble(1, NULL) IS NULL AS scramble_key,
       idseq_scramble(1, 'k', NULL) IS NULL AS scramble_bits, idseq_unscramble(NULL, 'k') IS NULL AS unscramble;
-- (a strict function with a NULL argument is not even called, so nothing was created)
SELECT pg_temp.relations() AS relations;

-- ===== charsets: idseq_create_charset and the registry =====
SELECT idseq_create_charset('hostile_mb', 'a€😀');       -- symbols of 1, 3 and 4 bytes
SELECT idseq_create_charset('hostile_accents', 'éÉ', true); -- case folding is ASCII only
SELECT idseq_create_charset('hostile_combining', E'e\u0301x');
SELECT name, symbols, base, case_insensitive FROM idseq_charsets WHERE name LIKE 'hostile\_%' ORDER BY name;
SELECT pg_temp.registry_state() AS registry_before \gset
SELECT * FROM pg_temp.hostile('charset',
    -- names
    $$SELECT idseq_create_charset('', 'AB')$$,
    $$SELECT idseq_create_charset(' ', 'AB')$$,
    $$SELECT idseq_create_charset(repeat('a', 64), 'AB')$$,
    $$SELECT idseq_create_charset(repeat('a', 1000000), 'AB')$$,
    $$SELECT idseq_create_charset(E'ab\ncd', 'AB')$$,
    $$SELECT idseq_create_charset('Hostile', 'AB')$$,
    $$SELECT idseq_create_charset('ünï', 'AB')$$,
    $$SELECT idseq_create_charset('base36', 'AB')$$,
    $$SELECT idseq_create_charset('hostile_mb', 'a€😀')$$,
    $$SELECT idseq_create_charset('hostile_mb', 'xyz')$$,
    -- symbols
    $$SELECT idseq_create_charset('hostile_x', '')$$,
    $$SELECT idseq_create_charset('hostile_x', 'A')$$,
    $$SELECT idseq_create_charset('hostile_x', 'ABCA')$$,
    $$SELECT idseq_create_charset('hostile_x', 'abcB', true)$$,
    $$SELECT idseq_create_charset('hostile_x', '€a😀€')$$,
    $$SELECT idseq_create_charset('hostile_x', repeat('A', 1000000))$$,
    $$SELECT idseq_create_charset('hostile_x', (SELECT string_agg(chr(g), '') FROM generate_series(256, 10000) g))$$,
    $$SELECT idseq_create_charset('hostile_x', 'A B')$$,
    $$SELECT idseq_create_charset('hostile_x', E'AB\x01')$$,
    $$SELECT idseq_create_charset('hostile_x', E'AB\u00a0')$$,
    $$SELECT idseq_create_charset('hostile_x', E'AB\u200b')$$,
    $$SELECT idseq_create_charset('hostile_x', E'AB\u2028')$$,
    -- NULLs (not strict: a NULL is an error)
    $$SELECT idseq_create_charset(NULL, 'AB')$$,
    $$SELECT idseq_create_charset('hostile_x', NULL)$$,
    $$SELECT idseq_create_charset('hostile_x', 'AB', NULL)$$,
    -- the registry table itself, written directly
    $$INSERT INTO idseq_charset_registry VALUES (1, 'hostile_x', 'AB', false)$$,
    $$INSERT INTO idseq_charset_registry VALUES (0, 'hostile_mb', 'AB', false)$$,
    $$INSERT INTO idseq_charset_registry SELECT id, 'hostile_y', symbols, false FROM idseq_charset_registry WHERE name = 'hostile_mb'$$,
    $$INSERT INTO idseq_charset_registry VALUES (1024, 'hostile_x', 'AA', false)$$,
    $$SELECT idseq_charset_check(-1, '', '', false)$$);
-- Two names whose ids (FNV-1a of the name, folded into 1024 .. 2^31-1) are equal: the
-- second is refused, so no two charsets ever share an id.
SELECT idseq_create_charset('col1j3', 'AB');
SELECT * FROM pg_temp.hostile('charset', $$SELECT idseq_create_charset('ccev27', 'CD')$$);
SELECT name, id FROM idseq_charset_registry WHERE name IN ('col1j3', 'ccev27');
SELECT pg_temp.registry_state() AS registry_before \gset
-- A charset created in a subtransaction that rolls back is forgotten with it.
SELECT * FROM pg_temp.hostile('charset',
    $q$DO $do$ BEGIN
          PERFORM idseq_create_charset('hostile_rolled', 'AB');
          PERFORM lexical_add('A', 'hostile_rolled', 1);
          RAISE division_by_zero;
      END $do$$q$,
    $$SELECT lexical_add('A', 'hostile_rolled', 1)$$);
SELECT pg_temp.registry_state() = :'registry_before' AS registry_unchanged;
-- Case folding is ASCII only, and symbols are code points (no Unicode normalization):
SELECT 'é'::lexid(hostile_accents) = 'É'::lexid(hostile_accents) AS accents_fold,
       E'\u0301e'::lexid(hostile_combining)::text = E'\u0301e' AS combining_mark_is_a_symbol;
SELECT * FROM pg_temp.hostile('charset', $$SELECT 'é'::lexid(hostile_combining)$$);

-- ===== the lexid type: input, output, type modifiers, casts =====
SELECT * FROM pg_temp.hostile('lexid input',
    $$SELECT ''::lexid$$,
    $$SELECT ' '::lexid$$,
    $$SELECT ' A'::lexid$$,
    $$SELECT 'A '::lexid(upper)$$,
    $$SELECT E'A\n'::lexid$$,
    $$SELECT E'\t'::lexid(upper)$$,
    $$SELECT '€'::lexid + 0$$,
    $$SELECT 'a€😀x'::lexid(hostile_mb)$$,
    $$SELECT repeat('A', 1025)::lexid$$,
    $$SELECT repeat('A', 1000000)::lexid$$,
    $$SELECT repeat('😀', 1000000)::lexid(hostile_mb)$$,
    $$SELECT repeat('A', 1000000)::text::lexid(upper)$$,
    $$SELECT chr(0)::lexid$$,
    $$SELECT 'A'::lexid(nosuch)$$,
    $$SELECT 'A'::lexid("UPPER")$$,
    $$SELECT 'A'::lexid(1)$$,
    $$SELECT 'A'::lexid(upper, upper, upper, upper)$$,
    $$SELECT 'A'::lexid('$$ || repeat('a', 1000000) || $$')$$,
    $$SELECT 'A'::lexid(upper, 'ABC')$$,
    $$SELECT 'A'::lexid(hostile_mb, 'ABC')$$,
    $$SELECT 'A'::lexid(hostile_new, 'AA')$$,
    $$SELECT 'A'::lexid(hostile_new, 'AB', 'maybe')$$,
    $$SELECT format_type('lexid'::regtype, 123456)$$);
-- values of different charsets never compare, subtract, aggregate or get stored together
CREATE TABLE upper_codes (c lexid(upper));
SELECT * FROM pg_temp.hostile('lexid operators',
    $$SELECT 'A'::lexid(upper) = 'A'::lexid(base36)$$,
    $$SELECT 'A'::lexid(upper) < 'a'::lexid(lower)$$,
    $$SELECT lexid_cmp('A'::lexid(upper), 'A'::lexid(alpha))$$,
    $$SELECT 'A'::lexid(upper) - 'A'::lexid(alpha)$$,
    $$SELECT 'A'::lexid(upper) <> 'A'::lexid(base36)$$,
    $$SELECT 'A'::lexid(upper) <= 'A'::lexid(base36)$$,
    $$SELECT 'A'::lexid(upper) > 'A'::lexid(base36)$$,
    $$SELECT 'A'::lexid(upper) >= 'A'::lexid(base36)$$,
    $$SELECT max(v) FROM (VALUES ('A'::lexid(upper)), ('B'::lexid(base36))) t(v)$$,
    $$SELECT min(v) FROM (VALUES ('A'::lexid(upper)), ('B'::lexid(base36))) t(v)$$,
    $$SELECT 'A'::lexid(upper) = 'a'$$,
    $$SELECT 'A'::lexid(upper) = ''$$,
    $$SELECT lexid_rank('a-b')$$,
    $$SELECT lexid_charset('a-b')$$,
    $$INSERT INTO upper_codes VALUES ('A'::lexid(base36))$$,
    $$INSERT INTO upper_codes VALUES ('a€'::lexid(hostile_mb))$$,
    $$UPDATE upper_codes SET c = 'Z'::lexid(alpha)$$);
SELECT count(*) AS upper_codes_rows FROM upper_codes;

-- lexical_add at the ends of the order and of bigint
SELECT * FROM pg_temp.hostile('lexical_add',
    $$SELECT lexical_add('A'::lexid, -9223372036854775808)$$,
    $$SELECT 'A'::lexid - 9223372036854775807$$,
    $$SELECT '0'::lexid(digits) - 1$$,
    $$SELECT repeat('Z', 1024)::lexid + 1$$,
    $$SELECT repeat('Z', 1024)::lexid(upper) - (-9223372036854775808)$$,
    $$SELECT lexical_add(repeat('Z', 1024)::lexid(upper), 9223372036854775807)$$,
    $$SELECT lexical_add('', 'upper', -1)$$,
    $$SELECT lexical_add('A', 'upper', -9223372036854775808)$$,
    $$SELECT lexical_add(repeat('Z', 1024), 'upper', 1)$$,
    $$SELECT lexical_add(repeat('9', 1024), 'digits', 9223372036854775807)$$,
    $$SELECT lexical_add(repeat('Z', 1000000), 'upper', 1)$$,
    $$SELECT lexical_add(' ', 'upper', 1)$$,
    $$SELECT lexical_add('A B', 'upper', 1)$$,
    $$SELECT lexical_add(E'AB\r', 'upper', 1)$$,
    $$SELECT lexical_add('€', 'upper', 1)$$,
    $$SELECT lexical_add('a€😀b', 'hostile_mb', 1)$$,
    $$SELECT lexical_add(chr(0), 'upper', 1)$$,
    $$SELECT lexical_add('A', '', 1)$$,
    $$SELECT lexical_add('A', ' upper', 1)$$,
    $$SELECT lexical_add('A', 'UPPER', 1)$$,
    $$SELECT lexical_add('A', repeat('x', 1000000), 1)$$);
-- ...and what they can do: the limits themselves are fine
SELECT length(lexical_add(repeat('Z', 1023)::lexid(upper), 1)::text) AS "1023 Z + 1",
       length(lexical_add(repeat('Z', 1000), 'upper', 9223372036854775807)) AS "1000 Z + INT64_MAX",
       lexical_add('A'::lexid(upper), 9223372036854775807) - 'A'::lexid(upper) AS "A + INT64_MAX - A",
       'A'::lexid(upper) - (-9223372036854775808) = 'A'::lexid(upper) + 9223372036854775807 + 1 AS "A - INT64_MIN";

SELECT * FROM pg_temp.hostile('rank',
    $$SELECT lexid_from_rank(0, 'upper')$$,
    $$SELECT lexid_from_rank(-1, 'upper')$$,
    $$SELECT lexid_from_rank(1.5, 'upper')$$,
    $$SELECT lexid_from_rank('NaN', 'upper')$$,
    $$SELECT lexid_from_rank('Infinity', 'upper')$$,
    $$SELECT lexid_from_rank('-Infinity', 'upper')$$,
    $$SELECT lexid_from_rank(10::numeric ^ 2000, 'upper')$$,
    $$SELECT lexid_from_rank(-9223372036854775808, 'digits')$$,
    $$SELECT lexid_from_rank(1, '')$$,
    $$SELECT lexid_from_rank(1, 'nosuch')$$);
SELECT length(lexid_rank(repeat('z', 1024)::lexid(base62))::text) AS digits_of_largest_rank,
       lexid_from_rank(lexid_rank(repeat('z', 1024)::lexid(base62)), 'base62') = repeat('z', 1024)::lexid(base62) AS round_trip;

-- binary receive (lexid_recv), fed through COPY ... FROM (FORMAT binary): a bytea column
-- copied out in binary holds exactly the payload bytes, which are then read as a lexid.
-- The payload is: version byte 2, charset name and NUL, the charset's 16-byte fingerprint,
-- int4 length, one byte per digit; version 1 (idseq 1.1, and 1.2's own form for built-in
-- charsets and untyped values) has no fingerprint and is read for those only.
CREATE TABLE recv_in (b bytea);
-- (a stored lexid names its charset: one table per charset received)
CREATE TABLE recv_out (v lexid(upper));
CREATE TABLE recv_upper (v lexid(upper));
CREATE TABLE recv_mb (v lexid(hostile_mb));
CREATE FUNCTION pg_temp.recv(payload bytea, target text DEFAULT 'recv_out') RETURNS text LANGUAGE plpgsql AS $$
DECLARE
    f text := current_setting('data_directory') || '/idseq_hostile_recv.bin';
    r text;
BEGIN
    TRUNCATE recv_in, recv_out, recv_upper, recv_mb;
    INSERT INTO recv_in VALUES (payload);
    EXECUTE format('COPY recv_in TO %L (FORMAT binary)', f);
    EXECUTE format('COPY %I FROM %L (FORMAT binary)', target, f);
    EXECUTE format('SELECT v::text || '' ('' || lexid_charset(v) || '')'' FROM %I', target) INTO r;
    RETURN r;
END $$;
SELECT pg_temp.recv('\x01' || convert_to('upper', 'UTF8') || '\x00' || '\x00000002' || '\x0001') AS upper_ab_v1,
       pg_temp.recv(lexid_send('AB'::lexid(upper))) AS upper_ab,
       pg_temp.recv(lexid_send('😀€a'::lexid(hostile_mb)), 'recv_mb') AS mb;
-- a custom charset's value needs the fingerprint (version 2) that matches this definition;
-- a built-in one's fingerprint is checked too; a version 2 value cut short is 08P01
SELECT * FROM expect_error($$SELECT pg_temp.recv('\x01' || convert_to('hostile_mb', 'UTF8') || '\x00' || '\x00000003' || '\x020100', 'recv_mb')$$);
SELECT * FROM expect_error($$SELECT pg_temp.recv('\x02' || convert_to('hostile_mb', 'UTF8') || '\x00' || '\x00000000000000000000000000000000' || '\x00000001' || '\x00', 'recv_mb')$$);
SELECT * FROM expect_error($$SELECT pg_temp.recv('\x02' || convert_to('upper', 'UTF8') || '\x00' || '\x00000000000000000000000000000000' || '\x00000001' || '\x00', 'recv_upper')$$);
SELECT * FROM expect_error($$SELECT pg_temp.recv('\x02' || convert_to('upper', 'UTF8') || '\x00' || '\x0011')$$);
SELECT * FROM pg_temp.hostile('lexid binary',
    $$SELECT pg_temp.recv('\x03')$$,
    $$SELECT pg_temp.recv('\x01')$$,
    $$SELECT pg_temp.recv('\x01' || convert_to('upper', 'UTF8'))$$,
    $$SELECT pg_temp.recv('\x01' || convert_to('upper', 'UTF8') || '\x00' || '\x00000002' || '\x00')$$,
    $$SELECT pg_temp.recv('\x01' || convert_to('upper', 'UTF8') || '\x00' || '\x00000000')$$,
    $$SELECT pg_temp.recv('\x01' || convert_to('upper', 'UTF8') || '\x00' || '\xffffffff')$$,
    $$SELECT pg_temp.recv('\x01' || convert_to('upper', 'UTF8') || '\x00' || '\x7fffffff' || convert_to(repeat('A', 1000000), 'UTF8'))$$,
    $$SELECT pg_temp.recv('\x01' || convert_to('upper', 'UTF8') || '\x00' || '\x00000002' || '\x001a')$$,
    $$SELECT pg_temp.recv('\x01' || convert_to('upper', 'UTF8') || '\x00' || '\x00000001' || '\x00ff')$$,
    $$SELECT pg_temp.recv('\x01' || convert_to('nosuch', 'UTF8') || '\x00' || '\x00000001' || '\x00')$$,
    $$SELECT pg_temp.recv('\x01ff00'::bytea || '\x00000001' || '\x00')$$,
    $$SELECT pg_temp.recv('\x01' || convert_to('base36', 'UTF8') || '\x00' || '\x00000001' || '\x00', 'recv_upper')$$);
-- the failed receives added nothing: the tables hold what the last good one left
SELECT v, lexid_charset(v) FROM recv_mb;

-- ===== generators on native sequences =====
CREATE TABLE not_a_seq (x int PRIMARY KEY);
INSERT INTO not_a_seq VALUES (1);
CREATE VIEW not_a_seq_view AS SELECT 1 AS x;
CREATE SEQUENCE plain_seq;
CREATE SEQUENCE no_cycle MINVALUE 0 MAXVALUE 17575;
CREATE SEQUENCE min_one MINVALUE 1 MAXVALUE 17575 CYCLE;
CREATE SEQUENCE odd_max MINVALUE 0 MAXVALUE 17574 CYCLE;
CREATE SEQUENCE by_two MINVALUE 0 MAXVALUE 17575 INCREMENT BY 2 CYCLE;
CREATE SEQUENCE descending MINVALUE 0 MAXVALUE 17575 INCREMENT BY -1 CYCLE;
CREATE SEQUENCE good_code MINVALUE 0 MAXVALUE 17575 CYCLE;
CREATE SEQUENCE cycling_blocks INCREMENT BY 10 MAXVALUE 1000 CYCLE;
CREATE SEQUENCE huge_down INCREMENT BY -9223372036854775807 MINVALUE -9223372036854775808
    MAXVALUE 9223372036854775807 START 9223372036854775807;
SELECT * FROM pg_temp.hostile('code_format',
    $$SELECT code_format(-1, 3)$$,
    $$SELECT code_format(-9223372036854775808, 3)$$,
    $$SELECT code_format(17576, 3)$$,
    $$SELECT code_format(9223372036854775807, 13)$$,
    $$SELECT code_format(0, 0)$$,
    $$SELECT code_format(0, -1)$$,
    $$SELECT code_format(0, -2147483648)$$,
    $$SELECT code_format(0, 2147483647)$$,
    $$SELECT code_format(0, 65, 'digits')$$,
    $$SELECT code_format(0, 3, '')$$,
    $$SELECT code_format(0, 3, repeat('x', 1000000))$$);
SELECT * FROM pg_temp.hostile('code_parse',
    $$SELECT code_parse('')$$,
    $$SELECT code_parse(' ')$$,
    $$SELECT code_parse(' AAA')$$,
    $$SELECT code_parse('AA A')$$,
    $$SELECT code_parse(E'AAA\n')$$,
    $$SELECT code_parse('aaa')$$,
    $$SELECT code_parse('€')$$,
    $$SELECT code_parse('a€😀x', 'hostile_mb')$$,
    $$SELECT code_parse('ZZZZZZZZZZZZZZ')$$,
    $$SELECT code_parse(repeat('A', 1000000))$$,
    $$SELECT code_parse(repeat('f', 16), 'hex')$$,
    $$SELECT code_parse('AAA', 'nosuch')$$);
SELECT pg_temp.relations() AS relations_before \gset
SELECT * FROM pg_temp.hostile('create_code_sequence',
    $$SELECT create_code_sequence('')$$,
    $$SELECT create_code_sequence('hostile_w0', 0)$$,
    $$SELECT create_code_sequence('hostile_wneg', -1)$$,
    $$SELECT create_code_sequence('hostile_wmax', 2147483647)$$,
    $$SELECT create_code_sequence('hostile_w14', 14)$$,
    $$SELECT create_code_sequence('hostile_cs', 3, 'nosuch')$$,
    $$SELECT create_code_sequence('hostile_cs', 3, repeat('x', 1000000))$$,
    $$SELECT create_code_sequence('not_a_seq')$$,
    $$SELECT create_code_sequence('plain_seq')$$,
    $$SELECT create_code_sequence('pg_catalog.hostile_seq')$$,
    $$SELECT create_code_sequence('no_such_schema.hostile_seq')$$,
    $$SELECT create_code_sequence('otherdb.hostile.hostile_seq')$$);
SELECT pg_temp.relations() = :'relations_before' AS no_relation_created;
-- Text that is not a (qualified) name is taken verbatim as the name, quoted: one sequence of
-- exactly that name is created, never anything else; an over-long name is cut to 63 bytes
-- as PostgreSQL cuts every identifier.
SELECT create_code_sequence('x"; DROP TABLE not_a_seq; --') AS quoted,
       create_code_sequence(E'tab\there') AS control_char,
       create_code_sequence('😀') AS emoji,
       length(create_code_sequence(repeat('s', 1000000))::text) AS megabyte_name;
SELECT count(*) AS not_a_seq_still_there FROM not_a_seq;

SELECT pg_temp.seq_positions() AS positions_before \gset

SELECT * FROM pg_temp.hostile('nextval_code',
    $$SELECT nextval_code('plain_seq')$$,
    $$SELECT nextval_code('no_cycle')$$,
    $$SELECT nextval_code('min_one')$$,
    $$SELECT nextval_code('odd_max')$$,
    $$SELECT nextval_code('by_two')$$,
    $$SELECT nextval_code('descending')$$,
    $$SELECT nextval_code('good_code', 'digits')$$,
    $$SELECT nextval_code('good_code', 'nosuch')$$,
    $$SELECT nextval_code('good_code', '')$$,
    $$SELECT nextval_code('not_a_seq')$$,
    $$SELECT nextval_code('not_a_seq_view')$$,
    $$SELECT nextval_code('not_a_seq_pkey')$$,
    $$SELECT nextval_code('pg_class')$$,
    $$SELECT nextval_code('no_such_seq')$$,
    $$SELECT nextval_code(repeat('q', 1000000))$$,
    $$SELECT nextval_code(0)$$,
    $$SELECT nextval_code(4294967295)$$);
SELECT * FROM pg_temp.hostile('nextval_lexid',
    $$SELECT nextval_lexid('not_a_seq', 'A')$$,
    $$SELECT nextval_lexid('not_a_seq_view', 'A')$$,
    $$SELECT nextval_lexid('pg_class', 'A')$$,
    $$SELECT nextval_lexid('no_such_seq', 'A')$$,
    $$SELECT nextval_lexid('plain_seq', '')$$,
    $$SELECT nextval_lexid('plain_seq', ' A')$$,
    $$SELECT nextval_lexid('plain_seq', repeat('A', 1000000)::lexid)$$,
    $$SELECT nextval_lexid('plain_seq', 'A'::lexid(nosuch))$$,
    $$SELECT nextval_lexid(0, 'A')$$);
SELECT * FROM pg_temp.hostile('lexid_block',
    $$SELECT * FROM lexid_block('cycling_blocks', 'A')$$,
    $$SELECT * FROM lexid_block('not_a_seq', 'A')$$,
    $$SELECT * FROM lexid_block('not_a_seq_view', 'A')$$,
    $$SELECT * FROM lexid_block('no_such_seq', 'A')$$,
    $$SELECT * FROM lexid_block('plain_seq', '')$$,
    $$SELECT * FROM lexid_block(0, 'A')$$);
SELECT pg_temp.seq_positions() = :'positions_before' AS no_sequence_advanced;
-- A descending sequence reserves blocks downwards; one that would reach before the first
-- value is 22003. That error comes after nextval (a sequence never gives a value back), like
-- any error after nextval in a transaction: the value is spent, never handed out twice.
SELECT * FROM pg_temp.hostile('lexid_block',
    $$SELECT * FROM lexid_block('huge_down', 'A')$$,
    $$SELECT nextval_lexid('huge_down', 'A')$$);

-- ===== display codecs =====
SELECT * FROM pg_temp.hostile('idseq_encode',
    $$SELECT idseq_encode(-1)$$,
    $$SELECT idseq_encode(-9223372036854775808)$$,
    $$SELECT idseq_encode(1, '')$$,
    $$SELECT idseq_encode(1, repeat('x', 1000000))$$,
    $$SELECT idseq_encode(1, 'base62', -1)$$,
    $$SELECT idseq_encode(1, 'base62', -2147483648)$$,
    $$SELECT idseq_encode(1, 'base62', 2147483647)$$,
    $$SELECT idseq_encode(1, 'base62', 0, -1)$$,
    $$SELECT idseq_encode(1, 'base62', 0, 65)$$,
    $$SELECT idseq_encode(1, 'base62', 0, 2147483647)$$);
SELECT * FROM pg_temp.hostile('idseq_decode',
    $$SELECT idseq_decode('')$$,
    $$SELECT idseq_decode(' ')$$,
    $$SELECT idseq_decode(' 1')$$,
    $$SELECT idseq_decode(E'1\n')$$,
    $$SELECT idseq_decode('€')$$,
    $$SELECT idseq_decode('a€😀x', 'hostile_mb')$$,
    $$SELECT idseq_decode('AzL8n0Y58m8')$$,
    $$SELECT idseq_decode(repeat('z', 1000000))$$,
    $$SELECT idseq_decode(repeat('0', 1000000))$$,
    $$SELECT idseq_decode('1', 'base62', -1)$$,
    $$SELECT idseq_decode('1', 'base62', 0, -2147483648)$$,
    $$SELECT idseq_decode('1', 'nosuch')$$);
SELECT * FROM pg_temp.hostile('idseq_scramble',
    $$SELECT idseq_scramble(-1, 'k')$$,
    $$SELECT idseq_scramble(-9223372036854775808, 'k')$$,
    $$SELECT idseq_unscramble(9223372036854775807, 'k', 62)$$,
    $$SELECT idseq_scramble(2, 'k', 1)$$,
    $$SELECT idseq_scramble(1, '')$$,
    $$SELECT idseq_unscramble(1, '')$$,
    $$SELECT idseq_scramble(1, 'k', 0)$$,
    $$SELECT idseq_scramble(1, 'k', 64)$$,
    $$SELECT idseq_unscramble(1, 'k', -2147483648)$$);
-- a huge key is a clean program limit (not an allocation failure); a code longer than any
-- bigint's code is refused before it is scanned; names and values in messages are quoted
-- with control characters as \xNN at every length, and at most 64 bytes of a value
SELECT * FROM expect_error($$SELECT idseq_scramble(1, repeat('k', 1048577))$$);
SELECT * FROM expect_error($$SELECT idseq_unscramble(1, repeat('k', 10000000))$$);
SELECT * FROM expect_error($$SELECT idseq_decode(repeat('€', 20000000), 'hostile_mb')$$);
SELECT * FROM expect_error($$SELECT idseq_decode(repeat('1', 257))$$);
SELECT idseq_decode(repeat('0', 63) || '1', 'base62', 0, 64) AS longest_code_decodes;
SELECT state, message FROM expect_error($$SELECT idseq_encode(1, E'no\tsuch')$$);
SELECT * FROM expect_error($$SELECT repeat('A', 1000)::lexid(upper)::lexid(base36)$$);
DO $$ DECLARE v lexid(upper) := 'AB'; BEGIN
    IF v::lexid(base36) = 'AB' THEN RAISE NOTICE 'equal'; END IF;
EXCEPTION WHEN datatype_mismatch THEN RAISE NOTICE 'comparison: %', SQLERRM; END $$;
-- A megabyte key, multi-byte and control characters in keys are fine (any bytes are a key).
SELECT idseq_unscramble(idseq_scramble(42, repeat('k', 1000000)), repeat('k', 1000000)) AS megabyte_key,
       idseq_unscramble(idseq_scramble(42, E'😀\x01\n'), E'😀\x01\n') AS odd_key;

-- ===== snowflake ids =====
-- layouts made beforehand (a layout is usable from the next statement on)
SELECT snowflake_create_layout('hostile_ancient', '4713-01-01 00:00:00+00 BC', 'time:41,seq:12');
SELECT snowflake_create_layout('hostile_future', '200000-01-01 00:00:00+00', 'time:41,seq:12');
SELECT name, epoch, fields, last_time FROM snowflake_layouts WHERE name LIKE 'hostile\_%' ORDER BY name;
CREATE FUNCTION pg_temp.layout_state() RETURNS text LANGUAGE sql AS $$
    SELECT (SELECT count(*) || ' layouts, md5 ' || md5(coalesce(string_agg(r::text, ',' ORDER BY name), ''))
              FROM idseq_layout_registry r)
           || ', ' || (SELECT count(*) FROM pg_class WHERE relname LIKE 'idseq\_sf\_%') || ' state sequences' $$;
SELECT pg_temp.layout_state() AS layouts_before \gset
SELECT * FROM pg_temp.hostile('snowflake_create_layout',
    -- names
    $$SELECT snowflake_create_layout('', now(), 'time:41')$$,
    $$SELECT snowflake_create_layout(' ', now(), 'time:41')$$,
    $$SELECT snowflake_create_layout(repeat('a', 64), now(), 'time:41')$$,
    $$SELECT snowflake_create_layout(repeat('a', 1000000), now(), 'time:41')$$,
    $$SELECT snowflake_create_layout('Hostile', now(), 'time:41')$$,
    $$SELECT snowflake_create_layout(E'hostile\n', now(), 'time:41')$$,
    $$SELECT snowflake_create_layout('snowflake', now(), 'time:41')$$,
    $$SELECT snowflake_create_layout('hostile_ancient', '2020-01-01 00:00:00+00', 'time:41')$$,
    -- fields
    $$SELECT snowflake_create_layout('hostile_x', now(), '')$$,
    $$SELECT snowflake_create_layout('hostile_x', now(), ' ')$$,
    $$SELECT snowflake_create_layout('hostile_x', now(), 'time:0')$$,
    $$SELECT snowflake_create_layout('hostile_x', now(), 'time:64')$$,
    $$SELECT snowflake_create_layout('hostile_x', now(), 'time:41,node:-5')$$,
    $$SELECT snowflake_create_layout('hostile_x', now(), 'time:-1,node:10')$$,
    $$SELECT snowflake_create_layout('hostile_x', now(), 'node:10,seq:12')$$,
    $$SELECT snowflake_create_layout('hostile_x', now(), 'time:41,time:1')$$,
    $$SELECT snowflake_create_layout('hostile_x', now(), 'time:41,Node:10')$$,
    $$SELECT snowflake_create_layout('hostile_x', now(), 'time:41,node:10,seq:13')$$,
    $$SELECT snowflake_create_layout('hostile_x', now(), 'time:20,node:32')$$,
    $$SELECT snowflake_create_layout('hostile_x', now(), 'time:2147483648')$$,
    $$SELECT snowflake_create_layout('hostile_x', now(), 'time:99999999999999999999')$$,
    $$SELECT snowflake_create_layout('hostile_x', now(), 'time:41,,node:1')$$,
    $$SELECT snowflake_create_layout('hostile_x', now(), 'time:4€1')$$,
    $$SELECT snowflake_create_layout('hostile_x', now(), repeat('time:1,', 1000000))$$,
    -- epochs and time units
    $$SELECT snowflake_create_layout('hostile_x', 'infinity', 'time:41')$$,
    $$SELECT snowflake_create_layout('hostile_x', '-infinity', 'time:41')$$,
    $$SELECT snowflake_create_layout('hostile_x', '294276-12-31 00:00:00+00', 'time:41')$$,
    $$SELECT snowflake_create_layout('hostile_x', now(), 'time:41', '0')$$,
    $$SELECT snowflake_create_layout('hostile_x', now(), 'time:41', '-1 ms')$$,
    $$SELECT snowflake_create_layout('hostile_x', now(), 'time:41', '0.4 microseconds')$$,
    $$SELECT snowflake_create_layout('hostile_x', now(), 'time:41', '1 month')$$,
    $$SELECT snowflake_create_layout('hostile_x', now(), 'time:41', 'forever')$$,
    -- NULLs (not strict: a NULL is an error)
    $$SELECT snowflake_create_layout(NULL, now(), 'time:41')$$,
    $$SELECT snowflake_create_layout('hostile_x', NULL, 'time:41')$$,
    $$SELECT snowflake_create_layout('hostile_x', now(), NULL)$$,
    $$SELECT snowflake_create_layout('hostile_x', now(), 'time:41', NULL)$$,
    -- the registry table and its check, directly
    $$INSERT INTO idseq_layout_registry VALUES ('hostile_x', now(), 'time:99', '1 ms', 'pg_class', 'pg_class')$$,
    $$SELECT idseq_snowflake_check('hostile_x', now(), 'time:41,rand:0', '1 ms')$$,
    $$SELECT idseq_snowflake_describe('infinity', 'time:41', '1 ms')$$);
SELECT pg_temp.layout_state() = :'layouts_before' AS layouts_unchanged;
SELECT * FROM pg_temp.hostile('snowflake_pack',
    $$SELECT snowflake_pack('nosuch', now())$$,
    $$SELECT snowflake_pack('', now())$$,
    $$SELECT snowflake_pack(repeat('x', 1000000), now())$$,
    $$SELECT snowflake_pack('snowflake', 'infinity')$$,
    $$SELECT snowflake_pack('snowflake', '-infinity')$$,
    $$SELECT snowflake_pack('snowflake', '2000-01-01 00:00:00+00')$$,
    $$SELECT snowflake_pack('snowflake', '2200-01-01 00:00:00+00')$$,
    $$SELECT snowflake_pack('snowflake', '294276-12-31 00:00:00+00')$$,
    $$SELECT snowflake_pack('snowflake', '4713-01-01 00:00:00+00 BC')$$,
    $$SELECT snowflake_pack('snowflake', now(), -1)$$,
    $$SELECT snowflake_pack('snowflake', now(), 1024)$$,
    $$SELECT snowflake_pack('snowflake', now(), 0, -2147483648)$$,
    $$SELECT snowflake_pack('snowflake', now(), 0, 4096)$$,
    $$SELECT snowflake_pack('snowflake', now(), 0, 0, 1)$$,
    $$SELECT snowflake_pack('display60', now(), 2147483647)$$);
SELECT * FROM pg_temp.hostile('snowflake_unpack',
    $$SELECT * FROM snowflake_unpack(-1)$$,
    $$SELECT * FROM snowflake_unpack(-9223372036854775808)$$,
    $$SELECT * FROM snowflake_unpack(9223372036854775807, 'display60')$$,
    $$SELECT * FROM snowflake_unpack(1, 'nosuch')$$,
    $$SELECT snowflake_timestamp(-1)$$,
    $$SELECT snowflake_timestamp(1152921504606846976, 'display60')$$,
    $$SELECT snowflake_timestamp(1, '')$$,
    $$SELECT snowflake_min_id('infinity')$$,
    $$SELECT snowflake_min_id('-infinity')$$,
    $$SELECT snowflake_min_id('1900-01-01 00:00:00+00')$$,
    $$SELECT snowflake_min_id('2300-01-01 00:00:00+00')$$,
    $$SELECT snowflake_min_id(now(), 'nosuch')$$,
    $$SELECT idseq_snowflake_lower_id(now(), 'nosuch', false)$$,
    $$SELECT idseq_snowflake_upper_id('infinity', repeat('x', 1000000), true)$$);
-- every bigint from 0 up unpacks (the sign bit is the only invalid one); the extremes:
SELECT (snowflake_unpack(9223372036854775807)).*, (snowflake_unpack(0)).*;
-- the bounds of time predicates in local time: unknown layouts and units are refused; the
-- ends of the date and timestamp ranges and layouts near them give bounds, not errors
SELECT snowflake_create_layout('hostile_node_first', '2020-01-01 00:00:00+00', 'node:4,time:41,seq:12');
SELECT * FROM pg_temp.hostile('time bounds',
    $$SELECT idseq_snowflake_date_lower_id(current_date, 'nosuch', false)$$,
    $$SELECT idseq_snowflake_date_upper_id('5874897-12-31', repeat('x', 1000000), true)$$,
    $$SELECT idseq_snowflake_date_lower_id(current_date, 'hostile_node_first', false)$$,
    $$SELECT idseq_snowflake_trunc_lower_id('fortnight', now(), NULL, 'snowflake', false)$$,
    $$SELECT idseq_snowflake_trunc_lower_id(repeat('x', 1000000), now(), 'UTC', 'snowflake', false)$$,
    $$SELECT idseq_snowflake_trunc_upper_id('day', now(), repeat('x', 1000000), 'nosuch', true)$$,
    $$SELECT idseq_snowflake_trunc_upper_id('day', now(), 'UTC', 'hostile_node_first', true)$$,
    $$SELECT idseq_snowflake_date_exact(current_date, -2147483648)$$,
    $$SELECT idseq_snowflake_trunc_exact('day', now(), NULL, 3)$$,
    $$SELECT idseq_snowflake_trunc_exact(repeat('x', 1000000), now(), repeat('x', 1000000), 0)$$);
SELECT d, idseq_snowflake_date_lower_id(d, l, false) AS date_lower, idseq_snowflake_date_upper_id(d, l, true) AS date_upper,
       idseq_snowflake_trunc_lower_id('year', idseq_compare_as_timestamptz(d), NULL, l, true) AS year_lower,
       idseq_snowflake_trunc_upper_id('week', idseq_compare_as_timestamptz(d), 'America/St_Johns', l, false) AS week_upper,
       idseq_snowflake_trunc_lower_id('day', idseq_compare_as_timestamptz(d), 'no/such zone', l, false) AS unknown_zone,
       idseq_snowflake_date_exact(d, 0) AND idseq_snowflake_trunc_exact('week', idseq_compare_as_timestamptz(d), 'EST', 0)
           AS exact
  FROM unnest(ARRAY['4714-11-24 BC', '4713-01-01 BC', '2000-01-01', '200000-01-01', '294276-12-31',
                    '5874897-12-31', '-infinity', 'infinity']::date[]) d,
       unnest(ARRAY['hostile_ancient', 'hostile_future', 'snowflake']) l
 ORDER BY l, d;
SELECT * FROM pg_temp.hostile('snowflake_nextval',
    $$SELECT snowflake_nextval('nosuch')$$,
    $$SELECT snowflake_nextval('')$$,
    $$SELECT snowflake_nextval(repeat('x', 1000000))$$,
    $$SELECT snowflake_nextval('hostile_ancient')$$,
    $$SELECT snowflake_nextval('hostile_future')$$);
-- version 7 UUIDs and their 128-bit text (1.3)
SELECT * FROM pg_temp.hostile('snowflake_uuid',
    $$SELECT snowflake_uuid(-1)$$,
    $$SELECT snowflake_uuid(9223372036854775807, 'display60')$$,
    $$SELECT snowflake_uuid(1, repeat('x', 1000000))$$,
    $$SELECT snowflake_uuid(0, 'hostile_ancient')$$,
    $$SELECT snowflake_uuid(0, 'hostile_future')$$,
    $$SELECT snowflake_from_uuid('00000000-0000-0000-0000-000000000000')$$,
    $$SELECT snowflake_from_uuid('ffffffff-ffff-7fff-bfff-ffffffffffff')$$,
    $$SELECT snowflake_from_uuid('ffffffff-ffff-7000-8000-000000000000', 'hostile_future')$$,
    $$SELECT snowflake_from_uuid('00000000-0000-7000-8000-000000000000', '')$$,
    $$SELECT idseq_uuidv7_bound('-infinity')$$,
    $$SELECT idseq_uuidv7_bound('4713-01-01 00:00:00+00 BC')$$,
    $$SELECT idseq_uuidv7_bound('294276-12-31 23:59:59.999999+00')$$,
    $$SELECT idseq_decode_uuid(repeat('0', 1000000))$$,
    $$SELECT idseq_decode_uuid(repeat('€', 26))$$,
    $$SELECT idseq_decode_uuid(E'0000000000000000000000000\n')$$,
    $$SELECT idseq_decode_uuid('zzzzzzzzzzzzzzzzzzzzzzzzzz')$$,
    $$SELECT idseq_decode_uuid('1', 'nosuch')$$,
    $$SELECT idseq_decode_uuid(repeat('1', 128), 'digits')$$,
    $$SELECT idseq_encode('00000000-0000-0000-0000-000000000000'::uuid, '')$$);

-- ===== invalid UTF-8 never reaches the extension =====
-- The server checks every text value's encoding where it enters (literals, convert_from,
-- COPY, the binary protocol), so the functions above only ever see valid UTF-8.
SELECT * FROM pg_temp.hostile('encoding',
    $$SELECT lexical_add(convert_from('\xc328', 'UTF8'), 'upper', 1)$$,
    $$SELECT idseq_decode(convert_from('\xff', 'UTF8'))$$,
    $$SELECT idseq_create_charset('hostile_bad_utf8', convert_from('\x41eda080', 'UTF8'))$$);

-- ===== snowflake field orders whose ids cannot increase (1.2) =====
SELECT * FROM pg_temp.hostile('snowflake field order',
    $$SELECT snowflake_create_layout('hostile_x', now(), 'seq:12,time:41,node:10')$$,
    $$SELECT idseq_snowflake_check_new('hostile_x', now(), 'time:41,rand:4,seq:8', '1 ms')$$);

-- min and max of values without a charset (the aggregates the planner calls for them): values
-- of two charsets never compare (their support functions take an internal state: only an
-- aggregate calls them)
SELECT * FROM pg_temp.hostile('min/max as written',
    $$SELECT lexid_max_as_written(v, v) FROM (VALUES ('A'::lexid(upper)), ('B'::lexid(base36))) t(v)$$,
    $$SELECT lexid_min_as_written(v, v) FROM (VALUES ('A'::lexid(upper)), ('B'::lexid(base36))) t(v)$$);
-- ===== nextval_block (1.3) =====
SELECT pg_temp.seq_positions() AS positions_before \gset
SELECT * FROM pg_temp.hostile('nextval_block',
    $$SELECT nextval_block('plain_seq', 0)$$,
    $$SELECT nextval_block('plain_seq', -2147483648)$$,
    $$SELECT nextval_block('no_cycle', 17577)$$,
    $$SELECT nextval_block('by_two', 1)$$,
    $$SELECT nextval_block('descending', 1)$$,
    $$SELECT nextval_block('good_code', 1)$$,
    $$SELECT nextval_block('huge_down', 1)$$,
    $$SELECT nextval_block('not_a_seq', 1)$$,
    $$SELECT nextval_block('not_a_seq_view', 1)$$,
    $$SELECT nextval_block('not_a_seq_pkey', 1)$$,
    $$SELECT nextval_block('pg_class', 1)$$,
    $$SELECT nextval_block('no_such_seq', 1)$$,
    $$SELECT nextval_block(0, 1)$$,
    $$SELECT nextval_block(4294967295, 1)$$);
SELECT pg_temp.seq_positions() = :'positions_before' AS no_sequence_advanced;
-- ===== public ids with named keys (1.3) =====
-- A bad code is 22P02 or 22003 (the try_ variant's NULL is shown in 52_named_keys); NULL
-- names are 22004; names no key can have, 22023; no message shows key bytes.
CREATE FUNCTION pg_temp.key_state() RETURNS text LANGUAGE sql AS $$
    SELECT count(*) || ' keys: ' || coalesce(string_agg(name || '/' || usage::text, ' ' ORDER BY name), '')
      FROM idseq_keys $$;
SELECT idseq_create_key('hostile_k');
SELECT pg_temp.key_state() AS keys_before \gset
SELECT * FROM pg_temp.hostile('named keys',
    $$SELECT idseq_create_key(NULL)$$,
    $$SELECT idseq_create_key('')$$,
    $$SELECT idseq_create_key(repeat('k', 1000000))$$,
    $$SELECT idseq_create_key(repeat('€', 22))$$,
    $$SELECT idseq_create_key('hostile_k')$$,
    $$SELECT idseq_import_key('hostile_new', NULL)$$,
    $$SELECT idseq_import_key(NULL, '\x00')$$,
    $$SELECT idseq_import_key('hostile_new', '')$$,
    $$SELECT idseq_import_key('hostile_new', pg_catalog.decode(repeat('ab', 1000000), 'hex'))$$,
    $$SELECT idseq_import_key('hostile_k', pg_catalog.decode(repeat('ab', 32), 'hex'))$$,
    $$SELECT idseq_export_key(NULL)$$,
    $$SELECT idseq_export_key('')$$,
    $$SELECT idseq_export_key('nosuch')$$,
    $$SELECT idseq_drop_key(NULL)$$,
    $$SELECT idseq_drop_key(repeat('k', 1000000))$$,
    $$SELECT idseq_drop_key(E'hostile_k\n')$$,
    $$SELECT idseq_grant_key('hostile_k', NULL)$$,
    $$SELECT idseq_grant_key('hostile_k', 0::oid::regrole)$$,
    $$SELECT idseq_grant_key('nosuch', current_user::regrole)$$,
    $$SELECT idseq_revoke_key('hostile_k', 4294967295::oid::regrole)$$,
    $$SELECT idseq_revoke_key(NULL, current_user::regrole)$$);
SELECT * FROM pg_temp.hostile('public ids',
    $$SELECT idseq_public_id(1, 'nosuch')$$,
    $$SELECT idseq_public_id(1, '')$$,
    $$SELECT idseq_public_id(1, repeat('k', 1000000))$$,
    $$SELECT idseq_public_id(-9223372036854775808, 'hostile_k', 'nosuch')$$,
    $$SELECT idseq_public_id(9223372036854775807, 'hostile_k', 'base58', -1)$$,
    $$SELECT idseq_public_id(1, 'hostile_k', 'base58', 2147483647)$$,
    $$SELECT idseq_public_id('x', 'hostile_k')$$,
    $$SELECT idseq_from_public_id('', 'hostile_k')$$,
    $$SELECT idseq_from_public_id(' 1111111111', 'hostile_k')$$,
    $$SELECT idseq_from_public_id(repeat('z', 1000000), 'hostile_k')$$,
    $$SELECT idseq_from_public_id(repeat('€', 11), 'hostile_k')$$,
    $$SELECT idseq_from_public_id(E'\x01\x02', 'hostile_k')$$,
    $$SELECT idseq_from_public_id('zzzzzzzzzzz', 'hostile_k')$$,
    $$SELECT idseq_from_public_id(repeat('1', 64) || '2', 'hostile_k', 'base58', 64)$$,
    $$SELECT idseq_from_public_id('11111111111', 'hostile_k', 'base58', -2147483648)$$,
    $$SELECT idseq_from_public_id('11111111111', 'nosuch')$$,
    $$SELECT idseq_try_from_public_id('11111111111', 'hostile_k', 'base58', 65)$$,
    $$SELECT idseq_try_from_public_id('11111111111', '')$$,
    $$SELECT idseq_try_from_public_id('11111111111', 'hostile_k', '')$$);
-- the try_ variant on the same bad codes: NULL, never an error
SELECT count(*) AS bad_codes, count(idseq_try_from_public_id(c, 'hostile_k')) AS decoded
  FROM unnest(ARRAY['', ' 1111111111', repeat('z', 1000000), repeat('€', 11), E'\x01\x02', 'zzzzzzzzzzz',
                    repeat('1', 12), '11111111111 ']) c;
SELECT pg_temp.key_state() = :'keys_before' AS keys_unchanged;
SELECT idseq_drop_key('hostile_k');
-- ===== counters per key (1.3) =====
-- NULL names and keys are 22004; names, keys, periods, zones and formats out of shape 22023;
-- unknown counters 42704; a code below 1 22003; nothing is taken or made.
CREATE FUNCTION pg_temp.counter_state() RETURNS text LANGUAGE sql AS $$
    SELECT (SELECT count(*) FROM idseq_counters) || ' counters, '
           || (SELECT count(*) || ' keys, last ' || coalesce(sum(last), 0) FROM idseq_counter_keys) $$;
SELECT idseq_create_counter('hostile_c', period => 'day', format => 'H-{code:base58}');
SELECT idseq_counter_next('hostile_c', 'k') AS taken;
SELECT pg_temp.counter_state() AS counters_before \gset
SELECT * FROM pg_temp.hostile('counters',
    $$SELECT idseq_create_counter(NULL)$$,
    $$SELECT idseq_create_counter(repeat('c', 1000000))$$,
    $$SELECT idseq_create_counter(E'hostile\n')$$,
    $$SELECT idseq_create_counter('hostile_c')$$,
    $$SELECT idseq_create_counter('hostile_new', false, repeat('y', 1000000))$$,
    $$SELECT idseq_create_counter('hostile_new', false, 'year', repeat('z', 1000000))$$,
    $$SELECT idseq_create_counter('hostile_new', false, 'year', '')$$,
    $$SELECT idseq_create_counter('hostile_new', false, NULL, 'UTC', 9223372036854775807)$$,
    $$SELECT idseq_create_counter('hostile_new', false, NULL, 'UTC', 1, repeat('{n}', 1000000))$$,
    $$SELECT idseq_create_counter('hostile_new', false, NULL, 'UTC', 1, '{n:99}')$$,
    $$SELECT idseq_create_counter('hostile_new', false, NULL, 'UTC', 1, '{code:base58:0}')$$,
    $$SELECT idseq_drop_counter(NULL)$$,
    $$SELECT idseq_drop_counter(repeat('c', 1000000))$$,
    $$SELECT idseq_counter_next('hostile_c', NULL)$$,
    $$SELECT idseq_counter_next('hostile_c', repeat('k', 1000000))$$,
    $$SELECT idseq_counter_next(repeat('c', 1000000), 'k')$$,
    $$SELECT idseq_counter_next('', 'k')$$,
    $$SELECT idseq_counter_next_text(NULL, 'k')$$,
    $$SELECT idseq_counter_block('hostile_c', 'k', -2147483648)$$,
    $$SELECT idseq_counter_block('hostile_c', NULL, 1)$$,
    $$SELECT idseq_counter_set('hostile_c', 'k', NULL)$$,
    $$SELECT idseq_counter_current(NULL)$$,
    $$SELECT idseq_counter_format('hostile_c', -9223372036854775808, 'k')$$,
    $$SELECT idseq_counter_format('hostile_c', 1, NULL)$$,
    $$SELECT idseq_counter_format('hostile_c', 1, 'k', 'infinity')$$,
    $$SELECT idseq_counter_render('hostile_c', 1, 'k', 12345)$$,
    $$SELECT idseq_counter_render(NULL, 1, 'k', 20260101)$$,
    $$SELECT * FROM idseq_counter_gaps(NULL, 'k', 'pg_class', 'relname')$$,
    $$SELECT * FROM idseq_counter_gaps('hostile_c', 'k', 'pg_class', 'relname', repeat('2', 1000000))$$,
    $$SELECT * FROM idseq_counter_gaps('hostile_c', 'k', 'pg_class', 'nosuch', NULL)$$,
    $$SELECT idseq_counter_fill()$$);
SELECT pg_temp.counter_state() = :'counters_before' AS counters_unchanged;
SELECT idseq_drop_counter('hostile_c');
-- ===== the catalogue =====
-- Every case ended in an error (none slipped through), none of them XX000.
SELECT count(*) AS cases, count(DISTINCT area) AS areas,
       count(*) FILTER (WHERE state = 'XX000') AS internal_errors,
       count(*) FILTER (WHERE state = 'no error') AS not_rejected
  FROM catalogue;
SELECT state, count(*) AS cases, string_agg(DISTINCT area, ', ' ORDER BY area) AS areas
  FROM catalogue GROUP BY state ORDER BY state;
-- Every function of the extension that takes an argument is in the catalogue: by name, or
-- through the operator, cast, type or aggregate it implements (listed here).
SELECT p.oid::regprocedure AS function, r.route
  FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass AND d.deptype = 'e'
  JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'idseq'
  LEFT JOIN LATERAL (
       SELECT string_agg(x, ', ' ORDER BY x) AS route FROM (
           SELECT 'operator ' || o.oprname FROM pg_operator o WHERE o.oprcode = p.oid
           UNION SELECT 'cast to ' || format_type(c.casttarget, NULL) FROM pg_cast c WHERE c.castfunc = p.oid
           UNION SELECT 'type input (casts)' FROM pg_type t WHERE t.typinput = p.oid
           UNION SELECT 'type output (casts)' FROM pg_type t WHERE t.typoutput = p.oid
           UNION SELECT 'type receive (COPY binary)' FROM pg_type t WHERE t.typreceive = p.oid
           UNION SELECT 'type send (COPY binary)' FROM pg_type t WHERE t.typsend = p.oid
           UNION SELECT 'type modifier input' FROM pg_type t WHERE t.typmodin = p.oid
           UNION SELECT 'type modifier output (format_type)' FROM pg_type t WHERE t.typmodout = p.oid
           UNION SELECT 'aggregate ' || a.aggfnoid::regproc FROM pg_aggregate a
                  WHERE p.oid IN (a.aggtransfn, a.aggcombinefn, a.aggfinalfn, a.aggserialfn, a.aggdeserialfn)
           UNION SELECT 'aggregate' WHERE p.prokind = 'a'
           UNION SELECT 'support of the ' || am.amname || ' opclass' FROM pg_amproc ap
                  JOIN pg_opfamily f ON f.oid = ap.amprocfamily JOIN pg_am am ON am.oid = f.opfmethod
                 WHERE ap.amproc = p.oid
           UNION SELECT 'planner support of operators' FROM pg_proc s WHERE s.prosupport = p.oid) s(x)) r ON true
 WHERE p.pronargs > 0 AND p.prorettype <> 'trigger'::regtype
   AND NOT EXISTS (SELECT FROM catalogue c WHERE c.q ~ ('\m' || p.proname || '\M'))
 ORDER BY p.oid::regprocedure::text;

RESET search_path;
RESET TimeZone;
RESET DateStyle;
-- registered charsets and layouts are final (their registries refuse DELETE): they stay
SET client_min_messages = warning;
DROP SCHEMA hostile CASCADE;
RESET client_min_messages;
